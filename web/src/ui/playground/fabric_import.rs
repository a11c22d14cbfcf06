//! Bring a fabric: an `ibnetdiscover` topology or an ibsim net file, pasted, dropped or opened, becomes the network
//! (routed by the scenario's engine, drawn in levels). A file that cannot be read gets the line that is wrong, here,
//! and the current network stays as it is. A fabric's own forwarding tables (`opensm-lfts.dump`, `ibroute` output)
//! can then replace the engine's, as OpenSM's `file` engine replays a site's routing.

use super::super::bridge::SimWorker;
use super::super::document::{use_doc, Action, Origin};
use super::generate::keep_settings;
use crate::protocol::{FromWorker, ToWorker};
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

/// Reads `file`, then gives `done` its name and text, or says in `error` that it could not be read.
fn read_then(file: web_sys::File, done: Callback<(String, String)>, error: UseStateHandle<Option<String>>) {
    let name = file.name();
    wasm_bindgen_futures::spawn_local(async move {
        match read(file).await {
            Some(body) => done.emit((name, body)),
            None => error.set(Some(format!("{name}: could not be read as text"))),
        }
    });
}

/// The file picked in a file input, which is emptied so that picking the same file again reads it again.
fn picked(e: &Event) -> Option<web_sys::File> {
    let input: web_sys::HtmlInputElement = e.target_unchecked_into();
    let file = input.files().and_then(|f| f.get(0))?;
    input.set_value("");
    Some(file)
}

/// A textarea's text kept in `text` as it is typed or pasted.
fn typed(text: &UseStateHandle<String>) -> Callback<InputEvent> {
    let text = text.clone();
    Callback::from(move |e: InputEvent| {
        let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
        text.set(area.value());
    })
}

/// A pasted text and its error, both forgotten when another network is loaded (`loads`: the document's count of
/// loads): what was pasted and refused is about none of it.
#[hook]
fn use_text_for_this_network(loads: u32) -> (UseStateHandle<String>, UseStateHandle<Option<String>>) {
    let text = use_state(String::new);
    let error = use_state(|| None::<String>);
    {
        let (text, error) = (text.clone(), error.clone());
        use_effect_with(loads, move |_| {
            text.set(String::new());
            error.set(None);
        });
    }
    (text, error)
}

#[component]
pub fn FabricImport() -> Html {
    let doc = use_doc();
    let (text, error) = use_text_for_this_network(doc.loads);
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
        // (The file's text is shown in the box too, to read or correct.)
        let shown = Callback::from(move |(name, body): (String, String)| {
            text.set(body.clone());
            load.emit((name, body));
        });
        Callback::from(move |file: web_sys::File| read_then(file, shown.clone(), error.clone()))
    };
    let on_input = typed(&text);
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
        if let Some(file) = picked(&e) {
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
        let n = |k: usize, one: &str, many: &str| format!("{k} {}", if k == 1 { one } else { many });
        let apart = now.apart_nodes();
        let apart = match apart.len() {
            0 => String::new(),
            k => format!(
                " {} not connected to the rest ({}{}): no route reaches {}.",
                n(k, "node is", "nodes are"),
                apart.iter().take(5).map(|&i| now.nodes[i].id.as_str()).collect::<Vec<_>>().join(", "),
                if k > 5 { ", …" } else { "" },
                if k == 1 { "it" } else { "them" }
            ),
        };
        format!(
            "This network is a fabric: {}, {}, {}.{apart}",
            n(now.nodes.len() - hosts, "switch", "switches"),
            n(hosts, "host", "hosts"),
            n(now.links.len(), "link", "links")
        )
    });
    let tables = html! { if now.fabric.is_some() { <Tables /> } };
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
            <p id="fabric-help" class="muted">{ format!("It replaces the network (with no flows yet: add them with the Flow tool); the congestion control and run settings stay ({}). It is routed as OpenSM would route it, by the Routing engine setting above.", crate::moments::run_times(now)) }</p>
            if let Some(e) = &*error {
                <p class="error" role="alert" data-testid="fabric-error">{ e }</p>
            }
            <div class="row">
                <button onclick={on_load} data-testid="fabric-load">{ "Load pasted fabric" }</button>
                <input id="fabric-file" type="file" accept=".topo,.topofile,.net,.txt,.out,.ibnd,text/plain" onchange={on_file}
                    data-testid="fabric-file" class="visually-hidden" />
                <label class="file-button" for="fabric-file">{ "Open a fabric file…" }</label>
            </div>
            { tables }
        </details>
    }
}

