//! The least an event-driven simulator pays per event: a bare loop that pops an event and schedules one, with as
//! many events pending as a run held, and nothing else (no state read or written). Two queues: a plain binary heap
//! (what most simulators use; htsim's is a sorted tree) and this simulator's own timing wheel with the run's bucket
//! width. `ibcc bench --against-htsim` and `ibcc bench --scale` print our cost per event beside both.

use ibcc_core::engine::EventQueue;
use ibcc_core::sim::Run;
use ibcc_core::time::{Time, NS};
use std::collections::BinaryHeap;
use std::time::Instant;

/// The bare loop's events at most: enough for a stable figure.
const EVENTS_MAX: u64 = 20_000_000;

/// A bare loop made like a run: as many events pending as the run ended with, as many events as it queued (at
/// most [`EVENTS_MAX`]), its queue's bucket width, and what its queued events are scheduled for, in turn: an end
/// of transmission a packet time on, then a hop on, both, and a hop again. A hop is a link's propagation delay
/// (an arrival, a credit or a delivery waits that long), or across links without delay, where those are handled
/// at once, the forwarding delay (the decisions that wait).
#[derive(Debug, Clone, Copy)]
pub struct Like {
    pub pending: usize,
    events: u64,
    bucket: Time,
    delays: [Time; 4],
}

impl Like {
    /// The bare loop like `run`, which has run.
    pub fn run(run: &Run) -> Self {
        let (_, pending) = run.sim.held();
        let s = run.scenario();
        let link = run.sim.topology().channel(0);
        let packet = link.bandwidth.serialization(s.packet.data_bytes());
        let hop = if link.propagation > 0 { link.propagation } else { s.switch.forwarding_delay_ns * NS }.max(1);
        Self {
            pending: (pending as usize).max(1),
            events: run.sim.queued_events().min(EVENTS_MAX),
            bucket: run.sim.event_bucket(),
            delays: [packet, hop, packet + hop, hop],
        }
    }

    /// Nanoseconds per event on a binary heap of `(time, seq, payload)` (best of three).
    pub fn heap_ns(&self) -> f64 {
        let Self { pending, events, delays, .. } = *self;
        best_of_three(events, || {
            let mut heap = BinaryHeap::with_capacity(pending + 1);
            let mut seq = 0u64;
            for i in 0..pending as u64 {
                heap.push(std::cmp::Reverse((i * 997 % delays[0].max(1), seq, i as u32)));
                seq += 1;
            }
            let mut sum = 0u64;
            let t0 = Instant::now();
            for _ in 0..events {
                let std::cmp::Reverse((t, _, payload)) = heap.pop().expect("the loop keeps its population");
                sum = sum.wrapping_add(u64::from(payload));
                let next = t + delays[(payload as usize + seq as usize) % delays.len()];
                heap.push(std::cmp::Reverse((next, seq, payload)));
                seq += 1;
            }
            std::hint::black_box(sum);
            t0.elapsed().as_secs_f64()
        })
    }

    /// Nanoseconds per event on the simulator's own queue, with the run's bucket width (best of three).
    pub fn wheel_ns(&self) -> f64 {
        let Self { pending, events, bucket, delays } = *self;
        best_of_three(events, || {
            let mut queue = EventQueue::with_bucket(bucket);
            for i in 0..pending as u64 {
                queue.schedule(i * 997 % delays[0].max(1), i as u32);
            }
            let mut sum = 0u64;
            let t0 = Instant::now();
            for n in 0..events {
                let (t, payload) = queue.pop().expect("the loop keeps its population");
                sum = sum.wrapping_add(u64::from(payload));
                // (The heap's `seq`: the same delays in the same turn.)
                let seq = pending + n as usize;
                queue.schedule(t + delays[(payload as usize + seq) % delays.len()], payload);
            }
            std::hint::black_box(sum);
            t0.elapsed().as_secs_f64()
        })
    }
}

fn best_of_three(events: u64, mut run: impl FnMut() -> f64) -> f64 {
    (0..3).map(|_| run() * 1e9 / events.max(1) as f64).fold(f64::INFINITY, f64::min)
}
