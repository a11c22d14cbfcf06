//! The discrete-event engine: a clock and a queue of timed events. It knows nothing about networks; the simulation
//! above it defines the event type and dispatches each event it pops.
//!
//! Events are ordered by `(time, seq)`, where `seq` counts insertions: events at the same time run in the order they
//! were scheduled, which makes every run deterministic.
//!
//! The queue is a radix heap (Ahuja, Mehlhorn, Orlin & Tarjan 1990) on event times. It works because the simulation
//! is monotone: every time scheduled is at or after `last`, the time of the event popped last. Events at `last` wait
//! in `current`, in `seq` order; any other waits in the bucket numbered by the highest bit where its time differs
//! from `last`. When `current` runs dry, the lowest non-empty bucket's earliest time becomes `last`, and that
//! bucket's events are re-filed against it (always into lower buckets, or into `current`). Scheduling is a push and
//! an event moves down at most once per bit, so the cost per event does not grow with the number of pending events
//! the way a binary heap's does; the loop runs about eight events per packet, so this matters.

use crate::time::Time;
use alloc::vec::Vec;

#[derive(Clone, Copy)]
struct Entry<E> {
    time: Time,
    seq: u64,
    event: E,
}

/// Bucket `b` holds times whose highest bit differing from `last` is bit `b`.
const BUCKETS: usize = 64;

/// A clock and a priority queue of events of type `E`.
pub struct EventQueue<E> {
    /// Events at `last`, in scheduling order, from `head` on.
    current: Vec<Entry<E>>,
    head: usize,
    buckets: [Vec<Entry<E>>; BUCKETS],
    /// Bit `b` set: bucket `b` is not empty.
    nonempty: u64,
    /// The time of the event popped last (0 before the first pop); the radix of the buckets.
    last: Time,
    len: usize,
    now: Time,
    next_seq: u64,
    processed: u64,
}

impl<E> core::fmt::Debug for EventQueue<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("EventQueue")
            .field("now", &self.now)
            .field("pending", &self.len)
            .field("processed", &self.processed)
            .finish()
    }
}

impl<E: Copy> Default for EventQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> EventQueue<E> {
    /// An empty queue at time 0.
    pub fn new() -> Self {
        Self {
            current: Vec::new(),
            head: 0,
            buckets: core::array::from_fn(|_| Vec::new()),
            nonempty: 0,
            last: 0,
            len: 0,
            now: 0,
            next_seq: 0,
            processed: 0,
        }
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
        self.len
    }

    /// Schedules `event` at `time`, which must not be in the past.
    pub fn schedule(&mut self, time: Time, event: E) {
        assert!(time >= self.now, "event scheduled in the past: {time} < {}", self.now);
        let seq = self.next_seq;
        self.next_seq += 1;
        self.len += 1;
        // `last <= now`: it is the time of the event being processed, or of an earlier one.
        self.file(Entry { time, seq, event });
    }

    /// Puts an entry where it waits relative to `last` (its time is not before `last`). Entries reach `current`
    /// in `seq` order: scheduled ones have the highest `seq` so far, and `pop_until` sorts the ones it re-files.
    fn file(&mut self, entry: Entry<E>) {
        let diff = entry.time ^ self.last;
        if diff == 0 {
            self.current.push(entry);
        } else {
            let b = (63 - diff.leading_zeros()) as usize;
            self.buckets[b].push(entry);
            self.nonempty |= 1 << b;
        }
    }

    /// The lowest non-empty bucket and its earliest time (when `current` is empty, the next event's time).
    fn earliest_bucket(&self) -> Option<(usize, Time)> {
        if self.nonempty == 0 {
            return None;
        }
        let b = self.nonempty.trailing_zeros() as usize;
        Some((b, self.buckets[b].iter().map(|e| e.time).min().expect("a non-empty bucket")))
    }

    /// The time of the next event, if any.
    pub fn peek_time(&self) -> Option<Time> {
        if self.head == self.current.len() {
            self.earliest_bucket().map(|(_, t)| t)
        } else {
            Some(self.last)
        }
    }

    /// Pops the next event and advances the clock to its time.
    pub fn pop(&mut self) -> Option<(Time, E)> {
        self.pop_until(Time::MAX)
    }

    /// Pops the next event if it is at or before `limit`, and advances the clock to its time.
    pub fn pop_until(&mut self, limit: Time) -> Option<(Time, E)> {
        if self.head == self.current.len() {
            let (b, time) = self.earliest_bucket()?;
            if time > limit {
                return None;
            }
            // The earliest time becomes `last`. Every entry of bucket `b` agreed with the old `last` above bit `b`,
            // as the new one does, so it differs from the new one only below bit `b`: it goes to a lower bucket or
            // to `current`. Other buckets stay valid, since the new `last` agrees with the old one above bit `b`.
            self.last = time;
            self.nonempty &= !(1 << b);
            self.current.clear();
            self.head = 0;
            for i in 0..self.buckets[b].len() {
                let e = self.buckets[b][i];
                self.file(e);
            }
            self.buckets[b].clear();
            // Re-filed entries come in bucket order, not scheduling order.
            if self.current.len() > 1 {
                self.current.sort_unstable_by_key(|e| e.seq);
            }
        } else if self.last > limit {
            return None;
        }
        let e = self.current[self.head];
        self.head += 1;
        self.len -= 1;
        debug_assert!(e.time >= self.now, "time went backwards");
        self.now = e.time;
        self.processed += 1;
        Some((e.time, e.event))
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

    /// Differential test against a trivially correct model: a list sorted by (time, insertion index). Pops are
    /// sometimes limited, as the simulation's are.
    #[test]
    fn matches_a_sorted_list_under_random_interleavings() {
        let mut rng = crate::rng::Rng::new(99, 0);
        for _ in 0..200 {
            let mut q = EventQueue::new();
            let mut model: Vec<(Time, u64)> = Vec::new();
            let mut id = 0u64;
            for _ in 0..300 {
                if rng.below(3) > 0 || model.is_empty() {
                    // Ties, near and far times: entries re-filed across many bucket levels.
                    let t = q.now() + rng.below(20) * rng.below(2) + (rng.below(2) << rng.below(45));
                    q.schedule(t, id);
                    model.push((t, id));
                    id += 1;
                } else {
                    model.sort();
                    // Just before the next event, at it, or after it.
                    let limit = (model[0].0 + rng.below(3)).saturating_sub(1);
                    if limit < model[0].0 {
                        assert_eq!(q.pop_until(limit), None);
                        assert_eq!(q.peek_time(), Some(model[0].0));
                    } else {
                        assert_eq!(q.pop_until(limit), Some(model.remove(0)));
                    }
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
