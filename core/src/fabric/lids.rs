//! Which ports the subnet manager finds, and the LIDs it gives them, as OpenSM 3.3.23 does (`osm_lid_mgr.c`;
//! docs/opensm-routing.md §1).
//!
//! The subnet manager sits on one port (a CA's first cabled port, or a switch's port 0) and discovers what it can
//! reach: every switch reachable through switches, and the CA ports cabled to them. A LID-holding port is a switch
//! (its port 0, one LID) or a CA port (2^LMC LIDs, aligned). LIDs the file gives are kept; the others are handed out
//! from 1 up, the subnet manager's port first, then the ports in OpenSM's order: ascending byte-swapped port GUID.

use super::model::{sort_by_u64, Fabric, GivenLid, NodeIx, PortRef};
use alloc::collections::VecDeque;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// The highest unicast LID (0xC000 and up are multicast).
pub const MAX_UNICAST_LID: u16 = 0xBFFF;

/// A routable port: a switch's port 0 or a CA port, with its LIDs `base..base + 2^lmc` (a switch: one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endport {
    pub at: PortRef,
    pub guid: u64,
    pub base: u16,
    pub count: u16,
}

/// The discovered ports and their LIDs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Addressing {
    /// In OpenSM's port order (ascending byte-swapped GUID).
    pub ports: Vec<Endport>,
    /// `owner[lid]`: index into `ports` of the port that has the LID.
    owner: Vec<Option<u32>>,
    /// `index[node][port]`: index into `ports` of that port, if it is one of them.
    index: Vec<Vec<Option<u32>>>,
    /// The switches reached, ascending byte-swapped GUID (OpenSM's switch order).
    pub switches: Vec<NodeIx>,
    /// The port the subnet manager runs on.
    pub sm: PortRef,
    pub lmc: u8,
}

impl Addressing {
    /// The highest LID given (the LFTs' top).
    pub fn max_lid(&self) -> u16 {
        (self.owner.len() - 1) as u16
    }

    /// The port that has `lid`.
    pub fn owner(&self, lid: u16) -> Option<&Endport> {
        let i = (*self.owner.get(usize::from(lid))?)?;
        Some(&self.ports[i as usize])
    }

    /// The port at `at` (switch port 0, or a CA port).
    pub fn port(&self, at: PortRef) -> Option<&Endport> {
        self.port_index(at).map(|i| &self.ports[i])
    }

    /// The index into `ports` of the port at `at`.
    pub fn port_index(&self, at: PortRef) -> Option<usize> {
        let i = (*self.index.get(at.node)?.get(usize::from(at.port))?)?;
        Some(i as usize)
    }

    /// A switch's LID.
    pub fn switch_lid(&self, node: NodeIx) -> u16 {
        self.port(PortRef { node, port: 0 }).map_or(0, |p| p.base)
    }
}

impl Addressing {
    /// The fabric with these LIDs as its own (to write it as `ibnetdiscover` would print it once routed).
    pub fn applied_to(&self, f: &Fabric) -> Fabric {
        let mut f = f.clone();
        for n in &mut f.nodes {
            n.lids.fill(None);
        }
        for p in &self.ports {
            let lmc = if p.count > 1 { self.lmc } else { 0 };
            f.nodes[p.at.node].lids[usize::from(p.at.port)] = Some(GivenLid { lid: p.base, lmc });
        }
        f
    }
}

/// Where the subnet manager runs: a node's name; `None` for the first node of the file (ibsim's default).
pub fn sm_port(f: &Fabric, sm: Option<&str>) -> Result<PortRef, String> {
    let node = match sm {
        None => 0,
        Some(name) => f
            .find(name)
            .or_else(|| f.nodes.iter().position(|n| n.desc == name))
            .ok_or_else(|| format!("the subnet manager's node \"{name}\" is not in the fabric"))?,
    };
    let n = &f.nodes[node];
    if n.is_switch() {
        return Ok(PortRef { node, port: 0 });
    }
    (1..=n.ports)
        .find(|&p| f.peer(node, p).is_some())
        .map(|port| PortRef { node, port })
        .ok_or_else(|| format!("the subnet manager's node \"{}\" has no cabled port", n.name))
}

