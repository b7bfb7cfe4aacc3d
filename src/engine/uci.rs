//! The UCI protocol loop and options.
//!
//! The main thread reads commands; `go` hands the engine to a search thread, so `isready`,
//! `stop`, `ponderhit` and `quit` are answered while it thinks. Lines are parsed by
//! [`super::command`], which cannot panic; anything malformed or unknown is answered with
//! `info string` and ignored (a bad `go` field alone, the rest of that `go` still applies).
//!
//! Output goes through an [`Output`]: stdout for the real engine, or a buffer for
//! [`Uci::capturing`], whose [`Uci::respond`] handles one line and returns what it printed,
//! stopping and joining any search it started (the fuzz target's entry point).

use std::io::BufRead;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use shakmaty::{Color, Position};

mod human;
mod human_time;
mod maia;
mod options;
mod output;
mod own_search;
mod thread;

pub use output::Output;

use super::command::{self, Command, Go};
use super::position::{parse_uci_move, uci_string, Game};
use super::score::{Bound, UciScore};
use super::search::{Control, Engine, Info, SearchParams};
use super::weaken::Weakening;
use crate::strength::{clock_seed, Settings};

const NAME: &str = concat!("skillcal ", env!("CARGO_PKG_VERSION"));
/// The line a caught search-thread panic prints (the engine answers on with a fresh search
/// state): the only outward sign of one, so the fuzz target and the robustness tests look for it.
pub const SEARCH_FAILED: &str = "info string search thread failed; starting a fresh engine";

/// Options of the engine itself; the weakening options live in [`Settings`].
#[derive(Clone, Debug)]
pub struct Options {
    pub hash_mb: usize,
    /// Largest `Hash` accepted (MB); the fuzz target keeps it small.
    pub max_hash_mb: usize,
    pub move_overhead_ms: u64,
    pub ponder: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 16,
            max_hash_mb: 4096,
            move_overhead_ms: 10,
            ponder: false,
        }
    }
}

/// The engine's own options after `Hash`; the weakening options follow them
/// (`Settings::uci_options`).
const OPTION_LINES: &[&str] = &[
    "option name Threads type spin default 1 min 1 max 1",
    "option name Clear Hash type button",
    "option name Move Overhead type spin default 10 min 0 max 5000",
    "option name Ponder type check default false",
];

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

/// Protocol state.
pub struct Uci {
    engine: Option<Engine>,
    worker: Option<JoinHandle<Engine>>,
    /// Set once the running search has sent its `bestmove` (its thread may still be ending).
    answered: Arc<AtomicBool>,
    control: Control,
    /// When `ponderhit` made the running search's move ours (a think time counts from it).
    ponderhit_at: Arc<Mutex<Option<Instant>>>,
    /// None after a `position` that names no position (see [`Uci::set_position`]).
    game: Option<Game>,
    opts: Options,
    settings: Settings,
    /// `RandomSeed`, or while it is 0 a clock seed drawn anew at each `ucinewgame`.
    seed: u64,
    /// The clock seed has been printed (so the games can be replayed).
    seed_told: bool,
    debug: bool,
    out: Output,
    /// The buffer behind `out` when capturing (see [`Uci::respond`]).
    captured: Option<Arc<Mutex<Vec<String>>>>,
    /// `Style=maia`: the game's positions and the loaded network.
    maia: maia::MaiaState,
    /// `HumanTime`: the model and the game's own think times.
    human_clock: human_time::HumanClock,
}

impl Default for Uci {
    fn default() -> Self {
        Uci::new()
    }
}

impl Uci {
    /// The engine on stdout, default options.
    pub fn new() -> Uci {
        Uci::with_output(Output::stdout(), Options::default())
    }

    pub fn with_output(out: Output, opts: Options) -> Uci {
        Uci {
            engine: Some(Engine::new(opts.hash_mb)),
            worker: None,
            answered: Arc::new(AtomicBool::new(false)),
            control: Control::default(),
            ponderhit_at: Arc::default(),
            game: Some(Game::default()),
            seed: clock_seed(),
            seed_told: false,
            opts,
            settings: Settings::default(),
            debug: false,
            out,
            captured: None,
            maia: maia::MaiaState::default(),
            human_clock: human_time::HumanClock::default(),
        }
    }

    /// An engine whose output is collected for [`Uci::respond`].
    pub fn capturing(opts: Options) -> Uci {
        let (out, buf) = Output::buffer();
        let mut uci = Uci::with_output(out, opts);
        uci.captured = Some(buf);
        uci
    }

