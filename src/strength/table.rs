//! The UCI_Elo table: target Elo -> knob settings, by interpolation between measured rows.
//!
//! Format (CSV, `#` lines and blank lines ignored): a header whose first column is `elo`, then one
//! column per knob named exactly as its UCI option (see [`Knob`]), then optionally interval
//! columns whose names end in `_lower` or `_upper` and the rows' human-scale equivalents
//! (`lichess_blitz`, `lichess_rapid`), both written by the calibration and ignored here.
//! Rows are strictly increasing in `elo`. A comment line starting `# provisional` marks the table
//! as provisional (reported with the chosen settings).

use std::fmt;
use std::path::Path;

use super::knob::{Kind, Knob, Value};

/// The table embedded at build time for the default `Style` (blend); the other families' are in
/// `Family::table_csv` (strength/family.rs).
pub const EMBEDDED_CSV: &str = include_str!("../../configs/uci_elo_table.csv");
/// How the embedded table is named in messages and in the `StrengthTable` option.
pub const EMBEDDED_NAME: &str = "<embedded>";
/// The Elo a table row, and so a calibration target, may name: no scale this tool measures on
/// puts a chess player below 0 or above 4000, so a row beyond is a damaged file (a 300-digit
/// row was loaded and clamped to).
pub const ELO_BOUNDS: (f64, f64) = (0.0, 4000.0);

/// A table error naming the file and line (line 0: the file as a whole).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableError {
    pub file: String,
    pub line: usize,
    pub message: String,
}

impl std::error::Error for TableError {}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.message)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.message)
        }
    }
}

/// One row: an Elo and a value for each of the table's knob columns.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub elo: f64,
    pub values: Vec<(Knob, Value)>,
}

impl Row {
    /// `Name=value,...` in column order, as `setoption` takes it.
    pub fn to_spec(&self) -> String {
        let parts: Vec<String> = self
            .values
            .iter()
            .map(|(k, v)| match v {
                // Interpolated reals: 4 decimals, not 0.30000000000000004.
                Value::Num(x) if x.fract() != 0.0 => {
                    let text = format!("{x:.4}");
                    let text = text.trim_end_matches('0').trim_end_matches('.');
                    format!("{}={text}", k.name())
                }
                _ => format!("{}={v}", k.name()),
            })
            .collect();
        parts.join(",")
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct EloTable {
    source: String,
    provisional: bool,
    knobs: Vec<Knob>,
    rows: Vec<Row>,
    /// Rows the calibration flagged beyond its path (`# 800: beyond the engine's range on this
    /// path (floor): plays at 966`): the row's Elo, `floor` or `ceiling`, and where it plays.
    beyond: Vec<(f64, String, f64)>,
}

/// The flag of a calibration's comment line `# TARGET: ...; beyond the engine's range on this
/// path (FLAG): plays at ELO`, if it is one.
fn beyond_flag(comment: &str) -> Option<(f64, String, f64)> {
    let (target, rest) = comment.trim().split_once(": ")?;
    let target: f64 = target.trim().parse().ok()?;
    let rest = rest
        .split("beyond the engine's range on this path (")
        .nth(1)?;
    let (flag, rest) = rest.split_once("): plays at ")?;
    let plays: f64 = rest.split(';').next()?.trim().parse().ok()?;
    Some((target, flag.to_string(), plays))
}

/// The fields of one CSV line (quoted fields may hold commas and doubled quotes), trimmed.
fn split_csv_line(line: &str) -> Vec<String> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(false)
        .trim(csv::Trim::All)
        .flexible(true)
        .from_reader(line.as_bytes());
    let mut record = csv::StringRecord::new();
    match reader.read_record(&mut record) {
        Ok(true) => record.iter().map(str::to_string).collect(),
        // An unreadable line gives no fields: the caller reports the width mismatch.
        _ => Vec::new(),
    }
}

impl EloTable {
    /// The embedded table of the default `Style` (`blend`, from `configs/uci_elo_table.csv`).
    pub fn embedded() -> &'static EloTable {
        static TABLE: std::sync::OnceLock<EloTable> = std::sync::OnceLock::new();
        TABLE.get_or_init(|| {
            EloTable::parse(EMBEDDED_CSV, EMBEDDED_NAME)
                .expect("configs/uci_elo_table.csv is checked by the tests")
        })
    }

