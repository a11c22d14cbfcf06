//! The canvas's gestures as data: pointer (mouse, pen, touch), wheel and keyboard events go in, effects come out
//! (move the camera, select, move a node, draw a link or a flow, show a card). The component only feeds events and
//! carries out the effects, so the whole behaviour is tested natively.
//!
//! Touch follows what maps in a page do: one finger on a node drags it (or, with the Link or Flow tool, draws from
//! it); one finger on anything else belongs to the page, which scrolls (the drawing leaves that gesture to the
//! browser, and a tap without moving shows the card of what was tapped); two fingers pinch to zoom and move to pan.
//! The mouse drags nodes, draws with the tools and pans on empty space; hovering shows a card, the wheel zooms.
//! With the keyboard, the drawing is one tab stop: arrows move the focus between nodes and links (or move the
//! selected node), Enter selects, Delete deletes, Escape lets go, + and - zoom.

use crate::scene::{client_to_view, navigate, zoom_box, Hit, Point};
use ibcc_core::scenario::NodeKind;

/// `(x, y, width, height)` of the part of the network shown.
pub type ViewBox = (f64, f64, f64, f64);

/// What the canvas needs to know about the drawing to interpret a gesture.
pub trait Scene {
    /// What is drawn at view point `p`.
    fn hit(&self, p: Point) -> Option<Hit>;
    /// Nodes and links in focus order, with where they are.
    fn items(&self) -> Vec<(Hit, Point)>;
}

/// A scene with nothing in it, for the inputs that need none (the view's size, fitting it).
#[derive(Debug, Clone, Copy)]
pub struct NoScene;

impl Scene for NoScene {
    fn hit(&self, _p: Point) -> Option<Hit> {
        None
    }
    fn items(&self) -> Vec<(Hit, Point)> {
        Vec::new()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Select,
    Link,
    Flow,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointerKind {
    Mouse,
    Pen,
    Touch,
}

/// A pointer event, in page (client) pixels.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Pointer {
    pub id: i32,
    pub kind: PointerKind,
    pub x: f64,
    pub y: f64,
    /// The main button (or a touch) is pressed.
    pub pressed: bool,
}

/// What happens on the canvas.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    Down(Pointer),
    Move(Pointer),
    Up(Pointer),
    /// The browser took the pointer (it scrolls the page) or it went away.
    Cancel(i32),
    /// The mouse left the drawing.
    Leave,
    Wheel {
        x: f64,
        y: f64,
        delta_y: f64,
    },
    /// A node kind picked up from the palette (dragged onto the drawing, or dropped at its centre by a click).
    Palette(NodeKind),
    PaletteClick(NodeKind),
    Key {
        key: String,
        shift: bool,
    },
    Tool(Tool),
    Zoom(f64),
    /// Show the whole network.
    Fit,
    /// The view that shows the whole network (its layout changed).
    Fitted(ViewBox),
    /// Where the drawing is on the page: left, top, width, height.
    Placed(f64, f64, f64, f64),
}

/// What a gesture shows while it goes on.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Preview {
    Ghost(NodeKind, Point),
    Moving(usize, Point),
    Rubber(usize, Point),
}

/// A card with the figures of what is under the pointer or was tapped; `pinned` cards stay until closed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Card {
    pub hit: Hit,
    /// Where to show it, in page pixels.
    pub x: f64,
    pub y: f64,
    pub pinned: bool,
}

/// What the component does.
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    Camera(Option<ViewBox>),
    Preview(Option<Preview>),
    Select(Option<Hit>),
    Focus(Option<Hit>),
    Card(Option<Card>),
    /// Keep this pointer's events coming to the drawing while it is pressed.
    Capture(i32),
    AddNode(NodeKind, Point),
    MoveNode(usize, Point),
    /// Draw a link or a flow (by the tool) from node `from` to what is at `at` (`to`, if a node).
    Connect {
        from: usize,
        to: Option<usize>,
        at: Point,
        tool: Tool,
    },
    Nudge(f64, f64),
    Delete,
    /// Show what was selected (chosen from the keyboard, which has no hover card).
    Show(Hit),
}

/// A pointer gesture under way.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Drag {
    Palette(NodeKind),
    Node {
        node: usize,
        from: Point,
        moved: bool,
    },
    Connect {
        from: usize,
    },
    Pan {
        from: Point,
        view: ViewBox,
        moved: bool,
    },
    /// A touch or click on something other than a node: a tap if it does not move.
    Press {
        hit: Option<Hit>,
        from: Point,
        kind: PointerKind,
    },
    Pinch {
        a: (i32, Point),
        b: (i32, Point),
        view: ViewBox,
    },
}

/// A key the drawing takes when it has the keyboard's focus (others are left to the page).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Key {
    Arrow(i8, i8),
    Select,
    Delete,
    Escape,
    ZoomIn,
    ZoomOut,
}

