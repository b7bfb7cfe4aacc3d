//! `games.csv`: one row per finished game, as the arena writes it.

use std::path::Path;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::csvfile::CsvRow;
use super::error::ResultsError;
use crate::fsutil::FileError;

/// Result of a finished game, from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    WhiteWins,
    Draw,
    BlackWins,
}

impl GameResult {
    /// Parses `1-0`, `0-1` or `1/2-1/2` (also `½-½`); anything else (`*`, empty) is `None`.
    pub fn parse(s: &str) -> Option<GameResult> {
        match s.trim() {
            "1-0" => Some(GameResult::WhiteWins),
            "0-1" => Some(GameResult::BlackWins),
            "1/2-1/2" | "½-½" => Some(GameResult::Draw),
            _ => None,
        }
    }

    /// White's points: 1, 0.5 or 0.
    pub fn white_score(self) -> f64 {
        match self {
            GameResult::WhiteWins => 1.0,
            GameResult::Draw => 0.5,
            GameResult::BlackWins => 0.0,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::Draw => "1/2-1/2",
            GameResult::BlackWins => "0-1",
        }
    }
}

/// How a game ended: the games.csv `termination` column (fastchess's classification of engine
/// failures included) and, through [`Termination::pgn_tag`], the PGN `Termination` tag. The arena
/// writes every variant but `Unknown`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    Checkmate,
    Stalemate,
    Threefold,
    FiftyMoves,
    InsufficientMaterial,
    AdjudicationResign,
    AdjudicationDraw,
    MaxPlies,
    TimeForfeit,
    IllegalMove,
    Crash,
    Stall,
    /// Empty or a name this version does not know.
    #[serde(other)]
    Unknown,
}

impl Termination {
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Threefold => "threefold",
            Termination::FiftyMoves => "fifty_moves",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::AdjudicationResign => "adjudication_resign",
            Termination::AdjudicationDraw => "adjudication_draw",
            Termination::MaxPlies => "max_plies",
            Termination::TimeForfeit => "time_forfeit",
            Termination::IllegalMove => "illegal_move",
            Termination::Crash => "crash",
            Termination::Stall => "stall",
            Termination::Unknown => "unknown",
        }
    }

    /// The PGN `Termination` tag (the standard's vocabulary).
    pub fn pgn_tag(self) -> &'static str {
        match self {
            Termination::AdjudicationResign
            | Termination::AdjudicationDraw
            | Termination::MaxPlies => "adjudication",
            Termination::TimeForfeit => "time forfeit",
            Termination::IllegalMove => "rules infraction",
            Termination::Crash | Termination::Stall => "abandoned",
            Termination::Unknown => "unterminated",
            _ => "normal",
        }
    }
}

fn result_de<'de, D: Deserializer<'de>>(d: D) -> Result<Option<GameResult>, D::Error> {
    let s = String::deserialize(d)?;
    match s.trim() {
        "*" | "" => Ok(None),
        other => GameResult::parse(other).map(Some).ok_or_else(|| {
            serde::de::Error::custom(format!("result '{other}' is not 1-0, 0-1, 1/2-1/2 or *"))
        }),
    }
}

fn result_ser<S: Serializer>(r: &Option<GameResult>, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(r.map_or("*", GameResult::as_str))
}

fn termination_default() -> Termination {
    Termination::Unknown
}

/// One game of a `games.csv`. The columns beyond players, result, termination and plies are
/// optional when reading (files from other tools).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct GameRow {
    #[serde(default)]
    pub game_id: u64,
    #[serde(default)]
    pub pair_id: u64,
    #[serde(default)]
    pub round: u32,
    pub white: String,
    pub black: String,
    /// The engine's options as `Key=Value;Key=Value` (empty when none).
    #[serde(default)]
    pub white_settings: String,
    #[serde(default)]
    pub black_settings: String,
    /// 1-based position of the opening in the book file.
    #[serde(default)]
    pub opening_id: usize,
    #[serde(default)]
    pub opening_fen: String,
    /// `None` for an unfinished game (`*`).
    #[serde(deserialize_with = "result_de", serialize_with = "result_ser")]
    pub result: Option<GameResult>,
    #[serde(default = "termination_default")]
    pub termination: Termination,
    #[serde(default)]
    pub plies: u32,
    #[serde(default)]
    pub seconds: f64,
    #[serde(default)]
    pub seed: u64,
    /// Each side's mean depth and nodes a move (absent in files written before they were kept,
    /// and for engines that report none).
    #[serde(default)]
    pub white_depth: Option<f64>,
    #[serde(default)]
    pub black_depth: Option<f64>,
    #[serde(default)]
    pub white_nodes: Option<u64>,
    #[serde(default)]
    pub black_nodes: Option<u64>,
}

/// The arena writes the header first and appends a row a game.
impl CsvRow for GameRow {
    const APPENDED: bool = true;
    const HEADER_REQUIRED: bool = true;

    /// The time per ply and the hours of play are sums of `seconds`: one negative or NaN value
    /// skews them all.
    fn check(&self) -> Result<(), String> {
        if !(self.seconds.is_finite() && self.seconds >= 0.0) {
            return Err(format!(
                "seconds {} is not a duration (a number >= 0)",
                self.seconds
            ));
        }
        Ok(())
    }
}

impl GameRow {
    /// This game's games.csv line (no header), newline-terminated: the one way a row is written,
    /// to a file or to the store's queue.
    pub fn csv_line(&self) -> Result<String, String> {
        super::csvfile::csv_line(self)
    }

