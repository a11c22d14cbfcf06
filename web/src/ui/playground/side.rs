//! The side panel beside the network and the plot: Lesson, Selection, Settings and Results, one at a time (all
//! stay mounted, so a half-written exercise or an open section survives switching). On a phone it is one of the
//! views; on a tablet it can be folded away to give the drawing the room.

use super::super::document::{use_doc, Action};
use super::super::params::ParamsPanel;
use super::credit_loop::CreditLoops;
use super::fabric_import::FabricImport;
use super::generate::Generate;
use super::inspector::Inspector;
use super::lessons::{lesson_chosen, LessonsPanel};
use super::pattern_tool::PatternTool;
use super::results_tab::{PaperTable, ResultsTable};
use crate::course::Sheet;
use ibcc_core::scenario::Scenario;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SideTab {
    Lesson,
    Selection,
    Settings,
    Results,
}

impl SideTab {
    const ALL: [SideTab; 4] = [SideTab::Lesson, SideTab::Selection, SideTab::Settings, SideTab::Results];

    fn label(self) -> &'static str {
        match self {
            SideTab::Lesson => "Lesson",
            SideTab::Selection => "Selection",
            SideTab::Settings => "Settings",
            SideTab::Results => "Results",
        }
    }

    fn id(self) -> &'static str {
        match self {
            SideTab::Lesson => "lesson",
            SideTab::Selection => "selection",
            SideTab::Settings => "settings",
            SideTab::Results => "results",
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct SideProps {
    pub tab: UseStateHandle<SideTab>,
    pub exercise: Option<Rc<Result<Sheet, String>>>,
    pub open: bool,
    pub on_toggle: Callback<MouseEvent>,
}

#[component]
pub fn SidePanel(p: &SideProps) -> Html {
    let doc = use_doc();
    // The settings an open exercise fixes, until it is answered, while its scenario is loaded (a lesson's own steps
    // may still ask for changes to the same settings).
    let exercise = super::use_unanswered_exercise().filter(|_| doc.origin.is_exercise());
    let locked = exercise.map(|e| Callback::from(move |path: &'static str| e.locks(path)));
    // Selecting something on the drawing shows it, unless a lesson is being followed; asking to see it (a row of
    // the flows table, Enter on the drawing) shows it always.
    {
        let tab = p.tab.clone();
        let shows = use_mut_ref(|| doc.shows);
        use_effect_with((doc.selection.clone(), doc.shows), move |(sel, n)| {
            let asked = *shows.borrow() != *n;
            *shows.borrow_mut() = *n;
            if sel.is_some() && (asked || !(*tab == SideTab::Lesson && lesson_chosen())) {
                tab.set(SideTab::Selection);
            }
        });
    }
    let current = *p.tab;
    // The same callback from render to render, so the settings are not rendered again at every frame of a run.
    let on_settings = use_callback(doc.dispatcher(), |next: Scenario, d| {
        d.dispatch(Action::Edit { next: Box::new(next), select: None, note: None })
    });
    // A tab list as the ARIA pattern has it: one tab stop, the arrows (and Home, End) move between the tabs.
    let on_tab_key = {
        let tab = p.tab.clone();
        Callback::from(move |e: KeyboardEvent| {
            let i = SideTab::ALL.iter().position(|t| *t == *tab).unwrap_or(0);
            let n = SideTab::ALL.len();
            let next = match e.key().as_str() {
                "ArrowRight" | "ArrowDown" => (i + 1) % n,
                "ArrowLeft" | "ArrowUp" => (i + n - 1) % n,
                "Home" => 0,
                "End" => n - 1,
                _ => return,
            };
            e.prevent_default();
            tab.set(SideTab::ALL[next]);
            if let Some(el) = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.get_element_by_id(&format!("tab-{}", SideTab::ALL[next].id())))
            {
                let _ = el.unchecked_into::<web_sys::HtmlElement>().focus();
            }
        })
    };
    let tab_button = |t: SideTab| {
        let tab = p.tab.clone();
        let onclick = Callback::from(move |_| tab.set(t));
        html! {
            <button role="tab" id={format!("tab-{}", t.id())} aria-selected={(t == current).to_string()} aria-controls={format!("panel-{}", t.id())}
                tabindex={if t == current { "0" } else { "-1" }}
                class={classes!("side-tab", (t == current).then_some("active"))} {onclick} data-testid={format!("side-{}", t.id())}>
                { t.label() }
            </button>
        }
    };
    let panel = |t: SideTab, content: Html| {
        html! {
            <div role="tabpanel" id={format!("panel-{}", t.id())} aria-labelledby={format!("tab-{}", t.id())}
                class="side-body" hidden={t != current} data-testid={format!("panel-{}", t.id())}>
                { content }
            </div>
        }
    };
    html! {
        <aside class={classes!("side", (!p.open).then_some("closed"))} aria-label="Lesson, selection, settings and results">
            <div class="side-tabs">
                <button class="fold" onclick={p.on_toggle.clone()} aria-expanded={p.open.to_string()} data-testid="side-fold"
                    title={if p.open { "Fold the panel away" } else { "Show the panel" }} aria-label="Fold the side panel">
                    { if p.open { "»" } else { "«" } }
                </button>
                <div class="tabs" role="tablist" aria-label="Side panel" onkeydown={on_tab_key}>
                    { for SideTab::ALL.into_iter().map(tab_button) }
                </div>
            </div>
            { panel(SideTab::Lesson, html! { <LessonsPanel linked={p.exercise.clone()} /> }) }
            { panel(SideTab::Selection, html! { <Inspector /> }) }
            { panel(SideTab::Settings, html! { <><ParamsPanel scenario={doc.scenario.clone()} on_change={on_settings} locked={locked} /><Generate /><FabricImport /><PatternTool /><CreditLoops /></> }) }
            { panel(SideTab::Results, html! { <><PaperTable /><ResultsTable shown={current == SideTab::Results} /></> }) }
        </aside>
    }
}
