//! The network: topology and routing, and (in the simulator) the state of links, buffers and credits.

pub mod packet;
pub mod topology;
