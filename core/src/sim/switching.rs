//! The input-buffered switch (model.md §3–4): packets enter an input buffer at head arrival, wait for the
//! forwarding delay, and leave by FIFO-with-bypass scheduling through the crossbar; ECN marking happens at arrival
//! (counters, full-buffer triggers) and at departure (cnt2).
//!
//! Scheduling (INFOCOM'03 footnote 6, Globecom'02 Table I): among the packets that could start now (eligible, their
//! output idle with credit downstream, and their input buffer not already sending `input_transfers` packets: no
//! limit by default, 1 for a classic crossbar), each output takes the oldest by arrival (`arbitration:
//! oldest_first`, what the papers' numbers need) or serves its inputs in turn (`round_robin`). A packet may overtake
//! older packets of its own buffer that cannot go. The head of the buffer (its oldest packet not yet sent) counts
//! each time it is overtaken, and once overtaken `max_bypass` times blocks its buffer until it leaves; with
//! `bypass_counting: each_packet` every overtaken packet counts, the head or not. ACKs (their own lane) go first at
//! every output. The cost of a pass grows with the switch's ports and buffer sizes, never with flows or network
//! size.

use super::events::Event;
use super::state::{Entry, SwitchState};
use super::Simulation;
use crate::net::packet::{Lane, PacketId, CREDIT_BLOCK_BYTES};
use crate::net::topology::{ChannelId, NodeId, PortId};
use crate::scenario::{Arbitration, BypassCounting, FullCheck};
use crate::time::Time;
use alloc::vec;
use alloc::vec::Vec;

/// A packet that can start now: which output, which input, where it is in that input's queue, its age.
#[derive(Debug, Clone, Copy)]
struct Candidate {
    seq: u64,
    out: PortId,
    input: PortId,
    pos: usize,
    lane: Lane,
}

/// Whole credit blocks needed for `bytes` bytes.
fn blocks_of(bytes: u64) -> u32 {
    bytes.div_ceil(u64::from(CREDIT_BLOCK_BYTES)).min(u64::from(u32::MAX)) as u32
}

impl SwitchState {
    /// What every output's `cnt1` should be, from the buffers: the data packets bound for it that have not started,
    /// and with `until_departure` also those being sent.
    pub(super) fn cnt1_from_buffers(&self, until_departure: bool) -> Vec<u32> {
        let mut cnt1 = vec![0; self.outputs.len()];
        for input in &self.inputs {
            for e in input[Lane::Data.index()].queue.iter().filter(|e| !e.started || until_departure) {
                cnt1[e.out as usize] += 1;
            }
        }
        cnt1
    }

    /// Sets every output's `cnt1` from the buffers, for a change of `marking.cnt1_until` during a run.
    pub(super) fn recount_cnt1(&mut self, until_departure: bool) {
        let cnt1 = self.cnt1_from_buffers(until_departure);
        for (o, n) in self.outputs.iter_mut().zip(cnt1) {
            o.counters.cnt1 = n;
        }
    }

    fn mark_pending(&mut self, out: PortId) {
        if !self.is_pending[out as usize] {
            self.is_pending[out as usize] = true;
            self.pending_outputs.push(out);
        }
    }

