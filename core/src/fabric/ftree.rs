//! OpenSM's fat-tree engine, `ftree` (`osm_ucast_ftree.c`; docs/opensm-routing.md §4), with OpenSM's defaults: no
//! roots, compute-node or I/O files, no reverse hops, no `connect_roots`, no quasi-fat-tree indexing.
//!
//! The switches are ranked from the roots down (the roots are the switches farthest from every CA), each switch's
//! cables grouped by the switch or CA at their far end (parallel cables are one group), and every switch given a
//! *tuple* by a breadth-first walk from the first leaf, so that subtrees are numbered alike. The compute nodes are
//! then routed leaf by leaf in tuple order, each leaf's CAs in port order, and every leaf padded with dummy targets
//! to the largest number of CAs on a leaf: that order makes every shift permutation contention-free on a full fat
//! tree. A target's *main path* climbs from its leaf by the up group with the fewest downward routes (ties to the
//! lowest tuple), counting as it goes; every other up group gets a secondary path without counting; and from each
//! switch reached, routes go down toward every other subtree by the down group with the fewest upward routes.
//! Switch LIDs are routed last, without counting. Where the fabric is not a fat tree as OpenSM judges one, OpenSM
//! falls back to minhop, and [`route`] says why.
//!
//! OpenSM's sorts are bubble sorts of arrays it keeps between calls; they are kept as bubble sorts here, so that
//! equal keys keep the order they had, as in OpenSM.

use super::hops::{SwitchGraph, NO_PATH};
use super::lfts::Lfts;
use super::lids::Addressing;
use super::model::{sort_by_u64, Fabric, NodeIx, PortRef};
use alloc::string::String;
use alloc::vec::Vec;

/// What a tuple byte holds before it is given (OpenSM's `tuple_init`).
const UNSET: u8 = 0xFF;
type Tuple = [u8; 8];

/// A cable of a group: this switch's port, the far end's port, and the routes counted through it.
#[derive(Debug, Clone)]
struct Port {
    local: u8,
    remote: u8,
    counter_up: u32,
    counter_down: u32,
}

/// The cables from one switch to one neighbour (a switch, or one CA port).
#[derive(Debug, Clone)]
struct Group {
    owner: usize,
    /// The switch at the far end; `None` for a CA.
    far: Option<usize>,
    far_lid: u16,
    ports: Vec<Port>,
    counter_up: u32,
    counter_down: u32,
}

#[derive(Debug, Clone)]
struct Switch {
    lid: u16,
    rank: u32,
    tuple: Tuple,
    up: Vec<usize>,
    down: Vec<usize>,
    siblings: Vec<usize>,
    is_leaf: bool,
    /// One of its down groups' upward counts changed since they were last sorted.
    counter_up_changed: bool,
}

/// ftree's tables, and the compute-node order it routed in (`opensm-ftree-ca-order.dump`): CA ports, `None` for
/// the dummy targets that pad each leaf.
#[derive(Debug, Clone)]
pub struct Ftree {
    pub lfts: Lfts,
    pub ca_order: Vec<Option<PortRef>>,
}

const UNRANKED: u32 = u32::MAX;

struct State {
    sws: Vec<Switch>,
    groups: Vec<Group>,
    /// Per switch: the LFT, and ftree's own least-hop count per LID.
    lft: Vec<Vec<u8>>,
    hops: Vec<Vec<u8>>,
}

