//! How the canvas takes its events: pointer and keyboard events become gesture inputs (`gesture.rs`), the effects
//! come back and are carried out here (the document edited through its reducer, the pointer captured, the drawing
//! redrawn); listeners that must prevent the browser's default (the wheel, a touch that drags or pinches) are set
//! by hand, since Yew's are passive; and Ctrl+Z undoes anywhere but in a field.

use super::super::document::{Action, Doc};
use crate::edit::{self, Selection};
use crate::gesture::{handles_key, Effect, Gestures, Input, Pointer, PointerKind, Tool};
use crate::scene::Hit;
use gloo_events::{EventListener, EventListenerOptions};
use ibcc_core::scenario::{NodeKind, Scenario};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Feeds one event to the gestures and carries out the effects.
pub type Feed = Rc<dyn Fn(Input)>;

pub fn selection_of(s: &Scenario, hit: Option<Hit>) -> Option<Selection> {
    match hit? {
        Hit::Node(i) => s.nodes.get(i).map(|n| Selection::Node(n.id.clone())),
        Hit::Link(i) => Some(Selection::Link(i)),
        Hit::Flow(i) => s.flows.get(i).map(|f| Selection::Flow(f.id.clone())),
        Hit::Buffer(_) => None,
    }
}

pub fn hit_of(s: &Scenario, sel: Option<&Selection>) -> Option<Hit> {
    match sel? {
        Selection::Node(id) => s.nodes.iter().position(|n| &n.id == id).map(Hit::Node),
        Selection::Link(i) => Some(Hit::Link(*i)),
        Selection::Flow(id) => s.flows.iter().position(|f| &f.id == id).map(Hit::Flow),
    }
}

fn pointer(e: &PointerEvent) -> Pointer {
    let kind = match e.pointer_type().as_str() {
        "touch" => PointerKind::Touch,
        "pen" => PointerKind::Pen,
        _ => PointerKind::Mouse,
    };
    let pressed = if kind == PointerKind::Touch { true } else { e.buttons() & 1 == 1 };
    Pointer { id: e.pointer_id(), kind, x: f64::from(e.client_x()), y: f64::from(e.client_y()), pressed }
}

/// Carries out the gesture effects on the document and the view.
pub fn apply(
    effects: Vec<Effect>,
    s: &Scenario,
    dispatch: &UseReducerDispatcher<Doc>,
    svg: &NodeRef,
    redraw: &UseForceUpdateHandle,
) {
    let mut changed = false;
    for e in effects {
        match e {
            Effect::Camera(_) | Effect::Preview(_) | Effect::Card(_) | Effect::Focus(_) => changed = true,
            Effect::Select(hit) => dispatch.dispatch(Action::Select(selection_of(s, hit))),
            Effect::Show(hit) => {
                if let Some(sel) = selection_of(s, Some(hit)) {
                    dispatch.dispatch(Action::Show(sel));
                }
            }
            Effect::Capture(id) => {
                if let Some(el) = svg.cast::<web_sys::Element>() {
                    let _ = el.set_pointer_capture(id);
                }
            }
            Effect::AddNode(kind, at) => match edit::add_node(s, kind, at.0, at.1) {
                Ok((next, id)) => dispatch.dispatch(Action::Edit {
                    next: Box::new(next),
                    select: Some(Selection::Node(id)),
                    note: None,
                }),
                Err(r) => dispatch.dispatch(Action::Refuse { text: r.0, at: Some(at) }),
            },
            Effect::MoveNode(i, at) => {
                if let Some(n) = s.nodes.get(i) {
                    let next = edit::move_node(s, &n.id, at.0, at.1);
                    dispatch.dispatch(Action::Edit {
                        next: Box::new(next),
                        select: Some(Selection::Node(n.id.clone())),
                        note: None,
                    });
                }
            }
            Effect::Connect { from, to, at, tool } => {
                let Some(to) = to else {
                    let text = String::from("Release over another node to connect it.");
                    dispatch.dispatch(Action::Refuse { text, at: Some(at) });
                    continue;
                };
                // (The indices come from the drawing of this scenario; a stale one is ignored, not a panic.)
                let (Some(a), Some(b)) = (s.nodes.get(from).map(|n| &n.id), s.nodes.get(to).map(|n| &n.id)) else {
                    continue;
                };
                let made = if tool == Tool::Flow {
                    edit::add_flow(s, a, b).map(|(next, id)| (next, Selection::Flow(id)))
                } else {
                    edit::add_link(s, a, b).map(|next| {
                        let last = next.links.len() - 1;
                        (next, Selection::Link(last))
                    })
                };
                match made {
                    Ok((next, sel)) => {
                        dispatch.dispatch(Action::Edit { next: Box::new(next), select: Some(sel), note: None })
                    }
                    Err(r) => dispatch.dispatch(Action::Refuse { text: r.0, at: Some(at) }),
                }
            }
            Effect::Nudge(dx, dy) => dispatch.dispatch(Action::Nudge(dx, dy)),
            Effect::Delete => dispatch.dispatch(Action::DeleteSelected),
        }
    }
    if changed {
        redraw.force_update();
    }
}

