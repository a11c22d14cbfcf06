//! Draws the network in SVG: nodes where the layout places them; each link as two lanes (one per direction) whose
//! width and colour show the rate they carry; lanes blocked by spreading congestion dashed with an amber halo, roots
//! of the congestion tree with a red halo; fresh ECN marks as dots on their lane; each switch input buffer as a bar
//! filling with its occupancy; flows as curves from source to destination, victims and contributors coloured.
//! Hovering any of them gives its figures (an SVG title).

use crate::congestion::Tree;
use crate::edit::Selection;
use crate::lessons::Highlight;
use crate::view_model::{flow_curves, offset_line, rate_colour, rate_width, Layout};
use ibcc_core::scenario::{NodeKind, Scenario};
use ibcc_core::sim::{Results, Snapshot};
use yew::prelude::*;

/// What the run shows now, when the drawing matches the run (not while an edit waits for a restart).
pub struct Live<'a> {
    pub snapshot: &'a Snapshot,
    pub tree: &'a Tree,
    /// Per channel: marks in the recent past.
    pub recent_marks: &'a [u64],
    pub results: &'a Results,
}

fn f1(x: f64) -> String {
    format!("{x:.1}")
}

fn node_index(s: &Scenario, id: &str) -> Option<usize> {
    s.nodes.iter().position(|n| n.id == id)
}

fn links(
    s: &Scenario,
    lay: &Layout,
    live: Option<&Live>,
    selection: Option<&Selection>,
    highlight: Option<&Highlight>,
) -> Vec<Html> {
    let mut out = Vec::new();
    for (i, l) in s.links.iter().enumerate() {
        let (Some(a), Some(b)) = (node_index(s, &l.a), node_index(s, &l.b)) else { continue };
        let selected = selection == Some(&Selection::Link(i));
        let (pa, pb) = (lay.positions[a], lay.positions[b]);
        if selected {
            out.push(html! {
                <line class="selected-halo" x1={f1(pa.0)} y1={f1(pa.1)} x2={f1(pb.0)} y2={f1(pb.1)} />
            });
        }
        for (dir, (from, to, pf, pt)) in [(a, b, pa, pb), (b, a, pb, pa)].into_iter().enumerate() {
            let ch = 2 * i + dir;
            let ((x1, y1), (x2, y2)) = offset_line(pf, pt, 4.0);
            let id = format!("{}->{}", s.nodes[from].id, s.nodes[to].id);
            if highlight == Some(&Highlight::Link(id.clone())) {
                out.push(html! {
                    <line x1={f1(x1)} y1={f1(y1)} x2={f1(x2)} y2={f1(y2)} class="lesson-mark" data-testid={format!("highlight-{id}")} />
                });
            }
            let link = live.and_then(|v| v.snapshot.links.get(ch).map(|snap| (v, snap)));
            let Some((v, snap)) = link else {
                out.push(html! {
                    <line x1={f1(x1)} y1={f1(y1)} x2={f1(x2)} y2={f1(y2)} class="lane idle"
                        data-testid={format!("link-{id}")} data-rate="0">
                        <title>{ format!("{id}: {} Gb/s, {} ns propagation", l.bandwidth_gbps.unwrap_or(s.link.bandwidth_gbps), l.propagation_ns.unwrap_or(s.link.propagation_ns)) }</title>
                    </line>
                });
                continue;
            };
            let (blocked, root) = (v.tree.blocked.get(ch) == Some(&true), v.tree.root.get(ch) == Some(&true));
            let stall = v.tree.stall.get(ch).copied().unwrap_or(0.0);
            let result = v.results.links.get(ch);
            let role = if root {
                " Root of the congestion tree."
            } else if blocked {
                " Blocked: congestion has spread to it."
            } else {
                ""
            };
            let title = format!(
                "{id}: {:.1}% now, {:.1}% utilization over the measurement, {} marks, {:.3} ms waiting for credit ({:.0}% lately).{role}",
                100.0 * snap.rate,
                100.0 * result.map_or(0.0, |r| r.utilization),
                snap.marks,
                result.map_or(0.0, |r| r.credit_stall_ns) / 1e6,
                100.0 * stall,
            );
            if root || blocked {
                out.push(html! {
                    <line x1={f1(x1)} y1={f1(y1)} x2={f1(x2)} y2={f1(y2)}
                        class={if root { "tree-root" } else { "tree-blocked" }}
                        data-testid={format!("{}-{id}", if root { "root" } else { "blocked" })} />
                });
            }
            out.push(html! {
                <line x1={f1(x1)} y1={f1(y1)} x2={f1(x2)} y2={f1(y2)} class="lane"
                    stroke={rate_colour(snap.rate)} stroke-width={rate_width(snap.rate).to_string()}
                    stroke-dasharray={if blocked || snap.stalled { "6 4" } else { "none" }}
                    data-testid={format!("link-{id}")} data-rate={format!("{:.4}", snap.rate)}>
                    <title>{ title }</title>
                </line>
            });
            let fresh = v.recent_marks.get(ch).copied().unwrap_or(0);
            if fresh > 0 {
                // Near the sending end: marks are made as packets leave toward a congested output.
                let (mx, my) = (x1 + (x2 - x1) * 0.3, y1 + (y2 - y1) * 0.3);
                let r = (2.5 + (fresh as f64).log10() * 1.5).min(6.0);
                out.push(html! {
                    <circle cx={f1(mx)} cy={f1(my)} r={f1(r)} class="mark" data-testid={format!("marks-{id}")}>
                        <title>{ format!("{id}: {fresh} packets marked lately ({} in all)", snap.marks) }</title>
                    </circle>
                });
            }
        }
    }
    out
}

