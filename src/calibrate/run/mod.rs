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

pub use cost::{CostSample, GameCost};
pub(in crate::calibrate) use folder::merge_games;
pub use folder::{all_games, list_matches};
pub(crate) use folder::{claim_folder, games_in, write_match_spec};
pub use outputs::Outcome;
pub use plan::target_status;
pub(crate) use players::{match_seed, match_spec, pool_engine, subject_spec, without_retired};
pub use players::{parse_subject, players, pool_evidence, subject_engine};
