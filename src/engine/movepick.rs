//! Move ordering: TT move, captures by SEE / MVV-LVA, killers, history; static exchange
//! evaluation.

use std::mem::MaybeUninit;

use shakmaty::{attacks, Bitboard, Chess, Color, File, Move, MoveList, Position, Role, Square};

use super::position::{encode, encode_squares};
use super::see::{see, see_value};

/// Killer moves and the butterfly history, kept across iterations of one search.
pub struct Heuristics {
    pub killers: Vec<[u16; 2]>,
    /// Indexed by `[color][from][to]`.
    pub history: Vec<i32>,
}

pub const MAX_PLY: usize = 128;
const HISTORY_MAX: i32 = 16_384;

impl Default for Heuristics {
    fn default() -> Self {
        Heuristics {
            killers: vec![[0; 2]; MAX_PLY + 2],
            history: vec![0; 2 * 64 * 64],
        }
    }
}

#[inline(always)]
fn hidx(color: Color, m: Move) -> usize {
    hidx_squares(color, m.from().unwrap_or(Square::A1), m.to())
}

#[inline(always)]
fn hidx_squares(color: Color, from: Square, to: Square) -> usize {
    (color as usize) * 4096 + (from as usize) * 64 + to as usize
}

impl Heuristics {
    pub fn clear(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [0; 2]);
        self.history.fill(0);
    }

    /// Forget killers (they belong to plies of the previous search) and age history.
    pub fn new_search(&mut self) {
        self.killers.iter_mut().for_each(|k| *k = [0; 2]);
        self.history.iter_mut().for_each(|h| *h /= 2);
    }

    /// Rewards the quiet move that caused a cutoff and penalises the quiets tried before it.
    pub fn update_quiet(
        &mut self,
        color: Color,
        ply: usize,
        best: Move,
        tried: &[Move],
        depth: i32,
    ) {
        let code = encode(best);
        let k = &mut self.killers[ply];
        if k[0] != code {
            k[1] = k[0];
            k[0] = code;
        }
        let bonus = (depth * depth).min(400) * 4;
        let mut apply = |m: Move, delta: i32| {
            let h = &mut self.history[hidx(color, m)];
            // Gravity: the closer to the bound, the smaller the step; with |delta| <= the
            // bound, |h| never exceeds it (the move ordering bands rely on that).
            *h += delta - *h * delta.abs() / HISTORY_MAX;
        };
        apply(best, bonus);
        for &m in tried {
            if m != best {
                apply(m, -bonus);
            }
        }
    }
}

#[inline]
pub fn is_quiet(m: Move) -> bool {
    !m.is_capture() && m.promotion().is_none()
}

/// Orders `moves` in place: best-first by a score computed once per move.
///
/// Selection sort, swapping each pick to the front (most nodes cut off after a few moves). Each
/// move's score is packed with its current index as `score << 8 | (255 - index)`, so the pick is
/// a plain maximum (which vectorizes) that also breaks ties towards the lowest index.
pub struct Picker {
    moves: MoveList,
    /// Packed keys; only `keys[..moves.len()]` is initialized (no per-node clearing).
    keys: [MaybeUninit<i32>; 256],
    next: usize,
}

/// Ordering score bands, highest first. Scores must fit in 24 bits for the packed keys, and the
/// bands must not overlap: quiet moves score their history, within `±HISTORY_MAX`.
const TT_SCORE: i32 = (1 << 23) - 1;
const GOOD_CAPTURE: i32 = 1 << 22;
/// Killer moves score `KILLER` and `KILLER + 1`; `order >= KILLER` marks a quiet move as a
/// killer (or the table move) for the search.
pub const KILLER: i32 = 1 << 21;
const BAD_CAPTURE: i32 = -(1 << 22);
/// Under-promotions rank below every other move.
const UNDER_PROMOTION: i32 = BAD_CAPTURE - 1_000_000;
/// Bound of `|mvv_lva|` in `capture_score`: (queen + queen promotion) * 16.
const MVV_LVA_MAX: i32 = 1_800 * 16;
const _: () = assert!(
    TT_SCORE > GOOD_CAPTURE + MVV_LVA_MAX
        && GOOD_CAPTURE - MVV_LVA_MAX > KILLER + 1
        && KILLER > HISTORY_MAX
        && -HISTORY_MAX > BAD_CAPTURE + MVV_LVA_MAX
        && BAD_CAPTURE - MVV_LVA_MAX > UNDER_PROMOTION + MVV_LVA_MAX
        && UNDER_PROMOTION - MVV_LVA_MAX > -(1 << 23)
);

