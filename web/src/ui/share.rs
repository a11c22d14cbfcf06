//! Sharing: a link with the whole scenario and the plot shown in its fragment (copied to the clipboard and shown to
//! copy by hand), a scenario JSON file to download, and a JSON file to open. Opening a link happens when the page
//! loads (`share_codec::opened`, then `from_link`).

use super::document::{use_doc, Action, Origin, Same};
use super::download::download_text;
use super::share_codec::use_payload;
use crate::course::Sheet;
use ibcc_core::presets::find;
use ibcc_core::scenario::share_link::{embed_code, json_of, shared_of, Shared};
use ibcc_core::scenario::Scenario;
use ibcc_view::names::PlotKind;
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// What a share link opens: its scenario, the plot shown, and the moment of the run (ps) it opens at, if any.
pub type Linked = (Scenario, Option<PlotKind>, Option<u64>);

/// What the share link the page was opened with (`#s=`, opened by `share_codec::opened`) holds: `Ok` with the scenario,
/// its plot and moment, or `Err` saying why it cannot be opened.
pub fn from_link(opened: &Option<Result<Value, String>>) -> Option<Result<Linked, String>> {
    Some(opened.as_ref()?.as_ref().map_err(String::clone).and_then(|v| {
        shared_of(v)
            .map(|shared| (shared.scenario, shared.plot.as_deref().map(PlotKind::from_id), shared.at_ps))
            .map_err(|e| e.to_string())
    }))
}

/// The exercise link the page was opened with (`#x=`): a sheet of one or more exercises.
pub fn exercise_from_link(opened: &Option<Result<Value, String>>) -> Option<Result<Sheet, String>> {
    Some(opened.as_ref()?.as_ref().map_err(String::clone).and_then(Sheet::from_value))
}

/// The page's address without query or fragment: where its files are, and what links append `#…` to.
pub fn page_url() -> String {
    web_sys::window()
        .map(|w| w.location())
        .and_then(|l| Some(format!("{}{}", l.origin().ok()?, l.pathname().ok()?)))
        .unwrap_or_default()
}

/// Copies `text` to the clipboard; `copied` says whether it worked (the clipboard may be refused: no permission,
/// not a secure page).
pub fn copy_to_clipboard(text: &str, copied: UseStateHandle<bool>) {
    let Some(clipboard) = web_sys::window().map(|w| w.navigator().clipboard()) else { return };
    let promise = clipboard.write_text(text);
    wasm_bindgen_futures::spawn_local(async move {
        copied.set(wasm_bindgen_futures::JsFuture::from(promise).await.is_ok());
    });
}

/// Whether the page was opened to be embedded (`?embed`, with a share link's fragment): the network, the
/// transport and the plot only, fitted to the frame.
pub fn embedded() -> bool {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    search.trim_start_matches('?').split('&').any(|kv| kv == "embed" || kv.starts_with("embed="))
}

/// What a share link can carry of where the run stands (`Live::moment_to_share`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// Nothing to carry: the run is at 0, or on its way somewhere, or waits for a restart. The link opens at 0.
    Start,
    /// Paused at this time (ps): the link may open there.
    At(u64),
    /// Playing: the moment would be gone before the link is copied.
    Playing,
    /// A marking change was applied mid-run: the scenario, replayed from 0, has it from the start instead.
    Changed,
}

impl Moment {
    /// The time a link may open at, if the run is paused at one.
    fn at(self) -> Option<u64> {
        match self {
            Moment::At(t) => Some(t),
            _ => None,
        }
    }
}

/// The Share button and its menu: the link (copied to the clipboard, shown to copy by hand), the scenario as a
/// JSON file, and opening one.
#[derive(Properties, PartialEq)]
pub struct PlotShownProps {
    /// The plot shown, which the link carries.
    pub plot: PlotKind,
    /// Where the run stands, which the link may carry.
    pub moment: Moment,
}