/// ftree's tables for `f`, or why OpenSM would not run ftree on it (and route with minhop instead).
pub fn route(f: &Fabric, a: &Addressing, g: &SwitchGraph) -> Result<Ftree, String> {
    let n = g.len();
    let cas = ca_nodes(f, a);
    if a.lmc > 0 {
        return Err(String::from("LMC above 0"));
    }
    if n < 2 {
        return Err(String::from("fewer than two switches"));
    }
    if cas.len() < 2 {
        return Err(String::from("fewer than two CAs"));
    }
    // Ranks: the switches next to CAs are 0, then breadth first; reversed, the farthest are the roots, and the
    // ranks are counted again from them.
    let mut rank = alloc::vec![UNRANKED; n];
    let mut queue = Vec::new();
    for &ca in &cas {
        for p in 1..=f.nodes[ca].ports {
            let Some(r) = f.peer(ca, p) else { continue };
            let Some(s) = g.index[r.node] else {
                return Err(alloc::format!("CA \"{}\" is cabled to a CA", f.nodes[ca].name));
            };
            if update(&mut rank[s], 0) {
                queue.push(s);
            }
        }
    }
    let max = bfs_ranks(g, &mut rank, queue);
    for r in rank.iter_mut().filter(|r| **r != UNRANKED) {
        *r = max - *r;
    }
    let mut roots = Vec::new();
    for (s, r) in rank.iter_mut().enumerate() {
        if *r == 0 {
            roots.push(s);
        } else {
            *r = UNRANKED;
        }
    }
    let max_rank = bfs_ranks(g, &mut rank, roots);
    if rank.contains(&UNRANKED) {
        return Err(String::from("a switch cannot be ranked"));
    }
    if max_rank == 0 {
        return Err(String::from("every switch ranks as a root"));
    }
    let top = a.max_lid();
    let mut st = State {
        sws: (0..n)
            .map(|s| Switch {
                lid: a.switch_lid(g.nodes[s]),
                rank: rank[s],
                tuple: [UNSET; 8],
                up: Vec::new(),
                down: Vec::new(),
                siblings: Vec::new(),
                is_leaf: false,
                counter_up_changed: false,
            })
            .collect(),
        groups: Vec::new(),
        lft: alloc::vec![alloc::vec![NO_PATH; usize::from(top) + 1]; n],
        hops: alloc::vec![alloc::vec![NO_PATH; usize::from(top) + 1]; n],
    };
    st.group_ports(f, a, g);
    let leaf_rank = max_rank;
    if !(1..=7).contains(&leaf_rank) {
        return Err(alloc::format!("the tree has {} levels; ftree routes 2 to 8", leaf_rank + 1));
    }
    for &ca in &cas {
        for p in 1..=f.nodes[ca].ports {
            let Some(s) = f.peer(ca, p).and_then(|r| g.index[r.node]) else { continue };
            st.sws[s].is_leaf = true;
            if st.sws[s].rank != leaf_rank {
                return Err(alloc::format!(
                    "CA \"{}\" hangs on switch \"{}\", which is not at the leaf rank",
                    f.nodes[ca].name,
                    f.nodes[g.nodes[s]].name
                ));
            }
        }
    }
    st.index(leaf_rank);
    let leaves = st.leaf_array(leaf_rank)?;
    let max_cn = leaves.iter().map(|&s| st.ca_groups(s).count()).max().unwrap_or(0);
    st.validate(leaf_rank + 1)?;

    let mut ca_order = Vec::new();
    for &leaf in &leaves {
        let mut routed = 0;
        let mut j = 0;
        while j < st.sws[leaf].down.len() {
            let gi = st.sws[leaf].down[j];
            j += 1;
            if st.groups[gi].far.is_some() {
                continue;
            }
            let t = st.groups[gi].far_lid;
            st.lft[leaf][usize::from(t)] = st.groups[gi].ports[0].local;
            st.hops[leaf][usize::from(t)] = 1;
            st.down_by_up(leaf, None, t, true, 1);
            ca_order.push(a.owner(t).map(|p| p.at));
            routed += 1;
        }
        for _ in routed..max_cn {
            st.hops[leaf][0] = 1;
            st.down_by_up(leaf, None, 0, true, 1);
            for s in 0..n {
                (st.hops[s][0], st.lft[s][0]) = (NO_PATH, NO_PATH);
            }
            ca_order.push(None);
        }
    }
    for s in 0..n {
        let lid = usize::from(st.sws[s].lid);
        (st.lft[s][lid], st.hops[s][lid]) = (0, 0);
        st.down_by_up(s, None, st.sws[s].lid, false, 0);
    }
    // The tables reach the highest LID of a switch or of a port cabled to one (OpenSM's `lft_max_lid`).
    let lft_top = st.sws.iter().map(|s| s.lid).chain(st.groups.iter().map(|g| g.far_lid)).max().unwrap_or(0);
    let mut lfts = Lfts::empty(g.nodes.clone(), lft_top);
    for (table, mut ours) in lfts.tables.iter_mut().zip(st.lft) {
        ours.truncate(table.len());
        *table = ours;
    }
    Ok(Ftree { lfts, ca_order })
}

