//! The search: iterative deepening over a root move list (ScoreInaccuracy or MultiPV root,
//! `root.rs`), principal variation search with quiescence below it (`node.rs`).
//!
//! # Running a search
//! ```no_run
//! use skillcal::engine::search::{Engine, SearchParams, Control};
//! use skillcal::engine::position::Game;
//! let mut engine = Engine::new(16);
//! let game = Game::from_fen("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3").unwrap();
//! let mut params = SearchParams::default();
//! params.limits.depth = Some(8);
//! let result = engine.search(&game, &params, &Control::default(), &mut |_info| {});
//! println!("{:?} {}", result.best, result.score);
//! ```

mod node;
mod root;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use shakmaty::{Chess, Move};

use super::eval::EvalCache;
use super::limits::{Clock, Limits};
use super::movepick::{Heuristics, MAX_PLY};
use super::position::Game;
use super::score::Bound;
use super::tt::Tt;

/// How to search: limits, MultiPV and the ScoreInaccuracy root errors (seed 002).
#[derive(Clone, Debug)]
pub struct SearchParams {
    pub limits: Limits,
    /// Number of principal variations with exact scores (1 = normal search).
    pub multipv: usize,
    /// ScoreInaccuracy: widens the root windows (seed 002, steps 3 and 5). 0 = full strength.
    pub score_inaccuracy: i32,
    /// One Error per legal root move, in the order of `game.root.legal_moves()`, added to that
    /// move's score at every depth (seed 002, step 6). Empty means all zeros.
    pub errors: Vec<i32>,
    /// From this root score up (and for mates) Errors no longer change a move's score, so a
    /// weakened engine still converts clear wins (`WinGuard`, see `strength::perturb_root_score`).
    pub win_guard: i32,
    /// EvalNoise (cp, 0 = none): per-position noise on the static evaluation, drawn from the
    /// position key and `eval_noise_seed` (`strength::eval_noise`).
    pub eval_noise: i32,
    pub eval_noise_seed: u64,
}

impl Default for SearchParams {
    fn default() -> Self {
        SearchParams {
            limits: Limits::default(),
            multipv: 1,
            score_inaccuracy: 0,
            errors: Vec::new(),
            win_guard: crate::strength::noise::DEFAULT_WIN_GUARD,
            eval_noise: 0,
            eval_noise_seed: 0,
        }
    }
}

/// Flags another thread may set during a search.
#[derive(Clone, Debug, Default)]
pub struct Control {
    /// Set to end the search as soon as possible (UCI `stop`).
    pub stop: Arc<AtomicBool>,
    /// True while pondering: time limits do not apply until it is cleared (UCI `ponderhit`);
    /// our time budget then starts.
    pub ponder: Arc<AtomicBool>,
}

impl Control {
    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// One root move of the last completed iteration.
#[derive(Clone, Debug)]
pub struct Candidate {
    pub mv: Move,
    /// Score including the move's Error (the value the root compared).
    pub score: i32,
    /// The Error that was added (0 at full strength and for mate scores).
    pub error: i32,
    /// Exact for the best move (and the MultiPV lines); Upper for moves refuted by a zero window.
    pub bound: Bound,
    pub pv: Vec<Move>,
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// `None` only when the root has no legal move.
    pub best: Option<Move>,
    pub ponder: Option<Move>,
    /// Score of the best move (root-relative, side to move), including its Error.
    pub score: i32,
    /// Depth of the last completed iteration.
    pub depth: u32,
    pub seldepth: u32,
    pub nodes: u64,
    pub time: Duration,
    /// The last completed iteration's root moves, best first. With MultiPV N the first N have
    /// exact scores; other entries are upper bounds.
    pub candidates: Vec<Candidate>,
}

/// Progress report for UCI `info` lines.
#[derive(Clone, Debug)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    /// 1-based line number.
    pub multipv: usize,
    pub score: i32,
    /// `Some(Lower/Upper)` for a bound rather than an exact score.
    pub bound: Option<Bound>,
    pub nodes: u64,
    pub nps: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// Engine state kept between searches: transposition table and move-ordering history.
pub struct Engine {
    tt: Tt,
    heur: Heuristics,
}

impl Engine {
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: Tt::new(hash_mb),
            heur: Heuristics::default(),
        }
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash(&mut self, mb: usize) {
        self.tt = Tt::new(mb);
    }

