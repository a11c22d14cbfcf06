//! The measurements of a run (docs/model.md §9), as plain serializable data: per link, per flow, per group, per buffer,
//! and totals. Utilization and throughput are fractions of link capacity over the measurement interval
//! `[measure.from_ns, min(now, measure.to_ns)]`.

use super::{Report, Simulation};
use crate::cc::SourceControl;
use crate::metrics::{jain_index, overlap};
use crate::time::{Time, NS};
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// One direction of a link.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LinkResult {
    /// `"A->B"`.
    pub id: String,
    pub from: String,
    pub to: String,
    /// Fraction of the interval the link carried data packets.
    pub utilization: f64,
    /// Fraction of the interval it carried ACKs.
    pub ack_utilization: f64,
    pub data_packets: u64,
    pub ack_packets: u64,
    /// Packets marked for this link (by its switch's counters, or naively in a full buffer) over the whole run.
    pub marks: u64,
    /// Of those, the ones marked in the interval.
    #[serde(default)]
    pub measured_marks: u64,
    /// Data packets sent carrying the ECN bit.
    pub ecn_packets: u64,
    /// Time in the interval the transmitter had a packet ready but no credit for it.
    pub credit_stall_ns: f64,
    /// With several data VLs, each VL's time in the interval with a packet ready but no credit for it, whether or
    /// not another VL could send meanwhile (which `credit_stall_ns` does not count). Empty with one VL.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub vl_credit_stall_ns: Vec<f64>,
}

/// One flow.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FlowResult {
    pub id: String,
    pub group: String,
    pub src: String,
    pub dst: String,
    /// Its share of its source link's capacity over the interval.
    pub throughput_fraction: f64,
    pub injected_packets: u64,
    pub delivered_packets: u64,
    /// Marked ACKs it received over the whole run.
    pub marks: u64,
    /// Marked ACKs it received in the interval.
    #[serde(default)]
    pub measured_marks: u64,
    /// Mean time from injection start to delivery of the packets delivered in the interval.
    pub mean_delay_ns: Option<f64>,
    /// Packets delivered in the interval (the weight of `mean_delay_ns`).
    pub measured_packets: u64,
    /// Its rate limit at the end, as a fraction of its link.
    pub rate_limit: f64,
    /// Its window at the end (`None`: unlimited).
    pub window: Option<u32>,
    /// Annex A10: its CCTI at the end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ccti: Option<u16>,
}

/// Flows of one group.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GroupResult {
    pub name: String,
    pub flows: u32,
    /// The sum of its flows' throughput fractions; for several flows all to one host, each taken of that host's
    /// link (its own fraction times its source link's rate over the destination's: the same where links are one
    /// speed), so that the sum is the share of the link they share.
    pub throughput_fraction: f64,
    /// Jain's index over its flows' throughputs.
    pub jain_index: f64,
    /// Marked ACKs its flows received over the whole run.
    pub marks: u64,
    /// Marked ACKs its flows received in the interval.
    #[serde(default)]
    pub measured_marks: u64,
    /// Mean delay of its flows' packets delivered in the interval (each packet weighs the same).
    pub mean_delay_ns: Option<f64>,
}

/// A switch input buffer (data lane).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BufferResult {
    pub node: String,
    /// The node upstream of this input.
    pub from: String,
    /// Time-weighted mean occupancy over the interval, in maximum-size packets.
    pub mean_packets: f64,
    pub max_packets: f64,
    pub capacity_packets: f64,
}

/// Packet counts over the whole run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    pub injected_packets: u64,
    pub delivered_packets: u64,
    pub in_flight_packets: u64,
    /// Always 0 in a lossless network; counted so a modelling error would show.
    pub dropped_packets: u64,
    pub marked_packets: u64,
    /// Data packets whose acknowledgement reached their source (one ACK each, unless a host coalesced them).
    pub acks_delivered: u64,
    /// With ACK coalescing: the ACK packets the destinations sent (against `delivered_packets`: the ACK traffic
    /// saved). Absent without it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ack_packets_sent: Option<u64>,
    /// With unreliable flows: the CN packets their destinations sent (one per marked packet). Absent without.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cn_packets_sent: Option<u64>,
}

