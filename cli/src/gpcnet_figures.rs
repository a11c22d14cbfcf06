//! The PFT paper's Figs. 3-5 (IFIP'21 §IV-C; docs/gpcnet.md §3): GPCNeT's canaries under congestion on the
//! 120-node fat tree, without congestion control and with each PFT setting: how many processes see each latency
//! (Fig. 3) and each bandwidth (Fig. 4), and the control factor FC of each setting (Fig. 5).

use crate::exit::Error;
use crate::figure_files::{plot, svg, write, Entry};
use ibcc_core::presets::pft_gpcnet::{fabric120, settings, with_setting, Setting};
use ibcc_core::scenario::Scenario;
use ibcc_core::sim::congestion_impact::{canary_fc, run_canary, CanaryRun};
use ibcc_core::workload::gpcnet::{Canary, GpcnetConfig};
use ibcc_view::plot::{self as view_plot, Curve, What, YAxis};
use std::fmt::Write as _;
use std::path::Path;

/// The experiment's networks: without control, and with each PFT setting (in `settings()`'s order).
pub fn grid_scenarios() -> (Scenario, Vec<Scenario>) {
    let base = fabric120();
    let scenarios = settings().iter().map(|s| with_setting(&base, s)).collect();
    (base, scenarios)
}

/// One run of the experiment: the setting's label, its network, the canary test, and whether congested.
pub type GridRun<'a> = (&'a str, &'a Scenario, Canary, bool);

/// The experiment's runs: no control isolated and congested, then each setting congested; latency and bandwidth
/// each.
pub fn grid<'a>(base: &'a Scenario, scenarios: &'a [Scenario], labels: &'a [Setting]) -> Vec<GridRun<'a>> {
    let none = "no control";
    let mut runs = vec![
        (none, base, Canary::Latency, false),
        (none, base, Canary::Bandwidth, false),
        (none, base, Canary::Latency, true),
        (none, base, Canary::Bandwidth, true),
    ];
    for (s, setting) in scenarios.iter().zip(labels) {
        let label = setting.label.as_str();
        runs.extend([(label, s, Canary::Latency, true), (label, s, Canary::Bandwidth, true)]);
    }
    runs
}

/// Bins of the distributions.
const BINS: usize = 20;

/// Runs the experiment on all cores, longest first (`longest_first`), keeping their order.
fn run_all(runs: &[GridRun], c: &GpcnetConfig) -> Result<Vec<CanaryRun>, Error> {
    let done = crate::parallel::map_in_order(runs, &longest_first(runs), |&(_, s, canary, congested)| {
        run_canary(s, c, canary, congested)
    });
    done.into_iter().map(|r| r.map_err(Error::Refused)).collect()
}

/// The order to start `runs` in: congested bandwidth runs first (they take several times as long as any other),
/// then the other congested ones.
pub fn longest_first(runs: &[GridRun]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..runs.len()).collect();
    order.sort_by_key(|&i| (!runs[i].3, runs[i].2 != Canary::Bandwidth));
    order
}

/// Processes per bin of `values` over `BINS` equal bins from `lo` to `hi`.
fn histogram(values: &[f64], lo: f64, hi: f64) -> Vec<(f64, f64)> {
    view_plot::histogram(values, (lo, hi), BINS)
}