impl Key {
    /// The key a `KeyboardEvent.key` names, if the drawing takes it.
    pub fn parse(key: &str) -> Option<Key> {
        Some(match key {
            "ArrowLeft" => Key::Arrow(-1, 0),
            "ArrowRight" => Key::Arrow(1, 0),
            "ArrowUp" => Key::Arrow(0, -1),
            "ArrowDown" => Key::Arrow(0, 1),
            "Enter" | " " => Key::Select,
            "Delete" | "Backspace" => Key::Delete,
            "Escape" => Key::Escape,
            "+" | "=" => Key::ZoomIn,
            "-" => Key::ZoomOut,
            _ => return None,
        })
    }
}

/// Whether the drawing takes this key when it has the keyboard's focus.
pub fn handles_key(key: &str) -> bool {
    Key::parse(key).is_some()
}

/// Pointer travel (page pixels) below which a press is a click or a tap.
pub const SLOP: f64 = 4.0;

/// The gesture state of one canvas.
#[derive(Debug, Clone, PartialEq)]
pub struct Gestures {
    pub tool: Tool,
    /// `None`: fit the network. An edit that changes the fitted box holds the view the user was looking at (a
    /// dropped node stays under the pointer, nothing placed moves); only Fit, or a new network, lets go.
    camera: Option<ViewBox>,
    /// The view when fitted.
    fitted: ViewBox,
    /// The drawing's box on the page: left, top, width, height.
    rect: (f64, f64, f64, f64),
    pub focus: Option<Hit>,
    pub selected: Option<Hit>,
    /// The arrows moved the focus after the last selection: Delete is about the focused item, not the selected.
    focus_moved: bool,
    pub card: Option<Card>,
    /// What the gesture under way shows.
    pub preview: Option<Preview>,
    drag: Option<Drag>,
    /// Touch points down now, with where they are.
    touches: Vec<(i32, Point)>,
    /// A link or flow begun by tapping (or clicking) a node with the Link or Flow tool: a tap on another node ends
    /// it there (a tablet's way to connect two nodes, as dragging is a mouse's).
    pending: Option<usize>,
}

fn dist(a: Point, b: Point) -> f64 {
    ((a.0 - b.0).powi(2) + (a.1 - b.1).powi(2)).sqrt()
}

impl Gestures {
    pub fn new(fitted: ViewBox) -> Self {
        Self {
            tool: Tool::Select,
            camera: None,
            fitted,
            rect: (0.0, 0.0, 1.0, 1.0),
            focus: None,
            selected: None,
            focus_moved: false,
            card: None,
            preview: None,
            drag: None,
            touches: Vec::new(),
            pending: None,
        }
    }

    /// The drawing's box on the page: left, top, width, height.
    pub fn rect(&self) -> (f64, f64, f64, f64) {
        self.rect
    }

    /// The part of the network shown.
    pub fn view(&self) -> ViewBox {
        self.camera.unwrap_or(self.fitted)
    }

    /// Page point to view point.
    pub fn to_view(&self, x: f64, y: f64) -> Point {
        client_to_view(self.rect, self.view(), x, y)
    }

    /// A gesture that moves a node, draws or pans is under way (the page should not scroll).
    pub fn busy(&self) -> bool {
        matches!(self.drag, Some(Drag::Node { .. } | Drag::Connect { .. } | Drag::Pan { .. } | Drag::Pinch { .. }))
            || self.touches.len() >= 2
    }

    fn set_camera(&mut self, v: ViewBox, out: &mut Vec<Effect>) {
        self.camera = Some(v);
        out.push(Effect::Camera(Some(v)));
    }

    fn set_preview(&mut self, p: Option<Preview>, out: &mut Vec<Effect>) {
        self.preview = p;
        out.push(Effect::Preview(p));
    }

    fn set_card(&mut self, card: Option<Card>, out: &mut Vec<Effect>) {
        if self.card != card {
            self.card = card;
            out.push(Effect::Card(card));
        }
    }

    fn select(&mut self, hit: Option<Hit>, out: &mut Vec<Effect>) {
        self.selected = hit;
        self.focus_moved = false;
        out.push(Effect::Select(hit));
        if hit.is_some_and(|h| !matches!(h, Hit::Flow(_) | Hit::Buffer(_))) {
            self.focus = hit;
            out.push(Effect::Focus(hit));
        }
    }

