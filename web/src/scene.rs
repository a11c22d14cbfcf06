//! What the playground draws, computed from a scenario and a snapshot: node positions, and how a link's rate looks.
//! Pure Rust, so it is tested natively.

use crate::levels::{levels, Fold, Placed};
use ibcc_core::scenario::Scenario;
use std::collections::HashMap;

/// Where each node is drawn, in the scenario's coordinates, and the box around them all.
#[derive(Debug, Clone, PartialEq)]
pub struct Layout {
    pub positions: Vec<(f64, f64)>,
    /// A large fabric's hosts folded into one group under their switch ([`crate::levels`]).
    pub folds: Vec<Fold>,
    /// `(min_x, min_y, width, height)`, with a margin.
    pub view_box: (f64, f64, f64, f64),
}

impl Layout {
    /// Per node: whether it is drawn as part of a folded group rather than on its own.
    pub fn folded(&self) -> Vec<bool> {
        let mut out = vec![false; self.positions.len()];
        for &h in self.folds.iter().flat_map(|f| &f.hosts) {
            out[h] = true;
        }
        out
    }
}

/// The smallest view, in scenario units.
const MIN_VIEW: (f64, f64) = (640.0, 400.0);

/// Nodes keep their `x`, `y`; nodes without them (an imported fabric's) are laid out in levels
/// ([`crate::levels`]), so any valid scenario can be drawn; a large fabric's hosts are folded under their switch.
pub fn layout(s: &Scenario) -> Layout {
    layout_open(s, &[])
}

/// [`layout`], with the hosts of the switches in `open` shown one by one.
pub fn layout_open(s: &Scenario, open: &[usize]) -> Layout {
    let placed =
        if s.nodes.iter().all(|n| n.x.is_some() && n.y.is_some()) { Placed::default() } else { levels(s, open) };
    let positions: Vec<(f64, f64)> = s
        .nodes
        .iter()
        .enumerate()
        .map(|(i, node)| match (node.x, node.y) {
            (Some(x), Some(y)) => (x, y),
            _ => placed.positions[i],
        })
        .collect();
    // A host the user has placed is not in a group.
    let mut folds = placed.folds;
    for f in &mut folds {
        f.hosts.retain(|&h| s.nodes[h].x.is_none() || s.nodes[h].y.is_none());
    }
    folds.retain(|f| !f.hosts.is_empty());
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
    Layout { positions, folds, view_box: (cx - w / 2.0, cy - h / 2.0, w, h) }
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

/// What lies under a point of the canvas (or has the keyboard's focus).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hit {
    Node(usize),
    Link(usize),
    Flow(usize),
    /// The switch input buffer fed by this channel.
    Buffer(u32),
}

/// Half the size of a node as drawn, for picking: switches are 44 by 32, hosts a circle of radius 13.
const NODE_PICK: f64 = 24.0;
/// How near a link or a flow curve a pointer must be to pick it.
const LINE_PICK: f64 = 7.0;

/// A point in view coordinates.
pub type Point = (f64, f64);

/// Each node's index by its id (a large fabric has thousands: searching the list per link or flow would be
/// quadratic).
pub fn node_indices(s: &Scenario) -> HashMap<&str, usize> {
    s.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect()
}

/// Each link's two ends as node indices (`None` for a link naming a node that is not there).
pub fn link_ends(s: &Scenario) -> Vec<Option<(usize, usize)>> {
    let index = node_indices(s);
    s.links.iter().map(|l| Some((*index.get(l.a.as_str())?, *index.get(l.b.as_str())?))).collect()
}

/// Parallel cables, drawn as one link with their count: for each link that is the first joining its two nodes, every
/// link joining them (itself first); empty for the others (and for a link with an unknown end).
pub fn cable_groups(ends: &[Option<(usize, usize)>]) -> Vec<Vec<usize>> {
    let mut first: HashMap<(usize, usize), usize> = HashMap::new();
    let mut groups = vec![Vec::new(); ends.len()];
    for (i, e) in ends.iter().enumerate() {
        let Some((a, b)) = *e else { continue };
        let f = *first.entry((a.min(b), a.max(b))).or_insert(i);
        groups[f].push(i);
    }
    groups
}

