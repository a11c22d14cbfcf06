//! dfsssp's virtual-lane layers (`osm_ucast_dfsssp.c:dfsssp_remove_deadlocks`; docs/opensm-routing.md §5.4): the
//! routes sssp laid are split across virtual lanes until no lane's channel dependency graph has a cycle, so that no
//! credit loop can form; each source/destination pair's service level then picks its lane. The tables stay sssp's.
//!
//! Every route between two end ports (CA ports and switches' port 0, all their LIDs) is a chain of switch-to-switch
//! channels; a channel depends on the next one its routes take. All routes start on lane 0. On each lane in turn a
//! depth-first search looks for a cycle of dependencies; the edge on it that the fewest routes still use is cut, and
//! every route that used it moves to the next lane (and its dependencies with it); the search goes on from where
//! the cycle was found. When the last lane still has a cycle, there are not enough lanes and OpenSM stops dfsssp
//! (and falls back to minhop). Lanes left over spread the busiest lanes' routes (OpenSM's balancing).
//!
//! OpenSM's literal steps are kept where they decide which route goes where: its channel identifiers, its
//! unbalanced binary tree of channels (whose pre-order picks where a new search starts), edge lists in the order
//! routes created them, search state that is not reset between searches, route lists dropped at sinks, and the LID
//! order of its table (ascending byte-swapped LIDs). Equal tables against OpenSM are checked in `cli/tests/opensm.rs`.

use super::lfts::Lfts;
use super::lids::Addressing;
use super::model::{sort_by_u64, Fabric, PortRef};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// The most end-port LIDs whose routes this build layers: the table holds every pair, and each pair's route is
/// kept on each dependency it makes (2048 LIDs: 4.2 million pairs, some tens of MB). OpenSM has no such limit; a
/// browser tab has one.
pub const MAX_LAYERED_LIDS: usize = 2048;

/// The lanes OpenSM sees on ports that operate `vls` data VLs: PortInfo's OperationalVLs can say 1, 2, 4, 8 or 15
/// (IBA 14.2.5.6; `get_avail_vl_in_subn`), so a count between those (a simulated port may run 3) is taken down to
/// the one below.
pub fn operated(vls: u8) -> u8 {
    [15, 8, 4, 2].into_iter().find(|&v| vls >= v).unwrap_or(1)
}

/// The lane assigned to every source/destination LID pair, and how OpenSM spreads its routes over spare lanes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layers {
    /// Every end port's LIDs, in OpenSM's table order (ascending byte-swapped, as it sorts network-order LIDs).
    lids: Vec<u16>,
    /// `vls[s + d * n]`: the lane of the route from `lids[s]` to `lids[d]`.
    vls: Vec<u8>,
    /// The lanes every switch port operates (OpenSM's `vl_avail`).
    pub available: u8,
    /// The lanes the routes need.
    pub needed: u8,
    /// Per lane, after balancing: over how many lanes from it its routes are spread (OpenSM's `vl_split_count`).
    pub split: Vec<u8>,
    /// Per lane, before balancing: how many routes it carries.
    pub routes_before: Vec<u64>,
}

impl Layers {
    /// The lane of the route from `slid` to `dlid` (OpenSM's base SL for the pair), if both are end-port LIDs.
    pub fn vl(&self, slid: u16, dlid: u16) -> Option<u8> {
        let s = self.index(slid)?;
        let d = self.index(dlid)?;
        Some(self.vls[s + d * self.lids.len()])
    }

    /// The pair's SL as OpenSM's `get_dfsssp_sl` answers a path query: its lane, plus `pick % split` where the lane
    /// is spread over spare ones (OpenSM picks with `rand()`; the caller says which).
    pub fn sl(&self, slid: u16, dlid: u16, pick: u32) -> Option<u8> {
        let vl = self.vl(slid, dlid)?;
        let split = self.split.get(usize::from(vl)).copied().unwrap_or(0);
        Some(if split > 1 { vl + (pick % u32::from(split)) as u8 } else { vl })
    }

    /// Every pair's lane, in table order (`vls[s + d * n]`).
    pub fn lanes(&self) -> &[u8] {
        &self.vls
    }

    fn index(&self, lid: u16) -> Option<usize> {
        position(&self.lids, lid)
    }

    /// The table as OpenSM's debug log prints it (`vltable_print`), one line per pair, after a summary.
    pub fn write(&self) -> String {
        let mut out = format!("Virtual Lanes available: {}\nVirtual Lanes needed: {}\n", self.available, self.needed);
        let n = self.lids.len();
        for s in 0..n {
            for d in (0..n).filter(|&d| d != s) {
                out += &format!(
                    "route from src_lid={} to dest_lid={} on vl={}\n",
                    self.lids[s],
                    self.lids[d],
                    self.vls[s + d * n]
                );
            }
        }
        out
    }
}

