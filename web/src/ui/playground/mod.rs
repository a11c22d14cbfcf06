//! The playground: build or load a network, run it, and watch link rates, buffers, marks and the congestion tree
//! move while plots fill in.
//!
//! The scenario being edited is the document (`document.rs`); the run is a separate `Run` of the scenario it was
//! built from. When the document changes, the run follows: at time 0 (or once finished) it is rebuilt; during a run
//! a marking change applies from that moment; anything else waits, with the run paused, until the user restarts
//! (or undoes the change, and the run carries on). The run advances in per-frame slices with a time budget, so the
//! page never blocks.

mod canvas;
mod compare;
mod document;
mod generate;
mod inspector;
mod lessons;
mod params;
mod plot;
mod results;
mod share;
mod sweep;
mod topology;

use super::storage;
use crate::lessons::Highlight;
use crate::rate_plot::{Curve, YAxis};
use crate::run::{same_run, Frame, Run};
use crate::trace::{y_axis, PlotKind};
use canvas::{use_edit_keys, Canvas, LiveData};
use compare::Compare;
use document::{Action, Doc};
use generate::Generate;
use gloo_timers::callback::Interval;
use ibcc_core::presets::{find, PRESETS};
use ibcc_core::scenario::Scenario;
use inspector::Inspector;
use lessons::LessonsPanel;
use params::ParamsPanel;
use plot::Plot;
use results::ResultsTable;
use share::ShareBar;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use sweep::SweepPanel;
use yew::prelude::*;

/// Simulated time per wall-clock second; `None`: as fast as the frame budget allows.
const SPEEDS: [(&str, Option<u64>); 5] = [
    ("10 µs/s", Some(10_000_000)),
    ("100 µs/s", Some(100_000_000)),
    ("1 ms/s", Some(1_000_000_000)),
    ("10 ms/s", Some(10_000_000_000)),
    ("as fast as possible", None),
];

/// Wall time one frame may spend simulating, in milliseconds.
const FRAME_BUDGET_MS: f64 = 8.0;
const FRAME_MS: u32 = 16;
/// Frames between two recomputations of the curves (the snapshot and results follow every frame).
const CURVE_EVERY: u32 = 8;
/// Curves drawn at most per plot.
const MAX_CURVES: usize = 8;
/// The picker's entry for an empty network.
const EMPTY: &str = "empty";
/// The picker's entry for a scenario from a link or a file.
const CUSTOM: &str = "custom";

pub(crate) fn wall_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// What the page shows of the run.
#[derive(Clone, PartialEq)]
struct View {
    frame: Frame,
    curves: Rc<Vec<Curve>>,
}

fn view_of(run: &mut Run, kind: PlotKind, curves: Option<Rc<Vec<Curve>>>) -> View {
    let frame = run.frame();
    let curves = curves.unwrap_or_else(|| Rc::new(run.curves(kind, &frame.results, MAX_CURVES)));
    View { frame, curves }
}

fn preset_scenario(name: &str) -> Scenario {
    find(name).map(|p| p.scenario()).unwrap_or_else(|| {
        let mut s = Scenario::empty("my network", 5_000_000);
        s.description = String::from("Built on the canvas.");
        s.measure.from_ns = 0;
        s
    })
}

/// The notice above the canvas, and whether it offers a restart.
#[derive(Clone, PartialEq)]
struct Notice {
    text: String,
    restart: bool,
}

/// Where the page keeps the scenario being edited, so a reload does not lose it.
const SAVED_SCENARIO: &str = "ibcc.playground.scenario";
const SAVED_PRESET: &str = "ibcc.playground.preset";
const DEFAULT_PRESET: &str = "infocom03-fig2";

/// The scenario saved by an earlier visit and the preset it started from; `Err` says why it cannot be used.
fn restore() -> Result<Option<(String, Scenario)>, String> {
    let Some(text) = storage::load_text(SAVED_SCENARIO) else { return Ok(None) };
    let s = Scenario::from_json_validated(&text).map_err(|e| e.to_string())?;
    let preset = storage::load_text(SAVED_PRESET).unwrap_or_else(|| String::from(EMPTY));
    Ok(Some((preset, s)))
}

