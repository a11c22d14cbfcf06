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

/// Each link's port numbers at its two ends (its `a`'s, its `b`'s): a fabric's as its file gives them; any other
/// network's as it is routed (each node's links in order, from port 1). 0 for an end naming no node.
pub fn link_ports(s: &Scenario) -> Vec<(u8, u8)> {
    if let Some(f) = s.fabric.as_ref().and_then(|b| parse(&b.topology).ok()) {
        let cables = links_of(&f);
        if cables.len() == s.links.len() {
            return cables.iter().map(|c| (c.a.port, c.b.port)).collect();
        }
    }
    let index: alloc::collections::BTreeMap<&str, usize> =
        s.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
    let mut next = alloc::vec![0u8; s.nodes.len()];
    let mut port = |id: &str| {
        index.get(id).map_or(0, |&i| {
            next[i] = next[i].saturating_add(1);
            next[i]
        })
    };
    s.links.iter().map(|l| (port(&l.a), port(&l.b))).collect()
}

/// A scenario of the fabric in `topology` (no flows yet), routed by `routing`.
pub fn scenario_of(name: &str, topology: &str, duration_ns: u64) -> Result<Scenario, ScenarioError> {
    let f = parse(topology).map_err(|e| fabric_error(format!("{e}")))?;
    let mut s = Scenario::empty(name, duration_ns);
    (s.nodes, s.links) = network(&f);
    s.fabric = Some(FabricBlock { topology: String::from(topology) });
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_ports_are_the_file_s_or_the_link_order() {
        let s = crate::presets::fattree4_shift();
        let ports = link_ports(&s);
        let f = parse(&s.fabric.as_ref().unwrap().topology).unwrap();
        let cables = links_of(&f);
        assert_eq!(ports.len(), s.links.len());
        for (i, l) in s.links.iter().enumerate() {
            assert_eq!(f.nodes[cables[i].a.node].name, l.a, "link {i} in the file's order");
            assert_eq!(ports[i], (cables[i].a.port, cables[i].b.port));
        }
        // A network drawn by hand: each node's links in order, from port 1 (as it is routed).
        let fig2 = crate::presets::find("infocom03-fig2").unwrap().scenario();
        let p = link_ports(&fig2);
        let at = |i: usize| if fig2.links[i].a == "B" { p[i].0 } else { p[i].1 };
        let b: Vec<usize> =
            (0..fig2.links.len()).filter(|&i| fig2.links[i].a == "B" || fig2.links[i].b == "B").collect();
        assert!(b.len() > 2);
        assert_eq!(b.iter().map(|&i| at(i)).collect::<Vec<u8>>(), (1..=b.len() as u8).collect::<Vec<u8>>());
    }
}
