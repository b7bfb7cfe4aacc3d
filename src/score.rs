//! The built-in engine's score scale (the Chess Programming Wiki's Score and ScoreValueRange
//! pages), shared by the engine's search, evaluation and recognizers and by the weakening in
//! `strength`, which must never perturb a mate or a clear win. A leaf module: it uses nothing else
//! in the crate.
//!
//! Centipawns from the side to move's point of view:
//! - `|s| <= MAX_EVAL`: heuristic evaluation (saturated there), and recognizer scores for known
//!   wins, `KNOWN_WIN..=MAX_EVAL`: material plus progress, compatible with the evaluation (the
//!   recognizer-score scheme), so a recognized win never outranks keeping more material (the Chess
//!   Programming Wiki's Score page: recognized wins may overlap the heuristic range "to avoid dumb
//!   queen sacrifices to transpose into a won KBNK");
//! - `|s| >= MATE_BOUND`: mate found, `MATE - ply` for the side that mates.
//!
//! All values fit the 16-bit transposition-table field (`engine::score`).

/// Mate at the root (ply 0); mate in `p` plies from the root scores `MATE - p`.
pub const MATE: i32 = 30_000;
/// Longest mate distance (in plies) the engine represents.
pub const MAX_MATE_PLY: i32 = 256;
/// Any `|score| >= MATE_BOUND` is a mate score.
pub const MATE_BOUND: i32 = MATE - MAX_MATE_PLY;
/// Heuristic evaluation saturates at this magnitude.
pub const MAX_EVAL: i32 = 10_000;
/// Lowest recognizer score of a won position (a lone rook, before any progress); recognizer
/// wins lie in `KNOWN_WIN..=MAX_EVAL`, inside the heuristic range.
pub const KNOWN_WIN: i32 = 500;
/// Draw score.
pub const DRAW: i32 = 0;

/// Larger than any score a search can return; the root's full window is `(-INFINITE, INFINITE)`.
pub const INFINITE: i32 = MATE + 1;

/// Score for the side to move when it mates in `ply` plies from the root.
pub const fn mate_in(ply: i32) -> i32 {
    MATE - ply
}

/// Score for the side to move when it is mated in `ply` plies from the root.
pub const fn mated_in(ply: i32) -> i32 {
    -MATE + ply
}
