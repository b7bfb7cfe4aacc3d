//! The work queue's statements: enqueueing a run's units, claiming one (`FOR UPDATE SKIP
//! LOCKED`, an expired lease counting as free), heartbeats, a unit's games and completion in
//! one transaction, refusals, and what a coordinator reads back.

use std::time::Duration;

use tokio_postgres::Row;

use super::db::Db;
use super::error::{Result, StoreError};
use crate::arena::{MatchConfig, Opening, PlayedGame, Unit, UnitGame};

/// A unit as a worker claimed it.
pub struct Claimed {
    pub id: i64,
    pub run_id: i64,
    /// The unit's spec as stored (TOML), the key of a worker's engine processes.
    pub spec_text: String,
    pub unit: Unit,
}

/// A run's state as a coordinator shows it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    pub games_done: i64,
    pub units_done: i64,
    pub units: i64,
    /// Workers holding a live lease on one of the run's units.
    pub workers_running: i64,
    /// Units refused by a worker, with its reason (the latest refusal of each).
    pub refusals: Vec<(i64, String)>,
}

/// A unit's games as text: one `game_id white black seed` line each.
fn games_text(games: &[UnitGame]) -> String {
    games
        .iter()
        .map(|g| format!("{} {} {} {}\n", g.game_id, g.white, g.black, g.seed))
        .collect()
}

fn parse_games(text: &str) -> Option<Vec<UnitGame>> {
    text.lines()
        .map(|l| {
            let f: Vec<&str> = l.split(' ').collect();
            match f.as_slice() {
                [id, w, b, s] => Some(UnitGame {
                    game_id: id.parse().ok()?,
                    white: w.parse().ok()?,
                    black: b.parse().ok()?,
                    seed: s.parse().ok()?,
                }),
                _ => None,
            }
        })
        .collect()
}

