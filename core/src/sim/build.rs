//! Building a run from a scenario: the network's state at time 0, each element's congestion control beside it, the
//! counters, and each flow's first start.

use super::events::Event;
use super::stats::{Setup, Stats};
use super::{exp_time, Simulation};
use crate::cc::ibcc::{IbCcConfig, IbCcSource, IbCcSwitch};
use crate::cc::ipd::IpdTable;
use crate::cc::marking::{EcnSwitch, Marker};
use crate::cc::pft::PftNic;
use crate::cc::source::{EcnSource, SourceKind};
use crate::cc::{NicCc, SourceCc, SwitchCc};
use crate::engine::EventQueue;
use crate::net::channel::{ChannelState, End};
use crate::net::host::{FlowState, HostState};
use crate::net::packet::{blocks, Lane, PacketPool, MAX_LANES};
use crate::net::switch::{InputLane, Output, SwitchState};
use crate::net::topology::{NodeId, Topology};
use crate::net::vl::VlArbiter;
use crate::rng::Rng;
use crate::scenario::{Compiled, Response, Scenario, ScenarioError, Traffic};
use crate::time::NS;
use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::vec;
use alloc::vec::Vec;

/// The occupancy, in blocks, at which a data buffer of `capacity` blocks counts as full: less room left than one
/// maximum-size packet (model.md §3), or the configured lower threshold (INFOCOM'03 footnote 4).
pub(super) fn full_at(capacity: u32, data_blocks: u32, threshold_packets: Option<u32>) -> u32 {
    match threshold_packets {
        Some(t) => t.saturating_mul(data_blocks).min(capacity),
        None => capacity - data_blocks + 1,
    }
}

impl Simulation {
    /// Validates `scenario` and builds the network at time 0, with each flow's start scheduled.
    pub fn new(scenario: &Scenario) -> Result<Self, ScenarioError> {
        // (compile checks everything, the series' spacing too: it is taken after, so errors come as validate's.)
        let compiled = scenario.compile()?;
        let sample = scenario.series_sample_ns()? * NS;
        let data_bytes = scenario.packet.data_bytes();
        let data_blocks = blocks(data_bytes);
        let ack_bytes = scenario.packet.ack_bytes;
        let end = scenario.duration_ns * NS;
        // One Annex A10 configuration, shared by every switch and source.
        let ib_cc = scenario.ib_cc.clone().map(Rc::new);
        let (node_slot, switches, hosts) = nodes(scenario, &compiled, &ib_cc, data_blocks, data_bytes);
        let vls = scenario.data_vls();
        let channels = channels(&compiled.topology, &node_slot, &switches, [data_bytes, ack_bytes], vls);
        let fresh_cc = source_cc(&compiled, &ib_cc);
        let flows = flows(scenario, &compiled, &node_slot, &fresh_cc);
        let packet_time = compiled
            .flows
            .iter()
            .map(|f| {
                let c = compiled.topology.out_channel(f.src, 0);
                compiled.topology.channel(c).bandwidth.serialization(data_bytes)
            })
            .collect();
        let setup = Setup {
            from: scenario.measure.from_ns * NS,
            to: scenario.measure.until_ns(scenario.duration_ns) * NS,
            window: scenario.measure.window_ns * NS,
            sample,
            end,
        };
        let groups = scenario.flows.iter().map(|f| f.group.as_str());
        let stats = Stats::new(setup, channels.len(), vls, groups, switches.iter().map(|s| s.inputs.len()));
        let mut sim = Self {
            nic_on: scenario.pft.is_some(),
            vls,
            ack_every: scenario.ack_coalescing.map_or(0, |a| a.every_packets),
            fresh_cc,
            scenario: scenario.clone(),
            topo: compiled.topology,
            queue: EventQueue::new(),
            packets: PacketPool::default(),
            channels,
            node_slot,
            switches,
            hosts,
            flows,
            packet_time,
            full_check: scenario.marking.full_check,
            data_blocks,
            ack_blocks: blocks(ack_bytes),
            end,
            stats,
            immediate: 0,
        };
        sim.schedule_flow_starts();
        Ok(sim)
    }

    /// Each flow's first ON time: its start, or for ON/OFF traffic a draw from the stationary state.
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
}

/// The switches and hosts of the network.
type Nodes = (Vec<u32>, Vec<SwitchState<SwitchCc>>, Vec<HostState<NicCc>>);