    /// White's score, or `None` for an unfinished game.
    pub fn white_score(&self) -> Option<f64> {
        self.result.map(GameResult::white_score)
    }

    /// The result as written: `1-0`, `0-1`, `1/2-1/2`, or `*` for an unfinished game.
    pub fn result_str(&self) -> &'static str {
        self.result.map_or("*", GameResult::as_str)
    }

    /// Points for `name` in this game (None when it did not play, or the game is unfinished).
    pub fn score_for(&self, name: &str) -> Option<f64> {
        let white = self.white_score()?;
        if self.white == name {
            Some(white)
        } else if self.black == name {
            Some(1.0 - white)
        } else {
            None
        }
    }
}

/// The settings columns of a `games.csv` row, read through the same reader as [`GameRow`]:
/// `analyse` wants only these from the games.csv beside a PGN, and other tools' files (or a
/// hand-made one) may hold no more than the id and the settings.
#[derive(Debug, Clone, Deserialize, PartialEq)]
pub struct GameSettingsRow {
    /// `None` where the file has no `game_id` column (its settings cannot be matched to games).
    #[serde(default)]
    pub game_id: Option<u64>,
    #[serde(default)]
    pub white_settings: String,
    #[serde(default)]
    pub black_settings: String,
}

impl CsvRow for GameSettingsRow {
    const APPENDED: bool = true;
    const HEADER_REQUIRED: bool = true;
}

/// Writes `out` as every row of the `games.csv` files `parts`, each row's fields exactly as
/// read (columns need not be known to this version), under the union of their headers in order
/// of first appearance: a part written before a column existed gets it empty. Missing parts are
/// skipped.
pub fn merge_games_csv(parts: &[&Path], out: &Path) -> Result<(), ResultsError> {
    let mut header: Vec<String> = Vec::new();
    let mut read = Vec::new();
    for &path in parts {
        if !path.exists() {
            continue;
        }
        let mut reader = csv::ReaderBuilder::new()
            .from_path(path)
            .map_err(|e| parse_error(path, e))?;
        let h = reader.headers().map_err(|e| parse_error(path, e))?.clone();
        for col in &h {
            if !header.iter().any(|c| c == col) {
                header.push(col.to_string());
            }
        }
        let mut rows = Vec::new();
        for rec in reader.records() {
            let rec = rec.map_err(|e| parse_error(path, e))?;
            if rec.len() == 1 && rec[0].trim().is_empty() {
                continue;
            }
            rows.push(rec);
        }
        read.push((h, rows));
    }
    let write_err = |e: csv::Error| ResultsError::Invalid {
        path: out.to_path_buf(),
        message: format!("cannot write: {e}"),
    };
    let mut writer = csv::Writer::from_path(out).map_err(write_err)?;
    if !header.is_empty() {
        writer.write_record(&header).map_err(write_err)?;
    }
    for (h, rows) in &read {
        // where each merged column sits in this part (None: the part lacks it)
        let at: Vec<Option<usize>> = header
            .iter()
            .map(|c| h.iter().position(|x| x == c))
            .collect();
        for r in rows {
            let fields = at.iter().map(|i| i.and_then(|i| r.get(i)).unwrap_or(""));
            writer.write_record(fields).map_err(write_err)?;
        }
    }
    writer
        .flush()
        .map_err(|source| FileError::write(out, source).into())
}

fn parse_error(path: &Path, e: csv::Error) -> ResultsError {
    ResultsError::Parse {
        path: path.to_path_buf(),
        line: e.position().map_or(0, |p| p.line()),
        message: e.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn termination_names_round_trip_through_serde() {
        #[derive(Deserialize)]
        struct Row {
            t: Termination,
        }
        let names = [
            "checkmate",
            "stalemate",
            "threefold",
            "fifty_moves",
            "insufficient_material",
            "adjudication_resign",
            "adjudication_draw",
            "max_plies",
            "time_forfeit",
            "illegal_move",
            "crash",
            "stall",
            "no_such_ending",
        ];
        let text = format!("t\n{}\n", names.join("\n"));
        let rows: Vec<Row> = csv::Reader::from_reader(text.as_bytes())
            .deserialize()
            .collect::<Result<_, _>>()
            .unwrap();
        for (name, row) in names.iter().zip(&rows) {
            match row.t {
                Termination::Unknown => assert_eq!(*name, "no_such_ending"),
                t => assert_eq!(t.as_str(), *name),
            }
        }
    }

    #[test]
    fn merging_parts_of_two_header_versions_keeps_every_column() {
        let dir = std::env::temp_dir().join(format!("skillcal-merge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b, out) = (dir.join("a.csv"), dir.join("b.csv"), dir.join("all.csv"));
        std::fs::write(&a, "game_id,white,black,result\n1,x,y,1-0\n").unwrap();
        std::fs::write(
            &b,
            "game_id,white,black,result,white_depth\n2,y,x,0-1,7.5\n",
        )
        .unwrap();
        merge_games_csv(&[&a, &dir.join("missing.csv"), &b], &out).unwrap();
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "game_id,white,black,result,white_depth\n1,x,y,1-0,\n2,y,x,0-1,7.5\n"
        );
        let rows: Vec<GameRow> = csv::Reader::from_path(&out)
            .unwrap()
            .deserialize()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(
            (rows[0].white_depth, rows[1].white_depth),
            (None, Some(7.5))
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
