//! The calibration loop: the driver (resume, plan, play, repeat), the fits of all games so far
//! (`fits`), what to play next (`plan`, `cost`), the players and their engines (`players`), the
//! preflight (`preflight`), the run folder (`folder`; `config_diff` names the keys that would
//! change a resumed run's games) and the result files (`outputs`).

pub(super) mod config_diff;
pub(super) mod cost;
pub(super) mod driver;
pub(super) mod fits;
pub(super) mod folder;
pub(super) mod outputs;
pub(super) mod plan;
pub(super) mod players;
pub(super) mod preflight;
pub use driver::{calibrate, Options};

pub use folder::{all_games, list_matches};
pub use outputs::Outcome;
pub use plan::target_status;
pub use players::{parse_subject, players, pool_evidence, subject_engine};
