//! The store's tables and their versions: `skillcal store init` applies the migrations a
//! database lacks, in order, each in one transaction; every other command checks that the
//! database is at this skillcal's version and refuses any other.

use super::db::Db;
use super::error::{Result, StoreError};

/// The migrations, version 1 first; the schema's version is how many have been applied.
const MIGRATIONS: &[&str] = &[V1];

/// The schema version this skillcal reads and writes.
pub const VERSION: i32 = MIGRATIONS.len() as i32;

/// Runs (a match, or a calibration's batch), their work units (one opening pair each, with
/// everything a worker needs), the workers' heartbeats and the finished games. A game is keyed
/// by (run, unit, game index): a unit played twice (a lease that expired under a slow worker)
/// cannot store a game twice.
const V1: &str = "
CREATE TABLE runs (
    id BIGSERIAL PRIMARY KEY,
    kind TEXT NOT NULL,
    label TEXT NOT NULL,
    config TEXT NOT NULL,
    seed BIGINT NOT NULL,
    games_planned INTEGER NOT NULL,
    created TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE units (
    id BIGSERIAL PRIMARY KEY,
    run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    unit_no BIGINT NOT NULL,
    round INTEGER NOT NULL,
    engines TEXT NOT NULL,
    spec TEXT NOT NULL,
    opening_id INTEGER NOT NULL,
    opening_fen TEXT NOT NULL,
    opening_moves TEXT NOT NULL,
    games TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'done')),
    lease_owner TEXT,
    lease_expires TIMESTAMPTZ,
    attempts INTEGER NOT NULL DEFAULT 0,
    refusal TEXT,
    UNIQUE (run_id, unit_no)
);
CREATE INDEX units_waiting ON units (id) WHERE state <> 'done';
CREATE TABLE workers (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    slots INTEGER NOT NULL,
    started TIMESTAMPTZ NOT NULL DEFAULT now(),
    last_seen TIMESTAMPTZ NOT NULL DEFAULT now(),
    stopped BOOLEAN NOT NULL DEFAULT false
);
CREATE TABLE games (
    run_id BIGINT NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
    unit_id BIGINT NOT NULL REFERENCES units (id) ON DELETE CASCADE,
    game_index INTEGER NOT NULL,
    game_id BIGINT NOT NULL,
    csv_row TEXT NOT NULL,
    pgn TEXT NOT NULL,
    worker TEXT NOT NULL,
    PRIMARY KEY (run_id, unit_id, game_index),
    UNIQUE (run_id, game_id)
);
";

/// The version the database is at: None without a `schema_version` table.
async fn current(db: &mut Db) -> Result<Option<i32>> {
    retry!(db, "read the schema version", |c| {
        let exists: bool = c
            .query_one("SELECT to_regclass('schema_version') IS NOT NULL", &[])
            .await?
            .get(0);
        if !exists {
            return Ok(None);
        }
        let row = c
            .query_opt("SELECT max(version) FROM schema_version", &[])
            .await?;
        Ok(Some(
            row.and_then(|r| r.get::<_, Option<i32>>(0)).unwrap_or(0),
        ))
    })
}

/// Applies the missing migrations (none when the database is current). A database at a later
/// version than this skillcal's is refused, untouched. Returns the versions before and after.
pub async fn init(db: &mut Db) -> Result<(i32, i32)> {
    let before = current(db).await?.unwrap_or(0);
    if before > VERSION {
        return Err(version_error(db, before));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(before as usize) {
        let version = i as i32 + 1;
        retry!(db, "apply the schema migrations", |c| {
            let tx = c.transaction().await?;
            // two `store init` at once: the second waits, then finds the work done
            tx.batch_execute(
                "SELECT pg_advisory_xact_lock(4808); \
                 CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL, \
                 applied TIMESTAMPTZ NOT NULL DEFAULT now())",
            )
            .await?;
            let at: Option<i32> = tx
                .query_one("SELECT max(version) FROM schema_version", &[])
                .await?
                .get(0);
            if at.unwrap_or(0) < version {
                tx.batch_execute(sql).await?;
                tx.execute(
                    "INSERT INTO schema_version (version) VALUES ($1)",
                    &[&version],
                )
                .await?;
            }
            tx.commit().await
        })?;
    }
    Ok((before, VERSION))
}

/// Refuses a database without the schema or at another version.
pub async fn check(db: &mut Db) -> Result<()> {
    match current(db).await? {
        None | Some(0) => Err(StoreError::NotInitialised { at: db.at.clone() }),
        Some(v) if v == VERSION => Ok(()),
        Some(v) => Err(version_error(db, v)),
    }
}

fn version_error(db: &Db, found: i32) -> StoreError {
    StoreError::Version {
        at: db.at.clone(),
        found,
        expected: VERSION,
        hint: if found > VERSION {
            "a newer skillcal wrote it; use that version (nothing was changed)"
        } else {
            "run `skillcal store init --store URL` to migrate it"
        },
    }
}
