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
//!   not change the rating scale; `nu` is fitted to the number of draws (the draw rate between
//!   equals capped at n/(n+1) for n games, so an all-draw pool keeps an interval). It drives
//!   the bootstrap's simulated games and the draw correction of the Hessian intervals.
//! - Intervals: [`Intervals::Bootstrap`] (parametric, seeded, percentile; the CLI default, like
//!   Ordo's simulations) or [`Intervals::Hessian`] (sandwich normal approximation; the library
//!   default because it is instant). Both are relative to the anchors: a hard anchor has a zero
//!   width interval, a soft anchor's reflects its SD.

mod games;
mod intervals;
pub mod model;
mod output;
mod pentanomial;
mod pgn;
pub mod problem;
mod rate;
mod ratings;
mod sprt;

use std::path::PathBuf;

use anyhow::{bail, Context, Result};

pub use games::{load_games, load_games_report, Game, GameResult, LoadOptions, LoadReport};
pub use output::{describe, format_head_to_head, format_table, write_csv};
pub use pentanomial::{head_to_head, HeadToHead, Pentanomial, ScoreStats, NELO_PER_T};
pub use rate::{rate, RateError};
pub use ratings::{
    Anchor, Intervals, PlayerRating, RateOptions, Ratings, Reference, WhiteAdvantage,
};
pub use sprt::{llr_logistic, llr_normalized, EloScale, Sprt, SprtResult, SprtState};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtScaleArg {
    Logistic,
    Normalized,
}

#[derive(clap::Args, Debug)]
pub struct RateArgs {
    /// games.csv or PGN files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Anchor a player: NAME=ELO holds it fixed; NAME=ELO:SD is a soft anchor (a Gaussian prior
    /// with that SD, like Ordo's loose anchors). Repeatable.
    #[arg(long = "anchor", value_name = "NAME=ELO[:SD]")]
    pub anchors: Vec<String>,
    /// Write the ratings as CSV (name,elo,lower,upper,sd,games,...).
    #[arg(long, value_name = "OUT")]
    pub csv: Option<PathBuf>,
    /// White advantage: off, auto (fitted) or a fixed number of Elo.
    #[arg(long, default_value = "off", value_name = "off|auto|ELO")]
    pub white_advantage: String,
    /// Draw rate between equal players for the draw model (default: fitted to the games).
    #[arg(long, value_name = "RATE")]
    pub draw_rate: Option<f64>,
    /// Parametric bootstrap simulations for the intervals; 0 uses the Hessian instead.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub bootstrap: usize,
    /// Seed of the bootstrap.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Interval coverage.
    #[arg(long, default_value_t = 0.95)]
    pub confidence: f64,
    /// SD (Elo) of the weak prior on the difference of two opponents (keeps 100% finite).
    #[arg(long, default_value_t = 2000.0, value_name = "ELO")]
    pub prior_sd: f64,
    /// Skip malformed lines / unfinished games (reported on stderr) instead of failing.
    #[arg(long)]
    pub skip_bad_lines: bool,
    /// Head-to-head statistics of A against B: pentanomial, Elo ±, normalized Elo, LOS.
    #[arg(long, alias = "pairs", num_args = 2, value_names = ["A", "B"])]
    pub head_to_head: Option<Vec<String>>,
    /// SPRT for the head-to-head: ELO0,ELO1 (H0: elo0, H1: elo1).
    #[arg(long, value_name = "ELO0,ELO1", requires = "head_to_head")]
    pub sprt: Option<String>,
    /// SPRT type I error.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// SPRT type II error.
    #[arg(long, default_value_t = 0.05)]
    pub beta: f64,
    /// Scale of the SPRT's elo0/elo1.
    #[arg(long, value_enum, default_value = "logistic")]
    pub sprt_scale: SprtScaleArg,
}

/// Parses `NAME=ELO` or `NAME=ELO:SD` (the last `=` separates the name).
pub fn parse_anchor(s: &str) -> Result<Anchor> {
    let Some((name, value)) = s.rsplit_once('=') else {
        bail!("--anchor '{s}': expected NAME=ELO or NAME=ELO:SD");
    };
    let name = name.trim();
    if name.is_empty() {
        bail!("--anchor '{s}': empty player name");
    }
    let (elo, sd) = match value.split_once(':') {
        Some((e, sd)) => (e, Some(sd)),
        None => (value, None),
    };
    let elo: f64 = elo
        .trim()
        .parse()
        .with_context(|| format!("--anchor '{s}': '{elo}' is not a number"))?;
    match sd {
        None => Ok(Anchor::hard(name, elo)),
        Some(sd) => {
            let sd: f64 = sd
                .trim()
                .parse()
                .with_context(|| format!("--anchor '{s}': SD '{sd}' is not a number"))?;
            if sd.is_nan() || sd <= 0.0 {
                bail!("--anchor '{s}': the SD must be positive");
            }
            Ok(Anchor::soft(name, elo, sd))
        }
    }
}

