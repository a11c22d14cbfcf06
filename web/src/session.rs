//! A run as the page drives it (a session): the simulation, what the page watches of it (the report, the page's
//! sampled series and the congestion meter: one observer), and what is needed to draw a frame (snapshot, results,
//! congestion tree, curves). The simulation's web worker advances it in slices bounded by a time budget; the
//! simulation stops exactly at each sample time the observer asks for, so what is drawn does not depend on the
//! slicing, and a clone is an exact checkpoint. Pure Rust, tested natively.

use crate::congestion::{self, Meter, Tree};
use crate::trace::Trace;
use ibcc_core::scenario::{NodeKind, Scenario, ScenarioError};
use ibcc_core::sim::{Fingerprint, Measurement, NeedsRestart, Report, Results, Sampler, Simulation, Snapshot, Watched};
use ibcc_core::time::Time;
use ibcc_view::names::PlotKind;
use ibcc_view::plot::{Curve, What};
use serde::{Deserialize, Serialize};

/// Events per slice between two looks at the time budget.
const SLICE_EVENTS: u64 = 2_000;

/// What a frame draws.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    pub snapshot: Snapshot,
    pub tree: Tree,
    /// Per channel: marks in the recent past.
    pub recent_marks: Vec<u64>,
    pub end_ns: f64,
    /// For a preset: each number its paper reports, and ours so far.
    pub reported: Vec<Reported>,
}

/// A paper's number next to this run's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reported {
    pub what: String,
    pub paper: String,
    /// `None` until the run reaches the interval.
    pub ours: Option<f64>,
    /// While the run is inside the interval: how far it has come (ms), which `ours` is measured up to, not to the
    /// interval's end that `what` names.
    pub so_far_ms: Option<f64>,
}

/// A number a paper reports for a preset, and how this run measures it: the page looks the preset up
/// ([`paper_numbers`]) and hands the list to the worker with the scenario, so the worker carries no presets.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PaperNumber {
    pub what: String,
    pub paper: String,
    pub measurement: Measurement,
}

/// The numbers the paper reports for the preset `s` is, as published (none for any other scenario, and none once it
/// is changed: the paper's "about 15%" beside an edited run's 37.7% would read as a failed reproduction).
pub fn paper_numbers(s: &Scenario) -> Vec<PaperNumber> {
    let Some(p) = ibcc_core::presets::find(&s.name).filter(|p| same_run(&p.scenario(), s)) else { return Vec::new() };
    p.reported
        .iter()
        .map(|r| {
            let measurement = r.measurement();
            PaperNumber { what: measurement.describe(), paper: r.paper.into(), measurement }
        })
        .collect()
}

/// The series the page samples at fixed simulated times: the trace of rate limits, buffers and marks, and the
/// congestion meter's stalls.
#[derive(Debug, Clone)]
struct Series {
    trace: Trace,
    meter: Meter,
}

impl Sampler for Series {
    fn next_sample(&self) -> Time {
        self.trace.next_ps().min(self.meter.next_ps())
    }
    fn sample(&mut self, sim: &Simulation, report: &Report) {
        let snap = report.snapshot(sim);
        self.trace.record(&snap);
        self.meter.record(&snap);
    }
}

/// Runs `sim` to its end in the worker (a sweep point, a benchmark run, a golden run), telling `report` and the
/// fingerprint if any. Through `Simulation::step_watched`, so the simulator runs as the core is built, and in
/// slices: the browser puts a hot function's faster second compilation to use only from its next call (wasm has no
/// on-stack replacement), so a whole run in one call stays in the first, quickly compiled code of the loop.
pub fn run_to_end(sim: &mut Simulation, report: &mut Report, fingerprint: Option<&mut Fingerprint>) {
    let end = sim.end();
    let mut watched = Watched { report: Some(report), fingerprint, sampler: None };
    while sim.step_watched(end, SLICE_EVENTS, &mut watched) == SLICE_EVENTS {}
}

