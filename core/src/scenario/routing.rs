//! How a scenario's network is routed. InfiniBand switches forward by their linear forwarding tables (destination
//! LID -> output port), which the subnet manager fills; here OpenSM's engines fill them, entry for entry as OpenSM
//! 3.3.23 would for the same network (`crate::fabric`), and packets follow them. Version 2 scenarios and older
//! were routed by the playground's own rule (fewest hops, ties to the neighbour listed first), which they keep:
//! on a fat tree it sends every flow to a destination up the same uplinks, as no InfiniBand fabric does.
//!
//! The network becomes a fabric as it is written: each node a switch or a one-port CA in node order (numbered as
//! ibsim numbers a net file's nodes), a node's ports numbered from 1 in the order its links are listed, the
//! subnet manager on the first node. Each connected part of a network is its own subnet.

use super::{Element, NodeKind, Problem, ScenarioError};
use crate::fabric::check::check;
use crate::fabric::lfts::read as read_lfts;
use crate::fabric::model::{Cable, Fabric, FabricNode, PortRef, Speed, Width};
use crate::fabric::paths::{trace, write_tracert};
use crate::fabric::route::{route, Engine, Options, Routed};
use crate::fabric::updn::Roots;
use crate::net::topology::{NodeId, PortId};
use crate::rng::Rng;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// The routing block of a scenario.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Routing {
    pub engine: RoutingEngine,
    /// updn's root switches, by node id; empty: found as OpenSM finds them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub roots: Vec<String>,
    /// dfsssp: what a flow's SL does with the lanes its route's lane is spread over.
    #[serde(skip_serializing_if = "SpareLanes::is_default")]
    pub spare_lanes: SpareLanes,
    /// A site's own forwarding tables, as OpenSM's `opensm-lfts.dump` or `ibroute` / `dump_lfts.sh` print them,
    /// forwarded by instead of the engine's (OpenSM's `file` engine: the engine still assigns the LIDs). Only for a
    /// scenario of a real fabric (a `fabric` block), whose switches' GUIDs the file names; empty: the engine's.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub tables: String,
}

/// dfsssp needs some virtual lanes to break every cycle; OpenSM spreads the busiest lanes' routes over the rest,
/// answering each path query with a random one of its lane's share (`get_dfsssp_sl`: `rand()`, seeded by the clock).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SpareLanes {
    /// As OpenSM: each source/destination pair's SL drawn among its lane's share, from the scenario's seed (so a run
    /// replays exactly).
    #[default]
    Spread,
    /// Every route on the first lane of its share: only as many lanes as dfsssp needs carry traffic.
    Unused,
}

impl SpareLanes {
    fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

impl Routing {
    pub fn is_default(&self) -> bool {
        *self == Self::default()
    }
}

/// Who fills the forwarding tables.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RoutingEngine {
    /// OpenSM's default: shortest paths, each switch spreading destinations over its equal-hop ports.
    #[default]
    Minhop,
    /// OpenSM's up*/down*: no route turns down and then up again, so no credit loop can form.
    Updn,
    /// OpenSM's fat-tree engine: destinations routed leaf by leaf so that shift permutations do not contend (falls
    /// back to minhop, as OpenSM does, where the network is not a fat tree).
    Ftree,
    /// OpenSM's sssp: shortest paths on weights that grow with the routes already laid, spreading them.
    Sssp,
    /// OpenSM's dfsssp: sssp's routes on virtual lanes chosen so that no lane's routes can close a credit loop; each
    /// flow's SL is its route's lane (`virtual_lanes.data_vls` are the lanes it may use; with too few, OpenSM falls
    /// back to minhop, and so does the simulator).
    Dfsssp,
    /// The playground's routing before format version 3: fewest hops, ties to the neighbour listed first.
    FirstListed,
}

impl RoutingEngine {
    pub const ALL: [RoutingEngine; 6] = [
        RoutingEngine::Minhop,
        RoutingEngine::Updn,
        RoutingEngine::Ftree,
        RoutingEngine::Sssp,
        RoutingEngine::Dfsssp,
        RoutingEngine::FirstListed,
    ];

    /// The engine as OpenSM knows it, if it is one of OpenSM's.
    fn opensm(self) -> Option<Engine> {
        match self {
            Self::Minhop => Some(Engine::Minhop),
            Self::Updn => Some(Engine::Updn),
            Self::Ftree => Some(Engine::Ftree),
            Self::Sssp => Some(Engine::Sssp),
            Self::Dfsssp => Some(Engine::Dfsssp),
            Self::FirstListed => None,
        }
    }
}