    /// Handles one line and returns whether to go on (false after `quit`) and the lines printed
    /// for it. A search the line started is stopped at once and joined first (it still completes
    /// its first iteration and prints its `bestmove`), so no thread outlives the call. Only for an
    /// engine made by [`Uci::capturing`]; others return no lines.
    pub fn respond(&mut self, line: &str) -> (bool, Vec<String>) {
        let go_on = self.handle(line);
        self.stop_and_wait();
        let lines = match &self.captured {
            Some(buf) => buf
                .lock()
                .map(|mut b| std::mem::take(&mut *b))
                .unwrap_or_default(),
            None => Vec::new(),
        };
        (go_on, lines)
    }

    fn say(&self, line: &str) {
        self.out.say(line);
    }

    /// Waits for a running search to finish (after `stop`, or by itself) and takes the engine back.
    fn reclaim(&mut self) -> &mut Engine {
        if let Some(handle) = self.worker.take() {
            match handle.join() {
                Ok(engine) => self.engine = Some(engine),
                Err(_) => {
                    self.say(SEARCH_FAILED);
                    self.engine = Some(Engine::new(self.opts.hash_mb));
                }
            }
        }
        let mb = self.opts.hash_mb;
        self.engine.get_or_insert_with(|| Engine::new(mb))
    }

    /// A search is under way: it has not sent its `bestmove` yet.
    fn searching(&self) -> bool {
        self.worker.as_ref().is_some_and(|h| !h.is_finished())
            && !self.answered.load(Ordering::SeqCst)
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
        let Some(parsed) = command::parse(line) else {
            return true;
        };
        for note in &parsed.notes {
            self.say(&format!("info string {note}"));
        }
        match parsed.command {
            Command::Uci => {
                self.say(&format!("id name {NAME}"));
                self.say("id author the skillcal developers");
                self.say(&format!(
                    "option name Hash type spin default {} min 1 max {}",
                    Options::default().hash_mb.min(self.opts.max_hash_mb),
                    self.opts.max_hash_mb
                ));
                for o in OPTION_LINES {
                    self.say(o);
                }
                for o in self.settings.uci_options() {
                    self.say(&o.to_string());
                }
                self.say("uciok");
            }
            Command::Debug(on) => self.debug = on,
            Command::IsReady => {
                self.prepare_net();
                self.say("readyok");
            }
            Command::SetOption { name, value } => {
                if self.searching() {
                    self.say("info string setoption during a search: stopping the search first");
                }
                self.stop_and_wait();
                self.set_option(&name, value.as_deref());
            }
            Command::UciNewGame => {
                self.stop_and_wait();
                self.reclaim().clear();
                self.human_clock.new_game();
                // RandomSeed 0: each game its own clock seed (printed at its first search), so
                // games against a weakened engine kept running do not repeat move for move
                if self.settings.random_seed == 0 {
                    self.seed = clock_seed();
                    self.seed_told = false;
                }
            }
            Command::Position { fen, moves } => self.set_position(fen.as_deref(), &moves),
            Command::BadPosition => self.game = None,
            Command::Go(go) => {
                if self.searching() {
                    self.say("info string go during a search: stopping the running search first");
                }
                self.stop_and_wait();
                self.go(go);
            }
            Command::Stop => {
                self.control.request_stop();
                self.control.ponder.store(false, Ordering::SeqCst);
            }
            Command::PonderHit => {
                if self.control.ponder.swap(false, Ordering::SeqCst) {
                    *self.ponderhit_at.lock().unwrap_or_else(|e| e.into_inner()) =
                        Some(Instant::now());
                }
            }
            Command::Quit => {
                self.stop_and_wait();
                return false;
            }
            Command::Register | Command::Invalid => {}
            Command::Unknown(text) => {
                self.say(&format!(
                    "info string ignored unknown or malformed command: {text}"
                ));
            }
            Command::EngineSide(text) => {
                self.say(&format!("info string ignored engine-side message: {text}"))
            }
        }
        true
    }

