//! Real fabrics as InfiniBand administrators know them: switches and channel adapters with numbered ports, GUIDs
//! and LIDs, cables of a width and speed ([`model`]); the files they come in ([`netfile`]); generated shapes
//! ([`shapes`]); and routing as OpenSM 3.3.23 does it (docs/opensm-routing.md): the subnet manager's discovery and
//! LIDs ([`lids`]), hop counts ([`hops`]), the engines ([`minhop`], [`updn`], [`ftree`], [`sssp`] and dfsssp's lanes, [`layers`]) behind [`route`], the forwarding
//! tables they fill ([`lfts`]), and what the tables do: routes followed hop by hop ([`paths`]) and a whole-fabric
//! check for loops, unreachable pairs and credit-loop cycles ([`check`]); traffic patterns and the load they put on
//! each channel ([`patterns`]).
//!
//! This layer knows nothing of the simulation: it reads, writes and routes fabrics the way OpenSM does;
//! `scenario::routing` routes a scenario's network with it, and `net` forwards by the tables.

pub mod check;
pub mod ftree;
pub mod hops;
pub mod layers;
pub mod lfts;
pub mod lids;
pub mod minhop;
pub mod model;
pub mod netfile;
pub mod paths;
pub mod patterns;
pub mod route;
pub mod shapes;
pub mod sssp;
pub mod updn;

pub use model::{Cable, Fabric, FabricNode, NodeIx, NodeKind, PortRef, Speed, Width};
pub use netfile::{parse, write_net, FabricError};
