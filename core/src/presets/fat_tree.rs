//! A k-ary fat tree (three levels: k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 core switches,
//! k/2 hosts per edge switch; k^3/4 hosts in all), with a hot spot (every host but a few sends to one host) or a
//! shift (every host sends to the host half the network away).

use crate::scenario::{Flow, Link, Node, NodeKind, Scenario};
use alloc::format;
use alloc::string::String;

fn node(id: String, kind: NodeKind, x: f64, y: f64) -> Node {
    Node { id, kind, switch: None, x: Some(x), y: Some(y) }
}

fn link(a: &str, b: &str) -> Link {
    Link::between(a, b)
}

fn greedy(id: String, src: u32, dst: u32, group: &str, start_ns: u64) -> Flow {
    Flow { group: group.into(), start_ns, ..Flow::new(&id, &format!("h{src}"), &format!("h{dst}")) }
}

/// The network of a k-ary fat tree (`k` even, at least 2). Hosts are `h0`, `h1`, ...; switches `e{pod}.{i}`,
/// `a{pod}.{i}` and `c{i}`.
pub fn fat_tree(k: u32, name: &str, duration_ns: u64) -> Scenario {
    let half = k / 2;
    let mut s = Scenario::empty(name, duration_ns);
    let width = 1000.0;
    let pod_w = width / f64::from(k);
    for c in 0..half * half {
        let x = width * (f64::from(c) + 0.5) / f64::from(half * half);
        s.nodes.push(node(format!("c{c}"), NodeKind::Switch, x, 60.0));
    }
    for p in 0..k {
        for i in 0..half {
            let x = pod_w * (f64::from(p) + (f64::from(i) + 0.5) / f64::from(half));
            s.nodes.push(node(format!("a{p}.{i}"), NodeKind::Switch, x, 200.0));
            s.nodes.push(node(format!("e{p}.{i}"), NodeKind::Switch, x, 340.0));
        }
    }
    for p in 0..k {
        for i in 0..half {
            // Aggregation switch i of every pod connects to core switches i*half .. (i+1)*half.
            for j in 0..half {
                s.links.push(link(&format!("a{p}.{i}"), &format!("c{}", i * half + j)));
            }
            for e in 0..half {
                s.links.push(link(&format!("e{p}.{e}"), &format!("a{p}.{i}")));
            }
        }
        for e in 0..half {
            for h in 0..half {
                let id = p * half * half + e * half + h;
                let x = pod_w * (f64::from(p) + (f64::from(e * half + h) + 0.5) / f64::from(half * half));
                s.nodes.push(node(format!("h{id}"), NodeKind::Host, x, 480.0));
                s.links.push(link(&format!("h{id}"), &format!("e{p}.{e}")));
            }
        }
    }
    s
}

/// A k-ary fat tree with a hot spot: every host outside pod 0 sends to `h0` (group "hotspot"), except the first host
/// of pod 1, which sends to the first host on pod 1's second edge switch (group "victim"). Routing is deterministic
/// (no ECMP), so all traffic into pod 0 crosses one core link, the root of the congestion; the victim shares pod 1's
/// first aggregation switch's input buffer with hot-spot packets waiting for that core link, but leaves by an idle
/// link.
pub fn fat_tree_hotspot(k: u32, name: &str, duration_ns: u64) -> Scenario {
    let mut s = fat_tree(k, name, duration_ns);
    let hosts = k * k * k / 4;
    let pod0 = hosts / k;
    let victim_src = pod0;
    let victim_dst = pod0 + k / 2;
    for h in (pod0..hosts).filter(|&h| h != victim_src) {
        s.flows.push(greedy(format!("hot{h}"), h, 0, "hotspot", u64::from(h) * 10_000));
    }
    s.flows.push(greedy(String::from("victim"), victim_src, victim_dst, "victim", 0));
    s
}

/// A k-ary fat tree where host `h` sends to host `h + hosts/2` (group "shift"), starting 100 ns apart: all traffic
/// crosses the core, and deterministic routes make flows share core links, so congestion is everywhere.
pub fn fat_tree_shift(k: u32, name: &str, duration_ns: u64) -> Scenario {
    let mut s = fat_tree(k, name, duration_ns);
    let hosts = k * k * k / 4;
    for h in 0..hosts {
        s.flows.push(greedy(format!("f{h}"), h, (h + hosts / 2) % hosts, "shift", u64::from(h) * 100));
    }
    s
}
