//! The sweep: up to three settings of the playground's scenario swept over lists of values, each point a full run
//! in a web worker (one per core), with progress and cancel, kept by the page's shell while other views are shown;
//! any result plotted against the first setting (one curve per combination of the others, a dot at each point, a
//! log axis for powers of two), in percent as the tables give it, with PNG and CSV downloads; any point opened as
//! the playground's scenario.

use super::bridge::{cores, start_jobs, wall_ms, Jobs, SimWorker};
use super::chart::{Axes, Chart};
use super::document::{use_doc, Action, Origin};
use crate::protocol::{FromWorker, ToWorker};
use crate::sweep_plan::{
    all_the_same, as_choices, choices_text, curves, describe, parse_values, points, powers_of_two, quantities,
    sweepable, Axis, Quantity,
};
use ibcc_core::scenario::Scenario;
use ibcc_core::sim::Results;
use ibcc_view::plot::YAxis;
use ibcc_view::settings;
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// A sweep as the view shows it (a reducer: each answer from a worker is an action, and redraws): its points and
/// what came back.
#[derive(Debug, Clone, PartialEq)]
struct Job {
    // (Shared, not copied: a reducer's state is cloned at every answer.)
    /// The scenario swept, and its name as the page said it then.
    base: Rc<Scenario>,
    base_name: String,
    axes: Rc<[Axis]>,
    scenarios: Rc<[Scenario]>,
    values: Rc<[Vec<Value>]>,
    results: Vec<Option<Rc<Results>>>,
    done: usize,
    error: Option<String>,
    started_ms: f64,
    finished_ms: Option<f64>,
    workers: usize,
}

#[derive(Debug, Clone, Default, PartialEq)]
struct SweepState(Option<Job>);

enum SweepAction {
    Started(Job),
    /// Point `id`'s results, or why it failed, at wall time `at_ms`.
    Answered {
        id: usize,
        results: Result<Box<Results>, String>,
        at_ms: f64,
    },
    /// It stopped (cancelled, or a worker failed) at `at_ms`.
    Stopped {
        why: String,
        at_ms: f64,
    },
}

impl Reducible for SweepState {
    type Action = SweepAction;
    fn reduce(self: Rc<Self>, action: SweepAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match (action, next.0.as_mut()) {
            (SweepAction::Started(job), _) => next.0 = Some(job),
            (SweepAction::Answered { id, results, at_ms }, Some(j)) => {
                match results {
                    Ok(r) => {
                        if let Some(slot) = j.results.get_mut(id) {
                            *slot = Some(Rc::from(r));
                        }
                    }
                    Err(e) => j.error = Some(e),
                }
                j.done += 1;
                if j.done >= j.scenarios.len() || j.error.is_some() {
                    j.finished_ms.get_or_insert(at_ms);
                }
            }
            (SweepAction::Stopped { why, at_ms }, Some(j)) => {
                j.error.get_or_insert(why);
                j.finished_ms.get_or_insert(at_ms);
            }
            _ => return self,
        }
        Rc::new(next)
    }
}

/// The workers of a sweep under way and the next point to give out (a resource of the view, not its state:
/// dropped, the workers stop).
#[derive(Default)]
struct Runner {
    scenarios: Rc<[Scenario]>,
    next: usize,
    answered: usize,
    workers: Vec<SimWorker>,
}

impl Jobs for Runner {
    fn workers(&mut self) -> &mut Vec<SimWorker> {
        &mut self.workers
    }

    fn feed(&mut self, w: usize) {
        if self.next >= self.scenarios.len() {
            return;
        }
        let k = self.next;
        self.next += 1;
        if let Some(worker) = self.workers.get(w) {
            let s = &self.scenarios[k];
            worker.post(&ToWorker::Sweep { id: k as u64, scenario: Box::new(s.clone()) });
        }
    }
}

type RunnerRef = Rc<RefCell<Runner>>;

