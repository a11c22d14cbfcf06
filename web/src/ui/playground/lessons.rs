//! The lessons panel: pick a lesson, step through it (each step loads a scenario or changes a setting and points at
//! what to watch), answer its exercise and have it checked against the run, export the answers; and, for teachers,
//! make an exercise from the current scenario and share it as a link.

use super::super::document::{use_doc, Action, Origin};
use super::super::download::download_text;
use super::super::impact_run::{Form, ImpactCtx};
use super::super::lesson_text::{lesson_text, unbroken_links};
use super::super::share_codec::use_payload;
use super::super::storage;
use super::live::{use_live, use_sim};
use super::network::groups;
use super::{ExerciseCtx, HighlightCtx, OpenExercise, PhoneView, ShowCtx, SAVED_SHEET};
use crate::course::{
    answered_right, lesson_exercise_names, library, same_network, Answer, AnswerSheet, Exercise, Highlight, Library,
    Seen, Sheet, Step, Task, Verdict,
};
use crate::driver::Status;
use ibcc_core::presets::find as find_preset;
use ibcc_core::scenario::{fnv1a, pretty_json, Scenario};
use ibcc_core::sim::{Measurement, Metric};
use ibcc_view::names::PlotKind;
use std::collections::BTreeMap;
use std::rc::Rc;
use yew::prelude::*;

const SAVED_ANSWERS: &str = "ibcc.lessons.answers";
const SAVED_STUDENT: &str = "ibcc.lessons.student";
/// The lesson and step the student was at, so coming back from the Finc(t) explorer (or a reload) keeps the place.
const SAVED_POSITION: &str = "ibcc.lessons.at";

/// The lesson library beside the page (relative, so the page works under any path).
async fn fetch_lessons() -> Result<String, String> {
    let failed =
        |e: wasm_bindgen::JsValue| format!("The lessons could not be loaded ({e:?}). Reload the page to try again.");
    let window = web_sys::window().ok_or("no window")?;
    let response: web_sys::Response =
        wasm_bindgen_futures::JsFuture::from(window.fetch_with_str("lessons.json")).await.map_err(failed)?.into();
    if !response.ok() {
        return Err(format!("The lessons could not be loaded (lessons.json: HTTP {}).", response.status()));
    }
    let text = wasm_bindgen_futures::JsFuture::from(response.text().map_err(failed)?).await.map_err(failed)?;
    text.as_string().ok_or_else(|| String::from("The lessons could not be loaded (lessons.json is not text)."))
}

/// Processes per node in the congestion impact view a lesson step opens.
const LESSON_IMPACT_PPN: u32 = 4;

/// Now, as an ISO 8601 time.
fn now_iso() -> String {
    String::from(js_sys::Date::new_0().to_iso_string())
}

/// Whether the student is in a lesson (one is chosen): selecting on the drawing then keeps the lesson in view.
pub fn lesson_chosen() -> bool {
    storage::load::<(String, usize)>(SAVED_POSITION).is_some()
}

/// What a lesson step does: load a scenario (a new run, from where it came), point at something, and show a plot
/// (a step that sets the scene shows the plot it points at; a step that asks the student to switch the plot must
/// not switch it itself).
type StepAction = (Option<(Scenario, Origin)>, Option<Highlight>, Option<PlotKind>);

/// Opens an exercise's own scenario (a new run; what the exercise's locks apply to), named by the lesson it ends
/// (`None`: a teacher's).
fn open_exercise(e: &Exercise, lesson: Option<&AttrValue>) -> StepAction {
    let origin = lesson.map_or(Origin::Exercise, |title| Origin::LessonExercise(title.to_string()));
    (e.scenario().ok().map(|s| (s, origin)), None, None)
}

#[derive(Properties, PartialEq)]
pub struct LessonsProps {
    /// A sheet of exercises opened from a link.
    pub linked: Option<Rc<Result<Sheet, String>>>,
}

