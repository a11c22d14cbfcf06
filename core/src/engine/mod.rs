//! The discrete-event engine: a clock and a queue of timed events. It knows nothing about networks; the simulation
//! above it defines the event type and dispatches each event it pops.
//!
//! Events are ordered by `(time, seq)`, where `seq` counts insertions: events at the same time run in the order they
//! were scheduled, which makes every run deterministic.
//!
//! The queue is a timing wheel (Varghese & Lauck 1987) with a heap for the far future. Time is cut into buckets (as
//! wide as suits the network, at most [`BUCKET_PS`]); the wheel holds the next [`SLOTS`] buckets, one list each, and a
//! bitmap says which are occupied. The bucket being drained is `current`, kept sorted. Scheduling is a push into one
//! bucket (or a sorted insert into `current` near its end, else a push onto the `late` heap beside it; or a heap push
//! beyond the wheel's horizon); popping takes the earlier of `current`'s head and `late`'s top, and when both run dry
//! the bitmap finds the next occupied bucket, which is sorted once. In a small network a bucket holds a few events and
//! an event scheduled into it goes at or near its end; in a fabric of thousands of hosts a bucket holds thousands, and
//! a sorted insert among them would move most of them each time (it did: a third of a 1,024-host run was spent so),
//! which `late` avoids. The simulation schedules mostly within a few microseconds (ends of transmission, forwarding
//! delays), which is what the bucket width and horizon are chosen for; rate timers further out go to the heap and are
//! compared with the wheel only when a bucket runs dry.

mod heap;

pub use heap::HeapQueue;

use crate::time::Time;
use alloc::collections::BinaryHeap;
use alloc::vec::Vec;
use core::cmp::Ordering;

/// The queue the simulation runs on: the timing wheel, or with the `heap-queue` feature the plain binary heap, to
/// measure one against the other (the same events in the same order either way).
#[cfg(not(feature = "heap-queue"))]
pub type Queue<E> = EventQueue<E>;
/// The queue the simulation runs on: here, built with the `heap-queue` feature, the plain binary heap.
#[cfg(feature = "heap-queue")]
pub type Queue<E> = HeapQueue<E>;

#[derive(Clone, Copy)]
struct Entry<E> {
    time: Time,
    seq: u64,
    event: E,
}

impl<E> Entry<E> {
    fn key(&self) -> (Time, u64) {
        (self.time, self.seq)
    }
}

/// Far entries in a min-heap by `(time, seq)`.
#[derive(Clone, Copy)]
struct Far<E>(Entry<E>);

impl<E> PartialEq for Far<E> {
    fn eq(&self, other: &Self) -> bool {
        self.0.key() == other.0.key()
    }
}
impl<E> Eq for Far<E> {}
impl<E> PartialOrd for Far<E> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl<E> Ord for Far<E> {
    fn cmp(&self, other: &Self) -> Ordering {
        other.0.key().cmp(&self.0.key())
    }
}

/// log2 of the widest bucket in picoseconds: 131 ns, the width for a network of few links (the papers'), where a
/// bucket holds a few events. Measured on the benchmarks: narrower buckets cost more empty-bucket scanning, wider ones
/// more sorting (16 ns: 4% more instructions on Fig. 4, 262 ns: about the same, slower on a fat tree). A network of
/// many busy links gets narrower buckets ([`EventQueue::with_bucket`]).
const MAX_SHIFT: u32 = 17;
/// log2 of the narrowest bucket: 1 ns.
const MIN_SHIFT: u32 = 10;
/// The widest bucket's width in picoseconds (the default).
pub const BUCKET_PS: Time = 1 << MAX_SHIFT;
/// Buckets on the wheel: a horizon of 67 us at the widest, many packet times at the papers' link rates; 0.5 us at
/// the narrowest, a few packet times at the link rates of the networks that get it.
pub const SLOTS: usize = 512;
const WORDS: usize = SLOTS / 64;
/// How far from its end an event scheduled into the bucket being drained may be inserted in order; further in, it
/// goes onto the `late` heap. A sorted insert moves the entries after it: a few are cheaper than a heap.
const NEAR: usize = 16;

