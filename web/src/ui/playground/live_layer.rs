//! The live layer of a large network: its lanes, fresh marks, input buffers and flows painted on a canvas under
//! the SVG drawing, which keeps only what stays put between frames (nodes, folded groups, the selection, what a
//! lesson points at: `network::draw` with `layered`). Thousands of SVG elements changed every frame cost the page
//! hundreds of milliseconds; a canvas repainted in batches (one path per colour and width) costs a few. The marks
//! mean what the SVG's mean, in the same colours (`palette.rs`), so the legend holds for both. Small networks stay
//! all SVG, where every mark is an element a test or a screen reader can find.
//!
//! What is painted is also counted on the canvas element (`data-roots`, `data-blocked`, `data-marks`,
//! `data-buffers`, `data-full`, `data-flows`, `data-victims`, `data-contributors`), for tests and for the
//! drawing's description.

use super::network::{
    cables_look, cables_width, emphasised, fold_lanes, fold_looks, lane_look, mark_spot, route, Decor, LaneLook, Live,
    Role,
};
use crate::course::Highlight;
use crate::edit::Selection;
use crate::scene::{cable_groups, group_channels, offset_line, vl_levels, BufferSpot, Layout, Point};
use ibcc_core::scenario::Scenario;
use ibcc_view::palette::{self, Colour, Mark, Theme};
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement};

/// Whether a network is drawn layered: a fabric large enough to fold its hosts, or with more links than SVG
/// redraws smoothly every frame.
pub fn layered(s: &Scenario, lay: &Layout) -> bool {
    !lay.folds.is_empty() || s.links.len() > 150
}

/// What the painter needs of the drawing, worked out once per network (not per frame).
pub struct Geometry<'a> {
    pub s: &'a Scenario,
    pub lay: &'a Layout,
    pub ends: &'a [Option<(usize, usize)>],
    pub in_fold: &'a [Option<usize>],
    pub spots: &'a [BufferSpot],
    pub curves: &'a [Option<(Point, Point, Point)>],
    /// Each drawn link direction (outside folded groups) ([`segments`]).
    pub segments: &'a [Segment],
}

/// One lane: a link direction, or the same direction of parallel cables drawn as one.
#[derive(Debug, Clone, PartialEq)]
pub struct Segment {
    /// Its channels, one a cable (`2i` from link `i`'s `a` to `b`, `2i + 1` back).
    pub channels: Vec<usize>,
    /// Its two ends, offset to its side as the SVG draws it.
    pub ends: (Point, Point),
}

/// Each link direction drawn on its own (not in a folded group; parallel cables once, with the first). They move
/// only with the layout.
pub fn segments(lay: &Layout, ends: &[Option<(usize, usize)>], in_fold: &[Option<usize>]) -> Vec<Segment> {
    let groups = cable_groups(ends);
    let mut out = Vec::with_capacity(2 * ends.len());
    for (i, e) in ends.iter().enumerate() {
        let (Some((a, b)), None, false) = (e, in_fold[i], groups[i].is_empty()) else { continue };
        let (pa, pb) = (lay.positions[*a], lay.positions[*b]);
        out.push(Segment { channels: group_channels(&groups[i], ends, *a), ends: offset_line(pa, pb, 4.0) });
        out.push(Segment { channels: group_channels(&groups[i], ends, *b), ends: offset_line(pb, pa, 4.0) });
    }
    out
}

/// What was painted, by kind.
#[derive(Debug, Default)]
struct Counts {
    roots: usize,
    blocked: usize,
    marks: usize,
    buffers: usize,
    full: usize,
    flows: usize,
    victims: usize,
    contributors: usize,
    routes: usize,
}

/// Rates are painted in twentieths (a 5% step in shade and width is finer than the eye reads on a lane), so
/// lanes batch into a few paths.
const STEPS: f32 = 20.0;

