//! The one chart frame (plotters, SVG backend; text as SVG `<text>`, no font files needed): the
//! file's canvas, the frame's caption, margin, label areas and axes, its legend and the file
//! written, and the error naming the file.

use std::path::Path;

use plotters::coord::ranged1d::AsRangedCoord;
use plotters::coord::Shift;
use plotters::prelude::*;

use crate::report::error::ReportError;

/// A plotters error, naming the plot's file.
pub(in crate::report) fn err<E: std::fmt::Debug>(path: &Path, e: E) -> ReportError {
    ReportError::Plot {
        path: path.to_path_buf(),
        message: format!("{e:?}"),
    }
}

/// The last step of every plot: the legend at `pos`, then the file written.
pub(in crate::report) fn legend_and_write<'a, DB: DrawingBackend + 'a, CT: CoordTranslate>(
    chart: &mut ChartContext<'a, DB, CT>,
    root: &DrawingArea<DB, plotters::coord::Shift>,
    pos: SeriesLabelPosition,
    path: &Path,
) -> Result<(), ReportError> {
    chart
        .configure_series_labels()
        .position(pos)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK.mix(0.3))
        .draw()
        .map_err(|e| err(path, e))?;
    root.present().map_err(|e| err(path, e))
}

/// A chart's SVG file: a white canvas of `size` pixels.
pub(in crate::report) fn canvas(
    path: &Path,
    size: (u32, u32),
) -> Result<DrawingArea<SVGBackend<'_>, Shift>, ReportError> {
    let root = SVGBackend::new(path, size).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(path, e))?;
    Ok(root)
}

/// The axes of a chart on a [`canvas`].
type Axes<X, Y> =
    Cartesian2d<<X as AsRangedCoord>::CoordDescType, <Y as AsRangedCoord>::CoordDescType>;

/// The one chart frame on `root` (the canvas of `path`): its caption (text and font size), a
/// 12-pixel margin, the label areas below and left of the plot (pixels), the axes' ranges.
pub(in crate::report) fn frame<'a, X: AsRangedCoord, Y: AsRangedCoord>(
    root: &DrawingArea<SVGBackend<'a>, Shift>,
    path: &Path,
    (caption, font): (&str, u32),
    (x_area, y_area): (u32, u32),
    x: X,
    y: Y,
) -> Result<ChartContext<'a, SVGBackend<'a>, Axes<X, Y>>, ReportError> {
    ChartBuilder::on(root)
        .caption(caption, ("sans-serif", font))
        .margin(12)
        .x_label_area_size(x_area)
        .y_label_area_size(y_area)
        .build_cartesian_2d(x, y)
        .map_err(|e| err(path, e))
}
