//! Move-matching on human games: how often an engine setting plays the human's move, per band
//! of the mover's rating. `run` streams the games in chunks; `items` makes each probe (and the
//! seeded sample); a UCI engine answers in `uci`, a Maia net in-process in `policy`; `work`
//! records each finished chunk, so a killed run keeps what it measured.

mod items;
mod policy;
mod run;
mod uci;
mod work;

pub use items::{draw, Sampler};
pub use run::{run, Matching, MatchingOptions};
pub use work::MatchRow;
