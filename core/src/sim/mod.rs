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

mod events;
mod hosts;
mod invariants;
mod measurement;
mod pft;
mod results;
mod retune;
mod snapshot;
mod state;
mod switching;
mod transmit;

pub use measurement::{MeasureError, Measurement, Metric};
pub use results::{BufferResult, ControlFactor, FlowResult, GroupResult, LinkResult, Results, Totals};
pub use retune::NeedsRestart;
pub use snapshot::{BufferSnapshot, FlowSnapshot, LinkSnapshot, Snapshot};

use crate::cc::ipd::IpdTable;
use crate::cc::marking::Marker;
use crate::cc::response::{ResponseFunction, ResponseParams};
use crate::cc::source::{SourceCc, SourceKind};
use crate::engine::EventQueue;
use crate::metrics::{BusySeries, Occupancy};
use crate::net::packet::{blocks, Lane, PacketPool};
use crate::net::topology::{NodeId, Topology};
use crate::rng::Rng;
use crate::scenario::{FullCheck, RateFunction, RateMode, Response, Scenario, ScenarioError, Source, Traffic};
use crate::time::{Time, NS};
use alloc::rc::Rc;
use alloc::vec;
use alloc::vec::Vec;
use events::Event;
use state::{ChannelState, End, FlowState, HostState, InputLane, Output, SwitchState};

/// Per-link counters.
#[derive(Debug, Clone, Default)]
struct LinkCounters {
    data_busy: Time,
    ack_busy: Time,
    data_packets: u64,
    ack_packets: u64,
    /// Data packets this link's transmitter marked (input- and output-triggered marking), or that a full buffer
    /// marked while they waited for this link (naive).
    marks: u64,
    /// Data packets sent carrying the ECN bit (marked here or upstream).
    ecn_sent: u64,
    stall: Time,
    /// Credit-stall time since 0, inside the measurement interval or not (the page's congestion-tree view).
    stall_all: Time,
}

/// Per-flow counters.
#[derive(Debug, Clone, Default)]
struct FlowCounters {
    injected: u64,
    delivered: u64,
    /// Time its packets occupied its source link inside the measurement interval.
    busy: Time,
    delivered_in_interval: u64,
    delay_sum: u128,
    marked_acks: u64,
    /// Marked ACKs received inside the measurement interval.
    marked_acks_in_interval: u64,
    acks: u64,
}

/// Whole-network counters.
#[derive(Debug, Clone, Default)]
struct TotalCounters {
    injected: u64,
    delivered: u64,
    /// Packets that found no room in a buffer. Credit flow control makes this impossible; it is counted, not
    /// assumed, so a bug would show.
    dropped: u64,
    marked: u64,
    acks_delivered: u64,
}

/// The occupancy, in blocks, at which a data buffer of `capacity` blocks counts as full: less room left than one
/// maximum-size packet (model.md §3), or the configured lower threshold (INFOCOM'03 footnote 4).
fn full_at(capacity: u32, data_blocks: u32, threshold_packets: Option<u32>) -> u32 {
    match threshold_packets {
        Some(t) => t.saturating_mul(data_blocks).min(capacity),
        None => capacity - data_blocks + 1,
    }
}

/// A running (or finished) simulation. A clone is an exact copy of the run at its present time: running both on
/// gives the same results (the page keeps clones as checkpoints, to go back in time).
#[derive(Debug, Clone)]
pub struct Simulation {
    scenario: Scenario,
    topo: Topology,
    queue: EventQueue<Event>,
    packets: PacketPool,
    channels: Vec<ChannelState>,
    /// Per node: its index in `switches` or `hosts`.
    node_slot: Vec<u32>,
    /// Per node: whether it is a host (the topology's, kept flat for the event loop).
    is_host: Vec<bool>,
    switches: Vec<SwitchState>,
    hosts: Vec<HostState>,
    flows: Vec<FlowState>,
    /// Per flow: how it was configured, to restart it (ON/OFF without persistent state).
    flow_kinds: Vec<(SourceKind, Option<u32>, bool)>,
    /// Per flow: its data packets' serialization time on its source link (one packet time at `Rmax`).
    packet_time: Vec<Time>,
    marker: Marker,
    full_check: FullCheck,
    data_bytes: u32,
    data_blocks: u32,
    ack_bytes: u32,
    ack_blocks: u32,
    end: Time,
    /// The measurement interval `[measure_from, measure_to)`; `measure_to` is at most `end`.
    measure_from: Time,
    measure_to: Time,
    window: Time,
    series: Vec<BusySeries>,
    /// Group names in first-appearance order, each flow's group index, and each group's data sent on its sources'
    /// links (the papers' "aggregate rate of local flows").
    groups: Vec<alloc::string::String>,
    flow_group: Vec<u32>,
    group_series: Vec<BusySeries>,
    links: Vec<LinkCounters>,
    /// Data-lane occupancy per switch input: `occupancy[switch][port]`.
    occupancy: Vec<Vec<Occupancy>>,
    flow_counters: Vec<FlowCounters>,
    totals: TotalCounters,
    /// The scenario has PFT (checked on every data credit).
    pft_on: bool,
    /// Events handled the moment they happened instead of through the queue: a head arrival, a credit or a delivery
    /// across a link without propagation delay (with a delay they are queued like any other event).
    immediate: u64,
}

