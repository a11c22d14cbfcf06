//! The Finc(t) explorer's model and plot (INFOCOM'03 Fig. 5): how each source-response function climbs from `Rmin`
//! to `Rmax` in real time for a given link rate and packet size.
//!
//! The drawing is generic over plotters' `DrawingBackend`: the page draws it on a canvas, native tests on SVG.

use crate::palette::Theme;
use crate::plot::chrome;
use ibcc_core::cc::response::{ResponseFunction, ResponseParams};
use plotters::coord::Shift;
use plotters::prelude::*;

/// The explorer's inputs, as the user set them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FincInputs {
    /// `Rmin = Rmax / r_min_divisor`.
    pub r_min_divisor: f64,
    /// Decrease factor of AIMD and FIMD.
    pub m: f64,
    /// Link rate in Gb/s.
    pub gbps: f64,
    /// Packet size in bytes; with the link rate it sets the packet time.
    pub packet_bytes: f64,
    /// Draw time on a logarithmic axis (FIMD's 4 ms and LIPD's 134 ms then fit one plot).
    pub log_time: bool,
}

impl Default for FincInputs {
    /// The paper's Fig. 5: `Rmin = Rmax/256`, `m = 2`, 1 GB/s links, 2048-byte packets.
    fn default() -> Self {
        Self { r_min_divisor: 256.0, m: 2.0, gbps: 8.0, packet_bytes: 2048.0, log_time: false }
    }
}

/// Inputs checked and turned into the quantities the plot needs.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FincModel {
    pub params: ResponseParams,
    /// One packet time at `Rmax`, in milliseconds.
    pub packet_time_ms: f64,
    pub log_time: bool,
}

/// Which input is wrong, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InputError {
    pub field: &'static str,
    pub message: String,
}

impl FincInputs {
    /// Validates every field; the error names the first bad one.
    pub fn model(&self) -> Result<FincModel, InputError> {
        let positive = |field: &'static str, v: f64| {
            if v.is_finite() && v > 0.0 {
                Ok(())
            } else {
                Err(InputError { field, message: "must be a positive number".into() })
            }
        };
        if !(self.r_min_divisor.is_finite() && self.r_min_divisor > 1.0) {
            return Err(InputError { field: "r_min_divisor", message: "must be greater than 1 (Rmin < Rmax)".into() });
        }
        if !(self.m.is_finite() && self.m > 1.0) {
            return Err(InputError { field: "m", message: "must be greater than 1".into() });
        }
        positive("gbps", self.gbps)?;
        positive("packet_bytes", self.packet_bytes)?;
        let params = ResponseParams::new(1.0 / self.r_min_divisor, self.m)
            .map_err(|e| InputError { field: "r_min_divisor", message: e.to_string() })?;
        Ok(FincModel {
            params,
            packet_time_ms: self.packet_bytes * 8.0 / (self.gbps * 1e9) * 1e3,
            log_time: self.log_time,
        })
    }
}

impl FincModel {
    /// Time from `Rmin` to `Rmax` of one function, in milliseconds.
    pub fn time_to_rmax_ms(&self, f: ResponseFunction) -> f64 {
        f.time_to_rmax(&self.params) * self.packet_time_ms
    }

    /// `Finc(t)/Rmax` at `t_ms` milliseconds after leaving `Rmin`.
    pub fn rate_at_ms(&self, f: ResponseFunction, t_ms: f64) -> f64 {
        f.finc_t(&self.params, t_ms / self.packet_time_ms)
    }

    /// The plotted time range in milliseconds: to 5% past the slowest function's arrival at `Rmax`. A log axis
    /// starts at one packet time, since it cannot show zero.
    pub fn time_range_ms(&self) -> (f64, f64) {
        let slowest = ResponseFunction::ALL.iter().map(|&f| self.time_to_rmax_ms(f)).fold(0.0, f64::max);
        let start = if self.log_time { self.packet_time_ms } else { 0.0 };
        (start, (slowest * 1.05).max(start * 10.0))
    }

    /// `points` samples of one curve, evenly spaced on the plotted axis.
    pub fn curve(&self, f: ResponseFunction, points: u32) -> Vec<(f64, f64)> {
        let (t0, t1) = self.time_range_ms();
        let points = points.max(2);
        (0..points)
            .map(|i| {
                let u = f64::from(i) / f64::from(points - 1);
                let t = if self.log_time { t0 * (t1 / t0).powf(u) } else { t0 + (t1 - t0) * u };
                (t, self.rate_at_ms(f, t))
            })
            .collect()
    }
}

/// One colour per function (the page's palette), distinguishable in both themes.
pub fn series_colour(f: ResponseFunction, theme: Theme) -> RGBColor {
    let (r, g, b) = crate::palette::response_colour(f).rgb(theme);
    RGBColor(r, g, b)
}

const POINTS: u32 = 600;

