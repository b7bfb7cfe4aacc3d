//! The config a run folder's games were played with, kept beside them (`match.toml`,
//! `calibrate.toml`, `pool.toml`): a rerun may change what does not change the games (more
//! rounds, the budget, goals, the fit), never what does. The one place that refuses a changed
//! config; what counts as a change is each command's own (`changes`).

use std::path::Path;

use serde::{de::DeserializeOwned, Serialize};

use super::error::ResultsError;
use crate::fsutil::FileError;

/// Compares `cfg` with the config stored at `path` (if any) by `changes` (the keys that
/// differ in a way that would change the games); refuses when any do and the folder
/// `holds_games` (asked only then; its error is passed on), naming the keys, the file and `what`
/// the folder holds; else writes `cfg` there (a folder without a game belongs to no config yet:
/// the corrected config takes it over).
pub fn keep_config<C: Serialize + DeserializeOwned>(
    path: &Path,
    cfg: &C,
    what: &str,
    holds_games: impl FnOnce() -> Result<bool, String>,
    changes: impl FnOnce(&C, &C) -> Vec<String>,
) -> Result<(), ResultsError> {
    let dir = path.parent().unwrap_or(Path::new("."));
    if path.exists() {
        let old = crate::fsutil::read_text_capped(path, crate::fsutil::CONFIG_CAP)
            .map_err(|source| FileError::read(path, source))?;
        let prev: C = toml::from_str(&old).map_err(|e| ResultsError::Invalid {
            path: path.to_path_buf(),
            message: format!("cannot read the run's config: {e}"),
        })?;
        let changed = changes(&prev, cfg);
        let holds = || {
            holds_games().map_err(|message| ResultsError::Invalid {
                path: dir.to_path_buf(),
                message,
            })
        };
        if !changed.is_empty() && holds()? {
            return Err(ResultsError::Invalid {
                path: dir.to_path_buf(),
                message: format!(
                    "holds {what} with a different config ({} differ; see {}); use a new --out \
                     directory",
                    changed.join(", "),
                    path.display()
                ),
            });
        }
    }
    let text = toml::to_string(cfg).map_err(|e| ResultsError::Invalid {
        path: path.to_path_buf(),
        message: format!("cannot encode the config: {e}"),
    })?;
    std::fs::write(path, text).map_err(|source| FileError::write(path, source).into())
}
