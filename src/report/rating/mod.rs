//! The rating report of any games (`skillcal rate`, a match folder's report): its inputs
//! (`data.rs`), the page (`report.rs`, `sections.rs`) and its plots (`plots.rs`).

mod data;
mod plots;
mod report;
mod sections;

pub use data::{RatingReportOptions, SprtSpec};
pub use report::{match_report, rating_report};
