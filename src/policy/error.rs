//! What the policy room reports: a network file it cannot read, or one it refuses.

use std::path::PathBuf;

/// Every error names the network (its path, or `embedded maia-<band>`) and, for a refused
/// file, the protobuf field at fault (`weights.residual[2].se.w1`).
#[derive(Debug, thiserror::Error)]
pub enum PolicyError {
    #[error("network {path}: cannot read: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("network {path}: not a gzip file or a corrupt one: {source}")]
    Gzip {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("network {path}: not an lc0 network (protobuf pblczero.Net): {source}")]
    Decode {
        path: PathBuf,
        source: prost::DecodeError,
    },
    #[error("network {path}: field {field}: {reason}")]
    Field {
        path: PathBuf,
        field: String,
        reason: String,
    },
    #[error("invalid FEN {fen:?}: {reason}")]
    Fen { fen: String, reason: String },
    #[error("move {ply} {text:?}: {reason}")]
    Move {
        text: String,
        ply: usize,
        reason: String,
    },
    #[error("MaiaNet {0}: no such embedded net (1100, 1200, ..., 1900)")]
    NoSuchMaia(String),
}