/// The drawing's own event handlers.
pub struct Handlers {
    pub down: Callback<PointerEvent>,
    pub moved: Callback<PointerEvent>,
    pub up: Callback<PointerEvent>,
    pub cancel: Callback<PointerEvent>,
    pub leave: Callback<PointerEvent>,
    pub key: Callback<KeyboardEvent>,
}

/// The handlers that feed `feed`; a mouse press also gives the drawing the keyboard's focus (it is one tab stop).
pub fn handlers(feed: &Feed, svg: &NodeRef) -> Handlers {
    let with = |f: fn(&PointerEvent) -> Option<Input>| {
        let feed = feed.clone();
        Callback::from(move |e: PointerEvent| {
            if let Some(input) = f(&e) {
                feed(input);
            }
        })
    };
    let down = {
        let (feed, svg) = (feed.clone(), svg.clone());
        Callback::from(move |e: PointerEvent| {
            if e.pointer_type() != "touch" {
                if let Some(el) = svg.cast::<web_sys::SvgElement>() {
                    let _ = el.focus();
                }
            }
            feed(Input::Down(pointer(&e)))
        })
    };
    let key = {
        let feed = feed.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.ctrl_key() || e.meta_key() || e.alt_key() || !handles_key(&e.key()) {
                return;
            }
            e.prevent_default();
            feed(Input::Key { key: e.key(), shift: e.shift_key() });
        })
    };
    Handlers {
        down,
        moved: with(|e| Some(Input::Move(pointer(e)))),
        up: with(|e| Some(Input::Up(pointer(e)))),
        cancel: with(|e| Some(Input::Cancel(e.pointer_id()))),
        leave: with(|e| (e.pointer_type() == "mouse").then_some(Input::Leave)),
        key,
    }
}

/// The wheel zooms instead of scrolling the page, and a touch that belongs to a gesture (two fingers, or a drag
/// started on a node) does not scroll it; one finger elsewhere is the page's.
#[hook]
pub fn use_native_listeners(svg: NodeRef, feed: Rc<RefCell<Feed>>, gestures: Rc<RefCell<Gestures>>) {
    use_effect_with((), move |_| {
        let listeners = svg.cast::<web_sys::Element>().map(|el| {
            let opts = EventListenerOptions::enable_prevent_default();
            let wheel = EventListener::new_with_options(&el, "wheel", opts, move |e| {
                let Some(w) = e.dyn_ref::<WheelEvent>() else { return };
                e.prevent_default();
                (feed.borrow())(Input::Wheel {
                    x: f64::from(w.client_x()),
                    y: f64::from(w.client_y()),
                    delta_y: w.delta_y(),
                });
            });
            let touch = |kind: &'static str| {
                let g = gestures.clone();
                EventListener::new_with_options(&el, kind, opts, move |e| {
                    let fingers = e.dyn_ref::<TouchEvent>().map_or(0, |t| t.touches().length());
                    if fingers >= 2 || g.borrow().busy() {
                        e.prevent_default();
                    }
                })
            };
            [wheel, touch("touchstart"), touch("touchmove")]
        });
        move || drop(listeners)
    });
}

/// The palette: a press picks a node kind up (a drag drops it where released), a click adds it in the middle.
pub fn palette_handlers(feed: &Feed, kind: NodeKind) -> (Callback<PointerEvent>, Callback<MouseEvent>) {
    let f = feed.clone();
    let down = Callback::from(move |e: PointerEvent| {
        e.prevent_default();
        // A finger's events stay with the button it pressed unless released: let them reach the drawing.
        if let Some(el) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
            let _ = el.release_pointer_capture(e.pointer_id());
        }
        f(Input::Palette(kind))
    });
    let f = feed.clone();
    (down, Callback::from(move |_: MouseEvent| f(Input::PaletteClick(kind))))
}

/// Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y undo and redo document edits anywhere on the page, except while typing in a
/// field (the field's own undo). Nothing else is taken from the page's keys.
#[hook]
pub fn use_undo_keys(dispatch: UseReducerDispatcher<Doc>) {
    use_effect_with((), move |_| {
        let listener = web_sys::window().and_then(|w| w.document()).map(|doc| {
            EventListener::new_with_options(&doc, "keydown", EventListenerOptions::enable_prevent_default(), move |e| {
                let Some(k) = e.dyn_ref::<KeyboardEvent>() else { return };
                if !(k.ctrl_key() || k.meta_key()) {
                    return;
                }
                let typing = k
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
                if typing {
                    return;
                }
                let action = match k.key().to_ascii_lowercase().as_str() {
                    "z" if k.shift_key() => Action::Redo,
                    "z" => Action::Undo,
                    "y" => Action::Redo,
                    _ => return,
                };
                k.prevent_default();
                dispatch.dispatch(action);
            })
        });
        move || drop(listener)
    });
}