#[component]
pub fn ShareMenu(p: &PlotShownProps) -> Html {
    let doc = use_doc();
    let plot = p.plot;
    let on_open = {
        let d = doc.dispatcher();
        Callback::from(move |(next, name): (Scenario, String)| {
            d.dispatch(Action::Load { next: Box::new(next), origin: Origin::File(name) })
        })
    };
    // A menu closes as menus do: a click or tap outside it, or Esc (which gives the focus back to its button).
    let menu = use_node_ref();
    {
        let menu = menu.clone();
        use_effect_with((), move |_| {
            let document = web_sys::window().and_then(|w| w.document());
            let close = {
                let menu = menu.clone();
                move |refocus: bool| {
                    if let Some(el) = menu.cast::<web_sys::Element>().filter(|el| el.has_attribute("open")) {
                        let _ = el.remove_attribute("open");
                        if refocus {
                            if let Some(summary) =
                                el.first_element_child().and_then(|s| s.dyn_into::<web_sys::HtmlElement>().ok())
                            {
                                let _ = summary.focus();
                            }
                        }
                    }
                }
            };
            let listeners = document.map(|d| {
                let (outside, escape, menu_el) = (close.clone(), close, menu.clone());
                (
                    gloo_events::EventListener::new(&d, "pointerdown", move |e| {
                        let inside = e
                            .target()
                            .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
                            .zip(menu_el.cast::<web_sys::Node>())
                            .is_some_and(|(t, m)| m.contains(Some(&t)));
                        if !inside {
                            outside(false);
                        }
                    }),
                    gloo_events::EventListener::new(&d, "keydown", move |e| {
                        if e.dyn_ref::<KeyboardEvent>().is_some_and(|k| k.key() == "Escape") {
                            escape(true);
                        }
                    }),
                )
            });
            move || drop(listeners)
        });
    }
    html! {
        <details class="menu share-menu" data-testid="share-menu" ref={menu}>
            <summary data-testid="share-open" title="Share this scenario as a link or a file, or open a file">{ "Share ▾" }</summary>
            <div class="menu-body">
                <ShareBar scenario={doc.scenario.clone()} plot={plot} moment={p.moment} on_open={on_open} />
            </div>
        </details>
    }
}

/// The JSON a share link carries (what follows `#s=`, once deflated): the scenario, the plot shown and the moment to
/// open at.
fn shared_json(scenario: &Scenario, plot: PlotKind, at_ps: Option<u64>) -> Rc<Vec<u8>> {
    Rc::new(json_of(&Shared { scenario: scenario.clone(), plot: Some(plot.id().into()), at_ps }))
}

/// A scenario's title for people: its preset's label ("Congestion spreading, INFOCOM'03 Fig. 2"), else its name.
fn title(s: &Scenario) -> String {
    find(&s.name).map_or_else(|| s.name.clone(), |p| p.label())
}

/// In an embedded page: the scenario's name and a link that opens it (as it is now, with the plot shown) in the
/// whole playground, in a new tab.
#[component]
pub fn OpenInPlayground(p: &PlotShownProps) -> Html {
    let doc = use_doc();
    let plot = p.plot;
    // (At the moment the embedded run is paused at, as the page that made the embed code offers.)
    let at_ps = p.moment.at();
    let json = use_memo((Same(doc.scenario.clone()), plot, at_ps), |(s, plot, at)| shared_json(&s.0, *plot, *at));
    let payload = use_payload(Some((*json).clone()));
    let name = title(&doc.scenario);
    // No address until the link is made (a moment after a change), so a click never opens another scenario.
    let (href, why) = match &payload {
        Some(Ok(p)) => (Some(format!("{}#s={p}", page_url())), None),
        Some(Err(e)) => (None, Some(e.clone())),
        None => (None, Some(String::from("making the link…"))),
    };
    html! {
        <span class="open-full">
            <span class="embed-title" title={name.clone()}>{ name }</span>
            <a href={href.clone()} target="_blank" rel="noopener" data-testid="open-in-playground" title={why}
                aria-disabled={href.is_none().then_some("true")} data-ready={href.is_some().to_string()}>{ "Open in the playground ↗" }</a>
        </span>
    }
}

#[derive(Properties)]
pub struct ShareProps {
    pub scenario: Rc<Scenario>,
    pub plot: PlotKind,
    /// Where the run stands, offered as the moment the link opens at when it is paused.
    pub moment: Moment,
    /// A scenario opened from a file, with the file's name.
    pub on_open: Callback<(Scenario, String)>,
}

