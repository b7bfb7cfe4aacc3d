//! What wrote a run folder, told by the file each command writes there first: the one place
//! that decides it (a command refusing another's folder, `report` choosing its page, the
//! refit hint for a stopped run).

use std::path::Path;

/// The kinds of run folder, each marked by its own file at the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunKind {
    /// `skillcal calibrate`: `calibrate.toml`.
    Calibration,
    /// `skillcal pool`: `pool.toml`.
    Pool,
    /// `skillcal verify` or `tc-check`: `verified-table.csv`.
    Verification,
    /// `skillcal match`: `match.toml`.
    Match,
}

impl RunKind {
    /// In the order a folder is told by: a calibration's matches hold their own `match.toml`
    /// one level down, never at the top, but the order keeps the decision one.
    pub const ALL: [RunKind; 4] = [
        RunKind::Calibration,
        RunKind::Pool,
        RunKind::Verification,
        RunKind::Match,
    ];

    /// The file that marks the kind.
    pub fn marker(self) -> &'static str {
        match self {
            RunKind::Calibration => "calibrate.toml",
            RunKind::Pool => "pool.toml",
            RunKind::Verification => "verified-table.csv",
            RunKind::Match => "match.toml",
        }
    }

    /// What such a folder holds, for messages.
    pub fn what(self) -> &'static str {
        match self {
            RunKind::Calibration => "a calibration run",
            RunKind::Pool => "a pool measurement",
            RunKind::Verification => "a verification or time-control check",
            RunKind::Match => "a match",
        }
    }

    /// The command that writes it, for messages (`skillcal {command}`).
    pub fn command(self) -> &'static str {
        match self {
            RunKind::Calibration => "calibrate",
            RunKind::Pool => "pool",
            RunKind::Verification => "verify` or `tc-check",
            RunKind::Match => "match",
        }
    }

    /// The kind of `dir`, if it is a run folder.
    pub fn of(dir: &Path) -> Option<RunKind> {
        RunKind::ALL
            .into_iter()
            .find(|k| dir.join(k.marker()).is_file())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_folder_is_told_by_its_marker_a_calibration_first() {
        let dir = std::env::temp_dir().join(format!("skillcal-runkind-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        assert_eq!(RunKind::of(&dir), None);
        std::fs::write(dir.join("match.toml"), "").unwrap();
        assert_eq!(RunKind::of(&dir), Some(RunKind::Match));
        std::fs::write(dir.join("calibrate.toml"), "").unwrap();
        assert_eq!(RunKind::of(&dir), Some(RunKind::Calibration));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
