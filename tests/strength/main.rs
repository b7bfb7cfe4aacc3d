//! Integration tests: strength. One binary per area, so the suite links few crates.

#[path = "../support/mod.rs"]
mod support;

mod eval_noise;
mod human;
mod noise;
mod options;
mod search;
mod seed;
mod style;
mod table;