/// The engine's forwarding tables for the network, read as the simulator needs them: the port a packet at a node
/// leaves by toward a host. Each connected part of the network is one routed fabric; nothing is expanded per pair
/// (a large fabric's tables are switches x LIDs bytes).
pub(crate) struct Tables {
    parts: Vec<Part>,
    /// Per scenario node: its part and its node index in that part's fabric.
    at: Vec<Option<(usize, usize)>>,
    pub notes: Vec<String>,
}

/// One routed fabric and how its nodes and ports are the scenario's.
struct Part {
    fabric: Fabric,
    routed: Routed,
    /// Per fabric node: the topology port of each fabric port (`None`: port 0, or a cable the scenario has not).
    ports: Vec<Vec<Option<PortId>>>,
    /// Per fabric node: a host's base LID (its first cabled port's), 0 for a switch.
    lid: Vec<u16>,
    is_host: Vec<bool>,
}

/// A cycle of channel dependencies among the routes: each link direction `(from, to)` (scenario nodes) is followed
/// by the next; packets waiting for credit on each could wait on each other for ever (a credit loop, deadlock).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChannelLoop {
    pub channels: Vec<(NodeId, NodeId)>,
    /// The virtual lane it is on (dfsssp's layers; 0 otherwise).
    pub lane: u8,
}

impl Tables {
    /// The port a packet at `at` for host `dest` leaves by.
    pub fn next(&self, at: NodeId, dest: NodeId) -> Option<PortId> {
        let (pa, a) = self.at[at as usize]?;
        let (pd, d) = self.at[dest as usize]?;
        if pa != pd || a == d {
            return None;
        }
        let part = &self.parts[pa];
        if part.is_host[a] {
            return Some(0);
        }
        let p = part.routed.lfts.port(a, part.lid[d]).filter(|&p| p > 0)?;
        part.ports[a].get(usize::from(p)).copied().flatten()
    }

    /// dfsssp's SL for traffic from host `src` to host `dst` (`None` under other engines): its route's lane, and
    /// where that lane is spread over spare ones, the share `spare` and the seed pick.
    pub fn sl(&self, src: NodeId, dst: NodeId, seed: u64, spare: SpareLanes) -> Option<u8> {
        let (ps, s) = self.at[src as usize]?;
        let (pd, d) = self.at[dst as usize]?;
        if ps != pd {
            return None;
        }
        let part = &self.parts[ps];
        let layers = part.routed.layers.as_ref()?;
        let (slid, dlid) = (part.lid[s], part.lid[d]);
        let pick = match spare {
            // One draw per pair, as one path query per connection: the same pair keeps its SL.
            SpareLanes::Spread => {
                (Rng::new(seed, SL_STREAM | u64::from(slid) << 16 | u64::from(dlid)).next_u64() >> 32) as u32
            }
            SpareLanes::Unused => 0,
        };
        layers.sl(slid, dlid, pick)
    }

    /// The route from host `src` to host `dst` as `ibtracert` prints it (each port entered, with its LIDs), or why
    /// the packet would not arrive.
    pub fn tracert(&self, src: NodeId, dst: NodeId) -> Result<String, String> {
        let (Some((ps, s)), Some((pd, d))) = (self.at[src as usize], self.at[dst as usize]) else {
            return Err(String::from("a node without routes"));
        };
        if ps != pd {
            return Err(String::from("the two hosts are in parts of the network that no link joins"));
        }
        let part = &self.parts[ps];
        let (f, a) = (&part.fabric, &part.routed.addressing);
        let from = first_cabled(f, s).ok_or_else(|| String::from("the source has no link"))?;
        let r = trace(f, a, &part.routed.lfts, PortRef { node: s, port: from }, part.lid[d])
            .map_err(|lost| lost.describe(f))?;
        Ok(write_tracert(f, a, &r))
    }

    /// A credit loop the routes of all host pairs can close, in the first part of the network that has one
    /// (OpenSM's routes checked as `ibcc fabric check` checks them, each route on its dfsssp lane); `None` if none.
    pub fn credit_loop(&self) -> Option<ChannelLoop> {
        for (k, part) in self.parts.iter().enumerate() {
            let c = check(&part.fabric, &part.routed.addressing, &part.routed.lfts, part.routed.layers.as_ref());
            let Some(cycle) = c.cycle else { continue };
            let mut node = alloc::vec![0 as NodeId; part.fabric.nodes.len()];
            for (scenario_node, at) in self.at.iter().enumerate() {
                if let Some((p, local)) = *at {
                    if p == k {
                        node[local] = scenario_node as NodeId;
                    }
                }
            }
            let channels = cycle
                .iter()
                .filter_map(|ch| {
                    let to = part.fabric.peer(ch.switch, ch.port)?;
                    Some((node[ch.switch], node[to.node]))
                })
                .collect();
            return Some(ChannelLoop { channels, lane: c.cycle_lane });
        }
        None
    }
}

