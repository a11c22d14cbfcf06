//! The switches as a graph, and OpenSM's hop matrices on it (`osm_ucast_mgr_build_lid_matrices`;
//! docs/opensm-routing.md §2.1).
//!
//! OpenSM keeps, on every switch, the hops to every switch LID through each of its ports (a CA is reached through
//! its switch's row). Minhop's matrix is exact shortest paths: through port p toward switch D it is 1 + the
//! distance from p's neighbour to D, so it is stored as the switch-to-switch distances and read through the ports.
//! Engines that restrict paths (updn) write each port's entry themselves.

use super::lids::Addressing;
use super::model::{Fabric, NodeIx};
use alloc::collections::VecDeque;
use alloc::vec::Vec;

/// No route (OpenSM's `OSM_NO_PATH`): as a port in an LFT, and as a hop count.
pub const NO_PATH: u8 = 0xFF;

/// The discovered switches, indexed in OpenSM's switch order, and the switch-to-switch cables.
#[derive(Debug, Clone)]
pub struct SwitchGraph {
    /// Switch index -> node.
    pub nodes: Vec<NodeIx>,
    /// Node -> switch index.
    pub index: Vec<Option<usize>>,
    /// `links[s][p]`: the switch index and port at the other end of port p, when that is another switch.
    pub links: Vec<Vec<Option<(usize, u8)>>>,
}

impl SwitchGraph {
    pub fn new(f: &Fabric, a: &Addressing) -> Self {
        let mut index = alloc::vec![None; f.nodes.len()];
        for (i, &n) in a.switches.iter().enumerate() {
            index[n] = Some(i);
        }
        let links = a
            .switches
            .iter()
            .map(|&n| {
                (0..=f.nodes[n].ports)
                    .map(|p| {
                        let r = f.peer(n, p)?;
                        let ri = index[r.node]?;
                        (r.node != n).then_some((ri, r.port))
                    })
                    .collect()
            })
            .collect();
        Self { nodes: a.switches.clone(), index, links }
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Ports of switch `s`, port 0 included (OpenSM's `num_ports`).
    pub fn num_ports(&self, s: usize) -> usize {
        self.links[s].len()
    }
}

/// Hops from each switch to each switch: the least, and through each port.
#[derive(Debug, Clone)]
pub struct Hops {
    n: usize,
    /// `least[s * n + t]`.
    least: Vec<u8>,
    /// Per port, when an engine set them itself: `ports[(s * n + t) * stride + p]`; otherwise read through the
    /// neighbours' least.
    ports: Option<(usize, Vec<u8>)>,
}

impl Hops {
    /// Minhop's: shortest paths over switch-to-switch cables. Refused when a path would need more hops than
    /// OpenSM can count (a byte).
    pub fn shortest(g: &SwitchGraph) -> Result<Self, alloc::string::String> {
        let n = g.len();
        let mut least = alloc::vec![NO_PATH; n * n];
        let mut queue = VecDeque::new();
        for t in 0..n {
            // Distances to t: the graph is undirected, so a search from t.
            least[t * n + t] = 0;
            queue.push_back(t);
            while let Some(u) = queue.pop_front() {
                let d = least[u * n + t];
                for &(r, _) in g.links[u].iter().flatten() {
                    if least[r * n + t] == NO_PATH {
                        if d + 1 == NO_PATH {
                            return Err(alloc::string::String::from(
                                "switches 255 or more hops apart: OpenSM counts hops in a byte",
                            ));
                        }
                        least[r * n + t] = d + 1;
                        queue.push_back(r);
                    }
                }
            }
        }
        Ok(Self { n, least, ports: None })
    }

    /// All unknown, each port's entry to be set (engines that restrict paths).
    pub fn unset(g: &SwitchGraph) -> Self {
        let n = g.len();
        let stride = g.links.iter().map(Vec::len).max().unwrap_or(1);
        Self { n, least: alloc::vec![NO_PATH; n * n], ports: Some((stride, alloc::vec![NO_PATH; n * n * stride])) }
    }

    /// Least hops from switch s to switch t.
    pub fn least(&self, s: usize, t: usize) -> u8 {
        self.least[s * self.n + t]
    }

    /// Hops from switch s to switch t through port p.
    pub fn through(&self, g: &SwitchGraph, s: usize, t: usize, p: usize) -> u8 {
        match &self.ports {
            Some((stride, ports)) => ports[(s * self.n + t) * stride + p],
            None if p == 0 => {
                if s == t {
                    0
                } else {
                    NO_PATH
                }
            }
            None => match g.links[s][p] {
                Some((r, _)) if self.least(r, t) != NO_PATH => self.least(r, t) + 1,
                _ => NO_PATH,
            },
        }
    }

    /// Set the hops from s to t through p (lowering the least with it), as `osm_switch_set_hops` does.
    pub fn set(&mut self, s: usize, t: usize, p: usize, hops: u8) {
        let (stride, ports) = self.ports.as_mut().expect("only per-port hop tables are set");
        ports[(s * self.n + t) * *stride + p] = hops;
        let least = &mut self.least[s * self.n + t];
        *least = (*least).min(hops);
    }
}
