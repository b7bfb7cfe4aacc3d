//! The UCI protocol loop and options.
//!
//! The main thread reads commands; `go` hands the engine to a search thread, so `isready`,
//! `stop`, `ponderhit` and `quit` are answered while it thinks. Lines are parsed with
//! vampirc-uci; anything malformed or unknown is answered with `info string` and ignored.

use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Duration;

use shakmaty::{Color, Position};
use vampirc_uci::{parse_one, UciMessage, UciTimeControl};

use super::position::{parse_uci_move, uci_string, Game};
use super::score::{Bound, UciScore};
use super::search::{Control, Engine, Info, SearchParams, SearchResult};
use super::weaken::Weakening;
use crate::strength::{clock_seed, Settings};

const NAME: &str = concat!("skillcal ", env!("CARGO_PKG_VERSION"));

/// Options of the engine itself; the weakening options live in [`Settings`].
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    pub move_overhead_ms: u64,
    pub ponder: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            move_overhead_ms: 10,
            ponder: false,
        }
    }
}

/// The engine's own options; the weakening options follow them (`Settings::uci_options`).
const OPTION_LINES: &[&str] = &[
    "option name Hash type spin default 16 min 1 max 4096",
    "option name Threads type spin default 1 min 1 max 1",
    "option name Clear Hash type button",
    "option name Move Overhead type spin default 10 min 0 max 5000",
    "option name Ponder type check default false",
];

fn say(line: &str) {
    let out = std::io::stdout();
    let mut lock = out.lock();
    let _ = writeln!(lock, "{line}");
    let _ = lock.flush();
}

fn info_line(info: &Info) -> String {
    let mut s = format!(
        "info depth {} seldepth {} multipv {} score {}",
        info.depth,
        info.seldepth,
        info.multipv,
        UciScore::from_score(info.score)
    );
    match info.bound {
        Some(Bound::Lower) => s.push_str(" lowerbound"),
        Some(Bound::Upper) => s.push_str(" upperbound"),
        _ => {}
    }
    s.push_str(&format!(
        " nodes {} nps {} hashfull {} time {} pv",
        info.nodes,
        info.nps,
        info.hashfull,
        info.time.as_millis()
    ));
    for m in &info.pv {
        s.push(' ');
        s.push_str(&uci_string(*m));
    }
    s
}

fn bestmove_line(result: &SearchResult) -> String {
    match result.best {
        None => "bestmove 0000".to_string(),
        Some(m) => match result.ponder {
            Some(p) => format!("bestmove {} ponder {}", uci_string(m), uci_string(p)),
            None => format!("bestmove {}", uci_string(m)),
        },
    }
}

/// Protocol state.
pub struct Uci {
    engine: Option<Engine>,
    worker: Option<JoinHandle<Engine>>,
    control: Control,
    game: Game,
    opts: Options,
    settings: Settings,
    /// `RandomSeed`, or a seed taken from the clock once at start-up while it is 0.
    seed: u64,
    /// The clock seed has been printed (so the games can be replayed).
    seed_told: bool,
    debug: bool,
}

impl Default for Uci {
    fn default() -> Self {
        Uci::new()
    }
}

impl Uci {
    pub fn new() -> Uci {
        let opts = Options::default();
        Uci {
            engine: Some(Engine::new(opts.hash_mb)),
            worker: None,
            control: Control::default(),
            game: Game::default(),
            seed: clock_seed(),
            seed_told: false,
            opts,
            settings: Settings::default(),
            debug: false,
        }
    }

