//! The network canvas: the drawing, its toolbar and legend, and the card of what is hovered or tapped. Events go
//! through the gesture state machine (`gesture.rs`, fed by `canvas_input.rs`); the drawing is `topology.rs`. The
//! drawing is one tab stop; inside it the arrows move the focus between nodes and links.

use super::super::document::{use_doc, Action, Same};
use super::super::theme;
use super::canvas_input::{apply, handlers, hit_of, use_native_listeners, use_undo_keys, Feed};
use super::legend::Legend;
use super::live::use_live;
use super::live_layer;
use super::network::{self, Decor, Live};
use super::tools::CanvasTools;
use super::{HighlightCtx, LoadCtx};
use crate::card::figures;
use crate::edit::Selection;
use crate::gesture::{Card, Gestures, Input, NoScene, Preview, Scene};
use crate::held::Held;
use crate::scene::{
    all_in_view, buffer_spots, flow_curves, focus_items, highlight_points, hit_test_with, layout_open, link_ends,
    BufferSpot, Hit, Layout, Point,
};
use ibcc_core::scenario::Scenario;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use yew::prelude::*;

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

#[derive(Properties, PartialEq)]
pub struct CanvasProps {
    /// A drawing to look at, beside another view's results: no tools, no flows (the congestion impact view).
    #[prop_or_default]
    pub view_only: bool,
}

