//! The editing canvas: the network drawn live, and edited with the pointer. Drag a switch or a host from the palette
//! onto the canvas; with the Select tool drag a node to move it, click a node, link or flow to select it, drag the
//! background to pan; with the Link tool drag from one node to another; with the Flow tool drag from a source host to
//! a destination host. The wheel (or the buttons) zooms. Edits go to the document, which refuses invalid ones with a
//! message shown next to where they were tried.

use super::document::{Action, Doc, Message};
use super::topology::{self, Live};
use crate::congestion::Tree;
use crate::edit::{self, Selection};
use crate::lessons::Highlight;
use crate::view_model::{client_to_view, hit_test, layout, zoom_box, Hit};
use gloo_events::{EventListener, EventListenerOptions};
use ibcc_core::scenario::{NodeKind, Scenario};
use ibcc_core::sim::{Results, Snapshot};
use std::rc::Rc;
use wasm_bindgen::JsCast;
use yew::prelude::*;

type ViewBox = (f64, f64, f64, f64);

/// The run's present, when the drawing matches the run.
#[derive(Clone, PartialEq)]
pub struct LiveData {
    pub snapshot: Rc<Snapshot>,
    pub tree: Rc<Tree>,
    pub recent_marks: Rc<Vec<u64>>,
    pub results: Rc<Results>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tool {
    Select,
    Link,
    Flow,
}

/// A pointer gesture under way.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Drag {
    Palette(NodeKind),
    Move { node: usize, start: (f64, f64), moved: bool },
    Connect { from: usize },
    Pan { start: (f64, f64), view: ViewBox, moved: bool },
}

/// What the gesture shows while it goes on.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Preview {
    Ghost(NodeKind, (f64, f64)),
    Moving(usize, (f64, f64)),
    Rubber(usize, (f64, f64)),
}

#[derive(Properties, PartialEq)]
pub struct CanvasProps {
    pub scenario: Rc<Scenario>,
    pub selection: Option<Selection>,
    pub message: Option<Message>,
    pub live: Option<LiveData>,
    pub dispatch: UseReducerDispatcher<Doc>,
    pub can_undo: bool,
    pub can_redo: bool,
    /// What a lesson step points at.
    #[prop_or_default]
    pub highlight: Option<Highlight>,
}

/// The SVG's box on the page: left, top, width, height.
fn rect_of(svg: &NodeRef) -> Option<(f64, f64, f64, f64)> {
    let r = svg.cast::<web_sys::Element>()?.get_bounding_client_rect();
    Some((r.left(), r.top(), r.width(), r.height()))
}

fn dist(a: (f64, f64), b: (f64, f64)) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

