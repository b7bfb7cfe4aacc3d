//! The analysis's error type. Every message names what it is about: the argument, the file or
//! folder (by its path), or the engine.
//!
//! Messages are complete in `Display` (a file error's `source` is already in its text), so
//! `{err}` and `{err:#}` say the same thing.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::fsutil::FileError;

/// What went wrong in an analysis (arguments, files, engines).
#[derive(Debug, thiserror::Error)]
pub enum AnalysisError {
    /// An argument that cannot work (a search limit, an engine spec, no inputs).
    #[error("{0}")]
    Usage(String),
    /// A problem in a file or folder the analysis reads.
    #[error("{}: {message}", path.display())]
    File { path: PathBuf, message: String },
    /// Reading or writing a file or folder failed.
    #[error(transparent)]
    Io(#[from] FileError),
    /// An engine failed or answered something unusable (the message names the engine).
    #[error("{0}")]
    Engine(String),
    /// Anything else, with what the analysis was doing.
    #[error("{0}")]
    Other(String),
    /// An error with where it came from (`{context}: {error}`).
    #[error("{context}: {error}")]
    Context {
        context: String,
        error: Box<AnalysisError>,
    },
}

/// The analysis's result type.
pub type Result<T, E = AnalysisError> = std::result::Result<T, E>;

impl AnalysisError {
    /// A problem in `path`.
    pub fn file(path: &Path, message: impl fmt::Display) -> AnalysisError {
        AnalysisError::File {
            path: path.to_path_buf(),
            message: message.to_string(),
        }
    }

    /// Reading or writing `path` failed: `cannot {action} {path}: {error}`.
    pub fn io(action: &'static str, path: &Path, error: io::Error) -> AnalysisError {
        AnalysisError::Io(FileError::new(action, path, error))
    }

    /// This error with what the analysis was doing in front.
    pub fn context(self, context: impl fmt::Display) -> AnalysisError {
        AnalysisError::Context {
            context: context.to_string(),
            error: Box::new(self),
        }
    }
}
