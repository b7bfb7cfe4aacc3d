//! `skillcal report DIR`: a calibration's report, a pool folder's, or a match folder's rating report.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use super::rate::parse_anchor;
use crate::arena::MatchConfig;
use crate::rating::{Intervals, RateOptions, Sprt};
use crate::report::run::is_match_folder;
use crate::report::{match_report, RatingReportOptions, SprtSpec};

#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  skillcal report results/my-run")]
pub struct ReportArgs {
    /// Results directory of a calibration (or verification, tc-check) run, of `skillcal pool`, or
    /// of `skillcal match`.
    pub dir: PathBuf,
    /// Match folders: anchor a player (NAME=ELO or NAME=ELO:SD); replaces the match config's
    /// `[rating]` anchors. Repeatable.
    #[arg(long = "anchor", value_name = "NAME=ELO[:SD]")]
    pub anchors: Vec<String>,
    /// Match folders: the anchors' scale, named in the report (default: `[rating] scale`).
    #[arg(long, value_name = "NAME")]
    pub scale: Option<String>,
    /// Match folders: read `[rating]` and `[sprt]` from this config instead of DIR/match.toml.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Match folders: parametric bootstrap simulations for the intervals, 100 to 1,000,000
    /// (default 1000); 0 uses the Hessian (as `rate`).
    #[arg(long, value_name = "N")]
    pub bootstrap: Option<usize>,
    /// Match folders: seed of the bootstrap (default 1).
    #[arg(long)]
    pub seed: Option<u64>,
}

impl ReportArgs {
    /// The match-folder flags given, as typed: another folder's report has no use for them.
    fn match_flags(&self) -> Vec<&'static str> {
        [
            ("--anchor", !self.anchors.is_empty()),
            ("--scale", self.scale.is_some()),
            ("--config", self.config.is_some()),
            ("--bootstrap", self.bootstrap.is_some()),
            ("--seed", self.seed.is_some()),
        ]
        .into_iter()
        .filter_map(|(flag, given)| given.then_some(flag))
        .collect()
    }
}

/// Writes the report of `DIR` and prints the HTML file's path.
pub fn run(args: &ReportArgs) -> Result<()> {
    let pool = is_pool_folder(&args.dir);
    if pool || (args.dir.is_dir() && !is_match_folder(&args.dir)) {
        // silently ignored, a flag would read as applied to the report
        if let Some(flag) = args.match_flags().first() {
            bail!(
                "{flag} applies to a match folder's rating report only; {} is {}",
                args.dir.display(),
                if pool {
                    "a `skillcal pool` folder"
                } else {
                    "not a match folder (a calibration, verification or tc-check run)"
                }
            );
        }
    }
    let path = if pool {
        pool_run(&args.dir)?
    } else if is_match_folder(&args.dir) {
        match_run(args)?
    } else {
        check_engine_table(&args.dir)?;
        crate::report::generate(&args.dir)?
    };
    outln!("{}", path.display());
    Ok(())
}

/// A calibration folder's uci_elo_table.csv, loaded by skillcal's engine's own loader (its
/// `StrengthTable` option's) when the run's subject is that engine: the report showed a table
/// the engine refuses under "the engine loads uci_elo_table.csv". Another subject's table
/// (its knobs are that engine's options) is not the engine's to load.
pub(super) fn check_engine_table(dir: &Path) -> Result<()> {
    let table = dir.join("uci_elo_table.csv");
    if !table.is_file() {
        return Ok(());
    }
    let config = dir.join("calibrate.toml");
    if config.exists() {
        let text = crate::fsutil::read_text_capped(&config, crate::fsutil::CONFIG_CAP)
            .with_context(|| config.display().to_string())?;
        let run: toml::Table = toml::from_str(&text)
            .with_context(|| format!("{}: not a calibration config", config.display()))?;
        let command = run
            .get("subject")
            .and_then(|s| s.get("command"))
            .and_then(|c| c.as_str());
        if command.is_some_and(|c| !crate::arena::is_builtin_command(c)) {
            return Ok(());
        }
    }
    // the loader's error names the file and line
    crate::strength::EloTable::load(&table)
        .map_err(|e| anyhow::anyhow!("{e} (skillcal's engine would not load this table)"))?;
    Ok(())
}

/// A `skillcal pool` folder: its config and pairwise results.
fn is_pool_folder(dir: &std::path::Path) -> bool {
    crate::results::RunKind::of(dir) == Some(crate::results::RunKind::Pool)
        && dir.join("pool-pairs.csv").exists()
}

/// A pool folder's own report (steps, consistency, forecast), refitted from its games (no game
/// played, no measuring loop); the calibration report would read its pool.csv as a calibration's.
fn pool_run(dir: &std::path::Path) -> Result<PathBuf> {
    use crate::calibrate::pool::{refit, PoolRunConfig};
    let path = dir.join("pool.toml");
    let text = crate::fsutil::read_text_capped(&path, crate::fsutil::CONFIG_CAP)
        .with_context(|| path.display().to_string())?;
    // the run's own copy, as written: its paths were resolved when the run was started
    let cfg: PoolRunConfig =
        toml::from_str(&text).with_context(|| format!("{}: not a pool config", path.display()))?;
    cfg.validate(&path.display().to_string())?;
    refit(&cfg, dir)?;
    Ok(dir.join("report.md"))
}

fn match_run(args: &ReportArgs) -> Result<PathBuf> {
    let cfg_path = args
        .config
        .clone()
        .unwrap_or_else(|| args.dir.join("match.toml"));
    // a config the user named must be there; only the folder's own match.toml may be absent
    if args.config.is_some() && !cfg_path.exists() {
        bail!("--config {}: no such file", cfg_path.display());
    }
    let cfg = if cfg_path.exists() {
        Some(MatchConfig::from_file(&cfg_path).with_context(|| cfg_path.display().to_string())?)
    } else {
        None
    };
    let section = cfg
        .as_ref()
        .and_then(|c| c.rating.clone())
        .unwrap_or_default();
    let anchors = if args.anchors.is_empty() {
        section.anchors()
    } else {
        args.anchors
            .iter()
            .map(|a| parse_anchor(a))
            .collect::<Result<Vec<_>>>()?
    };
    let sprt = match &cfg {
        Some(c) => match (&c.sprt, c.engine_names()) {
            (Some(t), Ok(names)) => Some(SprtSpec {
                first: names[0].clone(),
                second: names[1].clone(),
                test: Sprt::new(t.elo0, t.elo1, t.alpha, t.beta, t.model),
            }),
            _ => None,
        },
        None => None,
    };
    let title = cfg
        .as_ref()
        .map(|c| c.event.clone())
        .filter(|e| !e.is_empty())
        .unwrap_or_else(|| args.dir.display().to_string());
    let o = RatingReportOptions {
        title: format!("skillcal rating report: {title}"),
        rate: RateOptions {
            anchors,
            intervals: match args.bootstrap.unwrap_or(1000) {
                0 => Intervals::Hessian,
                samples => Intervals::Bootstrap {
                    samples,
                    seed: args.seed.unwrap_or(1),
                },
            },
            ..RateOptions::default()
        },
        scale: args.scale.clone().or(section.scale),
        sprt,
        sources: vec![args.dir.join("games.csv").display().to_string()],
    };
    Ok(match_report(&args.dir, &o)?)
}
