//! The observer seam: what happens in a run, told to whoever watches it. The simulation calls an [`Observer`] passed
//! in from outside (`()` when nobody watches, as rapier passes its event handler into each step), so what is
//! measured, plotted or fingerprinted never changes how the run goes, and a new measurement changes no model code.
//! The results report ([`Report`](super::Report)), the golden fingerprint ([`Fingerprint`](super::Fingerprint)) and
//! the page's sampled series are observers.
//!
//! Every hook has a no-op default and is called with the time it happens at. Observers are static types: with `()`
//! the calls compile away.

use super::{EventKind, Simulation};
use crate::net::packet::Lane;
use crate::net::topology::{ChannelId, PortId};
use crate::time::Time;

/// A packet (data, an ACK or a CN packet: `lane`) starting on `channel` at `now`; its tail leaves at `ends`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sent {
    pub channel: ChannelId,
    pub lane: Lane,
    /// A data packet carrying the ECN bit.
    pub marked: bool,
    pub now: Time,
    pub ends: Time,
    /// Since when the transmitter had been waiting for credit with nothing else able to go, if it had: the stall
    /// this start ends.
    pub stalled_since: Option<Time>,
}

/// What a run tells its observers. Flows and channels are numbered as in the scenario and the topology; switches
/// by their order among the scenario's switches.
pub trait Observer {
    /// An event of `kind` is handled: `queued`, it came through the event queue; else it happened across a link
    /// without propagation delay and was handled at once (both count in [`Simulation::events`]).
    fn on_event(&mut self, _kind: EventKind, _queued: bool) {}
    /// A packet starts on a channel (ending the transmitter's credit stall, if it had one).
    fn on_send(&mut self, _sent: &Sent) {}
    /// With several data VLs: data VL `vl` of `channel`, which had been waiting for credit since `since`, gets it
    /// or starts a packet at `now`, or has no packet ready any more.
    fn on_vl_stall_end(&mut self, _channel: ChannelId, _vl: u8, _since: Time, _now: Time) {}
    /// `channel`'s transmitter, waiting for credit since `since`, has no packet ready any more at `now` (a host
    /// whose flows stopped or are held back by their rates): its credit stall ends with no packet started. (A
    /// stall that a start ends is told by [`Observer::on_send`].)
    fn on_stall_end(&mut self, _channel: ChannelId, _since: Time, _now: Time) {}
    /// A data packet is marked (ECN, or Annex A10's FECN) for `channel`'s transmitter.
    fn on_mark(&mut self, _channel: ChannelId, _now: Time) {}
    /// Flow `flow` starts a data packet at `now`; it occupies the source link until `ends`.
    fn on_inject(&mut self, _flow: u32, _now: Time, _ends: Time) {}
    /// A data packet of `flow`, injected at `injected_at`, reaches its destination at `now`.
    fn on_deliver(&mut self, _flow: u32, _injected_at: Time, _now: Time) {}
    /// The acknowledgement of one of `flow`'s packets reaches its source at `now` (one call per packet a
    /// coalesced ACK covers); `marked`: it echoes the ECN bit (BECN).
    fn on_ack(&mut self, _flow: u32, _marked: bool, _now: Time) {}
    /// A CN packet (an unreliable flow's congestion notification) reaches `flow`'s source at `now`.
    fn on_cn(&mut self, _flow: u32, _now: Time) {}
    /// The data held by input `port` of switch `switch` (every data VL) changes from `before` to `after` credit
    /// blocks at `now`.
    fn on_occupancy(&mut self, _switch: u32, _port: PortId, _before: u32, _after: u32, _now: Time) {}
    /// When this observer next wants to look at the whole network ([`Observer::sample`]): the run stops there,
    /// after every event at that time. `Time::MAX`: never.
    fn next_sample(&self) -> Time {
        Time::MAX
    }
    /// The run has reached the time [`Observer::next_sample`] asked for.
    fn sample(&mut self, _sim: &Simulation) {}
}

/// Nobody watches.
impl Observer for () {}

/// Two observers, told the same things in turn.
impl<A: Observer, B: Observer> Observer for (A, B) {
    #[inline]
    fn on_event(&mut self, kind: EventKind, queued: bool) {
        self.0.on_event(kind, queued);
        self.1.on_event(kind, queued);
    }
    #[inline]
    fn on_send(&mut self, sent: &Sent) {
        self.0.on_send(sent);
        self.1.on_send(sent);
    }
    #[inline]
    fn on_vl_stall_end(&mut self, channel: ChannelId, vl: u8, since: Time, now: Time) {
        self.0.on_vl_stall_end(channel, vl, since, now);
        self.1.on_vl_stall_end(channel, vl, since, now);
    }
    #[inline]
    fn on_stall_end(&mut self, channel: ChannelId, since: Time, now: Time) {
        self.0.on_stall_end(channel, since, now);
        self.1.on_stall_end(channel, since, now);
    }
    #[inline]
    fn on_mark(&mut self, channel: ChannelId, now: Time) {
        self.0.on_mark(channel, now);
        self.1.on_mark(channel, now);
    }
    #[inline]
    fn on_inject(&mut self, flow: u32, now: Time, ends: Time) {
        self.0.on_inject(flow, now, ends);
        self.1.on_inject(flow, now, ends);
    }
    #[inline]
    fn on_deliver(&mut self, flow: u32, injected_at: Time, now: Time) {
        self.0.on_deliver(flow, injected_at, now);
        self.1.on_deliver(flow, injected_at, now);
    }
    #[inline]
    fn on_ack(&mut self, flow: u32, marked: bool, now: Time) {
        self.0.on_ack(flow, marked, now);
        self.1.on_ack(flow, marked, now);
    }
    #[inline]
    fn on_cn(&mut self, flow: u32, now: Time) {
        self.0.on_cn(flow, now);
        self.1.on_cn(flow, now);
    }
    #[inline]
    fn on_occupancy(&mut self, switch: u32, port: PortId, before: u32, after: u32, now: Time) {
        self.0.on_occupancy(switch, port, before, after, now);
        self.1.on_occupancy(switch, port, before, after, now);
    }
    fn next_sample(&self) -> Time {
        self.0.next_sample().min(self.1.next_sample())
    }
    fn sample(&mut self, sim: &Simulation) {
        if self.0.next_sample() <= sim.now() {
            self.0.sample(sim);
        }
        if self.1.next_sample() <= sim.now() {
            self.1.sample(sim);
        }
    }
}

