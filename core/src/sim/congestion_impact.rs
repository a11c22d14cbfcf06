//! GPCNeT's congestion impact (docs/gpcnet.md): each canary test run isolated and under congestion, on a scenario's
//! network with its congestion control, and GPCNeT's figures from the canaries' samples.

use super::Simulation;
use crate::scenario::{NodeKind, Scenario};
use crate::time::{Time, NS};
use crate::workload::gpcnet::{self, Canary, CanaryFigures, GpcnetConfig, Placement};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// One canary test, run once: its figures, and what the run cost.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CanaryRun {
    pub canary: Canary,
    pub congested: bool,
    pub figures: CanaryFigures,
    /// Simulated time the canaries took, from time 0 to the last one's end, in nanoseconds.
    pub simulated_ns: u64,
    /// Events the run processed.
    pub events: u64,
}

/// A canary test isolated and congested, and its congestion impact as GPCNeT prints it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CanaryImpact {
    pub canary: Canary,
    pub isolated: CanaryRun,
    pub congested: CanaryRun,
    /// GPCNeT's impact factors (values rounded to 0.1 before the ratio, and the ratio too).
    pub impact_avg: f64,
    pub impact_p99: f64,
}

impl CanaryImpact {
    /// The impact of `isolated` and `congested` runs of one canary test.
    pub fn of(isolated: CanaryRun, congested: CanaryRun) -> Self {
        let c = isolated.canary;
        Self {
            canary: c,
            impact_avg: gpcnet::impact(c, isolated.figures.avg, congested.figures.avg),
            impact_p99: gpcnet::impact(c, isolated.figures.p99, congested.figures.p99),
            isolated,
            congested,
        }
    }
}

/// The scenario's hosts, in its order: GPCNeT's nodes.
pub fn gpcnet_hosts(scenario: &Scenario) -> Vec<String> {
    scenario.nodes.iter().filter(|n| n.kind == NodeKind::Host).map(|n| n.id.clone()).collect()
}

/// The placement of GPCNeT's canaries and congestors on the scenario's hosts.
pub fn gpcnet_placement(scenario: &Scenario, config: &GpcnetConfig) -> Result<Placement, String> {
    gpcnet::placement(gpcnet_hosts(scenario).len(), config.congestor_fraction, config.seed)
}

/// Runs `canary` on `scenario`'s network, isolated or `congested`, as GPCNeT places and runs it; the scenario's own
/// flows, if any, run beside it. The run ends when the canaries are done (at most `config.time_limit_ns`).
pub fn run_canary(
    scenario: &Scenario,
    config: &GpcnetConfig,
    canary: Canary,
    congested: bool,
) -> Result<CanaryRun, String> {
    let mut run = CanaryRunner::new(scenario, config, canary, congested)?;
    while !run.step() {}
    run.finish()
}

/// One canary run taken a step at a time (the page's workers run it in slices and show its progress): the same run,
/// event for event, as [`run_canary`]'s.
pub struct CanaryRunner {
    sim: Simulation,
    canary: Canary,
    congested: bool,
    iterations: u32,
    time_limit_ns: u64,
    /// The canary processes, and their flows among the workload's.
    canaries: Vec<usize>,
    canary_flows: Vec<u32>,
    /// Data packets the canaries' programs post (estimated: protocol packets not counted).
    canary_packets: u64,
}

impl core::fmt::Debug for CanaryRunner {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("CanaryRunner")
            .field("canary", &self.canary)
            .field("congested", &self.congested)
            .field("now", &self.sim.now())
            .finish()
    }
}

impl CanaryRunner {
    pub fn new(scenario: &Scenario, config: &GpcnetConfig, canary: Canary, congested: bool) -> Result<Self, String> {
        let hosts = gpcnet_hosts(scenario);
        let place = gpcnet::placement(hosts.len(), config.congestor_fraction, config.seed)?;
        let w = gpcnet::workload(&hosts, config, &place, canary, congested)?;
        let mut s = scenario.clone();
        s.duration_ns = config.time_limit_ns;
        s.measure.from_ns = 0;
        s.measure.to_ns = None;
        let sim = Simulation::with_workload(&s, &w)?;
        let canaries: Vec<usize> = (0..w.hosts.len()).filter(|&p| w.group(p) == "canary").collect();
        let is_canary = |p: u32| w.group(p as usize) == "canary";
        let canary_flows =
            w.network_pairs().iter().enumerate().filter(|(_, &(a, _))| is_canary(a)).map(|(i, _)| i as u32).collect();
        let payload = s.packet.payload_bytes;
        let canary_packets = canaries.iter().map(|&p| w.packets_posted(p, payload)).sum();
        let iterations = config.iterations(canary).1;
        Ok(Self {
            sim,
            canary,
            congested,
            iterations,
            time_limit_ns: config.time_limit_ns,
            canaries,
            canary_flows,
            canary_packets,
        })
    }

