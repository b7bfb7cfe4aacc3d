//! The built-in engine: synchronous, no tokio, no knowledge of matches or ratings.

mod bench;
mod command;
mod error;
mod eval;
mod limits;
mod movepick;
mod perft;
mod position;
mod recognizer;
mod score;
mod search;
mod see;
mod tt;
mod uci;
mod weaken;

// The face: what the CLI, the other rooms and the tests use.
pub use bench::{bench_nodes, run as run_bench, BenchOptions, DEFAULT_DEPTH};
pub use command::{parse as parse_command, Command};
pub use eval::evaluate;
pub use limits::Limits;
pub use perft::{perft, run as run_perft, PerftOptions};
pub use position::{parse_uci_move, play, uci_string, Game};
pub use recognizer::{recognize, Expense, Recognition};
pub use score::{Bound, UciScore};
pub use search::{Candidate, Control, Engine, SearchParams, SearchResult};
pub use uci::{run_stdio, Options, Uci, SEARCH_FAILED};
pub use weaken::Weakening;
