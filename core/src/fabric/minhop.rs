//! OpenSM's minhop tables (`osm_ucast_mgr.c:ucast_mgr_build_lfts`, `osm_switch.c:osm_switch_recommend_path`;
//! docs/opensm-routing.md §2.2–2.5), with OpenSM's defaults: no routing-order file, no port shifting, no scatter,
//! switch destinations not counted.
//!
//! Destinations are taken in OpenSM's order: the CA ports of the switches with the most CAs first, by switch port,
//! then every other port in port order. Each switch fills its table on its own: a destination goes out of the
//! least-loaded of the ports with the fewest hops to it, the first such port (from port 1, circularly) winning a
//! tie; a route to a CA adds one to its port's load. With LMC > 0 a CA's later LIDs start the search after the port
//! the previous LID took, and prefer a port toward a system, then a node, that no earlier LID of the CA went to.
//! updn fills its tables the same way on its own hop matrices.

use super::hops::{Hops, SwitchGraph, NO_PATH};
use super::lfts::Lfts;
use super::lids::{Addressing, Endport};
use super::model::{sort_by_u64, Fabric};
use alloc::vec::Vec;

/// Indices into `a.ports`, in the order minhop routes them.
pub fn port_order(f: &Fabric, a: &Addressing) -> Vec<usize> {
    let endport_links = |s: usize| {
        let n = &f.nodes[s];
        (1..=n.ports).filter(|&p| f.peer(s, p).is_some_and(|r| !f.nodes[r.node].is_switch())).count()
    };
    let mut by_load = a.switches.clone();
    sort_by_u64(&mut by_load, |&s| u64::MAX - endport_links(s) as u64); // stable, as glibc's qsort is here
    let mut listed = alloc::vec![false; a.ports.len()];
    let mut order = Vec::with_capacity(a.ports.len());
    for s in by_load {
        for p in 1..=f.nodes[s].ports {
            let Some(r) = f.peer(s, p).filter(|r| !f.nodes[r.node].is_switch()) else { continue };
            if let Some(i) = a.port_index(r).filter(|&i| !listed[i]) {
                listed[i] = true;
                order.push(i);
            }
        }
    }
    order.extend((0..a.ports.len()).filter(|&i| !listed[i]));
    order
}

/// Where a route through one of a switch's ports lands: the remote node's system image and node GUIDs, and how
/// many LIDs of the destination went there (OpenSM's `osm_remote_node`, for LMC > 0).
#[derive(Debug, Clone, Copy)]
struct Remote {
    sys: u64,
    node: usize,
    forwarded_to: u32,
}

/// The tables minhop builds on these hops.
///
/// `counted`: the tables of an engine that failed after counting its routes on each port (dfsssp short of virtual
/// lanes). OpenSM zeroes the counts once per routing run, not before its fallback, so minhop starts from those.
pub fn build(f: &Fabric, a: &Addressing, g: &SwitchGraph, hops: &Hops, counted: Option<&Lfts>) -> Lfts {
    let order = port_order(f, a);
    let mut lfts = Lfts::empty(g.nodes.clone(), a.max_lid());
    let lmc_routing = a.lmc > 0;
    for s in 0..g.len() {
        let num_ports = g.num_ports(s);
        let mut count = alloc::vec![0u32; num_ports];
        if let Some(before) = counted {
            // Routes to CA LIDs were counted (routes to switches are not, by OpenSM's default).
            for dest in a.ports.iter().filter(|p| !f.nodes[p.at.node].is_switch()) {
                for lid in dest.base..dest.base + dest.count {
                    let p = before.tables[s][usize::from(lid)];
                    if p != NO_PATH && usize::from(p) < num_ports {
                        count[usize::from(p)] += 1;
                    }
                }
            }
        }
        let mut remotes: Vec<Vec<Remote>> =
            if lmc_routing { alloc::vec![Vec::new(); a.ports.len()] } else { Vec::new() };
        let table = &mut lfts.tables[s];
        for off in 0..1u16 << a.lmc {
            for &i in &order {
                let dest = &a.ports[i];
                if off >= dest.count {
                    continue;
                }
                let lid = usize::from(dest.base + off);
                let start = if off == 0 { 1 } else { usize::from(table[lid - 1]) + 1 };
                let port =
                    recommend(f, g, hops, s, dest, start, &count, if lmc_routing { Some(&remotes[i]) } else { None });
                table[lid] = port;
                let counted = port != NO_PATH && !f.nodes[dest.at.node].is_switch();
                if counted {
                    count[usize::from(port)] += 1;
                    if port > 0 && lmc_routing {
                        let r = f.peer(g.nodes[s], port).expect("a routed port is cabled");
                        let list = &mut remotes[i];
                        let at = match list.iter().position(|x| x.node == r.node) {
                            Some(at) => at,
                            None => {
                                list.push(Remote { sys: f.nodes[r.node].sysimg_guid, node: r.node, forwarded_to: 0 });
                                list.len() - 1
                            }
                        };
                        list[at].forwarded_to += 1;
                    }
                }
            }
        }
    }
    lfts
}

