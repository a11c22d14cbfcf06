//! `ibcc bench`: simulator speed on named scenarios, as figures (events per second, delivered packets per second,
//! wall time). A benchmark prints numbers; it never passes or fails on them. Events are all the simulation
//! processed (`Simulation::events`); "queued" are those that went through the event queue (the rest happened across
//! links without propagation delay and were handled at once).

use crate::output::outln;
use ibcc_core::presets::bench_scenarios;
use ibcc_core::sim::Run;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Simulated milliseconds per run (the fat tree runs a tenth of it).
    #[arg(long, default_value_t = 500)]
    duration_ms: u64,
    /// Runs per scenario (the best is reported, as the least disturbed by other work).
    #[arg(long, default_value_t = 3)]
    repeat: u32,
    /// One JSON object per scenario instead of a table (tests/browser/bench.mjs compares them with wasm's).
    #[arg(long)]
    json: bool,
}

pub fn run(args: &Args) -> Result<(), String> {
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
    for (name, scenario) in bench_scenarios(args.duration_ms) {
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
