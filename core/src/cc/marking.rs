//! ECN marking at a switch (Globecom'02 §IV, INFOCOM'03 §IV-A), with the counter implementation that needs no scan
//! of the buffers.
//!
//! Per output port `o`: `cnt1[o]` counts packets in the switch waiting for `o` (up on arrival, down when the packet
//! starts on `o`, or with `cnt1_until: departure` when its tail has left the switch); `cnt2[o]` counts packets still
//! to be marked on `o`.
//! - naive: when an input buffer becomes full, every packet in it that has not started is marked.
//! - input-triggered: when an input buffer becomes full, `cnt2[o] = cnt1[o]` for every output `o` that a waiting
//!   packet of that buffer (with `departure`, also one being sent) is bound for; a packet starting on `o` while
//!   `cnt2[o] > 0` is marked and `cnt2[o]` drops.
//! - input-output-triggered: as input-triggered, and an arrival that makes `cnt1[o]` exceed the output threshold
//!   also sets `cnt2[o] = cnt1[o]`.
//!
//! A started packet is no longer marked; nobody clears a mark.

use crate::scenario::{Cnt1Until, Marking, MarkingPolicy};

/// The two counters of one output port.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PortCounters {
    /// Packets in the switch waiting for this output.
    pub cnt1: u32,
    /// Packets still to be marked when they start on this output.
    pub cnt2: u32,
}

/// A switch's marking policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marker {
    policy: MarkingPolicy,
    output_threshold: u32,
    cnt1_until: Cnt1Until,
}

impl Marker {
    /// `output_threshold` is used by input-output-triggered marking only.
    pub fn new(policy: MarkingPolicy, output_threshold: Option<u32>, cnt1_until: Cnt1Until) -> Self {
        Self { policy, output_threshold: output_threshold.unwrap_or(u32::MAX), cnt1_until }
    }

    /// The marker a scenario's `marking` block describes.
    pub fn of(m: &Marking) -> Self {
        Self::new(m.policy, m.output_threshold_packets, m.cnt1_until)
    }

    /// Whether a packet being sent still counts as in the switch (and arms its output when its buffer fills).
    pub fn counts_until_departure(&self) -> bool {
        self.cnt1_until == Cnt1Until::Departure
    }

    /// A data packet's tail has left the switch.
    pub fn left(&self, c: &mut PortCounters) {
        if self.counts_until_departure() {
            debug_assert!(c.cnt1 > 0, "a departure without an arrival");
            c.cnt1 -= 1;
        }
    }

    /// The policy.
    pub fn policy(&self) -> MarkingPolicy {
        self.policy
    }

    /// Whether a full buffer marks its own packets directly (naive).
    pub fn marks_full_buffer(&self) -> bool {
        self.policy == MarkingPolicy::Naive
    }

    /// Whether a full buffer triggers the counters of the outputs its packets wait for.
    pub fn triggers_outputs(&self) -> bool {
        matches!(self.policy, MarkingPolicy::InputTriggered | MarkingPolicy::InputOutputTriggered)
    }

    /// A packet bound for this output arrived.
    pub fn arrival(&self, c: &mut PortCounters) {
        c.cnt1 += 1;
        if self.policy == MarkingPolicy::InputOutputTriggered && c.cnt1 > self.output_threshold {
            c.cnt2 = c.cnt1;
        }
    }

    /// A full input buffer has a waiting packet bound for this output.
    pub fn buffer_full(&self, c: &mut PortCounters) {
        if self.triggers_outputs() {
            c.cnt2 = c.cnt1;
        }
    }

    /// A packet starts on this output; returns whether the output marks it.
    pub fn departure(&self, c: &mut PortCounters) -> bool {
        if !self.counts_until_departure() {
            debug_assert!(c.cnt1 > 0, "a departure without an arrival");
            c.cnt1 -= 1;
        }
        if self.triggers_outputs() && c.cnt2 > 0 {
            c.cnt2 -= 1;
            return true;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The counter walk of INFOCOM'03 §IV-A: a trigger marks as many departures as packets were waiting; a second
    /// trigger before `cnt2` runs out re-arms it with everything waiting then.
    #[test]
    fn input_triggered_marks_the_next_cnt1_departures() {
        let m = Marker::new(MarkingPolicy::InputTriggered, None, Cnt1Until::Start);
        let mut c = PortCounters::default();
        for _ in 0..5 {
            m.arrival(&mut c);
        }
        m.buffer_full(&mut c);
        assert_eq!(c, PortCounters { cnt1: 5, cnt2: 5 });
        let marks: std::vec::Vec<bool> = (0..3).map(|_| m.departure(&mut c)).collect();
        assert_eq!(marks, [true, true, true]);
        m.arrival(&mut c);
        m.arrival(&mut c);
        m.buffer_full(&mut c); // re-trigger: cnt2 = cnt1 = 4
        assert_eq!(c, PortCounters { cnt1: 4, cnt2: 4 });
        let marks: std::vec::Vec<bool> = (0..4).map(|_| m.departure(&mut c)).collect();
        assert_eq!(marks, [true; 4]);
        m.arrival(&mut c);
        assert!(!m.departure(&mut c), "nothing is armed any more");
    }

    /// Counting until departure, a packet being sent still counts: a trigger then arms one departure more, and the
    /// count drops only when the tail leaves.
    #[test]
    fn until_departure_a_packet_being_sent_still_counts() {
        let m = Marker::new(MarkingPolicy::InputTriggered, None, Cnt1Until::Departure);
        let mut c = PortCounters::default();
        m.arrival(&mut c);
        m.arrival(&mut c);
        assert!(!m.departure(&mut c));
        assert_eq!(c.cnt1, 2, "the first is being sent and still in the switch");
        m.buffer_full(&mut c);
        assert_eq!(c.cnt2, 2);
        m.left(&mut c);
        assert_eq!(c.cnt1, 1);
        assert!(m.departure(&mut c));
        m.arrival(&mut c);
        assert!(m.departure(&mut c), "the second mark goes to the next packet to start");
        m.left(&mut c);
        m.left(&mut c);
        assert_eq!(c, PortCounters { cnt1: 0, cnt2: 0 });
        // The default: `left` changes nothing, the start already counted the packet out.
        let m = Marker::new(MarkingPolicy::InputTriggered, None, Cnt1Until::Start);
        let mut c = PortCounters::default();
        m.arrival(&mut c);
        m.departure(&mut c);
        m.left(&mut c);
        assert_eq!(c.cnt1, 0);
    }

    #[test]
    fn output_threshold_triggers_on_the_arrival_that_exceeds_it() {
        let m = Marker::new(MarkingPolicy::InputOutputTriggered, Some(3), Cnt1Until::Start);
        let mut c = PortCounters::default();
        for _ in 0..3 {
            m.arrival(&mut c);
        }
        assert_eq!(c.cnt2, 0, "3 waiting does not exceed the threshold 3");
        m.arrival(&mut c);
        assert_eq!(c, PortCounters { cnt1: 4, cnt2: 4 });
    }

    #[test]
    fn naive_and_none_never_mark_at_the_output() {
        for policy in [MarkingPolicy::None, MarkingPolicy::Naive] {
            let m = Marker::new(policy, Some(1), Cnt1Until::Start);
            let mut c = PortCounters::default();
            for _ in 0..4 {
                m.arrival(&mut c);
            }
            m.buffer_full(&mut c);
            assert_eq!(c.cnt2, 0);
            assert!(!m.departure(&mut c));
        }
        assert!(Marker::new(MarkingPolicy::Naive, None, Cnt1Until::Start).marks_full_buffer());
    }
}
