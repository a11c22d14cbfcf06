//! The playground: build or load a network, run it, and watch link rates, buffers, marks and the congestion tree
//! move while the plot fills in, all on one screen: the transport and timeline on top, the network and the plot
//! beside a side panel (Lesson, Selection, Settings, Results); on a phone, one of them at a time. Embedded in
//! another page, the transport, the network and the plot only.
//!
//! The scenario being edited is the app's document (`ui/document.rs`); the run lives in a web worker and the page
//! follows it through `live.rs`. When the document changes, the run follows: at time 0 (or once finished) it is
//! rebuilt; during a run a marking change applies from that moment; anything else waits, with the run paused,
//! until the user restarts (or undoes the change, and the run carries on).

mod canvas;
mod canvas_input;
mod class;
mod credit_loop;
mod fabric_import;
mod generate;
mod inspector;
mod legend;
mod lessons;
pub mod live;
mod live_layer;
mod live_plot;
mod network;
mod pattern_tool;
mod picker;
mod results_tab;
mod route_trace;
mod side;
mod start;
mod timeline;
mod tools;
mod transport;

use super::document::{use_doc, Action, Origin};
use crate::course::Highlight;
use crate::held::{revealing, Held};
use canvas::Canvas;
use live_plot::Plot;
use side::{SidePanel, SideTab};
use std::rc::Rc;
use transport::Transport;
use yew::prelude::*;

/// Where the sheet a teacher is putting together is kept (the exercise form writes it, the class table reads its
/// order).
const SAVED_SHEET: &str = "ibcc.author.sheet";

/// Scrolls `el` just onto the screen (nothing moves if it is already there, or hidden in another phone view).
pub fn scroll_into_view(el: &web_sys::Element) {
    let options = web_sys::ScrollIntoViewOptions::new();
    options.set_block(web_sys::ScrollLogicalPosition::Nearest);
    options.set_behavior(web_sys::ScrollBehavior::Smooth);
    el.scroll_into_view_with_scroll_into_view_options(&options);
}

/// Moves the keyboard's focus to the element `selector` finds once the page has drawn what changes now (a button
/// that goes away would otherwise leave the focus on the page's body).
pub fn focus_later(selector: &'static str) {
    use wasm_bindgen::JsCast;
    gloo_timers::callback::Timeout::new(0, move || {
        let found =
            web_sys::window().and_then(|w| w.document()).and_then(|d| d.query_selector(selector).ok().flatten());
        if let Some(el) = found.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = el.focus();
        }
    })
    .forget();
}

/// The page's skip link: past the views, the transport and the drawing to the lesson (its start card's first
/// button on a first visit, else the step or the lesson picker), the Lesson tab brought forward.
#[component]
pub fn SkipToLesson() -> Html {
    let onclick = Callback::from(|e: MouseEvent| {
        e.prevent_default();
        let document = web_sys::window().and_then(|w| w.document());
        let find = |sel: &str| document.as_ref().and_then(|d| d.query_selector(sel).ok().flatten());
        if let Some(tab) = find("[data-testid=side-lesson]") {
            use wasm_bindgen::JsCast;
            if let Ok(tab) = tab.dyn_into::<web_sys::HtmlElement>() {
                tab.click();
            }
        }
        focus_later(if find("[data-testid=start-lesson]").is_some() {
            "[data-testid=start-lesson]"
        } else if find("[data-testid=lesson-step]").is_some() {
            "[data-testid=lesson-step]"
        } else {
            "#lesson-picker"
        });
    });
    html! { <a class="skip-link" href="#panel-lesson" {onclick} data-testid="skip-to-lesson">{ "Skip to the lesson" }</a> }
}

/// What a lesson step points at, shared by the canvas, the plot and the lesson card (the app provides it, so it
/// outlives a visit to another view).
pub type HighlightCtx = UseStateHandle<Option<Highlight>>;

/// The exercise open on the lesson card, if any. Until it is answered (right, or wrong twice) nothing else on the
/// page states its answer (the paper's numbers are held back), and the settings it fixes show disabled.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct OpenExercise {
    pub answered: bool,
    /// Setting paths the student may not change (`"pft"` fixes every `pft.` setting, `EVERY_SETTING` every one).
    pub locked: Vec<String>,
    /// The exercise itself: what it asks for, of which run.
    pub asks: Option<Rc<crate::course::Exercise>>,
}

