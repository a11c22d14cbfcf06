//! What every figure of `ibcc figures` is written with: its report entry, its SVG drawn as the page draws plots, and
//! its files.

use crate::exit::Error;
use ibcc_view::palette::Theme;
use ibcc_view::plot::{self, Curve, Figure, YAxis};
use plotters::prelude::*;
use std::fs;
use std::path::Path;

/// One figure's files and what the report says of it.
pub struct Entry {
    pub file: String,
    pub title: String,
    pub paper: String,
    pub ours: String,
}

pub fn svg(
    path: &Path,
    draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> Result<(), String>,
) -> Result<(), Error> {
    let area = SVGBackend::new(path, (900, 420)).into_drawing_area();
    draw(&area).map_err(|e| Error::Io(format!("{}: {e}", path.display())))?;
    area.present().map_err(|e| Error::Io(format!("{}: {e}", path.display())))
}

/// Draws `curves` as the page does (light theme, the palette's colours, the legend beside the chart).
pub fn plot(
    a: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    curves: &[Curve],
    x: (f64, f64),
    x_desc: &str,
    y: &YAxis,
    groups: &[String],
    markers: bool,
) -> Result<(), String> {
    let f = Figure {
        curves,
        x,
        x_desc,
        x_log: false,
        x_names: &[],
        y,
        groups,
        title: None,
        theme: Theme::Light,
        scale: 1.0,
        markers,
        band: None,
    };
    plot::draw(a, &f)
}

pub fn write(path: &Path, text: &str) -> Result<(), Error> {
    fs::write(path, text).map_err(|e| Error::io(path.display(), &e))
}