/// Everything measured.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    pub scenario: String,
    pub seed: u64,
    pub simulated_ns: f64,
    pub measured_from_ns: f64,
    /// Where the interval ends: `measure.to_ns`, or the end of the run so far.
    pub measured_to_ns: f64,
    /// The rate series' sample spacing, when it is not `measure.sample_ns`: a network too big for the series at
    /// that spacing gets coarser ones (`Scenario::series_sample_ns`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series_sample_ns: Option<f64>,
    pub links: Vec<LinkResult>,
    pub flows: Vec<FlowResult>,
    pub groups: Vec<GroupResult>,
    pub buffers: Vec<BufferResult>,
    pub totals: Totals,
    /// Simulation events processed, queued or immediate ([`crate::sim::Simulation::events`]).
    pub events: u64,
    /// The deadlock that stopped the run early: its cycle of links and its stuck packets.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deadlock: Option<super::Deadlock>,
}

impl Results {
    /// Whether nothing has been measured: the run has not passed where measuring starts, or stopped there (a
    /// deadlock). Its figures are then no measurement, not zeros.
    pub fn measured_nothing(&self) -> bool {
        self.measured_to_ns <= self.measured_from_ns
    }

    /// The flow with this id.
    pub fn flow(&self, id: &str) -> Option<&FlowResult> {
        self.flows.iter().find(|f| f.id == id)
    }

    /// The group with this name.
    pub fn group(&self, name: &str) -> Option<&GroupResult> {
        self.groups.iter().find(|g| g.name == name)
    }

    /// Aggregate throughput B: the sum of all flows' throughput fractions.
    pub fn aggregate_throughput(&self) -> f64 {
        self.flows.iter().map(|f| f.throughput_fraction).sum()
    }

    /// Mean packet delay D over every packet delivered in the interval, in nanoseconds.
    pub fn mean_delay_ns(&self) -> Option<f64> {
        pooled_delay(&self.flows.iter().collect::<Vec<_>>())
    }

    /// The link with this id (`"A->B"`).
    pub fn link(&self, id: &str) -> Option<&LinkResult> {
        self.links.iter().find(|l| l.id == id)
    }
}

/// The mean delay over all the packets these flows delivered in the interval: each flow's mean weighted by its count.
fn pooled_delay(flows: &[&FlowResult]) -> Option<f64> {
    let n: u64 = flows.iter().map(|f| f.measured_packets).sum();
    let total: f64 = flows.iter().filter_map(|f| f.mean_delay_ns.map(|d| d * f.measured_packets as f64)).sum();
    (n > 0).then(|| total / n as f64)
}

/// The PFT paper's control factor FC = (Bc·D0)/(B0·Dc) (§IV-A): throughput B and mean packet delay D with congestion
/// control (c) and without it (0), same scenario and seed. Above 1 is better.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct ControlFactor {
    pub throughput: f64,
    pub delay_ns: f64,
    pub baseline_throughput: f64,
    pub baseline_delay_ns: f64,
    pub fc: f64,
}

impl ControlFactor {
    /// FC from a run with congestion control and its baseline; `None` if either delivered nothing in its interval.
    pub fn new(with: &Results, baseline: &Results) -> Option<Self> {
        let (b, d) = (with.aggregate_throughput(), with.mean_delay_ns()?);
        let (b0, d0) = (baseline.aggregate_throughput(), baseline.mean_delay_ns()?);
        (b0 > 0.0 && d > 0.0).then(|| Self {
            throughput: b,
            delay_ns: d,
            baseline_throughput: b0,
            baseline_delay_ns: d0,
            fc: (b * d0) / (b0 * d),
        })
    }
}

fn ns(t: Time) -> f64 {
    t as f64 / NS as f64
}

impl Report {
    /// The interval measured so far in `sim`: `[from, min(now, to)]` (empty before `from`).
    fn measured(&self, sim: &Simulation) -> (Time, Time) {
        let now = sim.now();
        (self.from.min(now), now.min(self.to))
    }

