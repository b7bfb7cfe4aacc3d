//! Helpers shared by the test groups: temporary folders, run-folder checks, PGN reading
//! (`arena`) and simulated calibration configs (`calibrate`).
#![allow(dead_code)]

pub mod arena;
pub mod calibrate;
