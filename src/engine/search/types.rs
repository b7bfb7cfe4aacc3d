//! What a search is asked (`SearchParams`, `Control`) and what it reports (`Info`,
//! `Candidate`, `SearchResult`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use shakmaty::Move;

use crate::engine::limits::Limits;
use crate::engine::score::Bound;

/// How to search: limits, MultiPV and the ScoreInaccuracy root errors (the Score Inaccuracy
/// algorithm).
#[derive(Clone, Debug)]
pub struct SearchParams {
    pub limits: Limits,
    /// Number of principal variations with exact scores (1 = normal search).
    pub multipv: usize,
    /// ScoreInaccuracy: widens the root windows (the Score Inaccuracy algorithm, steps 3 and 5); 0
    /// is full strength.
    pub score_inaccuracy: i32,
    /// One Error per legal root move, in the order of `game.root.legal_moves()`, added to that
    /// move's score at every depth (the Score Inaccuracy algorithm, step 6). Empty means all zeros.
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
            win_guard: crate::strength::DEFAULT_WIN_GUARD,
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
