//! A scenario on a real fabric. The `fabric` block carries the fabric as its file describes it (an `ibnetdiscover`
//! topology or an ibsim net file, as text): its GUIDs, port numbers and LIDs, which routing needs to fill the
//! tables as OpenSM would for that fabric. The scenario's own `nodes` and `links` are the fabric's, as
//! [`network`] makes them (`ibcc fabric scenario` writes both), so everything that reads a network reads it as
//! usual; validation checks that they still are.

use super::{Element, Link, Node, NodeKind, Problem, Scenario, ScenarioError};
use crate::fabric::model::{Cable, Fabric};
use crate::fabric::netfile::parse;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// The `fabric` block of a scenario.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FabricBlock {
    /// The fabric as `ibnetdiscover` prints it, or an ibsim net file.
    pub topology: String,
}

fn fabric_error(problem: String) -> ScenarioError {
    ScenarioError { element: Element::Scenario, field: "fabric", problem: Problem::Fabric(problem) }
}

/// The cables a scenario of this fabric has as links, in the fabric's order: every cable between two nodes, but of
/// a CA only its first cabled port's (the simulator's hosts have one link; the others still count in routing, as in
/// OpenSM). A cable from a switch back to itself carries no route and is left out.
pub(crate) fn links_of(f: &Fabric) -> Vec<Cable> {
    let first = |end: crate::fabric::PortRef| {
        f.nodes[end.node].is_switch() || (1..end.port).all(|p| f.peer(end.node, p).is_none())
    };
    f.cables.iter().copied().filter(|c| c.a.node != c.b.node && first(c.a) && first(c.b)).collect()
}

/// What the scenario calls each node: its description where that names it alone (what administrators read:
/// `"leaf-3"`, not `"S-0002c90300a1b2c3"`), else the file's name for it.
fn node_ids(f: &Fabric) -> Vec<String> {
    let labels = f.labels();
    let fits = |l: &String| (1..=64).contains(&l.chars().count()) && !l.chars().any(char::is_control);
    let mut ids: Vec<String> =
        labels.iter().zip(&f.nodes).map(|(l, n)| if fits(l) { l.clone() } else { n.name.clone() }).collect();
    // A map the fabric reader fills too, rather than a sort of strings the page would carry only for this.
    let mut seen: alloc::collections::BTreeMap<&str, usize> = alloc::collections::BTreeMap::new();
    if !ids.iter().enumerate().all(|(i, id)| seen.insert(id.as_str(), i).is_none()) {
        ids = f.nodes.iter().map(|n| n.name.clone()).collect();
    }
    ids
}

/// The network of a fabric: its switches and CAs in the file's order, named by [`node_ids`], and its cables as
/// links at their data rate (width x lane rate: 4xSDR is 8 Gb/s, 4xEDR 100).
pub fn network(f: &Fabric) -> (Vec<Node>, Vec<Link>) {
    let ids = node_ids(f);
    let nodes = f
        .nodes
        .iter()
        .zip(&ids)
        .map(|(n, id)| Node {
            id: id.clone(),
            kind: if n.is_switch() { NodeKind::Switch } else { NodeKind::Host },
            switch: None,
            x: None,
            y: None,
        })
        .collect();
    let links = links_of(f)
        .iter()
        .map(|c| Link { bandwidth_gbps: Some(c.gbps()), ..Link::between(&ids[c.a.node], &ids[c.b.node]) })
        .collect();
    (nodes, links)
}

impl FabricBlock {
    /// The fabric, checked against the scenario's network: the same nodes, in order, and the same links.
    pub(crate) fn fabric_of(&self, s: &Scenario) -> Result<Fabric, ScenarioError> {
        let f = parse(&self.topology).map_err(|e| fabric_error(format!("{e}")))?;
        let (nodes, links) = network(&f);
        if nodes.len() != s.nodes.len() || links.len() != s.links.len() {
            return Err(fabric_error(format!(
                "the fabric has {} nodes and {} links, the scenario {} and {}: the network is no longer the fabric's",
                nodes.len(),
                links.len(),
                s.nodes.len(),
                s.links.len()
            )));
        }
        for (i, (theirs, ours)) in nodes.iter().zip(&s.nodes).enumerate() {
            if theirs.id != ours.id || theirs.kind != ours.kind {
                return Err(fabric_error(format!(
                    "node {i} is {:?} in the scenario but {:?} in the fabric: the network is no longer the fabric's",
                    ours.id, theirs.id
                )));
            }
        }
        for (i, (theirs, ours)) in links.iter().zip(&s.links).enumerate() {
            if theirs.a != ours.a || theirs.b != ours.b {
                return Err(fabric_error(format!(
                    "link {i} joins {:?} and {:?} in the scenario but {:?} and {:?} in the fabric: the network is no \
                     longer the fabric's",
                    ours.a, ours.b, theirs.a, theirs.b
                )));
            }
        }
        Ok(f)
    }
}

/// A scenario of the fabric in `topology` (no flows yet), routed by `routing`.
pub fn scenario_of(name: &str, topology: &str, duration_ns: u64) -> Result<Scenario, ScenarioError> {
    let f = parse(topology).map_err(|e| fabric_error(format!("{e}")))?;
    let mut s = Scenario::empty(name, duration_ns);
    (s.nodes, s.links) = network(&f);
    s.fabric = Some(FabricBlock { topology: String::from(topology) });
    Ok(s)
}
