//! `ibcc bench`: simulator speed on named scenarios, as figures (events per second, delivered packets per second,
//! wall time). A benchmark prints numbers; it never passes or fails on them. Events are all the simulation
//! processed (`Simulation::events`); "queued" are those that went through the event queue (the rest happened across
//! links without propagation delay and were handled at once).

use crate::output::outln;
use ibcc_core::presets::bench_scenarios;
use ibcc_core::sim::{EventCounts, Fingerprint, Run};
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Simulated milliseconds per run (the fat tree runs a tenth of it); 1 with `--scale`.
    #[arg(long)]
    duration_ms: Option<f64>,
    /// Runs per scenario (the best is reported, as the least disturbed by other work).
    #[arg(long, default_value_t = 3)]
    repeat: u32,
    /// One JSON object per scenario instead of a table (tests/browser/bench.mjs compares them with wasm's).
    #[arg(long)]
    json: bool,
    /// Time OpenSM's routing engines on generated fat trees instead: 648 hosts (2-level, 36-port switches) and,
    /// with `--large`, 11,664 hosts (3-level, 36-port switches).
    #[arg(long)]
    routing: bool,
    /// With `--routing` or `--scale`: also the 11,664-host fat tree (tens of seconds; minutes with `--scale`).
    #[arg(long)]
    large: bool,
    /// Count the events by kind instead (one run each, not timed): per data packet-hop (a data packet starting on a
    /// link), and how many went through the event queue. With `--scale`, on its fat trees; with `--against-htsim`,
    /// on our side of its cases (htsim is not run).
    #[arg(long, conflicts_with = "routing")]
    kinds: bool,
    /// Run htsim (Broadcom's csg-htsim) and this simulator on the same traffic instead, paired: DIR holds the
    /// traffic matrices (../shared/peers/htsim); prints each side's time per delivered packet-hop and their ratio.
    #[arg(long, value_name = "DIR", conflicts_with = "routing")]
    against_htsim: Option<std::path::PathBuf>,
    /// With `--against-htsim`: htsim's built `sim` folder (default: $HTSIM).
    #[arg(long, value_name = "SIM_DIR", requires = "against_htsim")]
    htsim: Option<std::path::PathBuf>,
    /// With `--against-htsim`: which cases, comma-separated (hs32, hs128, perm128, hs1024, perm1024; default
    /// hs32,hs1024,perm1024).
    #[arg(long, requires = "against_htsim")]
    cases: Option<String>,
    /// With `--against-htsim`: count each side's instructions instead of timing them (valgrind's cachegrind, one
    /// run each): per delivered packet-hop and their ratio, the same on any machine. Slow: the default cases take
    /// minutes under valgrind, the 1,024-host permutation most of it.
    #[arg(long, requires = "against_htsim", conflicts_with = "kinds")]
    instructions: bool,
    /// (For `--instructions`, which counts it under valgrind: run only our side of the cases, once, untimed, and
    /// print what it delivered as JSON; with `--setup-only`, build the runs but do not run them.)
    #[arg(long, hide = true, requires = "against_htsim")]
    ours_only: bool,
    #[arg(long, hide = true, requires = "ours_only")]
    setup_only: bool,
    /// The same traffic (a permutation) on fat trees from 32 to 3,456 hosts, and 11,664 with `--large`, each run
    /// for `--duration-ms` (default here 1): cost per packet-hop, events per hop, memory per host and per port.
    #[arg(long, conflicts_with_all = ["routing", "against_htsim"])]
    scale: bool,
    /// With `--scale`: only the network of this many hosts (32, 128, 1024, 3456 or 11664).
    #[arg(long, requires = "scale")]
    hosts: Option<usize>,
    /// The PFT paper's GPCNeT experiment instead, as `ibcc figures` runs it (pft-fig3 to 5, 16 processes per node,
    /// on all cores): the whole grid's wall time and each run's.
    #[arg(long, conflicts_with_all = ["routing", "kinds", "against_htsim", "scale"])]
    pft_grid: bool,
}

