//! SVG plots (plotters' SVG backend): the one frame's last step and error (`err`,
//! `legend_and_write`), the axis ranges, and the calibration run's charts and the
//! move-matching chart (`charts.rs`).

mod charts;

pub use charts::{
    curve_plot, draw_rate_plot, knob_value, length_plot, matching_plot, matching_plot_with, t_span,
    terminations_plot, verify_plot, MatchLine,
};
pub(in crate::report) use charts::{err, extent, legend_and_write};
