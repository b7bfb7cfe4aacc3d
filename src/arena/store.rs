//! The results store: append-only `games.pgn` and `games.csv`, flushed after every game, and
//! the resume logic (which games are done; repair of a run killed between the two writes).

use std::collections::{BTreeSet, HashSet};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context};
use serde::{Deserialize, Serialize};

use super::game::GameRecordDraft;

/// The games.csv columns, in order.
pub const CSV_HEADER: &str = "game_id,pair_id,round,white,black,white_settings,black_settings,opening_id,opening_fen,result,termination,plies,seconds,seed";

/// One row of games.csv.
#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct GameRecord {
    pub game_id: u64,
    pub pair_id: u64,
    pub round: u32,
    pub white: String,
    pub black: String,
    /// The engine's options as `Key=Value;Key=Value` (empty when none).
    pub white_settings: String,
    pub black_settings: String,
    /// 1-based position of the opening in the book file.
    pub opening_id: usize,
    /// The position after the book moves.
    pub opening_fen: String,
    /// `1-0`, `0-1` or `1/2-1/2`.
    pub result: String,
    /// See [`crate::arena::Termination::as_str`].
    pub termination: String,
    pub plies: u32,
    pub seconds: f64,
    pub seed: u64,
}

impl GameRecord {
    /// Points for `name` in this game (None when it did not play).
    pub fn score_for(&self, name: &str) -> Option<f64> {
        let white = match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        };
        if self.white == name {
            Some(white)
        } else if self.black == name {
            Some(1.0 - white)
        } else {
            None
        }
    }
}

/// Reads a games.csv (header required; a torn last line from a killed run is ignored).
pub fn read_games_csv(path: &Path) -> anyhow::Result<Vec<GameRecord>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    parse_games_csv(&text, path)
}

fn parse_games_csv(text: &str, path: &Path) -> anyhow::Result<Vec<GameRecord>> {
    // Only newline-terminated rows were completely written.
    let complete = match text.rfind('\n') {
        Some(i) => &text[..=i],
        None => "",
    };
    let mut rdr = csv::ReaderBuilder::new().from_reader(complete.as_bytes());
    let headers = rdr
        .headers()
        .with_context(|| format!("{}: bad header", path.display()))?
        .clone();
    for col in CSV_HEADER.split(',') {
        if !headers.iter().any(|h| h == col) {
            bail!("{}: missing column '{col}'", path.display());
        }
    }
    let mut out = Vec::new();
    for (i, row) in rdr.deserialize::<GameRecord>().enumerate() {
        let rec = row.with_context(|| format!("{}: row {}", path.display(), i + 2))?;
        out.push(rec);
    }
    Ok(out)
}

/// Tags and movetext of a finished game for the PGN.
pub struct PgnGame<'a> {
    pub event: &'a str,
    pub site: &'a str,
    pub date: &'a str,
    pub record: &'a GameRecord,
    pub root_fen: &'a str,
    pub time_control: &'a str,
    pub draft: &'a GameRecordDraft,
}

/// Formats one game: seven-tag roster, FEN/SetUp, TimeControl, Termination, PlyCount, and
/// per-move comments, lines kept under 80 characters.
pub fn format_pgn(g: &PgnGame<'_>) -> String {
    let r = g.record;
    let esc = |s: &str| s.replace('\\', "\\\\").replace('"', "\\\"");
    let mut out = String::with_capacity(2048);
    let mut tag = |k: &str, v: &str| out.push_str(&format!("[{k} \"{}\"]\n", esc(v)));
    tag("Event", g.event);
    tag("Site", g.site);
    tag("Date", g.date);
    tag("Round", &format!("{}.{}", r.round, r.game_id));
    tag("White", &r.white);
    tag("Black", &r.black);
    tag("Result", &r.result);
    tag("FEN", g.root_fen);
    tag("SetUp", "1");
    tag("TimeControl", g.time_control);
    tag("Termination", g.draft.termination.pgn_tag());
    tag("PlyCount", &r.plies.to_string());
    tag("GameId", &r.game_id.to_string());
    tag("PairId", &r.pair_id.to_string());
    tag("Opening", &format!("book #{}", r.opening_id));
    tag("SkillcalTermination", &r.termination);
    out.push('\n');

    let root: shakmaty::fen::Fen = g.root_fen.parse().expect("root FEN written by us");
    let setup = root.as_setup();
    let mut white_to_move = setup.turn == shakmaty::Color::White;
    let mut number = setup.fullmoves.get();
    let mut tokens: Vec<String> = Vec::with_capacity(g.draft.moves.len() * 2 + 2);
    for (k, m) in g.draft.moves.iter().enumerate() {
        if white_to_move {
            tokens.push(format!("{number}. {}", m.san));
        } else if k == 0 {
            tokens.push(format!("{number}... {}", m.san));
        } else {
            tokens.push(m.san.clone());
        }
        if !m.comment.is_empty() {
            tokens.push(format!("{{{}}}", m.comment));
        }
        if !white_to_move {
            number += 1;
        }
        white_to_move = !white_to_move;
    }
    tokens.push(format!("{{{}}}", g.draft.detail.replace('}', ")")));
    tokens.push(r.result.clone());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 79 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    out.push_str(&line);
    out.push_str("\n\n");
    out
}

/// The open store of one run directory.
pub struct Store {
    pub dir: PathBuf,
    pgn: File,
    csv: File,
    /// Game ids already in games.csv.
    pub done: BTreeSet<u64>,
    pub records: Vec<GameRecord>,
}

