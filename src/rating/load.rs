//! Loading game files: `games.csv` (columns by name) or PGN, told apart by extension or content.

use std::path::{Path, PathBuf};

use super::games::{read_csv, Game, LoadError, LoadOptions, LoadReport, PairIds, Result, Sink};
use super::pgn::read_pgn;

/// Loads games from `games.csv` files (header row, columns found by name) and PGN files
/// (`.pgn`, or any file whose first non-blank character is `[`). Errors name the file and line.
pub fn load_games<P: AsRef<Path>>(paths: &[P], opts: &LoadOptions) -> Result<Vec<Game>> {
    Ok(load_games_report(paths, opts)?.games)
}

/// Like [`load_games`], also returning the messages for skipped lines.
pub fn load_games_report<P: AsRef<Path>>(paths: &[P], opts: &LoadOptions) -> Result<LoadReport> {
    let mut report = LoadReport::default();
    let mut pairs = PairIds::default();
    // by canonical path, so `games.csv` and `./games.csv` are one file
    let mut seen: Vec<(PathBuf, &Path)> = Vec::new();
    for (file_index, path) in paths.iter().enumerate() {
        let path = path.as_ref();
        let real = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        if let Some((_, first)) = seen.iter().find(|(r, _)| *r == real) {
            return Err(LoadError::Repeated {
                path: path.to_path_buf(),
                first: first.to_path_buf(),
            });
        }
        seen.push((real, path));
        let bytes =
            crate::fsutil::read_capped(path, crate::fsutil::GAMES_CAP).map_err(|source| {
                LoadError::Read {
                    path: path.to_path_buf(),
                    source,
                }
            })?;
        let mut sink = Sink {
            file: path.to_path_buf(),
            file_index,
            opts,
            report: &mut report,
            pairs: &mut pairs,
        };
        if is_pgn(path, &bytes) {
            read_pgn(&bytes, &mut sink)?;
        } else {
            read_csv(&bytes, &mut sink)?;
        }
    }
    report.pair_notes = pairs.notes(&report.games);
    Ok(report)
}

fn is_pgn(path: &Path, bytes: &[u8]) -> bool {
    match path.extension().and_then(|e| e.to_str()) {
        Some(ext) if ext.eq_ignore_ascii_case("pgn") => true,
        Some(ext) if ext.eq_ignore_ascii_case("csv") => false,
        _ => bytes
            .iter()
            .find(|b| !b.is_ascii_whitespace() && **b != 0xEF && **b != 0xBB && **b != 0xBF)
            .is_some_and(|&b| b == b'['),
    }
}