#[component]
pub fn Canvas(p: &CanvasProps) -> Html {
    let svg = use_node_ref();
    let tool = use_state(|| Tool::Select);
    let show_flows = use_state(|| true);
    // `None`: fit the network. Fixed on the first gesture, so editing does not make the view jump.
    let camera = use_state(|| None::<ViewBox>);
    let drag = use_mut_ref(|| None::<Drag>);
    let preview = use_state(|| None::<Preview>);

    let base = use_memo(p.scenario.clone(), |s| layout(s));
    let view: ViewBox = camera.unwrap_or(base.view_box);
    // The wheel listener lives across renders and reads the view from here.
    let current_view = use_mut_ref(|| view);
    *current_view.borrow_mut() = view;
    let mut lay = (*base).clone();
    if let Some(Preview::Moving(i, at)) = *preview {
        if let Some(pos) = lay.positions.get_mut(i) {
            *pos = at;
        }
    }

    // Zoom with the wheel about the pointer. Yew's wheel listeners are passive, so the page would scroll too: this
    // one is registered by hand to be allowed to prevent that.
    {
        let (svg, camera, current_view) = (svg.clone(), camera.clone(), current_view.clone());
        use_effect_with((), move |_| {
            let listener = svg.cast::<web_sys::Element>().map(|el| {
                let target = el.clone();
                EventListener::new_with_options(
                    &el,
                    "wheel",
                    EventListenerOptions::enable_prevent_default(),
                    move |e| {
                        let Some(w) = e.dyn_ref::<WheelEvent>() else { return };
                        e.prevent_default();
                        let r = target.get_bounding_client_rect();
                        let vb = *current_view.borrow();
                        let at = client_to_view(
                            (r.left(), r.top(), r.width(), r.height()),
                            vb,
                            f64::from(w.client_x()),
                            f64::from(w.client_y()),
                        );
                        let factor = if w.delta_y() < 0.0 { 1.15 } else { 1.0 / 1.15 };
                        camera.set(Some(zoom_box(vb, factor, at)));
                    },
                )
            });
            move || drop(listener)
        });
    }

    let to_view = {
        let svg = svg.clone();
        move |e: &MouseEvent| {
            rect_of(&svg).map(|r| client_to_view(r, view, f64::from(e.client_x()), f64::from(e.client_y())))
        }
    };

    let on_down = {
        let (to_view, drag, preview, camera, tool, show_flows, svg_el) =
            (to_view.clone(), drag.clone(), preview.clone(), camera.clone(), *tool, *show_flows, svg.clone());
        let (s, lay, dispatch) = (p.scenario.clone(), lay.clone(), p.dispatch.clone());
        Callback::from(move |e: PointerEvent| {
            if e.button() != 0 {
                return;
            }
            let Some(at) = to_view(&e) else { return };
            if camera.is_none() {
                camera.set(Some(view));
            }
            // Keep the gesture's events coming to the canvas when the pointer leaves it. (Yew delegates events, so
            // the event's current target is not the SVG: capture on the SVG itself.)
            if let Some(el) = svg_el.cast::<web_sys::Element>() {
                let _ = el.set_pointer_capture(e.pointer_id());
            }
            let gesture = match (tool, hit_test(&s, &lay, at, show_flows)) {
                (Tool::Select, Some(Hit::Node(i))) => Some(Drag::Move { node: i, start: at, moved: false }),
                (_, Some(Hit::Node(i))) => {
                    preview.set(Some(Preview::Rubber(i, at)));
                    Some(Drag::Connect { from: i })
                }
                (_, Some(Hit::Link(i))) => {
                    dispatch.dispatch(Action::Select(Some(Selection::Link(i))));
                    None
                }
                (_, Some(Hit::Flow(i))) => {
                    dispatch.dispatch(Action::Select(Some(Selection::Flow(s.flows[i].id.clone()))));
                    None
                }
                (_, None) => {
                    Some(Drag::Pan { start: (f64::from(e.client_x()), f64::from(e.client_y())), view, moved: false })
                }
            };
            *drag.borrow_mut() = gesture;
        })
    };

    let on_move = {
        let (to_view, drag, preview, camera, svg) =
            (to_view.clone(), drag.clone(), preview.clone(), camera.clone(), svg.clone());
        Callback::from(move |e: PointerEvent| {
            let Some(at) = to_view(&e) else { return };
            let mut d = drag.borrow_mut();
            match d.as_mut() {
                Some(Drag::Palette(kind)) => {
                    if e.buttons() == 0 {
                        // Released outside the canvas: the drag is over.
                        *d = None;
                        preview.set(None);
                    } else {
                        preview.set(Some(Preview::Ghost(*kind, at)));
                    }
                }
                Some(Drag::Move { node, start, moved }) => {
                    *moved |= dist(at, *start) > 3.0;
                    if *moved {
                        preview.set(Some(Preview::Moving(*node, at)));
                    }
                }
                Some(Drag::Connect { from }) => preview.set(Some(Preview::Rubber(*from, at))),
                Some(Drag::Pan { start, view: v0, moved }) => {
                    let Some((_, _, w, h)) = rect_of(&svg) else { return };
                    let (dx, dy) = (f64::from(e.client_x()) - start.0, f64::from(e.client_y()) - start.1);
                    *moved |= dx.abs() + dy.abs() > 3.0;
                    if *moved {
                        let scale = (v0.2 / w).max(v0.3 / h);
                        camera.set(Some((v0.0 - dx * scale, v0.1 - dy * scale, v0.2, v0.3)));
                    }
                }
                None => {}
            }
        })
    };

    let on_up = {
        let (to_view, drag, preview, tool, show_flows) =
            (to_view.clone(), drag.clone(), preview.clone(), *tool, *show_flows);
        let (s, lay, dispatch) = (p.scenario.clone(), lay.clone(), p.dispatch.clone());
        Callback::from(move |e: PointerEvent| {
            let gesture = drag.borrow_mut().take();
            preview.set(None);
            let Some(at) = to_view(&e) else { return };
            match gesture {
                Some(Drag::Palette(kind)) => match edit::add_node(&s, kind, at.0.round(), at.1.round()) {
                    Ok((next, id)) => dispatch.dispatch(Action::Edit {
                        next: Box::new(next),
                        select: Some(Selection::Node(id)),
                        note: None,
                    }),
                    Err(r) => dispatch.dispatch(Action::Refuse { text: r.0, at: Some(at) }),
                },
                Some(Drag::Move { node, moved, .. }) => {
                    let id = s.nodes[node].id.clone();
                    if moved {
                        let next = edit::move_node(&s, &id, at.0.round(), at.1.round());
                        dispatch.dispatch(Action::Edit {
                            next: Box::new(next),
                            select: Some(Selection::Node(id)),
                            note: None,
                        });
                    } else {
                        dispatch.dispatch(Action::Select(Some(Selection::Node(id))));
                    }
                }
                Some(Drag::Connect { from }) => {
                    let target = match hit_test(&s, &lay, at, show_flows) {
                        Some(Hit::Node(j)) => j,
                        _ => {
                            let text = String::from("Release over another node to connect it.");
                            return dispatch.dispatch(Action::Refuse { text, at: Some(at) });
                        }
                    };
                    let (a, b) = (&s.nodes[from].id, &s.nodes[target].id);
                    let made = if tool == Tool::Flow {
                        edit::add_flow(&s, a, b).map(|(next, id)| (next, Selection::Flow(id)))
                    } else {
                        edit::add_link(&s, a, b).map(|next| (next.clone(), Selection::Link(next.links.len() - 1)))
                    };
                    match made {
                        Ok((next, sel)) => {
                            dispatch.dispatch(Action::Edit { next: Box::new(next), select: Some(sel), note: None })
                        }
                        Err(r) => dispatch.dispatch(Action::Refuse { text: r.0, at: Some(at) }),
                    }
                }
                Some(Drag::Pan { moved: false, .. }) => dispatch.dispatch(Action::Select(None)),
                Some(Drag::Pan { .. }) | None => {}
            }
        })
    };

    let palette_down = |kind: NodeKind| {
        let drag = drag.clone();
        Callback::from(move |e: PointerEvent| {
            e.prevent_default();
            *drag.borrow_mut() = Some(Drag::Palette(kind));
        })
    };
    // A click (or Enter) on a palette item adds the node in the middle of the view.
    let palette_click = |kind: NodeKind| {
        let (drag, s, dispatch) = (drag.clone(), p.scenario.clone(), p.dispatch.clone());
        Callback::from(move |_: MouseEvent| {
            *drag.borrow_mut() = None;
            let centre = ((view.0 + view.2 / 2.0).round(), (view.1 + view.3 / 2.0).round());
            match edit::add_node(&s, kind, centre.0, centre.1) {
                Ok((next, id)) => dispatch.dispatch(Action::Edit {
                    next: Box::new(next),
                    select: Some(Selection::Node(id)),
                    note: None,
                }),
                Err(r) => dispatch.dispatch(Action::Refuse { text: r.0, at: None }),
            }
        })
    };
    let tool_button = |t: Tool, label: &'static str, key: &'static str, hint: &'static str| {
        let tool_h = tool.clone();
        html! {
            <button class={classes!("tool", (*tool == t).then_some("active"))} aria-pressed={(*tool == t).to_string()}
                title={hint} data-testid={format!("tool-{key}")} onclick={Callback::from(move |_| tool_h.set(t))}>
                { label }
            </button>
        }
    };
    let zoom = |factor: f64| {
        let camera = camera.clone();
        Callback::from(move |_| {
            camera.set(Some(zoom_box(view, factor, (view.0 + view.2 / 2.0, view.1 + view.3 / 2.0))))
        })
    };
    let fit = {
        let camera = camera.clone();
        Callback::from(move |_| camera.set(None))
    };
    let undo = {
        let d = p.dispatch.clone();
        Callback::from(move |_| d.dispatch(Action::Undo))
    };
    let redo = {
        let d = p.dispatch.clone();
        Callback::from(move |_| d.dispatch(Action::Redo))
    };
    let toggle_flows = {
        let show_flows = show_flows.clone();
        Callback::from(move |_| show_flows.set(!*show_flows))
    };

    let live = p.live.as_ref().map(|l| Live {
        snapshot: &l.snapshot,
        tree: &l.tree,
        recent_marks: &l.recent_marks,
        results: &l.results,
    });
    let preview_html = match *preview {
        Some(Preview::Ghost(kind, (x, y))) => match kind {
            NodeKind::Switch => html! {
                <rect class="ghost" x={(x - 22.0).to_string()} y={(y - 16.0).to_string()} width="44" height="32" rx="5" />
            },
            NodeKind::Host => html! { <circle class="ghost" cx={x.to_string()} cy={y.to_string()} r="13" /> },
        },
        Some(Preview::Rubber(from, (x, y))) => {
            let (fx, fy) = lay.positions.get(from).copied().unwrap_or((x, y));
            html! { <line class="rubber" x1={fx.to_string()} y1={fy.to_string()} x2={x.to_string()} y2={y.to_string()} data-testid="rubber-band" /> }
        }
        _ => html! {},
    };
    // A message next to where an edit was tried, drawn at a constant size whatever the zoom.
    let callout = p.message.as_ref().and_then(|m| m.at.map(|at| (m, at))).map(|(m, (x, y))| {
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
    let hint = match *tool {
        Tool::Select => "Drag nodes to move them, click to select, drag the background to pan, wheel to zoom.",
        Tool::Link => "Drag from one node to another to link them.",
        Tool::Flow => "Drag from a source host to a destination host to add a flow.",
    };

    html! {
        <div class="canvas-panel">
            <div class="canvas-tools" role="toolbar" aria-label="Canvas tools">
                <span class="palette" aria-label="Palette">
                    <button class="palette-item" data-testid="palette-switch" title="Drag onto the canvas (or press) to add a switch"
                        onpointerdown={palette_down(NodeKind::Switch)} onclick={palette_click(NodeKind::Switch)}>{ "▭ Switch" }</button>
                    <button class="palette-item" data-testid="palette-host" title="Drag onto the canvas (or press) to add a host"
                        onpointerdown={palette_down(NodeKind::Host)} onclick={palette_click(NodeKind::Host)}>{ "◯ Host" }</button>
                </span>
                { tool_button(Tool::Select, "Select", "select", "Select, move and pan") }
                { tool_button(Tool::Link, "Link", "link", "Drag from node to node to link them") }
                { tool_button(Tool::Flow, "Flow", "flow", "Drag from host to host to add a flow") }
                <button onclick={undo} disabled={!p.can_undo} data-testid="undo" title="Undo (Ctrl+Z)">{ "Undo" }</button>
                <button onclick={redo} disabled={!p.can_redo} data-testid="redo" title="Redo (Ctrl+Shift+Z)">{ "Redo" }</button>
                <button onclick={zoom(1.25)} data-testid="zoom-in" aria-label="Zoom in">{ "+" }</button>
                <button onclick={zoom(0.8)} data-testid="zoom-out" aria-label="Zoom out">{ "−" }</button>
                <button onclick={fit} data-testid="zoom-fit">{ "Fit" }</button>
                <label class="check"><input type="checkbox" checked={*show_flows} onchange={toggle_flows} data-testid="show-flows" />{ "Flows" }</label>
            </div>
            <p class="hint" data-testid="canvas-hint">{ hint }</p>
            <svg ref={svg} class={classes!("topology", format!("tool-{:?}", *tool).to_lowercase())} data-testid="topology"
                role="img" aria-label="Network topology with live link rates"
                viewBox={format!("{:.1} {:.1} {:.1} {:.1}", view.0, view.1, view.2, view.3)}
                data-viewbox={format!("{:.1} {:.1} {:.1} {:.1}", view.0, view.1, view.2, view.3)}
                preserveAspectRatio="xMidYMid meet"
                onpointerdown={on_down} onpointermove={on_move} onpointerup={on_up}>
                <rect class="canvas-bg" x={view.0.to_string()} y={view.1.to_string()} width={view.2.to_string()} height={view.3.to_string()} />
                if p.scenario.nodes.is_empty() {
                    <text class="empty-hint" x={(view.0 + view.2 / 2.0).to_string()} y={(view.1 + view.3 / 2.0).to_string()} text-anchor="middle">
                        { "Drag a switch or a host here from the palette." }
                    </text>
                }
                { topology::draw(&p.scenario, &lay, live.as_ref(), p.selection.as_ref(), *show_flows, p.highlight.as_ref()) }
                { preview_html }
                { for callout }
            </svg>
            <ul class="legend" aria-label="Legend">
                <li><span class="swatch rate" />{ "width and colour: rate now (grey idle, blue to red full)" }</li>
                <li><span class="swatch blocked" />{ "dashed, amber: blocked, waiting for credit" }</li>
                <li><span class="swatch root" />{ "red halo: root of the congestion tree" }</li>
                <li><span class="swatch mark" />{ "dot: packets marked lately" }</li>
                <li><span class="swatch victim" />{ "purple flow: victim" }</li>
            </ul>
        </div>
    }
}

/// Keyboard shortcuts for the document (Delete, Ctrl+Z, Ctrl+Shift+Z, Ctrl+Y, Escape, arrows to move the selected
/// node), listened for on the whole page except while typing in a field.
#[hook]
pub fn use_edit_keys(dispatch: UseReducerDispatcher<Doc>) {
    use_effect_with((), move |_| {
        let listener = web_sys::window().and_then(|w| w.document()).map(|doc| {
            // Not passive (gloo's default): Ctrl+Z and Backspace must not reach the browser.
            EventListener::new_with_options(&doc, "keydown", EventListenerOptions::enable_prevent_default(), move |e| {
                let Some(k) = e.dyn_ref::<KeyboardEvent>() else { return };
                let typing = k
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| matches!(el.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA"));
                if typing {
                    return;
                }
                let ctrl = k.ctrl_key() || k.meta_key();
                let key = k.key().to_lowercase();
                let step = if k.shift_key() { 50.0 } else { 10.0 };
                let action = match key.as_str() {
                    "delete" | "backspace" if !ctrl => Some(Action::DeleteSelected),
                    "z" if ctrl && k.shift_key() => Some(Action::Redo),
                    "z" if ctrl => Some(Action::Undo),
                    "y" if ctrl => Some(Action::Redo),
                    "escape" => Some(Action::Select(None)),
                    "arrowleft" if !ctrl => Some(Action::Nudge(-step, 0.0)),
                    "arrowright" if !ctrl => Some(Action::Nudge(step, 0.0)),
                    "arrowup" if !ctrl => Some(Action::Nudge(0.0, -step)),
                    "arrowdown" if !ctrl => Some(Action::Nudge(0.0, step)),
                    _ => None,
                };
                if let Some(a) = action {
                    k.prevent_default();
                    dispatch.dispatch(a);
                }
            })
        });
        move || drop(listener)
    });
}
