//! `skillcal calibrate`, `skillcal pool`, `skillcal verify` and `skillcal tc-check`: arguments and the orchestration around the
//! library (the report after a run, installing the table).

use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::calibrate::config::check_budget;
use crate::calibrate::config::CalibrationConfig;
use crate::calibrate::play::ArenaRunner;
use crate::calibrate::play::{GameRunner, RateOnly};
use crate::calibrate::pool::{default_dir, measure, PoolOptions, PoolRunConfig};
use crate::calibrate::verify::{self, tc_check};
use crate::calibrate::{self, Options};
use crate::report;
use crate::report::run::{anchored_rms, verify_noise, verify_stats};
use crate::results::{fixed, tc_verdict, TcCheckRow, TcVerdict, VerifyRow, NO_NUMBER};
use crate::strength::Family;

#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  skillcal calibrate configs/default.toml --out results/my-run")]
pub struct CalibrateArgs {
    /// Calibration configuration (TOML), e.g. configs/default.toml.
    pub config: PathBuf,
    /// Output directory (default: results/NAME, NAME the config's name); rerunning on it resumes.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Copy the resulting table into the built-in engine's embedded tables (run from the
    /// repository): `--install FAMILY` (human, nodes, inaccuracy, gaussian, gbm, evalnoise)
    /// writes configs/families/FAMILY.csv, `--install blend` or `--install` alone
    /// configs/uci_elo_table.csv; rebuild after. Its value is optional: put it after CONFIG, or
    /// write `--install=FAMILY`.
    #[arg(long, value_name = "FAMILY", num_args = 0..=1, default_missing_value = "blend")]
    pub install: Option<String>,
    /// Play no new games: refit and rewrite the table and report from the games so far.
    #[arg(long)]
    pub fit_only: bool,
    /// Override the config's game budget: the run's total games, those already played included
    /// (at least 2).
    #[arg(long)]
    pub budget: Option<usize>,
    #[command(flatten)]
    pub jobs: super::jobs::Jobs,
    /// Play the games through the PostgreSQL store (postgres://USER:PASSWORD@HOST:PORT/DB, or
    /// $SKILLCAL_STORE): each batch enqueued, played by `skillcal worker`s, fitted as here.
    #[arg(long, value_name = "URL")]
    pub store: Option<String>,
}

/// The arena, or the store's workers with `--store` (or `SKILLCAL_STORE`).
fn runner(store: &Option<String>, dir: &Path) -> Box<dyn GameRunner> {
    match super::store::optional_store(store) {
        Some(url) => Box::new(crate::store::StoreRunner::new(
            &url,
            dir,
            crate::store::WaitOptions {
                progress: true,
                reconnect: crate::store::DEFAULT_RECONNECT,
            },
        )),
        None => Box::new(ArenaRunner::new(dir)),
    }
}

/// Where `--install` puts a family's table (embedded in the engine at build time).
fn installed_table(family: Family) -> PathBuf {
    match family {
        Family::Blend => PathBuf::from("configs/uci_elo_table.csv"),
        f => Path::new("configs/families").join(format!("{}.csv", f.name())),
    }
}

/// `skillcal calibrate`: runs or resumes the calibration, writes its report, installs the table.
pub fn run(args: &CalibrateArgs) -> Result<()> {
    let mut cfg = CalibrationConfig::load(&args.config)?;
    args.jobs.apply(&mut cfg.concurrency);
    // a misspelt family fails before any game is played
    let install = match &args.install {
        Some(name) => Some(Family::parse(name).with_context(|| {
            let names: Vec<&str> = Family::ALL.iter().map(|f| f.name()).collect();
            format!(
                "--install {name}: not a family (one of {})",
                names.join(", ")
            )
        })?),
        None => None,
    };
    // where the table goes, checked before any game: run elsewhere, it failed after the run
    let install = match install {
        Some(family) => {
            let dest = installed_table(family);
            if !dest.is_file() {
                bail!(
                    "--install: {} not found; run from the skillcal repository",
                    dest.display()
                );
            }
            Some(dest)
        }
        None => None,
    };
    if let Some(b) = args.budget {
        check_budget(b, "--budget")?;
        cfg.budget = b;
    }
    if !args.fit_only {
        cfg.check_playable(&args.config.display().to_string())?;
    }
    let dir = args
        .out
        .clone()
        .unwrap_or_else(|| PathBuf::from("results").join(&cfg.name));
    // a mistyped --out would otherwise become a new run fitted on no games
    if args.fit_only && !dir.join("calibrate.toml").exists() {
        bail!(
            "--fit-only: {} holds no calibration run to refit (no calibrate.toml); --fit-only plays no games",
            dir.display()
        );
    }
    // one run per folder: a second one fails at once, naming the holder
    let _lock = crate::arena::lock_dir(&dir)?;
    let runner = runner(&args.store, &dir);
    let outcome = calibrate::calibrate(
        &cfg,
        &dir,
        runner.as_ref(),
        &Options {
            fit_only: args.fit_only,
            quiet: false,
        },
    )?;
    let report = report::generate(&dir)?;
    eprintln!("report: {}", report.display());
    if let Some(dest) = install {
        let table = dir.join("uci_elo_table.csv");
        // only this fit's table: one left by an earlier fit was moved aside
        if !outcome.table || !table.exists() {
            bail!(
                "--install: no table to install: this fit wrote no {} (see the notes in {})",
                table.display(),
                dir.join("summary.toml").display()
            );
        }
        std::fs::copy(&table, &dest)
            .with_context(|| format!("cannot copy {} to {}", table.display(), dest.display()))?;
        eprintln!("installed {} as {}", table.display(), dest.display());
    }
    if !outcome.all_met {
        eprintln!("note: not every target met the precision goal (see table_details.csv)");
    }
    // the stop rule reads the rows' intervals, which hold only if the form fits: say when not
    if let Some(why) = &outcome.form_rejected {
        eprintln!("note: {why}");
    }
    Ok(())
}

