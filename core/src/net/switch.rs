//! An input-buffered switch's state and its scheduling (model.md §3): input buffers per port and lane, outputs with
//! the packets waiting for them, and the choice of the next packet for an output.
//!
//! Scheduling (INFOCOM'03 footnote 6, Globecom'02 Table I): among the packets that could start now (eligible, their
//! output idle with credit downstream, and their input buffer not already sending `input_transfers` packets: no
//! limit by default, 1 for a classic crossbar), each output takes the oldest by arrival (`arbitration:
//! oldest_first`, what the papers' numbers need) or serves its inputs in turn (`round_robin`). A packet may overtake
//! older packets of its own buffer that cannot go. The head of the buffer (its oldest packet not yet sent) counts
//! each time it is overtaken, and once overtaken `max_bypass` times blocks its buffer until it leaves; with
//! `bypass_counting: each_packet` every overtaken packet counts, the head or not. ACKs (their own lane) go first at
//! every output; between data VLs, each output's VL arbiter chooses (`net::vl`). The cost of a pass grows with the switch's ports and buffer sizes, never with flows or network
//! size.

use super::packet::{Lane, PacketId};
use super::topology::{ChannelId, NodeId, PortId};
use super::vl::{Choice, VlArbiter};
use crate::time::Time;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// An output VL of a switch: `port × data VLs + VL` (with one VL, the port). The HP slides want congestion control
/// "independent for each VL": a switch's congestion control keeps its counters and state per output VL.
pub type OutputVl = u32;

/// How an output chooses among the input buffers with a packet for it. The papers only give the order within one
/// buffer ("FIFO with possible bypass of older packets", Globecom'02 Table I); this is our choice, documented in
/// docs/scenario.md.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arbitration {
    /// The oldest packet by arrival at the switch goes first.
    #[default]
    OldestFirst,
    /// The inputs take turns: the first input after the one this output served last that has a packet able to go
    /// sends its oldest such packet.
    RoundRobin,
}

/// Which packets count bypasses toward `max_bypass`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BypassCounting {
    /// Only the head of the buffer (its oldest packet not yet sent) counts, from when it became the head:
    /// "the head of the queue can be bypassed at most 4 times" (INFOCOM'03 footnote 6).
    #[default]
    Head,
    /// Every packet counts each younger packet of its buffer that goes ahead of it, also before it is the head, and
    /// one that reaches the limit blocks the buffer until it leaves (model.md §3's wording; format version 1).
    EachPacket,
}

/// A packet in a switch input buffer.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    pub packet: PacketId,
    /// The output port it is routed to.
    pub out: PortId,
    /// Arrival order at this switch (oldest first).
    pub seq: u64,
    /// The earliest time it may start on its output (cut-through: head arrival + forwarding delay, and never
    /// overtaking its own tail on a faster output).
    pub eligible_at: Time,
    /// How many younger packets of the same buffer went ahead of it.
    pub bypassed: u32,
    /// Started on its output; its tail is leaving the buffer.
    pub started: bool,
    /// When its head arrived.
    pub arrived_at: Time,
    /// When it started on its output (meaningful once `started`).
    pub started_at: Time,
}

/// One lane of a switch input port (the ACK lane, or a data VL with its own buffer and credits).
#[derive(Debug, Clone, Default)]
pub struct InputLane {
    /// Packets in arrival order (a few at most: bounded by the buffer size).
    pub queue: Vec<Entry>,
    /// Blocks occupied (from head arrival until the tail leaves).
    pub used: u32,
    /// Packets it is sending through the crossbar now (at most the switch's `input_transfers`).
    pub sending: u32,
    /// Found full at the last `on_receipt` check (a new trigger needs a new crossing).
    pub full: bool,
}

/// One switch output port.
#[derive(Debug, Clone, Default)]
pub struct Output {
    /// Packets waiting for this output, per lane (`Lane::index`), as (arrival seq, input port), oldest first.
    pub waiting: Vec<Vec<(u64, PortId)>>,
    /// Round-robin arbitration: the input whose turn it is next, per lane.
    pub next_input: Vec<PortId>,
    /// Which data VL sends next.
    pub arbiter: VlArbiter,
}

impl Output {
    /// An output with `lanes` lanes (the ACK lane and the data VLs) and its VL arbiter.
    pub fn new(lanes: usize, arbiter: VlArbiter) -> Self {
        Self { waiting: vec![Vec::new(); lanes], next_input: vec![0; lanes], arbiter }
    }
}

