//! The A/B/C comparison: A is the playground's scenario; B (and, if added, C) are copies with other settings. All
//! run at once, each in its own worker, with their plots overlaid (B's curves in the same colours, lighter; C's
//! dashed) and their results side by side with each one's difference from A. What B and C change is said per
//! mechanism in words, every setting behind a fold; their settings show only what differs from A, unless asked.

use super::bridge::SimWorker;
use super::chart::{Axes, Chart};
use super::document::{use_doc, Action};
use super::lesson_text::lesson_text;
use super::params::ParamsPanel;
use crate::diff::{compare_rows, differences, mechanism_changes, same_traffic};
use crate::driver::{FrameMsg, Status};
use crate::protocol::{FromWorker, ToWorker};
use crate::trace::y_axis;
use ibcc_core::scenario::Scenario;
use ibcc_core::sim::{Metric, Results};
use ibcc_view::names::PlotKind;
use ibcc_view::plot::{Curve, YAxis};
use ibcc_view::settings;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The runs' names, in order.
const NAMES: [&str; 3] = ["A", "B", "C"];

/// One run as the view shows it: its last frame and curves, or why it failed.
#[derive(Debug, Clone, Default, PartialEq)]
struct Side {
    // (Shared, not copied: a reducer's state is cloned at every frame.)
    frame: Option<Rc<FrameMsg>>,
    curves: Rc<Vec<Curve>>,
    /// The last results (they come with some frames only).
    results: Option<Rc<Results>>,
    error: Option<String>,
}

/// The runs, as a reducer: the workers' messages are its actions, so a message redraws the view.
#[derive(Debug, Clone, Default, PartialEq)]
struct Sides([Side; 3]);

enum SideAction {
    /// New runs start: every side is empty again.
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
                if let Some(r) = f.results.take() {
                    next.0[i].results = Some(Rc::new(r));
                }
                next.0[i].frame = Some(Rc::new(f));
            }
            SideAction::Failed(i, e) => next.0[i].error = Some(e),
        }
        Rc::new(next)
    }
}

/// The workers (a resource of the view, not its state: dropped, they stop).
type Workers = Rc<RefCell<[Option<SimWorker>; 3]>>;

/// Every run's curves, labelled by run, B's lighter and C's dashed.
fn overlay(sides: &[Side]) -> Vec<Curve> {
    sides
        .iter()
        .enumerate()
        .flat_map(|(i, s)| {
            s.curves.iter().map(move |c| Curve {
                // ("run B: A->B", not "B: A->B": runs and switches share letters.)
                label: format!("run {}: {}", NAMES[i], c.label),
                run: i as u8,
                ..c.clone()
            })
        })
        .collect()
}

/// Starts each of `runs` (A, B, perhaps C) in its own worker, as fast as they go.
fn start_runs(workers: &Workers, sides: &UseReducerDispatcher<Sides>, runs: Vec<Scenario>, kind: PlotKind) {
    sides.dispatch(SideAction::Started);
    *workers.borrow_mut() = Default::default();
    for (i, s) in runs.into_iter().enumerate().take(3) {
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
        match SimWorker::start(on_message, on_error) {
            Ok(w) => {
                let papers = crate::session::paper_numbers(&s);
                w.post(&ToWorker::Load { run: 0, scenario: Box::new(s), checkpoints: false, papers });
                w.post(&ToWorker::Plot { kind, link: None });
                w.post(&ToWorker::Play { speed: None });
                workers.borrow_mut()[i] = Some(w);
            }
            Err(e) => sides.dispatch(SideAction::Failed(i, e)),
        }
    }
}

/// What run `name` changes from A: each mechanism in words ("Annex A10: off → on"), then every setting (the path
/// beside it), folded when the mechanisms already say it (Annex A10 alone brings a table of 128 entries).
fn diff_html(name: &str, mechanisms: &[String], diffs: &[(String, String, String)]) -> Html {
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
    let id = |what: &str| {
        if name == "B" {
            format!("compare-{what}")
        } else {
            format!("compare-{}-{what}", name.to_ascii_lowercase())
        }
    };
    html! {
        <div data-testid={id("diff")} class="diff">
            if diffs.is_empty() {
                <p>{ format!("{name} is the same as A: change a setting of {name} below.") }</p>
            } else if mechanisms.is_empty() {
                <p>{ format!("{name} differs from A in:") }</p>
                { settings_list }
            } else {
                <p>{ format!("{name} differs from A in:") }</p>
                <ul data-testid={id("mechanisms")}>
                    for m in mechanisms {
                        <li>{ m }</li>
                    }
                </ul>
                <details data-testid={id("settings-diff")}>
                    <summary>{ format!("Every setting that differs ({})", diffs.len()) }</summary>
                    { settings_list }
                </details>
            }
        </div>
    }
}

