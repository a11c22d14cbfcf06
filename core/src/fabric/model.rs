//! A fabric as its administrators see it: switches and channel adapters (hosts) with numbered ports, their GUIDs
//! and LIDs, and the cables between ports, each with its width and speed.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

/// Index of a node in [`Fabric::nodes`].
pub type NodeIx = usize;

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    Switch,
    /// A channel adapter: a host's NIC.
    Ca,
}

/// Lanes of a cable (InfiniBand's link width), narrowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Width {
    X1,
    X2,
    X4,
    X8,
    X12,
}

/// Signalling rate of a cable (InfiniBand's link speed), slowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Speed {
    Sdr,
    Ddr,
    Qdr,
    Fdr10,
    Fdr,
    Edr,
    Hdr,
    Ndr,
    Xdr,
}

impl Width {
    pub const ALL: [Width; 5] = [Width::X1, Width::X2, Width::X4, Width::X8, Width::X12];

    pub fn lanes(self) -> u32 {
        match self {
            Self::X1 => 1,
            Self::X2 => 2,
            Self::X4 => 4,
            Self::X8 => 8,
            Self::X12 => 12,
        }
    }
}

impl Speed {
    pub const ALL: [Speed; 9] =
        [Speed::Sdr, Speed::Ddr, Speed::Qdr, Speed::Fdr10, Speed::Fdr, Speed::Edr, Speed::Hdr, Speed::Ndr, Speed::Xdr];

    pub fn name(self) -> &'static str {
        match self {
            Self::Sdr => "SDR",
            Self::Ddr => "DDR",
            Self::Qdr => "QDR",
            Self::Fdr10 => "FDR10",
            Self::Fdr => "FDR",
            Self::Edr => "EDR",
            Self::Hdr => "HDR",
            Self::Ndr => "NDR",
            Self::Xdr => "XDR",
        }
    }

    /// Data rate of one lane in Mb/s, after line coding (8b/10b to QDR, 64b/66b from FDR10; HDR, NDR and XDR as
    /// their specified data rates).
    pub fn lane_data_mbps(self) -> u64 {
        match self {
            Self::Sdr => 2_000,
            Self::Ddr => 4_000,
            Self::Qdr => 8_000,
            Self::Fdr10 => 10_000,
            Self::Fdr => 13_636,
            Self::Edr => 25_000,
            Self::Hdr => 50_000,
            Self::Ndr => 100_000,
            Self::Xdr => 200_000,
        }
    }
}

impl fmt::Display for Width {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x", self.lanes())
    }
}

/// One node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FabricNode {
    pub kind: NodeKind,
    /// Its name in the file (`"S1"`, `"S-0002c90200412345"`): how cables name it.
    pub name: String,
    /// Its node description (the name, unless the file gives one).
    pub desc: String,
    pub node_guid: u64,
    pub sysimg_guid: u64,
    /// Ports 1..=`ports` (a switch also has port 0, its management port, which no cable reaches).
    pub ports: u8,
    /// The GUID of port `p` at `port_guids[p]` (a switch: one GUID for all, its port 0's, at index 0; a CA: index
    /// 0 unused).
    pub port_guids: Vec<u64>,
    /// LIDs the file gives: a switch's (its port 0) at index 0, a CA port's at its number; `None` to be assigned.
    pub lids: Vec<Option<GivenLid>>,
}

impl FabricNode {
    pub fn is_switch(&self) -> bool {
        self.kind == NodeKind::Switch
    }

    /// The GUID of the port a LID belongs to: a switch's port 0, or CA port `p`.
    pub fn port_guid(&self, p: u8) -> u64 {
        if self.is_switch() {
            self.port_guids[0]
        } else {
            self.port_guids[usize::from(p)]
        }
    }
}

/// A port's LID as a file gives it, with the LMC the port reported (its LIDs are `lid..lid + 2^lmc`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GivenLid {
    pub lid: u16,
    pub lmc: u8,
}

/// One end of a cable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct PortRef {
    pub node: NodeIx,
    pub port: u8,
}

impl PortRef {
    /// A number that orders ports as `Ord` does (by node, then port).
    pub fn key(self) -> u64 {
        (self.node as u64) << 8 | u64::from(self.port)
    }
}

/// A cable between two ports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cable {
    pub a: PortRef,
    pub b: PortRef,
    pub width: Width,
    pub speed: Speed,
}

impl Cable {
    /// Its data rate in Gb/s (lanes x the lane's data rate).
    pub fn gbps(&self) -> f64 {
        (u64::from(self.width.lanes()) * self.speed.lane_data_mbps()) as f64 / 1000.0
    }
}

/// A fabric: nodes in the order the file gives them, cables, and for each port the cable it has.
#[derive(Debug, Clone, PartialEq)]
pub struct Fabric {
    pub nodes: Vec<FabricNode>,
    pub cables: Vec<Cable>,
    /// `peer[node][port]`: the port at the other end of its cable, if it has one.
    peer: Vec<Vec<Option<PortRef>>>,
}

