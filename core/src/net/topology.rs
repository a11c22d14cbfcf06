//! The network as index-based tables: nodes, their ports, the directed channels of each full-duplex link, and the
//! routes, computed once.
//!
//! Link `i` between nodes `a` and `b` gives channel `2i` (a → b) and channel `2i + 1` (b → a). A node's ports are
//! numbered in the order its links appear in the scenario; port `p` of node `n` sends on `out_channel(n, p)` and
//! receives on `in_channel(n, p)`.
//!
//! Routes are a table: for each switch and destination host, the port a packet leaves by, as an InfiniBand switch's
//! forwarding table gives it. [`Topology::with_routes`] takes the table from a routing engine (`crate::fabric`
//! fills it as OpenSM would); [`Topology::new`] computes the playground's own: fewest hops, ties to the neighbour
//! that comes first in the scenario's node list, then the port that comes first. Hosts never forward, and a host has
//! no row of its own: it sends on its one port whenever its neighbour is the destination or routes to it (a row per
//! host would be most of the table: 272 of 310 MB at 11,664 hosts).

use crate::time::{Bandwidth, Time};
use alloc::vec;
use alloc::vec::Vec;

/// Index of a node in the scenario's node list.
pub type NodeId = u32;
/// Index of a directed channel (`2 * link + direction`).
pub type ChannelId = u32;
/// Index of a port within its node.
pub type PortId = u16;

/// Marks "no route" in the routing table.
const NO_ROUTE: PortId = PortId::MAX;

/// One direction of a link.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Channel {
    pub from: NodeId,
    pub from_port: PortId,
    pub to: NodeId,
    pub to_port: PortId,
    pub bandwidth: Bandwidth,
    pub propagation: Time,
}

/// Ports and kind of one node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeInfo {
    pub is_host: bool,
    /// For each port, the channel it sends on.
    pub out_channels: Vec<ChannelId>,
}

/// Nodes, channels and routes.
#[derive(Debug, Clone)]
pub struct Topology {
    nodes: Vec<NodeInfo>,
    channels: Vec<Channel>,
    /// Destination hosts that have routes, in increasing node order; `route_slot[node]` indexes into it.
    route_slot: Vec<u32>,
    /// Each node's rank among the switches in node order (the simulator's switch slot), `u32::MAX` for a host.
    switch_row: Vec<u32>,
    /// `next_port[row * destinations + slot]`: the port a packet at the switch of that row leaves on for that
    /// destination.
    next_port: Vec<PortId>,
    destinations: usize,
}

impl Topology {
    /// Builds the tables with the playground's own routing (fewest hops, ties to the neighbour listed first).
    /// `links` are `(a, b, bandwidth, propagation)` with `a != b`, both valid node indices; a host has at most one
    /// link (validation guarantees both). Routes are computed to each node in `destinations`.
    pub fn new(is_host: &[bool], links: &[(NodeId, NodeId, Bandwidth, Time)], destinations: &[NodeId]) -> Self {
        let mut topo = Self::unrouted(is_host, links, destinations);
        for slot in 0..topo.destinations {
            let d = topo.destination(slot);
            topo.route_to(d, slot);
        }
        topo
    }

    /// Builds the tables with the routes `next(at, dest)` gives: the port a packet at node `at` for host `dest`
    /// leaves by.
    pub fn with_routes(
        is_host: &[bool],
        links: &[(NodeId, NodeId, Bandwidth, Time)],
        destinations: &[NodeId],
        next: impl Fn(NodeId, NodeId) -> Option<PortId>,
    ) -> Self {
        let mut topo = Self::unrouted(is_host, links, destinations);
        for slot in 0..topo.destinations {
            let d = topo.destination(slot);
            for at in 0..topo.nodes.len() {
                let row = topo.switch_row[at];
                if row == u32::MAX {
                    continue;
                }
                if let Some(p) = next(at as NodeId, d).filter(|&p| usize::from(p) < topo.nodes[at].out_channels.len()) {
                    topo.next_port[row as usize * topo.destinations + slot] = p;
                }
            }
        }
        topo
    }

