//! What the playground draws, computed from a scenario and a snapshot: node positions, and how a link's rate looks.
//! Pure Rust, so it is tested natively.

use ibcc_core::scenario::Scenario;

/// Where each node is drawn, in the scenario's coordinates, and the box around them all.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub positions: Vec<(f64, f64)>,
    /// `(min_x, min_y, width, height)`, with a margin.
    pub view_box: (f64, f64, f64, f64),
}

/// The smallest view, in scenario units.
const MIN_VIEW: (f64, f64) = (640.0, 400.0);

/// Nodes keep their `x`, `y`; nodes without them go on a circle, so any valid scenario can be drawn.
pub fn layout(s: &Scenario) -> Layout {
    let n = s.nodes.len().max(1) as f64;
    let positions: Vec<(f64, f64)> = s
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| match (node.x, node.y) {
            (Some(x), Some(y)) => (x, y),
            _ => {
                let a = core::f64::consts::TAU * i as f64 / n;
                (500.0 + 300.0 * a.cos(), 300.0 + 250.0 * a.sin())
            }
        })
        .collect();
    let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
    for &(x, y) in &positions {
        x0 = x0.min(x);
        y0 = y0.min(y);
        x1 = x1.max(x);
        y1 = y1.max(y);
    }
    if positions.is_empty() {
        (x0, y0, x1, y1) = (500.0, 300.0, 500.0, 300.0);
    }
    // At least a canvas' worth around the nodes, so a small network is not drawn huge and there is room to add more.
    let margin = 60.0;
    let (w, h) = (((x1 - x0) + 2.0 * margin).max(MIN_VIEW.0), ((y1 - y0) + 2.0 * margin).max(MIN_VIEW.1));
    let (cx, cy) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    Layout { positions, view_box: (cx - w / 2.0, cy - h / 2.0, w, h) }
}

/// Stroke width of a directed link carrying `rate` (fraction of capacity): thin when idle, thick when full.
pub fn rate_width(rate: f32) -> f32 {
    1.5 + 7.0 * rate.clamp(0.0, 1.0)
}

/// Colour of a directed link carrying `rate`: grey when idle, through blue, to red when saturated.
pub fn rate_colour(rate: f32) -> String {
    let r = rate.clamp(0.0, 1.0);
    if r < 0.02 {
        return String::from("#9aa0a6");
    }
    // Hue from 210 (blue) to 0 (red).
    let hue = 210.0 * (1.0 - r);
    format!("hsl({hue:.0}, 75%, 48%)")
}

/// The point `offset` units to the right of the line from `a` to `b` (so the two directions of a link sit side by
/// side, each on its own right-hand lane).
pub fn offset_line(a: (f64, f64), b: (f64, f64), offset: f64) -> ((f64, f64), (f64, f64)) {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let (nx, ny) = (-dy / len * offset, dx / len * offset);
    ((a.0 + nx, a.1 + ny), (b.0 + nx, b.1 + ny))
}

/// Where a pointer at `(px, py)` on the page falls in view coordinates, for an SVG whose box on the page is
/// `rect` (`left, top, width, height`) showing `view_box` with `preserveAspectRatio="xMidYMid meet"`.
pub fn client_to_view(rect: (f64, f64, f64, f64), view_box: (f64, f64, f64, f64), px: f64, py: f64) -> (f64, f64) {
    let (l, t, w, h) = rect;
    let (vx, vy, vw, vh) = view_box;
    let scale = (w / vw).min(h / vh).max(1e-9);
    let (ox, oy) = (l + (w - vw * scale) / 2.0, t + (h - vh * scale) / 2.0);
    (vx + (px - ox) / scale, vy + (py - oy) / scale)
}

/// `view_box` zoomed by `factor` (above 1: closer) keeping the point `about` where it is.
pub fn zoom_box(view_box: (f64, f64, f64, f64), factor: f64, about: (f64, f64)) -> (f64, f64, f64, f64) {
    let (x, y, w, h) = view_box;
    let f = factor.clamp(0.05, 20.0);
    let (nw, nh) = ((w / f).clamp(40.0, 40_000.0), (h / f).clamp(40.0, 40_000.0));
    let (kx, ky) = (nw / w, nh / h);
    (about.0 - (about.0 - x) * kx, about.1 - (about.1 - y) * ky, nw, nh)
}