/// The scenario compared by address (`Same`): a large fabric's is not compared field by field each render.
impl PartialEq for ShareProps {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.scenario, &o.scenario)
            && self.plot == o.plot
            && self.moment == o.moment
            && self.on_open == o.on_open
    }
}
#[component]
pub fn ShareBar(p: &ShareProps) -> Html {
    // What was last offered to copy: the text, and whether it is embed code.
    let link = use_state(|| None::<(String, bool)>);
    let copied = use_state(|| false);
    let file_error = use_state(|| None::<String>);
    // Whether the link opens at the paused run's moment (when there is one), or at 0: offered afresh at each pause.
    let with_moment = use_state(|| true);
    {
        let with_moment = with_moment.clone();
        use_effect_with(p.moment, move |_| with_moment.set(true));
    }
    let at_ps = p.moment.at().filter(|_| *with_moment);
    // A new scenario, plot or moment makes the shown link stale.
    {
        let (link, copied) = (link.clone(), copied.clone());
        use_effect_with((Same(p.scenario.clone()), p.plot, at_ps), move |_| {
            link.set(None);
            copied.set(false);
        });
    }
    // The link is made in the background as the scenario changes (and as the run pauses: a playing run offers no
    // moment), so a click copies it at once (a clipboard write must follow the click closely).
    let json = use_memo((Same(p.scenario.clone()), p.plot, at_ps), |(s, plot, at)| shared_json(&s.0, *plot, *at));
    let payload = use_payload(Some((*json).clone()));
    // The link, or the embed code around it, copied to the clipboard (and shown to copy by hand).
    let offer = |embed: bool| {
        let (link, copied, scenario, payload) = (link.clone(), copied.clone(), p.scenario.clone(), payload.clone());
        Callback::from(move |_| {
            let Some(Ok(payload)) = &payload else { return };
            let text = if embed {
                embed_code(&page_url(), payload, &title(&scenario))
            } else {
                format!("{}#s={payload}", page_url())
            };
            // (The text is also shown, to copy by hand if the clipboard is refused.)
            copy_to_clipboard(&text, copied.clone());
            link.set(Some((text, embed)));
        })
    };
    let ready = matches!(payload, Some(Ok(_)));
    let on_save = {
        let scenario = p.scenario.clone();
        Callback::from(move |_| {
            let name = if scenario.name.is_empty() { "scenario" } else { scenario.name.as_str() };
            let file: String =
                name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '-' }).collect();
            download_text(&scenario.to_json(), "application/json", &format!("{file}.json"));
        })
    };
    let on_file = {
        let (on_open, file_error) = (p.on_open.clone(), file_error.clone());
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            let Some(file) = input.files().and_then(|f| f.get(0)) else { return };
            input.set_value("");
            let (on_open, file_error, name) = (on_open.clone(), file_error.clone(), file.name());
            wasm_bindgen_futures::spawn_local(async move {
                let text = wasm_bindgen_futures::JsFuture::from(file.text()).await.ok().and_then(|t| t.as_string());
                match text.map(|t| Scenario::from_json_checked(&t)) {
                    Some(Ok(s)) => {
                        file_error.set(None);
                        on_open.emit((s, name));
                    }
                    Some(Err(e)) => file_error.set(Some(format!("{name}: {e}"))),
                    None => file_error.set(Some(format!("{name}: could not be read as text"))),
                }
            });
        })
    };
    let on_moment = {
        let with_moment = with_moment.clone();
        Callback::from(move |e: Event| {
            with_moment.set(e.target_unchecked_into::<web_sys::HtmlInputElement>().checked())
        })
    };
    let select_all = Callback::from(|e: FocusEvent| {
        if let Some(input) = e.target().and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok()) {
            input.select();
        }
    });
    html! {
        <div class="share" role="group" aria-label="Share and files">
            { match p.moment {
                Moment::At(at) => html! {
                    <label class="share-moment" title="The link opens the run paused here, as you see it now; unticked, it opens at 0 ms">
                        <input type="checkbox" checked={*with_moment} onchange={on_moment} data-testid="share-moment" />
                        { format!(" Open at {:.3} ms", at as f64 / 1e9) }
                    </label>
                },
                Moment::Playing => html! {
                    <span class="share-moment muted" data-testid="share-moment-why">{ "Pause the run to share the moment it is at; this link opens at 0 ms." }</span>
                },
                Moment::Changed => html! {
                    <span class="share-moment muted" data-testid="share-moment-why">{ "This link opens at 0 ms: a marking change was applied mid-run, and the link's run has it from the start." }</span>
                },
                Moment::Start => html! {},
            } }
            <button onclick={offer(false)} disabled={!ready} data-testid="share" title="A link with this scenario and plot; anyone opening it can replay it exactly">{ "Share" }</button>
            <button onclick={offer(true)} disabled={!ready} data-testid="embed-code" title="An <iframe> for a web page or a tutorial: the network, the controls and the plot of this scenario">{ "Copy embed code" }</button>
            <button onclick={on_save} data-testid="save-json">{ "Save JSON" }</button>
            <input id="open-json" type="file" accept=".json,application/json" onchange={on_file} data-testid="open-json" class="visually-hidden" />
            <label class="file-button" for="open-json">{ "Open JSON…" }</label>
            if let Some((text, embed)) = &*link {
                <label for="share-link" class="visually-hidden">{ if *embed { "Embed code" } else { "Share link" } }</label>
                <input id="share-link" class="share-link" type="text" readonly=true value={text.clone()} onfocus={select_all}
                    data-testid={if *embed { "embed-snippet" } else { "share-link" }} />
                <span class="muted" data-testid="share-status">
                    { match (*copied, *embed) { (true, _) => "copied", (false, true) => "copy this code", (false, false) => "copy this link" } }
                </span>
            }
            if let Some(e) = &*file_error {
                <span class="error" role="alert" data-testid="open-error">{ e }</span>
            }
            if let Some(Err(e)) = &payload {
                <span class="error" role="alert" data-testid="share-error">{ e }</span>
            }
        </div>
    }
}