/// A run of a scenario as the page shows it.
#[derive(Debug, Clone)]
pub struct Session {
    sim: Simulation,
    report: Report,
    series: Series,
    /// Each flow's channels and data VL, for the congestion tree (and the channels for the drawing: a flow's route).
    paths: Vec<Option<Vec<u32>>>,
    flow_vls: Vec<u8>,
    /// The paper's numbers to measure as the run goes.
    papers: Vec<PaperNumber>,
}

/// How a group's rate is shown, in the plot and in the tables alike. Flows to one host share its link, and their
/// sum says how much of it they get (INFOCOM'03 Fig. 2's group rates; above 100% while a hot spot fills the tree's
/// buffers). Flows to many hosts are each measured against their own link: their sum would be hundreds of links'
/// worth (a permutation on a fabric), so their mean says how well each does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupRate {
    /// One flow (or none): its own rate.
    One,
    Sum(usize),
    Mean(usize),
}

impl GroupRate {
    /// The rule for a group whose flows go to `dsts`.
    pub fn of<'a>(dsts: impl IntoIterator<Item = &'a str>) -> Self {
        let dsts: Vec<&str> = dsts.into_iter().collect();
        match dsts.len() {
            0 | 1 => GroupRate::One,
            n if dsts.iter().all(|d| *d == dsts[0]) => GroupRate::Sum(n),
            n => GroupRate::Mean(n),
        }
    }

    /// The rule for group `group` of the results `r` (from its flows' destinations).
    pub fn in_results(r: &Results, group: &str) -> Self {
        Self::of(r.flows.iter().filter(|f| f.group == group).map(|f| f.dst.as_str()))
    }

    /// The group's rate shown, from the sum of its flows' rates.
    pub fn shown(self, sum: f64) -> f64 {
        match self {
            GroupRate::Mean(n) => sum / n as f64,
            _ => sum,
        }
    }

    /// The group's name as the plot's legend and the tables say it ("local flows (sum of 5)").
    pub fn label(self, name: &str) -> String {
        match self {
            GroupRate::One => name.to_owned(),
            GroupRate::Sum(n) => format!("{name} (sum of {n})"),
            GroupRate::Mean(n) => format!("{name} (mean of {n})"),
        }
    }
}

/// Whether two scenarios make the same run (they may differ in name, description and layout).
pub fn same_run(a: &Scenario, b: &Scenario) -> bool {
    a.without_layout() == b.without_layout()
}

/// Whether a run of `a` can be drawn on `b`: the same nodes, links and flows in the same order, whatever their
/// settings (a run paused for a change that needs a restart stays on the drawing, as the notice says).
pub fn same_network(a: &Scenario, b: &Scenario) -> bool {
    let nodes = |s: &Scenario| s.nodes.iter().map(|n| (n.id.clone(), n.kind)).collect::<Vec<_>>();
    let links = |s: &Scenario| s.links.iter().map(|l| (l.a.clone(), l.b.clone())).collect::<Vec<_>>();
    let flows = |s: &Scenario| {
        s.flows.iter().map(|f| (f.id.clone(), f.src.clone(), f.dst.clone(), f.group.clone())).collect::<Vec<_>>()
    };
    nodes(a) == nodes(b) && links(a) == links(b) && flows(a) == flows(b)
}

impl Session {
    /// A run of `s` at time 0, with `papers`' numbers (`paper_numbers`) set beside its own in each frame.
    pub fn new(s: &Scenario, papers: Vec<PaperNumber>) -> Result<Self, ScenarioError> {
        let sim = Simulation::new(s)?;
        let index = |id: &str| s.nodes.iter().position(|n| n.id == id).map(|i| i as u32);
        let paths = s.flows.iter().map(|f| sim.topology().path(index(&f.src)?, index(&f.dst)?)).collect();
        let report = Report::new(&sim);
        // Stall fractions over half a measurement window: the same smoothing as the rates drawn.
        let mut series = Series { trace: Trace::new(sim.end()), meter: Meter::new(s.measure.window_ns as f64 / 2.0) };
        // The first sample, before anything happens at time 0.
        series.sample(&sim, &report);
        let flow_vls = (0..s.flows.len()).map(|i| sim.flow_vl(i)).collect();
        Ok(Self { sim, report, series, paths, flow_vls, papers })
    }