#[inline(always)]
fn pack(score: i32, index: usize) -> i32 {
    (score << 8) | (255 - index as i32)
}

impl Picker {
    /// `moves`, all ordered by `score`.
    pub fn new(
        pos: &Chess,
        moves: MoveList,
        tt_move: u16,
        heur: &Heuristics,
        ply: usize,
    ) -> Picker {
        let mut picker = Picker::unscored(moves);
        picker.score(pos, tt_move, heur, ply);
        picker
    }

    /// A picker to score in place with `score` or `add_noisy`. A picker is a few KiB: built
    /// like this in the caller's frame it is never copied, unlike one returned scored.
    #[inline(always)]
    pub fn unscored(moves: MoveList) -> Picker {
        Picker {
            moves,
            keys: [const { MaybeUninit::uninit() }; 256],
            next: 0,
        }
    }

    /// Scores every move: the table move, winning captures, killers, quiets by history, then
    /// losing captures and under-promotions.
    #[inline(always)]
    pub fn score(&mut self, pos: &Chess, tt_move: u16, heur: &Heuristics, ply: usize) {
        let killers = heur.killers[ply];
        let turn = pos.turn();
        let quiet_score = |code: u16, history: usize| {
            if code == tt_move {
                TT_SCORE
            } else if code == killers[0] {
                KILLER + 1
            } else if code == killers[1] {
                KILLER
            } else {
                heur.history[history]
            }
        };
        for (i, &m) in self.moves.iter().enumerate() {
            let score = match m {
                // Most moves, taken apart once rather than by each accessor.
                Move::Normal {
                    from,
                    to,
                    capture: None,
                    promotion: None,
                    ..
                } => quiet_score(encode_squares(from, to, None), hidx_squares(turn, from, to)),
                _ if m.is_capture() || m.promotion().is_some() => {
                    if encode(m) == tt_move {
                        TT_SCORE
                    } else {
                        capture_score(pos, m)
                    }
                }
                _ => quiet_score(encode(m), hidx(turn, m)),
            };
            self.keys[i].write(pack(score, i));
        }
    }

    /// Adds the winning captures and queen promotions of `pos` (not in check) to an empty
    /// picker, for quiescence.
    #[inline(always)]
    pub fn add_noisy(&mut self, pos: &Chess) {
        debug_assert!(self.moves.is_empty());
        gen_noisy(pos, &mut self.moves);
        let mut keep = 0;
        for i in 0..self.moves.len() {
            let m = self.moves[i];
            let score = capture_score(pos, m);
            if score > 0 {
                self.moves[keep] = m;
                self.keys[keep].write(pack(score, keep));
                keep += 1;
            }
        }
        self.moves.truncate(keep);
    }

    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The next move and its ordering score.
    #[inline]
    pub fn pick(&mut self) -> Option<(Move, i32)> {
        let n = self.moves.len();
        let next = self.next;
        // SAFETY: the constructors initialize a key for every move they keep.
        let keys = unsafe { self.keys[..n].assume_init_mut() };
        let best_key = keys[next..].iter().copied().max()?;
        let best = 255 - (best_key & 0xff) as usize;
        self.moves.swap(next, best);
        // The move from `next` now sits at `best`; `keys[next]` is never read again.
        keys[best] = pack(keys[next] >> 8, best);
        self.next += 1;
        Some((self.moves[next], best_key >> 8))
    }
}

