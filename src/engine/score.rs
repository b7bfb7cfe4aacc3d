//! Scores as the engine stores and reports them: the transposition table's bounds and
//! ply-adjusted mate scores, and UCI's `cp` / `mate`. The scale itself (mate and evaluation
//! bands) is `crate::score`, shared with `strength`.

use crate::score::{MATE, MATE_BOUND};

/// How a stored or recognized score relates to the true value (the recognizer-result scheme: the
/// same values the transposition table uses; a failed recognition is `None` rather than a fourth
/// variant).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// The true score equals the stored one.
    Exact,
    /// The true score is at least the stored one (fail high).
    Lower,
    /// The true score is at most the stored one (fail low).
    Upper,
}

/// Converts a search score (relative to the root) into a table score (relative to the node at
/// `ply`), so a mate found through a transposition keeps its true distance when read elsewhere.
pub fn to_tt(score: i32, ply: usize) -> i16 {
    let ply = ply as i32;
    let s = if score >= MATE_BOUND {
        score + ply
    } else if score <= -MATE_BOUND {
        score - ply
    } else {
        score
    };
    s.clamp(-MATE, MATE) as i16
}

/// Inverse of [`to_tt`]: a table score read at `ply` back to a root-relative search score.
pub fn from_tt(stored: i16, ply: usize) -> i32 {
    let s = i32::from(stored);
    let ply = ply as i32;
    if s >= MATE_BOUND {
        s - ply
    } else if s <= -MATE_BOUND {
        s + ply
    } else {
        s
    }
}

/// A score as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UciScore {
    /// Centipawns from the engine's point of view.
    Cp(i32),
    /// Mate in N moves (negative: the engine gets mated).
    Mate(i32),
}

impl UciScore {
    pub fn from_score(score: i32) -> UciScore {
        if score >= MATE_BOUND {
            UciScore::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            UciScore::Mate(-(MATE + score) / 2)
        } else {
            UciScore::Cp(score)
        }
    }
}

impl std::fmt::Display for UciScore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            UciScore::Cp(cp) => write!(f, "cp {cp}"),
            UciScore::Mate(n) => write!(f, "mate {n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::score::{mate_in, mated_in, KNOWN_WIN, MAX_EVAL};

    #[test]
    fn tt_round_trips_mates_at_several_plies() {
        for ply in [0usize, 1, 5, 17, 60, 120] {
            for root_dist in [1, 2, 3, 9, 30] {
                let mate = mate_in(ply as i32 + root_dist);
                assert_eq!(from_tt(to_tt(mate, ply), ply), mate);
                let mated = mated_in(ply as i32 + root_dist);
                assert_eq!(from_tt(to_tt(mated, ply), ply), mated);
            }
            for s in [-MAX_EVAL, -1, 0, 37, KNOWN_WIN + 500, MAX_EVAL] {
                assert_eq!(from_tt(to_tt(s, ply), ply), s);
            }
        }
        // A mate stored 4 plies below the root and read 2 plies below it is 2 plies shorter.
        let stored = to_tt(mate_in(7), 4);
        assert_eq!(from_tt(stored, 2), mate_in(5));
    }

    #[test]
    fn uci_mate_numbers() {
        assert_eq!(UciScore::from_score(mate_in(1)), UciScore::Mate(1));
        assert_eq!(UciScore::from_score(mate_in(3)), UciScore::Mate(2));
        assert_eq!(UciScore::from_score(mated_in(2)), UciScore::Mate(-1));
        assert_eq!(UciScore::from_score(mated_in(0)), UciScore::Mate(0));
        assert_eq!(UciScore::from_score(-35), UciScore::Cp(-35));
    }
}
