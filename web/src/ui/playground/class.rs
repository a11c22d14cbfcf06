//! The teacher's class table: open the answer files students exported (several at once, and more later: they add
//! up until cleared; read in the browser, sent nowhere) and see every student's answers and verdicts side by side,
//! first tries included; export it as CSV.

use super::super::download::download_text;
use super::super::storage;
use crate::course::{class_csv, class_summary, class_table, ClassExercise, ClassRow, Sheet};
use std::rc::Rc;
use yew::prelude::*;

/// The answer files opened so far, `(name, text)`.
#[derive(Debug, Clone, Default, PartialEq)]
struct Files(Vec<(String, String)>);

enum FilesAction {
    /// Files read from one opening: added (a file already open with the same text is not added again).
    Add(Vec<(String, String)>),
    Clear,
}

impl Reducible for Files {
    type Action = FilesAction;
    fn reduce(self: Rc<Self>, action: FilesAction) -> Rc<Self> {
        let mut files = self.0.clone();
        match action {
            FilesAction::Add(more) => {
                for f in more {
                    if !files.contains(&f) {
                        files.push(f);
                    }
                }
            }
            FilesAction::Clear => files.clear(),
        }
        Rc::new(Files(files))
    }
}

#[derive(Properties, PartialEq)]
pub struct ClassProps {
    /// The built-in lessons' exercises and their names ("Lesson 3"): `course::lesson_exercise_names`.
    pub named: Rc<Vec<(String, String)>>,
}

#[component]
pub fn ClassAnswers(p: &ClassProps) -> Html {
    // (A reducer: two openings read at once both land.)
    let files = use_reducer(Files::default);
    let table = use_memo(files.clone(), |f| class_table(&f.0));
    // The teacher's sheet names the exercises in its order.
    let order: Vec<String> = storage::load::<Sheet>(super::SAVED_SHEET)
        .map(|s| s.exercises.into_iter().map(|e| e.id).collect())
        .unwrap_or_default();
    // The table is wider than the side panel: it can open over the whole page.
    let wide = use_state(|| false);
    let toggle_wide = {
        let wide = wide.clone();
        Callback::from(move |_: MouseEvent| wide.set(!*wide))
    };
    let on_files = {
        let files = files.dispatcher();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let Some(list) = input.files() else { return };
            let picked: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
            input.set_value("");
            let files = files.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let mut texts = Vec::new();
                for f in picked {
                    let text = wasm_bindgen_futures::JsFuture::from(f.text()).await.ok().and_then(|t| t.as_string());
                    texts.push((f.name(), text.unwrap_or_default()));
                }
                files.dispatch(FilesAction::Add(texts));
            });
        })
    };
    let clear = {
        let files = files.dispatcher();
        Callback::from(move |_: MouseEvent| files.dispatch(FilesAction::Clear))
    };
    let (rows, errors) = &*table;
    let (exercises, _) = class_summary(rows, &order, &p.named);
    let export = {
        let csv = class_csv(rows, &exercises);
        Callback::from(move |_: MouseEvent| download_text(&csv, "text/csv", "ibcc-class.csv"))
    };
    let label = |id: &str| exercises.iter().find(|e| e.id == id).map_or_else(|| id.to_owned(), |e| e.label.clone());
    html! {
        <details class="class-answers" data-testid="class-answers">
            <summary>{ "Class answers (teachers)" }</summary>
            <p class="muted">{ "Open the answer files your students exported, several at once or a few at a time: they add up. They are read here and sent nowhere." }</p>
            <input id="class-files" type="file" multiple=true accept=".json,application/json" onchange={on_files}
                class="visually-hidden" data-testid="class-files" />
            <label class="file-button" for="class-files">{ "Open answer files…" }</label>
            if !files.0.is_empty() {
                <p class="muted" data-testid="class-file-list">
                    { format!("{} file{} open: {}", files.0.len(), if files.0.len() == 1 { "" } else { "s" },
                        files.0.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>().join(", ")) }
                </p>
                <div class="input-row">
                    <button onclick={export} disabled={rows.is_empty()} data-testid="class-export-csv">{ "Export as CSV" }</button>
                    <button onclick={clear} data-testid="class-clear">{ "Clear the table" }</button>
                </div>
                for e in errors.iter() {
                    <p class="error" role="alert">{ e }</p>
                }
                if rows.is_empty() {
                    <p class="muted" data-testid="class-no-answers">{ "No answers in the files open yet." }</p>
                } else {
                <div class={classes!("class-view", wide.then_some("wide"))} role={wide.then_some("dialog")} aria-label="Class answers">
                <button onclick={toggle_wide} data-testid="class-wide" aria-pressed={wide.to_string()}>
                    { if *wide { "Close the wide view" } else { "Open wide ⤢" } }
                </button>
                { summary(rows, &order, &p.named) }
                <div class="table-scroll"><table class="results" data-testid="class-table">
                    <thead><tr>
                        <th scope="col">{ "student" }</th><th scope="col">{ "exercise" }</th><th scope="col">{ "answer" }</th>
                        <th scope="col">{ "the run gave" }</th><th scope="col">{ "verdict" }</th><th scope="col">{ "checked at" }</th>
                        <th scope="col">{ "scenario" }</th>
                    </tr></thead>
                    <tbody>
                        for r in rows.iter() {
                            { row(r, &label(&r.answer.exercise)) }
                        }
                    </tbody>
                </table></div>
                </div>
                }
            }
        </details>
    }
}