/// How much of [`palette::rate_width`]'s growth with rate a lane shows: all of it on a drawing of a few hundred
/// lanes, less as they crowd (a quarter on a fabric of thousands), so that crossing cables stay apart on screen.
/// It also bounds the canvas's work: painting is paid per pixel covered, and on the 648-host fabric lanes as wide
/// as the SVG's cost a third of the frame rate (tests/browser/fabric_perf.mjs).
fn rate_growth(lanes: usize) -> f32 {
    (100.0 / lanes.max(1) as f32).sqrt().clamp(0.25, 1.0)
}

/// Lanes are batched by look: 0 idle, then each step of rate, plain and dashed (blocked).
fn lane_batch(look: LaneLook) -> usize {
    match look.rate {
        None => 0,
        Some(r) => 1 + 2 * (r.clamp(0.0, 1.0) * STEPS).round() as usize + usize::from(look.blocked),
    }
}

/// The drawing's boxes in CSS pixels: the whole SVG (the canvas covers it) and its content box inside the border
/// (`left, top, width, height`), where the viewBox is fitted. Read when the drawing is resized, never per frame:
/// reading a size just after the DOM changed forces the browser to lay the page out there and then.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Boxes {
    pub outer: (f64, f64),
    pub content: (f64, f64, f64, f64),
}

impl Boxes {
    pub fn of(svg: &Element) -> Self {
        let r = svg.get_bounding_client_rect();
        Self {
            outer: (r.width(), r.height()),
            content: (
                f64::from(svg.client_left()),
                f64::from(svg.client_top()),
                f64::from(svg.client_width()),
                f64::from(svg.client_height()),
            ),
        }
    }
}

/// Paints the live layer on `canvas`, which covers the SVG drawing (`boxes`) exactly, in the SVG's `view` (its
/// viewBox, fitted as `xMidYMid meet`).
#[allow(clippy::too_many_arguments)]
pub fn paint(
    canvas: &HtmlCanvasElement,
    boxes: Boxes,
    css: &Css,
    view: (f64, f64, f64, f64),
    g: &Geometry,
    live: Option<&Live>,
    decor: &Decor,
    theme: Theme,
) {
    let Some(ctx) = context(canvas) else { return };
    let ratio = super::super::theme::pixel_ratio();
    let (w, h) = boxes.outer;
    let (pw, ph) = ((w * ratio).round() as u32, (h * ratio).round() as u32);
    if canvas.width() != pw || canvas.height() != ph {
        canvas.set_width(pw);
        canvas.set_height(ph);
    }
    ctx.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0).ok();
    ctx.clear_rect(0.0, 0.0, f64::from(pw), f64::from(ph));
    // The viewBox fitted into the SVG's content box (inside its border), centred.
    let (left, top, cw, ch) = boxes.content;
    if cw <= 0.0 || ch <= 0.0 || view.2 <= 0.0 || view.3 <= 0.0 {
        return;
    }
    let k = (cw / view.2).min(ch / view.3);
    let ox = left + (cw - view.2 * k) / 2.0 - view.0 * k;
    let oy = top + (ch - view.3 * k) / 2.0 - view.1 * k;
    ctx.set_transform(k * ratio, 0.0, 0.0, k * ratio, ox * ratio, oy * ratio).ok();

    let mut counts = Counts::default();
    lanes(&ctx, g, live, decor, theme, &mut counts);
    // As the SVG: buffers whenever there is a run, fresh marks only when no pattern's routes are shown.
    if let Some(v) = live {
        if decor.load.is_none() {
            marks(&ctx, g, v, theme, &mut counts);
        }
        buffers(&ctx, g, v, decor, theme, css, &mut counts);
    }
    if decor.show_flows || matches!(decor.highlight, Some(Highlight::Flow(_))) {
        flows(&ctx, g, live, decor, theme, css, &mut counts);
    }
    for (name, n) in [
        ("data-roots", counts.roots),
        ("data-blocked", counts.blocked),
        ("data-marks", counts.marks),
        ("data-buffers", counts.buffers),
        ("data-full", counts.full),
        ("data-flows", counts.flows),
        ("data-victims", counts.victims),
        ("data-contributors", counts.contributors),
        ("data-routes", counts.routes),
    ] {
        canvas.set_attribute(name, &n.to_string()).ok();
    }
}

fn context(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas.get_context("2d").ok().flatten()?.dyn_into().ok()
}

