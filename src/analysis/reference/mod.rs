//! The reference engine's evaluations: one UCI process a worker (`engine`), N of them in
//! parallel over games or single positions (`processes`), every answer kept in the evaluation
//! cache (`cache`) so a killed run loses none; `score` is what an answer says a position is
//! worth.

mod cache;
mod engine;
mod processes;
mod score;

pub use cache::{CacheRow, EvalCache};
pub use engine::{find_program, split_spec, AnalysisEngine, EngineProcess, Eval, Limit, CLOCK_GO};
pub use processes::{evaluate_games, line_digest, search_each};
pub use score::{Score, CP_CEILING};
