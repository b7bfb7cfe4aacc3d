//! Why a report could not be written, and the one writer of its text files.

use std::path::{Path, PathBuf};

use crate::fsutil::FileError;
use crate::rating::{LoadError, RateError};
use crate::results::ResultsError;

/// Why a report could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    #[error("{0} does not exist")]
    NotFound(PathBuf),
    #[error("{0}: no games to report (the header only)")]
    NoGames(PathBuf),
    #[error("{0} is not a results directory")]
    NotADirectory(PathBuf),
    #[error(transparent)]
    Results(#[from] ResultsError),
    #[error(transparent)]
    Io(#[from] FileError),
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Rate(#[from] RateError),
    #[error("plot {path}: {message}")]
    Plot { path: PathBuf, message: String },
}

pub(crate) fn write(path: &Path, text: &str) -> Result<(), ReportError> {
    std::fs::write(path, text).map_err(|source| FileError::write(path, source).into())
}