    /// Waits for a running search to finish (after `stop`, or by itself) and takes the engine back.
    fn reclaim(&mut self) -> &mut Engine {
        if let Some(handle) = self.worker.take() {
            match handle.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => {
                    say("info string search thread failed; starting a fresh engine");
                    self.engine = Some(Engine::new(self.opts.hash_mb));
                }
            }
        }
        self.engine.get_or_insert_with(|| Engine::new(16))
    }

    fn searching(&self) -> bool {
        self.worker.as_ref().is_some_and(|h| !h.is_finished())
    }

    fn stop_and_wait(&mut self) {
        if self.worker.is_some() {
            self.control.request_stop();
            self.control.ponder.store(false, Ordering::SeqCst);
            self.reclaim();
        }
    }

    /// Handles one input line; false after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        if line.is_empty() {
            return true;
        }
        let first = line.split_whitespace().next().unwrap_or("");
        // `go ponder ...` loses its clock fields in vampirc-uci; parse ponder ourselves.
        let mut ponder = false;
        let parsed_text: String = if first == "go" {
            let tokens: Vec<&str> = line
                .split_whitespace()
                .filter(|t| {
                    if *t == "ponder" {
                        ponder = true;
                        false
                    } else {
                        true
                    }
                })
                .collect();
            tokens.join(" ")
        } else {
            line.to_string()
        };
        let msg = parse_one(&parsed_text);
        match msg {
            UciMessage::Uci => {
                say(&format!("id name {NAME}"));
                say("id author the skillcal developers");
                for o in OPTION_LINES {
                    say(o);
                }
                for o in self.settings.uci_options() {
                    say(&o.to_string());
                }
                say("uciok");
            }
            UciMessage::Debug(on) => self.debug = on,
            UciMessage::IsReady => say("readyok"),
            UciMessage::SetOption { name, value } => {
                if self.searching() {
                    say("info string setoption during a search: stopping the search first");
                }
                self.stop_and_wait();
                self.set_option(&name, value.as_deref());
            }
            UciMessage::UciNewGame => {
                self.stop_and_wait();
                self.reclaim().clear();
            }
            UciMessage::Position {
                startpos,
                fen,
                moves,
            } => {
                self.set_position(
                    startpos,
                    fen.map(|f| f.0),
                    moves.iter().map(|m| m.to_string()),
                );
            }
            UciMessage::Go {
                time_control,
                search_control,
            } => {
                if self.searching() {
                    say("info string go during a search: stopping the running search first");
                }
                self.stop_and_wait();
                self.go(time_control, search_control, ponder);
            }
            UciMessage::Stop => {
                self.control.request_stop();
                self.control.ponder.store(false, Ordering::SeqCst);
            }
            UciMessage::PonderHit => self.control.ponder.store(false, Ordering::SeqCst),
            UciMessage::Quit => {
                self.stop_and_wait();
                return false;
            }
            UciMessage::Register { .. } => {}
            UciMessage::Unknown(text, _) => {
                say(&format!(
                    "info string ignored unknown or malformed command: {}",
                    text.trim()
                ));
            }
            _ => say(&format!("info string ignored engine-side message: {line}")),
        }
        true
    }

    fn set_position(
        &mut self,
        startpos: bool,
        fen: Option<String>,
        moves: impl Iterator<Item = String>,
    ) {
        let mut game = if startpos {
            Game::default()
        } else {
            match fen.as_deref().map(Game::from_fen) {
                Some(Ok(g)) => g,
                Some(Err(e)) => {
                    say(&format!("info string position ignored: {e:#}"));
                    return;
                }
                None => {
                    say("info string position ignored: neither startpos nor fen");
                    return;
                }
            }
        };
        for m in moves {
            if let Err(e) = game.push_uci(&m) {
                say(&format!("info string position ignored: {e:#}"));
                return;
            }
        }
        self.game = game;
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) {
        let key = name.trim().to_ascii_lowercase();
        let value = value.map(str::trim).unwrap_or("");
        fn num<T>(name: &str, value: &str, min: T, max: T) -> Option<T>
        where
            T: std::str::FromStr + PartialOrd + Copy,
        {
            match value.parse::<T>() {
                Ok(v) if v >= min && v <= max => Some(v),
                _ => {
                    say(&format!(
                        "info string option {name}: invalid value {value:?}, ignored"
                    ));
                    None
                }
            }
        }
        match key.as_str() {
            "hash" => {
                if let Some(v) = num(name, value, 1usize, 4096) {
                    self.opts.hash_mb = v;
                    self.reclaim().set_hash(v);
                }
            }
            "threads" => {
                if value != "1" {
                    say("info string Threads: this engine searches with one thread only");
                }
            }
            "clear hash" => self.reclaim().clear(),
            "move overhead" => {
                if let Some(v) = num(name, value, 0u64, 5000) {
                    self.opts.move_overhead_ms = v;
                }
            }
            "ponder" => self.opts.ponder = value.eq_ignore_ascii_case("true"),
            _ => self.set_weakening(name, value),
        }
    }

    /// A weakening option (`Settings`): errors name the option and the value, and change nothing.
    fn set_weakening(&mut self, name: &str, value: &str) {
        if let Err(e) = self.settings.set_option(name, value) {
            say(&format!("info string {e}; ignored"));
            return;
        }
        let key = name.trim().to_ascii_lowercase();
        if key == "randomseed" {
            self.seed = match self.settings.random_seed {
                0 => clock_seed(),
                s => s,
            };
            self.seed_told = false;
        }
        if matches!(
            key.as_str(),
            "uci_limitstrength" | "uci_elo" | "strengthtable"
        ) {
            if let Some(text) = self.settings.strength_info() {
                say(&format!("info string {text}"));
            }
        }
    }

    fn go(
        &mut self,
        tc: Option<UciTimeControl>,
        sc: Option<vampirc_uci::UciSearchControl>,
        ponder: bool,
    ) {
        let mut params = SearchParams::default();
        let l = &mut params.limits;
        l.move_overhead = Duration::from_millis(self.opts.move_overhead_ms);
        let ms =
            |d: &vampirc_uci::Duration| Duration::from_millis(d.num_milliseconds().max(0) as u64);
        match tc {
            Some(UciTimeControl::Infinite) => l.infinite = true,
            Some(UciTimeControl::MoveTime(d)) => l.movetime = Some(ms(&d)),
            Some(UciTimeControl::TimeLeft {
                white_time,
                black_time,
                white_increment,
                black_increment,
                moves_to_go,
            }) => {
                let white = self.game.root.turn() == Color::White;
                let (t, inc) = if white {
                    (white_time, white_increment)
                } else {
                    (black_time, black_increment)
                };
                l.time = t.as_ref().map(ms);
                l.inc = inc.as_ref().map(ms).unwrap_or_default();
                l.movestogo = moves_to_go.map(u32::from);
            }
            Some(UciTimeControl::Ponder) | None => {}
        }
        if let Some(sc) = sc {
            l.depth = sc.depth.map(u32::from);
            l.nodes = sc.nodes;
            l.mate = sc.mate.map(u32::from);
            for m in &sc.search_moves {
                match parse_uci_move(&self.game.root, &m.to_string()) {
                    Ok(mv) => l.searchmoves.push(mv),
                    Err(e) => say(&format!("info string searchmoves: {e:#}, ignored")),
                }
            }
        }
        // UCI_LimitStrength: the table's row replaces the knobs it has columns for.
        let eff = self.settings.effective();
        if Weakening::is_random(&eff) && self.settings.random_seed == 0 && !self.seed_told {
            say(&format!(
                "info string RandomSeed 0: seeded from the clock with {} (set RandomSeed to replay)",
                self.seed
            ));
            self.seed_told = true;
        }
        let choice = Weakening::prepare(&eff, self.seed, &self.game, &mut params);
        self.start_search(params, choice, ponder);
    }

    fn start_search(&mut self, params: SearchParams, choice: Weakening, ponder: bool) {
        let mut engine = match self.engine.take() {
            Some(e) => e,
            None => Engine::new(self.opts.hash_mb),
        };
        self.control = Control::default();
        self.control.ponder.store(ponder, Ordering::SeqCst);
        let control = self.control.clone();
        let game = self.game.clone();
        let infinite = params.limits.infinite;
        let handle = std::thread::Builder::new()
            .name("search".into())
            .stack_size(64 << 20)
            .spawn(move || {
                let mut result =
                    engine.search(&game, &params, &control, &mut |info| say(&info_line(info)));
                // Totals at the end of the search (the iterations report only completed depths).
                let ms = result.time.as_millis() as u64;
                say(&format!(
                    "info nodes {} nps {} time {ms}",
                    result.nodes,
                    result.nodes * 1000 / ms.max(1)
                ));
                let best = result.candidates.first().map(|c| c.score);
                if let (Some(c), Some(best)) = (choice.apply(&mut result), best) {
                    if c.index != 0 {
                        say(&format!(
                            "info string noise: multipv {} played ({} cp, perceived {:.0}) over {best} cp",
                            c.index + 1,
                            result.score,
                            c.perceived[c.index]
                        ));
                    }
                }
                // UCI: after `go infinite` or while pondering, bestmove waits for stop/ponderhit.
                while (infinite || control.ponder.load(Ordering::SeqCst))
                    && !control.stop.load(Ordering::SeqCst)
                {
                    std::thread::sleep(Duration::from_millis(1));
                }
                say(&bestmove_line(&result));
                engine
            });
        match handle {
            Ok(h) => self.worker = Some(h),
            Err(e) => say(&format!("info string cannot start the search thread: {e}")),
        }
    }
}

/// Runs the protocol on stdin/stdout until `quit` or end of input.
pub fn run_stdio() -> anyhow::Result<()> {
    let mut uci = Uci::new();
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(e) => {
                say(&format!("info string unreadable input line ignored: {e}"));
                continue;
            }
        };
        if !uci.handle(&line) {
            return Ok(());
        }
    }
    uci.stop_and_wait();
    Ok(())
}
