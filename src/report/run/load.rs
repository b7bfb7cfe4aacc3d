//! Loading a run directory's result files for the report.

use std::path::Path;

use crate::report::error::ReportError;
use crate::results::{
    self as data, CurveRow, GameRow, PointRow, PoolRow, ResultsError, Summary, TargetRow,
    TcCheckRow, VerifyOpponentRow, VerifyRow,
};

/// Everything a report shows, read from a run directory.
pub struct RunData {
    pub summary: Option<Summary>,
    pub curve: Vec<CurveRow>,
    pub points: Vec<PointRow>,
    pub pool: Vec<PoolRow>,
    pub targets: Vec<TargetRow>,
    pub verify: Vec<VerifyRow>,
    /// Each verified level's games by opponent (`verify_opponents.csv` beside `verify.csv`).
    pub verify_opponents: Vec<VerifyOpponentRow>,
    pub games: Vec<GameRow>,
    pub table: Option<String>,
    /// The time-control check (DIR/tc-check/tc_check.csv or DIR/tc_check.csv).
    pub tc_check: Vec<TcCheckRow>,
    /// How each level plays, when the run has `analysis/analysis.csv`.
    pub levels: Option<crate::report::levels::Levels>,
}

/// The files of a calibration, verification, tc-check or pool run, any one of which makes a
/// folder one to report on as a run.
pub const RESULT_FILES: [&str; 9] = [
    "games.csv",
    "summary.toml",
    "fit_curve.csv",
    "pool.csv",
    "uci_elo_table.csv",
    "verify.csv",
    "verify/verify.csv",
    "tc_check.csv",
    "tc-check/tc_check.csv",
];

/// A match folder (`skillcal match`): games.csv and none of a run's other files. A verification
/// or tc-check folder holds games.csv too, and its report is the run report.
pub fn is_match_folder(dir: &Path) -> bool {
    dir.join("games.csv").exists()
        && RESULT_FILES
            .iter()
            .filter(|f| **f != "games.csv")
            .all(|f| !dir.join(f).exists())
}

/// Reads every result file `dir` holds (missing ones give empty data).
pub fn load(dir: &Path) -> Result<RunData, ReportError> {
    if !dir.exists() {
        return Err(ReportError::NotFound(dir.to_path_buf()));
    }
    if !dir.is_dir() {
        return Err(ReportError::NotADirectory(dir.to_path_buf()));
    }
    // a folder holding none of a run's files is no results folder (a typo, or the wrong
    // level of a tree): an empty report there would read as a run with nothing in it
    if !RESULT_FILES.iter().any(|f| dir.join(f).exists()) {
        let message = match unfitted_run(dir) {
            Some(command) => format!(
                "no results to report yet: the run's games are in matches/ but it stopped \
                 before writing its results; `{command}` fits them and writes them"
            ),
            None => format!(
                "no results to report (none of {} here)",
                RESULT_FILES.join(", ")
            ),
        };
        return Err(ReportError::Results(ResultsError::Invalid {
            path: dir.to_path_buf(),
            message,
        }));
    }
    let summary = if dir.join("summary.toml").exists() {
        Some(data::read_summary(dir)?)
    } else {
        None
    };
    let verify_path = [
        dir.join("verify.csv"),
        dir.join("verify").join("verify.csv"),
    ]
    .into_iter()
    .find(|p| p.exists());
    let (verify, verify_opponents) = match verify_path {
        Some(p) => (
            data::read_csv_rows(&p)?,
            data::read_csv_or_empty(&p.with_file_name("verify_opponents.csv"))?,
        ),
        None => (Vec::new(), Vec::new()),
    };
    let tc_path = [
        dir.join("tc_check.csv"),
        dir.join("tc-check").join("tc_check.csv"),
    ]
    .into_iter()
    .find(|p| p.exists());
    let tc_check = match tc_path {
        Some(p) => data::read_csv_rows(&p)?,
        None => Vec::new(),
    };
    let table_path = dir.join("uci_elo_table.csv");
    let summary_games = summary.as_ref().map(|s| s.games);
    let curve = read_curve(dir, summary.as_ref())?;
    Ok(RunData {
        summary,
        curve,
        points: data::read_csv_or_empty(&dir.join("fit_points.csv"))?,
        pool: data::read_csv_or_empty(&dir.join("pool.csv"))?,
        targets: read_targets(dir)?,
        verify,
        verify_opponents,
        games: read_games(dir, summary_games)?,
        table: std::fs::read_to_string(&table_path).ok(),
        tc_check,
        levels: crate::report::levels::load_levels(dir)?,
    })
}