/// Why dfsssp stops: more lanes needed than the ports operate (OpenSM's ERR AD25), a route that leads nowhere
/// (where OpenSM would loop for ever or fail), or more pairs than this build layers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LayerError {
    NotEnoughVls { available: u8, needed: u8 },
    Broken(String),
    TooLarge { lids: usize },
}

/// A search colour (OpenSM's UNKNOWN, GRAY, BLACK).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Status {
    Unknown,
    Gray,
    Black,
}

/// A dependency from one channel to the next, with the pairs (`slid << 16 | dlid`) whose routes take it.
#[derive(Debug, Clone)]
struct Edge {
    to: usize,
    pairs: Vec<u32>,
    /// Pairs moved to the next lane since (OpenSM's `removed`).
    removed: u32,
}

impl Edge {
    /// The pairs still using it; OpenSM's unsigned arithmetic.
    fn weight(&self) -> u32 {
        (self.pairs.len() as u32).wrapping_sub(self.removed)
    }
}

#[derive(Debug, Clone)]
struct Channel {
    id: u64,
    edges: Vec<Edge>,
    status: Status,
    pre: Option<usize>,
    left: Option<usize>,
    right: Option<usize>,
}

/// One lane's channel dependency graph: channels in an unbalanced binary tree by id, in insertion order.
#[derive(Debug, Default)]
struct Graph {
    channels: Vec<Channel>,
    /// (id, channel), sorted by id: a lookup that does not walk the tree (a sorted list keeps the page's code small).
    by_id: Vec<(u64, usize)>,
    /// The search's place in the tree's pre-order (OpenSM's `get_next_cdg_node` walks it from the root each time;
    /// only a channel reset by a cycle can be earlier than where the last walk stopped).
    preorder: Vec<usize>,
    place: Vec<usize>,
    cursor: usize,
}

impl Graph {
    fn root(&self) -> Option<usize> {
        (!self.channels.is_empty()).then_some(0)
    }

    fn find_or_insert(&mut self, id: u64) -> usize {
        let slot = match self.by_id.binary_search_by_key(&id, |&(i, _)| i) {
            Ok(at) => return self.by_id[at].1,
            Err(slot) => slot,
        };
        let new = self.channels.len();
        self.channels.push(Channel {
            id,
            edges: Vec::new(),
            status: Status::Unknown,
            pre: None,
            left: None,
            right: None,
        });
        self.by_id.insert(slot, (id, new));
        if new > 0 {
            let mut at = 0;
            loop {
                let c = &mut self.channels[at];
                let next = if id < c.id { &mut c.left } else { &mut c.right };
                match *next {
                    Some(n) => at = n,
                    None => {
                        *next = Some(new);
                        break;
                    }
                }
            }
        }
        new
    }

    /// Add the route of `pair` through `channels` (`update_channel_dep_graph`).
    fn add(&mut self, channels: &[u64], pair: u32) {
        let mut last: Option<usize> = None;
        for &id in channels {
            let c = self.find_or_insert(id);
            if let Some(l) = last {
                let edges = &mut self.channels[l].edges;
                match edges.iter_mut().find(|e| e.to == c) {
                    Some(e) => e.pairs.push(pair),
                    None => edges.push(Edge { to: c, pairs: alloc::vec![pair], removed: 0 }),
                }
            }
            last = Some(c);
        }
    }

    /// Count the route through `channels` as moved off its edges (`remove_path_from_cdg`).
    fn remove(&mut self, channels: &[u64]) -> Result<(), LayerError> {
        let mut last: Option<usize> = None;
        for &id in channels {
            let at = self
                .by_id
                .binary_search_by_key(&id, |&(i, _)| i)
                .map_err(|_| LayerError::Broken(String::from("a route's channel is missing from its lane")))?;
            let c = self.by_id[at].1;
            if let Some(l) = last {
                if let Some(e) = self.channels[l].edges.iter_mut().find(|e| e.to == c) {
                    e.removed += 1;
                }
            }
            last = Some(c);
        }
        Ok(())
    }

    /// Freeze the tree's pre-order before this lane is searched (nothing is added to a lane while it is searched).
    fn start_search(&mut self) {
        self.preorder.clear();
        let mut stack: Vec<usize> = self.root().into_iter().collect();
        while let Some(c) = stack.pop() {
            self.preorder.push(c);
            stack.extend(self.channels[c].right);
            stack.extend(self.channels[c].left);
        }
        self.place = alloc::vec![0; self.channels.len()];
        for (i, &c) in self.preorder.iter().enumerate() {
            self.place[c] = i;
        }
        self.cursor = 0;
    }

    /// The first channel in pre-order still unknown to the search (`get_next_cdg_node`).
    fn next_unknown(&mut self) -> Option<usize> {
        while let Some(&c) = self.preorder.get(self.cursor) {
            if self.channels[c].status == Status::Unknown {
                return Some(c);
            }
            self.cursor += 1;
        }
        None
    }

