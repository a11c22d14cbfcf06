//! Routing a fabric as OpenSM 3.3.23 does: discover from the subnet manager's port, give LIDs, then fill every
//! switch's linear forwarding table with the chosen engine (`osm_ucast_mgr.c:osm_ucast_mgr_process`;
//! docs/opensm-routing.md §0.4). Where OpenSM would fall back to minhop, so do we, and the result says so.

use super::ftree;
use super::hops::{Hops, SwitchGraph};
use super::layers::{self, LayerError, Layers};
use super::lfts::Lfts;
use super::lids::{assign, sm_port, Addressing};
use super::minhop;
use super::model::Fabric;
use super::sssp;
use super::updn::{self, Roots};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// A routing engine, by OpenSM's name for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// OpenSM's default: shortest paths, balanced by per-port route counts.
    Minhop,
    /// Up*/down*: minhop's balancing on paths that never go down and then up, so they cannot deadlock.
    Updn,
    /// Fat trees: destinations routed leaf by leaf in index order, so that shift permutations are contention-free.
    Ftree,
    /// Shortest paths by Dijkstra on weights that grow with the routes laid (dfsssp without its virtual lanes).
    Sssp,
    /// sssp's routes, split across virtual lanes until no lane's channel dependencies form a cycle: deadlock-free.
    Dfsssp,
}

impl Engine {
    pub const ALL: [Engine; 5] = [Engine::Minhop, Engine::Updn, Engine::Ftree, Engine::Sssp, Engine::Dfsssp];

    /// OpenSM's name (`-R NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Engine::Minhop => "minhop",
            Engine::Updn => "updn",
            Engine::Ftree => "ftree",
            Engine::Sssp => "sssp",
            Engine::Dfsssp => "dfsssp",
        }
    }

    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|e| e.name() == name)
    }
}

/// How to route: OpenSM's options that change the tables.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Options {
    pub engine: Engine,
    /// The node the subnet manager runs on (by name or description); the file's first node if `None`.
    pub sm: Option<String>,
    /// LIDs per CA port: 2^lmc (OpenSM's `-l`).
    pub lmc: u8,
    /// Give every port a fresh LID, ignoring the file's (OpenSM's `-r`).
    pub reassign: bool,
    /// updn's roots (OpenSM's `-a` file), or found as OpenSM finds them.
    pub roots: Roots,
    /// The data virtual lanes every switch port operates, which dfsssp may use (OpenSM reads PortInfo's
    /// OperationalVLs, so 1, 2, 4, 8 or 15: a count between is taken down, `layers::operated`; ibsim's ports and
    /// most HCAs and switches run 8).
    pub vls: u8,
}

impl Options {
    pub fn new(engine: Engine) -> Self {
        Self { engine, sm: None, lmc: 0, reassign: false, roots: Roots::Found, vls: 8 }
    }
}

/// A routed fabric: its LIDs, its tables, the engine that filled them, and what happened on the way.
#[derive(Debug, Clone)]
pub struct Routed {
    pub addressing: Addressing,
    pub lfts: Lfts,
    /// The engine whose tables these are (minhop when the asked one fell back).
    pub engine: Engine,
    /// Why an engine fell back, and the like.
    pub notes: Vec<String>,
    /// ftree's compute-node order (`opensm-ftree-ca-order.dump`), `None` padding a leaf; empty for other engines.
    pub ca_order: Vec<Option<super::model::PortRef>>,
    /// dfsssp's virtual lane for each pair of end-port LIDs; `None` for other engines.
    pub layers: Option<Layers>,
}

impl Routed {
    /// A 64-bit FNV-1a digest of the switches in OpenSM's order, each one's table and, under dfsssp, every pair's
    /// lane: the same routing gives the same digest on every platform, so the page's worker can be checked against
    /// native routing (tests/golden/routing.txt).
    pub fn digest(&self) -> u64 {
        let lanes = self.layers.as_ref().map_or(&[][..], Layers::lanes);
        let switches = self.lfts.switches.iter().flat_map(|&s| (s as u32).to_le_bytes());
        let bytes = switches.chain(self.lfts.tables.iter().flatten().copied()).chain(lanes.iter().copied());
        bytes.fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
    }
}

