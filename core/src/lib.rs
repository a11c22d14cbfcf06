//! # ibcc-core: the IBCC Playground simulator
//!
//! A discrete-event model of lossless, input-buffered, credit-flow-controlled networks (InfiniBand-style) and of the
//! congestion-control mechanisms of the source papers. It is `no_std` + `alloc` so the same code runs natively (CLI,
//! tests, benchmarks) and in the browser (wasm), with identical results for the same scenario and seed.
//!
//! Layers, bottom up (each uses only the ones below it; checked by `tests/layers.rs`):
//! - [`time`], [`rng`], [`wire`]: integer picosecond time and link rates; a seeded portable random-number generator;
//!   a compact binary serde format (the worker's messages); and, private, `prefetch`: asking the processor to
//!   bring memory in (the workspace's one `unsafe` block);
//! - [`engine`]: the event queue and clock (knows nothing of networks);
//! - [`fabric`]: real InfiniBand fabrics: switches and CAs with numbered ports, GUIDs, LIDs and cables; their
//!   files (`ibnetdiscover`, ibsim), and routing them as OpenSM does;
//! - [`net`]: the network and its state during a run: topology and routes, packets, channels and their credits,
//!   switches (input buffers, outputs, scheduling), hosts (NIC queues, flows); each element carries its congestion
//!   control in a slot of a type it does not know;
//! - [`metrics`]: rate series, occupancy, fairness;
//! - [`cc`]: congestion control, each scheme with its configuration: ECN marking, source-response functions, IPD
//!   tables, source state, PFT, Annex A10; and the seam the simulation calls it through (hooks and their enums);
//! - [`scenario`]: the plain-data scenario format (re-exporting the blocks `cc` and `net` own) and its validation;
//! - [`workload`]: message workloads: processes on hosts running programs of sends, receives, puts, gets and
//!   collectives, and their state during a run;
//! - [`sim`]: the simulation that wires them together and runs the events, with the driving API the page, CLI and
//!   tests share;
//! - [`presets`]: the papers' experiments as ready-made scenarios.
#![no_std]
#![cfg_attr(docsrs, feature(doc_cfg))]

extern crate alloc;
#[cfg(any(test, feature = "std"))]
extern crate std;

pub mod cc;
pub mod engine;
pub mod fabric;
pub mod metrics;
pub mod net;
mod nullable;
mod prefetch;
pub mod presets;
pub mod rng;
pub mod scenario;
pub mod sim;
pub mod time;
pub mod wire;
pub mod workload;
