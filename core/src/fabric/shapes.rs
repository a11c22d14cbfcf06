//! Generated fabrics: the fat trees, rings and irregular networks routing is studied on.
//!
//! GUIDs are numbered as ibsim numbers a net file's nodes in file order (CAs from 0x100000, the node then one per
//! port; switches from 0x200000), so a generated fabric written as a net file and loaded into ibsim has the same
//! GUIDs, hence the same LIDs and routes under OpenSM. Port numbering follows the usual cabling: on every switch the
//! ports toward the hosts come first, then the ports up the tree.

use super::model::{Cable, Fabric, FabricNode, NodeIx, NodeKind, PortRef, Speed, Width};
use crate::rng::Rng;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// Why a fabric cannot be generated with these parameters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GenerateError(pub String);

impl core::fmt::Display for GenerateError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Nodes and cables under construction, numbered as ibsim numbers them.
struct Builder {
    nodes: Vec<FabricNode>,
    cables: Vec<Cable>,
    link: (Width, Speed),
    next_ca: u64,
    next_switch: u64,
}

impl Builder {
    fn new(link: (Width, Speed)) -> Self {
        Self { nodes: Vec::new(), cables: Vec::new(), link, next_ca: 0x10_0000, next_switch: 0x20_0000 }
    }

    fn switch(&mut self, name: String, ports: u8) -> NodeIx {
        let guid = self.next_switch;
        self.next_switch += 1;
        self.push(NodeKind::Switch, name, ports, alloc::vec![guid])
    }

    fn ca(&mut self, name: String, ports: u8) -> NodeIx {
        let guid = self.next_ca;
        self.next_ca += u64::from(ports) + 1;
        self.push(NodeKind::Ca, name, ports, (0..=u64::from(ports)).map(|p| guid + p).collect())
    }

    fn push(&mut self, kind: NodeKind, name: String, ports: u8, port_guids: Vec<u64>) -> NodeIx {
        let guid = port_guids[0];
        self.nodes.push(FabricNode {
            kind,
            desc: name.clone(),
            name,
            node_guid: guid,
            sysimg_guid: guid,
            ports,
            port_guids,
            lids: alloc::vec![None; usize::from(ports) + 1],
        });
        self.nodes.len() - 1
    }

    fn cable(&mut self, a: NodeIx, pa: u8, b: NodeIx, pb: u8) {
        let (width, speed) = self.link;
        self.cables.push(Cable { a: PortRef { node: a, port: pa }, b: PortRef { node: b, port: pb }, width, speed });
    }

    fn finish(self) -> Fabric {
        Fabric::new(self.nodes, self.cables)
    }
}

fn even_ports(k: u32, what: &str) -> Result<u8, GenerateError> {
    if (2..=254).contains(&k) && k % 2 == 0 {
        Ok(k as u8)
    } else {
        Err(GenerateError(format!("{what}: K is the switches' port count, an even number from 2 to 254, not {k}")))
    }
}

/// The three-level k-ary fat tree (Al-Fares et al.): k pods of k/2 edge and k/2 aggregation switches, (k/2)^2 core
/// switches, k/2 hosts on each edge switch: k^3/4 hosts on 5k^2/4 switches of k ports. Edge switch e of pod p
/// has its hosts on ports 1..k/2 and aggregation switch j of its pod on port k/2+1+j; aggregation switch j has
/// edge switch e on port 1+e and core switch j*k/2+c on port k/2+1+c; core switch c has pod p on port 1+p.
pub fn fat_tree(k: u32, link: (Width, Speed)) -> Result<Fabric, GenerateError> {
    let ports = even_ports(k, "fattree")?;
    let h = usize::from(ports / 2);
    let mut b = Builder::new(link);
    let core: Vec<NodeIx> = (0..h * h).map(|c| b.switch(format!("core-{c}"), ports)).collect();
    for p in 0..usize::from(ports) {
        let agg: Vec<NodeIx> = (0..h).map(|j| b.switch(format!("agg-{p}-{j}"), ports)).collect();
        for (j, &a) in agg.iter().enumerate() {
            for c in 0..h {
                b.cable(a, up_port(h, c), core[j * h + c], (p + 1) as u8);
            }
        }
        for e in 0..h {
            let edge = b.switch(format!("edge-{p}-{e}"), ports);
            for (j, &a) in agg.iter().enumerate() {
                b.cable(edge, up_port(h, j), a, (e + 1) as u8);
            }
            for i in 0..h {
                let host = b.ca(format!("h-{p}-{e}-{i}"), 1);
                b.cable(edge, (i + 1) as u8, host, 1);
            }
        }
    }
    Ok(b.finish())
}