/// Route `f`.
pub fn route(f: &Fabric, o: &Options) -> Result<Routed, String> {
    let sm = sm_port(f, o.sm.as_deref())?;
    let addressing = assign(f, sm, o.lmc, o.reassign)?;
    let graph = SwitchGraph::new(f, &addressing);
    let mut notes = Vec::new();
    let names = |switches: &[usize]| {
        let names: Vec<&str> = switches.iter().map(|&s| f.nodes[graph.nodes[s]].name.as_str()).collect();
        names.join(", ")
    };
    if o.engine == Engine::Ftree {
        match ftree::route(f, &addressing, &graph) {
            Ok(t) => {
                let (lfts, ca_order) = (t.lfts, t.ca_order);
                return Ok(Routed { addressing, lfts, engine: Engine::Ftree, notes, ca_order, layers: None });
            }
            Err(why) => notes.push(format!(
                "ftree: not a fat tree as OpenSM judges one ({why}), so OpenSM falls back to minhop, and so do we"
            )),
        }
    }
    // dfsssp's tables count their routes on each port before its lanes are tried: a fallback starts from them.
    let mut counted = None;
    let lids: usize = addressing.ports.iter().map(|p| usize::from(p.count)).sum();
    if o.engine == Engine::Dfsssp && lids > layers::MAX_LAYERED_LIDS {
        return Err(format!(
            "dfsssp: {lids} end-port LIDs are more than the {} whose every pair this build puts on lanes",
            layers::MAX_LAYERED_LIDS
        ));
    }
    if matches!(o.engine, Engine::Sssp | Engine::Dfsssp) {
        let name = o.engine.name();
        match sssp::build(f, &addressing, &graph) {
            Ok((lfts, _)) if o.engine == Engine::Sssp => {
                return Ok(Routed { addressing, lfts, engine: Engine::Sssp, notes, ca_order: Vec::new(), layers: None })
            }
            Ok((lfts, order)) => match layers::layer(f, &addressing, &lfts, &order, o.vls) {
                Ok(l) => {
                    notes.push(format!(
                        "dfsssp: {} of {} virtual lanes needed to break every cycle of channel dependencies",
                        l.needed, l.available
                    ));
                    let layers = Some(l);
                    return Ok(Routed {
                        addressing,
                        lfts,
                        engine: Engine::Dfsssp,
                        notes,
                        ca_order: Vec::new(),
                        layers,
                    });
                }
                Err(e) => {
                    notes.push(match e {
                        LayerError::NotEnoughVls { available, .. } => format!(
                            "dfsssp: more than {available} virtual lane{} needed to break every cycle of channel \
                             dependencies (OpenSM: \"Not enough VLs available\"), so OpenSM falls back to minhop, and \
                             so do we",
                            if available == 1 { "" } else { "s" }
                        ),
                        LayerError::Broken(why) => {
                            format!("dfsssp: {why}, so OpenSM falls back to minhop, and so do we")
                        }
                        LayerError::TooLarge { lids } => {
                            return Err(format!("dfsssp: {lids} end-port LIDs, more than this build layers"))
                        }
                    });
                    counted = Some(lfts);
                }
            },
            Err(why) => notes.push(format!("{name}: {why}, so OpenSM falls back to minhop, and so do we")),
        }
    }
    let hops = match o.engine {
        Engine::Minhop | Engine::Ftree | Engine::Sssp | Engine::Dfsssp => None,
        Engine::Updn => match updn::hops(f, &addressing, &graph, &o.roots)? {
            Some((hops, roots)) => {
                let plural = if roots.len() == 1 { "" } else { "es" };
                notes.push(format!("updn: {} root switch{plural}: {}", roots.len(), names(&roots)));
                Some(hops)
            }
            None => {
                notes.push(String::from(
                    "updn found no root switch (OpenSM: \"disabling UPDN algorithm, no root nodes were found\"), so \
                     OpenSM falls back to minhop, and so do we",
                ));
                None
            }
        },
    };
    let engine = if hops.is_some() { o.engine } else { Engine::Minhop };
    let hops = match hops {
        Some(h) => h,
        None => Hops::shortest(&graph)?,
    };
    let lfts = minhop::build(f, &addressing, &graph, &hops, counted.as_ref());
    Ok(Routed { addressing, lfts, engine, notes, ca_order: Vec::new(), layers: None })
}
