//! The games to analyse: PGN files and run folders read whole (`games`), and human games
//! streamed one at a time from plain, zstd or gzip PGN (`stream`), filtered by rating, time
//! control and clock (`filter`). Both keep each move's clock comment.

mod filter;
mod games;
mod stream;

pub use filter::{time_control, HumanFilter};
pub use games::{
    full_fen, parse_clock, pgn_files, position_key, rating, read_pgn_bytes, read_pgn_file,
    GameMoves, PlayedMove, MAX_ELO,
};
pub use stream::{open, stream, Clock, Counts, HumanGame, Probe};
