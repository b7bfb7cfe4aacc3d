//! Integration tests: calibrate. One binary per area, so the suite links few crates.

#[path = "../support/mod.rs"]
mod support;

mod bad_line_hint;
mod config_values;
mod e2e;
mod engine_table;
mod families;
mod fit;
mod held;
mod init;
mod install;
mod monotone;
mod paths_lock;
mod per_second;
mod pool;
mod precision_range;
mod preflight;
mod preflight_engines;
mod refit_full;
mod results_inputs;
mod resume_config;
mod self_scale;
mod sim;
mod spline;
mod strict_inputs;
mod sweep;
mod t_min;
mod tc_check;
mod verify_cli;
mod verify_noise;
mod verify_opponents;