#[component]
pub fn Canvas(p: &CanvasProps) -> Html {
    let doc = use_doc();
    use_undo_keys(doc.dispatcher());
    let live = use_live();
    let held = super::use_held();
    let highlight = use_context::<HighlightCtx>();
    let svg = use_node_ref();
    let redraw = use_force_update();
    let show_flows = use_state(|| !p.view_only);
    let s = doc.scenario.clone();
    // The switches whose folded hosts are shown one by one (a large fabric's: `levels.rs`).
    let open = use_state(Vec::<usize>::new);
    let base = use_memo((Same(s.clone()), (*open).clone()), |(s, open)| layout_open(&s.0, open));
    let spots = use_memo((Same(s.clone()), Same(base.clone())), |(s, lay)| buffer_spots(&s.0, &lay.0));
    // A large network's live marks are painted on a canvas layer (`live_layer.rs`), from this geometry.
    let layered = live_layer::layered(&s, &base);
    // Bundles of parallel cables all of one size, said once in the legend (`scene::uniform_bundles`).
    let bundles =
        use_memo(Same(s.clone()), |s| crate::scene::uniform_bundles(&crate::scene::cable_groups(&link_ends(&s.0))));
    let geometry = use_memo((Same(s.clone()), Same(base.clone())), |(s, lay)| {
        let ends = link_ends(&s.0);
        let in_fold = network::fold_of_links(&ends, &lay.0);
        let segments = live_layer::segments(&lay.0, &ends, &in_fold);
        (ends, in_fold, flow_curves(&s.0, &lay.0), segments)
    });
    let link_ports = use_memo(Same(s.clone()), |s| Rc::new(ibcc_core::scenario::link_ports(&s.0)));
    let layer = use_node_ref();
    let theme = theme::use_theme();
    // The drawing's boxes, measured when it is resized (then the layer is repainted; the SVG rescales by itself),
    // and the stylesheet's colours, read once per theme.
    let boxes = use_mut_ref(live_layer::Boxes::default);
    let css = use_mut_ref(|| None::<(ibcc_view::palette::Theme, live_layer::Css)>);
    {
        let (svg, redraw, boxes) = (svg.clone(), redraw.clone(), boxes.clone());
        use_effect_with((), move |_| {
            let observer = svg.cast::<web_sys::Element>().and_then(|el| {
                let cb = Closure::<dyn FnMut()>::new({
                    let el = el.clone();
                    move || {
                        *boxes.borrow_mut() = live_layer::Boxes::of(&el);
                        redraw.force_update();
                    }
                });
                let ro = web_sys::ResizeObserver::new(cb.as_ref().unchecked_ref()).ok()?;
                ro.observe(&el);
                Some((ro, cb))
            });
            move || {
                if let Some((ro, _cb)) = observer {
                    ro.disconnect();
                }
            }
        });
    }
    let gestures = use_mut_ref(|| Gestures::new(base.view_box));
    {
        let mut g = gestures.borrow_mut();
        g.handle(Input::Fitted(base.view_box), &NoScene);
        g.follow_selection(hit_of(&s, doc.selection.as_ref()));
    }
    // A new network (a new document load) is shown whole, its hosts folded, and nothing of it has the keyboard's
    // focus (the old one's focused link or node would ring another of the new network's by its number).
    {
        let (gestures, redraw, open) = (gestures.clone(), redraw.clone(), open.clone());
        use_effect_with(doc.loads, move |_| {
            open.set(Vec::new());
            let mut g = gestures.borrow_mut();
            g.handle(Input::Fit, &NoScene);
            g.focus = None;
            drop(g);
            redraw.force_update();
        });
    }
    // Picking a folded host (its group on the drawing, a row of the flows table, the keyboard) opens its group.
    {
        let picked = match doc.selection.as_ref() {
            Some(Selection::Node(id)) => s.nodes.iter().position(|n| n.id == *id),
            _ => None,
        };
        let (open, base) = (open.clone(), base.clone());
        use_effect_with(picked, move |picked| {
            if let Some(f) = picked.and_then(|i| base.folds.iter().find(|f| f.hosts.contains(&i))) {
                let mut next = (*open).clone();
                next.push(f.switch);
                open.set(next);
            }
        });
    }
    // What a lesson step points at comes into view: the whole network again if the zoom hides it, and the drawing
    // scrolled onto the screen.
    {
        let (gestures, redraw, svg, s, base) = (gestures.clone(), redraw.clone(), svg.clone(), s.clone(), base.clone());
        let hl = highlight.as_ref().and_then(|h| (**h).clone());
        use_effect_with(hl, move |hl| {
            let points = hl.as_ref().map(|h| highlight_points(&s, &base, h)).unwrap_or_default();
            if !points.is_empty() {
                let hidden = !all_in_view(gestures.borrow().view(), &points);
                if hidden {
                    gestures.borrow_mut().handle(Input::Fit, &NoScene);
                    redraw.force_update();
                }
                if let Some(el) = svg.cast::<web_sys::Element>() {
                    super::scroll_into_view(&el);
                }
            }
        });
    }
    // Each event: the drawing's box, the scene, the machine, the effects.
    // (The congestion impact view draws the network alone, with GPCNeT's routes: not the playground's last run.)
    let drawable = || if p.view_only { None } else { live.drawable(&doc.scenario) };
    let drawn = drawable().is_some();
    let feed: Feed = {
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
            let (effects, new_tool) = {
                let mut g = gestures.borrow_mut();
                if let Some(el) = svg.cast::<web_sys::Element>() {
                    let r = el.get_bounding_client_rect();
                    g.handle(Input::Placed(r.left(), r.top(), r.width(), r.height()), &NoScene);
                }
                // Buffers are drawn (and so can be pointed at) only while there is a run to show.
                let spots: &[BufferSpot] = if drawn { &spots } else { &[] };
                let before = g.tool;
                let effects = g.handle(input, &Drawing { s: &s, lay: &base, spots, show_flows: show });
                (effects, g.tool != before)
            };
            apply(effects, &s, &d, &svg, &redraw);
            // (A tool chosen changes nothing drawn, but the toolbar shows which one is in use.)
            if new_tool {
                redraw.force_update();
            }
        })
    };
    // The listeners set by hand live across renders and call the latest feed.
    let feed_ref: Rc<RefCell<Feed>> = use_mut_ref(|| Rc::new(|_: Input| {}) as Feed);
    *feed_ref.borrow_mut() = feed.clone();
    use_native_listeners(svg.clone(), feed_ref, gestures.clone());
    let on = handlers(&feed, &svg);
    let (undo, redo) = {
        let (u, r) = (doc.dispatcher(), doc.dispatcher());
        (Callback::from(move |_| u.dispatch(Action::Undo)), Callback::from(move |_| r.dispatch(Action::Redo)))
    };
    let toggle_flows = {
        let show_flows = show_flows.clone();
        Callback::from(move |_| show_flows.set(!*show_flows))
    };

    let g = gestures.borrow();
    let view = g.view();
    // A node being dragged is drawn where it is now, with its links and buffers.
    let mut lay = (*base).clone();
    let moving = if let Some(Preview::Moving(i, at)) = g.preview {
        if let Some(pos) = lay.positions.get_mut(i) {
            *pos = at;
        }
        Some(buffer_spots(&s, &lay))
    } else {
        None
    };
    let frame = drawable();
    let paths = live.paths.clone();
    let now = frame.map(|f| Live {
        snapshot: &f.frame.snapshot,
        tree: &f.frame.tree,
        recent_marks: &f.frame.recent_marks,
        paths: paths.as_deref().map(Vec::as_slice),
    });
    let hl = highlight.as_ref().and_then(|h| (**h).clone());
    // A pattern's routes are drawn on their own network until a run is under way (then its rates are), unless they
    // are to be shown always.
    let running = frame.is_some_and(|f| f.frame.snapshot.time_ns > 0.0);
    let answered = use_context::<LoadCtx>().and_then(|c| (*c).clone()).filter(|l| Rc::ptr_eq(&l.on, &doc.scenario));
    // A cycle to follow round: the deadlock of the run drawn, else a credit loop the check found (kept over a run).
    let cycle: Option<Rc<[u32]>> = frame
        .and(live.results.as_ref())
        .and_then(|r| r.deadlock.as_ref())
        .map(|d| d.channels.as_slice().into())
        .or_else(|| answered.as_ref().and_then(|l| l.cycle.clone()));
    let shown = answered.filter(|l| l.always || !running);
    // Zoomed in to a third of the whole drawing or closer, every link end is labelled with its port number, the
    // labels about 12 screen pixels high whatever the zoom.
    // The width the view takes on screen: the drawing's, or less where its height limits it (`meet`: a ring in a
    // wide, short panel), so that labels keep their size in pixels either way.
    let content_w = {
        let (_, _, w, h) = boxes.borrow().content;
        if view.3 > 0.0 {
            w.min(h * view.2 / view.3)
        } else {
            w
        }
    };
    let port_size = (view.2 <= base.view_box.2 / PORTS_ZOOM && content_w > 0.0).then(|| 12.0 * view.2 / content_w);
    let ports = port_size.map(|size| ((*link_ports).clone(), (size * 4.0).round() / 4.0));
    let label_size = crate::labels::size(view.2, content_w);
    let decor = Decor {
        selection: doc.selection.as_ref(),
        focus: g.focus,
        highlight: hl.as_ref(),
        show_flows: *show_flows,
        load: shown.as_ref().map(|l| (&*l.load, l.counted)),
        cycle: cycle.as_deref(),
        ports: ports.as_ref().map(|(p, size)| (&p[..], *size)),
        label_size,
    };
    let card_now = frame.zip(live.results.as_deref()).map(|(f, r)| (&f.frame, r));
    let show = use_context::<super::ShowCtx>();
    let close_card = {
        let (gestures, redraw) = (gestures.clone(), redraw.clone());
        Callback::from(move |_: MouseEvent| {
            gestures.borrow_mut().close_card();
            redraw.force_update();
        })
    };
    let card = g.card.map(|c| card_html(&s, c, card_now, g.rect(), close_card, &held, show.as_ref()));
    let active = g.focus.and_then(|h| match h {
        Hit::Node(i) => Some(format!("item-node-{i}")),
        Hit::Link(i) => Some(format!("item-link-{i}")),
        _ => None,
    });
    // What the keyboard's focus is on, for screen readers (activedescendant alone is seldom announced here).
    let announce = g.focus.map_or_else(String::new, |h| {
        let (mut text, lines) = figures(&s, h, None);
        if let Some(first) = lines.first() {
            text = format!("{text}, {first}");
        }
        if g.selected == Some(h) {
            text += ", selected: its settings are in the Selection tab";
        }
        text
    });
    let vb = format!("{:.1} {:.1} {:.1} {:.1}", view.0, view.1, view.2, view.3);
    // Layered: the SVG keeps what stays put between frames (re-rendered only when that changes), and the canvas
    // under it is repainted after this render.
    // A node being dragged moves the layered drawing's layout too (its lanes and buffers and flows with it).
    let moved = moving.as_ref().filter(|_| layered).map(|sp| {
        let lay = Rc::new(lay.clone());
        let curves = flow_curves(&s, &lay);
        let segments = live_layer::segments(&lay, &geometry.0, &geometry.1);
        (lay, Rc::new(sp.clone()), curves, segments)
    });
    let drawing = if layered {
        let lay = moved.as_ref().map_or_else(|| base.clone(), |(lay, ..)| lay.clone());
        html! {
            <network::Still s={s.clone()} lay={lay} selection={doc.selection.clone()} focus={g.focus} highlight={hl.clone()}
                load={shown.as_ref().map(|l| (l.load.clone(), l.counted))} cycle={cycle.clone()} ports={ports.clone()} {label_size} />
        }
    } else {
        network::draw(&s, &lay, moving.as_deref().unwrap_or(&spots), now.as_ref(), &decor, false)
    };
    // After the DOM is updated (the canvas is there, at its size): the layer, painted from owned copies.
    {
        let (layer, svg, s, base, spots, geometry) =
            (layer.clone(), svg.clone(), s.clone(), base.clone(), spots.clone(), geometry.clone());
        let frame = frame.cloned();
        let paths = paths.clone();
        let (selection, focus, highlight, show_flows) = (doc.selection.clone(), g.focus, hl.clone(), *show_flows);
        let load = shown.as_ref().map(|l| (l.load.clone(), l.counted));
        let (boxes, css) = (boxes.clone(), css.clone());
        use_effect(move || {
            let (Some(canvas), Some(el)) = (layer.cast::<web_sys::HtmlCanvasElement>(), svg.cast::<web_sys::Element>())
            else {
                return;
            };
            let mut css = css.borrow_mut();
            if css.as_ref().is_none_or(|(t, _)| *t != theme) {
                *css = Some((theme, live_layer::Css::read(&el)));
            }
            let Some((_, css)) = css.as_ref() else { return };
            let (ends, in_fold, curves, segments) = &*geometry;
            let (lay, spots, curves, segments): (&Layout, &[BufferSpot], &[_], &[_]) = match &moved {
                Some((lay, spots, curves, segments)) => (lay, spots, curves, segments),
                None => (&base, &spots, curves, segments),
            };
            let geo = live_layer::Geometry { s: &s, lay, ends, in_fold, spots, curves, segments };
            let now = frame.as_ref().map(|f| Live {
                snapshot: &f.frame.snapshot,
                tree: &f.frame.tree,
                recent_marks: &f.frame.recent_marks,
                paths: paths.as_deref().map(Vec::as_slice),
            });
            let decor = Decor {
                selection: selection.as_ref(),
                focus,
                highlight: highlight.as_ref(),
                show_flows,
                load: load.as_ref().map(|(l, counted)| (&**l, *counted)),
                // (The SVG draws a cycle's arrows, and labels the ports and nodes: the canvas paints none of them.)
                cycle: None,
                ports: None,
                label_size: crate::labels::BASE,
            };
            live_layer::paint(&canvas, *boxes.borrow(), css, view, &geo, now.as_ref(), &decor, theme);
        });
    }
    html! {
        <div class="canvas-panel" data-testid="canvas-panel">
            if !p.view_only {
                <CanvasTools feed={feed.clone()} tool={g.tool} can_undo={doc.history.can_undo()} can_redo={doc.history.can_redo()}
                    on_undo={undo} on_redo={redo} show_flows={*show_flows} on_flows={toggle_flows} />
            }
            <div class="canvas-stage">
              <div class="drawing">
                if layered {
                    <canvas ref={layer} class="live-layer" aria-hidden="true" data-testid="live-layer" />
                }
                <svg ref={svg} class={classes!("topology", format!("tool-{:?}", g.tool).to_ascii_lowercase(), layered.then_some("layered"))} data-testid="topology"
                    tabindex="0" role="application" aria-roledescription="network drawing"
                    aria-label="Network: arrows move between nodes and links, Enter selects, arrows move a selected node, Delete deletes"
                    aria-activedescendant={active} viewBox={vb.clone()} data-viewbox={vb} preserveAspectRatio="xMidYMid meet"
                    onpointerdown={on.down} onpointermove={on.moved} onpointerup={on.up} onpointercancel={on.cancel}
                    onpointerleave={on.leave} onkeydown={on.key}>
                    <rect class="canvas-bg" x={view.0.to_string()} y={view.1.to_string()} width={view.2.to_string()} height={view.3.to_string()} />
                    if s.nodes.is_empty() {
                        <text class="empty-hint" x={(view.0 + view.2 / 2.0).to_string()} y={(view.1 + view.3 / 2.0).to_string()} text-anchor="middle">
                            { "Drag a switch or a host here from the palette." }
                        </text>
                    }
                    { drawing }
                    { preview(g.preview, &lay) }
                    // In a group that is always there: a list that changes length would make Yew rebuild its
                    // siblings (and the drawing would lose the keyboard's focus).
                    <g class="callout-slot">{ callout(&doc, view, g.rect().2) }</g>
                </svg>
              </div>
                <p class="visually-hidden" role="status" aria-live="polite" data-testid="canvas-announce">{ announce }</p>
                // (It lists what the drawing shows: no flows' colours where the flows are not drawn.)
                <Legend groups={if *show_flows { network::groups(&s) } else { Vec::new() }} vls={s.data_vls()} routes={shown.is_some()}
                    cycle={cycle.is_some()} run={now.is_some()} bundles={*bundles} />
                <div class="card-slot">{ for card }</div>
            </div>
        </div>
    }
}