/// Port `k/2 + 1 + i`: the i-th port up the tree.
fn up_port(half: usize, i: usize) -> u8 {
    (half + 1 + i) as u8
}

/// The two-level fat tree of k-port switches: k leaves with k/2 hosts each (ports 1..k/2) and k/2 spines; leaf l's
/// port k/2+1+s goes to spine s's port 1+l. With 36-port switches: 648 hosts on 54 switches.
pub fn two_level(k: u32, link: (Width, Speed)) -> Result<Fabric, GenerateError> {
    let ports = even_ports(k, "twolevel")?;
    let h = u32::from(ports / 2);
    leaf_spine(LeafSpine { leaves: k, hosts: h, spines: h, cables: 1 }, link)
}

/// A two-level leaf-spine fabric of any size ([`leaf_spine`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LeafSpine {
    pub leaves: u32,
    /// Hosts on each leaf.
    pub hosts: u32,
    pub spines: u32,
    /// Cables between each leaf and each spine.
    pub cables: u32,
}

/// `leaves` leaves with `hosts` hosts each (ports 1..hosts) under `spines` spines, each leaf joined to each spine by
/// `cables` cables: leaf l's ports hosts+1+s*cables.. go to spine s's ports 1+l*cables... Every switch has as many
/// ports as the busier kind uses (switches of one model, as a fabric is built). The PFT paper's 120 nodes: 10 leaves
/// of 12 under 6 spines, 2 cables each, 24-port switches.
pub fn leaf_spine(shape: LeafSpine, link: (Width, Speed)) -> Result<Fabric, GenerateError> {
    let LeafSpine { leaves, hosts, spines, cables } = shape;
    let (leaf_ports, spine_ports) =
        (u64::from(hosts) + u64::from(spines) * u64::from(cables), u64::from(leaves) * u64::from(cables));
    if leaves == 0 || spines == 0 || cables == 0 || hosts == 0 {
        return Err(GenerateError(format!(
            "leafspine: leaves, hosts, spines and cables must each be at least 1 (got {leaves}, {hosts}, {spines}, {cables})"
        )));
    }
    let ports = leaf_ports.max(spine_ports);
    if ports > 254 {
        return Err(GenerateError(format!(
            "leafspine: a leaf needs {leaf_ports} ports and a spine {spine_ports}; a switch has at most 254"
        )));
    }
    let (ports, h, c) = (ports as u8, hosts as usize, cables as usize);
    let mut b = Builder::new(link);
    let spine: Vec<NodeIx> = (0..spines).map(|s| b.switch(format!("spine-{s}"), ports)).collect();
    for l in 0..leaves as usize {
        let leaf = b.switch(format!("leaf-{l}"), ports);
        for (s, &sp) in spine.iter().enumerate() {
            for j in 0..c {
                b.cable(leaf, (h + 1 + s * c + j) as u8, sp, (1 + l * c + j) as u8);
            }
        }
        for i in 0..h {
            let host = b.ca(format!("h-{l}-{i}"), 1);
            b.cable(leaf, (i + 1) as u8, host, 1);
        }
    }
    Ok(b.finish())
}

/// A ring of `n` switches with `hosts` hosts each (ports 1..hosts); switch i's port hosts+1 goes to switch i+1's
/// port hosts+2. Minimum-hop routing on a ring of more than 4 switches has a cyclic channel dependency.
pub fn ring(n: u32, hosts: u32, link: (Width, Speed)) -> Result<Fabric, GenerateError> {
    if !(3..=4096).contains(&n) || !(1..=252).contains(&hosts) {
        return Err(GenerateError(format!("ring: 3 to 4096 switches with 1 to 252 hosts each, not {n} and {hosts}")));
    }
    let (n, hosts) = (n as usize, hosts as u8);
    let mut b = Builder::new(link);
    let switches: Vec<NodeIx> = (0..n).map(|i| b.switch(format!("sw-{i}"), hosts + 2)).collect();
    for i in 0..n {
        b.cable(switches[i], hosts + 1, switches[(i + 1) % n], hosts + 2);
    }
    for (i, &s) in switches.iter().enumerate() {
        for j in 0..hosts {
            let host = b.ca(format!("h-{i}-{j}"), 1);
            b.cable(s, j + 1, host, 1);
        }
    }
    Ok(b.finish())
}

