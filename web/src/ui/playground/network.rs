//! Draws the network in SVG: nodes where the layout places them; each link as two lanes (one per direction) whose
//! width and shade show the rate they carry; lanes blocked by spreading congestion dashed with an amber halo, roots
//! of the congestion tree with a red halo; fresh ECN marks as yellow dots; each switch input buffer as a bar
//! filling from the switch back up its link (amber when full); flows as curves in their group's colour, with a red
//! halo when they feed a root and an amber one when they are victims. The small functions that draw each mark are
//! the legend's too (`legend.rs`), so the legend shows exactly what is drawn. Colours come from the palette
//! (`palette.rs`) through CSS custom properties.

use super::super::theme::paint;
use crate::congestion::Tree;
use crate::course::Highlight;
use crate::edit::Selection;
use crate::labels::{self, Label};
pub use crate::scene::groups;
use crate::scene::{
    cable_groups, channel_ends, flow_curves, group_channels, link_ends, offset_line, vl_levels, BufferSpot, Hit,
    Layout, Point,
};
use ibcc_core::scenario::{NodeKind, Scenario};
use ibcc_core::sim::Snapshot;
use ibcc_view::palette::{self, Colour};
use std::rc::Rc;
use yew::prelude::*;

fn f1(x: f64) -> String {
    format!("{x:.1}")
}

/// How a lane is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct LaneLook {
    /// `None`: no run to show (grey, thin).
    pub rate: Option<f32>,
    pub blocked: bool,
    pub root: bool,
}

/// One direction of a link from `a` to `b` (already offset to its side).
pub fn lane(a: Point, b: Point, look: LaneLook, testid: &str) -> Html {
    cable_lane(a, b, look, testid, 1)
}

/// How much wider than one cable's lane the lane of `cables` parallel cables is drawn.
pub fn cables_width(cables: usize) -> f32 {
    1.0 + 0.25 * (cables.max(1) - 1).min(4) as f32
}

/// One direction of `cables` parallel cables from `a` to `b`, drawn as one lane (wider for more cables).
pub fn cable_lane(a: Point, b: Point, look: LaneLook, testid: &str, cables: usize) -> Html {
    let (x1, y1, x2, y2) = (f1(a.0), f1(a.1), f1(b.0), f1(b.1));
    // Always drawn (hidden when the lane has no part in the tree), so the drawing keeps its shape as a run goes on
    // and each frame only changes attributes.
    let (class, id) = match (look.root, look.blocked) {
        (true, _) => ("tree-root", format!("root-{testid}")),
        (false, true) => ("tree-blocked", format!("blocked-{testid}")),
        _ => ("tree-none", String::new()),
    };
    let halo = html! { <line x1={x1.clone()} y1={y1.clone()} x2={x2.clone()} y2={y2.clone()} class={class} data-testid={(!id.is_empty()).then_some(id)} /> };
    let line = match look.rate {
        None => html! {
            <line x1={x1} y1={y1} x2={x2} y2={y2} class="lane idle" data-testid={format!("link-{testid}")} data-rate="0" />
        },
        Some(r) => html! {
            <line x1={x1} y1={y1} x2={x2} y2={y2} class={classes!("lane", look.blocked.then_some("blocked"))}
                style={format!("stroke: {}; stroke-width: {}", palette::rate_paint(r), palette::rate_width(r) * cables_width(cables))}
                data-testid={format!("link-{testid}")} data-rate={format!("{r:.4}")} />
        },
    };
    html! { <>{ halo }{ line }</> }
}

/// Packets marked lately on a lane: a dot, bigger for more (none drawn, but kept in place, when there are none).
pub fn mark_dot(at: Point, fresh: u64, testid: &str) -> Html {
    if fresh == 0 {
        return html! { <circle cx={f1(at.0)} cy={f1(at.1)} r="0" class="mark none" /> };
    }
    let r = (2.5 + (fresh as f64).log10() * 1.5).min(6.0);
    html! { <circle cx={f1(at.0)} cy={f1(at.1)} r={f1(r)} class="mark" data-testid={format!("marks-{testid}")} /> }
}

