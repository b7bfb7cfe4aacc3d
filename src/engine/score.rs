//! Score ranges shared by search, evaluation and recognizers (seeds 000/004).
//!
//! Centipawns from the side to move's point of view:
//! - `|s| <= MAX_EVAL`: heuristic evaluation (saturated there), and recognizer scores for known
//!   wins, `KNOWN_WIN..=MAX_EVAL`: material plus progress, compatible with the evaluation (seed
//!   001), so a recognized win never outranks keeping more material (seed 000: recognized wins
//!   may overlap the heuristic range "to avoid dumb queen sacrifices to transpose into a won
//!   KBNK");
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
/// Lowest recognizer score of a won position (a lone rook, before any progress); recognizer
/// wins lie in `KNOWN_WIN..=MAX_EVAL`, inside the heuristic range.
pub const KNOWN_WIN: i32 = 500;
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

/// True for mate and mated scores.
pub const fn is_mate(score: i32) -> bool {
    score >= MATE_BOUND || score <= -MATE_BOUND
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
