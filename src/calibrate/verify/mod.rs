//! Checking a table: fresh games at UCI_Elo levels against the pool, rated (`levels`), a verified
//! level's games split by opponent (`opponents`), and the same levels at two clocks
//! (`tc_check`).

pub(super) mod levels;
pub(super) mod opponents;
pub mod tc_check;

pub use levels::{check_levels, check_levels_from, default_levels, verify, OPPONENTS_FILE};