/// The legal captures and queen promotions of `pos`, which must not be in check, in the order
/// `legal_moves` generates them (the picker breaks ties by that order). Under-promotions are
/// left out: quiescence drops them anyway.
fn gen_noisy(pos: &Chess, moves: &mut MoveList) {
    debug_assert!(!pos.is_check());
    let board = pos.board();
    let us = pos.turn();
    let ours = board.by_color(us);
    let them = board.by_color(!us);
    let king = board.king_of(us).expect("king in standard chess");
    // Our pieces pinned to the king may only move along the pin.
    let snipers = (attacks::rook_attacks(king, Bitboard::EMPTY) & board.rooks_and_queens())
        | (attacks::bishop_attacks(king, Bitboard::EMPTY) & board.bishops_and_queens());
    let mut pinned = Bitboard::EMPTY;
    for sniper in snipers & them {
        let between = attacks::between(king, sniper) & board.occupied();
        if !between.more_than_one() {
            pinned |= between & ours;
        }
    }
    if pos.maybe_ep_square().is_some() {
        moves.extend(pos.en_passant_moves());
    }
    let mut push = |role, from: Square, to: Square, promotion| {
        if !pinned.contains(from) || attacks::aligned(from, to, king) {
            moves.push(Move::Normal {
                role,
                from,
                capture: board.role_at(to),
                to,
                promotion,
            });
        }
    };

    // Pawns: captures towards the a-file, then towards the h-file (shift by `step`), then
    // promotions by a push.
    let pawns = board.pawns() & ours;
    let (west, east, forward) = match us {
        Color::White => (7, 9, 8),
        Color::Black => (-9, -7, -8),
    };
    let from = |to: Square, step: i32| Square::new(to.to_u32().wrapping_add_signed(-step));
    for (step, edge) in [
        (west, Bitboard::from_file(File::A)),
        (east, Bitboard::from_file(File::H)),
    ] {
        let targets = (pawns & !edge).shift(step) & them;
        for to in targets & !Bitboard::BACKRANKS {
            push(Role::Pawn, from(to, step), to, None);
        }
        for to in targets & Bitboard::BACKRANKS {
            push(Role::Pawn, from(to, step), to, Some(Role::Queen));
        }
    }
    for to in pawns.shift(forward) & !board.occupied() & Bitboard::BACKRANKS {
        push(Role::Pawn, from(to, forward), to, Some(Role::Queen));
    }

    for from in board.knights() & ours {
        for to in attacks::knight_attacks(from) & them {
            push(Role::Knight, from, to, None);
        }
    }
    let occupied = board.occupied();
    for from in board.bishops() & ours {
        for to in attacks::bishop_attacks(from, occupied) & them {
            push(Role::Bishop, from, to, None);
        }
    }
    for from in board.rooks() & ours {
        for to in attacks::rook_attacks(from, occupied) & them {
            push(Role::Rook, from, to, None);
        }
    }
    for from in board.queens() & ours {
        for to in attacks::queen_attacks(from, occupied) & them {
            push(Role::Queen, from, to, None);
        }
    }
    for to in attacks::king_attacks(king) & them {
        if board.attacks_to(to, !us, occupied).is_empty() {
            push(Role::King, king, to, None);
        }
    }
}

/// Good captures (SEE >= 0) above killers by MVV-LVA, losing ones below all quiets.
#[inline]
fn capture_score(pos: &Chess, m: Move) -> i32 {
    let victim = m.capture().map_or(0, see_value);
    let promo = m.promotion().map_or(0, |p| see_value(p) - 100);
    let mover = see_value(m.role());
    let mvv_lva = (victim + promo) * 16 - mover / 10;
    if m.promotion().is_some_and(|p| p != Role::Queen) {
        return UNDER_PROMOTION + mvv_lva;
    }
    let good = victim + promo >= mover || see(pos, m) >= 0;
    if good {
        GOOD_CAPTURE + mvv_lva
    } else {
        BAD_CAPTURE + mvv_lva
    }
}

/// True if the side to move has a piece other than pawns and king (null move is unsafe
/// in pawn endings because of zugzwang).
#[inline]
pub fn has_non_pawn_material(pos: &Chess) -> bool {
    let b = pos.board();
    let ours = b.by_color(pos.turn());
    let minors_majors: Bitboard = b.knights() | b.bishops() | b.rooks() | b.queens();
    (ours & minors_majors).any()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::position::Game;

    /// `gen_noisy` equals the filtered `legal_moves`, order included, in every position of short
    /// trees from tricky roots (pins, en passant, promotions).
    #[test]
    fn noisy_generation_matches_legal_moves() {
        fn walk(pos: &Chess, depth: u32) {
            if !pos.is_check() {
                let mut expected = pos.legal_moves();
                expected.retain(|m| {
                    m.is_capture() && m.promotion().is_none_or(|p| p == Role::Queen)
                        || m.promotion() == Some(Role::Queen)
                });
                let mut noisy = MoveList::new();
                gen_noisy(pos, &mut noisy);
                assert_eq!(noisy, expected, "{:?}", pos.board());
            }
            if depth > 0 {
                for m in pos.legal_moves() {
                    let mut next = pos.clone();
                    next.play_unchecked(m);
                    walk(&next, depth - 1);
                }
            }
        }
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
            "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1",
        ] {
            walk(&Game::from_fen(fen).unwrap().root, 3);
        }
    }
}