    /// The measurements of `sim` so far (at the end of the run: the final results).
    pub fn results(&self, sim: &Simulation) -> Results {
        let (from, until) = self.measured(sim);
        let s = sim.scenario();
        let flows = self.flow_results(sim);
        let t = sim.counts();
        let sample_ns = self.sample / NS;
        Results {
            scenario: s.name.clone(),
            seed: s.seed,
            simulated_ns: ns(sim.now()),
            measured_from_ns: ns(from),
            measured_to_ns: ns(until),
            series_sample_ns: (sample_ns != s.measure.sample_ns()).then_some(sample_ns as f64),
            links: self.link_results(sim),
            groups: group_results(&flows, &self.flow_weight),
            flows,
            buffers: self.buffer_results(sim),
            totals: Totals {
                injected_packets: t.injected,
                delivered_packets: t.delivered,
                in_flight_packets: t.injected - t.delivered,
                dropped_packets: t.dropped,
                marked_packets: t.marked,
                acks_delivered: t.acks_delivered,
                ack_packets_sent: sim.coalesces_acks().then_some(t.acks_sent),
                cn_packets_sent: (0..s.flows.len()).any(|i| !sim.flow(i).reliable()).then_some(t.cn_sent),
            },
            events: sim.events(),
            deadlock: sim.deadlock().cloned(),
        }
    }

    /// Every directed link: busy time, packets, marks, credit stalls over the interval.
    fn link_results(&self, sim: &Simulation) -> Vec<LinkResult> {
        let (from, until) = self.measured(sim);
        let now = sim.now();
        let span = (until - from).max(1) as f64;
        let measured = self.interval();
        let node_id = |n: u32| sim.scenario().nodes[n as usize].id.clone();
        let vl_stalls = self.vl_stalls_measured(sim);
        sim.topology()
            .channels()
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let l = &self.links[i];
                let state = sim.channel(i as u32);
                // Busy time counted so far includes transmissions that end after `now`: clip them.
                let (mut data_busy, mut ack_busy) = (l.data_busy, l.ack_busy);
                if let Some(s) = state.sending() {
                    // Counted from the interval's start on at the start; remove what lies after now.
                    let beyond = overlap(now, s.ends_at, measured.0, measured.1);
                    if s.lane.is_data() {
                        data_busy -= beyond;
                    } else {
                        ack_busy -= beyond;
                    }
                }
                let stall = l.stall + state.stalled_since().map_or(0, |s| overlap(s, now, from, until));
                LinkResult {
                    id: format!("{}->{}", node_id(c.from), node_id(c.to)),
                    from: node_id(c.from),
                    to: node_id(c.to),
                    utilization: data_busy as f64 / span,
                    ack_utilization: ack_busy as f64 / span,
                    data_packets: l.data_packets,
                    ack_packets: l.ack_packets,
                    marks: self.marks[i].all,
                    measured_marks: self.marks[i].measured,
                    ecn_packets: l.ecn_sent,
                    credit_stall_ns: ns(stall),
                    vl_credit_stall_ns: vl_stalls
                        .get(i * self.vls..(i + 1) * self.vls)
                        .unwrap_or_default()
                        .iter()
                        .map(|&t| ns(t))
                        .collect(),
                }
            })
            .collect()
    }

    /// Every flow: its throughput over the interval, packets, marks, delay, and its congestion control now.
    fn flow_results(&self, sim: &Simulation) -> Vec<FlowResult> {
        let (from, until) = self.measured(sim);
        let now = sim.now();
        let span = (until - from).max(1) as f64;
        let measured = self.interval();
        sim.scenario()
            .flows
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                let c = &self.flows[i];
                let flow = sim.flow(i);
                let mut busy = c.busy;
                if let Some(last) = flow.last_start() {
                    // The last packet may still be on the wire after `now`.
                    busy -= overlap(now.max(last), last + sim.packet_time(i), measured.0, measured.1);
                }
                FlowResult {
                    id: spec.id.clone(),
                    group: spec.group.clone(),
                    src: spec.src.clone(),
                    dst: spec.dst.clone(),
                    throughput_fraction: busy as f64 / span,
                    injected_packets: c.injected,
                    delivered_packets: c.delivered,
                    marks: c.marked_acks,
                    measured_marks: c.marked_acks_in_interval,
                    mean_delay_ns: (c.delivered_in_interval > 0)
                        .then(|| c.delay_sum as f64 / c.delivered_in_interval as f64 / NS as f64),
                    measured_packets: c.delivered_in_interval,
                    rate_limit: sim.rate_limit(i),
                    window: flow.cc().window(),
                    ccti: flow.cc().ccti(now),
                }
            })
            .collect()
    }

    /// Every switch input buffer (its data VLs together): mean and largest occupancy over the interval.
    fn buffer_results(&self, sim: &Simulation) -> Vec<BufferResult> {
        let now = sim.now();
        let packet_blocks = f64::from(sim.data_blocks());
        let topo = sim.topology();
        let node_id = |n: u32| sim.scenario().nodes[n as usize].id.clone();
        let mut buffers = Vec::new();
        for (s, sw) in sim.switches().iter().enumerate() {
            for port in 0..sw.ports() as u16 {
                let occ = &self.occupancy[s][port as usize];
                let upstream = topo.channel(topo.in_channel(sw.node(), port)).from;
                let used = sw.data_used(port);
                buffers.push(BufferResult {
                    node: node_id(sw.node()),
                    from: node_id(upstream),
                    mean_packets: occ.mean(now, used, self.interval()) / packet_blocks,
                    max_packets: f64::from(occ.max) / packet_blocks,
                    capacity_packets: f64::from(sw.capacity()) * f64::from(sw.vls()) / packet_blocks,
                });
            }
        }
        buffers
    }
}

