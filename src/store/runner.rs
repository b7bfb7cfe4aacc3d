//! The calibration's match runner through the store: a batch's matches enqueued at once and
//! played by workers, each exported into its folder, so `calibrate`, `pool` and `verify` fit
//! and plan on the same games as with the arena (node-bounded engines).

use std::path::{Path, PathBuf};

use super::coordinator::{play_matches, WaitOptions};
use crate::arena::RunOptions;
use crate::calibrate::play::{match_config, GameRunner, MatchSpec};
use crate::calibrate::CalibrateError;

/// A [`GameRunner`] whose games are played by the store's workers.
pub struct StoreRunner {
    url: String,
    root: PathBuf,
    wait: WaitOptions,
}

impl StoreRunner {
    /// A runner for the calibration (pool, verification) in `root`.
    pub fn new(url: &str, root: &Path, wait: WaitOptions) -> StoreRunner {
        StoreRunner {
            url: url.to_string(),
            root: root.to_path_buf(),
            wait,
        }
    }

    /// The event tag the arena runner writes.
    fn event(&self, dir: &Path) -> String {
        format!(
            "skillcal calibration {} {}",
            self.root.display(),
            dir.file_name()
                .map(|s| s.to_string_lossy())
                .unwrap_or_default()
        )
    }
}

impl GameRunner for StoreRunner {
    fn run(&self, spec: &MatchSpec, dir: &Path) -> crate::calibrate::Result<()> {
        self.run_batch(&[(spec.clone(), dir.to_path_buf())])
    }

    fn run_batch(&self, matches: &[(MatchSpec, PathBuf)]) -> crate::calibrate::Result<()> {
        let configs = matches
            .iter()
            .map(|(s, d)| Ok((match_config(s, &self.event(d))?, d.clone())))
            .collect::<crate::calibrate::Result<Vec<_>>>()?;
        play_matches(&configs, &self.url, &RunOptions::default(), &self.wait)
            .map_err(|e| CalibrateError::Other(format!("matches through the store: {e}")))?;
        Ok(())
    }
}
