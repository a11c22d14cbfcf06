//! The playground's rate plot (INFOCOM'03 Fig. 2): link and group rates over time, each in a sliding window, as a
//! fraction of one link's capacity. Generic over the plotters backend: a canvas on the page, SVG in native tests.

use crate::finc_plot::PlotTheme;
use plotters::coord::Shift;
use plotters::prelude::*;

/// One curve: its label and `(time in ms, rate)` points.
#[derive(Debug, Clone, PartialEq)]
pub struct Curve {
    pub label: String,
    pub points: Vec<(f64, f64)>,
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
    window_ms: f64,
    theme: PlotTheme,
) -> Result<(), String> {
    let e = |err: DrawingAreaErrorKind<DB::ErrorType>| err.to_string();
    area.fill(&theme.background).map_err(e)?;
    let text = |size: u32| ("sans-serif", size).into_font().color(&theme.foreground);
    let mut chart = ChartBuilder::on(area)
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(52)
        .build_cartesian_2d(0.0..end_ms.max(1e-6), 0.0..1.05)
        .map_err(e)?;
    chart
        .configure_mesh()
        .x_desc("simulated time (ms)")
        .y_desc(format!("rate ({window_ms} ms window, fraction of a link)"))
        .axis_desc_style(text(14))
        .label_style(text(12))
        .light_line_style(theme.grid.mix(0.6))
        .bold_line_style(theme.grid)
        .axis_style(theme.foreground)
        .draw()
        .map_err(e)?;
    for (i, c) in curves.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        chart
            .draw_series(LineSeries::new(c.points.iter().copied(), colour.stroke_width(2)))
            .map_err(e)?
            .label(c.label.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 16, y)], colour.stroke_width(3)));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_has_a_column_per_curve_and_a_row_per_time() {
        let curves = vec![
            Curve { label: "B->BC".into(), points: vec![(0.0, 0.5), (0.1, 1.0)] },
            Curve { label: "a, \"b\"".into(), points: vec![(0.1, 0.25)] },
        ];
        assert_eq!(to_csv(&curves), "time_ms,B->BC,\"a, \"\"b\"\"\"\n0,0.5,\n0.1,1,0.25\n");
    }

    #[test]
    fn draws_every_curve_with_its_label() {
        let curves = vec![
            Curve { label: "B->BC".into(), points: vec![(0.0, 0.0), (1.0, 1.0)] },
            Curve { label: "victim".into(), points: vec![(0.0, 0.2), (1.0, 0.15)] },
        ];
        let mut out = String::new();
        {
            let area = SVGBackend::with_string(&mut out, (600, 300)).into_drawing_area();
            draw(&area, &curves, 2.0, 2.0, PlotTheme::LIGHT).unwrap();
        }
        assert!(out.contains("B-&gt;BC") || out.contains("B->BC"));
        assert!(out.contains("victim") && out.contains("simulated time (ms)"));
        let RGBColor(r, g, b) = COLOURS[1];
        assert!(out.contains(&format!("stroke=\"#{r:02X}{g:02X}{b:02X}\"")), "the second curve has the second colour");
    }
}
