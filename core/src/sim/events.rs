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
    /// A workload's process starts, or its busy time ends.
    Process { process: u32 },
}

/// What kind of event happened, for counting them ([`crate::sim::Observer::on_event`], `ibcc bench --kinds`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum EventKind {
    Eligible,
    TxEnd,
    Arrive,
    Received,
    Deliver,
    Credit,
    HostWake,
    NicTimer,
    FlowOn,
    FlowOff,
    Process,
}

impl EventKind {
    pub const ALL: [EventKind; 11] = [
        EventKind::Eligible,
        EventKind::TxEnd,
        EventKind::Arrive,
        EventKind::Received,
        EventKind::Deliver,
        EventKind::Credit,
        EventKind::HostWake,
        EventKind::NicTimer,
        EventKind::FlowOn,
        EventKind::FlowOff,
        EventKind::Process,
    ];

    /// What happens at such an event, in a few words.
    pub fn what(self) -> &'static str {
        match self {
            EventKind::Eligible => "a switch may start a packet (forwarding delay over)",
            EventKind::TxEnd => "a packet's tail leaves its transmitter",
            EventKind::Arrive => "a packet's head reaches a switch",
            EventKind::Received => "a data packet is whole in a switch input",
            EventKind::Deliver => "a packet reaches its host",
            EventKind::Credit => "credit returns to a transmitter",
            EventKind::HostWake => "a host's rate timer",
            EventKind::NicTimer => "a NIC's congestion-control timer",
            EventKind::FlowOn => "a flow starts or turns ON",
            EventKind::FlowOff => "a flow stops or turns OFF",
            EventKind::Process => "a workload's process starts or ends a busy time",
        }
    }
}

impl Event {
    pub(super) fn kind(&self) -> EventKind {
        match self {
            Event::Eligible { .. } => EventKind::Eligible,
            Event::TxEnd { .. } => EventKind::TxEnd,
            Event::Arrive { .. } => EventKind::Arrive,
            Event::Received { .. } => EventKind::Received,
            Event::Deliver { .. } => EventKind::Deliver,
            Event::Credit { .. } => EventKind::Credit,
            Event::HostWake { .. } => EventKind::HostWake,
            Event::NicTimer { .. } => EventKind::NicTimer,
            Event::FlowOn { .. } => EventKind::FlowOn,
            Event::FlowOff { .. } => EventKind::FlowOff,
            Event::Process { .. } => EventKind::Process,
        }
    }
}