impl Simulation {
    /// Validates `scenario` and builds the network at time 0, with each flow's start scheduled.
    pub fn new(scenario: &Scenario) -> Result<Self, ScenarioError> {
        let compiled = scenario.compile()?;
        let topo = compiled.topology;
        let data_bytes = scenario.packet.data_bytes();
        let data_blocks = blocks(data_bytes);
        let ack_bytes = scenario.packet.ack_bytes;
        let ack_blocks = blocks(ack_bytes);
        let end = scenario.duration_ns * NS;

        let mut node_slot = vec![0u32; topo.node_count()];
        let mut switches = Vec::new();
        let mut hosts = Vec::new();
        for (n, info) in topo.nodes().iter().enumerate() {
            let ports = info.out_channels.len();
            if info.is_host {
                node_slot[n] = hosts.len() as u32;
                hosts.push(HostState {
                    channel: info.out_channels.first().copied(),
                    ready: Default::default(),
                    timers: Default::default(),
                    acks: Default::default(),
                    wake_at: None,
                    wake_gen: 0,
                    pft: scenario.pft.map(|cfg| state::HostPft {
                        detector: crate::cc::pft::Detector::new(cfg),
                        next_data_at: Some(0),
                        timer_at: None,
                        timer_gen: 0,
                        rng: Rng::new(scenario.seed, 0x5046_5400 + n as u64),
                    }),
                });
            } else {
                node_slot[n] = switches.len() as u32;
                let cfg = compiled.switch[n];
                let capacity = cfg.buffer_packets * data_blocks;
                let full_at = full_at(capacity, data_blocks, scenario.marking.buffer_threshold_packets);
                switches.push(SwitchState {
                    node: n as NodeId,
                    out_channels: info.out_channels.clone(),
                    inputs: (0..ports).map(|_| [InputLane::default(), InputLane::default()]).collect(),
                    outputs: (0..ports).map(|_| Output::default()).collect(),
                    capacity,
                    full_at,
                    forwarding_delay: cfg.forwarding_delay_ns * NS,
                    max_bypass: cfg.max_bypass,
                    bypass_counting: cfg.bypass_counting,
                    input_transfers: cfg.input_transfers.unwrap_or(u32::MAX),
                    arbitration: cfg.arbitration,
                    next_seq: 0,
                    pending_outputs: Vec::new(),
                    is_pending: vec![false; ports],
                    waiting: [0, 0],
                });
            }
        }
        let channels = topo
            .channels()
            .iter()
            .map(|c| {
                let capacity = if topo.nodes()[c.to as usize].is_host {
                    [u32::MAX, u32::MAX]
                } else {
                    // The ACK lane has a buffer of the same number of blocks as the data lane (our choice; the
                    // papers only say ACKs have their own lane).
                    let cap = switches[node_slot[c.to as usize] as usize].capacity;
                    [cap, cap]
                };
                let end = |node: NodeId, port| End {
                    node,
                    host: topo.nodes()[node as usize].is_host,
                    slot: node_slot[node as usize],
                    port,
                };
                ChannelState {
                    from: end(c.from, c.from_port),
                    to: end(c.to, c.to_port),
                    propagation: c.propagation,
                    sending: None,
                    credits: capacity,
                    capacity,
                    stalled_since: None,
                    serialization: [c.bandwidth.serialization(data_bytes), c.bandwidth.serialization(ack_bytes)],
                }
            })
            .collect();

        let mut tables: Vec<Rc<IpdTable>> = Vec::new();
        let mut flows = Vec::with_capacity(compiled.flows.len());
        let mut flow_kinds = Vec::with_capacity(compiled.flows.len());
        let mut packet_time = Vec::with_capacity(compiled.flows.len());
        for (i, cf) in compiled.flows.iter().enumerate() {
            let kind = source_kind(&cf.source, &mut tables);
            let hybrid = cf.source.response == Response::Hybrid;
            let host = node_slot[cf.src as usize];
            let src_channel = topo.out_channel(cf.src, 0);
            packet_time.push(topo.channel(src_channel).bandwidth.serialization(data_bytes));
            flows.push(FlowState {
                src: cf.src,
                dst: cf.dst,
                host,
                active: false,
                outstanding: 0,
                stale_outstanding: 0,
                next_psn: 0,
                epoch_psn: 0,
                cc: SourceCc::new(&kind, cf.source.window_packets, hybrid),
                last_start: None,
                rate_ok_at: 0,
                window_open_at: 0,
                in_ready: false,
                timer_at: None,
                toggle_gen: 0,
                ccti: scenario.ib_cc.as_ref().map(crate::cc::ibcc::Ccti::new),
                rng: Rng::new(scenario.seed, i as u64),
            });
            flow_kinds.push((kind, cf.source.window_packets, hybrid));
        }

        let sample = scenario.measure.sample_ns() * NS;
        let mut groups: Vec<alloc::string::String> = Vec::new();
        let flow_group = scenario
            .flows
            .iter()
            .map(|f| match groups.iter().position(|g| *g == f.group) {
                Some(i) => i as u32,
                None => {
                    groups.push(f.group.clone());
                    (groups.len() - 1) as u32
                }
            })
            .collect();
        let occupancy = switches.iter().map(|s| vec![Occupancy::default(); s.inputs.len()]).collect();
        let is_host = topo.nodes().iter().map(|n| n.is_host).collect();
        let mut sim = Self {
            is_host,
            series: (0..topo.channels().len()).map(|_| BusySeries::new(sample, end)).collect(),
            group_series: (0..groups.len()).map(|_| BusySeries::new(sample, end)).collect(),
            groups,
            flow_group,
            links: vec![LinkCounters::default(); topo.channels().len()],
            flow_counters: vec![FlowCounters::default(); flows.len()],
            scenario: scenario.clone(),
            topo,
            queue: EventQueue::new(),
            packets: PacketPool::default(),
            channels,
            node_slot,
            switches,
            hosts,
            flows,
            flow_kinds,
            packet_time,
            marker: Marker::of(&scenario.marking),
            full_check: scenario.marking.full_check,
            data_bytes,
            data_blocks,
            ack_bytes,
            ack_blocks,
            end,
            measure_from: scenario.measure.from_ns * NS,
            measure_to: scenario.measure.until_ns(scenario.duration_ns) * NS,
            window: scenario.measure.window_ns * NS,
            occupancy,
            totals: TotalCounters::default(),
            pft_on: scenario.pft.is_some(),
            immediate: 0,
        };
        sim.schedule_flow_starts();
        Ok(sim)
    }

