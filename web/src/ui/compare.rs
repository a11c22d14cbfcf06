//! The A/B comparison: A is the playground's scenario; B is a copy with other settings. Both run at once, each in
//! its own worker, with their plots overlaid (B's curves in the same colours, lighter) and their results side by
//! side with the difference. B's settings show only what differs from A, unless asked for all of them.

use super::bridge::SimWorker;
use super::chart::{Axes, Chart};
use super::document::{use_doc, Action};
use super::lesson_text::lesson_text;
use super::params::ParamsPanel;
use crate::diff::{compare_rows, differences, mechanism_changes};
use crate::driver::{FrameMsg, Status};
use crate::protocol::{FromWorker, ToWorker};
use crate::trace::y_axis;
use ibcc_core::scenario::Scenario;
use ibcc_view::names::PlotKind;
use ibcc_view::plot::{Curve, YAxis};
use ibcc_view::settings;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// One side's run as the view shows it: its last frame and curves, or why it failed.
#[derive(Debug, Clone, Default, PartialEq)]
struct Side {
    // (Shared, not copied: a reducer's state is cloned at every frame.)
    frame: Option<Rc<FrameMsg>>,
    curves: Rc<Vec<Curve>>,
    error: Option<String>,
}

/// Both runs, as a reducer: the workers' messages are its actions, so a message redraws the view.
#[derive(Debug, Clone, Default, PartialEq)]
struct Sides([Side; 2]);

enum SideAction {
    /// New runs start: both sides are empty again.
    Started,
    Frame(usize, Box<FrameMsg>),
    Failed(usize, String),
}

impl Reducible for Sides {
    type Action = SideAction;
    fn reduce(self: Rc<Self>, action: SideAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            SideAction::Started => next = Sides::default(),
            SideAction::Frame(i, f) => {
                let mut f = *f;
                if let Some(c) = f.curves.take() {
                    next.0[i].curves = Rc::new(c);
                }
                next.0[i].frame = Some(Rc::new(f));
            }
            SideAction::Failed(i, e) => next.0[i].error = Some(e),
        }
        Rc::new(next)
    }
}

/// The two workers (a resource of the view, not its state: dropped, they stop).
type Workers = Rc<RefCell<[Option<SimWorker>; 2]>>;

/// A's curves as they are and B's lighter, labelled by run.
fn overlay(a: &[Curve], b: &[Curve]) -> Vec<Curve> {
    let label = |run: &str, c: &Curve| Curve { label: format!("{run}: {}", c.label), ..c.clone() };
    a.iter().map(|c| label("A", c)).chain(b.iter().map(|c| Curve { run_b: true, ..label("B", c) })).collect()
}

/// Starts A and B, each in its own worker, as fast as they go.
fn start_runs(workers: &Workers, sides: &UseReducerDispatcher<Sides>, runs: [Scenario; 2], kind: PlotKind) {
    sides.dispatch(SideAction::Started);
    for (i, s) in runs.into_iter().enumerate() {
        // (The handlers hold the workers weakly: a worker holding itself would never be dropped.)
        let (weak, on_frame) = (Rc::downgrade(workers), sides.clone());
        let on_message = Callback::from(move |m: FromWorker| match m {
            FromWorker::Frame { frame: f, .. } => {
                if let Some(ws) = weak.upgrade() {
                    if let Some(w) = &ws.borrow()[i] {
                        w.post(&ToWorker::Ack);
                    }
                }
                on_frame.dispatch(SideAction::Frame(i, f));
            }
            FromWorker::LoadError { error, .. } => on_frame.dispatch(SideAction::Failed(i, error)),
            _ => {}
        });
        let on_fail = sides.clone();
        let on_error = Callback::from(move |e: String| on_fail.dispatch(SideAction::Failed(i, e)));
        // The old run stops first, whether or not a new one starts.
        workers.borrow_mut()[i] = None;
        match SimWorker::start(on_message, on_error) {
            Ok(w) => {
                let papers = crate::session::paper_numbers(&s);
                w.post(&ToWorker::Load { run: 0, scenario: Box::new(s), checkpoints: false, papers });
                w.post(&ToWorker::Plot { kind });
                w.post(&ToWorker::Play { speed: None });
                workers.borrow_mut()[i] = Some(w);
            }
            Err(e) => sides.dispatch(SideAction::Failed(i, e)),
        }
    }
}