    fn reset(&mut self, c: usize) {
        self.channels[c].status = Status::Unknown;
        self.cursor = self.cursor.min(self.place[c]);
    }

    /// Depth-first from `start` until an edge reaches a channel on the search path (`search_cycle_in_channel_dep_graph`).
    fn find_cycle(&mut self, start: usize) -> Option<usize> {
        let mut current = start;
        loop {
            self.channels[current].status = Status::Gray;
            let mut next = None;
            for e in &self.channels[current].edges {
                match self.channels[e.to].status {
                    Status::Unknown => {
                        next = Some(e.to);
                        break;
                    }
                    Status::Gray => return Some(e.to),
                    Status::Black => {}
                }
            }
            if let Some(n) = next {
                self.channels[n].pre = Some(current);
                current = n;
                continue;
            }
            // A sink: its routes can take part in no cycle, and OpenSM drops them.
            self.channels[current].status = Status::Black;
            for e in &mut self.channels[current].edges {
                e.pairs = Vec::new();
                e.removed = 0;
            }
            match self.channels[current].pre.take() {
                Some(p) => current = p,
                None => current = self.next_unknown()?,
            }
        }
    }

    /// Walk the cycle through `at` by each channel's first edge to a channel on the search path, cut the edge the
    /// fewest routes still use (the first such), and return it (`get_weakest_link_in_cycle`).
    fn cut_weakest(&mut self, at: usize) -> Result<Edge, LayerError> {
        let lost = || LayerError::Broken(String::from("a cycle search lost its cycle"));
        let first_gray =
            |g: &Self, c: usize| g.channels[c].edges.iter().position(|e| g.channels[e.to].status == Status::Gray);
        let e = first_gray(self, at).ok_or_else(lost)?;
        let mut weakest = (at, e);
        let mut current = self.channels[at].edges[e].to;
        for _ in 0..=self.channels.len() {
            self.reset(current);
            let e = first_gray(self, current).ok_or_else(lost)?;
            let (w, we) = weakest;
            if self.channels[current].edges[e].weight() < self.channels[w].edges[we].weight() {
                weakest = (current, e);
            }
            current = self.channels[current].edges[e].to;
            if current == at {
                self.reset(at);
                return Ok(self.channels[weakest.0].edges.remove(weakest.1));
            }
        }
        Err(lost())
    }
}

/// An end port and its LIDs, as the layering walks routes from it.
struct End {
    at: PortRef,
    base: u16,
    count: u16,
}

/// dfsssp's lanes for the routes in `lfts` over `available` lanes; `order` is the end ports in OpenSM's port order
/// list (sssp's destination order).
pub fn layer(f: &Fabric, a: &Addressing, lfts: &Lfts, order: &[PortRef], available: u8) -> Result<Layers, LayerError> {
    let available = operated(available);
    let ends: Vec<End> =
        order.iter().filter_map(|&at| a.port(at).map(|e| End { at, base: e.base, count: e.count })).collect();
    let mut lids: Vec<u16> = ends.iter().flat_map(|e| e.base..e.base + e.count).collect();
    if lids.len() > MAX_LAYERED_LIDS {
        return Err(LayerError::TooLarge { lids: lids.len() });
    }
    sort_by_u64(&mut lids, |l| u64::from(l.swap_bytes()));
    let n = lids.len();
    let index = |lid: u16| position(&lids, lid).expect("an end-port LID");
    let mut vls = alloc::vec![0u8; n * n];
    let lanes = usize::from(available);
    let mut routes = alloc::vec![0u64; lanes];
    let mut graphs: Vec<Graph> = (0..lanes).map(|_| Graph::default()).collect();
    let route = |src: PortRef, dlid: u16| channels(f, a, lfts, src, dlid);
    for dest in &ends {
        for src in ends.iter().filter(|s| s.at != dest.at) {
            for slid in src.base..src.base + src.count {
                for dlid in dest.base..dest.base + dest.count {
                    graphs[0].add(&route(src.at, dlid)?, pair(slid, dlid));
                    vls[index(slid) + index(dlid) * n] = 0;
                    routes[0] += 1;
                }
            }
        }
    }
    let mut needed = 1u8;
    for v in 0..lanes - 1 {
        graphs[v].start_search();
        let mut start = graphs[v].root();
        while let Some(s) = start {
            let cycle = graphs[v].find_cycle(s);
            if let Some(c) = cycle {
                needed = v as u8 + 2;
                let cut = graphs[v].cut_weakest(c)?;
                routes[v] = routes[v].wrapping_sub(cut.pairs.len() as u64);
                routes[v + 1] = routes[v + 1].wrapping_add(cut.pairs.len() as u64);
                for &p in &cut.pairs {
                    let (slid, dlid) = ((p >> 16) as u16, p as u16);
                    let cell = index(slid) + index(dlid) * n;
                    if usize::from(vls[cell]) != v {
                        // Moved before through another edge of this lane.
                        routes[v] = routes[v].wrapping_add(1);
                        routes[v + 1] = routes[v + 1].wrapping_sub(1);
                        continue;
                    }
                    let src = a.owner(slid).expect("an end-port LID").at;
                    let path = route(src, dlid)?;
                    graphs[v].remove(&path)?;
                    graphs[v + 1].add(&path, p);
                    vls[cell] = v as u8 + 1;
                }
            }
            start = cycle;
        }
    }
    let last = lanes - 1;
    graphs[last].start_search();
    if let Some(root) = graphs[last].root() {
        if graphs[last].find_cycle(root).is_some() {
            needed = available + 1;
        }
    }
    if needed > available {
        return Err(LayerError::NotEnoughVls { available, needed });
    }
    let routes_before = routes.clone();
    let split = balance(&mut vls, n, &mut routes, needed, available);
    Ok(Layers { lids, vls, available, needed, split, routes_before })
}

