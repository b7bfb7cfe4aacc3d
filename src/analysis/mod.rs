//! How each level plays (`skillcal analyse`): every position of every game evaluated once by a
//! reference engine (cached), then per player: average centipawn loss, the distribution of the
//! loss, Lichess's accuracy and inaccuracy / mistake / blunder counts, blunder rates by the
//! position's state and the game phase, material drops (a loss of 300 cp or more) by state,
//! top-1 agreement, each with a 95% bootstrap interval over games. With human games (`human`),
//! the same figures per rating band and move-matching against the humans' moves (streamed,
//! resumable, at any scale), of an engine at `UCI_Elo` = the band's middle or of a fixed
//! setting.
//!
//! A reader follows an analysis through the rooms in this order ([`run`] takes the same path,
//! in `pipeline`):
//! - [`options`]: what an analysis is asked and what it returns;
//! - [`input`]: the games, read whole (PGN files, run folders) or streamed (human games);
//! - [`reference`](mod@reference): the reference engine's evaluations, in parallel and cached;
//! - [`figures`](mod@figures): each move judged, each group's figures and their intervals;
//! - [`matching`]: move-matching on human games, in resumable chunks;
//! - [`report`]: the CSV files and the pages.
//!
//! Formulas, thresholds and sources: `docs/analysis.md`.

mod error;
pub mod figures;
pub mod input;
pub mod matching;
pub mod options;
mod pipeline;
pub mod reference;
pub mod report;

pub use error::{AnalysisError, Result};
pub use figures::{
    accuracy_percent, bootstrap, counts, figures, game_accuracy, judge_game, percentile,
    win_percent, winning_chances, Judgement, Sample, State, COUNTS, DROP_CP, FIGURES,
};
pub use input::{
    parse_clock, position_key, read_pgn_file, stream, time_control, Clock, Counts, GameMoves,
    HumanFilter, PlayedMove,
};
pub use matching::{draw, MatchRow, Sampler};
pub use options::{
    default_match_limit, default_reference, group_figures, AnalyseOptions, AnalyseResult,
    GroupFigures, DEFAULT_MATCH_NODES_BUILTIN, DEFAULT_MATCH_NODES_OTHER, DEFAULT_NODES,
};
pub use pipeline::run;
pub use reference::{find_program, AnalysisEngine, EngineProcess, Eval, EvalCache, Limit, Score};
pub use report::document as page;
