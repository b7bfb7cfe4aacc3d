//! `skillcal calibrate`, `skillcal pool` and `skillcal verify`: arguments and the orchestration around the
//! library (the report after a run, installing the table).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::calibrate::arena_glue::ArenaRunner;
use crate::calibrate::config::CalibrationConfig;
use crate::calibrate::pool::{default_dir, measure, PoolOptions, PoolRunConfig};
use crate::calibrate::{self, verify, Options};
use crate::report;
use crate::report::stats::{anchored_rms, verify_stats};
use crate::results::VerifyRow;

#[derive(clap::Args, Debug)]
pub struct CalibrateArgs {
    /// Calibration configuration (TOML), e.g. configs/default.toml.
    pub config: PathBuf,
    /// Output directory (default: results/NAME, NAME the config's name); rerunning on it resumes.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Copy the resulting table to configs/uci_elo_table.csv (the table embedded in the engine).
    #[arg(long)]
    pub install: bool,
    /// Play no new games: refit and rewrite the table and report from the games so far.
    #[arg(long)]
    pub fit_only: bool,
    /// Override the config's game budget.
    #[arg(long)]
    pub budget: Option<usize>,
}

/// Where `--install` puts the table (embedded in the engine at build time).
const INSTALLED_TABLE: &str = "configs/uci_elo_table.csv";

/// `skillcal calibrate`: runs or resumes the calibration, writes its report, installs the table.
pub fn run(args: &CalibrateArgs) -> Result<()> {
    let mut cfg = CalibrationConfig::load(&args.config)?;
    if let Some(b) = args.budget {
        cfg.budget = b;
    }
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join(&cfg.name));
    // one run per folder: a second one fails at once, naming the holder
    let _lock = crate::arena::lock_dir(&dir)?;
    let runner = ArenaRunner::new(&dir);
    let outcome = calibrate::calibrate(
        &cfg,
        &dir,
        &runner,
        &Options {
            fit_only: args.fit_only,
            quiet: false,
        },
    )?;
    let report = report::generate(&dir)?;
    eprintln!("report: {}", report.display());
    if args.install {
        let table = dir.join("uci_elo_table.csv");
        if !table.exists() {
            bail!("no table to install: {} was not written", table.display());
        }
        let dest = Path::new(INSTALLED_TABLE);
        std::fs::copy(&table, dest)
            .with_context(|| format!("cannot copy {} to {}", table.display(), dest.display()))?;
        eprintln!("installed {} as {}", table.display(), dest.display());
    }
    if !outcome.all_met {
        eprintln!("note: not every target met the precision goal (see table_details.csv)");
    }
    Ok(())
}

#[derive(clap::Args, Debug)]
pub struct PoolArgs {
    /// Pool measurement config (TOML), e.g. configs/pool.toml.
    pub config: PathBuf,
    /// Run folder (default results/<name>); rerunning resumes.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Override the config's game budget.
    #[arg(long)]
    pub budget: Option<usize>,
    /// Play no games: refit and rewrite the pool files.
    #[arg(long)]
    pub fit_only: bool,
}

/// `skillcal pool`: measures (or resumes measuring) the reference pool.
pub fn run_pool(args: &PoolArgs) -> Result<()> {
    let mut cfg = PoolRunConfig::load(&args.config)?;
    if let Some(b) = args.budget {
        cfg.budget = b;
    }
    let dir = args.out.clone().unwrap_or_else(|| default_dir(&cfg));
    let _lock = crate::arena::lock_dir(&dir)?;
    let runner = ArenaRunner::new(&dir);
    let out = measure(
        &cfg,
        &dir,
        &runner,
        &PoolOptions {
            fit_only: args.fit_only,
            quiet: false,
        },
    )?;
    eprintln!(
        "{} games; pool written to {}",
        out.games,
        dir.join("pool.csv").display()
    );
    if !out.all_met {
        eprintln!(
            "note: not every member is known to ±{:.0} yet (see pool.csv, column met)",
            cfg.precision
        );
    }
    Ok(())
}

#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    /// UCI_Elo table to verify (loaded by the engine through its StrengthTable option).
    pub table: PathBuf,
    /// Calibration config giving the pool, openings, limits and seed.
    #[arg(long, default_value = "configs/default.toml")]
    pub config: PathBuf,
    /// Output directory (writes verify.csv, games, report); default: `verify/` beside the table,
    /// so that `skillcal report` on the calibration's directory shows the verification too.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// UCI_Elo levels, comma separated (default: the config's verify.levels, else every other
    /// table row from the lowest anchor up).
    #[arg(long, value_delimiter = ',')]
    pub levels: Vec<f64>,
    /// Games against each opponent (even).
    #[arg(long)]
    pub games: Option<usize>,
}

/// `skillcal verify`: plays the levels, prints the summary, writes the reports.
pub fn run_verify(args: &VerifyArgs) -> Result<()> {
    let cfg = CalibrationConfig::load(&args.config)?;
    let out = args.out.clone().unwrap_or_else(|| {
        args.table
            .parent()
            .map(|p| p.join("verify"))
            .unwrap_or_else(|| PathBuf::from("verify"))
    });
    let mut levels = args.levels.clone();
    if levels.is_empty() {
        levels = cfg.verify.levels.clone();
    }
    if levels.is_empty() {
        levels = verify::default_levels(&args.table, cfg.lowest_reference())?;
    }
    let games = args.games.unwrap_or(cfg.verify.games_per_opponent);
    if games < 2 || !games.is_multiple_of(2) {
        bail!("--games: must be even and at least 2");
    }
    let _lock = crate::arena::lock_dir(&out)?;
    let runner = ArenaRunner::new(&out);
    let rows = verify::verify(&cfg, &args.table, &out, &levels, games, &runner)?;
    print_summary(&rows, cfg.lowest_reference());
    let report = report::generate(&out)?;
    eprintln!("report: {}", report.display());
    // a calibration directory holding this verification: refresh its report as well
    if let Some(parent) = out.parent() {
        if out.file_name().is_some_and(|n| n == "verify") && parent.join("summary.toml").exists() {
            let report = report::generate(parent)?;
            eprintln!("report: {}", report.display());
        }
    }
    Ok(())
}

fn print_summary(rows: &[VerifyRow], low: f64) {
    let run_pool = rows.iter().any(|r| r.measured_run_pool.is_some());
    println!(
        "target  measured  95% interval      diff  games{}",
        if run_pool { "  on the run's pool" } else { "" }
    );
    for r in rows {
        println!(
            "{:>6.0}  {:>8.0}  [{:>6.0}, {:>6.0}]  {:>+6.0}  {:>5}{}{}",
            r.target,
            r.measured,
            r.lower,
            r.upper,
            r.diff,
            r.games,
            match r.measured_run_pool {
                Some(m) => format!("  {m:>8.0} ({:+.0})", m - r.target),
                None => String::new(),
            },
            if r.extrapolated {
                "  (extrapolated)"
            } else {
                ""
            }
        );
    }
    let (rms, n, off) = verify_stats(rows, low);
    println!("RMS of measured - target over {n} anchored levels: {rms:.0} Elo");
    if !off.is_empty() {
        println!("off by more than twice the 95% half-width: {off:?}");
    }
    if run_pool {
        let (rms, _) = anchored_rms(rows, low, |r| r.measured_run_pool);
        println!(
            "on the calibration run's own pool ratings (not independent of it): RMS {rms:.0} Elo"
        );
    }
}
