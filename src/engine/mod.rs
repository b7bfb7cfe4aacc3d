//! The built-in engine: synchronous, no tokio, no knowledge of matches or ratings.

pub mod bench;
pub mod command;
pub mod error;
pub mod eval;
pub mod limits;
pub mod movepick;
pub mod perft;
pub mod position;
pub mod recognizer;
pub mod score;
pub mod search;
pub mod see;
pub mod tt;
pub mod uci;
pub mod weaken;
