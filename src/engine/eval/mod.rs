//! Static evaluation: tapered middlegame/endgame score in centipawns.
//!
//! Terms: material and piece-square tables (PeSTO, see `pst.rs`), pawn structure (passed,
//! isolated, doubled), mobility, king attackers and pawn shield, bishop pair, rooks on open
//! files, tempo, mop-up of a lone king, and scaling of drawish endgames. Everything is computed
//! from scratch from bitboards (the search copies positions, so there is nothing to update
//! incrementally); `cargo test --release --test engine_eval_speed -- --ignored --nocapture`
//! prints the cost per call.

pub mod endgame;
mod pst;
mod terms;

use std::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use shakmaty::{Board, Chess, Color, Position};

use super::score::MAX_EVAL;

/// A (middlegame, endgame) pair of centipawn values.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct S(pub i32, pub i32);

impl Add for S {
    type Output = S;
    #[inline]
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}

impl Sub for S {
    type Output = S;
    #[inline]
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}

impl AddAssign for S {
    #[inline]
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl SubAssign for S {
    #[inline]
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

impl Mul<i32> for S {
    type Output = S;
    #[inline]
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}

impl Neg for S {
    type Output = S;
    #[inline]
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

/// Game phase of a full set of pieces (knight/bishop 1, rook 2, queen 4).
pub const MAX_PHASE: i32 = 24;

/// Bonus for the side to move: it can improve before the opponent does.
const TEMPO: i32 = 12;

/// Centipawns from the side to move's point of view, saturated at `±MAX_EVAL`.
///
/// Dead draws (neither side can mate) score exactly 0.
pub fn evaluate(pos: &Chess) -> i32 {
    let board = pos.board();
    if (board.pawns() | board.rooks_and_queens()).is_empty() && pos.is_insufficient_material() {
        return 0;
    }
    let white = evaluate_white(board);
    let stm = if pos.turn() == Color::White {
        white
    } else {
        -white
    };
    (stm + TEMPO).clamp(-MAX_EVAL, MAX_EVAL)
}

/// Game phase from `MAX_PHASE` (all pieces on) down to 0 (pawns and kings only).
#[inline]
pub fn phase(board: &Board) -> i32 {
    let minors = (board.knights() | board.bishops()).count() as i32;
    let rooks = board.rooks().count() as i32;
    let queens = board.queens().count() as i32;
    (minors + 2 * rooks + 4 * queens).min(MAX_PHASE)
}

/// The evaluation from White's point of view, without tempo and saturation.
pub fn evaluate_white(board: &Board) -> i32 {
    let mut s = S(0, 0);
    for (ci, color) in [Color::White, Color::Black].into_iter().enumerate() {
        let ours = board.by_color(color);
        let mut side = S(0, 0);
        for (ri, bb) in [
            board.pawns(),
            board.knights(),
            board.bishops(),
            board.rooks(),
            board.queens(),
            board.kings(),
        ]
        .into_iter()
        .enumerate()
        {
            for sq in bb & ours {
                side += pst::PST[ci][ri][sq.to_usize()];
            }
        }
        if ci == 0 {
            s += side;
        } else {
            s -= side;
        }
    }
    s += terms::pawns(board, Color::White) - terms::pawns(board, Color::Black);
    s += terms::pieces(board, Color::White) - terms::pieces(board, Color::Black);

    let phase = phase(board);
    let mut v = (s.0 * phase + s.1 * (MAX_PHASE - phase)) / MAX_PHASE;
    v += endgame::mop_up(board);
    v * endgame::scale(board, v) / endgame::SCALE_NORMAL
}
