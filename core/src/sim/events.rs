//! The simulation's events. Small and `Copy`: the queue holds many of them.

use crate::net::packet::{Lane, PacketId};
use crate::net::topology::{ChannelId, NodeId, PortId};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Event {
    /// A switch may be able to start a packet (a forwarding delay has run out).
    Eligible { node: NodeId },
    /// A transmitter has finished serializing its packet.
    TxEnd { channel: ChannelId },
    /// A packet's head reaches the switch at the far end of a channel with propagation delay.
    Arrive { channel: ChannelId, packet: PacketId },
    /// A data packet has been completely received by a switch input (the `on_receipt` full-buffer check).
    Received { node: NodeId, port: PortId, lane: Lane, packet: PacketId },
    /// A packet's tail reaches the host at the far end of a channel with propagation delay.
    Deliver { channel: ChannelId, packet: PacketId },
    /// Freed buffer space reaches the transmitter, one propagation delay after the receiver freed it.
    Credit { channel: ChannelId, lane: Lane, blocks: u32 },
    /// A host's rate timer; stale unless `gen` is the host's current generation.
    HostWake { host: u32, gen: u32 },
    /// A host NIC's congestion-control timer (PFT: a detector's window ends or its count is reached); stale unless
    /// `gen` is the NIC's current generation.
    NicTimer { host: u32, gen: u32 },
    /// A flow (re)starts: its start time, or the start of an ON period.
    FlowOn { flow: u32, gen: u32 },
    /// A flow stops offering traffic: an OFF period, or its stop time.
    FlowOff { flow: u32, gen: u32 },
}
