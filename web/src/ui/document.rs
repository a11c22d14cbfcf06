//! The scenario being edited, as a Yew reducer shared by every view (playground, A/B comparison, sweep) through a
//! context: every change (a preset, a generator, a parameter, a canvas edit) goes through here, so undo and redo
//! cover them all, and a refused edit leaves a message instead of a change. The document also knows where its
//! scenario came from, so the scenario picker can say what is loaded ("Edited: Congestion spreading...").

use super::storage;
use crate::edit::{self, History, Selection};
pub use crate::origin::{Origin, CUSTOM, EMPTY};
use ibcc_core::presets::find;
use ibcc_core::scenario::Scenario;
use std::rc::Rc;
use yew::prelude::*;

/// A message about the last edit, shown next to where it happened (`at`, in view coordinates) when known.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub text: String,
    pub refused: bool,
    pub at: Option<(f64, f64)>,
}

#[derive(Debug, Clone)]
pub struct Doc {
    pub scenario: Rc<Scenario>,
    pub origin: Origin,
    /// Undo goes back to the scenario and where it came from (undoing a preset's load names the scenario before).
    pub history: History<(Rc<Scenario>, Origin)>,
    pub selection: Option<Selection>,
    pub message: Option<Message>,
    /// Bumped by each `Load`: a new scenario that starts a new run, whatever the old run was doing.
    pub loads: u32,
    /// Bumped by each `Show`: the selection was asked to be shown (the Selection tab comes forward even during a
    /// lesson, and even if the thing was selected already).
    pub shows: u32,
    /// A comparison a lesson step asked for and the A/B view has not opened yet: B, and the step's text.
    /// ... and what of A to hold back (an unanswered exercise's question about A's run).
    pub compare: Option<Rc<(Scenario, String, Option<ibcc_core::sim::Metric>)>>,
}

/// Compared by address where a part is a scenario: every edit makes new scenarios (so an address is a version),
/// and the document is compared each time its context is provided, at every frame of a run, where comparing a
/// large fabric's scenarios and their undo history field by field cost more than drawing the frame.
impl PartialEq for Doc {
    fn eq(&self, o: &Self) -> bool {
        let state = |a: &(Rc<Scenario>, Origin), b: &(Rc<Scenario>, Origin)| Rc::ptr_eq(&a.0, &b.0) && a.1 == b.1;
        Rc::ptr_eq(&self.scenario, &o.scenario)
            && self.origin == o.origin
            && self.history.same(&o.history, state)
            && self.selection == o.selection
            && self.message == o.message
            && self.loads == o.loads
            && self.shows == o.shows
            && match (&self.compare, &o.compare) {
                (Some(a), Some(b)) => Rc::ptr_eq(a, b),
                (None, None) => true,
                _ => false,
            }
    }
}

/// An `Rc` compared by address, as a memo's or a component's key: the document replaces its scenario on every
/// edit, so a new address is a new scenario, and two large scenarios are never compared field by field per frame.
#[derive(Debug)]
pub struct Same<T>(pub Rc<T>);

impl<T> Clone for Same<T> {
    fn clone(&self) -> Self {
        Self(self.0.clone())
    }
}

impl<T> PartialEq for Same<T> {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.0, &o.0)
    }
}

pub enum Action {
    /// A new scenario from somewhere (a preset, a generator, a file, a lesson): recorded for undo; a new run.
    Load {
        next: Box<Scenario>,
        origin: Origin,
    },
    /// Replace the scenario (recorded for undo), selecting `select`, with an optional note.
    Edit {
        next: Box<Scenario>,
        select: Option<Selection>,
        note: Option<String>,
    },
    Select(Option<Selection>),
    /// Select this and show it (a row of the flows table, Enter on the drawing).
    Show(Selection),
    Refuse {
        text: String,
        at: Option<(f64, f64)>,
    },
    DeleteSelected,
    /// Move the selected node by this much (arrow keys).
    Nudge(f64, f64),
    Undo,
    Redo,
    Dismiss,
    /// A lesson step compares the scenario (A) with `b` in the A/B view, under the step's text; `hidden`: A's value
    /// that the lesson's exercise asks for, while it is unanswered.
    Compare {
        b: Box<Scenario>,
        text: String,
        hidden: Option<ibcc_core::sim::Metric>,
    },
    /// The A/B view took the comparison asked for.
    CompareOpened,
}

impl Doc {
    pub fn new(scenario: Scenario, origin: Origin) -> Self {
        Self {
            scenario: Rc::new(scenario),
            origin,
            history: History::default(),
            selection: None,
            message: None,
            loads: 0,
            shows: 0,
            compare: None,
        }
    }

    /// The selection if it still names something in the scenario.
    fn still_there(s: &Scenario, sel: Option<Selection>) -> Option<Selection> {
        sel.filter(|sel| match sel {
            Selection::Node(id) => s.nodes.iter().any(|n| &n.id == id),
            Selection::Link(i) => *i < s.links.len(),
            Selection::Flow(id) => s.flows.iter().any(|f| &f.id == id),
        })
    }
}

