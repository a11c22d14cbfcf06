//! ECN marking at a switch (Globecom'02 §IV, INFOCOM'03 §IV-A), with the counter implementation that needs no scan
//! of the buffers.
//!
//! Per output VL `o` (an output port's VL; with one VL, the port): `cnt1[o]` counts packets in the switch waiting for `o` (up on arrival, down when the packet
//! starts on `o`, or with `cnt1_until: departure` when its tail has left the switch); `cnt2[o]` counts packets still
//! to be marked on `o`.
//! - naive: when an input buffer becomes full, every packet in it that has not started is marked.
//! - input-triggered: when an input buffer becomes full, `cnt2[o] = cnt1[o]` for every output `o` that a waiting
//!   packet of that buffer (with `departure`, also one being sent) is bound for; a packet starting on `o` while
//!   `cnt2[o] > 0` is marked and `cnt2[o]` drops.
//! - input-output-triggered: as input-triggered, and an arrival that makes `cnt1[o]` exceed the output threshold
//!   also sets `cnt2[o] = cnt1[o]`.
//! - HP's root-VL heuristic (the HP proposal's slides, "Packet Marking Policy"): packets in a full buffer are marked
//!   (they propagate a congestion tree), as with naive marking; and every output a waiting packet of that buffer is
//!   bound for becomes a candidate root, assumed a root "until it runs out of credit or until it transmits all
//!   packets currently at the switch for this VL", while the packets it sends are marked (they generate the tree).
//!   In counters: the full buffer sets `cnt2[o] = cnt1[o]` as input-triggered marking does, a start marks while
//!   `cnt2[o] > 0`, and a start that had to wait for credit ends the assumption (`cnt2[o] = 0`, no mark). Between
//!   running out of credit and that start the output sends nothing, so ending it at the start is the same as ending
//!   it at the moment credit ran out. The slides' output VL is ours (`cc::OutputVl`): "for this VL", per VL.
//!
//! A started packet is no longer marked; nobody clears a mark.

use super::{InputVl, OutputVl, Start, SwitchControl};
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// Which packets switches mark (Globecom'02 §IV, INFOCOM'03 §IV-A).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MarkingPolicy {
    #[default]
    None,
    /// Mark every packet of an input buffer when it becomes full.
    Naive,
    /// A full input buffer marks, at each output it feeds, as many packets as wait for that output (cnt1/cnt2).
    InputTriggered,
    /// Input-triggered, plus marking when the packets waiting for an output exceed the output threshold.
    InputOutputTriggered,
    /// The HP proposal's policy: a full buffer's packets are marked, and the outputs they wait for are assumed
    /// roots, marking what they send, until they run out of credit or have sent what was waiting for them.
    HpRootVl,
}

/// When a switch checks whether an input buffer has become full (docs/model.md §3: on receipt, as the papers' footnotes
/// need; at the head's arrival is the credit view, kept as an option).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FullCheck {
    /// When a packet has been completely received, counting the blocks the buffer actually holds: a packet that
    /// cut through holds only what has not left yet. A victim passing through a busy buffer is then rarely part of a
    /// full buffer, as the papers observe (Globecom'02 footnote 6, INFOCOM'03 §VI-B.1).
    #[default]
    OnReceipt,
    /// When a packet's head arrives, counting each packet's whole size from head arrival to tail departure (the
    /// credit view): the arriving packet itself can be marked before it cuts through.
    OnHead,
}

/// Until when a packet counts in its output's `cnt1` (Globecom'02 §IV-B: "as packets enter and leave the switch").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Cnt1Until {
    /// Until it starts on its output: `cnt1` counts packets that still wait (docs/model.md §4).
    #[default]
    Start,
    /// Until its tail has left the switch: a packet being sent still counts, and a full buffer also arms the outputs
    /// its packets in transmission are bound for.
    Departure,
}

