//! The simulation: the network of docs/model.md §1–6 driven by the event engine, with the measurements of §9.
//!
//! The driving API is shared by the page, the CLI and the tests: [`Simulation::new`] builds a run from a scenario,
//! [`Simulation::run_until`] and [`Simulation::step_until`] advance it in bounded pieces, telling an [`Observer`]
//! what happens. The [`Report`] is the observer that measures: its [`Report::results`] and [`Report::snapshot`] (a
//! small render-ready picture of the present). [`Run`] is a simulation with its report, for the common case.
//!
//! How a data packet moves (all times exact integers):
//! 1. its source host's NIC starts it when the flow's window and rate limit allow, the link is idle and the first
//!    switch's input buffer has credit for it (INFOCOM'03 §IV-B; flows of one host take turns);
//! 2. its head reaches the next switch one propagation delay later and enters that input buffer (ECN counters and
//!    full-buffer triggers, Globecom'02 §IV); it may leave after the forwarding delay (cut-through), when its output
//!    is idle, the next buffer has credit and its input buffer is not already sending `input_transfers` packets (no
//!    limit by default); the oldest such packet goes first (or, with `switch.arbitration: round_robin`, the inputs
//!    take turns), younger packets of a buffer may bypass an older one that cannot go, the buffer's head at most
//!    `max_bypass` times (INFOCOM'03 footnote 6);
//! 3. when its tail has left a buffer, the credit goes back upstream (one propagation delay);
//! 4. the destination host absorbs it when its tail arrives and returns an ACK that echoes its ECN bit, on the ACK
//!    lane, which each link serves before its next data packet (docs/model.md §5);
//! 5. the ACK changes the source's rate limit and window (INFOCOM'03 §V).

mod build;
pub mod congestion_impact;
mod deadlock;
mod event_counts;
mod events;
mod fingerprint;
mod flow_paths;
mod hosts;
mod invariants;
mod lookahead;
mod measurement;
mod messages;
mod nic;
mod observe;
pub mod pattern_load;
mod report;
mod results;
mod retune;
mod run;
mod snapshot;
mod switching;
mod transmit;
mod watched;

pub use deadlock::{Deadlock, CHECK_EVERY_PS as DEADLOCK_CHECK_EVERY_PS};
pub use event_counts::EventCounts;
pub use events::EventKind;
pub use fingerprint::Fingerprint;
pub use measurement::{MeasureError, Measurement, Metric};
pub use observe::{Observer, Sent};
pub use report::Report;
pub use results::{BufferResult, ControlFactor, FlowResult, GroupResult, LinkResult, Results, Totals};
pub use retune::{needs_restart, NeedsRestart};
pub use run::Run;
pub use snapshot::{BufferSnapshot, FlowSnapshot, LinkSnapshot, Snapshot};
pub use watched::{Sampler, Watched};

use crate::cc::{NicCc, SourceCc, SourceControl, SwitchCc};
use crate::engine::Queue;
use crate::net::channel::ChannelState;
use crate::net::host::{FlowState, HostState};
use crate::net::packet::PacketPool;
use crate::net::switch::SwitchState;
use crate::net::topology::{ChannelId, NodeId, Topology};
use crate::rng::Rng;
use crate::scenario::Scenario;
use crate::time::{Time, NS};
use crate::workload::Runtime;
use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use events::Event;

/// Packets counted over the whole run: what the network's conservation rests on (`check_invariants`) and what the
/// results' totals report.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    pub injected: u64,
    pub delivered: u64,
    /// Packets that found no room in a buffer. Credit flow control makes this impossible; it is counted, not
    /// assumed, so a bug would show.
    pub dropped: u64,
    pub marked: u64,
    /// Data packets whose acknowledgement reached their source.
    pub acks_delivered: u64,
    /// ACK packets the destinations sent.
    pub acks_sent: u64,
    /// Unreliable flows' data packets injected and delivered (they are never acknowledged).
    pub unreliable_injected: u64,
    pub unreliable_delivered: u64,
    /// CN packets sent by destinations and delivered to sources.
    pub cn_sent: u64,
    pub cn_delivered: u64,
}

