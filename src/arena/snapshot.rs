//! `match.toml` in the run directory: the config the directory's games belong to. A rerun
//! must describe the same games (more rounds, other concurrency or timeouts are fine).

use std::path::Path;

use super::config::MatchConfig;
use super::error::{ArenaError, IoContext, Result};
use super::openings::book_path;

/// The name of the snapshot file in a run directory.
pub const SNAPSHOT_FILE: &str = "match.toml";

/// Keeps `match.toml` in the run directory; a rerun must describe the same games (more
/// rounds, other concurrency or timeouts are fine).
pub fn check_snapshot(dir: &Path, cfg: &MatchConfig) -> Result<()> {
    let path = dir.join(SNAPSHOT_FILE);
    let canon = |c: &MatchConfig| {
        let mut c = c.clone();
        c.rounds = 1;
        c.games = None;
        c.concurrency = 1;
        c.summary_every = 0;
        c.timeouts = Default::default();
        c.skillcal_bin = None;
        c.event = String::new();
        // the stopping rule may change between runs: it says nothing about the games
        c.sprt = None;
        c.rating = None;
        // the default book named explicitly, or the same file by another path, is the same book
        let book = book_path(&c.openings);
        c.openings.file = Some(std::fs::canonicalize(&book).unwrap_or(book));
        // match.toml stores options as a sorted table: compare them as sets, not in send order
        for e in &mut c.engines {
            e.options.0.sort();
        }
        c
    };
    if !path.exists() && holds_games(dir) {
        // games without the config they were played with: another tool's, a merged file or
        // another skillcal command's folder; resuming would adopt them as this match's, and
        // the repair would drop what it cannot place
        return Err(ArenaError::Other(format!(
            "{} holds games but no {SNAPSHOT_FILE}: not a folder of `skillcal match` (games of \
             another tool, a merged file, or a calibration's, pool's or verification's folder); \
             its games would be adopted or dropped: use a new --out directory",
            dir.display()
        )));
    }
    if let Ok(text) = std::fs::read_to_string(&path) {
        let old: MatchConfig = toml::from_str(&text).map_err(|e| ArenaError::file(&path, e))?;
        let (a, b) = (canon(&old), canon(cfg));
        // a folder without a game belongs to no config yet (a run that stopped in its
        // preflight, on an engine that would not start, wrote only this file)
        if a != b && holds_games(dir) {
            let mut keys = Vec::new();
            if a.engines != b.engines {
                keys.push("engines");
            }
            if a.limits != b.limits {
                keys.push("limits");
            }
            if a.openings != b.openings {
                keys.push("openings");
            }
            if a.adjudication != b.adjudication {
                keys.push("adjudication");
            }
            if a.seed != b.seed {
                keys.push("seed");
            }
            if a.pairing != b.pairing || a.games_per_opening != b.games_per_opening {
                keys.push("pairing/games_per_opening");
            }
            return Err(ArenaError::Other(format!(
                "{} holds a match with a different config ({} differ; see {}); use a new --out directory",
                dir.display(),
                keys.join(", "),
                path.display()
            )));
        }
    }
    let text = toml::to_string(cfg)
        .map_err(|e| ArenaError::Other(format!("cannot serialize the match config: {e}")))?;
    std::fs::write(&path, text).at("write", &path)?;
    Ok(())
}

/// Whether `dir` holds a finished game (a games.csv row or a PGN game); an unreadable games.csv
/// counts as holding games, so nothing is overwritten on a guess.
fn holds_games(dir: &Path) -> bool {
    let csv = dir.join("games.csv");
    let in_csv = csv.exists() && super::store::read_games_csv(&csv).map_or(true, |g| !g.is_empty());
    let in_pgn = std::fs::read_to_string(dir.join("games.pgn")).is_ok_and(|t| !t.trim().is_empty());
    in_csv || in_pgn
}
