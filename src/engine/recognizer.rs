//! Interior-node recognizers (seeds 001 and 003). (Placeholder until the recognizers land.)

use shakmaty::Chess;

use super::score::Bound;

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

/// Recognize `pos` (side to move's point of view), or `None` when no recognizer applies.
pub fn recognize(_pos: &Chess) -> Option<Recognition> {
    None
}
