//! The least an event-driven simulator pays per event: a bare loop that pops an event and schedules one, with as
//! many events pending as a run held, and nothing else (no state read or written). Two queues: a plain binary heap
//! (what most simulators use; htsim's is a sorted tree) and this simulator's own timing wheel with the run's bucket
//! width. `ibcc bench --against-htsim` and `ibcc bench --scale` print our cost per event beside both.

use ibcc_core::engine::EventQueue;
use std::collections::BinaryHeap;
use std::time::Instant;

/// The bare loop's events at most: enough for a stable figure.
pub const EVENTS_MAX: u64 = 20_000_000;

/// What each pop schedules, in turn: an event a packet time, a hop, a packet time and a hop, and a hop later (an end
/// of transmission, an arrival, a delivery, a credit), in picoseconds.
pub fn delays(packet_time: u64, hop: u64) -> [u64; 4] {
    [packet_time, hop, packet_time + hop, hop]
}

/// Nanoseconds per event of the loop on a binary heap of `(time, seq, payload)` holding `pending` events (best of
/// three).
pub fn heap_ns(pending: usize, events: u64, delays: [u64; 4]) -> f64 {
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

/// Nanoseconds per event of the same loop on the simulator's queue, with buckets `bucket` picoseconds wide (best
/// of three).
pub fn wheel_ns(pending: usize, events: u64, delays: [u64; 4], bucket: u64) -> f64 {
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

fn best_of_three(events: u64, mut run: impl FnMut() -> f64) -> f64 {
    (0..3).map(|_| run() * 1e9 / events.max(1) as f64).fold(f64::INFINITY, f64::min)
}
