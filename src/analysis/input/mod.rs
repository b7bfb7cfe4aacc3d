//! The games to analyse: PGN files and run folders read whole (`games`), and human games
//! streamed one at a time from plain, zstd or gzip PGN, filtered by rating and clock
//! (`stream`). Both keep each move's clock comment.

mod games;
mod stream;

pub use games::{
    full_fen, parse_clock, pgn_files, position_key, rating, read_pgn_bytes, read_pgn_file,
    GameMoves, PlayedMove, MAX_ELO,
};
pub use stream::{open, stream, time_control, Clock, Counts, HumanFilter, HumanGame, Probe};
