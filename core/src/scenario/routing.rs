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
use crate::fabric::lids::{Addressing, Endport};
use crate::fabric::model::{Cable, Fabric, FabricNode, PortRef, Speed, Width};
use crate::fabric::route::{route, Engine, Options};
use crate::fabric::updn::Roots;
use crate::net::topology::{NodeId, PortId};
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
    /// The playground's routing before format version 3: fewest hops, ties to the neighbour listed first.
    FirstListed,
}

impl RoutingEngine {
    pub const ALL: [RoutingEngine; 4] =
        [RoutingEngine::Minhop, RoutingEngine::Updn, RoutingEngine::Ftree, RoutingEngine::FirstListed];

    /// The engine as OpenSM knows it, if it is one of OpenSM's.
    fn opensm(self) -> Option<Engine> {
        match self {
            Self::Minhop => Some(Engine::Minhop),
            Self::Updn => Some(Engine::Updn),
            Self::Ftree => Some(Engine::Ftree),
            Self::FirstListed => None,
        }
    }
}

/// Each switch's output port toward each destination host, as the engine's tables give it, and what the engine
/// said (a fallback).
pub(crate) struct Tables {
    pub next: Vec<Option<PortId>>,
    pub nodes: usize,
    pub notes: Vec<String>,
}

impl Tables {
    /// The port a packet at `at` for host `dest` leaves by.
    pub fn next(&self, at: NodeId, dest: NodeId) -> Option<PortId> {
        self.next[dest as usize * self.nodes + at as usize]
    }
}

fn routing_error(field: &'static str, problem: Problem) -> ScenarioError {
    ScenarioError { element: Element::Scenario, field, problem }
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
        let n = u8::try_from(ports[i].max(1)).ok().filter(|&p| p < 255).ok_or_else(|| {
            routing_error(
                "routing.engine",
                Problem::Routing(format!(
                    "{} has {} links; an InfiniBand switch has at most 254 ports",
                    ids[i], ports[i]
                )),
            )
        })?;
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
    /// The tables of an OpenSM engine for this network, or `None` for the playground's own routing. Each connected
    /// part of the network is its own subnet, with its subnet manager on its first node: a network drawn by hand
    /// may have parts not yet linked (their hosts cannot reach each other, as before).
    pub(crate) fn tables(
        &self,
        kinds: &[NodeKind],
        ids: &[&str],
        links: &[(NodeId, NodeId)],
    ) -> Result<Option<Tables>, ScenarioError> {
        let Some(engine) = self.engine.opensm() else {
            if !self.roots.is_empty() {
                return Err(routing_error("routing.roots", Problem::Inconsistent("roots are updn's")));
            }
            return Ok(None);
        };
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
        if !root_nodes.is_empty() && engine != Engine::Updn {
            return Err(routing_error("routing.roots", Problem::Inconsistent("roots are updn's")));
        }
        let n = kinds.len();
        let mut tables = Tables { next: alloc::vec![None; n * n], nodes: n, notes: Vec::new() };
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
            let given: Vec<u64> = root_nodes
                .iter()
                .filter(|&&r| local[r] != usize::MAX)
                .map(|&r| fabric.nodes[local[r]].node_guid)
                .collect();
            let roots = if given.is_empty() { Roots::Found } else { Roots::Given(given) };
            let routed = route(&fabric, &Options { roots, ..Options::new(engine) })
                .map_err(|e| routing_error("routing.engine", Problem::Routing(e)))?;
            for note in routed.notes {
                tables.notes.push(if linked > 1 { format!("in the part with {}: {note}", ids[part[0]]) } else { note });
            }
            for (d, _) in sub_kinds.iter().enumerate().filter(|(_, k)| **k == NodeKind::Host) {
                let Some(&Endport { base: lid, .. }) = port_of(&routed.addressing, d) else { continue };
                for (at, kind) in sub_kinds.iter().enumerate() {
                    tables.next[part[d] * n + part[at]] = match kind {
                        NodeKind::Host if at != d => Some(0),
                        NodeKind::Host => None,
                        NodeKind::Switch => routed.lfts.port(at, lid).filter(|&p| p > 0).map(|p| PortId::from(p - 1)),
                    };
                }
            }
        }
        Ok(Some(tables))
    }
}

/// The network's connected parts, each its nodes in order, in the order of their first nodes.
fn parts(n: usize, links: &[(NodeId, NodeId)]) -> Vec<Vec<usize>> {
    let mut neighbours = alloc::vec![Vec::new(); n];
    for &(a, b) in links {
        neighbours[a as usize].push(b as usize);
        neighbours[b as usize].push(a as usize);
    }
    let mut part_of = alloc::vec![usize::MAX; n];
    let mut parts: Vec<Vec<usize>> = Vec::new();
    for first in 0..n {
        if part_of[first] == usize::MAX {
            part_of[first] = parts.len();
            let mut stack = alloc::vec![first];
            while let Some(at) = stack.pop() {
                for &next in &neighbours[at] {
                    if part_of[next] == usize::MAX {
                        part_of[next] = parts.len();
                        stack.push(next);
                    }
                }
            }
            parts.push(Vec::new());
        }
        parts[part_of[first]].push(first);
    }
    parts
}

/// A host's port (its only one).
fn port_of(a: &Addressing, host: usize) -> Option<&Endport> {
    a.port(PortRef { node: host, port: 1 })
}