pub fn run(args: &Args) -> Result<(), String> {
    if args.routing {
        return routing(args);
    }
    if args.kinds {
        return kinds(args);
    }
    if args.pft_grid {
        return crate::bench_pft::run(args.json);
    }
    if args.scale {
        return crate::bench_scale::run(args.duration_ms.unwrap_or(1.0), args.large, args.hosts, args.json);
    }
    if args.large && !args.routing {
        return Err("--large goes with --routing or --scale".into());
    }
    if let Some(dir) = &args.against_htsim {
        use crate::htsim::Mode;
        let mode = match (args.ours_only, args.instructions) {
            (true, _) => Mode::OursOnly { setup_only: args.setup_only },
            (false, true) => Mode::Instructions,
            (false, false) => Mode::Timed { repeat: args.repeat },
        };
        return crate::htsim::run(dir, args.htsim.as_deref(), args.cases.as_deref(), mode, args.json);
    }
    if !args.json {
        outln!(
            "{:<28} {:>8} {:>9} {:>10} {:>12} {:>10} {:>12} {:>10}",
            "scenario",
            "sim ms",
            "wall s",
            "events",
            "events/s",
            "ns/event",
            "queued/s",
            "pkts/s"
        );
    }
    for (name, scenario) in bench_scenarios(duration_ms(args)) {
        let sim_ms = scenario.duration_ns as f64 / 1e6;
        let mut best: Option<(f64, u64, u64, u64)> = None;
        for _ in 0..args.repeat.max(1) {
            let mut sim = Run::new(&scenario).map_err(|e| e.to_string())?;
            let t0 = Instant::now();
            sim.run();
            let wall = t0.elapsed().as_secs_f64();
            let r = sim.results();
            if best.is_none_or(|b| wall < b.0) {
                best = Some((wall, r.events, sim.sim.queued_events(), r.totals.delivered_packets));
            }
        }
        let (wall, events, queued, delivered) = best.expect("at least one run");
        if args.json {
            let doc = serde_json::json!({ "scenario": name, "sim_ms": sim_ms, "wall_s": wall, "events": events,
                "events_per_s": events as f64 / wall, "queued_events": queued, "queued_per_s": queued as f64 / wall,
                "delivered_per_s": delivered as f64 / wall });
            outln!("{doc}");
            continue;
        }
        outln!(
            "{:<28} {:>8.0} {:>9.3} {:>10} {:>12.0} {:>10.1} {:>12.0} {:>10.0}",
            name,
            sim_ms,
            wall,
            events,
            events as f64 / wall,
            wall * 1e9 / events as f64,
            queued as f64 / wall,
            delivered as f64 / wall
        );
    }
    Ok(())
}

/// The simulated milliseconds of the scenario benchmarks.
fn duration_ms(args: &Args) -> u64 {
    args.duration_ms.map_or(500, |ms| ms.round().max(1.0) as u64)
}