/// What a gesture under way shows: a node from the palette, or the line being drawn.
fn preview(p: Option<Preview>, lay: &Layout) -> Html {
    match p {
        Some(Preview::Ghost(kind, (x, y))) => html! { <g class="ghost">{ network::node_shape(kind, x, y) }</g> },
        Some(Preview::Rubber(from, (x, y))) => {
            let (fx, fy) = lay.positions.get(from).copied().unwrap_or((x, y));
            html! { <line class="rubber" x1={fx.to_string()} y1={fy.to_string()} x2={x.to_string()} y2={y.to_string()} data-testid="rubber-band" /> }
        }
        _ => html! {},
    }
}

/// How far in from the whole drawing the port numbers are shown.
const PORTS_ZOOM: f64 = 3.0;

/// A message next to where an edit was tried, drawn at a constant size whatever the zoom.
fn callout(doc: &super::super::document::Doc, view: (f64, f64, f64, f64), pixels_wide: f64) -> Html {
    let Some((m, (x, y))) = doc.message.as_ref().and_then(|m| m.at.map(|at| (m, at))) else { return html! {} };
    // View units per pixel of the drawing as it is on the page (a tablet's drawing is half a desktop's; before the
    // drawing has been measured, a desktop's).
    let scale = view.2 / if pixels_wide > 1.0 { pixels_wide } else { 1000.0 };
    let width = 7.2 * m.text.chars().count() as f64 + 16.0;
    // Kept inside the drawing: a long message near its right edge starts further left.
    let x = x.min(view.0 + view.2 - (width - 4.0) * scale).max(view.0 + 8.0 * scale);
    html! {
        <g class={classes!("callout", m.refused.then_some("refused"))} data-testid="canvas-callout"
            transform={format!("translate({x:.1},{:.1}) scale({scale:.3})", y - 30.0 * scale)}>
            <rect x="-8" y="-18" width={format!("{width:.0}")} height="26" rx="4" />
            <text x="0" y="0">{ &m.text }</text>
        </g>
    }
}

