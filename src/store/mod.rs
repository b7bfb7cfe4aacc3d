//! A PostgreSQL store for games played beyond one machine (`--store postgres://...` or
//! `SKILLCAL_STORE`): runs, the queue of their work units (one opening pair each: both
//! colours, their seeds, the two engines' specs and limits), the units' leases, the workers'
//! heartbeats and the finished games (each games.csv row with its PGN).
//!
//! - `schema`: versioned migrations applied by `skillcal store init`; any other version is
//!   refused.
//! - `db`: a connection that reconnects (a restarted server loses nothing: an operation whose
//!   connection dropped runs again on a new one).
//! - `queue`: the statements (claims with `FOR UPDATE SKIP LOCKED`, a unit's games and its
//!   completion in one transaction, each game keyed by run, unit and game index).
//! - `worker`: `skillcal worker`, stateless pull workers a scheduler starts (Slurm job arrays).
//! - `coordinator`: `skillcal match --store`, enqueue, wait with progress, export.
//! - `export`: `skillcal export`, a run folder the file path's commands read unchanged.
//! - `runner`: [`StoreRunner`], the calibration's match runner (`calibrate`, `pool`, `verify`
//!   with `--store`).
//!
//! The file store (a run folder) stays the default: nothing here runs without `--store`.

#[macro_use]
mod db;
mod coordinator;
mod error;
mod export;
mod queue;
mod runner;
mod schema;
mod worker;

use std::path::Path;

pub use coordinator::{play_matches, run_match, wait_for, WaitOptions};
pub use db::{Db, DEFAULT_RECONNECT};
pub use error::{Result, StoreError};
pub use export::{read_run, write_folder, StoredRun};
pub use queue::{enqueue, progress, Progress};
pub use runner::StoreRunner;
pub use schema::VERSION;
pub use worker::{run_worker, WorkerOptions, WorkerSummary};

/// The environment variable naming the store when `--store` is not given.
pub const STORE_VAR: &str = "SKILLCAL_STORE";

fn runtime() -> Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| StoreError::Other(format!("cannot start the tokio runtime: {e}")))
}

/// `skillcal store init`: applies the missing migrations; returns (version before, after).
pub fn init(url: &str) -> Result<(i32, i32)> {
    runtime()?.block_on(async {
        let mut db = Db::connect(url).await?;
        schema::init(&mut db).await
    })
}

/// `skillcal export`: writes run `run`'s folder into `dir` (nothing written when the run does
/// not exist). Returns the games written and the games the run planned.
pub fn export(url: &str, run: i64, dir: &Path) -> Result<(usize, i64)> {
    let stored = runtime()?.block_on(async {
        let mut db = Db::connect(url).await?;
        schema::check(&mut db).await?;
        read_run(&mut db, run).await
    })?;
    write_folder(&stored, dir)?;
    Ok((stored.games.len(), stored.planned))
}
