//! The papers' reference network (INFOCOM'03 Fig. 1, Globecom'02 Fig. 1; docs/model.md §2): switches A and B joined by
//! the inter-switch link; R remote sources A1..AR and the victim source AV on A; L local sources B1..BL, the congested
//! destination BC and the victim destination BV on B. Remote and local flows go to BC (the root link is B->BC); the
//! victim flow goes AV -> BV.

use crate::scenario::{Flow, Link, Node, NodeKind, Scenario, Traffic};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// The shape of a two-switch scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TwoSwitch {
    /// Remote sources (on A).
    pub remote: u32,
    /// Local sources (on B).
    pub local: u32,
    /// Start of the first source; later ones start `stagger_ns` apart, locals first (INFOCOM'03 §III).
    pub stagger_ns: u64,
    /// When the victim flow runs (`None`: not at all; stop `None`: to the end).
    pub victim: Option<(u64, Option<u64>)>,
    /// ON/OFF traffic for the first `dynamic` remote and first `dynamic` local flows (INFOCOM'03 Fig. 7).
    pub dynamic: Option<(u32, Traffic)>,
}

fn node(id: &str, kind: NodeKind, x: f64, y: f64) -> Node {
    Node { id: id.into(), kind, switch: None, x: Some(x), y: Some(y) }
}

fn link(a: &str, b: &str) -> Link {
    Link::between(a, b)
}

fn flow(id: String, src: &str, dst: &str, group: &str, start_ns: u64, traffic: Traffic) -> Flow {
    Flow { group: group.into(), start_ns, traffic, ..Flow::new(&id, src, dst) }
}

impl TwoSwitch {
    /// A scenario with this network and these flows and every other setting at its default.
    pub fn scenario(&self, name: &str, duration_ns: u64) -> Scenario {
        let mut s = Scenario::empty(name, duration_ns);
        let (r, l) = (self.remote, self.local);
        s.nodes.push(node("A", NodeKind::Switch, 300.0, 300.0));
        s.nodes.push(node("B", NodeKind::Switch, 600.0, 300.0));
        let spread = |i: u32, n: u32| 120.0 + 360.0 * (f64::from(i) + 0.5) / f64::from(n.max(1));
        let mut flows = Vec::new();
        // Locals start first, then remotes, 100 us apart in the papers.
        let mut next_start = 0;
        let mut start = || {
            let t = next_start;
            next_start += self.stagger_ns;
            t
        };
        let traffic_for = |i: u32| match self.dynamic {
            Some((n, t)) if i < n => t,
            _ => Traffic::Greedy,
        };
        for i in 1..=l {
            let id = format!("B{i}");
            s.nodes.push(node(&id, NodeKind::Host, 760.0, spread(i - 1, l + 2)));
            s.links.push(link(&id, "B"));
            flows.push(flow(format!("local{i}"), &id, "BC", "local", start(), traffic_for(i - 1)));
        }
        for i in 1..=r {
            let id = format!("A{i}");
            s.nodes.push(node(&id, NodeKind::Host, 140.0, spread(i - 1, r + 1)));
            s.links.push(link(&id, "A"));
            flows.push(flow(format!("remote{i}"), &id, "BC", "remote", start(), traffic_for(i - 1)));
        }
        s.nodes.push(node("AV", NodeKind::Host, 140.0, spread(r, r + 1)));
        s.links.push(link("AV", "A"));
        s.nodes.push(node("BC", NodeKind::Host, 760.0, spread(l, l + 2)));
        s.links.push(link("B", "BC"));
        s.nodes.push(node("BV", NodeKind::Host, 760.0, spread(l + 1, l + 2)));
        s.links.push(link("B", "BV"));
        s.links.push(link("A", "B"));
        if let Some((start_ns, stop_ns)) = self.victim {
            let mut v = flow(String::from("victim"), "AV", "BV", "victim", start_ns, Traffic::Greedy);
            v.stop_ns = stop_ns;
            flows.push(v);
        }
        s.flows = flows;
        s
    }
}
