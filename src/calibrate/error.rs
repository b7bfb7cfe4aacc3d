//! The calibration's error type (calibration runs, the pool measurement, verification). Every
//! message names what it is about: the config file and key (`configs/x.toml: key
//! `plan.grid`: ...`), the file or folder (by its path), or the run folder; errors of the arena,
//! the rating and the run-folder schema pass through as they are (they name their files).

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::arena::ArenaError;
use crate::fsutil::FileError;
use crate::rating::{LoadError, RateError};
use crate::results::ResultsError;

use crate::calibrate::fit::FitError;

/// What went wrong in a calibration, a pool measurement or a verification.
#[derive(Debug, thiserror::Error)]
pub enum CalibrateError {
    /// A value in a config (or a flag) that cannot work; the message starts with the file and
    /// the key.
    #[error("{0}")]
    Config(String),
    /// A problem in a file or folder (a table, a run's saved config, a run folder that holds
    /// another run).
    #[error("{}: {message}", path.display())]
    File { path: PathBuf, message: String },
    /// Reading or writing a file or folder failed.
    #[error(transparent)]
    Io(#[from] FileError),
    /// A match failed in the arena.
    #[error(transparent)]
    Arena(#[from] ArenaError),
    /// Games could not be loaded for rating.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// The pool could not be rated.
    #[error(transparent)]
    Rate(#[from] RateError),
    /// The curve could not be fitted.
    #[error(transparent)]
    Fit(#[from] FitError),
    /// A run-folder file could not be read or written.
    #[error(transparent)]
    Results(#[from] ResultsError),
    /// Anything else, with what the calibration was doing.
    #[error("{0}")]
    Other(String),
    /// An error with where it came from (`{context}: {error}`).
    #[error("{context}: {error}")]
    Context {
        context: String,
        error: Box<CalibrateError>,
    },
}

/// The calibration's result type.
pub type Result<T, E = CalibrateError> = std::result::Result<T, E>;

impl CalibrateError {
    /// A config error: `origin: key `key`: message`.
    pub fn config(origin: &str, key: impl fmt::Display, message: impl fmt::Display) -> Self {
        CalibrateError::Config(format!("{origin}: key `{key}`: {message}"))
    }

    /// A problem in `path`.
    pub fn file(path: &Path, message: impl fmt::Display) -> Self {
        CalibrateError::File {
            path: path.to_path_buf(),
            message: message.to_string(),
        }
    }

    /// Reading or writing `path` failed: `cannot {action} {path}: {error}`.
    pub fn io(action: &'static str, path: &Path, error: io::Error) -> Self {
        CalibrateError::Io(FileError::new(action, path, error))
    }

    /// This error with what the calibration was doing in front.
    pub fn context(self, context: impl fmt::Display) -> Self {
        CalibrateError::Context {
            context: context.to_string(),
            error: Box::new(self),
        }
    }
}

/// `return Err(CalibrateError::Config(format!(...)))`: a config error whose message starts with
/// the file and the key.
macro_rules! config_err {
    ($($t:tt)*) => {
        return Err($crate::calibrate::error::CalibrateError::Config(format!($($t)*)))
    };
}
pub(crate) use config_err;
