//! The simulation: the network of model.md §1–6 driven by the event engine, with the measurements of §9.
//!
//! The driving API is shared by the page, the CLI and the tests: [`Simulation::new`] builds a run from a scenario,
//! [`Simulation::run_until`] and [`Simulation::step`] advance it in bounded pieces, [`Simulation::snapshot`] gives a
//! small render-ready picture of the present, and [`Simulation::results`] the measurements.
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
//!    lane, which each link serves before its next data packet (model.md §5);
//! 5. the ACK changes the source's rate limit and window (INFOCOM'03 §V).

mod build;
mod events;
mod hosts;
mod invariants;
mod measurement;
mod nic;
mod results;
mod retune;
mod snapshot;
mod stats;
mod switching;
mod transmit;

pub use measurement::{MeasureError, Measurement, Metric};
pub use results::{BufferResult, ControlFactor, FlowResult, GroupResult, LinkResult, Results, Totals};
pub use retune::NeedsRestart;
pub use snapshot::{BufferSnapshot, FlowSnapshot, LinkSnapshot, Snapshot};

use crate::cc::{NicCc, SourceCc, SwitchCc};
use crate::engine::EventQueue;
use crate::net::channel::{ChannelState, End};
use crate::net::host::{FlowState, HostState};
use crate::net::packet::PacketPool;
use crate::net::switch::SwitchState;
use crate::net::topology::Topology;
use crate::rng::Rng;
use crate::scenario::{FullCheck, Scenario};
use crate::time::{Time, NS};
use alloc::vec::Vec;
use events::Event;
use stats::Stats;

/// A running (or finished) simulation: the network's state (`net`), each switch's, host's and flow's congestion
/// control in its slot (`cc`), what is counted (`stats`), and the event loop that ties them together. A clone is an exact copy of the run at its present time: running both on gives the
/// same results (the page keeps clones as checkpoints, to go back in time).
#[derive(Debug, Clone)]
pub struct Simulation {
    scenario: Scenario,
    topo: Topology,
    queue: EventQueue<Event>,
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
    full_check: FullCheck,
    data_blocks: u32,
    ack_blocks: u32,
    end: Time,
    stats: Stats,
    /// Events handled the moment they happened instead of through the queue: a head arrival, a credit or a delivery
    /// across a link without propagation delay (with a delay they are queued like any other event).
    immediate: u64,
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

    /// Processes every event at or before `t` (a run covers `[0, duration)`: nothing at or after its end), then sets
    /// the clock to `t` (at most the end).
    pub fn run_until(&mut self, t: Time) {
        let t = t.min(self.end);
        while self.dispatch_until(t) {}
        if t > self.queue.now() {
            self.queue.advance_to(t);
        }
    }

    /// Processes at most `max_events` queued events (each with the immediate ones it sets off; not past the end of
    /// the run); returns how many it processed. The page uses this to bound the work of one animation frame.
    pub fn step(&mut self, max_events: u64) -> u64 {
        self.step_until(self.end, max_events)
    }

    /// Processes at most `max_events` queued events at or before `t` (and before the end of the run); when none are left
    /// before `t`, sets the clock to `t`. Returns how many it processed. The page uses this for a frame: bounded work,
    /// and never past the simulated time the frame should reach.
    pub fn step_until(&mut self, t: Time, max_events: u64) -> u64 {
        let t = t.min(self.end);
        let mut done = 0;
        while done < max_events {
            if !self.dispatch_until(t) {
                if t > self.queue.now() {
                    self.queue.advance_to(t);
                }
                break;
            }
            done += 1;
        }
        done
    }

    /// Runs to the end.
    pub fn run(&mut self) {
        self.run_until(self.end);
    }

    /// Processes the next event if it is at or before `t` and before the end of the run; false if there is none.
    fn dispatch_until(&mut self, t: Time) -> bool {
        let Some(limit) = self.end.checked_sub(1) else { return false };
        let Some((_, event)) = self.queue.pop_until(t.min(limit)) else { return false };
        match event {
            Event::Eligible { node } => self.switch_pass(self.node_slot[node as usize] as usize),
            Event::TxEnd { channel } => self.on_tx_end(channel),
            Event::Arrive { channel, packet } => self.arrive(channel, packet),
            Event::Received { node, port, lane, packet } => self.received(node, port, lane, packet),
            Event::Deliver { channel, packet } => self.deliver(channel, packet),
            Event::Credit { channel, lane, blocks } => self.on_credit(channel, lane, blocks),
            Event::HostWake { host, gen } => self.on_host_wake(host, gen),
            Event::FlowOn { flow, gen } => self.on_flow_on(flow, gen),
            Event::FlowOff { flow, gen } => self.on_flow_off(flow, gen),
            Event::NicTimer { host, gen } => self.on_nic_timer(host, gen),
        }
        true
    }

    /// Lets the node at `end` start whatever it can now.
    fn node_pass(&mut self, end: End) {
        if end.host {
            self.host_pass(end.slot as usize);
        } else {
            self.switch_pass(end.slot as usize);
        }
    }
}

/// An exponentially distributed duration with mean `mean_ns` nanoseconds, at least 1 ps.
fn exp_time(rng: &mut Rng, mean_ns: u64) -> Time {
    let t = libm::round(rng.exponential(mean_ns as f64 * NS as f64));
    (t as Time).max(1)
}
