//! The teacher's class table: open the answer files students exported (several at once, read in the browser, sent
//! nowhere) and see every student's answers and verdicts side by side.

use crate::course::{class_summary, class_table, ClassRow};
use yew::prelude::*;

#[component]
pub fn ClassAnswers() -> Html {
    let table = use_state(|| None::<(Vec<ClassRow>, Vec<String>)>);
    // The table is wider than the side panel: it can open over the whole page.
    let wide = use_state(|| false);
    let toggle_wide = {
        let wide = wide.clone();
        Callback::from(move |_: MouseEvent| wide.set(!*wide))
    };
    let on_files = {
        let table = table.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let Some(list) = input.files() else { return };
            let files: Vec<web_sys::File> = (0..list.length()).filter_map(|i| list.get(i)).collect();
            input.set_value("");
            let table = table.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let mut texts = Vec::new();
                for f in files {
                    let text = wasm_bindgen_futures::JsFuture::from(f.text()).await.ok().and_then(|t| t.as_string());
                    texts.push((f.name(), text.unwrap_or_default()));
                }
                table.set(Some(class_table(&texts)));
            });
        })
    };
    html! {
        <details class="class-answers" data-testid="class-answers">
            <summary>{ "Class answers (teachers)" }</summary>
            <p class="muted">{ "Open the answer files your students exported, several at once. They are read here and sent nowhere." }</p>
            <input id="class-files" type="file" multiple=true accept=".json,application/json" onchange={on_files}
                class="visually-hidden" data-testid="class-files" />
            <label class="file-button" for="class-files">{ "Open answer files…" }</label>
            if let Some((rows, errors)) = &*table {
                for e in errors.iter() {
                    <p class="error" role="alert">{ e }</p>
                }
                <div class={classes!("class-view", wide.then_some("wide"))} role={wide.then_some("dialog")} aria-label="Class answers">
                <button onclick={toggle_wide} data-testid="class-wide" aria-pressed={wide.to_string()}>
                    { if *wide { "Close the wide view" } else { "Open wide ⤢" } }
                </button>
                { summary(rows) }
                <div class="table-scroll"><table class="results" data-testid="class-table">
                    <thead><tr>
                        <th scope="col">{ "student" }</th><th scope="col">{ "exercise" }</th><th scope="col">{ "answer" }</th>
                        <th scope="col">{ "the run gave" }</th><th scope="col">{ "verdict" }</th><th scope="col">{ "checked at" }</th>
                        <th scope="col">{ "scenario" }</th>
                    </tr></thead>
                    <tbody>
                        for r in rows.iter() {
                            <tr data-testid="class-row">
                                <td>{ &r.student }</td>
                                <td title={r.answer.question.clone()}>{ &r.answer.exercise }</td>
                                <td>{ format!("{:.1}%", r.answer.answer_pct) }</td>
                                <td>{ format!("{:.1}%", r.answer.simulated_pct) }</td>
                                <td class={if r.answer.right { "right" } else { "wrong" }}>{ if r.answer.right { "right" } else { "wrong" } }</td>
                                <td>{ r.answer.at.get(..16).unwrap_or(&r.answer.at).replace('T', " ") }</td>
                                <td><code title={format!("from {}", r.file)}>{ r.answer.scenario_digest.get(..8).unwrap_or("") }</code></td>
                            </tr>
                        }
                    </tbody>
                </table></div>
                </div>
            }
        </details>
    }
}

/// Students down, exercises across: right in the end (after how many answers), wrong, or not tried.
fn summary(rows: &[ClassRow]) -> Html {
    let (exercises, students) = class_summary(rows);
    html! {
        <div class="table-scroll"><table class="results class-summary" data-testid="class-summary">
            <thead><tr>
                <th scope="col">{ "student" }</th>
                for (id, question) in exercises.iter() {
                    <th scope="col" title={id.clone()}>{ question }</th>
                }
            </tr></thead>
            <tbody>
                for (name, outcomes) in students.iter() {
                    <tr data-testid="class-summary-row">
                        <th scope="row">{ name }</th>
                        for o in outcomes.iter() {
                            { match o {
                                Some(o) if o.right => html! { <td class="right">{ format!("✓ right ({} {})", o.tries, if o.tries == 1 { "answer" } else { "answers" }) }</td> },
                                Some(o) => html! { <td class="wrong">{ format!("✗ wrong ({} {})", o.tries, if o.tries == 1 { "answer" } else { "answers" }) }</td> },
                                None => html! { <td class="muted">{ "not tried" }</td> },
                            } }
                        }
                    </tr>
                }
            </tbody>
        </table></div>
    }
}