    /// The packet at `pos` of an input buffer starts ahead of older ones that still wait: the head counts a bypass,
    /// and with `each_packet` counting so does every other one it overtakes.
    fn count_bypasses(&mut self, input: PortId, lane: usize, pos: usize) {
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
    fn first_startable(&self, out: PortId, lane: Lane, now: Time) -> Option<Candidate> {
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

    /// The waiting packet `seq` of buffer `input`, if it could start now: eligible, its buffer free to send
    /// another packet, and no older packet of the buffer bypassed too often.
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
        Some(Candidate { seq, out, input, pos, lane })
    }
}

impl Simulation {
    /// A packet's head arrives at a switch input.
    pub(super) fn arrive(&mut self, channel: ChannelId, packet: PacketId) {
        let now = self.queue.now();
        let to = self.channels[channel as usize].to;
        let (node, port, slot) = (to.node, to.port, to.slot as usize);
        let p = self.packets[packet];
        let out = self.topo.route(node, p.dst).expect("validated scenarios route every flow");
        let out_channel = self.switches[slot].out_channels[out as usize];
        let l = p.lane.index();
        let sw = &mut self.switches[slot];
        // Cut-through: after the forwarding delay, and never so early that a faster output would catch up with the
        // packet's own tail still arriving (model.md §3).
        let tail_in = now + self.channels[channel as usize].serialization[l];
        let out_time = self.channels[out_channel as usize].serialization[l];
        let eligible_at = (now + sw.forwarding_delay).max(tail_in.saturating_sub(out_time));
        let seq = sw.next_seq;
        sw.next_seq += 1;
        let capacity = self.channels[channel as usize].capacity[l];
        let buffer = &mut sw.inputs[port as usize][l];
        let before = buffer.used;
        buffer.used += p.blocks;
        if buffer.used > capacity {
            self.totals.dropped += 1;
        }
        buffer.queue.push(Entry {
            packet,
            out,
            seq,
            eligible_at,
            bypassed: 0,
            started: false,
            arrived_at: now,
            started_at: 0,
        });
        let used = buffer.used;
        sw.outputs[out as usize].waiting[l].push((seq, port));
        sw.waiting[l] += 1;
        sw.mark_pending(out);
        if p.lane == Lane::Data {
            self.occupancy[slot][port as usize].change(now, before, used, (self.measure_from, self.measure_to));
            self.marker.arrival(&mut sw.outputs[out as usize].counters);
            match self.full_check {
                // Triggered when the buffer becomes full: on the crossing (with the default threshold every
                // arrival that fills it is one, since credit guaranteed a packet's room).
                FullCheck::OnHead => {
                    if before < sw.full_at && used >= sw.full_at {
                        self.buffer_full(slot, port);
                    }
                }
                // Nothing else arrives on this input before this packet's tail, so the blocks held at receipt are at
                // most those reserved now: below the threshold now, the check cannot trigger.
                FullCheck::OnReceipt if used >= sw.full_at => {
                    self.queue.schedule(tail_in, Event::Received { node, port, packet });
                }
                FullCheck::OnReceipt => {}
            }
        }
        // If the output is still sending when the forwarding delay runs out, its end of transmission runs the pass
        // that may start this packet: no need for an event of its own.
        if self.channels[out_channel as usize].sending.is_none_or(|s| s.ends_at < eligible_at) {
            self.queue.schedule(eligible_at, Event::Eligible { node });
        }
    }

    /// A data packet has been completely received at `port`: the buffer is full if the blocks it actually holds now
    /// leave less room than one packet. A packet that cut through holds only its blocks not yet sent on; one that
    /// waits holds all it has received.
    pub(super) fn received(&mut self, node: NodeId, port: PortId, packet: PacketId) {
        let now = self.queue.now();
        let slot = self.node_slot[node as usize] as usize;
        let in_bw = self.topo.channel(self.topo.in_channel(node, port)).bandwidth;
        let sw = &self.switches[slot];
        let buffer = &sw.inputs[port as usize][Lane::Data.index()];
        if !buffer.queue.iter().any(|e| e.packet == packet) {
            return; // already gone: it cannot take part in a full buffer
        }
        let mut held = 0;
        for e in &buffer.queue {
            let blocks = self.packets[e.packet].blocks;
            // Only bytes actually received count: a head arriving at this very instant holds nothing yet.
            let arrived = blocks_of(in_bw.bytes_in(now - e.arrived_at)).min(blocks);
            let sent = if e.started {
                let out_bw = self.topo.channel(self.topo.out_channel(node, e.out)).bandwidth;
                (out_bw.bytes_in(now - e.started_at) / u64::from(CREDIT_BLOCK_BYTES)) as u32
            } else {
                0
            };
            held += arrived.saturating_sub(sent);
        }
        let full = held >= sw.full_at;
        let crossed = full && !buffer.full;
        self.switches[slot].inputs[port as usize][Lane::Data.index()].full = full;
        if crossed {
            self.buffer_full(slot, port);
        }
    }