/// Where the events go: each kind's count per data packet-hop, and the part of it that was queued; and the run's
/// fingerprint (what it did, to the picosecond: a change meant to keep behaviour keeps it).
fn kinds(args: &Args) -> Result<(), String> {
    let scenarios = if let Some(dir) = &args.against_htsim {
        crate::htsim::scenarios(dir, args.cases.as_deref())?
    } else if args.scale {
        let duration_ns = (args.duration_ms.unwrap_or(1.0) * 1e6).round().max(1.0) as u64;
        ibcc_core::presets::scale_fat_trees(duration_ns, args.large || args.hosts == Some(11_664), args.hosts)
    } else {
        bench_scenarios(duration_ms(args)).into_iter().map(|(n, s)| (n.to_string(), s)).collect()
    };
    for (name, scenario) in scenarios {
        let mut run = Run::new(&scenario).map_err(|e| e.to_string())?;
        let mut watch = (EventCounts::default(), Fingerprint::default());
        run.run_until_with(run.end(), &mut watch);
        let (counts, fingerprint) = (watch.0, watch.1.value());
        let hops = counts.data_hops.max(1) as f64;
        let (events, queued) = counts.total();
        if args.json {
            let kinds: serde_json::Map<String, serde_json::Value> = counts
                .by_kind()
                .filter(|k| k.1 > 0)
                .map(|(k, n, q)| (format!("{k:?}"), serde_json::json!({ "events": n, "queued": q })))
                .collect();
            let doc = serde_json::json!({ "scenario": name, "sim_ms": scenario.duration_ns as f64 / 1e6,
                "data_hops": counts.data_hops, "events": events, "queued": queued, "kinds": kinds,
                "fingerprint": format!("{fingerprint:016x}") });
            outln!("{doc}");
            continue;
        }
        outln!(
            "{name}: {} data packet-hops, {:.2} events per hop ({:.2} queued), fingerprint {fingerprint:016x}",
            counts.data_hops,
            events as f64 / hops,
            queued as f64 / hops
        );
        outln!("  {:<10} {:>12} {:>8} {:>8}  what", "kind", "events", "per hop", "queued");
        for (kind, n, q) in counts.by_kind().filter(|k| k.1 > 0) {
            outln!(
                "  {:<10} {:>12} {:>8.3} {:>8.3}  {}",
                format!("{kind:?}"),
                n,
                n as f64 / hops,
                q as f64 / hops,
                kind.what()
            );
        }
    }
    Ok(())
}

/// The largest fabric (in nodes) whose dfsssp routing the benchmark times.
const DFSSSP_MAX_NODES: usize = 4096;

/// Routing times: discovery, LIDs and every switch's table, as `route` does them, best of `repeat`.
fn routing(args: &Args) -> Result<(), String> {
    use ibcc_core::fabric::route::{route, Engine, Options};
    use ibcc_core::fabric::{shapes, Speed, Width};
    let link = (Width::X4, Speed::Edr);
    let mut fabrics = vec![("twolevel 36", shapes::two_level(36, link).map_err(|e| e.to_string())?)];
    if args.large {
        fabrics.push(("fattree 36", shapes::fat_tree(36, link).map_err(|e| e.to_string())?));
    }
    if !args.json {
        outln!(
            "{:<14} {:>8} {:>9} {:>8} {:>12} {:>9}",
            "fabric",
            "hosts",
            "switches",
            "engine",
            "LFT entries",
            "wall s"
        );
    }
    for (name, f) in &fabrics {
        let hosts = f.nodes.iter().filter(|n| !n.is_switch()).count();
        let switches = f.nodes.len() - hosts;
        for engine in Engine::ALL {
            // dfsssp's lanes hold every pair of end ports' route (OpenSM's too): n^2 grows past memory here.
            if engine == Engine::Dfsssp && f.nodes.len() > DFSSSP_MAX_NODES {
                if !args.json {
                    outln!(
                        "{:<14} {:>8} {:>9} {:>8} skipped: {} end ports, {}^2 routes to layer",
                        name,
                        hosts,
                        switches,
                        engine.name(),
                        f.nodes.len(),
                        f.nodes.len()
                    );
                }
                continue;
            }
            let mut best = f64::INFINITY;
            let (mut entries, mut digest) = (0, 0);
            for _ in 0..args.repeat.max(1) {
                let t0 = Instant::now();
                let r = route(f, &Options::new(engine))?;
                best = best.min(t0.elapsed().as_secs_f64());
                entries = r.lfts.tables.iter().map(|t| t.len() - 1).sum::<usize>();
                digest = r.digest();
            }
            if args.json {
                let doc = serde_json::json!({ "fabric": name, "hosts": hosts, "engine": engine.name(), "wall_s": best,
                    "routed": true, "digest": format!("{digest:016x}") });
                outln!("{doc}");
            } else {
                outln!("{:<14} {:>8} {:>9} {:>8} {:>12} {:>9.3}", name, hosts, switches, engine.name(), entries, best);
            }
        }
    }
    Ok(())
}