fn row(r: &ClassRow, label: &str) -> Html {
    html! {
        <tr data-testid="class-row">
            <td>{ &r.student }</td>
            <td title={r.answer.question.clone()}>{ label }</td>
            <td>{ format!("{:.1}{}", r.answer.answer_pct, r.answer.unit()) }</td>
            <td>{ format!("{:.1}{}", r.answer.simulated_pct, r.answer.unit()) }</td>
            <td class={if r.answer.right { "right" } else { "wrong" }}>{ if r.answer.right { "right" } else { "wrong" } }</td>
            <td>{ r.answer.at.get(..16).unwrap_or(&r.answer.at).replace('T', " ") }</td>
            <td><code title={format!("from {}", r.file)}>{ r.answer.scenario_digest.get(..8).unwrap_or("") }</code></td>
        </tr>
    }
}

/// Students down, exercises across: the first try (right or wrong, and its value), then where they ended, after
/// how many answers; or not tried.
fn summary(rows: &[ClassRow], order: &[String], named: &[(String, String)]) -> Html {
    let (exercises, students) = class_summary(rows, order, named);
    let head = |e: &ClassExercise| {
        html! { <th scope="col" title={e.question.clone()}>{ &e.label }<small class="question">{ &e.question }</small></th> }
    };
    html! {
        <div class="table-scroll"><table class="results class-summary" data-testid="class-summary">
            <thead><tr>
                <th scope="col">{ "student" }</th>
                { for exercises.iter().map(head) }
            </tr></thead>
            <tbody>
                for (name, outcomes) in students.iter() {
                    <tr data-testid="class-summary-row">
                        <th scope="row">{ name }</th>
                        for o in outcomes.iter() {
                            { match o {
                                Some(o) => {
                                    let mark = |right: bool| if right { "✓" } else { "✗" };
                                    let answers = if o.tries == 1 { "answer" } else { "answers" };
                                    let text = if o.tries == 1 {
                                        format!("{} {} ({:.1}%)", mark(o.right), if o.right { "right" } else { "wrong" }, o.first_pct)
                                    } else {
                                        format!("1st {} {:.1}% · in the end {} ({} {answers})", mark(o.first_right), o.first_pct,
                                            if o.right { "✓ right" } else { "✗ wrong" }, o.tries)
                                    };
                                    html! {
                                        <td class={if o.right { "right" } else { "wrong" }} data-testid="class-cell"
                                            data-first={if o.first_right { "right" } else { "wrong" }} data-final={if o.right { "right" } else { "wrong" }}>
                                            { text }
                                        </td>
                                    }
                                }
                                None => html! { <td class="muted">{ "not tried" }</td> },
                            } }
                        }
                    </tr>
                }
            </tbody>
        </table></div>
    }
}
