//! A/B comparison: duplicate the scenario as B, change parameters of B, run both with the same seed, and see their
//! plots overlaid (A solid, B dashed, same colour per curve) and their results side by side.

use super::params::ParamsPanel;
use super::plot::Plot;
use super::wall_ms;
use crate::diff::differences;
use crate::rate_plot::{Curve, YAxis};
use crate::run::{Frame, Run};
use crate::trace::{y_axis, PlotKind};
use gloo_timers::callback::Interval;
use ibcc_core::scenario::Scenario;
use ibcc_core::sim::Results;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// Wall time per frame for both runs together, in milliseconds.
const FRAME_BUDGET_MS: f64 = 10.0;
const MAX_CURVES: usize = 6;

#[derive(Properties, PartialEq)]
pub struct CompareProps {
    /// A: the playground's scenario.
    pub scenario: Rc<Scenario>,
}

#[derive(Clone, PartialEq)]
struct Views {
    a: Frame,
    b: Frame,
    curves: Rc<Vec<Curve>>,
}

/// A's curves solid and B's dashed, each pair in one colour.
fn overlay(a: Vec<Curve>, b: Vec<Curve>) -> Vec<Curve> {
    let mut out = Vec::new();
    for (i, c) in a.into_iter().enumerate() {
        out.push(Curve { label: format!("A: {}", c.label), colour: Some(i), ..c });
    }
    let n = out.len();
    for (i, c) in b.into_iter().enumerate() {
        let colour = out.iter().position(|x| x.label == format!("A: {}", c.label)).unwrap_or(n + i);
        out.push(Curve { label: format!("B: {}", c.label), colour: Some(colour), dashed: true, ..c });
    }
    out
}

fn views(a: &mut Run, b: &mut Run, kind: PlotKind) -> Views {
    let (fa, fb) = (a.frame(), b.frame());
    let curves = overlay(a.curves(kind, &fa.results, MAX_CURVES), b.curves(kind, &fb.results, MAX_CURVES));
    Views { a: fa, b: fb, curves: Rc::new(curves) }
}

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A mean delay in microseconds, or "-" when nothing was delivered.
fn delay(d: Option<f64>) -> String {
    d.map_or(String::from("-"), |d| format!("{:.2} µs", d / 1000.0))
}

/// Rows of the side-by-side table: what, A, B.
fn rows(a: &Results, b: &Results) -> Vec<(String, String, String)> {
    let mut r = vec![(
        String::from("aggregate throughput (links)"),
        format!("{:.3}", a.aggregate_throughput()),
        format!("{:.3}", b.aggregate_throughput()),
    )];
    for g in &a.groups {
        let other = b.group(&g.name);
        let name = if g.name.is_empty() { "(no group)" } else { g.name.as_str() };
        r.push((
            format!("{name} throughput"),
            pct(g.throughput_fraction),
            other.map_or(String::from("-"), |o| pct(o.throughput_fraction)),
        ));
        r.push((
            format!("{name} Jain's index"),
            format!("{:.3}", g.jain_index),
            other.map_or(String::from("-"), |o| format!("{:.3}", o.jain_index)),
        ));
        r.push((
            format!("{name} marks"),
            g.marks.to_string(),
            other.map_or(String::from("-"), |o| o.marks.to_string()),
        ));
        r.push((
            format!("{name} mean delay"),
            delay(g.mean_delay_ns),
            other.map_or(String::from("-"), |o| delay(o.mean_delay_ns)),
        ));
    }
    r.push((String::from("mean delay"), delay(a.mean_delay_ns()), delay(b.mean_delay_ns())));
    r.push((String::from("marked packets"), a.totals.marked_packets.to_string(), b.totals.marked_packets.to_string()));
    r.push((
        String::from("dropped packets"),
        a.totals.dropped_packets.to_string(),
        b.totals.dropped_packets.to_string(),
    ));
    for f in &a.flows {
        let other = b.flow(&f.id).map_or(String::from("-"), |o| pct(o.throughput_fraction));
        r.push((format!("flow {} throughput", f.id), pct(f.throughput_fraction), other));
    }
    r
}

