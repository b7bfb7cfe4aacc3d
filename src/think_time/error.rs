//! The think-time commands' error: a complete message naming the file, line or argument.

/// What went wrong, said in full.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Error(pub String);

/// The think-time result type.
pub type Result<T, E = Error> = std::result::Result<T, E>;