    /// The destination host of route slot `slot`.
    fn destination(&self, slot: usize) -> NodeId {
        self.route_slot.iter().position(|&s| s == slot as u32).expect("every slot has its destination") as NodeId
    }

    /// Nodes and channels, with no routes yet.
    fn unrouted(is_host: &[bool], links: &[(NodeId, NodeId, Bandwidth, Time)], destinations: &[NodeId]) -> Self {
        let mut nodes: Vec<NodeInfo> =
            is_host.iter().map(|&is_host| NodeInfo { is_host, out_channels: Vec::new() }).collect();
        let mut channels = Vec::with_capacity(links.len() * 2);
        for &(a, b, bandwidth, propagation) in links {
            let pa = nodes[a as usize].out_channels.len() as PortId;
            let pb = nodes[b as usize].out_channels.len() as PortId;
            let forward = channels.len() as ChannelId;
            channels.push(Channel { from: a, from_port: pa, to: b, to_port: pb, bandwidth, propagation });
            channels.push(Channel { from: b, from_port: pb, to: a, to_port: pa, bandwidth, propagation });
            nodes[a as usize].out_channels.push(forward);
            nodes[b as usize].out_channels.push(forward + 1);
        }
        // The distinct destinations in node order.
        let mut is_dest = vec![false; nodes.len()];
        for &d in destinations {
            is_dest[d as usize] = true;
        }
        let dests: Vec<NodeId> = (0..nodes.len() as NodeId).filter(|&n| is_dest[n as usize]).collect();
        let mut route_slot = vec![u32::MAX; nodes.len()];
        for (slot, &d) in dests.iter().enumerate() {
            route_slot[d as usize] = slot as u32;
        }
        let mut switch_row = vec![u32::MAX; nodes.len()];
        let mut switches = 0;
        for (n, info) in nodes.iter().enumerate() {
            if !info.is_host {
                switch_row[n] = switches;
                switches += 1;
            }
        }
        Self {
            next_port: vec![NO_ROUTE; switches as usize * dests.len()],
            switch_row,
            nodes,
            channels,
            route_slot,
            destinations: dests.len(),
        }
    }

