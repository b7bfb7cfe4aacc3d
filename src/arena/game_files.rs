//! A match folder's game files: append-only `games.pgn` and `games.csv`, flushed after every
//! game, and the resume logic (which games are done; repair of a run killed between or inside
//! the two writes: a game counts as done only when its CSV row and its complete PGN game are
//! both there).

use std::collections::{BTreeSet, HashSet};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use super::error::{ArenaError, IoContext, Result};
use crate::fsutil::AppendLog;
use crate::results::GameRow;

/// The games.csv columns, in order.
pub const CSV_HEADER: &str = "game_id,pair_id,round,white,black,white_settings,black_settings,opening_id,opening_fen,result,termination,plies,seconds,seed,white_depth,black_depth,white_nodes,black_nodes";

/// The columns a games.csv must have: those before `white_depth`, which files written before
/// it lack (the store rewrites such a file under the whole header when it resumes it).
const REQUIRED_COLUMNS: usize = 14;

/// Reads a games.csv (header required; a torn last line from a killed run is ignored).
pub fn read_games_csv(path: &Path) -> Result<Vec<GameRow>> {
    let text = std::fs::read_to_string(path).at("read", path)?;
    parse_games_csv(&text, path)
}

fn parse_games_csv(text: &str, path: &Path) -> Result<Vec<GameRow>> {
    let complete = &text[..crate::fsutil::complete_len(text.as_bytes())];
    let mut rdr = csv::ReaderBuilder::new().from_reader(complete.as_bytes());
    let headers = rdr
        .headers()
        .map_err(|e| ArenaError::file(path, format!("bad header: {e}")))?
        .clone();
    for col in CSV_HEADER.split(',').take(REQUIRED_COLUMNS) {
        if !headers.iter().any(|h| h == col) {
            return Err(ArenaError::file(path, format!("missing column '{col}'")));
        }
    }
    let mut out = Vec::new();
    for (i, row) in rdr.deserialize::<GameRow>().enumerate() {
        let rec = row.map_err(|e| ArenaError::file(path, format!("row {}: {e}", i + 2)))?;
        out.push(rec);
    }
    Ok(out)
}

/// The open store of one run directory.
pub struct GameFiles {
    pub dir: PathBuf,
    pgn: File,
    csv: AppendLog,
    /// Game ids already in games.csv.
    pub done: BTreeSet<u64>,
    pub records: Vec<GameRow>,
    /// The file's header is [`CSV_HEADER`]; a file from before its last columns is rewritten
    /// under it when a game is added (not before: a finished match's file stays as it is).
    header_ok: bool,
}

impl GameFiles {
    /// Opens (or creates) `dir/games.{pgn,csv}`, reads the finished games and repairs what a
    /// kill can leave: a torn CSV line, PGN games without a CSV row, CSV rows whose PGN game
    /// is missing or torn (the game is played again), duplicated games.
    pub fn open(dir: &Path) -> Result<GameFiles> {
        std::fs::create_dir_all(dir).at("create output directory", dir)?;
        let csv_path = dir.join("games.csv");
        let pgn_path = dir.join("games.pgn");
        let (mut csv, text) = AppendLog::open(&csv_path).at("read", &csv_path)?;
        let mut records = if text.is_empty() {
            Vec::new()
        } else {
            parse_games_csv(&text, &csv_path)?
        };
        let pgn_text = match std::fs::read_to_string(&pgn_path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(ArenaError::io("read", &pgn_path, e)),
        };
        let (in_pgn, complete) = pgn_ids(&pgn_text);
        let mut done = BTreeSet::new();
        // Rows before the first game the PGN holds are kept as they are: their PGN was not
        // kept (results folders commit games.csv without games.pgn). From that game on, both
        // files are written game by game, PGN first: a row whose game is missing or torn
        // there is dropped, and the game is played again.
        let mut pgn_kept = false;
        records.retain(|r| {
            pgn_kept |= in_pgn.contains(&r.game_id);
            (!pgn_kept || complete.contains(&r.game_id)) && done.insert(r.game_id)
        });
        let rows_ok = records.len() == count_rows(&text);
        let mut header_ok = text.lines().next() == Some(CSV_HEADER);
        if !rows_ok || text.is_empty() {
            header_ok = true;
            csv.rewrite(&csv_text(&csv_path, &records)?)
                .at("replace", &csv_path)?;
        }
        repair_pgn(&pgn_path, &pgn_text, &done)?;
        let pgn = OpenOptions::new()
            .append(true)
            .create(true)
            .open(&pgn_path)
            .at("open", &pgn_path)?;
        Ok(GameFiles {
            dir: dir.to_path_buf(),
            pgn,
            csv,
            done,
            records,
            header_ok,
        })
    }

