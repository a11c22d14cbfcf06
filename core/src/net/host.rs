//! Hosts: the NIC's queues (the ACKs it owes, the flows ready to send, the rate timers) and each flow's source
//! side (sequence numbers, what is outstanding, ON/OFF state). Each carries its congestion control's state in a
//! slot of a type it does not know (`cc`, filled by the simulation), kept beside the rest for locality. The state
//! is private: its operations keep a flow's sequence numbers, its outstanding packets and the NIC's queues in step.

use super::packet::{Lane, PacketId};
use super::topology::{ChannelId, NodeId};
use super::vl::{Choice, VlArbiter};
use crate::rng::Rng;
use crate::time::Time;
use alloc::collections::{BinaryHeap, VecDeque};
use core::cmp::Reverse;
use serde::{Deserialize, Serialize};

/// At most this many ACK packets wait at a host for one flow. More would grow without bound when the host's link
/// is starved of ACK credit (a long, fast link with a small buffer), so the next ones join the flow's last waiting
/// ACK instead: one cumulative ACK for consecutive packets, carrying how many were marked. Below the bound every
/// data packet gets its own ACK, as the papers have it (docs/model.md §5).
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

/// What held a flow's last packet back (the HP slides' RWL).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limiter {
    Rate,
    Window,
    Other,
}

/// A host's NIC: it injects its flows' data and its ACKs. Flows that may send now wait in `ready` and take turns
/// (a flow that sends goes to the back); flows held only by their rate limit wait in `timers` until it runs out.
/// Both are kept up to date as flows change, so a pass costs the same however many flows the host has.
#[derive(Debug, Clone)]
pub struct HostState<C> {
    /// The channel its NIC sends on, if it has a link.
    channel: Option<ChannelId>,
    /// Flows that were ready when queued (checked again when they reach the front).
    ready: VecDeque<u32>,
    /// `(time its rate limit allows it, flow)`, earliest first; an entry is live only if it matches the flow's
    /// `timer_at`.
    timers: BinaryHeap<Reverse<(Time, u32)>>,
    /// ACKs waiting to be sent (they go before data), at most [`ACKS_OWED_PER_FLOW`] per flow.
    acks: VecDeque<PacketId>,
    /// The pending wake-up for a rate timer, and its generation (a newer wake cancels older ones).
    wake_at: Option<Time>,
    wake_gen: u32,
    /// With several data VLs, its NIC's VL arbiter (its link's arbitration, IBA §7.6.9): it picks the VL that
    /// sends next, and the VL's flows take turns.
    arbiter: VlArbiter,
    /// Its NIC's congestion control (what it is, this layer does not know).
    cc: C,
}

impl<C> HostState<C> {
    /// A host whose NIC sends on `channel` (none: a host without a link) with the VL arbiter of its link.
    pub fn new(channel: Option<ChannelId>, arbiter: VlArbiter, cc: C) -> Self {
        Self {
            channel,
            ready: VecDeque::new(),
            timers: BinaryHeap::new(),
            acks: VecDeque::new(),
            wake_at: None,
            wake_gen: 0,
            arbiter,
            cc,
        }
    }

    /// The channel its NIC sends on.
    #[inline]
    pub fn channel(&self) -> Option<ChannelId> {
        self.channel
    }

    /// The flows queued as ready, in turn order.
    #[inline]
    pub fn ready(&self) -> &VecDeque<u32> {
        &self.ready
    }

    /// The ACKs waiting to be sent, oldest first.
    #[inline]
    pub fn acks(&self) -> &VecDeque<PacketId> {
        &self.acks
    }

    #[inline]
    pub fn cc(&self) -> &C {
        &self.cc
    }

    #[inline]
    pub fn cc_mut(&mut self) -> &mut C {
        &mut self.cc
    }

    #[inline]
    pub fn arbiter(&self) -> &VlArbiter {
        &self.arbiter
    }

    /// Its VL arbiter chose `choice` for a packet of `blocks` blocks.
    #[inline]
    pub fn vl_sent(&mut self, choice: Choice, blocks: u32) {
        self.arbiter.sent(choice, blocks);
    }

