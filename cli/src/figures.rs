//! `ibcc figures OUT_DIR`: the source papers' figures regenerated from the simulator, each as SVG (drawn with the
//! page's own plot code) and CSV, and `report.md`, which sets each next to what the paper states.
//!
//! - time series (INFOCOM'03 Figs. 2, 3a-d, 4a-b; Globecom'02 Figs. 3a-d): the preset's run, the root link, the
//!   inter-switch link and each group's rate in the papers' 2 ms window;
//! - INFOCOM'03 Fig. 5: Finc(t) of AIMD, FIMD and LIPD (the Finc(t) explorer's model);
//! - sweeps of 500 ms runs averaged over the last 400 ms (INFOCOM'03 Figs. 6, 7a, 7b; Globecom'02 Figs. 4a-b), run in
//!   parallel;
//! - the PFT paper's Fig. 1: the injection rate while congested against the credits in use, for several m, n, k;
//! - the PFT paper's Figs. 3-5: GPCNeT on its 120 nodes, with and without each PFT setting (`gpcnet_figures.rs`);
//! - beyond it, GPCNeT's congestion impact there under every mechanism, as a table (`gpcnet_table.rs`).

use crate::exit::Error;
use crate::figure_files::{plot, svg, write, Entry};
use ibcc_core::cc::pft::{injection_curve, PftConfig};
use ibcc_core::cc::response::ResponseFunction;
use ibcc_core::presets::{dynamic_run, find, long_run};
use ibcc_core::scenario::{MarkingPolicy, RateMode, Response, Scenario};
use ibcc_core::sim::{Results, Run};
use ibcc_view::finc_plot::{self, FincInputs};
use ibcc_view::names;
use ibcc_view::palette::Theme;
use ibcc_view::plot::{self, Curve, What, YAxis};
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Where the SVG, CSV and report.md files go (created if needed).
    out: PathBuf,
    /// Simulated milliseconds of the sweeps' long runs (the papers: 500; less for a quick look).
    #[arg(long, default_value_t = 500)]
    long_ms: u64,
    /// Processes per node of the PFT paper's GPCNeT experiment (Figs. 3-5; the paper: 16).
    #[arg(long, default_value_t = 16)]
    gpcnet_ppn: u32,
    /// GPCNeT's counts for that experiment as JSON (docs/gpcnet.md §2), e.g. '{"rings": 2}' (default: the
    /// experiment's own, `presets::pft_gpcnet::gpcnet_scale`).
    #[arg(long)]
    gpcnet_config: Option<String>,
}

/// Runs `scenarios` on all cores, keeping their order.
fn run_all(scenarios: &[Scenario]) -> Vec<Results> {
    crate::parallel::map(scenarios, None, |s| {
        let mut sim = Run::new(s).expect("figure scenarios are valid");
        sim.run();
        sim.results()
    })
}

fn link(r: &Results, id: &str) -> f64 {
    r.link(id).map_or(f64::NAN, |l| l.utilization)
}

fn group(r: &Results, name: &str) -> f64 {
    r.group(name).map_or(f64::NAN, |g| g.throughput_fraction)
}

