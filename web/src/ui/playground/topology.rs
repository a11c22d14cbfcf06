//! The network as SVG: nodes where the scenario places them, each link as two lanes (one per direction) whose
//! width and colour show the rate they carry now, dashed while stalled for credit, and each switch input buffer as a
//! bar that fills with its occupancy.

use crate::view_model::{layout, offset_line, rate_colour, rate_width};

use ibcc_core::scenario::{NodeKind, Scenario};
use ibcc_core::sim::Snapshot;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct TopologyProps {
    pub scenario: Rc<Scenario>,
    pub snapshot: Rc<Snapshot>,
}

#[component]
pub fn TopologyView(p: &TopologyProps) -> Html {
    let lay = use_memo(p.scenario.clone(), |s| layout(s));
    let index = use_memo(p.scenario.clone(), |s| {
        let ids: std::collections::BTreeMap<&str, usize> =
            s.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
        s.links.iter().map(|l| (ids.get(l.a.as_str()).copied(), ids.get(l.b.as_str()).copied())).collect::<Vec<_>>()
    });
    let (x0, y0, w, h) = lay.view_box;
    let snap = &p.snapshot;
    let s = &p.scenario;
    // Link i's two directions are channels 2i (a -> b) and 2i + 1 (b -> a), as in the core's topology.
    let mut lanes = Vec::new();
    for (i, ends) in index.iter().enumerate() {
        let (Some(a), Some(b)) = *ends else { continue };
        let (pa, pb) = (lay.positions[a], lay.positions[b]);
        for (dir, (from, to, pf, pt)) in [(a, b, pa, pb), (b, a, pb, pa)].into_iter().enumerate() {
            let ch = 2 * i + dir;
            let Some(link) = snap.links.get(ch) else { continue };
            let ((x1, y1), (x2, y2)) = offset_line(pf, pt, 4.0);
            let id = format!("{}->{}", s.nodes[from].id, s.nodes[to].id);
            lanes.push(html! {
                <line x1={x1.to_string()} y1={y1.to_string()} x2={x2.to_string()} y2={y2.to_string()}
                    stroke={rate_colour(link.rate)} stroke-width={rate_width(link.rate).to_string()}
                    stroke-dasharray={if link.stalled { "6 4" } else { "none" }}
                    data-testid={format!("link-{id}")} data-rate={format!("{:.4}", link.rate)}>
                    <title>{ format!("{id}: {:.1}% now{}, {} marks", 100.0 * link.rate, if link.stalled { ", waiting for credit" } else { "" }, link.marks) }</title>
                </line>
            });
        }
    }
    let mut bars = Vec::new();
    for b in &snap.buffers {
        // The buffer sits at the receiving end of its channel: channel 2i is a -> b, 2i+1 is b -> a.
        let link = (b.channel / 2) as usize;
        let Some(&(Some(a), Some(bn))) = index.get(link) else { continue };
        let (from, to) = if b.channel % 2 == 0 { (a, bn) } else { (bn, a) };
        let (pf, pt) = (lay.positions[from], lay.positions[to]);
        let t = 0.78;
        let (cx, cy) = (pf.0 + (pt.0 - pf.0) * t, pf.1 + (pt.1 - pf.1) * t);
        let fill = b.fill.clamp(0.0, 1.0);
        let colour = if fill >= 0.99 {
            "#c62828"
        } else if fill > 0.5 {
            "#ef6c00"
        } else {
            "#2e7d32"
        };
        bars.push(html! {
            <g class="buffer" transform={format!("translate({:.1},{:.1})", cx - 5.0, cy - 14.0)}>
                <rect width="10" height="28" class="buffer-frame" />
                <rect y={format!("{:.1}", 28.0 * (1.0 - fill))} width="10" height={format!("{:.1}", 28.0 * fill)} fill={colour} />
                <title>{ format!("input buffer of {} from {}: {:.1} packets", s.nodes[to].id, s.nodes[from].id, b.packets) }</title>
            </g>
        });
    }
    let nodes = s.nodes.iter().zip(lay.positions.iter()).map(|(n, &(x, y))| {
        let shape = match n.kind {
            NodeKind::Switch => html! { <rect x={(x - 22.0).to_string()} y={(y - 16.0).to_string()} width="44" height="32" rx="5" class="switch" /> },
            NodeKind::Host => html! { <circle cx={x.to_string()} cy={y.to_string()} r="13" class="host" /> },
        };
        html! {
            <g data-testid={format!("node-{}", n.id)}>
                { shape }
                <text x={x.to_string()} y={(y + 4.0).to_string()} text-anchor="middle" class="node-label">{ &n.id }</text>
            </g>
        }
    });

    html! {
        <svg class="topology" data-testid="topology" role="img" aria-label="Network topology with live link rates"
            viewBox={format!("{x0:.0} {y0:.0} {w:.0} {h:.0}")} preserveAspectRatio="xMidYMid meet">
            { for lanes }
            { for bars }
            { for nodes }
        </svg>
    }
}
