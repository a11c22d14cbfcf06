//! The playground's plots over simulated time: link and group rates as in INFOCOM'03 Fig. 2 (each in a sliding
//! window, as a fraction of one link's capacity), and the page's own series (rate limits, buffers, marks). Generic
//! over the plotters backend: a canvas on the page, SVG in native tests.

use crate::finc_plot::PlotTheme;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One curve: its label and `(time in ms, value)` points.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    /// Drawn dashed (run B of a comparison).
    pub dashed: bool,
    /// Colour index; `None`: by position.
    pub colour: Option<usize>,
}

impl Curve {
    pub fn new(label: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Self { label: label.into(), points, dashed: false, colour: None }
    }
}

/// The y axis: what it shows (with unit) and its top (`None`: fit the data).
#[derive(Debug, Clone, PartialEq)]
pub struct YAxis {
    pub desc: String,
    pub top: Option<f64>,
}

/// The curves as CSV: one row per sample time, one column per curve (empty where a curve has no sample).
pub fn to_csv(curves: &[Curve]) -> String {
    let mut times: Vec<f64> = curves.iter().flat_map(|c| c.points.iter().map(|p| p.0)).collect();
    times.sort_by(f64::total_cmp);
    times.dedup();
    let quote = |s: &str| if s.contains([',', '"']) { format!("\"{}\"", s.replace('"', "\"\"")) } else { s.to_owned() };
    let mut out = String::from("time_ms");
    for c in curves {
        out.push(',');
        out.push_str(&quote(&c.label));
    }
    out.push('\n');
    let mut cursor = vec![0usize; curves.len()];
    for t in times {
        out.push_str(&t.to_string());
        for (i, c) in curves.iter().enumerate() {
            out.push(',');
            if let Some(&(pt, r)) = c.points.get(cursor[i]) {
                if pt == t {
                    out.push_str(&r.to_string());
                    cursor[i] += 1;
                }
            }
        }
        out.push('\n');
    }
    out
}

/// Colours for the curves, in order; distinguishable in both themes.
const COLOURS: [RGBColor; 7] = [
    RGBColor(214, 39, 40),
    RGBColor(31, 119, 180),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(23, 190, 207),
    RGBColor(140, 86, 75),
];

/// Draws `curves` against time from 0 to `end_ms`.
pub fn draw<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    curves: &[Curve],
    end_ms: f64,
    y: &YAxis,
    theme: PlotTheme,
) -> Result<(), String> {
    draw_xy(area, curves, (0.0, end_ms), "simulated time (ms)", y, theme)
}

/// Draws `curves` against any x from `x.0` to `x.1` (the papers' sweep figures: buffer size, mean ON time).
pub fn draw_xy<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    curves: &[Curve],
    x: (f64, f64),
    x_desc: &str,
    y: &YAxis,
    theme: PlotTheme,
) -> Result<(), String> {
    let e = |err: DrawingAreaErrorKind<DB::ErrorType>| err.to_string();
    area.fill(&theme.background).map_err(e)?;
    let text = |size: u32| ("sans-serif", size).into_font().color(&theme.foreground);
    let mut chart = ChartBuilder::on(area)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(52)
        .build_cartesian_2d(x.0..x.1.max(x.0 + 1e-6), 0.0..y_top(curves, y.top))
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y.desc.as_str())
        .axis_desc_style(text(14))
        .label_style(text(12))
        .light_line_style(theme.grid.mix(0.6))
        .bold_line_style(theme.grid)
        .axis_style(theme.foreground)
        .draw()
        .map_err(e)?;
    for (i, c) in curves.iter().enumerate() {
        let colour = COLOURS[c.colour.unwrap_or(i) % COLOURS.len()];
        let points = c.points.iter().copied();
        let drawn = if c.dashed {
            chart.draw_series(DashedLineSeries::new(points, 6, 4, colour.stroke_width(2))).map_err(e)?
        } else {
            chart.draw_series(LineSeries::new(points, colour.stroke_width(2))).map_err(e)?
        };
        let dashed = c.dashed;
        drawn.label(c.label.clone()).legend(move |(x, y)| {
            let style = colour.stroke_width(3);
            if dashed {
                PathElement::new(vec![(x, y), (x + 6, y)], style)
            } else {
                PathElement::new(vec![(x, y), (x + 16, y)], style)
            }
        });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(theme.background.mix(0.9))
        .border_style(theme.grid)
        .label_font(text(12))
        .draw()
        .map_err(e)?;
    area.present().map_err(e)
}

/// The top of the y axis: `fixed`, or a little above the largest value (at least 1).
fn y_top(curves: &[Curve], fixed: Option<f64>) -> f64 {
    fixed.unwrap_or_else(|| {
        let max =
            curves.iter().flat_map(|c| c.points.iter().map(|p| p.1)).filter(|v| v.is_finite()).fold(0.0, f64::max);
        (max * 1.08).max(1.0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_has_a_column_per_curve_and_a_row_per_time() {
        let curves = vec![Curve::new("B->BC", vec![(0.0, 0.5), (0.1, 1.0)]), Curve::new("a, \"b\"", vec![(0.1, 0.25)])];
        assert_eq!(to_csv(&curves), "time_ms,B->BC,\"a, \"\"b\"\"\"\n0,0.5,\n0.1,1,0.25\n");
    }

    #[test]
    fn draws_every_curve_with_its_label() {
        let curves = vec![
            Curve::new("B->BC", vec![(0.0, 0.0), (1.0, 1.0)]),
            Curve::new("victim", vec![(0.0, 0.2), (1.0, 0.15)]),
        ];
        let mut out = String::new();
        {
            let area = SVGBackend::with_string(&mut out, (600, 300)).into_drawing_area();
            let y = YAxis { desc: "rate".into(), top: Some(1.05) };
            draw(&area, &curves, 2.0, &y, PlotTheme::LIGHT).unwrap();
        }
        assert!(out.contains("B-&gt;BC") || out.contains("B->BC"));
        assert!(out.contains("victim") && out.contains("simulated time (ms)"));
        let RGBColor(r, g, b) = COLOURS[1];
        assert!(out.contains(&format!("stroke=\"#{r:02X}{g:02X}{b:02X}\"")), "the second curve has the second colour");
    }

    #[test]
    fn fitted_axes_hold_the_data() {
        assert_eq!(y_top(&[Curve::new("m", vec![(0.0, 5000.0)])], None), 5400.0);
        assert_eq!(y_top(&[], None), 1.0);
        assert_eq!(y_top(&[Curve::new("m", vec![(0.0, 5000.0)])], Some(1.05)), 1.05);
    }
}
