//! The discrete-event engine: a clock and a queue of timed events. It knows nothing about networks; the simulation
//! above it defines the event type and dispatches each event it pops.
//!
//! Events are ordered by `(time, seq)`, where `seq` counts insertions: events at the same time run in the order they
//! were scheduled, which makes every run deterministic.

use crate::time::Time;
use alloc::collections::BinaryHeap;
use core::cmp::Ordering;

/// `key` is `time << 64 | seq`: one integer comparison orders by time, then by insertion.
struct Entry<E> {
    key: u128,
    event: E,
}

impl<E> Entry<E> {
    fn time(&self) -> Time {
        (self.key >> 64) as Time
    }
}

impl<E> PartialEq for Entry<E> {
    fn eq(&self, other: &Self) -> bool {
        self.key == other.key
    }
}
impl<E> Eq for Entry<E> {}
impl<E> PartialOrd for Entry<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Entry<E> {
    /// Reversed, so the max-heap pops the earliest `(time, seq)` first.
    fn cmp(&self, other: &Self) -> Ordering {
        other.key.cmp(&self.key)
    }
}

/// A clock and a priority queue of events of type `E`.
pub struct EventQueue<E> {
    heap: BinaryHeap<Entry<E>>,
    now: Time,
    next_seq: u64,
    processed: u64,
}

impl<E> core::fmt::Debug for EventQueue<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("EventQueue")
            .field("now", &self.now)
            .field("pending", &self.heap.len())
            .field("processed", &self.processed)
            .finish()
    }
}

impl<E> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> EventQueue<E> {
    /// An empty queue at time 0.
    pub fn new() -> Self {
        Self { heap: BinaryHeap::new(), now: 0, next_seq: 0, processed: 0 }
    }

    /// The current simulated time: the time of the event being processed (or last processed).
    pub fn now(&self) -> Time {
        self.now
    }

    /// How many events have been popped so far.
    pub fn processed(&self) -> u64 {
        self.processed
    }

    /// How many events are waiting.
    pub fn pending(&self) -> usize {
        self.heap.len()
    }

    /// Schedules `event` at `time`, which must not be in the past.
    pub fn schedule(&mut self, time: Time, event: E) {
        assert!(time >= self.now, "event scheduled in the past: {time} < {}", self.now);
        self.heap.push(Entry { key: (u128::from(time) << 64) | u128::from(self.next_seq), event });
        self.next_seq += 1;
    }

    /// The time of the next event, if any.
    pub fn peek_time(&self) -> Option<Time> {
        self.heap.peek().map(Entry::time)
    }

    /// Pops the next event and advances the clock to its time.
    pub fn pop(&mut self) -> Option<(Time, E)> {
        let e = self.heap.pop()?;
        let time = e.time();
        debug_assert!(time >= self.now, "time went backwards");
        self.now = time;
        self.processed += 1;
        Some((time, e.event))
    }

    /// Advances the clock to `time` with no event (used when a run stops between events).
    pub fn advance_to(&mut self, time: Time) {
        assert!(time >= self.now, "the clock cannot go back");
        debug_assert!(self.peek_time().is_none_or(|t| t >= time), "advancing past a pending event");
        self.now = time;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    #[test]
    fn pops_in_time_then_insertion_order() {
        let mut q = EventQueue::new();
        q.schedule(5, 'a');
        q.schedule(3, 'b');
        q.schedule(5, 'c');
        q.schedule(3, 'd');
        q.schedule(0, 'e');
        let order: Vec<char> = core::iter::from_fn(|| q.pop().map(|(_, e)| e)).collect();
        assert_eq!(order, ['e', 'b', 'd', 'a', 'c']);
        assert_eq!(q.now(), 5);
        assert_eq!(q.processed(), 5);
    }

    /// Differential test against a trivially correct model: a list sorted by (time, insertion index).
    #[test]
    fn matches_a_sorted_list_under_random_interleavings() {
        let mut rng = crate::rng::Rng::new(99, 0);
        for _ in 0..200 {
            let mut q = EventQueue::new();
            let mut model: Vec<(Time, u64)> = Vec::new();
            let mut id = 0u64;
            for _ in 0..300 {
                if rng.below(3) > 0 || model.is_empty() {
                    let t = q.now() + rng.below(20);
                    q.schedule(t, id);
                    model.push((t, id));
                    id += 1;
                } else {
                    model.sort();
                    let want = model.remove(0);
                    assert_eq!(q.pop(), Some(want));
                }
            }
            model.sort();
            for want in model {
                assert_eq!(q.pop(), Some(want));
            }
            assert_eq!(q.pop(), None);
        }
    }

    #[test]
    #[should_panic(expected = "in the past")]
    fn scheduling_in_the_past_is_a_bug() {
        let mut q = EventQueue::new();
        q.schedule(10, ());
        q.pop();
        q.schedule(9, ());
    }
}
