//! An exclusive lock on an output directory for the whole of a run, so two runs never write
//! the same games. The lock is the operating system's (`flock` through `std::fs::File::lock`):
//! it goes away with its process, so a lock left by a killed run is simply taken over. The
//! lock file also says who holds it (pid, host, start time) for the error a second run gets.
//!
//! `skillcal match` takes it on `--out`; calibrate and verify can take it on their run
//! directory with [`lock_dir`] (a different directory from the match directories below it:
//! the lock is per directory, and one process cannot hold the same directory's lock twice).

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use super::error::{ArenaError, IoContext, Result};

/// The lock file's name inside a locked directory.
pub const LOCK_FILE: &str = ".skillcal.lock";

/// A held directory lock; released when dropped (or when the process ends).
#[derive(Debug)]
pub struct RunLock {
    path: PathBuf,
    _file: File,
}

impl RunLock {
    /// Locks `dir` (which must exist) or fails at once naming the holder.
    pub fn acquire(dir: &Path) -> Result<RunLock> {
        let path = dir.join(LOCK_FILE);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .at("open lock file", &path)?;
        match try_lock_settling(&mut file) {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let holder = read_holder(&mut file);
                let holder = holder.trim();
                let who = if holder.is_empty() {
                    "another process".to_string()
                } else {
                    holder.to_string()
                };
                return Err(ArenaError::Locked(format!(
                    "{} is in use by {who} (lock file {}); wait for that run to end or use another directory",
                    dir.display(),
                    path.display()
                )));
            }
            Err(TryLockError::Error(e)) => return Err(ArenaError::io("lock", &path, e)),
        }
        let me = format!(
            "pid {} on host {} since {}\n",
            std::process::id(),
            super::pgn::hostname(),
            utc_now()
        );
        file.set_len(0)
            .and_then(|_| file.seek(SeekFrom::Start(0)))
            .and_then(|_| file.write_all(me.as_bytes()))
            .and_then(|_| file.flush())
            .at("write lock file", &path)?;
        Ok(RunLock { path, _file: file })
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// How long a lock this process released may stay held by a child another thread is starting:
/// between fork and exec the child shares every descriptor, the lock's among them.
const SETTLE: std::time::Duration = std::time::Duration::from_millis(1000);

/// `try_lock`, retried for up to [`SETTLE`] while the file names this process as the holder
/// (only a just-dropped lock of ours, still shared by a starting child, can look like that);
/// another process's lock is refused at once.
fn try_lock_settling(file: &mut File) -> std::result::Result<(), TryLockError> {
    let start = std::time::Instant::now();
    loop {
        match file.try_lock() {
            Err(TryLockError::WouldBlock)
                if start.elapsed() < SETTLE
                    && holder_pid(&read_holder(file)) == Some(std::process::id()) =>
            {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            other => return other,
        }
    }
}

/// The lock file's text (`pid N on host H since T`), or empty when unreadable.
fn read_holder(file: &mut File) -> String {
    let mut holder = String::new();
    let _ = file
        .seek(SeekFrom::Start(0))
        .and_then(|_| file.read_to_string(&mut holder));
    holder
}

/// The pid a lock file's text names.
fn holder_pid(text: &str) -> Option<u32> {
    text.strip_prefix("pid ")?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Locks an output directory for a run, creating it if needed (see [`RunLock::acquire`]).
pub fn lock_dir(dir: &Path) -> Result<RunLock> {
    std::fs::create_dir_all(dir).at("create output directory", dir)?;
    RunLock::acquire(dir)
}

/// `YYYY-MM-DD HH:MM:SS UTC` from the system clock.
fn utc_now() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let day = super::pgn::civil_date(secs / 86_400).replace('.', "-");
    let s = secs % 86_400;
    format!("{day} {:02}:{:02}:{:02} UTC", s / 3600, s / 60 % 60, s % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn second_holder_is_refused_and_named_then_takes_over() {
        let dir = std::env::temp_dir().join(format!("skillcal-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let first = lock_dir(&dir).unwrap();
        let err = lock_dir(&dir).unwrap_err().to_string();
        assert!(
            err.contains(&format!("pid {}", std::process::id())) && err.contains("since"),
            "{err}"
        );
        drop(first);
        let again = lock_dir(&dir).unwrap();
        assert!(again.path().ends_with(LOCK_FILE));
        drop(again);
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A lock of ours still shared for a moment (as by a child between fork and exec) is
    /// waited for, not refused.
    #[test]
    fn a_lock_of_ours_released_a_moment_later_is_taken() {
        let dir = std::env::temp_dir().join(format!("skillcal-lock-settle-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let first = lock_dir(&dir).unwrap();
        let release = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(150));
            drop(first);
        });
        let again = lock_dir(&dir).unwrap();
        release.join().unwrap();
        drop(again);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