/// The three figures and their report entry, at `ppn` processes per node and GPCNeT's counts scaled as `config`.
pub fn entries(out: &Path, ppn: u32, config: &GpcnetConfig) -> Result<Vec<Entry>, Error> {
    let c = GpcnetConfig { processes_per_node: ppn, ..config.clone() };
    let (base, scenarios) = grid_scenarios();
    let all = settings();
    let runs = grid(&base, &scenarios, &all);
    eprintln!("figures: pft-fig3, fig4, fig5 ({} GPCNeT runs at {ppn} processes per node)", runs.len());
    let done = run_all(&runs, &c)?;
    let (latency0, bandwidth0) = (&done[2], &done[3]);
    let per_setting: Vec<(&CanaryRun, &CanaryRun)> = done[4..].chunks(2).map(|p| (&p[0], &p[1])).collect();
    let fc = |&(l, b): &(&CanaryRun, &CanaryRun)| canary_fc((l, b), (latency0, bandwidth0)).map_or(f64::NAN, |f| f.fc);
    let fcs: Vec<f64> = per_setting.iter().map(fc).collect();

    // Figs. 3 and 4: no control, and each strategy's setting of highest FC.
    let mut best: Vec<usize> = Vec::new();
    for strategy in ["FT-FI", "FT-RI", "AT-FI", "AT-RI"] {
        let of = (0..all.len()).filter(|&i| all[i].strategy == strategy);
        if let Some(i) = of.max_by(|&a, &b| fcs[a].total_cmp(&fcs[b])) {
            best.push(i);
        }
    }
    for (file, canary, x_desc, pick) in [
        ("pft-fig3", Canary::Latency, "latency, mean of a process's half exchanges (usec)", 0usize),
        ("pft-fig4", Canary::Bandwidth, "bandwidth of a process (MiB/s)", 1),
    ] {
        let values = |r: &CanaryRun| r.figures.per_process.clone();
        let pick_run = |i: usize| if pick == 0 { per_setting[i].0 } else { per_setting[i].1 };
        let none = if pick == 0 { latency0 } else { bandwidth0 };
        let everything: Vec<f64> =
            values(none).into_iter().chain((0..all.len()).flat_map(|i| values(pick_run(i)))).collect();
        let lo = everything.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = everything.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let mut curves = vec![Curve::new("no control", histogram(&values(none), lo, hi), What::Series(0))];
        for &i in &best {
            let label = format!("{} (FC {:.2})", all[i].label, fcs[i]);
            curves.push(Curve::new(label, histogram(&values(pick_run(i)), lo, hi), What::Series(curves.len())));
        }
        let y = YAxis { desc: "processes".into(), top: None };
        svg(&out.join(format!("{file}.svg")), |a| plot(a, &curves, (lo, hi), x_desc, &y, &[], true))?;
        // The CSV has every setting, not only those drawn.
        let mut every = vec![Curve::new("no control", histogram(&values(none), lo, hi), What::Series(0))];
        for (i, s) in all.iter().enumerate() {
            every.push(Curve::new(s.label.clone(), histogram(&values(pick_run(i)), lo, hi), What::Series(i + 1)));
        }
        write(
            &out.join(format!("{file}.csv")),
            &view_plot::to_csv(&format!("{}_bin_centre", canary.id()), &[], &every),
        )?;
    }

    // Fig. 5: FC of every setting, one curve per strategy over the settings' numbers.
    let mut curves = Vec::new();
    for strategy in ["FT-FI", "FT-RI", "AT-FI", "AT-RI"] {
        let pts: Vec<(f64, f64)> =
            (0..all.len()).filter(|&i| all[i].strategy == strategy).map(|i| ((i + 1) as f64, fcs[i])).collect();
        curves.push(Curve::new(strategy, pts, What::Series(curves.len())));
    }
    let n = all.len() as f64;
    curves.push(Curve::new("no control (FC = 1)", vec![(0.5, 1.0), (n + 0.5, 1.0)], What::Series(curves.len())));
    let top = fcs.iter().copied().fold(1.0, f64::max) * 1.1;
    let y = YAxis { desc: "control factor FC = (Bc·D0)/(B0·Dc)".into(), top: Some(top) };
    let x_desc = "setting (numbered as in pft-fig5.csv)";
    svg(&out.join("pft-fig5.svg"), |a| plot(a, &curves, (0.5, n + 0.5), x_desc, &y, &[], true))?;
    let mut csv = String::from("setting,label,strategy,fc,bandwidth_mib_s,latency_usec\n");
    for (i, s) in all.iter().enumerate() {
        let (l, b) = per_setting[i];
        let _ = writeln!(
            csv,
            "{},{},{},{:.4},{:.2},{:.4}",
            i + 1,
            ibcc_view::csv::field(&s.label),
            s.strategy,
            fcs[i],
            b.figures.avg,
            l.figures.avg
        );
    }
    let _ = writeln!(csv, "0,no control,none,1,{:.2},{:.4}", bandwidth0.figures.avg, latency0.figures.avg);
    write(&out.join("pft-fig5.csv"), &csv)?;

    let above = fcs.iter().filter(|&&f| f > 1.0).count();
    let top_i = (0..all.len()).max_by(|&a, &b| fcs[a].total_cmp(&fcs[b])).expect("settings");
    let paper_best = all.iter().position(|s| s.label == "AT-RI m=18").expect("the paper's point");
    let impact = |iso: &CanaryRun, con: &CanaryRun| {
        ibcc_core::workload::gpcnet::impact(iso.canary, iso.figures.avg, con.figures.avg)
    };
    let ours = format!(
        "{ppn} processes per node, GPCNeT counts {}. Without control, congestion's impact on the canaries is {}X \
         (latency) and {}X (bandwidth). FC above 1 for {above} of {} settings; best {} with FC {:.2}; the paper's \
         best point (AT-RI m=18, n=0, k=0, thresholds 0x250/0x2a0) gives {:.2}. Every setting's FC, bandwidth and \
         latency are in pft-fig5.csv; pft-fig3/4 draw no control and each strategy's best setting.",
        serde_json::to_string(&GpcnetConfig { processes_per_node: ppn, ..config.clone() }).unwrap_or_default(),
        impact(&done[0], latency0),
        impact(&done[1], bandwidth0),
        all.len(),
        all[top_i].label,
        fcs[top_i],
        fcs[paper_best],
    );
    Ok(vec![Entry {
        file: "pft-fig3, pft-fig4, pft-fig5".into(),
        title: "PFT (IFIP'21) Figs. 3-5: GPCNeT's canaries under congestion on 120 nodes (10 leaves of 12, 6 spines, \
                4xEDR, ftree, 32-packet buffers), without control and with each PFT setting (docs/gpcnet.md §3)."
            .into(),
        paper: "Figs. 3-4: PFT strategies move the processes' latency distribution left and their bandwidth \
                distribution right under heavy congestion (PPort 16). Fig. 5: FC above 1 for most strategies and \
                settings; 2.58 at best, AT-RI with m=18, n=0, k=0, thresholds 0x250/0x2a0."
            .into(),
        ours,
    }])
}