/// The random streams of dfsssp's SL picks (flows draw from streams 0, 1, ...: their index).
const SL_STREAM: u64 = 1 << 62;

fn routing_error(field: &'static str, problem: Problem) -> ScenarioError {
    ScenarioError { element: Element::Scenario, field, problem }
}

fn too_many_ports(id: &str, links: usize) -> ScenarioError {
    routing_error(
        "routing.engine",
        Problem::Routing(format!("{id} has {links} links; an InfiniBand switch has at most 254 ports")),
    )
}

/// The network as a fabric, with each node's links in order as its ports 1, 2, ...
fn as_fabric(kinds: &[NodeKind], ids: &[&str], links: &[(NodeId, NodeId)]) -> Result<Fabric, ScenarioError> {
    let mut ports = alloc::vec![0usize; kinds.len()];
    for &(a, b) in links {
        ports[a as usize] += 1;
        ports[b as usize] += 1;
    }
    let (mut next_ca, mut next_switch) = (0x10_0000u64, 0x20_0000u64);
    let mut nodes = Vec::with_capacity(kinds.len());
    for (i, &kind) in kinds.iter().enumerate() {
        let n =
            u8::try_from(ports[i].max(1)).ok().filter(|&p| p < 255).ok_or_else(|| too_many_ports(ids[i], ports[i]))?;
        let (node_kind, port_guids) = match kind {
            NodeKind::Switch => {
                next_switch += 1;
                (crate::fabric::NodeKind::Switch, alloc::vec![next_switch - 1])
            }
            NodeKind::Host => {
                let guid = next_ca;
                next_ca += u64::from(n) + 1;
                (crate::fabric::NodeKind::Ca, (0..=u64::from(n)).map(|p| guid + p).collect())
            }
        };
        nodes.push(FabricNode {
            kind: node_kind,
            name: String::from(ids[i]),
            desc: String::from(ids[i]),
            node_guid: port_guids[0],
            sysimg_guid: port_guids[0],
            ports: n,
            port_guids,
            lids: alloc::vec![None; usize::from(n) + 1],
        });
    }
    let mut used = alloc::vec![0u8; kinds.len()];
    let cables = links
        .iter()
        .map(|&(a, b)| {
            used[a as usize] += 1;
            used[b as usize] += 1;
            let (pa, pb) = (used[a as usize], used[b as usize]);
            Cable {
                a: PortRef { node: a as usize, port: pa },
                b: PortRef { node: b as usize, port: pb },
                width: Width::X4,
                speed: Speed::Sdr,
            }
        })
        .collect();
    Ok(Fabric::new(nodes, cables))
}

impl Routing {
    /// What can be checked without routing: roots and spare lanes only with the engines that read them, roots that
    /// are switches of the network, and no node with more links than a switch has ports. Returns the roots' nodes.
    pub(crate) fn check(
        &self,
        kinds: &[NodeKind],
        ids: &[&str],
        links: &[(NodeId, NodeId)],
    ) -> Result<Vec<usize>, ScenarioError> {
        if !self.roots.is_empty() && self.engine != RoutingEngine::Updn {
            return Err(routing_error("routing.roots", Problem::Inconsistent("roots are updn's")));
        }
        if !self.spare_lanes.is_default() && self.engine != RoutingEngine::Dfsssp {
            return Err(routing_error("routing.spare_lanes", Problem::Inconsistent("spare lanes are dfsssp's")));
        }
        let mut root_nodes = Vec::with_capacity(self.roots.len());
        for r in &self.roots {
            let i = ids
                .iter()
                .position(|id| id == r)
                .ok_or_else(|| routing_error("routing.roots", Problem::UnknownNode(r.clone())))?;
            if kinds[i] != NodeKind::Switch {
                return Err(routing_error("routing.roots", Problem::NotASwitch(r.clone())));
            }
            root_nodes.push(i);
        }
        if self.engine.opensm().is_some() {
            let mut ports = alloc::vec![0usize; kinds.len()];
            for &(a, b) in links {
                ports[a as usize] += 1;
                ports[b as usize] += 1;
            }
            if let Some(i) = ports.iter().position(|&p| p > 254) {
                return Err(too_many_ports(ids[i], ports[i]));
            }
        }
        Ok(root_nodes)
    }