    /// Each flow's channels, source to destination (`None`: no route).
    pub fn paths(&self) -> &[Option<Vec<u32>>] {
        &self.paths
    }

    pub fn sim(&self) -> &Simulation {
        &self.sim
    }

    /// The measurements so far.
    pub fn results(&self) -> Results {
        self.report.results(&self.sim)
    }

    /// A named measurement so far.
    pub fn measure(&self, m: &Measurement) -> Result<f64, ibcc_core::sim::MeasureError> {
        self.report.measure(&self.sim, m)
    }

    pub fn is_finished(&self) -> bool {
        self.sim.is_finished()
    }

    /// Runs toward simulated time `target` (ps) while `more()` allows, taking every sample due on the way.
    /// Returns whether the run has finished.
    /// It stops only where a direct run to that time would: with every event of the present instant handled (a
    /// slice cut short by its event count finishes its instant first), so what is drawn, sampled, checkpointed or
    /// changed at a time does not depend on how the run was sliced.
    pub fn advance(&mut self, target: u64, mut more: impl FnMut() -> bool) -> bool {
        let target = target.min(self.sim.end());
        while self.sim.now() < target && !self.sim.is_finished() && more() {
            let mut watched =
                Watched { report: Some(&mut self.report), fingerprint: None, sampler: Some(&mut self.series) };
            if self.sim.step_watched(target, SLICE_EVENTS, &mut watched) == SLICE_EVENTS {
                // Cut short: there may be more events at this very instant. Handle them all.
                let now = self.sim.now();
                self.sim.step_watched(now, u64::MAX, &mut watched);
            }
        }
        self.sim.is_finished()
    }

    /// Applies a change of settings from now on, if the model allows it (see `Simulation::retune`).
    pub fn retune(&mut self, next: &Scenario) -> Result<(), NeedsRestart> {
        self.sim.retune(next)
    }

    /// The present, to draw.
    pub fn frame(&self) -> Frame {
        let report = &self.report;
        let snapshot = report.snapshot(&self.sim);
        let recent = self.series.meter.recent(&snapshot);
        let tree = congestion::tree(&snapshot, recent.stall, &self.paths, &self.flow_vls);
        Frame {
            snapshot,
            tree,
            recent_marks: recent.marks,
            end_ns: self.sim.end() as f64 / 1000.0,
            reported: self.reported(),
        }
    }

    /// The paper's numbers, with ours.
    fn reported(&self) -> Vec<Reported> {
        self.papers
            .iter()
            .map(|p| {
                let ours = self.report.measure(&self.sim, &p.measurement).ok();
                let to_ns = p.measurement.interval_ns(self.sim.scenario()).map_or(0, |(_, to)| to);
                let now = self.sim.now();
                let inside = ours.is_some() && now < to_ns.saturating_mul(ibcc_core::time::NS);
                Reported {
                    what: p.what.clone(),
                    paper: p.paper.clone(),
                    ours,
                    so_far_ms: inside.then(|| now as f64 / ibcc_core::time::MS as f64),
                }
            })
            .collect()
    }

    /// The curves of a plot: at most `max` of the page's series, or the core's rate series.
    pub fn curves(&self, kind: PlotKind, link: Option<u32>, results: &Results, max: usize) -> Vec<Curve> {
        match kind {
            PlotKind::Rates => {
                // The congestion tree's roots, as the drawing shows them now: between links that carried as much,
                // the plot takes the root (a hot spot's root and the links below it carry the same packets).
                let snapshot = self.report.snapshot(&self.sim);
                let recent = self.series.meter.recent(&snapshot);
                let tree = congestion::tree(&snapshot, recent.stall, &self.paths, &self.flow_vls);
                let roots: Vec<bool> = (0..results.links.len()).map(|c| tree.root(c)).collect();
                rate_curves(&self.sim, &self.report, results, link, &roots)
            }
            other => self.series.trace.curves(other, self.sim.scenario(), max),
        }
    }
}