#[component]
pub fn LessonsPanel(p: &LessonsProps) -> Html {
    let doc = use_doc();
    let sim = use_sim();
    let highlight = use_context::<HighlightCtx>();
    let show = use_context::<ShowCtx>();
    let impact = use_context::<ImpactCtx>();
    let scenario = doc.scenario.clone();
    // The congestion impact view, opened from a step at enough processes per node for its histograms to show a
    // spread (one per node gives the 32-host fabric seven canary processes); its other choices stay the student's.
    let open_impact = Callback::from(move |_| {
        if let Some(c) = &impact {
            c.form.set(Form { ppn: LESSON_IMPACT_PPN, ..(*c.form).clone() });
        }
        if let Some(loc) = web_sys::window().map(|w| w.location()) {
            let _ = loc.set_hash("impact");
        }
    });
    let on_step = {
        let (d, sim, highlight) = (doc.dispatcher(), sim.clone(), highlight.clone());
        Callback::from(move |(next, point, plot): StepAction| {
            if let Some((next, origin)) = next {
                d.dispatch(Action::Load { next: Box::new(next), origin });
            }
            if let Some(kind) = plot {
                sim.set_plot(kind);
            }
            if let Some(h) = &highlight {
                h.set(point);
            }
        })
    };
    // The lessons are content, not code: read from `lessons.json` beside the page (cached for offline use).
    let lib = use_state(|| None::<Rc<Result<Library, String>>>);
    {
        let lib = lib.clone();
        use_effect_with((), move |_| {
            wasm_bindgen_futures::spawn_local(async move {
                lib.set(Some(Rc::new(fetch_lessons().await.and_then(|text| library(&text)))));
            });
        });
    }
    // The place, kept by lesson id (so a reordered or longer library still finds it). An exercise link starts
    // without a lesson.
    let saved = use_memo((), |_| storage::load::<(String, usize)>(SAVED_POSITION));
    let lesson = use_state(|| if p.linked.is_some() { None } else { saved.as_ref().as_ref().map(|s| s.0.clone()) });
    let step = use_state(|| saved.as_ref().as_ref().map_or(0, |s| s.1));
    {
        use_effect_with(((*lesson).clone(), *step), |(id, k)| match id {
            Some(id) => storage::save(SAVED_POSITION, &(id, *k)),
            None => storage::remove(SAVED_POSITION),
        });
    }
    let answers = use_state(|| storage::load::<Vec<Answer>>(SAVED_ANSWERS).unwrap_or_default());
    {
        use_effect_with((*answers).clone(), |a| storage::save(SAVED_ANSWERS, a));
    }
    // The student's name, asked once (kept in the browser) and put on every export.
    let student = use_state(|| storage::load_text(SAVED_STUDENT).unwrap_or_default());
    let lessons: &Library = match lib.as_deref() {
        None => return html! { <p class="muted" data-testid="lessons-loading">{ "Loading the lessons…" }</p> },
        Some(Err(e)) => return html! { <p class="error" role="alert" data-testid="lessons-error">{ e }</p> },
        Some(Ok(l)) => l,
    };
    let named = Rc::new(lesson_exercise_names(lessons));
    // The chosen lesson's place in the library.
    let index = (*lesson).as_ref().and_then(|id| lessons.lessons.iter().position(|l| l.id == *id));

    // Shows step `k`: a scene step loads or changes the scenario, runs to its moment (or, `watch`, plays up to it
    // from the start at the scenario's own speed), opens A/B; a task step only points at what to act on.
    let go = {
        let (on_step, scenario, step_h, origin, sim) =
            (on_step.clone(), scenario.clone(), step.clone(), doc.origin.clone(), sim.clone());
        let (doc_for_compare, lesson_id) = (doc.dispatcher(), (*lesson).clone());
        // The lesson's exercise, if the student has not answered it yet: the A/B view holds its value back.
        let open_exercise = (*lesson)
            .as_ref()
            .and_then(|id| lessons.lessons.iter().find(|l| l.id == *id))
            .and_then(|l| l.exercise.clone())
            .filter(|e| !answers.iter().any(|a| a.exercise == e.id));
        move |s: &Step, k: usize, watch: bool| {
            step_h.set(k);
            let next = if s.load.is_some() || !s.set.is_empty() { s.scenario(&scenario).ok() } else { None };
            let from = match (&s.load, s.set.is_empty()) {
                (Some(name), true) => Origin::Preset(name.clone()),
                (Some(name), false) => Origin::Preset(name.clone()).set_by_lesson(),
                (None, _) => origin.clone().set_by_lesson(),
            };
            if let Some(ms) = s.run_to_ms {
                let t_ps = (ms * 1e9).round() as u64;
                // A new scenario starts a new run first: the run-to waits for it.
                match (next.is_some(), watch) {
                    (true, false) => sim.then_seek(t_ps),
                    (true, true) => sim.then_watch(t_ps),
                    (false, false) => sim.seek(t_ps, None),
                    (false, true) => sim.watch(&scenario, t_ps),
                }
            }
            // A step shows the plot it points at (unless choosing that plot is the student's task); a new network
            // starts on the rates.
            let plot = match &s.highlight {
                Some(Highlight::Plot(k)) if s.task.as_ref().is_none_or(|t| t.plot.is_none()) => {
                    Some(PlotKind::from_id(k))
                }
                _ if s.load.is_some() => Some(PlotKind::Rates),
                _ => None,
            };
            // A of a comparison is the step's scenario.
            let a_run = s.compare.as_ref().map(|_| next.clone().unwrap_or_else(|| (*scenario).clone()));
            on_step.emit((next.map(|n| (n, from)), s.highlight.clone(), plot));
            // A is the step's scenario (loaded just above, in the same document), B the preset named: the A/B view
            // takes the comparison from the document when it opens.
            if let Some(b) = s.compare.as_deref().and_then(find_preset) {
                // The A/B view replaces the playground, this panel with it, perhaps before the position is saved
                // (an effect, after the next render): keep it now, so "Back to the lesson" comes back here.
                if let Some(id) = &lesson_id {
                    storage::save(SAVED_POSITION, &(id.clone(), k));
                }
                let b = Box::new(b.scenario());
                let own = |e: &&Exercise| a_run.as_ref().is_some_and(|a| e.is_own_run(a));
                let hidden =
                    open_exercise.as_ref().filter(own).and_then(|e| e.measure.as_ref()).map(|m| m.metric.clone());
                doc_for_compare.dispatch(Action::Compare { b, text: s.text.clone(), hidden });
                if let Some(location) = web_sys::window().map(|w| w.location()) {
                    let _ = location.set_hash("compare");
                }
            }
        }
    };
    // Starts lesson `i` at its first step.
    let begin = {
        let (lesson, go, lessons) = (lesson.clone(), go.clone(), lessons.lessons.clone());
        move |i: Option<usize>| {
            lesson.set(i.and_then(|i| lessons.get(i)).map(|l| l.id.clone()));
            if i.is_some() {
                super::start::put_away();
            }
            if let Some(first) = i.and_then(|i| lessons.get(i)).and_then(|l| l.steps.first()) {
                go(first, 0, false);
            }
        }
    };
    let on_pick = {
        let (begin, n) = (begin.clone(), lessons.lessons.len());
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            begin(select.value().parse::<usize>().ok().filter(|&i| i < n));
        })
    };
    // The button pressed goes away with the start card (or the lesson's end): the focus goes on to the step's text,
    // not back to the top of the page.
    let start = |i: usize| {
        let begin = begin.clone();
        Callback::from(move |_: MouseEvent| {
            begin(Some(i));
            super::focus_later("[data-testid=lesson-step]");
        })
    };
    // Progress: a lesson is done once its exercise was answered right.
    let done = |l: &crate::course::Lesson| l.exercise.as_ref().is_some_and(|e| answered_right(&answers, &e.id));
    // When another network is loaded than the one step `k` is about (a reload over other work, a preset picked
    // meanwhile), the step offers to load its own rather than describe another.
    let elsewhere = |l: &crate::course::Lesson, k: usize| {
        let (s, preset, edited) = l.scenario_at(k).ok()?;
        if same_network(&s, &scenario) {
            return None;
        }
        let origin = match preset {
            Some(name) if !edited => Origin::Preset(name),
            Some(name) => Origin::Preset(name).set_by_lesson(),
            None => doc.origin.clone().set_by_lesson(),
        };
        let (on_step, point) = (on_step.clone(), l.steps[k].highlight.clone());
        Some(Callback::from(move |_: MouseEvent| {
            on_step.emit((Some((s.clone(), origin.clone())), point.clone(), None))
        }))
    };
    let current = index.and_then(|i| lessons.lessons.get(i));
    let steps = current.map(|l| {
        let n = l.steps.len();
        let k = (*step).min(n.saturating_sub(1));
        let nav = |to: usize| {
            let (go, s) = (go.clone(), l.steps[to].clone());
            Callback::from(move |_| go(&s, to, false))
        };
        let watch_it = {
            let (go, s) = (go.clone(), l.steps[k].clone());
            Callback::from(move |_| go(&s, k, true))
        };
        let here = &l.steps[k];
        // On a phone the network and the plot are other views: a button shows what the step points at.
        let show_it = here.highlight.as_ref().zip(show.clone()).map(|(h, show)| {
            let (view, label) = match h {
                Highlight::Plot(_) => (PhoneView::Plot, "Show me in the plot"),
                _ => (PhoneView::Network, "Show me on the network"),
            };
            html! { <button class="phone-only" onclick={show.reform(move |_| view)} data-testid="lesson-show">{ label }</button> }
        });
        html! {
            <div class={classes!("lesson-step", here.task.is_some().then_some("task"))} tabindex="-1" data-testid="lesson-step">
                <p class="muted">{ format!("Step {} of {n}", k + 1) }{ if here.task.is_some() { " · your turn" } else { "" } }</p>
                if let Some(again) = elsewhere(l, k) {
                    <div class="notice lesson-elsewhere" data-testid="lesson-elsewhere">
                        <p>{ "This step is about another network than the one on the canvas now." }</p>
                        <button class="primary" onclick={again} data-testid="lesson-reload">{ "Load the lesson's network again" }</button>
                    </div>
                } else {
                    <p data-testid="lesson-text">{ lesson_text(&here.text, &groups(&scenario)) }</p>
                    if let Some(ms) = here.run_to_ms {
                        <AwayFromMoment {ms} />
                    }
                    if let Some(task) = &here.task {
                        <TaskStatus task={Rc::new(task.clone())} last={k + 1 == n} />
                    }
                }
                { for show_it }
                if here.open.as_deref() == Some("finc") {
                    <button onclick={Callback::from(|_| {
                        if let Some(loc) = web_sys::window().map(|w| w.location()) {
                            let _ = loc.set_hash("finc");
                        }
                    })} data-testid="lesson-open-finc">{ "Open the Finc(t) explorer" }</button>
                }
                if here.open.as_deref() == Some("impact") {
                    <button onclick={open_impact.clone()} data-testid="lesson-open-impact">{ "Open the Congestion impact view" }</button>
                }
                if here.compare.is_some() {
                    <button onclick={nav(k)} data-testid="lesson-open-compare">{ "Open the A/B comparison again" }</button>
                }
                <div class="input-row">
                    <button disabled={k == 0} onclick={nav(k.saturating_sub(1))} data-testid="lesson-back">{ "Back" }</button>
                    <button disabled={k + 1 >= n} onclick={nav((k + 1).min(n - 1))} data-testid="lesson-next">{ "Next" }</button>
                    if here.sets_the_scene() {
                        <button onclick={nav(k)} data-testid="lesson-redo" title="Set this step's scene again">{ "Do this step again" }</button>
                    }
                    if let Some(ms) = here.run_to_ms {
                        <button onclick={watch_it} data-testid="lesson-watch"
                            title={format!("Play the run from its start and pause at {ms} ms, where this step jumped to")}>{ "Watch it happen" }</button>
                    }
                </div>
                // The way on from the last step: the exercise, then the next lesson.
                if k + 1 >= n {
                    <div class="lesson-end" data-testid="lesson-end">
                        if l.exercise.is_some() {
                            <p>{ "That was the last step. Now try the exercise below." }</p>
                        }
                        if let Some((i, next)) = index.map(|i| i + 1).and_then(|i| lessons.lessons.get(i).map(|n| (i, n))) {
                            <button class="primary" onclick={start(i)} data-testid="lesson-next-lesson">{ format!("Next lesson: {}", next.title) }</button>
                        } else {
                            <p>{ "That was the last lesson." }</p>
                        }
                    </div>
                }
            </div>
        }
    });
    // The exercise shown: the lesson's, or (from a link, before a lesson is chosen) the sheet's.
    let sheet = match (&p.linked, index) {
        (Some(linked), None) => (**linked).as_ref().ok().cloned(),
        _ => None,
    };
    let exercise = current.and_then(|l| l.exercise.clone());
    let on_student = {
        let student = student.clone();
        Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
            storage::save_text(SAVED_STUDENT, &v);
            student.set(v);
        })
    };
    let export = {
        let (answers, student) = (answers.clone(), student.clone());
        Callback::from(move |_| {
            let name = student.trim().to_owned();
            let sheet = AnswerSheet { student: name.clone(), exported_at: now_iso(), answers: (*answers).clone() };
            let text = pretty_json(&serde_json::to_string(&sheet).unwrap_or_default());
            let file: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
            download_text(&text, "application/json", &format!("ibcc-answers-{file}.json"));
        })
    };
    let linked_ok = p.linked.as_deref().is_some_and(|l| l.is_ok());
    html! {
        <details class="lessons" open=true data-testid="lessons">
            <summary>{ "Lessons and exercises" }</summary>
            if let Some(Err(e)) = p.linked.as_deref() {
                <p class="error" role="alert" data-testid="exercise-link-error">{ format!("This exercise link could not be opened: {e}") }</p>
            }
            // (A lesson picked from the list puts the card away too: it stood above the lesson, which a phone
            // then showed below the fold.)
            if p.linked.is_none() && index.is_none() {
                <super::start::StartCard on_start={start(0)} on_explore={show.clone().map(|s| s.reform(|_: MouseEvent| PhoneView::Network))} />
            }
            <div class="field">
                <label for="lesson-picker">{ "Lesson" }</label>
                <select id="lesson-picker" onchange={on_pick} data-testid="lesson-picker">
                    <option value="" selected={index.is_none()}>{ if linked_ok { "(your teacher's exercises)" } else { "choose a lesson" } }</option>
                    for (i, l) in lessons.lessons.iter().enumerate() {
                        <option value={i.to_string()} selected={index == Some(i)}>
                            { if done(l) { format!("{} ✓", l.title) } else { l.title.clone() } }
                        </option>
                    }
                </select>
            </div>
            { for steps }
            if let Some(e) = exercise {
                <ExerciseView exercise={Rc::new(e)} on_step={on_step.clone()} answers={answers.clone()}
                    lesson={index.map(|i| AttrValue::from(lessons.lessons[i].title.clone()))} />
            }
            if let Some(sheet) = sheet {
                <SheetView sheet={Rc::new(sheet)} on_step={on_step.clone()} answers={answers.clone()} />
            }
            if !answers.is_empty() {
                <div class="field export-answers">
                    <label for="student-name">{ "Your name (on the answers you export)" }</label>
                    <div class="input-row">
                        <input id="student-name" type="text" value={(*student).clone()} oninput={on_student} data-testid="student-name" />
                        <button onclick={export} disabled={student.trim().is_empty()} data-testid="export-answers"
                            title={if student.trim().is_empty() { "Write your name first" } else { "A file for your teacher: your name, the time, each answer and its verdict" }}>
                            { format!("Export my answers ({})", answers.len()) }
                        </button>
                    </div>
                </div>
            }
            // (A student's page, opened from a teacher's exercise link, leaves out the teachers' tools: the page
            // without the link has them.)
            if !linked_ok {
                <Author scenario={scenario.clone()} />
                <super::class::ClassAnswers named={named} />
            }
        </details>
    }
}

