//! Real fabrics as InfiniBand administrators know them: switches and channel adapters with numbered ports, GUIDs
//! and LIDs, cables of a width and speed ([`model`]); the files they come in ([`netfile`]).
//!
//! This layer knows nothing of the simulation: it reads, writes and (later in this module) routes fabrics the way
//! OpenSM does; `net` turns a routed fabric into a network.

pub mod check;
pub mod hops;
pub mod lfts;
pub mod lids;
pub mod minhop;
pub mod model;
pub mod netfile;
pub mod paths;
pub mod route;
pub mod shapes;
pub mod updn;

pub use model::{Cable, Fabric, FabricNode, NodeIx, NodeKind, PortRef, Speed, Width};
pub use netfile::{parse, write_net, FabricError};
