//! Markdown / HTML / SVG reports of a calibration or verification run directory.
//!
//! `skillcal report DIR` renders whatever result files DIR holds (their formats are
//! [`crate::results`]'): the fitted curve and the tested settings, the table with its intervals
//! and flags, the pool, the verification (DIR/verify.csv or DIR/verify/verify.csv) and game
//! statistics from DIR/games.csv. `report.html` is self-contained (the SVGs are inlined);
//! `report.md` links the SVG files.
//!
//! Sub-rooms, each behind its face: [`mod@run`] (a run folder's page: its files read, the
//! statistics no file holds, its figures, the page), [`levels`] (how each level plays),
//! [`mod@rating`] (the rating report of any games), [`mod@compare`] (`skillcal compare`), and below
//! them `doc` (the one document model, rendered to Markdown and HTML) and `plot` (SVG plots).

pub mod compare;
mod doc;
mod error;
pub mod levels;
mod plot;
pub mod rating;
pub mod run;

use std::path::{Path, PathBuf};

pub use compare::same_folder;
pub use compare::{compare, CompareOptions};
pub use error::ReportError;
pub use levels::{load_levels, Levels};
pub use rating::{match_report, rating_report, RatingReportOptions, SprtSpec};
pub use run::{load, tc_pace_note, RunData};

use error::write;

/// Writes report.md, report.html, the SVG plots and the game-statistics CSVs (and, for an
/// analysed run, analysis/levels.csv); returns the HTML path.
pub fn generate(dir: &Path) -> Result<PathBuf, ReportError> {
    let d = load(dir)?;
    let stats = run::game_stats(&d.games);
    let figs = run::draw_figures(dir, &d, &stats)?;
    if let Some(l) = &d.levels {
        levels::write_levels(&dir.join(levels::ANALYSIS_DIR), l)?;
        levels::draw_plots(dir, l)?;
    }
    let doc = run::document(dir, &d, &figs, &stats);
    write(&dir.join("report.md"), &doc.to_markdown())?;
    let out = dir.join("report.html");
    write(&out, &doc.to_html(dir)?)?;
    Ok(out)
}
