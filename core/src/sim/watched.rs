//! The observer of callers built for size (the page's simulation worker): the report, the golden fingerprint when
//! kept, and a sampler of the caller's own (the page's series), with a stepping entry point that is not generic.
//! The event loop is generic over its observer, so it is compiled where it is instantiated, with that crate's
//! optimization; [`Simulation::step_watched`] instantiates it here, so a caller built for size still runs the
//! simulator built for speed (the worker's web crate is optimized for size: `Cargo.toml`'s `wasm-release`).

use super::fingerprint::Fingerprint;
use super::observe::{Observer, Sent};
use super::{Report, Simulation};
use crate::net::topology::{ChannelId, PortId};
use crate::time::Time;

/// Something that looks at the whole run at the times it asks for, with the report beside it.
pub trait Sampler {
    /// When it next wants to look (`Time::MAX`: never).
    fn next_sample(&self) -> Time;
    /// The run has reached that time.
    fn sample(&mut self, sim: &Simulation, report: &Report);
}

/// The report if kept, a fingerprint if kept, and a sampler if any (it samples with the report): told of every
/// event (the first two) and sampled. (A GPCNeT run keeps none, the workload's runtime having its figures; it steps
/// through here all the same, so the worker carries one copy of the event loop.)
#[derive(Debug)]
pub struct Watched<'a> {
    pub report: Option<&'a mut Report>,
    pub fingerprint: Option<&'a mut Fingerprint>,
    pub sampler: Option<&'a mut dyn Sampler>,
}

impl core::fmt::Debug for dyn Sampler + '_ {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Sampler")
    }
}

impl Observer for Watched<'_> {
    #[inline]
    fn on_send(&mut self, sent: &Sent) {
        self.report.on_send(sent);
        self.fingerprint.on_send(sent);
    }
    #[inline]
    fn on_vl_stall_end(&mut self, channel: ChannelId, vl: u8, since: Time, now: Time) {
        self.report.on_vl_stall_end(channel, vl, since, now);
        self.fingerprint.on_vl_stall_end(channel, vl, since, now);
    }
    #[inline]
    fn on_stall_end(&mut self, channel: ChannelId, since: Time, now: Time) {
        self.report.on_stall_end(channel, since, now);
        self.fingerprint.on_stall_end(channel, since, now);
    }
    #[inline]
    fn on_mark(&mut self, channel: ChannelId, now: Time) {
        self.report.on_mark(channel, now);
        self.fingerprint.on_mark(channel, now);
    }
    #[inline]
    fn on_inject(&mut self, flow: u32, now: Time, ends: Time) {
        self.report.on_inject(flow, now, ends);
        self.fingerprint.on_inject(flow, now, ends);
    }
    #[inline]
    fn on_deliver(&mut self, flow: u32, injected_at: Time, now: Time) {
        self.report.on_deliver(flow, injected_at, now);
        self.fingerprint.on_deliver(flow, injected_at, now);
    }
    #[inline]
    fn on_ack(&mut self, flow: u32, marked: bool, now: Time) {
        self.report.on_ack(flow, marked, now);
        self.fingerprint.on_ack(flow, marked, now);
    }
    #[inline]
    fn on_cn(&mut self, flow: u32, now: Time) {
        self.report.on_cn(flow, now);
        self.fingerprint.on_cn(flow, now);
    }
    #[inline]
    fn on_occupancy(&mut self, switch: u32, port: PortId, before: u32, after: u32, now: Time) {
        self.report.on_occupancy(switch, port, before, after, now);
        self.fingerprint.on_occupancy(switch, port, before, after, now);
    }
    fn next_sample(&self) -> Time {
        let sampler = self.sampler.as_ref().map_or(Time::MAX, |s| s.next_sample());
        sampler.min(self.report.next_sample())
    }
    fn sample(&mut self, sim: &Simulation) {
        if self.report.next_sample() <= sim.now() {
            self.report.sample(sim);
        }
        if let Some(s) = &mut self.sampler {
            if let Some(report) = self.report.as_deref() {
                if s.next_sample() <= sim.now() {
                    s.sample(sim, report);
                }
            }
        }
    }
}

impl Simulation {
    /// [`Simulation::step_until`] for a [`Watched`] observer, compiled here (see the module's note).
    pub fn step_watched(&mut self, t: Time, max_events: u64, watched: &mut Watched<'_>) -> u64 {
        self.step_until(t, max_events, watched)
    }
}
