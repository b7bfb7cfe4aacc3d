//! SVG plots (plotters' SVG backend): the one chart frame (`frame.rs`: `canvas`, `frame`, its
//! last step `legend_and_write`, its error `err`), the axis ranges, and the calibration run's
//! charts and the move-matching chart (`charts.rs`).

mod charts;
mod frame;

pub(in crate::report) use charts::extent;
pub use charts::{
    curve_plot, draw_rate_plot, knob_value, length_plot, matching_plot, matching_plot_with, t_span,
    terminations_plot, verify_plot, MatchLine,
};
pub(in crate::report) use frame::{canvas, err, frame, legend_and_write};