/// What B changes: each mechanism in words ("Annex A10: off → on"), then every setting (the path beside it),
/// folded when the mechanisms already say it (Annex A10 alone brings a table of 128 entries).
fn diff_html(mechanisms: &[String], diffs: &[(String, String, String)]) -> Html {
    let settings_list = html! {
        <ul>
            for (k, x, y) in diffs.iter().take(60) {
                <li>{ settings::label(k) }{ format!(": {x} → {y}") }<code class="path">{ k }</code></li>
            }
            if diffs.len() > 60 {
                <li>{ format!("and {} more", diffs.len() - 60) }</li>
            }
        </ul>
    };
    html! {
        <div data-testid="compare-diff" class="diff">
            if diffs.is_empty() {
                <p>{ "B is the same as A: change a setting of B below." }</p>
            } else if mechanisms.is_empty() {
                <p>{ "B differs from A in:" }</p>
                { settings_list }
            } else {
                <p>{ "B differs from A in:" }</p>
                <ul data-testid="compare-mechanisms">
                    for m in mechanisms {
                        <li>{ m }</li>
                    }
                </ul>
                <details data-testid="compare-settings-diff">
                    <summary>{ format!("Every setting that differs ({})", diffs.len()) }</summary>
                    { settings_list }
                </details>
            }
        </div>
    }
}

/// The results side by side, with B minus A; `over`: an aggregate throughput above 100%, which needs saying.
fn rows_html(rows: Vec<crate::diff::Row>, over: bool) -> Html {
    if rows.is_empty() {
        return html! {};
    }
    html! {
        <>
        if over {
            <p class="muted" data-testid="compare-aggregate-note">{ "Aggregate throughput adds up every flow's share of its own source link, so it passes 100% when flows send from different hosts." }</p>
        }
        <div class="table-scroll"><table class="results" data-testid="compare-results">
            <caption>{ "Results side by side (over each run's measurement interval)" }</caption>
            <thead><tr><th>{ "" }</th><th>{ "A" }</th><th>{ "B" }</th><th>{ "B − A" }</th></tr></thead>
            <tbody>
                for r in rows {
                    <tr><th scope="row">{ r.what }</th><td>{ r.a }</td><td>{ r.b }</td><td>{ r.diff }</td></tr>
                }
            </tbody>
        </table></div>
        </>
    }
}