/// The results side by side (`n` runs), with each run minus A; `over`: an aggregate throughput above 100%, which
/// needs saying.
fn rows_html(rows: Vec<crate::diff::Row>, n: usize, over: bool) -> Html {
    if rows.is_empty() {
        return html! {};
    }
    html! {
        <>
        if over {
            <p class="muted" data-testid="compare-aggregate-note">{ ibcc_view::names::AGGREGATE_OVER_100 }</p>
        }
        <div class="table-scroll"><table class="results" data-testid="compare-results">
            <caption>{ "Results side by side (over each run's measurement interval)" }</caption>
            <thead><tr>
                <th>{ "" }</th>
                for name in NAMES.iter().take(n) {
                    <th scope="col">{ *name }</th>
                }
                for name in NAMES.iter().take(n).skip(1) {
                    <th scope="col">{ format!("{name} − A") }</th>
                }
            </tr></thead>
            <tbody>
                for r in rows {
                    <tr>
                        <th scope="row">{ r.what }</th>
                        for v in r.values {
                            <td>{ v }</td>
                        }
                        for d in r.diffs {
                            <td>{ d }</td>
                        }
                    </tr>
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
    let b = use_state(|| lesson.as_ref().as_ref().map(|(b, _, _)| Rc::new(b.clone())));
    // What of A the lesson's unanswered exercise asks for: held back here too.
    let hidden = lesson.as_ref().as_ref().and_then(|(_, _, h)| h.clone());
    let c = use_state(|| None::<Rc<Scenario>>);
    let sides = use_reducer(Sides::default);
    let workers: Workers = use_mut_ref(Default::default);
    {
        // Leaving the view stops the runs.
        let workers = workers.clone();
        use_effect_with((), move |_| move || *workers.borrow_mut() = Default::default());
    }
    let kind = use_state(|| PlotKind::Rates);
    // Whose settings are open: B's or C's.
    let editing = use_state(|| None::<usize>);
    // From a lesson, A and B run at once.
    {
        let (workers, sides, a, b, kind, from_lesson) =
            (workers.clone(), sides.dispatcher(), a.clone(), b.clone(), *kind, lesson.is_some());
        use_effect_with((), move |_| {
            if let (true, Some(bs)) = (from_lesson, (*b).clone()) {
                start_runs(&workers, &sides, vec![(*a).clone(), (*bs).clone()], kind);
            }
        });
    }
    let note = lesson.as_ref().as_ref().map(|(_, text, _)| {
        let groups = crate::scene::groups(&a);
        html! {
            <div class="notice lesson-note" data-testid="compare-lesson">
                <p>{ lesson_text(text, &groups) }</p>
                <a href="#" class="button" data-testid="compare-back-to-lesson">{ "← Back to the lesson" }</a>
            </div>
        }
    });

    let copy_a = |to: &UseStateHandle<Option<Rc<Scenario>>>| {
        let (to, a) = (to.clone(), a.clone());
        Callback::from(move |_: MouseEvent| to.set(Some(a.clone())))
    };
    let setup = copy_a(&b);
    let add_c = copy_a(&c);
    let remove_c = {
        let (c, editing) = (c.clone(), editing.clone());
        Callback::from(move |_: MouseEvent| {
            c.set(None);
            if *editing == Some(2) {
                editing.set(None);
            }
        })
    };
    let on_variant = |to: &UseStateHandle<Option<Rc<Scenario>>>| {
        let to = to.clone();
        Callback::from(move |next: Scenario| to.set(Some(Rc::new(next))))
    };
    let runs: Vec<Rc<Scenario>> = [Some(a.clone()), (*b).clone(), (*c).clone()].into_iter().flatten().collect();
    let n = runs.len();
    let start = {
        let (workers, sides, runs, kind) = (workers.clone(), sides.dispatcher(), runs.clone(), *kind);
        Callback::from(move |_| {
            if runs.len() >= 2 {
                start_runs(&workers, &sides, runs.iter().map(|s| (**s).clone()).collect(), kind);
            }
        })
    };
    // Pause and resume all at once (each worker has one run: a new start replaces it).
    let to_all = |m: ToWorker| {
        let workers = workers.clone();
        Callback::from(move |_| {
            for w in workers.borrow().iter().flatten() {
                w.post(&m);
            }
        })
    };
    let stop = to_all(ToWorker::Pause);
    let resume = to_all(ToWorker::Play { speed: None });
    let on_kind = {
        let (kind, workers) = (kind.clone(), workers.clone());
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let k = PlotKind::from_id(&select.value());
            for w in workers.borrow().iter().flatten() {
                w.post(&ToWorker::Plot { kind: k, link: None });
            }
            kind.set(k);
        })
    };
    let toggle_edit = |i: usize| {
        let editing = editing.clone();
        Callback::from(move |_: MouseEvent| editing.set(if *editing == Some(i) { None } else { Some(i) }))
    };

    // What B and C change, in words and setting by setting: worked out when a scenario changes, not at every frame.
    let changes = {
        let (a, b, c) = (a.clone(), (*b).clone(), (*c).clone());
        let ptr = |s: &Option<Rc<Scenario>>| s.as_ref().map(|s| Rc::as_ptr(s) as usize);
        use_memo((Rc::as_ptr(&a) as usize, ptr(&b), ptr(&c)), move |_| {
            [(1, b), (2, c)]
                .into_iter()
                .filter_map(|(i, v)| v.map(|v| (i, v)))
                .map(|(i, v)| (i, v.clone(), mechanism_changes(&a, &v), differences(&a, &v)))
                .collect::<Vec<_>>()
        })
    };
    if n < 2 {
        return html! {
            <section class="compare" data-testid="compare" aria-label="A/B comparison">
                <h2>{ "A/B comparison" }</h2>
                <p class="lede">{ "A is the playground's scenario. Duplicate it as B (and as C, for three), change their settings, and run them with the same seed: their plots are overlaid and their results set side by side." }</p>
                <button class="primary" onclick={setup} data-testid="compare-setup">{ "Duplicate A as B" }</button>
            </section>
        };
    }
    // The sides that run now: as many as there are variants.
    let all = &sides.0[..n];
    let running = all.iter().any(|s| s.frame.as_ref().is_some_and(|f| f.status == Status::Playing));
    let paused_mid_run =
        !running && all.iter().any(|s| s.frame.as_ref().is_some_and(|f| f.time_ps > 0 && f.time_ps < f.end_ps));
    let progress = all
        .iter()
        .map(|s| s.frame.as_ref().map_or(0.0, |f| f.time_ps as f64 / f.end_ps.max(1) as f64))
        .fold(1.0, f64::min);
    let errors: Vec<String> =
        all.iter().zip(NAMES).filter_map(|(s, n)| s.error.as_ref().map(|e| format!("{n}: {e}"))).collect();
    let (y_desc, y_top) = y_axis(*kind, a.measure.window_ns as f64 / 1e6);
    // Before the first frame, the axis spans A's run (not a microsecond with ticks of 1e-4).
    let end_ms = all.iter().filter_map(|s| s.frame.as_ref()).map(|f| f.end_ps as f64 / 1e9).fold(0.0, f64::max);
    let end_ms = if end_ms > 0.0 { end_ms } else { a.duration_ns as f64 / 1e6 };
    let mut curves = overlay(all);
    if let Some(m) = &hidden {
        // (Without A's paths: its own links, and its group's host links.)
        let held = crate::held::revealing(&a, m, None);
        for c in curves.iter_mut().filter(|c| c.run == 0) {
            let name = c.label.trim_start_matches("run A: ").to_owned();
            super::playground::hold_back(c, &name, &held);
        }
    }
    let curves = Rc::new(curves);
    let groups = Rc::new(crate::scene::groups(&a));
    let title = if n == 3 { "A/B/C" } else { "A/B" };
    let axes = Axes {
        x: (0.0, end_ms.max(1e-3)),
        x_desc: String::from("simulated time (ms)"),
        x_log: false,
        x_names: Rc::default(),
        y: YAxis { desc: y_desc, top: y_top },
        groups,
        markers: false,
        band: None,
        title: format!("{title}: {}", kind.label()),
        x_name: String::from("time_ms"),
    };
    // Side by side only at the same simulated time (in practice, all at their ends: the runs go as fast as each
    // can): results of runs at different times would differ by how far each has got, not by their settings.
    // (Results come with some frames only; a run's last frame, at its end, always has them.)
    let frames: Vec<&Rc<FrameMsg>> = all.iter().filter_map(|s| s.frame.as_ref()).collect();
    let results: Vec<&Results> = all.iter().filter_map(|s| s.results.as_deref()).collect();
    let together = frames.len() == n
        && results.len() == n
        && (results.iter().all(|r| r.simulated_ns == results[0].simulated_ns)
            || frames.iter().all(|f| f.time_ps >= f.end_ps));
    // A variant whose packets moved exactly as A's: its curves lie on A's, which says nothing by itself.
    let same: Vec<String> = if together {
        changes
            .iter()
            .filter_map(|(i, v, _, _)| same_traffic((&a, results[0]), (v, results.get(*i)?), NAMES[*i]))
            .collect()
    } else {
        Vec::new()
    };
    let (rows, over, waiting) = if together {
        let over = results.iter().any(|r| r.aggregate_throughput() > 1.0005);
        let mut rows = compare_rows(&results);
        if let Some(Metric::GroupRate { group }) = &hidden {
            // A's value of the asked group, and of its flows (their rates add up to it), and the differences from
            // it (which would give it away beside B's).
            let asked: Vec<String> = std::iter::once(crate::diff::throughput_row(results[0], group))
                .chain(a.flows.iter().filter(|f| f.group == *group).map(|f| format!("flow {} throughput", f.id)))
                .collect();
            for r in rows.iter_mut().filter(|r| asked.contains(&r.what)) {
                r.values[0] = String::from(super::playground::HIDDEN);
                r.diffs.iter_mut().for_each(|d| *d = String::from("-"));
            }
        }
        (rows, over, None)
    } else if frames.len() == n {
        let at: Vec<String> = frames
            .iter()
            .zip(NAMES)
            .map(|(f, name)| format!("{name} is at {:.1} ms", f.time_ps as f64 / 1e9))
            .collect();
        (
            Vec::new(),
            false,
            Some(format!("Results side by side once all runs have reached the end ({}).", at.join(", "))),
        )
    } else {
        (Vec::new(), false, None)
    };
    html! {
        <section class="compare" data-testid="compare" aria-label="A/B comparison">
            <h2>{ format!("{title} comparison") }</h2>
            { for note }
            <div class="compare-layout">
                <div class="compare-side">
                    for (i, _, mechanisms, diffs) in changes.iter() {
                        { diff_html(NAMES[*i], mechanisms, diffs) }
                    }
                    <div class="input-row">
                        if running {
                            <button onclick={stop} data-testid="compare-stop">{ "Pause" }</button>
                        } else if paused_mid_run {
                            <button class="primary" onclick={resume} data-testid="compare-resume">{ "Resume" }</button>
                            <button onclick={start.clone()} data-testid="compare-run">{ "Start again" }</button>
                        } else {
                            <button class="primary" onclick={start} data-testid="compare-run">{ format!("Start {}", if n == 3 { "A, B and C" } else { "A and B" }) }</button>
                        }
                        <button onclick={copy_a(&b)} data-testid="compare-reset-b">{ "Copy A to B again" }</button>
                        if n == 3 {
                            <button onclick={remove_c} data-testid="compare-remove-c">{ "Remove C" }</button>
                        } else {
                            <button onclick={add_c} data-testid="compare-add-c" title="A third variant, a copy of A to change">{ "Add C" }</button>
                        }
                        // (Not before a start: an empty bar beside the buttons reads as a control that does nothing.)
                        <progress max="1" value={progress.to_string()} data-testid="compare-progress" aria-label="Comparison progress"
                            hidden={all.iter().all(|s| s.frame.is_none())} />
                    </div>
                    for e in errors {
                        <p class="error" role="alert">{ e }</p>
                    }
                    for (i, v) in changes.iter().map(|(i, v, _, _)| (*i, v.clone())) {
                        <button class="linklike" onclick={toggle_edit(i)} aria-expanded={(*editing == Some(i)).to_string()}
                            data-testid={format!("compare-{}-settings", NAMES[i].to_ascii_lowercase())}>
                            { if *editing == Some(i) { format!("Hide {}'s settings", NAMES[i]) } else { format!("Change {}'s settings", NAMES[i]) } }
                        </button>
                        if *editing == Some(i) {
                            <ParamsPanel scenario={v} on_change={on_variant(if i == 1 { &b } else { &c })}
                                prefix={format!("{}-", NAMES[i].to_ascii_lowercase())} />
                        }
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
                    for said in same {
                        <p class="hint" data-testid="compare-same">{ said }</p>
                    }
                    { rows_html(rows, n, over) }
                </div>
            </div>
        </section>
    }
}