    /// The earliest rate timer, if any (possibly stale: [`FlowState::timer_due`] says).
    #[inline]
    pub fn next_timer(&self) -> Option<(Time, u32)> {
        self.timers.peek().map(|&Reverse(t)| t)
    }

    /// Takes the earliest rate timer off.
    #[inline]
    pub fn pop_timer(&mut self) {
        self.timers.pop();
    }

    /// Takes the flow at `at` of the ready list off it.
    #[inline]
    fn take_ready(&mut self, at: usize) -> u32 {
        let f = if at == 0 { self.ready.pop_front() } else { self.ready.remove(at) };
        f.expect("a flow in the ready list")
    }

    /// The NIC should run a pass at `t`: returns the wake-up's generation if one must be scheduled (none is pending
    /// at or before `t`; a newer wake-up cancels older ones).
    pub fn wake_at(&mut self, t: Time) -> Option<u32> {
        if self.wake_at.is_some_and(|w| w <= t) {
            return None;
        }
        self.wake_gen = self.wake_gen.wrapping_add(1);
        self.wake_at = Some(t);
        Some(self.wake_gen)
    }

    /// A wake-up of generation `gen` ran out: whether it is the live one (then none is pending any more).
    pub fn woken(&mut self, gen: u32) -> bool {
        if self.wake_gen != gen {
            return false;
        }
        self.wake_at = None;
        true
    }

    /// The ACK at the front of the queue goes out: off the queue, and off its flow's owed ACKs.
    pub fn send_ack<F>(&mut self, flow: &mut FlowState<F>) -> PacketId {
        let ack = self.acks.pop_front().expect("an ACK to send");
        flow.owed_acks -= 1;
        if flow.last_owed_ack == Some(ack) {
            flow.last_owed_ack = None;
        }
        ack
    }

    /// Queues `ack` for `flow`, behind the other ACKs.
    pub fn owe_ack<F>(&mut self, flow: &mut FlowState<F>, ack: PacketId) {
        flow.owed_acks += 1;
        flow.last_owed_ack = Some(ack);
        self.acks.push_back(ack);
    }

    /// Puts flow `f` where this NIC will find it: in the ready list if it may send now, under a rate timer if only
    /// its rate limit holds it back, nowhere if it is off or its window is full (`window_open` false: an ACK or its
    /// next ON period enlists it again).
    pub fn enlist<F>(&mut self, f: u32, flow: &mut FlowState<F>, window_open: bool, now: Time) {
        if !flow.active || !window_open {
            return;
        }
        let t = flow.rate_ok_at;
        if t <= now {
            if !flow.in_ready {
                flow.in_ready = true;
                self.ready.push_back(f);
            }
        } else if flow.timer_at.is_none_or(|at| t < at) {
            flow.timer_at = Some(t);
            self.timers.push(Reverse((t, f)));
        }
    }

    /// Takes the flow at `at` of the ready list off it (it changed since it was queued, or it sends).
    #[inline]
    pub fn dequeue<F>(&mut self, at: usize, flow: &mut FlowState<F>) {
        self.take_ready(at);
        flow.in_ready = false;
    }
}

