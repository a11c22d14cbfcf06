//! The page's plots: link and group rates over simulated time as in INFOCOM'03 Fig. 2 (each in a sliding window, in
//! percent of one link's capacity), the page's own series (rate limits, buffers, marks), and the sweep's results
//! against a setting. A curve says what it is (a link, a group, a sweep series) and the palette decides its colour,
//! so a group has the same colour in every plot, export and comparison; links are thin and neutral, groups thick.
//! The legend sits beside the chart, never over the data. Generic over the plotters backend: a canvas on the page,
//! SVG in native tests.

use crate::csv;
use crate::palette::{self, Colour, Theme};
use plotters::coord::Shift;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};

/// What a curve shows, which decides how it is drawn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum What {
    /// A directed link, by channel: a thin line in a neutral tone.
    Link(u32),
    /// A group of flows: the group's colour, thick.
    Group(String),
    /// The `k`-th series of a sweep.
    Series(usize),
}

/// One curve: its label and `(x, y)` points (x: time in ms, or a swept value).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Curve {
    pub label: String,
    pub points: Vec<(f64, f64)>,
    pub what: What,
    /// Which run of a comparison it is: 0 for A (or no comparison), 1 for B (the same colour, lighter), 2 for C
    /// (the same colour, dashed).
    #[serde(default)]
    pub run: u8,
}

impl Curve {
    pub fn new(label: impl Into<String>, points: Vec<(f64, f64)>, what: What) -> Self {
        Self { label: label.into(), points, what, run: 0 }
    }

    /// Its line width in CSS pixels.
    pub fn width(&self) -> f64 {
        match self.what {
            What::Link(_) => 1.5,
            What::Group(_) | What::Series(_) => 3.0,
        }
    }
}

/// The colour of each curve of one plot, given the scenario's groups in first-appearance order: a group's is its
/// role's, a link's is handed out in order among the plot's links (B's links in the same order as A's, so a link
/// keeps its colour across the two runs).
pub fn colours(curves: &[Curve], groups: &[String]) -> Vec<Colour> {
    let mut links = [0usize; 3];
    curves
        .iter()
        .map(|c| match &c.what {
            What::Link(_) => {
                let k = &mut links[usize::from(c.run.min(2))];
                *k += 1;
                palette::link_colour(*k - 1)
            }
            What::Group(g) => palette::group_colour(groups, g),
            What::Series(k) => palette::series_colour(*k),
        })
        .collect()
}

/// The y axis: what it shows (with unit) and its top (`None`: fit the data).
#[derive(Debug, Clone, PartialEq)]
pub struct YAxis {
    pub desc: String,
    pub top: Option<f64>,
}

/// How many of `values` fall in each of `bins` equal bins from `lo` to `hi` (the last takes `hi`), as `(bin centre,
/// count)`: the distributions of GPCNeT's canaries (processes per bin).
pub fn histogram(values: &[f64], (lo, hi): (f64, f64), bins: usize) -> Vec<(f64, f64)> {
    let bins = bins.max(1);
    let width = (hi - lo) / bins as f64;
    let mut counts = vec![0u32; bins];
    for &v in values {
        let b = if width > 0.0 { ((v - lo) / width) as usize } else { 0 };
        counts[b.min(bins - 1)] += 1;
    }
    counts.iter().enumerate().map(|(i, &n)| (lo + (i as f64 + 0.5) * width, f64::from(n))).collect()
}

/// The curves as CSV: one row per x value, one column per curve (empty where a curve has no point).
pub fn to_csv(x_name: &str, x_names: &[String], curves: &[Curve]) -> String {
    let mut xs: Vec<f64> = curves.iter().flat_map(|c| c.points.iter().map(|p| p.0)).collect();
    crate::sorting::sort_by(&mut xs, f64::total_cmp);
    xs.dedup();
    let mut out = csv::record(std::iter::once(x_name).chain(curves.iter().map(|c| c.label.as_str())));
    let mut cursor = vec![0usize; curves.len()];
    for x in xs {
        // (Choices by their names, as the axis says them.)
        let mut row = vec![x_names
            .get(x as usize)
            .filter(|_| x.fract() == 0.0 && x >= 0.0)
            .cloned()
            .unwrap_or_else(|| csv::number(x))];
        for (i, c) in curves.iter().enumerate() {
            match c.points.get(cursor[i]) {
                Some(&(px, y)) if px == x => {
                    row.push(csv::number(y));
                    cursor[i] += 1;
                }
                _ => row.push(String::new()),
            }
        }
        out += &csv::record(row);
    }
    out
}

