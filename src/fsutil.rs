//! Reading a file the user named (a StrengthTable, a config, a book, a pool file, games): it
//! must be a regular file, and it is read with a cap suited to its kind. A FIFO would block the
//! reader until a writer came, and `/dev/zero` would fill memory, so the kind is checked from
//! the metadata before the file is opened, and the read stops one byte past the cap.
//!
//! Errors are `std::io::Error`s (kind `InvalidInput`) whose message gives the reason, so every
//! caller's [`FileError`] ("cannot read PATH: ...") names the file.

use std::fs::{File, OpenOptions};
use std::io::{Error, ErrorKind, Read, Write};
use std::path::{Path, PathBuf};

/// A UCI_Elo table (`StrengthTable`): a few hundred rows at most.
pub const TABLE_CAP: u64 = 4 << 20;
/// A TOML config (calibration, match, pool, a pool run's `pool.toml`).
pub const CONFIG_CAP: u64 = 4 << 20;
/// An opening book (EPD or PGN): the largest common books are tens of MB.
pub const BOOK_CAP: u64 = 256 << 20;
/// A network file (lc0's `.pb.gz`): the largest lc0 nets are a few hundred MB.
pub const NET_CAP: u64 = 1 << 30;
/// Games read whole (PGN or CSV, a run's CSV files): a run's games or a month of rated games.
pub const GAMES_CAP: u64 = 2 << 30;

/// What the path names, when it is not a regular file.
fn kind(meta: &std::fs::Metadata) -> &'static str {
    let t = meta.file_type();
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_char_device() {
            return "a character device";
        }
        if t.is_block_device() {
            return "a block device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_dir() {
        "a directory"
    } else {
        "not a file"
    }
}

fn invalid(message: String) -> Error {
    Error::new(ErrorKind::InvalidInput, message)
}

/// Reading or writing a file or folder failed: `cannot {action} {path}: {source}`. The one file
/// error: each room's error type wraps it, so every such message names the file alike.
#[derive(Debug, thiserror::Error)]
#[error("cannot {action} {}: {source}", path.display())]
pub struct FileError {
    /// What was being done: `read`, `write`, `create`, `open`, ...
    pub action: &'static str,
    pub path: PathBuf,
    pub source: Error,
}

impl FileError {
    /// `action` on `path` failed with `source`.
    pub fn new(action: &'static str, path: &Path, source: Error) -> FileError {
        FileError {
            action,
            path: path.to_path_buf(),
            source,
        }
    }

    /// Reading `path` failed.
    pub fn read(path: &Path, source: Error) -> FileError {
        FileError::new("read", path, source)
    }

    /// Writing `path` failed.
    pub fn write(path: &Path, source: Error) -> FileError {
        FileError::new("write", path, source)
    }
}

/// Opens `path` for reading after checking (without opening it) that it is a regular file.
/// For a caller that streams a large file itself.
pub fn open_regular(path: &Path) -> std::io::Result<File> {
    let meta = std::fs::metadata(path)?;
    if !meta.is_file() {
        return Err(invalid(format!("not a regular file ({})", kind(&meta))));
    }
    File::open(path)
}

/// Reads a regular file of at most `cap` bytes.
pub fn read_capped(path: &Path, cap: u64) -> std::io::Result<Vec<u8>> {
    let file = open_regular(path)?;
    let mut bytes = Vec::new();
    // one byte past the cap tells a file at the cap from a longer one
    file.take(cap.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        let size = match cap >> 20 {
            0 => format!("{cap} bytes"),
            mb => format!("{mb} MB"),
        };
        return Err(invalid(format!(
            "larger than {size}, the most read for a file of this kind"
        )));
    }
    Ok(bytes)
}

/// [`read_capped`] as UTF-8 text.
pub fn read_text_capped(path: &Path, cap: u64) -> std::io::Result<String> {
    String::from_utf8(read_capped(path, cap)?)
        .map_err(|e| Error::new(ErrorKind::InvalidData, format!("not UTF-8 text: {e}")))
}

/// The length of the complete lines at the start of `bytes`: everything up to and including the
/// last newline. A file written a line at a time and killed mid-write ends in a line without its
/// newline, which was never finished.
pub fn complete_len(bytes: &[u8]) -> usize {
    bytes.iter().rposition(|b| *b == b'\n').map_or(0, |i| i + 1)
}

/// An append-only text file written a line (or a few) at a time and flushed after each, so that
/// a killed writer leaves at most its last line torn; opening the file again cuts that line off.
/// The one shape of the run folders' logs: games.csv, the evaluation cache, matching's chunks.
pub struct AppendLog {
    file: File,
    path: PathBuf,
}

impl AppendLog {
    /// Opens (or creates) `path` and returns it with its complete lines, a torn last line cut
    /// from the file.
    pub fn open(path: &Path) -> std::io::Result<(AppendLog, String)> {
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)?;
        let mut text = String::new();
        file.read_to_string(&mut text)?;
        let whole = complete_len(text.as_bytes());
        if whole != text.len() {
            file.set_len(whole as u64)?;
            text.truncate(whole);
        }
        let path = path.to_path_buf();
        Ok((AppendLog { file, path }, text))
    }

    /// Appends `text` (whole lines) and flushes it.
    pub fn append(&mut self, text: &str) -> std::io::Result<()> {
        self.file.write_all(text.as_bytes())?;
        self.file.flush()
    }

    /// Replaces the file's text with `text` (a header brought up to date, rows dropped): written
    /// beside it and renamed over it, so a kill leaves the old file or the new one, never half.
    pub fn rewrite(&mut self, text: &str) -> std::io::Result<()> {
        let mut tmp = self.path.clone().into_os_string();
        tmp.push(".tmp");
        std::fs::write(&tmp, text)?;
        std::fs::rename(&tmp, &self.path)?;
        self.file = OpenOptions::new().append(true).open(&self.path)?;
        Ok(())
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_devices_and_directories_and_caps_the_read() {
        let e = read_capped(Path::new("/dev/zero"), 10).unwrap_err();
        assert!(e.to_string().contains("a character device"), "{e}");
        let e = read_capped(Path::new("/"), 10).unwrap_err();
        assert!(e.to_string().contains("a directory"), "{e}");
        let dir = std::env::temp_dir().join(format!("fsutil-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("ten");
        std::fs::write(&f, b"0123456789").unwrap();
        assert_eq!(read_capped(&f, 10).unwrap().len(), 10);
        assert!(read_capped(&f, 9)
            .unwrap_err()
            .to_string()
            .contains("larger than"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_append_log_cuts_a_torn_last_line_and_rewrites_whole() {
        let dir = std::env::temp_dir().join(format!("fsutil-log-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("log.csv");
        std::fs::write(&f, "a,b\n1,2\n3,").unwrap();
        let (mut log, text) = AppendLog::open(&f).unwrap();
        assert_eq!(text, "a,b\n1,2\n");
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "a,b\n1,2\n");
        log.append("5,6\n").unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "a,b\n1,2\n5,6\n");
        log.rewrite("a,b,c\n").unwrap();
        log.append("7,8,9\n").unwrap();
        assert_eq!(std::fs::read_to_string(&f).unwrap(), "a,b,c\n7,8,9\n");
        assert!(!dir.join("log.csv.tmp").exists());
        assert_eq!(complete_len(b"no newline"), 0);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
