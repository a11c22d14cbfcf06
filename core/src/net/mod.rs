//! The network: its topology and routes, the packets in flight, and its state during a run: channels with their
//! credits, switches with their input buffers, outputs and scheduling, hosts with their NIC queues and flows.
//! Congestion control (`cc`, above) is told what happens here through its hooks; nothing here knows of it.

pub mod channel;
pub mod host;
pub mod packet;
pub mod switch;
pub mod topology;
pub mod vl;
