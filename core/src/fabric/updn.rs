//! OpenSM's up*/down* engine (`osm_ucast_updn.c`; docs/opensm-routing.md §3): rank the switches by distance from
//! root switches, forbid every route that goes down and then up again (so no cycle of channel dependencies can
//! form), and fill the tables with minhop's balancing on the hop counts that remain.
//!
//! Roots are the switches given, or those OpenSM finds: a switch that sees (almost) every CA at one distance
//! (more than 90% of them at one hop count, and no other hop count with more than 5%), as the spines of a fat tree
//! do. Without a root, updn gives up and OpenSM routes with minhop.

use super::hops::{Hops, SwitchGraph};
use super::lids::Addressing;
use super::model::Fabric;
use alloc::collections::VecDeque;
use alloc::vec::Vec;

/// Hop counts beyond which OpenSM's root search does not look (`IB_SUBNET_PATH_HOPS_MAX`).
const PATH_HOPS_MAX: usize = 64;

/// Which switches are roots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Roots {
    /// Found by OpenSM's rule.
    Found,
    /// These node GUIDs (OpenSM's `-a` file); GUIDs of no switch are ignored, as OpenSM ignores them.
    Given(Vec<u64>),
}

/// updn's hop tables and the roots they were ranked from (switch indices), or `None` if there is no root.
pub fn hops(
    f: &Fabric,
    a: &Addressing,
    g: &SwitchGraph,
    roots: &Roots,
) -> Result<Option<(Hops, Vec<usize>)>, alloc::string::String> {
    let root_list = match roots {
        Roots::Given(guids) => (0..g.len()).filter(|&s| guids.contains(&f.nodes[g.nodes[s]].node_guid)).collect(),
        Roots::Found => found_roots(f, a, g, &Hops::shortest(g)?),
    };
    if root_list.is_empty() {
        return Ok(None);
    }
    let rank = ranks(f, g, &root_list);
    let up = |u: usize, r: usize| {
        // `updn_get_dir`: is u -> r a step up? Two roots: up. Otherwise toward the lower rank, or on a tie toward
        // the lower GUID.
        let (ru, rr) = (rank[u], rank[r]);
        if ru == 0 && rr == 0 {
            return true;
        }
        match ru.cmp(&rr) {
            core::cmp::Ordering::Less => false,
            core::cmp::Ordering::Greater => true,
            core::cmp::Ordering::Equal => f.nodes[g.nodes[u]].node_guid > f.nodes[g.nodes[r]].node_guid,
        }
    };
    let mut hops = Hops::unset(g);
    let mut queue = VecDeque::new();
    let mut queued = alloc::vec![false; g.len()];
    let mut went_down = alloc::vec![false; g.len()];
    for d in 0..g.len() {
        // A search from the destination: a packet's route is the reverse, so "down then up" seen from here is
        // the "up then down" a packet may take, and the reverse turn is skipped.
        hops.set(d, d, 0, 0);
        went_down[d] = false;
        queue.push_back(d);
        while let Some(u) = queue.pop_front() {
            queued[u] = false;
            let node = g.nodes[u];
            for pn in 1..=f.nodes[node].ports {
                let Some(remote) = f.peer(node, pn) else { continue };
                let Some(r) = g.index[remote.node] else { continue };
                let step_up = up(u, r);
                if went_down[u] && step_up {
                    continue;
                }
                let h = hops.least(u, d).saturating_add(1);
                if h < hops.through(g, r, d, usize::from(remote.port)) {
                    hops.set(r, d, usize::from(remote.port), h);
                    if !queued[r] {
                        went_down[r] = !step_up;
                        queued[r] = true;
                        queue.push_back(r);
                    }
                }
            }
        }
    }
    Ok(Some((hops, root_list)))
}

/// OpenSM's automatic roots (`updn_find_root_nodes_by_min_hop`), in switch order.
fn found_roots(f: &Fabric, a: &Addressing, g: &SwitchGraph, shortest: &Hops) -> Vec<usize> {
    // CA ports (in the subnet manager's port table) on each switch.
    let mut cas = alloc::vec![0u32; g.len()];
    for p in a.ports.iter().filter(|p| !f.nodes[p.at.node].is_switch()) {
        if let Some(s) = f.peer(p.at.node, p.at.port).and_then(|r| g.index[r.node]) {
            cas[s] += 1;
        }
    }
    let total: u32 = cas.iter().sum();
    let (most, few) = (f64::from(total) * 0.9, f64::from(total) * 0.05);
    (0..g.len())
        .filter(|&s| {
            let mut histogram = [0u32; PATH_HOPS_MAX];
            for t in (0..g.len()).filter(|&t| cas[t] > 0) {
                let h = usize::from(shortest.least(s, t));
                if h < PATH_HOPS_MAX {
                    histogram[h] += cas[t];
                }
            }
            let over = |limit: f64| histogram.iter().filter(|&&n| f64::from(n) > limit).count();
            over(most) == 1 && over(few) == 1
        })
        .collect()
}

/// Each switch's distance from the nearest root (`updn_subn_rank`); unreachable ones stay at `u32::MAX`.
fn ranks(f: &Fabric, g: &SwitchGraph, roots: &[usize]) -> Vec<u32> {
    let mut rank = alloc::vec![u32::MAX; g.len()];
    let mut queue = VecDeque::new();
    for &r in roots {
        rank[r] = 0;
    }
    // Roots enter in switch order, as OpenSM walks its switch table.
    queue.extend((0..g.len()).filter(|&s| rank[s] == 0));
    while let Some(u) = queue.pop_front() {
        let node = g.nodes[u];
        for pn in 1..=f.nodes[node].ports {
            let Some(r) = f.peer(node, pn).and_then(|r| g.index[r.node]) else { continue };
            if rank[r] > rank[u] + 1 {
                rank[r] = rank[u] + 1;
                queue.push_back(r);
            }
        }
    }
    rank
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::lids::{assign, sm_port};
    use crate::fabric::model::{Speed, Width};
    use crate::fabric::shapes;

    fn roots_of(f: &Fabric) -> Vec<&str> {
        let a = assign(f, sm_port(f, None).unwrap(), 0, false).unwrap();
        let g = SwitchGraph::new(f, &a);
        match hops(f, &a, &g, &Roots::Found).unwrap() {
            Some((_, roots)) => roots.iter().map(|&s| f.nodes[g.nodes[s]].name.as_str()).collect(),
            None => Vec::new(),
        }
    }

    #[test]
    fn opensm_s_rule_finds_a_fat_tree_s_top_and_nothing_on_a_ring() {
        let link = (Width::X4, Speed::Sdr);
        let two = shapes::two_level(8, link).unwrap();
        let mut spines = roots_of(&two);
        spines.sort_unstable();
        assert_eq!(spines, ["spine-0", "spine-1", "spine-2", "spine-3"]);
        let three = shapes::fat_tree(4, link).unwrap();
        assert!(roots_of(&three).iter().all(|n| n.starts_with("core-")) && roots_of(&three).len() == 4);
        assert!(roots_of(&shapes::ring(6, 1, link).unwrap()).is_empty());
    }
}
