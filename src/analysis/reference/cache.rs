//! The evaluation cache, `eval-cache.csv`: one row per (position FEN without move counters,
//! line, engine identity, limit), appended and flushed as each answer arrives, so a killed run
//! keeps every finished evaluation and a rerun (or an overlapping file) asks the engine nothing
//! twice. The line is empty for a position searched on its own (after `ucinewgame`) and names
//! the sequence of positions searched before it otherwise (`processes::line_digest`): a game's
//! positions are searched in order in one process, so an answer depends on that sequence.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::engine::Eval;
use super::score::Score;
use crate::analysis::error::{AnalysisError, Result};
use crate::fsutil::AppendLog;

/// One row of eval-cache.csv.
#[derive(Serialize, Deserialize, Clone, Debug)]
pub struct CacheRow {
    pub fen: String,
    /// Empty, or the digest of the positions searched before this one since `ucinewgame`.
    #[serde(default)]
    pub line: String,
    pub engine: String,
    pub limit: String,
    /// Centipawns from the side to move (empty for a mate score).
    pub cp: Option<i32>,
    /// Mate in N from the side to move (negative: mated).
    pub mate: Option<i32>,
    pub best: String,
    pub depth: u32,
}

type Key = (String, String, String, String);

const HEADER: &str = "fen,line,engine,limit,cp,mate,best,depth\n";

/// One row as a CSV line.
fn encode(path: &Path, row: &CacheRow) -> Result<String> {
    crate::results::csv_line(row).map_err(|e| AnalysisError::file(path, e))
}

/// The open cache: what is known, and the file new answers are appended to.
pub struct EvalCache {
    map: HashMap<Key, Eval>,
    log: AppendLog,
}

impl EvalCache {
    /// Opens (or creates) the cache file; a torn last line from a killed run is dropped, and a
    /// file from before the `line` column is rewritten with it (its answers, each searched on
    /// its own, stay valid as such).
    pub fn open(path: &Path) -> Result<EvalCache> {
        let (mut log, complete) =
            AppendLog::open(path).map_err(|e| AnalysisError::io("open", path, e))?;
        let mut rows = Vec::new();
        if !complete.trim().is_empty() {
            let mut rdr = csv::Reader::from_reader(complete.as_bytes());
            for (i, row) in rdr.deserialize::<CacheRow>().enumerate() {
                rows.push(
                    row.map_err(|e| AnalysisError::file(path, format!("row {}: {e}", i + 2)))?,
                );
            }
        }
        let current = complete.starts_with(HEADER);
        if !current {
            // a file from before the `line` column, or a new one: header, then every row
            let mut text = HEADER.to_string();
            for row in &rows {
                text.push_str(&encode(path, row)?);
            }
            log.rewrite(&text)
                .map_err(|e| AnalysisError::io("write", path, e))?;
        }
        let mut map = HashMap::new();
        for row in rows {
            let score = match (row.mate, row.cp) {
                (Some(m), _) => Score::Mate(m),
                (None, Some(c)) => Score::Cp(c),
                (None, None) => continue,
            };
            map.insert(
                (row.fen, row.line, row.engine, row.limit),
                Eval {
                    score,
                    best: row.best,
                    depth: row.depth,
                },
            );
        }
        Ok(EvalCache { map, log })
    }

    /// The answer for `fen` searched on its own.
    pub fn get(&self, fen: &str, engine: &str, limit: &str) -> Option<&Eval> {
        self.get_in_line(fen, "", engine, limit)
    }

    /// The answer for `fen` searched after the positions `line` names.
    pub fn get_in_line(&self, fen: &str, line: &str, engine: &str, limit: &str) -> Option<&Eval> {
        self.map.get(&(
            fen.to_string(),
            line.to_string(),
            engine.to_string(),
            limit.to_string(),
        ))
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Records the answer for `fen` searched on its own and appends it to the file at once.
    pub fn insert(&mut self, fen: &str, engine: &str, limit: &str, eval: Eval) -> Result<()> {
        self.insert_in_line(fen, "", engine, limit, eval)
    }

    /// Records the answer for `fen` searched after `line` and appends it to the file at once.
    pub fn insert_in_line(
        &mut self,
        fen: &str,
        line: &str,
        engine: &str,
        limit: &str,
        eval: Eval,
    ) -> Result<()> {
        // an answer already known (two jobs sharing a game's opening) is not written twice
        let key = (
            fen.to_string(),
            line.to_string(),
            engine.to_string(),
            limit.to_string(),
        );
        if self.map.contains_key(&key) {
            return Ok(());
        }
        let (cp, mate) = match eval.score {
            Score::Cp(c) => (Some(c), None),
            Score::Mate(m) => (None, Some(m)),
        };
        let row = CacheRow {
            fen: fen.to_string(),
            line: line.to_string(),
            engine: engine.to_string(),
            limit: limit.to_string(),
            cp,
            mate,
            best: eval.best.clone(),
            depth: eval.depth,
        };
        let path = self.log.path();
        let line = encode(path, &row)?;
        self.log
            .append(&line)
            .map_err(|e| AnalysisError::io("write", self.log.path(), e))?;
        self.map
            .insert((row.fen, row.line, row.engine, row.limit), eval);
        Ok(())
    }
}