/// The number of cables in every bundle of parallel cables, when there are many bundles and all are that size (a
/// leaf-spine fabric of 2 cables per leaf and spine): said once (the legend), not on each of them, where a row of
/// "×2" could be read against the wrong link.
pub fn uniform_bundles(groups: &[Vec<usize>]) -> Option<usize> {
    let sizes: Vec<usize> = groups.iter().map(Vec::len).filter(|&n| n > 1).collect();
    let first = *sizes.first()?;
    (sizes.len() > 4 && sizes.iter().all(|&n| n == first)).then_some(first)
}

/// The channels of `group`'s links that run from node `from` (link `j` gives `2j` from its `a` to its `b`, `2j + 1`
/// back).
pub fn group_channels(group: &[usize], ends: &[Option<(usize, usize)>], from: usize) -> Vec<usize> {
    group.iter().filter_map(|&j| ends[j].map(|(a, _)| 2 * j + usize::from(a != from))).collect()
}

/// The flows' curves: for each flow with known ends, its start, control point and end.
pub fn flow_curves(s: &Scenario, lay: &Layout) -> Vec<Option<(Point, Point, Point)>> {
    let index = node_indices(s);
    let index = |id: &str| index.get(id).copied();
    // How many flows between the same two nodes (either way) came before: each bends further out.
    let mut seen: HashMap<(usize, usize), usize> = HashMap::new();
    s.flows
        .iter()
        .map(|f| {
            let (a, b) = (index(&f.src)?, index(&f.dst)?);
            let count = seen.entry((a.min(b), a.max(b))).or_default();
            let k = *count;
            *count += 1;
            let (pa, pb) = (lay.positions[a], lay.positions[b]);
            Some((pa, flow_control(pa, pb, k), pb))
        })
        .collect()
}

/// A flow's route on the drawing: the centres of the nodes its channels (`path`, source to destination) join, in
/// order; `None` for an empty path or a channel whose link has an unknown end.
pub fn route_points(ends: &[Option<(usize, usize)>], lay: &Layout, path: &[u32]) -> Option<Vec<Point>> {
    let mut points = Vec::with_capacity(path.len() + 1);
    for &c in path {
        let (a, b) = (*ends.get(c as usize / 2)?)?;
        let (from, to) = if c % 2 == 0 { (a, b) } else { (b, a) };
        if points.is_empty() {
            points.push(*lay.positions.get(from)?);
        }
        points.push(*lay.positions.get(to)?);
    }
    (points.len() >= 2).then_some(points)
}

/// Where a switch input buffer is drawn: a bar along its incoming lane, near the switch, filling from the switch
/// end back toward the sender (the queue grows back up the link).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BufferSpot {
    /// The channel feeding it (channel `2i` is link `i` from `a` to `b`, `2i + 1` back).
    pub channel: u32,
    pub centre: Point,
    /// Direction from the sender toward the switch, in degrees (SVG's: clockwise from +x).
    pub angle_deg: f64,
    /// Along the lane.
    pub length: f64,
    /// Across the lane.
    pub width: f64,
}

/// Bars along the lane, and the gap kept between neighbouring bars.
const BAR_LENGTH: f64 = 24.0;
const BAR_WIDTH: f64 = 7.0;
const BAR_GAP: f64 = 3.0;
/// Half a switch as drawn (44 by 32): bars start outside it.
const SWITCH_REACH: f64 = 26.0;

