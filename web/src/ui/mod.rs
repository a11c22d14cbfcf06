//! The Yew components of the page. Only compiled for the browser (wasm32).
//!
//! - `app`: the shell and its views; the document they share (`document`);
//! - `playground/`: the playground (transport and timeline, canvas, plot, side panel), its run in a worker
//!   (`playground/live.rs`, over `bridge`);
//! - `compare`, `sweep`: the A/B comparison and the sweep, each on the playground's scenario;
//! - `finc_explorer`: INFOCOM'03 Fig. 5;
//! - `plot`, `params`, `fields`, `share`, `links`: parts more than one view uses;
//! - `storage`, `download`, `theme`, `selftest`: the browser's storage, downloads, theme, and the self-tests.

mod app;
mod bridge;
mod compare;
mod document;
mod download;
mod fields;
mod finc_explorer;
mod links;
mod params;
mod playground;
mod plot;
mod selftest;
mod share;
mod storage;
mod sweep;
mod theme;

pub use app::{App, AppProps};

/// Opens the links in the page's address (the browser inflates them asynchronously), then mounts the app.
pub async fn start() {
    let opened = links::opened().await;
    yew::Renderer::<App>::with_props(AppProps { opened: std::rc::Rc::new(opened) }).render();
}