/// An input-buffered switch.
#[derive(Debug, Clone)]
pub struct SwitchState<C> {
    pub node: NodeId,
    /// The channel each port sends on (the topology's, kept here for the passes).
    pub out_channels: Vec<ChannelId>,
    /// `inputs[port][lane.index()]`.
    pub inputs: Vec<Vec<InputLane>>,
    pub outputs: Vec<Output>,
    /// Data VLs per port.
    pub vls: u8,
    /// Buffer size of each data VL of an input, in blocks.
    pub capacity: u32,
    /// Occupancy at or above which a data buffer counts as full (what congestion control is told), in blocks.
    pub full_at: u32,
    pub forwarding_delay: Time,
    pub max_bypass: u32,
    pub bypass_counting: BypassCounting,
    /// Packets one input buffer may send at once (`u32::MAX`: no limit).
    pub input_transfers: u32,
    pub arbitration: Arbitration,
    pub next_seq: u64,
    /// Outputs with waiting packets, in no particular order (each at most once).
    pub pending_outputs: Vec<PortId>,
    pub is_pending: Vec<bool>,
    /// Packets waiting (not started), data and ACKs (`Lane::kind`), so a pass can skip what has nothing in it.
    pub waiting: [u32; 2],
    /// Its congestion control (what it is, this layer does not know).
    pub cc: C,
}

/// A packet that can start now: which output, which input, where it is in that input's queue, its age.
#[derive(Debug, Clone, Copy)]
pub struct Candidate {
    pub seq: u64,
    pub out: PortId,
    pub input: PortId,
    pub pos: usize,
    pub lane: Lane,
    /// The VL arbiter's choice that picked it (data with several VLs).
    pub choice: Option<Choice>,
}

impl<C> SwitchState<C> {
    /// The output VL `(out, vl)` as congestion control numbers them: `out × VLs + vl` (with one VL, the port).
    #[inline]
    pub fn output_vl(&self, out: PortId, lane: Lane) -> OutputVl {
        u32::from(out) * u32::from(self.vls) + u32::from(lane.vl().unwrap_or(0))
    }

    /// The data packets in the buffers bound for each output VL (`output_vl`): those that have not started, and
    /// with `with_started` also those being sent (what ECN marking's `cnt1` counts).
    pub fn data_per_output_vl(&self, with_started: bool) -> Vec<u32> {
        let mut n = vec![0; self.outputs.len() * usize::from(self.vls)];
        for input in &self.inputs {
            for lane in Lane::all(self.vls).skip(1) {
                for e in input[lane.index()].queue.iter().filter(|e| !e.started || with_started) {
                    n[self.output_vl(e.out, lane) as usize] += 1;
                }
            }
        }
        n
    }

    /// Blocks held by every data VL of input `port`.
    pub fn data_used(&self, port: PortId) -> u32 {
        self.inputs[port as usize][1..].iter().map(|l| l.used).sum()
    }

    /// Marks output `out` as having waiting packets.
    #[inline]
    pub fn mark_pending(&mut self, out: PortId) {
        if !self.is_pending[out as usize] {
            self.is_pending[out as usize] = true;
            self.pending_outputs.push(out);
        }
    }

    /// The packet at `pos` of an input buffer starts ahead of older ones that still wait: the head counts a bypass,
    /// and with `each_packet` counting so does every other one it overtakes.
    #[inline]
    pub fn count_bypasses(&mut self, input: PortId, lane: usize, pos: usize) {
        let head_only = self.bypass_counting == BypassCounting::Head;
        for older in self.inputs[input as usize][lane].queue.iter_mut().take(pos).filter(|e| !e.started) {
            older.bypassed += 1;
            if head_only {
                break;
            }
        }
    }

    /// The packet that goes first on `out` and `lane` if `out` is idle with credit: among those that could start
    /// now, the oldest (`oldest_first`), or the oldest of the first input in round-robin order (`round_robin`).
    #[inline(always)]
    pub fn first_startable(&self, out: PortId, lane: Lane, now: Time) -> Option<Candidate> {
        let output = &self.outputs[out as usize];
        let waiting = &output.waiting[lane.index()];
        match self.arbitration {
            Arbitration::OldestFirst => {
                waiting.iter().find_map(|&(seq, input)| self.startable(seq, input, out, lane, now))
            }
            Arbitration::RoundRobin => {
                let (ports, turn) = (self.inputs.len(), usize::from(output.next_input[lane.index()]));
                let after_turn = |input: PortId| (usize::from(input) + ports - turn) % ports;
                // Oldest first within each input, so an input's first packet that can go is the one it sends.
                let mut best: Option<Candidate> = None;
                for &(seq, input) in waiting {
                    if best.is_some_and(|b| after_turn(input) >= after_turn(b.input)) {
                        continue; // an input served before this one already has a packet that can go
                    }
                    if let Some(c) = self.startable(seq, input, out, lane, now) {
                        if after_turn(input) == 0 {
                            return Some(c);
                        }
                        best = Some(c);
                    }
                }
                best
            }
        }
    }