    /// A data input buffer became full: naive marking marks its waiting packets; input-triggered marking arms the
    /// counters of every output its waiting packets (with `cnt1_until: departure`, also those being sent) are bound
    /// for (Globecom'02 §IV-A, §IV-B).
    fn buffer_full(&mut self, slot: usize, port: PortId) {
        let sw = &mut self.switches[slot];
        let buffer = &sw.inputs[port as usize][Lane::Data.index()];
        let in_transmission_counts = self.marker.counts_until_departure();
        for e in buffer.queue.iter().filter(|e| !e.started || in_transmission_counts) {
            if self.marker.marks_full_buffer() && !e.started {
                let p = &mut self.packets[e.packet];
                if !p.marked {
                    p.marked = true;
                    self.totals.marked += 1;
                    self.links[sw.out_channels[e.out as usize] as usize].marks += 1;
                }
            }
            if self.marker.triggers_outputs() {
                self.marker.buffer_full(&mut sw.outputs[e.out as usize].counters);
            }
        }
    }

    /// Starts every packet that can start now, ACKs before data, the outputs' choices oldest first.
    pub(super) fn switch_pass(&mut self, slot: usize) {
        let now = self.queue.now();
        loop {
            let mut best: Option<Candidate> = None;
            // Candidates this scan found: starting one only takes resources (its input, its output, credit), so if
            // it was the only one, nothing else can start and the scan need not be repeated.
            let mut found = 0;
            for lane in [Lane::Ack, Lane::Data] {
                let sw = &self.switches[slot];
                if sw.waiting[lane.index()] == 0 {
                    continue;
                }
                for &out in &sw.pending_outputs {
                    let channel = sw.out_channels[out as usize];
                    let state = &self.channels[channel as usize];
                    if state.is_busy() {
                        continue;
                    }
                    let Some(cand) = sw.first_startable(out, lane, now) else { continue };
                    if state.credits[lane.index()] < self.lane_blocks(lane) {
                        // Ready but no room downstream: the link is stalled by credit flow control.
                        if lane == Lane::Data && state.stalled_since.is_none() {
                            self.channels[channel as usize].stalled_since = Some(now);
                        }
                        continue;
                    }
                    found += 1;
                    if best.is_none_or(|b| cand.seq < b.seq) {
                        best = Some(cand);
                    }
                }
                if best.is_some() {
                    break;
                }
            }
            let Some(cand) = best else { break };
            // An ACK scan stops before the data lane, which may hold candidates of its own.
            let last = found == 1 && (cand.lane == Lane::Data || self.switches[slot].waiting[Lane::Data.index()] == 0);
            self.start_from_switch(slot, cand);
            if last {
                break;
            }
        }
    }

