//! The congestion impact view's plan (docs/gpcnet.md §5): GPCNeT's canary tests on the playground's network under
//! the mechanisms picked, each test isolated and congested, one run per worker job; then GPCNeT's table (impact on
//! the average and the 99th percentile, FC against no control) and the distributions the PFT paper draws (processes
//! per bin). Pure Rust, tested natively; the view is `ui/impact_view.rs`.

use ibcc_core::presets::gpcnet_mechanisms::{mechanisms_on, Mechanism};
use ibcc_core::presets::pft_gpcnet::gpcnet_scale;
use ibcc_core::scenario::Scenario;
use ibcc_core::sim::congestion_impact::{canary_fc, CanaryImpact, CanaryRun};
use ibcc_core::workload::gpcnet::{Canary, GpcnetConfig};
use ibcc_view::plot::{histogram, Curve, What};
use std::fmt::Write as _;
use std::rc::Rc;

/// Processes per node offered (the PFT paper's PPort: 1, 8 and 16).
pub const PPORTS: [u32; 4] = [1, 4, 8, 16];

/// Bins of the distributions.
const BINS: usize = 20;

/// GPCNeT set up for `ppn` processes per node: the default counts (a run of seconds on 32 hosts) below 8, the PFT
/// experiment's scaled counts (one ring, one bandwidth iteration) from 8, where the default bandwidth test would
/// outlast its simulated second.
pub fn config_for(ppn: u32, seed: u64) -> GpcnetConfig {
    let base = if ppn >= 8 { gpcnet_scale() } else { GpcnetConfig::default() };
    GpcnetConfig { processes_per_node: ppn, seed, ..base }
}

/// One run: mechanism `mechanism`'s `canary` test, isolated or congested.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Job {
    pub mechanism: usize,
    pub canary: Canary,
    pub congested: bool,
}

/// What the view runs: the mechanisms (no control first, always: FC's baseline), the canary tests, the jobs.
#[derive(Debug, Clone)]
pub struct Plan {
    pub mechanisms: Vec<Mechanism>,
    pub canaries: Vec<Canary>,
    pub jobs: Vec<Job>,
}

impl PartialEq for Plan {
    fn eq(&self, o: &Self) -> bool {
        self.jobs == o.jobs && self.canaries == o.canaries && self.labels() == o.labels()
    }
}

impl Plan {
    pub fn labels(&self) -> Vec<&'static str> {
        self.mechanisms.iter().map(|m| m.label).collect()
    }

    /// The index of `job` in [`Plan::jobs`].
    pub fn index(&self, mechanism: usize, canary: Canary, congested: bool) -> Option<usize> {
        self.jobs.iter().position(|j| *j == Job { mechanism, canary, congested })
    }
}

/// The labels of the mechanisms the view offers (`mechanisms_on`'s, in order).
pub fn offered() -> Vec<(&'static str, &'static str)> {
    mechanisms_on(&Scenario::empty("labels", 1), &GpcnetConfig::default())
        .iter()
        .map(|m| (m.label, m.parameters))
        .collect()
}

/// The plan for `net`'s network at `config`: the mechanisms whose indices (in [`offered`]'s order) are `picked`
/// (no control added if missing) and the `canaries` picked; congested runs first, as they take longest.
pub fn plan(net: &Scenario, config: &GpcnetConfig, picked: &[usize], canaries: &[Canary]) -> Result<Plan, String> {
    if canaries.is_empty() {
        return Err(String::from("pick at least one canary test"));
    }
    let hosts = ibcc_core::sim::congestion_impact::gpcnet_hosts(net).len();
    ibcc_core::workload::gpcnet::placement(hosts, config.congestor_fraction, config.seed)
        .map_err(|e| format!("this network has {hosts} hosts: {e}"))?;
    let all = mechanisms_on(net, config);
    let mechanisms: Vec<Mechanism> =
        all.into_iter().enumerate().filter(|(i, _)| *i == 0 || picked.contains(i)).map(|(_, m)| m).collect();
    let mut jobs = Vec::new();
    for congested in [true, false] {
        for mechanism in 0..mechanisms.len() {
            for &canary in canaries {
                jobs.push(Job { mechanism, canary, congested });
            }
        }
    }
    Ok(Plan { mechanisms, canaries: canaries.to_vec(), jobs })
}

/// One row of the table: a mechanism's canary test, once both its runs are in.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub mechanism: &'static str,
    pub impact: CanaryImpact,
}

/// The rows whose runs are in, by mechanism then canary, and each mechanism's FC against no control (when its and
/// no control's congested latency and bandwidth runs are in).
pub fn rows(plan: &Plan, runs: &[Option<Rc<CanaryRun>>]) -> (Vec<Row>, Vec<Option<f64>>) {
    let run = |m: usize, c: Canary, congested: bool| plan.index(m, c, congested).and_then(|i| runs[i].clone());
    let mut out = Vec::new();
    for (m, mech) in plan.mechanisms.iter().enumerate() {
        for &c in &plan.canaries {
            if let (Some(iso), Some(con)) = (run(m, c, false), run(m, c, true)) {
                out.push(Row { mechanism: mech.label, impact: CanaryImpact::of((*iso).clone(), (*con).clone()) });
            }
        }
    }
    let fc = (0..plan.mechanisms.len())
        .map(|m| {
            let pair = |m| Some((run(m, Canary::Latency, true)?, run(m, Canary::Bandwidth, true)?));
            let ((l, b), (l0, b0)) = (pair(m)?, pair(0)?);
            canary_fc((&l, &b), (&l0, &b0)).map(|f| f.fc)
        })
        .collect();
    (out, fc)
}