    /// Feeds one event; returns what to do.
    pub fn handle(&mut self, input: Input, scene: &dyn Scene) -> Vec<Effect> {
        let mut out = Vec::new();
        match input {
            Input::Down(p) => self.down(p, scene, &mut out),
            Input::Move(p) => self.moved(p, scene, &mut out),
            Input::Up(p) => self.up(p, scene, &mut out),
            Input::Cancel(id) => {
                self.touches.retain(|t| t.0 != id);
                if self.drag.is_some() {
                    self.drag = None;
                    self.set_preview(None, &mut out);
                }
            }
            Input::Leave => {
                if self.card.as_ref().is_some_and(|c| !c.pinned) {
                    self.set_card(None, &mut out);
                }
            }
            Input::Wheel { x, y, delta_y } => {
                let at = self.to_view(x, y);
                let factor = if delta_y < 0.0 { 1.15 } else { 1.0 / 1.15 };
                self.set_camera(zoom_box(self.view(), factor, at), &mut out);
            }
            Input::Palette(kind) => self.drag = Some(Drag::Palette(kind)),
            Input::PaletteClick(kind) => {
                self.drag = None;
                let v = self.view();
                out.push(Effect::AddNode(
                    kind,
                    free_spot(((v.0 + v.2 / 2.0).round(), (v.1 + v.3 / 2.0).round()), scene),
                ));
            }
            Input::Key { key, shift } => self.key(&key, shift, scene, &mut out),
            Input::Tool(t) => {
                self.tool = t;
                self.pending = None;
            }
            Input::Zoom(f) => {
                let v = self.view();
                self.set_camera(zoom_box(v, f, (v.0 + v.2 / 2.0, v.1 + v.3 / 2.0)), &mut out);
            }
            Input::Fit => {
                self.camera = None;
                out.push(Effect::Camera(None));
            }
            Input::Fitted(v) => {
                if self.camera.is_none() && v != self.fitted {
                    self.camera = Some(self.fitted);
                }
                self.fitted = v;
            }
            Input::Placed(left, top, width, height) => self.rect = (left, top, width.max(1.0), height.max(1.0)),
        }
        out
    }

    fn down(&mut self, p: Pointer, scene: &dyn Scene, out: &mut Vec<Effect>) {
        let at = self.to_view(p.x, p.y);
        if p.kind == PointerKind::Touch {
            self.touches.retain(|t| t.0 != p.id);
            self.touches.push((p.id, (p.x, p.y)));
            if self.touches.len() >= 2 {
                // A second finger: whatever the first began, this is a pinch now.
                let (a, b) = (self.touches[0], self.touches[1]);
                if matches!(self.drag, Some(Drag::Node { .. } | Drag::Connect { .. })) {
                    self.set_preview(None, out);
                }
                self.drag = Some(Drag::Pinch { a, b, view: self.view() });
                out.push(Effect::Capture(a.0));
                out.push(Effect::Capture(b.0));
                return;
            }
        } else if !p.pressed {
            return;
        }
        let hit = scene.hit(at);
        let drag = match (self.tool, hit) {
            (Tool::Select, Some(Hit::Node(node))) => Drag::Node { node, from: (p.x, p.y), moved: false },
            (_, Some(Hit::Node(from))) => {
                self.set_preview(Some(Preview::Rubber(from, at)), out);
                Drag::Connect { from }
            }
            // The mouse pans on empty space; a finger there scrolls the page (the browser's).
            (_, None) if p.kind != PointerKind::Touch => {
                Drag::Pan { from: (p.x, p.y), view: self.view(), moved: false }
            }
            (_, hit) => Drag::Press { hit, from: (p.x, p.y), kind: p.kind },
        };
        // A hover card describes what was under the pointer; a drag moves the view or the node away from it.
        if !matches!(drag, Drag::Press { .. }) && self.card.as_ref().is_some_and(|c| !c.pinned) {
            self.set_card(None, out);
        }
        if !matches!(drag, Drag::Press { kind: PointerKind::Touch, .. }) {
            out.push(Effect::Capture(p.id));
        }
        self.drag = Some(drag);
    }

    fn moved(&mut self, p: Pointer, scene: &dyn Scene, out: &mut Vec<Effect>) {
        let at = self.to_view(p.x, p.y);
        if let Some(t) = self.touches.iter_mut().find(|t| t.0 == p.id) {
            t.1 = (p.x, p.y);
        }
        match self.drag {
            Some(Drag::Palette(kind)) => {
                if p.pressed {
                    self.set_preview(Some(Preview::Ghost(kind, at)), out);
                } else {
                    // Released outside the drawing: the drag is over.
                    self.drag = None;
                    self.set_preview(None, out);
                }
            }
            Some(Drag::Node { node, from, moved }) => {
                let moved = moved || dist((p.x, p.y), from) > SLOP;
                self.drag = Some(Drag::Node { node, from, moved });
                if moved {
                    self.set_preview(Some(Preview::Moving(node, at)), out);
                }
            }
            Some(Drag::Connect { from }) => self.set_preview(Some(Preview::Rubber(from, at)), out),
            Some(Drag::Pan { from, view, moved }) => {
                let (dx, dy) = (p.x - from.0, p.y - from.1);
                let moved = moved || dx.abs() + dy.abs() > SLOP;
                self.drag = Some(Drag::Pan { from, view, moved });
                if moved {
                    let scale = (view.2 / self.rect.2).max(view.3 / self.rect.3);
                    self.set_camera((view.0 - dx * scale, view.1 - dy * scale, view.2, view.3), out);
                }
            }
            // Not a tap: a finger scrolls the page; a mouse press on a link or flow just ends.
            Some(Drag::Press { from, .. }) if dist((p.x, p.y), from) > SLOP => self.drag = None,
            Some(Drag::Press { .. }) => {}
            Some(Drag::Pinch { a, b, view }) => self.pinch(a, b, view, out),
            None if p.kind == PointerKind::Mouse && !p.pressed => {
                // Hover: the card of what is under the pointer (a pinned card stays).
                if self.card.is_some_and(|c| c.pinned) {
                    return;
                }
                let card = scene.hit(at).map(|hit| Card { hit, x: p.x, y: p.y, pinned: false });
                let same = card.map(|c| c.hit) == self.card.map(|c| c.hit);
                if !same || card.is_none() {
                    self.set_card(card, out);
                }
            }
            None => {}
        }
    }

