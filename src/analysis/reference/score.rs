//! What an engine says a position is worth, from the side to move: centipawns or mate in n.

/// Lichess's centipawn cap (`Eval.Cp.CEILING`); mate scores map to it.
pub const CP_CEILING: i32 = 1000;

/// An evaluation from one side's point of view: centipawns, or mate in `n` (negative: mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Cp(i32),
    Mate(i32),
}

impl Score {
    /// Centipawns capped at +-1000, mates at the cap (lila's `ceiled` and `fromMate`).
    pub fn capped_cp(self) -> i32 {
        match self {
            Score::Cp(cp) => cp.clamp(-CP_CEILING, CP_CEILING),
            Score::Mate(m) if m > 0 => CP_CEILING,
            Score::Mate(_) => -CP_CEILING,
        }
    }

    /// The same evaluation from the other side.
    pub fn negate(self) -> Score {
        match self {
            Score::Cp(cp) => Score::Cp(-cp),
            Score::Mate(m) => Score::Mate(-m),
        }
    }
}
