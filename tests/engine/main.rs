//! Integration tests: engine. One binary per area, so the suite links few crates.

#[path = "../support/mod.rs"]
mod support;

mod eval;
mod mates_endgames;
mod perft;
mod recognizer_band;
mod search;
mod search_bounds;
mod uci;
mod uci_fuzz_regressions;
mod uci_human;
mod uci_human_time;
mod uci_maia;
mod uci_robust;
mod uci_values;