    fn pinch(&mut self, a: (i32, Point), b: (i32, Point), view: ViewBox, out: &mut Vec<Effect>) {
        let now = |id: i32, was: Point| self.touches.iter().find(|t| t.0 == id).map_or(was, |t| t.1);
        let (a1, b1) = (now(a.0, a.1), now(b.0, b.1));
        let (d0, d1) = (dist(a.1, b.1).max(1.0), dist(a1, b1).max(1.0));
        let (m0, m1) = (((a.1 .0 + b.1 .0) / 2.0, (a.1 .1 + b.1 .1) / 2.0), ((a1.0 + b1.0) / 2.0, (a1.1 + b1.1) / 2.0));
        // Zoom about where the fingers started, then move with their midpoint.
        let about = client_to_view(self.rect, view, m0.0, m0.1);
        let zoomed = zoom_box(view, d1 / d0, about);
        let scale = (zoomed.2 / self.rect.2).max(zoomed.3 / self.rect.3);
        let v = (zoomed.0 - (m1.0 - m0.0) * scale, zoomed.1 - (m1.1 - m0.1) * scale, zoomed.2, zoomed.3);
        self.set_camera(v, out);
    }

    fn up(&mut self, p: Pointer, scene: &dyn Scene, out: &mut Vec<Effect>) {
        let at = self.to_view(p.x, p.y);
        let was_touch = self.touches.iter().any(|t| t.0 == p.id);
        self.touches.retain(|t| t.0 != p.id);
        let drag = self.drag.take();
        match drag {
            // Lifting either finger ends a pinch; the other finger does not turn it into a drag.
            Some(Drag::Pinch { .. }) => {}
            Some(Drag::Palette(kind)) => {
                self.set_preview(None, out);
                out.push(Effect::AddNode(kind, (at.0.round(), at.1.round())));
            }
            Some(Drag::Node { node, moved, .. }) => {
                self.set_preview(None, out);
                if moved {
                    out.push(Effect::MoveNode(node, (at.0.round(), at.1.round())));
                    self.select(Some(Hit::Node(node)), out);
                } else {
                    self.select(Some(Hit::Node(node)), out);
                    if was_touch {
                        self.set_card(Some(Card { hit: Hit::Node(node), x: p.x, y: p.y, pinned: true }), out);
                    }
                }
            }
            Some(Drag::Connect { from }) => {
                self.set_preview(None, out);
                let to = match scene.hit(at) {
                    Some(Hit::Node(j)) => Some(j),
                    _ => None,
                };
                match (to == Some(from), self.pending.take()) {
                    // A tap on the node it began on: the first of two taps, or the second on the same node again.
                    (true, first) if first.is_none_or(|f| f == from) => {
                        self.pending = (first != Some(from)).then_some(from);
                        self.select(self.pending.map(Hit::Node), out);
                    }
                    (true, Some(first)) => out.push(Effect::Connect { from: first, to, at, tool: self.tool }),
                    _ => out.push(Effect::Connect { from, to, at, tool: self.tool }),
                }
            }
            Some(Drag::Pan { moved: false, .. }) => {
                self.pending = None;
                self.select(None, out);
                self.set_card(None, out);
            }
            Some(Drag::Press { hit, kind, .. }) => {
                // A tap or click on a link, flow or buffer selects it; a finger also gets its card, pinned.
                match hit {
                    Some(h) => {
                        if !matches!(h, Hit::Buffer(_)) {
                            self.select(Some(h), out);
                        }
                        if kind == PointerKind::Touch || matches!(h, Hit::Buffer(_)) {
                            self.set_card(Some(Card { hit: h, x: p.x, y: p.y, pinned: true }), out);
                        }
                    }
                    None => {
                        self.pending = None;
                        self.select(None, out);
                        self.set_card(None, out);
                    }
                }
            }
            Some(Drag::Pan { .. }) | None => {}
        }
    }