/// Where `lid` is in `lids`, sorted as OpenSM sorts network-order LIDs (ascending byte-swapped).
fn position(lids: &[u16], lid: u16) -> Option<usize> {
    lids.binary_search_by_key(&lid.swap_bytes(), |l| l.swap_bytes()).ok()
}

fn pair(slid: u16, dlid: u16) -> u32 {
    u32::from(slid) << 16 | u32::from(dlid)
}

/// Spread the routes of the busiest lanes over the lanes not needed, as OpenSM does (its quirks included: a lane
/// whose spread starts at itself ends with a split of 0, which `Layers::sl` reads as no spread).
fn balance(vls: &mut [u8], n: usize, routes: &mut [u64], needed: u8, available: u8) -> Vec<u8> {
    let (needed, lanes) = (usize::from(needed), usize::from(available));
    let mut split = alloc::vec![0u8; lanes];
    for s in split.iter_mut().take(needed.min(lanes)) {
        *s = 1;
    }
    if needed >= lanes {
        return split;
    }
    for _ in needed..lanes {
        let (mut vl, mut most) = (0, 0.0f64);
        for (test, &r) in routes.iter().enumerate().take(needed) {
            let avg = r as f64 / f64::from(split[test]);
            if most < avg {
                (vl, most) = (test, avg);
            }
        }
        split[vl] += 1;
    }
    for from in (1..needed).rev() {
        let to: usize = split[..from].iter().map(|&s| usize::from(s)).sum();
        relabel(vls, n, from as u8, to as u8, routes[from]);
        split[to] = split[from];
        split[from] = 0;
        routes[to] = routes[from];
        routes[from] = 0;
    }
    split
}

/// The first `count` routes on lane `from` (source outer, destination inner, in table order) move to lane `to`
/// (`vltable_change_vl`).
fn relabel(vls: &mut [u8], n: usize, from: u8, to: u8, count: u64) {
    let mut set = 0;
    for s in 0..n {
        for d in (0..n).filter(|&d| d != s) {
            if set == count {
                return;
            }
            let cell = &mut vls[s + d * n];
            if *cell == from {
                *cell = to;
                set += 1;
            }
        }
    }
}

/// The switch-to-switch channels of the route from `src` to `dlid`: a channel's id is OpenSM's (local switch LID,
/// out port, remote switch LID, in port). Channels from and to CAs are left out: they cannot be on a cycle.
fn channels(f: &Fabric, a: &Addressing, lfts: &Lfts, src: PortRef, dlid: u16) -> Result<Vec<u64>, LayerError> {
    let mut out = Vec::new();
    // A switch's port 0 has no cable: its routes start nowhere in the graph.
    let mut at = if src.port == 0 { None } else { f.peer(src.node, src.port) };
    while let Some(here) = at.filter(|r| f.nodes[r.node].is_switch()) {
        let port = lfts
            .port(here.node, dlid)
            .filter(|&p| p != super::hops::NO_PATH)
            .ok_or_else(|| LayerError::Broken(format!("{} has no route to LID {dlid}", f.nodes[here.node].name)))?;
        let next = if port == 0 { None } else { f.peer(here.node, port) };
        let Some(remote) = next.filter(|r| f.nodes[r.node].is_switch()) else { break };
        out.push(
            u64::from(a.switch_lid(here.node)) << 48
                | u64::from(port) << 32
                | u64::from(a.switch_lid(remote.node)) << 16
                | u64::from(remote.port),
        );
        at = Some(remote);
        if out.len() > f.nodes.len() {
            return Err(LayerError::Broken(format!("the route to LID {dlid} loops")));
        }
    }
    Ok(out)
}