/// Two switches joined by `cables` parallel cables (ports hosts+1..), `hosts` hosts on each.
pub fn parallel(cables: u32, hosts: u32, link: (Width, Speed)) -> Result<Fabric, GenerateError> {
    if cables == 0 || hosts == 0 || cables + hosts > 254 {
        return Err(GenerateError(format!(
            "parallel: at least one cable and one host, at most 254 ports a switch, not {cables} cables and {hosts} hosts"
        )));
    }
    let ports = (cables + hosts) as u8;
    let mut b = Builder::new(link);
    let s = [b.switch(String::from("sw-0"), ports), b.switch(String::from("sw-1"), ports)];
    for c in 0..cables as u8 {
        b.cable(s[0], hosts as u8 + 1 + c, s[1], hosts as u8 + 1 + c);
    }
    for (i, &sw) in s.iter().enumerate() {
        for j in 0..hosts as u8 {
            let host = b.ca(format!("h-{i}-{j}"), 1);
            b.cable(sw, j + 1, host, 1);
        }
    }
    Ok(b.finish())
}

/// A connected irregular fabric drawn from `seed`: `switches` switches of `ports` ports, `hosts` hosts spread over
/// them in turn, a random spanning tree of switch-to-switch cables, then random extra cables (parallel ones
/// allowed) between switches with free ports until `extra` more are placed or no two switches have a free port.
pub fn random(
    switches: u32,
    ports: u32,
    hosts: u32,
    extra: u32,
    seed: u64,
    link: (Width, Speed),
) -> Result<Fabric, GenerateError> {
    let bad = |why: &str| Err(GenerateError(format!("random: {why}")));
    if !(2..=4096).contains(&switches) || !(3..=254).contains(&ports) {
        return bad("2 to 4096 switches of 3 to 254 ports");
    }
    // A spanning tree takes 2(n-1) switch ports; the hosts take one each.
    let free = u64::from(switches) * u64::from(ports);
    if u64::from(hosts) + 2 * u64::from(switches - 1) > free {
        return bad("too many hosts for the switches' ports once they are joined");
    }
    let mut rng = Rng::new(seed, 0x0fab);
    let mut b = Builder::new(link);
    let ids: Vec<NodeIx> = (0..switches).map(|i| b.switch(format!("sw-{i}"), ports as u8)).collect();
    let mut used = alloc::vec![0u8; ids.len()];
    let take = |used: &mut Vec<u8>, s: usize| {
        used[s] += 1;
        used[s]
    };
    // Hosts first, so each switch keeps room for the tree: a switch never takes more than ports - 2 hosts.
    let mut hosts_on = alloc::vec![0u32; ids.len()];
    for h in 0..hosts as usize {
        hosts_on[h % ids.len()] += 1;
    }
    if hosts_on.iter().any(|&n| n + 2 > ports) {
        return bad("too many hosts a switch: each needs two ports left for cables to other switches");
    }
    for (s, &n) in hosts_on.iter().enumerate() {
        for j in 0..n {
            let host = b.ca(format!("h-{s}-{j}"), 1);
            let p = take(&mut used, s);
            b.cable(ids[s], p, host, 1);
        }
    }
    for s in 1..ids.len() {
        // Join switch s to an earlier switch with a free port.
        let candidates: Vec<usize> = (0..s).filter(|&t| u32::from(used[t]) < ports).collect();
        let Some(&t) = candidates.get(rng.below(candidates.len() as u64) as usize) else {
            return bad("no free port left to join the switches");
        };
        let (ps, pt) = (take(&mut used, s), take(&mut used, t));
        b.cable(ids[s], ps, ids[t], pt);
    }
    for _ in 0..extra {
        let open: Vec<usize> = (0..ids.len()).filter(|&s| u32::from(used[s]) < ports).collect();
        if open.len() < 2 {
            break;
        }
        let a = open[rng.below(open.len() as u64) as usize];
        let others: Vec<usize> = open.into_iter().filter(|&s| s != a).collect();
        let c = others[rng.below(others.len() as u64) as usize];
        let (pa, pc) = (take(&mut used, a), take(&mut used, c));
        b.cable(ids[a], pa, ids[c], pc);
    }
    Ok(b.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::netfile::{parse, write_net};

    const SDR: (Width, Speed) = (Width::X4, Speed::Sdr);

    fn degree_ok(f: &Fabric) {
        for c in &f.cables {
            assert_eq!(f.peer(c.a.node, c.a.port), Some(c.b));
            assert_eq!(f.peer(c.b.node, c.b.port), Some(c.a));
        }
        let ends: usize =
            (0..f.nodes.len()).map(|n| (1..=f.nodes[n].ports).filter(|&p| f.peer(n, p).is_some()).count()).sum();
        assert_eq!(ends, 2 * f.cables.len(), "no port carries two cables");
    }

    #[test]
    fn fat_trees_have_the_textbook_counts() {
        for (k, switches, hosts) in [(4, 20, 16), (8, 80, 128)] {
            let f = fat_tree(k, SDR).unwrap();
            assert_eq!(f.counts(), (switches, hosts), "k={k}");
            assert_eq!(f.cables.len(), hosts * 3, "k={k}: host, edge-agg and agg-core layers each k^3/4 cables");
            degree_ok(&f);
            assert_eq!(parse(&write_net(&f)).unwrap(), f, "k={k}: ibsim numbers the written file's GUIDs the same");
        }
        let f = two_level(36, SDR).unwrap();
        assert_eq!(f.counts(), (54, 648));
        degree_ok(&f);
    }

    #[test]
    fn a_leaf_spine_fabric_of_any_size_the_pft_papers_120_nodes() {
        let shape = LeafSpine { leaves: 10, hosts: 12, spines: 6, cables: 2 };
        let f = leaf_spine(shape, SDR).unwrap();
        assert_eq!((f.counts(), f.cables.len()), ((16, 120), 120 + 10 * 6 * 2));
        assert!(f.nodes.iter().filter(|n| n.is_switch()).all(|n| n.ports == 24), "24-port switches");
        degree_ok(&f);
        assert_eq!(parse(&write_net(&f)).unwrap(), f);
        // Leaf 3's cables to spine 5 are its ports 12+1+5*2 and the next, on spine 5's ports 1+3*2 and the next.
        let (leaf3, spine5) = (f.find("leaf-3").unwrap(), f.find("spine-5").unwrap());
        assert_eq!(f.peer(leaf3, 23).map(|p| (p.node, p.port)), Some((spine5, 7)));
        assert_eq!(f.peer(leaf3, 24).map(|p| (p.node, p.port)), Some((spine5, 8)));
        // The two-level fat tree is its square case, cable for cable and GUID for GUID.
        assert_eq!(
            two_level(8, SDR).unwrap(),
            leaf_spine(LeafSpine { leaves: 8, hosts: 4, spines: 4, cables: 1 }, SDR).unwrap()
        );
        assert!(leaf_spine(LeafSpine { cables: 0, ..shape }, SDR).unwrap_err().0.contains("at least 1"));
        assert!(leaf_spine(LeafSpine { leaves: 200, ..shape }, SDR).unwrap_err().0.contains("a spine 400"));
    }

    #[test]
    fn rings_parallel_cables_and_random_fabrics_are_well_formed() {
        let r = ring(6, 2, SDR).unwrap();
        assert_eq!((r.counts(), r.cables.len()), ((6, 12), 18));
        degree_ok(&r);
        let p = parallel(3, 2, SDR).unwrap();
        assert_eq!(
            p.cables.iter().filter(|c| p.nodes[c.a.node].is_switch() && p.nodes[c.b.node].is_switch()).count(),
            3
        );
        degree_ok(&p);
        for seed in 0..20 {
            let f = random(12, 8, 30, 10, seed, SDR).unwrap();
            assert_eq!(f.counts(), (12, 30));
            degree_ok(&f);
            assert_eq!(f, random(12, 8, 30, 10, seed, SDR).unwrap(), "the seed decides the fabric");
            assert_eq!(parse(&write_net(&f)).unwrap(), f);
        }
        assert_ne!(random(12, 8, 30, 10, 1, SDR).unwrap(), random(12, 8, 30, 10, 2, SDR).unwrap());
    }

    #[test]
    fn impossible_parameters_are_refused_with_the_reason() {
        assert!(fat_tree(5, SDR).unwrap_err().0.contains("even"));
        assert!(ring(2, 1, SDR).is_err());
        assert!(random(4, 3, 9, 0, 0, SDR).unwrap_err().0.contains("hosts"));
        assert!(parallel(250, 10, SDR).is_err());
    }
}
