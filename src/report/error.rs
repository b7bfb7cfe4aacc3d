//! Why a report could not be written, and the one writer of its text files.

use std::path::{Path, PathBuf};

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
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {path}: {source}")]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Load(#[from] LoadError),
    #[error(transparent)]
    Rate(#[from] RateError),
    #[error("plot {path}: {message}")]
    Plot { path: PathBuf, message: String },
}

pub(crate) fn write(path: &Path, text: &str) -> Result<(), ReportError> {
    std::fs::write(path, text).map_err(|source| ReportError::Write {
        path: path.to_path_buf(),
        source,
    })
}