/// The flows of each group, added up (groups in name order), each weighted by `weights` (`Report::flow_weight`;
/// empty: all 1).
fn group_results(flows: &[FlowResult], weights: &[f64]) -> Vec<GroupResult> {
    let mut by_group: BTreeMap<&str, (Vec<&FlowResult>, f64)> = BTreeMap::new();
    for (i, f) in flows.iter().enumerate() {
        let (members, sum) = by_group.entry(f.group.as_str()).or_default();
        members.push(f);
        // (No weights where links are one speed: the plain sum, to the bit.)
        *sum += f.throughput_fraction * weights.get(i).copied().unwrap_or(1.0);
    }
    by_group
        .into_iter()
        .map(|(name, (members, sum))| {
            let xs: Vec<f64> = members.iter().map(|f| f.throughput_fraction).collect();
            GroupResult {
                name: name.into(),
                flows: xs.len() as u32,
                throughput_fraction: sum,
                jain_index: jain_index(&xs),
                marks: members.iter().map(|f| f.marks).sum(),
                measured_marks: members.iter().map(|f| f.measured_marks).sum(),
                mean_delay_ns: pooled_delay(&members),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flow(mean_delay_ns: Option<f64>, measured_packets: u64) -> FlowResult {
        FlowResult {
            id: String::new(),
            group: String::new(),
            src: String::new(),
            dst: String::new(),
            throughput_fraction: 0.0,
            injected_packets: 0,
            delivered_packets: 0,
            marks: 0,
            measured_marks: 0,
            mean_delay_ns,
            measured_packets,
            rate_limit: 1.0,
            window: None,
            ccti: None,
        }
    }

    #[test]
    fn pooled_delay_weighs_every_packet_the_same() {
        // One packet at 100 ns and three at 400 ns: (100 + 3 * 400) / 4, not the mean of the means (250).
        let (a, b, idle) = (flow(Some(100.0), 1), flow(Some(400.0), 3), flow(None, 0));
        assert_eq!(pooled_delay(&[&a, &b, &idle]), Some(325.0));
        assert_eq!(pooled_delay(&[&idle]), None);
        assert_eq!(pooled_delay(&[]), None);
    }
}