/// An input buffer's bar at `spot`, filling from the switch end: one stripe per data VL (`lanes`: each VL's fill,
/// 0 to 1, and whether it is full), amber when full (no room for another packet: it returns no credit, so that VL
/// of the link into it waits). `fill` is the whole buffer's.
pub fn buffer_bar(spot: &BufferSpot, fill: f64, lanes: &[(f64, bool)], testid: &str, marked: bool) -> Html {
    let (l, w) = (spot.length, spot.width);
    let stripe = w / lanes.len().max(1) as f64;
    let levels = lanes.iter().enumerate().map(|(k, &(fill, full))| {
        let fill = fill.clamp(0.0, 1.0);
        let class = if full { "level full" } else { "level" };
        let y = -w / 2.0 + stripe * k as f64;
        html! {
            <rect x={f1(l / 2.0 - l * fill)} y={f1(y)} width={f1(l * fill)} height={f1(stripe)} class={class}
                data-testid={(lanes.len() > 1).then(|| format!("buffer-{testid}-vl{k}"))} data-fill={format!("{fill:.3}")} />
        }
    });
    let separators = (1..lanes.len()).map(|k| {
        let y = f1(-w / 2.0 + stripe * k as f64);
        html! { <line x1={f1(-l / 2.0)} x2={f1(l / 2.0)} y1={y.clone()} y2={y} class="buffer-lane" /> }
    });
    html! {
        <g class="buffer" transform={format!("translate({:.1},{:.1}) rotate({:.1})", spot.centre.0, spot.centre.1, spot.angle_deg)}
            data-testid={format!("buffer-{testid}")} data-fill={format!("{:.3}", fill.clamp(0.0, 1.0))}>
            if marked {
                <rect x={f1(-l / 2.0 - 4.0)} y={f1(-w / 2.0 - 4.0)} width={f1(l + 8.0)} height={f1(w + 8.0)} rx="4" class="lesson-mark-box" data-testid="highlight-buffer" />
            }
            <rect x={f1(-l / 2.0)} y={f1(-w / 2.0)} width={f1(l)} height={f1(w)} class="buffer-frame" />
            { for levels }
            { for separators }
        </g>
    }
}

/// A flow's role in the congestion tree now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Contributor,
    Victim,
}

/// A flow's curve (`d`, an SVG path) in `colour`, with the halo of its role.
pub fn flow_path(d: &str, colour: Colour, role: Option<Role>, class: Classes, testid: &str) -> Html {
    let halo_class = match role {
        Some(Role::Contributor) => "flow-halo contributor",
        Some(Role::Victim) => "flow-halo victim",
        None => "flow-halo none",
    };
    let halo = html! { <path d={d.to_owned()} class={halo_class} /> };
    let class = classes!(
        "flow",
        class,
        (role == Some(Role::Victim)).then_some("victim"),
        (role == Some(Role::Contributor)).then_some("contributor")
    );
    html! {
        <>
            { halo }
            <path d={d.to_owned()} class={class} style={format!("stroke: {}", paint(colour))}
                marker-end="url(#arrow)" data-testid={format!("flow-{testid}")} />
        </>
    }
}

/// What the run shows now, when the drawing matches the run (not while an edit waits for a restart).
pub struct Live<'a> {
    pub snapshot: &'a Snapshot,
    pub tree: &'a Tree,
    /// Per channel: marks in the recent past.
    pub recent_marks: &'a [u64],
    /// Each flow's channels, source to destination: the route drawn under a selected flow, or a lesson's.
    pub paths: Option<&'a [Option<Vec<u32>>]>,
}

impl Live<'_> {
    /// Flow `i`'s channels, source to destination, when the run has sent them.
    pub fn path(&self, i: usize) -> Option<&[u32]> {
        self.paths?.get(i)?.as_deref()
    }

    /// Flow `i`'s part in the congestion tree now.
    pub fn role(&self, i: usize) -> Option<Role> {
        if self.tree.contributor.get(i) == Some(&true) {
            Some(Role::Contributor)
        } else if self.tree.victim.get(i) == Some(&true) {
            Some(Role::Victim)
        } else {
            None
        }
    }
}