/// A running (or finished) simulation: the network's state (`net`), each switch's, host's and flow's congestion
/// control in its slot (`cc`), the packet counts, and the event loop that ties them together. What is measured is
/// not here: an [`Observer`] passed to each step hears of it. A clone is an exact copy of the run at its present
/// time: running both on gives the same results (the page keeps clones as checkpoints, to go back in time).
#[derive(Debug, Clone)]
pub struct Simulation {
    scenario: Scenario,
    /// Shared by clones (the page's checkpoints): it never changes during a run, and is most of a fabric's memory.
    topo: Rc<Topology>,
    /// Each flow's ports, from `topo`'s tables when those do not fit in cache (shared by clones too). Such a run also
    /// looks ahead (`lookahead.rs`).
    paths: Option<Rc<flow_paths::FlowPaths>>,
    queue: Queue<Event>,
    packets: PacketPool,
    channels: Vec<ChannelState>,
    /// Per node: its index in `switches` or `hosts`.
    node_slot: Vec<u32>,
    switches: Vec<SwitchState<SwitchCc>>,
    hosts: Vec<HostState<NicCc>>,
    flows: Vec<FlowState<SourceCc>>,
    /// Data VLs per port.
    vls: u8,
    /// Some NIC has congestion control (its hooks are skipped otherwise: they are on every data credit).
    nic_on: bool,
    /// ACK coalescing: a destination ACKs at least every this many data packets (0: every packet, on its own).
    ack_every: u32,
    /// Each flow's congestion control as a new flow has it (an ON period without persistent state starts over).
    fresh_cc: Vec<SourceCc>,
    /// Per flow: its data packets' serialization time on its source link (one packet time at `Rmax`).
    packet_time: Vec<Time>,
    data_blocks: u32,
    ack_blocks: u32,
    end: Time,
    counts: Counts,
    /// Events handled the moment they happened instead of through the queue: a head arrival, a credit or a delivery
    /// across a link without propagation delay (with a delay they are queued like any other event).
    immediate: u64,
    /// What the routing engine said of this network (a fallback to minhop, updn's roots).
    routing_notes: Vec<String>,
    /// The SLs the routing engine gave host pairs (dfsssp), sorted by pair.
    routing_lanes: Vec<(NodeId, NodeId, u8)>,
    /// The deadlock that stopped the run, if one did; and when to look for one next.
    deadlock: Option<Deadlock>,
    next_deadlock_check: Time,
    /// A message workload's processes and queue pairs, if the run has one (`messages.rs`); its pairs' flows are
    /// the flows from `first_pair_flow` on (`u32::MAX`: none).
    workload: Option<Box<Runtime>>,
    first_pair_flow: u32,
}

impl Simulation {
    /// The scenario this run was built from.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The network's topology and routes.
    pub fn topology(&self) -> &Topology {
        &self.topo
    }

    /// What the routing engine said of this network: updn's roots, or that it fell back to minhop as OpenSM does.
    pub fn routing_notes(&self) -> &[String] {
        &self.routing_notes
    }

    /// The data VL flow `i`'s packets travel on (its SL's, its own or dfsssp's).
    pub fn flow_vl(&self, i: usize) -> u8 {
        self.flows[i].lane().vl().expect("a flow's packets are data")
    }

    /// The deadlock that stopped the run early, if one did (`deadlock.rs`).
    pub fn deadlock(&self) -> Option<&Deadlock> {
        self.deadlock.as_ref()
    }

    /// The current simulated time.
    pub fn now(&self) -> Time {
        self.queue.now()
    }

    /// The end of the run (`duration_ns`).
    pub fn end(&self) -> Time {
        self.end
    }

    /// Whether the run has reached its end.
    pub fn is_finished(&self) -> bool {
        self.queue.now() >= self.end
    }

    /// Packets counted so far.
    pub fn counts(&self) -> &Counts {
        &self.counts
    }

    /// Directed channel `c`'s state now.
    pub fn channel(&self, c: ChannelId) -> &ChannelState {
        &self.channels[c as usize]
    }

    /// The switches, in the scenario's order.
    pub fn switches(&self) -> &[SwitchState<SwitchCc>] {
        &self.switches
    }

    /// Flow `i`'s source side now.
    pub fn flow(&self, i: usize) -> &FlowState<SourceCc> {
        &self.flows[i]
    }

    /// Flow `i`'s data packets' serialization time on its source link.
    pub fn packet_time(&self, i: usize) -> Time {
        self.packet_time[i]
    }

    /// Flow `i`'s rate limit now, as a fraction of its link: its congestion control's effective rate (the one
    /// place it is computed; the results and the snapshots both read it).
    pub fn rate_limit(&self, i: usize) -> f64 {
        self.flows[i].cc().rate(self.packet_time[i], self.queue.now())
    }

    /// A data packet's size in credit blocks.
    pub fn data_blocks(&self) -> u32 {
        self.data_blocks
    }

    /// Data VLs per port.
    pub fn vls(&self) -> u8 {
        self.vls
    }

    /// Whether destinations coalesce ACKs.
    pub fn coalesces_acks(&self) -> bool {
        self.ack_every > 0
    }

    /// Events processed so far: every head arrival, end of transmission, credit, delivery, timer... whether it went
    /// through the event queue or, across a link without propagation delay, was handled the moment it happened. So
    /// the count does not depend on that shortcut (a 1 ns delay queues the same events).
    pub fn events(&self) -> u64 {
        self.queue.processed() + self.immediate
    }

    /// What the run holds that grows with its traffic rather than with its network: packets stored (data in flight,
    /// ACKs owed or in flight) and events pending. Bounded whatever the links do (hosts coalesce the ACKs they owe:
    /// `net::host::ACKS_OWED_PER_FLOW`), so memory stays flat over a long run.
    pub fn held(&self) -> (u64, u64) {
        let packets = u64::from(self.packets.live(false)) + u64::from(self.packets.live(true));
        (packets, self.queue.pending() as u64)
    }