/// ECN marking at the switches.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Marking {
    pub policy: MarkingPolicy,
    /// Until when a packet counts as waiting for its output.
    pub cnt1_until: Cnt1Until,
    /// When a buffer is checked for being full.
    pub full_check: FullCheck,
    /// An input buffer counts as full at this many packets (`null`: when less than one packet of room is left).
    pub buffer_threshold_packets: Option<u32>,
    /// Input-output-triggered only: mark when more than this many packets wait for one output.
    pub output_threshold_packets: Option<u32>,
}

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
    #[inline]
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

    /// Whether a full buffer marks its own packets directly (naive, HP).
    pub fn marks_full_buffer(&self) -> bool {
        matches!(self.policy, MarkingPolicy::Naive | MarkingPolicy::HpRootVl)
    }

    /// Whether a full buffer triggers the counters of the outputs its packets wait for.
    pub fn triggers_outputs(&self) -> bool {
        matches!(
            self.policy,
            MarkingPolicy::InputTriggered | MarkingPolicy::InputOutputTriggered | MarkingPolicy::HpRootVl
        )
    }

    /// A packet bound for this output arrived.
    #[inline]
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

    /// A packet starts on this output, `waited_for_credit` if the output had run out of credit before it; returns
    /// whether the output marks it.
    #[inline]
    pub fn departure(&self, c: &mut PortCounters, waited_for_credit: bool) -> bool {
        if !self.counts_until_departure() {
            debug_assert!(c.cnt1 > 0, "a departure without an arrival");
            c.cnt1 -= 1;
        }
        if self.policy == MarkingPolicy::HpRootVl && waited_for_credit {
            // It ran out of credit: a victim of congestion further on, not a root (the slides' "until it runs out
            // of credit").
            c.cnt2 = 0;
            return false;
        }
        if self.triggers_outputs() && c.cnt2 > 0 {
            c.cnt2 -= 1;
            return true;
        }
        false
    }
}

/// When an input buffer counts as full (docs/model.md §3): its occupancy, in credit blocks, leaves less room than
/// one maximum-size packet, or reaches the configured lower threshold (INFOCOM'03 footnote 4); checked when a
/// packet's head arrives or when it has been completely received (`marking.full_check`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fullness {
    /// Occupancy, in blocks, at or above which a data buffer is full.
    full_at: u32,
    check: FullCheck,
}

impl Fullness {
    /// The rule for data buffers of `capacity` blocks holding packets of `packet_blocks` blocks.
    pub fn new(m: &Marking, capacity: u32, packet_blocks: u32) -> Self {
        let full_at = match m.buffer_threshold_packets {
            Some(t) => t.saturating_mul(packet_blocks).min(capacity),
            None => capacity - packet_blocks + 1,
        };
        Self { full_at, check: m.full_check }
    }

    /// Occupancy, in blocks, at or above which a data buffer is full.
    pub fn full_at(&self) -> u32 {
        self.full_at
    }
}

/// What a switch's congestion control wants done about an input buffer a packet just entered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BufferCheck {
    /// Nothing.
    None,
    /// It became full now: tell it of each packet in it ([`SwitchControl::on_buffer_full`]).
    Full,
    /// Check again when the packet has been completely received ([`SwitchControl::on_received`]).
    AtReceipt,
}

/// ECN marking at one switch: its policy, each output VL's counters, and when its input buffers count as full.
#[derive(Debug, Clone)]
pub struct EcnSwitch {
    marker: Marker,
    counters: Vec<PortCounters>,
    fullness: Fullness,
    /// Per input VL: found full at the last `on_receipt` check (a new trigger needs a new crossing).
    full: Vec<bool>,
    /// Its data buffers' size and a data packet's, in blocks (a new marking block recomputes `fullness`).
    capacity: u32,
    packet_blocks: u32,
}

impl EcnSwitch {
    /// Marking by `m` at a switch with `vl_ports` output VLs (and as many input VLs), data buffers of `capacity`
    /// blocks and data packets of `packet_blocks`.
    pub fn new(m: &Marking, vl_ports: usize, capacity: u32, packet_blocks: u32) -> Self {
        Self {
            marker: Marker::of(m),
            counters: vec![PortCounters::default(); vl_ports],
            fullness: Fullness::new(m, capacity, packet_blocks),
            full: vec![false; vl_ports],
            capacity,
            packet_blocks,
        }
    }

    pub fn marker(&self) -> Marker {
        self.marker
    }

