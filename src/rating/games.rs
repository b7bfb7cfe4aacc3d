//! Games as the rating code sees them, and loading them from `games.csv` or PGN files.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

pub use crate::results::GameResult;

/// A game file that could not be read; names the file (and line).
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}:{line}: {message}")]
    Line {
        path: PathBuf,
        line: u64,
        message: String,
    },
    #[error("cannot write {path}: {message}")]
    Write { path: PathBuf, message: String },
    /// One file named twice (spelt alike or not): its games would count twice.
    #[error("{path} is given twice (also as {first}): its games would count twice")]
    Repeated { path: PathBuf, first: PathBuf },
}

pub(super) type Result<T> = std::result::Result<T, LoadError>;

/// One finished game.
#[derive(Clone, Debug, PartialEq)]
pub struct Game {
    pub white: String,
    pub black: String,
    pub result: GameResult,
    /// Games with the same `pair` id form an opening pair (same opening, colours swapped); used
    /// for pentanomial statistics. Ids are unique across all loaded files.
    pub pair: Option<u64>,
    /// Length in plies and how the game ended, when the file says (games.csv's `plies` and
    /// `termination`, PGN's `PlyCount` or its moves and `Termination`): for game statistics.
    pub plies: Option<u32>,
    pub termination: Option<String>,
}

impl Game {
    pub fn new(white: &str, black: &str, result: GameResult) -> Game {
        Game {
            white: white.to_string(),
            black: black.to_string(),
            result,
            pair: None,
            plies: None,
            termination: None,
        }
    }

    pub fn with_pair(mut self, pair: u64) -> Game {
        self.pair = Some(pair);
        self
    }
}

/// How to load game files.
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// Skip (and report) malformed lines or games instead of failing on the first one.
    pub skip_bad_lines: bool,
    /// The command offers `--skip-bad-lines` (`rate`): its errors suggest it. Others (`pool`,
    /// `report`) have no such flag, so naming it would send the user to an unknown argument.
    pub offer_skip: bool,
}

/// Games loaded from files, with the problems that were skipped (only with `skip_bad_lines`).
#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    pub games: Vec<Game>,
    /// One `file:line: problem` message per skipped line or game.
    pub skipped: Vec<String>,
    /// One `file:line: White - Black` per PGN game without a result (`*`), always left out as
    /// Ordo and BayesElo do: cutechess and fastchess write one for a game a stopped match cut off.
    pub unfinished: Vec<String>,
    /// One message per file whose pair ids are not all opening pairs (a third game under one
    /// id, or two games that are not the same players with colours swapped): those games are
    /// rated, but counted outside the pairs.
    pub pair_notes: Vec<String>,
}

/// Gives pair keys (per file) unique numeric ids, and keeps the games each written key names.
#[derive(Default)]
pub(crate) struct PairIds {
    ids: HashMap<(usize, String), u64>,
    /// By id: the file, the key as the file writes it, and each game's (line, index).
    members: BTreeMap<u64, PairMembers>,
}

struct PairMembers {
    file: PathBuf,
    label: String,
    games: Vec<(u64, usize)>,
}

impl PairIds {
    pub(crate) fn id(&mut self, file_index: usize, key: &str) -> u64 {
        let next = self.ids.len() as u64;
        *self
            .ids
            .entry((file_index, key.to_string()))
            .or_insert(next)
    }

    /// Records that the report's game `index`, at `line` of `file`, carries pair `id`, written
    /// in the file as `label` (`pair_id '7'`): checked by [`PairIds::notes`].
    pub(crate) fn member(&mut self, id: u64, file: &Path, label: String, line: u64, index: usize) {
        self.members
            .entry(id)
            .or_insert_with(|| PairMembers {
                file: file.to_path_buf(),
                label,
                games: Vec::new(),
            })
            .games
            .push((line, index));
    }