/// What the drawing shows besides the network.
pub struct Decor<'a> {
    pub selection: Option<&'a Selection>,
    pub focus: Option<Hit>,
    pub highlight: Option<&'a Highlight>,
    pub show_flows: bool,
    /// A traffic pattern's routes to draw instead of a run's rates (the pattern tool, a route, a credit loop), and
    /// whether to label each lane with its number.
    pub load: Option<(&'a crate::protocol::PatternLoad, bool)>,
    /// A cycle of channels, each waiting for the next (the run's deadlock, or a credit loop the check found): drawn
    /// over the lanes with an arrow along each, so the eye can follow it round.
    pub cycle: Option<&'a [u32]>,
    /// Zoomed in far enough to read them: each link's port numbers at its two ends (`scenario::link_ports`), and
    /// the labels' size in view units (about 12 screen pixels).
    pub ports: Option<(&'a [(u8, u8)], f64)>,
    /// The node labels' font size in view units (`labels::size`: never under 11 screen pixels).
    pub label_size: f64,
}

/// How a lane carrying `routes` of a pattern whose busiest lane carries `max` looks: as wide as its share of the
/// busiest (no run is shown meanwhile).
fn load_look(routes: u32, max: u32) -> LaneLook {
    LaneLook { rate: Some(routes as f32 / max.max(1) as f32), ..LaneLook::default() }
}

/// Channel `ch`'s look now: a pattern's routes when one is shown, else the run's rate and its part in the tree
/// (grey and thin with neither).
pub fn lane_look(ch: usize, live: Option<&Live>, decor: &Decor) -> LaneLook {
    if let Some((load, _)) = decor.load {
        return load_look(load.routes.get(ch).copied().unwrap_or(0), load.max);
    }
    live.and_then(|v| v.snapshot.links.get(ch).map(|snap| (v, snap)))
        .map(|(v, snap)| LaneLook { rate: Some(snap.rate), blocked: v.tree.blocked(ch), root: v.tree.root(ch) })
        .unwrap_or_default()
}

/// The look of one direction of parallel cables (`channels`, one a cable): their mean rate (or share of a pattern's
/// busiest lane), blocked or a root if any of them is.
pub fn cables_look(channels: &[usize], live: Option<&Live>, decor: &Decor) -> LaneLook {
    match channels {
        [ch] => lane_look(*ch, live, decor),
        _ => {
            let looks: Vec<LaneLook> = channels.iter().map(|&ch| lane_look(ch, live, decor)).collect();
            let rates: Vec<f32> = looks.iter().filter_map(|l| l.rate).collect();
            LaneLook {
                rate: (!rates.is_empty()).then(|| rates.iter().sum::<f32>() / rates.len() as f32),
                blocked: looks.iter().any(|l| l.blocked),
                root: looks.iter().any(|l| l.root),
            }
        }
    }
}

/// The port numbers of `group`'s cables at node `at`'s end of their link (`at` to `to`), near that end.
fn port_label(
    group: &[usize],
    ends: &[Option<(usize, usize)>],
    (ports, size): (&[(u8, u8)], f64),
    (at, kind, pa, pb): (usize, NodeKind, Point, Point),
    id: &str,
) -> Html {
    let numbers: Vec<String> = group
        .iter()
        .filter_map(|&j| Some((ends[j]?, ports.get(j)?)))
        .map(|((a, _), &(pa_port, pb_port))| if a == at { pa_port } else { pb_port }.to_string())
        .collect();
    let (dx, dy) = (pb.0 - pa.0, pb.1 - pa.1);
    let len = (dx * dx + dy * dy).sqrt().max(1e-9);
    // Along the link just past the node's shape (`node_shape`), beside it by one label's height.
    let (ux, uy) = (dx / len, dy / len);
    let edge = match kind {
        NodeKind::Switch => (22.0 / ux.abs().max(1e-9)).min(16.0 / uy.abs().max(1e-9)),
        NodeKind::Host => HOST_RADIUS,
    };
    let along = (edge + 1.2 * size).min(len / 2.5);
    let (x, y) = (pa.0 + dx / len * along - dy / len * size, pa.1 + dy / len * along + dx / len * size);
    html! {
        <text x={f1(x)} y={f1(y)} class="port-label" style={format!("font-size: {size:.2}px")} data-testid={format!("port-{id}")}>
            { numbers.join(",") }
        </text>
    }
}

/// A lane's number of routes, a third of the way from its sending end (so a link's two directions' numbers stand
/// apart, each near where its traffic leaves).
fn load_label(p1: Point, p2: Point, routes: u32, id: &str) -> Html {
    let (x, y) = (p1.0 + (p2.0 - p1.0) / 3.0, p1.1 + (p2.1 - p1.1) / 3.0);
    html! { <text x={f1(x)} y={f1(y)} class="load-label" data-testid={format!("routes-{id}")}>{ routes }</text> }
}

/// Per link: the folded group it is drawn in, if one of its ends is a folded host.
pub fn fold_of_links(ends: &[Option<(usize, usize)>], lay: &Layout) -> Vec<Option<usize>> {
    let mut fold_of = vec![None; lay.positions.len()];
    for (k, f) in lay.folds.iter().enumerate() {
        for &h in &f.hosts {
            fold_of[h] = Some(k);
        }
    }
    ends.iter().map(|e| e.and_then(|(a, b)| fold_of[a].or(fold_of[b]))).collect()
}

/// Each folded group's two lanes (0: from its switch down to the group, 1: back up), its links read in one pass:
/// each direction as its busiest link, blocked or a root if any of them is, so congestion among its hosts still
/// shows.
pub fn fold_looks(
    lay: &Layout,
    ends: &[Option<(usize, usize)>],
    in_fold: &[Option<usize>],
    live: Option<&Live>,
    decor: &Decor,
) -> Vec<[LaneLook; 2]> {
    let mut looks = vec![[LaneLook::default(); 2]; lay.folds.len()];
    for (i, e) in ends.iter().enumerate() {
        let (Some(k), Some((a, _))) = (in_fold[i], e) else { continue };
        let down = usize::from(*a != lay.folds[k].switch);
        for (lane, ch) in [(0, 2 * i + down), (1, 2 * i + 1 - down)] {
            let one = lane_look(ch, live, decor);
            let look = &mut looks[k][lane];
            if one.rate.is_some() {
                look.rate = Some(look.rate.unwrap_or(0.0).max(one.rate.unwrap_or(0.0)));
            }
            look.blocked |= one.blocked;
            look.root |= one.root;
        }
    }
    looks
}

/// A folded group's two lanes: from its switch down to the group's box, and back up.
pub fn fold_lanes(lay: &Layout, k: usize) -> [(Point, Point); 2] {
    let (sw, at) = (lay.positions[lay.folds[k].switch], lay.folds[k].at);
    [offset_line(sw, at, 4.0), offset_line(at, sw, 4.0)]
}

/// A folded group's links as one pair of lanes from its switch, as `looks` (`fold_looks`) says; without looks
/// (layered), only their description: the canvas under the drawing paints them.
fn fold_links(s: &Scenario, lay: &Layout, looks: Option<&[[LaneLook; 2]]>) -> Vec<Html> {
    let mut out = Vec::new();
    for (k, f) in lay.folds.iter().enumerate() {
        let id = &s.nodes[f.switch].id;
        let [(d1, d2), (u1, u2)] = fold_lanes(lay, k);
        out.push(html! {
            <g class="link fold-link" role="img" aria-label={format!("the links of {id}'s {} hosts", f.hosts.len())}>
                if let Some(looks) = looks.and_then(|l| l.get(k)) {
                    { lane(d1, d2, looks[0], &format!("{id}->hosts")) }
                    { lane(u1, u2, looks[1], &format!("hosts->{id}")) }
                }
            </g>
        });
    }
    out
}

/// The folded groups of hosts, each a box saying how many it holds (picking one opens it: `canvas.rs`).
fn folds(s: &Scenario, lay: &Layout) -> Vec<Html> {
    lay.folds
        .iter()
        .map(|f| {
            let (x, y) = f.at;
            let id = &s.nodes[f.switch].id;
            html! {
                <g class="node fold" data-testid={format!("fold-{id}")} role="img"
                    aria-label={format!("{} hosts of {id}, folded: pick one to show them", f.hosts.len())}>
                    <rect x={f1(x - 30.0)} y={f1(y - 14.0)} width="60" height="28" rx="14" class="host" />
                </g>
            }
        })
        .collect()
}

/// Where the fresh-marks dot of a lane from `p1` to `p2` sits: near the sending end, as marks are made as packets
/// leave toward a congested output.
pub fn mark_spot(p1: Point, p2: Point) -> Point {
    (p1.0 + (p2.0 - p1.0) * 0.3, p1.1 + (p2.1 - p1.1) * 0.3)
}

/// One link of a cycle, from `p1` toward `p2`: an arrow `width` wide (view units) along the middle of the lane,
/// clear of the nodes at its ends, so that the arrows of the cycle's links lead round it.
pub fn cycle_arrow(p1: Point, p2: Point, width: f64, id: &str) -> Html {
    let at = |t: f64| (p1.0 + (p2.0 - p1.0) * t, p1.1 + (p2.1 - p1.1) * t);
    let (a, b) = (at(0.25), at(0.7));
    html! {
        <line class="cycle" x1={f1(a.0)} y1={f1(a.1)} x2={f1(b.0)} y2={f1(b.1)} stroke-width={format!("{width:.2}")}
            marker-end="url(#cycle-arrow)" data-testid={format!("cycle-{id}")} />
    }
}

/// Each link's group: its lanes and marks (layered: only what stays put between frames, its selection, focus and
/// lesson marks and its routes' numbers, as the canvas paints the rest).
fn links(s: &Scenario, lay: &Layout, w: &Wiring, live: Option<&Live>, decor: &Decor, layered: bool) -> Vec<Html> {
    let Wiring { ends, groups, in_fold } = *w;
    let mut out = Vec::new();
    for (i, l) in s.links.iter().enumerate() {
        if in_fold[i].is_some() {
            continue;
        }
        let Some((a, b)) = ends[i] else { continue };
        let (pa, pb) = (lay.positions[a], lay.positions[b]);
        let mut parts = Vec::new();
        // Parallel cables are drawn once, with the first (each keeps its group, for keyboard and screen readers).
        let group = &groups[i];
        if decor.selection == Some(&Selection::Link(i)) {
            parts
                .push(html! { <line class="selected-halo" x1={f1(pa.0)} y1={f1(pa.1)} x2={f1(pb.0)} y2={f1(pb.1)} /> });
        }
        if decor.focus == Some(Hit::Link(i)) {
            parts.push(html! { <line class="focus-ring" x1={f1(pa.0)} y1={f1(pa.1)} x2={f1(pb.0)} y2={f1(pb.1)} data-testid="focus-ring" /> });
        }
        for (from, to, pf, pt) in [(a, b, pa, pb), (b, a, pb, pa)] {
            if group.is_empty() {
                break;
            }
            let channels = group_channels(group, ends, from);
            let (p1, p2) = offset_line(pf, pt, 4.0);
            let id = format!("{}->{}", s.nodes[from].id, s.nodes[to].id);
            if decor.highlight == Some(&Highlight::Link(id.clone())) {
                // Two rails either side of the lane, clear of its halo: a band over it hid the red of a root the
                // step names. (At least about 3 screen pixels wide, as the labels keep their size.)
                let width = (decor.label_size / 3.5).max(4.0);
                let rail = |side: f64| {
                    let (a, b) = offset_line(p1, p2, side * (11.0 + width / 2.0));
                    html! { <line x1={f1(a.0)} y1={f1(a.1)} x2={f1(b.0)} y2={f1(b.1)} /> }
                };
                parts.push(html! {
                    <g class="lesson-mark" style={format!("stroke-width: {width:.1}")} data-testid={format!("highlight-{id}")}>
                        { rail(1.0) }{ rail(-1.0) }
                    </g>
                });
            }
            if !layered {
                parts.push(cable_lane(p1, p2, cables_look(&channels, live, decor), &id, group.len()));
            }
            if decor.cycle.is_some_and(|cycle| channels.iter().any(|&c| cycle.contains(&(c as u32)))) {
                // (About 3 screen pixels wide whatever the zoom, as the labels keep their size.)
                parts.push(cycle_arrow(p1, p2, decor.label_size / 3.5, &id));
            }
            if let Some((load, counted)) = decor.load {
                let routes: u32 = channels.iter().map(|&c| load.routes.get(c).copied().unwrap_or(0)).sum();
                if routes > 0 && counted {
                    parts.push(load_label(p1, p2, routes, &id));
                }
            } else if !layered {
                let fresh: u64 =
                    channels.iter().map(|&c| live.and_then(|v| v.recent_marks.get(c)).copied().unwrap_or(0)).sum();
                parts.push(mark_dot(mark_spot(p1, p2), fresh, &id));
            }
        }
        out.push(html! {
            <g id={format!("item-link-{i}")} class="link" role="img" aria-label={format!("link {} — {}", l.a, l.b)}>{ for parts }</g>
        });
    }
    out
}

/// How the links are drawn: their ends (node indices), their parallel cables ([`cable_groups`]) and the folded group
/// each is drawn in, if any.
#[derive(Clone, Copy)]
struct Wiring<'a> {
    ends: &'a [Option<(usize, usize)>],
    groups: &'a [Vec<usize>],
    in_fold: &'a [Option<usize>],
}