/// A clock and a priority queue of events of type `E`. Cloning it copies every pending event: the page keeps
/// clones of a whole simulation as checkpoints to go back in time exactly.
#[derive(Clone)]
pub struct EventQueue<E> {
    /// The events of bucket `cursor` (and any scheduled since for an earlier time), sorted, from `head` on.
    current: Vec<Entry<E>>,
    head: usize,
    /// Events scheduled into the bucket being drained that would have gone more than [`NEAR`] entries before its
    /// end: a min-heap by `(time, seq)`, drained together with `current`.
    late: BinaryHeap<Far<E>>,
    /// The absolute number (time / bucket width) of the bucket `current` holds.
    cursor: u64,
    /// Bucket `b`, for `cursor < b < cursor + SLOTS`, is `wheel[b % SLOTS]`, in scheduling order.
    wheel: Vec<Vec<Entry<E>>>,
    /// Bit `s` set: `wheel[s]` is not empty.
    occupied: [u64; WORDS],
    /// Emptied buckets' buffers, for the next buckets to fill. A drained bucket's buffer went back to its slot
    /// before, so every one of the 512 slots grew to the most any bucket held: 93 of a 11,664-host run's 234 MB.
    spare: Vec<Vec<Entry<E>>>,
    /// Events at or beyond `cursor + SLOTS` buckets when they were scheduled.
    far: BinaryHeap<Far<E>>,
    /// Room for sorting a bucket ([`sort_bucket`]), kept between buckets (empty in between, so a clone copies none).
    scratch: Vec<Entry<E>>,
    counts: Vec<u32>,
    /// log2 of the bucket width in picoseconds.
    shift: u32,
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
    /// An empty queue at time 0, with the widest buckets.
    pub fn new() -> Self {
        Self::with_bucket(BUCKET_PS)
    }