/// Points drawn at most per curve: about one per pixel of a wide plot. A long run has a rate sample every 100 us
/// of simulated time (a 20 s run: 200,000), more than a plot can show or a frame should carry.
pub const MAX_POINTS: usize = 1500;

/// Every `k`-th point (and the last), so that at most `max` are left. The rates are sliding-window averages over
/// many samples, so regular thinning keeps their shape.
pub fn thin(points: Vec<(f64, f64)>, max: usize) -> Vec<(f64, f64)> {
    if points.len() <= max {
        return points;
    }
    let k = points.len().div_ceil(max);
    let last = points.len() - 1;
    points.into_iter().enumerate().filter(|(i, _)| i % k == 0 || *i == last).map(|(_, p)| p).collect()
}

/// The rate curves of INFOCOM'03 Fig. 2: the busiest link (the root of congestion), the busiest link between two
/// switches (where congestion spreads), and every group of flows; `link` (a channel), the one a lesson step points
/// at, first.
fn rate_curves(sim: &Simulation, report: &Report, results: &Results, link: Option<u32>, roots: &[bool]) -> Vec<Curve> {
    let s = sim.scenario();
    // A set, not a search of the nodes per link: a large fabric has a thousand links and as many nodes.
    let switches: std::collections::HashSet<&str> =
        s.nodes.iter().filter(|n| n.kind == NodeKind::Switch).map(|n| n.id.as_str()).collect();
    let is_switch = |id: &str| switches.contains(id);
    // By data packets carried so far: meaningful from the first packet, unlike utilization (0 before measure.from).
    // (Ties go to a root of the congestion tree, then to the first link.)
    let key = |(c, l): &(usize, &ibcc_core::sim::LinkResult)| {
        (l.data_packets, roots.get(*c).copied().unwrap_or(false), std::cmp::Reverse(*c))
    };
    let by_use =
        |a: &(usize, &ibcc_core::sim::LinkResult), b: &(usize, &ibcc_core::sim::LinkResult)| key(a).cmp(&key(b));
    let used = || results.links.iter().enumerate().filter(|(_, l)| l.data_packets > 0);
    let busiest = used().max_by(by_use);
    let inter_switch = used().filter(|(_, l)| is_switch(&l.from) && is_switch(&l.to)).max_by(by_use);
    // And the busiest into a host: where a hot spot's tree has its root, which a preset's words are about even when
    // a link upstream carries more (INFOCOM'03 Fig. 7b: A->B at 96%, the root B->BC at 86%).
    let into_host = used().filter(|(_, l)| !is_switch(&l.to)).max_by(by_use);
    let pointed = link.and_then(|c| Some((c as usize, results.links.get(c as usize)?)));
    let mut chosen: Vec<(usize, &str)> = Vec::new();
    for (c, l) in pointed.into_iter().chain(busiest).chain(inter_switch).chain(into_host) {
        if !chosen.iter().any(|&(k, _)| k == c) {
            chosen.push((c, l.id.as_str()));
        }
    }
    // Up to now: a sample's window is centred on it, and the last ones average over the part of it that has
    // passed (the series clip their windows at now), so the curves reach the clock and settle as the run goes on.
    let to_ms = |pts: Vec<(f64, f64)>| thin(pts.into_iter().map(|(t, r)| (t / 1e6, 100.0 * r)).collect(), MAX_POINTS);
    let mut curves: Vec<Curve> = chosen
        .into_iter()
        .map(|(c, id)| Curve::new(id, to_ms(report.link_rate_series(c as u32, sim.now())), What::Link(c as u32)))
        .collect();
    for g in report.groups() {
        if let Some(points) = report.group_rate_series(g, sim.now()) {
            let rate = GroupRate::of(s.flows.iter().filter(|f| f.group == *g).map(|f| f.dst.as_str()));
            let label = rate.label(&ibcc_view::names::group_curve(g));
            let points = points.into_iter().map(|(t, r)| (t, rate.shown(r))).collect();
            curves.push(Curve::new(label, to_ms(points), What::Group(g.clone())));
        }
    }
    curves
}

