//! The canvas's toolbar: the palette (drag a switch or a host onto the drawing, or press it), the tools (Select,
//! Link, Flow), undo and redo, zoom and fit, and whether flows are drawn.

use super::canvas_input::{palette_handlers, Feed};
use crate::gesture::{Input, Tool};
use ibcc_core::scenario::NodeKind;
use yew::prelude::*;

#[derive(Properties)]
pub struct ToolsProps {
    pub feed: Feed,
    pub tool: Tool,
    pub can_undo: bool,
    pub can_redo: bool,
    pub on_undo: Callback<MouseEvent>,
    pub on_redo: Callback<MouseEvent>,
    pub show_flows: bool,
    pub on_flows: Callback<Event>,
}

impl PartialEq for ToolsProps {
    fn eq(&self, o: &Self) -> bool {
        std::rc::Rc::ptr_eq(&self.feed, &o.feed)
            && (self.tool, self.can_undo, self.can_redo, self.show_flows)
                == (o.tool, o.can_undo, o.can_redo, o.show_flows)
    }
}

#[component]
pub fn CanvasTools(p: &ToolsProps) -> Html {
    let send = |input: Input| {
        let feed = p.feed.clone();
        Callback::from(move |_: MouseEvent| feed(input.clone()))
    };
    let tool_button = |t: Tool, label: &'static str, key: &'static str, hint: &'static str| {
        html! {
            <button class={classes!("tool", (p.tool == t).then_some("active"))} aria-pressed={(p.tool == t).to_string()}
                title={hint} data-testid={format!("tool-{key}")} onclick={send(Input::Tool(t))}>{ label }</button>
        }
    };
    let palette = |kind: NodeKind, label: &'static str, key: &'static str| {
        let (down, click) = palette_handlers(&p.feed, kind);
        let title = format!("Drag onto the canvas (or press) to add a {key}");
        html! {
            <button class="palette-item" data-testid={format!("palette-{key}")} {title} onpointerdown={down} onclick={click}>{ label }</button>
        }
    };
    html! {
        <div class="canvas-tools" role="toolbar" aria-label="Canvas tools">
            <span class="palette" aria-label="Palette">
                { palette(NodeKind::Switch, "▭ Switch", "switch") }
                { palette(NodeKind::Host, "◯ Host", "host") }
            </span>
            { tool_button(Tool::Select, "Select", "select", "Select and move nodes; drag empty space to pan (two fingers on a touch screen)") }
            { tool_button(Tool::Link, "Link", "link", "Drag from node to node, or tap one then the other, to link them") }
            { tool_button(Tool::Flow, "Flow", "flow", "Drag from host to host, or tap one then the other, to add a flow") }
            <span class="sep" />
            <button onclick={p.on_undo.clone()} disabled={!p.can_undo} data-testid="undo" title="Undo (Ctrl+Z)" aria-label="Undo">{ "↶" }</button>
            <button onclick={p.on_redo.clone()} disabled={!p.can_redo} data-testid="redo" title="Redo (Ctrl+Shift+Z)" aria-label="Redo">{ "↷" }</button>
            <button onclick={send(Input::Zoom(1.25))} data-testid="zoom-in" aria-label="Zoom in" title="Zoom in (+)">{ "+" }</button>
            <button onclick={send(Input::Zoom(0.8))} data-testid="zoom-out" aria-label="Zoom out" title="Zoom out (−)">{ "−" }</button>
            <button onclick={send(Input::Fit)} data-testid="zoom-fit" title="Show the whole network">{ "Fit" }</button>
            <label class="check" title="Show the flows as curves from source to destination">
                <input type="checkbox" checked={p.show_flows} onchange={p.on_flows.clone()} data-testid="show-flows" />{ "Flows" }
            </label>
        </div>
    }
}
