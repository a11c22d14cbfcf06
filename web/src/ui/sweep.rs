//! The browser sweep panel: sweep up to three settings of the current scenario, each point a full run in a web worker
//! (one per core, `web/src/bin/sweep-worker.rs`), with progress and cancel; plot any result against the first
//! setting (one curve per combination of the others) and open any point as the playground's scenario.

use super::super::theme;
use crate::finc_plot::PlotTheme;
use crate::rate_plot::{self, YAxis};
use crate::sweep::{curves, describe, parse_values, points, quantities, Axis, Quantity};
use ibcc_core::scenario::Scenario;
use ibcc_core::sim::Results;
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use web_sys::{HtmlCanvasElement, MessageEvent, Worker};
use yew::prelude::*;

/// Settings offered for sweeping, by path (any path of the scenario format works; these are the useful ones).
const PATHS: &[&str] = &[
    "switch.buffer_packets",
    "marking.policy",
    "marking.output_threshold_packets",
    "marking.full_check",
    "marking.cnt1_until",
    "source.response",
    "source.rate",
    "source.window_packets",
    "source.m",
    "source.fixed_rate_fraction",
    "source.persistent_state",
    "switch.max_bypass",
    "switch.bypass_counting",
    "switch.input_transfers",
    "switch.arbitration",
    "switch.forwarding_delay_ns",
    "link.bandwidth_gbps",
    "link.propagation_ns",
    "seed",
];

/// A sweep under way (or finished): its points, the workers running them, and what came back.
struct Job {
    axes: Vec<Axis>,
    scenarios: Vec<Scenario>,
    values: Vec<Vec<Value>>,
    results: Vec<Option<Results>>,
    next: usize,
    done: usize,
    error: Option<String>,
    started_ms: f64,
    finished_ms: Option<f64>,
    workers: Vec<Worker>,
    /// The workers' message handlers, kept alive as long as the workers.
    handlers: Vec<Closure<dyn FnMut(MessageEvent)>>,
    /// Their error handlers (a worker that fails to load or crashes stops the sweep with its message).
    error_handlers: Vec<Closure<dyn FnMut(ErrorEvent)>>,
}

impl Job {
    fn stop(&mut self) {
        for w in &self.workers {
            w.terminate();
        }
        self.workers.clear();
        self.handlers.clear();
        self.error_handlers.clear();
    }

    /// Gives worker `w` the next point, if any.
    fn feed(&mut self, w: usize) {
        if self.next >= self.scenarios.len() {
            return;
        }
        let k = self.next;
        self.next += 1;
        let msg = serde_json::json!({ "id": k, "scenario": self.scenarios[k] }).to_string();
        if let Some(worker) = self.workers.get(w) {
            let _ = worker.post_message(&JsValue::from_str(&msg));
        }
    }
}

/// A worker: the Trunk-built no-modules script, started from a small shim that holds messages until the wasm has
/// loaded (the worker's `main` sets the real handler).
fn spawn_worker() -> Result<Worker, JsValue> {
    let page = super::share::page_url();
    let base = &page[..page.rfind('/').map_or(page.len(), |i| i + 1)];
    let script = format!(
        "importScripts('{base}sweep-worker.js');\
         const queued = []; self.onmessage = (e) => queued.push(e);\
         wasm_bindgen('{base}sweep-worker_bg.wasm').then(() => {{ for (const e of queued) self.onmessage(e); }});"
    );
    let parts = js_sys::Array::of1(&JsValue::from_str(&script));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/javascript");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    Worker::new(&url)
}

fn cores() -> usize {
    web_sys::window().map_or(2, |w| w.navigator().hardware_concurrency() as usize).clamp(1, 16)
}

#[derive(Properties, PartialEq)]
pub struct SweepProps {
    pub scenario: Rc<Scenario>,
    /// Open a point as the playground's scenario.
    pub on_open: Callback<Scenario>,
}

