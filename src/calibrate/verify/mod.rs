//! Checking a table: fresh games at UCI_Elo levels against the pool, rated (`levels`), the
//! table's levels and its kept copy (`table`), a verified level's games split by opponent
//! (`opponents`), and the same levels at two clocks
//! (`tc_check`).

pub(super) mod levels;
pub(super) mod opponents;
pub(super) mod table;
pub mod tc_check;

pub use levels::{verify, OPPONENTS_FILE};
pub use table::{check_levels, check_levels_from, default_levels};
