//! Interior-node recognizers (the recognizer-score and recognizer-result schemes).
//!
//! - Dead draws (neither side can ever mate: KK, KNK, KBK, bishops all on one colour) are an
//!   exact 0.
//! - A bare king against a side that can force mate (KBBK with bishops on both colours, KBNK, and
//!   any rook or queen, extra material allowed) is a known win. Its bound is the material of the
//!   winning side plus a class bonus (KBBK, mate in at most 19 moves, over KBNK, at most 33):
//!   `material + class`. Its static score adds, as in the recognizer-score scheme, how far the lone
//!   king has been driven to where it gets mated (KBNK: a corner of the bishop's colour, counting
//!   its distance to the edge too) and how close the kings are: `material + class + 24 * progress +
//!   3 * (7 - king_distance)`, with `progress` from `endgame::lone_king_progress` (0..=10). Both
//!   lie within `KNOWN_WIN..=MAX_EVAL` (material capped at `MAX_EVAL - 400`). The weights keep the
//!   recognizer-score scheme's ratio (a pawn per corner step, an eighth of that per king step) at a
//!   quarter of its scale, so progress never outweighs a piece: KBNK scores 650..=911 and KBBK
//!   724..=889, about what the evaluation gives for an extra queen at most. These scores overlap
//!   the heuristic range on purpose (the Chess Programming Wiki's Score page): a recognized win
//!   never outranks more material, so the search does not give a queen away to reach KBNK. Every
//!   step that drives the lone king on or brings the strong king closer raises the static score, so
//!   the search makes progress. With the winner to move, the bound leaves the progress out: the
//!   search never returns less than a lower bound (`search/node.rs`), and one that included the
//!   progress would hide every line in which the lone king escapes for a while. With the lone king
//!   to move, the bound is the static score itself, so each of the winner's
//!   moves is worth at least the progress it makes. Both are true bounds (the true value is a
//!   mate); this pairing is the one that still converts KBNK from a wrong corner within 50 moves at
//!   200,000 nodes a move (`tests/engine/mates_endgames.rs`), which progress-inclusive bounds on
//!   both sides, or material-only on both, did not.
//! - Anything else fails (`None`).
//!
//! Bounds: the true value of a won position is a mate score, above every recognizer score, so
//! a win is a lower bound for the winner (an upper bound, negated, for the loser to move): the
//! search may cut off or narrow its window but keeps searching for the actual mate, and never
//! returns less than the lower bound (`search/node.rs`). The few
//! positions where the lone king saves itself at once (it can capture, it is stalemated, or
//! forks two loose pieces) are left to the search. A dead draw is exact by definition.
//!
//! Expense: all of this is a handful of bitboard operations plus, for the bare king to move,
//! its at most eight legal moves, far cheaper than a transposition-table probe or the
//! evaluation, so every result is `Cheap` and the search need not store it.

use shakmaty::{attacks, Bitboard, Chess, Color, Position};

use super::eval::endgame::{has_mating_force, lone_king_progress};
use super::score::Bound;
use crate::score::{KNOWN_WIN, MAX_EVAL};

/// Whether the search should store a recognition in the transposition table (the recognizer-result
/// scheme).
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
    /// The bound's value, side to move's point of view; never a mate score.
    pub score: i32,
    /// The static score to use instead of the evaluation (side to move's point of view): the
    /// bound plus the progress made, so never worse than the bound for the side it favours.
    pub eval: i32,
    pub expense: Expense,
}

/// Material of the winning side in recognizer scores (the recognizer-score scheme: minors 3.25
/// pawns).
const PAWN: i32 = 100;
const MINOR: i32 = 325;
const ROOK: i32 = 500;
const QUEEN: i32 = 975;
/// Material counted at most this much, keeping every score within `MAX_EVAL` (class and
/// progress add at most 50 + 240 + 21).
const MATERIAL_CAP: i32 = MAX_EVAL - 400;
/// KBBK mates in at most 19 moves, KBNK in 33: prefer the easier win (by less than a pawn, so
/// never over more material).
const KBBK_CLASS: i32 = 50;
/// Per step of the lone king's distance to its mating corner/edge (the recognizer-score scheme: one
/// pawn; here a quarter of it, so that progress stays below a piece's value).
const TARGET_STEP: i32 = 24;
/// Per step of the kings' distance (the recognizer-score scheme: an eighth of the corner step).
const KINGS_STEP: i32 = 3;

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
        eval: 0,
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
    let bound = material + class;
    let eval = bound
        + TARGET_STEP * lone_king_progress(board, strong, lone)
        + KINGS_STEP * (7 - king.distance(lone) as i32);
    debug_assert!(KNOWN_WIN <= bound && eval <= MAX_EVAL, "{bound} {eval}");

    // The winner to move: a lower bound of the material alone, a floor the search rarely meets
    // (it must not hide the lines in which the lone king escapes for a while). The lone king to
    // move: an upper bound at the static score itself, so each of the winner's moves is worth at
    // least the progress it makes and the search prefers the moves that confine the king.
    let (bound, score, eval) = if pos.turn() == strong {
        (Bound::Lower, bound, eval)
    } else {
        (Bound::Upper, -eval, -eval)
    };
    Some(Recognition {
        bound,
        score,
        eval,
        expense: Expense::Cheap,
    })
}