#[component]
pub fn SweepPanel(p: &SweepProps) -> Html {
    let path1 = use_state(|| String::from(PATHS[0]));
    let values1 = use_state(|| String::from("1..8"));
    let path2 = use_state(String::new);
    let values2 = use_state(String::new);
    let path3 = use_state(String::new);
    let values3 = use_state(String::new);
    let quantity = use_state(|| Quantity::Aggregate);
    let error = use_state(|| None::<String>);
    let job: Rc<RefCell<Option<Job>>> = use_mut_ref(|| None);
    // Bumped by the workers' messages to redraw.
    let tick = use_state(|| 0u64);
    let canvas = use_node_ref();

    // Stop the workers if the panel goes away.
    {
        let job = job.clone();
        use_effect_with((), move |_| {
            move || {
                if let Some(j) = job.borrow_mut().as_mut() {
                    j.stop();
                }
            }
        });
    }

    let text_input = |h: &UseStateHandle<String>| {
        let h = h.clone();
        Callback::from(move |e: InputEvent| h.set(e.target_unchecked_into::<web_sys::HtmlInputElement>().value()))
    };
    let select_input = |h: &UseStateHandle<String>| {
        let h = h.clone();
        Callback::from(move |e: Event| h.set(e.target_unchecked_into::<web_sys::HtmlSelectElement>().value()))
    };
    let on_quantity = {
        let quantity = quantity.clone();
        Callback::from(move |e: Event| {
            quantity.set(Quantity::from_id(&e.target_unchecked_into::<web_sys::HtmlSelectElement>().value()))
        })
    };

    let on_run = {
        let (scenario, job, tick, error) = (p.scenario.clone(), job.clone(), tick.clone(), error.clone());
        let extra = [(path2.clone(), values2.clone()), (path3.clone(), values3.clone())];
        let (path1, values1) = (path1.clone(), values1.clone());
        Callback::from(move |_| {
            let mut axes = Vec::new();
            match parse_values(&values1) {
                Ok(v) => axes.push(Axis { path: (*path1).clone(), values: v }),
                Err(e) => return error.set(Some(format!("{}: {e}", *path1))),
            }
            for (path, values) in &extra {
                if !path.is_empty() {
                    match parse_values(values) {
                        Ok(v) => axes.push(Axis { path: (**path).clone(), values: v }),
                        Err(e) => return error.set(Some(format!("{}: {e}", **path))),
                    }
                }
            }
            let pts = match points(&scenario, &axes) {
                Ok(p) => p,
                Err(e) => return error.set(Some(e)),
            };
            error.set(None);
            if let Some(old) = job.borrow_mut().as_mut() {
                old.stop();
            }
            let n = pts.len();
            let (values, scenarios): (Vec<_>, Vec<_>) = pts.into_iter().unzip();
            *job.borrow_mut() = Some(Job {
                axes,
                scenarios,
                values,
                results: vec![None; n],
                next: 0,
                done: 0,
                error: None,
                started_ms: super::wall_ms(),
                finished_ms: None,
                workers: Vec::new(),
                handlers: Vec::new(),
                error_handlers: Vec::new(),
            });
            for w in 0..cores().min(n) {
                let worker = match spawn_worker() {
                    Ok(worker) => worker,
                    Err(e) => {
                        error.set(Some(format!("could not start a web worker: {e:?}")));
                        break;
                    }
                };
                let (job_h, tick_h) = (job.clone(), tick.clone());
                let handler = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                    let text = e.data().as_string().unwrap_or_default();
                    let mut guard = job_h.borrow_mut();
                    let Some(j) = guard.as_mut() else { return };
                    let reply: Value = serde_json::from_str(&text).unwrap_or_default();
                    match (reply.get("id").and_then(Value::as_u64), reply.get("results")) {
                        (Some(id), Some(r)) => match serde_json::from_value::<Results>(r.clone()) {
                            Ok(r) => {
                                if let Some(slot) = j.results.get_mut(id as usize) {
                                    *slot = Some(r);
                                }
                            }
                            Err(err) => j.error = Some(format!("a point's results could not be read: {err}")),
                        },
                        _ => j.error = Some(reply.get("error").map_or(text.clone(), Value::to_string)),
                    }
                    j.done += 1;
                    if j.done >= j.scenarios.len() || j.error.is_some() {
                        j.finished_ms = Some(super::wall_ms());
                        j.stop();
                    } else {
                        j.feed(w);
                    }
                    tick_h.set(*tick_h + 1);
                });
                worker.set_onmessage(Some(handler.as_ref().unchecked_ref()));
                let (job_e, tick_e) = (job.clone(), tick.clone());
                let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |e: ErrorEvent| {
                    if let Some(j) = job_e.borrow_mut().as_mut() {
                        j.error = Some(format!("a sweep worker failed: {}", e.message()));
                        j.finished_ms.get_or_insert(super::wall_ms());
                        j.stop();
                    }
                    tick_e.set(*tick_e + 1);
                });
                worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
                if let Some(j) = job.borrow_mut().as_mut() {
                    j.workers.push(worker);
                    j.handlers.push(handler);
                    j.error_handlers.push(on_error);
                    j.feed(w);
                }
            }
            tick.set(*tick + 1);
        })
    };
    let on_cancel = {
        let (job, tick) = (job.clone(), tick.clone());
        Callback::from(move |_| {
            if let Some(j) = job.borrow_mut().as_mut() {
                j.stop();
                j.finished_ms.get_or_insert(super::wall_ms());
                j.error.get_or_insert_with(|| String::from("cancelled"));
            }
            tick.set(*tick + 1);
        })
    };

    let guard = job.borrow();
    let (plot_curves, numeric) = guard.as_ref().map_or((Vec::new(), true), |j| curves(&j.axes, &j.results, &quantity));
    {
        let canvas = canvas.clone();
        let (c, q) = (plot_curves.clone(), (*quantity).clone());
        let x_desc = guard.as_ref().and_then(|j| j.axes.first()).map_or(String::new(), |a| {
            if numeric {
                a.path.clone()
            } else {
                format!("{} (value number)", a.path)
            }
        });
        use_effect_with((c, q.clone(), *tick), move |(c, q, _)| {
            let xs: Vec<f64> = c.iter().flat_map(|c| c.points.iter().map(|p| p.0)).collect();
            if xs.is_empty() {
                return;
            }
            let (x0, x1) = xs.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
            let pad = ((x1 - x0) * 0.04).max(0.5);
            if let Some(backend) = canvas.cast::<HtmlCanvasElement>().and_then(CanvasBackend::with_canvas_object) {
                let theme: PlotTheme = theme::plot_theme();
                let y = YAxis { desc: q.label(), top: None };
                let _ = rate_plot::draw_xy(&backend.into_drawing_area(), c, (x0 - pad, x1 + pad), &x_desc, &y, theme);
            }
        });
    }
    let status = guard.as_ref().map(|j| {
        let secs = (j.finished_ms.unwrap_or_else(super::wall_ms) - j.started_ms) / 1000.0;
        let state = match (&j.error, j.finished_ms) {
            (Some(e), _) => format!("stopped: {e}"),
            (None, Some(_)) => String::from("done"),
            (None, None) => format!("running on {} workers", j.workers.len()),
        };
        (j.done, j.scenarios.len(), format!("{}/{} points, {secs:.1} s, {state}", j.done, j.scenarios.len()))
    });
    let running = guard.as_ref().is_some_and(|j| j.finished_ms.is_none());
    let rows = guard.as_ref().map(|j| {
        j.values
            .iter()
            .enumerate()
            .map(|(i, v)| {
                let value = j.results[i].as_ref().map_or(String::from("…"), |r| format!("{:.4}", quantity.value(r)));
                let (s, on_open) = (j.scenarios[i].clone(), p.on_open.clone());
                let open = Callback::from(move |_| on_open.emit(s.clone()));
                html! {
                    <tr data-testid={format!("sweep-row-{i}")}>
                        <td>{ describe(&j.axes, v) }</td>
                        <td>{ value }</td>
                        <td><button class="linklike" onclick={open} data-testid={format!("sweep-open-{i}")}>{ "Open" }</button></td>
                    </tr>
                }
            })
            .collect::<Vec<_>>()
    });
    let path_options = |current: &str, none: bool| {
        html! {
            <>
                if none {
                    <option value="" selected={current.is_empty()}>{ "(none)" }</option>
                }
                for path in PATHS.iter() {
                    <option value={*path} selected={current == *path}>{ *path }</option>
                }
            </>
        }
    };
    html! {
        <details class="sweep" data-testid="sweep">
            <summary>{ "Sweep (one run per point, in the browser's workers)" }</summary>
            <div class="sweep-grid">
                <label for="sweep-path1">{ "Setting" }</label>
                <select id="sweep-path1" onchange={select_input(&path1)} data-testid="sweep-path1">{ path_options(&path1, false) }</select>
                <label for="sweep-values1">{ "Values" }</label>
                <input id="sweep-values1" type="text" value={(*values1).clone()} oninput={text_input(&values1)} data-testid="sweep-values1"
                    placeholder="1..8, or 1, 2, 4, or lipd, aimd" />
                <label for="sweep-path2">{ "Second setting" }</label>
                <select id="sweep-path2" onchange={select_input(&path2)} data-testid="sweep-path2">{ path_options(&path2, true) }</select>
                <label for="sweep-values2">{ "Its values" }</label>
                <input id="sweep-values2" type="text" value={(*values2).clone()} oninput={text_input(&values2)} data-testid="sweep-values2" />
                <label for="sweep-path3">{ "Third setting" }</label>
                <select id="sweep-path3" onchange={select_input(&path3)} data-testid="sweep-path3">{ path_options(&path3, true) }</select>
                <label for="sweep-values3">{ "Its values" }</label>
                <input id="sweep-values3" type="text" value={(*values3).clone()} oninput={text_input(&values3)} data-testid="sweep-values3" />
                <label for="sweep-quantity">{ "Plot" }</label>
                <select id="sweep-quantity" onchange={on_quantity} data-testid="sweep-quantity">
                    for q in quantities(&p.scenario) {
                        <option value={q.id()} selected={q == *quantity}>{ q.label() }</option>
                    }
                </select>
            </div>
            <div class="input-row">
                <button onclick={on_run} disabled={running} data-testid="sweep-run">{ "Start the sweep" }</button>
                <button onclick={on_cancel} disabled={!running} data-testid="sweep-cancel">{ "Cancel" }</button>
                if let Some((done, total, text)) = &status {
                    <progress max={total.to_string()} value={done.to_string()} data-testid="sweep-progress" />
                    <span data-testid="sweep-status">{ text }</span>
                }
            </div>
            if let Some(e) = &*error {
                <p class="error" role="alert" data-testid="sweep-error">{ e }</p>
            }
            if guard.is_some() {
                <canvas ref={canvas} width="860" height="300" class="rate-plot" data-testid="sweep-plot" role="img"
                    aria-label="Sweep result" data-curves={plot_curves.len().to_string()} />
                <table class="results sweep-table">
                    <thead><tr><th>{ "point" }</th><th>{ quantity.label() }</th><th>{ "" }</th></tr></thead>
                    <tbody>{ for rows.into_iter().flatten() }</tbody>
                </table>
            }
        </details>
    }
}