/// The stylesheet's colours the layer needs besides the palette's (the panel behind a buffer, the muted ink of its
/// frame and of the flows' arrowheads), read from the drawing (once per theme) so they follow the stylesheet.
#[derive(Debug, Clone)]
pub struct Css {
    panel: String,
    muted: String,
}

impl Css {
    pub fn read(svg: &Element) -> Self {
        let style = web_sys::window().and_then(|w| w.get_computed_style(svg).ok().flatten());
        let var = |name: &str, or: &str| {
            style
                .as_ref()
                .and_then(|s| s.get_property_value(name).ok())
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
                .unwrap_or_else(|| or.to_owned())
        };
        Self { panel: var("--panel", "#ffffff"), muted: var("--muted", "#5a5f6a") }
    }
}

/// `p`% of `full` mixed with the rest of `idle`, as `color-mix(in srgb, …)` does for the SVG's lanes.
fn mix(full: Colour, idle: Colour, theme: Theme, p: f32) -> String {
    let (a, b) = (full.rgb(theme), idle.rgb(theme));
    let m = |x: u8, y: u8| (f32::from(x) * p + f32::from(y) * (1.0 - p)).round() as u8;
    format!("#{:02x}{:02x}{:02x}", m(a.0, b.0), m(a.1, b.1), m(a.2, b.2))
}

fn segment(ctx: &CanvasRenderingContext2d, (a, b): (Point, Point)) {
    ctx.move_to(a.0, a.1);
    ctx.line_to(b.0, b.1);
}

fn stroke(ctx: &CanvasRenderingContext2d, colour: &str, width: f64, alpha: f64) {
    ctx.set_global_alpha(alpha);
    ctx.set_stroke_style_str(colour);
    ctx.set_line_width(width);
    ctx.stroke();
    ctx.set_global_alpha(1.0);
}

fn dash(ctx: &CanvasRenderingContext2d, on: bool) {
    let pattern: js_sys::Array =
        if on { [6.0, 4.0].into_iter().map(JsValue::from_f64).collect() } else { js_sys::Array::new() };
    ctx.set_line_dash(&pattern).ok();
}

/// Every lane (a link's direction, or a folded group's), then the halos of those in the congestion tree.
fn lanes(
    ctx: &CanvasRenderingContext2d,
    g: &Geometry,
    live: Option<&Live>,
    decor: &Decor,
    theme: Theme,
    n: &mut Counts,
) {
    // Parallel cables' lanes are wider than one cable's: painted on their own after the batches.
    let mut all: Vec<((Point, Point), LaneLook)> = g
        .segments
        .iter()
        .filter(|seg| seg.channels.len() == 1)
        .map(|seg| (seg.ends, lane_look(seg.channels[0], live, decor)))
        .collect();
    let trunks: Vec<((Point, Point), LaneLook, usize)> = g
        .segments
        .iter()
        .filter(|seg| seg.channels.len() > 1)
        .map(|seg| (seg.ends, cables_look(&seg.channels, live, decor), seg.channels.len()))
        .collect();
    for (k, looks) in fold_looks(g.lay, g.ends, g.in_fold, live, decor).into_iter().enumerate() {
        let [down, up] = fold_lanes(g.lay, k);
        all.push((down, looks[0]));
        all.push((up, looks[1]));
    }
    let growth = rate_growth(all.len());
    let mut batches: Vec<Vec<(Point, Point)>> = vec![Vec::new(); 3 + 2 * STEPS as usize];
    for &(seg, look) in &all {
        batches[lane_batch(look)].push(seg);
    }
    for (b, segs) in batches.into_iter().enumerate().filter(|(_, segs)| !segs.is_empty()) {
        ctx.begin_path();
        for seg in segs {
            segment(ctx, seg);
        }
        if b == 0 {
            dash(ctx, false);
            stroke(ctx, palette::INK_IDLE.hex(theme), 1.5, 1.0);
        } else {
            let r = ((b - 1) / 2) as f32 / STEPS;
            dash(ctx, (b - 1) % 2 == 1);
            let width = palette::rate_width(r * growth);
            stroke(ctx, &mix(palette::INK_FULL, palette::INK_IDLE, theme, r), f64::from(width), 1.0);
        }
    }
    for &(seg, look, cables) in &trunks {
        ctx.begin_path();
        segment(ctx, seg);
        dash(ctx, look.blocked);
        // (As the SVG: an idle trunk is a plain lane; a busy one wider for more cables.)
        let (colour, width) = match look.rate {
            None => (String::from(palette::INK_IDLE.hex(theme)), 1.5),
            Some(r) => (
                mix(palette::INK_FULL, palette::INK_IDLE, theme, r),
                palette::rate_width(r * growth) * cables_width(cables),
            ),
        };
        stroke(ctx, &colour, f64::from(width), 1.0);
        all.push((seg, look));
    }
    dash(ctx, false);
    // The tree's halos over the lanes (translucent): among a thousand busy lanes, under them they would be lost.
    ctx.set_line_cap("round");
    for (root, width, alpha, colour) in
        [(false, 12.0, 0.4, Mark::Blocked.colour()), (true, 20.0, 0.45, Mark::Root.colour())]
    {
        ctx.begin_path();
        for (seg, look) in &all {
            // A root's halo is red whether or not it is blocked too (as the SVG's).
            if (look.root && root) || (look.blocked && !look.root && !root) {
                segment(ctx, *seg);
                if root {
                    n.roots += 1;
                } else {
                    n.blocked += 1;
                }
            }
        }
        stroke(ctx, colour.hex(theme), width, alpha);
    }
    ctx.set_line_cap("butt");
}

