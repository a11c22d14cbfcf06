//! # ibcc-core: the IBCC Playground simulator
//!
//! A discrete-event model of lossless, input-buffered, credit-flow-controlled networks (InfiniBand-style) and of the
//! congestion-control mechanisms of the source papers. It is `no_std` + `alloc` so the same code runs natively (CLI,
//! tests, benchmarks) and in the browser (wasm), with identical results for the same scenario and seed.
//!
//! Layers, bottom up (each uses only the ones below it):
//! - [`cc`]: congestion-control algorithms: source-response functions (AIMD, FIMD, LIPD).
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate alloc;
#[cfg(any(test, feature = "std"))]
extern crate std;

pub mod cc;
pub mod engine;
pub mod metrics;
pub mod net;
pub mod rng;
pub mod scenario;
pub mod time;
