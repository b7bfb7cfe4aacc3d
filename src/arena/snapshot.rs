//! `match.toml` in the run directory: the config the directory's games belong to. A rerun
//! must describe the same games (more rounds, other concurrency or timeouts are fine).

use std::path::Path;

use super::config::MatchConfig;
use super::error::{ArenaError, Result};
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
        c.stop_after_sweep = None;
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
    crate::results::keep_config(
        &path,
        cfg,
        "a match",
        || Ok(holds_games(dir)),
        |old, new| {
            let (a, b) = (canon(old), canon(new));
            let mut keys = Vec::new();
            for (key, differs) in [
                ("engines", a.engines != b.engines),
                ("limits", a.limits != b.limits),
                ("openings", a.openings != b.openings),
                ("adjudication", a.adjudication != b.adjudication),
                ("seed", a.seed != b.seed),
                (
                    "pairing/games_per_opening",
                    a.pairing != b.pairing || a.games_per_opening != b.games_per_opening,
                ),
            ] {
                if differs {
                    keys.push(key.to_string());
                }
            }
            if keys.is_empty() && a != b {
                keys.push("other keys".into());
            }
            keys
        },
    )
    .map_err(|e| ArenaError::Other(e.to_string()))
}

/// Whether `dir` holds a finished game (a games.csv row or a PGN game); an unreadable games.csv
/// counts as holding games, so nothing is overwritten on a guess.
fn holds_games(dir: &Path) -> bool {
    let csv = dir.join("games.csv");
    let in_csv =
        csv.exists() && super::game_files::read_games_csv(&csv).map_or(true, |g| !g.is_empty());
    let in_pgn = std::fs::read_to_string(dir.join("games.pgn")).is_ok_and(|t| !t.trim().is_empty());
    in_csv || in_pgn
}