/// Every link end's port number, over the lanes (none in folded groups; parallel cables' together).
fn port_labels(s: &Scenario, lay: &Layout, w: &Wiring, ports: (&[(u8, u8)], f64)) -> Vec<Html> {
    let Wiring { ends, groups, in_fold } = *w;
    let mut out = Vec::new();
    for (i, l) in s.links.iter().enumerate() {
        let (Some((a, b)), None, false) = (ends[i], in_fold[i], groups[i].is_empty()) else { continue };
        let (pa, pb) = (lay.positions[a], lay.positions[b]);
        for (at, p1, p2, name) in [(a, pa, pb, &l.a), (b, pb, pa, &l.b)] {
            out.push(port_label(&groups[i], ends, ports, (at, s.nodes[at].kind, p1, p2), &format!("{name}-{i}")));
        }
    }
    out
}

fn buffers(
    s: &Scenario,
    spots: &[BufferSpot],
    in_fold: &[Option<usize>],
    snap: &Snapshot,
    highlight: Option<&Highlight>,
) -> Vec<Html> {
    snap.buffers
        .iter()
        .filter(|b| in_fold.get(b.channel as usize / 2).is_none_or(Option::is_none))
        .filter_map(|b| {
            let spot = spots.iter().find(|p| p.channel == b.channel)?;
            let (from, to) = channel_ends(s, b.channel)?;
            let marked = matches!(highlight, Some(Highlight::Buffer { at, from: f }) if *at == to && *f == from);
            let lanes = vl_levels(b);
            Some(buffer_bar(spot, f64::from(b.fill), &lanes, &format!("{to}-{from}"), marked))
        })
        .collect()
}