    fn schedule_flow_starts(&mut self) {
        for (i, f) in self.scenario.flows.iter().enumerate() {
            let start = f.start_ns * NS;
            if start >= self.end {
                continue;
            }
            let first_on = match f.traffic {
                Traffic::Greedy => start,
                Traffic::OnOff { mean_on_ns, mean_off_ns } => {
                    // Start in the stationary state: ON with probability on/(on+off); a residual exponential
                    // period is again exponential (memoryless).
                    let p_on = mean_on_ns as f64 / (mean_on_ns as f64 + mean_off_ns as f64);
                    let rng = &mut self.flows[i].rng;
                    if rng.uniform() < p_on {
                        start
                    } else {
                        start.saturating_add(exp_time(rng, mean_off_ns))
                    }
                }
            };
            if first_on < self.end {
                self.queue.schedule(first_on, Event::FlowOn { flow: i as u32, gen: 0 });
            }
        }
    }

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
            Event::Received { node, port, packet } => self.received(node, port, packet),
            Event::Deliver { channel, packet } => self.deliver(channel, packet),
            Event::Credit { channel, lane, blocks } => self.on_credit(channel, lane, blocks),
            Event::HostWake { host, gen } => self.on_host_wake(host, gen),
            Event::FlowOn { flow, gen } => self.on_flow_on(flow, gen),
            Event::FlowOff { flow, gen } => self.on_flow_off(flow, gen),
            Event::PftTimer { host, gen } => self.on_pft_timer(host, gen),
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

    fn lane_blocks(&self, lane: Lane) -> u32 {
        match lane {
            Lane::Data => self.data_blocks,
            Lane::Ack => self.ack_blocks,
        }
    }
}

/// An exponentially distributed duration with mean `mean_ns` nanoseconds, at least 1 ps.
fn exp_time(rng: &mut Rng, mean_ns: u64) -> Time {
    let t = libm::round(rng.exponential(mean_ns as f64 * NS as f64));
    (t as Time).max(1)
}

/// The rate-control configuration of a source, sharing IPD tables between flows with the same parameters.
fn source_kind(s: &Source, tables: &mut Vec<Rc<IpdTable>>) -> SourceKind {
    let function = match s.response {
        Response::None => return SourceKind::None,
        Response::Fixed => return SourceKind::Fixed(s.fixed_rate_fraction),
        Response::Aimd => ResponseFunction::Aimd,
        Response::Fimd => ResponseFunction::Fimd,
        Response::Lipd => ResponseFunction::Lipd,
        Response::Hybrid => match s.hybrid_rate {
            RateFunction::Aimd => ResponseFunction::Aimd,
            RateFunction::Fimd => ResponseFunction::Fimd,
            RateFunction::Lipd => ResponseFunction::Lipd,
        },
    };
    let params = ResponseParams::new(s.r_min_fraction, s.m).expect("validated source parameters");
    match s.rate {
        RateMode::Continuous => SourceKind::Continuous(function, params),
        RateMode::Discrete => {
            let table = match tables.iter().find(|t| t.key() == (function, params)) {
                Some(t) => t.clone(),
                None => {
                    let t = Rc::new(IpdTable::new(function, params));
                    tables.push(t.clone());
                    t
                }
            };
            SourceKind::Discrete(table)
        }
    }
}
