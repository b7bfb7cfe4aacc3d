//! The problem of one `rate` call, what reading its solution needs, and why rating can fail:
//! shared by `rate` (which builds and solves it) and `intervals` (which resamples it).

use super::problem::{Problem, SolveError};

/// Why games could not be rated.
#[derive(Debug, thiserror::Error)]
pub enum RateError {
    #[error("rating: no games to rate")]
    NoGames,
    #[error("rating: {0}")]
    Options(String),
    #[error("rating: player '{0}' plays against itself")]
    SelfPlay(String),
    #[error("anchor '{name}' is not a player in these games (players: {players})")]
    UnknownAnchor { name: String, players: String },
    #[error("anchor '{0}' is given twice")]
    DuplicateAnchor(String),
    #[error("anchor '{name}': {problem}")]
    BadAnchor { name: String, problem: String },
    #[error("rating: {0}")]
    Solve(#[from] SolveError),
    #[error("rating: {0}")]
    Sampling(String),
}

/// The problem of one `rate` call with what is needed to read its solution.
pub(super) struct RateProblem {
    pub(super) problem: Problem,
    /// Parameter of the white advantage, when estimated.
    pub(super) adv_param: Option<usize>,
    /// Index into `problem.priors` of each soft anchor (the bootstrap resamples their means).
    pub(super) soft_priors: Vec<usize>,
    /// Whether the reference is the pool mean (ratings re-centred after each fit).
    pub(super) pool_mean: bool,
    /// Starting point of Newton's method: each component's mean anchor value.
    pub(super) start: Vec<f64>,
}
