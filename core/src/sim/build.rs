//! Building a run from a scenario: the network's state at time 0, each element's congestion control beside it, the
//! counters, and each flow's first start.

use super::events::Event;
use super::flow_paths::{FlowPaths, TABLES_IN_CACHE};
use super::{exp_time, Counts, Simulation};
use crate::cc::{NicCc, SourceCc, SwitchCc};
use crate::engine::{Queue, SLOTS};
use crate::net::channel::{ChannelState, End};
use crate::net::host::{FlowState, HostState};
use crate::net::packet::{blocks, Lane, PacketPool};
use crate::net::switch::{Forwarding, SwitchState};
use crate::net::topology::{NodeId, Topology};
use crate::net::vl::VlArbiter;
use crate::rng::Rng;
use crate::scenario::{Compiled, Scenario, ScenarioError, Traffic};
use crate::time::{Time, NS};
use alloc::rc::Rc;
use alloc::vec;
use alloc::vec::Vec;

impl Simulation {
    /// Validates `scenario`, routes its network, and builds it at time 0, with each flow's start scheduled.
    pub fn new(scenario: &Scenario) -> Result<Self, ScenarioError> {
        Self::build(scenario, scenario.compile()?, u32::MAX)
    }

    /// Builds `scenario`, whose flows from `first_pair_flow` on are a message workload's (they start when their
    /// processes send, not at their start time).
    pub(super) fn build(scenario: &Scenario, compiled: Compiled, first_pair_flow: u32) -> Result<Self, ScenarioError> {
        let data_bytes = scenario.packet.data_bytes();
        let data_blocks = blocks(data_bytes);
        let ack_bytes = scenario.packet.ack_bytes;
        // One Annex A10 configuration, shared by every switch and source.
        let ib_cc = scenario.ib_cc.clone().map(Rc::new);
        let (node_slot, switches, hosts) = nodes(scenario, &compiled, ib_cc.as_ref(), data_blocks, data_bytes);
        let vls = scenario.data_vls();
        let channels = channels(&compiled.topology, &node_slot, &switches, [data_bytes, ack_bytes], vls);
        let mut tables = Vec::new();
        let fresh_cc: Vec<SourceCc> =
            compiled.flows.iter().map(|cf| SourceCc::new(ib_cc.as_ref(), &cf.source, &mut tables)).collect();
        let flows = flows(scenario, &compiled, &node_slot, &fresh_cc);
        let packet_time = compiled
            .flows
            .iter()
            .map(|f| {
                let c = compiled.topology.out_channel(f.src, 0);
                compiled.topology.channel(c).bandwidth.serialization(data_bytes)
            })
            .collect();
        let paths = (compiled.topology.tables_bytes() > TABLES_IN_CACHE)
            .then(|| Rc::new(FlowPaths::new(&compiled.topology, flows.iter().map(|f| (f.src(), f.dst())))));
        let mut sim = Self {
            nic_on: scenario.pft.is_some(),
            vls,
            ack_every: scenario.ack_coalescing.map_or(0, |a| a.every_packets),
            fresh_cc,
            scenario: scenario.clone(),
            topo: compiled.topology,
            paths,
            queue: Queue::with_bucket(bucket_width(&channels)),
            packets: PacketPool::default(),
            channels,
            node_slot,
            switches,
            hosts,
            flows,
            packet_time,
            data_blocks,
            ack_blocks: blocks(ack_bytes),
            end: scenario.duration_ns * NS,
            counts: Counts::default(),
            immediate: 0,
            routing_notes: compiled.routing_notes,
            routing_lanes: compiled.lanes,
            deadlock: None,
            next_deadlock_check: super::deadlock::CHECK_EVERY_PS,
            workload: None,
            first_pair_flow,
        };
        sim.schedule_flow_starts();
        Ok(sim)
    }