impl OpenExercise {
    /// Why the setting at `path` cannot be changed, if the exercise fixes it.
    pub fn locks(&self, path: &str) -> Option<String> {
        self.locked
            .iter()
            .any(|l| l == ibcc_view::settings::EVERY_SETTING || path == l || ibcc_view::settings::within(path, l))
            .then(|| String::from("Fixed by the exercise: answer it, or choose another lesson, to change this."))
    }
}

pub type ExerciseCtx = UseStateHandle<Option<OpenExercise>>;

/// A traffic pattern's routes, drawn on the network it was worked out on (the pattern tool's answer); the
/// playground provides it.
#[derive(Debug, Clone)]
pub struct LoadShown {
    pub on: Rc<ibcc_core::scenario::Scenario>,
    pub load: Rc<crate::protocol::PatternLoad>,
    /// Whether each lane is labelled with its routes (not for a credit loop's links, one each).
    pub counted: bool,
    /// Shown even while a run is under way (the congestion impact view's routes: its runs are not the playground's).
    pub always: bool,
    /// A credit loop's channels: also drawn with arrows round the loop, over the run's rates while one is shown.
    pub cycle: Option<Rc<[u32]>>,
}

/// The same answer on the same network: compared by address, not field by field (a large fabric's scenario is
/// hundreds of kilobytes, and the context is compared at every frame).
impl PartialEq for LoadShown {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.on, &o.on)
            && Rc::ptr_eq(&self.load, &o.load)
            && (self.counted, self.always) == (o.counted, o.always)
            && self.cycle == o.cycle
    }
}

pub type LoadCtx = UseStateHandle<Option<LoadShown>>;

/// Shows one of the phone's views (a lesson step's "Show me on the network"); the playground provides it.
pub type ShowCtx = Callback<PhoneView>;

/// The open exercise while it waits for its answer (what the page then holds back), if there is one.
#[hook]
pub fn use_unanswered_exercise() -> Option<OpenExercise> {
    use_context::<ExerciseCtx>().and_then(|e| (*e).clone()).filter(|e| !e.answered)
}

/// What the open, unanswered exercise asks for, while the run shown is the exercise's own (whatever interval it
/// measures): the plot and the results hold that value back until the student has predicted it (predict,
/// observe, explain). A step on another run (another buffer size, another arbiter) shows its values.
#[hook]
pub fn use_hidden_measure() -> Option<ibcc_core::sim::Metric> {
    let open = use_unanswered_exercise();
    let run = live::use_run_scenario();
    let asks = open.and_then(|o| o.asks);
    let key = (run.as_ref().map(|r| Rc::as_ptr(r) as usize), asks.as_ref().map(|e| Rc::as_ptr(e) as usize));
    let own = use_memo(key, move |_| match (&run, &asks) {
        (Some(run), Some(e)) => e.measure.as_ref().filter(|_| e.is_own_run(run)).map(|m| m.metric.clone()),
        _ => None,
    });
    (*own).clone()
}

/// The links and groups held back with what the open exercise asks for, in the run shown (`held::revealing`, with
/// the run's paths once its first frame has brought them).
#[hook]
pub fn use_held() -> Rc<Held> {
    let hidden = use_hidden_measure();
    let run = live::use_run_scenario();
    let paths = live::use_live().paths.clone();
    let key = (run.as_ref().map(|r| Rc::as_ptr(r) as usize), paths.as_ref().map(|p| Rc::as_ptr(p) as usize), hidden);
    use_memo(key, move |(_, _, hidden)| match (&run, hidden) {
        (Some(s), Some(m)) => revealing(s, m, paths.as_deref().map(Vec::as_slice)),
        _ => Held::default(),
    })
}

/// What stands where a held-back value would be.
pub const HIDDEN: &str = "hidden until you answer";

/// Empties curve `c` if it is a group or a link `held` holds back (`name`: the link it draws, as the run names it),
/// and says so in its label: the live plot and a lesson's A/B hold it back the same way.
pub fn hold_back(c: &mut ibcc_view::plot::Curve, name: &str, held: &Held) {
    use ibcc_view::plot::What;
    let asked = match &c.what {
        What::Group(g) => held.groups.iter().any(|h| h == g),
        What::Link(_) => held.links.iter().any(|l| l == name),
        _ => false,
    };
    if asked {
        // (Short: the legend beside the plot is 240 px wide, and "hidden until you answer" after a group's name
        // ran past it. The lesson and the results say until when.)
        c.label = format!("{}: hidden", c.label);
        c.points.clear();
    }
}