/// Each switch input buffer's place. Around a switch the bars sit at one distance from its centre, far enough out
/// that neighbouring lanes' bars do not overlap (16 inputs stay readable), but within the half of each link next to
/// the switch; where that is not enough room, the bars get narrower.
pub fn buffer_spots(s: &Scenario, lay: &Layout) -> Vec<BufferSpot> {
    // Per switch: its incoming channels, with the sender's position.
    let mut incoming: Vec<Vec<(u32, Point)>> = vec![Vec::new(); s.nodes.len()];
    for (i, ends) in link_ends(s).into_iter().enumerate() {
        let Some((a, b)) = ends else { continue };
        for (ch, from, to) in [(2 * i as u32, a, b), (2 * i as u32 + 1, b, a)] {
            if s.nodes[to].kind == ibcc_core::scenario::NodeKind::Switch && from != to {
                incoming[to].push((ch, lay.positions[from]));
            }
        }
    }
    let mut out = Vec::new();
    for (sw, ins) in incoming.iter().enumerate() {
        if ins.is_empty() {
            continue;
        }
        let c = lay.positions[sw];
        let angle = |p: Point| (p.1 - c.1).atan2(p.0 - c.0);
        let mut angles: Vec<f64> = ins.iter().map(|&(_, p)| angle(p)).collect();
        ibcc_view::sorting::sort_by(&mut angles, f64::total_cmp);
        let gap = if angles.len() < 2 {
            core::f64::consts::PI
        } else {
            let wrap = angles[0] + core::f64::consts::TAU - angles[angles.len() - 1];
            angles.windows(2).map(|w| w[1] - w[0]).fold(wrap, f64::min).max(1e-3)
        };
        let shortest =
            ins.iter().map(|&(_, p)| ((p.0 - c.0).powi(2) + (p.1 - c.1).powi(2)).sqrt()).fold(f64::MAX, f64::min);
        let nearest = SWITCH_REACH + BAR_LENGTH / 2.0;
        // At distance r, bars on lanes `gap` apart are about r * gap apart (chord of the angle).
        let wanted = (BAR_WIDTH + BAR_GAP) / (2.0 * (gap / 2.0).sin().max(1e-3));
        let r = wanted.clamp(nearest, (shortest / 2.0).max(nearest));
        let width = (2.0 * r * (gap / 2.0).sin() - BAR_GAP).clamp(3.0, BAR_WIDTH);
        for &(ch, from) in ins {
            let a = angle(from);
            // On the incoming lane: 4 units to the right of the line from sender to switch (as the lanes are drawn).
            let (dx, dy) = (-a.cos(), -a.sin());
            let (nx, ny) = (-dy * 4.0, dx * 4.0);
            out.push(BufferSpot {
                channel: ch,
                centre: (c.0 + a.cos() * r + nx, c.1 + a.sin() * r + ny),
                angle_deg: dy.atan2(dx).to_degrees(),
                length: BAR_LENGTH,
                width,
            });
        }
    }
    out
}

/// Whether a buffer `fill` full (0 to 1) holding `packets` has no room for another maximum-size packet: it
/// returns no credit, so the link into it waits (docs/model.md §3's "full").
pub fn buffer_full(fill: f32, packets: f32) -> bool {
    fill > 0.0 && packets / fill - packets < 1.0 - 1e-3
}

/// Each data VL of a buffer: its fill and whether it is full (less room than a packet in that VL's own buffer,
/// the whole buffer's size in packets shared evenly between its VLs).
pub fn vl_levels(b: &ibcc_core::sim::BufferSnapshot) -> Vec<(f64, bool)> {
    let vls = b.vl_fill.len().max(1) as f32;
    // The whole buffer's size in packets (when anything is in it), so each VL's.
    let per_vl = (b.fill > 0.0).then(|| b.packets / b.fill / vls);
    b.vl_fill.iter().map(|&f| (f64::from(f), per_vl.is_some_and(|cap| buffer_full(f, f * cap)))).collect()
}

/// Whether `p` lies on the bar (with a little margin for fingers and pointers).
pub fn on_buffer(spot: &BufferSpot, p: Point) -> bool {
    let a = spot.angle_deg.to_radians();
    let (dx, dy) = (p.0 - spot.centre.0, p.1 - spot.centre.1);
    let (along, across) = (dx * a.cos() + dy * a.sin(), -dx * a.sin() + dy * a.cos());
    along.abs() <= spot.length / 2.0 + 2.0 && across.abs() <= spot.width / 2.0 + 2.0
}

