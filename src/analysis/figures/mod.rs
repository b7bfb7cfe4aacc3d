//! The figures of a group of moves: each move judged from the reference engine's evaluations
//! (`moves`, by Lichess's formulas in `lichess`), a group's figures and their bootstrap
//! intervals (`stats`), human games' moves grouped by the mover's rating band (`bands`).

mod bands;
mod lichess;
mod moves;
mod stats;

pub use bands::{band_samples, Band};
pub use lichess::{
    accuracy_percent, game_accuracy, win_percent, winning_chances, Judgement, MULTIPLIER,
};
pub use moves::{
    judge_game, needs_engine, score_at, MoveEval, Phase, State, DROP_CP, ENDGAME_PIECES, EQUAL,
    LOSING, OPENING_PLIES, WINNING,
};
pub use stats::{bootstrap, counts, figures, percentile, Estimate, Sample, COUNTS, FIGURES};