/// `dir/fit_curve.csv`. A fit writes its curve's 101 rows beside a summary with the curve's
/// parameters; without rows there the file is damaged, not a run that has not fitted yet (whose
/// file is empty or absent), and a report would show the run without its curve.
pub fn read_curve(dir: &Path, summary: Option<&Summary>) -> Result<Vec<CurveRow>, ResultsError> {
    let path = dir.join("fit_curve.csv");
    let curve: Vec<CurveRow> = data::read_csv_or_empty(&path)?;
    if curve.is_empty() && path.exists() && summary.is_some_and(|s| !s.theta.is_empty()) {
        return Err(ResultsError::Invalid {
            message: format!(
                "holds no rows (empty, or a header only), but {} has a fitted curve",
                dir.join(data::SUMMARY_FILE).display()
            ),
            path,
        });
    }
    Ok(curve)
}

/// `dir/table_details.csv`: the table's rows with their intervals. Beside a uci_elo_table.csv it
/// holds one row per target; without rows there it was cut, and the table would show as none
/// (a comparison listed such a family as `fit`).
pub fn read_targets(dir: &Path) -> Result<Vec<TargetRow>, ResultsError> {
    let path = dir.join("table_details.csv");
    if !path.exists() {
        return Ok(Vec::new());
    }
    if !dir.join("uci_elo_table.csv").exists() {
        return data::read_csv(&path);
    }
    data::read_csv_rows(&path).map_err(|e| match e {
        ResultsError::Invalid { path, message } => ResultsError::Invalid {
            path,
            message: format!("{message}, while uci_elo_table.csv beside it holds the table"),
        },
        e => e,
    })
}

/// The command that writes the results of a calibration or pool run folder whose `matches/`
/// hold games but which was stopped before its first results (`None`: not such a folder).
fn unfitted_run(dir: &Path) -> Option<String> {
    let has_games = std::fs::read_dir(dir.join("matches"))
        .ok()?
        .filter_map(|e| e.ok())
        .any(|e| e.path().join("games.csv").is_file());
    let command = match crate::results::RunKind::of(dir)? {
        kind @ (crate::results::RunKind::Calibration | crate::results::RunKind::Pool) => {
            kind.command()
        }
        _ => return None,
    };
    has_games.then(|| {
        format!(
            "skillcal {command} CONFIG --out {} --fit-only",
            dir.display()
        )
    })
}

/// The run's games.csv: a file there must hold games (an empty or header-only one would drop
/// the game statistics while the fit says how many games it counted).
fn read_games(dir: &Path, summary_games: Option<u64>) -> Result<Vec<GameRow>, ResultsError> {
    let path = dir.join("games.csv");
    if !path.exists() {
        return Ok(Vec::new());
    }
    data::read_csv_rows(&path).map_err(|e| match (e, summary_games) {
        (ResultsError::Invalid { path, message }, Some(n)) => ResultsError::Invalid {
            path,
            message: format!(
                "{message}, where summary.toml counts {n} games; `skillcal calibrate CONFIG \
                 --out {} --fit-only` rewrites it from matches/",
                dir.display()
            ),
        },
        (e, _) => e,
    })
}
