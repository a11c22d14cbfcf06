//! The network canvas: the drawing, its tools and legend, and the card of what is hovered or tapped. Pointer,
//! touch, wheel and keyboard events go into the gesture state machine (`gesture.rs`) and its effects are carried
//! out here: the camera moves, the document is edited (through its reducer, so undo covers it), the card shows.
//! The drawing is one tab stop; inside it the arrows move the focus between nodes and links.

use super::super::document::{use_doc, Action, Doc};
use super::legend::Legend;
use super::live::use_live;
use super::topology::{self, Decor, Live};
use super::HighlightCtx;
use crate::edit::{self, Selection};
use crate::figures::figures;
use crate::gesture::{Card, Effect, Gestures, Input, Pointer, PointerKind, Preview, Scene, Tool};
use crate::view_model::{buffer_spots, focus_items, hit_test_with, layout, BufferSpot, Hit, Layout, Point};
use gloo_events::{EventListener, EventListenerOptions};
use ibcc_core::scenario::{NodeKind, Scenario};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

/// Feeds one event to the gestures and carries out the effects.
type Feed = Rc<dyn Fn(Input)>;

/// What the gestures see of the drawing.
struct Drawing<'a> {
    s: &'a Scenario,
    lay: &'a Layout,
    spots: &'a [BufferSpot],
    show_flows: bool,
}

impl Scene for Drawing<'_> {
    fn hit(&self, p: Point) -> Option<Hit> {
        hit_test_with(self.s, self.lay, p, self.show_flows, self.spots)
    }
    fn items(&self) -> Vec<(Hit, Point)> {
        focus_items(self.s, self.lay)
    }
}

fn selection_of(s: &Scenario, hit: Option<Hit>) -> Option<Selection> {
    match hit? {
        Hit::Node(i) => s.nodes.get(i).map(|n| Selection::Node(n.id.clone())),
        Hit::Link(i) => Some(Selection::Link(i)),
        Hit::Flow(i) => s.flows.get(i).map(|f| Selection::Flow(f.id.clone())),
        Hit::Buffer(_) => None,
    }
}