/// Discover from `sm` and give LIDs: the file's where it gives them (unless `reassign`, OpenSM's `-r`), the
/// lowest free aligned ones otherwise.
pub fn assign(f: &Fabric, sm: PortRef, lmc: u8, reassign: bool) -> Result<Addressing, String> {
    if lmc > 7 {
        return Err(format!("LMC is 0 to 7, not {lmc}"));
    }
    let found = discover(f, sm);
    let mut switches: Vec<NodeIx> = found.iter().filter(|p| p.port == 0).map(|p| p.node).collect();
    sort_by_u64(&mut switches, |&n| f.nodes[n].node_guid.swap_bytes());
    let mut ports: Vec<Endport> = found
        .iter()
        .map(|&at| {
            let node = &f.nodes[at.node];
            let count = if node.is_switch() { 1 } else { 1u16 << lmc };
            Endport { at, guid: node.port_guid(at.port), base: 0, count }
        })
        .collect();
    sort_by_u64(&mut ports, |p| p.guid.swap_bytes());
    let mut owner: Vec<Option<u32>> = alloc::vec![None; 1];
    let claim = |owner: &mut Vec<Option<u32>>, i: usize, base: u16, count: u16| {
        let top = usize::from(base) + usize::from(count);
        if owner.len() < top {
            owner.resize(top, None);
        }
        for l in base..base + count {
            owner[usize::from(l)] = Some(i as u32);
        }
    };
    if !reassign {
        for (i, p) in ports.iter_mut().enumerate() {
            let Some(given) = f.nodes[p.at.node].lids[usize::from(p.at.port)] else { continue };
            let (lid, base, count) = (given.lid, given.lid, p.count);
            let clash =
                (base..base.saturating_add(count)).any(|l| owner.get(usize::from(l)).copied().flatten().is_some());
            if base == 0
                || base % count != 0
                || u32::from(base) + u32::from(count) > u32::from(MAX_UNICAST_LID) + 1
                || clash
            {
                let name = &f.nodes[p.at.node].name;
                return Err(format!(
                    "\"{name}\" port {}: LID {lid} is taken, unaligned for LMC {lmc}, or not unicast",
                    p.at.port
                ));
            }
            p.base = base;
            claim(&mut owner, i, base, count);
            // The LIDs the port reported with its own LMC count toward the top LID though nothing owns the extra
            // ones (OpenSM's `port_lid_tbl` grows to them in `lid_mgr_init_sweep`).
            let reported = usize::from(base) + (1usize << given.lmc);
            if owner.len() < reported {
                owner.resize(reported, None);
            }
        }
    }
    // The subnet manager's port first, then the others in port order.
    let order =
        ports.iter().position(|p| p.at == sm).into_iter().chain((0..ports.len()).filter(|&i| ports[i].at != sm));
    let mut next = 1u32;
    for i in order.collect::<Vec<_>>() {
        if ports[i].base != 0 {
            continue;
        }
        let count = u32::from(ports[i].count);
        loop {
            next = next.div_ceil(count) * count;
            if (next..next + count).all(|l| owner.get(l as usize).copied().flatten().is_none()) {
                break;
            }
            next += 1;
        }
        if next + count > u32::from(MAX_UNICAST_LID) + 1 {
            return Err(format!("more LIDs than a subnet has: {} ports with LMC {lmc}", ports.len()));
        }
        ports[i].base = next as u16;
        claim(&mut owner, i, next as u16, count as u16);
        next += count;
    }
    let mut index: Vec<Vec<Option<u32>>> =
        f.nodes.iter().map(|n| alloc::vec![None; usize::from(n.ports) + 1]).collect();
    for (i, p) in ports.iter().enumerate() {
        index[p.at.node][usize::from(p.at.port)] = Some(i as u32);
    }
    Ok(Addressing { ports, owner, index, switches, sm, lmc })
}