/// Stores a run and its units in one transaction; returns the run's id.
pub async fn enqueue(
    db: &mut Db,
    kind: &str,
    label: &str,
    config: &str,
    seed: u64,
    units: &[Unit],
) -> Result<i64> {
    let mut rows = Vec::with_capacity(units.len());
    for u in units {
        let spec = crate::arena::spec_to_text(&u.spec)
            .map_err(|e| StoreError::Other(format!("cannot write a unit's config: {e}")))?;
        let names: Vec<String> = u
            .spec
            .engines
            .iter()
            .map(|e| e.display_name())
            .collect::<crate::arena::Result<_>>()?;
        rows.push((spec, names.join(" vs "), games_text(&u.games)));
    }
    let planned: i32 = units.iter().map(|u| u.games.len() as i32).sum();
    retry!(db, "enqueue the run", |c| {
        let tx = c.transaction().await?;
        let run: i64 = tx
            .query_one(
                "INSERT INTO runs (kind, label, config, seed, games_planned) \
                 VALUES ($1, $2, $3, $4, $5) RETURNING id",
                &[&kind, &label, &config, &(seed as i64), &planned],
            )
            .await?
            .get(0);
        let insert = tx
            .prepare(
                "INSERT INTO units (run_id, unit_no, round, engines, spec, opening_id, \
                 opening_fen, opening_moves, games) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            )
            .await?;
        for (u, (spec, names, games)) in units.iter().zip(&rows) {
            tx.execute(
                &insert,
                &[
                    &run,
                    &(u.pair_id as i64),
                    &(u.round as i32),
                    names,
                    spec,
                    &(u.opening.id as i32),
                    &u.opening.root_fen,
                    &u.opening.moves.join(" "),
                    games,
                ],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(run)
    })
}

/// The newest run of this kind, label and config: a coordinator started again waits for it
/// (or exports it) instead of enqueueing the games once more.
pub async fn find_run(db: &mut Db, kind: &str, label: &str, config: &str) -> Result<Option<i64>> {
    retry!(db, "look for the run", |c| {
        let row = c
            .query_opt(
                "SELECT r.id FROM runs r WHERE r.kind = $1 AND r.label = $2 AND r.config = $3 \
                 ORDER BY r.id DESC LIMIT 1",
                &[&kind, &label, &config],
            )
            .await?;
        Ok(row.map(|r| r.get(0)))
    })
}

/// Claims the oldest free unit (queued, or running under an expired lease) not in `skip`.
pub async fn claim(
    db: &mut Db,
    worker: &str,
    lease: Duration,
    skip: &[i64],
) -> Result<Option<Claimed>> {
    let secs = lease.as_secs_f64();
    let row = retry!(db, "claim a unit", |c| {
        c.query_opt(
            "UPDATE units SET state = 'running', lease_owner = $1, \
                 lease_expires = now() + make_interval(secs => $2), attempts = attempts + 1 \
                 WHERE id = (SELECT id FROM units WHERE (state = 'queued' OR (state = 'running' \
                 AND lease_expires < now())) AND NOT (id = ANY($3)) ORDER BY id \
                 FOR UPDATE SKIP LOCKED LIMIT 1) \
                 RETURNING id, run_id, unit_no, round, spec, opening_id, opening_fen, \
                 opening_moves, games",
            &[&worker, &secs, &skip],
        )
        .await
    })?;
    row.map(|r| decode(db, &r)).transpose()
}

fn decode(db: &Db, r: &Row) -> Result<Claimed> {
    let id: i64 = r.get("id");
    let bad = |what: &str| StoreError::Query {
        at: db.at.clone(),
        what: format!("read unit {id}"),
        reason: what.to_string(),
    };
    let spec_text: String = r.get("spec");
    let spec: MatchConfig =
        crate::arena::spec_from_text(&spec_text).map_err(|e| bad(&format!("its config: {e}")))?;
    let moves: String = r.get("opening_moves");
    let games = parse_games(r.get("games")).ok_or_else(|| bad("its games"))?;
    Ok(Claimed {
        id,
        run_id: r.get("run_id"),
        spec_text,
        unit: Unit {
            pair_id: r.get::<_, i64>("unit_no") as u64,
            round: r.get::<_, i32>("round") as u32,
            spec,
            opening: Opening {
                id: r.get::<_, i32>("opening_id") as usize,
                root_fen: r.get("opening_fen"),
                moves: moves.split_whitespace().map(str::to_string).collect(),
            },
            games,
        },
    })
}

/// Extends the leases of the worker's units and marks the worker alive.
pub async fn heartbeat(
    db: &mut Db,
    worker: &str,
    host: &str,
    slots: i32,
    units: &[i64],
    lease: Duration,
) -> Result<()> {
    let secs = lease.as_secs_f64();
    retry!(db, "heartbeat", |c| {
        c.execute(
            "INSERT INTO workers (id, host, slots) VALUES ($1, $2, $3) \
             ON CONFLICT (id) DO UPDATE SET last_seen = now(), stopped = false",
            &[&worker, &host, &slots],
        )
        .await?;
        c.execute(
            "UPDATE units SET lease_expires = now() + make_interval(secs => $2) \
             WHERE lease_owner = $1 AND state = 'running' AND id = ANY($3)",
            &[&worker, &secs, &units],
        )
        .await?;
        Ok(())
    })
}

/// Stores a unit's games and marks it done, in one transaction, if the worker still holds its
/// lease (a unit whose lease another worker took is that worker's to store). Returns whether
/// this call stored them.
pub async fn complete(
    db: &mut Db,
    worker: &str,
    claimed: &Claimed,
    games: &[PlayedGame],
) -> Result<bool> {
    let mut rows = Vec::with_capacity(games.len());
    for g in games {
        rows.push(g.record.csv_line().map_err(StoreError::Other)?);
    }
    retry!(db, "store a unit's games", |c| {
        let tx = c.transaction().await?;
        let held = tx
            .execute(
                "UPDATE units SET state = 'done', lease_expires = NULL \
                 WHERE id = $1 AND lease_owner = $2 AND state = 'running'",
                &[&claimed.id, &worker],
            )
            .await?;
        if held == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        for (i, (g, row)) in games.iter().zip(&rows).enumerate() {
            tx.execute(
                "INSERT INTO games (run_id, unit_id, game_index, game_id, csv_row, pgn, worker) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT DO NOTHING",
                &[
                    &claimed.run_id,
                    &claimed.id,
                    &(i as i32),
                    &(g.record.game_id as i64),
                    row,
                    &g.pgn,
                    &worker,
                ],
            )
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    })
}

/// Gives a unit back to the queue with the reason this worker cannot play it.
pub async fn refuse(db: &mut Db, worker: &str, unit: i64, reason: &str) -> Result<()> {
    retry!(db, "refuse a unit", |c| {
        c.execute(
            "UPDATE units SET state = 'queued', lease_owner = NULL, lease_expires = NULL, \
             refusal = $3 WHERE id = $1 AND lease_owner = $2 AND state = 'running'",
            &[&unit, &worker, &reason],
        )
        .await?;
        Ok(())
    })
}

/// Gives back every unit the worker holds (it is stopping) and marks it stopped.
pub async fn release(db: &mut Db, worker: &str) -> Result<()> {
    retry!(db, "release the worker's units", |c| {
        c.execute(
            "UPDATE units SET state = 'queued', lease_owner = NULL, lease_expires = NULL \
             WHERE lease_owner = $1 AND state = 'running'",
            &[&worker],
        )
        .await?;
        c.execute(
            "UPDATE workers SET stopped = true, last_seen = now() WHERE id = $1",
            &[&worker],
        )
        .await?;
        Ok(())
    })
}

/// A run's progress; an error when the run does not exist.
pub async fn progress(db: &mut Db, run: i64) -> Result<Progress> {
    let p = retry!(db, "read the run's progress", |c| {
        let exists = c
            .query_opt("SELECT 1 FROM runs WHERE id = $1", &[&run])
            .await?;
        if exists.is_none() {
            return Ok(None);
        }
        let games: i64 = c
            .query_one("SELECT count(*) FROM games WHERE run_id = $1", &[&run])
            .await?
            .get(0);
        let u = c
            .query_one(
                "SELECT count(*) FILTER (WHERE state = 'done'), count(*), \
                     count(DISTINCT lease_owner) FILTER (WHERE state = 'running' \
                     AND lease_expires >= now()) FROM units WHERE run_id = $1",
                &[&run],
            )
            .await?;
        let refusals = c
            .query(
                "SELECT unit_no, refusal FROM units WHERE run_id = $1 AND refusal IS NOT NULL \
                     AND state <> 'done' ORDER BY unit_no",
                &[&run],
            )
            .await?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
        Ok(Some(Progress {
            games_done: games,
            units_done: u.get(0),
            units: u.get(1),
            workers_running: u.get(2),
            refusals,
        }))
    })?;
    p.ok_or_else(|| no_run(db, run))
}

pub(crate) fn no_run(db: &Db, run: i64) -> StoreError {
    StoreError::NoRun {
        run,
        at: db.at.clone(),
        known: String::new(),
    }
}