/// The control point of flow `k` of `n` between two hosts drawn as a quadratic curve from `a` to `b`: bowed to
/// one side, more for each further flow, so flows between the same hosts stay apart.
pub fn flow_control(a: (f64, f64), b: (f64, f64), k: usize) -> (f64, f64) {
    let (mx, my) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    let bow = 0.18 * len + 22.0 * k as f64;
    (mx - dy / len * bow, my + dx / len * bow)
}

/// A point of the quadratic curve from `a` through control `c` to `b`, at `t` in 0..=1.
pub fn on_curve(a: (f64, f64), c: (f64, f64), b: (f64, f64), t: f64) -> (f64, f64) {
    let u = 1.0 - t;
    (u * u * a.0 + 2.0 * u * t * c.0 + t * t * b.0, u * u * a.1 + 2.0 * u * t * c.1 + t * t * b.1)
}

/// Distance from `p` to the segment `a`-`b`.
pub fn segment_distance(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 { 0.0 } else { (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / len2).clamp(0.0, 1.0) };
    let (cx, cy) = (a.0 + t * dx, a.1 + t * dy);
    ((p.0 - cx).powi(2) + (p.1 - cy).powi(2)).sqrt()
}

/// Distance from `p` to a flow's curve (sampled finely enough for picking).
pub fn curve_distance(p: (f64, f64), a: (f64, f64), c: (f64, f64), b: (f64, f64)) -> f64 {
    let pts: Vec<(f64, f64)> = (0..=24).map(|i| on_curve(a, c, b, i as f64 / 24.0)).collect();
    pts.windows(2).map(|w| segment_distance(p, w[0], w[1])).fold(f64::INFINITY, f64::min)
}

/// What lies under a point of the canvas.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hit {
    Node(usize),
    Link(usize),
    Flow(usize),
}

/// Half the size of a node as drawn, for picking: switches are 44 by 32, hosts a circle of radius 13.
const NODE_PICK: f64 = 24.0;
/// How near a link or a flow curve a pointer must be to pick it.
const LINE_PICK: f64 = 7.0;

/// A point in view coordinates.
pub type Point = (f64, f64);

/// The flows' curves: for each flow with known ends, its start, control point and end.
pub fn flow_curves(s: &Scenario, lay: &Layout) -> Vec<Option<(Point, Point, Point)>> {
    let index = |id: &str| s.nodes.iter().position(|n| n.id == id);
    let mut seen: Vec<(usize, usize)> = Vec::new();
    s.flows
        .iter()
        .map(|f| {
            let (a, b) = (index(&f.src)?, index(&f.dst)?);
            let k = seen.iter().filter(|&&p| p == (a, b) || p == (b, a)).count();
            seen.push((a, b));
            let (pa, pb) = (lay.positions[a], lay.positions[b]);
            Some((pa, flow_control(pa, pb, k), pb))
        })
        .collect()
}