    /// Each flow's first ON time: its start, or for ON/OFF traffic a draw from the stationary state.
    fn schedule_flow_starts(&mut self) {
        let own = (self.first_pair_flow as usize).min(self.scenario.flows.len());
        for (i, f) in self.scenario.flows[..own].iter().enumerate() {
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
                    let rng = self.flows[i].rng();
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
}

/// Events the event queue's buckets should hold with every link sending (docs/performance.md, "The event queue"):
/// measured on the 1,024-host permutation beside htsim, 16 ns buckets (about 300 events) ran it a tenth faster than
/// 131 ns (thousands) and than 4 ns (about 80); on the 32-host hot spot 131 ns (about 50) was 8% faster than 16 ns.
const EVENTS_PER_BUCKET: Time = 256;

/// Packet times of its slowest link the event queue's wheel should reach ahead at least, so that an end of
/// transmission is scheduled onto the wheel, not onto the heap beyond it.
const PACKETS_AHEAD: Time = 2;

/// The event queue's bucket width for a network of `channels`: [`EVENTS_PER_BUCKET`] events' worth of time with every
/// link sending data packets back to back, each packet taking about three events (the end of its transmission, its
/// head's arrival or its delivery, and its credit's return); but wide enough for the wheel to hold
/// [`PACKETS_AHEAD`] packet times of the slowest link (a network of very many links would otherwise get buckets so
/// narrow that its transmissions outlast the wheel). Only speed depends on it, never the order of events.
fn bucket_width(channels: &[ChannelState]) -> Time {
    let times = channels.iter().map(|c| c.serialization(Lane::VL0));
    let (fastest, slowest) = times.fold((Time::MAX, 0), |(f, s), t| (f.min(t), s.max(t)));
    let dense = EVENTS_PER_BUCKET.saturating_mul(fastest) / (3 * channels.len() as Time).max(1);
    // (Twice that, rounded up: the queue takes the power of two at or below the width, which may be half of it.)
    dense.max((2 * PACKETS_AHEAD).saturating_mul(slowest).div_ceil(SLOTS as Time))
}

/// The switches and hosts of the network.
type Nodes = (Vec<u32>, Vec<SwitchState<SwitchCc>>, Vec<HostState<NicCc>>);

/// Each node's index among the switches or the hosts, the switches and the hosts, each with its congestion control.
fn nodes(
    s: &Scenario,
    compiled: &Compiled,
    ib_cc: Option<&Rc<crate::cc::ibcc::IbCcConfig>>,
    data_blocks: u32,
    data_bytes: u32,
) -> Nodes {
    let topo = &compiled.topology;
    let vls = s.data_vls();
    // A port's VL arbitration is its link's (channel `c` belongs to link `c / 2`).
    let arbiter = |c: u32| VlArbiter::new(&s.vl_arbitration(c as usize / 2), vls);
    let mut node_slot = vec![0u32; topo.node_count()];
    let (mut switches, mut hosts) = (Vec::new(), Vec::new());
    for (n, info) in topo.nodes().iter().enumerate() {
        if info.is_host {
            node_slot[n] = hosts.len() as u32;
            let channel = info.out_channels.first().copied();
            let nic_arbiter = channel.filter(|_| vls > 1).map_or_else(VlArbiter::default, arbiter);
            // Each NIC draws from its own random stream.
            let rng = Rng::new(s.seed, 0x5046_5400 + n as u64);
            hosts.push(HostState::new(channel, nic_arbiter, NicCc::new(s.pft, data_bytes, rng)));
            continue;
        }
        node_slot[n] = switches.len() as u32;
        // The simulator looks routes up by switch slot (`Topology::route_at_switch`).
        debug_assert_eq!(topo.switch_row(n as NodeId), Some(node_slot[n]));
        let cfg = compiled.switch[n];
        let capacity = cfg.buffer_packets * data_blocks;
        let forwarding = Forwarding {
            delay: cfg.forwarding_delay_ns * NS,
            max_bypass: cfg.max_bypass,
            bypass_counting: cfg.bypass_counting,
            input_transfers: cfg.input_transfers.unwrap_or(u32::MAX),
            arbitration: cfg.arbitration,
        };
        let ports = info.out_channels.len();
        let cc = SwitchCc::new(ib_cc, &s.marking, ports, vls, capacity, data_blocks);
        let arbiters = info.out_channels.iter().map(|&c| arbiter(c));
        switches.push(SwitchState::new(
            n as NodeId,
            info.out_channels.clone(),
            arbiters,
            vls,
            capacity,
            forwarding,
            cc,
        ));
    }
    (node_slot, switches, hosts)
}

/// Every directed channel with its credits: a switch's input buffer size for each lane, or no limit into a host.
fn channels<C>(
    topo: &Topology,
    node_slot: &[u32],
    switches: &[SwitchState<C>],
    bytes: [u32; 2],
    vls: u8,
) -> Vec<ChannelState> {
    let end = |node: NodeId, port| End {
        node,
        host: topo.nodes()[node as usize].is_host,
        slot: node_slot[node as usize],
        port,
    };
    topo.channels()
        .iter()
        .map(|c| {
            let capacity = if topo.nodes()[c.to as usize].is_host {
                u32::MAX
            } else {
                // The ACK lane has a buffer of the same number of blocks as each data VL (our choice: the papers
                // give ACKs no buffer of their own; docs/model.md §5).
                switches[node_slot[c.to as usize] as usize].capacity()
            };
            let serialization = bytes.map(|b| c.bandwidth.serialization(b));
            ChannelState::new(
                end(c.from, c.from_port),
                end(c.to, c.to_port),
                c.propagation,
                capacity,
                vls,
                serialization,
            )
        })
        .collect()
}

/// Every flow's source side at time 0, off until its start, with its congestion control as new (`fresh`).
fn flows(s: &Scenario, compiled: &Compiled, node_slot: &[u32], fresh: &[SourceCc]) -> Vec<FlowState<SourceCc>> {
    compiled
        .flows
        .iter()
        .enumerate()
        .map(|(i, cf)| {
            let spec = &s.flows[i];
            let (reliable, lane) = (spec.transport.is_reliable(), Lane::data(s.vl_of_sl(cf.sl)));
            let rng = Rng::new(s.seed, i as u64);
            FlowState::new(cf.src, cf.dst, node_slot[cf.src as usize], reliable, lane, rng, fresh[i].clone())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `n` channels whose data packets take `packet` picoseconds.
    fn channels(n: usize, packet: Time) -> Vec<ChannelState> {
        let end = End { node: 0, host: false, slot: 0, port: 0 };
        (0..n).map(|_| ChannelState::new(end, end, 0, 66, 1, [packet, packet / 32])).collect()
    }

    #[test]
    fn buckets_narrow_with_more_links_but_the_wheel_still_holds_a_few_packet_times() {
        // 6,144 links of 2.068 us packets (the 1,024-host permutation beside htsim): 256 events' worth, 28.7 ns.
        assert_eq!(bucket_width(&channels(6_144, 2_068_000)), 28_722);
        // Ten times as many: the density alone would give 2.9 ns, and a 1.5 us wheel would not hold one packet.
        let width = bucket_width(&channels(61_440, 2_068_000));
        assert_eq!(width, 16_157);
        let bucket = crate::engine::EventQueue::<()>::with_bucket(width).bucket();
        assert!(bucket * SLOTS as Time >= PACKETS_AHEAD * 2_068_000, "{bucket}");
        // No links: the widest buckets (the queue takes 131 ns at most).
        assert_eq!(bucket_width(&[]), Time::MAX);
    }
}