    /// The part of [`Simulation::events`] that went through the event queue.
    pub fn queued_events(&self) -> u64 {
        self.queue.processed()
    }

    /// The width of the event queue's buckets in picoseconds (chosen for the network when it was built).
    pub fn event_bucket(&self) -> Time {
        self.queue.bucket()
    }

    /// Processes every event at or before `t` (a run covers `[0, duration)`: nothing at or after its end), then sets
    /// the clock to `t` (at most the end). `obs` hears of what happens.
    pub fn run_until(&mut self, t: Time, obs: &mut impl Observer) {
        self.step_until(t, u64::MAX, obs);
    }

    /// Runs to the end.
    pub fn run(&mut self, obs: &mut impl Observer) {
        self.run_until(self.end, obs);
    }

    /// Processes at most `max_events` queued events at or before `t` (and before the end of the run), each with the
    /// immediate ones it sets off; when none are left before `t` (also when the last one allowed was the last one
    /// there), sets the clock to `t`. Returns how many it processed. The page uses this for a frame: bounded work,
    /// and never past the simulated time the frame should reach. `obs` hears of what happens, and is sampled at the
    /// times it asks for, after every event at that time (an overdue sample at the present time).
    pub fn step_until(&mut self, t: Time, max_events: u64, obs: &mut impl Observer) -> u64 {
        let t = t.min(self.end);
        let last = self.end.saturating_sub(1);
        let mut done = 0;
        let mut sampled = None;
        loop {
            let now = self.queue.now();
            let mut next = obs.next_sample();
            if sampled == Some(now) && next <= now {
                next = Time::MAX; // (it asked again for a time it has had: it is not sampled twice)
            }
            let stop = t.min(next.max(now)).min(self.next_deadlock_check.max(now));
            if max_events == u64::MAX {
                // (Unbounded, as `run_until` asks: the tightest loop, uncounted.)
                while self.dispatch_until(stop, obs) {}
            } else {
                while done < max_events && self.dispatch_until(stop, obs) {
                    done += 1;
                }
            }
            if done >= max_events && self.queue.peek_time().is_some_and(|e| e <= stop.min(last) && self.end > 0) {
                return done;
            }
            if stop > self.queue.now() {
                self.queue.advance_to(stop);
            }
            let at_end = stop >= self.end;
            if self.next_deadlock_check <= stop || (at_end && self.next_deadlock_check != Time::MAX) {
                self.next_deadlock_check = if at_end { Time::MAX } else { stop + deadlock::CHECK_EVERY_PS };
                if let Some(d) = self.find_deadlock() {
                    // Nothing in the cycle can move again: the run ends here, and says why.
                    self.deadlock = Some(d);
                    self.end = stop;
                }
            }
            if next <= stop {
                obs.sample(self);
                sampled = Some(stop);
            }
            if stop >= t || self.deadlock.is_some() {
                return done;
            }
        }
    }

    /// Processes the next event if it is at or before `t` and before the end of the run; false if there is none.
    fn dispatch_until(&mut self, t: Time, obs: &mut impl Observer) -> bool {
        let Some(limit) = self.end.checked_sub(1) else { return false };
        let Some((_, event)) = self.queue.pop_until(t.min(limit)) else { return false };
        if cfg!(target_arch = "x86_64") && self.paths.is_some() {
            // (A large fabric's, where the processor can be asked to bring memory in: `lookahead.rs`.)
            self.look_ahead();
        }
        obs.on_event(event.kind(), true);
        match event {
            Event::Eligible { node } => self.switch_pass_unless_calm(self.node_slot[node as usize] as usize, obs),
            Event::TxEnd { channel } => self.on_tx_end(channel, obs),
            Event::Arrive { channel, packet } => self.arrive(channel, packet, obs),
            Event::Received { node, port, lane, packet } => self.received(node, port, lane, packet, obs),
            Event::Deliver { channel, packet } => self.deliver(channel, packet, obs),
            Event::Credit { channel, lane, blocks } => self.on_credit(channel, lane, blocks, obs),
            Event::HostWake { host, gen } => self.on_host_wake(host, gen, obs),
            Event::FlowOn { flow, gen } => self.on_flow_on(flow, gen, obs),
            Event::FlowOff { flow, gen } => self.on_flow_off(flow, gen, obs),
            Event::Process { process } => self.on_process(process, obs),
            Event::NicTimer { host, gen } => self.on_nic_timer(host, gen, obs),
        }
        true
    }
}

/// An exponentially distributed duration with mean `mean_ns` nanoseconds, at least 1 ps.
fn exp_time(rng: &mut Rng, mean_ns: u64) -> Time {
    let t = libm::round(rng.exponential(mean_ns as f64 * NS as f64));
    (t as Time).max(1)
}