    /// The tables of an OpenSM engine for this network, or `None` for the playground's own routing. Each connected
    /// part of the network is its own subnet, with its subnet manager on its first node: a network drawn by hand
    /// may have parts not yet linked (their hosts cannot reach each other, as before).
    pub(crate) fn tables(
        &self,
        kinds: &[NodeKind],
        ids: &[&str],
        links: &[(NodeId, NodeId)],
        fabric: Option<Fabric>,
        vls: u8,
    ) -> Result<Option<Tables>, ScenarioError> {
        let root_nodes = self.check(kinds, ids, links)?;
        if !self.tables.is_empty() && (fabric.is_none() || self.engine.opensm().is_none()) {
            // (Never ignored: a run the tables were given for but that forwards by something else would mislead.)
            return Err(routing_error(
                "routing.tables",
                Problem::Routing(String::from(
                    "forwarding tables name a real fabric's switches by GUID and its LIDs as an OpenSM engine assigns \
                     them: bring the fabric they were dumped from first (its ibnetdiscover output or ibsim net file), \
                     routed by one of OpenSM's engines",
                )),
            ));
        }
        let Some(engine) = self.engine.opensm() else { return Ok(None) };
        let n = kinds.len();
        let mut tables = Tables { parts: Vec::new(), at: alloc::vec![None; n], notes: Vec::new() };
        if let Some(f) = fabric {
            // The fabric as its file gives it: OpenSM routes it whole from its first node.
            let ports = fabric_ports(&f);
            let roots: Vec<u64> = root_nodes.iter().map(|&r| f.nodes[r].node_guid).collect();
            let mut part = route_part(f, engine, roots, ports, vls)?;
            if !self.tables.is_empty() {
                given_tables(&mut part, &self.tables)?;
            }
            tables.notes.extend(part.routed.notes.iter().cloned());
            tables.at = (0..n).map(|i| Some((0, i))).collect();
            tables.parts.push(part);
            return Ok(Some(tables));
        }
        let parts = parts(n, links);
        let linked = parts.iter().filter(|p| p.len() > 1).count();
        for part in parts.iter().filter(|p| p.len() > 1) {
            let mut local = alloc::vec![usize::MAX; n];
            for (i, &node) in part.iter().enumerate() {
                local[node] = i;
            }
            let sub_kinds: Vec<NodeKind> = part.iter().map(|&i| kinds[i]).collect();
            let sub_ids: Vec<&str> = part.iter().map(|&i| ids[i]).collect();
            let sub_links: Vec<(NodeId, NodeId)> = links
                .iter()
                .filter(|&&(a, _)| local[a as usize] != usize::MAX)
                .map(|&(a, b)| (local[a as usize] as NodeId, local[b as usize] as NodeId))
                .collect();
            let fabric = as_fabric(&sub_kinds, &sub_ids, &sub_links)?;
            let roots: Vec<u64> = root_nodes
                .iter()
                .filter(|&&r| local[r] != usize::MAX)
                .map(|&r| fabric.nodes[local[r]].node_guid)
                .collect();
            // Ports are numbered from 1 in link order, the topology's from 0.
            let ports = fabric
                .nodes
                .iter()
                .map(|node| (0..=node.ports).map(|p| p.checked_sub(1).map(PortId::from)).collect())
                .collect();
            let routed = route_part(fabric, engine, roots, ports, vls)?;
            for note in &routed.routed.notes {
                tables.notes.push(if linked > 1 {
                    format!("in the part with {}: {note}", ids[part[0]])
                } else {
                    note.clone()
                });
            }
            for (i, &node) in part.iter().enumerate() {
                tables.at[node] = Some((tables.parts.len(), i));
            }
            tables.parts.push(routed);
        }
        Ok(Some(tables))
    }
}

impl super::Scenario {
    /// The nodes outside the network's largest connected part (a switch or host an imported fabric lists but no
    /// cable joins to the rest), in node order: no route reaches them. Links naming no node are left out.
    pub fn apart_nodes(&self) -> Vec<usize> {
        let index: alloc::collections::BTreeMap<&str, NodeId> =
            self.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i as NodeId)).collect();
        let ends: Vec<(NodeId, NodeId)> =
            (self.links.iter()).filter_map(|l| Some((*index.get(l.a.as_str())?, *index.get(l.b.as_str())?))).collect();
        let part = part_of(self.nodes.len(), &ends);
        let mut sizes = alloc::vec![0usize; self.nodes.len()];
        for &p in &part {
            sizes[p] += 1;
        }
        // (Parts are numbered in node order: among equals, the first is the network.)
        let largest = (0..sizes.len()).max_by_key(|&p| (sizes[p], core::cmp::Reverse(p)));
        (0..self.nodes.len()).filter(|&i| Some(part[i]) != largest).collect()
    }
}