    /// Output `out`'s counters.
    pub fn counters(&self, out: OutputVl) -> PortCounters {
        self.counters[out as usize]
    }

    /// Whether it wants to hear of full buffers at all (most of a run's full buffers, without ECN marking, need no
    /// look at their packets).
    fn hears_full_buffers(&self) -> bool {
        self.marker.marks_full_buffer() || self.marker.triggers_outputs()
    }
}

impl SwitchControl for EcnSwitch {
    #[inline]
    fn on_arrival(&mut self, out: OutputVl, _input: InputVl, before: u32, after: u32) -> BufferCheck {
        self.marker.arrival(&mut self.counters[out as usize]);
        let full_at = self.fullness.full_at;
        match self.fullness.check {
            // Triggered when the buffer becomes full: on the crossing (with the default threshold every arrival that
            // fills it is one, since credit guaranteed a packet's room).
            FullCheck::OnHead if before < full_at && after >= full_at && self.hears_full_buffers() => BufferCheck::Full,
            FullCheck::OnHead => BufferCheck::None,
            // Nothing else arrives on this input before this packet's tail, so the blocks held at receipt are at
            // most those reserved now: below the threshold now, the check cannot trigger. A policy that does not
            // hear of full buffers needs no check (a change to one finds the buffers as they are: `retune`).
            FullCheck::OnReceipt if after >= full_at && self.hears_full_buffers() => BufferCheck::AtReceipt,
            FullCheck::OnReceipt => BufferCheck::None,
        }
    }

    fn on_received(&mut self, input: InputVl, held: u32) -> bool {
        let full = held >= self.fullness.full_at;
        let crossed = full && !self.full[input as usize];
        self.full[input as usize] = full;
        crossed && self.hears_full_buffers()
    }

    /// Naive marking marks the buffer's waiting packets; input-triggered marking arms the counters of every output
    /// its waiting packets (with `cnt1_until: departure`, also those being sent) are bound for (Globecom'02 §IV-A,
    /// §IV-B).
    fn on_buffer_full(&mut self, out: OutputVl, started: bool) -> bool {
        if started && !self.marker.counts_until_departure() {
            return false;
        }
        self.marker.buffer_full(&mut self.counters[out as usize]);
        self.marker.marks_full_buffer() && !started
    }

    #[inline]
    fn on_start(&mut self, out: OutputVl, start: &Start) -> bool {
        self.marker.departure(&mut self.counters[out as usize], start.waited_for_credit)
    }

    #[inline]
    fn on_departure(&mut self, out: OutputVl, input: InputVl, after: u32) {
        self.marker.left(&mut self.counters[out as usize]);
        if after < self.fullness.full_at {
            self.full[input as usize] = false;
        }
    }

    /// A new marking block from now on. When what `cnt1` counts changes, `cnt1` is counted again from the buffers
    /// (otherwise it is carried over as it is). A policy that did not hear of full buffers did not check them at
    /// receipt: each input VL counts as full from now on if it holds `full_at` blocks now.
    fn retune(&mut self, m: &Marking, per_output: &dyn Fn(bool) -> Vec<u32>, held: &[u32]) {
        let recount = m.cnt1_until != self.marker.cnt1_until;
        let checked = self.hears_full_buffers();
        self.marker = Marker::of(m);
        self.fullness = Fullness::new(m, self.capacity, self.packet_blocks);
        if !checked {
            for (full, &held) in self.full.iter_mut().zip(held) {
                *full = held >= self.fullness.full_at;
            }
        }
        if recount {
            for (c, n) in self.counters.iter_mut().zip(per_output(self.marker.counts_until_departure())) {
                c.cnt1 = n;
            }
        }
    }