/// The switch port-0s and CA ports the subnet manager reaches from `sm`: through switches, not through CAs.
fn discover(f: &Fabric, sm: PortRef) -> Vec<PortRef> {
    let mut seen = alloc::vec![false; f.nodes.len()];
    let mut found = Vec::new();
    let mut queue = VecDeque::new();
    let visit = |at: PortRef, seen: &mut Vec<bool>, found: &mut Vec<PortRef>, queue: &mut VecDeque<NodeIx>| {
        if f.nodes[at.node].is_switch() {
            if !seen[at.node] {
                seen[at.node] = true;
                found.push(PortRef { node: at.node, port: 0 });
                queue.push_back(at.node);
            }
        } else if !found.contains(&at) {
            found.push(at);
        }
    };
    visit(sm, &mut seen, &mut found, &mut queue);
    if !f.nodes[sm.node].is_switch() {
        if let Some(r) = f.peer(sm.node, sm.port) {
            visit(r, &mut seen, &mut found, &mut queue);
        }
    }
    while let Some(s) = queue.pop_front() {
        for p in 1..=f.nodes[s].ports {
            if let Some(r) = f.peer(s, p) {
                visit(r, &mut seen, &mut found, &mut queue);
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::netfile::parse;
    use crate::fabric::netfile::tests::TWO_SWITCHES;

    fn lids(a: &Addressing, f: &Fabric) -> Vec<(String, u16)> {
        (1..=a.max_lid()).map(|l| (f.nodes[a.owner(l).unwrap().at.node].name.clone(), l)).collect()
    }

    #[test]
    fn lids_go_to_the_subnet_manager_first_then_in_byte_swapped_guid_order() {
        // As OpenSM gave them under ibsim (docs/opensm-routing.md §7.1, §9).
        let f = parse(TWO_SWITCHES).unwrap();
        let on_h1 = assign(&f, sm_port(&f, Some("H1")).unwrap(), 0, false).unwrap();
        let names = |v: Vec<(String, u16)>| v.into_iter().map(|(n, _)| n).collect::<Vec<_>>();
        assert_eq!(names(lids(&on_h1, &f)), ["H1", "S1", "S2", "H2"]);
        let default = assign(&f, sm_port(&f, None).unwrap(), 0, false).unwrap();
        assert_eq!(names(lids(&default, &f)), ["S1", "H1", "S2", "H2"]);
        assert_eq!(default.switches, [0, 1]);
    }

    #[test]
    fn lmc_gives_cas_aligned_blocks_and_loses_the_lids_alignment_skips() {
        let f = parse(TWO_SWITCHES).unwrap();
        let a = assign(&f, sm_port(&f, Some("H1")).unwrap(), 1, false).unwrap();
        let got: Vec<(String, u16, u16)> =
            a.ports.iter().map(|p| (f.nodes[p.at.node].name.clone(), p.base, p.count)).collect();
        // H1 takes 2-3 (1 is lost to alignment for good), then in port order S1 4, S2 5, H2 6-7.
        let want = [("S1", 4, 1), ("H1", 2, 2), ("S2", 5, 1), ("H2", 6, 2)];
        assert_eq!(got, want.map(|(n, b, c)| (String::from(n), b, c)));
        assert_eq!(a.max_lid(), 7);
        assert!(a.owner(1).is_none() && a.owner(7).is_some());
    }

    #[test]
    fn the_file_s_lids_are_kept_and_clashes_refused() {
        let text = "Switch 8 \"S1\" # \"S1\" base port 0 lid 10 lmc 0\n[1] \"H1\"[1]\n\n\
            Ca 1 \"H1\"\n[1] \"S1\"[1] # lid 3 lmc 0 \"S1\" lid 10 4xSDR\n";
        let f = parse(text).unwrap();
        let a = assign(&f, sm_port(&f, None).unwrap(), 0, false).unwrap();
        assert_eq!((a.switch_lid(0), a.port(PortRef { node: 1, port: 1 }).unwrap().base, a.max_lid()), (10, 3, 10));
        let fresh = assign(&f, sm_port(&f, None).unwrap(), 0, true).unwrap();
        assert_eq!(fresh.max_lid(), 2, "-r: given afresh");
        // A port that reported LMC 1 stretches the top LID over its second LID, which nothing owns.
        let wide =
            parse(&text.replace("lid 10 lmc 0 \"S1\"", "lid 10 lmc 1 \"S1\"").replace("lid 3 lmc 0", "lid 12 lmc 1"))
                .unwrap();
        let w = assign(&wide, sm_port(&wide, None).unwrap(), 0, false).unwrap();
        assert_eq!((w.max_lid(), w.owner(13)), (13, None));
        let clash = parse(&text.replace("lid 3 lmc", "lid 10 lmc")).unwrap();
        assert!(assign(&clash, sm_port(&clash, None).unwrap(), 0, false).unwrap_err().contains("LID 10"));
    }

    #[test]
    fn only_what_the_subnet_manager_reaches_is_addressed() {
        let text = "Switch 4 \"S1\"\n[1] \"H1\"[1]\n\nCa 1 \"H1\"\n[1] \"S1\"[1]\n\n\
            Switch 4 \"S9\"\n[1] \"H9\"[1]\n\nCa 1 \"H9\"\n[1] \"S9\"[1]\n";
        let f = parse(text).unwrap();
        let a = assign(&f, sm_port(&f, None).unwrap(), 0, false).unwrap();
        assert_eq!((a.ports.len(), a.switches.len()), (2, 1));
        assert!(sm_port(&f, Some("nobody")).unwrap_err().contains("nobody"));
    }
}