/// Whether the network's links are not all one speed: Results then says that a group's throughput (of its flows' own
/// links) and a link's utilization (of itself) can differ for the same packets.
pub fn mixed_speeds(s: &Scenario) -> bool {
    let mut speeds = s.links.iter().map(|l| l.bandwidth_gbps.unwrap_or(s.link.bandwidth_gbps));
    speeds.next().is_some_and(|first| speeds.any(|b| b != first))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ibcc_core::presets::find;

    #[test]
    fn links_of_one_speed_or_several() {
        let mut s = find("infocom03-fig2").unwrap().scenario();
        assert!(!mixed_speeds(&s), "every link at the network's speed");
        s.links[0].bandwidth_gbps = Some(s.link.bandwidth_gbps);
        assert!(!mixed_speeds(&s), "a link's own speed, the same");
        s.links[0].bandwidth_gbps = Some(4.0);
        assert!(mixed_speeds(&s));
    }

    #[test]
    fn a_run_in_slices_draws_the_tree_of_fig2() {
        // (The frame is the same whatever the slicing: see `driver`'s tests, which seek back and forth.)
        // INFOCOM'03 Fig. 2 without congestion control: by 2 ms the remote flow has joined the local ones, B->BC
        // is the root, and A->B (the inter-switch link) is blocked by the spreading.
        let mut s = find("infocom03-fig2").unwrap().scenario();
        let papers = paper_numbers(&s);
        s.duration_ns = 2_000_000;
        s.measure.from_ns = 0;
        assert!(paper_numbers(&s).is_empty(), "changed, the run is no longer the paper's");
        let mut run = Session::new(&s, papers).unwrap();
        let mut slices = 0;
        while !run.advance(u64::MAX, || {
            slices += 1;
            slices % 7 != 0
        }) {}
        let f = run.frame();
        let results = run.results();
        let name = |c: usize| results.links[c].id.clone();
        assert_eq!(f.reported[0].paper, "about 15%");
        let channels = f.tree.stall.len();
        let roots: Vec<String> = (0..channels).filter(|&c| f.tree.root(c)).map(name).collect();
        let blocked: Vec<String> = (0..channels).filter(|&c| f.tree.blocked(c)).map(name).collect();
        assert_eq!(roots, ["B->BC"]);
        assert!(blocked.contains(&String::from("A->B")), "{blocked:?}");
        assert_eq!(f.reported.len(), 2, "Fig. 2 reports the victim's rate and the inter-switch link's");
        assert_eq!(f.reported[0].ours, None, "measured over 40-60 ms: not reached in 2 ms");
        let curves = run.curves(PlotKind::Rates, None, &results, 8);
        assert_eq!(curves[0].label, "B->BC");
        let buffers = run.curves(PlotKind::Buffers, None, &results, 8);
        assert!(!buffers.is_empty() && buffers.len() <= 8, "{}", buffers.len());
        let labels: Vec<&str> = buffers.iter().map(|c| c.label.as_str()).collect();
        assert!(labels.len() <= 4, "alike buffers are one curve each: {labels:?}");
        let isl = buffers
            .iter()
            .find(|c| c.label.starts_with("at A->B"))
            .unwrap_or_else(|| panic!("B's buffer from the inter-switch link: {labels:?}"));
        assert!(isl.points.iter().any(|p| p.1 >= 3.0), "it fills as congestion spreads");
    }

    #[test]
    fn a_papers_number_mid_interval_says_how_far_it_is_measured() {
        // Fig. 2's numbers are measured over 40-60 ms: paused at 50 ms, ours covers 40-50 ms and says so; at the
        // interval's end it is the whole interval's.
        let s = find("infocom03-fig2").unwrap().scenario();
        let mut run = Session::new(&s, paper_numbers(&s)).unwrap();
        run.advance(50 * ibcc_core::time::MS, || true);
        let mid = run.frame().reported;
        assert!(mid.iter().all(|r| r.ours.is_some() && r.so_far_ms == Some(50.0)), "{mid:?}");
        run.advance(60 * ibcc_core::time::MS, || true);
        let end = run.frame().reported;
        assert!(end.iter().all(|r| r.ours.is_some() && r.so_far_ms.is_none()), "{end:?}");
    }

    #[test]
    fn the_plot_shows_the_root_into_a_host_even_where_a_link_upstream_carries_more() {
        // INFOCOM'03 Fig. 7b: A->B carries more than the root B->BC, which the preset's words are about.
        let s = find("infocom03-fig7b").unwrap().scenario();
        let mut run = Session::new(&s, Vec::new()).unwrap();
        run.advance(30 * ibcc_core::time::MS, || true);
        let results = run.results();
        let carried = |id: &str| results.links.iter().find(|l| l.id == id).unwrap().data_packets;
        assert!(carried("A->B") > carried("B->BC"), "the case this is about");
        let curves = run.curves(PlotKind::Rates, None, &results, 8);
        let links: Vec<&str> =
            curves.iter().filter(|c| matches!(c.what, What::Link(_))).map(|c| c.label.as_str()).collect();
        assert_eq!(links, ["A->B", "B->BC"]);
    }

    #[test]
    fn between_links_that_carried_as_much_the_plot_takes_the_trees_root() {
        // The fat tree's hot spot (lesson 4): c0->a0.0, the root, and a0.0->e0.0 below it carry the same packets;
        // the plot's link between switches is the root the drawing marks, not the other.
        // (The root's link moved to the end of the list, so that neither order among equals picks it by chance.)
        let mut s = find("fattree4-hotspot").unwrap().scenario();
        let root =
            s.links.iter().position(|l| [&l.a, &l.b] == ["c0", "a0.0"] || [&l.a, &l.b] == ["a0.0", "c0"]).unwrap();
        let link = s.links.remove(root);
        s.links.push(link);
        let mut run = Session::new(&s, Vec::new()).unwrap();
        run.advance(10 * ibcc_core::time::MS, || true);
        let results = run.results();
        let carried = |id: &str| results.links.iter().find(|l| l.id == id).unwrap().data_packets;
        assert_eq!(carried("c0->a0.0"), carried("a0.0->e0.0"), "the case this is about");
        let roots: Vec<String> = (0..results.links.len())
            .filter(|&c| run.frame().tree.root(c))
            .map(|c| results.links[c].id.clone())
            .collect();
        assert_eq!(roots, ["c0->a0.0"]);
        let curves = run.curves(PlotKind::Rates, None, &results, 8);
        let links: Vec<&str> =
            curves.iter().filter(|c| matches!(c.what, What::Link(_))).map(|c| c.label.as_str()).collect();
        assert!(links.contains(&"c0->a0.0") && !links.contains(&"a0.0->e0.0"), "{links:?}");
    }

    #[test]
    fn rate_curves_reach_the_clock() {
        let s = find("infocom03-fig2").unwrap().scenario();
        let mut run = Session::new(&s, Vec::new()).unwrap();
        run.advance(20_000_000_000, || true);
        let curves = run.curves(PlotKind::Rates, None, &run.results(), 8);
        for c in &curves {
            let last = c.points.last().map_or(0.0, |p| p.0);
            assert!(last >= 19.8, "{} ends at {last} ms at 20 ms", c.label);
        }
        // A group of several flows is their sum (it may pass 100% of a link), and says so.
        let labels: Vec<&str> = curves.iter().map(|c| c.label.as_str()).collect();
        assert!(labels.contains(&"local flows (sum of 5)") && labels.contains(&"victim flows"), "{labels:?}");
    }

    #[test]
    fn a_group_sending_to_many_hosts_is_drawn_as_its_mean() {
        // The fabric's background is a shift (31 flows, each to its own host): its sum would be about 3,100% of a
        // link; the hot spot's 8 flows all go to one host, and their sum is what that host's link gets.
        let mut s = find("fabric32-hotspot").unwrap().scenario();
        s.duration_ns = 300_000;
        s.measure.from_ns = 0;
        let mut run = Session::new(&s, Vec::new()).unwrap();
        run.advance(300_000_000, || true);
        let curves = run.curves(PlotKind::Rates, None, &run.results(), 8);
        let curve = |label: &str| curves.iter().find(|c| c.label == label).unwrap_or_else(|| panic!("{label}"));
        let peak = |label: &str| curve(label).points.iter().map(|p| p.1).fold(0.0, f64::max);
        let background = peak("background flows (mean of 31)");
        assert!(background > 20.0 && background <= 101.0, "{background}");
        assert!(peak("hotspot flows (sum of 8)") > 50.0);
        // The root a lesson step points at is plotted first, even where other links are as busy.
        let root = s.channel("spine-0->leaf-0").unwrap();
        let pointed = run.curves(PlotKind::Rates, Some(root), &run.results(), 8);
        assert_eq!(pointed[0].label, "spine-0->leaf-0");
        assert_eq!(pointed.iter().filter(|c| c.label == "spine-0->leaf-0").count(), 1, "once");
    }

    #[test]
    fn long_curves_are_thinned_to_what_a_plot_can_show() {
        let pts: Vec<(f64, f64)> = (0..10_000).map(|i| (f64::from(i), 1.0)).collect();
        let t = thin(pts.clone(), MAX_POINTS);
        assert!(t.len() <= MAX_POINTS + 1, "{}", t.len());
        assert_eq!((t[0], *t.last().unwrap()), (pts[0], pts[9_999]), "the ends are kept");
        assert_eq!(thin(pts[..10].to_vec(), MAX_POINTS).len(), 10, "short curves as they are");
    }

    #[test]
    fn a_group_s_rate_is_a_sum_into_one_host_and_a_mean_over_many() {
        assert_eq!(GroupRate::of(["D"]), GroupRate::One);
        assert_eq!(GroupRate::of(["D", "D", "D"]), GroupRate::Sum(3));
        assert_eq!(GroupRate::of(["D", "E"]), GroupRate::Mean(2));
        assert_eq!((GroupRate::Sum(3).shown(1.5), GroupRate::Mean(3).shown(1.5)), (1.5, 0.5));
        assert_eq!(GroupRate::Mean(31).label("background flows"), "background flows (mean of 31)");
        assert_eq!(GroupRate::One.label("victim flows"), "victim flows");
    }

    #[test]
    fn layout_and_names_do_not_change_the_run() {
        let s = find("infocom03-fig2").unwrap().scenario();
        let mut moved = s.clone();
        moved.nodes[0].x = Some(1.0);
        moved.name = "other".into();
        assert!(same_run(&s, &moved));
        moved.seed += 1;
        assert!(!same_run(&s, &moved));
        // Another seed, buffer or marking: another run, on the same network (its paused frame can be drawn).
        moved.switch.buffer_packets = 1;
        assert!(same_network(&s, &moved));
        let mut regrouped = s.clone();
        regrouped.flows[0].group = "other".into();
        assert!(!same_network(&s, &regrouped), "a flow's group is drawn");
        let mut fewer = s.clone();
        fewer.links.pop();
        assert!(!same_network(&s, &fewer));
    }
}