    /// `position`: the start position (`fen` None) or a FEN, then the moves.
    /// A FEN that cannot be a position leaves none: `go` then answers `bestmove 0000` rather
    /// than a move of the position before (a GUI would score that an illegal move). A move
    /// list stops at its first illegal move, the moves before it played, as Stockfish does.
    fn set_position(&mut self, fen: Option<&str>, moves: &[String]) {
        let mut game = match fen.map(Game::from_fen_lenient) {
            None => Game::default(),
            Some(Ok((g, None))) => g,
            Some(Ok((g, Some(why)))) => {
                self.say(&format!(
                    "info string position: {why}: ignored, as if not given"
                ));
                g
            }
            Some(Err(e)) => {
                self.say(&format!(
                    "info string position ignored: {e:#}; no position until the next one"
                ));
                self.game = None;
                return;
            }
        };
        self.maia.reset(&game.root);
        for (i, m) in moves.iter().enumerate() {
            if let Err(e) = game.push_uci(m) {
                self.say(&format!(
                    "info string position: {e:#}; the position after the {i} moves before it"
                ));
                break;
            }
            self.maia.push(&game.root);
        }
        self.game = Some(game);
    }

    fn go(&mut self, go: Go) {
        let Some(game) = self.game.clone() else {
            self.say("info string go without a position (the last `position` named none)");
            self.say("bestmove 0000");
            return;
        };
        if self.settings.maia.on {
            return self.go_maia(&game, &go);
        }
        let params = self.search_params(&go, &game);
        // UCI_LimitStrength: the table's row replaces the knobs it has columns for.
        let eff = self.settings.effective();
        if eff.style.plays_human(eff.human_strength) {
            let timed = self.timed_move(&go, &game, &eff);
            return self.go_human(game, params, &eff, go.ponder, timed);
        }
        if Weakening::is_random(&eff) {
            self.tell_seed();
        }
        // Every search under UCI_LimitStrength names its family and row, so a game log shows
        // what each move was played with.
        if let Some(text) = self.settings.strength_info() {
            self.say(&format!("info string {text}"));
        }
        let mut params = params;
        let choice = Weakening::prepare(&eff, self.seed, &game, &mut params);
        self.start_search(game, params, choice, go.ponder);
    }

    /// Under `Style human`, loads the net the level plays before `readyok` (UCI's moment for
    /// slow set-up), so the first `go` answers, and `stop`s, as quickly as the others. A net
    /// that cannot load is said at `go`, where the move needs it.
    fn prepare_net(&mut self) {
        if self.searching() {
            return;
        }
        let eff = self.settings.effective();
        if eff.style.plays_human(eff.human_strength) {
            let _ = self
                .maia
                .evaluator(crate::strength::human_plan(eff.human_strength).net);
        }
    }

    /// The search's limits from `go` (the clock of the side to move, nodes, depth, searchmoves).
    fn search_params(&mut self, go: &Go, game: &Game) -> SearchParams {
        let mut params = SearchParams::default();
        let l = &mut params.limits;
        l.move_overhead = Duration::from_millis(self.opts.move_overhead_ms);
        let (time, inc) = if game.root.turn() == Color::White {
            (go.wtime, go.winc)
        } else {
            (go.btime, go.binc)
        };
        // a clock for the other side only: ours is taken as empty (Stockfish moves at once)
        // rather than as no clock at all, which would search until `stop`
        let time = match (time, go.wtime.or(go.btime)) {
            (None, Some(_)) => {
                self.say("info string go: no time for the side to move; moving at once");
                Some(0)
            }
            (t, _) => t,
        };
        l.time = time.map(Duration::from_millis);
        l.inc = inc.map(Duration::from_millis).unwrap_or_default();
        // UCI sends movestogo only above 0; 0 means none (sudden death), not one move
        l.movestogo = go.movestogo.filter(|&n| n > 0);
        l.movetime = go.movetime.map(Duration::from_millis);
        l.infinite = go.infinite;
        l.depth = go.depth;
        l.nodes = go.nodes;
        l.mate = go.mate;
        for m in &go.searchmoves {
            match parse_uci_move(&game.root, m) {
                Ok(mv) => l.searchmoves.push(mv),
                Err(e) => self.say(&format!("info string searchmoves: {e:#}, ignored")),
            }
        }
        params
    }
}

/// Runs the protocol on stdin/stdout until `quit` or end of input. Input need not be UTF-8
/// (invalid bytes are replaced) and never ends the loop.
pub fn run_stdio() -> std::io::Result<()> {
    let mut uci = Uci::new();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        match input.read_until(b'\n', &mut buf) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                uci.say(&format!("info string cannot read input: {e}"));
                break;
            }
        }
        if !uci.handle(&String::from_utf8_lossy(&buf)) {
            return Ok(());
        }
    }
    uci.stop_and_wait();
    Ok(())
}