/// A time-series figure from a preset.
fn series(out: &Path, file: &str, preset: &str) -> Result<Entry, Error> {
    let p = find(preset).ok_or_else(|| format!("no preset {preset}"))?;
    let mut sim = Run::new(&p.scenario()).map_err(|e| e.to_string())?;
    sim.run();
    let s = sim.scenario().clone();
    // Percent of a link, as the results tables give it.
    let ms = |pts: Vec<(f64, f64)>| pts.into_iter().map(|(t, r)| (t / 1e6, 100.0 * r)).collect::<Vec<_>>();
    let mut curves = Vec::new();
    for (id, label) in [("B->BC", "root link B->BC"), ("A->B", "inter-switch link A->B")] {
        if let Some(c) = s.channel(id) {
            curves.push(Curve::new(label, ms(sim.link_rate_series(c)), What::Link(c)));
        }
    }
    for g in sim.groups() {
        if let Some(points) = sim.group_rate_series(g) {
            curves.push(Curve::new(names::group_curve(g), ms(points), What::Group(g.clone())));
        }
    }
    let y =
        YAxis { desc: format!("rate, % of a link ({} ms window)", s.measure.window_ns as f64 / 1e6), top: Some(105.0) };
    let groups = sim.groups().to_vec();
    svg(&out.join(format!("{file}.svg")), |a| {
        plot(a, &curves, (0.0, s.duration_ns as f64 / 1e6), "simulated time (ms)", &y, &groups, false)
    })?;
    write(&out.join(format!("{file}.csv")), &plot::to_csv("time_ms", &[], &curves))?;
    let mut ours = Vec::new();
    for r in p.reported {
        if let Ok(v) = sim.measure(&r.measurement()) {
            ours.push(format!("{}: {:.1}% (paper: {})", r.measurement().describe(), 100.0 * v, r.paper));
        }
    }
    let res = sim.results();
    ours.push(format!(
        "measured {}-{} ms: root {:.1}%, inter-switch {:.1}%, groups {}",
        res.measured_from_ns / 1e6,
        res.measured_to_ns / 1e6,
        100.0 * link(&res, "B->BC"),
        100.0 * link(&res, "A->B"),
        res.groups
            .iter()
            .map(|g| format!("{} {:.1}%", g.name, 100.0 * g.throughput_fraction))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    Ok(Entry {
        file: file.into(),
        title: format!("{} {}", p.figure, p.description),
        paper: p.paper_reports.into(),
        ours: ours.join("; "),
    })
}

/// A sweep figure: `x` values, one curve per variant, `value` of each run.
struct Sweep<'a> {
    file: &'a str,
    x_desc: &'a str,
    y: YAxis,
    xs: Vec<f64>,
    variants: Vec<(String, Vec<Results>)>,
}

fn sweep_figure(out: &Path, s: &Sweep, value: impl Fn(&Results) -> f64) -> Result<String, Error> {
    let curves: Vec<Curve> = s
        .variants
        .iter()
        .enumerate()
        .map(|(k, (label, runs))| {
            Curve::new(label.clone(), s.xs.iter().zip(runs).map(|(&x, r)| (x, value(r))).collect(), What::Series(k))
        })
        .collect();
    let (x0, x1) = (s.xs.first().copied().unwrap_or(0.0), s.xs.last().copied().unwrap_or(1.0));
    let pad = (x1 - x0) * 0.03;
    svg(&out.join(format!("{}.svg", s.file)), |a| plot(a, &curves, (x0 - pad, x1 + pad), s.x_desc, &s.y, &[], true))?;
    write(&out.join(format!("{}.csv", s.file)), &plot::to_csv(s.x_desc, &[], &curves))?;
    // A compact table of the values for the report.
    let mut t = format!("| {} |", s.x_desc);
    for (label, _) in &s.variants {
        let _ = write!(t, " {label} |");
    }
    t += &format!("\n|{}\n", "---|".repeat(s.variants.len() + 1));
    for (i, &x) in s.xs.iter().enumerate() {
        let shown = if x.fract() == 0.0 { format!("{x}") } else { format!("{x:.3}") };
        let _ = write!(t, "| {shown} |");
        for (_, runs) in &s.variants {
            let _ = write!(t, " {:.3} |", value(&runs[i]));
        }
        t.push('\n');
    }
    Ok(t)
}

pub fn figures(args: &Args) -> Result<(), Error> {
    let out = &args.out;
    let gpcnet = match &args.gpcnet_config {
        Some(text) => serde_json::from_str(text).map_err(|e| format!("--gpcnet-config: {e}"))?,
        None => ibcc_core::presets::pft_gpcnet::gpcnet_scale(),
    };
    fs::create_dir_all(out).map_err(|e| Error::io(out.display(), &e))?;
    let long_ns = args.long_ms.max(10) * 1_000_000;
    let shorten = |mut s: Scenario| {
        if s.duration_ns != long_ns {
            s.measure.from_ns = s.measure.from_ns * long_ns / s.duration_ns;
            s.measure.to_ns = s.measure.to_ns.map(|t| t * long_ns / s.duration_ns);
            s.duration_ns = long_ns;
        }
        s
    };
    let mut entries = Vec::new();
    let mut report = String::from("# The papers' figures, regenerated\n\n");
    let _ = writeln!(
        report,
        "Made by `ibcc figures` (long runs: {} ms simulated). Each figure is an SVG with its data as CSV. \
         docs/reproduction.md discusses every difference.\n",
        args.long_ms
    );

    for (file, preset) in [
        ("infocom03-fig2", "infocom03-fig2"),
        ("infocom03-fig3a", "infocom03-fig2"),
        ("infocom03-fig3b", "infocom03-fig3b"),
        ("infocom03-fig3c", "infocom03-fig3c"),
        ("infocom03-fig3d", "infocom03-fig3d"),
        ("infocom03-fig4a", "infocom03-fig4a"),
        ("infocom03-fig4b", "infocom03-fig4b"),
        ("globecom02-fig3a", "infocom03-fig4a"),
        ("globecom02-fig3b", "infocom03-fig4b"),
        ("globecom02-fig3c", "globecom02-fig3c"),
        ("globecom02-fig3d", "globecom02-fig3d"),
    ] {
        eprintln!("figures: {file}");
        entries.push(series(out, file, preset)?);
    }

    eprintln!("figures: infocom03-fig5");
    let model = FincInputs { log_time: true, ..FincInputs::default() }.model().map_err(|e| format!("{e:?}"))?;
    svg(&out.join("infocom03-fig5.svg"), |a| finc_plot::draw(a, &model, Theme::Light))?;
    let mut csv = String::from("function,time_to_rmax_ms\n");
    for f in [ResponseFunction::Aimd, ResponseFunction::Fimd, ResponseFunction::Lipd] {
        let _ = writeln!(csv, "{f:?},{}", model.time_to_rmax_ms(f));
    }
    write(&out.join("infocom03-fig5.csv"), &csv)?;
    entries.push(Entry {
        file: "infocom03-fig5".into(),
        title: "INFOCOM'03 Fig. 5: Finc(t), recovery from Rmin = Rmax/256 to Rmax (m = 2, 1 GB/s, 2 KB packets)."
            .into(),
        // INFOCOM'03 §V-B: "4.2 ms for FIMD and 133.7 ms for LIPD and AIMD".
        paper: "AIMD recovers in the same total time as LIPD, and much slower than FIMD: 4.2 ms for FIMD, 133.7 ms \
                for LIPD and AIMD (1 GB/s links, 2048-byte packets)."
            .into(),
        ours: csv.lines().skip(1).map(|l| l.replace(',', ": ") + " ms").collect::<Vec<_>>().join(", "),
    });

    // INFOCOM'03 Fig. 6: static traffic, buffer size x response x rate mode.
    eprintln!("figures: infocom03-fig6 (sweep)");
    let buffers = [1u32, 2, 3, 4, 5, 6, 7, 8];
    let mut variants = Vec::new();
    for (resp, rname) in [(Response::Lipd, "LIPD"), (Response::Fimd, "FIMD"), (Response::Aimd, "AIMD")] {
        for (rate, mode) in [(RateMode::Continuous, "continuous"), (RateMode::Discrete, "discrete")] {
            let runs: Vec<Scenario> = buffers.iter().map(|&b| shorten(long_run(resp, rate, b))).collect();
            variants.push((format!("{rname} {mode}"), run_all(&runs)));
        }
    }
    let xs: Vec<f64> = buffers.iter().map(|&b| f64::from(b)).collect();
    let util = |desc: &str| YAxis { desc: desc.into(), top: Some(1.05) };
    let mut fig6 = String::new();
    for (file, what, value) in [
        ("infocom03-fig6-root", "root link utilization", link as fn(&Results, &str) -> f64),
        ("infocom03-fig6-isl", "inter-switch link utilization", link),
    ] {
        let id = if file.ends_with("root") { "B->BC" } else { "A->B" };
        let s =
            Sweep { file, x_desc: "buffer size (packets)", y: util(what), xs: xs.clone(), variants: variants.clone() };
        let _ = writeln!(fig6, "{what}:\n\n{}", sweep_figure(out, &s, |r| value(r, id))?);
    }
    let s = Sweep {
        file: "infocom03-fig6-fairness",
        x_desc: "buffer size (packets)",
        y: YAxis { desc: "remote / local aggregate rate".into(), top: None },
        xs: xs.clone(),
        variants: variants.clone(),
    };
    let _ = writeln!(
        fig6,
        "fairness (remote / local):\n\n{}",
        sweep_figure(out, &s, |r| group(r, "remote") / group(r, "local"))?
    );
    entries.push(Entry {
        file: "infocom03-fig6-root, -isl, -fairness".into(),
        title: "INFOCOM'03 Fig. 6: static traffic (R=10, L=10, input-triggered marking, window 1) against buffer size."
            .into(),
        paper: find("infocom03-fig6").map_or("", |p| p.paper_reports).into(),
        ours: fig6,
    });

    // INFOCOM'03 Fig. 7: dynamic traffic against the mean ON time.
    eprintln!("figures: infocom03-fig7a, fig7b (sweeps)");
    let on_ms = [0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0];
    let xs7: Vec<f64> = on_ms.iter().map(|m: &f64| m.log10()).collect();
    let on_ns = |m: f64| (m * 1e6) as u64;
    let mut v7a = Vec::new();
    for (persistent, label) in [(false, "no persistent state"), (true, "persistent state")] {
        let runs: Vec<Scenario> =
            on_ms.iter().map(|&m| shorten(dynamic_run(Response::Lipd, on_ns(m), persistent, false))).collect();
        v7a.push((label.to_string(), run_all(&runs)));
    }
    let mut fig7a = String::new();
    for (file, g) in [("infocom03-fig7a-static", "static"), ("infocom03-fig7a-dynamic", "dynamic")] {
        let s = Sweep {
            file,
            x_desc: "log10 mean ON time (ms)",
            y: YAxis { desc: format!("{}' aggregate rate", names::group_curve(g)), top: Some(1.05) },
            xs: xs7.clone(),
            variants: v7a.clone(),
        };
        let _ = writeln!(fig7a, "{g} flows:\n\n{}", sweep_figure(out, &s, |r| group(r, g))?);
    }
    entries.push(Entry {
        file: "infocom03-fig7a-static, -dynamic".into(),
        title:
            "INFOCOM'03 Fig. 7a: half the flows ON/OFF, LIPD, with and without persistent state, against mean ON time."
                .into(),
        paper: find("infocom03-fig7a").map_or("", |p| p.paper_reports).into(),
        ours: fig7a,
    });
    let mut v7b = Vec::new();
    for (resp, label) in [(Response::Lipd, "LIPD"), (Response::Fimd, "FIMD"), (Response::Aimd, "AIMD")] {
        let runs: Vec<Scenario> = on_ms.iter().map(|&m| shorten(dynamic_run(resp, on_ns(m), true, true))).collect();
        v7b.push((label.to_string(), run_all(&runs)));
    }
    // The paper plots both links: the root for the response functions' efficiency, the inter-switch link for the
    // victim ("high utilization, except in the case of AIMD").
    let mut fig7b = String::new();
    for (file, what, id) in [
        ("infocom03-fig7b", "root link utilization", "B->BC"),
        ("infocom03-fig7b-isl", "inter-switch link utilization", "A->B"),
    ] {
        let s =
            Sweep { file, x_desc: "log10 mean ON time (ms)", y: util(what), xs: xs7.clone(), variants: v7b.clone() };
        let _ = writeln!(fig7b, "{what}:\n\n{}", sweep_figure(out, &s, |r| link(r, id))?);
    }
    entries.push(Entry {
        file: "infocom03-fig7b, -isl".into(),
        title: "INFOCOM'03 Fig. 7b: all flows but the victim ON/OFF with persistent state: root and inter-switch \
                utilization against mean ON time."
            .into(),
        paper: find("infocom03-fig7b").map_or("", |p| p.paper_reports).into(),
        ours: fig7b,
    });

    // Globecom'02 Fig. 4: buffer size x output threshold.
    eprintln!("figures: globecom02-fig4a, fig4b (sweep)");
    let gbuf = [2u32, 4, 6, 8, 10, 12, 16];
    let mut v4 = Vec::new();
    for threshold in [None, Some(4u32), Some(6), Some(8)] {
        let runs: Vec<Scenario> = gbuf
            .iter()
            .map(|&b| {
                let mut s = long_run(Response::Lipd, RateMode::Continuous, b);
                if let Some(t) = threshold {
                    s.marking.policy = MarkingPolicy::InputOutputTriggered;
                    s.marking.output_threshold_packets = Some(t);
                }
                shorten(s)
            })
            .collect();
        let label = threshold.map_or(String::from("no output marking"), |t| format!("output threshold {t}"));
        v4.push((label, run_all(&runs)));
    }
    let xs4: Vec<f64> = gbuf.iter().map(|&b| f64::from(b)).collect();
    let s = Sweep {
        file: "globecom02-fig4a",
        x_desc: "buffer size (packets)",
        y: util("root link utilization"),
        xs: xs4.clone(),
        variants: v4.clone(),
    };
    let g4a = sweep_figure(out, &s, |r| link(r, "B->BC"))?;
    let s = Sweep {
        file: "globecom02-fig4b",
        x_desc: "buffer size (packets)",
        y: YAxis { desc: "remote / local aggregate rate".into(), top: None },
        xs: xs4,
        variants: v4,
    };
    let g4b = sweep_figure(out, &s, |r| group(r, "remote") / group(r, "local"))?;
    entries.push(Entry {
        file: "globecom02-fig4a, globecom02-fig4b".into(),
        title: "Globecom'02 Fig. 4: root link utilization (a) and remote/local fairness (b) against buffer size, by output threshold.".into(),
        paper: find("globecom02-fig4").map_or("", |p| p.paper_reports).into(),
        ours: format!("(a) root utilization:\n\n{g4a}\n(b) remote / local:\n\n{g4b}"),
    });

    // The PFT paper's Fig. 1.
    eprintln!("figures: pft-fig1");
    let mut curves = Vec::new();
    for (m, n, k) in [(1, 0, 0), (2, 0, 0), (1, 1, 0), (1, 0, 2), (0, 0, 0)] {
        let cfg = PftConfig { m, n, k, ..PftConfig::default() };
        let pts: Vec<(f64, f64)> = injection_curve(&cfg, 264).into_iter().map(|(c, r)| (f64::from(c), r)).collect();
        let series = What::Series(curves.len());
        curves.push(Curve::new(format!("m={m} n={n} k={k}"), pts, series));
    }
    let y = YAxis { desc: "injection rate while congested (fraction of the link)".into(), top: Some(1.05) };
    svg(&out.join("pft-fig1.svg"), |a| plot(a, &curves, (0.0, 264.0), "credits in use (blocks)", &y, &[], false))?;
    write(&out.join("pft-fig1.csv"), &plot::to_csv("credits_in_use", &[], &curves))?;
    entries.push(Entry {
        file: "pft-fig1".into(),
        title: "PFT (IFIP'21) Fig. 1: injection rate against credits in use for m, n, k (f(c) = 2^(m-n) c + k).".into(),
        paper: "The injection rate falls as more credits are in use; larger m (or smaller n) throttles harder, k adds a floor.".into(),
        ours: String::from("see pft-fig1.csv"),
    });
    entries.extend(crate::gpcnet_figures::entries(out, args.gpcnet_ppn, &gpcnet)?);
    entries.extend(crate::gpcnet_table::entries(out, args.gpcnet_ppn, &gpcnet)?);

    for e in &entries {
        // A figure is named without extension (its .svg and .csv); a table by its files.
        let kinds = if e.file.contains('.') { "" } else { " (.svg, .csv)" };
        let _ = writeln!(
            report,
            "## {}\n\nFiles: `{}`{kinds}\n\n**Paper:** {}\n\n**Ours:** {}\n",
            e.title, e.file, e.paper, e.ours
        );
    }
    write(&out.join("report.md"), &report)?;
    eprintln!("figures: {} figures and report.md in {}", entries.len(), out.display());
    Ok(())
}
