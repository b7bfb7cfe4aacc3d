//! Integration tests: rating. One binary per area, so the suite links few crates.

#[path = "../support/mod.rs"]
mod support;

mod basic;
mod cli;
mod malformed;
mod report;
mod simulation;
mod sprt;
