//! Reading and writing the CSV files of a run with csv + serde; every error names its file.
//!
//! Reading is strict: a row with more or fewer fields than the header, a last line cut short
//! (no newline after it), or a row its type finds inconsistent ([`CsvRow::check`]) is an error
//! naming file and line. A file cut inside its last row otherwise reads as a short row whose
//! missing trailing fields serde fills with `None` (or, worse, with a cut number).

use std::path::Path;

use serde::{de::DeserializeOwned, Serialize};

use super::error::ResultsError;
use crate::fsutil::FileError;

/// A row type of a results CSV: what [`read_csv`] checks beyond the fields' own parsing.
pub trait CsvRow: DeserializeOwned {
    /// The file is appended a row at a time while games are played (games.csv): its last line
    /// without a newline is a row a kill cut short, left out as the arena's store leaves it out
    /// (and replays the game). A file written whole ends with a newline, so there it is an error.
    const APPENDED: bool = false;
    /// The writer puts the header in before any row (the arena's games.csv), so a 0-byte file is
    /// damage; [`write_csv`] writes nothing for no rows, so elsewhere it reads as none.
    const HEADER_REQUIRED: bool = false;
    /// What is inconsistent in the row (say, wins and draws adding up to more than the games).
    fn check(&self) -> Result<(), String> {
        Ok(())
    }
}

/// uci_elo_table.csv read by column name (its columns depend on the path's knobs).
impl CsvRow for std::collections::HashMap<String, String> {}

pub(super) fn csv_error(path: &Path, e: csv::Error, write: bool) -> ResultsError {
    let line = e.position().map_or(0, |p| p.line());
    let message = match e.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("{len} fields where the header has {expected_len}"),
        _ => e.to_string(),
    };
    match e.into_kind() {
        csv::ErrorKind::Io(source) if write => FileError::write(path, source).into(),
        csv::ErrorKind::Io(source) => FileError::read(path, source).into(),
        _ => ResultsError::Parse {
            path: path.to_path_buf(),
            line,
            message,
        },
    }
}

/// What serde could not read in a row, by column and value: csv's own message says only
/// `field 2: invalid digit found in string`.
pub(super) fn field_message(
    headers: &csv::StringRecord,
    record: &csv::StringRecord,
    e: &csv::DeserializeError,
) -> String {
    use csv::DeserializeErrorKind as Kind;
    let at = e.field().and_then(|i| usize::try_from(i).ok());
    let (Some(column), Some(value)) = (
        at.and_then(|i| headers.get(i)),
        at.and_then(|i| record.get(i)),
    ) else {
        return e.kind().to_string();
    };
    match e.kind() {
        // every integer column of the results counts something (games, plies, ids)
        Kind::ParseInt(_) => format!("column `{column}`: `{value}` is not a whole number >= 0"),
        Kind::ParseFloat(_) => format!("column `{column}`: `{value}` is not a number"),
        Kind::ParseBool(_) => format!("column `{column}`: `{value}` is not true or false"),
        kind => format!("column `{column}`: `{value}`: {kind}"),
    }
}

/// Reads a CSV with a header into rows (`#` lines are comments); errors name the file and line.
/// A header-only file has no rows; see [`read_csv_rows`] where rows are required.
pub fn read_csv<T: CsvRow>(path: &Path) -> Result<Vec<T>, ResultsError> {
    Ok(read_csv_lines(path)?.into_iter().map(|(_, r)| r).collect())
}