/// Starts a sweep of `axes` over `base` in one worker per core (stopping any sweep under way).
fn start(
    base: &Rc<Scenario>,
    base_name: String,
    axes: Vec<Axis>,
    runner: &RunnerRef,
    state: &UseReducerDispatcher<SweepState>,
) -> Result<(), String> {
    let pts = points(base, &axes)?;
    let n = pts.len();
    let (values, scenarios): (Vec<_>, Vec<_>) = pts.into_iter().unzip();
    let scenarios: Rc<[Scenario]> = scenarios.into();
    *runner.borrow_mut() = Runner { scenarios: scenarios.clone(), ..Runner::default() };
    let workers = cores().min(n);
    state.dispatch(SweepAction::Started(Job {
        base: base.clone(),
        base_name,
        axes: axes.into(),
        scenarios,
        values: values.into(),
        results: vec![None; n],
        done: 0,
        error: None,
        started_ms: wall_ms(),
        finished_ms: None,
        workers,
    }));
    let answered = state.clone();
    let on_message = move |w: usize, m: FromWorker, runner: &std::rc::Weak<RefCell<Runner>>| {
        let FromWorker::Swept { id, results } = m else { return };
        let failed = results.is_err();
        answered.dispatch(SweepAction::Answered { id: id as usize, results, at_ms: wall_ms() });
        if let Some(r) = runner.upgrade() {
            let mut r = r.borrow_mut();
            r.answered += 1;
            if failed || r.answered >= r.scenarios.len() {
                r.workers.clear();
            } else {
                r.feed(w);
            }
        }
    };
    let stopped = state.clone();
    let on_failed = move |e: String| {
        stopped.dispatch(SweepAction::Stopped { why: format!("a sweep worker failed: {e}"), at_ms: wall_ms() })
    };
    start_jobs(runner, workers, on_message, on_failed)
}

/// The plot's x axis: the first setting's values (log for powers of two), or their positions if not numbers.
fn x_axis(j: Option<&Job>, curves: &[ibcc_view::plot::Curve], numeric: bool) -> ((f64, f64), String, bool, String) {
    let first = j.and_then(|j| j.axes.first());
    let x_log = numeric && first.is_some_and(|a| powers_of_two(&a.values));
    let xs: Vec<f64> = curves.iter().flat_map(|c| c.points.iter().map(|p| p.0)).collect();
    let (x0, x1) = xs.iter().fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
    let range = if xs.is_empty() {
        (0.0, 1.0)
    } else if x_log {
        (x0 / 1.2, x1 * 1.2)
    } else {
        let pad = ((x1 - x0) * 0.04).max(0.5);
        (x0 - pad, x1 + pad)
    };
    let desc = first.map_or(String::new(), |a| settings::label(&a.path));
    (range, desc, x_log, first.map_or(String::from("x"), |a| a.path.clone()))
}

/// The names of the first setting's values when they are choices, not numbers (the x axis names them).
fn x_names(j: Option<&Job>, numeric: bool) -> Vec<String> {
    match j.and_then(|j| j.axes.first()) {
        // (A choice's name alone: "naive", not the sentence after it.)
        Some(a) if !numeric => a
            .values
            .iter()
            .map(|v| settings::value_label(&a.path, v).split(':').next().unwrap_or_default().to_owned())
            .collect(),
        _ => Vec::new(),
    }
}

/// A row per point: its settings, its value (in percent), and a button that opens it in the playground.
fn rows_html(j: &Job, q: &Quantity, d: &UseReducerDispatcher<super::document::Doc>, on_open: &Callback<()>) -> Html {
    j.values
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let value = j.results[i].as_ref().map_or(String::from("…"), |r| format!("{:.1}%", q.value(r)));
            let (s, d, on_open) = (j.scenarios[i].clone(), d.clone(), on_open.clone());
            let what = describe(&j.axes, v);
            let origin = Origin::Generated(format!("sweep point {what}"));
            let open = Callback::from(move |_| {
                d.dispatch(Action::Load { next: Box::new(s.clone()), origin: origin.clone() });
                on_open.emit(());
            });
            html! {
                <tr data-testid={format!("sweep-row-{i}")}>
                    <td>{ what }</td>
                    <td>{ value }</td>
                    <td><button class="linklike" onclick={open} data-testid={format!("sweep-open-{i}")}>{ "Open" }</button></td>
                </tr>
            }
        })
        .collect()
}

#[derive(Properties, PartialEq)]
pub struct SweepProps {
    /// After a point is opened as the playground's scenario: show the playground.
    pub on_open: Callback<()>,
}

/// The sweep's form, its run and its results, held by the page's shell: the sweep goes on, and what it found stays,
/// while another view is shown.
#[derive(Clone)]
pub struct SweepCtx {
    path1: UseStateHandle<String>,
    values1: UseStateHandle<String>,
    path2: UseStateHandle<String>,
    values2: UseStateHandle<String>,
    path3: UseStateHandle<String>,
    values3: UseStateHandle<String>,
    quantity: UseStateHandle<Quantity>,
    job: UseReducerHandle<SweepState>,
    runner: RunnerRef,
}

/// (Handles compare the states they were made with: a change of any is a new context.)
impl PartialEq for SweepCtx {
    fn eq(&self, o: &Self) -> bool {
        (&self.path1, &self.values1, &self.path2, &self.values2, &self.path3, &self.values3)
            == (&o.path1, &o.values1, &o.path2, &o.values2, &o.path3, &o.values3)
            && self.quantity == o.quantity
            && self.job == o.job
            && Rc::ptr_eq(&self.runner, &o.runner)
    }
}