fn parse_white_advantage(s: &str) -> Result<WhiteAdvantage> {
    match s.trim() {
        "off" | "none" | "0" => Ok(WhiteAdvantage::Off),
        "auto" | "fit" | "estimate" => Ok(WhiteAdvantage::Estimate),
        v => {
            let elo: f64 = v.parse().with_context(|| {
                format!("--white-advantage '{v}': expected off, auto or a number")
            })?;
            if elo.is_nan() || elo.abs() > 1000.0 {
                bail!("--white-advantage '{v}': expected a number of Elo within ±1000");
            }
            Ok(WhiteAdvantage::Fixed(elo))
        }
    }
}

fn parse_sprt(s: &str, args: &RateArgs) -> Result<Sprt> {
    let parts: Vec<&str> = s.split(',').collect();
    let [e0, e1] = parts.as_slice() else {
        bail!("--sprt '{s}': expected ELO0,ELO1");
    };
    let e0: f64 = e0.trim().parse().with_context(|| format!("--sprt '{s}'"))?;
    let e1: f64 = e1.trim().parse().with_context(|| format!("--sprt '{s}'"))?;
    if !(e0.is_finite() && e1.is_finite()) {
        bail!("--sprt '{s}': elo0 and elo1 must be numbers");
    }
    if e0 >= e1 {
        bail!("--sprt '{s}': elo0 must be below elo1");
    }
    for (name, v) in [("alpha", args.alpha), ("beta", args.beta)] {
        if !(v > 0.0 && v < 0.5) {
            bail!("--{name} {v}: must lie between 0 and 0.5");
        }
    }
    let scale = match args.sprt_scale {
        SprtScaleArg::Logistic => EloScale::Logistic,
        SprtScaleArg::Normalized => EloScale::Normalized,
    };
    Ok(Sprt::new(e0, e1, args.alpha, args.beta, scale))
}

/// `skillcal rate`: prints the ratings table (and head-to-head statistics), writes the CSV.
pub fn run(args: &RateArgs) -> Result<()> {
    let anchors = args
        .anchors
        .iter()
        .map(|a| parse_anchor(a))
        .collect::<Result<Vec<_>>>()?;
    let opts = RateOptions {
        anchors,
        white_advantage: parse_white_advantage(&args.white_advantage)?,
        draw_rate: args.draw_rate,
        prior_sd: args.prior_sd,
        intervals: if args.bootstrap == 0 {
            Intervals::Hessian
        } else {
            Intervals::Bootstrap {
                samples: args.bootstrap,
                seed: args.seed,
            }
        },
        confidence: args.confidence,
    };
    if let Some(r) = args.draw_rate {
        if !(0.0..1.0).contains(&r) {
            bail!("--draw-rate {r}: must lie in [0, 1)");
        }
    }
    let sprt = args
        .sprt
        .as_deref()
        .map(|s| parse_sprt(s, args))
        .transpose()?;
    let load = LoadOptions {
        skip_bad_lines: args.skip_bad_lines,
    };
    let report = load_games_report(&args.files, &load)?;
    for msg in &report.skipped {
        eprintln!("skipped: {msg}");
    }
    // Check the head-to-head players before the (possibly long) bootstrap.
    if let Some(v) = &args.head_to_head {
        if v[0] == v[1] {
            bail!("--head-to-head: '{}' against itself", v[0]);
        }
        for name in v {
            if !report
                .games
                .iter()
                .any(|g| g.white == *name || g.black == *name)
            {
                bail!("--head-to-head: '{name}' is not a player in these games");
            }
        }
    }
    let ratings = rate(&report.games, &opts)?;
    print!("{}", format_table(&ratings));
    if let Some(path) = &args.csv {
        write_csv(&ratings, path)?;
        println!("\nwrote {}", path.display());
    }
    if let Some(v) = &args.head_to_head {
        let (a, b) = (&v[0], &v[1]);
        let h = head_to_head(&report.games, a, b);
        println!();
        print!(
            "{}",
            format_head_to_head(&h, args.confidence, sprt.as_ref())
        );
    }
    Ok(())
}
