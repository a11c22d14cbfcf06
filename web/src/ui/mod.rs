//! The Yew components of the page. Only compiled for the browser (wasm32).

mod app;
mod download;
mod fields;
mod finc_explorer;
mod playground;
mod selftest;
mod storage;
mod theme;

pub use app::App;
