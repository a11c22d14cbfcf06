//! The scenario being edited, as a Yew reducer: every change (a preset, a generator, a parameter, a canvas edit)
//! goes through here, so undo and redo cover them all, and a refused edit leaves a message instead of a change.

use crate::edit::{self, History, Selection};
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

#[derive(Debug, Clone, PartialEq)]
pub struct Doc {
    pub scenario: Rc<Scenario>,
    pub history: History,
    pub selection: Option<Selection>,
    pub message: Option<Message>,
}

pub enum Action {
    /// Replace the scenario (recorded for undo), selecting `select`, with an optional note.
    Edit {
        next: Box<Scenario>,
        select: Option<Selection>,
        note: Option<String>,
    },
    Select(Option<Selection>),
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
}

impl Doc {
    pub fn new(scenario: Scenario) -> Self {
        Self { scenario: Rc::new(scenario), history: History::default(), selection: None, message: None }
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
            Action::Edit { next, select, note } => {
                if *next == *d.scenario {
                    return self;
                }
                d.history.record(d.scenario.clone());
                d.scenario = Rc::new(*next);
                d.selection = Self::still_there(&d.scenario, select);
                d.message = note.map(|text| Message { text, refused: false, at: None });
            }
            Action::Select(sel) => {
                d.selection = sel;
                d.message = None;
            }
            Action::Refuse { text, at } => d.message = Some(Message { text, refused: true, at }),
            Action::DeleteSelected => {
                let Some(sel) = d.selection.take() else { return self };
                let (next, note) = edit::delete(&d.scenario, &sel);
                d.history.record(d.scenario.clone());
                d.scenario = Rc::new(next);
                d.message = note.map(|text| Message { text, refused: false, at: None });
            }
            Action::Nudge(dx, dy) => {
                let Some(Selection::Node(id)) = &d.selection else { return self };
                let Some(n) = d.scenario.nodes.iter().find(|n| &n.id == id) else { return self };
                let (x, y) = (n.x.unwrap_or(0.0) + dx, n.y.unwrap_or(0.0) + dy);
                let next = edit::move_node(&d.scenario, id, x, y);
                d.history.record(d.scenario.clone());
                d.scenario = Rc::new(next);
            }
            Action::Undo | Action::Redo => {
                let current = d.scenario.clone();
                let moved =
                    if matches!(action, Action::Undo) { d.history.undo(current) } else { d.history.redo(current) };
                let Some(s) = moved else { return self };
                d.scenario = s;
                d.selection = Self::still_there(&d.scenario, d.selection.take());
                d.message = None;
            }
            Action::Dismiss => d.message = None,
        }
        Rc::new(d)
    }
}