/// The node, buffer, flow or link under `p` (in that order of preference), if any: buffers at `spots` (empty when
/// none are drawn, with no run shown), flows when they are shown.
pub fn hit_test_with(s: &Scenario, lay: &Layout, p: Point, show_flows: bool, spots: &[BufferSpot]) -> Option<Hit> {
    let near = |q: (f64, f64), r: f64| (p.0 - q.0).abs() <= r && (p.1 - q.1).abs() <= r;
    if let Some(i) = (0..lay.positions.len()).rev().find(|&i| near(lay.positions[i], NODE_PICK)) {
        return Some(Hit::Node(i));
    }
    if let Some(b) = spots.iter().find(|b| on_buffer(b, p)) {
        return Some(Hit::Buffer(b.channel));
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
    link_ends(s)
        .into_iter()
        .enumerate()
        .filter_map(|(i, ends)| {
            let (a, b) = ends?;
            Some((i, segment_distance(p, lay.positions[a], lay.positions[b])))
        })
        .filter(|&(_, d)| d <= LINE_PICK + 4.0)
        .min_by(|x, y| x.1.total_cmp(&y.1))
        .map(|(i, _)| Hit::Link(i))
}

/// The groups of `s` in first-appearance order (the order of the results and of the palette's colours).
pub fn groups(s: &Scenario) -> Vec<String> {
    let mut g: Vec<String> = Vec::new();
    for f in &s.flows {
        if !g.contains(&f.group) {
            g.push(f.group.clone());
        }
    }
    g
}

/// The sending and receiving nodes of channel `c` (`2i`: link `i` from `a` to `b`, `2i + 1` back).
pub fn channel_ends(s: &Scenario, c: u32) -> Option<(String, String)> {
    let l = s.links.get((c / 2) as usize)?;
    Some(if c % 2 == 0 { (l.a.clone(), l.b.clone()) } else { (l.b.clone(), l.a.clone()) })
}

/// Where a node or link is, for moving the keyboard's focus: nodes at their centre, links at their middle.
pub fn focus_items(s: &Scenario, lay: &Layout) -> Vec<(Hit, Point)> {
    let nodes = lay.positions.iter().enumerate().map(|(i, &p)| (Hit::Node(i), p));
    let links = link_ends(s).into_iter().enumerate().filter_map(|(i, ends)| {
        let (a, b) = ends.map(|(a, b)| (lay.positions[a], lay.positions[b]))?;
        Some((Hit::Link(i), ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0)))
    });
    nodes.chain(links).collect()
}