/// A figure: the curves and everything around them.
#[derive(Debug, Clone)]
pub struct Figure<'a> {
    pub curves: &'a [Curve],
    pub x: (f64, f64),
    pub x_desc: &'a str,
    /// A logarithmic x axis (base 2: the values are powers of two).
    pub x_log: bool,
    /// Where x is a list of choices (a sweep over a policy), their names, at x = 0, 1, 2...: the ticks name them,
    /// and the points are not joined (nothing lies between two choices). Empty: x is a number.
    pub x_names: &'a [String],
    pub y: &'a YAxis,
    /// The scenario's groups in first-appearance order (for the groups' colours).
    pub groups: &'a [String],
    /// Drawn above the chart (exports).
    pub title: Option<&'a str>,
    pub theme: Theme,
    /// Backend pixels per CSS pixel (2 for the PNG export, the device pixel ratio on screen).
    pub scale: f64,
    /// A dot at each point (sweeps).
    pub markers: bool,
    /// A shaded band over this x range (the measured interval).
    pub band: Option<(f64, f64)>,
}

/// Background, text and grid colours of a theme.
pub fn chrome(theme: Theme) -> (RGBColor, RGBColor, RGBColor) {
    match theme {
        Theme::Light => (RGBColor(255, 255, 255), RGBColor(30, 30, 30), RGBColor(225, 225, 225)),
        Theme::Dark => (RGBColor(24, 26, 31), RGBColor(225, 225, 225), RGBColor(60, 63, 70)),
    }
}

fn rgb(c: Colour, theme: Theme) -> RGBColor {
    let (r, g, b) = c.rgb(theme);
    RGBColor(r, g, b)
}

/// Run B's lighter shade of a colour: halfway to the background.
fn lighter(c: RGBColor, bg: RGBColor) -> RGBColor {
    let mix = |a: u8, b: u8| ((u16::from(a) + u16::from(b)) / 2) as u8;
    RGBColor(mix(c.0, bg.0), mix(c.1, bg.1), mix(c.2, bg.2))
}

/// A number for a tick label: as short as it can be without losing digits ("0.25", "40", "450k", "1.5M").
pub fn tick(v: f64) -> String {
    if v == 0.0 {
        return String::from("0");
    }
    let trimmed = |s: String| s.trim_end_matches('0').trim_end_matches('.').to_owned();
    // Large: in thousands, millions or billions, so that an axis of marks per second reads 500k, 1M, 1.5M (not
    // 500000 beside 1e6, too wide for the axis's margin).
    if v.abs() >= 1e4 {
        let (scaled, unit) = match v.abs() {
            a if a >= 1e9 => (v / 1e9, "G"),
            a if a >= 1e6 => (v / 1e6, "M"),
            _ => (v / 1e3, "k"),
        };
        return format!("{}{unit}", trimmed(format!("{scaled:.3}")));
    }
    // Very small: the shortest exact scientific form (2.5e-5), so two ticks never read alike.
    if v.abs() < 1e-3 {
        // Four significant digits at most (a computed tick may carry float noise: 3.0000000000000003e-4).
        let s = format!("{v:.3e}");
        let (mantissa, exp) = s.split_once('e').unwrap_or((&s, "0"));
        return format!("{}e{exp}", mantissa.trim_end_matches('0').trim_end_matches('.'));
    }
    trimmed(format!("{v:.4}"))
}