    /// Appends one game: PGN first, then the CSV row (the CSV row is what marks a game done).
    pub fn append(&mut self, pgn_text: &str, record: &GameRow) -> Result<()> {
        let pgn_path = self.dir.join("games.pgn");
        let csv_path = self.dir.join("games.csv");
        if !self.header_ok {
            // a file from before the last columns: its rows keep their values, the new
            // columns stay empty for them
            self.csv
                .rewrite(&csv_text(&csv_path, &self.records)?)
                .at("replace", &csv_path)?;
            self.header_ok = true;
        }
        self.pgn
            .write_all(pgn_text.as_bytes())
            .and_then(|_| self.pgn.flush())
            .at("write", &pgn_path)?;
        let row = record
            .csv_line()
            .map_err(|e| ArenaError::file(&csv_path, e))?;
        self.csv.append(&row).at("write", &csv_path)?;
        self.done.insert(record.game_id);
        self.records.push(record.clone());
        Ok(())
    }
}

/// Data rows in complete CSV text (the header excluded).
fn count_rows(text: &str) -> usize {
    csv::ReaderBuilder::new()
        .from_reader(text.as_bytes())
        .records()
        .count()
}

/// games.csv's whole text: the header and a line a game.
fn csv_text(path: &Path, records: &[GameRow]) -> Result<String> {
    let mut text = format!("{CSV_HEADER}\n");
    for r in records {
        text.push_str(&r.csv_line().map_err(|e| ArenaError::file(path, e))?);
    }
    Ok(text)
}

/// The `GameId` of a PGN game, and whether it was written completely (ends with its result).
fn game_id(chunk: &str) -> Option<(u64, bool)> {
    let id = chunk
        .lines()
        .find_map(|l| l.strip_prefix("[GameId \""))
        .and_then(|r| r.strip_suffix("\"]"))
        .and_then(|v| v.parse::<u64>().ok())?;
    let end = chunk.trim_end();
    let complete = end.ends_with("1-0") || end.ends_with("0-1") || end.ends_with("1/2-1/2");
    Some((id, complete))
}

/// The ids of every game in the PGN (torn ones too), and of the complete ones.
fn pgn_ids(text: &str) -> (HashSet<u64>, HashSet<u64>) {
    let mut all = HashSet::new();
    let mut complete = HashSet::new();
    for (id, whole) in split_games(text).into_iter().filter_map(game_id) {
        all.insert(id);
        if whole {
            complete.insert(id);
        }
    }
    (all, complete)
}

/// Keeps only PGN games whose `GameId` is in `done`, once each; rewrites the file only when
/// something has to go.
fn repair_pgn(path: &Path, text: &str, done: &BTreeSet<u64>) -> Result<()> {
    let mut kept = String::with_capacity(text.len());
    let mut seen = HashSet::new();
    let mut changed = false;
    for chunk in split_games(text) {
        match game_id(chunk) {
            Some((id, true)) if done.contains(&id) && seen.insert(id) => kept.push_str(chunk),
            _ => changed = true,
        }
    }
    if changed {
        let tmp = path.with_extension("pgn.tmp");
        std::fs::write(&tmp, &kept).at("write", &tmp)?;
        std::fs::rename(&tmp, path).at("replace", path)?;
    }
    Ok(())
}

