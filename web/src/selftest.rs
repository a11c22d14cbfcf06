//! The self-tests, run by the simulation worker (its build is the one that simulates; the page's own wasm is built
//! for size) and shown by the page (`ui/selftest.rs`):
//! - the cross-platform golden scenario's results digest, which the browser tests compare with the value the
//!   native tests check (tests/golden/digest.txt);
//! - `ibcc bench`'s scenarios, each run once and timed by the worker's clock, as the JSON lines `ibcc bench --json`
//!   prints (tests/browser/bench.mjs sets them side by side for the wasm/native ratio).

use ibcc_core::presets::{bench_scenarios, golden_scenario};
use ibcc_core::sim::Simulation;

/// The golden scenario's results digest, in hex.
pub fn digest() -> Result<String, String> {
    let mut sim = Simulation::new(&golden_scenario()).map_err(|e| e.to_string())?;
    sim.run();
    Ok(format!("{:016x}", sim.results().digest()))
}

/// The benchmark's scenarios of `duration_ms` simulated ms, one JSON line each; `clock` gives wall ms.
pub fn bench(duration_ms: u64, clock: &dyn Fn() -> f64) -> String {
    let mut out = String::new();
    for (name, scenario) in bench_scenarios(duration_ms) {
        let Ok(mut sim) = Simulation::new(&scenario) else { continue };
        let t0 = clock();
        sim.run();
        let wall = (clock() - t0) / 1000.0;
        let r = sim.results();
        let doc = serde_json::json!({ "scenario": name, "sim_ms": scenario.duration_ns as f64 / 1e6, "wall_s": wall,
            "events": r.events, "events_per_s": r.events as f64 / wall,
            "delivered_per_s": r.totals.delivered_packets as f64 / wall });
        out += &(doc.to_string() + "\n");
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_digest_is_the_native_one() {
        let want = include_str!("../../tests/golden/digest.txt").trim();
        assert_eq!(super::digest().unwrap(), want);
    }

    #[test]
    fn the_bench_prints_a_line_per_scenario() {
        let tick = std::cell::Cell::new(0.0);
        let clock = || {
            tick.set(tick.get() + 10.0);
            tick.get()
        };
        let lines = super::bench(1, &clock);
        let n = ibcc_core::presets::bench_scenarios(1).len();
        assert_eq!(lines.lines().count(), n);
        let first: serde_json::Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
        assert_eq!(first["wall_s"], 0.01, "timed by the clock given");
        assert!(first["events"].as_u64().unwrap() > 0);
    }
}
