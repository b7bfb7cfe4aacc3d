//! Why a results file could not be read or written.

use std::path::PathBuf;

use crate::fsutil::FileError;

/// A results file that could not be read or written; always names the file.
#[derive(Debug, thiserror::Error)]
pub enum ResultsError {
    #[error(transparent)]
    Io(#[from] FileError),
    #[error("{path}:{line}: {message}")]
    Parse {
        path: PathBuf,
        line: u64,
        message: String,
    },
    #[error("{path}: {message}")]
    Invalid { path: PathBuf, message: String },
}
