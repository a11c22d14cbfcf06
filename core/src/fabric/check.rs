//! What a set of forwarding tables does to all-to-all traffic among the CAs: which pairs are reached, which routes
//! loop or end nowhere, how many routes cross each switch port, and whether the routes can deadlock.
//!
//! Deadlock in a lossless network is a cycle in the channel dependency graph (Dally and Seitz): a channel is a
//! switch's output port toward another switch, and a route that leaves by channel c and then by channel d makes d
//! a dependency of c (a packet holding buffer space behind c waits for space behind d). With one virtual lane, a
//! cycle of such dependencies can fill and stop for good. Channels into and out of CAs are left out: nothing waits
//! on them in a cycle. With dfsssp's lanes, a route's packets keep to its lane, so dependencies join channels of one
//! lane only, and each lane's graph must be free of cycles on its own.

use super::layers::Layers;
use super::lfts::Lfts;
use super::lids::Addressing;
use super::model::{Fabric, NodeIx, PortRef};
use super::paths::{ca_ports, trace, Lost};
use alloc::collections::BTreeMap;
use alloc::vec::Vec;

/// A switch's output port toward another switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Channel {
    pub switch: NodeIx,
    pub port: u8,
}

/// All-to-all among the CA ports: every CA port to every other CA port's base LID.
#[derive(Debug, Clone, Default)]
pub struct Check {
    /// Source-destination pairs routed.
    pub pairs: usize,
    /// Pairs whose packets arrive.
    pub reached: usize,
    /// The first pairs that do not, with why (at most [`Check::KEPT`]).
    pub lost: Vec<(PortRef, u16, Lost)>,
    /// Pairs whose packets go round a forwarding loop.
    pub loops: usize,
    /// Routes over each switch port (the port a route leaves by), switch ports with none left out.
    pub port_routes: BTreeMap<Channel, u32>,
    /// Switch-to-switch channels and the dependencies between them.
    pub channels: usize,
    pub dependencies: usize,
    /// A cycle of channel dependencies, if there is one: each channel's next is a dependency of it, and the last's
    /// is the first.
    pub cycle: Option<Vec<Channel>>,
    /// The virtual lane the cycle is on (0 without lanes).
    pub cycle_lane: u8,
}

impl Check {
    /// How many lost pairs are kept to be named.
    pub const KEPT: usize = 20;
}

/// Check the tables on all-to-all traffic among the CA ports, each route on its lane if `layers` gives lanes.
pub fn check(f: &Fabric, a: &Addressing, l: &Lfts, layers: Option<&Layers>) -> Check {
    let cas = ca_ports(f, a);
    let mut c = Check::default();
    // Each dependency as one number, `pack(from) << 32 | pack(to)`: a plain sort of numbers is a fraction of the
    // code of a sort of tuples (the worker's wasm carries this check), and a quarter of the memory.
    let mut deps: Vec<u64> = Vec::new();
    for &(src, slid) in &cas {
        for &(dst, lid) in &cas {
            if src == dst {
                continue;
            }
            c.pairs += 1;
            let lane = layers.and_then(|y| y.vl(slid, lid)).unwrap_or(0);
            match trace(f, a, l, src, lid) {
                Ok(route) => {
                    c.reached += 1;
                    let mut previous: Option<(u8, Channel)> = None;
                    for s in &route.steps {
                        *c.port_routes.entry(Channel { switch: s.switch, port: s.out_port }).or_insert(0) += 1;
                        let to_switch = f.peer(s.switch, s.out_port).is_some_and(|r| f.nodes[r.node].is_switch());
                        let here = to_switch.then_some((lane, Channel { switch: s.switch, port: s.out_port }));
                        if let (Some(p), Some(h)) = (previous, here) {
                            deps.push(u64::from(pack(p)) << 32 | u64::from(pack(h)));
                        }
                        previous = here;
                    }
                }
                Err(lost) => {
                    c.loops += usize::from(matches!(lost, Lost::Loop(_)));
                    if c.lost.len() < Check::KEPT {
                        c.lost.push((src, lid, lost));
                    }
                }
            }
        }
        // Keep the dependency list small as it grows: many routes share each dependency.
        if deps.len() > 1 << 20 {
            deps.sort_unstable();
            deps.dedup();
        }
    }
    deps.sort_unstable();
    deps.dedup();
    let mut channels: Vec<u64> = deps.iter().flat_map(|&d| [d >> 32, d & 0xffff_ffff]).collect();
    channels.sort_unstable();
    channels.dedup();
    c.channels = channels.len();
    c.dependencies = deps.len();
    let pairs: Vec<(u64, u64)> = deps.iter().map(|&d| (d >> 32, d & 0xffff_ffff)).collect();
    if let Some(cycle) = find_cycle(&channels, &pairs) {
        let cycle: Vec<(u8, Channel)> = cycle.into_iter().map(unpack).collect();
        c.cycle_lane = cycle[0].0;
        c.cycle = Some(cycle.into_iter().map(|(_, ch)| ch).collect());
    }
    c
}