/// Packets marked lately: a yellow dot near each lane's sending end, bigger for more.
fn marks(ctx: &CanvasRenderingContext2d, g: &Geometry, v: &Live, theme: Theme, n: &mut Counts) {
    ctx.begin_path();
    for s in g.segments {
        let (seg, fresh) =
            (s.ends, s.channels.iter().map(|&c| v.recent_marks.get(c).copied().unwrap_or(0)).sum::<u64>());
        if fresh == 0 {
            continue;
        }
        let r = (2.5 + (fresh as f64).log10() * 1.5).min(6.0);
        let (x, y) = mark_spot(seg.0, seg.1);
        ctx.move_to(x + r, y);
        ctx.arc(x, y, r, 0.0, core::f64::consts::TAU).ok();
        n.marks += 1;
    }
    ctx.set_fill_style_str(Mark::Ecn.colour().hex(theme));
    ctx.fill();
    stroke(ctx, "#5d4037", 1.0, 1.0);
}

/// Adds the rectangle `x, y, w, h` of a buffer's own frame (along its lane, centred on its spot) to the path.
fn quad(ctx: &CanvasRenderingContext2d, spot: &BufferSpot, x: f64, y: f64, w: f64, h: f64) {
    let (sin, cos) = spot.angle_deg.to_radians().sin_cos();
    let at = |u: f64, v: f64| (spot.centre.0 + u * cos - v * sin, spot.centre.1 + u * sin + v * cos);
    let corners = [at(x, y), at(x + w, y), at(x + w, y + h), at(x, y + h)];
    // Back to the first corner by hand: closePath per rectangle made Chromium's paths cost quadratic time here.
    ctx.move_to(corners[0].0, corners[0].1);
    for c in corners[1..].iter().chain(&corners[..1]) {
        ctx.line_to(c.0, c.1);
    }
}