/// The item the focus moves to from `from` in direction `dir` (`(1, 0)`: right, `(0, 1)`: down): the nearest
/// item ahead, preferring those straight ahead. With nothing focused yet, the top-left node.
pub fn navigate(items: &[(Hit, Point)], from: Option<Hit>, dir: (f64, f64)) -> Option<Hit> {
    let at = from.and_then(|f| items.iter().find(|(h, _)| *h == f)).map(|&(_, p)| p);
    let Some(p0) = at else {
        return items.iter().min_by(|a, b| (a.1 .0 + a.1 .1).total_cmp(&(b.1 .0 + b.1 .1))).map(|&(h, _)| h);
    };
    items
        .iter()
        .filter(|(h, _)| Some(*h) != from)
        .filter_map(|&(h, q)| {
            let (dx, dy) = (q.0 - p0.0, q.1 - p0.1);
            let ahead = dx * dir.0 + dy * dir.1;
            let aside = (dx * dir.1 - dy * dir.0).abs();
            (ahead > 1.0).then_some((h, ahead + 2.0 * aside))
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(h, _)| h)
}

/// Where on the drawing a lesson's highlight is: the nodes it involves (a link's ends, a buffer's switch, a flow's
/// hosts); none for a plot.
pub fn highlight_points(s: &Scenario, lay: &Layout, h: &crate::course::Highlight) -> Vec<Point> {
    use crate::course::Highlight;
    let at = |id: &str| s.nodes.iter().position(|n| n.id == id).and_then(|i| lay.positions.get(i).copied());
    let ids: Vec<&str> = match h {
        Highlight::Link(l) => l.split_once("->").map_or(Vec::new(), |(a, b)| vec![a, b]),
        Highlight::Buffer { at, from } => vec![at.as_str(), from.as_str()],
        Highlight::Flow(f) => s
            .flows
            .iter()
            .filter(|x| x.id == *f || x.group == *f)
            .flat_map(|x| [x.src.as_str(), x.dst.as_str()])
            .collect(),
        Highlight::Plot(_) => Vec::new(),
    };
    ids.into_iter().filter_map(at).collect()
}

/// Whether every point lies inside the view box.
pub fn all_in_view(view: (f64, f64, f64, f64), points: &[Point]) -> bool {
    points.iter().all(|&(x, y)| x >= view.0 && y >= view.1 && x <= view.0 + view.2 && y <= view.1 + view.3)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn many_bundles_of_one_size_are_counted_once() {
        let bundle = |n: usize| vec![0; n];
        assert_eq!(uniform_bundles(&[bundle(2), bundle(2), bundle(2), bundle(2), bundle(2), bundle(1)]), Some(2));
        assert_eq!(uniform_bundles(&vec![bundle(2); 4]), None, "a few are counted on their links");
        assert_eq!(uniform_bundles(&[bundle(2), bundle(2), bundle(2), bundle(2), bundle(3)]), None, "sizes differ");
        assert_eq!(uniform_bundles(&vec![bundle(1); 9]), None, "no bundles");
    }

    #[test]
    fn a_highlight_is_found_on_the_drawing_and_checked_against_the_view() {
        use crate::course::Highlight;
        let s = ibcc_core::presets::find("infocom03-fig2").unwrap().scenario();
        let lay = layout(&s);
        let pos = |id: &str| lay.positions[s.nodes.iter().position(|n| n.id == id).unwrap()];
        assert_eq!(highlight_points(&s, &lay, &Highlight::Link("A->B".into())), [pos("A"), pos("B")]);
        let victim = highlight_points(&s, &lay, &Highlight::Flow("victim".into()));
        assert_eq!(victim, [pos("AV"), pos("BV")]);
        assert!(highlight_points(&s, &lay, &Highlight::Plot("rates".into())).is_empty());
        assert!(all_in_view(lay.view_box, &victim), "the fitted view shows everything");
        let (x, y) = pos("AV");
        assert!(!all_in_view((x + 1.0, y - 10.0, 100.0, 100.0), &victim), "zoomed away from AV");
    }

    #[test]
    fn a_flow_s_route_goes_through_the_nodes_its_channels_join() {
        // Fig. 2's victim AV->BV: its run's channels (as the worker sends them) pass A and B, not straight across.
        let s = ibcc_core::presets::find("infocom03-fig2").unwrap().scenario();
        let lay = layout(&s);
        let pos = |id: &str| lay.positions[s.nodes.iter().position(|n| n.id == id).unwrap()];
        let session = crate::session::Session::new(&s, Vec::new()).unwrap();
        let victim = s.flows.iter().position(|f| f.group == "victim").unwrap();
        let path = session.paths()[victim].as_deref().unwrap();
        let ends = link_ends(&s);
        assert_eq!(route_points(&ends, &lay, path).unwrap(), [pos("AV"), pos("A"), pos("B"), pos("BV")]);
        assert_eq!(route_points(&ends, &lay, &[]), None, "no channels, no route");
        assert_eq!(route_points(&ends, &lay, &[2 * ends.len() as u32]), None, "a channel of no link");
    }

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
        let p = &l.positions;
        assert!((1..p.len()).all(|i| !p[..i].contains(&p[i])), "nodes without positions get distinct places");
        let empty = layout(&Scenario::empty("", 1));
        assert_eq!(empty.view_box, (180.0, 100.0, 640.0, 400.0), "an empty canvas has room to build");
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
        assert_eq!(hit_test_with(&s, &lay, lay.positions[sw], true, &[]), Some(Hit::Node(sw)));
        let l = &s.links[0];
        let (a, b) =
            (s.nodes.iter().position(|n| n.id == l.a).unwrap(), s.nodes.iter().position(|n| n.id == l.b).unwrap());
        let mid = ((lay.positions[a].0 + lay.positions[b].0) / 2.0, (lay.positions[a].1 + lay.positions[b].1) / 2.0);
        assert!(matches!(hit_test_with(&s, &lay, mid, false, &[]), Some(Hit::Link(_))));
        let (pa, c, pb) = flow_curves(&s, &lay)[0].unwrap();
        assert_eq!(hit_test_with(&s, &lay, on_curve(pa, c, pb, 0.5), true, &[]), Some(Hit::Flow(0)));
        assert_eq!(hit_test_with(&s, &lay, (-5000.0, -5000.0), true, &[]), None);
    }

    /// A switch with `n` hosts below it in a row, as a fat tree's edge switch or a wide parking lot draws.
    fn star(n: usize) -> (Scenario, Layout) {
        let mut s = Scenario::empty("", 1);
        let node = |id: String, kind, x: f64, y: f64| ibcc_core::scenario::Node {
            id,
            kind,
            switch: None,
            x: Some(x),
            y: Some(y),
        };
        s.nodes.push(node("S".into(), ibcc_core::scenario::NodeKind::Switch, 500.0, 100.0));
        for i in 0..n {
            let x = 500.0 + (i as f64 - (n as f64 - 1.0) / 2.0) * 60.0;
            s.nodes.push(node(format!("h{i}"), ibcc_core::scenario::NodeKind::Host, x, 400.0));
            s.links.push(ibcc_core::scenario::Link::between(&format!("h{i}"), "S"));
        }
        let lay = layout(&s);
        (s, lay)
    }

    #[test]
    fn sixteen_buffer_bars_at_one_switch_do_not_overlap() {
        let (s, lay) = star(16);
        let spots = buffer_spots(&s, &lay);
        assert_eq!(spots.len(), 16, "one per input of the switch; hosts have none");
        for (i, a) in spots.iter().enumerate() {
            assert!(a.width >= 3.0, "readable");
            for b in &spots[i + 1..] {
                let d = ((a.centre.0 - b.centre.0).powi(2) + (a.centre.1 - b.centre.1).powi(2)).sqrt();
                assert!(d >= a.width, "bars {} and {} overlap: {d}", a.channel, b.channel);
            }
            // Each bar is picked where it is drawn, and only there.
            assert!(on_buffer(a, a.centre));
            assert_eq!(hit_test_with(&s, &lay, a.centre, true, &spots), Some(Hit::Buffer(a.channel)));
        }
        // Each sits on its own link, nearer the switch than the host.
        for a in &spots {
            let host = lay.positions[1 + (a.channel / 2) as usize];
            let to_switch = ((a.centre.0 - 500.0).powi(2) + (a.centre.1 - 100.0).powi(2)).sqrt();
            let to_host = ((a.centre.0 - host.0).powi(2) + (a.centre.1 - host.1).powi(2)).sqrt();
            assert!(to_switch < to_host, "channel {}", a.channel);
        }
    }

    #[test]
    fn a_buffer_is_full_when_a_packet_no_longer_fits() {
        // A 4-packet buffer: 3.2 packets leave less than one packet of room.
        assert!(buffer_full(0.8, 3.2) && buffer_full(1.0, 4.0));
        assert!(!buffer_full(0.75, 3.0) && !buffer_full(0.0, 0.0));
        // One packet deep: any packet fills it, an empty one is not full.
        assert!(buffer_full(0.5, 0.5) && buffer_full(1.0, 1.0) && !buffer_full(0.0, 0.0));
    }

    #[test]
    fn arrows_move_the_focus_to_the_nearest_item_ahead() {
        let (s, lay) = star(3);
        let items = focus_items(&s, &lay);
        assert_eq!(items.len(), 4 + 3, "nodes and links");
        assert_eq!(navigate(&items, None, (1.0, 0.0)), Some(Hit::Node(0)), "the top-left item first: the switch");
        assert_eq!(navigate(&items, Some(Hit::Node(0)), (0.0, 1.0)), Some(Hit::Link(1)), "down: h1's link below it");
        assert_eq!(navigate(&items, Some(Hit::Link(1)), (0.0, 1.0)), Some(Hit::Node(2)), "then h1");
        assert_eq!(navigate(&items, Some(Hit::Node(2)), (1.0, 0.0)), Some(Hit::Node(3)), "h2 to its right");
        assert_eq!(navigate(&items, Some(Hit::Node(3)), (0.0, -1.0)), Some(Hit::Link(2)), "up: h2's own link");
        assert_eq!(navigate(&items, Some(Hit::Node(0)), (0.0, -1.0)), None, "nothing above the switch");
    }

    #[test]
    fn offset_lines_sit_to_the_right() {
        let ((x, y), _) = offset_line((0.0, 0.0), (10.0, 0.0), 2.0);
        assert_eq!((x, y), (0.0, 2.0));
        let ((x, y), _) = offset_line((10.0, 0.0), (0.0, 0.0), 2.0);
        assert_eq!((x, y), (10.0, -2.0), "the other direction on the other side");
    }
}