/// Draws the figure on `area`.
pub fn draw<DB: DrawingBackend>(area: &DrawingArea<DB, Shift>, f: &Figure) -> Result<(), String> {
    let e = |err: DrawingAreaErrorKind<DB::ErrorType>| err.to_string();
    let (bg, fg, grid) = chrome(f.theme);
    area.fill(&bg).map_err(e)?;
    let px = |css: f64| (css * f.scale).round() as i32;
    let text = |size: f64| ("sans-serif", size * f.scale).into_font().color(&fg);
    let (w, h) = area.dim_in_pixel();
    let mut rest = area.clone();
    if let Some(title) = f.title {
        let (top, below) = rest.split_vertically(px(28.0));
        top.draw(&Text::new(title.to_owned(), (px(10.0), px(6.0)), text(15.0))).map_err(e)?;
        rest = below;
    }
    // The legend: beside the chart when there is room, else under it; one line per curve.
    let label_w = f.curves.iter().map(|c| c.label.chars().count()).max().unwrap_or(0) as f64 * 6.6 + 34.0;
    // (Below, in two columns, when a label would be cut beside and the figure is tall enough: a sweep's curves are
    // named by their other settings, and what tells them apart comes last.)
    let cut = label_w > 240.0 && f64::from(h) / f.scale > 300.0;
    let beside = f64::from(w) / f.scale > 560.0 && !f.curves.is_empty() && !cut;
    // Below: two columns where two labels fit side by side (a phone's sweep legend ran into itself), else one.
    let columns = if beside || 2.0 * label_w > f64::from(w) / f.scale { 1 } else { 2 };
    let (chart_area, legend_area) = if f.curves.is_empty() {
        (rest.clone(), None)
    } else if beside {
        let lw = px(label_w.min(240.0));
        let (c, l) = rest.split_horizontally(i32::try_from(w).unwrap_or(i32::MAX).saturating_sub(lw).max(px(200.0)));
        (c, Some(l))
    } else {
        let rows = f.curves.len().div_ceil(columns) as f64;
        let lh = px(rows * 17.0 + 8.0);
        let (c, l) = rest.split_vertically(i32::try_from(h).unwrap_or(i32::MAX).saturating_sub(lh).max(px(120.0)));
        (c, Some(l))
    };
    let top = y_top(f.curves, f.y.top);
    let x1 = f.x.1.max(f.x.0 + 1e-6);
    macro_rules! chart {
        ($range:expr) => {{
            let mut chart = ChartBuilder::on(&chart_area)
                .margin(px(8.0))
                .x_label_area_size(px(38.0))
                .y_label_area_size(px(52.0))
                .build_cartesian_2d($range, 0.0..top)
                .map_err(e)?;
            let mut mesh = chart.configure_mesh();
            if let Some(n) = whole_ticks(f.curves, top) {
                // (Whole things, a few of them: a tick per one, and no grid lines between.)
                mesh.y_labels(n).y_max_light_lines(1);
            }
            if !f.x_names.is_empty() {
                // (Choices: a tick at each, as whole things are, not at the quarters between them.)
                mesh.x_labels(f.x_names.len()).x_max_light_lines(1);
            }
            mesh.x_desc(f.x_desc)
                .y_desc(f.y.desc.as_str())
                .x_label_formatter(&|v| x_tick(*v, f.x_names))
                .y_label_formatter(&|v| tick(*v))
                .axis_desc_style(text(12.0))
                .label_style(text(11.0))
                .light_line_style(grid.mix(0.6))
                .bold_line_style(grid)
                .axis_style(fg)
                .draw()
                .map_err(e)?;
            if let Some((a, b)) = f.band {
                let (a, b) = (a.max(f.x.0), b.min(x1));
                if b > a {
                    // Neutral: colour on a plot means a group or a link.
                    let shade = fg.mix(0.06);
                    chart
                        .draw_series(std::iter::once(Rectangle::new([(a, 0.0), (b, top)], shade.filled())))
                        .map_err(e)?;
                }
            }
            // Groups first, links over them: a thin link line that runs along a thick group line (one flow alone
            // on it) stays visible.
            let all: Vec<(&Curve, Colour)> = f.curves.iter().zip(colours(f.curves, f.groups)).collect();
            let (links, groups): (Vec<_>, Vec<_>) = all.into_iter().partition(|(c, _)| matches!(c.what, What::Link(_)));
            for (c, colour) in groups.into_iter().chain(links) {
                let mut colour = rgb(colour, f.theme);
                if c.run == 1 {
                    colour = lighter(colour, bg);
                }
                let style = colour.stroke_width(px(c.width()).max(1) as u32);
                if !f.x_names.is_empty() {
                    // (Choices: dots, no line between them.)
                } else if c.run == 2 {
                    let (dash, gap) = (px(6.0).max(2) as u32, px(4.0).max(2) as u32);
                    chart.draw_series(DashedLineSeries::new(c.points.iter().copied(), dash, gap, style)).map_err(e)?;
                } else {
                    chart.draw_series(LineSeries::new(c.points.iter().copied(), style)).map_err(e)?;
                }
                if f.markers || !f.x_names.is_empty() {
                    let r = px(3.5).max(2);
                    chart.draw_series(c.points.iter().map(|&p| Circle::new(p, r, colour.filled()))).map_err(e)?;
                }
            }
        }};
    }
    if f.x_log && f.x.0 > 0.0 {
        chart!((f.x.0..x1).log_scale().base(2.0))
    } else {
        chart!(f.x.0..x1)
    }
    if let Some(l) = legend_area {
        draw_legend(&l, f, columns, bg).map_err(e)?;
    }
    area.present().map_err(e)
}