/// The compute-node order as OpenSM writes it (`opensm-ftree-ca-order.dump`): each CA port's LID and its node's
/// description, a leaf's padding as `0xFFFF DUMMY`.
pub fn write_ca_order(f: &Fabric, a: &Addressing, order: &[Option<PortRef>]) -> String {
    let mut out = String::new();
    for at in order {
        match at.and_then(|at| a.port(at).map(|p| (p.base, &f.nodes[at.node].desc))) {
            Some((lid, desc)) => out += &alloc::format!("0x{lid:04x}\t{desc}\n"),
            None => out += "0xFFFF\tDUMMY\n",
        }
    }
    out
}

/// The CA nodes the subnet manager found, in OpenSM's order (ascending byte-swapped node GUID).
fn ca_nodes(f: &Fabric, a: &Addressing) -> Vec<NodeIx> {
    let mut cas: Vec<NodeIx> = a.ports.iter().map(|p| p.at.node).filter(|&n| !f.nodes[n].is_switch()).collect();
    sort_by_u64(&mut cas, |&n| f.nodes[n].node_guid.swap_bytes());
    cas.dedup();
    cas
}

/// Lowers an unset or higher rank (OpenSM's `sw_update_rank`); whether it changed.
fn update(rank: &mut u32, to: u32) -> bool {
    if *rank != UNRANKED && *rank <= to {
        return false;
    }
    *rank = to;
    true
}

/// Breadth first from `queue` over switch-to-switch cables in port order; the last rank given (OpenSM's
/// `max_rank`, which breadth-first order makes the largest).
fn bfs_ranks(g: &SwitchGraph, rank: &mut [u32], mut queue: Vec<usize>) -> u32 {
    let mut max = 0;
    let mut head = 0;
    while head < queue.len() {
        let s = queue[head];
        head += 1;
        for &(r, _) in g.links[s].iter().skip(1).flatten() {
            let next = rank[s] + 1;
            if update(&mut rank[r], next) {
                max = rank[r];
                queue.push(r);
            }
        }
    }
    max
}

/// Compares two groups as OpenSM's bubble sorts do: by a counter, then by the far switch's tuple.
fn before(key: (u32, Tuple), other: (u32, Tuple)) -> bool {
    key < other
}

impl State {
    fn tuple_of(&self, g: usize) -> Tuple {
        self.groups[g].far.map_or([UNSET; 8], |s| self.sws[s].tuple)
    }

    /// Each switch's cables, grouped by far end and directed by rank (`fabric_construct_sw_ports`).
    fn group_ports(&mut self, f: &Fabric, a: &Addressing, g: &SwitchGraph) {
        for s in 0..self.sws.len() {
            let node = g.nodes[s];
            for p in 1..=f.nodes[node].ports {
                let Some(r) = f.peer(node, p) else { continue };
                if r.node == node {
                    continue;
                }
                let (far, far_lid, list) = match g.index[r.node] {
                    None => (None, a.port(r).map_or(0, |e| e.base), 1),
                    Some(o) => {
                        let (mine, theirs) = (self.sws[s].rank, self.sws[o].rank);
                        (
                            Some(o),
                            self.sws[o].lid,
                            if mine > theirs {
                                0
                            } else if mine == theirs {
                                2
                            } else {
                                1
                            },
                        )
                    }
                };
                let groups = match list {
                    0 => &self.sws[s].up,
                    1 => &self.sws[s].down,
                    _ => &self.sws[s].siblings,
                };
                let port = Port { local: p, remote: r.port, counter_up: 0, counter_down: 0 };
                match groups.iter().copied().find(|&gi| self.groups[gi].far_lid == far_lid) {
                    Some(gi) => self.groups[gi].ports.push(port),
                    None => {
                        let gi = self.groups.len();
                        self.groups.push(Group {
                            owner: s,
                            far,
                            far_lid,
                            ports: alloc::vec![port],
                            counter_up: 0,
                            counter_down: 0,
                        });
                        let sw = &mut self.sws[s];
                        match list {
                            0 => sw.up.push(gi),
                            1 => sw.down.push(gi),
                            _ => sw.siblings.push(gi),
                        }
                    }
                }
            }
        }
    }