/// The fabric's own forwarding tables, pasted or opened: a worker routes the fabric (for its LIDs) and reads them
/// against it, so a file that does not fit is refused here, naming its line, before the scenario changes.
#[component]
fn Tables() -> Html {
    let doc = use_doc();
    let (text, error) = use_text_for_this_network(doc.loads);
    let checking = use_state(|| false);
    let apply = {
        let (error, checking, base, d) = (error.clone(), checking.clone(), doc.scenario.clone(), doc.dispatcher());
        Callback::from(move |(name, body): (String, String)| {
            if body.trim().is_empty() {
                error.set(Some(String::from("nothing to read: paste the tables, or open their file")));
                return;
            }
            let mut next = (*base).clone();
            next.routing.tables = body;
            checking.set(true);
            error.set(None);
            let (error, checking, d) = (error.clone(), checking.clone(), d.clone());
            let candidate = next.clone();
            let reply = Callback::from(move |m: Result<FromWorker, String>| {
                checking.set(false);
                match m {
                    Ok(FromWorker::CreditLooped { found: Ok(_) }) => {
                        error.set(None);
                        let note = Some(format!("Forwarding by the tables in {name}."));
                        d.dispatch(Action::Edit { next: Box::new(candidate.clone()), select: None, note });
                    }
                    Ok(FromWorker::CreditLooped { found: Err(e) }) | Err(e) => {
                        // The reader's words (the line and what is wrong with it), not the scenario field's frame.
                        let said = e.split_once("the forwarding tables: ").map_or(e.as_str(), |(_, rest)| rest);
                        error.set(Some(format!("{name}: {said}")));
                    }
                    Ok(_) => {}
                }
            });
            SimWorker::ask(&ToWorker::CreditLoop { scenario: Box::new(next) }, reply);
        })
    };
    let on_input = typed(&text);
    let on_use = {
        let (apply, text) = (apply.clone(), text.clone());
        Callback::from(move |_| apply.emit((String::from("the pasted tables"), (*text).clone())))
    };
    let on_file = {
        let (apply, error) = (apply.clone(), error.clone());
        Callback::from(move |e: Event| {
            if let Some(file) = picked(&e) {
                read_then(file, apply.clone(), error.clone());
            }
        })
    };
    let given = !doc.scenario.routing.tables.is_empty();
    let on_drop_tables = {
        let (base, d) = (doc.scenario.clone(), doc.dispatcher());
        Callback::from(move |_| {
            let mut next = (*base).clone();
            next.routing.tables.clear();
            d.dispatch(Action::Edit { next: Box::new(next), select: None, note: None });
        })
    };
    html! {
        <div class="fabric-tables" data-testid="tables-section">
            <label for="tables-text">{ "Its own forwarding tables (optional)" }</label>
            if given {
                <p data-testid="tables-given">
                    { format!("The switches forward by the tables given ({} lines), not the routing engine's.", doc.scenario.routing.tables.lines().count()) }
                    { " " }<button class="linklike" onclick={on_drop_tables} data-testid="tables-drop">{ "Use the engine's again" }</button>
                </p>
            }
            <textarea id="tables-text" rows="3" spellcheck="false" value={(*text).clone()} oninput={on_input}
                data-testid="tables-text" placeholder="opensm-lfts.dump, or ibroute / dump_lfts.sh output" aria-describedby="tables-help" />
            <p id="tables-help" class="muted">{ "A site's routing, replayed as OpenSM's file engine does: the switches forward by these tables instead of the engine's (which still assigns the LIDs)." }</p>
            if let Some(e) = &*error {
                <p class="error" role="alert" data-testid="tables-error">{ e }</p>
            }
            <div class="row">
                <button onclick={on_use} disabled={*checking} data-testid="tables-use">{ if *checking { "Checking…" } else { "Use these tables" } }</button>
                <input id="tables-file" type="file" accept=".dump,.txt,.out,text/plain" onchange={on_file}
                    data-testid="tables-file" class="visually-hidden" />
                <label class="file-button" for="tables-file">{ "Open a tables file…" }</label>
            </div>
        </div>
    }
}
