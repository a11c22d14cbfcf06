//! # ibcc-core: the IBCC Playground simulator
//!
//! A discrete-event model of lossless, input-buffered, credit-flow-controlled networks (InfiniBand-style) and of the
//! congestion-control mechanisms of the source papers. It is `no_std` + `alloc` so the same code runs natively (CLI,
//! tests, benchmarks) and in the browser (wasm), with identical results for the same scenario and seed.
//!
//! Layers, bottom up (each uses only the ones below it):
//! - [`time`], [`rng`]: integer picosecond time and link rates; a seeded portable random-number generator;
//! - [`engine`]: the event queue and clock (knows nothing of networks);
//! - [`net`]: topology, routing, packets and credit blocks;
//! - [`cc`]: congestion control: ECN marking, source-response functions, IPD tables, source state;
//! - [`metrics`]: rate series, occupancy, fairness;
//! - [`scenario`]: the plain-data scenario format and its validation;
//! - [`sim`]: the simulation that ties them together, with the driving API the page, CLI and tests share;
//! - [`presets`]: the papers' experiments as ready-made scenarios.
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate alloc;
#[cfg(any(test, feature = "std"))]
extern crate std;

pub mod cc;
pub mod engine;
pub mod metrics;
pub mod net;
pub mod presets;
pub mod rng;
pub mod scenario;
pub mod sim;
pub mod time;