impl Reducible for Doc {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut d = (*self).clone();
        match action {
            Action::Load { next, origin } => {
                if *next != *d.scenario {
                    d.history.record((d.scenario.clone(), d.origin.clone()));
                }
                d.scenario = Rc::new(*next);
                d.origin = origin;
                d.selection = None;
                d.message = None;
                d.loads += 1;
            }
            Action::Edit { next, select, note } => {
                if *next == *d.scenario {
                    return self;
                }
                d.history.record((d.scenario.clone(), d.origin.clone()));
                d.scenario = Rc::new(*next);
                d.selection = Self::still_there(&d.scenario, select);
                d.message = note.map(|text| Message { text, refused: false, at: None });
                d.origin = d.origin.edited();
            }
            Action::Select(sel) => {
                d.selection = sel;
                d.message = None;
            }
            Action::Show(sel) => {
                d.selection = Some(sel);
                d.message = None;
                d.shows = d.shows.wrapping_add(1);
            }
            Action::Refuse { text, at } => d.message = Some(Message { text, refused: true, at }),
            Action::DeleteSelected => {
                let Some(sel) = d.selection.take() else { return self };
                let (next, note) = edit::delete(&d.scenario, &sel);
                d.history.record((d.scenario.clone(), d.origin.clone()));
                d.scenario = Rc::new(next);
                d.message = note.map(|text| Message { text, refused: false, at: None });
                d.origin = d.origin.edited();
            }
            Action::Nudge(dx, dy) => {
                let Some(Selection::Node(id)) = &d.selection else { return self };
                let Some(n) = d.scenario.nodes.iter().find(|n| &n.id == id) else { return self };
                let (x, y) = (n.x.unwrap_or(0.0) + dx, n.y.unwrap_or(0.0) + dy);
                let next = edit::move_node(&d.scenario, id, x, y);
                d.history.record((d.scenario.clone(), d.origin.clone()));
                d.scenario = Rc::new(next);
                d.origin = d.origin.edited();
            }
            Action::Undo | Action::Redo => {
                let current = (d.scenario.clone(), d.origin.clone());
                let moved =
                    if matches!(action, Action::Undo) { d.history.undo(current) } else { d.history.redo(current) };
                let Some((s, origin)) = moved else { return self };
                d.scenario = s;
                d.origin = origin;
                d.selection = Self::still_there(&d.scenario, d.selection.take());
                d.message = None;
            }
            Action::Dismiss => d.message = None,
            Action::Compare { b, text, hidden } => d.compare = Some(Rc::new((*b, text, hidden))),
            Action::CompareOpened => d.compare = None,
        }
        Rc::new(d)
    }
}

/// The document, as every view gets it.
pub type DocCtx = UseReducerHandle<Doc>;

/// The document of the page.
#[hook]
pub fn use_doc() -> DocCtx {
    use_context::<DocCtx>().expect("the app provides the document")
}

/// Where the page keeps the scenario being edited, so a reload does not lose it.
const SAVED_SCENARIO: &str = "ibcc.playground.scenario";
const SAVED_ORIGIN: &str = "ibcc.playground.origin";
/// The moment (ps) the share link being shown opened at, while the document is that link's unchanged: a reload
/// (a phone's browser reloads a tab it put aside) opens there again, as the link did.
const SAVED_MOMENT: &str = "ibcc.playground.link-moment";
pub const DEFAULT_PRESET: &str = "infocom03-fig2";

/// The scenario saved by an earlier visit and where it came from; `Err` says why it cannot be used.
pub fn restore() -> Result<Option<(Scenario, Origin)>, String> {
    let Some(text) = storage::load_text(SAVED_SCENARIO) else { return Ok(None) };
    let s = Scenario::from_json_checked(&text).map_err(|e| e.to_string())?;
    let origin = storage::load::<Origin>(SAVED_ORIGIN).unwrap_or(Origin::Edited(Box::new(Origin::Empty)));
    Ok(Some((s, origin)))
}

/// Keeps the document in the browser (every change, at once). Once it is no longer a share link's as opened, the
/// link's moment goes.
pub fn save(doc: &Doc) {
    storage::save_text(SAVED_SCENARIO, &doc.scenario.to_json());
    storage::save(SAVED_ORIGIN, &doc.origin);
    if doc.origin != Origin::Link {
        storage::remove(SAVED_MOMENT);
    }
}

/// Keeps the moment a share link opened at (none: it opened at 0 ms), for [`restored_moment`].
pub fn keep_link_moment(at_ps: Option<u64>) {
    match at_ps {
        Some(at) => storage::save(SAVED_MOMENT, &at),
        None => storage::remove(SAVED_MOMENT),
    }
}

/// The moment to open a restored document at: its share link's, if it is that link's unchanged.
pub fn restored_moment(origin: &Origin) -> Option<u64> {
    (*origin == Origin::Link).then(|| storage::load::<u64>(SAVED_MOMENT)).flatten()
}

/// A preset's scenario, or the empty canvas for `empty` (or an unknown name).
pub fn preset_scenario(name: &str) -> (Scenario, Origin) {
    match find(name) {
        Some(p) => (p.scenario(), Origin::Preset(p.name.into())),
        None => {
            let mut s = Scenario::empty("my network", 5_000_000);
            s.description = String::from("Built on the canvas.");
            s.measure.from_ns = 0;
            // No window, as the papers' runs without congestion control: the format's default of one packet (their
            // window limit with it) keeps a hot spot from spreading until a student finds and clears it.
            s.source.window_packets = None;
            // Rates averaged over a twentieth of the 5 ms run, as the fabric presets' 0.1 ms of their 2-3 ms: the
            // format's 2 ms (the papers', in runs of 100 ms) drew a flow of 1-3 ms as a triangle from 0 to 4 ms.
            s.measure.window_ns = 250_000;
            (s, Origin::Empty)
        }
    }
}