#[component]
pub fn Playground() -> Html {
    // A share link in the address wins over the work saved in the browser.
    let linked = use_memo((), |_| share::from_location());
    let exercise = use_memo((), |_| share::exercise_from_location().map(Rc::new));
    let restored = use_memo((), |_| restore());
    let exercise_scenario =
        exercise.as_ref().as_ref().and_then(|e| e.as_ref().as_ref().ok()).and_then(|e| e.scenario().ok());
    let preset = use_state(|| match (&*linked, &*restored) {
        (Some(Ok(_)), _) => String::from(CUSTOM),
        _ if exercise_scenario.is_some() => String::from(CUSTOM),
        (_, Ok(Some((name, _)))) => name.clone(),
        _ => String::from(DEFAULT_PRESET),
    });
    let doc = use_reducer(|| match (&*linked, &*restored) {
        (Some(Ok((s, _))), _) => Doc::new(s.clone()),
        _ if exercise_scenario.is_some() => Doc::new(exercise_scenario.unwrap_or_else(|| Scenario::empty("", 1))),
        (Some(Err(_)), _) => Doc::new(preset_scenario(DEFAULT_PRESET)),
        (_, Ok(Some((_, s)))) => Doc::new(s.clone()),
        _ => Doc::new(preset_scenario(DEFAULT_PRESET)),
    });
    // Every change is saved at once.
    {
        let preset = (*preset).clone();
        use_effect_with((doc.scenario.clone(), preset), |(s, preset)| {
            storage::save_text(SAVED_SCENARIO, &s.to_json());
            storage::save_text(SAVED_PRESET, preset);
        });
    }
    let run: Rc<RefCell<Option<Run>>> = use_mut_ref(|| None);
    let view = use_state(|| None::<View>);
    let error = use_state(|| None::<String>);
    let notice = use_state(|| None::<Notice>);
    // The document differs from the run in a way that needs a restart.
    let pending = use_state(|| false);
    let running = use_state(|| false);
    let speed = use_state(|| 2usize);
    let kind = use_state(|| match &*linked {
        Some(Ok((_, Some(k)))) => *k,
        _ => PlotKind::Rates,
    });
    use_edit_keys(doc.dispatcher());

    // A new run of `scenario`, from 0.
    let reset_to = {
        let (run, view, error, running, pending, notice, kind) =
            (run.clone(), view.clone(), error.clone(), running.clone(), pending.clone(), notice.clone(), *kind);
        Rc::new(move |scenario: &Scenario| {
            running.set(false);
            pending.set(false);
            notice.set(None);
            match Run::new(scenario) {
                Ok(mut r) => {
                    view.set(Some(view_of(&mut r, kind, None)));
                    *run.borrow_mut() = Some(r);
                    error.set(None);
                }
                Err(e) => {
                    *run.borrow_mut() = None;
                    view.set(None);
                    error.set(Some(e.to_string()));
                }
            }
        })
    };
    let reset = {
        let (reset_to, scenario) = (reset_to.clone(), doc.scenario.clone());
        move || reset_to(&scenario)
    };
    // The run follows the document.
    {
        let (reset, run, view, pending, notice, running, kind) =
            (reset.clone(), run.clone(), view.clone(), pending.clone(), notice.clone(), running.clone(), *kind);
        use_effect_with(doc.scenario.clone(), move |next| {
            let mut guard = run.borrow_mut();
            match guard.as_mut() {
                Some(r) if same_run(r.sim().scenario(), next) => {
                    if *pending {
                        // Undone back to what the run runs: it can carry on.
                        pending.set(false);
                        notice.set(None);
                    }
                }
                Some(r) if r.sim().now() > 0 && !r.is_finished() => match r.retune(next) {
                    Ok(()) => {
                        let t = r.sim().now() as f64 / 1e9;
                        notice.set(Some(Notice {
                            text: format!("Marking changed at {t:.3} ms: it applies from then on."),
                            restart: false,
                        }));
                        pending.set(false);
                        view.set(Some(view_of(r, kind, None)));
                    }
                    Err(why) => {
                        running.set(false);
                        pending.set(true);
                        let t = r.sim().now() as f64 / 1e9;
                        notice.set(Some(Notice {
                            text: format!(
                                "This change needs a new run ({}): the run is paused at {t:.3} ms. Restart to apply it, or undo it to carry on.",
                                why.0
                            ),
                            restart: true,
                        }));
                    }
                },
                _ => {
                    drop(guard);
                    reset();
                }
            }
        });
    }
    // A new plot kind: recompute the curves now.
    {
        let (run, view) = (run.clone(), view.clone());
        use_effect_with(*kind, move |&kind| {
            if let Some(r) = run.borrow_mut().as_mut() {
                view.set(Some(view_of(r, kind, None)));
            }
        });
    }
    // The frame loop.
    {
        let (run, view, running_handle) = (run.clone(), view.clone(), running.clone());
        let speed = SPEEDS[*speed].1;
        use_effect_with((*running, speed, *kind), move |&(running, speed, kind)| {
            let frames = Cell::new(0u32);
            let last_curves = RefCell::new(None::<Rc<Vec<Curve>>>);
            let interval = running.then(|| {
                Interval::new(FRAME_MS, move || {
                    let mut guard = run.borrow_mut();
                    let Some(r) = guard.as_mut() else { return };
                    let start = wall_ms();
                    let target = match speed {
                        Some(ps_per_s) => r.sim().now().saturating_add(ps_per_s / 1000 * u64::from(FRAME_MS)),
                        None => u64::MAX,
                    };
                    let finished = r.advance(target, || wall_ms() - start < FRAME_BUDGET_MS);
                    frames.set(frames.get() + 1);
                    let refresh = finished || frames.get() % CURVE_EVERY == 0;
                    let reuse = if refresh { None } else { last_curves.borrow().clone() };
                    let v = view_of(r, kind, reuse);
                    *last_curves.borrow_mut() = Some(v.curves.clone());
                    view.set(Some(v));
                    if finished {
                        running_handle.set(false);
                    }
                })
            });
            move || drop(interval)
        });
    }

    // A preset or a generated network starts a new run at once, whatever the state of the old one.
    let load = {
        let (preset, dispatch, reset_to) = (preset.clone(), doc.dispatcher(), reset_to.clone());
        move |name: String| {
            let next = preset_scenario(&name);
            reset_to(&next);
            preset.set(name);
            dispatch.dispatch(Action::Edit { next: Box::new(next), select: None, note: None });
        }
    };
    let on_pick = Callback::from(move |e: Event| {
        let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
        load(select.value());
    });
    let on_params = {
        let dispatch = doc.dispatcher();
        Callback::from(move |next: Scenario| {
            dispatch.dispatch(Action::Edit { next: Box::new(next), select: None, note: None })
        })
    };
    let on_generate = {
        let (dispatch, reset_to) = (doc.dispatcher(), reset_to.clone());
        Callback::from(move |next: Scenario| {
            reset_to(&next);
            dispatch.dispatch(Action::Edit { next: Box::new(next), select: None, note: None })
        })
    };
    let on_open = {
        let (dispatch, reset_to, preset) = (doc.dispatcher(), reset_to.clone(), preset.clone());
        Callback::from(move |next: Scenario| {
            reset_to(&next);
            preset.set(String::from(CUSTOM));
            dispatch.dispatch(Action::Edit { next: Box::new(next), select: None, note: None })
        })
    };
    // A lesson step: a new run of its scenario (if it has one), and what to point at.
    let highlight = use_state(|| None::<Highlight>);
    let on_lesson_step = {
        let (dispatch, reset_to, preset, highlight, kind) =
            (doc.dispatcher(), reset_to.clone(), preset.clone(), highlight.clone(), kind.clone());
        Callback::from(move |(next, point): (Option<Scenario>, Option<Highlight>)| {
            if let Some(next) = next {
                reset_to(&next);
                preset.set(if find(&next.name).is_some() { next.name.clone() } else { String::from(CUSTOM) });
                dispatch.dispatch(Action::Edit { next: Box::new(next), select: None, note: None });
            }
            if let Some(Highlight::Plot(k)) = &point {
                kind.set(PlotKind::from_id(k));
            }
            highlight.set(point);
        })
    };
    // What an exercise check needs of the run: its scenario and the measured value so far.
    let probe = {
        let run = run.clone();
        Callback::from(move |m: ibcc_core::sim::Measurement| {
            run.borrow().as_ref().map(|r| (Rc::new(r.sim().scenario().clone()), r.sim().measure(&m).ok()))
        })
    };
    let on_speed = {
        let speed = speed.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            speed.set(select.value().parse().unwrap_or(2));
        })
    };
    let on_run = {
        let (running, notice) = (running.clone(), notice.clone());
        Callback::from(move |_| {
            if notice.as_ref().is_some_and(|n| !n.restart) {
                notice.set(None);
            }
            running.set(!*running);
        })
    };
    let on_step = {
        let (run, view, running, kind) = (run.clone(), view.clone(), running.clone(), *kind);
        Callback::from(move |_| {
            running.set(false);
            if let Some(r) = run.borrow_mut().as_mut() {
                // One step: the next microsecond of simulated time.
                let t = r.sim().now() + 1_000_000;
                r.advance(t, || true);
                view.set(Some(view_of(r, kind, None)));
            }
        })
    };
    let on_reset = {
        let reset = reset.clone();
        Callback::from(move |_| reset())
    };
    let on_kind = {
        let kind = kind.clone();
        Callback::from(move |k: PlotKind| kind.set(k))
    };

    let dismiss = {
        let d = doc.dispatcher();
        Callback::from(move |_| d.dispatch(Action::Dismiss))
    };
    let scenario = doc.scenario.clone();
    // The current scenario's own description: a preset's, with what the paper reports, or a generated one's name.
    let description = match find(&scenario.name) {
        Some(p) => Some(format!("{} {} Paper: {}", p.figure, p.description, p.paper_reports)),
        None => Some(format!("{}. {}", scenario.name, scenario.description)).filter(|_| !scenario.name.is_empty()),
    };
    let (time_ns, end_ns) = view.as_ref().map_or((0.0, 1.0), |v| (v.frame.snapshot.time_ns, v.frame.end_ns));
    let finished = time_ns >= end_ns;
    let live = view.as_ref().filter(|_| !*pending).map(|v| LiveData {
        snapshot: v.frame.snapshot.clone(),
        tree: v.frame.tree.clone(),
        recent_marks: v.frame.recent_marks.clone(),
        results: v.frame.results.clone(),
    });
    let (y_desc, y_top) = y_axis(*kind, scenario.measure.window_ns as f64 / 1e6);

    html! {
        <section class="playground" data-testid="playground" aria-label="Playground">
            <div class="transport" role="toolbar" aria-label="Simulation controls">
                <label for="scenario-picker">{ "Scenario" }</label>
                <select id="scenario-picker" onchange={on_pick} data-testid="scenario-picker">
                    <option value={EMPTY} selected={preset.as_str() == EMPTY}>{ "empty: build your own" }</option>
                    if preset.as_str() == CUSTOM {
                        <option value={CUSTOM} selected=true disabled=true>{ "from a link or file" }</option>
                    }
                    for p in PRESETS.iter() {
                        <option value={p.name} selected={p.name == preset.as_str()}>{ p.name }</option>
                    }
                </select>
                <button onclick={on_run} data-testid="run" disabled={(finished && !*running) || *pending || view.is_none()}>
                    { if *running { "Pause" } else { "Run" } }
                </button>
                <button onclick={on_step} data-testid="step" disabled={*pending || view.is_none()}>{ "Step" }</button>
                <button onclick={on_reset.clone()} data-testid="reset">{ "Reset" }</button>
                <label for="speed">{ "Speed" }</label>
                <select id="speed" onchange={on_speed} data-testid="speed">
                    for (i, (name, _)) in SPEEDS.iter().enumerate() {
                        <option value={i.to_string()} selected={i == *speed}>{ *name }</option>
                    }
                </select>
                <output data-testid="sim-time" aria-label="Simulated time">{ format!("{:.3} ms", time_ns / 1e6) }</output>
                <progress data-testid="progress" max="1" value={(time_ns / end_ns).min(1.0).to_string()} aria-label="Progress" />
                <ShareBar scenario={scenario.clone()} plot={*kind} on_open={on_open.clone()} />
            </div>
            if let Some(Err(e)) = &*linked {
                <p class="error" role="alert" data-testid="link-error">
                    { format!("This link could not be opened: {e}. The default scenario is shown instead.") }
                </p>
            }
            if let Some(text) = description {
                <p class="lede">{ text }</p>
            }
            if let Some(v) = view.as_ref().filter(|v| !v.frame.reported.is_empty()) {
                <table class="results paper" data-testid="paper-vs-ours">
                    <caption>{ "The paper's numbers and this run's" }</caption>
                    <thead><tr><th scope="col">{ "measured" }</th><th scope="col">{ "paper" }</th><th scope="col">{ "this run" }</th></tr></thead>
                    <tbody>
                        for r in v.frame.reported.iter() {
                            <tr>
                                <td>{ &r.what }</td>
                                <td>{ r.paper }</td>
                                <td>{ r.ours.map_or(String::from("not reached yet"), |x| format!("{:.1}%", 100.0 * x)) }</td>
                            </tr>
                        }
                    </tbody>
                </table>
            }
            if let Err(e) = &*restored {
                <p class="error" role="alert" data-testid="restore-error">
                    { format!("Your saved network could not be restored ({e}); the default scenario is loaded instead.") }
                </p>
            }
            if let Some(e) = &*error {
                <p class="error" role="alert" data-testid="run-error">{ e }</p>
            }
            if let Some(n) = &*notice {
                <p class="notice" role="status" data-testid="notice">
                    { &n.text }
                    if n.restart {
                        { " " }
                        <button onclick={on_reset.clone()} data-testid="restart">{ "Restart with the change" }</button>
                    }
                </p>
            }
            if let Some(m) = &doc.message {
                <p class={classes!("edit-message", m.refused.then_some("error"))} role="alert" data-testid="canvas-message">
                    { &m.text }{ " " }
                    <button class="linklike" aria-label="Dismiss" onclick={dismiss}>{ "×" }</button>
                </p>
            }
            <div class="playground-layout">
                <div class="playground-main">
                    <Canvas scenario={scenario.clone()} selection={doc.selection.clone()} message={doc.message.clone()}
                        live={live.clone()} dispatch={doc.dispatcher()} can_undo={doc.history.can_undo()} can_redo={doc.history.can_redo()}
                        highlight={(*highlight).clone()} />
                    if let Some(v) = &*view {
                        <Plot kind={*kind} on_kind={on_kind} curves={v.curves.clone()} end_ms={v.frame.end_ns / 1e6}
                            y={YAxis { desc: y_desc, top: y_top }} highlighted={matches!(*highlight, Some(Highlight::Plot(_)))} />
                        // Beside the settings, under the plot: no scrolling past the side panels to see the numbers.
                        <ResultsTable results={v.frame.results.clone()} measure_from_ns={scenario.measure.from_ns as f64} />
                    }
                </div>
                <div class="side">
                    <LessonsPanel scenario={scenario.clone()} on_step={on_lesson_step} probe={probe} linked={(*exercise).clone()} />
                    <Inspector scenario={scenario.clone()} selection={doc.selection.clone()} live={live} dispatch={doc.dispatcher()} />
                    <Generate scenario={scenario.clone()} on_generate={on_generate} />
                    <ParamsPanel scenario={scenario.clone()} on_change={on_params} />
                </div>
            </div>
            <SweepPanel scenario={scenario.clone()} on_open={on_open.clone()} />
            <Compare scenario={scenario.clone()} />
        </section>
    }
}