    /// Loads a table file; errors name the file and line.
    pub fn load(path: &Path) -> Result<EloTable, TableError> {
        let file = path.display().to_string();
        let text =
            crate::fsutil::read_text_capped(path, crate::fsutil::TABLE_CAP).map_err(|e| {
                TableError {
                    file: file.clone(),
                    line: 0,
                    message: format!("cannot read: {e}"),
                }
            })?;
        EloTable::parse(&text, &file)
    }

    /// Parses table text; `source` names it in errors.
    pub fn parse(text: &str, source: &str) -> Result<EloTable, TableError> {
        let err = |line: usize, message: String| TableError {
            file: source.to_string(),
            line,
            message,
        };
        let mut provisional = false;
        let mut beyond = Vec::new();
        // the columns' knobs (None: `elo` and interval columns) and names
        let mut header: Option<(Vec<Option<Knob>>, Vec<String>)> = None;
        let mut rows: Vec<Row> = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line_no = i + 1;
            let line = raw.trim();
            if line.is_empty() {
                continue;
            }
            if let Some(comment) = line.strip_prefix('#') {
                if comment
                    .trim_start()
                    .to_ascii_lowercase()
                    .starts_with("provisional")
                {
                    provisional = true;
                }
                beyond.extend(beyond_flag(comment));
                continue;
            }
            let cells = split_csv_line(line);
            if cells.is_empty() {
                return Err(err(line_no, "malformed CSV line".into()));
            }
            let Some((columns, names)) = &header else {
                let columns = parse_header(&cells).map_err(|m| err(line_no, m))?;
                // a table without knob columns would set nothing: full strength at every Elo
                if columns.iter().all(Option::is_none) {
                    return Err(err(
                        line_no,
                        format!(
                            "no knob column: the table sets nothing (knob columns: {})",
                            knob_names()
                        ),
                    ));
                }
                header = Some((columns, cells));
                continue;
            };
            let width = names.len();
            if cells.len() != width {
                return Err(err(
                    line_no,
                    format!("{} fields, the header has {width}", cells.len()),
                ));
            }
            let elo: f64 = cells[0]
                .parse()
                .ok()
                .filter(|e: &f64| e.is_finite())
                .ok_or_else(|| err(line_no, format!("elo '{}' is not a number", cells[0])))?;
            let (lo, hi) = ELO_BOUNDS;
            if !(lo..=hi).contains(&elo) {
                return Err(err(
                    line_no,
                    format!("elo '{}' is outside {lo}..={hi}", cells[0]),
                ));
            }
            if let Some(prev) = rows.last() {
                if elo <= prev.elo {
                    return Err(err(
                        line_no,
                        format!("elo {elo} does not increase (previous row {})", prev.elo),
                    ));
                }
            }
            let mut values = Vec::new();
            for ((cell, column), name) in cells.iter().zip(columns).zip(names).skip(1) {
                if let Some(knob) = column {
                    let v = knob
                        .parse_value(cell)
                        .map_err(|m| err(line_no, format!("column {}: {m}", knob.name())))?;
                    values.push((*knob, v));
                } else if !cell.is_empty() && cell.parse::<f64>().is_err() {
                    // unused here (empty: no interval), but a value that is no number says the
                    // file is not what the calibration wrote
                    return Err(err(
                        line_no,
                        format!("column {name}: '{cell}' is not a number"),
                    ));
                }
            }
            rows.push(Row { elo, values });
        }
        let Some((columns, _)) = header else {
            return Err(err(
                0,
                "no header line (expected `elo,<knob>,...`)".to_string(),
            ));
        };
        if rows.is_empty() {
            return Err(err(0, "no rows after the header".to_string()));
        }
        Ok(EloTable {
            source: source.to_string(),
            provisional,
            knobs: columns.into_iter().flatten().collect(),
            rows,
            beyond,
        })
    }

    /// Where the table came from (a path or `<embedded>`).
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Whether a `# provisional` comment marks it as not measured.
    pub fn provisional(&self) -> bool {
        self.provisional
    }

    /// The knob columns, in file order.
    pub fn knobs(&self) -> &[Knob] {
        &self.knobs
    }

    pub fn rows(&self) -> &[Row] {
        &self.rows
    }

    /// The Elo range the table covers; requests outside it are clamped.
    pub fn elo_range(&self) -> (f64, f64) {
        (self.rows[0].elo, self.rows[self.rows.len() - 1].elo)
    }

    /// Whether the settings for `elo` (as [`Self::settings_for_elo`] picks them) lie beyond
    /// the calibrated path, by the table's own comments: `("floor" or "ceiling", the Elo
    /// they play at)`. Between two rows, only when both are flagged alike.
    pub fn beyond_range(&self, elo: f64) -> Option<(&str, f64)> {
        let (lo, hi) = self.elo_range();
        let elo = if elo.is_nan() { lo } else { elo.clamp(lo, hi) };
        let flag = |e: f64| self.beyond.iter().find(|b| b.0 == e);
        let i = self.rows.iter().rposition(|r| r.elo <= elo).unwrap_or(0);
        let below = flag(self.rows[i].elo)?;
        if self.rows[i].elo < elo {
            let above = flag(self.rows.get(i + 1)?.elo)?;
            if above.1 != below.1 {
                return None;
            }
        }
        Some((below.1.as_str(), below.2))
    }

    /// The settings for a target Elo. Clamped to the first/last row outside the table; between
    /// rows `lo <= elo < hi`, with `t = (elo - lo.elo) / (hi.elo - lo.elo)`, each column is:
    /// - `NoiseModel`: the lower row's model (a step, no mixing of models);
    /// - a limit where either row says 0 (no limit): the nearer row's value (`t < 0.5` -> lower);
    /// - `LimitNodes`, `LimitNps`: log-linear, `exp(ln a + t (ln b - ln a))` (nodes act on strength
    ///   through their logarithm);
    /// - any other knob: linear, `a + t (b - a)`;
    ///
    /// and integer knobs are rounded to the nearest integer.
    pub fn settings_for_elo(&self, elo: f64) -> Row {
        let (lo_elo, hi_elo) = self.elo_range();
        if elo.is_nan() || elo <= lo_elo {
            return self.rows[0].clone();
        }
        if elo >= hi_elo {
            return self.rows[self.rows.len() - 1].clone();
        }
        let i = self.rows.iter().rposition(|r| r.elo <= elo).unwrap_or(0);
        let (lo, hi) = (&self.rows[i], &self.rows[i + 1]);
        let t = (elo - lo.elo) / (hi.elo - lo.elo);
        let values = lo
            .values
            .iter()
            .zip(&hi.values)
            .map(|(&(knob, a), &(_, b))| (knob, interpolate(knob, a, b, t)))
            .collect();
        Row { elo, values }
    }
}

