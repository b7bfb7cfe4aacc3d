//! Score ranges shared by search, evaluation and recognizers (seeds 000/004).
//!
//! Centipawns from the side to move's point of view:
//! - `|s| <= MAX_EVAL`: heuristic evaluation (saturated there);
//! - `MAX_EVAL < |s| < MATE_BOUND`: recognizer scores for known wins (`KNOWN_WIN` + progress);
//! - `|s| >= MATE_BOUND`: mate found, `MATE - ply` for the side that mates.
//!
//! All values fit the 16-bit transposition-table field.

/// Mate at the root (ply 0); mate in `p` plies from the root scores `MATE - p`.
pub const MATE: i32 = 30_000;
/// Longest mate distance (in plies) the engine represents.
pub const MAX_MATE_PLY: i32 = 256;
/// Any `|score| >= MATE_BOUND` is a mate score.
pub const MATE_BOUND: i32 = MATE - MAX_MATE_PLY;
/// Heuristic evaluation saturates at this magnitude.
pub const MAX_EVAL: i32 = 10_000;
/// Base of recognizer scores for won positions; recognizers add progress terms (< 9_000).
pub const KNOWN_WIN: i32 = 15_000;
/// Draw score.
pub const DRAW: i32 = 0;

/// How a stored or recognized score relates to the true value (seed 003: the same values the
/// transposition table uses; a failed recognition is `None` rather than a fourth variant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The true score equals the stored one.
    Exact,
    /// The true score is at least the stored one (fail high).
    Lower,
    /// The true score is at most the stored one (fail low).
    Upper,
}