/// [`read_csv`] with each row's line in the file, for checks across rows (a pair given twice)
/// to name both lines.
pub fn read_csv_lines<T: CsvRow>(path: &Path) -> Result<Vec<(u64, T)>, ResultsError> {
    let bytes = crate::fsutil::read_capped(path, crate::fsutil::GAMES_CAP)
        .map_err(|source| FileError::read(path, source))?;
    if bytes.is_empty() && T::HEADER_REQUIRED {
        return Err(ResultsError::Invalid {
            path: path.to_path_buf(),
            message: "empty file: not even the header its writer puts in first".into(),
        });
    }
    let mut text = bytes.as_slice();
    if !text.is_empty() && !text.ends_with(b"\n") {
        let at = crate::fsutil::complete_len(text);
        if !T::APPENDED || at == 0 {
            let line = 1 + text.iter().filter(|b| **b == b'\n').count() as u64;
            return Err(ResultsError::Parse {
                path: path.to_path_buf(),
                line,
                message: "the file ends inside this line (no newline after it): cut short?".into(),
            });
        }
        text = &text[..at];
    }
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(text);
    let headers = reader
        .headers()
        .map_err(|e| csv_error(path, e, false))?
        .clone();
    let mut rows = Vec::new();
    let mut record = csv::StringRecord::new();
    while reader
        .read_record(&mut record)
        .map_err(|e| csv_error(path, e, false))?
    {
        let line = record.position().map_or(0, |p| p.line());
        let row: T = record
            .deserialize(Some(&headers))
            .map_err(|e| match e.kind() {
                csv::ErrorKind::Deserialize { err, .. } => ResultsError::Parse {
                    path: path.to_path_buf(),
                    line,
                    message: field_message(&headers, &record, err),
                },
                _ => csv_error(path, e, false),
            })?;
        if let Err(message) = row.check() {
            return Err(ResultsError::Parse {
                path: path.to_path_buf(),
                line,
                message,
            });
        }
        rows.push((line, row));
    }
    Ok(rows)
}

/// [`read_csv`] where the file must hold rows: an empty or header-only file is an error.
pub fn read_csv_rows<T: CsvRow>(path: &Path) -> Result<Vec<T>, ResultsError> {
    let rows = read_csv(path)?;
    if rows.is_empty() {
        return Err(ResultsError::Invalid {
            path: path.to_path_buf(),
            message: "holds no rows (empty, or a header only)".into(),
        });
    }
    Ok(rows)
}

/// [`read_csv`], or no rows when the file does not exist.
pub fn read_csv_or_empty<T: CsvRow>(path: &Path) -> Result<Vec<T>, ResultsError> {
    if path.exists() {
        read_csv(path)
    } else {
        Ok(Vec::new())
    }
}

/// Writes rows as CSV with a header (replacing the file).
pub fn write_csv<T: Serialize>(path: &Path, rows: &[T]) -> Result<(), ResultsError> {
    let mut writer = csv::Writer::from_path(path).map_err(|e| csv_error(path, e, true))?;
    for row in rows {
        writer
            .serialize(row)
            .map_err(|e| csv_error(path, e, true))?;
    }
    writer
        .flush()
        .map_err(|source| FileError::write(path, source).into())
}

/// One row as a CSV line (no header), newline-terminated: what an append-only file adds a row at
/// a time.
pub fn csv_line<T: Serialize>(row: &T) -> Result<String, String> {
    let mut w = csv::WriterBuilder::new()
        .has_headers(false)
        .from_writer(Vec::with_capacity(256));
    w.serialize(row)
        .map_err(|e| format!("cannot format a row: {e}"))?;
    let bytes = w
        .into_inner()
        .map_err(|e| format!("cannot format a row: {e}"))?;
    String::from_utf8(bytes).map_err(|e| format!("a row: {e}"))
}

/// Appends one row, writing the header first when the file is new.
pub fn append_csv<T: Serialize>(path: &Path, row: &T) -> Result<(), ResultsError> {
    let new = !path.exists();
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|source| FileError::write(path, source))?;
    let mut writer = csv::WriterBuilder::new().has_headers(new).from_writer(file);
    writer
        .serialize(row)
        .map_err(|e| csv_error(path, e, true))?;
    writer
        .flush()
        .map_err(|source| FileError::write(path, source).into())
}
