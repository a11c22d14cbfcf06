//! `ibcc bench --pft-grid`: the PFT paper's GPCNeT experiment as `ibcc figures` runs it (pft-fig3 to 5: no control
//! isolated and congested, and every PFT setting congested, latency and bandwidth canaries, at 16 processes per node
//! on the 120 nodes), on all cores, timed: the whole grid's wall time (issue 31's speed target: under a minute) and
//! each run's.

use crate::gpcnet_figures::{grid, grid_scenarios, longest_first};
use crate::output::outln;
use ibcc_core::presets::pft_gpcnet::{gpcnet_scale, settings};
use ibcc_core::sim::congestion_impact::run_canary;
use std::time::Instant;

pub fn run(json: bool) -> Result<(), String> {
    let config = gpcnet_scale();
    let (base, scenarios) = grid_scenarios();
    let all = settings();
    let runs = grid(&base, &scenarios, &all);
    let jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let t0 = Instant::now();
    let done = crate::parallel::map_in_order(&runs, &longest_first(&runs), |&(_, s, canary, congested)| {
        let t = Instant::now();
        run_canary(s, &config, canary, congested).map(|r| (r, t.elapsed().as_secs_f64()))
    });
    let wall = t0.elapsed().as_secs_f64();
    let mut sum = 0.0;
    let mut events = 0u64;
    if !json {
        outln!(
            "{:<28} {:<10} {:<10} {:>10} {:>12} {:>8} {:>9}",
            "setting",
            "canary",
            "run",
            "sim us",
            "events",
            "wall s",
            "Mev/s"
        );
    }
    for (&(label, _, canary, congested), r) in runs.iter().zip(done) {
        let (r, w) = r?;
        sum += w;
        events += r.events;
        let run = if congested { "congested" } else { "isolated" };
        if json {
            let doc = serde_json::json!({ "setting": label, "canary": canary.id(), "run": run,
                "simulated_ns": r.simulated_ns, "events": r.events, "wall_s": w });
            outln!("{doc}");
        } else {
            outln!(
                "{:<28} {:<10} {:<10} {:>10.1} {:>12} {:>8.2} {:>9.2}",
                label,
                canary.id(),
                run,
                r.simulated_ns as f64 / 1e3,
                r.events,
                w,
                r.events as f64 / w / 1e6
            );
        }
    }
    if json {
        let doc = serde_json::json!({ "grid_wall_s": wall, "runs": runs.len(), "jobs": jobs, "run_wall_sum_s": sum,
            "events": events });
        outln!("{doc}");
    } else {
        outln!(
            "grid: {} runs at {} processes per node on {jobs} threads in {wall:.1} s (the runs alone: {sum:.1} s; \
             {events} events, {:.2} M events/s per thread)",
            runs.len(),
            config.processes_per_node,
            events as f64 / sum / 1e6
        );
    }
    Ok(())
}