impl Fabric {
    /// A fabric of these nodes and cables (every cable's ports must exist and carry no other cable). The cables
    /// are kept in a canonical order (each from its lower port, sorted), so two descriptions of one fabric are
    /// equal however their files list the cables.
    pub fn new(nodes: Vec<FabricNode>, mut cables: Vec<Cable>) -> Self {
        for c in &mut cables {
            if c.b < c.a {
                core::mem::swap(&mut c.a, &mut c.b);
            }
        }
        // Each port carries at most one cable, so the lower ends are distinct and order the cables alone.
        sort_by_u64(&mut cables, |c| c.a.key());
        let mut peer: Vec<Vec<Option<PortRef>>> =
            nodes.iter().map(|n| alloc::vec![None; usize::from(n.ports) + 1]).collect();
        for c in &cables {
            peer[c.a.node][usize::from(c.a.port)] = Some(c.b);
            peer[c.b.node][usize::from(c.b.port)] = Some(c.a);
        }
        Self { nodes, cables, peer }
    }

    /// The port at the other end of `node`'s port `port`, if it is cabled.
    pub fn peer(&self, node: NodeIx, port: u8) -> Option<PortRef> {
        self.peer[node].get(usize::from(port)).copied().flatten()
    }

    /// The node named `name`.
    pub fn find(&self, name: &str) -> Option<NodeIx> {
        self.nodes.iter().position(|n| n.name == name)
    }

    /// The switches, in the order OpenSM walks them (ascending byte-swapped GUID: OpenSM keys its tables by the
    /// GUID in network byte order and compares keys as native little-endian integers).
    pub fn switches_in_guid_order(&self) -> Vec<NodeIx> {
        let mut s: Vec<NodeIx> = (0..self.nodes.len()).filter(|&n| self.nodes[n].is_switch()).collect();
        sort_by_u64(&mut s, |&n| self.nodes[n].node_guid.swap_bytes());
        s
    }

    /// What to call each node in a report: its description where no other node shares it (what administrators
    /// read), else its name (unique in the file).
    pub fn labels(&self) -> Vec<String> {
        let mut count: alloc::collections::BTreeMap<&str, usize> = alloc::collections::BTreeMap::new();
        for n in &self.nodes {
            *count.entry(n.desc.as_str()).or_insert(0) += 1;
        }
        self.nodes.iter().map(|n| if count[n.desc.as_str()] == 1 { n.desc.clone() } else { n.name.clone() }).collect()
    }

    /// How many nodes of each kind: (switches, CAs).
    pub fn counts(&self) -> (usize, usize) {
        let switches = self.nodes.iter().filter(|n| n.is_switch()).count();
        (switches, self.nodes.len() - switches)
    }
}

/// Sorts `items` by `key`, equal keys kept in their order (a stable sort). The fabric's sorts all go through this one
/// so that the wasm files carry one copy of the sort instead of one per call (each about 15 KB before compression).
/// The sort itself is a plain bottom-up merge sort of (key, index) pairs: the standard library's sorts bring some
/// kilobytes of code each to the page's wasm, this one a few hundred bytes.
pub(crate) fn sort_by_u64<T>(items: &mut Vec<T>, key: impl Fn(&T) -> u64) {
    let mut keyed: Vec<(u64, usize)> = items.iter().enumerate().map(|(i, t)| (key(t), i)).collect();
    merge_sort_by_key(&mut keyed);
    let mut slots: Vec<Option<T>> = core::mem::take(items).into_iter().map(Some).collect();
    *items = keyed.into_iter().map(|(_, i)| slots[i].take().expect("each index once")).collect();
}

/// One copy for every element type of [`sort_by_u64`]: not generic, and kept out of line.
#[inline(never)]
fn merge_sort_by_key(keyed: &mut Vec<(u64, usize)>) {
    let n = keyed.len();
    let mut merged = keyed.clone();
    let mut width = 1;
    while width < n {
        for lo in (0..n).step_by(2 * width) {
            let (mid, hi) = ((lo + width).min(n), (lo + 2 * width).min(n));
            let (mut i, mut j) = (lo, mid);
            for slot in &mut merged[lo..hi] {
                // `<=`: on equal keys the left run's (earlier) item first, so the sort is stable.
                if i < mid && (j >= hi || keyed[i].0 <= keyed[j].0) {
                    *slot = keyed[i];
                    i += 1;
                } else {
                    *slot = keyed[j];
                    j += 1;
                }
            }
        }
        core::mem::swap(keyed, &mut merged);
        width *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::sort_by_u64;
    use crate::rng::Rng;
    use alloc::vec::Vec;

    /// The merge sort gives what a stable sort by key gives, ties in their first order, at every length.
    #[test]
    fn sort_by_u64_is_a_stable_sort() {
        let mut rng = Rng::new(7, 0);
        for n in 0..70 {
            let items: Vec<(u64, usize)> = (0..n).map(|i| (rng.below(5), i)).collect();
            let (mut ours, mut std) = (items.clone(), items);
            sort_by_u64(&mut ours, |&(k, _)| k);
            std.sort_by_key(|&(k, _)| k);
            assert_eq!(ours, std, "{n} items");
        }
    }
}
