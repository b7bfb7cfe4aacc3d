//! The built-in engine: synchronous, no tokio, no knowledge of matches or ratings.

pub mod bench;
pub mod eval;
pub mod perft;
pub mod recognizer;
pub mod score;
pub mod uci;
