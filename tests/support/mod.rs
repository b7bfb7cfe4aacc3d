//! Helpers shared by the test groups: temporary folders, run-folder checks, PGN reading
//! (`arena`), simulated calibration configs (`calibrate`), hand-made run folders (`runs`) and the `skillcal` binary over pipes
//! (`uci_pipe`).
#![allow(dead_code)]

pub mod arena;
pub mod calibrate;
pub mod pg;
pub mod runs;
pub mod uci_pipe;