/// An x tick's label: a number, or, on an axis of choices, the choice's name at its whole x (none between two).
fn x_tick(v: f64, names: &[String]) -> String {
    if names.is_empty() {
        return tick(v);
    }
    let i = v.round();
    match names.get(i as usize) {
        Some(name) if (v - i).abs() < 1e-6 && i >= 0.0 => name.clone(),
        _ => String::new(),
    }
}

/// The legend, in `columns` columns (one beside the chart): a swatch as each curve is drawn (thin links, thick
/// groups, B lighter, C dashed) and its label.
fn draw_legend<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    f: &Figure,
    columns: usize,
    bg: RGBColor,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let px = |css: f64| (css * f.scale).round() as i32;
    let (_, fg, _) = chrome(f.theme);
    let (w, _) = area.dim_in_pixel();
    let col_w = i32::try_from(w).unwrap_or(0) / columns as i32;
    for (i, (c, colour)) in f.curves.iter().zip(colours(f.curves, f.groups)).enumerate() {
        let (col, row) = ((i % columns) as i32, (i / columns) as i32);
        let (x, y) = (col * col_w + px(8.0), px(14.0) + row * px(17.0));
        let mut colour = rgb(colour, f.theme);
        if c.run == 1 {
            colour = lighter(colour, bg);
        }
        let style = colour.stroke_width(px(c.width() + 0.5).max(1) as u32);
        if c.run == 2 {
            let (dash, gap) = (px(6.0).max(2) as u32, px(4.0).max(2) as u32);
            area.draw(&plotters::element::DashedPathElement::new(vec![(x, y), (x + px(20.0), y)], dash, gap, style))?;
        } else {
            area.draw(&PathElement::new(vec![(x, y), (x + px(20.0), y)], style))?;
        }
        if f.markers {
            area.draw(&Circle::new((x + px(10.0), y), px(3.5).max(2), colour.filled()))?;
        }
        let font = ("sans-serif", 11.0 * f.scale).into_font().color(&fg).pos(plotters::style::text_anchor::Pos::new(
            plotters::style::text_anchor::HPos::Left,
            plotters::style::text_anchor::VPos::Center,
        ));
        area.draw(&Text::new(c.label.clone(), (x + px(26.0), y), font))?;
    }
    Ok(())
}

/// The number of y ticks that puts one at every whole number from 0 to `top`, when every value plotted is whole
/// (packets in a buffer, processes) and there are few enough (ticks at 0.5 packet would say a buffer holds half
/// packets); `None` otherwise, to let the axis choose.
fn whole_ticks(curves: &[Curve], top: f64) -> Option<usize> {
    let mut values = curves.iter().flat_map(|c| c.points.iter().map(|p| p.1)).filter(|v| v.is_finite());
    let whole = values.all(|v| v.fract() == 0.0);
    (whole && top < 12.0).then(|| top.floor() as usize + 1)
}

