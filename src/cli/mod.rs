//! The command line's subcommands of rating, calibration and reports: clap argument types and
//! the orchestration around the library (reports after runs, installing a table). Errors here
//! are `anyhow`; the library's are typed.

pub mod calibrate;
pub mod rate;
pub mod report;