    /// `cnt1` of every output VL equals the packets the buffers hold for it.
    fn check(&self, per_output: &dyn Fn(bool) -> Vec<u32>) -> Result<(), (OutputVl, String)> {
        let want = per_output(self.marker.counts_until_departure());
        for (ovl, (c, want)) in self.counters.iter().zip(want).enumerate() {
            if c.cnt1 != want {
                let why = format!("cnt1 is {} but the buffers hold {want} packets for it", c.cnt1);
                return Err((ovl as OutputVl, why));
            }
        }
        Ok(())
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
        let marks: Vec<bool> = (0..3).map(|_| m.departure(&mut c, false)).collect();
        assert_eq!(marks, [true, true, true]);
        m.arrival(&mut c);
        m.arrival(&mut c);
        m.buffer_full(&mut c); // re-trigger: cnt2 = cnt1 = 4
        assert_eq!(c, PortCounters { cnt1: 4, cnt2: 4 });
        let marks: Vec<bool> = (0..4).map(|_| m.departure(&mut c, false)).collect();
        assert_eq!(marks, [true; 4]);
        m.arrival(&mut c);
        assert!(!m.departure(&mut c, false), "nothing is armed any more");
    }

    /// Counting until departure, a packet being sent still counts: a trigger then arms one departure more, and the
    /// count drops only when the tail leaves.
    #[test]
    fn until_departure_a_packet_being_sent_still_counts() {
        let m = Marker::new(MarkingPolicy::InputTriggered, None, Cnt1Until::Departure);
        let mut c = PortCounters::default();
        m.arrival(&mut c);
        m.arrival(&mut c);
        assert!(!m.departure(&mut c, false));
        assert_eq!(c.cnt1, 2, "the first is being sent and still in the switch");
        m.buffer_full(&mut c);
        assert_eq!(c.cnt2, 2);
        m.left(&mut c);
        assert_eq!(c.cnt1, 1);
        assert!(m.departure(&mut c, false));
        m.arrival(&mut c);
        assert!(m.departure(&mut c, false), "the second mark goes to the next packet to start");
        m.left(&mut c);
        m.left(&mut c);
        assert_eq!(c, PortCounters { cnt1: 0, cnt2: 0 });
        // The default: `left` changes nothing, the start already counted the packet out.
        let m = Marker::new(MarkingPolicy::InputTriggered, None, Cnt1Until::Start);
        let mut c = PortCounters::default();
        m.arrival(&mut c);
        m.departure(&mut c, false);
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

    /// The HP slides' heuristic, step by step through a switch's hooks: a full buffer's waiting packets are marked
    /// and the output they wait for is assumed a root; it marks what it sends until it has sent every packet that
    /// was at the switch for it, or until it runs out of credit, whichever comes first.
    #[test]
    fn hp_root_vl_marks_full_buffers_and_assumed_roots_until_credit_runs_out() {
        let start = |waited_for_credit| Start { queued_blocks: 0, packet_blocks: 1, waited_for_credit };
        let marking = |policy| Marking { policy, ..Marking::default() };
        // (Three output VLs; buffers of 132 blocks, packets of 33: an arrival is the packet's head only.)
        let arrive = |sw: &mut EcnSwitch, out| sw.on_arrival(out, 0, 0, 33);
        let mut sw = EcnSwitch::new(&marking(MarkingPolicy::HpRootVl), 3, 132, 33);
        assert!(sw.hears_full_buffers());
        // Output 1: three packets wait (two of them in the buffer that fills), output 2: one, in another buffer.
        for out in [1, 1, 1, 2] {
            arrive(&mut sw, out);
        }
        // The buffer fills: its two waiting packets (bound for 1) are marked, its started one is not, and output 1
        // is armed with everything waiting for it.
        assert!(sw.on_buffer_full(1, false));
        assert!(sw.on_buffer_full(1, false));
        assert!(!sw.on_buffer_full(1, true));
        assert_eq!(sw.counters(1), PortCounters { cnt1: 3, cnt2: 3 });
        assert_eq!(sw.counters(2).cnt2, 0, "output 2 has no packet in the full buffer: not a candidate");
        // A root: what it sends is marked, the packet from the other buffer included.
        assert!(sw.on_start(1, &start(false)));
        assert!(sw.on_start(1, &start(false)));
        assert!(!sw.on_start(2, &start(false)), "not a root");
        // It runs out of credit: the next packet waited for it, so output 1 was no root: no mark, and disarmed.
        arrive(&mut sw, 1);
        assert!(!sw.on_start(1, &start(true)));
        assert_eq!(sw.counters(1), PortCounters { cnt1: 1, cnt2: 0 });
        assert!(!sw.on_start(1, &start(false)), "nothing is armed any more");
        // Armed again, it stops after the packets that were waiting at the time: all sent, no longer a root.
        for _ in 0..2 {
            arrive(&mut sw, 1);
        }
        assert!(sw.on_buffer_full(1, false));
        let marks: Vec<bool> = (0..2).map(|_| sw.on_start(1, &start(false))).collect();
        assert_eq!(marks, [true, true]);
        arrive(&mut sw, 1);
        assert!(!sw.on_start(1, &start(false)), "arrived after the trigger: the assumption is over");
        // Input-triggered marking, in the same steps, neither marks the full buffer's packets nor lets go when
        // the output runs out of credit.
        let mut it = EcnSwitch::new(&marking(MarkingPolicy::InputTriggered), 3, 132, 33);
        arrive(&mut it, 1);
        arrive(&mut it, 1);
        assert!(!it.on_buffer_full(1, false));
        assert!(it.on_start(1, &start(true)));
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
            assert!(!m.departure(&mut c, false));
        }
        assert!(Marker::new(MarkingPolicy::Naive, None, Cnt1Until::Start).marks_full_buffer());
    }

