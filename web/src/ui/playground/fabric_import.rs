//! Bring a fabric: an `ibnetdiscover` topology or an ibsim net file, pasted, dropped or opened, becomes the network
//! (routed by the scenario's engine, drawn in levels). A file that cannot be read gets the line that is wrong, here,
//! and the current network stays as it is.

use super::super::document::{use_doc, Action, Origin};
use super::generate::keep_settings;
use ibcc_core::scenario::{scenario_of, NodeKind, Scenario};
use yew::prelude::*;

/// The scenario of fabric `text`, named `name`, with `base`'s settings; `Err` says what is wrong, by line.
pub fn import(name: &str, text: &str, base: &Scenario) -> Result<Scenario, String> {
    if text.trim().is_empty() {
        return Err(String::from("nothing to read: paste a fabric file, drop one here, or open one"));
    }
    // The reader's own message (the problem) names the line; the whole error would wrap it in field names.
    let s = scenario_of(name, text, base.duration_ns).map_err(|e| format!("{name}: {}", e.problem))?;
    keep_settings(s, base).map_err(|e| format!("{name}: {e}"))
}

/// What a dropped or opened file says, as text.
async fn read(file: web_sys::File) -> Option<String> {
    wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|t| t.as_string())
}

#[component]
pub fn FabricImport() -> Html {
    let doc = use_doc();
    let text = use_state(String::new);
    let error = use_state(|| None::<String>);
    // Loads `body` (from `name`) as the network, or says why not.
    let load = {
        let (error, base, d) = (error.clone(), doc.scenario.clone(), doc.dispatcher());
        Callback::from(move |(name, body): (String, String)| match import(&name, &body, &base) {
            Ok(s) => {
                error.set(None);
                d.dispatch(Action::Load { next: Box::new(s), origin: Origin::File(name) });
            }
            Err(e) => error.set(Some(e)),
        })
    };
    let from_file = {
        let (load, error, text) = (load.clone(), error.clone(), text.clone());
        Callback::from(move |file: web_sys::File| {
            let (load, error, text, name) = (load.clone(), error.clone(), text.clone(), file.name());
            wasm_bindgen_futures::spawn_local(async move {
                match read(file).await {
                    Some(body) => {
                        text.set(body.clone());
                        load.emit((name, body));
                    }
                    None => error.set(Some(format!("{name}: could not be read as text"))),
                }
            });
        })
    };
    let on_input = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
            text.set(area.value());
        })
    };
    let on_drop = {
        let from_file = from_file.clone();
        Callback::from(move |e: DragEvent| {
            let file = e.data_transfer().and_then(|d| d.files()).and_then(|f| f.get(0));
            if let Some(file) = file {
                e.prevent_default();
                from_file.emit(file);
            }
        })
    };
    let on_drag_over = Callback::from(|e: DragEvent| e.prevent_default());
    let on_file = Callback::from(move |e: Event| {
        let input: web_sys::HtmlInputElement = e.target_unchecked_into();
        if let Some(file) = input.files().and_then(|f| f.get(0)) {
            input.set_value("");
            from_file.emit(file);
        }
    });
    let on_load = {
        let (load, text) = (load.clone(), text.clone());
        Callback::from(move |_| load.emit((String::from("pasted fabric"), (*text).clone())))
    };
    let now = &doc.scenario;
    let counts = now.fabric.is_some().then(|| {
        let hosts = now.nodes.iter().filter(|n| n.kind == NodeKind::Host).count();
        format!(
            "This network is a fabric: {} switches, {hosts} hosts, {} links.",
            now.nodes.len() - hosts,
            now.links.len()
        )
    });
    html! {
        <details class="generate" data-testid="fabric-section">
            <summary>{ "Bring a fabric" }</summary>
            if let Some(c) = counts {
                <p data-testid="fabric-counts">{ c }</p>
            }
            <label for="fabric-text">{ "ibnetdiscover output or an ibsim net file" }</label>
            <textarea id="fabric-text" rows="4" spellcheck="false" value={(*text).clone()} oninput={on_input}
                ondrop={on_drop} ondragover={on_drag_over} data-testid="fabric-text"
                placeholder="Paste it here, or drop the file here" aria-describedby="fabric-help" />
            <p id="fabric-help" class="muted">{ "It replaces the network (with no flows yet: add them with the Flow tool); the congestion control and run settings stay. It is routed as OpenSM would route it, by the Routing engine setting above." }</p>
            if let Some(e) = &*error {
                <p class="error" role="alert" data-testid="fabric-error">{ e }</p>
            }
            <div class="row">
                <button onclick={on_load} data-testid="fabric-load">{ "Load pasted fabric" }</button>
                <input id="fabric-file" type="file" accept=".topo,.topofile,.net,.txt,.out,.ibnd,text/plain" onchange={on_file}
                    data-testid="fabric-file" class="visually-hidden" />
                <label class="file-button" for="fabric-file">{ "Open a fabric file…" }</label>
            </div>
        </details>
    }
}
