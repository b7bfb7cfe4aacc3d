//! How a game ends: the result, the [`Termination`] (the games.csv vocabulary, fastchess's
//! classification of engine failures included) and what a finished game leaves behind.

use shakmaty::Color;

pub use crate::rating::GameResult;

/// How a game ended. `as_str` gives the games.csv `termination` value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    Checkmate,
    Stalemate,
    Threefold,
    FiftyMoves,
    InsufficientMaterial,
    AdjudicationResign,
    AdjudicationDraw,
    MaxPlies,
    TimeForfeit,
    IllegalMove,
    Crash,
    Stall,
}

impl Termination {
    pub const ALL: [Termination; 12] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::Threefold,
        Termination::FiftyMoves,
        Termination::InsufficientMaterial,
        Termination::AdjudicationResign,
        Termination::AdjudicationDraw,
        Termination::MaxPlies,
        Termination::TimeForfeit,
        Termination::IllegalMove,
        Termination::Crash,
        Termination::Stall,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Threefold => "threefold",
            Termination::FiftyMoves => "fifty_moves",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::AdjudicationResign => "adjudication_resign",
            Termination::AdjudicationDraw => "adjudication_draw",
            Termination::MaxPlies => "max_plies",
            Termination::TimeForfeit => "time_forfeit",
            Termination::IllegalMove => "illegal_move",
            Termination::Crash => "crash",
            Termination::Stall => "stall",
        }
    }

    pub fn parse(s: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.as_str() == s)
    }

    /// The PGN `Termination` tag (the standard's vocabulary).
    pub fn pgn_tag(self) -> &'static str {
        match self {
            Termination::AdjudicationResign
            | Termination::AdjudicationDraw
            | Termination::MaxPlies => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "rules infraction",
            Termination::Crash | Termination::Stall => "abandoned",
            _ => "normal",
        }
    }

    /// True when an engine failed (it loses and is restarted).
    pub fn is_failure(self) -> bool {
        matches!(
            self,
            Termination::TimeForfeit
                | Termination::IllegalMove
                | Termination::Crash
                | Termination::Stall
        )
    }
}

/// The result of a win for `c`.
pub fn win_for(c: Color) -> GameResult {
    match c {
        Color::White => GameResult::WhiteWins,
        Color::Black => GameResult::BlackWins,
    }
}

pub struct PlayedMove {
    pub san: String,
    /// PGN comment text without braces (`+0.35/12 0.105s`, `book`).
    pub comment: String,
}

/// Everything a finished game leaves behind (before it becomes a games.csv row).
pub struct FinishedGame {
    pub result: GameResult,
    pub termination: Termination,
    /// A sentence for the PGN (`White mates`, `engine X: disconnected ...`).
    pub detail: String,
    pub moves: Vec<PlayedMove>,
    pub start_fen: String,
    pub seconds: f64,
    /// The side whose engine failed (it is restarted).
    pub faulty: Option<Color>,
    /// Sum and count of bestmove-received -> next-go-sent gaps, nanoseconds.
    pub overhead_ns: u128,
    pub overhead_count: u64,
    /// The part of `overhead_ns` spent inside the pipe write of `position` + `go`.
    pub overhead_write_ns: u128,
    /// The failure came before the first move (starting the engine or `ucinewgame`).
    pub failed_at_start: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn termination_names_round_trip() {
        for t in Termination::ALL {
            assert_eq!(Termination::parse(t.as_str()), Some(t));
        }
    }
}
