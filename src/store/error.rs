//! The store's error type: every message names the store (host, port, database and user; never
//! the password) and what was being done.

use crate::arena::ArenaError;
use crate::fsutil::FileError;

/// What went wrong talking to the PostgreSQL store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The `--store` / `SKILLCAL_STORE` value is not a PostgreSQL URL.
    #[error("--store / SKILLCAL_STORE: {0}")]
    BadUrl(String),
    /// No server answered (or it went away and did not come back in time).
    #[error("cannot reach the store at {at}: {reason}")]
    Unreachable { at: String, reason: String },
    /// The server refused the user (a wrong password, an unknown user, no such database).
    #[error("the store at {at} refused the connection: {reason} (check the user, password and database in --store / SKILLCAL_STORE)")]
    Refused { at: String, reason: String },
    /// The database holds no skillcal schema yet.
    #[error(
        "the store at {at} has no skillcal tables: run `skillcal store init --store URL` first"
    )]
    NotInitialised { at: String },
    /// The database's schema is another version than this skillcal's.
    #[error("the store at {at} has schema version {found}, this skillcal uses version {expected}: {hint}")]
    Version {
        at: String,
        found: i32,
        expected: i32,
        hint: &'static str,
    },
    /// A run id that is not in the store.
    #[error("run {run} does not exist in the store at {at}{known}")]
    NoRun { run: i64, at: String, known: String },
    /// A statement failed.
    #[error("the store at {at}: {what}: {reason}")]
    Query {
        at: String,
        what: String,
        reason: String,
    },
    /// A file the store reads or writes.
    #[error(transparent)]
    Io(#[from] FileError),
    /// The match itself (its config, its book, its engines).
    #[error(transparent)]
    Arena(#[from] ArenaError),
    /// Anything else, with what the store was doing.
    #[error("{0}")]
    Other(String),
}

/// The store's result type.
pub type Result<T, E = StoreError> = std::result::Result<T, E>;

/// `.at(action, path)` on io results, as the arena's.
pub(crate) trait IoAt<T> {
    fn at(self, action: &'static str, path: &std::path::Path) -> Result<T>;
}

impl<T> IoAt<T> for std::io::Result<T> {
    fn at(self, action: &'static str, path: &std::path::Path) -> Result<T> {
        self.map_err(|error| StoreError::Io(FileError::new(action, path, error)))
    }
}