#[derive(Properties, PartialEq)]
struct AwayProps {
    /// The moment the step describes, ms.
    ms: f64,
}

/// The run stopped at another moment than the one a step describes (after a reset, a move on the timeline, or a
/// run on): says so, as the step's words ("the run has gone to 20 ms") are about that moment. A component of its
/// own, so that the run's frames re-render only this line.
#[component]
fn AwayFromMoment(p: &AwayProps) -> Html {
    let live = use_live();
    let now_ms = live.time_ps() as f64 / 1e9;
    let stopped = matches!(live.status(), Status::Paused | Status::Finished) && live.seeking_to.is_none();
    if !stopped || live.frame.is_none() || (now_ms - p.ms).abs() < 1e-6 {
        return html! {};
    }
    html! {
        <p class="muted lesson-away" data-testid="lesson-away">
            { format!("The run is at {now_ms:.3} ms now; this step describes it at {} ms. 'Do this step again' goes back there.", p.ms) }
        </p>
    }
}

#[derive(Properties, PartialEq)]
struct TaskProps {
    task: Rc<Task>,
    /// The lesson's last step: no Next to move on with, only its exercise below.
    #[prop_or_default]
    last: bool,
}

/// Whether the student has done what a step asks, seen live (a component of its own, so the run's frames
/// re-render only this line).
#[component]
fn TaskStatus(p: &TaskProps) -> Html {
    let doc = use_doc();
    let live = use_live();
    let sim = use_sim();
    let time_ms = if live.run_scenario.as_deref() == Some(&*doc.scenario) { live.time_ps() as f64 / 1e9 } else { 0.0 };
    let seen = Seen { scenario: &doc.scenario, plot: live.kind.id(), time_ms };
    // A change the run under way cannot take: the run shown is still the one before it, so what the step
    // concludes is not on the screen yet, and the step says how to get there rather than what it will show.
    // (Known at once, before the run answers the change.)
    let waits = live.pending
        || (live.mid_run()
            && live.run_scenario.as_ref().is_some_and(|r| ibcc_core::sim::needs_restart(r, &doc.scenario)));
    let done = p.task.done_by(seen);
    if done && waits {
        // The new run plays to where the old one was, where the step's conclusion is to be seen.
        let restart = {
            let (scenario, at_ps) = (doc.scenario.clone(), live.time_ps());
            Callback::from(move |_| {
                // (Asked first: the load starts the watch it finds waiting.)
                if at_ps > 0 {
                    sim.then_watch(at_ps);
                }
                sim.load(&scenario, false);
            })
        };
        html! {
            <p class="task-done" role="status" data-testid="task-done">
                { "✓ Set. It needs a new run: the drawing still shows the old one, paused. The restart plays the new one to the same moment. " }
                <button onclick={restart} data-testid="task-restart">{ "Restart with the change" }</button>
            </p>
        }
    } else if done {
        html! { <p class="task-done" role="status" data-testid="task-done">{ "✓ " }{ &p.task.done }</p> }
    } else {
        let then = if p.last { "the exercise below does not need it" } else { "Next moves on without it" };
        html! { <p class="task-todo" role="status" data-testid="task-todo">{ format!("Your turn: a ✓ shows here once you have done it ({then}).") }</p> }
    }
}