/// A channel on its lane as one number, in the order of `(lane, switch, port)`: 4 bits of lane (at most 15 data
/// VLs), 20 of switch (a million nodes), 8 of port.
fn pack((lane, ch): (u8, Channel)) -> u32 {
    assert!(ch.switch < 1 << 20, "a fabric of at most 2^20 nodes");
    u32::from(lane) << 28 | (ch.switch as u32) << 8 | u32::from(ch.port)
}

fn unpack(v: u64) -> (u8, Channel) {
    ((v >> 28) as u8, Channel { switch: ((v >> 8) & 0xf_ffff) as usize, port: (v & 0xff) as u8 })
}

/// A cycle in the graph of `deps` (sorted) over `nodes` (sorted), found by depth-first search from each node in
/// order: the first back edge closes it.
fn find_cycle<T: Ord + Copy>(nodes: &[T], deps: &[(T, T)]) -> Option<Vec<T>> {
    let index = |c: &T| nodes.binary_search(c).expect("every channel of a dependency is a node");
    // Adjacency in CSR form: the dependencies are sorted by their first channel.
    let mut start = alloc::vec![0usize; nodes.len() + 1];
    for (a, _) in deps {
        start[index(a) + 1] += 1;
    }
    for i in 0..nodes.len() {
        start[i + 1] += start[i];
    }
    let next: Vec<usize> = deps.iter().map(|(_, b)| index(b)).collect();
    #[derive(Clone, Copy, PartialEq)]
    enum Colour {
        White,
        Grey,
        Black,
    }
    let mut colour = alloc::vec![Colour::White; nodes.len()];
    for root in 0..nodes.len() {
        if colour[root] != Colour::White {
            continue;
        }
        // The path from the root, each with the next of its dependencies to follow.
        let mut stack: Vec<(usize, usize)> = alloc::vec![(root, start[root])];
        colour[root] = Colour::Grey;
        while let Some(&mut (u, ref mut at)) = stack.last_mut() {
            if *at == start[u + 1] {
                colour[u] = Colour::Black;
                stack.pop();
                continue;
            }
            let v = next[*at];
            *at += 1;
            match colour[v] {
                Colour::White => {
                    colour[v] = Colour::Grey;
                    stack.push((v, start[v]));
                }
                Colour::Grey => {
                    let from = stack.iter().position(|&(w, _)| w == v).expect("a grey channel is on the path");
                    return Some(stack[from..].iter().map(|&(w, _)| nodes[w]).collect());
                }
                Colour::Black => {}
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::model::{Speed, Width};
    use crate::fabric::route::{route, Engine, Options};
    use crate::fabric::shapes;
    use crate::fabric::updn::Roots;

    const SDR: (Width, Speed) = (Width::X4, Speed::Sdr);

    fn checked(f: &Fabric, engine: Engine, roots: Roots) -> Check {
        let r = route(f, &Options { roots, ..Options::new(engine) }).unwrap();
        assert_eq!(r.engine, engine, "{:?}", r.notes);
        check(f, &r.addressing, &r.lfts, r.layers.as_ref())
    }

    #[test]
    fn minhop_on_a_ring_has_a_dependency_cycle_around_it_and_updn_has_none() {
        let ring = shapes::ring(6, 1, SDR).unwrap();
        let c = checked(&ring, Engine::Minhop, Roots::Found);
        assert_eq!((c.pairs, c.reached), (30, 30));
        let cycle = c.cycle.expect("minhop's shortest paths go both ways round a ring of six");
        assert_eq!(cycle.len(), 6, "one channel out of each switch, all one way round: {cycle:?}");
        let u = checked(&ring, Engine::Updn, Roots::Given(alloc::vec![0x20_0000]));
        assert_eq!((u.reached, u.cycle), (30, None));
    }

    /// dfsssp's lanes, checked by a search of our own rather than OpenSM's steps: sssp's routes have a cycle, and
    /// on dfsssp's lanes (the same routes) no lane has one; one lane too few and dfsssp is not used.
    #[test]
    fn dfsssp_s_lanes_leave_no_lane_with_a_cycle() {
        let fabrics = [
            shapes::ring(6, 1, SDR).unwrap(),
            shapes::random(30, 10, 40, 60, 4, SDR).unwrap(),
            shapes::random(100, 12, 100, 400, 1, SDR).unwrap(),
        ];
        for f in &fabrics {
            let s = checked(f, Engine::Sssp, Roots::Found);
            assert!(s.cycle.is_some(), "sssp's routes here have a cycle of dependencies");
            let r = route(f, &Options::new(Engine::Dfsssp)).unwrap();
            assert_eq!(r.engine, Engine::Dfsssp, "{:?}", r.notes);
            let layers = r.layers.as_ref().unwrap();
            assert!(layers.needed >= 2);
            let d = check(f, &r.addressing, &r.lfts, Some(layers));
            assert_eq!((d.reached, d.cycle), (s.reached, None), "the same routes, no lane with a cycle");
            let short =
                Options { vls: crate::fabric::layers::operated(layers.needed - 1), ..Options::new(Engine::Dfsssp) };
            let fallback = route(f, &short).unwrap();
            assert_eq!((fallback.engine, fallback.layers), (Engine::Minhop, None), "{:?}", fallback.notes);
        }
    }

    /// Ports operate 1, 2, 4, 8 or 15 data VLs; a scenario's count between is taken down, as OpenSM would read it.
    /// Past this build's limit of end-port LIDs dfsssp is refused with the reason, not attempted.
    #[test]
    fn dfsssp_reads_lanes_as_ports_operate_them_and_refuses_what_it_cannot_hold() {
        use crate::fabric::layers::{operated, MAX_LAYERED_LIDS};
        let got: Vec<u8> = (1..=15).map(operated).collect();
        assert_eq!(got, [1, 2, 2, 4, 4, 4, 4, 8, 8, 8, 8, 8, 8, 8, 15]);
        let big = shapes::fat_tree(20, SDR).unwrap();
        let e = route(&big, &Options::new(Engine::Dfsssp)).unwrap_err();
        assert!(e.contains("2500 end-port LIDs") && MAX_LAYERED_LIDS < 2500, "{e}");
    }

    #[test]
    fn a_fat_tree_s_routes_reach_everyone_without_a_cycle() {
        let ft = shapes::fat_tree(4, SDR).unwrap();
        for engine in [Engine::Minhop, Engine::Updn] {
            let c = checked(&ft, engine, Roots::Found);
            assert_eq!((c.pairs, c.reached, c.cycle), (240, 240, None), "{engine:?}");
            let total: u32 = c.port_routes.values().sum();
            assert!(total as usize >= 240 * 2, "each route crosses at least its edge switch and the CA link");
        }
    }

    #[test]
    fn a_table_with_a_hole_or_a_loop_is_named() {
        let ft = shapes::fat_tree(4, SDR).unwrap();
        let mut r = route(&ft, &Options::new(Engine::Minhop)).unwrap();
        let (_, lid) = ca_ports(&ft, &r.addressing)[5];
        // Point an edge switch's entry back up into an aggregation switch that sends it straight down again.
        let edge = ft.find("edge-0-0").unwrap();
        let agg = ft.find("agg-0-0").unwrap();
        let slot = r.lfts.switches.iter().position(|&s| s == edge).unwrap();
        let other_edge = r.lfts.switches.iter().position(|&s| s == agg).unwrap();
        let down = ft.peer(agg, 1).unwrap();
        assert_eq!(down.node, edge);
        r.lfts.tables[other_edge][usize::from(lid)] = 1;
        r.lfts.tables[slot][usize::from(lid)] = 3;
        let c = check(&ft, &r.addressing, &r.lfts, None);
        assert!(c.reached < c.pairs);
        assert!(c.lost.iter().any(|(_, l, why)| *l == lid && matches!(why, Lost::Loop(_))), "{:?}", c.lost);
        assert!(c.loops > 0 && c.loops == c.pairs - c.reached, "every lost pair loops here");
    }
}