fn flows(s: &Scenario, lay: &Layout, live: Option<&Live>, decor: &Decor) -> Vec<Html> {
    let groups = groups(s);
    let colours = palette::group_colours(&groups);
    let curves = flow_curves(s, lay);
    // (The links' ends, for the routes of the flows a selection or a lesson points at.)
    let ends = if s.flows.iter().any(|f| emphasised(f, decor)) { link_ends(s) } else { Vec::new() };
    let mut out = Vec::new();
    for (i, (f, curve)) in s.flows.iter().zip(curves).enumerate() {
        let Some((a, c, b)) = curve else { continue };
        let role = live.and_then(|v| v.role(i));
        let off = live.and_then(|v| v.snapshot.flows.get(i)).is_some_and(|f| !f.active);
        let colour = groups.iter().position(|g| *g == f.group).map_or(palette::GREY, |k| colours[k]);
        let class = classes!(
            off.then_some("off"),
            (decor.selection == Some(&Selection::Flow(f.id.clone()))).then_some("selected"),
            matches!(decor.highlight, Some(Highlight::Flow(h)) if *h == f.id || *h == f.group).then_some("lesson-flow")
        );
        // A flow's curve joins its ends; the route it takes is drawn under it when it is selected or a lesson
        // points at it ("look at where it goes").
        if let Some(points) = emphasised(f, decor).then(|| route(&ends, lay, live, i)).flatten() {
            out.push(route_path(&points, colour, &f.id));
        }
        let d = format!("M{:.1},{:.1} Q{:.1},{:.1} {:.1},{:.1}", a.0, a.1, c.0, c.1, b.0, b.1);
        out.push(flow_path(&d, colour, role, class, &f.id));
    }
    out
}