    /// A note per file whose written pair ids do not each make one opening pair. One game
    /// alone is not noted: a stopped match leaves its pair's second game unplayed.
    pub(crate) fn notes(&self, games: &[Game]) -> Vec<String> {
        // per file, in the order met: (pair ids, their games, the first one's description)
        let mut by_file: Vec<(&Path, usize, usize, String)> = Vec::new();
        for m in self.members.values() {
            let lines = |gs: &[(u64, usize)]| {
                let mut text: Vec<String> = gs.iter().take(5).map(|(l, _)| l.to_string()).collect();
                if gs.len() > 5 {
                    text.push(format!("... ({} more)", gs.len() - 5));
                }
                text.join(", ")
            };
            let why = match m.games.as_slice() {
                [] | [_] => continue,
                [(la, a), (lb, b)] => {
                    let (a, b) = (&games[*a], &games[*b]);
                    if a.white == b.black && a.black == b.white {
                        continue;
                    }
                    format!(
                        "{} on lines {la} and {lb} is not the same two players with colours swapped",
                        m.label
                    )
                }
                gs => format!("{} is on {} games (lines {})", m.label, gs.len(), lines(gs)),
            };
            match by_file.iter_mut().find(|f| f.0 == m.file.as_path()) {
                Some(f) => {
                    f.1 += 1;
                    f.2 += m.games.len();
                }
                None => by_file.push((&m.file, 1, m.games.len(), why)),
            }
        }
        by_file
            .into_iter()
            .map(|(file, ids, n, first)| {
                let what = if ids == 1 {
                    format!("{first}; these games are")
                } else {
                    format!(
                        "{ids} pair ids are not one pair each (the first: {first}); their {n} \
                         games are"
                    )
                };
                format!(
                    "{}: {what} rated, but left out of the opening pairs (a pair is two games \
                     of the same two players, colours swapped)",
                    file.display()
                )
            })
            .collect()
    }
}

/// Where loaders put games and problems.
pub(crate) struct Sink<'a> {
    pub file: PathBuf,
    pub file_index: usize,
    pub opts: &'a LoadOptions,
    pub report: &'a mut LoadReport,
    pub pairs: &'a mut PairIds,
}

impl Sink<'_> {
    /// Records a problem at `line`: an error, or a skipped-line message with `skip_bad_lines`.
    pub(crate) fn problem(&mut self, line: u64, msg: &str) -> Result<()> {
        if self.opts.skip_bad_lines {
            let full = format!("{}:{}: {}", self.file.display(), line, msg);
            self.report.skipped.push(full);
            Ok(())
        } else if self.opts.offer_skip {
            Err(self.error(
                line,
                format!("{msg} (use --skip-bad-lines to skip such lines)"),
            ))
        } else {
            Err(self.error(line, msg.to_string()))
        }
    }

    /// An error at `line` of this file.
    pub(crate) fn error(&self, line: u64, message: String) -> LoadError {
        LoadError::Line {
            path: self.file.clone(),
            line,
            message,
        }
    }
}

/// The csv crate reads a quoted field that is never closed to the end of the file, as if the
/// file closed it.
const UNCLOSED: &str =
    "a quoted field opens here and is never closed (it runs to the end of the file)";