    /// A leaf's groups toward CAs.
    fn ca_groups(&self, s: usize) -> impl Iterator<Item = usize> + '_ {
        self.sws[s].down.iter().copied().filter(|&gi| self.groups[gi].far.is_none())
    }

    fn tuple_taken(&self, taken: &[u64], t: &Tuple) -> bool {
        taken.binary_search(&u64::from_be_bytes(*t)).is_ok()
    }

    /// Tuples by a breadth-first walk from the first leaf, and each group list sorted by far tuple
    /// (`fabric_make_indexing`, `bfs_fabric_indexing`).
    fn index(&mut self, leaf_rank: u32) {
        let Some(first) = (0..self.sws.len()).find(|&s| self.sws[s].is_leaf) else { return };
        let mut taken: Vec<u64> = Vec::new();
        let give = |st: &mut State, taken: &mut Vec<u64>, s: usize, t: Tuple| {
            st.sws[s].tuple = t;
            let key = u64::from_be_bytes(t);
            if let Err(at) = taken.binary_search(&key) {
                taken.insert(at, key);
            }
        };
        let mut t = [UNSET; 8];
        t[0] = self.sws[first].rank as u8;
        for b in t.iter_mut().take(leaf_rank as usize + 1).skip(1) {
            *b = 0;
        }
        give(self, &mut taken, first, t);
        let mut queue = alloc::vec![first];
        let mut head = 0;
        while head < queue.len() {
            let s = queue[head];
            head += 1;
            for down in [true, false] {
                let walk = if down { self.sws[s].rank < leaf_rank } else { self.sws[s].rank != 0 };
                if !walk {
                    continue;
                }
                let list = if down { self.sws[s].down.clone() } else { self.sws[s].up.clone() };
                for gi in list {
                    let Some(o) = self.groups[gi].far else { continue };
                    if self.sws[o].tuple != [UNSET; 8] {
                        continue;
                    }
                    let mut next = self.sws[s].tuple;
                    let var = if down {
                        next[0] = next[0].wrapping_add(1);
                        usize::from(self.sws[s].tuple[0]) + 1
                    } else {
                        next[0] = next[0].wrapping_sub(1);
                        usize::from(self.sws[s].tuple[0])
                    };
                    let Some(free) = (0..UNSET).find(|&i| {
                        next[var.min(7)] = i;
                        !self.tuple_taken(&taken, &next)
                    }) else {
                        continue;
                    };
                    next[var.min(7)] = free;
                    give(self, &mut taken, o, next);
                    queue.push(o);
                }
                let mut list =
                    if down { core::mem::take(&mut self.sws[s].down) } else { core::mem::take(&mut self.sws[s].up) };
                // (A tuple's bytes compare as the big-endian number they make.)
                sort_by_u64(&mut list, |&gi| u64::from_be_bytes(self.tuple_of(gi)));
                if down {
                    self.sws[s].down = list;
                } else {
                    self.sws[s].up = list;
                }
            }
        }
    }

    /// The leaf-rank switches in tuple order, from the first to the last with CAs (`fabric_create_leaf_switch_array`).
    fn leaf_array(&self, leaf_rank: u32) -> Result<Vec<usize>, String> {
        let mut at_leaf: Vec<usize> = (0..self.sws.len()).filter(|&s| self.sws[s].rank == leaf_rank).collect();
        sort_by_u64(&mut at_leaf, |&s| u64::from_be_bytes(self.sws[s].tuple));
        let first = at_leaf.iter().position(|&s| self.sws[s].is_leaf);
        let last = at_leaf.iter().rposition(|&s| self.sws[s].is_leaf);
        match (first, last) {
            (Some(first), Some(last)) if first < last => Ok(at_leaf[first..=last].to_vec()),
            _ => Err(String::from("fewer than two leaf switches")),
        }
    }

    /// OpenSM's check that the fabric is a pure fat tree (`fabric_validate_topology`), quirks included: per rank, the
    /// first switch is the reference; the others need as many up groups (each as wide as the reference's first) and,
    /// above the leaves, as many down groups, comparing only their own first down group's width.
    fn validate(&self, tree_rank: u32) -> Result<(), String> {
        let mut reference: Vec<Option<usize>> = alloc::vec![None; tree_rank as usize];
        let fail =
            |s: &Switch, what: &str| Err(alloc::format!("switch with LID {} has {what} than its rank's first", s.lid));
        for (s, sw) in self.sws.iter().enumerate() {
            let r = sw.rank as usize;
            let Some(refs) = reference[r] else {
                reference[r] = Some(s);
                continue;
            };
            let rs = &self.sws[refs];
            if rs.up.len() != sw.up.len() {
                return fail(sw, "other up groups");
            }
            if sw.rank != tree_rank - 1 && rs.down.len() != sw.down.len() {
                return fail(sw, "other down groups");
            }
            if let Some(&first) = rs.up.first() {
                let width = self.groups[first].ports.len();
                if sw.up.iter().any(|&gi| self.groups[gi].ports.len() != width) {
                    return fail(sw, "other up-group widths");
                }
            }
            if let (Some(&first), false) = (rs.down.first(), sw.rank == tree_rank - 1) {
                let width = self.groups[first].ports.len();
                if sw.down.first().is_some_and(|&gi| self.groups[gi].ports.len() != width) {
                    return fail(sw, "another down-group width");
                }
            }
        }
        Ok(())
    }

    /// OpenSM's bubble sort of a switch's group list by (a counter, far tuple).
    fn bubble(&mut self, s: usize, which: u8, counter_of: fn(&Group) -> u32) {
        let mut list = match which {
            0 => core::mem::take(&mut self.sws[s].up),
            1 => core::mem::take(&mut self.sws[s].down),
            _ => core::mem::take(&mut self.sws[s].siblings),
        };
        let key = |st: &State, gi: usize| (counter_of(&st.groups[gi]), st.tuple_of(gi));
        let n = list.len();
        for i in 0..n {
            let mut swapped = false;
            for j in 1..n - i {
                if before(key(self, list[j]), key(self, list[j - 1])) {
                    list.swap(j, j - 1);
                    swapped = true;
                }
            }
            if !swapped {
                break;
            }
        }
        match which {
            0 => self.sws[s].up = list,
            1 => self.sws[s].down = list,
            _ => self.sws[s].siblings = list,
        }
    }

    /// The first port of a group with the fewest routes by `counter` (ports in ascending local number).
    fn least_port(&self, gi: usize, counter: fn(&Port) -> u32) -> Option<usize> {
        let ports = &self.groups[gi].ports;
        (0..ports.len()).reduce(|best, i| if counter(&ports[i]) < counter(&ports[best]) { i } else { best })
    }

    /// Routes toward `t` down from `s` to every switch below (and beside) it that has none shorter
    /// (`fabric_route_upgoing_by_going_down`): the routes those switches send upward. OpenSM passes its main-path
    /// flag along here but never reads it: these routes are counted whether the path is main or secondary.
    fn up_by_down(&mut self, s: usize, prev: Option<usize>, t: u16, h: u8) -> bool {
        if self.sws[s].down.is_empty() {
            return false;
        }
        if self.sws[s].counter_up_changed {
            self.bubble(s, 1, |g| g.counter_up);
            self.sws[s].counter_up_changed = false;
        }
        if !self.sws[s].siblings.is_empty() {
            self.bubble(s, 2, |g| g.counter_up);
        }
        let mut created = false;
        let mut k = 0;
        loop {
            let (downs, sibs) = (self.sws[s].down.len(), self.sws[s].siblings.len());
            if k >= downs + if t != 0 { sibs } else { 0 } {
                break;
            }
            let gi = if k < downs { self.sws[s].down[k] } else { self.sws[s].siblings[k - downs] };
            k += 1;
            let Some(r) = self.groups[gi].far else {
                created = true;
                continue;
            };
            if prev.is_some_and(|p| self.groups[gi].far_lid == self.sws[p].lid) {
                continue;
            }
            let Some(pi) = self.least_port(gi, |p| p.counter_up) else { continue };
            let least = self.hops[r][usize::from(t)];
            if least != NO_PATH && h + 1 >= least {
                continue;
            }
            self.lft[r][usize::from(t)] = self.groups[gi].ports[pi].remote;
            self.hops[r][usize::from(t)] = h + 1;
            let routed = self.up_by_down(r, None, t, h + 1);
            created |= routed;
            if routed {
                self.groups[gi].ports[pi].counter_up += 1;
                self.groups[gi].counter_up += 1;
                let owner = self.groups[gi].owner;
                self.sws[owner].counter_up_changed = true;
            }
        }
        created
    }

    /// Routes toward `t` up from `s` (`fabric_route_downgoing_by_going_up`): first down from `s`, then the main
    /// path by the least-loaded up group (counted), secondary paths by the others (not counted), then siblings.
    fn down_by_up(&mut self, s: usize, prev: Option<usize>, t: u16, main: bool, h: u8) -> bool {
        let mut created = self.up_by_down(s, prev, t, h);
        if self.sws[s].rank == 0 {
            return created;
        }
        self.bubble(s, 0, |g| g.counter_down);
        let Some(&min_group) = self.sws[s].up.first() else { return created };
        let min_port = self.least_port(min_group, |p| p.counter_down);
        let lid = usize::from(t);
        if main {
            if let Some(pi) = min_port {
                let r = self.groups[min_group].far.expect("an up group leads to a switch");
                self.groups[min_group].counter_down += 1;
                self.groups[min_group].ports[pi].counter_down += 1;
                if self.lft[r][lid] == NO_PATH || h + 1 < self.hops[r][lid] {
                    self.lft[r][lid] = self.groups[min_group].ports[pi].remote;
                    self.hops[r][lid] = h + 1;
                }
                created |= self.down_by_up(r, Some(s), t, main, h + 1);
            }
        }
        let mut i = usize::from(main);
        while i < self.sws[s].up.len() {
            let gi = self.sws[s].up[i];
            i += 1;
            created |= self.secondary(s, gi, t, h);
        }
        if !self.sws[s].siblings.is_empty() {
            self.bubble(s, 2, |g| g.counter_down);
        }
        let mut i = 0;
        while i < self.sws[s].siblings.len() {
            let gi = self.sws[s].siblings[i];
            i += 1;
            let routed = self.secondary(s, gi, t, h);
            created |= routed;
            if let (true, Some(pi)) = (routed, min_port) {
                // OpenSM counts a sibling route on the main up group (as it does).
                self.groups[min_group].counter_down += 1;
                self.groups[min_group].ports[pi].counter_down += 1;
            }
        }
        created
    }

    /// A secondary path to `t` through group `gi` of `s`, if its far switch has none as short; not counted.
    fn secondary(&mut self, s: usize, gi: usize, t: u16, h: u8) -> bool {
        let lid = usize::from(t);
        let Some(r) = self.groups[gi].far else { return false };
        if self.lft[r][lid] != NO_PATH && h + 1 >= self.hops[r][lid] {
            return false;
        }
        let Some(pi) = self.least_port(gi, |p| p.counter_down) else { return false };
        self.lft[r][lid] = self.groups[gi].ports[pi].remote;
        self.hops[r][lid] = h + 1;
        self.down_by_up(r, Some(s), t, false, h + 1)
    }
}