    /// Forgets everything learned (UCI `ucinewgame`, `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.heur.clear();
    }

    /// Searches `game.root` until a limit in `params` or `control.stop` ends it.
    /// `on_info` receives one report per completed iteration and MultiPV line.
    pub fn search(
        &mut self,
        game: &Game,
        params: &SearchParams,
        control: &Control,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.tt.new_search();
        self.heur.new_search();
        let mut keys = game.history.clone();
        keys.push(game.root_key);
        let mut s = Searcher {
            tt: &mut self.tt,
            heur: &mut self.heur,
            keys,
            nodes: 0,
            seldepth: 0,
            control,
            pondering: control.ponder.load(Ordering::Relaxed),
            clock: Clock::new(params.limits.budget()),
            node_limit: params.limits.nodes.unwrap_or(u64::MAX),
            nps_limit: params.limits.nps.filter(|&n| n > 0),
            check_mask: check_mask(params.limits.nps),
            stopped: false,
            can_stop: false,
            pv: (0..MAX_PLY + 2)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            lmr: lmr_table(),
            eval_cache: EvalCache::with_noise(params.eval_noise, params.eval_noise_seed),
        };
        s.iterate(&game.root, params, on_info)
    }
}

/// Nodes between two checks of the clock and the stop flag (a power of two minus one). With an
/// NPS throttle the interval shrinks so the search sleeps in steps of about 5 ms.
fn check_mask(nps: Option<u64>) -> u64 {
    let interval = match nps {
        Some(n) if n > 0 => (n / 200).clamp(1, 1024),
        _ => 1024,
    };
    (1u64 << (63 - interval.leading_zeros())) - 1
}

fn lmr_table() -> Vec<[u8; 64]> {
    let mut t = vec![[0u8; 64]; 64];
    for (d, row) in t.iter_mut().enumerate().skip(1) {
        for (n, r) in row.iter_mut().enumerate().skip(1) {
            *r = (0.75 + (d as f64).ln() * (n as f64).ln() / 2.25) as u8;
        }
    }
    t
}

/// State of one running search.
pub(crate) struct Searcher<'a> {
    tt: &'a mut Tt,
    heur: &'a mut Heuristics,
    /// Keys of the game before the root, the root and the current path (last = current node).
    keys: Vec<u64>,
    nodes: u64,
    seldepth: usize,
    control: &'a Control,
    pondering: bool,
    clock: Clock,
    node_limit: u64,
    nps_limit: Option<u64>,
    check_mask: u64,
    stopped: bool,
    /// False until the first iteration completes, so there is always a move to play.
    can_stop: bool,
    /// Triangular principal-variation table.
    pv: Vec<Vec<Move>>,
    lmr: Vec<[u8; 64]>,
    eval_cache: EvalCache,
}

impl Searcher<'_> {
    /// Polls the stop flag, the clock, and throttles to the NPS limit.
    fn check_limits(&mut self) {
        if self.pondering && !self.control.ponder.load(Ordering::Relaxed) {
            // ponderhit: our own clock starts now (the NPS limit's pace and `info` time still
            // count from `go`, as the nodes do)
            self.pondering = false;
            self.clock.budget_start = std::time::Instant::now();
        }
        if !self.can_stop {
            return;
        }
        if self.control.stop.load(Ordering::Relaxed) {
            self.stopped = true;
            return;
        }
        if let Some(nps) = self.nps_limit {
            let due = Duration::from_secs_f64(self.nodes as f64 / nps as f64);
            let now = self.clock.elapsed();
            if due > now {
                let mut wait = due - now;
                // Never sleep past the hard limit; wake up for `stop`.
                if let (false, Some(hard)) = (self.pondering, self.clock.budget.hard) {
                    wait = wait.min(hard.saturating_sub(self.clock.budget_elapsed()));
                }
                while wait > Duration::ZERO {
                    let step = wait.min(Duration::from_millis(5));
                    std::thread::sleep(step);
                    wait -= step;
                    if self.control.stop.load(Ordering::Relaxed) {
                        self.stopped = true;
                        return;
                    }
                }
            }
        }
        if !self.pondering {
            if let Some(hard) = self.clock.budget.hard {
                if self.clock.budget_elapsed() >= hard {
                    self.stopped = true;
                }
            }
        }
    }

    #[inline]
    fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & self.check_mask == 0 {
            self.check_limits();
        }
        if self.nodes >= self.node_limit && self.can_stop {
            self.stopped = true;
        }
    }

    fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// True if the current position (last key) occurred before within the reversible plies.
    #[inline]
    fn is_repetition(&self, halfmoves: u32) -> bool {
        let n = self.keys.len();
        if n < 5 || halfmoves < 4 {
            return false;
        }
        let key = self.keys[n - 1];
        let limit = (halfmoves as usize).min(n - 1);
        // The same side to move and at least four plies back.
        let mut back = 4;
        while back <= limit {
            if self.keys[n - 1 - back] == key {
                return true;
            }
            back += 2;
        }
        false
    }
}

/// Principal variation of `pos` from the table's best moves, up to `max` plies (used for the
/// ponder move when the PV stops at the root move).
pub(crate) fn tt_move_in(tt: &Tt, pos: &Chess, key: u64) -> Option<Move> {
    use super::position::encode;
    use shakmaty::Position;
    let hit = tt.probe(key, 0)?;
    if hit.mv == 0 {
        return None;
    }
    pos.legal_moves().into_iter().find(|&m| encode(m) == hit.mv)
}