/// Splits PGN text at each `[Event ` line that starts a game.
fn split_games(text: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = Vec::new();
    let mut off = 0;
    for line in text.split_inclusive('\n') {
        if line.starts_with("[Event ") {
            starts.push(off);
        }
        off += line.len();
    }
    if starts.first() != Some(&0) && !text.trim().is_empty() {
        starts.insert(0, 0);
    }
    let mut out = Vec::new();
    for (k, &s) in starts.iter().enumerate() {
        let e = starts.get(k + 1).copied().unwrap_or(text.len());
        out.push(&text[s..e]);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_older_than_the_pgn_are_kept_and_later_gaps_replayed() {
        let dir = std::env::temp_dir().join(format!("skillcal-store-old-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let row = |id: u64| format!("{id},1,1,a,b,,,5,x,1-0,checkmate,40,1.5,7,9.5,,120000,\n");
        let csv: String = (1..=5).map(row).collect();
        std::fs::write(dir.join("games.csv"), format!("{CSV_HEADER}\n{csv}")).unwrap();
        let game = |id: u64| format!("[Event \"e\"]\n[GameId \"{id}\"]\n\n1. e4 e5 1-0\n\n");
        // games 1-2 from before the PGN was kept; 3 complete, 4 missing, 5 torn
        let torn = "[Event \"e\"]\n[GameId \"5\"]\n\n1. e4";
        std::fs::write(dir.join("games.pgn"), format!("{}{torn}", game(3))).unwrap();
        let store = GameFiles::open(&dir).unwrap();
        assert_eq!(
            store.done.iter().copied().collect::<Vec<_>>(),
            vec![1, 2, 3]
        );
        let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
        assert_eq!(csv, format!("{CSV_HEADER}\n{}{}{}", row(1), row(2), row(3)));
        assert_eq!(
            std::fs::read_to_string(dir.join("games.pgn")).unwrap(),
            game(3)
        );
        // no PGN at all: every row stays
        std::fs::remove_file(dir.join("games.pgn")).unwrap();
        assert_eq!(GameFiles::open(&dir).unwrap().done.len(), 3);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn unfinished_results_score_nothing() {
        let mut r: GameRow = csv::ReaderBuilder::new()
            .from_reader(
                format!("{CSV_HEADER}\n1,1,1,a,b,,,5,x,1/2-1/2,max_plies,40,1.5,7,,,,\n")
                    .as_bytes(),
            )
            .deserialize()
            .next()
            .unwrap()
            .unwrap();
        assert_eq!((r.score_for("a"), r.score_for("b")), (Some(0.5), Some(0.5)));
        r.result = None;
        assert_eq!((r.score_for("a"), r.score_for("c")), (None, None));
    }

    #[test]
    fn torn_rows_and_orphan_pgn_games_are_dropped() {
        let dir = std::env::temp_dir().join(format!("skillcal-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let row = "1,1,1,a,b,,,5,8/8/8/8/8/8/8/K1k5 w - - 0 1,1-0,checkmate,40,1.5,7,,,,\n";
        std::fs::write(
            dir.join("games.csv"),
            format!("{CSV_HEADER}\n{row}{row}2,1,1,b,a,,,5,x,0-"),
        )
        .unwrap();
        let game = |id: u64| format!("[Event \"e\"]\n[GameId \"{id}\"]\n\n1. e4 e5 1-0\n\n");
        std::fs::write(
            dir.join("games.pgn"),
            format!(
                "{}{}{}[Event \"e\"]\n[GameId \"3\"]\n\n1. d4",
                game(1),
                game(2),
                game(1)
            ),
        )
        .unwrap();
        let store = GameFiles::open(&dir).unwrap();
        assert_eq!(store.done.iter().copied().collect::<Vec<_>>(), vec![1]);
        let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
        assert_eq!(pgn, game(1));
        let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
        assert_eq!(csv, format!("{CSV_HEADER}\n{row}"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_from_before_the_pace_columns_gets_them_on_resume() {
        let dir = std::env::temp_dir().join(format!("skillcal-store-v1-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let old_header = CSV_HEADER
            .split(',')
            .take(REQUIRED_COLUMNS)
            .collect::<Vec<_>>();
        let old_row = "1,1,1,a,b,X=1,,5,x,1-0,checkmate,40,1.5,7";
        std::fs::write(
            dir.join("games.csv"),
            format!("{}\n{old_row}\n", old_header.join(",")),
        )
        .unwrap();
        let mut store = GameFiles::open(&dir).unwrap();
        // opening a finished match changes nothing
        assert_eq!(
            std::fs::read_to_string(dir.join("games.csv")).unwrap(),
            format!("{}\n{old_row}\n", old_header.join(","))
        );
        assert_eq!(store.records[0].white_settings, "X=1");
        assert_eq!(store.records[0].white_depth, None);
        let mut next = store.records[0].clone();
        next.game_id = 2;
        next.white_depth = Some(8.25);
        next.black_nodes = Some(5000);
        store
            .append("[GameId \"2\"]\n\n1. e4 1-0\n\n", &next)
            .unwrap();
        let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
        assert_eq!(
            csv,
            format!("{CSV_HEADER}\n{old_row},,,,\n2,1,1,a,b,X=1,,5,x,1-0,checkmate,40,1.5,7,8.25,,,5000\n")
        );
        let back = read_games_csv(&dir.join("games.csv")).unwrap();
        assert_eq!(back, vec![store.records[0].clone(), next]);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
