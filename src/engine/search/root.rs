//! Iterative deepening and the two root searches:
//! - `root_si`: the root of the Score Inaccuracy algorithm (steps 1-6), which at ScoreInaccuracy 0
//!   with all Errors 0 is the full-strength root: first move with an aspiration window, later moves
//!   with a zero window, each re-searched with the full window when it may be best;
//! - `root_multipv`: exact scores for the N best root moves.

use shakmaty::{Chess, Move, Position};

use super::searcher::{tt_move_in, Searcher};
use super::types::{Candidate, Info, SearchParams, SearchResult};
use crate::engine::movepick::{Picker, MAX_PLY};
use crate::engine::position::{encode, play};
use crate::engine::score::Bound;
use crate::score::{mate_in, mated_in, DRAW, INFINITE};
use crate::strength::perturb_root_score;

/// Half-width of the first root move's aspiration window at full strength (centipawns).
pub const ASPIRATION: i32 = 30;

/// The largest raw score a root move with Error `error` may have without entering the MultiPV
/// lines, whose n-th best score is `nth`: the largest `t` with
/// `perturb_root_score(t, error, guard) <= nth`, within `(-INFINITE, INFINITE)`.
///
/// Not simply `nth - error`: a clear win (`raw >= guard`) or a mate keeps its raw score, so a
/// move at `nth < raw <= nth - error` would fail low against `nth - error` and be kept as an
/// upper bound above the exact lines, then played. `perturb_root_score` is monotone in `raw`,
/// so a binary search finds `t`, and a zero window at `t` tells exactly whether the move enters.
fn entry_threshold(nth: i32, error: i32, guard: i32) -> i32 {
    let (mut lo, mut hi) = (-INFINITE + 1, INFINITE - 1);
    if perturb_root_score(lo, error, guard) > nth {
        return lo;
    }
    // Invariant: perturb(lo) <= nth; the answer is in lo..=hi.
    while lo < hi {
        let mid = lo + (hi - lo + 1) / 2;
        if perturb_root_score(mid, error, guard) <= nth {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    lo
}

#[derive(Clone, Debug)]
struct RootMove {
    mv: Move,
    /// The Error drawn for this move before the search (the Score Inaccuracy algorithm, step 1).
    error: i32,
    /// Last score including the applied error.
    score: i32,
    /// The error actually added (0 for mate scores, so a seen mate is never hidden).
    applied: i32,
    bound: Bound,
    pv: Vec<Move>,
}

impl RootMove {
    /// Keeps one iteration's result: the Error becomes part of the score before any bound test (the
    /// Score Inaccuracy algorithm, step 6), then the bound and the line (the child's PV when its
    /// window was wide enough to give one). Returns the score.
    fn record(&mut self, raw: i32, guard: i32, exact: bool, child_pv: Option<&[Move]>) -> i32 {
        let score = perturb_root_score(raw, self.error, guard);
        self.applied = score - raw;
        self.score = score;
        self.bound = if exact { Bound::Exact } else { Bound::Upper };
        self.pv.clear();
        self.pv.push(self.mv);
        if let Some(pv) = child_pv {
            self.pv.extend_from_slice(pv);
        }
        score
    }
}

impl Searcher<'_> {
    pub(super) fn iterate(
        &mut self,
        root: &Chess,
        params: &SearchParams,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let legal = root.legal_moves();
        let limits = &params.limits;
        let mut rms: Vec<RootMove> = legal
            .iter()
            .enumerate()
            .filter(|(_, m)| limits.searchmoves.is_empty() || limits.searchmoves.contains(m))
            .map(|(i, &m)| RootMove {
                mv: m,
                error: params.errors.get(i).copied().unwrap_or(0),
                score: -INFINITE,
                applied: 0,
                bound: Bound::Upper,
                pv: vec![m],
            })
            .collect();
        if rms.is_empty() {
            return SearchResult {
                best: None,
                ponder: None,
                score: if root.is_check() { mated_in(0) } else { DRAW },
                depth: 0,
                seldepth: 0,
                nodes: 0,
                time: self.clock.elapsed(),
                candidates: Vec::new(),
            };
        }
        // First iteration's order: the table move, then captures, killers, history.
        let root_key = *self.keys.last().expect("root key");
        let tt_move = self.tt.probe(root_key, 0).map_or(0, |h| h.mv);
        let mut picker = Picker::new(root, legal.clone(), tt_move, self.heur, 0);
        let mut order = Vec::with_capacity(legal.len());
        while let Some((m, _)) = picker.pick() {
            order.push(encode(m));
        }
        rms.sort_by_key(|rm| order.iter().position(|&c| c == encode(rm.mv)));

        let max_depth = limits
            .depth
            .unwrap_or(u32::MAX)
            .clamp(1, MAX_PLY as u32 - 8);
        let multipv = params.multipv.clamp(1, rms.len());
        let si = params.score_inaccuracy.max(0);
        let guard = params.win_guard;
        let mut result = SearchResult {
            best: Some(rms[0].mv),
            ponder: None,
            score: 0,
            depth: 0,
            seldepth: 0,
            nodes: 0,
            time: self.clock.elapsed(),
            candidates: Vec::new(),
        };
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let done = if multipv == 1 {
                self.root_si(root, depth as i32, &mut rms, si, guard)
            } else {
                self.root_multipv(root, depth as i32, &mut rms, multipv, guard)
            };
            if !done {
                break;
            }
            // Stable: among equal scores the earlier (searched first) move stays ahead.
            rms.sort_by(|a, b| {
                b.score
                    .cmp(&a.score)
                    .then(((b.bound == Bound::Exact) as u8).cmp(&((a.bound == Bound::Exact) as u8)))
            });
            self.can_stop = true;
            let elapsed = self.clock.elapsed();
            result = SearchResult {
                best: Some(rms[0].mv),
                ponder: rms[0].pv.get(1).copied(),
                score: rms[0].score,
                depth,
                seldepth: self.seldepth as u32,
                nodes: self.nodes,
                time: elapsed,
                candidates: rms
                    .iter()
                    .map(|rm| Candidate {
                        mv: rm.mv,
                        score: rm.score,
                        error: rm.applied,
                        bound: rm.bound,
                        pv: rm.pv.clone(),
                    })
                    .collect(),
            };
            let ms = elapsed.as_millis().max(1) as u64;
            let hashfull = self.hashfull();
            for (k, rm) in rms.iter().take(multipv).enumerate() {
                on_info(&Info {
                    depth,
                    seldepth: self.seldepth as u32,
                    multipv: k + 1,
                    score: rm.score,
                    bound: None,
                    nodes: self.nodes,
                    nps: self.nodes * 1000 / ms,
                    time: elapsed,
                    hashfull,
                    pv: rm.pv.clone(),
                });
            }
            if let Some(n) = limits.mate {
                if n > 0 && rms[0].score >= mate_in(2 * n as i32 - 1) {
                    break;
                }
            }
            if !limits.infinite && !self.pondering {
                if let Some(soft) = self.clock.budget.soft {
                    if self.clock.budget_elapsed() >= soft {
                        break;
                    }
                    // One legal move under a clock: nothing to think about.
                    if rms.len() == 1 && limits.time.is_some() {
                        break;
                    }
                }
            }
            if self.stopped {
                break;
            }
        }
        result.nodes = self.nodes;
        result.time = self.clock.elapsed();
        if result.ponder.is_none() {
            if let Some(best) = result.best {
                let (child, key) = play(root, root_key, best);
                result.ponder = tt_move_in(self.tt, &child, key);
            }
        }
        result
    }

    /// Full-window search of a root child.
    #[inline]
    fn full(&mut self, child: &Chess, depth: i32) -> i32 {
        -self.negamax(child, depth - 1, -INFINITE, INFINITE, 1, true)
    }

    /// Seed 002 root: one iteration; false if the search was stopped before it completed.
    #[allow(clippy::needless_range_loop)]
    fn root_si(
        &mut self,
        root: &Chess,
        depth: i32,
        rms: &mut [RootMove],
        si: i32,
        guard: i32,
    ) -> bool {
        let root_key = *self.keys.last().expect("root key");
        // Step 3: the aspiration window is centred on the previous iteration's best score.
        let prev_best = rms[0].score;
        let mut best = -INFINITE;
        for i in 0..rms.len() {
            let m = rms[i].mv;
            let error = rms[i].error;
            let (child, ckey) = play(root, root_key, m);
            self.keys.push(ckey);
            let mut exact = true;
            let mut full_window = true;
            let raw = if i == 0 {
                if depth == 1 {
                    self.full(&child, depth)
                } else {
                    // Steps 3-4: aspiration window widened by ScoreInaccuracy; outside it,
                    // re-search with the infinite window.
                    let w = ASPIRATION + si;
                    let a = (prev_best - w).max(-INFINITE);
                    let b = (prev_best + w).min(INFINITE);
                    let s = -self.negamax(&child, depth - 1, -b, -a, 1, true);
                    if !self.stopped && (s <= a || s >= b) {
                        self.full(&child, depth)
                    } else {
                        s
                    }
                }
            } else {
                // Step 5: the zero window widened by ScoreInaccuracy, re-searched with the
                // infinite window when the move may beat the best (Error included, step 6).
                let a = (best - si - 1).max(-INFINITE);
                let b = (best + si).min(INFINITE);
                let s = -self.negamax(&child, depth - 1, -b, -a, 1, true);
                if !self.stopped && perturb_root_score(s, error, guard) >= best {
                    self.full(&child, depth)
                } else {
                    full_window = false;
                    if s <= a {
                        exact = false;
                    }
                    s
                }
            };
            self.keys.pop();
            if self.stopped {
                return false;
            }
            let pv = full_window.then_some(self.pv[1].as_slice());
            let score = rms[i].record(raw, guard, exact, pv);
            if score > best {
                best = score;
            }
        }
        true
    }

    /// MultiPV root: the first `n` moves in the previous order get full windows; each later
    /// move is tested with a zero window against the n-th best score so far (through
    /// [`entry_threshold`], which accounts for its Error and the win guard) and re-searched with
    /// an open window above it when it enters the top `n`. Errors (if any) are added like in
    /// `root_si`. A move that fails low keeps an upper bound no higher than the n-th best line.
    #[allow(clippy::needless_range_loop)]
    fn root_multipv(
        &mut self,
        root: &Chess,
        depth: i32,
        rms: &mut [RootMove],
        n: usize,
        guard: i32,
    ) -> bool {
        let root_key = *self.keys.last().expect("root key");
        let mut top: Vec<i32> = Vec::with_capacity(rms.len());
        for i in 0..rms.len() {
            let m = rms[i].mv;
            let error = rms[i].error;
            let (child, ckey) = play(root, root_key, m);
            self.keys.push(ckey);
            let (raw, exact) = if i < n {
                (self.full(&child, depth), true)
            } else {
                top.sort_unstable_by(|a, b| b.cmp(a));
                let threshold = entry_threshold(top[n - 1], error, guard);
                let s = -self.negamax(&child, depth - 1, -threshold - 1, -threshold, 1, true);
                if !self.stopped && s > threshold {
                    let s2 = -self.negamax(&child, depth - 1, -INFINITE, -threshold, 1, true);
                    (s2, s2 > threshold)
                } else {
                    (s, false)
                }
            };
            self.keys.pop();
            if self.stopped {
                return false;
            }
            let score = rms[i].record(raw, guard, exact, exact.then_some(self.pv[1].as_slice()));
            if exact {
                top.push(score);
            }
        }
        true
    }
}
