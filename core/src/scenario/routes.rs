//! A network's routes as a table that travels: every node's output port toward every destination host, made where
//! the routing engines are ([`Scenario::routes`](super::Scenario::routes)) and taken as given where they are not.
//! The page routes each scenario it runs and hands its simulation worker the table, so the worker carries no
//! routing engine and no fabric reader (docs/model.md §13).

use super::{Element, NodeKind, Problem, ScenarioError};
use crate::net::topology::{NodeId, PortId, Topology};
use crate::time::{Bandwidth, Time};
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// A scenario's network, checked, as routing needs it.
pub(crate) struct Network<'a> {
    pub is_host: Vec<bool>,
    pub kinds: Vec<NodeKind>,
    pub ids: Vec<&'a str>,
    pub ends: Vec<(NodeId, NodeId)>,
    pub links: Vec<(NodeId, NodeId, Bandwidth, Time)>,
    pub destinations: Vec<NodeId>,
    /// Every flow's (source, destination) hosts, in flow order.
    pub pairs: Vec<(NodeId, NodeId)>,
}

/// A network routed: its topology, what the engine said, and the SLs it gave host pairs (dfsssp only).
pub(crate) type RoutedNetwork = (Topology, Vec<String>, Vec<(NodeId, NodeId, u8)>);

/// No route from a node toward a destination.
const NONE: u16 = u16::MAX;

/// Routes toward each destination host: `next[d * nodes + at]` is the port a packet at node `at` for
/// `destinations[d]` leaves by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Routes {
    nodes: u32,
    destinations: Vec<u32>,
    next: Vec<u16>,
    /// What the routing engine said (updn's roots, a fallback to minhop).
    notes: Vec<String>,
    /// The SL the engine gave each flow's (source, destination) hosts (dfsssp), sorted by pair, as flat triples
    /// (source, destination, SL): one more list of numbers, not a new type to encode, keeps the page small.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    lanes: Vec<u32>,
}

impl Routes {
    /// The routes a topology was built with, and the SLs its engine gave host pairs (sorted).
    pub fn of(t: &Topology, notes: Vec<String>, lanes: Vec<(NodeId, NodeId, u8)>) -> Self {
        let nodes = t.node_count() as u32;
        let destinations: Vec<u32> = (0..nodes).filter(|&d| t.has_routes_to(d)).collect();
        let next =
            destinations.iter().flat_map(|&d| (0..nodes).map(move |at| t.route(at, d).unwrap_or(NONE))).collect();
        let lanes = lanes.into_iter().flat_map(|(a, b, sl)| [a, b, u32::from(sl)]).collect();
        Self { nodes, destinations, next, notes, lanes }
    }

    /// The topology of `net` with these routes; refused if they are another network's.
    pub(crate) fn topology(&self, net: &Network) -> Result<RoutedNetwork, ScenarioError> {
        let wrong = |why: &'static str| ScenarioError {
            element: Element::Scenario,
            field: "routing",
            problem: Problem::Routing(String::from(why)),
        };
        let n = net.is_host.len();
        if self.nodes as usize != n || self.next.len() != self.destinations.len() * n {
            return Err(wrong("the routes given are another network's"));
        }
        let slot = |d: NodeId| self.destinations.binary_search(&d).ok();
        if net.destinations.iter().any(|&d| slot(d).is_none()) {
            return Err(wrong("the routes given lead to other destinations"));
        }
        let next = |at: NodeId, d: NodeId| -> Option<PortId> {
            let p = self.next[slot(d)? * n + at as usize];
            (p != NONE).then_some(p)
        };
        let lanes: Vec<(NodeId, NodeId, u8)> =
            self.lanes.chunks_exact(3).map(|t| (t[0], t[1], u8::try_from(t[2]).unwrap_or(u8::MAX))).collect();
        if self.lanes.len() % 3 != 0
            || lanes.windows(2).any(|w| (w[0].0, w[0].1) >= (w[1].0, w[1].1))
            || lanes.iter().any(|&(_, _, sl)| sl >= crate::net::vl::MAX_SLS)
        {
            return Err(wrong("the routes given have damaged lanes"));
        }
        let topology = Topology::with_routes(&net.is_host, &net.links, &net.destinations, next);
        Ok((topology, self.notes.clone(), lanes))
    }
}