#[derive(clap::Args, Debug)]
#[command(after_help = "Example:\n  skillcal pool configs/pool.toml --out results/my-pool")]
pub struct PoolArgs {
    /// Pool measurement config (TOML), e.g. configs/pool.toml.
    pub config: PathBuf,
    /// Run folder (default results/<name>); rerunning resumes.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Override the config's game budget: the run's total games, those already played included
    /// (at least 2).
    #[arg(long)]
    pub budget: Option<usize>,
    #[command(flatten)]
    pub jobs: super::jobs::Jobs,
    /// Play no games: refit and rewrite the pool files.
    #[arg(long)]
    pub fit_only: bool,
    /// Play the games through the PostgreSQL store (postgres://USER:PASSWORD@HOST:PORT/DB, or
    /// $SKILLCAL_STORE): each batch enqueued, played by `skillcal worker`s, fitted as here.
    #[arg(long, value_name = "URL")]
    pub store: Option<String>,
}

/// `skillcal pool`: measures (or resumes measuring) the reference pool.
pub fn run_pool(args: &PoolArgs) -> Result<()> {
    let mut cfg = PoolRunConfig::load(&args.config)?;
    args.jobs.apply(&mut cfg.concurrency);
    if let Some(b) = args.budget {
        check_budget(b, "--budget")?;
        cfg.budget = b;
    }
    if !args.fit_only {
        cfg.check_playable(&args.config.display().to_string())?;
    }
    let dir = args.out.clone().unwrap_or_else(|| default_dir(&cfg));
    if args.fit_only && !dir.join("pool.toml").exists() {
        bail!(
            "--fit-only: {} holds no pool run to refit (no pool.toml); --fit-only plays no games",
            dir.display()
        );
    }
    let _lock = crate::arena::lock_dir(&dir)?;
    let runner = runner(&args.store, &dir);
    let out = measure(
        &cfg,
        &dir,
        runner.as_ref(),
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
            "note: not every member is at its goal yet (see pool.csv, column met, and report.md's forecast)"
        );
    }
    Ok(())
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  skillcal verify results/my-run/uci_elo_table.csv --config configs/default.toml --levels 1200,1600,2000"
)]
pub struct VerifyArgs {
    /// UCI_Elo table to verify (loaded by the engine through its StrengthTable option).
    pub table: PathBuf,
    /// The config the table was calibrated with: its pool, subject, openings, limits and seed
    /// play the levels (required: another config would verify the table on another setup).
    #[arg(long)]
    pub config: PathBuf,
    /// Output directory (writes verify.csv, games, report); default: `verify/` beside the table,
    /// so that `skillcal report` on the calibration's directory shows the verification too.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// UCI_Elo levels, comma separated, whole numbers within the table's range, each once
    /// (default: the config's verify.levels, else every other table row from the lowest
    /// reference up, chained members of a measured pool included).
    #[arg(long, value_delimiter = ',')]
    pub levels: Vec<f64>,
    /// Games against each opponent, even, at least 2 (default: the config's
    /// verify.games_per_opponent); a level scoring above 85% or below 15% plays as many again.
    /// Ignored with --rate-only.
    #[arg(long)]
    pub games: Option<usize>,
    #[command(flatten)]
    pub jobs: super::jobs::Jobs,
    /// Play nothing: rate the games the folder holds (unfinished matches as far as they went),
    /// rewriting verify.csv, verify_opponents.csv and the report.
    #[arg(long)]
    pub rate_only: bool,
    /// Play the games through the PostgreSQL store (postgres://USER:PASSWORD@HOST:PORT/DB, or
    /// $SKILLCAL_STORE): each batch enqueued, played by `skillcal worker`s, fitted as here.
    #[arg(long, value_name = "URL")]
    pub store: Option<String>,
    /// Pool members every level also meets beside its nearest, comma separated (default: the
    /// config's verify.also_against), e.g. `--also-against maia1-1100,maia1-1500`.
    #[arg(long, value_delimiter = ',')]
    pub also_against: Vec<String>,
}