    /// Starts `cand` at `now`: it counts its bypasses, is marked started, and leaves its output's waiting list.
    /// Returns its packet.
    #[inline]
    pub fn start(&mut self, cand: &Candidate, now: Time) -> PacketId {
        let l = cand.lane.index();
        self.count_bypasses(cand.input, l, cand.pos);
        let buffer = &mut self.inputs[cand.input as usize][l];
        let entry = &mut buffer.queue[cand.pos];
        entry.started = true;
        entry.started_at = now;
        let packet = entry.packet;
        buffer.sending += 1;
        let ports = self.inputs.len() as PortId;
        self.outputs[cand.out as usize].next_input[l] = (cand.input + 1) % ports;
        let waiting = &mut self.outputs[cand.out as usize].waiting[l];
        let at = waiting.iter().position(|&(seq, _)| seq == cand.seq).expect("a candidate is waiting");
        waiting.remove(at);
        self.waiting[cand.lane.kind()] -= 1;
        if self.outputs[cand.out as usize].waiting.iter().all(|w| w.is_empty()) {
            let i = self
                .pending_outputs
                .iter()
                .position(|&o| o == cand.out)
                .expect("an output with waiting packets is pending");
            self.pending_outputs.swap_remove(i);
            self.is_pending[cand.out as usize] = false;
        }
        packet
    }