/// Whether flow `f` is selected or what a lesson points at.
pub fn emphasised(f: &ibcc_core::scenario::Flow, decor: &Decor) -> bool {
    matches!(decor.highlight, Some(Highlight::Flow(h)) if *h == f.id || *h == f.group)
        || matches!(decor.selection, Some(Selection::Flow(id)) if *id == f.id)
}

/// Flow `i`'s route in the run shown, as points on the drawing (`ends`: `link_ends`).
pub fn route(ends: &[Option<(usize, usize)>], lay: &Layout, live: Option<&Live>, i: usize) -> Option<Vec<Point>> {
    crate::scene::route_points(ends, lay, live?.path(i)?)
}

/// A flow's route along its links, under its curve: a wide band in the colour of what is selected or pointed at
/// (it must stand out on busy, haloed links), and down its middle a line in the flow's own colour (solid: dashes
/// mean a link waits for credit).
fn route_path(points: &[Point], colour: Colour, id: &str) -> Html {
    let d: String = points
        .iter()
        .enumerate()
        .map(|(k, p)| format!("{}{:.1},{:.1}", if k == 0 { "M" } else { " L" }, p.0, p.1))
        .collect();
    html! {
        <>
            <path d={d.clone()} class="flow-route" data-testid={format!("route-{id}")} />
            <path {d} class="flow-route-line" style={format!("stroke: {}", paint(colour))} />
        </>
    }
}

/// A host's circle's radius, in view units.
const HOST_RADIUS: f64 = 13.0;

/// A node's shape at `(x, y)`.
pub fn node_shape(kind: NodeKind, x: f64, y: f64) -> Html {
    match kind {
        NodeKind::Switch => {
            html! { <rect x={f1(x - 22.0)} y={f1(y - 16.0)} width="44" height="32" rx="5" class="switch" /> }
        }
        NodeKind::Host => html! { <circle cx={f1(x)} cy={f1(y)} r={f1(HOST_RADIUS)} class="host" /> },
    }
}

/// Per node: the node at the other end of its first drawn link, if it has one.
fn neighbours(w: &Wiring, nodes: usize) -> Vec<Option<usize>> {
    let mut out = vec![None; nodes];
    for &(a, b) in w.ends.iter().flatten() {
        out[a] = out[a].or(Some(b));
        out[b] = out[b].or(Some(a));
    }
    out
}

/// Which node and group labels are drawn, and at what size: those that fit (`labels::fit`), the selected or
/// focused node's first, then the switches', then the groups' and hosts'.
struct Names {
    /// Where each node's label is drawn, if it is.
    nodes: Vec<Option<Point>>,
    /// Each group's label ("18 hosts"; "18" for every group when one's "18 hosts" would not fit) and where, if it is
    /// drawn.
    folds: Vec<Option<(Point, String)>>,
    /// Parallel cables' count ("×4") at the middle of their link, where it fits: the link's id and the place.
    trunks: Vec<(String, Point, usize)>,
    size: f64,
}

/// The nodes what a lesson points at, or the selected flow, passes: a link's or a buffer's ends, a flow's hosts and
/// the switches on its route. Their names come before others' where not all fit (a step that says "down to
/// leaf-3" finds leaf-3 named).
fn pointed_nodes(s: &Scenario, ends: &[Option<(usize, usize)>], live: Option<&Live>, decor: &Decor) -> Vec<usize> {
    let index = |id: &str| s.nodes.iter().position(|n| n.id == id);
    let mut out: Vec<usize> = match decor.highlight {
        Some(Highlight::Link(l)) => {
            l.split_once("->").map_or(Vec::new(), |(a, b)| [a, b].into_iter().filter_map(index).collect())
        }
        Some(Highlight::Buffer { at, from }) => [at, from].into_iter().filter_map(|id| index(id)).collect(),
        _ => Vec::new(),
    };
    for (i, f) in s.flows.iter().enumerate().filter(|(_, f)| emphasised(f, decor)) {
        out.extend([index(&f.src), index(&f.dst)].into_iter().flatten());
        let path = live.and_then(|v| v.path(i)).unwrap_or_default();
        out.extend(path.iter().filter_map(|&c| ends.get(c as usize / 2).copied().flatten()).flat_map(|(a, b)| [a, b]));
    }
    out
}