#[component]
pub fn Compare(p: &CompareProps) -> Html {
    let b = use_state(|| None::<Rc<Scenario>>);
    let runs: Rc<RefCell<Option<(Run, Run)>>> = use_mut_ref(|| None);
    let view = use_state(|| None::<Views>);
    let running = use_state(|| false);
    let error = use_state(|| None::<String>);
    let kind = use_state(|| PlotKind::Rates);

    {
        let (runs, view, running_h) = (runs.clone(), view.clone(), running.clone());
        use_effect_with((*running, *kind), move |&(running, kind)| {
            let interval = running.then(|| {
                Interval::new(16, move || {
                    let mut guard = runs.borrow_mut();
                    let Some((ra, rb)) = guard.as_mut() else { return };
                    let start = wall_ms();
                    // Both runs share the budget; the one behind in simulated time goes first.
                    let fa = ra.advance(u64::MAX, || wall_ms() - start < FRAME_BUDGET_MS / 2.0);
                    let fb = rb.advance(u64::MAX, || wall_ms() - start < FRAME_BUDGET_MS);
                    view.set(Some(views(ra, rb, kind)));
                    if fa && fb {
                        running_h.set(false);
                    }
                })
            });
            move || drop(interval)
        });
    }
    {
        let (runs, view) = (runs.clone(), view.clone());
        use_effect_with(*kind, move |&kind| {
            if let Some((ra, rb)) = runs.borrow_mut().as_mut() {
                view.set(Some(views(ra, rb, kind)));
            }
        });
    }

    let setup = {
        let (b, a, view) = (b.clone(), p.scenario.clone(), view.clone());
        Callback::from(move |_| {
            b.set(Some(a.clone()));
            view.set(None);
        })
    };
    let on_b = {
        let b = b.clone();
        Callback::from(move |next: Scenario| b.set(Some(Rc::new(next))))
    };
    let on_run = {
        let (runs, view, running, error, a, b, kind) =
            (runs.clone(), view.clone(), running.clone(), error.clone(), p.scenario.clone(), b.clone(), *kind);
        Callback::from(move |_| {
            let Some(bs) = (*b).clone() else { return };
            match (Run::new(&a), Run::new(&bs)) {
                (Ok(mut ra), Ok(mut rb)) => {
                    view.set(Some(views(&mut ra, &mut rb, kind)));
                    *runs.borrow_mut() = Some((ra, rb));
                    error.set(None);
                    running.set(true);
                }
                (Err(e), _) => error.set(Some(format!("A: {e}"))),
                (_, Err(e)) => error.set(Some(format!("B: {e}"))),
            }
        })
    };
    let on_stop = {
        let running = running.clone();
        Callback::from(move |_| running.set(false))
    };
    let on_kind = {
        let kind = kind.clone();
        Callback::from(move |k: PlotKind| kind.set(k))
    };

    let Some(bs) = (*b).clone() else {
        return html! {
            <section class="compare" data-testid="compare" aria-label="A/B comparison">
                <h2>{ "A/B comparison" }</h2>
                <p class="lede">{ "Duplicate this scenario as B, change parameters of B, and run both with the same seed: their plots are overlaid and their results set side by side." }</p>
                <button onclick={setup} data-testid="compare-setup">{ "Duplicate as B" }</button>
            </section>
        };
    };
    let diffs = differences(&p.scenario, &bs);
    let (y_desc, y_top) = y_axis(*kind, p.scenario.measure.window_ns as f64 / 1e6);
    let progress = view
        .as_ref()
        .map_or(0.0, |v| (v.a.snapshot.time_ns / v.a.end_ns).min(v.b.snapshot.time_ns / v.b.end_ns).min(1.0));
    html! {
        <section class="compare" data-testid="compare" aria-label="A/B comparison">
            <h2>{ "A/B comparison" }</h2>
            <p class="lede">{ "A is the scenario above; B is its copy with the parameters below. Both run with their own seed setting (the same unless you change it)." }</p>
            <div class="compare-layout">
                <div class="side">
                    <div data-testid="compare-diff" class="diff">
                        if diffs.is_empty() {
                            <p>{ "B is the same as A: change a parameter of B below." }</p>
                        } else {
                            <p>{ "B differs from A in:" }</p>
                            <ul>
                                for (k, x, y) in diffs.iter().take(12) {
                                    <li><code>{ k }</code>{ format!(": {x} → {y}") }</li>
                                }
                                if diffs.len() > 12 {
                                    <li>{ format!("and {} more", diffs.len() - 12) }</li>
                                }
                            </ul>
                        }
                    </div>
                    <div class="input-row">
                        if *running {
                            <button onclick={on_stop} data-testid="compare-stop">{ "Pause" }</button>
                        } else {
                            <button onclick={on_run} data-testid="compare-run">{ "Start A and B" }</button>
                        }
                        <button onclick={setup} data-testid="compare-reset-b">{ "Copy A again" }</button>
                        <progress max="1" value={progress.to_string()} data-testid="compare-progress" aria-label="Comparison progress" />
                    </div>
                    if let Some(e) = &*error {
                        <p class="error" role="alert">{ e }</p>
                    }
                    <ParamsPanel scenario={bs} on_change={on_b} prefix="b-" />
                </div>
                <div class="playground-main">
                    if let Some(v) = &*view {
                        <Plot kind={*kind} on_kind={on_kind} curves={v.curves.clone()} end_ms={v.a.end_ns.max(v.b.end_ns) / 1e6}
                            y={YAxis { desc: y_desc, top: y_top }} prefix="cmp-" />
                        <table class="results" data-testid="compare-results">
                            <caption>{ "Results side by side (over each run's measurement interval)" }</caption>
                            <thead><tr><th>{ "" }</th><th>{ "A" }</th><th>{ "B" }</th></tr></thead>
                            <tbody>
                                for (what, a, b) in rows(&v.a.results, &v.b.results) {
                                    <tr><th scope="row">{ what }</th><td>{ a }</td><td>{ b }</td></tr>
                                }
                            </tbody>
                        </table>
                    }
                </div>
            </div>
        </section>
    }
}