/// On a phone, which view fills the screen.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PhoneView {
    Network,
    Plot,
    Side,
    /// Asked for, never shown as such: the side view at its Selection tab (a pinned card's "Edit…", since a tap on
    /// the drawing keeps the network in view).
    Selected,
}

#[derive(Properties, PartialEq)]
pub struct PlaygroundProps {
    /// An exercise opened from a link.
    #[prop_or_default]
    pub exercise: Option<Rc<Result<crate::course::Sheet, String>>>,
}

/// The playground. It does not follow the run itself (its parts do), so a frame re-renders only what shows it.
#[component]
pub fn Playground(p: &PlaygroundProps) -> Html {
    let side_tab = use_state(|| SideTab::Lesson);
    // A phone shows one view at a time: a first visit opens on the start card (in the Lesson view), unless a link
    // brought a network to look at.
    let doc = use_doc();
    let phone = use_state(|| {
        if start::first_visit() && !matches!(doc.origin, Origin::Link) {
            PhoneView::Side
        } else {
            PhoneView::Network
        }
    });
    let side_open = use_state(|| true);
    let open_exercise: ExerciseCtx = use_state(|| None);
    let load_shown: LoadCtx = use_state(|| None);

    let pick_phone = |v: PhoneView, tab: Option<SideTab>| {
        let (phone, side_tab) = (phone.clone(), side_tab.clone());
        Callback::from(move |_| {
            phone.set(v);
            if let Some(t) = tab {
                side_tab.set(t);
            }
        })
    };
    // A group of toggle buttons, not tabs: each shows a view (the side panel's with one of its tabs).
    let phone_tab = |v: PhoneView, tab: Option<SideTab>, label: &'static str, testid: &'static str| {
        let on = *phone == v && (tab.is_none() || tab == Some(*side_tab));
        html! {
            <button aria-pressed={on.to_string()} class={classes!("phone-tab", on.then_some("active"))}
                onclick={pick_phone(v, tab)} data-testid={testid}>{ label }</button>
        }
    };
    let toggle_side = use_callback(side_open.clone(), |_: MouseEvent, open| open.set(!**open));
    let show: ShowCtx = use_callback((phone.clone(), side_tab.clone()), |v: PhoneView, (phone, side_tab)| {
        if v == PhoneView::Selected {
            phone.set(PhoneView::Side);
            side_tab.set(SideTab::Selection);
        } else {
            phone.set(v);
        }
    });
    let view_class = match *phone {
        PhoneView::Network => "show-network",
        PhoneView::Plot => "show-plot",
        PhoneView::Side | PhoneView::Selected => "show-side",
    };

    html! {
        <ContextProvider<ExerciseCtx> context={open_exercise}>
        <ContextProvider<ShowCtx> context={show}>
        <ContextProvider<LoadCtx> context={load_shown}>
            <section class="playground" data-testid="playground" aria-label="Playground">
                <Transport />
                <Messages />
                <div class="phone-tabs" role="group" aria-label="Show">
                    { phone_tab(PhoneView::Network, None, "Network", "phone-network") }
                    { phone_tab(PhoneView::Plot, None, "Plot", "phone-plot") }
                    { phone_tab(PhoneView::Side, Some(SideTab::Lesson), "Lesson", "phone-lesson") }
                    { phone_tab(PhoneView::Side, Some(SideTab::Selection), "Selected", "phone-selection") }
                    { phone_tab(PhoneView::Side, Some(SideTab::Settings), "Settings", "phone-settings") }
                    { phone_tab(PhoneView::Side, Some(SideTab::Results), "Results", "phone-results") }
                </div>
                <div class={classes!("workspace", view_class, (!*side_open).then_some("side-closed"))}>
                    <div class="main-views">
                        <Canvas />
                        <Plot />
                    </div>
                    <SidePanel tab={side_tab.clone()} exercise={p.exercise.clone()} open={*side_open} on_toggle={toggle_side} />
                </div>
            </section>
        </ContextProvider<LoadCtx>>
        </ContextProvider<ShowCtx>>
        </ContextProvider<ExerciseCtx>>
    }
}