/// Draws `Finc(t)/Rmax` of the three functions on `area`.
pub fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, model: &FincModel, theme: Theme) -> Result<(), String> {
    let e = |err: DrawingAreaErrorKind<DB::ErrorType>| err.to_string();
    let (background, foreground, grid) = chrome(theme);
    area.fill(&background).map_err(e)?;
    let (t0, t1) = model.time_range_ms();
    let text = |size: u32| ("sans-serif", size).into_font().color(&foreground);
    // The legend in a strip above the chart: inside it, every corner covers a curve in one mode or the other (LIPD
    // rises at the far right, FIMD runs along the top).
    let (strip, plot) = area.split_vertically(34);
    let (w, _) = strip.dim_in_pixel();
    let slot = i32::try_from(w).unwrap_or(0) / 3;
    for (k, f) in ResponseFunction::ALL.into_iter().enumerate() {
        let (x, y) = (k as i32 * slot + 56, 18);
        let colour = series_colour(f, theme);
        strip.draw(&PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(3))).map_err(e)?;
        let label = format!("{} ({:.1} ms)", f.name(), model.time_to_rmax_ms(f));
        let font = text(14).pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Left,
            plotters::style::text_anchor::VPos::Center,
        ));
        strip.draw(&Text::new(label, (x + 24, y), font)).map_err(e)?;
    }
    let mut builder = ChartBuilder::on(&plot);
    builder.margin(12).x_label_area_size(44).y_label_area_size(56);
    let x_desc =
        if model.log_time { "time since leaving Rmin (ms, log scale)" } else { "time since leaving Rmin (ms)" };
    macro_rules! finish {
        ($chart:expr) => {{
            let mut chart = $chart;
            chart
                .configure_mesh()
                .x_desc(x_desc)
                .y_desc("Finc(t) / Rmax")
                .axis_desc_style(text(15))
                .label_style(text(13))
                .light_line_style(grid.mix(0.6))
                .bold_line_style(grid)
                .axis_style(foreground)
                .draw()
                .map_err(e)?;
            for f in ResponseFunction::ALL {
                let colour = series_colour(f, theme);
                chart.draw_series(LineSeries::new(model.curve(f, POINTS), colour.stroke_width(2))).map_err(e)?;
            }
        }};
    }
    if model.log_time {
        finish!(builder.build_cartesian_2d((t0..t1).log_scale(), 0.0..1.02).map_err(e)?);
    } else {
        finish!(builder.build_cartesian_2d(t0..t1, 0.0..1.02).map_err(e)?);
    }
    area.present().map_err(e)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svg(inputs: FincInputs) -> String {
        let mut out = String::new();
        {
            let area = SVGBackend::with_string(&mut out, (800, 450)).into_drawing_area();
            draw(&area, &inputs.model().unwrap(), Theme::Light).unwrap();
        }
        out
    }

    #[test]
    fn paper_defaults_give_the_fig5_recovery_times() {
        let m = FincInputs::default().model().unwrap();
        assert!((m.time_to_rmax_ms(ResponseFunction::Fimd) - 4.194).abs() < 1e-3);
        assert!((m.time_to_rmax_ms(ResponseFunction::Lipd) - 133.69).abs() < 1e-2);
    }

    #[test]
    fn plot_shows_all_three_functions_with_their_times() {
        let out = svg(FincInputs::default());
        for label in ["AIMD (133.7 ms)", "FIMD (4.2 ms)", "LIPD (133.7 ms)", "Finc(t) / Rmax"] {
            assert!(out.contains(label), "missing {label:?}");
        }
        // Each function's colour draws its curve and its legend mark.
        for f in ResponseFunction::ALL {
            let RGBColor(r, g, b) = series_colour(f, Theme::Light);
            let stroke = format!("stroke=\"#{r:02X}{g:02X}{b:02X}\"");
            assert_eq!(out.matches(&stroke).count(), 2, "{f}: {stroke}");
        }
    }

    #[test]
    fn the_legend_is_above_the_curves_in_both_time_scales() {
        for log_time in [false, true] {
            let out = svg(FincInputs { log_time, ..FincInputs::default() });
            let before = out.split("LIPD (133.7 ms)").next().unwrap();
            let label_y: f64 = before.rsplit("y=\"").next().unwrap().split('"').next().unwrap().parse().unwrap();
            // The curves are the polylines 2 px wide (grid lines are 1, legend marks 3).
            let top = out
                .split("<polyline")
                .skip(1)
                .filter(|p| p.contains("stroke-width=\"2\""))
                .filter_map(|p| p.split("points=\"").nth(1)?.split('"').next())
                .flat_map(|pts| {
                    pts.split(' ').filter_map(|p| p.split(',').nth(1)?.parse::<f64>().ok()).collect::<Vec<_>>()
                })
                .fold(f64::INFINITY, f64::min);
            assert!(
                top.is_finite() && label_y + 8.0 < top,
                "log {log_time}: legend at y {label_y}, curves from y {top}"
            );
        }
    }

    #[test]
    fn changing_m_changes_the_plot_and_the_times() {
        let a = svg(FincInputs::default());
        let b = svg(FincInputs { m: 4.0, ..FincInputs::default() });
        assert_ne!(a, b);
        // m = 4: FIMD climbs log_4(256) = 4 Trec, half the m = 2 time; AIMD's slope triples.
        assert!(b.contains("FIMD (2.1 ms)") && b.contains("AIMD (44.6 ms)") && b.contains("LIPD (133.7 ms)"));
    }

    #[test]
    fn log_axis_curves_start_at_one_packet_time() {
        let m = FincInputs { log_time: true, ..FincInputs::default() }.model().unwrap();
        let c = m.curve(ResponseFunction::Fimd, 50);
        assert!((c[0].0 - m.packet_time_ms).abs() < 1e-12);
        assert!(c.windows(2).all(|w| w[1].0 > w[0].0 && w[1].1 >= w[0].1));
        svg(FincInputs { log_time: true, ..FincInputs::default() });
    }

    #[test]
    fn bad_inputs_name_their_field() {
        let bad = |i: FincInputs| i.model().unwrap_err().field;
        assert_eq!(bad(FincInputs { r_min_divisor: 1.0, ..Default::default() }), "r_min_divisor");
        assert_eq!(bad(FincInputs { m: f64::NAN, ..Default::default() }), "m");
        assert_eq!(bad(FincInputs { gbps: 0.0, ..Default::default() }), "gbps");
        assert_eq!(bad(FincInputs { packet_bytes: -5.0, ..Default::default() }), "packet_bytes");
    }
}