    fn key(&mut self, key: &str, shift: bool, scene: &dyn Scene, out: &mut Vec<Effect>) {
        let Some(key) = Key::parse(key) else { return };
        let step = if shift { 50.0 } else { 10.0 };
        let centre = |v: ViewBox| (v.0 + v.2 / 2.0, v.1 + v.3 / 2.0);
        match key {
            Key::Arrow(dx, dy) => {
                let (dx, dy) = (f64::from(dx), f64::from(dy));
                // A selected node moves; otherwise the focus does.
                if matches!(self.selected, Some(Hit::Node(_))) {
                    out.push(Effect::Nudge(dx * step, dy * step));
                } else if let Some(next) = navigate(&scene.items(), self.focus, (dx, dy)) {
                    self.focus = Some(next);
                    self.focus_moved = true;
                    out.push(Effect::Focus(Some(next)));
                }
            }
            Key::Select => {
                if let Some(f) = self.focus {
                    self.select(Some(f), out);
                    // No hover card from the keyboard: what was chosen is shown in the Selection tab.
                    out.push(Effect::Show(f));
                }
            }
            Key::Delete => {
                if self.selected.is_none() || self.focus_moved {
                    if let Some(f) = self.focus {
                        self.select(Some(f), out);
                    }
                }
                if self.selected.is_some() {
                    out.push(Effect::Delete);
                    self.selected = None;
                    self.focus = None;
                    out.push(Effect::Focus(None));
                }
            }
            Key::Escape => {
                if self.card.is_some() {
                    self.set_card(None, out);
                } else {
                    self.select(None, out);
                }
            }
            Key::ZoomIn => {
                let v = self.view();
                self.set_camera(zoom_box(v, 1.25, centre(v)), out);
            }
            Key::ZoomOut => {
                let v = self.view();
                self.set_camera(zoom_box(v, 0.8, centre(v)), out);
            }
        }
    }

    /// Closes a pinned card (its close button).
    pub fn close_card(&mut self) -> Vec<Effect> {
        let mut out = Vec::new();
        self.set_card(None, &mut out);
        out
    }

    /// The document's selection changed elsewhere (the inspector, undo): follow it.
    pub fn follow_selection(&mut self, hit: Option<Hit>) {
        if self.selected != hit {
            self.focus_moved = false;
        }
        self.selected = hit;
    }
}

