//! IBCC Playground in the browser: a Yew app that Trunk compiles to wasm.
//!
//! - [`congestion`]: the congestion tree (roots, blocked links, victim flows) read from snapshots, tested natively;
//! - [`diff`]: which settings differ between two scenarios (the A/B comparison), tested natively;
//! - [`edit`]: the canvas edits of a scenario, with undo and redo (pure Rust, tested natively);
//! - [`lessons`]: lessons and exercises read from `www/lessons.json` and exercise links, tested natively;
//! - [`finc_plot`]: the Finc(t) explorer's model and plot (pure Rust, tested natively against SVG);
//! - [`rate_plot`]: the playground's rate plot (INFOCOM'03 Fig. 2), tested natively against SVG;
//! - [`run`]: a run as the page drives it (slices, samples, frames), tested natively;
//! - [`sweep`]: the browser sweep's points and plot, tested natively;
//! - [`trace`]: the page's sampled series (rate limits, buffers, marks), tested natively;
//! - [`view_model`]: what the playground draws (layout, rate styling), tested natively;
//! - `ui`: the Yew components (browser build only).

pub mod congestion;
pub mod diff;
pub mod edit;
pub mod finc_plot;
pub mod lessons;
pub mod rate_plot;
pub mod run;
pub mod sweep;
pub mod trace;
#[cfg(target_arch = "wasm32")]
pub mod ui;
pub mod view_model;
