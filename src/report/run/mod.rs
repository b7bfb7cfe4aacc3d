//! The calibration or verification run's page: its files read (`load.rs`), what no file holds
//! (`stats.rs`), its figures (`figures.rs`), the page (`sections.rs`) with the verification's
//! games by opponent (`verify.rs`) and the time-control check (`tc.rs`).

mod figures;
mod load;
mod sections;
mod stats;
mod tc;
mod verify;

pub use figures::{draw as draw_figures, game_figures, Figure};
pub use load::{is_match_folder, load, read_curve, read_targets, RunData};
pub use sections::document;
pub use stats::{
    anchored_rms, facts_stats, game_stats, verify_noise, verify_stats, GameFacts, GameStats,
};
pub use tc::tc_pace_note;
pub use verify::{consistency, DISAGREE_P};