impl Names {
    fn new(s: &Scenario, lay: &Layout, w: &Wiring, decor: &Decor, pointed: &[usize]) -> Self {
        let size = decor.label_size;
        let edges = (lay.view_box.0, lay.view_box.0 + lay.view_box.2);
        let folded = lay.folded();
        let neighbour = neighbours(w, s.nodes.len());
        let mut all = Vec::new();
        for (i, (n, &at)) in s.nodes.iter().zip(&lay.positions).enumerate() {
            let picked = decor.selection == Some(&Selection::Node(n.id.clone()))
                || decor.focus == Some(Hit::Node(i))
                || pointed.contains(&i);
            let rank = if picked {
                0
            } else if n.kind == NodeKind::Switch {
                1
            } else {
                2
            };
            // (A folded host's label is never drawn: it sits where nothing else can.)
            let at = if folded[i] { (f64::NAN, f64::NAN) } else { at };
            let label = Label { at, chars: n.id.chars().count(), rank };
            let label = match n.kind {
                NodeKind::Host => label.off_host(size, HOST_RADIUS, neighbour[i].map(|j| lay.positions[j])),
                NodeKind::Switch => label,
            };
            all.push(label.within(size, edges));
        }
        // Each group says how many hosts it holds: "18 hosts" if every group's fits, else "18" for all of them.
        let n = s.nodes.len();
        let counts: Vec<String> = lay.folds.iter().map(|f| f.hosts.len().to_string()).collect();
        let groups = |extra: usize| {
            let groups = lay.folds.iter().zip(&counts);
            groups.map(move |(f, c)| Label { at: f.at, chars: c.len() + extra, rank: 2 }.within(size, edges))
        };
        all.extend(groups(" hosts".len()));
        let long = labels::fit(&all, size)[n..].iter().all(Option::is_some);
        if !long {
            all.truncate(n);
            all.extend(groups(0));
        }
        // Parallel cables are counted once, on the first (each keeps its group, for keyboard and screen readers),
        // above the middle of their lane, after every name.
        let places = lay.folds.len();
        // (Bundles all of one size are counted once, in the legend: `uniform_bundles`.)
        let uniform = crate::scene::uniform_bundles(w.groups).is_some();
        let trunks: Vec<(usize, usize)> = (0..s.links.len())
            .filter(|&i| !uniform && w.groups[i].len() > 1 && w.in_fold[i].is_none() && w.ends[i].is_some())
            .map(|i| (i, w.groups[i].len()))
            .collect();
        for &(i, cables) in &trunks {
            let (a, b) = w.ends[i].expect("a drawn link");
            let ((xa, ya), (xb, yb)) = (lay.positions[a], lay.positions[b]);
            let at = ((xa + xb) / 2.0, (ya + yb) / 2.0 - 1.5 * size);
            all.push(Label { at, chars: 1 + cables.to_string().len(), rank: 3 }.within(size, edges));
        }
        // (Placed last, they leave the names where they were.)
        let shown = labels::fit(&all, size);
        let at = |i: usize| shown[i];
        let folds = (counts.into_iter().enumerate())
            .map(|(k, c)| Some((at(n + k)?, if long { format!("{c} hosts") } else { c })))
            .collect();
        let trunks = (trunks.into_iter().enumerate())
            .filter_map(|(t, (i, cables))| {
                let l = &s.links[i];
                Some((format!("{}-{}", l.a, l.b), at(n + places + t)?, cables))
            })
            .collect();
        Names { nodes: (0..n).map(at).collect(), folds, trunks, size }
    }

    /// The labels that fit, over every node and group (a label wider than its node would be hidden under the
    /// next one's shape otherwise); the nodes' own descriptions name them for screen readers.
    fn draw(&self, s: &Scenario) -> Html {
        let nodes = s.nodes.iter().zip(&self.nodes).filter_map(|(n, at)| Some((at.as_ref()?, n.id.clone())));
        let folds = self.folds.iter().flatten().map(|(at, t)| (at, t.clone()));
        let trunks = self.trunks.iter().map(|(id, (x, y), n)| {
            html! {
                <text x={f1(*x)} y={f1(y + 0.35 * self.size)} class="cables-label" style={self.style()} data-testid={format!("cables-{id}")}>
                    { format!("×{n}") }
                </text>
            }
        });
        html! {
            <g class="labels" aria-hidden="true">
                { for nodes.chain(folds).map(|(&(x, y), t)| self.text(x, y, t)) }
                { for trunks }
            </g>
        }
    }

    /// The labels' size where it differs from the drawing's own (the style sheet's).
    fn style(&self) -> Option<String> {
        (self.size > labels::BASE).then(|| format!("font-size: {:.1}px", self.size))
    }

    fn text(&self, x: f64, y: f64, text: String) -> Html {
        // Larger than the drawing's own size, a label spills over its node and the lanes: it gets a halo.
        let class = classes!("node-label", (self.size > labels::BASE).then_some("halo"));
        html! { <text x={f1(x)} y={f1(y + 0.35 * self.size)} text-anchor="middle" {class} style={self.style()}>{ text }</text> }
    }
}

