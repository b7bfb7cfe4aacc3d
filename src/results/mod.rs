//! The run-folder schema: every file a calibration or verification run writes and the report
//! reads, as typed rows read and written with csv + serde (TOML for the summary). Keeping the
//! schema here lets `skillcal report DIR` rerun on its own and keeps `report` from depending on
//! `calibrate`.
//!
//! | file | rows |
//! |------|------|
//! | `games.csv` | [`GameRow`] (the arena's columns; result and termination as enums); [`GameSettingsRow`] its settings only |
//! | `plan.csv` | [`PlanRow`]: why each match was chosen |
//! | `pool.csv` | [`PoolRow`] (a calibration's), [`PoolMemberRow`] (a `skillcal pool` run's) |
//! | `pool-pairs.csv` | [`PoolPairRow`] |
//! | `human-scale.csv` | [`HumanScaleRow`] (the pool's scale to Lichess ratings) |
//! | `fit_curve.csv`, `fit_points.csv` | [`CurveRow`], [`PointRow`] |
//! | `table_details.csv` | [`TargetRow`] (range as [`RangeFlag`]) |
//! | `verify.csv` | [`VerifyRow`] |
//! | `summary.toml` | [`Summary`] |
//! | `tc-check/tc_check.csv` | [`TcCheckRow`] |
//! | `compare_targets.csv`, `compare_families.csv`, `compare_play.csv`, `compare_tradeoff.csv`, `compare_bands.csv` | [`CompareTargetRow`], [`CompareFamilyRow`], [`ComparePlayRow`], [`CompareTradeoffRow`], [`CompareBandRow`] |
//! | `analysis.csv`, `human.csv` | [`AnalysisRow`] (as `skillcal analyse` writes and the report reads them) |
//! | `analysis/levels.csv` | [`LevelRow`] (how each level plays) |
//! | `report.md`, `report.html`, `analysis.md` | a [`Document`] rendered |

mod analysis;
mod compare;
mod csvfile;
mod document;
mod error;
mod games;
mod human_scale;
mod kept_config;
mod levels;
mod markdown;
mod number;
mod rows;
mod run_kind;
mod summary;

pub use analysis::{write_analysis_csv, AnalysisRow};
pub use compare::{
    tc_check_pass, tc_verdict, CompareBandRow, CompareFamilyRow, CompareHumanRow, ComparePlayRow,
    CompareTargetRow, CompareTradeoffRow, TcCheckRow, TcVerdict, TC_TOLERANCE,
};
pub use csvfile::{
    append_csv, csv_line, read_csv, read_csv_lines, read_csv_or_empty, read_csv_rows, write_csv,
    CsvRow,
};
pub use document::{Block, Document, MatrixRow};
pub use error::ResultsError;
pub use games::{merge_games_csv, GameResult, GameRow, GameSettingsRow, Termination};
pub use human_scale::{human_column, is_human_column, HumanScaleRow, HUMAN_SCALES};
pub use kept_config::keep_config;
pub use levels::{state_ratio, LevelElo, LevelKind, LevelRow};
pub use markdown::md_cell;
pub use number::{estimate, f0, finite, fixed, percent, NO_NUMBER};
pub use rows::{
    CurveRow, LengthRow, PlanRow, PointRow, PoolMemberRow, PoolPairRow, PoolPlanRow, PoolRow,
    RangeFlag, TargetRow, TerminationRow, VerifyOpponentRow, VerifyRow,
};
pub use run_kind::RunKind;
pub use summary::{
    read_summary, write_summary, KnobSummary, Summary, FORM_REJECTED_P, SUMMARY_FILE,
};
