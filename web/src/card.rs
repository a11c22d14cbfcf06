//! The figures of a link, flow, buffer or node, for the canvas's card: shown while the mouse hovers it, or pinned
//! by a tap (touch has no hover) until closed. What it is, what it does now, and its part in the congestion tree.
//! Pure Rust, tested natively.

use crate::scene::{channel_ends, Hit};
use crate::session::Frame;
use ibcc_core::scenario::{NodeKind, Scenario};
use ibcc_core::sim::Results;

/// The card's title and lines for `hit`, with the run's frame and results if the drawing shows the run.
pub fn figures(s: &Scenario, hit: Hit, shown: Option<(&Frame, &Results)>) -> (String, Vec<String>) {
    let frame = shown.map(|(f, _)| f);
    match hit {
        Hit::Node(i) => {
            let Some(n) = s.nodes.get(i) else { return (String::new(), Vec::new()) };
            let kind = if n.kind == NodeKind::Switch { "Switch" } else { "Host" };
            let degree = s.links.iter().filter(|l| l.a == n.id || l.b == n.id).count();
            let flows = s.flows.iter().filter(|f| f.src == n.id).count();
            let mut lines = vec![format!("{degree} link{}", if degree == 1 { "" } else { "s" })];
            if n.kind == NodeKind::Host {
                lines.push(format!("{flows} flow{} from here", if flows == 1 { "" } else { "s" }));
            }
            (format!("{kind} {}", n.id), lines)
        }
        Hit::Link(i) => {
            let Some(l) = s.links.get(i) else { return (String::new(), Vec::new()) };
            let mut lines = vec![format!(
                "{} Gb/s, {} ns propagation",
                l.bandwidth_gbps.unwrap_or(s.link.bandwidth_gbps),
                l.propagation_ns.unwrap_or(s.link.propagation_ns)
            )];
            if let Some((f, r)) = shown {
                for ch in [2 * i, 2 * i + 1] {
                    lines.push(channel_line(s, f, r, ch));
                }
            }
            (format!("Link {} — {}", l.a, l.b), lines)
        }
        Hit::Buffer(ch) => {
            let Some((from, to)) = channel_ends(s, ch) else { return (String::new(), Vec::new()) };
            let mut lines = Vec::new();
            if let Some(b) = frame.and_then(|f| f.snapshot.buffers.iter().find(|b| b.channel == ch)) {
                lines.push(format!("{:.1} packets ({:.0}% full)", b.packets, 100.0 * b.fill));
                if let Some(out) = b.waiting_for {
                    if let Some((_, next)) = channel_ends(s, out) {
                        lines.push(format!("its oldest packet waits for {to}->{next}"));
                    }
                }
            }
            if let Some(r) = shown.and_then(|(_, r)| r.buffers.iter().find(|r| r.node == to && r.from == from)) {
                lines.push(format!("{:.2} packets on average over the measurement", r.mean_packets));
            }
            (format!("Input buffer of {to} from {from}"), lines)
        }
        Hit::Flow(i) => {
            let Some(f) = s.flows.get(i) else { return (String::new(), Vec::new()) };
            let mut lines = Vec::new();
            if !f.group.is_empty() {
                lines.push(format!("group {}", f.group));
            }
            if let Some((fr, results)) = shown {
                if let Some(snap) = fr.snapshot.flows.get(i) {
                    lines.push(format!(
                        "rate limit {:.1}%, window {}, {} outstanding, {}",
                        100.0 * snap.rate_limit,
                        snap.window.map_or(String::from("unlimited"), |w| w.to_string()),
                        snap.outstanding,
                        if snap.active { "sending" } else { "off" }
                    ));
                }
                if let Some(r) = results.flows.get(i) {
                    lines.push(format!(
                        "throughput {:.1}% of its link, {} marks, over the measurement",
                        100.0 * r.throughput_fraction,
                        r.marks
                    ));
                }
                if fr.tree.victim.get(i) == Some(&true) {
                    lines.push(String::from("Victim: slowed by congestion it does not cause."));
                } else if fr.tree.contributor.get(i) == Some(&true) {
                    lines.push(String::from("Feeds a root of the congestion tree."));
                }
            }
            (format!("Flow {}: {} to {}", f.id, f.src, f.dst), lines)
        }
    }
}

fn channel_line(s: &Scenario, f: &Frame, results: &Results, ch: usize) -> String {
    let name = channel_ends(s, ch as u32).map_or_else(String::new, |(a, b)| format!("{a}->{b}"));
    let Some(snap) = f.snapshot.links.get(ch) else { return name };
    let result = results.links.get(ch);
    // With several VLs, which of them (the tree is per VL).
    let on = |bits: Option<&u16>| match bits.copied().filter(|_| s.data_vls() > 1) {
        Some(m) if m != 0 => {
            let vls: Vec<String> = (0..16).filter(|v| m & (1 << v) != 0).map(|v| v.to_string()).collect();
            format!(" on VL {}", vls.join(", "))
        }
        _ => String::new(),
    };
    let role = if f.tree.root(ch) {
        format!(" Root of the congestion tree{}.", on(f.tree.root_vls.get(ch)))
    } else if f.tree.blocked(ch) {
        format!(" Blocked{}: congestion has spread to it.", on(f.tree.blocked_vls.get(ch)))
    } else {
        String::new()
    };
    format!(
        "{name}: {:.1}% now, {:.1}% utilization over the measurement, {} marks, {:.3} ms waiting for credit ({:.0}% lately).{role}",
        100.0 * snap.rate,
        100.0 * result.map_or(0.0, |r| r.utilization),
        snap.marks,
        result.map_or(0.0, |r| r.credit_stall_ns) / 1e6,
        100.0 * f.tree.stall.get(ch).copied().unwrap_or(0.0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::Session;
    use ibcc_core::presets::find;

    #[test]
    fn cards_tell_what_each_thing_does_now() {
        let mut s = find("infocom03-fig2").unwrap().scenario();
        s.duration_ns = 3_000_000;
        s.measure.from_ns = 0;
        s.measure.to_ns = None;
        let mut run = Session::new(&s, Vec::new()).unwrap();
        run.advance(u64::MAX, || true);
        let (f, r) = (run.frame(), run.results());
        let link = s.links.iter().position(|l| (l.a == "B" && l.b == "BC") || (l.a == "BC" && l.b == "B")).unwrap();
        let (title, lines) = figures(&s, Hit::Link(link), Some((&f, &r)));
        assert!(title.starts_with("Link "), "{title}");
        assert!(
            lines.iter().any(|l| l.starts_with("B->BC: ") && l.contains("Root of the congestion tree")),
            "{lines:?}"
        );
        // B's input on the inter-switch link: full, its packets waiting for the root link.
        let ch = f
            .snapshot
            .buffers
            .iter()
            .map(|b| b.channel)
            .find(|&c| channel_ends(&s, c) == Some(("A".into(), "B".into())))
            .unwrap();
        let (title, lines) = figures(&s, Hit::Buffer(ch), Some((&f, &r)));
        assert_eq!(title, "Input buffer of B from A");
        assert!(lines[0].contains("100% full") && lines[1].contains("waits for B->BC"), "{lines:?}");
        let (title, lines) = figures(&s, Hit::Flow(0), None);
        assert!(title.starts_with("Flow ") && lines.len() == 1, "without a run only what the scenario says");
        assert_eq!(figures(&s, Hit::Node(99), None), (String::new(), Vec::new()));
    }
}