/// `skillcal verify`: plays the levels, prints the summary, writes the reports.
pub fn run_verify(args: &VerifyArgs) -> Result<()> {
    let mut cfg = CalibrationConfig::load(&args.config)?;
    args.jobs.apply(&mut cfg.concurrency);
    if !args.also_against.is_empty() {
        cfg.verify.also_against = args.also_against.clone();
        cfg.check_also_against("--also-against")?;
    }
    let origin = args.config.display().to_string();
    let out = args.out.clone().unwrap_or_else(|| {
        args.table
            .parent()
            .map(|p| p.join("verify"))
            .unwrap_or_else(|| PathBuf::from("verify"))
    });
    let mut levels = args.levels.clone();
    // before any folder: a level the table lacks left one holding only the lock file
    verify::check_levels(&cfg, &args.table, &levels)?;
    if levels.is_empty() {
        levels = cfg.verify.levels.clone();
        // named as the config's key, not as --levels
        verify::check_levels_from(
            &cfg,
            &args.table,
            &levels,
            &format!("{origin}: key `verify.levels`"),
        )?;
    }
    if levels.is_empty() {
        levels = verify::default_levels(&cfg, &args.table, cfg.lowest_reference())?;
    }
    let games = args.games.unwrap_or(cfg.verify.games_per_opponent);
    if games < 2 || !games.is_multiple_of(2) {
        bail!("--games: must be even and at least 2");
    }
    if args.rate_only && !out.join("matches").is_dir() {
        bail!(
            "--rate-only: {} holds no verification games to rate (no matches folder)",
            out.display()
        );
    }
    // the flags first: a wrong one is named before the engines are started
    if !args.rate_only {
        cfg.check_playable(&origin)?;
    }
    let _lock = crate::arena::lock_dir(&out)?;
    let arena = runner(&args.store, &out);
    let runner: &dyn GameRunner = if args.rate_only {
        &RateOnly
    } else {
        arena.as_ref()
    };
    let rows = verify::verify(&cfg, &args.table, &out, &levels, games, runner)?;
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
    outln!(
        "target  measured  95% interval      diff  games{}",
        if run_pool { "  on the run's pool" } else { "" }
    );
    for r in rows {
        outln!(
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
    outln!("RMS of measured - target over {n} anchored levels: {rms:.0} Elo");
    if let Some((noise, own)) = verify_noise(rows, low) {
        outln!(
            "the games' noise alone gives an RMS of about {noise:.0}; the table's own error, less that noise: about {own:.0} Elo"
        );
    }
    if !off.is_empty() {
        outln!("off by more than twice the 95% half-width: {off:?}");
    }
    let split: Vec<String> = report::run::consistency(rows)
        .into_iter()
        .filter(|t| t.3 < report::run::DISAGREE_P)
        .map(|(t, chi2, dof, p)| format!("{t:.0} (chi2 {chi2:.1} on {dof}, p {p:.3})"))
        .collect();
    if !split.is_empty() {
        outln!(
            "one rating does not fit every opponent (verify_opponents.csv): {}",
            split.join(", ")
        );
    }
    if run_pool {
        let (rms, _) = anchored_rms(rows, low, |r| r.measured_run_pool);
        outln!(
            "on the calibration run's own pool ratings (not independent of it): RMS {rms:.0} Elo"
        );
    }
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  skillcal tc-check results/my-run/uci_elo_table.csv --config configs/default.toml"
)]
pub struct TcCheckArgs {
    /// UCI_Elo table whose levels are played (as verify plays them).
    pub table: PathBuf,
    /// The config the table was calibrated with (as verify's --config; required).
    #[arg(long)]
    pub config: PathBuf,
    /// Output directory (writes tc_check.csv and the games); default: `tc-check/` beside the
    /// table, so that `skillcal report` on the calibration's directory shows the check.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// UCI_Elo levels, comma separated, whole numbers within the table's range (default: the
    /// table rows nearest 1400 and 2000).
    #[arg(long, value_delimiter = ',')]
    pub levels: Vec<f64>,
    /// Time controls of the subject, `base+inc` or `moves/base+inc` seconds, comma separated, at
    /// least two; the first is the reference the others are compared with.
    #[arg(long, value_delimiter = ',', default_values_t = tc_check::DEFAULT_TCS.map(String::from))]
    pub tcs: Vec<String>,
    /// Games against each opponent at each clock (even; default: the config's verify games).
    #[arg(long)]
    pub games: Option<usize>,
    #[command(flatten)]
    pub jobs: super::jobs::Jobs,
}

/// `skillcal tc-check`: plays the levels at each clock, prints the differences, refreshes the
/// calibration's report when the check sits in its directory.
pub fn run_tc_check(args: &TcCheckArgs) -> Result<()> {
    let mut cfg = CalibrationConfig::load(&args.config)?;
    args.jobs.apply(&mut cfg.concurrency);
    let out = args.out.clone().unwrap_or_else(|| {
        args.table
            .parent()
            .map(|p| p.join("tc-check"))
            .unwrap_or_else(|| PathBuf::from("tc-check"))
    });
    // the flags before the engines are started and before any folder or lock file is made
    let levels = if args.levels.is_empty() {
        tc_check::default_levels(&cfg, &args.table)?
    } else {
        verify::check_levels(&cfg, &args.table, &args.levels)?;
        args.levels.clone()
    };
    tc_check::check_tcs(&args.tcs)?;
    let games = args.games.unwrap_or(cfg.verify.games_per_opponent);
    if games < 2 || !games.is_multiple_of(2) {
        bail!("--games: must be even and at least 2");
    }
    cfg.check_playable(&args.config.display().to_string())?;
    let _lock = crate::arena::lock_dir(&out)?;
    let runner = ArenaRunner::new(&out);
    let rows = tc_check::tc_check(&cfg, &args.table, &out, &levels, &args.tcs, games, &runner)?;
    out!("{}", tc_summary(&rows));
    eprintln!("written: {}", out.join("tc_check.csv").display());
    if let Some(parent) = out.parent() {
        if out.file_name().is_some_and(|n| n == "tc-check") && parent.join("summary.toml").exists()
        {
            let report = report::generate(parent)?;
            eprintln!("report: {}", report.display());
        }
    }
    Ok(())
}

/// The check's table as printed: each level at each clock, then the verdict.
fn tc_summary(rows: &[TcCheckRow]) -> String {
    let mut s =
        String::from("level  tc          measured  95% interval      games  ms/ply  depth    nodes  diff (95%)\n");
    for r in rows {
        let diff = match (r.diff, r.diff_lower, r.diff_upper, r.verdict()) {
            (Some(d), Some(lo), Some(hi), Some(v)) => {
                format!("{d:+.0} [{lo:+.0}, {hi:+.0}] {}", v.as_str())
            }
            _ => "(reference)".into(),
        };
        let pace = fixed(r.ms_per_ply, 1, NO_NUMBER);
        let depth = fixed(r.depth, 2, NO_NUMBER);
        let nodes = fixed(r.nodes, 0, NO_NUMBER);
        s += &format!(
            "{:>5.0}  {:<10}  {:>8.0}  [{:>6.0}, {:>6.0}]  {:>5}  {pace:>6}  {depth:>5}  {nodes:>7}  {diff}\n",
            r.level, r.tc, r.measured, r.lower, r.upper, r.games
        );
    }
    let tol = tc_check::TOLERANCE;
    s += &match tc_verdict(rows) {
        Some(TcVerdict::Pass) => {
            format!("time-control check: pass (every level's difference within ±{tol:.0} Elo, 95%)\n")
        }
        Some(TcVerdict::Fail) => format!(
            "time-control check: FAIL (a level moved by more than ±{tol:.0} Elo with the clock, 95%)\n"
        ),
        Some(TcVerdict::Inconclusive) => format!(
            "time-control check: inconclusive (a difference's 95% interval reaches past ±{tol:.0} \
             Elo: more games, --games, to tell)\n"
        ),
        None => "time-control check: no difference measured\n".into(),
    };
    if let Some(pace) = report::tc_pace_note(rows) {
        s += &pace;
        s.push('\n');
    }
    s
}
