//! # ibcc-view: what both front ends show, drawn and named once
//!
//! The page (`web/`) and the command line (`cli/`) show the same things: the same plots in the same colours, the
//! same names for curves and settings, the same CSV. This crate holds them, between the simulator core below and the
//! two front ends above; it knows no UI framework, and the command line depends on it, never on the web app.
//! - [`palette`]: the one visual language: every colour and what it means (canvas, plots, exports, legend);
//! - [`plot`], [`finc_plot`]: the plots, generic over plotters' backend (a canvas in the page, SVG elsewhere);
//! - [`names`]: what things are called: the plots' ids, a group's curve;
//! - [`csv`]: CSV with one quoting rule (RFC 4180);
//! - [`grid`]: a sweep's grid of points from its axes;
//! - [`settings`]: the settings registry: each setting's path, label, unit, help and choices;
//! - [`sorting`]: one shared sort (the page's size).

pub mod csv;
pub mod finc_plot;
pub mod grid;
pub mod names;
pub mod palette;
pub mod plot;
pub mod settings;
pub mod sorting;
