//! The engine's errors: positions and moves it cannot read, and bad bench settings.

/// What the engine's library functions report (the CLI adds nothing but the exit code).
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("invalid FEN {fen:?}: {reason}")]
    InvalidFen { fen: String, reason: String },
    #[error("illegal position in FEN {fen:?}: {reason}")]
    IllegalPosition { fen: String, reason: String },
    #[error("invalid move {text:?}: {reason}")]
    InvalidMove { text: String, reason: String },
    #[error("illegal move {text:?}: {reason}")]
    IllegalMove { text: String, reason: String },
    /// A bench or perft argument that cannot work (the message names the flag).
    #[error("{0}")]
    Argument(String),
}
