//! `skillcal export`: a run's games out of the store into a run folder (games.csv, games.pgn
//! and the run's config), so `rate`, `report`, `analyse` and every command that reads a folder
//! work on it unchanged.

use std::io::Write;
use std::path::Path;

use super::db::Db;
use super::error::{IoAt, Result, StoreError};
use super::queue::no_run;
use crate::arena::{CSV_HEADER, SNAPSHOT_FILE};

/// A run as stored: its kind, label, config text and its finished games in game order.
pub struct StoredRun {
    pub kind: String,
    pub label: String,
    pub config: String,
    pub planned: i64,
    /// (games.csv row, PGN text), by game id.
    pub games: Vec<(String, String)>,
}

/// Reads a run; an error naming the run and the store when it does not exist.
pub async fn read_run(db: &mut Db, run: i64) -> Result<StoredRun> {
    let found = retry!(db, "read the run", |c| {
        let Some(r) = c
            .query_opt(
                "SELECT kind, label, config, games_planned FROM runs WHERE id = $1",
                &[&run],
            )
            .await?
        else {
            return Ok(None);
        };
        let games = c
            .query(
                "SELECT csv_row, pgn FROM games WHERE run_id = $1 ORDER BY game_id",
                &[&run],
            )
            .await?
            .iter()
            .map(|g| (g.get(0), g.get(1)))
            .collect();
        Ok(Some(StoredRun {
            kind: r.get(0),
            label: r.get(1),
            config: r.get(2),
            planned: i64::from(r.get::<_, i32>(3)),
            games,
        }))
    })?;
    match found {
        Some(r) => Ok(r),
        None => {
            let mut e = no_run(db, run);
            if let StoreError::NoRun { known, .. } = &mut e {
                *known = known_runs(db).await.unwrap_or_default();
            }
            Err(e)
        }
    }
}

/// ` (its runs: 1, 2, 5)` or ` (it holds no run)`, for the error about a missing run.
async fn known_runs(db: &mut Db) -> Result<String> {
    let ids: Vec<i64> = retry!(db, "list the runs", |c| {
        Ok(
            c.query("SELECT id FROM runs ORDER BY id DESC LIMIT 20", &[])
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect(),
        )
    })?;
    Ok(if ids.is_empty() {
        " (it holds no run)".into()
    } else {
        let mut ids: Vec<String> = ids.iter().map(i64::to_string).collect();
        ids.reverse();
        format!(" (its latest runs: {})", ids.join(", "))
    })
}

/// Writes the run's folder: games.csv, games.pgn and, for a match, match.toml. A folder that
/// already holds games is refused (nothing written).
pub fn write_folder(run: &StoredRun, dir: &Path) -> Result<()> {
    let csv = dir.join("games.csv");
    let holds_games = std::fs::read_to_string(&csv).is_ok_and(|t| t.lines().count() > 1);
    if holds_games {
        return Err(StoreError::Other(format!(
            "{} already holds games: export into a new folder",
            dir.display()
        )));
    }
    std::fs::create_dir_all(dir).at("create", dir)?;
    let mut text = String::with_capacity(64 + run.games.len() * 160);
    text.push_str(CSV_HEADER);
    text.push('\n');
    let mut pgn = String::with_capacity(run.games.iter().map(|g| g.1.len()).sum());
    for (row, game) in &run.games {
        text.push_str(row);
        pgn.push_str(game);
    }
    if run.kind == "match" {
        write(&dir.join(SNAPSHOT_FILE), &run.config)?;
    }
    // the PGN first, as the file path writes: a CSV row marks a game done
    write(&dir.join("games.pgn"), &pgn)?;
    write(&csv, &text)
}

fn write(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension("tmp");
    std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(text.as_bytes()).and_then(|_| f.sync_all()))
        .at("write", &tmp)?;
    std::fs::rename(&tmp, path).at("replace", path)
}
