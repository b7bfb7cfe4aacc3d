//! The built-in engine: synchronous, no tokio, no knowledge of matches or ratings.

pub mod bench;
pub mod score;
pub mod perft;
pub mod uci;