    /// An empty queue at time 0 whose buckets are `width` picoseconds wide, or the nearest power of two below it
    /// from 1 ns to 131 ns. Narrower buckets suit a network of many busy links: at 131 ns a bucket of a 1,024-host
    /// fabric holds thousands of events, and an event due within it (a head arriving 25 ns on) goes onto `late`,
    /// whose pops were a tenth of such a run. The order of events is the same whatever the width.
    pub fn with_bucket(width: Time) -> Self {
        let shift = (Time::BITS - 1).saturating_sub(width.max(1).leading_zeros()).clamp(MIN_SHIFT, MAX_SHIFT);
        Self {
            current: Vec::new(),
            head: 0,
            late: BinaryHeap::new(),
            cursor: 0,
            wheel: (0..SLOTS).map(|_| Vec::new()).collect(),
            occupied: [0; WORDS],
            spare: Vec::new(),
            far: BinaryHeap::new(),
            scratch: Vec::new(),
            counts: Vec::new(),
            shift,
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

    /// The width of its buckets in picoseconds.
    pub fn bucket(&self) -> Time {
        1 << self.shift
    }

    /// Schedules `event` at `time`, which must not be in the past.
    #[inline(always)]
    pub fn schedule(&mut self, time: Time, event: E) {
        assert!(time >= self.now, "event scheduled in the past: {time} < {}", self.now);
        let entry = Entry { time, seq: self.next_seq, event };
        self.next_seq += 1;
        self.len += 1;
        let b = time >> self.shift;
        if b <= self.cursor {
            // Into the bucket being drained, in order: it has the highest seq, so it goes after every entry that
            // is not later. Only near the end; an event due before many others waits on `late`.
            let mut at = self.current.len();
            let nearest = at.saturating_sub(NEAR).max(self.head);
            while at > nearest && self.current[at - 1].time > time {
                at -= 1;
            }
            if at > self.head && self.current[at - 1].time > time {
                self.late.push(Far(entry));
            } else {
                self.current.insert(at, entry);
            }
        } else if b - self.cursor < SLOTS as u64 {
            let slot = (b % SLOTS as u64) as usize;
            let bucket = &mut self.wheel[slot];
            if bucket.capacity() == 0 {
                if let Some(buffer) = self.spare.pop() {
                    *bucket = buffer;
                }
            }
            bucket.push(entry);
            self.occupied[slot / 64] |= 1 << (slot % 64);
        } else {
            self.far.push(Far(entry));
        }
    }

    /// The absolute number of the first occupied bucket after `cursor`, if any.
    fn next_occupied(&self) -> Option<u64> {
        let start = ((self.cursor + 1) % SLOTS as u64) as usize;
        let (mut word, bit) = (start / 64, start % 64);
        let mut bits = self.occupied[word] & (u64::MAX << bit);
        // At most WORDS + 1 words: the first one's high part, the others, and the first one's low part again.
        for _ in 0..=WORDS {
            if bits != 0 {
                let slot = word * 64 + bits.trailing_zeros() as usize;
                let ahead = (slot + SLOTS - start) % SLOTS;
                return Some(self.cursor + 1 + ahead as u64);
            }
            word = (word + 1) % WORDS;
            bits = self.occupied[word];
        }
        None
    }

    /// Makes the earliest bucket `current` (with the far events that fall in it); false if nothing is left.
    #[inline(never)]
    fn advance(&mut self) -> bool {
        debug_assert!(self.late.is_empty(), "the bucket being drained has events left");
        let next = self.next_occupied();
        let far = self.far.peek().map(|f| f.0.time >> self.shift);
        let target = match (next, far) {
            (None, None) => return false,
            (Some(n), None) => n,
            (None, Some(f)) => f,
            (Some(n), Some(f)) => n.min(f),
        };
        self.current.clear();
        self.head = 0;
        self.cursor = target;
        if next == Some(target) {
            let slot = (target % SLOTS as u64) as usize;
            core::mem::swap(&mut self.current, &mut self.wheel[slot]);
            self.occupied[slot / 64] &= !(1 << (slot % 64));
            // (`current` was cleared: its buffer is empty.)
            let buffer = core::mem::take(&mut self.wheel[slot]);
            if buffer.capacity() > 0 {
                self.spare.push(buffer);
            }
        }
        // The far events of this bucket were all scheduled before any of its wheel events (it was beyond the horizon
        // then, and the horizon only moves on), and each list is in scheduling order: far events first, the bucket
        // is in `seq` order, and a stable sort by time alone leaves it in `(time, seq)` order.
        let wheel_events = self.current.len();
        while self.far.peek().is_some_and(|f| f.0.time >> self.shift == target) {
            let Far(e) = self.far.pop().expect("peeked");
            self.current.push(e);
        }
        let far_events = self.current.len() - wheel_events;
        if far_events > 0 {
            self.current[wheel_events..].sort_unstable_by_key(|e| e.seq);
            self.current.rotate_right(far_events);
        }
        debug_assert!(self.current.windows(2).all(|w| w[0].seq < w[1].seq), "a bucket is in scheduling order");
        sort_bucket(&mut self.current, &mut self.scratch, &mut self.counts, target << self.shift, self.shift);
        true
    }

    /// The event `k` places after the next one in the bucket being drained (`ahead(0)`: the next one), if the bucket
    /// holds that many: what the pop `k` after the next would return, unless events go onto `late` or are scheduled
    /// before it meanwhile. Not looked at: `late`, and later buckets. This is for prefetching, where a guess will do.
    #[inline(always)]
    pub fn ahead(&self, k: usize) -> Option<&E> {
        self.current.get(self.head + k).map(|e| &e.event)
    }

    /// The time of the next event, if any.
    pub fn peek_time(&self) -> Option<Time> {
        let head = self.current.get(self.head).map(|e| e.time);
        let late = self.late.peek().map(|f| f.0.time);
        if head.is_some() || late.is_some() {
            return head.into_iter().chain(late).min();
        }
        let wheel = self.next_occupied().map(|b| {
            let slot = (b % SLOTS as u64) as usize;
            self.wheel[slot].iter().map(|e| e.time).min().expect("an occupied bucket")
        });
        let far = self.far.peek().map(|f| f.0.time);
        match (wheel, far) {
            (Some(w), Some(f)) => Some(w.min(f)),
            (w, f) => w.or(f),
        }
    }

    /// Pops the next event and advances the clock to its time.
    pub fn pop(&mut self) -> Option<(Time, E)> {
        self.pop_until(Time::MAX)
    }

    /// Pops the next event if it is at or before `limit`, and advances the clock to its time.
    #[inline]
    pub fn pop_until(&mut self, limit: Time) -> Option<(Time, E)> {
        // Everything not in `current` or `late` is in a later bucket, so the earlier of their heads, if any, is the
        // next event. Moving `cursor` on without popping is harmless: whatever is scheduled later at or before it
        // joins `current` or `late`. (`late` is empty but in crowded buckets: that case is kept apart, out of line,
        // so that this one stays small enough to be inlined into the event loop.)
        if !self.late.is_empty() {
            return self.pop_with_late(limit);
        }
        if self.head == self.current.len() && !self.advance() {
            return None;
        }
        let e = self.current[self.head];
        if e.time > limit {
            return None;
        }
        self.head += 1;
        Some(self.popped(e))
    }

    /// `pop_until` when `late` holds events: the earlier of its top and `current`'s head.
    #[inline(never)]
    fn pop_with_late(&mut self, limit: Time) -> Option<(Time, E)> {
        let late = self.late.peek().expect("not empty").0;
        let e = match self.current.get(self.head) {
            Some(c) if c.key() < late.key() => *c,
            _ => late,
        };
        if e.time > limit {
            return None;
        }
        if e.seq == late.seq {
            self.late.pop();
        } else {
            self.head += 1;
        }
        Some(self.popped(e))
    }

    /// The clock moves to popped entry `e`.
    #[inline(always)]
    fn popped(&mut self, e: Entry<E>) -> (Time, E) {
        self.len -= 1;
        debug_assert!(e.time >= self.now, "time went backwards");
        self.now = e.time;
        self.processed += 1;
        (e.time, e.event)
    }

    /// Advances the clock to `time` with no event (used when a run stops between events).
    pub fn advance_to(&mut self, time: Time) {
        assert!(time >= self.now, "the clock cannot go back");
        debug_assert!(self.peek_time().is_none_or(|t| t >= time), "advancing past a pending event");
        self.now = time;
    }
}

/// Buckets of at most this many events are sorted by comparison; [`sort_bucket`] counts larger ones.
const SMALL_BUCKET: usize = 16;

/// Sorts `bucket`, whose entries are in `seq` order and all within the bucket of width `2^shift` from `base`, by time
/// and stably, so into `(time, seq)` order.
///
/// The buckets of a network of many busy links, narrowed for it ([`EventQueue::with_bucket`]), each hold tens to
/// hundreds of events spread over the bucket in no order: they are sorted by counting, into a bin for about every two
/// entries by the high bits of the time within the bucket, then by insertion for the few entries that share a bin out
/// of order. The comparison sort this replaced there spent a tenth of a 1,024-host run, mostly mispredicting its
/// branches. A small network's buckets, the widest, hold its few streams of events, each in time order, which the
/// standard library's sort finds and merges in fewer instructions (docs/performance.md, "The event queue").
fn sort_bucket<E: Copy>(
    bucket: &mut [Entry<E>],
    scratch: &mut Vec<Entry<E>>,
    counts: &mut Vec<u32>,
    base: Time,
    shift: u32,
) {
    let n = bucket.len();
    if n <= SMALL_BUCKET || shift == MAX_SHIFT {
        bucket.sort_by_key(|e| e.time);
        return;
    }
    debug_assert!(bucket.iter().all(|e| e.time >> shift == base >> shift), "an entry outside its bucket");
    // The top `bits` bits of the time within the bucket: 32 to 4,096 bins.
    let bits = (usize::BITS - (n - 1).leading_zeros() - 1).clamp(5, 12).min(shift);
    let drop = shift - bits;
    let bin = |e: &Entry<E>| ((e.time - base) >> drop) as usize;
    counts.clear();
    counts.resize((1 << bits) + 1, 0);
    for e in bucket.iter() {
        counts[bin(e) + 1] += 1;
    }
    // (Each bin's count becomes where it starts.)
    for b in 1..counts.len() {
        counts[b] += counts[b - 1];
    }
    scratch.clear();
    scratch.extend_from_slice(bucket);
    for e in scratch.iter() {
        let at = &mut counts[bin(e)];
        bucket[*at as usize] = *e;
        *at += 1;
    }
    scratch.clear();
    counts.clear();
    // (Within a bin the entries are still in `seq` order.)
    sort_by_insertion(bucket);
}

/// Sorts `v` by time, stably, by insertion: an entry goes back past those later in time, not past ties. Should that
/// move many (times bunched out of order), the moves would grow as their square: past a few per entry, the standard
/// library's stable sort finishes the job, from an order in which ties are still as they came.
fn sort_by_insertion<E: Copy>(v: &mut [Entry<E>]) {
    let mut moved = 0;
    for i in 1..v.len() {
        let e = v[i];
        if e.time < v[i - 1].time {
            let mut j = i - 1;
            while j > 0 && v[j - 1].time > e.time {
                j -= 1;
            }
            v.copy_within(j..i, j + 1);
            v[j] = e;
            moved += i - j;
            if moved > 4 * v.len() {
                v.sort_by_key(|e| e.time);
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// Bucket widths the tests take every path with: the narrowest, one between, the widest.
    const WIDTHS: [Time; 3] = [1 << MIN_SHIFT, 1 << 14, BUCKET_PS];

    #[test]
    fn a_bucket_is_the_power_of_two_at_or_below_the_width_asked_within_the_bounds() {
        let width = |w| EventQueue::<()>::with_bucket(w).bucket();
        assert_eq!(
            [width(0), width(1_500), width(20_000), width(16_384), width(1 << 40)],
            [1_024, 1_024, 16_384, 16_384, BUCKET_PS]
        );
    }

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

    #[test]
    fn looks_ahead_at_the_events_that_pop_next_in_the_bucket_being_drained() {
        let mut q = EventQueue::new();
        for (t, e) in [(5, 'a'), (3, 'b'), (5, 'c'), (3, 'd'), (0, 'e'), (BUCKET_PS + 1, 'f')] {
            q.schedule(t, e);
        }
        // `ahead(k)` is the event the (k + 1)-th pop from here returns, within the bucket being drained.
        assert_eq!(q.ahead(0), Some(&'e'));
        assert_eq!(q.pop(), Some((0, 'e')));
        assert_eq!([q.ahead(0), q.ahead(1), q.ahead(2), q.ahead(3)], [Some(&'b'), Some(&'d'), Some(&'a'), Some(&'c')]);
        assert_eq!(q.ahead(4), None, "the next bucket is not looked at");
        q.pop();
        assert_eq!(q.ahead(0), Some(&'d'));
        // A later bucket, filled out of order, is sorted when it becomes the one being drained.
        for (t, e) in [(BUCKET_PS + 9, 'i'), (BUCKET_PS + 7, 'h'), (BUCKET_PS + 7, 'g')] {
            q.schedule(t, e);
        }
        while q.pop().is_some_and(|(_, e)| e != 'f') {}
        assert_eq!([q.ahead(0), q.ahead(1), q.ahead(2), q.ahead(3)], [Some(&'h'), Some(&'g'), Some(&'i'), None]);
    }

    /// Differential test against a trivially correct model: a list sorted by (time, insertion index). Pops are
    /// sometimes limited, as the simulation's are. Times are ties, within a bucket, across a few buckets, around the
    /// wheel's horizon and far beyond it, so every path (current, wheel, wrap-around, far heap) is taken.
    #[test]
    fn matches_a_sorted_list_under_random_interleavings() {
        let mut rng = crate::rng::Rng::new(99, 0);
        for i in 0..300 {
            let mut q = EventQueue::with_bucket(WIDTHS[i % WIDTHS.len()]);
            let bucket = q.bucket();
            let horizon = bucket * SLOTS as u64;
            let mut model: Vec<(Time, u64)> = Vec::new();
            let mut id = 0u64;
            for _ in 0..400 {
                if rng.below(3) > 0 || model.is_empty() {
                    let offset = match rng.below(6) {
                        0 => 0,
                        1 => rng.below(bucket),
                        2 => rng.below(8 * bucket),
                        3 => horizon - bucket + rng.below(2 * bucket),
                        4 => rng.below(3 * horizon),
                        _ => 1 << rng.below(45),
                    };
                    let t = q.now() + offset;
                    q.schedule(t, id);
                    model.push((t, id));
                    id += 1;
                } else {
                    model.sort();
                    assert_eq!(q.peek_time(), Some(model[0].0));
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
            assert_eq!(q.pending(), model.len());
            for want in model {
                assert_eq!(q.pop(), Some(want));
            }
            assert_eq!(q.pop(), None);
            assert_eq!(q.peek_time(), None);
        }
    }

    /// The plain heap (kept to measure against) pops exactly what the wheel pops, under the same random interleaving.
    #[test]
    fn the_heap_pops_what_the_wheel_pops() {
        let mut rng = crate::rng::Rng::new(7, 0);
        for i in 0..100 {
            let (mut wheel, mut heap) = (EventQueue::with_bucket(WIDTHS[i % WIDTHS.len()]), HeapQueue::new());
            let bucket = wheel.bucket();
            let horizon = bucket * SLOTS as u64;
            for id in 0..600u64 {
                if rng.below(3) > 0 {
                    let offset =
                        [0, rng.below(bucket), rng.below(8 * bucket), rng.below(3 * horizon)][rng.below(4) as usize];
                    wheel.schedule(wheel.now() + offset, id);
                    heap.schedule(heap.now() + offset, id);
                } else {
                    let limit = wheel.now() + rng.below(2 * bucket);
                    assert_eq!(heap.pop_until(limit), wheel.pop_until(limit));
                    assert_eq!((heap.now(), heap.pending()), (wheel.now(), wheel.pending()));
                }
            }
            while let Some(e) = wheel.pop() {
                assert_eq!(heap.pop(), Some(e));
            }
            assert_eq!((heap.pop(), heap.processed()), (None, wheel.processed()));
        }
    }

    /// A crowded bucket, as in a fabric of thousands of hosts: events scheduled into the bucket being drained land
    /// far before its end (onto `late`) as well as near it, interleaved with pops; the order is still exact.
    #[test]
    fn a_crowded_bucket_pops_in_order() {
        let mut rng = crate::rng::Rng::new(7, 0);
        for i in 0..50 {
            let mut q = EventQueue::with_bucket(WIDTHS[i % WIDTHS.len()]);
            let bucket = q.bucket();
            let mut model: Vec<(Time, u64)> = Vec::new();
            let base = bucket * 3;
            for id in 0..200 {
                let t = base + rng.below(bucket);
                q.schedule(t, id);
                model.push((t, id));
            }
            for id in 200..2000u64 {
                if rng.below(2) == 0 {
                    // Into the present bucket (or the next few), at or after now.
                    let buckets = if rng.below(4) == 0 { 3 } else { 1 };
                    let t = q.now().max(base) + rng.below(bucket * buckets);
                    q.schedule(t, id);
                    model.push((t, id));
                } else if !model.is_empty() {
                    model.sort();
                    assert_eq!(q.peek_time(), Some(model[0].0));
                    assert_eq!(q.pop(), Some(model.remove(0)));
                }
            }
            model.sort();
            assert_eq!(q.pending(), model.len());
            for want in model {
                assert_eq!(q.pop(), Some(want));
            }
            assert_eq!(q.pop(), None);
        }
    }

    /// A crowded bucket's counting sort gives what a stable sort by time gives, for buckets of every size around the
    /// threshold and beyond, with ties, with times spread over the bucket and bunched in one corner of it.
    #[test]
    fn a_bucket_is_sorted_as_a_stable_sort_by_time_sorts_it() {
        let mut rng = crate::rng::Rng::new(3, 0);
        let (mut scratch, mut counts) = (Vec::new(), Vec::new());
        for shift in [MIN_SHIFT, 14, MAX_SHIFT - 1, MAX_SHIFT] {
            let base = 5 << shift;
            for n in [0, 1, 2, SMALL_BUCKET, SMALL_BUCKET + 1, 100, 300, 1_000, 5_000] {
                for spread in [1 << shift, 1 << (shift - 6), 3] {
                    let mut v: Vec<Entry<u32>> = (0..n)
                        .map(|i| Entry { time: base + rng.below(spread), seq: i as u64, event: i as u32 })
                        .collect();
                    let mut want = v.clone();
                    want.sort_by_key(|e| e.time);
                    sort_bucket(&mut v, &mut scratch, &mut counts, base, shift);
                    assert!(v.iter().map(Entry::key).eq(want.iter().map(Entry::key)), "{n} entries, spread {spread}");
                    assert!(scratch.is_empty());
                }
            }
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
