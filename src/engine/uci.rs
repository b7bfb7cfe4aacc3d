//! The UCI protocol loop and options.
//!
//! The main thread reads commands; `go` hands the engine to a search thread, so `isready`,
//! `stop`, `ponderhit` and `quit` are answered while it thinks. Lines are parsed with
//! vampirc-uci; anything malformed or unknown is answered with `info string` and ignored.

use std::io::{BufRead, Write};
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Duration;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shakmaty::{Color, Position};
use vampirc_uci::{parse_one, UciMessage, UciTimeControl};

use super::position::{parse_uci_move, uci_string, Game};
use super::score::{Bound, UciScore};
use super::search::{Control, Engine, Info, SearchParams, SearchResult};

const NAME: &str = concat!("skillcal ", env!("CARGO_PKG_VERSION"));

/// Option values (UCI names in the handshake below).
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    pub move_overhead_ms: u64,
    pub ponder: bool,
    pub multipv: usize,
    pub score_inaccuracy: i32,
    pub limit_nodes: u64,
    pub limit_nps: u64,
    pub limit_depth: u32,
    /// 0 = seeded from the clock at start-up.
    pub random_seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            move_overhead_ms: 10,
            ponder: false,
            multipv: 1,
            score_inaccuracy: 0,
            limit_nodes: 0,
            limit_nps: 0,
            limit_depth: 0,
            random_seed: 0,
        }
    }
}

const OPTION_LINES: &[&str] = &[
    "option name Hash type spin default 16 min 1 max 4096",
    "option name Threads type spin default 1 min 1 max 1",
    "option name Clear Hash type button",
    "option name Move Overhead type spin default 10 min 0 max 5000",
    "option name Ponder type check default false",
    "option name MultiPV type spin default 1 min 1 max 256",
    "option name ScoreInaccuracy type spin default 0 min 0 max 5000",
    "option name LimitNodes type spin default 0 min 0 max 1000000000000",
    "option name LimitNps type spin default 0 min 0 max 1000000000",
    "option name LimitDepth type spin default 0 min 0 max 100",
    "option name RandomSeed type spin default 0 min 0 max 4294967295",
];

/// One Error per legal root move (in `legal_moves()` order), uniform in [-si, +si] (seed 002,
/// step 1), from a generator seeded by the engine seed and the position, so the same seed and
/// the same game give the same Errors.
pub fn root_errors(seed: u64, game: &Game, si: i32) -> Vec<i32> {
    let n = game.root.legal_moves().len();
    if si <= 0 {
        return vec![0; n];
    }
    let mut h = seed
        ^ game.root_key.rotate_left(17)
        ^ (game.history.len() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    // splitmix64 finaliser: nearby inputs give unrelated streams.
    h = (h ^ (h >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h = (h ^ (h >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    h ^= h >> 31;
    let mut rng = ChaCha8Rng::seed_from_u64(h);
    (0..n).map(|_| rng.random_range(-si..=si)).collect()
}

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
    seed: u64,
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
            opts,
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
            "multipv" => {
                if let Some(v) = num(name, value, 1usize, 256) {
                    self.opts.multipv = v;
                }
            }
            "scoreinaccuracy" => {
                if let Some(v) = num(name, value, 0i32, 5000) {
                    self.opts.score_inaccuracy = v;
                }
            }
            "limitnodes" => {
                if let Some(v) = num(name, value, 0u64, 1_000_000_000_000) {
                    self.opts.limit_nodes = v;
                }
            }
            "limitnps" => {
                if let Some(v) = num(name, value, 0u64, 1_000_000_000) {
                    self.opts.limit_nps = v;
                }
            }
            "limitdepth" => {
                if let Some(v) = num(name, value, 0u32, 100) {
                    self.opts.limit_depth = v;
                }
            }
            "randomseed" => {
                if let Some(v) = num(name, value, 0u64, u64::from(u32::MAX)) {
                    self.opts.random_seed = v;
                    self.seed = if v == 0 { clock_seed() } else { v };
                }
            }
            _ => say(&format!("info string unknown option {name:?} ignored")),
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
        if self.opts.limit_nodes > 0 {
            l.nodes = Some(
                l.nodes
                    .map_or(self.opts.limit_nodes, |n| n.min(self.opts.limit_nodes)),
            );
        }
        if self.opts.limit_depth > 0 {
            l.depth = Some(
                l.depth
                    .map_or(self.opts.limit_depth, |d| d.min(self.opts.limit_depth)),
            );
        }
        if self.opts.limit_nps > 0 {
            l.nps = Some(self.opts.limit_nps);
        }
        params.multipv = self.opts.multipv;
        params.score_inaccuracy = self.opts.score_inaccuracy;
        params.errors = root_errors(self.seed, &self.game, self.opts.score_inaccuracy);
        self.start_search(params, ponder);
    }

    fn start_search(&mut self, params: SearchParams, ponder: bool) {
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
                let result =
                    engine.search(&game, &params, &control, &mut |info| say(&info_line(info)));
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

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        | 1
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
