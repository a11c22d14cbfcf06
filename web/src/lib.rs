//! IBCC Playground in the browser: a Yew app that Trunk compiles to wasm.
//!
//! Everything but `ui` is pure Rust, tested natively:
//! - [`palette`]: the one visual language: every colour and what it means, for canvas, plots, exports and legend;
//! - [`view_model`], [`figures`]: what the canvas draws where (layout, buffer bars, picking, keyboard navigation);
//!   the figures its cards show;
//! - [`gesture`]: the canvas's mouse, touch and keyboard gestures as a state machine;
//! - [`congestion`]: the congestion tree (roots, blocked links, victim flows) read from snapshots;
//! - [`run`], [`trace`]: a run as the page shows it (frames, the page's sampled series);
//! - [`driver`], [`protocol`], [`jsonbin`]: the run in its web worker (play, pause, seek with checkpoints), the
//!   messages, and the binary form of the page's (the worker's is `ibcc_core::wire`);
//! - [`timeline`]: moments, speeds and steps of a scenario's timeline;
//! - [`rate_plot`], [`finc_plot`]: the plots, drawn on a canvas in the page and on SVG in tests;
//! - [`settings`]: settings in words; [`sorting`]: one shared sort (the page's size);
//! - [`edit`], [`diff`], [`origin`]: canvas edits with undo and redo; what differs between A and B; what is loaded;
//! - [`lessons`], [`sweep`]: lessons and exercises; the browser sweep's points and plot;
//! - [`selftest`]: the golden digest and the benchmark, run by the worker for the browser tests;
//! - `ui`: the Yew components (browser build only).

pub mod congestion;
pub mod diff;
pub mod driver;
pub mod edit;
pub mod figures;
pub mod finc_plot;
pub mod gesture;
pub mod jsonbin;
pub mod lessons;
pub mod number;
pub mod origin;
pub mod palette;
pub mod protocol;
pub mod rate_plot;
pub mod run;
pub mod selftest;
pub mod settings;
pub mod sorting;
pub mod sweep;
pub mod timeline;
pub mod trace;
#[cfg(target_arch = "wasm32")]
pub mod ui;
pub mod view_model;