/// The table as CSV.
pub fn csv(rows: &[Row], fc: &[Option<f64>], plan: &Plan) -> String {
    let mut out = String::from(
        "mechanism,canary,units,isolated_avg,isolated_p99,congested_avg,congested_p99,impact_avg,impact_p99,fc\n",
    );
    for r in rows {
        let i = &r.impact;
        let m = plan.mechanisms.iter().position(|m| m.label == r.mechanism);
        let fc = m.and_then(|m| fc.get(m).copied().flatten()).map_or(String::new(), |f| format!("{f:.4}"));
        let _ = writeln!(
            out,
            "{},{},{},{:.4},{:.4},{:.4},{:.4},{:.1},{:.1},{fc}",
            ibcc_view::csv::field(r.mechanism),
            i.canary.id(),
            i.canary.units(),
            i.isolated.figures.avg,
            i.isolated.figures.p99,
            i.congested.figures.avg,
            i.congested.figures.p99,
            i.impact_avg,
            i.impact_p99
        );
    }
    out
}

/// The distribution of `canary`: processes per bin of their own value, no control isolated, then each mechanism
/// congested (the runs that are in), over one range for all; and that range.
pub fn histograms(plan: &Plan, runs: &[Option<Rc<CanaryRun>>], canary: Canary) -> (Vec<Curve>, (f64, f64)) {
    let mut shown: Vec<(String, &CanaryRun)> = Vec::new();
    let mut push = |label: String, m: usize, congested: bool| {
        if let Some(r) = plan.index(m, canary, congested).and_then(|i| runs[i].as_deref()) {
            shown.push((label, r));
        }
    };
    push(String::from("isolated, no control"), 0, false);
    for (m, mech) in plan.mechanisms.iter().enumerate() {
        push(format!("congested, {}", mech.label), m, true);
    }
    let all = shown.iter().flat_map(|(_, r)| r.figures.per_process.iter().copied());
    let (lo, hi) = all.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    if !lo.is_finite() {
        return (Vec::new(), (0.0, 1.0));
    }
    let (lo, hi) = if hi > lo { (lo, hi) } else { (lo * 0.9, lo * 1.1 + 1e-9) };
    let curves = shown
        .iter()
        .enumerate()
        .map(|(i, (label, r))| {
            Curve::new(label.clone(), histogram(&r.figures.per_process, (lo, hi), BINS), What::Series(i))
        })
        .collect();
    (curves, (lo, hi))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ibcc_core::presets::find;
    use ibcc_core::sim::congestion_impact::run_canary;

    fn net() -> Scenario {
        let s = find("fabric32-hotspot").unwrap().scenario();
        s.network_only()
    }

    #[test]
    fn a_plan_keeps_no_control_and_runs_congested_first() {
        let c = config_for(1, 1);
        let p = plan(&net(), &c, &[1], &[Canary::Latency, Canary::Bandwidth]).unwrap();
        assert_eq!(p.labels(), ["no control", "ECN + LIPD"]);
        assert_eq!(p.jobs.len(), 8);
        assert!(p.jobs[..4].iter().all(|j| j.congested) && p.jobs[4..].iter().all(|j| !j.congested));
        assert!(plan(&net(), &c, &[], &[]).unwrap_err().contains("canary"));
        let tiny = find("infocom03-fig2").unwrap().scenario();
        assert!(plan(&tiny, &c, &[], &[Canary::Latency]).unwrap_err().contains("hosts"));
        assert_eq!(offered().len(), p.mechanisms.len() + 5, "every mechanism is offered");
        assert_eq!(config_for(16, 3).rings, 1, "the PFT experiment's counts from PPort 8");
    }

    /// The table's rows and FC are the runs' (no control against itself: FC exactly 1), and the histograms count
    /// every canary process once per curve.
    #[test]
    fn rows_fc_and_histograms_come_from_the_runs() {
        let c = config_for(1, 1);
        let p = plan(&net(), &c, &[], &[Canary::Latency, Canary::Bandwidth]).unwrap();
        let runs: Vec<Option<Rc<CanaryRun>>> = p
            .jobs
            .iter()
            .map(|j| Some(Rc::new(run_canary(&p.mechanisms[j.mechanism].scenario, &c, j.canary, j.congested).unwrap())))
            .collect();
        let (table, fc) = rows(&p, &runs);
        assert_eq!(table.len(), 2);
        assert_eq!(fc, [Some(1.0)]);
        let text = csv(&table, &fc, &p);
        assert_eq!(text.lines().count(), 3);
        assert!(text.lines().nth(1).unwrap().starts_with("no control,latency,usec,"));
        let (curves, (lo, hi)) = histograms(&p, &runs, Canary::Latency);
        assert_eq!(curves.len(), 2);
        assert!(lo < hi);
        let processes = runs[p.index(0, Canary::Latency, true).unwrap()].as_ref().unwrap().figures.per_process.len();
        for curve in &curves {
            assert_eq!(curve.points.iter().map(|p| p.1).sum::<f64>() as usize, processes);
        }
        // Half the runs in: the rows wait for both of a test's runs.
        let half: Vec<_> = runs.iter().enumerate().map(|(i, r)| if i < 2 { r.clone() } else { None }).collect();
        assert!(rows(&p, &half).0.is_empty());
    }
}