fn buffers(s: &Scenario, lay: &Layout, snap: &Snapshot, highlight: Option<&Highlight>) -> Vec<Html> {
    let mut out = Vec::new();
    for b in &snap.buffers {
        // The buffer sits at the receiving end of its channel: channel 2i is a -> b, 2i+1 is b -> a.
        let Some(l) = s.links.get((b.channel / 2) as usize) else { continue };
        let (Some(a), Some(bn)) = (node_index(s, &l.a), node_index(s, &l.b)) else { continue };
        let (from, to) = if b.channel % 2 == 0 { (a, bn) } else { (bn, a) };
        let (pf, pt) = (lay.positions[from], lay.positions[to]);
        let t = 0.78;
        let (cx, cy) = (pf.0 + (pt.0 - pf.0) * t, pf.1 + (pt.1 - pf.1) * t);
        let fill = f64::from(b.fill.clamp(0.0, 1.0));
        let class = if fill >= 0.99 {
            "level full"
        } else if fill > 0.5 {
            "level high"
        } else {
            "level low"
        };
        let marked = matches!(highlight, Some(Highlight::Buffer { at, from: f }) if *at == s.nodes[to].id && *f == s.nodes[from].id);
        out.push(html! {
            <g class="buffer" transform={format!("translate({:.1},{:.1})", cx - 5.0, cy - 14.0)}
                data-testid={format!("buffer-{}-{}", s.nodes[to].id, s.nodes[from].id)} data-fill={format!("{fill:.3}")}>
                if marked {
                    <rect x="-5" y="-5" width="20" height="38" rx="4" class="lesson-mark-box" data-testid="highlight-buffer" />
                }
                <rect width="10" height="28" class="buffer-frame" />
                <rect y={f1(28.0 * (1.0 - fill))} width="10" height={f1(28.0 * fill)} class={class} />
                <title>{ format!("input buffer of {} from {}: {:.1} packets ({:.0}% full)", s.nodes[to].id, s.nodes[from].id, b.packets, 100.0 * fill) }</title>
            </g>
        });
    }
    out
}

