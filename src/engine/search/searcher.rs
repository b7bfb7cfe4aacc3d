//! One running search's state: the table, the history, the path's keys, the limits and the
//! clock; shared by the root (`root.rs`) and the tree below it (`node.rs`).

use std::sync::atomic::Ordering;
use std::time::Duration;

use shakmaty::{Chess, Move};

use super::types::{Control, SearchParams};
use crate::engine::eval::EvalHash;
use crate::engine::limits::Clock;
use crate::engine::movepick::{Heuristics, MAX_PLY};
use crate::engine::tt::Tt;

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
    pub(super) tt: &'a mut Tt,
    pub(super) heur: &'a mut Heuristics,
    /// Keys of the game before the root, the root and the current path (last = current node).
    pub(super) keys: Vec<u64>,
    pub(super) nodes: u64,
    pub(super) seldepth: usize,
    pub(super) control: &'a Control,
    pub(super) pondering: bool,
    pub(super) clock: Clock,
    pub(super) node_limit: u64,
    pub(super) nps_limit: Option<u64>,
    pub(super) check_mask: u64,
    pub(super) stopped: bool,
    /// False until the first iteration completes, so there is always a move to play.
    pub(super) can_stop: bool,
    /// Triangular principal-variation table.
    pub(super) pv: Vec<Vec<Move>>,
    pub(super) lmr: Vec<[u8; 64]>,
    pub(super) eval_hash: EvalHash,
}

impl<'a> Searcher<'a> {
    pub(super) fn new(
        tt: &'a mut Tt,
        heur: &'a mut Heuristics,
        keys: Vec<u64>,
        params: &SearchParams,
        control: &'a Control,
    ) -> Searcher<'a> {
        Searcher {
            tt,
            heur,
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
            eval_hash: EvalHash::with_noise(params.eval_noise, params.eval_noise_seed),
        }
    }

    /// Polls the stop flag, the clock, and throttles to the NPS limit.
    pub(super) fn check_limits(&mut self) {
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
    pub(super) fn count_node(&mut self) {
        self.nodes += 1;
        if self.nodes & self.check_mask == 0 {
            self.check_limits();
        }
        if self.nodes >= self.node_limit && self.can_stop {
            self.stopped = true;
        }
    }

    pub(super) fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// True if the current position (last key) occurred before within the reversible plies.
    #[inline]
    pub(super) fn is_repetition(&self, halfmoves: u32) -> bool {
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
    use crate::engine::position::encode;
    use shakmaty::Position;
    let hit = tt.probe(key, 0)?;
    if hit.mv == 0 {
        return None;
    }
    pos.legal_moves().into_iter().find(|&m| encode(m) == hit.mv)
}