#[derive(Properties, PartialEq)]
struct SheetProps {
    sheet: Rc<Sheet>,
    on_step: Callback<StepAction>,
    answers: UseStateHandle<Vec<Answer>>,
}

/// A teacher's sheet: its exercises one at a time, each marked once answered right.
#[component]
fn SheetView(p: &SheetProps) -> Html {
    let at = use_state(|| 0usize);
    let n = p.sheet.exercises.len();
    let k = (*at).min(n - 1);
    let right = |e: &Exercise| answered_right(&p.answers, &e.id);
    let pick = |i: usize| {
        let (at, e, on_step) = (at.clone(), p.sheet.exercises[i].clone(), p.on_step.clone());
        Callback::from(move |_: MouseEvent| {
            at.set(i);
            // Each exercise opens on its own scenario.
            on_step.emit(open_exercise(&e, None));
        })
    };
    html! {
        <div class="sheet" data-testid="sheet">
            if !p.sheet.title.is_empty() {
                <h4 data-testid="sheet-title">{ &p.sheet.title }</h4>
            }
            if n > 1 {
                <div class="input-row sheet-pager" role="group" aria-label="Exercises of the sheet">
                    for i in 0..n {
                        <button aria-pressed={(i == k).to_string()} class={classes!((i == k).then_some("active"))}
                            onclick={pick(i)} data-testid={format!("sheet-{}", i + 1)}>
                            { format!("Exercise {}{}", i + 1, if right(&p.sheet.exercises[i]) { " ✓" } else { "" }) }
                        </button>
                    }
                </div>
            }
            <ExerciseView exercise={Rc::new(p.sheet.exercises[k].clone())} on_step={p.on_step.clone()} answers={p.answers.clone()}
                position={Some(k as u32 + 1)} />
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct ExerciseProps {
    exercise: Rc<Exercise>,
    on_step: Callback<StepAction>,
    answers: UseStateHandle<Vec<Answer>>,
    /// The lesson it ends, by title; `None` for a teacher's exercise.
    #[prop_or_default]
    lesson: Option<AttrValue>,
    /// Its number on the teacher's sheet it is part of (1 for a single exercise's link), kept with each answer.
    #[prop_or_default]
    position: Option<u32>,
}

#[component]
fn ExerciseView(p: &ExerciseProps) -> Html {
    let doc = use_doc();
    let answer = use_state(String::new);
    let verdict = use_state(|| None::<Result<Verdict, String>>);
    // Wrong answers so far: the first gets the hint and another try, the next the answer and the explanation.
    let wrong = use_state(|| 0u32);
    {
        let (answer, verdict, wrong) = (answer.clone(), verdict.clone(), wrong.clone());
        use_effect_with(p.exercise.id.clone(), move |_| {
            answer.set(String::new());
            verdict.set(None);
            wrong.set(0);
        });
    }
    let e = p.exercise.clone();
    // Answered: right, or wrong often enough to be shown the answer. Until then the page holds the paper's
    // numbers back and shows the fixed settings disabled.
    // A wrong verdict shows the answer, or only the hint (`wrong` already counts that answer).
    let revealed = e.reveals(wrong.saturating_sub(1));
    let answered = match &*verdict {
        Some(Ok(Verdict::Right { .. })) => true,
        Some(Ok(Verdict::Wrong { .. })) => revealed,
        _ => false,
    };
    {
        let open = use_context::<ExerciseCtx>();
        let locked = e.locked.clone();
        let asks = Some(e.clone());
        use_effect_with((e.id.clone(), answered), move |&(_, answered)| {
            if let Some(open) = &open {
                open.set(Some(OpenExercise { answered, locked, asks }));
            }
            move || {
                if let Some(open) = open {
                    open.set(None);
                }
            }
        });
    }
    let load = {
        let (e, on_step, lesson) = (e.clone(), p.on_step.clone(), p.lesson.clone());
        Callback::from(move |_| on_step.emit(open_exercise(&e, lesson.as_ref())))
    };
    let on_input = {
        let answer = answer.clone();
        Callback::from(move |ev: InputEvent| {
            let input: web_sys::HtmlInputElement = ev.target_unchecked_into();
            answer.set(input.value());
        })
    };
    let run_scenario = super::live::use_run_scenario();
    let sim = use_sim();
    // Verdicts given so far (the page shows the count, so a test can wait for a new one).
    let checks = use_mut_ref(|| 0u32);
    // An impact exercise's answer is in the congestion impact view's runs, which the shell keeps.
    let impact = use_context::<ImpactCtx>();
    {
        // While it waits for its answer, the view holds back the impact it asks for.
        let (impact, asks) = (impact.clone(), e.impact);
        use_effect_with((e.id.clone(), answered), move |&(_, answered)| {
            if let Some(c) = &impact {
                let held = asks.filter(|_| !answered).map(|a| a.canary);
                if c.form.held != held {
                    c.form.set(Form { held, ..(*c.form).clone() });
                }
            }
        });
    }
    let check = {
        let (e, answer, verdict, answers, sim, checks, wrong) =
            (e.clone(), answer.clone(), verdict.clone(), p.answers.clone(), sim.clone(), checks.clone(), wrong.clone());
        let ran = run_scenario.clone();
        let position = p.position;
        let job = impact.as_ref().and_then(|c| c.job.0.clone());
        Callback::from(move |_| {
            let typed = answer.trim().trim_end_matches(['%', 'X', 'x']).trim();
            let Some(a) = crate::number::parse(typed) else {
                *checks.borrow_mut() += 1;
                let how = if e.impact.is_some() { "as an impact factor, e.g. 1.5" } else { "in percent, e.g. 42" };
                verdict.set(Some(Err(format!("{:?} is not a number: answer {how}", answer.trim()))));
                return;
            };
            let (asked, verdict, answers, checks, wrong) =
                (e.clone(), verdict.clone(), answers.clone(), checks.clone(), wrong.clone());
            let record = move |ran: &Scenario, v: Verdict| {
                let e = &asked;
                if let Verdict::Right { simulated_pct } | Verdict::Wrong { simulated_pct } = v {
                    let mut list = (*answers).clone();
                    list.push(Answer {
                        exercise: e.id.clone(),
                        question: e.question.clone(),
                        answer_pct: a,
                        simulated_pct,
                        right: matches!(v, Verdict::Right { .. }),
                        at: now_iso(),
                        scenario_digest: ran.digest(),
                        unit: if e.impact.is_some() { String::from("X") } else { String::new() },
                        position,
                    });
                    answers.set(list);
                }
                if let Verdict::Wrong { .. } = v {
                    wrong.set(*wrong + 1);
                }
                *checks.borrow_mut() += 1;
                verdict.set(Some(Ok(v)));
            };
            if let Some(ask) = e.impact {
                // The view's latest runs, if they are the ones asked for, on the exercise's network.
                let Ok(own) = e.scenario() else {
                    return record(&Scenario::empty("", 1), Verdict::NotRun(String::from("the exercise is broken")));
                };
                let at = (ask.processes_per_node, ask.seed);
                let found = job.as_ref().and_then(|j| {
                    Some((j.no_control_impact(&own, ask.canary, at)?, j.plan.mechanisms.first()?.scenario.clone()))
                });
                // (Checked on the network the view ran: its routing engine, say, is the exercise's.)
                let (got, ran) = match found {
                    Some((i, ran)) => (Some(ask.of(&i)), ran),
                    None => (None, own),
                };
                let v = e.check(&ran, got, a);
                return record(&ran, v);
            }
            let Some(ran) = ran.clone() else {
                return record(
                    &Scenario::empty("", 1),
                    Verdict::NotRun(String::from("load the exercise's scenario and run it first")),
                );
            };
            let Some(m) = e.measure.clone() else { return };
            let e = e.clone();
            sim.measure(
                m,
                Callback::from(move |value: Result<f64, String>| {
                    let v = e.check(&ran, value.ok(), a);
                    record(&ran, v);
                }),
            );
        })
    };
    // The measured interval's end, where the answer can be read; for an impact, the view that runs it, set up.
    let to_end = {
        let (sim, e, impact) = (sim.clone(), e.clone(), impact.clone());
        let ran = run_scenario.clone();
        Callback::from(move |_| {
            if let (Some(ask), Some(c)) = (e.impact, &impact) {
                let held = c.form.held;
                let canaries = vec![ask.canary];
                c.form.set(Form { ppn: ask.processes_per_node, seed: ask.seed, picked: Vec::new(), canaries, held });
                if let Some(loc) = web_sys::window().map(|w| w.location()) {
                    let _ = loc.set_hash("impact");
                }
                return;
            }
            let (Some(ran), Some(m)) = (ran.as_ref(), e.measure.as_ref()) else { return };
            let end = m.to_ns.unwrap_or_else(|| ran.measure.until_ns(ran.duration_ns)).min(ran.duration_ns);
            sim.seek(end * 1000, None);
        })
    };
    // A verdict comes into view (on a laptop it could land below the fold, only its first line showing).
    let verdict_ref = use_node_ref();
    {
        let r = verdict_ref.clone();
        use_effect_with((*verdict).clone(), move |v| {
            if let (Some(_), Some(el)) = (v, r.cast::<web_sys::Element>()) {
                super::scroll_into_view(&el);
            }
        });
    }
    let own_scenario = doc.origin.is_exercise();
    let result = verdict.as_ref().map(|v| match v {
        Err(msg) => html! { <p class="error" role="alert" data-testid="exercise-verdict">{ msg }</p> },
        Ok(Verdict::Right { simulated_pct }) => html! {
            <div class="verdict right" data-testid="exercise-verdict">
                <p><strong>{ "Right. " }</strong>{ format!("The run gives {simulated_pct:.1}{} (within ±{}).", e.unit(), e.tolerance_pct) }</p>
                <p data-testid="exercise-explanation">{ unbroken_links(&e.explanation) }</p>
            </div>
        },
        Ok(Verdict::Wrong { simulated_pct }) if revealed => html! {
            <div class="verdict wrong" data-testid="exercise-verdict">
                <p><strong>{ "Not quite. " }</strong>{ format!("The run gives {simulated_pct:.1}{}; answers within ±{} count.", e.unit(), e.tolerance_pct) }</p>
                <p data-testid="exercise-explanation">{ unbroken_links(&e.explanation) }</p>
            </div>
        },
        Ok(Verdict::Wrong { .. }) => html! {
            <div class="verdict hint" data-testid="exercise-verdict">
                <p><strong>{ "Not quite. " }</strong>{ "A hint: " }<span data-testid="exercise-hint">{ unbroken_links(e.hint_or_reminder()) }</span></p>
                <p>{ "Think it over, change your answer and check again." }</p>
            </div>
        },
        // Changed after loading the exercise's own scenario: the student's doing. Otherwise the lesson's steps
        // changed it (lesson 1 asks for a 1-packet buffer): nothing to blame, only where to go.
        Ok(Verdict::Locked(path)) if own_scenario => html! {
            <p class="error" role="alert" data-testid="exercise-verdict">{ format!("This exercise fixes '{}': you changed it. Load the exercise again.", ibcc_view::settings::label(path)) }</p>
        },
        Ok(Verdict::Locked(path)) => html! {
            <p class="notice" data-testid="exercise-verdict">{ format!("This exercise runs on its own scenario, with its own '{}': load it with 'Load the exercise\'s scenario' and run it.", ibcc_view::settings::label(path)) }</p>
        },
        Ok(Verdict::NotRun(why)) => html! { <p class="notice" data-testid="exercise-verdict">{ format!("Not yet: {why}.") }</p> },
    });
    html! {
        <div class="exercise" data-testid="exercise" data-checks={checks.borrow().to_string()}>
            <h4>{ "Exercise" }</h4>
            <p data-testid="exercise-question">{ unbroken_links(&e.question) }</p>
            <p class="muted">{ format!("Measured: {}{}. Fixed: {}.", e.describe(), scenario_window(&e), if e.locked.is_empty() { String::from("nothing") } else { e.locked.iter().map(|p| format!("'{}'", ibcc_view::settings::label(p))).collect::<Vec<_>>().join(", ") }) }</p>
            <div class="input-row">
                <button onclick={load} data-testid="exercise-load">{ "Load the exercise's scenario" }</button>
                if e.impact.is_some() {
                    <button onclick={to_end} data-testid="exercise-open-impact" title="The Congestion impact view, set up for this question">{ "Open the Congestion impact view" }</button>
                } else {
                    <button onclick={to_end} data-testid="exercise-to-end" title="Run (fast) to where the answer is measured, then pause">{ "Go to the measured end" }</button>
                }
            </div>
            <div class="field">
                <label for="exercise-answer">{ "Your answer" }</label>
                <div class="input-row">
                    <input id="exercise-answer" type="text" inputmode="decimal" value={(*answer).clone()} oninput={on_input} data-testid="exercise-answer" />
                    <span class="unit">{ e.unit() }</span>
                    <button onclick={check} data-testid="exercise-check">{ "Check" }</button>
                </div>
                <small>{ "Predict, then run the scenario at least through the measured interval, then check." }</small>
            </div>
            <div ref={verdict_ref}>{ for result }</div>
        </div>
    }
}

/// A button's change to the sheet a teacher is putting together.
fn edit_sheet(sheet: &UseStateHandle<Sheet>, change: impl Fn(&mut Sheet) + 'static) -> Callback<MouseEvent> {
    let sheet = sheet.clone();
    Callback::from(move |_| {
        let mut next = (*sheet).clone();
        change(&mut next);
        sheet.set(next);
    })
}

/// Settings a teacher may lock (named by the settings registry).
const LOCKABLE: &[&str] = &[
    ibcc_view::settings::EVERY_SETTING,
    "marking.policy",
    "source.response",
    "source.window_packets",
    "source.rate",
    "switch.buffer_packets",
    "pft",
    "ib_cc",
    "flows",
];

#[derive(Properties, PartialEq)]
struct AuthorProps {
    scenario: Rc<Scenario>,
}

/// A link to copy or preview (`{prefix}-link`, `-copy`, `-preview`): `None` while it is being made, or why it
/// could not be.
fn link_row(
    link: Option<Result<String, String>>,
    prefix: &str,
    label: &'static str,
    copied: &UseStateHandle<bool>,
) -> Html {
    let url = link.as_ref().and_then(|l| l.as_ref().ok()).cloned();
    let copy = {
        let (url, copied) = (url.clone(), copied.clone());
        Callback::from(move |_: MouseEvent| {
            if let Some(url) = &url {
                super::super::share::copy_to_clipboard(url, copied.clone())
            }
        })
    };
    html! {
        <>
            <input class="share-link" type="text" readonly=true value={url.clone().unwrap_or_default()} placeholder="making the link…"
                data-testid={format!("{prefix}-link")} aria-label={label} />
            if let Some(Err(e)) = &link {
                <p class="error" role="alert">{ e }</p>
            }
            <div class="input-row">
                <button onclick={copy} disabled={url.is_none()} data-testid={format!("{prefix}-copy")}>{ if **copied { "Copied" } else { "Copy link" } }</button>
                <a class="button" href={url.as_ref().map(|u| u.replacen("#x=", "?preview#x=", 1))} aria-disabled={url.is_none().then_some("true")}
                    target="_blank" rel="noopener" data-testid={format!("{prefix}-preview")}
                    title="Opens in a tab of its own: what you do there is not kept with your work">{ "Preview as a student ↗" }</a>
            </div>
        </>
    }
}

/// A fixed setting's value in words: a block (PFT, Annex A10) on or off, a choice's label, a number as it is.
fn lock_value(s: &Scenario, path: &str) -> String {
    match s.setting(path) {
        None | Some(serde_json::Value::Null) => String::from("off"),
        Some(v) if path == "flows" => format!("{} flows", v.as_array().map_or(0, Vec::len)),
        Some(serde_json::Value::Object(_)) => String::from("on"),
        Some(v) => ibcc_view::settings::value_label(path, &v),
    }
}

/// For an exercise that measures over its scenario's own interval (no times of its own), that interval in words:
/// its describe() names times only when it has them, and a student should see the interval as the teacher does.
fn scenario_window(e: &Exercise) -> String {
    match (&e.measure, e.scenario().ok()) {
        (Some(m), Some(s)) if m.from_ns.is_none() && m.to_ns.is_none() => match m.interval_ns(&s) {
            Ok((from, to)) => {
                format!(", over the scenario's measured interval ({}-{} ms)", from as f64 / 1e6, to as f64 / 1e6)
            }
            Err(_) => String::new(),
        },
        _ => String::new(),
    }
}

/// Every part of an exercise, as its students will get it (and, for the one just made, what this run gives).
/// `simulated`: `Some(None)` while the run is being measured.
fn exercise_card(e: &Exercise, simulated: Option<Option<&Result<f64, String>>>, testid: &str) -> Html {
    let s = e.scenario().ok();
    let window = scenario_window(e);
    let fixed = if e.locked.is_empty() {
        String::from("nothing")
    } else {
        e.locked
            .iter()
            .map(|p| {
                if p == ibcc_view::settings::EVERY_SETTING {
                    return ibcc_view::settings::label(p);
                }
                let value = s.as_ref().map(|s| lock_value(s, p)).unwrap_or_default();
                format!("{}: {value}", ibcc_view::settings::label(p))
            })
            .collect::<Vec<_>>()
            .join("; ")
    };
    let or_none = |t: &str| if t.trim().is_empty() { String::from("none") } else { t.to_owned() };
    html! {
        <dl class="exercise-card" data-testid={testid.to_owned()}>
            <dt>{ "Question" }</dt><dd data-testid="card-question">{ unbroken_links(&e.question) }</dd>
            <dt>{ "Scenario" }</dt><dd data-testid="card-scenario">{ s.as_ref().map_or_else(
                || String::from("(cannot be built)"),
                |s| find_preset(&s.name).map_or_else(|| s.name.clone(), |p| p.label()),
            ) }</dd>
            <dt>{ "Measured" }</dt><dd data-testid="card-measured">{ format!("{}{window}", e.describe()) }</dd>
            <dt>{ "Right within" }</dt><dd data-testid="card-tolerance">{ if e.impact.is_some() { format!("± {}X", e.tolerance_pct) } else { format!("± {} percentage points", e.tolerance_pct) } }</dd>
            <dt>{ "Students may not change" }</dt><dd data-testid="card-fixed">{ fixed }</dd>
            <dt>{ "Hint" }</dt><dd data-testid="card-hint">{ or_none(&e.hint) }</dd>
            <dt>{ "Explanation" }</dt><dd data-testid="card-explanation">{ or_none(&e.explanation) }</dd>
            if let Some(answer) = simulated {
                <dt>{ "This run gives" }</dt>
                <dd data-testid="author-answer">{ match answer {
                    None => String::from("measuring this run…"),
                    Some(Ok(v)) => {
                        let (pct, tol) = (100.0 * v, e.tolerance_pct);
                        format!("{pct:.1}%: answers from {:.1}% to {:.1}% count as right.", pct - tol, pct + tol)
                    }
                    Some(Err(why)) => format!("nothing yet ({why}): run it through the measured interval, then measure again."),
                } }</dd>
            }
        </dl>
    }
}

/// A teacher's form: an exercise about the current scenario, shared as a link.
#[component]
fn Author(p: &AuthorProps) -> Html {
    let fields = use_state(|| BTreeMap::<&'static str, String>::from([("tolerance", String::from("5"))]));
    // Every setting locked to begin with: an exercise asks about the run as the teacher made it.
    let locked = use_state(|| vec![ibcc_view::settings::EVERY_SETTING]);
    // The network the form was begun on (the document's load count): when another is loaded, the form asks what of
    // it to keep rather than carry one exercise's measure, locks, hint and explanation into the next.
    let doc = use_doc();
    let stamp = use_state(|| doc.loads);
    let has_content = ["question", "what", "from", "to", "hint", "explanation"]
        .iter()
        .any(|k| fields.get(k).is_some_and(|v| !v.trim().is_empty()))
        || *locked != [ibcc_view::settings::EVERY_SETTING];
    {
        let stamp = stamp.clone();
        use_effect_with((doc.loads, has_content), move |&(loads, content)| {
            if !content && *stamp != loads {
                stamp.set(loads);
            }
        });
    }
    let scenario_changed = has_content && doc.loads != *stamp;
    // The exercise made (with the JSON of its link), or why not; its link is made in the background.
    let out = use_state(|| None::<Result<(Rc<Vec<u8>>, Rc<Exercise>), String>>);
    let made_json = out.as_ref().and_then(|r| r.as_ref().ok()).map(|(json, _)| json.clone());
    let made_link = use_payload(made_json).map(|p| p.map(|p| format!("{}#x={p}", super::super::share::page_url())));
    // What the current run gives for the exercise's measurement, or why it gives nothing yet.
    let answer = use_state(|| None::<Result<f64, String>>);
    let sim = use_sim();
    let s = &p.scenario;
    let groups: Vec<String> = {
        let mut g: Vec<String> = s.flows.iter().map(|f| f.group.clone()).filter(|g| !g.is_empty()).collect();
        ibcc_view::sorting::sort(&mut g);
        g.dedup();
        g
    };
    let links: Vec<String> =
        s.links.iter().flat_map(|l| [format!("{}->{}", l.a, l.b), format!("{}->{}", l.b, l.a)]).collect();
    let text = |key: &'static str, label: &'static str, area: bool| {
        let f = fields.clone();
        let oninput = Callback::from(move |e: InputEvent| {
            let v = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
            let mut m = (*f).clone();
            m.insert(key, v);
            f.set(m);
        });
        let value = fields.get(key).cloned().unwrap_or_default();
        let id = format!("author-{key}");
        html! {
            <div class="field">
                <label for={id.clone()}>{ label }</label>
                if area {
                    <textarea id={id.clone()} value={value} {oninput} data-testid={id} rows="3" />
                } else {
                    <input id={id.clone()} type="text" value={value} {oninput} data-testid={id} />
                }
            </div>
        }
    };
    let what = fields.get("what").cloned().unwrap_or_default();
    let options: Vec<String> =
        groups.iter().map(|g| format!("group:{g}")).chain(links.iter().map(|l| format!("link:{l}"))).collect();
    let on_what = {
        let f = fields.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            let mut m = (*f).clone();
            m.insert("what", v);
            f.set(m);
        })
    };
    let lock_box = |path: &'static str| {
        let label = ibcc_view::settings::label(path);
        let l = locked.clone();
        let onchange = Callback::from(move |_| {
            let mut v = (*l).clone();
            if let Some(i) = v.iter().position(|&x| x == path) {
                v.remove(i);
            } else {
                v.push(path);
            }
            l.set(v);
        });
        // (Its name says what it does, so it is not mistaken for the setting's own control of the same name.)
        let name = format!("Lock {label}");
        html! { <label class="check"><input type="checkbox" aria-label={name} checked={locked.contains(&path)} {onchange} data-testid={format!("author-lock-{path}")} />{ label }</label> }
    };
    // Asks the run for the exercise's measurement, as a student's Check would.
    let measure = {
        let (sim, answer) = (sim.clone(), answer.clone());
        move |e: &Exercise| {
            let answer = answer.clone();
            answer.set(None);
            let Some(m) = e.measure.clone() else { return };
            sim.measure(m, Callback::from(move |v: Result<f64, String>| answer.set(Some(v))));
        }
    };
    let copied = use_state(|| false);
    // The sheet being put together (kept in the browser, so a reload or another scenario loaded between two
    // exercises loses nothing).
    let sheet = use_state(|| storage::load::<Sheet>(SAVED_SHEET).unwrap_or_default());
    {
        use_effect_with((*sheet).clone(), |s| storage::save(SAVED_SHEET, s));
    }
    // Its link always matches it.
    let sheet_json = use_memo((*sheet).clone(), |s| Rc::new(s.json()));
    let sheet_link = use_payload(Some((*sheet_json).clone()))
        .map(|p| p.map(|p| format!("{}#x={p}", super::super::share::page_url())));
    let add_to_sheet = |e: Rc<Exercise>| {
        edit_sheet(&sheet, move |s| {
            s.exercises.retain(|x| x.id != e.id);
            s.exercises.push((*e).clone());
        })
    };
    let remove_from_sheet = |i: usize| {
        edit_sheet(&sheet, move |s| {
            if i < s.exercises.len() {
                s.exercises.remove(i);
            }
        })
    };
    let on_sheet_title = {
        let sheet = sheet.clone();
        Callback::from(move |e: InputEvent| {
            sheet.set(Sheet {
                title: e.target_unchecked_into::<web_sys::HtmlInputElement>().value(),
                ..(*sheet).clone()
            })
        })
    };
    let sheet_copied = use_state(|| false);
    // A new link has not been copied yet.
    {
        let copied = copied.clone();
        use_effect_with(made_link.clone(), move |_| copied.set(false));
        let copied = sheet_copied.clone();
        use_effect_with(sheet_link.clone(), move |_| copied.set(false));
    }
    let make = {
        let (fields, locked, out, s, measure, options) =
            (fields.clone(), locked.clone(), out.clone(), s.clone(), measure.clone(), options.clone());
        Callback::from(move |_| {
            let get = |k: &str| fields.get(k).map(|v| v.trim().to_owned()).unwrap_or_default();
            let ms = |k: &str| -> Result<Option<u64>, String> {
                let v = get(k);
                if v.is_empty() {
                    return Ok(None);
                }
                crate::number::parse(&v)
                    .filter(|x| *x >= 0.0)
                    .map(|x| Some((x * 1e6).round() as u64))
                    .ok_or_else(|| format!("{k}: {v:?} is not a time in ms"))
            };
            let made = (|| {
                let question = get("question");
                if question.is_empty() {
                    return Err(String::from("write the question"));
                }
                let what = get("what");
                if !options.contains(&what) {
                    return Err(String::from("choose what is measured"));
                }
                let metric = match what.split_once(':') {
                    Some(("group", g)) => Metric::GroupRate { group: g.into() },
                    Some(("link", l)) => Metric::LinkRate { link: l.into() },
                    _ => return Err(String::from("choose what is measured")),
                };
                let tolerance_pct = crate::number::parse(&get("tolerance"))
                    .filter(|t| *t >= 0.0)
                    .ok_or_else(|| String::from("the tolerance must be a number of percentage points, 0 or more"))?;
                let measure = Measurement { metric, from_ns: ms("from")?, to_ns: ms("to")? };
                // (A time past the run's end would be cut to it silently, and the card would still show it.)
                for (k, t) in [("from", measure.from_ns), ("to", measure.to_ns)] {
                    if let Some(t) = t.filter(|&t| t > s.duration_ns) {
                        let text = |ns: u64| ibcc_core::time::ms_text(ns.saturating_mul(ibcc_core::time::NS));
                        return Err(format!("{k}: {} ms is past the run's end at {} ms", text(t), text(s.duration_ns)));
                    }
                }
                measure.interval_ns(&s).map_err(|e| e.to_string())?;
                // An id from what the exercise asks of which scenario: distinct within a sheet, stable in answers.
                let id = format!("t-{:08x}", fnv1a(format!("{question}|{what}|{}", s.digest()).as_bytes()) as u32);
                let e = Exercise {
                    id,
                    question,
                    preset: None,
                    scenario: Some((*s).clone()),
                    set: BTreeMap::new(),
                    locked: locked.iter().map(|p| (*p).to_owned()).collect(),
                    measure: Some(measure),
                    impact: None,
                    tolerance_pct,
                    hint: get("hint"),
                    explanation: get("explanation"),
                };
                let one = Sheet { title: String::new(), exercises: vec![e.clone()] };
                Ok((Rc::new(one.json()), Rc::new(e)))
            })();
            if let Ok((_, e)) = &made {
                measure(e);
            }
            out.set(Some(made));
        })
    };
    let reset_form = |keep_text: bool| {
        let (fields, locked, out, answer, stamp, loads) =
            (fields.clone(), locked.clone(), out.clone(), answer.clone(), stamp.clone(), doc.loads);
        Callback::from(move |_: MouseEvent| {
            let mut next = BTreeMap::from([("tolerance", String::from("5"))]);
            if keep_text {
                for k in ["question", "tolerance", "hint", "explanation"] {
                    if let Some(v) = fields.get(k) {
                        next.insert(k, v.clone());
                    }
                }
            }
            fields.set(next);
            locked.set(vec![ibcc_view::settings::EVERY_SETTING]);
            out.set(None);
            answer.set(None);
            stamp.set(loads);
        })
    };
    html! {
        <details class="author" data-testid="author">
            <summary>{ "Make an exercise from this scenario (teachers)" }</summary>
            if scenario_changed {
                <div class="notice" role="status" data-testid="author-scenario-changed">
                    <p>{ format!("Another network is loaded ({}). What should the exercise keep?", s.name) }</p>
                    <div class="input-row">
                        <button onclick={reset_form(true)} data-testid="author-keep-text">{ "Keep the question, hint and explanation" }</button>
                        <button onclick={reset_form(false)} data-testid="author-start-fresh">{ "Start a new exercise" }</button>
                    </div>
                    <p class="muted">{ "Either way, what is measured and what students may not change are chosen again for this network." }</p>
                </div>
            }
            { text("question", "Question", true) }
            <div class="field">
                <label for="author-what">{ "Measured" }</label>
                <select id="author-what" onchange={on_what} data-testid="author-what">
                    <option value="" selected={what.is_empty()}>{ "choose" }</option>
                    for g in groups.iter() {
                        <option value={format!("group:{g}")} selected={what == format!("group:{g}")}>{ format!("rate of the {g} flows") }</option>
                    }
                    for l in links.iter() {
                        <option value={format!("link:{l}")} selected={what == format!("link:{l}")}>{ format!("utilization of {l}") }</option>
                    }
                </select>
            </div>
            { text("from", "From (ms; empty: the measurement start)", false) }
            { text("to", "To (ms; empty: the measurement end)", false) }
            { text("tolerance", "Tolerance (percentage points)", false) }
            { text("hint", "Hint for a first wrong answer (a question that points the way; empty: a reminder to look again at what is measured)", true) }
            { text("explanation", "Explanation shown after the answer", true) }
            <fieldset class="locks"><legend>{ "Students may not change" }</legend>
                { for LOCKABLE.iter().map(|&path| lock_box(path)) }
            </fieldset>
            <button onclick={make} disabled={scenario_changed} data-testid="author-make">{ "Make the exercise link" }</button>
            if let Some(r) = &*out {
                { match r {
                    Ok((_, e)) => {
                        let changed_since = !e.is_own_run(s);
                        html! {
                            <div class="author-made">
                                { exercise_card(e, Some(answer.as_ref()), "author-card") }
                                // (Edited since: the link still carries the scenario as it was, which is what students
                                // get; this run would give them a key to another one.)
                                if changed_since {
                                    <p class="notice" role="status" data-testid="author-changed-since">
                                        { "The scenario has changed since you made this exercise. Its link still carries it as it was then, and that is what students get (and what the value above is of). To give them your changes, make the exercise again." }
                                    </p>
                                }
                                { link_row(made_link.clone(), "author", "Exercise link", &copied) }
                                <div class="input-row">
                                    <button onclick={{ let (measure, e) = (measure.clone(), e.clone()); Callback::from(move |_| measure(&e)) }}
                                        disabled={changed_since}
                                        data-testid="author-measure" title="Measure the run as it stands now">{ "Measure this run again" }</button>
                                    <button onclick={add_to_sheet(e.clone())} data-testid="author-add">{ "Add to the sheet" }</button>
                                </div>
                            </div>
                        }
                    }
                    Err(e) => html! { <p class="error" role="alert" data-testid="author-error">{ e }</p> },
                } }
            }
            if !sheet.exercises.is_empty() {
                <fieldset class="author-sheet" data-testid="author-sheet">
                    <legend>{ format!("Sheet: {} exercise{}", sheet.exercises.len(), if sheet.exercises.len() == 1 { "" } else { "s" }) }</legend>
                    <div class="field">
                        <label for="author-sheet-title">{ "Title (optional)" }</label>
                        <input id="author-sheet-title" type="text" value={sheet.title.clone()} oninput={on_sheet_title} data-testid="author-sheet-title" />
                    </div>
                    <ol>
                        for (i, x) in sheet.exercises.iter().enumerate() {
                            <li data-testid="author-sheet-item">
                                <details>
                                    <summary>{ &x.question }</summary>
                                    { exercise_card(x, None, "author-sheet-card") }
                                </details>
                                <button class="linklike" onclick={remove_from_sheet(i)} aria-label={format!("Remove exercise {}", i + 1)}>{ "remove" }</button>
                            </li>
                        }
                    </ol>
                    { link_row(sheet_link.clone(), "author-sheet", "Sheet link", &sheet_copied) }
                </fieldset>
            }
        </details>
    }
}
