//! Integration tests: analysis. One binary per area, so the suite links few crates.

#[path = "../support/mod.rs"]
mod support;

mod drops;
mod e2e;
mod formulas;
mod human;
mod inputs;
mod levels;
mod matching;
mod time_trouble;
