//! Elo estimation: pure functions, no I/O beyond reading game files and writing the CSV.
//!
//! # Library API (used by `calibrate`)
//! - [`load_games`]`(paths, &LoadOptions) -> Result<Vec<Game>>` reads `games.csv` (columns found
//!   by header name: `white`, `black`, `result` required, `pair_id` used when present) and PGN
//!   files (tags White, Black, Result; FEN for opening pairs). A result other than `1-0`, `0-1`,
//!   `1/2-1/2` is an error naming file and line, unless `skip_bad_lines` is set
//!   ([`load_games_report`] then lists what was skipped).
//! - [`rate`]`(&games, &RateOptions) -> Result<Ratings>`: maximum-likelihood logistic Elo for
//!   every player connected to an anchor, with intervals. [`Anchor::hard`] holds a player fixed,
//!   [`Anchor::soft`] gives it a Gaussian prior with an SD (Ordo's loose anchors; the PR #4341
//!   Skill Level table is best used this way). Without anchors the largest connected pool is
//!   rated with mean 0. Players not connected to an anchor get `elo == None`,
//!   `connected == false`. Each [`PlayerRating`] has `elo`, `lower`, `upper` (the
//!   `confidence` interval, 95% by default), `sd`, games, wins/draws/losses, score and draw
//!   rate; [`Ratings::cov`] gives the covariance of two ratings (for weighted curve fits).
//! - [`head_to_head`]`(&games, a, b)`: trinomial and [`Pentanomial`] counts for A against B;
//!   [`ScoreStats::from_counts`] gives Elo ± (fishtest's), normalized Elo and LOS.
//! - [`Sprt`]: fishtest's generalized SPRT on trinomial or pentanomial counts, `elo0`/`elo1` on
//!   the logistic or normalized scale ([`EloScale`]), bounds from alpha and beta; returns the LLR
//!   and [`SprtState`] (accept H0, accept H1, continue).
//!
//! # Model (details in `model` and `fit`)
//! - Scale: logistic Elo, `E(d) = 1/(1 + 10^(-d/400))`, as Ordo, CCRL and fishtest; 76% is +200.
//! - Fit: maximum likelihood of the game scores (a draw is half a point), as Ordo, by Newton
//!   iterations on per-(white, black) aggregated counts; optional white advantage (off, fixed,
//!   fitted). A weak Gaussian prior (SD 2000 Elo) on the difference of every two opponents keeps
//!   100% and 0% scores finite.
//! - Draw model: Davidson's `D = nu sqrt(W L)` with the expected score held logistic, so draws do
//!   not change the rating scale; `nu` is the smaller of two moment estimates (from the number
//!   of draws, and from the games' spread about their expected scores), the draw rate between
//!   equals capped at n/(n+1) for n games, so an all-draw pool keeps an interval. It drives
//!   the bootstrap's simulated games and the draw correction of the Hessian intervals.
//! - Intervals: [`Intervals::Bootstrap`] (parametric, seeded, percentile; the CLI default, like
//!   Ordo's simulations) or [`Intervals::Hessian`] (sandwich normal approximation; the library
//!   default because it is instant). Both are relative to the anchors: a hard anchor has a zero
//!   width interval, a soft anchor's reflects its SD.

mod games;
mod intervals;
mod load;
pub mod model;
mod output;
mod pairs;
mod pentanomial;
mod pgn;
pub mod pgn_text;
pub mod problem;
mod rate;
mod rate_problem;
mod ratings;
mod section;
mod sprt;

pub use games::{Game, GameResult, LoadError, LoadOptions, LoadReport};
pub use load::{load_games, load_games_report};
pub use output::{
    describe, format_head_to_head, format_los_matrix, format_pairs, format_table, write_csv,
    LOS_MATRIX_MAX,
};
pub use pairs::pairs_met;
pub use pentanomial::{head_to_head, HeadToHead, Pentanomial, ScoreStats, NELO_PER_T};
pub(crate) use rate::shown;
pub use rate::{rate, MAX_ANCHOR_ELO, MAX_BOOTSTRAP, MIN_BOOTSTRAP, PRIOR_SD_RANGE};
pub use rate_problem::RateError;
pub use ratings::{
    Anchor, Intervals, PlayerRating, RateOptions, Ratings, Reference, WhiteAdvantage,
};
pub use section::{AnchorValue, RatingSection};
pub use sprt::{llr_logistic, llr_normalized, EloScale, Sprt, SprtResult, SprtState};
