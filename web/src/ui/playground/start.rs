//! The start card: what a first-time visitor is looking at, what to watch, and two ways on (the first lesson, or
//! exploring). Either choice, or closing it, puts it away for good (kept in the browser's storage). A page opened
//! from a share link shows what it was sent instead, without the card (which describes the first scenario).

use super::super::document::{use_doc, Origin};
use super::super::storage;
use super::live::{use_live, use_sim};
use yew::prelude::*;

const SEEN: &str = "ibcc.start.seen";

/// Whether this is a first visit (the card has not been put away): a phone then opens on the card.
pub fn first_visit() -> bool {
    storage::load_text(SEEN).is_none()
}

/// Puts the card away for good (a lesson begun another way than from it).
pub fn put_away() {
    storage::save_text(SEEN, "1");
}

#[derive(Properties, PartialEq)]
pub struct StartProps {
    /// Starts the first lesson.
    pub on_start: Callback<MouseEvent>,
    /// Explore on my own (on a phone: show the network).
    #[prop_or_default]
    pub on_explore: Option<Callback<MouseEvent>>,
}

#[component]
pub fn StartCard(p: &StartProps) -> Html {
    let doc = use_doc();
    let shown = use_state(|| first_visit() && doc.origin != Origin::Link);
    let (sim, live) = (use_sim(), use_live());
    if !*shown {
        return html! {};
    }
    let away = |then: Option<Callback<MouseEvent>>| {
        let shown = shown.clone();
        Callback::from(move |e: MouseEvent| {
            put_away();
            shown.set(false);
            if let Some(t) = &then {
                t.emit(e);
            }
        })
    };
    // On a phone the card covers the network: its Run shows the network as it starts the run.
    let watch = {
        let explore = p.on_explore.clone();
        away(Some(Callback::from(move |e: MouseEvent| {
            if let Some(show) = &explore {
                show.emit(e);
            }
            sim.play(live.speed());
        })))
    };
    html! {
        <section class="start-card" aria-labelledby="start-title" data-testid="start-card">
            <h3 id="start-title">{ "New here? Start with one minute" }</h3>
            <p>
                { "On the drawing, switches (rectangles) pass packets between hosts (circles). The links never drop a \
                   packet: a sender whose next buffer is full waits for credit instead." }
            </p>
            <p>
                { "Press ▶ Run and watch: links grow thicker as they get busy, buffers fill, and the plot traces each \
                   group of flows. Drag the timeline to go back." }
            </p>
            <div class="input-row">
                <button class="primary" onclick={away(Some(p.on_start.clone()))} data-testid="start-lesson">{ "Start the first lesson" }</button>
                <button class="phone-only" onclick={watch} data-testid="start-watch">{ "▶ Run and watch" }</button>
                <button onclick={away(p.on_explore.clone())} data-testid="start-explore">{ "Explore on my own" }</button>
            </div>
        </section>
    }
}
