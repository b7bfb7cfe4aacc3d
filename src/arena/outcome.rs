//! How a game ends: the result and the [`Termination`] (both defined once, in the run-folder
//! schema `results::games`), and what a finished game leaves behind.

use shakmaty::Color;

use super::uci_engine::SearchInfo;

pub use crate::results::{GameResult, Termination};

/// The result of a win for `c`.
pub fn win_for(c: Color) -> GameResult {
    match c {
        Color::White => GameResult::WhiteWins,
        Color::Black => GameResult::BlackWins,
    }
}

/// What one side's searches reported over a game (book moves excluded): the games.csv
/// `*_depth` and `*_nodes` columns. A search the clock stops short reaches fewer nodes and
/// less depth than its node limit allows, whatever the machine's load.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SidePace {
    depth_sum: u64,
    depth_moves: u32,
    nodes_sum: u64,
    nodes_moves: u32,
}

impl SidePace {
    /// Counts one search: its last reported depth and nodes, when it gave them.
    pub fn record(&mut self, info: &SearchInfo) {
        if let Some(d) = info.depth {
            self.depth_sum += u64::from(d);
            self.depth_moves += 1;
        }
        if let Some(n) = info.nodes {
            self.nodes_sum = self.nodes_sum.saturating_add(n);
            self.nodes_moves += 1;
        }
    }

    /// Mean depth a move, to two decimals.
    pub fn depth(&self) -> Option<f64> {
        (self.depth_moves > 0)
            .then(|| (100.0 * self.depth_sum as f64 / f64::from(self.depth_moves)).round() / 100.0)
    }

    /// Mean nodes a move, rounded.
    pub fn nodes(&self) -> Option<u64> {
        (self.nodes_moves > 0)
            .then(|| (self.nodes_sum as f64 / f64::from(self.nodes_moves)).round() as u64)
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
    /// White's and Black's searches.
    pub pace: [SidePace; 2],
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
