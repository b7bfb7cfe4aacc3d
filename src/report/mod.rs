//! Markdown / HTML / SVG reports of a calibration or verification run directory.
//!
//! `skillcal report DIR` renders whatever result files DIR holds (their formats are
//! [`crate::results`]'): the fitted curve and the tested settings, the table with its intervals
//! and flags, the pool, the verification (DIR/verify.csv or DIR/verify/verify.csv) and game
//! statistics from DIR/games.csv. `report.html` is self-contained (the SVGs are inlined);
//! `report.md` links the SVG files.
//!
//! [`mod@load`] reads the files, [`stats`] computes what no file holds, [`figures`] draws the
//! [`plots`], [`sections`] builds the one [`document::Document`], which renders itself to
//! Markdown and to HTML.

pub mod compare;
pub mod compare_data;
pub mod compare_human;
pub mod compare_play;
pub mod compare_play_plot;
pub mod compare_plot;
pub mod document;
mod error;
pub mod figures;
pub mod files;
pub mod level_plots;
pub mod level_section;
pub mod levels;
pub mod load;
pub mod plots;
pub mod rating_data;
pub mod rating_plots;
pub mod rating_report;
pub mod rating_sections;
pub mod sections;
pub mod stats;
pub mod tc_section;
pub mod verify_section;

use std::path::{Path, PathBuf};

pub use compare::{compare, CompareOptions};
pub use compare_data::same_folder;
pub use error::ReportError;
pub use levels::{load_levels, Levels};
pub use load::{load, RunData};
pub use rating_data::{RatingReportOptions, SprtSpec};
pub use rating_report::{match_report, rating_report};
pub use tc_section::tc_pace_note;

use error::write;

/// Writes report.md, report.html, the SVG plots and the game-statistics CSVs (and, for an
/// analysed run, analysis/levels.csv); returns the HTML path.
pub fn generate(dir: &Path) -> Result<PathBuf, ReportError> {
    let d = load(dir)?;
    let stats = stats::game_stats(&d.games);
    let figs = figures::draw(dir, &d, &stats)?;
    if let Some(l) = &d.levels {
        levels::write_levels(&dir.join(levels::ANALYSIS_DIR), l)?;
        level_plots::draw(dir, l)?;
    }
    let doc = sections::document(dir, &d, &figs, &stats);
    write(&dir.join("report.md"), &doc.to_markdown())?;
    let out = dir.join("report.html");
    write(&out, &doc.to_html(dir)?)?;
    Ok(out)
}