/// `osm_switch_recommend_path` with OpenSM's defaults on a first sweep (existing tables ignored).
#[allow(clippy::too_many_arguments)]
fn recommend(
    f: &Fabric,
    g: &SwitchGraph,
    hops: &Hops,
    s: usize,
    dest: &Endport,
    start: usize,
    count: &[u32],
    remotes: Option<&Vec<Remote>>,
) -> u8 {
    let node = &f.nodes[dest.at.node];
    let target = if node.is_switch() {
        if dest.at.node == g.nodes[s] {
            return 0;
        }
        g.index[dest.at.node].expect("a discovered switch")
    } else {
        let Some(r) = f.peer(dest.at.node, dest.at.port).filter(|r| f.nodes[r.node].is_switch()) else {
            return NO_PATH;
        };
        if r.node == g.nodes[s] {
            return r.port;
        }
        g.index[r.node].expect("a discovered switch")
    };
    let least = hops.least(s, target);
    if least == NO_PATH {
        return NO_PATH;
    }
    let n = g.num_ports(s);
    let sw = g.nodes[s];
    let (mut best, mut best_count) = (None, u32::MAX);
    let (mut other_sys, mut other_sys_count) = (0u8, u32::MAX);
    let (mut other_node, mut other_node_count) = (0u8, u32::MAX);
    let mut least_forwarded = u32::MAX;
    for i in start..start + n {
        let p = i % n;
        if p == 0 || hops.through(g, s, target, p) != least {
            continue;
        }
        let Some(r) = f.peer(sw, p as u8) else { continue };
        let c = count[p];
        // With LMC > 0: is the remote system, then the remote node, new to this destination?
        let mut seen = None;
        if let Some(list) = remotes {
            let rn = &f.nodes[r.node];
            if !list.iter().any(|x| x.sys == rn.sysimg_guid) {
                if c < other_sys_count {
                    (other_sys, other_sys_count, least_forwarded) = (p as u8, c, 0);
                }
            } else {
                seen = list.iter().find(|x| f.nodes[x.node].node_guid == rn.node_guid);
                if seen.is_none() && c < other_node_count {
                    (other_node, other_node_count, least_forwarded) = (p as u8, c, 0);
                }
            }
        }
        if c < best_count {
            (best, best_count) = (Some(p as u8), c);
            if let Some(x) = seen.filter(|x| x.forwarded_to < least_forwarded) {
                least_forwarded = x.forwarded_to;
            }
        } else if let Some(x) = seen.filter(|x| c == best_count && x.forwarded_to < least_forwarded) {
            least_forwarded = x.forwarded_to;
            best = Some(p as u8);
        }
    }
    match best {
        None => NO_PATH,
        Some(_) if remotes.is_some() && other_sys != 0 => other_sys,
        Some(_) if remotes.is_some() && other_node != 0 => other_node,
        Some(b) => b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::lfts::write_dump;
    use crate::fabric::lids::{assign, sm_port};
    use crate::fabric::netfile::parse;

    #[test]
    fn the_two_switch_example_routes_as_opensm_did() {
        // docs/opensm-routing.md §9: OpenSM 3.3.23's own output under ibsim.
        let text = "Switch\t8 \"S1\"\n[1]\t\"H1\"[1]\n[3]\t\"S2\"[3]\n[5]\t\"S2\"[5]\n\n\
            Switch\t8 \"S2\"\n[1]\t\"H2\"[1]\n[3]\t\"S1\"[3]\n[5]\t\"S1\"[5]\n\n\
            Hca\t1 \"H1\"\n[1]\t\"S1\"[1]\n\nHca\t1 \"H2\"\n[1]\t\"S2\"[1]\n";
        let f = parse(text).unwrap();
        let a = assign(&f, sm_port(&f, Some("H1")).unwrap(), 0, false).unwrap();
        let g = SwitchGraph::new(&f, &a);
        let lfts = build(&f, &a, &g, &Hops::shortest(&g).unwrap(), None);
        let want = "Unicast lids [0-4] of switch Lid 2 guid 0x0000000000200000 ('S1'):\n\
            0x0001 001 # Channel Adapter portguid 0x0000000000100001: 'H1'\n\
            0x0002 000 # Switch portguid 0x0000000000200000: 'S1'\n\
            0x0003 005 # Switch portguid 0x0000000000200001: 'S2'\n\
            0x0004 003 # Channel Adapter portguid 0x0000000000100003: 'H2'\n\
            4 lids dumped\n\
            Unicast lids [0-4] of switch Lid 3 guid 0x0000000000200001 ('S2'):\n\
            0x0001 003 # Channel Adapter portguid 0x0000000000100001: 'H1'\n\
            0x0002 005 # Switch portguid 0x0000000000200000: 'S1'\n\
            0x0003 000 # Switch portguid 0x0000000000200001: 'S2'\n\
            0x0004 001 # Channel Adapter portguid 0x0000000000100003: 'H2'\n\
            4 lids dumped\n";
        assert_eq!(write_dump(&f, &a, &lfts), want);
    }

    #[test]
    fn on_a_k8_fat_tree_minhop_spreads_destinations_evenly_over_the_uplinks() {
        // 128 hosts: an edge switch sends the 124 hosts beyond it up its 4 uplinks, 31 each; an aggregation
        // switch sends the 112 hosts outside its pod up its 4 uplinks, 28 each.
        use crate::fabric::model::{Speed, Width};
        let f = crate::fabric::shapes::fat_tree(8, (Width::X4, Speed::Sdr)).unwrap();
        let a = assign(&f, sm_port(&f, None).unwrap(), 0, false).unwrap();
        let g = SwitchGraph::new(&f, &a);
        let lfts = build(&f, &a, &g, &Hops::shortest(&g).unwrap(), None);
        let ca_lids: Vec<u16> = a.ports.iter().filter(|p| !f.nodes[p.at.node].is_switch()).map(|p| p.base).collect();
        for (prefix, per_uplink) in [("edge-", 31), ("agg-", 28)] {
            let mut checked = 0;
            for &s in a.switches.iter().filter(|&&s| f.nodes[s].name.starts_with(prefix)) {
                let mut per_port = [0u32; 9];
                for &lid in &ca_lids {
                    per_port[usize::from(lfts.port(s, lid).unwrap())] += 1;
                }
                assert_eq!(per_port[5..], [per_uplink; 4], "{}: destinations per uplink", f.nodes[s].name);
                checked += 1;
            }
            assert_eq!(checked, 32, "{prefix}: every switch of the layer");
        }
    }
}