    /// Breadth-first search outward from `dest` through switches only, then the tie-broken next hop of every node.
    fn route_to(&mut self, dest: NodeId, slot: usize) {
        let n = self.nodes.len();
        let mut dist = vec![u32::MAX; n];
        let mut queue = alloc::collections::VecDeque::new();
        dist[dest as usize] = 0;
        queue.push_back(dest);
        while let Some(v) = queue.pop_front() {
            // A host other than the destination is a leaf: traffic never passes through it.
            if v != dest && self.nodes[v as usize].is_host {
                continue;
            }
            for &c in &self.nodes[v as usize].out_channels {
                let u = self.channels[c as usize].to;
                if dist[u as usize] == u32::MAX {
                    dist[u as usize] = dist[v as usize] + 1;
                    queue.push_back(u);
                }
            }
        }
        for v in 0..n {
            let row = self.switch_row[v];
            if row == u32::MAX || dist[v] == u32::MAX {
                continue;
            }
            let mut best: Option<(NodeId, PortId)> = None;
            for (port, &c) in self.nodes[v].out_channels.iter().enumerate() {
                let u = self.channels[c as usize].to;
                let via_ok = u == dest || !self.nodes[u as usize].is_host;
                if via_ok && dist[u as usize] != u32::MAX && dist[u as usize] + 1 == dist[v] {
                    let cand = (u, port as PortId);
                    if best.is_none_or(|b| cand < b) {
                        best = Some(cand);
                    }
                }
            }
            if let Some((_, port)) = best {
                self.next_port[row as usize * self.destinations + slot] = port;
            }
        }
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// All nodes.
    pub fn nodes(&self) -> &[NodeInfo] {
        &self.nodes
    }

    /// All directed channels.
    pub fn channels(&self) -> &[Channel] {
        &self.channels
    }

    /// One channel.
    pub fn channel(&self, c: ChannelId) -> &Channel {
        &self.channels[c as usize]
    }

    /// The channel node `n` sends on from port `p`.
    pub fn out_channel(&self, n: NodeId, p: PortId) -> ChannelId {
        self.nodes[n as usize].out_channels[p as usize]
    }

    /// The channel node `n` receives on at port `p` (the reverse of its out channel).
    pub fn in_channel(&self, n: NodeId, p: PortId) -> ChannelId {
        self.out_channel(n, p) ^ 1
    }

    /// Whether the tables hold routes toward `dest` (it is a flow's destination).
    pub fn has_routes_to(&self, dest: NodeId) -> bool {
        self.route_slot.get(dest as usize).is_some_and(|&s| s != u32::MAX)
    }

    /// The port a packet at `at` bound for `dest` leaves on, or `None` if `dest` cannot be reached (or has no routes).
    pub fn route(&self, at: NodeId, dest: NodeId) -> Option<PortId> {
        let row = self.switch_row[at as usize];
        if row != u32::MAX {
            return self.route_at_switch(row, dest);
        }
        // A host: its one port, if what is behind it is the destination or routes to it (and `dest` has routes, as
        // a switch's answer requires too).
        if !self.has_routes_to(dest) {
            return None;
        }
        let c = *self.nodes[at as usize].out_channels.first()?;
        let next = self.channels[c as usize].to;
        let onward = self.switch_row[next as usize];
        let onward_routes = onward != u32::MAX && self.route_at_switch(onward, dest).is_some();
        (at != dest && (next == dest || onward_routes)).then_some(0)
    }

    /// The port a packet at the switch of rank `row` among the switches (its slot in the simulator) bound for `dest`
    /// leaves on: [`Topology::route`] without looking the switch up.
    pub fn route_at_switch(&self, row: u32, dest: NodeId) -> Option<PortId> {
        let slot = *self.route_slot.get(dest as usize)?;
        if slot == u32::MAX {
            return None;
        }
        let p = self.next_port[row as usize * self.destinations + slot as usize];
        (p != NO_ROUTE).then_some(p)
    }

    /// The forwarding tables' size in bytes (one port per switch and destination).
    pub fn tables_bytes(&self) -> usize {
        self.next_port.len() * size_of::<PortId>()
    }

    /// The rank of switch `n` among the switches in node order, `None` for a host.
    pub fn switch_row(&self, n: NodeId) -> Option<u32> {
        Some(self.switch_row[n as usize]).filter(|&r| r != u32::MAX)
    }

    /// The channels a packet takes from host `src` to `dest`, or `None` if unreachable.
    pub fn path(&self, src: NodeId, dest: NodeId) -> Option<Vec<ChannelId>> {
        let mut at = src;
        let mut path = Vec::new();
        while at != dest {
            let c = self.out_channel(at, self.route(at, dest)?);
            path.push(c);
            at = self.channels[c as usize].to;
            if path.len() > self.nodes.len() {
                return None;
            }
        }
        Some(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bw() -> Bandwidth {
        Bandwidth::from_gbps(8.0).unwrap()
    }

    /// h0 - s1 - s2 - h3, plus a second route s1 - s4 - s2 of equal length via s4, and h5 on s4.
    fn diamond() -> Topology {
        let is_host = [true, false, false, true, false, true];
        let links = [(0, 1), (1, 2), (2, 3), (1, 4), (4, 2), (4, 5)];
        let links: Vec<_> = links.iter().map(|&(a, b)| (a, b, bw(), 0)).collect();
        Topology::new(&is_host, &links, &[0, 3, 5])
    }

    #[test]
    fn shortest_paths_and_ports() {
        let t = diamond();
        let p = t.path(0, 3).unwrap();
        let hops: Vec<_> = p.iter().map(|&c| (t.channel(c).from, t.channel(c).to)).collect();
        assert_eq!(hops, [(0, 1), (1, 2), (2, 3)]);
        assert_eq!(t.path(5, 0).unwrap().len(), 3);
        assert_eq!(t.in_channel(1, 0), 0);
        assert_eq!(t.out_channel(1, 0), 1);
    }

    #[test]
    fn ties_go_to_the_earliest_neighbour() {
        // s1 - s2 - s3 - h0 and s1 - s4 - s3: from s1, s2 and s4 are both two hops from h0; s2 comes first.
        let is_host = [true, false, false, false, false, true];
        let links = [(5, 1), (1, 4), (1, 2), (2, 3), (4, 3), (3, 0)];
        let links: Vec<_> = links.iter().map(|&(a, b)| (a, b, bw(), 0)).collect();
        let t = Topology::new(&is_host, &links, &[0]);
        let first_hop_from_s1 = t.channel(t.out_channel(1, t.route(1, 0).unwrap())).to;
        assert_eq!(first_hop_from_s1, 2, "s2 (node 2) before s4 (node 4), although s4's link is listed first");
    }

    #[test]
    fn hosts_do_not_forward_and_islands_are_unreachable() {
        // h0 - s1 - h2 - ... nothing: h2 cannot carry traffic onward to s3 - h4.
        let is_host = [true, false, true, false, true];
        let links: Vec<_> = [(0, 1), (1, 2), (3, 4)].iter().map(|&(a, b)| (a, b, bw(), 0)).collect();
        let t = Topology::new(&is_host, &links, &[0, 4]);
        assert!(t.path(0, 4).is_none());
        assert!(t.path(2, 0).is_some());
        assert_eq!(t.route(1, 2), None, "no routes were asked for h2");
    }

    #[test]
    fn a_host_sends_on_its_port_where_its_switch_routes() {
        let t = diamond();
        assert_eq!(t.route(0, 3), Some(0));
        assert_eq!(t.route(0, 0), None, "not to itself");
        // An engine's table that leaves s1 without a route to h3: h0 then has none either, so no path.
        let links: Vec<_> =
            [(0, 1), (1, 2), (2, 3), (1, 4), (4, 2), (4, 5)].iter().map(|&(a, b)| (a, b, bw(), 0)).collect();
        let is_host = [true, false, false, true, false, true];
        let gap =
            Topology::with_routes(&is_host, &links, &[0, 3, 5], |at, d| t.route(at, d).filter(|_| (at, d) != (1, 3)));
        assert_eq!(gap.route(0, 3), None);
        assert!(gap.path(0, 3).is_none());
        assert_eq!(gap.route(5, 3), Some(0), "h5's switch s4 still routes to h3");
        // The same routes given back through with_routes make the same table.
        let same = Topology::with_routes(&is_host, &links, &[0, 3, 5], |at, d| t.route(at, d));
        for at in 0..6 {
            for d in [0, 3, 5] {
                assert_eq!(same.route(at, d), t.route(at, d), "at {at} for {d}");
            }
        }
        assert_eq!(t.switch_row(4), Some(2));
        assert_eq!(t.switch_row(3), None);
    }

    #[test]
    fn a_host_has_no_route_to_a_node_without_routes() {
        // h2 was not asked for: its neighbour s1 has no route to it, and neither has h0 (nor to the switch s1).
        let is_host = [true, false, true];
        let links: Vec<_> = [(0, 1), (1, 2)].iter().map(|&(a, b)| (a, b, bw(), 0)).collect();
        let t = Topology::new(&is_host, &links, &[0]);
        assert_eq!((t.route(0, 2), t.route(0, 1)), (None, None));
        assert!(t.path(0, 1).is_none());
        assert_eq!(t.route(2, 0), Some(0));
    }

    #[test]
    fn a_host_wired_to_a_host_reaches_it() {
        let links = [(0, 1, bw(), 0)];
        let t = Topology::new(&[true, true], &links, &[0, 1]);
        assert_eq!(t.route(0, 1), Some(0));
        assert_eq!(t.path(1, 0).unwrap(), [1]);
    }
}
