//! `skillcal rate`: arguments, their parsing, and the printed table.

use std::path::PathBuf;

use anyhow::{bail, Context, Result};

use crate::rating::{
    format_head_to_head, format_los_matrix, format_pairs, format_table, head_to_head,
    load_games_report, pairs_met, rate, write_csv, Anchor, EloScale, Intervals, LoadOptions,
    RateOptions, Sprt, WhiteAdvantage, MAX_ANCHOR_ELO, PRIOR_SD_RANGE,
};
use crate::report::{rating_report, RatingReportOptions, SprtSpec};

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtScaleArg {
    Logistic,
    Normalized,
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  skillcal rate results/m1/games.csv --anchor \"sf15.1-skill0=1320\""
)]
pub struct RateArgs {
    /// games.csv or PGN files.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Anchor a player: NAME=ELO holds it fixed; NAME=ELO:SD is a soft anchor (a Gaussian prior
    /// with that SD, like Ordo's loose anchors). ELO within ±10000, SD from 1 to 100000.
    /// Repeatable.
    #[arg(long = "anchor", value_name = "NAME=ELO[:SD]")]
    pub anchors: Vec<String>,
    /// Write the ratings as CSV (name,elo,lower,upper,sd,games,...).
    #[arg(long, value_name = "OUT")]
    pub csv: Option<PathBuf>,
    /// White advantage: off, auto (fitted) or a fixed number of Elo within ±1000 (negative as
    /// it is: `--white-advantage -30`).
    #[arg(
        long,
        default_value = "off",
        value_name = "off|auto|ELO",
        allow_hyphen_values = true
    )]
    pub white_advantage: String,
    /// Draw rate between equal players for the draw model, in [0, 1) (default: fitted to the
    /// games).
    #[arg(long, value_name = "RATE")]
    pub draw_rate: Option<f64>,
    /// Parametric bootstrap simulations for the intervals, 100 to 1,000,000; 0 uses the
    /// Hessian instead.
    #[arg(long, default_value_t = 1000, value_name = "N")]
    pub bootstrap: usize,
    /// Seed of the bootstrap.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Interval coverage, in (0, 1).
    #[arg(long, default_value_t = 0.95)]
    pub confidence: f64,
    /// SD (Elo) of the weak prior on the difference of two opponents (keeps 100% finite), from
    /// 1 to 100000.
    #[arg(long, default_value_t = 2000.0, value_name = "ELO")]
    pub prior_sd: f64,
    /// Skip malformed lines / unfinished games (reported on stderr) instead of failing.
    #[arg(long)]
    pub skip_bad_lines: bool,
    /// Head-to-head statistics of A against B: pentanomial, Elo ±, normalized Elo, LOS.
    #[arg(long, alias = "pairs", num_args = 2, value_names = ["A", "B"])]
    pub head_to_head: Option<Vec<String>>,
    /// SPRT for the head-to-head: ELO0,ELO1 (H0: elo0, H1: elo1; elo0 < elo1; negative as they
    /// are: `--sprt -3,1`).
    #[arg(
        long,
        value_name = "ELO0,ELO1",
        requires = "head_to_head",
        allow_hyphen_values = true
    )]
    pub sprt: Option<String>,
    /// SPRT type I error, in (0, 0.5) (with --sprt).
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    pub alpha: f64,
    /// SPRT type II error, in (0, 0.5) (with --sprt).
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    pub beta: f64,
    /// Scale of the SPRT's elo0/elo1 (with --sprt).
    #[arg(long, value_enum, default_value = "logistic", requires = "sprt")]
    pub sprt_scale: SprtScaleArg,
    /// Print the head-to-head statistics of every pair that met.
    #[arg(long)]
    pub all_pairs: bool,
    /// Print the likelihood-of-superiority matrix (up to 16 rated players; beyond, nothing).
    #[arg(long)]
    pub los: bool,
    /// Write report.md and report.html (rating list, pairs, LOS matrix, ratings against games
    /// played, game statistics) into DIR; prints the pairs and the LOS matrix too.
    #[arg(long, value_name = "DIR")]
    pub report: Option<PathBuf>,
    /// Name of the anchors' scale, for the report (with --report).
    #[arg(long, value_name = "NAME", requires = "report")]
    pub scale: Option<String>,
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
    // `1e300` parses, and left the fit to fail to converge
    if !(-MAX_ANCHOR_ELO..=MAX_ANCHOR_ELO).contains(&elo) {
        bail!("--anchor '{s}': the rating must be within ±{MAX_ANCHOR_ELO} Elo");
    }
    match sd {
        None => Ok(Anchor::hard(name, elo)),
        Some(sd) => {
            let sd: f64 = sd
                .trim()
                .parse()
                .with_context(|| format!("--anchor '{s}': SD '{sd}' is not a number"))?;
            // as the prior's: a tiny SD left the information matrix singular
            let (lo, hi) = PRIOR_SD_RANGE;
            if !(lo..=hi).contains(&sd) {
                bail!(
                    "--anchor '{s}': the SD must be from {lo} to {hi} Elo (NAME=ELO without \
                     an SD holds the rating fixed)"
                );
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
    // a tiny SD made the information matrix singular, blamed on an unconnected player
    let (lo, hi) = PRIOR_SD_RANGE;
    if !(lo..=hi).contains(&args.prior_sd) {
        bail!(
            "--prior-sd {}: the prior SD must be from {lo} to {hi} Elo",
            crate::rating::shown(args.prior_sd)
        );
    }
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
        offer_skip: true,
    };
    let report = load_reported(args, &load)?;
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
    out!("{}", format_table(&ratings));
    if let Some(path) = &args.csv {
        write_csv(&ratings, path)?;
        outln!("\nwrote {}", path.display());
    }
    if let Some(v) = &args.head_to_head {
        let (a, b) = (&v[0], &v[1]);
        let h = head_to_head(&report.games, a, b);
        outln!();
        out!(
            "{}",
            format_head_to_head(&h, args.confidence, sprt.as_ref())
        );
    }
    if args.all_pairs || args.report.is_some() {
        outln!();
        out!(
            "{}",
            format_pairs(&pairs_met(&report.games, &ratings), args.confidence)
        );
    }
    if args.los || args.report.is_some() {
        outln!();
        out!("{}", format_los_matrix(&ratings));
    }
    if let Some(dir) = &args.report {
        let sprt = match (&args.head_to_head, sprt) {
            (Some(v), Some(test)) => Some(SprtSpec {
                first: v[0].clone(),
                second: v[1].clone(),
                test,
            }),
            _ => None,
        };
        let o = RatingReportOptions {
            title: "skillcal rating report".into(),
            rate: opts.clone(),
            scale: args.scale.clone(),
            sprt,
            sources: args.files.iter().map(|f| f.display().to_string()).collect(),
        };
        let html = rating_report(dir, &report.games, &ratings, &o)?;
        outln!("\nwrote {}", html.display());
    }
    Ok(())
}

/// The games of `args.files`, with what was skipped or left out said on stderr; no games at all
/// is an error naming the files.
fn load_reported(args: &RateArgs, load: &LoadOptions) -> Result<crate::rating::LoadReport> {
    let report = load_games_report(&args.files, load)?;
    for msg in &report.skipped {
        eprintln!("skipped: {msg}");
    }
    if let Some(first) = report.unfinished.first() {
        eprintln!(
            "note: {} unfinished game{} (result *, or cut without a result) left out, the first at {first}",
            report.unfinished.len(),
            if report.unfinished.len() == 1 {
                ""
            } else {
                "s"
            }
        );
    }
    for note in &report.pair_notes {
        eprintln!("note: {note}");
    }
    // An empty or header-only file gives no games: name the files, and what was left out.
    if report.games.is_empty() {
        let files: Vec<String> = args.files.iter().map(|f| f.display().to_string()).collect();
        let mut left_out = Vec::new();
        if !report.unfinished.is_empty() {
            left_out.push(format!("{} unfinished", report.unfinished.len()));
        }
        if !report.skipped.is_empty() {
            left_out.push(format!("{} skipped", report.skipped.len()));
        }
        let why = if left_out.is_empty() {
            String::new()
        } else {
            format!(" (left out: {})", left_out.join(", "))
        };
        bail!("no games to rate in {}{why}", files.join(", "));
    }
    Ok(report)
}