    /// Runs the next 10 us of simulated time (as [`Simulation::run_workload`] looks); true once the run is over.
    pub fn step(&mut self) -> bool {
        if !self.is_over() {
            let t = self.sim.now().saturating_add(super::messages::LOOK_EVERY);
            // (Through the worker's one copy of the event loop: `watched.rs`.)
            let mut nothing = super::Watched { report: None, fingerprint: None, sampler: None };
            self.sim.step_watched(t, u64::MAX, &mut nothing);
        }
        self.is_over()
    }

    /// Whether the canaries are done, a process was stopped, or the run's time is up.
    pub fn is_over(&self) -> bool {
        self.sim.is_finished() || self.sim.workload_over()
    }

    /// How far the canaries are: their data packets delivered and posted (a share short of 1 until the run is over).
    pub fn progress(&self) -> f64 {
        if self.is_over() {
            return 1.0;
        }
        let rt = self.sim.workload().expect("a workload run");
        let delivered: u64 = self.canary_flows.iter().map(|&f| rt.progress(f)[2]).sum();
        (delivered as f64 / self.canary_packets.max(1) as f64).min(0.99)
    }

    /// Simulated time so far, in nanoseconds.
    pub fn simulated_ns(&self) -> u64 {
        self.sim.now() / NS
    }

    /// The run's figures, or what kept the canaries from finishing.
    pub fn finish(self) -> Result<CanaryRun, String> {
        let (sim, canary) = (&self.sim, self.canary);
        let rt = sim.workload().expect("a workload run");
        let run = format!("{} ({})", canary.name(), if self.congested { "congested" } else { "isolated" });
        if let Some(fault) = rt.fault() {
            return Err(format!("{run}: {fault}"));
        }
        if !rt.is_done() {
            let waiting = rt.unfinished().into_iter().filter(|&(p, _, _)| self.canaries.contains(&p)).count();
            return Err(match sim.deadlock() {
                Some(_) => format!("{run}: the network deadlocked before the canaries finished (docs/model.md §14)"),
                None => format!(
                    "{run}: {waiting} of {} canary processes had not finished after {} ms of simulated time \
                     (time_limit_ns)",
                    self.canaries.len(),
                    self.time_limit_ns / 1_000_000
                ),
            });
        }
        let samples: Vec<&[Time]> = self.canaries.iter().map(|&p| rt.samples(p, 0)).collect();
        let figures = gpcnet::figures(canary, &samples, self.iterations)
            .ok_or_else(|| String::from("the canaries took no samples (no timed iterations?)"))?;
        let end = self.canaries.iter().filter_map(|&p| rt.done_at(p)).max().unwrap_or(0);
        Ok(CanaryRun { canary, congested: self.congested, figures, simulated_ns: end / NS, events: sim.events() })
    }
}

/// GPCNeT's whole suite: each canary test isolated, then congested.
pub fn congestion_impact(scenario: &Scenario, config: &GpcnetConfig) -> Result<Vec<CanaryImpact>, String> {
    Canary::ALL
        .into_iter()
        .map(|c| Ok(CanaryImpact::of(run_canary(scenario, config, c, false)?, run_canary(scenario, config, c, true)?)))
        .collect()
}

/// The PFT paper's control factor over GPCNeT's canaries (docs/gpcnet.md §2.10): FC = (Bc·D0)/(B0·Dc), with B the
/// bandwidth canary's average and D the latency canary's, both under congestion, with congestion control
/// (`latency`, `bandwidth`) and without it (`latency0`, `bandwidth0`). `None` if a bandwidth or latency is 0.
pub fn canary_fc(
    (latency, bandwidth): (&CanaryRun, &CanaryRun),
    (latency0, bandwidth0): (&CanaryRun, &CanaryRun),
) -> Option<super::ControlFactor> {
    let (b, d) = (bandwidth.figures.avg, latency.figures.avg * 1000.0);
    let (b0, d0) = (bandwidth0.figures.avg, latency0.figures.avg * 1000.0);
    (b0 > 0.0 && d > 0.0).then(|| super::ControlFactor {
        throughput: b,
        delay_ns: d,
        baseline_throughput: b0,
        baseline_delay_ns: d0,
        fc: (b * d0) / (b0 * d),
    })
}

/// [`canary_fc`] of two suites' congested runs; `None` if either lacks the latency or the bandwidth test.
pub fn canary_control_factor(with: &[CanaryImpact], baseline: &[CanaryImpact]) -> Option<super::ControlFactor> {
    canary_fc(congested_pair(with)?, congested_pair(baseline)?)
}

/// The congested latency and bandwidth runs of a suite, if it has both.
pub fn congested_pair(runs: &[CanaryImpact]) -> Option<(&CanaryRun, &CanaryRun)> {
    let run = |c: Canary| runs.iter().find(|i| i.canary == c).map(|i| &i.congested);
    Some((run(Canary::Latency)?, run(Canary::Bandwidth)?))
}
