//! How a game ends: the result and the [`Termination`] (both defined once, in the run-folder
//! schema `results::games`), and what a finished game leaves behind.

use shakmaty::Color;

pub use crate::results::{GameResult, Termination};

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