    fn start_from_switch(&mut self, slot: usize, cand: Candidate) {
        let l = cand.lane.index();
        let sw = &mut self.switches[slot];
        sw.count_bypasses(cand.input, l, cand.pos);
        let buffer = &mut sw.inputs[cand.input as usize][l];
        let entry = &mut buffer.queue[cand.pos];
        entry.started = true;
        entry.started_at = self.queue.now();
        let packet = entry.packet;
        buffer.sending += 1;
        let ports = sw.inputs.len() as PortId;
        sw.outputs[cand.out as usize].next_input[l] = (cand.input + 1) % ports;
        let waiting = &mut sw.outputs[cand.out as usize].waiting[l];
        let at = waiting.iter().position(|&(seq, _)| seq == cand.seq).expect("a candidate is waiting");
        waiting.remove(at);
        sw.waiting[l] -= 1;
        if sw.outputs[cand.out as usize].waiting.iter().all(|w| w.is_empty()) {
            let i = sw
                .pending_outputs
                .iter()
                .position(|&o| o == cand.out)
                .expect("an output with waiting packets is pending");
            sw.pending_outputs.swap_remove(i);
            sw.is_pending[cand.out as usize] = false;
        }
        let channel = sw.out_channels[cand.out as usize];
        let fecn = cand.lane == Lane::Data
            && self.scenario.ib_cc.as_ref().is_some_and(|cfg| {
                // Annex A10: congested (the data waiting for this port passes the Threshold's level), eligible
                // (long enough), a root (it did not wait for credit) or in the Victim_Mask, one in Marking_Rate + 1.
                let output = &mut sw.outputs[cand.out as usize];
                // Data waiting for this port besides the packet now leaving it (already taken off the list).
                let queued = output.waiting[Lane::Data.index()].len() as u32 * self.data_blocks;
                let congested = cfg.queue_level(sw.capacity).is_some_and(|level| queued >= level);
                let eligible = self.packets[packet].blocks >= u32::from(cfg.packet_size_credits);
                let victim = self.channels[channel as usize].stalled_since.is_some();
                if !(congested && eligible && (!victim || cfg.victim_marks(cand.out))) {
                    return false;
                }
                if output.fecn_skip == 0 {
                    output.fecn_skip = cfg.marking_rate;
                    true
                } else {
                    output.fecn_skip -= 1;
                    false
                }
            });
        if fecn && !self.packets[packet].marked {
            self.packets[packet].marked = true;
            self.totals.marked += 1;
            self.links[channel as usize].marks += 1;
        }
        if cand.lane == Lane::Data && self.marker.departure(&mut sw.outputs[cand.out as usize].counters) {
            let p = &mut self.packets[packet];
            if !p.marked {
                p.marked = true;
                self.totals.marked += 1;
                self.links[channel as usize].marks += 1;
            }
        }
        self.start_tx(channel, packet, cand.lane, Some(cand.input));
    }

    /// A packet's tail has left input `port` of switch `slot`: free its space and send the credit upstream.
    pub(super) fn leave_input(&mut self, slot: usize, port: PortId, lane: Lane, packet: PacketId) {
        let now = self.queue.now();
        let full_at = self.switches[slot].full_at;
        let buffer = &mut self.switches[slot].inputs[port as usize][lane.index()];
        let pos = buffer.queue.iter().position(|e| e.packet == packet).expect("the leaving packet is buffered");
        let entry = buffer.queue.remove(pos);
        debug_assert!(entry.started);
        let blocks = self.packets[packet].blocks;
        let before = buffer.used;
        buffer.used -= blocks;
        buffer.sending -= 1;
        if buffer.used < full_at {
            buffer.full = false;
        }
        if lane == Lane::Data {
            let used = buffer.used;
            self.occupancy[slot][port as usize].change(now, before, used, (self.measure_from, self.measure_to));
            self.marker.left(&mut self.switches[slot].outputs[entry.out as usize].counters);
        }
        // The channel a port receives on is the reverse of the one it sends on (topology numbering).
        let in_channel = self.switches[slot].out_channels[port as usize] ^ 1;
        self.return_credit(in_channel, lane, blocks);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::state::{InputLane, Output};
    use alloc::vec;

    /// One input holding, oldest first, packets for outputs 0, 1, 1; two outputs.
    fn switch(max_bypass: u32) -> SwitchState {
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
    fn switch_with(max_bypass: u32, outs: &[PortId], bypass_counting: BypassCounting) -> SwitchState {
        let mut input = InputLane::default();
        let mut outputs = vec![Output::default(), Output::default()];
        for (seq, &out) in outs.iter().enumerate() {
            let seq = seq as u64;
            input.queue.push(waiting(seq, out));
            outputs[out as usize].waiting[0].push((seq, 0));
        }
        SwitchState {
            node: 0,
            out_channels: vec![0, 1],
            inputs: vec![[input, InputLane::default()]],
            outputs,
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
        }
    }

    #[test]
    fn a_younger_packet_may_bypass_until_the_oldest_reaches_the_limit() {
        let mut sw = switch(2);
        // Output 1's oldest waiting packet (seq 1) can go ahead of seq 0 (bound for output 0).
        let c = sw.first_startable(1, Lane::Data, 0).unwrap();
        assert_eq!((c.seq, c.pos), (1, 1));
        // Two bypasses reach the limit of 2: now seq 0 blocks the buffer.
        sw.inputs[0][0].queue[0].bypassed = 2;
        assert!(sw.first_startable(1, Lane::Data, 0).is_none());
        // The oldest packet itself may still go.
        assert_eq!(sw.first_startable(0, Lane::Data, 0).map(|c| c.seq), Some(0));
        // With a limit of 0 nothing ever bypasses.
        let sw = switch(0);
        assert!(sw.first_startable(1, Lane::Data, 0).is_none());
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
                assert_eq!(sw.first_startable(1, Lane::Data, 0).map(|c| c.pos), Some(pos));
                sw.count_bypasses(0, 0, pos);
                sw.inputs[0][0].queue[pos].started = true;
                sw.outputs[1].waiting[0].remove(0);
            }
            let bypassed = [sw.inputs[0][0].queue[0].bypassed, sw.inputs[0][0].queue[1].bypassed];
            assert_eq!(bypassed, counts, "{counting:?}");
            assert!(sw.first_startable(1, Lane::Data, 0).is_none(), "the head reached the limit");
            sw.inputs[0][0].queue[0].started = true;
            assert_eq!(sw.first_startable(1, Lane::Data, 0).map(|c| c.seq), next, "{counting:?}");
        }
    }