/// An observer or none (a fingerprint kept only when asked for).
impl<T: Observer> Observer for Option<T> {
    #[inline]
    fn on_event(&mut self, kind: EventKind, queued: bool) {
        if let Some(o) = self {
            o.on_event(kind, queued);
        }
    }
    #[inline]
    fn on_send(&mut self, sent: &Sent) {
        if let Some(o) = self {
            o.on_send(sent);
        }
    }
    #[inline]
    fn on_vl_stall_end(&mut self, channel: ChannelId, vl: u8, since: Time, now: Time) {
        if let Some(o) = self {
            o.on_vl_stall_end(channel, vl, since, now);
        }
    }
    #[inline]
    fn on_stall_end(&mut self, channel: ChannelId, since: Time, now: Time) {
        if let Some(o) = self {
            o.on_stall_end(channel, since, now);
        }
    }
    #[inline]
    fn on_mark(&mut self, channel: ChannelId, now: Time) {
        if let Some(o) = self {
            o.on_mark(channel, now);
        }
    }
    #[inline]
    fn on_inject(&mut self, flow: u32, now: Time, ends: Time) {
        if let Some(o) = self {
            o.on_inject(flow, now, ends);
        }
    }
    #[inline]
    fn on_deliver(&mut self, flow: u32, injected_at: Time, now: Time) {
        if let Some(o) = self {
            o.on_deliver(flow, injected_at, now);
        }
    }
    #[inline]
    fn on_ack(&mut self, flow: u32, marked: bool, now: Time) {
        if let Some(o) = self {
            o.on_ack(flow, marked, now);
        }
    }
    #[inline]
    fn on_cn(&mut self, flow: u32, now: Time) {
        if let Some(o) = self {
            o.on_cn(flow, now);
        }
    }
    #[inline]
    fn on_occupancy(&mut self, switch: u32, port: PortId, before: u32, after: u32, now: Time) {
        if let Some(o) = self {
            o.on_occupancy(switch, port, before, after, now);
        }
    }
    fn next_sample(&self) -> Time {
        self.as_ref().map_or(Time::MAX, Observer::next_sample)
    }
    fn sample(&mut self, sim: &Simulation) {
        if let Some(o) = self {
            o.sample(sim);
        }
    }
}

/// An observer lent to a step (so a caller keeps its own and can pair it with another).
impl<T: Observer + ?Sized> Observer for &mut T {
    #[inline]
    fn on_event(&mut self, kind: EventKind, queued: bool) {
        (**self).on_event(kind, queued);
    }
    #[inline]
    fn on_send(&mut self, sent: &Sent) {
        (**self).on_send(sent);
    }
    #[inline]
    fn on_vl_stall_end(&mut self, channel: ChannelId, vl: u8, since: Time, now: Time) {
        (**self).on_vl_stall_end(channel, vl, since, now);
    }
    #[inline]
    fn on_stall_end(&mut self, channel: ChannelId, since: Time, now: Time) {
        (**self).on_stall_end(channel, since, now);
    }
    #[inline]
    fn on_mark(&mut self, channel: ChannelId, now: Time) {
        (**self).on_mark(channel, now);
    }
    #[inline]
    fn on_inject(&mut self, flow: u32, now: Time, ends: Time) {
        (**self).on_inject(flow, now, ends);
    }
    #[inline]
    fn on_deliver(&mut self, flow: u32, injected_at: Time, now: Time) {
        (**self).on_deliver(flow, injected_at, now);
    }
    #[inline]
    fn on_ack(&mut self, flow: u32, marked: bool, now: Time) {
        (**self).on_ack(flow, marked, now);
    }
    #[inline]
    fn on_cn(&mut self, flow: u32, now: Time) {
        (**self).on_cn(flow, now);
    }
    #[inline]
    fn on_occupancy(&mut self, switch: u32, port: PortId, before: u32, after: u32, now: Time) {
        (**self).on_occupancy(switch, port, before, after, now);
    }
    fn next_sample(&self) -> Time {
        (**self).next_sample()
    }
    fn sample(&mut self, sim: &Simulation) {
        (**self).sample(sim);
    }
}
