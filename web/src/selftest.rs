//! The self-tests, run by the simulation worker (its build is the one that simulates; the page's own wasm is built
//! for size) and shown by the page (`ui/selftest.rs`):
//! - the golden runs' fingerprints, which the browser tests compare with the lines the native tests check
//!   (tests/golden/fingerprints.txt);
//! - `ibcc bench`'s scenarios, each run once and timed by the worker's clock ([`bench`]), shown by the page as the
//!   JSON lines `ibcc bench --json` prints ([`bench_lines`]; tests/browser/bench.mjs sets them side by side for
//!   the wasm/native ratio);
//! - OpenSM's engines timed on a 648-host fabric ([`routing`], shown as [`routing_lines`]): routing is the
//!   worker's work too (the page checks a network without routing it).
//!
//! The worker runs, times and digests (in the binary form its messages use anyway); writing numbers as text
//! happens in the page, so the worker's wasm carries no JSON writer and no float formatting.

use crate::session::run_to_end;
use ibcc_core::scenario::Scenario;
use ibcc_core::sim::{Fingerprint, Report, Simulation};
use serde::{Deserialize, Serialize};

/// Each run's fingerprint (the page sends `presets::golden_runs`).
pub fn fingerprints(runs: &[(String, Scenario)]) -> Result<Vec<(String, u64)>, String> {
    runs.iter()
        .map(|(name, scenario)| {
            let mut sim = Simulation::new(scenario).map_err(|e| format!("{name}: {e}"))?;
            let (mut report, mut fp) = (Report::new(&sim), Fingerprint::default());
            run_to_end(&mut sim, &mut report, Some(&mut fp));
            Ok((name.clone(), fp.value()))
        })
        .collect()
}

/// Fingerprints as `tests/golden/fingerprints.txt` holds them: `name hex`, one per line.
pub fn fingerprint_lines(lines: &[(String, u64)]) -> String {
    lines.iter().map(|(name, fp)| format!("{name} {fp:016x}\n")).collect()
}

/// One benchmark scenario's run, as the worker measured it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BenchRow {
    pub name: String,
    pub sim_ns: u64,
    pub wall_ms: f64,
    pub events: u64,
    pub delivered: u64,
}

/// Each of `scenarios` (the page sends `presets::bench_scenarios`) run once and timed by `clock` (wall ms).
pub fn bench(scenarios: &[(String, Scenario)], clock: &dyn Fn() -> f64) -> Vec<BenchRow> {
    let mut rows = Vec::new();
    for (name, scenario) in scenarios {
        let Ok(mut sim) = Simulation::new(scenario) else { continue };
        let mut report = Report::new(&sim);
        let t0 = clock();
        run_to_end(&mut sim, &mut report, None);
        let wall_ms = clock() - t0;
        let r = report.results(&sim);
        rows.push(BenchRow {
            name: name.clone(),
            sim_ns: scenario.duration_ns,
            wall_ms,
            events: r.events,
            delivered: r.totals.delivered_packets,
        });
    }
    rows
}

/// One routing engine's run, as the worker timed it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RoutingRow {
    pub engine: String,
    pub hosts: u64,
    pub wall_ms: f64,
    pub routed: bool,
    /// `Routed::digest` of the tables (and lanes), in hex; empty if routing failed.
    pub digest: String,
}

/// OpenSM's engines on the 648-host two-level fat tree of 36-port switches, as the worker runs them before a run,
/// each timed by `clock` (wall ms).
pub fn routing(clock: &dyn Fn() -> f64) -> Vec<RoutingRow> {
    use ibcc_core::fabric::route::{route, Engine, Options};
    use ibcc_core::fabric::{shapes, Speed, Width};
    let Ok(f) = shapes::two_level(36, (Width::X4, Speed::Edr)) else { return Vec::new() };
    let hosts = f.nodes.iter().filter(|n| !n.is_switch()).count() as u64;
    let mut rows = Vec::new();
    for engine in Engine::ALL {
        let t0 = clock();
        let r = route(&f, &Options::new(engine));
        let wall_ms = clock() - t0;
        let digest = r.as_ref().map_or(String::new(), |r| format!("{:016x}", r.digest()));
        rows.push(RoutingRow { engine: engine.name().into(), hosts, wall_ms, routed: r.is_ok(), digest });
    }
    rows
}

/// `engine digest` per line, as tests/golden/routing.txt records them for the 648-host fat tree.
pub fn routing_digests(rows: &[RoutingRow]) -> String {
    rows.iter().map(|r| format!("{} {}\n", r.engine, r.digest)).collect()
}

/// `rows` as the JSON lines `ibcc bench --routing --json` prints (tests/browser/bench.mjs sets them side by side).
pub fn routing_lines(rows: &[RoutingRow]) -> String {
    let mut out = String::new();
    for r in rows {
        let doc = serde_json::json!({ "fabric": "twolevel 36", "hosts": r.hosts, "engine": r.engine,
            "wall_s": r.wall_ms / 1000.0, "routed": r.routed, "digest": r.digest });
        out += &(doc.to_string() + "\n");
    }
    out
}

/// `rows` as the JSON lines `ibcc bench --json` prints.
pub fn bench_lines(rows: &[BenchRow]) -> String {
    let mut out = String::new();
    for r in rows {
        let wall_s = r.wall_ms / 1000.0;
        let per_s = |n: u64| serde_json::Value::from(n as f64 / wall_s);
        let doc = serde_json::json!({ "scenario": r.name, "sim_ms": r.sim_ns as f64 / 1e6, "wall_s": wall_s,
            "events": r.events, "events_per_s": per_s(r.events), "delivered_per_s": per_s(r.delivered) });
        out += &(doc.to_string() + "\n");
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_worker_s_fingerprints_are_the_recorded_ones() {
        let want = include_str!("../../tests/golden/fingerprints.txt");
        let runs: Vec<_> = ibcc_core::presets::golden_runs().into_iter().collect();
        let lines = super::fingerprints(&runs).unwrap();
        assert_eq!(super::fingerprint_lines(&lines), want);
    }

    #[test]
    fn the_worker_s_routing_is_the_recorded_one() {
        let rows = super::routing(&|| 0.0);
        assert!(rows.iter().all(|r| r.routed), "{rows:?}");
        assert_eq!(super::routing_digests(&rows), include_str!("../../tests/golden/routing.txt"));
    }

    #[test]
    fn the_bench_prints_a_line_per_scenario() {
        let tick = std::cell::Cell::new(0.0);
        let clock = || {
            tick.set(tick.get() + 10.0);
            tick.get()
        };
        let scenarios: Vec<_> =
            ibcc_core::presets::bench_scenarios(1).into_iter().map(|(n, s)| (n.to_owned(), s)).collect();
        let rows = super::bench(&scenarios, &clock);
        let lines = super::bench_lines(&rows);
        assert_eq!(lines.lines().count(), scenarios.len());
        let first: serde_json::Value = serde_json::from_str(lines.lines().next().unwrap()).unwrap();
        assert_eq!(first["wall_s"], 0.01, "timed by the clock given");
        assert_eq!(first["sim_ms"], 1.0);
        assert!(first["events"].as_u64().unwrap() > 0);
        assert!(first["events_per_s"].as_f64().unwrap() > 0.0);
    }
}
