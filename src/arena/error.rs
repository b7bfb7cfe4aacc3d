//! The arena's error type. Every message names what it is about: the config key
//! (`engines[1].limits.tc`), the file (with its line where there is one), or the engine.
//!
//! Messages are complete in `Display` (a file error's `source` is already in its text), so
//! `{err}` and `{err:#}` say the same thing.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use crate::fsutil::FileError;

/// What went wrong in a match (configuration, files, engines, the run itself).
#[derive(Debug, thiserror::Error)]
pub enum ArenaError {
    /// A value in the match config (or a flag) that cannot work; the message starts with the key.
    #[error("{0}")]
    Config(String),
    /// A problem in a file the arena reads (config, book, games.csv, match.toml).
    #[error("{}: {message}", path.display())]
    File { path: PathBuf, message: String },
    /// A problem on one line of a file (an opening book's position).
    #[error("{}:{line}: {message}", path.display())]
    Line {
        path: PathBuf,
        line: usize,
        message: String,
    },
    /// Reading or writing a file failed.
    #[error(transparent)]
    Io(#[from] FileError),
    /// An engine cannot be used as configured (does not start, unknown option, bad value).
    #[error("{0}")]
    Engine(String),
    /// The output directory is in use by another run.
    #[error("{0}")]
    Locked(String),
    /// The run stopped before its end (signal, engine failing to start, write error).
    #[error("match stopped with {done}/{planned} games in {}; run the same command again to resume: {reason}", dir.display())]
    Stopped {
        done: usize,
        planned: usize,
        dir: PathBuf,
        reason: Box<ArenaError>,
    },
    /// Anything else, with what the arena was doing.
    #[error("{0}")]
    Other(String),
    /// An error with where it came from (`{context}: {error}`).
    #[error("{context}: {error}")]
    Context {
        context: String,
        error: Box<ArenaError>,
    },
}

/// The arena's result type.
pub type Result<T, E = ArenaError> = std::result::Result<T, E>;

impl ArenaError {
    /// A config error: `key: message`.
    pub fn config(key: impl fmt::Display, message: impl fmt::Display) -> ArenaError {
        ArenaError::Config(format!("{key}: {message}"))
    }

    /// A problem in `path`.
    pub fn file(path: &Path, message: impl fmt::Display) -> ArenaError {
        ArenaError::File {
            path: path.to_path_buf(),
            message: message.to_string(),
        }
    }

    /// A problem on line `line` (1-based) of `path`.
    pub fn line(path: &Path, line: usize, message: impl fmt::Display) -> ArenaError {
        ArenaError::Line {
            path: path.to_path_buf(),
            line,
            message: message.to_string(),
        }
    }

    /// A failed read / write / open of `path`.
    pub fn io(action: &'static str, path: &Path, error: io::Error) -> ArenaError {
        ArenaError::Io(FileError::new(action, path, error))
    }

    /// This error prefixed with where it came from.
    pub fn context(self, context: impl fmt::Display) -> ArenaError {
        ArenaError::Context {
            context: context.to_string(),
            error: Box::new(self),
        }
    }
}

/// `.context(...)` for arena results, as anyhow has it for the CLI.
pub trait Context<T> {
    fn context(self, context: impl fmt::Display) -> Result<T>;
}

impl<T> Context<T> for Result<T> {
    fn context(self, context: impl fmt::Display) -> Result<T> {
        self.map_err(|e| e.context(context))
    }
}

/// `.at(action, path)` turns an `io::Error` into one that names the file.
pub trait IoContext<T> {
    fn at(self, action: &'static str, path: &Path) -> Result<T>;
}

impl<T> IoContext<T> for std::result::Result<T, io::Error> {
    fn at(self, action: &'static str, path: &Path) -> Result<T> {
        self.map_err(|e| ArenaError::io(action, path, e))
    }
}

/// `return Err(ArenaError::Config(format!(...)))`.
macro_rules! config_bail {
    ($($arg:tt)*) => {
        return Err($crate::arena::error::ArenaError::Config(format!($($arg)*)))
    };
}
pub(crate) use config_bail;