/// Where a node added by pressing the palette goes: `at` (the middle of the view), or, if a node is drawn there
/// already (the button pressed twice), the first place beside it that is free, a step down and to the right at a
/// time: one on top of another looks like one.
fn free_spot(mut at: Point, scene: &dyn Scene) -> Point {
    let nodes: Vec<Point> =
        scene.items().into_iter().filter_map(|(h, p)| matches!(h, Hit::Node(_)).then_some(p)).collect();
    for _ in 0..64 {
        if !nodes.iter().any(|q| (q.0 - at.0).abs() < 50.0 && (q.1 - at.1).abs() < 40.0) {
            break;
        }
        at = (at.0 + 60.0, at.1 + 45.0);
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two nodes at (100, 100) and (300, 100) joined by link 0; a flow around y 150. The view box equals page
    /// pixels (rect 0,0 400x200, view 0,0 400x200), so page and view points are the same.
    struct Two;
    impl Scene for Two {
        fn hit(&self, p: Point) -> Option<Hit> {
            let near = |q: Point| (p.0 - q.0).abs() <= 20.0 && (p.1 - q.1).abs() <= 20.0;
            if near((100.0, 100.0)) {
                Some(Hit::Node(0))
            } else if near((300.0, 100.0)) {
                Some(Hit::Node(1))
            } else if (p.1 - 100.0).abs() < 5.0 && p.0 > 100.0 && p.0 < 300.0 {
                Some(Hit::Link(0))
            } else if (p.1 - 150.0).abs() < 5.0 {
                Some(Hit::Flow(0))
            } else {
                None
            }
        }
        fn items(&self) -> Vec<(Hit, Point)> {
            vec![(Hit::Node(0), (100.0, 100.0)), (Hit::Node(1), (300.0, 100.0)), (Hit::Link(0), (200.0, 100.0))]
        }
    }

    fn g() -> Gestures {
        let mut g = Gestures::new((0.0, 0.0, 400.0, 200.0));
        g.rect = (0.0, 0.0, 400.0, 200.0);
        g
    }
    fn mouse(x: f64, y: f64, pressed: bool) -> Pointer {
        Pointer { id: 1, kind: PointerKind::Mouse, x, y, pressed }
    }
    fn touch(id: i32, x: f64, y: f64) -> Pointer {
        Pointer { id, kind: PointerKind::Touch, x, y, pressed: true }
    }
    fn run(g: &mut Gestures, inputs: Vec<Input>) -> Vec<Effect> {
        inputs.into_iter().flat_map(|i| g.handle(i, &Two)).collect()
    }

    #[test]
    fn a_mouse_drags_a_node_and_a_click_selects_it() {
        let mut g = g();
        let fx = run(
            &mut g,
            vec![
                Input::Down(mouse(100.0, 100.0, true)),
                Input::Move(mouse(120.0, 110.0, true)),
                Input::Up(mouse(150.0, 120.0, true)),
            ],
        );
        assert!(fx.contains(&Effect::Preview(Some(Preview::Moving(0, (120.0, 110.0))))));
        assert!(fx.contains(&Effect::MoveNode(0, (150.0, 120.0))));
        assert_eq!(g.selected, Some(Hit::Node(0)));
        let fx = run(&mut g, vec![Input::Down(mouse(300.0, 100.0, true)), Input::Up(mouse(301.0, 100.0, true))]);
        assert!(!fx.iter().any(|e| matches!(e, Effect::MoveNode(..))), "a click does not move");
        assert!(fx.contains(&Effect::Select(Some(Hit::Node(1)))));
    }

    #[test]
    fn the_tools_draw_links_and_flows_between_nodes() {
        let mut g = g();
        g.handle(Input::Tool(Tool::Flow), &Two);
        let fx = run(
            &mut g,
            vec![
                Input::Down(mouse(100.0, 100.0, true)),
                Input::Move(mouse(200.0, 120.0, true)),
                Input::Up(mouse(300.0, 100.0, true)),
            ],
        );
        assert!(fx.contains(&Effect::Preview(Some(Preview::Rubber(0, (200.0, 120.0))))));
        assert!(fx.contains(&Effect::Connect { from: 0, to: Some(1), at: (300.0, 100.0), tool: Tool::Flow }));
        // Released over nothing: the component refuses it with a message where it was tried.
        let fx = run(&mut g, vec![Input::Down(mouse(100.0, 100.0, true)), Input::Up(mouse(200.0, 190.0, true))]);
        assert!(fx.contains(&Effect::Connect { from: 0, to: None, at: (200.0, 190.0), tool: Tool::Flow }));
    }

    /// A tablet's way: tap one node, then the other (a tap on the first alone is not a link to itself).
    #[test]
    fn a_tap_on_a_node_then_on_another_connects_them() {
        let mut g = g();
        g.handle(Input::Tool(Tool::Link), &Two);
        let tap = |x: f64| vec![Input::Down(touch(1, x, 100.0)), Input::Up(touch(1, x + 1.0, 100.0))];
        let fx = run(&mut g, tap(100.0));
        assert!(!fx.iter().any(|e| matches!(e, Effect::Connect { .. })), "{fx:?}");
        assert!(fx.contains(&Effect::Select(Some(Hit::Node(0)))), "the first node is shown chosen: {fx:?}");
        let fx = run(&mut g, tap(300.0));
        assert!(fx.contains(&Effect::Connect { from: 0, to: Some(1), at: (301.0, 100.0), tool: Tool::Link }), "{fx:?}");
        // A second tap on the same node takes it back; a tap on empty space, or another tool, lets go.
        run(&mut g, tap(100.0));
        let fx = run(&mut g, tap(100.0));
        assert!(fx.contains(&Effect::Select(None)) && !fx.iter().any(|e| matches!(e, Effect::Connect { .. })));
        let fx = run(&mut g, tap(300.0));
        assert!(!fx.iter().any(|e| matches!(e, Effect::Connect { .. })), "begun again at node 1: {fx:?}");
        run(&mut g, vec![Input::Down(touch(1, 200.0, 40.0)), Input::Up(touch(1, 200.0, 40.0))]);
        let fx = run(&mut g, tap(100.0));
        assert!(!fx.iter().any(|e| matches!(e, Effect::Connect { .. })), "empty space let go: {fx:?}");
        g.handle(Input::Tool(Tool::Flow), &Two);
        let fx = run(&mut g, tap(300.0));
        assert!(!fx.iter().any(|e| matches!(e, Effect::Connect { .. })), "a new tool let go: {fx:?}");
    }

    #[test]
    fn the_mouse_pans_empty_space_and_the_wheel_zooms_about_the_pointer() {
        let mut g = g();
        run(
            &mut g,
            vec![
                Input::Down(mouse(50.0, 50.0, true)),
                Input::Move(mouse(80.0, 60.0, true)),
                Input::Up(mouse(80.0, 60.0, true)),
            ],
        );
        assert_eq!(g.view(), (-30.0, -10.0, 400.0, 200.0));
        assert_eq!(g.selected, None);
        let before = g.view();
        run(&mut g, vec![Input::Wheel { x: 100.0, y: 100.0, delta_y: -1.0 }]);
        assert!(g.view().2 < before.2, "zoomed in");
        let p = g.to_view(100.0, 100.0);
        assert!((p.0 - 70.0).abs() < 1e-9 && (p.1 - 90.0).abs() < 1e-9, "the point under the pointer stays: {p:?}");
        assert_eq!(run(&mut g, vec![Input::Fit]), [Effect::Camera(None)]);
    }

    #[test]
    fn hovering_shows_a_card_that_leaving_hides() {
        let mut g = g();
        let fx = run(&mut g, vec![Input::Move(mouse(200.0, 100.0, false))]);
        assert_eq!(fx, [Effect::Card(Some(Card { hit: Hit::Link(0), x: 200.0, y: 100.0, pinned: false }))]);
        assert!(run(&mut g, vec![Input::Move(mouse(210.0, 101.0, false))]).is_empty(), "same link: no flicker");
        assert_eq!(run(&mut g, vec![Input::Leave]), [Effect::Card(None)]);
    }

    #[test]
    fn a_drag_takes_the_hover_card_away() {
        let mut g = g();
        run(&mut g, vec![Input::Move(mouse(100.0, 100.0, false))]);
        assert!(g.card.is_some());
        let fx = run(&mut g, vec![Input::Down(mouse(100.0, 100.0, true))]);
        assert!(fx.contains(&Effect::Card(None)), "{fx:?}");
        run(&mut g, vec![Input::Move(mouse(150.0, 120.0, true)), Input::Up(mouse(150.0, 120.0, true))]);
        assert_eq!(g.card, None);
    }

    #[test]
    fn an_edit_holds_the_view_and_only_fit_lets_go() {
        let mut g = g();
        let before = (g.view(), g.to_view(50.0, 60.0));
        // A node dropped outside the old box: the fitted box grows, the view does not move.
        g.handle(Input::Fitted((50.0, 50.0, 800.0, 400.0)), &Two);
        assert_eq!((g.view(), g.to_view(50.0, 60.0)), before);
        assert_eq!(g.handle(Input::Fit, &Two), [Effect::Camera(None)]);
        assert_eq!(g.view(), (50.0, 50.0, 800.0, 400.0));
        // The same box again (a render with nothing changed) holds nothing.
        g.handle(Input::Fitted((50.0, 50.0, 800.0, 400.0)), &Two);
        assert_eq!(g.camera, None);
    }

    #[test]
    fn one_finger_drags_a_node_but_leaves_empty_space_to_the_page() {
        let mut g = g();
        let fx = run(
            &mut g,
            vec![
                Input::Down(touch(7, 100.0, 100.0)),
                Input::Move(touch(7, 130.0, 100.0)),
                Input::Up(touch(7, 160.0, 100.0)),
            ],
        );
        assert!(fx.contains(&Effect::Capture(7)));
        assert!(fx.contains(&Effect::MoveNode(0, (160.0, 100.0))));
        // On empty space: no capture, no camera change; the browser scrolls and cancels the pointer.
        let fx =
            run(&mut g, vec![Input::Down(touch(8, 50.0, 180.0)), Input::Move(touch(8, 50.0, 120.0)), Input::Cancel(8)]);
        assert!(fx.iter().all(|e| !matches!(e, Effect::Camera(_) | Effect::Capture(_))), "{fx:?}");
        assert!(!g.busy());
    }

    #[test]
    fn a_tap_on_a_link_pins_its_card_and_selects_it() {
        let mut g = g();
        let fx = run(&mut g, vec![Input::Down(touch(3, 200.0, 101.0)), Input::Up(touch(3, 201.0, 101.0))]);
        assert!(fx.contains(&Effect::Select(Some(Hit::Link(0)))));
        assert_eq!(g.card, Some(Card { hit: Hit::Link(0), x: 201.0, y: 101.0, pinned: true }));
        // Hovering elsewhere does not take a pinned card away; closing it does.
        assert!(run(&mut g, vec![Input::Move(mouse(100.0, 150.0, false))]).is_empty());
        assert_eq!(g.close_card(), [Effect::Card(None)]);
        // A tap on empty space clears the selection.
        let fx = run(&mut g, vec![Input::Down(touch(4, 20.0, 20.0)), Input::Up(touch(4, 20.0, 20.0))]);
        assert!(fx.contains(&Effect::Select(None)));
    }

    #[test]
    fn two_fingers_pinch_to_zoom_and_move_to_pan() {
        let mut g = g();
        let fx = run(
            &mut g,
            vec![
                Input::Down(touch(1, 150.0, 100.0)),
                Input::Down(touch(2, 250.0, 100.0)),
                Input::Move(touch(1, 100.0, 100.0)),
                Input::Move(touch(2, 300.0, 100.0)),
            ],
        );
        assert!(fx.contains(&Effect::Capture(1)) && fx.contains(&Effect::Capture(2)));
        let v = g.view();
        assert!((v.2 - 200.0).abs() < 1e-9, "fingers twice as far apart: twice as close, {v:?}");
        assert!(g.busy());
        let p = g.to_view(200.0, 100.0);
        assert!((p.0 - 200.0).abs() < 1e-9 && (p.1 - 100.0).abs() < 1e-9, "the midpoint stays put: {p:?}");
        // Both fingers move right by 40: the view follows them.
        run(&mut g, vec![Input::Move(touch(1, 140.0, 100.0)), Input::Move(touch(2, 340.0, 100.0))]);
        let p = g.to_view(240.0, 100.0);
        assert!((p.0 - 200.0).abs() < 1e-9, "{p:?}");
        // Lifting one finger ends the pinch without a jump; the other's move does nothing.
        let v = g.view();
        run(&mut g, vec![Input::Up(touch(1, 140.0, 100.0)), Input::Move(touch(2, 380.0, 100.0))]);
        assert_eq!(g.view(), v);
        run(&mut g, vec![Input::Up(touch(2, 380.0, 100.0))]);
        assert!(!g.busy());
    }

    #[test]
    fn a_second_finger_turns_a_node_drag_into_a_pinch() {
        let mut g = g();
        let fx = run(
            &mut g,
            vec![
                Input::Down(touch(1, 100.0, 100.0)),
                Input::Move(touch(1, 110.0, 100.0)),
                Input::Down(touch(2, 200.0, 150.0)),
                Input::Up(touch(1, 110.0, 100.0)),
                Input::Up(touch(2, 200.0, 150.0)),
            ],
        );
        assert!(!fx.iter().any(|e| matches!(e, Effect::MoveNode(..))), "{fx:?}");
        assert!(fx.contains(&Effect::Preview(None)));
    }

    #[test]
    fn keys_move_the_focus_select_move_and_delete() {
        let mut g = g();
        let key = |k: &str| Input::Key { key: k.into(), shift: false };
        assert_eq!(run(&mut g, vec![key("ArrowRight")]), [Effect::Focus(Some(Hit::Node(0)))]);
        assert_eq!(run(&mut g, vec![key("ArrowRight")]), [Effect::Focus(Some(Hit::Link(0)))]);
        assert_eq!(run(&mut g, vec![key("ArrowRight")]), [Effect::Focus(Some(Hit::Node(1)))]);
        let fx = run(&mut g, vec![key("Enter"), key("ArrowDown")]);
        assert_eq!(
            fx,
            [
                Effect::Select(Some(Hit::Node(1))),
                Effect::Focus(Some(Hit::Node(1))),
                Effect::Show(Hit::Node(1)),
                Effect::Nudge(0.0, 10.0)
            ],
            "Enter selects and shows (the Selection tab comes forward: the keyboard has no hover card)"
        );
        let fx = run(&mut g, vec![Input::Key { key: "ArrowLeft".into(), shift: true }]);
        assert_eq!(fx, [Effect::Nudge(-50.0, 0.0)]);
        // Escape lets go: the arrows move the focus again.
        run(&mut g, vec![key("Escape")]);
        assert_eq!(run(&mut g, vec![key("ArrowLeft")]), [Effect::Focus(Some(Hit::Link(0)))]);
        let fx = run(&mut g, vec![key("Delete")]);
        assert!(fx.contains(&Effect::Select(Some(Hit::Link(0)))) && fx.contains(&Effect::Delete));
        assert_eq!(run(&mut g, vec![key("x")]), []);
        // A link selected, then the focus moved on with the arrows: Delete is about what has the focus.
        run(&mut g, vec![key("ArrowRight"), key("ArrowRight"), key("Enter")]);
        let selected = g.selected;
        assert_eq!(selected, Some(Hit::Link(0)));
        run(&mut g, vec![key("ArrowRight")]);
        assert_ne!(g.focus, selected);
        let focused = g.focus;
        let fx = run(&mut g, vec![key("Delete")]);
        assert_eq!(fx.first(), Some(&Effect::Select(focused)), "{fx:?}");
        // Selected elsewhere (the inspector): Delete deletes that, whatever had the focus before.
        g.follow_selection(Some(Hit::Flow(0)));
        let fx = run(&mut g, vec![key("Delete")]);
        assert_eq!(fx.first(), Some(&Effect::Delete), "{fx:?}");
    }

    #[test]
    fn the_palette_drops_a_node_where_released_or_in_the_middle() {
        let mut g = g();
        let fx = run(
            &mut g,
            vec![
                Input::Palette(NodeKind::Switch),
                Input::Move(mouse(60.0, 70.0, true)),
                Input::Up(mouse(61.4, 70.6, true)),
            ],
        );
        assert!(fx.contains(&Effect::Preview(Some(Preview::Ghost(NodeKind::Switch, (60.0, 70.0))))));
        assert!(fx.contains(&Effect::AddNode(NodeKind::Switch, (61.0, 71.0))));
        assert_eq!(
            run(&mut g, vec![Input::PaletteClick(NodeKind::Host)]),
            [Effect::AddNode(NodeKind::Host, (200.0, 100.0))]
        );
        // Pressed again with a node in the middle: beside it, not on top of it (nor of the next one along).
        struct Middle;
        impl Scene for Middle {
            fn hit(&self, _p: Point) -> Option<Hit> {
                None
            }
            fn items(&self) -> Vec<(Hit, Point)> {
                vec![(Hit::Node(0), (200.0, 100.0)), (Hit::Link(0), (260.0, 145.0)), (Hit::Node(1), (260.0, 145.0))]
            }
        }
        assert_eq!(
            g.handle(Input::PaletteClick(NodeKind::Host), &Middle),
            [Effect::AddNode(NodeKind::Host, (320.0, 190.0))]
        );
        // Released outside the drawing (no button held when it comes back): nothing is added.
        let fx = run(&mut g, vec![Input::Palette(NodeKind::Host), Input::Move(mouse(10.0, 10.0, false))]);
        assert_eq!(fx, [Effect::Preview(None)]);
    }
}