pub(super) fn read_csv(bytes: &[u8], sink: &mut Sink) -> Result<()> {
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(bytes);
    let headers = rdr
        .headers()
        .map_err(|e| sink.error(1, format!("cannot read the CSV header: {e}")))?
        .clone();
    let open_quote = unclosed_quote(bytes);
    if let Some((quote_line, quote_at)) = open_quote {
        if quote_at < rdr.position().byte() as usize {
            return Err(sink.error(quote_line, UNCLOSED.into()));
        }
    }
    let col = |name: &str| headers.iter().position(|h| h.eq_ignore_ascii_case(name));
    let (white, black, result) = match (col("white"), col("black"), col("result")) {
        (Some(w), Some(b), Some(r)) => (w, b, r),
        _ => {
            return Err(sink.error(
                1,
                format!(
                    "the CSV header must name the columns white, black and result (found: {})",
                    headers.iter().collect::<Vec<_>>().join(",")
                ),
            ))
        }
    };
    no_column_twice(&headers, sink)?;
    let pair_col = col("pair_id");
    let (plies_col, term_col) = (col("plies"), col("termination"));
    let mut record = csv::StringRecord::new();
    loop {
        let line_hint = rdr.position().line();
        match rdr.read_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(err) => {
                let line = err.position().map_or(line_hint, |p| p.line());
                sink.problem(line, &format!("malformed CSV: {err}"))?;
                continue;
            }
        }
        let line = record.position().map_or(line_hint, |p| p.line());
        if let Some((quote_line, quote_at)) = open_quote {
            let start = record.position().map_or(0, |p| p.byte()) as usize;
            if (start..rdr.position().byte() as usize).contains(&quote_at) {
                sink.problem(quote_line, UNCLOSED)?;
                continue;
            }
        }
        if record.len() == 1 && record[0].is_empty() {
            continue;
        }
        if record.len() != headers.len() {
            sink.problem(
                line,
                &format!(
                    "{} fields where the header has {}",
                    record.len(),
                    headers.len()
                ),
            )?;
            continue;
        }
        let (w, b) = (&record[white], &record[black]);
        if w.is_empty() || b.is_empty() {
            sink.problem(line, "empty player name")?;
            continue;
        }
        if w == b {
            sink.problem(line, &format!("player '{w}' plays against itself"))?;
            continue;
        }
        let Some(res) = GameResult::parse(&record[result]) else {
            sink.problem(
                line,
                &format!(
                    "result '{}' is not a finished game (expected 1-0, 0-1 or 1/2-1/2)",
                    &record[result]
                ),
            )?;
            continue;
        };
        let pair = pair_col
            .map(|c| &record[c])
            .filter(|k| !k.is_empty())
            .map(|k| {
                let id = sink.pairs.id(sink.file_index, k);
                let index = sink.report.games.len();
                sink.pairs
                    .member(id, &sink.file, format!("pair_id '{k}'"), line, index);
                id
            });
        let text = |c: Option<usize>| c.map(|c| &record[c]).filter(|t| !t.is_empty());
        sink.report.games.push(Game {
            white: w.to_string(),
            black: b.to_string(),
            result: res,
            pair,
            plies: text(plies_col).and_then(|t| t.parse().ok()),
            termination: text(term_col).map(str::to_string),
        });
    }
    Ok(())
}

/// A column named twice in the header: which of the two is meant cannot be told.
fn no_column_twice(headers: &csv::StringRecord, sink: &mut Sink) -> Result<()> {
    for name in [
        "white",
        "black",
        "result",
        "pair_id",
        "plies",
        "termination",
    ] {
        let mut at = headers
            .iter()
            .enumerate()
            .filter(|(_, h)| h.eq_ignore_ascii_case(name))
            .map(|(i, _)| i + 1);
        if let (Some(a), Some(b)) = (at.next(), at.next()) {
            return Err(sink.error(
                1,
                format!("the CSV header names the column {name} twice (columns {a} and {b})"),
            ));
        }
    }
    Ok(())
}

/// The line and byte offset of a quote that opens a field and is never closed, read as the csv
/// crate reads (RFC 4180: a quote opens a field only at its start, `""` inside is one quote).
fn unclosed_quote(bytes: &[u8]) -> Option<(u64, usize)> {
    let start = if bytes.starts_with(b"\xef\xbb\xbf") {
        3
    } else {
        0
    };
    let (mut line, mut field_start, mut open) = (1u64, true, None);
    let mut i = start;
    while i < bytes.len() {
        let b = bytes[i];
        match open {
            Some(_) if b == b'"' && bytes.get(i + 1) == Some(&b'"') => i += 1,
            Some(_) if b == b'"' => open = None,
            None if b == b'"' && field_start => open = Some((line, i)),
            _ => {}
        }
        field_start = open.is_none() && matches!(b, b',' | b'\n' | b'\r');
        if b == b'\n' {
            line += 1;
        }
        i += 1;
    }
    open
}