/// Each node's connected part (numbered in the order of their first nodes).
pub(crate) fn part_of(n: usize, links: &[(NodeId, NodeId)]) -> Vec<usize> {
    let mut neighbours = alloc::vec![Vec::new(); n];
    for &(a, b) in links {
        neighbours[a as usize].push(b as usize);
        neighbours[b as usize].push(a as usize);
    }
    let mut part_of = alloc::vec![usize::MAX; n];
    let mut parts = 0;
    for first in 0..n {
        if part_of[first] == usize::MAX {
            part_of[first] = parts;
            let mut stack = alloc::vec![first];
            while let Some(at) = stack.pop() {
                for &next in &neighbours[at] {
                    if part_of[next] == usize::MAX {
                        part_of[next] = parts;
                        stack.push(next);
                    }
                }
            }
            parts += 1;
        }
    }
    part_of
}

/// The network's connected parts, each its nodes in order, in the order of their first nodes.
fn parts(n: usize, links: &[(NodeId, NodeId)]) -> Vec<Vec<usize>> {
    let mut parts: Vec<Vec<usize>> = Vec::new();
    for (node, part) in part_of(n, links).into_iter().enumerate() {
        if part == parts.len() {
            parts.push(Vec::new());
        }
        parts[part].push(node);
    }
    parts
}

/// Routes one fabric with `engine` (updn from `roots` if any are given), and reads its hosts' LIDs.
fn route_part(
    f: Fabric,
    engine: Engine,
    roots: Vec<u64>,
    ports: Vec<Vec<Option<PortId>>>,
    vls: u8,
) -> Result<Part, ScenarioError> {
    let roots = if roots.is_empty() { Roots::Found } else { Roots::Given(roots) };
    let routed = route(&f, &Options { roots, vls, ..Options::new(engine) })
        .map_err(|e| routing_error("routing.engine", Problem::Routing(e)))?;
    let is_host: Vec<bool> = f.nodes.iter().map(|n| !n.is_switch()).collect();
    let lid = (0..f.nodes.len())
        .map(|i| match first_cabled(&f, i) {
            Some(port) if is_host[i] => routed.addressing.port(PortRef { node: i, port }).map_or(0, |p| p.base),
            _ => 0,
        })
        .collect();
    Ok(Part { fabric: f, routed, ports, lid, is_host })
}

/// `part` forwarding by the tables in `text` (`opensm-lfts.dump` or `ibroute` output) instead of its engine's, as
/// OpenSM's `file` engine loads them: the engine's LIDs stay, its tables and any dfsssp lanes go. A file that does
/// not fit the fabric (a switch it lacks, a port or LID past its own) is refused, naming the line.
fn given_tables(part: &mut Part, text: &str) -> Result<(), ScenarioError> {
    let a = &part.routed.addressing;
    let lfts = read_lfts(text, &part.fabric, &a.switches, a.max_lid())
        .map_err(|e| routing_error("routing.tables", Problem::Routing(format!("the forwarding tables: {e}"))))?;
    let listed = lfts.tables.iter().filter(|t| t.iter().any(|&p| p != crate::fabric::hops::NO_PATH)).count();
    part.routed.lfts = lfts;
    part.routed.layers = None;
    part.routed.notes = alloc::vec![format!(
        "forwarding by the tables given ({listed} of {} switches have entries), as OpenSM's file engine; LIDs as {} \
         assigns them",
        part.routed.lfts.switches.len(),
        part.routed.engine.name()
    )];
    Ok(())
}

/// A node's first cabled port.
fn first_cabled(f: &Fabric, node: usize) -> Option<u8> {
    (1..=f.nodes[node].ports).find(|&p| f.peer(node, p).is_some())
}

/// For a scenario made from a fabric (`super::fabric_block::network`): each fabric port's topology port. The scenario's
/// links are the fabric's cables in order (a host keeps its first cabled port's), so a node's topology ports count
/// its cables in that order.
fn fabric_ports(f: &Fabric) -> Vec<Vec<Option<PortId>>> {
    let mut ports: Vec<Vec<Option<PortId>>> =
        f.nodes.iter().map(|n| alloc::vec![None; usize::from(n.ports) + 1]).collect();
    let mut next = alloc::vec![0 as PortId; f.nodes.len()];
    for c in super::fabric_block::links_of(f) {
        for end in [c.a, c.b] {
            ports[end.node][usize::from(end.port)] = Some(next[end.node]);
            next[end.node] += 1;
        }
    }
    ports
}