/// Each switch input buffer (outside folded groups): its frame, and a bar per data VL filling from the switch end,
/// amber when full, with lines between the VLs; the one a lesson step points at boxed.
fn buffers(
    ctx: &CanvasRenderingContext2d,
    g: &Geometry,
    v: &Live,
    decor: &Decor,
    theme: Theme,
    css: &Css,
    n: &mut Counts,
) {
    let mut spot_of: Vec<Option<&BufferSpot>> = vec![None; 2 * g.s.links.len()];
    for p in g.spots {
        if let Some(at) = spot_of.get_mut(p.channel as usize) {
            *at = Some(p);
        }
    }
    let shown: Vec<_> = v
        .snapshot
        .buffers
        .iter()
        .filter(|b| g.in_fold.get(b.channel as usize / 2).is_none_or(Option::is_none))
        .filter_map(|b| Some((b, (*spot_of.get(b.channel as usize)?)?)))
        .collect();
    ctx.begin_path();
    for (_, spot) in &shown {
        quad(ctx, spot, -spot.length / 2.0, -spot.width / 2.0, spot.length, spot.width);
    }
    ctx.set_fill_style_str(&css.panel);
    ctx.fill();
    stroke(ctx, &css.muted, 0.8, 1.0);
    for full in [false, true] {
        ctx.begin_path();
        for (b, spot) in &shown {
            let lanes = vl_levels(b);
            let stripe = spot.width / lanes.len().max(1) as f64;
            for (k, &(fill, is_full)) in lanes.iter().enumerate() {
                let fill = fill.clamp(0.0, 1.0);
                if is_full != full || fill <= 0.0 {
                    continue;
                }
                let l = spot.length;
                quad(ctx, spot, l / 2.0 - l * fill, -spot.width / 2.0 + stripe * k as f64, l * fill, stripe);
            }
            if !full && b.fill > 0.0 {
                n.buffers += 1;
            }
            if full && lanes.iter().any(|&(_, f)| f) {
                n.full += 1;
            }
        }
        let (colour, alpha) = if full { (Mark::BufferFull.colour(), 1.0) } else { (Mark::Buffer.colour(), 0.8) };
        ctx.set_global_alpha(alpha);
        ctx.set_fill_style_str(colour.hex(theme));
        ctx.fill();
        ctx.set_global_alpha(1.0);
    }
    ctx.begin_path();
    for (b, spot) in shown.iter().filter(|(b, _)| b.vl_fill.len() > 1) {
        let stripe = spot.width / b.vl_fill.len() as f64;
        for k in 1..b.vl_fill.len() {
            let y = -spot.width / 2.0 + stripe * k as f64;
            let (sin, cos) = spot.angle_deg.to_radians().sin_cos();
            let at = |u: f64| (spot.centre.0 + u * cos - y * sin, spot.centre.1 + u * sin + y * cos);
            segment(ctx, (at(-spot.length / 2.0), at(spot.length / 2.0)));
        }
    }
    stroke(ctx, &css.muted, 0.6, 1.0);
    // What a lesson step points at: the buffer at switch `at` fed from `from`.
    if let Some(Highlight::Buffer { at, from }) = decor.highlight {
        let named = |ch: u32| {
            let l = &g.s.links[ch as usize / 2];
            if ch % 2 == 0 {
                l.a == *from && l.b == *at
            } else {
                l.b == *from && l.a == *at
            }
        };
        ctx.begin_path();
        for (_, spot) in shown.iter().filter(|(b, _)| named(b.channel)) {
            quad(ctx, spot, -spot.length / 2.0 - 4.0, -spot.width / 2.0 - 4.0, spot.length + 8.0, spot.width + 8.0);
        }
        stroke(ctx, palette::SELECTION.hex(theme), 3.0, 1.0);
    }
}