#[component]
pub fn Compare() -> Html {
    let doc = use_doc();
    let a = doc.scenario.clone();
    // A comparison a lesson step asked for (`document::Action::Compare`), taken once: B and the step's text.
    let lesson = use_memo((), |_| doc.compare.as_deref().cloned());
    {
        let d = doc.dispatcher();
        use_effect_with((), move |_| d.dispatch(Action::CompareOpened));
    }
    let b = use_state(|| lesson.as_ref().as_ref().map(|(b, _)| Rc::new(b.clone())));
    let sides = use_reducer(Sides::default);
    let workers: Workers = use_mut_ref(Default::default);
    {
        // Leaving the view stops both runs.
        let workers = workers.clone();
        use_effect_with((), move |_| move || *workers.borrow_mut() = Default::default());
    }
    let kind = use_state(|| PlotKind::Rates);
    let all_settings = use_state(|| false);
    // From a lesson, both run at once.
    {
        let (workers, sides, a, b, kind, from_lesson) =
            (workers.clone(), sides.dispatcher(), a.clone(), b.clone(), *kind, lesson.is_some());
        use_effect_with((), move |_| {
            if let (true, Some(bs)) = (from_lesson, (*b).clone()) {
                start_runs(&workers, &sides, [(*a).clone(), (*bs).clone()], kind);
            }
        });
    }
    let note = lesson.as_ref().as_ref().map(|(_, text)| {
        let groups = crate::scene::groups(&a);
        html! {
            <div class="notice lesson-note" data-testid="compare-lesson">
                <p>{ lesson_text(text, &groups) }</p>
                <a href="#" class="button" data-testid="compare-back-to-lesson">{ "← Back to the lesson" }</a>
            </div>
        }
    });

    let setup = {
        let (b, a) = (b.clone(), a.clone());
        Callback::from(move |_| b.set(Some(a.clone())))
    };
    let on_b = {
        let b = b.clone();
        Callback::from(move |next: Scenario| b.set(Some(Rc::new(next))))
    };
    let start = {
        let (workers, sides, a, b, kind) = (workers.clone(), sides.dispatcher(), a.clone(), b.clone(), *kind);
        Callback::from(move |_| {
            if let Some(bs) = (*b).clone() {
                start_runs(&workers, &sides, [(*a).clone(), (*bs).clone()], kind);
            }
        })
    };
    // Pause and resume both at once (each worker has one run: a new start replaces it).
    let to_both = |m: ToWorker| {
        let workers = workers.clone();
        Callback::from(move |_| {
            for w in workers.borrow().iter().flatten() {
                w.post(&m);
            }
        })
    };
    let stop = to_both(ToWorker::Pause);
    let resume = to_both(ToWorker::Play { speed: None });
    let on_kind = {
        let (kind, workers) = (kind.clone(), workers.clone());
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let k = PlotKind::from_id(&select.value());
            for w in workers.borrow().iter().flatten() {
                w.post(&ToWorker::Plot { kind: k });
            }
            kind.set(k);
        })
    };
    let toggle_all = {
        let all_settings = all_settings.clone();
        Callback::from(move |_| all_settings.set(!*all_settings))
    };

    let Some(bs) = (*b).clone() else {
        return html! {
            <section class="compare" data-testid="compare" aria-label="A/B comparison">
                <h2>{ "A/B comparison" }</h2>
                <p class="lede">{ "A is the playground's scenario. Duplicate it as B, change settings of B, and run both with the same seed: their plots are overlaid and their results set side by side." }</p>
                <button class="primary" onclick={setup} data-testid="compare-setup">{ "Duplicate A as B" }</button>
            </section>
        };
    };
    let all = &sides.0;
    let running = all.iter().any(|s| s.frame.as_ref().is_some_and(|f| f.status == Status::Playing));
    let paused_mid_run =
        !running && all.iter().any(|s| s.frame.as_ref().is_some_and(|f| f.time_ps > 0 && f.time_ps < f.end_ps));
    let progress = all
        .iter()
        .map(|s| s.frame.as_ref().map_or(0.0, |f| f.time_ps as f64 / f.end_ps.max(1) as f64))
        .fold(1.0, f64::min);
    let diffs = differences(&a, &bs);
    let mechanisms = mechanism_changes(&a, &bs);
    let errors: Vec<String> =
        all.iter().zip(["A", "B"]).filter_map(|(s, n)| s.error.as_ref().map(|e| format!("{n}: {e}"))).collect();
    let (y_desc, y_top) = y_axis(*kind, a.measure.window_ns as f64 / 1e6);
    let end_ms = all.iter().filter_map(|s| s.frame.as_ref()).map(|f| f.end_ps as f64 / 1e9).fold(0.0, f64::max);
    let curves = Rc::new(overlay(&all[0].curves, &all[1].curves));
    let groups = Rc::new(crate::scene::groups(&a));
    let axes = Axes {
        x: (0.0, end_ms.max(1e-3)),
        x_desc: String::from("simulated time (ms)"),
        x_log: false,
        y: YAxis { desc: y_desc, top: y_top },
        groups,
        markers: false,
        band: None,
        title: format!("A/B: {}", kind.label()),
        x_name: String::from("time_ms"),
    };
    // Side by side only at the same simulated time (in practice, both at their ends: the two runs go as fast as
    // each can): results of runs at different times would differ by how far each has got, not by B's settings.
    let mut over = false;
    let (rows, waiting) = match (&all[0].frame, &all[1].frame) {
        (Some(fa), Some(fb)) if fa.time_ps == fb.time_ps || (fa.time_ps >= fa.end_ps && fb.time_ps >= fb.end_ps) => {
            over = [fa, fb].iter().any(|f| f.frame.results.aggregate_throughput() > 1.0005);
            (compare_rows(&fa.frame.results, &fb.frame.results), None)
        }
        (Some(fa), Some(fb)) => (
            Vec::new(),
            Some(format!(
                "Results side by side once both runs have reached the end (A is at {:.1} ms, B at {:.1} ms).",
                fa.time_ps as f64 / 1e9,
                fb.time_ps as f64 / 1e9
            )),
        ),
        _ => (Vec::new(), None),
    };
    html! {
        <section class="compare" data-testid="compare" aria-label="A/B comparison">
            <h2>{ "A/B comparison" }</h2>
            { for note }
            <div class="compare-layout">
                <div class="compare-side">
                    { diff_html(&mechanisms, &diffs) }
                    <div class="input-row">
                        if running {
                            <button onclick={stop} data-testid="compare-stop">{ "Pause" }</button>
                        } else if paused_mid_run {
                            <button class="primary" onclick={resume} data-testid="compare-resume">{ "Resume" }</button>
                            <button onclick={start.clone()} data-testid="compare-run">{ "Start again" }</button>
                        } else {
                            <button class="primary" onclick={start} data-testid="compare-run">{ "Start A and B" }</button>
                        }
                        <button onclick={setup} data-testid="compare-reset-b">{ "Copy A again" }</button>
                        <progress max="1" value={progress.to_string()} data-testid="compare-progress" aria-label="Comparison progress" />
                    </div>
                    for e in errors {
                        <p class="error" role="alert">{ e }</p>
                    }
                    <button class="linklike" onclick={toggle_all} aria-expanded={all_settings.to_string()} data-testid="compare-b-settings">
                        { if *all_settings { "Hide B's settings" } else { "Change B's settings" } }
                    </button>
                    if *all_settings {
                        <ParamsPanel scenario={bs} on_change={on_b} prefix="b-" />
                    }
                </div>
                <div class="compare-main">
                    <Chart curves={curves} axes={axes} file="ibcc-compare" testid="cmp-">
                        <label class="plot-kind">
                            <span class="visually-hidden">{ "Plot" }</span>
                            <select onchange={on_kind} data-testid="cmp-plot-kind" aria-label="Plot">
                                for k in PlotKind::ALL {
                                    <option value={k.id()} selected={k == *kind}>{ k.label() }</option>
                                }
                            </select>
                        </label>
                    </Chart>
                    if let Some(w) = waiting {
                        <p class="hint" data-testid="compare-waiting">{ w }</p>
                    }
                    { rows_html(rows, over) }
                </div>
            </div>
        </section>
    }
}