fn hit_of(s: &Scenario, sel: Option<&Selection>) -> Option<Hit> {
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
fn apply(
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
                let (a, b) = (&s.nodes[from].id, &s.nodes[to].id);
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

/// Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y undo and redo document edits anywhere on the page, except while typing in a
/// field (the field's own undo). Nothing else is taken from the page's keys.
#[hook]
fn use_undo_keys(dispatch: UseReducerDispatcher<Doc>) {
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
                let action = match k.key().to_lowercase().as_str() {
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

#[component]
pub fn Canvas() -> Html {
    let doc = use_doc();
    use_undo_keys(doc.dispatcher());
    let live = use_live();
    let highlight = use_context::<HighlightCtx>();
    let svg = use_node_ref();
    let redraw = use_force_update();
    let show_flows = use_state(|| true);
    let s = doc.scenario.clone();
    let base = use_memo(s.clone(), |s| layout(s));
    let spots = use_memo(base.clone(), |lay| buffer_spots(&s, lay));
    let gestures = use_mut_ref(|| Gestures::new(base.view_box));
    {
        let mut g = gestures.borrow_mut();
        g.fitted = base.view_box;
        g.follow_selection(hit_of(&s, doc.selection.as_ref()));
    }
    // A new network (a new document load) is shown whole.
    {
        let (gestures, redraw) = (gestures.clone(), redraw.clone());
        use_effect_with(doc.loads, move |_| {
            gestures.borrow_mut().camera = None;
            redraw.force_update();
        });
    }

    // Each event: the drawing's box, the scene, the machine, the effects.
    let feed = {
        let (gestures, svg, s, base, spots, redraw, d, show) = (
            gestures.clone(),
            svg.clone(),
            s.clone(),
            base.clone(),
            spots.clone(),
            redraw.clone(),
            doc.dispatcher(),
            *show_flows,
        );
        Rc::new(move |input: Input| {
            let effects = {
                let mut g = gestures.borrow_mut();
                if let Some(el) = svg.cast::<web_sys::Element>() {
                    let r = el.get_bounding_client_rect();
                    g.rect = (r.left(), r.top(), r.width().max(1.0), r.height().max(1.0));
                }
                let scene = Drawing { s: &s, lay: &base, spots: &spots, show_flows: show };
                g.handle(input, &scene)
            };
            apply(effects, &s, &d, &svg, &redraw);
        })
    };
    let feed_ref: Rc<RefCell<Feed>> = use_mut_ref(|| Rc::new(|_: Input| {}) as Feed);
    *feed_ref.borrow_mut() = feed.clone();
    // Listeners that must be able to prevent the browser's default (Yew's are passive): the wheel zooms instead of
    // scrolling, and a touch move that belongs to a gesture (a drag, a pinch) does not scroll the page.
    {
        let (svg, feed_ref, gestures) = (svg.clone(), feed_ref.clone(), gestures.clone());
        use_effect_with((), move |_| {
            let listeners = svg.cast::<web_sys::Element>().map(|el| {
                let opts = EventListenerOptions::enable_prevent_default();
                let f = feed_ref.clone();
                let wheel = EventListener::new_with_options(&el, "wheel", opts, move |e| {
                    let Some(w) = e.dyn_ref::<WheelEvent>() else { return };
                    e.prevent_default();
                    (f.borrow())(Input::Wheel {
                        x: f64::from(w.client_x()),
                        y: f64::from(w.client_y()),
                        delta_y: w.delta_y(),
                    });
                });
                let g = gestures.clone();
                let touch = EventListener::new_with_options(&el, "touchmove", opts, move |e| {
                    let fingers = e.dyn_ref::<TouchEvent>().map_or(0, |t| t.touches().length());
                    if fingers >= 2 || g.borrow().busy() {
                        e.prevent_default();
                    }
                });
                let g = gestures.clone();
                let start = EventListener::new_with_options(&el, "touchstart", opts, move |e| {
                    let fingers = e.dyn_ref::<TouchEvent>().map_or(0, |t| t.touches().length());
                    if fingers >= 2 || g.borrow().busy() {
                        e.prevent_default();
                    }
                });
                [wheel, touch, start]
            });
            move || drop(listeners)
        });
    }

    let on_down = {
        let (feed, svg) = (feed.clone(), svg.clone());
        Callback::from(move |e: PointerEvent| {
            if e.pointer_type() != "touch" {
                // The drawing takes the keyboard's focus when pressed (it is one tab stop).
                if let Some(el) = svg.cast::<web_sys::SvgElement>() {
                    let _ = el.focus();
                }
            }
            feed(Input::Down(pointer(&e)))
        })
    };
    let on_move = {
        let feed = feed.clone();
        Callback::from(move |e: PointerEvent| feed(Input::Move(pointer(&e))))
    };
    let on_up = {
        let feed = feed.clone();
        Callback::from(move |e: PointerEvent| feed(Input::Up(pointer(&e))))
    };
    let on_cancel = {
        let feed = feed.clone();
        Callback::from(move |e: PointerEvent| feed(Input::Cancel(e.pointer_id())))
    };
    let on_leave = {
        let feed = feed.clone();
        Callback::from(move |e: PointerEvent| {
            if e.pointer_type() == "mouse" {
                feed(Input::Leave)
            }
        })
    };
    let on_key = {
        let feed = feed.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.ctrl_key() || e.meta_key() || e.alt_key() {
                return;
            }
            let key = e.key();
            let ours = matches!(
                key.as_str(),
                "ArrowLeft"
                    | "ArrowRight"
                    | "ArrowUp"
                    | "ArrowDown"
                    | "Enter"
                    | " "
                    | "Delete"
                    | "Backspace"
                    | "Escape"
                    | "+"
                    | "="
                    | "-"
            );
            if ours {
                e.prevent_default();
                feed(Input::Key { key, shift: e.shift_key() });
            }
        })
    };
    let palette_down = |kind: NodeKind| {
        let feed = feed.clone();
        Callback::from(move |e: PointerEvent| {
            e.prevent_default();
            // A finger's events stay with the button it pressed unless released: let them reach the drawing.
            if let Some(el) = e.target().and_then(|t| t.dyn_into::<web_sys::Element>().ok()) {
                let _ = el.release_pointer_capture(e.pointer_id());
            }
            feed(Input::Palette(kind))
        })
    };
    let palette_click = |kind: NodeKind| {
        let feed = feed.clone();
        Callback::from(move |_: MouseEvent| feed(Input::PaletteClick(kind)))
    };
    let send = |input: Input| {
        let feed = feed.clone();
        Callback::from(move |_: MouseEvent| feed(input.clone()))
    };
    let g = gestures.borrow();
    let tool = g.tool;
    let tool_button = |t: Tool, label: &'static str, key: &'static str, hint: &'static str| {
        html! {
            <button class={classes!("tool", (tool == t).then_some("active"))} aria-pressed={(tool == t).to_string()}
                title={hint} data-testid={format!("tool-{key}")} onclick={send(Input::Tool(t))}>{ label }</button>
        }
    };
    let undo = {
        let d = doc.dispatcher();
        Callback::from(move |_| d.dispatch(Action::Undo))
    };
    let redo = {
        let d = doc.dispatcher();
        Callback::from(move |_| d.dispatch(Action::Redo))
    };
    let toggle_flows = {
        let show_flows = show_flows.clone();
        Callback::from(move |_| show_flows.set(!*show_flows))
    };

    let view = g.view();
    let mut lay = (*base).clone();
    let preview = g.preview;
    if let Some(Preview::Moving(i, at)) = preview {
        if let Some(pos) = lay.positions.get_mut(i) {
            *pos = at;
        }
    }
    let frame = live.frame.as_ref().filter(|_| !live.pending);
    let now =
        frame.map(|f| Live { snapshot: &f.frame.snapshot, tree: &f.frame.tree, recent_marks: &f.frame.recent_marks });
    let hl = highlight.as_ref().and_then(|h| (**h).clone());
    let decor =
        Decor { selection: doc.selection.as_ref(), focus: g.focus, highlight: hl.as_ref(), show_flows: *show_flows };
    let moving_spots;
    let spots_now: &[BufferSpot] = if matches!(preview, Some(Preview::Moving(..))) {
        moving_spots = buffer_spots(&s, &lay);
        &moving_spots
    } else {
        &spots
    };
    let preview_html = match preview {
        Some(Preview::Ghost(kind, (x, y))) => html! { <g class="ghost">{ topology::node_shape(kind, x, y) }</g> },
        Some(Preview::Rubber(from, (x, y))) => {
            let (fx, fy) = lay.positions.get(from).copied().unwrap_or((x, y));
            html! { <line class="rubber" x1={fx.to_string()} y1={fy.to_string()} x2={x.to_string()} y2={y.to_string()} data-testid="rubber-band" /> }
        }
        _ => html! {},
    };
    // A message next to where an edit was tried, drawn at a constant size whatever the zoom.
    let callout = doc.message.as_ref().and_then(|m| m.at.map(|at| (m, at))).map(|(m, (x, y))| {
        let scale = view.2 / 1000.0;
        let width = 7.2 * m.text.chars().count() as f64 + 16.0;
        html! {
            <g class={classes!("callout", m.refused.then_some("refused"))} data-testid="canvas-callout"
                transform={format!("translate({x:.1},{:.1}) scale({scale:.3})", y - 30.0 * scale)}>
                <rect x="-8" y="-18" width={format!("{width:.0}")} height="26" rx="4" />
                <text x="0" y="0">{ &m.text }</text>
            </g>
        }
    });
    let card = g.card.map(|c| card_html(&s, c, frame.map(|f| &f.frame), g.rect, &gestures, &redraw));
    let active = g.focus.map(|h| match h {
        Hit::Node(i) => format!("item-node-{i}"),
        Hit::Link(i) => format!("item-link-{i}"),
        _ => String::new(),
    });
    let groups = topology::groups(&s);
    let vb = format!("{:.1} {:.1} {:.1} {:.1}", view.0, view.1, view.2, view.3);
    html! {
        <div class="canvas-panel" data-testid="canvas-panel">
            <div class="canvas-tools" role="toolbar" aria-label="Canvas tools">
                <span class="palette" aria-label="Palette">
                    <button class="palette-item" data-testid="palette-switch" title="Drag onto the canvas (or press) to add a switch"
                        onpointerdown={palette_down(NodeKind::Switch)} onclick={palette_click(NodeKind::Switch)}>{ "▭ Switch" }</button>
                    <button class="palette-item" data-testid="palette-host" title="Drag onto the canvas (or press) to add a host"
                        onpointerdown={palette_down(NodeKind::Host)} onclick={palette_click(NodeKind::Host)}>{ "◯ Host" }</button>
                </span>
                { tool_button(Tool::Select, "Select", "select", "Select and move nodes; drag empty space to pan (two fingers on a touch screen)") }
                { tool_button(Tool::Link, "Link", "link", "Drag from node to node to link them") }
                { tool_button(Tool::Flow, "Flow", "flow", "Drag from host to host to add a flow") }
                <span class="sep" />
                <button onclick={undo} disabled={!doc.history.can_undo()} data-testid="undo" title="Undo (Ctrl+Z)" aria-label="Undo">{ "↶" }</button>
                <button onclick={redo} disabled={!doc.history.can_redo()} data-testid="redo" title="Redo (Ctrl+Shift+Z)" aria-label="Redo">{ "↷" }</button>
                <button onclick={send(Input::Zoom(1.25))} data-testid="zoom-in" aria-label="Zoom in" title="Zoom in (+)">{ "+" }</button>
                <button onclick={send(Input::Zoom(0.8))} data-testid="zoom-out" aria-label="Zoom out" title="Zoom out (−)">{ "−" }</button>
                <button onclick={send(Input::Fit)} data-testid="zoom-fit" title="Show the whole network">{ "Fit" }</button>
                <label class="check" title="Show the flows as curves from source to destination">
                    <input type="checkbox" checked={*show_flows} onchange={toggle_flows} data-testid="show-flows" />{ "Flows" }
                </label>
            </div>
            <div class="canvas-stage">
                <svg ref={svg} class={classes!("topology", format!("tool-{:?}", tool).to_lowercase())} data-testid="topology"
                    tabindex="0" role="application" aria-roledescription="network drawing"
                    aria-label="Network: arrows move between nodes and links, Enter selects, arrows move a selected node, Delete deletes"
                    aria-activedescendant={active}
                    viewBox={vb.clone()} data-viewbox={vb} preserveAspectRatio="xMidYMid meet"
                    onpointerdown={on_down} onpointermove={on_move} onpointerup={on_up} onpointercancel={on_cancel}
                    onpointerleave={on_leave} onkeydown={on_key}>
                    <rect class="canvas-bg" x={view.0.to_string()} y={view.1.to_string()} width={view.2.to_string()} height={view.3.to_string()} />
                    if s.nodes.is_empty() {
                        <text class="empty-hint" x={(view.0 + view.2 / 2.0).to_string()} y={(view.1 + view.3 / 2.0).to_string()} text-anchor="middle">
                            { "Drag a switch or a host here from the palette." }
                        </text>
                    }
                    { topology::draw(&s, &lay, spots_now, now.as_ref(), &decor) }
                    { preview_html }
                    // In a group that is always there: a list that changes length would make Yew rebuild its
                    // siblings (and the drawing would lose the keyboard's focus).
                    <g class="callout-slot">{ for callout }</g>
                </svg>
                <Legend groups={groups} />
                <div class="card-slot">{ for card }</div>
            </div>
        </div>
    }
}

/// The card over the drawing; a pinned one has a close button.
fn card_html(
    s: &Scenario,
    c: Card,
    frame: Option<&crate::run::Frame>,
    rect: (f64, f64, f64, f64),
    gestures: &Rc<RefCell<Gestures>>,
    redraw: &UseForceUpdateHandle,
) -> Html {
    let (title, lines) = figures(s, c.hit, frame);
    // Beside the pointer, inside the drawing.
    let (x, y) =
        ((c.x - rect.0 + 14.0).min(rect.2 - 260.0).max(4.0), (c.y - rect.1 + 14.0).min(rect.3 - 120.0).max(4.0));
    let close = {
        let (gestures, redraw) = (gestures.clone(), redraw.clone());
        Callback::from(move |_| {
            gestures.borrow_mut().close_card();
            redraw.force_update();
        })
    };
    html! {
        <div class={classes!("card", c.pinned.then_some("pinned"))} style={format!("left: {x:.0}px; top: {y:.0}px")}
            data-testid="card" role={if c.pinned { "dialog" } else { "tooltip" }} aria-label={title.clone()}>
            <div class="card-head">
                <strong>{ title }</strong>
                if c.pinned {
                    <button class="linklike" onclick={close} aria-label="Close" data-testid="card-close">{ "×" }</button>
                }
            </div>
            for l in lines {
                <p>{ l }</p>
            }
        </div>
    }
}