/// A flow's source side.
#[derive(Debug, Clone)]
pub struct FlowState<C> {
    src: NodeId,
    dst: NodeId,
    /// Host slot of the source.
    host: u32,
    /// Inside `[start, stop)` and, for ON/OFF traffic, in an ON period.
    active: bool,
    /// Its packets are acknowledged (reliable transport); otherwise no ACKs and no window, and a marked packet
    /// brings a CN packet back (`scenario::Transport`).
    reliable: bool,
    /// The data VL its packets travel on (its SL's, `scenario::VirtualLanes`).
    lane: Lane,
    outstanding: u32,
    /// Packets of earlier ON periods still unacknowledged (not limited by this flow's window).
    stale_outstanding: u32,
    next_psn: u32,
    /// The first PSN of the current ON period's flow; ACKs for earlier PSNs are stale.
    epoch_psn: u32,
    /// Start of the last injection.
    last_start: Option<Time>,
    /// When the rate limit next allows an injection: `last_start + gap(rate)`, kept up to date whenever either
    /// changes (the NIC asks on every pass).
    rate_ok_at: Time,
    /// When the window last opened (an ACK freed a slot).
    window_open_at: Time,
    /// Queued in its host's `ready` list.
    in_ready: bool,
    /// The time of its live entry in its host's `timers`.
    timer_at: Option<Time>,
    /// Cancels stale ON/OFF toggles.
    toggle_gen: u32,
    /// ACK packets its destination host holds for it, not yet sent, and the newest of them.
    owed_acks: u32,
    last_owed_ack: Option<PacketId>,
    /// With ACK coalescing: data packets its destination received and has not ACKed yet, from `unacked_psn` on.
    unacked: u32,
    unacked_psn: u32,
    rng: Rng,
    /// Its source's congestion control (what it is, this layer does not know).
    cc: C,
}

/// What an acknowledgement means to its flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Acked {
    /// For a packet of an earlier ON period: it concerns this one no more.
    Stale,
    /// For one of its packets: one fewer outstanding.
    Fresh,
}

impl<C> FlowState<C> {
    /// A flow from `src` (host slot `host`) to `dst` on `lane`, off until it starts, with its random stream and its
    /// congestion control as new.
    pub fn new(src: NodeId, dst: NodeId, host: u32, reliable: bool, lane: Lane, rng: Rng, cc: C) -> Self {
        Self {
            src,
            dst,
            host,
            active: false,
            reliable,
            lane,
            outstanding: 0,
            stale_outstanding: 0,
            next_psn: 0,
            epoch_psn: 0,
            last_start: None,
            rate_ok_at: 0,
            window_open_at: 0,
            in_ready: false,
            timer_at: None,
            toggle_gen: 0,
            owed_acks: 0,
            last_owed_ack: None,
            unacked: 0,
            unacked_psn: 0,
            rng,
            cc,
        }
    }

    #[inline]
    pub fn src(&self) -> NodeId {
        self.src
    }

    #[inline]
    pub fn dst(&self) -> NodeId {
        self.dst
    }

    /// Its source's host slot.
    #[inline]
    pub fn host(&self) -> u32 {
        self.host
    }

    #[inline]
    pub fn active(&self) -> bool {
        self.active
    }

    #[inline]
    pub fn reliable(&self) -> bool {
        self.reliable
    }

    #[inline]
    pub fn lane(&self) -> Lane {
        self.lane
    }

    /// Its packets not yet acknowledged in this ON period.
    #[inline]
    pub fn outstanding(&self) -> u32 {
        self.outstanding
    }

    /// Its packets of earlier ON periods not yet acknowledged.
    #[inline]
    pub fn stale_outstanding(&self) -> u32 {
        self.stale_outstanding
    }

    #[inline]
    pub fn rate_ok_at(&self) -> Time {
        self.rate_ok_at
    }

    /// When it last started a packet.
    #[inline]
    pub fn last_start(&self) -> Option<Time> {
        self.last_start
    }

    /// The ACK packets its destination holds for it, and the newest of them.
    #[inline]
    pub fn owed_acks(&self) -> (u32, Option<PacketId>) {
        (self.owed_acks, self.last_owed_ack)
    }

    /// With ACK coalescing: packets its destination received and has not ACKed yet.
    #[inline]
    pub fn unacked(&self) -> u32 {
        self.unacked
    }

    #[inline]
    pub fn toggle_gen(&self) -> u32 {
        self.toggle_gen
    }

    #[inline]
    pub fn rng(&mut self) -> &mut Rng {
        &mut self.rng
    }

    #[inline]
    pub fn cc(&self) -> &C {
        &self.cc
    }

    #[inline]
    pub fn cc_mut(&mut self) -> &mut C {
        &mut self.cc
    }

