//! Reading and writing the CSV files of a run with csv + serde; every error names its file.

use std::path::Path;

use serde::{de::DeserializeOwned, Serialize};

use super::ResultsError;

fn csv_error(path: &Path, e: csv::Error, write: bool) -> ResultsError {
    let line = e.position().map_or(0, |p| p.line());
    let message = e.to_string();
    let path = path.to_path_buf();
    match e.into_kind() {
        csv::ErrorKind::Io(source) if write => ResultsError::Write { path, source },
        csv::ErrorKind::Io(source) => ResultsError::Read { path, source },
        _ => ResultsError::Parse {
            path,
            line,
            message,
        },
    }
}

/// Reads a CSV with a header into rows (`#` lines are comments); errors name the file and line.
pub fn read_csv<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>, ResultsError> {
    let mut reader = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .flexible(true)
        .from_path(path)
        .map_err(|e| csv_error(path, e, false))?;
    reader
        .deserialize()
        .map(|r| r.map_err(|e| csv_error(path, e, false)))
        .collect()
}

/// [`read_csv`], or no rows when the file does not exist.
pub fn read_csv_or_empty<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>, ResultsError> {
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
    writer.flush().map_err(|source| ResultsError::Write {
        path: path.to_path_buf(),
        source,
    })
}

/// Appends one row, writing the header first when the file is new.
pub fn append_csv<T: Serialize>(path: &Path, row: &T) -> Result<(), ResultsError> {
    let new = !path.exists();
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|source| ResultsError::Write {
            path: path.to_path_buf(),
            source,
        })?;
    let mut writer = csv::WriterBuilder::new().has_headers(new).from_writer(file);
    writer
        .serialize(row)
        .map_err(|e| csv_error(path, e, true))?;
    writer.flush().map_err(|source| ResultsError::Write {
        path: path.to_path_buf(),
        source,
    })
}
