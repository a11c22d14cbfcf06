//! Self-tests run in the browser's wasm:
//! - `?selftest=digest` runs the cross-platform golden scenario and shows its results digest, which the browser
//!   tests compare with the value the native tests check (tests/golden/digest.txt);
//! - `?selftest=bench&duration=MS` runs `ibcc bench`'s scenarios and shows the same figures as `ibcc bench --json`
//!   (tests/browser/bench.mjs sets them side by side for the wasm/native ratio).

use ibcc_core::presets::golden_scenario;
use ibcc_core::sim::Simulation;
use yew::prelude::*;

fn query() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// Whether the page was opened as the digest self-test.
pub fn requested() -> bool {
    query().contains("selftest=digest")
}

/// Whether the page was opened as the benchmark.
pub fn bench_requested() -> bool {
    query().contains("selftest=bench")
}

/// `?selftest=bench&duration=MS`: the benchmark scenarios, each run once, as JSON lines.
#[component]
pub fn BenchSelfTest() -> Html {
    let lines = use_memo((), |_| {
        let q = query();
        let duration_ms = q
            .split(['?', '&'])
            .find_map(|kv| kv.strip_prefix("duration="))
            .and_then(|v| v.parse::<u64>().ok())
            .filter(|&d| (1..=1000).contains(&d))
            .unwrap_or(100);
        let now = || web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now());
        let mut out = String::new();
        for (name, scenario) in ibcc_core::presets::bench_scenarios(duration_ms) {
            let Ok(mut sim) = Simulation::new(&scenario) else { continue };
            let t0 = now();
            sim.run();
            let wall = (now() - t0) / 1000.0;
            let r = sim.results();
            let doc = serde_json::json!({ "scenario": name, "sim_ms": scenario.duration_ns as f64 / 1e6, "wall_s": wall, "events": r.events,
                "events_per_s": r.events as f64 / wall, "delivered_per_s": r.totals.delivered_packets as f64 / wall });
            out += &(doc.to_string() + "\n");
        }
        out
    });
    html! { <pre><output data-testid="bench-json">{ (*lines).clone() }</output></pre> }
}

#[component]
pub fn DigestSelfTest() -> Html {
    let outcome = use_memo((), |_| {
        let mut sim = Simulation::new(&golden_scenario()).map_err(|e| e.to_string())?;
        sim.run();
        Ok::<_, String>(format!("{:016x}", sim.results().digest()))
    });
    match &*outcome {
        Ok(digest) => {
            html! { <p>{ "Golden results digest: " }<output data-testid="golden-digest">{ digest }</output></p> }
        }
        Err(e) => html! { <p role="alert">{ e }</p> },
    }
}