    /// Three inputs with one packet each for output 0, arriving from input 2, then 0, then 1 (seq 0, 1, 2).
    fn three_inputs(arbitration: Arbitration) -> SwitchState {
        let mut sw = switch_with(4, &[], BypassCounting::Head);
        sw.inputs = vec![Default::default(), Default::default(), Default::default()];
        sw.outputs = vec![Output::default(), Output::default(), Output::default()];
        for (seq, input) in [(0, 2), (1, 0), (2, 1)] {
            sw.inputs[input][0].queue.push(waiting(seq, 0));
            sw.outputs[0].waiting[0].push((seq, input as PortId));
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
        assert_eq!(sw.first_startable(0, Lane::Data, 0).map(|c| (c.input, c.seq)), Some((2, 0)));
        let mut sw = three_inputs(Arbitration::RoundRobin);
        for (turn, input) in [(0, 0), (1, 1), (2, 2)] {
            sw.outputs[0].next_input[0] = turn;
            assert_eq!(sw.first_startable(0, Lane::Data, 0).map(|c| c.input), Some(input), "turn {turn}");
        }
        // Input 1's turn, but its packet is still in its forwarding delay: input 2 goes, then (wrapping) input 0.
        sw.outputs[0].next_input[0] = 1;
        sw.inputs[1][0].queue[0].eligible_at = 10;
        assert_eq!(sw.first_startable(0, Lane::Data, 0).map(|c| c.input), Some(2));
        sw.inputs[2][0].sending = 1;
        assert_eq!(sw.first_startable(0, Lane::Data, 0).map(|c| c.input), Some(0));
        // Within an input, its oldest packet that can go: input 0 now holds seq 1 and seq 3.
        let mut second = sw.inputs[0][0].queue[0];
        second.seq = 3;
        sw.inputs[0][0].queue.push(second);
        sw.outputs[0].waiting[0].push((3, 0));
        sw.outputs[0].next_input[0] = 0;
        assert_eq!(sw.first_startable(0, Lane::Data, 0).map(|c| c.seq), Some(1));
        sw.inputs[0][0].queue[0].eligible_at = 10;
        assert_eq!(sw.first_startable(0, Lane::Data, 0).map(|c| c.seq), Some(3));
    }

    #[test]
    fn a_busy_input_or_a_packet_still_in_its_forwarding_delay_cannot_start() {
        let mut sw = switch(4);
        sw.inputs[0][0].queue[1].eligible_at = 50;
        sw.inputs[0][0].queue[2].eligible_at = 60;
        assert!(sw.first_startable(1, Lane::Data, 49).is_none());
        assert_eq!(sw.first_startable(1, Lane::Data, 50).map(|c| c.seq), Some(1));
        sw.inputs[0][0].sending = 1;
        assert!(sw.first_startable(0, Lane::Data, 100).is_none());
    }
}
