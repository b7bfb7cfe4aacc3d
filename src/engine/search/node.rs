//! Interior nodes: principal variation search with null move, reverse futility, late-move
//! reductions and pruning, check extension, mate-distance pruning, transposition table and
//! recognizer results (the recognizer-result scheme); quiescence search below the horizon.

use shakmaty::{Chess, EnPassantMode, Move, MoveList, Position};

use super::searcher::Searcher;
use crate::engine::movepick::{has_non_pawn_material, is_quiet, Picker, KILLER, MAX_PLY};
use crate::engine::position::{encode, play};
use crate::engine::recognizer::{recognize, Expense};
use crate::engine::score::Bound;
use crate::engine::see::see_value;
use crate::score::{mate_in, mated_in, DRAW, INFINITE, MATE_BOUND};

/// What a recognizer did to the window (the recognizer-result scheme).
enum Recognized {
    /// Return this score now.
    Cutoff(i32),
    /// Keep searching; `eval` replaces the static evaluation, and the value returned is at
    /// least `floor` (a lower bound's value; `-INFINITE` for an upper bound).
    Narrowed {
        eval: i32,
        floor: i32,
    },
    None,
}

impl Searcher<'_> {
    /// Applies a recognizer result like a table hit: exact and bound cutoffs, raising alpha on
    /// a lower bound, lowering beta on an upper bound while remembering it in `upper`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn recognize(
        &mut self,
        pos: &Chess,
        key: u64,
        ply: usize,
        depth: i32,
        alpha: &mut i32,
        beta: &mut i32,
        upper: &mut i32,
    ) -> Recognized {
        let Some(r) = recognize(pos) else {
            return Recognized::None;
        };
        if r.expense == Expense::Expensive {
            self.tt
                .store(key, ply, 0, r.score, r.score, depth.max(0), r.bound);
        }
        // The bound (`r.score`) cuts off or narrows the window; the static score (`r.eval`,
        // at least as good as the bound for the side it favours) is the value of a cutoff and
        // replaces the evaluation otherwise.
        match r.bound {
            Bound::Exact => Recognized::Cutoff(r.score),
            Bound::Lower => {
                if r.score >= *beta {
                    return Recognized::Cutoff(r.eval);
                }
                *alpha = (*alpha).max(r.score);
                Recognized::Narrowed {
                    eval: r.eval,
                    floor: r.score,
                }
            }
            Bound::Upper => {
                if r.score <= *alpha {
                    return Recognized::Cutoff(r.eval);
                }
                if r.score < *beta {
                    *beta = r.score;
                    *upper = r.score;
                }
                Recognized::Narrowed {
                    eval: r.eval,
                    floor: -INFINITE,
                }
            }
        }
    }

    /// Negamax with fail-soft alpha-beta; `ply` counts from the root (which is ply 0 and
    /// handled by `root.rs`).
    pub(super) fn negamax(
        &mut self,
        pos: &Chess,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        null_ok: bool,
    ) -> i32 {
        let in_check = pos.is_check();
        if depth <= 0 && !in_check {
            return self.qsearch(pos, alpha, beta, ply);
        }
        self.pv[ply].clear();
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        let key = *self.keys.last().expect("key stack");

        if pos.halfmoves() >= 100 {
            return if in_check && pos.legal_moves().is_empty() {
                mated_in(ply as i32)
            } else {
                DRAW
            };
        }
        if self.is_repetition(pos.halfmoves()) {
            return DRAW;
        }
        if ply >= MAX_PLY - 2 {
            return if in_check {
                DRAW
            } else {
                self.eval_hash.evaluate(pos, key)
            };
        }
        // Mate-distance pruning: no line from here beats a mate already found nearer the root.
        alpha = alpha.max(mated_in(ply as i32));
        beta = beta.min(mate_in(ply as i32 + 1));
        if alpha >= beta {
            return alpha;
        }
        if in_check {
            depth += 1;
        }

        let hit = self.tt.probe(key, ply);
        let tt_move = hit.map_or(0, |h| h.mv);
        if let Some(h) = hit {
            if !pv_node && h.depth >= depth {
                let cut = match h.bound {
                    Bound::Exact => true,
                    Bound::Lower => h.score >= beta,
                    Bound::Upper => h.score <= alpha,
                };
                if cut {
                    return h.score;
                }
            }
        }

        let mut upper = INFINITE;
        // A recognizer's lower bound (the recognizer-result scheme) is also a floor for the result:
        // the search below may return less (a draw by the fifty-move rule, a piece it sees lost),
        // but the value is at least the bound, as quiescence has it through its stand-pat.
        let mut floor = -INFINITE;
        let recognized = self.recognize(pos, key, ply, depth, &mut alpha, &mut beta, &mut upper);
        let rec_score = match recognized {
            Recognized::Cutoff(s) => return s,
            Recognized::Narrowed { eval, floor: f } => {
                floor = f;
                Some(eval)
            }
            Recognized::None => None,
        };

        let eval = if in_check {
            -INFINITE
        } else if let Some(s) = rec_score {
            s
        } else if let Some(h) = hit {
            h.eval
        } else {
            self.eval_hash.evaluate(pos, key)
        };

        if !pv_node && !in_check {
            // Reverse futility: far above beta at shallow depth, assume it holds.
            if depth <= 7 && eval - 80 * depth >= beta && eval < MATE_BOUND {
                return eval;
            }
            // Null move: passing still fails high, so a real move will too (not in pawn
            // endings, where zugzwang breaks the assumption).
            if null_ok
                && depth >= 3
                && eval >= beta
                && beta > -MATE_BOUND
                && has_non_pawn_material(pos)
            {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                if let Ok(null) = pos.clone().swap_turn() {
                    let mut nkey = key ^ white_turn_key();
                    if let Some(sq) = pos.ep_square(EnPassantMode::Legal) {
                        nkey ^= ep_key(sq);
                    }
                    self.keys.push(nkey);
                    let s = -self.negamax(&null, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                    self.keys.pop();
                    if self.stopped {
                        return 0;
                    }
                    if s >= beta {
                        return if s >= MATE_BOUND { beta } else { s };
                    }
                }
            }
        }

        let mut picker = Picker::unscored(pos.legal_moves());
        if picker.is_empty() {
            return if in_check { mated_in(ply as i32) } else { DRAW };
        }
        picker.score(pos, tt_move, self.heur, ply);
        let turn = pos.turn();
        let orig_alpha = alpha;
        let mut best = -INFINITE;
        let mut best_move: Option<Move> = None;
        let mut quiets = [Move::Put {
            role: shakmaty::Role::Pawn,
            to: shakmaty::Square::A1,
        }; 64];
        let mut n_quiets = 0;
        let mut count = 0usize;
        while let Some((m, order)) = picker.pick() {
            count += 1;
            let quiet = is_quiet(m);
            // Late-move pruning and futility pruning of quiet moves near the horizon (decided
            // before making the move, so pruned moves cost nothing).
            if !pv_node && !in_check && quiet && best > -MATE_BOUND && order < KILLER {
                if depth <= 4 && count > 3 + (depth * depth) as usize * 2 {
                    continue;
                }
                if depth <= 3 && eval + 100 + 120 * depth <= alpha {
                    continue;
                }
            }
            let (child, ckey) = play(pos, key, m);
            self.tt.prefetch(ckey);
            let gives_check = child.is_check();
            self.keys.push(ckey);
            let new_depth = depth - 1;
            let score = if count == 1 {
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, true)
            } else {
                let mut r = 0;
                if depth >= 3 && count > 2 && quiet && !gives_check && !in_check {
                    r = i32::from(self.lmr[(depth as usize).min(63)][count.min(63)]);
                    if pv_node {
                        r -= 1;
                    }
                    if order >= KILLER {
                        r -= 1; // killer
                    }
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                let mut s = -self.negamax(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, true);
                if s > alpha && r > 0 {
                    s = -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1, true);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, true);
                }
                s
            };
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = Some(m);
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        if quiet {
                            self.heur
                                .update_quiet(turn, ply, m, &quiets[..n_quiets], depth);
                        }
                        let result = best.min(upper);
                        let bound = if result < best {
                            Bound::Exact
                        } else {
                            Bound::Lower
                        };
                        let e = if in_check { 0 } else { eval };
                        self.tt.store(key, ply, encode(m), result, e, depth, bound);
                        return result;
                    }
                }
            }
            if quiet && n_quiets < quiets.len() {
                quiets[n_quiets] = m;
                n_quiets += 1;
            }
        }
        let e = if in_check { 0 } else { eval };
        if floor > -INFINITE && best <= floor {
            // No move beat the recognizer's lower bound: the bound is the result, and all that
            // is known is that the value is at least that (a lower bound, as for a fail high).
            self.tt.store(
                key,
                ply,
                best_move.map_or(0, encode),
                floor,
                e,
                depth,
                Bound::Lower,
            );
            return floor;
        }
        let bound = if best > orig_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(key, ply, best_move.map_or(0, encode), best, e, depth, bound);
        best
    }

    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    /// Captures (and queen promotions) until the position is quiet; check evasions go back to
    /// `negamax` through its check extension.
    pub(super) fn qsearch(
        &mut self,
        pos: &Chess,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv[ply].clear();
        self.count_node();
        if self.stopped {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        // No table probe here: quiescence nodes are the majority and a probe is a cache miss.
        let key = *self.keys.last().expect("key stack");
        if ply >= MAX_PLY - 2 {
            return self.eval_hash.evaluate(pos, key);
        }
        let mut upper = INFINITE;
        // A recognizer's static score is never worse than its lower bound, so the stand-pat
        // floors the result at the bound here.
        let stand_pat = match self.recognize(pos, key, ply, 0, &mut alpha, &mut beta, &mut upper) {
            Recognized::Cutoff(s) => return s,
            Recognized::Narrowed { eval, .. } => eval,
            Recognized::None => self.eval_hash.evaluate(pos, key),
        };
        if stand_pat >= beta {
            return stand_pat.min(upper);
        }
        alpha = alpha.max(stand_pat);
        let mut best = stand_pat;
        let mut picker = Picker::unscored(MoveList::new());
        picker.add_noisy(pos);
        while let Some((m, _)) = picker.pick() {
            // Delta pruning: even winning the victim cleanly cannot reach alpha.
            if m.promotion().is_none()
                && stand_pat + m.capture().map_or(0, see_value) + 200 <= alpha
            {
                continue;
            }
            let (child, ckey) = play(pos, key, m);
            self.keys.push(ckey);
            let score = if child.is_check() {
                -self.negamax(&child, 0, -beta, -alpha, ply + 1, false)
            } else {
                -self.qsearch(&child, -beta, -alpha, ply + 1)
            };
            self.keys.pop();
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        return best.min(upper);
                    }
                }
            }
        }
        best
    }
}

#[inline]
fn ep_key(sq: shakmaty::Square) -> u64 {
    use shakmaty::zobrist::{Zobrist64, ZobristValue};
    Zobrist64::zobrist_for_en_passant_file(sq.file()).0
}

#[inline]
fn white_turn_key() -> u64 {
    use shakmaty::zobrist::{Zobrist64, ZobristValue};
    Zobrist64::zobrist_for_white_turn().0
}
