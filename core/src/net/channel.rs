//! Directed channels: one direction of a link, its transmitter and the credits it holds for the receiver's
//! buffers (credit-based flow control, model.md §2).

use super::packet::{Lane, PacketId};
use super::topology::{NodeId, PortId};
use crate::time::Time;

/// What a channel's transmitter is sending.
#[derive(Debug, Clone, Copy)]
pub struct Sending {
    pub packet: PacketId,
    pub lane: Lane,
    /// At a switch: the input port the packet came from (its buffer is freed when the tail leaves).
    pub from_input: Option<PortId>,
    /// When the tail leaves the transmitter.
    pub ends_at: Time,
}

/// One end of a channel as the event loop needs it: the node, whether it is a host, its index among the hosts or
/// switches, and the port (the topology's, resolved once).
#[derive(Debug, Clone, Copy)]
pub struct End {
    pub node: NodeId,
    pub host: bool,
    pub slot: u32,
    pub port: PortId,
}

/// A directed channel: its transmitter and the credits it holds for the receiver's buffers.
#[derive(Debug, Clone)]
pub struct ChannelState {
    /// The sender and the receiver.
    pub from: End,
    pub to: End,
    pub propagation: Time,
    pub sending: Option<Sending>,
    /// Free blocks in the receiver's buffer, per lane. Hosts absorb everything they receive at line rate, so a
    /// channel into a host never runs out (`u32::MAX`).
    pub credits: [u32; 2],
    /// The receiver's buffer size per lane, in blocks (for the bound checks).
    pub capacity: [u32; 2],
    /// Since when the transmitter has had a packet ready but no credit for it.
    pub stalled_since: Option<Time>,
    /// Serialization time of a data packet and of an ACK on this channel (computed once: the event loop needs them
    /// for every packet).
    pub serialization: [Time; 2],
}

impl ChannelState {
    pub fn is_busy(&self) -> bool {
        self.sending.is_some()
    }
}
