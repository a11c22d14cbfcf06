//! The Yew components of the page. Only compiled for the browser (wasm32).
//!
//! - `app`: the shell and its views; the document they share (`document`);
//! - `playground/`: the playground (transport and timeline, canvas, plot, side panel), its run in a worker
//!   (`playground/live.rs`, over `bridge`);
//! - `compare`, `sweep_view`, `impact_view`: the A/B comparison, the sweep and GPCNeT's congestion impact, each on
//!   the playground's scenario (the last's runs kept by the shell: `impact_run`);
//! - `finc_explorer`: INFOCOM'03 Fig. 5;
//! - `chart`, `params`, `fields`, `lesson_text`, `share`, `share_codec`: parts more than one view uses;
//! - `storage`, `download`, `theme`, `selftest_page`: the browser's storage, downloads, theme, and the self-tests.
//!
//! Each module uses only modules it does not share a cycle with (`web/tests/layers.rs`): the playground uses
//! `share`, never the other way round; a lesson opens the A/B view through the document (`Action::Compare`).

mod app;
mod bridge;
mod chart;
mod compare;
mod document;
mod download;
mod fields;
mod finc_explorer;
mod impact_run;
mod impact_view;
mod lesson_text;
mod params;
mod playground;
mod selftest_page;
mod share;
mod share_codec;
mod storage;
mod sweep_view;
mod theme;

pub use app::{App, AppProps};

/// Opens the links in the page's address (the browser inflates them asynchronously), then mounts the app.
pub async fn start() {
    let opened = share_codec::opened().await;
    yew::Renderer::<App>::with_props(AppProps { opened: std::rc::Rc::new(opened) }).render();
}