    /// Whether it may send at `now` as far as it knows: on, its window open (`window_open`) and its rate allows it.
    #[inline]
    pub fn may_send(&self, window_open: bool, now: Time) -> bool {
        self.active && window_open && self.rate_ok_at <= now
    }

    /// Its rate limit allows a packet `gap` after its last start (recomputed after each send and each change of
    /// rate).
    #[inline]
    pub fn rate_gap(&mut self, gap: Time) {
        self.rate_ok_at = self.last_start.map_or(0, |t| t.saturating_add(gap));
    }

    /// Whether its rate timer entry `(t, self)` is the live one; if so it is used up.
    #[inline]
    pub fn timer_due(&mut self, t: Time) -> bool {
        if self.timer_at == Some(t) {
            self.timer_at = None;
            true
        } else {
            false
        }
    }

    /// It starts a packet at `now`: returns the packet's PSN and what held it back last (the HP slides' RWL: the
    /// window if it opened last, the rate timer if that ran out last, or something else, the NIC, credits or other
    /// flows, if both were already satisfied).
    pub fn send(&mut self, now: Time) -> (u32, Limiter) {
        let (rate_ok_at, window_ok_at) = (self.rate_ok_at, self.window_open_at);
        let limiter = if rate_ok_at.max(window_ok_at) < now {
            Limiter::Other
        } else if window_ok_at >= rate_ok_at {
            Limiter::Window
        } else {
            Limiter::Rate
        };
        let psn = self.next_psn;
        self.next_psn = self.next_psn.wrapping_add(1);
        self.last_start = Some(now);
        if self.reliable {
            self.outstanding += 1;
        }
        (psn, limiter)
    }

    /// The PSN it sends next.
    #[inline]
    pub fn next_psn(&self) -> u32 {
        self.next_psn
    }

    /// Whether `psn` belongs to an earlier ON period (an acknowledgement for it concerns this one no more).
    #[inline]
    pub fn is_stale(&self, psn: u32) -> bool {
        psn.wrapping_sub(self.epoch_psn) >= self.next_psn.wrapping_sub(self.epoch_psn)
    }

    /// The acknowledgement of its packet `psn` reached it at `now`; `window_was_full`: its window held it back
    /// before (the window opens now).
    pub fn acked(&mut self, psn: u32, window_was_full: bool, now: Time) -> Acked {
        if self.is_stale(psn) {
            // An ACK for a previous ON period's flow: it no longer concerns this one (INFOCOM'03 §VI-B.2:
            // without persistent state each ON period is a new flow).
            self.stale_outstanding -= 1;
            return Acked::Stale;
        }
        if window_was_full {
            self.window_open_at = now;
        }
        self.outstanding -= 1;
        Acked::Fresh
    }

    /// An ON period begins: `fresh` replaces its congestion control as a new flow's (no persistent state: its
    /// outstanding packets become the old flow's, and their ACKs stale).
    pub fn turn_on(&mut self, fresh: Option<C>) {
        if let Some(cc) = fresh.filter(|_| self.last_start.is_some()) {
            self.cc = cc;
            self.stale_outstanding += self.outstanding;
            self.outstanding = 0;
            self.epoch_psn = self.next_psn;
        }
        self.active = true;
    }

    /// It stops offering traffic.
    pub fn turn_off(&mut self) {
        self.active = false;
    }

    /// With ACK coalescing, its destination received packet `psn`: counts it among those not yet ACKed, and if
    /// `ack_now` or `every` are reached, returns the first PSN and the count the ACK covers (then none is unACKed).
    pub fn received(&mut self, psn: u32, ack_now: bool, every: u32) -> Option<(u32, u32)> {
        if self.unacked == 0 {
            self.unacked_psn = psn;
        }
        debug_assert_eq!(self.unacked_psn.wrapping_add(self.unacked), psn, "a flow's packets arrive in order");
        self.unacked += 1;
        (ack_now || self.unacked >= every).then(|| (self.unacked_psn, core::mem::take(&mut self.unacked)))
    }
}
