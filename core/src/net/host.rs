//! Hosts: the NIC's queues (the ACKs it owes, the flows ready to send, the rate timers) and each flow's source
//! side (sequence numbers, what is outstanding, ON/OFF state). Each carries its congestion control's state in a
//! slot of a type it does not know (`cc`, filled by the simulation), kept beside the rest for locality.

use super::packet::{Lane, PacketId};
use super::topology::{ChannelId, NodeId};
use super::vl::VlArbiter;
use crate::rng::Rng;
use crate::time::Time;
use alloc::collections::{BinaryHeap, VecDeque};
use core::cmp::Reverse;
use serde::{Deserialize, Serialize};

/// At most this many ACK packets wait at a host for one flow. More would grow without bound when the host's link
/// is starved of ACK credit (a long, fast link with a small buffer), so the next ones join the flow's last waiting
/// ACK instead: one cumulative ACK for consecutive packets, carrying how many were marked. Below the bound every
/// data packet gets its own ACK, as the papers have it (model.md §5).
pub const ACKS_OWED_PER_FLOW: u32 = 16;

/// ACK coalescing at destinations (the HP proposal's slides, "Explicit Congestion Notification": "Destination
/// returns an ACK upon reception of marked data packet; at least one packet in a congestion window must have its
/// AckReq bit set"). A destination ACKs a marked packet at once, and otherwise the packet carrying AckReq or the
/// `every_packets`-th since its last ACK; the ACK is cumulative, for every packet since the last. A source sets
/// AckReq on the packet that fills its window (our choice of "at least one packet in a congestion window": the
/// last it may send before it must wait). A flow without a window is ACKed every `every_packets` packets and on
/// marks only. The source takes each ACK as one ACK (its window, RPI and APSN, as the slides have them), freeing
/// every packet it covers. Absent from a scenario: every data packet is ACKed on its own (the papers' model).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AckCoalescing {
    /// ACK at least every this many data packets (1 to 1024).
    pub every_packets: u32,
}

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
    /// With several data VLs, its NIC's VL arbiter (its link's arbitration, IBA §7.6.9): it picks the VL that
    /// sends next, and the VL's flows take turns.
    pub arbiter: VlArbiter,
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
    /// Its packets are acknowledged (reliable transport); otherwise no ACKs and no window, and a marked packet
    /// brings a CN packet back (`scenario::Transport`).
    pub reliable: bool,
    /// The data VL its packets travel on (its SL's, `scenario::VirtualLanes`).
    pub lane: Lane,
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
    /// With ACK coalescing: data packets its destination received and has not ACKed yet, from `unacked_psn` on.
    pub unacked: u32,
    pub unacked_psn: u32,
    pub rng: Rng,
    /// Its source's congestion control (what it is, this layer does not know).
    pub cc: C,
}
