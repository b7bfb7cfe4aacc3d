//! Integration tests: report and compare. One binary per area, so the suite links few crates.

#[path = "../support/mod.rs"]
mod support;

mod compare;
mod compare_human;
mod report_cli;
