//! Why a curve could not be fitted.

use crate::rating::problem::SolveError;

/// Why a curve could not be fitted.
#[derive(Debug, thiserror::Error)]
pub enum FitError {
    #[error("no anchored player: ratings would float")]
    NoAnchor,
    #[error("the fit is not identified: {0}")]
    Solve(#[from] SolveError),
    #[error("games name player `{0}`, unknown to the configuration")]
    UnknownPlayer(String),
}