fn flows(
    s: &Scenario,
    lay: &Layout,
    live: Option<&Live>,
    selection: Option<&Selection>,
    highlight: Option<&Highlight>,
) -> Vec<Html> {
    let curves = flow_curves(s, lay);
    let mut out = Vec::new();
    for (i, (f, curve)) in s.flows.iter().zip(curves).enumerate() {
        let Some((a, c, b)) = curve else { continue };
        let victim = live.is_some_and(|v| v.tree.victim.get(i) == Some(&true));
        let contributor = live.is_some_and(|v| v.tree.contributor.get(i) == Some(&true));
        let snap = live.and_then(|v| v.snapshot.flows.get(i));
        let result = live.and_then(|v| v.results.flows.get(i));
        let mut title = format!("flow {}: {} to {}", f.id, f.src, f.dst);
        if !f.group.is_empty() {
            title += &format!(" ({})", f.group);
        }
        if let Some(snap) = snap {
            title += &format!(
                ". Rate limit {:.1}%, window {}, {} outstanding, {}",
                100.0 * snap.rate_limit,
                snap.window.map_or(String::from("unlimited"), |w| w.to_string()),
                snap.outstanding,
                if snap.active { "sending" } else { "off" }
            );
        }
        if let Some(r) = result {
            title += &format!(". Throughput {:.1}% of its link, {} marks", 100.0 * r.throughput_fraction, r.marks);
        }
        if victim {
            title += ". Victim: slowed by congestion it does not cause.";
        } else if contributor {
            title += ". Contributes to a congestion root.";
        }
        let class = classes!(
            "flow",
            victim.then_some("victim"),
            contributor.then_some("contributor"),
            snap.is_some_and(|f| !f.active).then_some("off"),
            (selection == Some(&Selection::Flow(f.id.clone()))).then_some("selected"),
            matches!(highlight, Some(Highlight::Flow(h)) if *h == f.id || *h == f.group).then_some("lesson-flow")
        );
        out.push(html! {
            <path d={format!("M{:.1},{:.1} Q{:.1},{:.1} {:.1},{:.1}", a.0, a.1, c.0, c.1, b.0, b.1)} class={class}
                marker-end="url(#arrow)" data-testid={format!("flow-{}", f.id)}>
                <title>{ title }</title>
            </path>
        });
    }
    out
}

fn nodes(s: &Scenario, lay: &Layout, selection: Option<&Selection>) -> Vec<Html> {
    s.nodes
        .iter()
        .zip(lay.positions.iter())
        .map(|(n, &(x, y))| {
            let selected = selection == Some(&Selection::Node(n.id.clone()));
            let shape = match n.kind {
                NodeKind::Switch => html! {
                    <rect x={f1(x - 22.0)} y={f1(y - 16.0)} width="44" height="32" rx="5" class="switch" />
                },
                NodeKind::Host => html! { <circle cx={f1(x)} cy={f1(y)} r="13" class="host" /> },
            };
            let kind = if n.kind == NodeKind::Switch { "switch" } else { "host" };
            html! {
                <g data-testid={format!("node-{}", n.id)} class={classes!("node", selected.then_some("selected"))}
                    data-x={f1(x)} data-y={f1(y)}>
                    { shape }
                    <text x={f1(x)} y={f1(y + 4.0)} text-anchor="middle" class="node-label">{ &n.id }</text>
                    <title>{ format!("{kind} {}", n.id) }</title>
                </g>
            }
        })
        .collect()
}

/// The whole drawing (without the `<svg>` element, which the canvas owns).
pub fn draw(
    s: &Scenario,
    lay: &Layout,
    live: Option<&Live>,
    selection: Option<&Selection>,
    show_flows: bool,
    highlight: Option<&Highlight>,
) -> Html {
    html! {
        <>
            <defs>
                <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                    <path d="M0,0 L10,5 L0,10 z" class="arrow-head" />
                </marker>
            </defs>
            { for links(s, lay, live, selection, highlight) }
            if let Some(v) = live {
                { for buffers(s, lay, v.snapshot, highlight) }
            }
            if show_flows || matches!(highlight, Some(Highlight::Flow(_))) {
                { for flows(s, lay, live, selection, highlight) }
            }
            { for nodes(s, lay, selection) }
        </>
    }
}