/// The card over the drawing; a pinned one has a close button.
fn card_html(
    s: &Scenario,
    c: Card,
    shown: Option<(&crate::session::Frame, &ibcc_core::sim::Results)>,
    rect: (f64, f64, f64, f64),
    // Closes a pinned card.
    close: Callback<MouseEvent>,
    // What an open exercise holds back: the links and groups that would give its value away.
    held: &Held,
    // Shows a phone's other views (the selection's editor).
    show: Option<&super::ShowCtx>,
) -> Html {
    let (title, mut lines) = figures(s, c.hit, shown);
    // What an open exercise asks for stays out of the card too: the flows of its group (their rates add up to it),
    // or the lines of the links that would give it away.
    match c.hit {
        Hit::Flow(i) if s.flows.get(i).is_some_and(|f| held.groups.contains(&f.group)) => {
            lines.retain(|l| !l.starts_with("rate limit") && !l.starts_with("throughput"));
            lines.push(format!("its rate: {}", super::HIDDEN));
        }
        Hit::Link(_) => {
            for link in &held.links {
                for l in lines.iter_mut().filter(|l| l.starts_with(&format!("{link}:"))) {
                    *l = format!("{link}: {}", super::HIDDEN);
                }
            }
        }
        _ => {}
    }
    // Beside the pointer, inside the drawing.
    let (x, y) =
        ((c.x - rect.0 + 14.0).min(rect.2 - 260.0).max(4.0), (c.y - rect.1 + 14.0).min(rect.3 - 120.0).max(4.0));
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
            if let (true, Some(show), false) = (c.pinned, show, matches!(c.hit, Hit::Buffer(_))) {
                <button class="phone-only" onclick={show.reform(|_| super::PhoneView::Selected)} data-testid="card-edit">{ "Edit…" }</button>
            }
        </div>
    }
}
