//! Integration tests: the PostgreSQL store, on a real throwaway cluster each
//! (`scripts/pg-temp.sh`), with real worker processes.

#[path = "../support/mod.rs"]
mod support;

mod errors;
mod faults;
mod same_games;
