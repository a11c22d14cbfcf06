//! IBCC Playground in the browser: a Yew app that Trunk compiles to wasm. What it shares with the command line (plots,
//! palette, names, CSV, the settings registry) is in `ibcc-view`.
//!
//! Everything but `ui` is pure Rust, tested natively:
//! - [`scene`], [`levels`], [`card`]: what the canvas draws where (layout, a fabric's levels, buffer bars, picking,
//!   keyboard navigation);
//!   the figures its cards show;
//! - [`labels`]: which node labels fit, and their size, at a zoom;
//! - [`gesture`]: the canvas's mouse, touch and keyboard gestures as a state machine;
//! - [`congestion`]: the congestion tree (roots, blocked links, victim flows) read from snapshots;
//! - [`session`], [`trace`]: a run as the page shows it (frames, the page's sampled series);
//! - [`driver`], [`protocol`], [`jsonbin`]: the run in its web worker (play, pause, seek with checkpoints), the
//!   messages, and the binary form of the page's (the worker's is `ibcc_core::wire`);
//! - [`moments`]: moments, speeds and steps of a scenario's timeline;
//! - [`edit`], [`diff`], [`origin`]: canvas edits with undo and redo; what differs between A and B; what is loaded;
//! - [`course`], [`sweep_plan`], [`impact_plan`]: lessons and exercises; the browser sweep's points and plot; the
//!   congestion impact view's runs, table and distributions;
//! - [`held`]: what an open exercise holds back (its value, and the links that would give it away);
//! - [`selftest`]: the golden fingerprints and the benchmark, run by the worker for the browser tests;
//! - `ui`: the Yew components (browser build only).

pub mod card;
pub mod congestion;
pub mod course;
pub mod diff;
pub mod driver;
pub mod edit;
pub mod gesture;
pub mod held;
pub mod impact_plan;
pub mod jsonbin;
pub mod labels;
#[cfg(test)]
mod lesson_claims;
pub mod levels;
pub mod moments;
pub mod number;
pub mod origin;
pub mod protocol;
pub mod scene;
pub mod selftest;
pub mod session;
pub mod sweep_plan;
pub mod trace;
#[cfg(target_arch = "wasm32")]
pub mod ui;