/// The sweep's state, made once by the shell.
#[hook]
pub fn use_sweep() -> SweepCtx {
    SweepCtx {
        path1: use_state(|| sweepable().next().map(|s| s.path).unwrap_or_default().to_owned()),
        values1: use_state(|| String::from("1..8")),
        path2: use_state(String::new),
        values2: use_state(String::new),
        path3: use_state(String::new),
        values3: use_state(String::new),
        quantity: use_state(|| Quantity::Aggregate),
        job: use_reducer(SweepState::default),
        runner: use_mut_ref(Runner::default),
    }
}

#[component]
pub fn Sweep(p: &SweepProps) -> Html {
    let doc = use_doc();
    let error = use_state(|| None::<String>);
    let Some(ctx) = use_context::<SweepCtx>() else { return Html::default() };
    let SweepCtx { path1, values1, path2, values2, path3, values3, quantity, job, runner } = ctx;

    let text_input = |h: &UseStateHandle<String>| {
        let h = h.clone();
        Callback::from(move |e: InputEvent| h.set(e.target_unchecked_into::<web_sys::HtmlInputElement>().value()))
    };
    // A setting picked: its values field offers its choices (a range of numbers means nothing to a policy).
    let select_input = |h: &UseStateHandle<String>, values: &UseStateHandle<String>| {
        let (h, values) = (h.clone(), values.clone());
        Callback::from(move |e: Event| {
            let path = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            match choices_text(&path) {
                Some(text) => values.set(text),
                // (Another setting's choices mean nothing to a number.)
                None if parse_values(&values).and_then(|v| as_choices(&path, v)).is_err() => values.set(String::new()),
                None => {}
            }
            h.set(path);
        })
    };
    let on_quantity = {
        let quantity = quantity.clone();
        Callback::from(move |e: Event| {
            quantity.set(Quantity::from_id(&e.target_unchecked_into::<web_sys::HtmlSelectElement>().value()))
        })
    };

    let on_run = {
        let (scenario, runner, state, error) = (doc.scenario.clone(), runner.clone(), job.dispatcher(), error.clone());
        let name = doc.origin.describe();
        let fields =
            [(path1.clone(), values1.clone()), (path2.clone(), values2.clone()), (path3.clone(), values3.clone())];
        Callback::from(move |_| {
            let axes: Result<Vec<Axis>, String> = fields
                .iter()
                .filter(|(path, _)| !path.is_empty())
                .map(|(path, values)| {
                    parse_values(values)
                        .and_then(|v| as_choices(path, v))
                        .map(|v| Axis { path: (**path).clone(), values: v })
                        .map_err(|e| format!("{}: {e}", settings::label(path)))
                })
                .collect();
            match axes.and_then(|axes| start(&scenario, name.clone(), axes, &runner, &state)) {
                Ok(()) => error.set(None),
                Err(e) => error.set(Some(e)),
            }
        })
    };
    let on_cancel = {
        let (runner, state) = (runner.clone(), job.dispatcher());
        Callback::from(move |_| {
            runner.borrow_mut().workers.clear();
            state.dispatch(SweepAction::Stopped { why: String::from("cancelled"), at_ms: wall_ms() });
        })
    };

    let guard = &job.0;
    let (plot_curves, numeric) = guard.as_ref().map_or((Vec::new(), true), |j| curves(&j.axes, &j.results, &quantity));
    let (x, x_desc, x_log, x_name) = x_axis(guard.as_ref(), &plot_curves, numeric);
    let axes = Axes {
        x,
        x_desc: x_desc.clone(),
        x_log,
        x_names: Rc::new(x_names(guard.as_ref(), numeric)),
        y: YAxis { desc: quantity.label(), top: None },
        groups: Rc::new(Vec::new()),
        markers: true,
        band: None,
        title: format!("{} against {}", quantity.label(), x_desc),
        x_name,
    };
    let status = guard.as_ref().map(|j| {
        let secs = (j.finished_ms.unwrap_or_else(wall_ms) - j.started_ms) / 1000.0;
        let state = match (&j.error, j.finished_ms) {
            (Some(e), _) => format!("stopped: {e}"),
            (None, Some(_)) => String::from("done"),
            // (A guess from the points done so far: a 400-point sweep can take minutes.)
            (None, None) if j.done > 0 => format!(
                "running on {} workers, about {:.0} s left",
                j.workers,
                (secs / j.done as f64 * (j.scenarios.len() - j.done) as f64).ceil()
            ),
            (None, None) => format!("running on {} workers", j.workers),
        };
        (j.done, j.scenarios.len(), format!("{}/{} points, {secs:.1} s, {state}", j.done, j.scenarios.len()))
    });
    let running = guard.as_ref().is_some_and(|j| j.finished_ms.is_none());
    let over = *quantity == Quantity::Aggregate
        && guard.as_ref().is_some_and(|j| j.results.iter().flatten().any(|r| quantity.value(r) > 100.0));
    let rows = guard.as_ref().map(|j| rows_html(j, &quantity, &doc.dispatcher(), &p.on_open));
    let path_options = |current: &str, none: bool| {
        html! {
            <>
                if none {
                    <option value="" selected={current.is_empty()}>{ "(none)" }</option>
                }
                for path in sweepable().map(|s| s.path) {
                    <option value={path} selected={current == path}>{ settings::label(path) }</option>
                }
            </>
        }
    };
    html! {
        <section class="sweep" data-testid="sweep" aria-label="Sweep">
            <h2>{ "Sweep" }</h2>
            <p class="lede">{ format!("Runs the playground's scenario ({}) once per point, in the browser's workers (one per core); each point is {} (set in Settings).", doc.origin.describe(), crate::moments::run_times(&doc.scenario)) }</p>
            <div class="sweep-grid">
                <label for="sweep-path1">{ "Setting" }</label>
                <select id="sweep-path1" onchange={select_input(&path1, &values1)} data-testid="sweep-path1">{ path_options(&path1, false) }</select>
                <label for="sweep-values1">{ "Values" }</label>
                <input id="sweep-values1" type="text" value={(*values1).clone()} oninput={text_input(&values1)} data-testid="sweep-values1"
                    placeholder="1..8, or 1, 2, 4, or lipd, aimd" />
                <label for="sweep-path2">{ "Second setting" }</label>
                <select id="sweep-path2" onchange={select_input(&path2, &values2)} data-testid="sweep-path2">{ path_options(&path2, true) }</select>
                <label for="sweep-values2">{ "Its values" }</label>
                <input id="sweep-values2" type="text" value={(*values2).clone()} oninput={text_input(&values2)} data-testid="sweep-values2" />
                <label for="sweep-path3">{ "Third setting" }</label>
                <select id="sweep-path3" onchange={select_input(&path3, &values3)} data-testid="sweep-path3">{ path_options(&path3, true) }</select>
                <label for="sweep-values3">{ "Its values" }</label>
                <input id="sweep-values3" type="text" value={(*values3).clone()} oninput={text_input(&values3)} data-testid="sweep-values3" />
                <label for="sweep-quantity">{ "Plot" }</label>
                <select id="sweep-quantity" onchange={on_quantity} data-testid="sweep-quantity">
                    for q in quantities(&doc.scenario) {
                        <option value={q.id()} selected={q == *quantity}>{ q.label() }</option>
                    }
                </select>
            </div>
            <div class="input-row">
                <button class="primary" onclick={on_run} disabled={running} data-testid="sweep-run">{ "Start the sweep" }</button>
                <button onclick={on_cancel} disabled={!running} data-testid="sweep-cancel">{ "Cancel" }</button>
                if let Some((done, total, text)) = &status {
                    <progress max={total.to_string()} value={done.to_string()} data-testid="sweep-progress" />
                    <span data-testid="sweep-status">{ text }</span>
                }
            </div>
            if let Some(e) = &*error {
                <p class="error" role="alert" data-testid="sweep-error">{ e }</p>
            }
            if let Some(j) = guard.as_ref() {
                <p class="sweep-of" data-testid="sweep-of"><strong>{ "Last sweep: " }</strong>{ format!("{} on {}; each point {}.", j.axes.iter().map(|a| settings::label(&a.path)).collect::<Vec<_>>().join(" × "), j.base_name, crate::moments::run_times(&j.base)) }</p>
                if !crate::session::same_run(&j.base, &doc.scenario) {
                    <p class="notice" data-testid="sweep-stale">{ "The playground's scenario has changed since this sweep: these results are of the scenario above, and Open loads its points. Start the sweep to sweep the playground's scenario as it is now." }</p>
                }
                if j.finished_ms.is_some() && all_the_same(&j.results, &quantity) {
                    <p class="notice" data-testid="sweep-all-same">{ format!("Every point gave the same {}: on this network as it is, these settings change nothing it measures (for example: more data VLs while every flow has SL 0, or routing engines that choose the same routes on this tree).", quantity.label()) }</p>
                }
                <Chart curves={Rc::new(plot_curves)} axes={axes} file="ibcc-sweep" testid="sweep-" />
                if over {
                    <p class="muted" data-testid="sweep-aggregate-note">{ ibcc_view::names::AGGREGATE_OVER_100 }</p>
                }
                <table class="results sweep-table">
                    <thead><tr><th>{ "point" }</th><th>{ quantity.label() }</th><th>{ "" }</th></tr></thead>
                    <tbody>{ for rows }</tbody>
                </table>
            }
        </section>
    }
}