/// Each flow's curve in its group's colour with an arrowhead, over a red halo when it feeds a root and an amber
/// one when it is a victim.
fn flows(
    ctx: &CanvasRenderingContext2d,
    g: &Geometry,
    live: Option<&Live>,
    decor: &Decor,
    theme: Theme,
    css: &Css,
    n: &mut Counts,
) {
    let names = crate::scene::groups(g.s);
    let colours = palette::group_colours(&names);
    let curve = |(a, c, b): (Point, Point, Point)| {
        ctx.move_to(a.0, a.1);
        ctx.quadratic_curve_to(c.0, c.1, b.0, b.1);
    };
    let roles: Vec<Option<Role>> = (0..g.s.flows.len()).map(|i| live.and_then(|v| v.role(i))).collect();
    ctx.set_line_cap("round");
    for (role, colour, alpha) in
        [(Role::Victim, Mark::Victim.colour(), 0.4), (Role::Contributor, Mark::Contributor.colour(), 0.3)]
    {
        ctx.begin_path();
        for (c, _) in g.curves.iter().zip(&roles).filter(|(_, r)| **r == Some(role)) {
            if let Some(c) = c {
                curve(*c);
            }
        }
        stroke(ctx, colour.hex(theme), 9.0, alpha);
    }
    // The route of a selected flow, or a lesson's, along its links under its curve (as the SVG draws it).
    ctx.set_line_join("round");
    for (i, f) in g.s.flows.iter().enumerate().filter(|(_, f)| emphasised(f, decor)) {
        let Some(points) = route(g.ends, g.lay, live, i) else { continue };
        ctx.begin_path();
        ctx.move_to(points[0].0, points[0].1);
        for p in &points[1..] {
            ctx.line_to(p.0, p.1);
        }
        stroke(ctx, palette::SELECTION.hex(theme), 13.0, 0.45);
        let colour = names.iter().position(|n| *n == f.group).and_then(|k| colours.get(k)).copied();
        stroke(ctx, colour.unwrap_or(palette::GREY).hex(theme), 3.0, 1.0);
        n.routes += 1;
    }
    ctx.set_line_join("miter");
    ctx.set_line_cap("butt");
    // Batched by colour (the group's, or grey), whether off now, and emphasis (0 plain, 1 selected, 2 what a
    // lesson points at).
    let batch = |colour: usize, off: bool, emphasis: usize| (colour * 2 + usize::from(off)) * 3 + emphasis;
    let mut batches: Vec<Vec<(Point, Point, Point)>> = vec![Vec::new(); batch(names.len() + 1, false, 0)];
    for (i, (f, c)) in g.s.flows.iter().zip(g.curves).enumerate() {
        let Some(c) = c else { continue };
        n.flows += 1;
        match roles[i] {
            Some(Role::Victim) => n.victims += 1,
            Some(Role::Contributor) => n.contributors += 1,
            None => {}
        }
        let off = live.and_then(|v| v.snapshot.flows.get(i)).is_some_and(|f| !f.active);
        let emphasis = if matches!(decor.highlight, Some(Highlight::Flow(h)) if *h == f.id || *h == f.group) {
            2
        } else {
            usize::from(decor.selection == Some(&Selection::Flow(f.id.clone())))
        };
        let colour = names.iter().position(|n| *n == f.group).unwrap_or(names.len());
        batches[batch(colour, off, emphasis)].push(*c);
    }
    for (b, curves) in batches.into_iter().enumerate().filter(|(_, c)| !c.is_empty()) {
        ctx.begin_path();
        for c in &curves {
            curve(*c);
        }
        let (colour, off, emphasis) = (b / 6, (b / 3) % 2 == 1, b % 3);
        let colour = colours.get(colour).copied().unwrap_or(palette::GREY);
        // As the stylesheet: a selected flow or a lesson's is drawn in full even when off.
        let alpha = if emphasis > 0 {
            1.0
        } else if off {
            0.25
        } else {
            0.9
        };
        let width = [2.5, 4.0, 4.5][emphasis];
        stroke(ctx, colour.hex(theme), width, alpha);
        // Arrowheads where each curve arrives, along its last direction, as the SVG's marker draws them: six
        // stroke widths long and wide, the tip 0.6 of a width past the end, opaque.
        ctx.begin_path();
        for &(_, c, b) in &curves {
            let (dx, dy) = (b.0 - c.0, b.1 - c.1);
            let len = (dx * dx + dy * dy).sqrt().max(1e-9);
            let (ux, uy) = (dx / len, dy / len);
            let tip = (b.0 + ux * 0.6 * width, b.1 + uy * 0.6 * width);
            let (bx, by) = (tip.0 - ux * 6.0 * width, tip.1 - uy * 6.0 * width);
            ctx.move_to(tip.0, tip.1);
            ctx.line_to(bx - uy * 3.0 * width, by + ux * 3.0 * width);
            ctx.line_to(bx + uy * 3.0 * width, by - ux * 3.0 * width);
            ctx.line_to(tip.0, tip.1);
        }
        ctx.set_fill_style_str(&css.muted);
        ctx.fill();
    }
}
