//! Message workloads (docs/workload.md): processes placed on hosts, each running a program of sends, receives,
//! one-sided puts and gets, waits, loops and timing, over queue pairs that are the simulator's flows. The programs
//! and collectives are plain data ([`program`], [`collectives`]); [`runtime`] is their state during a run, driven by
//! the simulation (`sim::Simulation::with_workload`). Deterministic: nothing here draws a random number.

pub mod collectives;
pub mod gpcnet;
pub mod program;
pub mod runtime;

pub use program::{place, Op, Workload, DEFAULT_EAGER_BYTES};
pub use runtime::{MessageCounts, Runtime};