impl Store {
    /// Opens (or creates) `dir/games.{pgn,csv}`, reads the finished games and repairs what a
    /// kill can leave: a torn CSV line, PGN games without a CSV row, duplicated PGN games.
    pub fn open(dir: &Path) -> anyhow::Result<Store> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("cannot create output directory {}", dir.display()))?;
        let csv_path = dir.join("games.csv");
        let pgn_path = dir.join("games.pgn");
        let mut csv = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(&csv_path)
            .with_context(|| format!("cannot open {}", csv_path.display()))?;
        let mut text = String::new();
        csv.read_to_string(&mut text)
            .with_context(|| format!("cannot read {}", csv_path.display()))?;
        let mut records = Vec::new();
        if text.trim().is_empty() {
            csv.set_len(0)?;
            csv.write_all(format!("{CSV_HEADER}\n").as_bytes())?;
            csv.flush()?;
        } else {
            if !text.ends_with('\n') {
                // A kill in the middle of a row: drop the torn part.
                let keep = text.rfind('\n').map_or(0, |i| i + 1);
                csv.set_len(keep as u64)?;
                csv.seek(SeekFrom::End(0))?;
                text.truncate(keep);
                if keep == 0 {
                    csv.write_all(format!("{CSV_HEADER}\n").as_bytes())?;
                    text = format!("{CSV_HEADER}\n");
                }
            }
            records = parse_games_csv(&text, &csv_path)?;
        }
        let mut done = BTreeSet::new();
        let mut dups = false;
        records.retain(|r| {
            let fresh = done.insert(r.game_id);
            dups |= !fresh;
            fresh
        });
        if dups {
            rewrite_csv(&csv_path, &records)?;
            csv = OpenOptions::new().append(true).open(&csv_path)?;
        }
        repair_pgn(&pgn_path, &done)?;
        let pgn = OpenOptions::new()
            .append(true)
            .create(true)
            .open(&pgn_path)
            .with_context(|| format!("cannot open {}", pgn_path.display()))?;
        Ok(Store {
            dir: dir.to_path_buf(),
            pgn,
            csv,
            done,
            records,
        })
    }

    /// Appends one game: PGN first, then the CSV row (the CSV row is what marks a game done).
    pub fn append(&mut self, pgn_text: &str, record: &GameRecord) -> anyhow::Result<()> {
        self.pgn
            .write_all(pgn_text.as_bytes())
            .and_then(|_| self.pgn.flush())
            .with_context(|| format!("cannot write {}", self.dir.join("games.pgn").display()))?;
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(Vec::with_capacity(256));
        w.serialize(record)?;
        let row = w.into_inner().map_err(|e| anyhow::anyhow!("{e}"))?;
        self.csv
            .write_all(&row)
            .and_then(|_| self.csv.flush())
            .with_context(|| format!("cannot write {}", self.dir.join("games.csv").display()))?;
        self.done.insert(record.game_id);
        self.records.push(record.clone());
        Ok(())
    }
}

fn rewrite_csv(path: &Path, records: &[GameRecord]) -> anyhow::Result<()> {
    let tmp = path.with_extension("csv.tmp");
    {
        let mut w = csv::WriterBuilder::new()
            .has_headers(false)
            .from_path(&tmp)?;
        w.write_record(CSV_HEADER.split(','))?;
        for r in records {
            w.serialize(r)?;
        }
        w.flush()?;
    }
    std::fs::rename(&tmp, path)?;
    Ok(())
}

/// Keeps only PGN games whose `GameId` is in `done`, once each; rewrites the file only when
/// something has to go.
fn repair_pgn(path: &Path, done: &BTreeSet<u64>) -> anyhow::Result<()> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Ok(());
    };
    let mut kept = String::with_capacity(text.len());
    let mut seen = HashSet::new();
    let mut changed = false;
    for chunk in split_games(&text) {
        let id = chunk
            .lines()
            .find_map(|l| l.strip_prefix("[GameId \""))
            .and_then(|r| r.strip_suffix("\"]"))
            .and_then(|v| v.parse::<u64>().ok());
        let complete = chunk.trim_end().ends_with("1-0")
            || chunk.trim_end().ends_with("0-1")
            || chunk.trim_end().ends_with("1/2-1/2");
        match id {
            Some(id) if complete && done.contains(&id) && seen.insert(id) => kept.push_str(chunk),
            _ => changed = true,
        }
    }
    if changed {
        let tmp = path.with_extension("pgn.tmp");
        std::fs::write(&tmp, &kept)?;
        std::fs::rename(&tmp, path)?;
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
    fn torn_rows_and_orphan_pgn_games_are_dropped() {
        let dir = std::env::temp_dir().join(format!("skillcal-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let row = "1,1,1,a,b,,,5,8/8/8/8/8/8/8/K1k5 w - - 0 1,1-0,checkmate,40,1.5,7\n";
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
        let store = Store::open(&dir).unwrap();
        assert_eq!(store.done.iter().copied().collect::<Vec<_>>(), vec![1]);
        let pgn = std::fs::read_to_string(dir.join("games.pgn")).unwrap();
        assert_eq!(pgn, game(1));
        let csv = std::fs::read_to_string(dir.join("games.csv")).unwrap();
        assert_eq!(csv, format!("{CSV_HEADER}\n{row}"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
