//! Interior-node recognizers (seeds 001 and 003).
//!
//! - Dead draws (neither side can ever mate: KK, KNK, KBK, bishops all on one colour) are an
//!   exact 0.
//! - A bare king against a side that can force mate (KBBK with bishops on both colours, KBNK,
//!   and any rook or queen, extra material allowed) is a known win scored, as in seed 001, as
//!   material minus the lone king's distance to where it gets mated (KBNK: a corner of the
//!   bishop's colour, counting its distance to the edge too) minus the kings' distance, lifted
//!   into the recognizer range:
//!   `KNOWN_WIN + material + class + 100 * progress + 12 * (7 - king_distance)`, with
//!   `progress` from `endgame::lone_king_progress`,
//!   always within `KNOWN_WIN .. KNOWN_WIN + 9_000` (material capped at 7_900).
//!   Every step that drives the lone king on or brings the strong king closer raises the score,
//!   so the search makes progress; `class` prefers KBBK (mate in at most 19) over KBNK (at
//!   most 33), and material keeps the search from giving away a queen to reach KBNK.
//! - Anything else fails (`None`).
//!
//! Bounds: the true value of a won position is a mate score, above every recognizer score, so
//! a win is a lower bound for the winner (an upper bound, negated, for the loser to move): the
//! search may cut off or narrow its window but keeps searching for the actual mate. The few
//! positions where the lone king saves itself at once (it can capture, it is stalemated, or
//! forks two loose pieces) are left to the search. A dead draw is exact by definition.
//!
//! Expense: all of this is a handful of bitboard operations plus, for the bare king to move,
//! its at most eight legal moves, far cheaper than a transposition-table probe or the
//! evaluation, so every result is `Cheap` and the search need not store it.

use shakmaty::{attacks, Bitboard, Chess, Color, Position};

use super::eval::endgame::{has_mating_force, lone_king_progress};
use super::score::{Bound, KNOWN_WIN, MATE_BOUND};

/// Whether the search should store a recognition in the transposition table (seed 003).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expense {
    /// Cheaper than a table probe: recompute instead of storing.
    Cheap,
    /// Worth storing.
    Expensive,
}

/// A successful recognition; a failed one is `None`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recognition {
    pub bound: Bound,
    /// Side to move's point of view; never a mate score.
    pub score: i32,
    pub expense: Expense,
}

/// Material of the winning side in recognizer scores (seed 001: minors 3.25 pawns).
const PAWN: i32 = 100;
const MINOR: i32 = 325;
const ROOK: i32 = 500;
const QUEEN: i32 = 975;
/// Material counted at most this much, keeping progress below 9_000 (see `score.rs`).
const MATERIAL_CAP: i32 = 7_900;
/// KBBK mates in at most 19 moves, KBNK in 33: prefer the easier win.
const KBBK_CLASS: i32 = 300;
/// Per step of the lone king's distance to its mating corner/edge (seed 001: one pawn).
const TARGET_STEP: i32 = 100;
/// Per step of the kings' distance (seed 001: 0.125 pawn).
const KINGS_STEP: i32 = 12;

/// Recognize `pos` (side to move's point of view), or `None` when no recognizer applies.
pub fn recognize(pos: &Chess) -> Option<Recognition> {
    let board = pos.board();
    let white_bare = !board.white().more_than_one();
    let black_bare = !board.black().more_than_one();
    if !white_bare && !black_bare {
        // Common case first: only pawnless minor-piece endings can be dead draws.
        if (board.pawns() | board.rooks_and_queens()).any() {
            return None;
        }
        return dead_draw(pos);
    }
    if white_bare && black_bare {
        return dead_draw(pos);
    }
    let strong = if black_bare {
        Color::White
    } else {
        Color::Black
    };
    if !has_mating_force(board, strong) {
        return dead_draw(pos);
    }
    known_win(pos, strong)
}

fn dead_draw(pos: &Chess) -> Option<Recognition> {
    pos.is_insufficient_material().then_some(Recognition {
        bound: Bound::Exact,
        score: 0,
        expense: Expense::Cheap,
    })
}

/// A bare king of `!strong` against mating force (score per the module documentation).
fn known_win(pos: &Chess, strong: Color) -> Option<Recognition> {
    let board = pos.board();
    let ours = board.by_color(strong);
    let lone = board.king_of(!strong)?;
    let king = board.king_of(strong)?;

    if pos.turn() == strong {
        // Two loose pieces next to the bare king: one of them falls.
        let near = attacks::king_attacks(lone) & ours;
        if near.more_than_one() {
            let occupied = board.occupied();
            let loose = near
                .into_iter()
                .filter(|&sq| board.attacks_to(sq, strong, occupied).is_empty())
                .count();
            if loose >= 2 {
                return None;
            }
        }
    } else {
        // Stalemate, or a capture that may change everything: let the search look.
        let moves = pos.legal_moves();
        if moves.is_empty() || moves.iter().any(|m| m.is_capture()) {
            return None;
        }
    }

    let count = |bb: Bitboard| (bb & ours).count() as i32;
    let minors = count(board.knights() | board.bishops());
    let material = (PAWN * count(board.pawns())
        + MINOR * minors
        + ROOK * count(board.rooks())
        + QUEEN * count(board.queens()))
    .min(MATERIAL_CAP);
    let kbbk = ours.count() == 3 && count(board.bishops()) == 2;
    let class = if kbbk { KBBK_CLASS } else { 0 };
    let score = KNOWN_WIN
        + material
        + class
        + TARGET_STEP * lone_king_progress(board, strong, lone)
        + KINGS_STEP * (7 - king.distance(lone) as i32);
    debug_assert!((KNOWN_WIN..KNOWN_WIN + 9_000).contains(&score) && score < MATE_BOUND);

    let (bound, score) = if pos.turn() == strong {
        (Bound::Lower, score)
    } else {
        (Bound::Upper, -score)
    };
    Some(Recognition {
        bound,
        score,
        expense: Expense::Cheap,
    })
}