    /// The waiting packet `seq` of buffer `input`, if it could start now: eligible, its buffer free to send
    /// another packet, and no older packet of the buffer bypassed too often.
    #[inline(always)]
    fn startable(&self, seq: u64, input: PortId, out: PortId, lane: Lane, now: Time) -> Option<Candidate> {
        let buffer = &self.inputs[input as usize][lane.index()];
        if buffer.sending >= self.input_transfers {
            return None;
        }
        let pos = buffer.queue.iter().position(|e| e.seq == seq)?;
        if buffer.queue[pos].eligible_at > now {
            return None;
        }
        // An older packet bypassed too often blocks everything behind it.
        if buffer.queue.iter().take(pos).any(|e| !e.started && e.bypassed >= self.max_bypass) {
            return None;
        }
        Some(Candidate { seq, out, input, pos, lane, choice: None })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    /// The data lane's index (VL 0).
    const D: usize = Lane::VL0.index();

    fn output() -> Output {
        Output::new(2, VlArbiter::default())
    }

    /// One input holding, oldest first, packets for outputs 0, 1, 1; two outputs.
    fn switch(max_bypass: u32) -> SwitchState<()> {
        switch_with(max_bypass, &[0, 1, 1], BypassCounting::Head)
    }

    /// Packet `seq`, bound for `out`, eligible from time 0 and not yet started.
    fn waiting(seq: u64, out: PortId) -> Entry {
        Entry {
            packet: seq as u32,
            out,
            seq,
            eligible_at: 0,
            bypassed: 0,
            started: false,
            arrived_at: 0,
            started_at: 0,
        }
    }

    /// One input holding, oldest first (seq 0, 1, ...), packets for the outputs `outs`; two outputs.
    fn switch_with(max_bypass: u32, outs: &[PortId], bypass_counting: BypassCounting) -> SwitchState<()> {
        let mut input = InputLane::default();
        let mut outputs = vec![output(), output()];
        for (seq, &out) in outs.iter().enumerate() {
            let seq = seq as u64;
            input.queue.push(waiting(seq, out));
            outputs[out as usize].waiting[D].push((seq, 0));
        }
        SwitchState {
            node: 0,
            out_channels: vec![0, 1],
            inputs: vec![vec![InputLane::default(), input]],
            outputs,
            vls: 1,
            capacity: 132,
            full_at: 100,
            forwarding_delay: 0,
            max_bypass,
            bypass_counting,
            input_transfers: 1,
            arbitration: Arbitration::OldestFirst,
            next_seq: outs.len() as u64,
            pending_outputs: vec![0, 1],
            is_pending: vec![true, true],
            waiting: [outs.len() as u32, 0],
            cc: (),
        }
    }

    #[test]
    fn a_younger_packet_may_bypass_until_the_oldest_reaches_the_limit() {
        let mut sw = switch(2);
        // Output 1's oldest waiting packet (seq 1) can go ahead of seq 0 (bound for output 0).
        let c = sw.first_startable(1, Lane::VL0, 0).unwrap();
        assert_eq!((c.seq, c.pos), (1, 1));
        // Two bypasses reach the limit of 2: now seq 0 blocks the buffer.
        sw.inputs[0][D].queue[0].bypassed = 2;
        assert!(sw.first_startable(1, Lane::VL0, 0).is_none());
        // The oldest packet itself may still go.
        assert_eq!(sw.first_startable(0, Lane::VL0, 0).map(|c| c.seq), Some(0));
        // With a limit of 0 nothing ever bypasses.
        let sw = switch(0);
        assert!(sw.first_startable(1, Lane::VL0, 0).is_none());
    }

    /// Two packets for a busy output 0 (seq 0, 1), then packets for output 1, limit 2. Packets 2 and 3 overtake both;
    /// then packet 0 leaves. Counting at the head only, packet 1 is a fresh head and packet 4 may overtake it; counting
    /// every packet, packet 1 was overtaken twice already and blocks the buffer (INFOCOM'03 footnote 6, model.md §3).
    #[test]
    fn head_only_counting_starts_each_head_afresh() {
        for (counting, counts, next) in
            [(BypassCounting::Head, [2, 0], Some(4)), (BypassCounting::EachPacket, [2, 2], None)]
        {
            let mut sw = switch_with(2, &[0, 0, 1, 1, 1], counting);
            for pos in [2, 3] {
                assert_eq!(sw.first_startable(1, Lane::VL0, 0).map(|c| c.pos), Some(pos));
                sw.count_bypasses(0, D, pos);
                sw.inputs[0][D].queue[pos].started = true;
                sw.outputs[1].waiting[D].remove(0);
            }
            let bypassed = [sw.inputs[0][D].queue[0].bypassed, sw.inputs[0][D].queue[1].bypassed];
            assert_eq!(bypassed, counts, "{counting:?}");
            assert!(sw.first_startable(1, Lane::VL0, 0).is_none(), "the head reached the limit");
            sw.inputs[0][D].queue[0].started = true;
            assert_eq!(sw.first_startable(1, Lane::VL0, 0).map(|c| c.seq), next, "{counting:?}");
        }
    }

    /// Three inputs with one packet each for output 0, arriving from input 2, then 0, then 1 (seq 0, 1, 2).
    fn three_inputs(arbitration: Arbitration) -> SwitchState<()> {
        let mut sw = switch_with(4, &[], BypassCounting::Head);
        sw.inputs = vec![vec![Default::default(); 2]; 3];
        sw.outputs = vec![output(), output(), output()];
        for (seq, input) in [(0, 2), (1, 0), (2, 1)] {
            sw.inputs[input][D].queue.push(waiting(seq, 0));
            sw.outputs[0].waiting[D].push((seq, input as PortId));
        }
        sw.arbitration = arbitration;
        sw
    }

    /// Oldest first serves the oldest packet whatever its input; round robin serves the first input, from the one
    /// whose turn it is, that has a packet able to go. (That the turn moves on after each start is checked end to
    /// end: core/tests/reproduction.rs, where every input gets its equal share.)
    #[test]
    fn round_robin_serves_the_inputs_in_turn() {
        let sw = three_inputs(Arbitration::OldestFirst);
        assert_eq!(sw.first_startable(0, Lane::VL0, 0).map(|c| (c.input, c.seq)), Some((2, 0)));
        let mut sw = three_inputs(Arbitration::RoundRobin);
        for (turn, input) in [(0, 0), (1, 1), (2, 2)] {
            sw.outputs[0].next_input[D] = turn;
            assert_eq!(sw.first_startable(0, Lane::VL0, 0).map(|c| c.input), Some(input), "turn {turn}");
        }
        // Input 1's turn, but its packet is still in its forwarding delay: input 2 goes, then (wrapping) input 0.
        sw.outputs[0].next_input[D] = 1;
        sw.inputs[1][D].queue[0].eligible_at = 10;
        assert_eq!(sw.first_startable(0, Lane::VL0, 0).map(|c| c.input), Some(2));
        sw.inputs[2][D].sending = 1;
        assert_eq!(sw.first_startable(0, Lane::VL0, 0).map(|c| c.input), Some(0));
        // Within an input, its oldest packet that can go: input 0 now holds seq 1 and seq 3.
        let mut second = sw.inputs[0][D].queue[0];
        second.seq = 3;
        sw.inputs[0][D].queue.push(second);
        sw.outputs[0].waiting[D].push((3, 0));
        sw.outputs[0].next_input[D] = 0;
        assert_eq!(sw.first_startable(0, Lane::VL0, 0).map(|c| c.seq), Some(1));
        sw.inputs[0][D].queue[0].eligible_at = 10;
        assert_eq!(sw.first_startable(0, Lane::VL0, 0).map(|c| c.seq), Some(3));
    }

    #[test]
    fn a_busy_input_or_a_packet_still_in_its_forwarding_delay_cannot_start() {
        let mut sw = switch(4);
        sw.inputs[0][D].queue[1].eligible_at = 50;
        sw.inputs[0][D].queue[2].eligible_at = 60;
        assert!(sw.first_startable(1, Lane::VL0, 49).is_none());
        assert_eq!(sw.first_startable(1, Lane::VL0, 50).map(|c| c.seq), Some(1));
        sw.inputs[0][D].sending = 1;
        assert!(sw.first_startable(0, Lane::VL0, 100).is_none());
    }
}
