//! Hosts: the NIC's queues (the ACKs it owes, the flows ready to send, the rate timers) and each flow's source
//! side (sequence numbers, what is outstanding, ON/OFF state). Each carries its congestion control's state in a
//! slot of a type it does not know (`cc`, filled by the simulation), kept beside the rest for locality.

use super::packet::PacketId;
use super::topology::{ChannelId, NodeId};
use crate::rng::Rng;
use crate::time::Time;
use alloc::collections::{BinaryHeap, VecDeque};
use core::cmp::Reverse;

/// At most this many ACK packets wait at a host for one flow. More would grow without bound when the host's link
/// is starved of ACK credit (a long, fast link with a small buffer), so the next ones join the flow's last waiting
/// ACK instead: one cumulative ACK for consecutive packets, carrying how many were marked. Below the bound every
/// data packet gets its own ACK, as the papers have it (model.md §5).
pub const ACKS_OWED_PER_FLOW: u32 = 16;

/// A host's NIC: it injects its flows' data and its ACKs. Flows that may send now wait in `ready` and take turns
/// (a flow that sends goes to the back); flows held only by their rate limit wait in `timers` until it runs out.
/// Both are kept up to date as flows change, so a pass costs the same however many flows the host has.
#[derive(Debug, Clone)]
pub struct HostState<C> {
    /// The channel its NIC sends on, if it has a link.
    pub channel: Option<ChannelId>,
    /// Flows that were ready when queued (checked again when they reach the front).
    pub ready: VecDeque<u32>,
    /// `(time its rate limit allows it, flow)`, earliest first; an entry is live only if it matches the flow's
    /// `timer_at`.
    pub timers: BinaryHeap<Reverse<(Time, u32)>>,
    /// ACKs waiting to be sent (they go before data), at most [`ACKS_OWED_PER_FLOW`] per flow.
    pub acks: VecDeque<PacketId>,
    /// The pending wake-up for a rate timer, and its generation (a newer wake cancels older ones).
    pub wake_at: Option<Time>,
    pub wake_gen: u32,
    /// Its NIC's congestion control (what it is, this layer does not know).
    pub cc: C,
}

/// A flow's source side.
#[derive(Debug, Clone)]
pub struct FlowState<C> {
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
    /// ACK packets its destination host holds for it, not yet sent, and the newest of them.
    pub owed_acks: u32,
    pub last_owed_ack: Option<PacketId>,
    pub rng: Rng,
    /// Its source's congestion control (what it is, this layer does not know).
    pub cc: C,
}
