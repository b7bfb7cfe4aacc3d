//! How games get played: what a run asks of a match runner (`runner`), so that the arena
//! (`arena`, the real runner) and the simulator (`sim`, for tests and cost estimates)
//! interchange.

pub(super) mod arena;
pub(super) mod runner;
pub(super) mod sim;

pub(crate) use arena::{adjudication, check_book_rules_and_programs, check_engines};
pub use arena::{match_config, ArenaRunner};
pub use runner::{member_engine, EngineSpec, GameRunner, MatchSpec, RateOnly};
pub use sim::SimRunner;
