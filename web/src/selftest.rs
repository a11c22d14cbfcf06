//! The self-tests, run by the simulation worker (its build is the one that simulates; the page's own wasm is built
//! for size) and shown by the page (`ui/selftest.rs`):
//! - the cross-platform golden scenario's results digest, which the browser tests compare with the value the
//!   native tests check (tests/golden/digest.txt);
//! - `ibcc bench`'s scenarios, each run once and timed by the worker's clock, as the JSON lines `ibcc bench --json`
//!   prints (tests/browser/bench.mjs sets them side by side for the wasm/native ratio).

use ibcc_core::scenario::Scenario;
use ibcc_core::sim::Simulation;

/// The results digest of `golden` (the page sends `presets::golden_scenario`), in hex.
pub fn digest(golden: &Scenario) -> Result<String, String> {
    let mut sim = Simulation::new(golden).map_err(|e| e.to_string())?;
    sim.run();
    Ok(format!("{:016x}", sim.results().digest()))
}

/// Each of `scenarios` (the page sends `presets::bench_scenarios`) run once and timed by `clock` (wall ms), as
/// the JSON lines `ibcc bench --json` prints.
pub fn bench(scenarios: &[(String, Scenario)], clock: &dyn Fn() -> f64) -> String {
    let mut out = String::new();
    for (name, scenario) in scenarios {
        let Ok(mut sim) = Simulation::new(scenario) else { continue };
        let t0 = clock();
        sim.run();
        let wall = (clock() - t0) / 1000.0;
        let r = sim.results();
        // Written by hand: the worker carries no JSON writer (names are preset names, plain ASCII).
        out += &format!(
            "{{\"scenario\":\"{name}\",\"sim_ms\":{},\"wall_s\":{},\"events\":{},\"events_per_s\":{},\"delivered_per_s\":{}}}\n",
            number(scenario.duration_ns as f64 / 1e6),
            number(wall),
            r.events,
            number(r.events as f64 / wall),
            number(r.totals.delivered_packets as f64 / wall)
        );
    }
    out
}

/// `x` as a JSON number (`null` if it is not finite: a run too quick for the clock).
fn number(x: f64) -> String {
    if x.is_finite() {
        format!("{x}")
    } else {
        String::from("null")
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_digest_is_the_native_one() {
        let want = include_str!("../../tests/golden/digest.txt").trim();
        assert_eq!(super::digest(&ibcc_core::presets::golden_scenario()).unwrap(), want);
    }

    #[test]
    fn the_bench_prints_a_line_per_scenario() {
        let tick = std::cell::Cell::new(0.0);
        let clock = || {
            tick.set(tick.get() + 10.0);
            tick.get()
        };
        let scenarios: Vec<(String, _)> =
            ibcc_core::presets::bench_scenarios(1).into_iter().map(|(n, s)| (n.to_owned(), s)).collect();
        let lines = super::bench(&scenarios, &clock);
        let n = scenarios.len();
        assert_eq!(lines.lines().count(), n);
        let first: serde_json::Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
        assert_eq!(first["wall_s"], 0.01, "timed by the clock given");
        assert!(first["events"].as_u64().unwrap() > 0);
    }
}