/// The playground's network alone, with `load`'s routes drawn on it (the congestion impact view).
#[derive(Properties, PartialEq)]
pub struct NetworkOnlyProps {
    pub load: LoadCtx,
}

#[component]
pub fn NetworkOnly(p: &NetworkOnlyProps) -> Html {
    html! {
        <ContextProvider<LoadCtx> context={p.load.clone()}>
            <div class="network-only"><Canvas view_only=true /></div>
        </ContextProvider<LoadCtx>>
    }
}

/// The playground embedded in another page (`?embed`): the transport with its timeline, the network and the plot,
/// fitted to the frame (side by side, or one above the other in a tall frame); the transport links to the whole
/// playground.
#[component]
pub fn Embedded() -> Html {
    html! {
        <section class="playground embedded" data-testid="playground" aria-label="Playground">
            <Transport />
            <Messages />
            <div class="main-views">
                <Canvas />
                <Plot />
            </div>
        </section>
    }
}

/// The run's error and notices and the last edit's message, above the drawing; it also acknowledges each frame
/// (it is always on the page while the playground is), so the worker sends the next.
#[component]
fn Messages() -> Html {
    let doc = use_doc();
    let live = live::use_live();
    let sim = live::use_sim();
    {
        let sim = sim.clone();
        use_effect_with(live.frames, move |_| sim.ack());
    }
    let dismiss = {
        let d = doc.dispatcher();
        Callback::from(move |_| d.dispatch(Action::Dismiss))
    };
    html! {
        <div class="messages">
            if let Some(e) = &live.error {
                <p class="error" role="alert" data-testid="run-error">{ e }</p>
            }
            if let Some(d) = live.results.as_ref().and_then(|r| r.deadlock.as_ref()) {
                <div class="error deadlock" role="alert" data-testid="deadlock">{ deadlock_text(d) }</div>
            }
            if let Some(m) = &doc.message {
                <p class={classes!("edit-message", m.refused.then_some("error"))} role="alert" data-testid="canvas-message">
                    { &m.text }{ " " }
                    <button class="linklike" aria-label="Dismiss" onclick={dismiss}>{ "×" }</button>
                </p>
            }
        </div>
    }
}

/// A deadlock in plain words: what is stuck since when, and where the run stopped, first (the message scrolls after
/// two lines), then round which links (each kept on one line), and what routes avoid it.
fn deadlock_text(d: &ibcc_core::sim::Deadlock) -> Html {
    // The first line says what happened and fits on a screen; the cycle, which on a fabric can be many links long,
    // opens below it.
    const NAMED: usize = 6;
    let nodes = d.nodes();
    let flows = match d.flows.len() {
        1 => format!("flow {}", d.flows[0]),
        n if n <= NAMED => format!("flows {}", d.flows.join(", ")),
        n => format!("flows {} and {} more", d.flows[..NAMED].join(", "), n - NAMED),
    };
    html! {
        <>
            <p>{ format!(
                "Deadlock by {:.3} ms: {} packets of {flows} wait on each other round a cycle of {} links (the red \
                 arrows) and can never move. The run stopped at {:.3} ms, where its check found them.",
                d.last_in_ns / 1e6,
                d.stuck_packets,
                d.cycle.len(),
                d.at_ns / 1e6
            ) }</p>
            <details data-testid="deadlock-cycle">
                <summary>{ "The cycle, and what breaks it" }</summary>
                // (The summary stays; what it opens scrolls under it.)
                <div class="deadlock-more">
                    <p>
                        { "The cycle: " }
                        // Switch by switch, as the credit-loop check in Settings names a loop.
                        for (i, node) in nodes.iter().chain(nodes.first()).enumerate() {
                            if i > 0 { { " → " } }
                            <span class="nowrap">{ *node }</span>
                        }
                        { format!(
                            ". The last stuck packet came in at {:.3} ms; the run checks every {} ms.",
                            d.last_in_ns / 1e6,
                            ibcc_core::sim::DEADLOCK_CHECK_EVERY_PS as f64 / 1e9
                        ) }
                    </p>
                    <p>{ "These routes form a credit loop. Routes that never turn down and then up again (updn, with a \
                          root switch) cannot, and dfsssp puts a loop's routes on different virtual lanes." }</p>
                </div>
            </details>
        </>
    }
}