fn nodes(s: &Scenario, lay: &Layout, decor: &Decor) -> Vec<Html> {
    let folded = lay.folded();
    s.nodes
        .iter()
        .zip(lay.positions.iter())
        .enumerate()
        .filter(|(i, _)| !folded[*i])
        .map(|(i, (n, &(x, y)))| {
            let selected = decor.selection == Some(&Selection::Node(n.id.clone()));
            let focused = decor.focus == Some(Hit::Node(i));
            let kind = if n.kind == NodeKind::Switch { "switch" } else { "host" };
            html! {
                <g id={format!("item-node-{i}")} data-testid={format!("node-{}", n.id)}
                    class={classes!("node", selected.then_some("selected"), focused.then_some("focused"))}
                    data-x={f1(x)} data-y={f1(y)} role="img" aria-label={format!("{kind} {}", n.id)}>
                    if focused {
                        <circle cx={f1(x)} cy={f1(y)} r="30" class="focus-ring" data-testid="focus-ring" />
                    }
                    { node_shape(n.kind, x, y) }
                </g>
            }
        })
        .collect()
}

/// The arrowheads the flows and a cycle's links end with.
pub fn defs() -> Html {
    html! {
        <defs>
            <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse">
                <path d="M0,0 L10,5 L0,10 z" class="arrow-head" />
            </marker>
            <marker id="cycle-arrow" viewBox="0 0 10 10" refX="7" refY="5" markerWidth="5" markerHeight="5" orient="auto">
                <path d="M0,0 L10,5 L0,10 z" class="cycle-arrow-head" />
            </marker>
        </defs>
    }
}

/// The whole drawing (without the `<svg>` element, which the canvas owns). `layered`: a large network, whose
/// lanes, marks, buffers and flows a canvas under the drawing paints each frame (`live_layer.rs`); here are only
/// what stays put between frames, so that a frame does not rebuild thousands of SVG elements.
pub fn draw(
    s: &Scenario,
    lay: &Layout,
    spots: &[BufferSpot],
    live: Option<&Live>,
    decor: &Decor,
    layered: bool,
) -> Html {
    let ends = link_ends(s);
    let groups = cable_groups(&ends);
    let in_fold = fold_of_links(&ends, lay);
    let wiring = Wiring { ends: &ends, groups: &groups, in_fold: &in_fold };
    let looks = (!layered).then(|| fold_looks(lay, &ends, &in_fold, live, decor));
    let names = Names::new(s, lay, &wiring, decor, &pointed_nodes(s, &ends, live, decor));
    html! {
        <>
            { defs() }
            { for links(s, lay, &wiring, live, decor, layered) }
            { for fold_links(s, lay, looks.as_deref()) }
            if let Some(ports) = decor.ports {
                { for port_labels(s, lay, &wiring, ports) }
            }
            if let Some(v) = live.filter(|_| !layered) {
                { for buffers(s, spots, &in_fold, v.snapshot, decor.highlight) }
            }
            if !layered && (decor.show_flows || matches!(decor.highlight, Some(Highlight::Flow(_)))) {
                { for flows(s, lay, live, decor) }
            }
            { for nodes(s, lay, decor) }
            { for folds(s, lay) }
            { names.draw(s) }
        </>
    }
}

#[derive(Properties)]
pub struct StillProps {
    pub s: Rc<Scenario>,
    pub lay: Rc<Layout>,
    pub selection: Option<Selection>,
    pub focus: Option<Hit>,
    pub highlight: Option<Highlight>,
    pub load: Option<(Rc<crate::protocol::PatternLoad>, bool)>,
    pub cycle: Option<Rc<[u32]>>,
    pub ports: Option<(Rc<LinkPorts>, f64)>,
    pub label_size: f64,
}

/// Each link's port numbers at its two ends (`scenario::link_ports`).
pub type LinkPorts = Vec<(u8, u8)>;

/// Compared by address where a field is large, so that a frame of the run, which changes none of these, costs no
/// comparison of the scenario and no render.
impl PartialEq for StillProps {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.s, &o.s)
            && Rc::ptr_eq(&self.lay, &o.lay)
            && self.selection == o.selection
            && self.focus == o.focus
            && self.highlight == o.highlight
            && self.cycle == o.cycle
            && match (&self.load, &o.load) {
                (Some((a, x)), Some((b, y))) => Rc::ptr_eq(a, b) && x == y,
                (None, None) => true,
                _ => false,
            }
            && match (&self.ports, &o.ports) {
                (Some((a, x)), Some((b, y))) => Rc::ptr_eq(a, b) && x == y,
                (None, None) => true,
                _ => false,
            }
            && self.label_size == o.label_size
    }
}

/// A layered drawing's SVG part (`draw` with `layered`): re-rendered only when what it shows changes, never for a
/// frame of the run.
#[component]
pub fn Still(p: &StillProps) -> Html {
    let decor = Decor {
        selection: p.selection.as_ref(),
        focus: p.focus,
        highlight: p.highlight.as_ref(),
        show_flows: false,
        load: p.load.as_ref().map(|(l, counted)| (&**l, *counted)),
        cycle: p.cycle.as_deref(),
        ports: p.ports.as_ref().map(|(ports, size)| (&ports[..], *size)),
        label_size: p.label_size,
    };
    draw(&p.s, &p.lay, &[], None, &decor, true)
}