/// The node, flow or link under `p` (in that order of preference), if any.
pub fn hit_test(s: &Scenario, lay: &Layout, p: (f64, f64), show_flows: bool) -> Option<Hit> {
    let near = |q: (f64, f64), r: f64| (p.0 - q.0).abs() <= r && (p.1 - q.1).abs() <= r;
    if let Some(i) = (0..lay.positions.len()).rev().find(|&i| near(lay.positions[i], NODE_PICK)) {
        return Some(Hit::Node(i));
    }
    if show_flows {
        let curves = flow_curves(s, lay);
        let best = curves
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|(a, k, b)| (i, curve_distance(p, a, k, b))))
            .min_by(|x, y| x.1.total_cmp(&y.1));
        if let Some((i, d)) = best {
            if d <= LINE_PICK {
                return Some(Hit::Flow(i));
            }
        }
    }
    let index = |id: &str| s.nodes.iter().position(|n| n.id == id);
    s.links
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            let (a, b) = (index(&l.a)?, index(&l.b)?);
            Some((i, segment_distance(p, lay.positions[a], lay.positions[b])))
        })
        .filter(|&(_, d)| d <= LINE_PICK + 4.0)
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(i, _)| Hit::Link(i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preset_positions_are_kept_and_others_placed() {
        let s = ibcc_core::presets::find("infocom03-fig2").unwrap().scenario();
        let l = layout(&s);
        assert_eq!(l.positions[0], (300.0, 300.0));
        let (x0, y0, w, h) = l.view_box;
        assert!(l.positions.iter().all(|&(x, y)| x > x0 && x < x0 + w && y > y0 && y < y0 + h));
        let mut bare = s.clone();
        for n in &mut bare.nodes {
            n.x = None;
        }
        let l = layout(&bare);
        assert!(l.positions.windows(2).all(|w| w[0] != w[1]), "distinct places on the circle");
        let empty = layout(&Scenario::empty("", 1));
        assert_eq!(empty.view_box, (180.0, 100.0, 640.0, 400.0), "an empty canvas has room to build");
    }

    #[test]
    fn rate_styling_is_monotone_and_bounded() {
        assert!(rate_width(0.0) < rate_width(0.5) && rate_width(0.5) < rate_width(1.0));
        assert_eq!(rate_width(7.0), rate_width(1.0));
        assert_eq!(rate_colour(0.0), "#9aa0a6");
        assert_eq!(rate_colour(1.0), "hsl(0, 75%, 48%)");
    }

    #[test]
    fn pointer_positions_map_into_the_view() {
        // A 200x100 view shown in a 400x400 box: scale 2, centred vertically (100 px bands above and below).
        let (rect, vb) = ((10.0, 20.0, 400.0, 400.0), (0.0, 0.0, 200.0, 100.0));
        assert_eq!(client_to_view(rect, vb, 10.0, 120.0), (0.0, 0.0));
        assert_eq!(client_to_view(rect, vb, 410.0, 320.0), (200.0, 100.0));
        let z = zoom_box((0.0, 0.0, 200.0, 100.0), 2.0, (50.0, 50.0));
        assert_eq!(z, (25.0, 25.0, 100.0, 50.0), "zooming keeps the point under the pointer");
    }

    #[test]
    fn picks_nodes_then_flows_then_links() {
        let s = ibcc_core::presets::find("infocom03-fig2").unwrap().scenario();
        let lay = layout(&s);
        let sw = s.nodes.iter().position(|n| n.id == "A").unwrap();
        assert_eq!(hit_test(&s, &lay, lay.positions[sw], true), Some(Hit::Node(sw)));
        let l = &s.links[0];
        let (a, b) =
            (s.nodes.iter().position(|n| n.id == l.a).unwrap(), s.nodes.iter().position(|n| n.id == l.b).unwrap());
        let mid = ((lay.positions[a].0 + lay.positions[b].0) / 2.0, (lay.positions[a].1 + lay.positions[b].1) / 2.0);
        assert!(matches!(hit_test(&s, &lay, mid, false), Some(Hit::Link(_))));
        let (pa, c, pb) = flow_curves(&s, &lay)[0].unwrap();
        assert_eq!(hit_test(&s, &lay, on_curve(pa, c, pb, 0.5), true), Some(Hit::Flow(0)));
        assert_eq!(hit_test(&s, &lay, (-5000.0, -5000.0), true), None);
    }

    #[test]
    fn offset_lines_sit_to_the_right() {
        let ((x, y), _) = offset_line((0.0, 0.0), (10.0, 0.0), 2.0);
        assert_eq!((x, y), (0.0, 2.0));
        let ((x, y), _) = offset_line((10.0, 0.0), (0.0, 0.0), 2.0);
        assert_eq!((x, y), (10.0, -2.0), "the other direction on the other side");
    }
}