#[cfg(test)]
mod tests {
    use crate::fabric::patterns::{hosts_in_node_order, load, Pattern};
    use crate::fabric::route::{route, Engine, Options};
    use crate::fabric::{shapes, Speed, Width};
    use crate::rng::Rng;

    /// The property ftree's order exists for: on the k=8 fat tree (128 hosts), every shift permutation in ftree's
    /// compute-node order loads no channel with more than one flow. minhop, in the file's order, does not manage it.
    #[test]
    fn every_shift_in_ftree_order_is_contention_free_on_k8() {
        let f = shapes::fat_tree(8, (Width::X4, Speed::Sdr)).unwrap();
        let r = route(&f, &Options::new(Engine::Ftree)).unwrap();
        assert_eq!(r.engine, Engine::Ftree, "{:?}", r.notes);
        assert_eq!(r.ca_order.len(), 128);
        let hosts: alloc::vec::Vec<_> =
            r.ca_order.iter().map(|at| at.unwrap()).map(|at| (at, r.addressing.port(at).unwrap().base)).collect();
        for k in 1..128 {
            let shift = Pattern::Shift(k).pairs(128, &mut Rng::new(1, 0)).unwrap();
            let l = load(&f, &r.addressing, &r.lfts, &hosts, &shift);
            assert_eq!((l.flows, l.max), (128, 1), "shift {k}");
        }
        let m = route(&f, &Options::new(Engine::Minhop)).unwrap();
        let hosts = hosts_in_node_order(&f, &m.addressing);
        let worst = (1..128)
            .map(|k| {
                load(&f, &m.addressing, &m.lfts, &hosts, &Pattern::Shift(k).pairs(128, &mut Rng::new(1, 0)).unwrap())
                    .max
            })
            .max();
        assert!(worst > Some(1), "minhop's worst shift: {worst:?}");
    }
}