/// Each node's index among the switches or the hosts, the switches and the hosts, each with its congestion control.
fn nodes(
    s: &Scenario,
    compiled: &Compiled,
    ib_cc: &Option<Rc<IbCcConfig>>,
    data_blocks: u32,
    data_bytes: u32,
) -> Nodes {
    let topo = &compiled.topology;
    let marker = Marker::of(&s.marking);
    let mut node_slot = vec![0u32; topo.node_count()];
    let (mut switches, mut hosts) = (Vec::new(), Vec::new());
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
                // Its port's VL arbitration is its link's (channel `c` belongs to link `c / 2`).
                arbiter: match info.out_channels.first() {
                    Some(&c) if s.data_vls() > 1 => VlArbiter::new(&s.vl_arbitration(c as usize / 2), s.data_vls()),
                    _ => VlArbiter::default(),
                },
                cc: nic_cc(s, n as NodeId, data_bytes),
            });
            continue;
        }
        node_slot[n] = switches.len() as u32;
        let cfg = compiled.switch[n];
        let capacity = cfg.buffer_packets * data_blocks;
        let vls = s.data_vls();
        let lanes = usize::from(vls) + 1;
        // A port's VL arbitration is its link's (channel `c` belongs to link `c / 2`).
        let output = |&c: &u32| Output::new(lanes, VlArbiter::new(&s.vl_arbitration(c as usize / 2), vls));
        switches.push(SwitchState {
            node: n as NodeId,
            out_channels: info.out_channels.clone(),
            inputs: (0..ports).map(|_| vec![InputLane::default(); lanes]).collect(),
            outputs: info.out_channels.iter().map(output).collect(),
            vls,
            capacity,
            full_at: full_at(capacity, data_blocks, s.marking.buffer_threshold_packets),
            forwarding_delay: cfg.forwarding_delay_ns * NS,
            max_bypass: cfg.max_bypass,
            bypass_counting: cfg.bypass_counting,
            input_transfers: cfg.input_transfers.unwrap_or(u32::MAX),
            arbitration: cfg.arbitration,
            next_seq: 0,
            pending_outputs: Vec::new(),
            is_pending: vec![false; ports],
            waiting: [0, 0],
            cc: match ib_cc {
                // Annex A10's FECN if the scenario has it, else ECN marking (policy `none` counts, never marks).
                Some(cfg) => SwitchCc::IbCc(IbCcSwitch::new(cfg.clone(), capacity, ports, vls)),
                None => SwitchCc::Ecn(EcnSwitch::new(marker, ports * usize::from(vls))),
            },
        });
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
                // The ACK lane has a buffer of the same number of blocks as each data VL (our choice; the papers
                // only say ACKs have their own lane).
                switches[node_slot[c.to as usize] as usize].capacity
            };
            ChannelState {
                from: end(c.from, c.from_port),
                to: end(c.to, c.to_port),
                propagation: c.propagation,
                sending: None,
                credits: [capacity; MAX_LANES],
                capacity,
                stalled_since: None,
                vl_stalled: 0,
                vl_stall_since: if vls > 1 { vec![None; usize::from(vls)] } else { Vec::new() },
                serialization: bytes.map(|b| c.bandwidth.serialization(b)),
            }
        })
        .collect()
}

/// Every flow's source side at time 0, off until its start, with its congestion control as new (`fresh`).
fn flows(s: &Scenario, compiled: &Compiled, node_slot: &[u32], fresh: &[SourceCc]) -> Vec<FlowState<SourceCc>> {
    compiled
        .flows
        .iter()
        .enumerate()
        .map(|(i, cf)| FlowState {
            src: cf.src,
            dst: cf.dst,
            reliable: s.flows[i].transport.is_reliable(),
            lane: Lane::data(s.vl_of(&s.flows[i])),
            host: node_slot[cf.src as usize],
            active: false,
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
            rng: Rng::new(s.seed, i as u64),
            cc: fresh[i].clone(),
        })
        .collect()
}

/// Each flow's source-side congestion control, new: at `Rmax` with its full window (INFOCOM'03 §VI-B), or Annex
/// A10's CCTI at CCTI_Min. Flows with the same response parameters share one IPD table.
fn source_cc(compiled: &Compiled, ib_cc: &Option<Rc<IbCcConfig>>) -> Vec<SourceCc> {
    let mut tables: Vec<Rc<IpdTable>> = Vec::new();
    compiled
        .flows
        .iter()
        .map(|cf| match ib_cc {
            Some(cfg) => SourceCc::IbCc(IbCcSource::new(cfg.clone(), cf.source.window_packets)),
            None => {
                let kind = SourceKind::of(&cf.source, &mut tables);
                let hybrid = cf.source.response == Response::Hybrid;
                SourceCc::Ecn(EcnSource::new(&kind, cf.source.window_packets, hybrid))
            }
        })
        .collect()
}

/// Host `node`'s NIC's congestion control: PFT if the scenario has it (each NIC drawing from its own random
/// stream).
fn nic_cc(s: &Scenario, node: NodeId, data_bytes: u32) -> NicCc {
    match s.pft {
        Some(cfg) => {
            let rng = Rng::new(s.seed, 0x5046_5400 + u64::from(node));
            NicCc::Pft(Box::new(PftNic::new(cfg, data_bytes, rng)))
        }
        None => NicCc::None,
    }
}
