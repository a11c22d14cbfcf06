//! The mutable state of the network during a run: channels with their credits, switch input buffers and outputs,
//! host NICs, and flows.

use crate::cc::ibcc::Ccti;
use crate::cc::marking::PortCounters;
use crate::cc::pft::Detector;
use crate::cc::source::SourceCc;
use crate::net::packet::{Lane, PacketId};
use crate::net::topology::{ChannelId, NodeId, PortId};
use crate::rng::Rng;
use crate::scenario::{Arbitration, BypassCounting};
use crate::time::Time;
use alloc::collections::{BinaryHeap, VecDeque};
use alloc::vec::Vec;
use core::cmp::Reverse;

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

/// A packet in a switch input buffer.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    pub packet: PacketId,
    /// The output port it is routed to.
    pub out: PortId,
    /// Arrival order at this switch (oldest first).
    pub seq: u64,
    /// The earliest time it may start on its output (cut-through: head arrival + forwarding delay, and never
    /// overtaking its own tail on a faster output).
    pub eligible_at: Time,
    /// How many younger packets of the same buffer went ahead of it.
    pub bypassed: u32,
    /// Started on its output; its tail is leaving the buffer.
    pub started: bool,
    /// When its head arrived.
    pub arrived_at: Time,
    /// When it started on its output (meaningful once `started`).
    pub started_at: Time,
}

/// One lane of a switch input port.
#[derive(Debug, Clone, Default)]
pub struct InputLane {
    /// Packets in arrival order (a few at most: bounded by the buffer size).
    pub queue: Vec<Entry>,
    /// Blocks occupied (from head arrival until the tail leaves).
    pub used: u32,
    /// Packets it is sending through the crossbar now (at most the switch's `input_transfers`).
    pub sending: u32,
    /// Found full at the last `on_receipt` check (a new trigger needs a new crossing).
    pub full: bool,
}

/// One switch output port.
#[derive(Debug, Clone, Default)]
pub struct Output {
    /// Packets waiting for this output, per lane, as (arrival seq, input port), oldest first.
    pub waiting: [Vec<(u64, PortId)>; 2],
    /// The marking counters of this output (data lane).
    pub counters: PortCounters,
    /// Annex A10: eligible packets still to pass unmarked before the next FECN.
    pub fecn_skip: u16,
    /// Round-robin arbitration: the input whose turn it is next, per lane.
    pub next_input: [PortId; 2],
}

/// An input-buffered switch.
#[derive(Debug, Clone)]
pub struct SwitchState {
    pub node: NodeId,
    /// The channel each port sends on (the topology's, kept here for the passes).
    pub out_channels: Vec<ChannelId>,
    /// `inputs[port][lane]`.
    pub inputs: Vec<[InputLane; 2]>,
    pub outputs: Vec<Output>,
    /// Data-lane buffer size per input, in blocks.
    pub capacity: u32,
    /// Occupancy at or above which a data buffer counts as full for marking, in blocks.
    pub full_at: u32,
    pub forwarding_delay: Time,
    pub max_bypass: u32,
    pub bypass_counting: BypassCounting,
    /// Packets one input buffer may send at once (`u32::MAX`: no limit).
    pub input_transfers: u32,
    pub arbitration: Arbitration,
    pub next_seq: u64,
    /// Outputs with waiting packets, in no particular order (each at most once).
    pub pending_outputs: Vec<PortId>,
    pub is_pending: Vec<bool>,
    /// Packets waiting (not started) per lane, so a pass can skip a lane with nothing in it.
    pub waiting: [u32; 2],
}

/// A host's NIC: it injects its flows' data and its ACKs. Flows that may send now wait in `ready` and take turns
/// (a flow that sends goes to the back); flows held only by their rate limit wait in `timers` until it runs out.
/// Both are kept up to date as flows change, so a pass costs the same however many flows the host has.
#[derive(Debug, Clone)]
pub struct HostState {
    /// The channel its NIC sends on, if it has a link.
    pub channel: Option<ChannelId>,
    /// Flows that were ready when queued (checked again when they reach the front).
    pub ready: VecDeque<u32>,
    /// `(time its rate limit allows it, flow)`, earliest first; an entry is live only if it matches the flow's
    /// `timer_at`.
    pub timers: BinaryHeap<Reverse<(Time, u32)>>,
    /// ACKs waiting to be sent (they go before data).
    pub acks: VecDeque<PacketId>,
    /// The pending wake-up for a rate timer, and its generation (a newer wake cancels older ones).
    pub wake_at: Option<Time>,
    pub wake_gen: u32,
    /// Proactive Flow Throttling at this NIC, if the scenario has it.
    pub pft: Option<HostPft>,
}

/// A NIC's PFT state.
#[derive(Debug, Clone)]
pub struct HostPft {
    pub detector: Detector,
    /// While throttling: the NIC may start its next data packet at this time (`None`: not until `c` changes, RI
    /// with `f(c) >= 2^bits`).
    pub next_data_at: Option<Time>,
    /// The pending AT timer's time, and its generation (a newer timer cancels older ones).
    pub timer_at: Option<Time>,
    pub timer_gen: u32,
    pub rng: Rng,
}

/// A flow's source side.
#[derive(Debug, Clone)]
pub struct FlowState {
    pub src: NodeId,
    pub dst: NodeId,
    /// Host slot of the source.
    pub host: u32,
    /// Inside `[start, stop)` and, for ON/OFF traffic, in an ON period.
    pub active: bool,
    pub outstanding: u32,
    /// Packets of earlier ON periods still unacknowledged (not limited by this flow's window).
    pub stale_outstanding: u32,
    pub next_psn: u32,
    /// The first PSN of the current ON period's flow; ACKs for earlier PSNs are stale.
    pub epoch_psn: u32,
    pub cc: SourceCc,
    /// Start of the last injection.
    pub last_start: Option<Time>,
    /// When the rate limit next allows an injection: `last_start + gap(rate)`, kept up to date whenever either
    /// changes (the NIC asks on every pass).
    pub rate_ok_at: Time,
    /// When the window last opened (an ACK freed a slot).
    pub window_open_at: Time,
    /// Queued in its host's `ready` list.
    pub in_ready: bool,
    /// The time of its live entry in its host's `timers`.
    pub timer_at: Option<Time>,
    /// Cancels stale ON/OFF toggles.
    pub toggle_gen: u32,
    /// Annex A10: the flow's CCTI, if the scenario has it.
    pub ccti: Option<Ccti>,
    pub rng: Rng,
}
