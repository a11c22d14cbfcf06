//! Routing a fabric as OpenSM 3.3.23 does: discover from the subnet manager's port, give LIDs, then fill every
//! switch's linear forwarding table with the chosen engine (`osm_ucast_mgr.c:osm_ucast_mgr_process`;
//! docs/opensm-routing.md §0.4). Where OpenSM would fall back to minhop, so do we, and the result says so.

use super::hops::{Hops, SwitchGraph};
use super::lfts::Lfts;
use super::lids::{assign, sm_port, Addressing};
use super::minhop;
use super::model::Fabric;
use alloc::string::String;
use alloc::vec::Vec;

/// A routing engine, by OpenSM's name for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Engine {
    /// OpenSM's default: shortest paths, balanced by per-port route counts.
    Minhop,
}

impl Engine {
    pub const ALL: [Engine; 1] = [Engine::Minhop];

    /// OpenSM's name (`-R NAME`).
    pub fn name(self) -> &'static str {
        match self {
            Engine::Minhop => "minhop",
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
}

impl Options {
    pub fn new(engine: Engine) -> Self {
        Self { engine, sm: None, lmc: 0, reassign: false }
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
}

/// Route `f`.
pub fn route(f: &Fabric, o: &Options) -> Result<Routed, String> {
    let sm = sm_port(f, o.sm.as_deref())?;
    let addressing = assign(f, sm, o.lmc, o.reassign)?;
    let graph = SwitchGraph::new(f, &addressing);
    let notes = Vec::new();
    let lfts = match o.engine {
        Engine::Minhop => minhop::build(f, &addressing, &graph, &Hops::shortest(&graph)?),
    };
    Ok(Routed { addressing, lfts, engine: o.engine, notes })
}
