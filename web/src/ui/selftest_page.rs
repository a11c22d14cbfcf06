//! The self-test pages, run by the simulation worker (`crate::selftest`) and shown here:
//! - `?selftest=fingerprints`: the golden runs' fingerprints (tests/golden/fingerprints.txt);
//! - `?selftest=bench&duration=MS[&rounds=N]`: `ibcc bench`'s scenarios (N times over, one worker: the first round
//!   includes the browser's compiling the wasm's hot code for speed), the same figures as `ibcc bench --json`; with
//!   `&saved=1`, the playground's saved scenario instead, for its own duration unless one is given (the worker's
//!   own speed on it, without the page drawing: tests/browser/fabric_perf.mjs);
//! - `?selftest=routing`: OpenSM's engines on the 648-host fat tree, timed in the page (`ibcc bench --routing --json`).

use super::bridge::SimWorker;
use crate::protocol::{FromWorker, ToWorker};
use crate::selftest::{bench_lines, fingerprint_lines, routing_lines};
use yew::prelude::*;

fn query() -> String {
    web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default()
}

/// The value of `key` in the query string `q`, if given.
fn param<'a>(q: &'a str, key: &str) -> Option<&'a str> {
    q.split(['?', '&']).find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
}

/// What a self-test page asks its worker.
#[derive(Debug, Clone, PartialEq)]
pub enum Test {
    /// The golden runs' fingerprints.
    Fingerprints,
    /// The benchmark's scenarios (or the playground's saved one) of this many simulated ms, `rounds` times over.
    Bench { duration_ms: Option<u64>, saved: bool, rounds: usize },
    /// Routing times, measured in the page.
    Routing,
}

/// The self-test the page was opened as, if any.
pub fn requested() -> Option<Test> {
    let q = query();
    if q.contains("selftest=fingerprints") {
        Some(Test::Fingerprints)
    } else if q.contains("selftest=routing") {
        Some(Test::Routing)
    } else if q.contains("selftest=bench") {
        let duration_ms =
            param(&q, "duration").and_then(|v| v.parse::<u64>().ok()).filter(|&d| (1..=1000).contains(&d));
        let rounds = param(&q, "rounds").and_then(|v| v.parse::<usize>().ok()).map_or(1, |r| r.clamp(1, 5));
        Some(Test::Bench { duration_ms, saved: param(&q, "saved") == Some("1"), rounds })
    } else {
        None
    }
}

#[derive(Properties, PartialEq)]
pub struct SelfTestProps {
    pub test: Test,
}

/// Asks a worker for the self-test and shows its answer.
#[component]
pub fn SelfTest(p: &SelfTestProps) -> Html {
    let outcome = use_state(|| None::<Result<String, String>>);
    let worker = use_mut_ref(|| None::<SimWorker>);
    {
        let (outcome, test) = (outcome.clone(), p.test.clone());
        use_effect_with((), move |_| {
            let done = outcome.clone();
            let on_message = Callback::from(move |m: FromWorker| match m {
                FromWorker::Fingerprinted { lines } => done.set(Some(lines.map(|l| fingerprint_lines(&l)))),
                FromWorker::Benched { rows } => done.set(Some(Ok(bench_lines(&rows)))),
                FromWorker::RoutingBenched { rows } => done.set(Some(Ok(routing_lines(&rows)))),
                _ => {}
            });
            let failed = outcome.clone();
            let on_error = Callback::from(move |e: String| failed.set(Some(Err(e))));
            let message = match test {
                Test::Routing => ToWorker::RoutingBench,
                Test::Fingerprints => ToWorker::Fingerprints { runs: ibcc_core::presets::golden_runs() },
                Test::Bench { duration_ms, saved: false, rounds } => {
                    let scenarios = ibcc_core::presets::bench_scenarios(duration_ms.unwrap_or(100));
                    ToWorker::Bench {
                        scenarios: (0..rounds)
                            .flat_map(|_| scenarios.iter().map(|(name, s)| ((*name).to_owned(), s.clone())))
                            .collect(),
                    }
                }
                Test::Bench { duration_ms, saved: true, .. } => match super::document::restore() {
                    Ok(Some((mut s, _))) => {
                        if let Some(ms) = duration_ms {
                            // Measurement starts within the shorter run (it counts no events of its own).
                            s.duration_ns = ms * 1_000_000;
                            s.measure.from_ns = s.measure.from_ns.min(s.duration_ns / 2);
                            s.measure.to_ns = None;
                        }
                        if let Err(e) = s.check() {
                            return outcome.set(Some(Err(format!("the saved scenario: {e}"))));
                        }
                        ToWorker::Bench { scenarios: vec![("saved".to_owned(), s)] }
                    }
                    Ok(None) => return outcome.set(Some(Err("no scenario is saved in this browser".into()))),
                    Err(e) => return outcome.set(Some(Err(format!("the saved scenario: {e}")))),
                },
            };
            match SimWorker::start(on_message, on_error) {
                Ok(w) => {
                    w.post(&message);
                    *worker.borrow_mut() = Some(w);
                }
                Err(e) => outcome.set(Some(Err(e))),
            }
        });
    }
    match (&*outcome, &p.test) {
        (None, _) => html! { <p role="status">{ "Running…" }</p> },
        (Some(Err(e)), _) => html! { <p role="alert">{ e }</p> },
        (Some(Ok(lines)), Test::Fingerprints) => {
            html! { <pre><output data-testid="golden-fingerprints">{ lines }</output></pre> }
        }
        (Some(Ok(lines)), Test::Bench { .. }) => {
            html! { <pre><output data-testid="bench-json">{ lines }</output></pre> }
        }
        (Some(Ok(lines)), Test::Routing) => {
            html! { <pre><output data-testid="routing-json">{ lines }</output></pre> }
        }
    }
}
