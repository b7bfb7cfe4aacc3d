//! `skillcal store init`, `skillcal worker`, `skillcal export`: the PostgreSQL store's commands
//! (the store itself is `crate::store`). The store's URL: `--store` or `SKILLCAL_STORE`.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;

use crate::store::{self, WorkerOptions, STORE_VAR};

/// The store's URL from the flag or the environment.
pub fn store_url(flag: &Option<String>) -> anyhow::Result<String> {
    match flag {
        Some(u) => Ok(u.clone()),
        None => std::env::var(STORE_VAR).with_context(|| {
            format!(
                "no store: give --store postgres://USER:PASSWORD@HOST:PORT/DB or set {STORE_VAR}"
            )
        }),
    }
}

/// `--store` when `SKILLCAL_STORE` may stand in for it (a command that has a file path
/// without a store): the flag, else the variable when set.
pub fn optional_store(flag: &Option<String>) -> Option<String> {
    flag.clone()
        .or_else(|| std::env::var(STORE_VAR).ok().filter(|s| !s.is_empty()))
}

#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  skillcal store init --store postgres://skillcal@db:5432/skillcal"
)]
pub struct StoreArgs {
    #[command(subcommand)]
    pub command: StoreCommand,
}

#[derive(clap::Subcommand, Debug)]
pub enum StoreCommand {
    /// Create the store's tables, or migrate them to this skillcal's schema version.
    Init {
        /// postgres://USER:PASSWORD@HOST:PORT/DB [default: $SKILLCAL_STORE]
        #[arg(long)]
        store: Option<String>,
    },
}

/// `skillcal worker`: claims units from the store and plays them with this machine's engines.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  skillcal worker --store postgres://skillcal@db:5432/skillcal --slots 4"
)]
pub struct WorkerArgs {
    /// postgres://USER:PASSWORD@HOST:PORT/DB [default: $SKILLCAL_STORE]
    #[arg(long)]
    pub store: Option<String>,
    /// Units (opening pairs) played at once; give the cores the worker may use.
    #[arg(long, default_value_t = 1)]
    pub slots: usize,
    /// Exit after this many seconds without a unit to play [default: never].
    #[arg(long, value_name = "SECS")]
    pub idle_exit: Option<u64>,
    /// A unit's lease, seconds: a worker silent this long (killed, its node lost) gives its
    /// unit back to the queue. Renewed every third of it.
    #[arg(long, value_name = "SECS", default_value_t = 60)]
    pub lease: u64,
    /// Keep trying to reach a lost database this many seconds before giving up.
    #[arg(long, value_name = "SECS", default_value_t = 300)]
    pub reconnect: u64,
}

/// `skillcal export`: a run of the store written as a run folder.
#[derive(clap::Args, Debug)]
#[command(
    after_help = "Example:\n  skillcal export --store postgres://skillcal@db:5432/skillcal 7 results/run-7"
)]
pub struct ExportArgs {
    /// postgres://USER:PASSWORD@HOST:PORT/DB [default: $SKILLCAL_STORE]
    #[arg(long)]
    pub store: Option<String>,
    /// The run's id (`skillcal match --store` prints it).
    pub run: i64,
    /// The folder to write (games.csv, games.pgn, the run's config); must hold no games.
    pub dir: PathBuf,
}

pub fn run_store(args: &StoreArgs) -> anyhow::Result<()> {
    match &args.command {
        StoreCommand::Init { store } => {
            let url = store_url(store)?;
            let (before, after) = store::init(&url)?;
            if before == after {
                outln!("the store is at schema version {after}: nothing to do");
            } else {
                outln!("the store migrated from schema version {before} to {after}");
            }
            Ok(())
        }
    }
}

pub fn run_worker(args: &WorkerArgs) -> anyhow::Result<()> {
    if args.lease < 3 {
        anyhow::bail!(
            "--lease {}: at least 3 seconds (renewed every third)",
            args.lease
        );
    }
    let opts = WorkerOptions {
        url: store_url(&args.store)?,
        slots: args.slots.max(1),
        idle_exit: args.idle_exit.map(Duration::from_secs),
        lease: Duration::from_secs(args.lease),
        reconnect: Duration::from_secs(args.reconnect),
        skillcal_bin: None,
    };
    let s = store::run_worker(&opts)?;
    outln!(
        "worker {}: {} units, {} games played, {} units refused",
        s.id,
        s.units,
        s.games,
        s.refused
    );
    Ok(())
}

pub fn run_export(args: &ExportArgs) -> anyhow::Result<()> {
    let url = store_url(&args.store)?;
    let (games, planned) = store::export(&url, args.run, &args.dir)?;
    outln!(
        "run {}: {games}/{planned} games written to {}",
        args.run,
        args.dir.display()
    );
    Ok(())
}
