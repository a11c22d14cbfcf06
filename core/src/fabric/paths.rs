//! Following the forwarding tables: the route a packet takes from a port to a LID, hop by hop, as InfiniBand
//! switches forward (each looks up the destination LID in its LFT), and that route written as `ibtracert` prints
//! one.

use super::hops::NO_PATH;
use super::lfts::Lfts;
use super::lids::Addressing;
use super::model::{Fabric, NodeIx, PortRef};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

/// A switch on a route: the port the packet came in on and the port the LFT sends it out of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step {
    pub switch: NodeIx,
    pub in_port: u8,
    pub out_port: u8,
}

/// A route that arrives: the switches crossed, and the port reached (a CA port, or a switch's port 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Route {
    pub from: PortRef,
    pub steps: Vec<Step>,
    pub to: PortRef,
}

/// Why a packet does not arrive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Lost {
    /// The source port has no cable, or leads to a CA that is not the destination.
    NoCable(PortRef),
    /// A switch has no entry (or an entry past its ports) for the LID.
    NoEntry { switch: NodeIx, lid: u16 },
    /// A switch sends it out of an unplugged port.
    Unplugged { switch: NodeIx, port: u8 },
    /// It reaches a CA port (or switch) that does not have the LID.
    WrongPort(PortRef),
    /// It comes back to a switch it crossed: a forwarding loop.
    Loop(Vec<Step>),
}

/// The route from `from` (a CA port, or a switch's port 0) to `lid`.
pub fn trace(f: &Fabric, a: &Addressing, l: &Lfts, from: PortRef, lid: u16) -> Result<Route, Lost> {
    let owns = |at: PortRef| a.owner(lid).is_some_and(|p| p.at == at);
    if owns(from) {
        return Ok(Route { from, steps: Vec::new(), to: from });
    }
    let mut at = if f.nodes[from.node].is_switch() {
        PortRef { node: from.node, port: 0 }
    } else {
        let next = f.peer(from.node, from.port).ok_or(Lost::NoCable(from))?;
        if !f.nodes[next.node].is_switch() {
            return if owns(next) {
                Ok(Route { from, steps: Vec::new(), to: next })
            } else {
                Err(Lost::WrongPort(next))
            };
        }
        next
    };
    let mut steps: Vec<Step> = Vec::new();
    loop {
        let switch = at.node;
        let out = l.port(switch, lid).ok_or(Lost::NoEntry { switch, lid })?;
        if out > f.nodes[switch].ports {
            return Err(Lost::NoEntry { switch, lid });
        }
        if steps.iter().any(|s| s.switch == switch) {
            steps.push(Step { switch, in_port: at.port, out_port: out });
            return Err(Lost::Loop(steps));
        }
        steps.push(Step { switch, in_port: at.port, out_port: out });
        if out == 0 {
            let here = PortRef { node: switch, port: 0 };
            return if owns(here) { Ok(Route { from, steps, to: here }) } else { Err(Lost::WrongPort(here)) };
        }
        let next = f.peer(switch, out).ok_or(Lost::Unplugged { switch, port: out })?;
        if !f.nodes[next.node].is_switch() {
            return if owns(next) { Ok(Route { from, steps, to: next }) } else { Err(Lost::WrongPort(next)) };
        }
        at = next;
    }
}

impl Lost {
    /// What went wrong, in words naming the switches and ports.
    pub fn describe(&self, f: &Fabric) -> String {
        let name = |n: NodeIx| f.nodes[n].name.as_str();
        match self {
            Lost::NoCable(p) => format!("\"{}\" port {} has no cable", name(p.node), p.port),
            Lost::NoEntry { switch, lid } => format!("switch \"{}\" has no route to LID {lid}", name(*switch)),
            Lost::Unplugged { switch, port } => {
                format!("switch \"{}\" forwards to port {port}, which has no cable", name(*switch))
            }
            Lost::WrongPort(p) => {
                format!("the packet reaches \"{}\" port {}, which does not have the LID", name(p.node), p.port)
            }
            Lost::Loop(steps) => {
                let mut s = String::from("a forwarding loop: ");
                for (i, st) in steps.iter().enumerate() {
                    let _ =
                        write!(s, "{}\"{}\" port {}", if i > 0 { " -> " } else { "" }, name(st.switch), st.out_port);
                }
                s
            }
        }
    }
}

/// The route as `ibtracert` prints it: the source, each port the packet enters (after the port it left by), and
/// the destination, with GUIDs, port numbers, LID ranges and node descriptions.
pub fn write_tracert(f: &Fabric, a: &Addressing, r: &Route) -> String {
    let kind = |n: NodeIx| if f.nodes[n].is_switch() { "switch" } else { "ca" };
    let lids = |at: PortRef| {
        let at = if f.nodes[at.node].is_switch() { PortRef { node: at.node, port: 0 } } else { at };
        a.port(at).map_or((0, 0), |p| (p.base, p.base + p.count - 1))
    };
    let endpoint = |prompt: &str, at: PortRef| {
        let n = &f.nodes[at.node];
        let (lo, hi) = lids(at);
        let portnum = if n.is_switch() { 0 } else { at.port };
        format!(
            "{prompt} {} {{0x{:016x}}} portnum {portnum} lid {lo}-{hi} \"{}\"\n",
            kind(at.node),
            n.node_guid,
            n.desc
        )
    };
    let mut out = endpoint("From", r.from);
    // The ports left by: the source CA's, then each switch's; the ports entered: each switch after the first
    // (a switch source is where the route starts), then the destination CA's. A switch destination is reached
    // through its port 0, which ibtracert does not print.
    let from_switch = f.nodes[r.from.node].is_switch();
    let leaves = (!from_switch).then_some(r.from.port).into_iter().chain(r.steps.iter().map(|s| s.out_port));
    let enters = r.steps.iter().skip(usize::from(from_switch)).map(|s| PortRef { node: s.switch, port: s.in_port });
    let enters = enters.chain((!f.nodes[r.to.node].is_switch()).then_some(r.to));
    for (leave, enter) in leaves.zip(enters) {
        let n = &f.nodes[enter.node];
        let (lo, hi) = lids(enter);
        let guid = n.port_guid(if n.is_switch() { 0 } else { enter.port });
        let _ = writeln!(
            out,
            "[{leave}] -> {} port {{0x{guid:016x}}}[{}] lid {lo}-{hi} \"{}\"",
            kind(enter.node),
            enter.port,
            n.desc
        );
    }
    out + &endpoint("To", r.to)
}

/// The CA ports (and their base LIDs) the subnet manager addressed, in its port order.
pub fn ca_ports(f: &Fabric, a: &Addressing) -> Vec<(PortRef, u16)> {
    a.ports.iter().filter(|p| !f.nodes[p.at.node].is_switch()).map(|p| (p.at, p.base)).collect()
}

/// Whether switch `s` has a usable entry for `lid`.
pub fn has_entry(f: &Fabric, l: &Lfts, s: NodeIx, lid: u16) -> bool {
    l.port(s, lid).is_some_and(|p| p != NO_PATH && p <= f.nodes[s].ports)
}