    /// A buffer of 4 packets (132 blocks, 33 each) is full with less than a packet of room left (100 blocks), or
    /// at the lower threshold; on receipt, a buffer found full triggers once until it drops below the mark again.
    #[test]
    fn a_buffer_is_full_with_less_than_a_packet_of_room_and_triggers_once_per_crossing() {
        let naive = Marking { policy: MarkingPolicy::Naive, ..Marking::default() };
        assert_eq!(Fullness::new(&naive, 132, 33).full_at(), 100);
        let lower = Marking { buffer_threshold_packets: Some(2), ..naive };
        assert_eq!(Fullness::new(&lower, 132, 33).full_at(), 66);
        let mut sw = EcnSwitch::new(&naive, 2, 132, 33);
        assert_eq!(sw.on_arrival(0, 1, 66, 99), BufferCheck::None, "99 blocks: room for one more packet");
        assert_eq!(sw.on_arrival(0, 1, 99, 132), BufferCheck::AtReceipt);
        assert!(sw.on_received(1, 100), "crossed");
        assert!(!sw.on_received(1, 132), "still full: no new crossing");
        sw.on_departure(0, 1, 99);
        assert!(sw.on_received(1, 100), "it went below the mark and crossed again");
        let on_head = Marking { full_check: FullCheck::OnHead, ..naive };
        let mut sw = EcnSwitch::new(&on_head, 2, 132, 33);
        assert_eq!(sw.on_arrival(0, 1, 99, 132), BufferCheck::Full);
        let none = Marking { full_check: FullCheck::OnHead, ..Marking::default() };
        let mut sw = EcnSwitch::new(&none, 2, 132, 33);
        assert_eq!(sw.on_arrival(0, 1, 99, 132), BufferCheck::None, "no policy: nobody needs to hear of it");
    }

    /// Without a policy nothing is checked at receipt; a change to one takes each buffer as full or not by what it
    /// holds then, so only a new crossing triggers.
    #[test]
    fn a_policy_set_during_a_run_finds_the_buffers_as_they_are() {
        let (none, naive) = (Marking::default(), Marking { policy: MarkingPolicy::Naive, ..Marking::default() });
        let mut sw = EcnSwitch::new(&none, 2, 132, 33);
        assert_eq!(sw.on_arrival(0, 1, 99, 132), BufferCheck::None, "no policy: no check at receipt");
        sw.retune(&naive, &|_| vec![0, 0], &[100, 99]);
        assert!(!sw.on_received(0, 132), "input VL 0 was full already");
        assert!(sw.on_received(1, 100), "input VL 1 crosses now");
        // A change between policies that check keeps what the checks found.
        let input_triggered = Marking { policy: MarkingPolicy::InputTriggered, ..naive };
        sw.retune(&input_triggered, &|_| vec![0, 0], &[0, 0]);
        assert!(!sw.on_received(1, 100), "still full as last checked");
    }
}