/// The top of the y axis: `fixed` (raised above a curve that passes it, which is then not cut off), or a little
/// above the largest value (at least 1).
fn y_top(curves: &[Curve], fixed: Option<f64>) -> f64 {
    let max = curves.iter().flat_map(|c| c.points.iter().map(|p| p.1)).filter(|v| v.is_finite()).fold(0.0, f64::max);
    match fixed {
        Some(top) if max <= top => top,
        _ => (max * 1.08).max(1.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn groups() -> Vec<String> {
        ["local", "remote", "victim"].map(String::from).to_vec()
    }

    fn svg(f: &Figure, size: (u32, u32)) -> String {
        let mut out = String::new();
        {
            let area = SVGBackend::with_string(&mut out, size).into_drawing_area();
            draw(&area, f).unwrap();
        }
        out
    }

    fn figure<'a>(curves: &'a [Curve], y: &'a YAxis, groups: &'a [String]) -> Figure<'a> {
        Figure {
            curves,
            x: (0.0, 2.0),
            x_desc: "simulated time (ms)",
            x_log: false,
            x_names: &[],
            y,
            groups,
            title: None,
            theme: Theme::Light,
            scale: 1.0,
            markers: false,
            band: None,
        }
    }

    #[test]
    fn an_axis_of_choices_names_them_at_their_places_and_nothing_between() {
        let names = ["none".to_owned(), "naive".to_owned(), "input-triggered".to_owned()];
        let ticks: Vec<String> = [-0.5, 0.0, 0.5, 1.0, 2.0, 2.5].iter().map(|&v| x_tick(v, &names)).collect();
        assert_eq!(ticks, ["", "none", "", "naive", "input-triggered", ""]);
        assert_eq!(x_tick(2.0, &[]), tick(2.0), "a number axis keeps its numbers");
    }

    #[test]
    fn links_of_one_plot_get_distinct_colours_and_keep_them_in_runs_b_and_c() {
        let link = |c: u32, run: u8| Curve { run, ..Curve::new("l", vec![], What::Link(c)) };
        // Channels 0 and 6 would share a colour if it came from the channel.
        let curves = [link(0, 0), link(6, 0), link(0, 1), link(6, 1), link(0, 2), link(6, 2)];
        let c = colours(&curves, &[]);
        assert_ne!(c[0], c[1]);
        assert_eq!((c[2], c[3]), (c[0], c[1]), "B's links as A's");
        assert_eq!((c[4], c[5]), (c[0], c[1]), "C's links as A's");
        let g = colours(&[Curve::new("v", vec![], What::Group("victim".into()))], &["victim".to_owned()]);
        assert_eq!(g[0], palette::PURPLE);
    }

    #[test]
    fn csv_has_a_column_per_curve_and_a_row_per_x() {
        let curves = vec![
            Curve::new("B->BC", vec![(0.0, 50.0), (0.1, 100.0)], What::Link(4)),
            Curve::new("a, \"b\"", vec![(0.1, 25.0)], What::Group("a".into())),
        ];
        assert_eq!(to_csv("time_ms", &[], &curves), "time_ms,B->BC,\"a, \"\"b\"\"\"\n0,50,\n0.1,100,25\n");
        let choices = [Curve::new("victim", vec![(0.0, 14.1), (1.0, 74.9)], What::Group("victim".into()))];
        assert_eq!(to_csv("ib_cc", &["off".into(), "on".into()], &choices), "ib_cc,victim\noff,14.1\non,74.9\n");
    }

    #[test]
    fn a_group_has_its_colour_wherever_its_curve_is() {
        let y = YAxis { desc: "rate (%)".into(), top: Some(105.0) };
        let g = groups();
        let victim = |k: usize| {
            let mut v: Vec<Curve> = (0..k)
                .map(|i| Curve::new(format!("L{i}"), vec![(0.0, 1.0), (1.0, 2.0)], What::Link(i as u32)))
                .collect();
            v.push(Curve::new("victim flows", vec![(0.0, 20.0), (1.0, 15.0)], What::Group("victim".into())));
            v
        };
        let purple = format!("stroke=\"{}\"", palette::PURPLE.light.to_uppercase());
        for k in [0, 1, 3] {
            let c = victim(k);
            let out = svg(&figure(&c, &y, &g), (800, 300));
            assert!(out.contains(&purple), "the victim is purple after {k} link curves");
            assert!(out.contains("victim flows") && out.contains("simulated time (ms)"));
        }
    }

    #[test]
    fn a_link_along_a_group_is_drawn_over_it() {
        // One flow alone: its group's thick line and its link's thin one are the same points.
        let y = YAxis { desc: "rate (%)".into(), top: Some(105.0) };
        let g = groups();
        let pts = vec![(0.0, 50.0), (2.0, 50.0)];
        let c = vec![
            Curve::new("A->B", pts.clone(), What::Link(3)),
            Curve::new("local flows", pts, What::Group("local".into())),
        ];
        let out = svg(&figure(&c, &y, &g), (800, 300));
        let (blue, link) = (palette::BLUE.light.to_uppercase(), palette::link_colour(0).light.to_uppercase());
        let at =
            |colour: &str| out.find(&format!("<polyline fill=\"none\" opacity=\"1\" stroke=\"{colour}\"")).unwrap();
        assert!(at(&link) > at(&blue), "the link after the group");
    }

    #[test]
    fn the_legend_covers_no_data() {
        // A curve along the top right, where a legend inside the chart would sit: the legend is beside it instead.
        let y = YAxis { desc: "rate (%)".into(), top: Some(105.0) };
        let g = groups();
        let c = vec![Curve::new("local flows", vec![(0.0, 100.0), (2.0, 100.0)], What::Group("local".into()))];
        let out = svg(&figure(&c, &y, &g), (800, 300));
        // The label's text starts right of every drawn data point.
        let label_x: f64 = out
            .split("local flows")
            .next()
            .unwrap()
            .rsplit("x=\"")
            .next()
            .unwrap()
            .split('"')
            .next()
            .unwrap()
            .parse()
            .unwrap();
        let blue = palette::BLUE.light.to_uppercase();
        let line = out.split(&format!("stroke=\"{blue}\"")).next().unwrap();
        let points = line.rsplit("points=\"").next().unwrap().split('"').next().unwrap();
        let max_x = points.split(' ').filter_map(|p| p.split(',').next()?.parse::<f64>().ok()).fold(0.0, f64::max);
        assert!(label_x > max_x, "legend at {label_x}, data to {max_x}");
    }

    #[test]
    fn exports_carry_a_title_and_sweeps_their_markers_on_a_log_axis() {
        let y = YAxis { desc: "utilization (%)".into(), top: None };
        let g = groups();
        let c = vec![Curve::new("lipd", vec![(2.0, 80.0), (4.0, 90.0), (16.0, 97.0)], What::Series(0))];
        let mut f = figure(&c, &y, &g);
        f.x = (2.0, 16.0);
        f.x_log = true;
        f.markers = true;
        f.title = Some("Fig. 6: root link");
        f.scale = 2.0;
        let out = svg(&f, (1600, 600));
        assert!(out.contains("Fig. 6: root link"));
        assert!(out.matches("<circle").count() >= 3, "a marker per point");
        // On a base-2 log axis the ticks are the powers of two.
        let labels: Vec<&str> = out.split("</text>").filter_map(|t| t.rsplit('>').next()).map(str::trim).collect();
        assert!(labels.contains(&"4") && labels.contains(&"8") && labels.contains(&"16"), "{labels:?}");
        assert_eq!(tick(0.25), "0.25");
        assert_eq!(tick(40.0), "40");
        assert_eq!(tick(2e6), "2M");
        assert_eq!(tick(1.5e6), "1.5M", "not rounded to 2M beside it");
        assert_eq!(tick(450_000.0), "450k", "in thousands, as the millions beside it");
        assert_eq!(tick(12_500.0), "12.5k");
        assert_eq!(tick(3e9), "3G");
        assert_eq!(tick(9_999.0), "9999");
        assert_eq!(tick(2.5e-5), "2.5e-5", "not 0");
        assert_eq!(tick(0.0125), "0.0125");
        assert_eq!(tick(3.0000000000000003e-4), "3e-4", "float noise is not shown");
    }

    #[test]
    fn a_few_whole_things_are_ticked_at_whole_numbers() {
        // A buffer of 4 packets (the top fitted to 4.32): ticks at 0, 1, 2, 3, 4, none at half a packet.
        let y = YAxis { desc: "buffer occupancy, packets".into(), top: None };
        let g = groups();
        let c = vec![Curve::new("at A->B", vec![(0.0, 0.0), (1.0, 4.0), (2.0, 3.0)], What::Link(0))];
        let out = svg(&figure(&c, &y, &g), (800, 300));
        let labels: Vec<&str> = out.split("</text>").filter_map(|t| t.rsplit('>').next()).map(str::trim).collect();
        for whole in ["0", "1", "2", "3", "4"] {
            assert!(labels.contains(&whole), "{whole} in {labels:?}");
        }
        assert!(!labels.iter().any(|l| ["0.5", "1.5", "2.5", "3.5"].contains(l)), "{labels:?}");
        // Fractions, or too many whole numbers to tick each, are left to the axis.
        let half = [Curve::new("m", vec![(0.0, 0.5), (1.0, 4.0)], What::Link(0))];
        assert_eq!(whole_ticks(&half, 4.32), None);
        assert_eq!(whole_ticks(&c, 4.32), Some(5));
        assert_eq!(whole_ticks(&c, 30.0), None);
    }

    #[test]
    fn fitted_axes_hold_the_data() {
        let m = What::Link(0);
        assert_eq!(y_top(&[Curve::new("m", vec![(0.0, 5000.0)], m.clone())], None), 5400.0);
        assert_eq!(y_top(&[], None), 1.0);
        assert_eq!(y_top(&[Curve::new("m", vec![(0.0, 50.0)], m.clone())], Some(105.0)), 105.0);
        // A fixed top is a floor: a group's sum above it (a hot spot's 120%) is not cut off.
        assert!((y_top(&[Curve::new("m", vec![(0.0, 120.0)], m)], Some(105.0)) - 129.6).abs() < 1e-9);
    }
}