fn interpolate(knob: Knob, a: Value, b: Value, t: f64) -> Value {
    let (Value::Num(a), Value::Num(b)) = (a, b) else {
        return a;
    };
    match knob.kind() {
        Kind::Int {
            unlimited_zero,
            log,
            ..
        } => {
            let v = if unlimited_zero && (a == 0.0 || b == 0.0) {
                if t < 0.5 {
                    a
                } else {
                    b
                }
            } else if log {
                (a.ln() + t * (b.ln() - a.ln())).exp()
            } else {
                a + t * (b - a)
            };
            Value::Num(v.round())
        }
        Kind::Float { .. } => Value::Num(a + t * (b - a)),
        Kind::Model => Value::Num(a),
    }
}

fn knob_names() -> String {
    let names: Vec<&str> = Knob::ALL.iter().map(|k| k.name()).collect();
    names.join(", ")
}

/// Maps header cells to knobs (`None` for `elo` and interval columns).
fn parse_header(cells: &[String]) -> Result<Vec<Option<Knob>>, String> {
    if !cells[0].eq_ignore_ascii_case("elo") {
        return Err(format!(
            "the first column must be `elo`, found '{}'",
            cells[0]
        ));
    }
    let mut columns = vec![None];
    let mut seen = Vec::new();
    for cell in &cells[1..] {
        if let Some(knob) = Knob::from_name(cell) {
            if seen.contains(&knob) {
                return Err(format!("column {} appears twice", knob.name()));
            }
            seen.push(knob);
            columns.push(Some(knob));
        } else if cell.ends_with("_lower")
            || cell.ends_with("_upper")
            || super::elo_scale::is_human_column(cell)
        {
            columns.push(None);
        } else {
            return Err(format!(
                "unknown column '{cell}' (knob columns: {}; interval columns end in _lower/_upper; \
                 human-scale columns: {})",
                knob_names(),
                super::elo_scale::human_columns().join(", ")
            ));
        }
    }
    Ok(columns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_lines_keep_quoted_commas() {
        assert_eq!(
            split_csv_line(r#"1500,"a,b","say ""hi""", 7 "#),
            vec!["1500", "a,b", r#"say "hi""#, "7"]
        );
    }
}
