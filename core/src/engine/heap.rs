//! The plain binary heap the timing wheel replaced, kept to measure the two against each other: built with the
//! `heap-queue` feature, the simulation runs on it (`engine::Queue`), in exactly the same event order
//! (docs/performance.md, "The event queue").

use super::{Entry, Far};
use crate::time::Time;
use alloc::collections::BinaryHeap;

/// A clock and a min-heap of events by `(time, seq)`: [`super::EventQueue`]'s interface and order.
#[derive(Clone)]
pub struct HeapQueue<E> {
    heap: BinaryHeap<Far<E>>,
    now: Time,
    next_seq: u64,
    processed: u64,
}

impl<E> core::fmt::Debug for HeapQueue<E> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("HeapQueue")
            .field("now", &self.now)
            .field("pending", &self.heap.len())
            .field("processed", &self.processed)
            .finish()
    }
}

impl<E: Copy> Default for HeapQueue<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E: Copy> HeapQueue<E> {
    /// An empty queue at time 0.
    pub fn new() -> Self {
        Self { heap: BinaryHeap::new(), now: 0, next_seq: 0, processed: 0 }
    }

    /// An empty queue at time 0 (the wheel's bucket width means nothing to a heap).
    pub fn with_bucket(_width: Time) -> Self {
        Self::new()
    }

    /// The wheel's widest bucket: a heap has none, and says so for code that asks.
    pub fn bucket(&self) -> Time {
        super::BUCKET_PS
    }

    /// The current simulated time.
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
    #[inline(always)]
    pub fn schedule(&mut self, time: Time, event: E) {
        assert!(time >= self.now, "event scheduled in the past: {time} < {}", self.now);
        self.heap.push(Far(Entry { time, seq: self.next_seq, event }));
        self.next_seq += 1;
    }

    /// The event that the pop `k` after the next one would return: the heap does not say (the wheel does).
    #[inline(always)]
    pub fn ahead(&self, _k: usize) -> Option<&E> {
        None
    }

    /// The time of the next event, if any.
    pub fn peek_time(&self) -> Option<Time> {
        self.heap.peek().map(|f| f.0.time)
    }

    /// Pops the next event and advances the clock to its time.
    pub fn pop(&mut self) -> Option<(Time, E)> {
        self.pop_until(Time::MAX)
    }

    /// Pops the next event if it is at or before `limit`, and advances the clock to its time.
    #[inline]
    pub fn pop_until(&mut self, limit: Time) -> Option<(Time, E)> {
        if self.heap.peek()?.0.time > limit {
            return None;
        }
        let e = self.heap.pop().expect("peeked").0;
        self.now = e.time;
        self.processed += 1;
        Some((e.time, e.event))
    }

    /// Advances the clock to `time` with no event.
    pub fn advance_to(&mut self, time: Time) {
        assert!(time >= self.now, "the clock cannot go back");
        debug_assert!(self.peek_time().is_none_or(|t| t >= time), "advancing past a pending event");
        self.now = time;
    }
}
