//! The input-buffered switch at work (docs/model.md §3–4): packets enter an input buffer at head arrival, wait for
//! the forwarding delay, and leave by FIFO-with-bypass scheduling through the crossbar (`net::switch` chooses); the
//! switch's congestion control hears of every arrival, full buffer, start and departure (`cc::SwitchControl`) and
//! decides when a buffer is full.

use super::events::Event;
use super::observe::Observer;
use super::Simulation;
use crate::cc::{BufferCheck, Start, SwitchCc, SwitchControl};
use crate::net::channel::ChannelState;
use crate::net::packet::{Lane, PacketId, CREDIT_BLOCK_BYTES};
use crate::net::switch::{sleep_bit, Arrival, Candidate, SwitchState};
use crate::net::topology::{ChannelId, NodeId, PortId};
use crate::net::vl::MAX_DATA_VLS;
use crate::time::Time;

/// Whole credit blocks needed for `bytes` bytes.
fn blocks_of(bytes: u64) -> u32 {
    bytes.div_ceil(u64::from(CREDIT_BLOCK_BYTES)).min(u64::from(u32::MAX)) as u32
}

impl Simulation {
    /// A packet's head arrives at a switch input.
    #[inline(always)]
    pub(super) fn arrive(&mut self, channel: ChannelId, packet: PacketId, obs: &mut impl Observer) {
        let now = self.queue.now();
        let to = self.channels[channel as usize].to();
        let (node, port, slot) = (to.node, to.port, to.slot as usize);
        let p = self.packets[packet];
        let out = match self.paths {
            None => self.topo.route_at_switch(slot as u32, p.dst),
            Some(_) => self.route_on_path(packet, slot),
        };
        let out = out.expect("validated scenarios route every flow");
        let sw = &mut self.switches[slot];
        let out_channel = sw.out_channel(out);
        let lane = p.lane;
        // Cut-through: after the forwarding delay, and never so early that a faster output would catch up with the
        // packet's own tail still arriving (docs/model.md §3).
        let tail_in = now + self.channels[channel as usize].serialization(lane);
        let out_time = self.channels[out_channel as usize].serialization(lane);
        let eligible_at = (now + sw.forwarding_delay()).max(tail_in.saturating_sub(out_time));
        let port_before = if lane.is_data() { sw.data_used(port) } else { 0 };
        let (before, after) = sw.admit(port, lane, Arrival { packet, blocks: p.blocks, out, eligible_at, now });
        if after > self.channels[channel as usize].capacity() {
            self.counts.dropped += 1;
        }
        if lane.is_data() {
            obs.on_occupancy(slot as u32, port, port_before, port_before + p.blocks, now);
            let (ovl, ivl) = (sw.output_vl(out, lane), sw.input_vl(port, lane));
            match sw.cc_mut().on_arrival(ovl, ivl, before, after) {
                BufferCheck::None => {}
                BufferCheck::Full => self.buffer_full(slot, port, lane, obs),
                BufferCheck::AtReceipt => {
                    self.queue.schedule(tail_in, Event::Received { node, port, lane, packet });
                }
            }
        }
        // If the output is still sending when the forwarding delay runs out, its end of transmission runs the pass
        // that may start this packet: no need for an event of its own.
        if self.channels[out_channel as usize].sending().is_none_or(|s| s.ends_at < eligible_at) {
            self.queue.schedule(eligible_at, Event::Eligible { node });
        }
    }

    /// The port `packet`, arriving at switch `slot`, leaves by, read from its flow's path (a large fabric's:
    /// `flow_paths.rs`), and its place on the path moved on. Cold and out of line: the small networks' event loop
    /// is compiled as if it were not there (inline, it cost them up to 5% of their speed).
    #[cold]
    #[inline(never)]
    fn route_on_path(&mut self, packet: PacketId, slot: usize) -> Option<PortId> {
        let p = self.packets[packet];
        self.packets[packet].hop = p.hop.saturating_add(1);
        let paths = self.paths.as_ref().expect("called for runs on flow paths");
        let out = paths.port(&p).or_else(|| self.topo.route_at_switch(slot as u32, p.dst));
        debug_assert_eq!(out, self.topo.route_at_switch(slot as u32, p.dst), "a flow's path is its tables'");
        out
    }

    /// A data packet has been completely received at `port` on data lane `lane`: its switch's congestion control
    /// hears how many blocks the buffer actually holds now. A packet that cut through holds only its blocks not yet
    /// sent on; one that waits holds all it has received.
    pub(super) fn received(
        &mut self,
        node: NodeId,
        port: PortId,
        lane: Lane,
        packet: PacketId,
        obs: &mut impl Observer,
    ) {
        let slot = self.node_slot[node as usize] as usize;
        let sw = &self.switches[slot];
        if !sw.input(port, lane).entries().iter().any(|e| e.packet == packet) {
            return; // already gone: it cannot take part in a full buffer
        }
        let (held, ivl) = (self.held_blocks(slot, port, lane), sw.input_vl(port, lane));
        if self.switches[slot].cc_mut().on_received(ivl, held) {
            self.buffer_full(slot, port, lane, obs);
        }
    }

    /// The blocks input `port` of switch `slot` holds on `lane` now: what it has received of each packet and not
    /// yet sent on.
    pub(super) fn held_blocks(&self, slot: usize, port: PortId, lane: Lane) -> u32 {
        let now = self.queue.now();
        let sw = &self.switches[slot];
        let node = sw.node();
        let in_bw = self.topo.channel(self.topo.in_channel(node, port)).bandwidth;
        let mut held = 0;
        for e in sw.input(port, lane).entries() {
            // Only bytes actually received count: a head arriving at this very instant holds nothing yet.
            let arrived = blocks_of(in_bw.bytes_in(now - e.arrived_at)).min(e.blocks);
            let sent = if e.started {
                let out_bw = self.topo.channel(self.topo.out_channel(node, e.out)).bandwidth;
                (out_bw.bytes_in(now - e.started_at) / u64::from(CREDIT_BLOCK_BYTES)) as u32
            } else {
                0
            };
            held += arrived.saturating_sub(sent);
        }
        held
    }

    /// A data input buffer (one VL's) became full: its congestion control hears of each packet in it, and may mark
    /// them.
    fn buffer_full(&mut self, slot: usize, port: PortId, lane: Lane, obs: &mut impl Observer) {
        let held = self.switches[slot].input(port, lane).entries().len();
        for i in 0..held {
            let sw = &mut self.switches[slot];
            let e = sw.input(port, lane).entries()[i];
            let ovl = sw.output_vl(e.out, lane);
            if sw.cc_mut().on_buffer_full(ovl, e.started) {
                let channel = sw.out_channel(e.out);
                self.mark(e.packet, channel, obs);
            }
        }
    }

    /// Marks a data packet (once) for `channel`'s transmitter.
    fn mark(&mut self, packet: PacketId, channel: ChannelId, obs: &mut impl Observer) {
        let p = &mut self.packets[packet];
        if !p.marked {
            p.marked = true;
            self.counts.marked += 1;
            obs.on_mark(channel, self.queue.now());
        }
    }

    /// Starts every packet that can start now, ACKs before data, each output's data VL by its VL arbiter, the
    /// outputs' choices oldest first.
    pub(super) fn switch_pass(&mut self, slot: usize, obs: &mut impl Observer) {
        let now = self.queue.now();
        self.switches[slot].wake_due(now);
        loop {
            let mut best: Option<Candidate> = None;
            // Candidates this scan found: starting one only takes resources (its input, its output, credit), so if
            // it was the only one, nothing else can start and the scan need not be repeated.
            let mut found = 0;
            // What the outputs that found nothing wait for: the earliest time one of their packets becomes
            // eligible (`SwitchState::calm_until`).
            let mut calm = Time::MAX;
            // Outputs (bits, per `Lane::kind`) this scan found with nothing able to start: they sleep.
            let mut sleepy = [0u64; 2];
            for ack in [true, false] {
                let sw = &self.switches[slot];
                if sw.waiting_packets(usize::from(ack)) == 0 {
                    continue;
                }
                for out in sw.awake_idle_pending_outputs(usize::from(ack)) {
                    let channel = sw.out_channel(out);
                    let state = &self.channels[channel as usize];
                    debug_assert!(!state.is_busy(), "the switch knows its busy outputs");
                    let cand = if ack {
                        if !state.has_credit(Lane::ACK, self.ack_blocks) {
                            continue; // (nothing to look for: its credit's return will look)
                        }
                        match sw.first_startable(out, Lane::ACK, now) {
                            Some(c) => c,
                            None => {
                                calm = calm.min(sw.unstartable_until(out, Lane::ACK));
                                sleepy[1] |= sleep_bit(out);
                                continue;
                            }
                        }
                    } else {
                        let (cand, lacking, until) = data_candidate(sw, out, state, self.data_blocks, now);
                        calm = calm.min(until);
                        if lacking != 0 {
                            // Ready but no room downstream: the link is stalled by credit flow control (unless
                            // another VL can go).
                            let state = &mut self.channels[channel as usize];
                            state.lacking_credit(lacking, now);
                            if cand.is_none() {
                                state.stall(now);
                            }
                        }
                        let Some(cand) = cand else {
                            if lacking == 0 {
                                sleepy[0] |= sleep_bit(out);
                            }
                            continue;
                        };
                        cand
                    };
                    found += 1;
                    if best.is_none_or(|b| cand.seq < b.seq) {
                        best = Some(cand);
                    }
                }
                if best.is_some() {
                    break;
                }
            }
            // (The sleeping outputs wait for their packets' eligibility too.)
            calm = calm.min(self.switches[slot].sleep(sleepy));
            let Some(cand) = best else {
                self.switches[slot].set_calm_until(calm);
                break;
            };
            // An ACK scan stops before the data lanes, which may hold candidates of their own; and a packet that
            // was blocking its buffer lets younger packets of it go, perhaps on other outputs.
            let last = found == 1 && (cand.lane.is_data() || self.switches[slot].waiting_packets(0) == 0);
            let unblocked = self.start_from_switch(slot, cand, obs);
            if last && !unblocked {
                // (The output that started is busy now; the others found nothing, and still cannot.)
                self.switches[slot].set_calm_until(calm);
                break;
            }
        }
        debug_assert!(self.nothing_startable(slot, now), "a switch's pass left a packet that could start");
        debug_assert!(self.stalls_on_record(slot, now), "a switch's pass left a wait for credit off the record");
    }

    /// A pass at switch `slot` when nothing that could start a packet changed there since its last pass but time (a
    /// forwarding delay ran out, or credit came back to an output still sending or with nothing that could use
    /// it): only a packet become eligible since can start, and none can before the switch's calm is over
    /// (`SwitchState::calm_until`). In GPCNeT's congested runs on the 120 nodes this skips most passes that would
    /// find nothing.
    pub(super) fn switch_pass_unless_calm(&mut self, slot: usize, obs: &mut impl Observer) {
        let now = self.queue.now();
        if now < self.switches[slot].calm_until() {
            debug_assert!(self.nothing_startable(slot, now), "a calm switch had a packet that could start");
            debug_assert!(self.stalls_on_record(slot, now), "a calm switch had a wait for credit off the record");
            return;
        }
        self.switch_pass(slot, obs);
    }

    /// The pass after credit of `lane` came back to output `out` of switch `slot`: only a packet of that lane for
    /// that output, if the output is idle, can have become able to start.
    pub(super) fn credit_pass(&mut self, slot: usize, out: PortId, lane: Lane, busy: bool, obs: &mut impl Observer) {
        if busy || self.switches[slot].nothing_for(out, lane.kind()) {
            self.switch_pass_unless_calm(slot, obs);
        } else {
            self.switch_pass(slot, obs);
        }
    }

    /// The pass after output `out` of switch `slot` finished sending a packet that came from input `input` on
    /// `lane`: the output is idle now, and only its packets can have become able to start, unless the input buffer
    /// was sending as many packets as it may.
    pub(super) fn freed_pass(&mut self, slot: usize, out: PortId, input: PortId, lane: Lane, obs: &mut impl Observer) {
        let sw = &self.switches[slot];
        if !sw.freed_transfer(input, lane) && sw.nothing_for(out, 0) && sw.nothing_for(out, 1) {
            self.switch_pass_unless_calm(slot, obs);
        } else {
            self.switch_pass(slot, obs);
        }
    }

    /// Whether no output of switch `slot` could start a packet now (what a pass leaves; debug builds check it).
    fn nothing_startable(&self, slot: usize, now: Time) -> bool {
        let sw = &self.switches[slot];
        let state = |out| &self.channels[sw.out_channel(out) as usize];
        sw.idle_pending_outputs(1).all(|out| {
            sw.first_startable(out, Lane::ACK, now).is_none() || !state(out).has_credit(Lane::ACK, self.ack_blocks)
        }) && sw
            .idle_pending_outputs(0)
            .all(|out| data_candidate(sw, out, state(out), self.data_blocks, now).0.is_none())
    }

    /// Whether every idle output of switch `slot` with a data packet that could start but for credit has that wait on
    /// record: its VL waited, and its link stalled unless another VL can go. A full pass records it; debug builds
    /// check that a skipped pass, or a sleeping output, misses none (the link's stall time would come out short).
    /// It looks at every VL itself: `data_candidate` trusts the record for VLs already waiting.
    fn stalls_on_record(&self, slot: usize, now: Time) -> bool {
        let sw = &self.switches[slot];
        sw.idle_pending_outputs(0).all(|out| {
            let state = &self.channels[sw.out_channel(out) as usize];
            let (mut lacking, mut can) = (0u16, false);
            for vl in 0..sw.vls() {
                let lane = Lane::data(vl);
                match sw.first_startable(out, lane, now) {
                    Some(_) if state.has_credit(lane, self.data_blocks) => can = true,
                    Some(_) => lacking |= 1 << vl,
                    None => {}
                }
            }
            (0..sw.vls()).all(|vl| lacking & (1 << vl) == 0 || state.vl_waited(vl))
                && (can || lacking == 0 || state.stalled_since().is_some())
        })
    }

    /// Starts the packet `cand` on its output; whether it was blocking its input buffer.
    #[inline(always)]
    fn start_from_switch(&mut self, slot: usize, cand: Candidate, obs: &mut impl Observer) -> bool {
        let sw = &mut self.switches[slot];
        let (packet, unblocked) = sw.start(&cand, self.queue.now(), &self.packets);
        let blocks = self.packets[packet].blocks;
        let channel = sw.out_channel(cand.out);
        if let Some(vl) = cand.lane.vl() {
            let start = Start {
                // Data waiting for this output VL besides the packet now leaving it (already taken off the list).
                queued_blocks: sw.waiting_for(cand.out, cand.lane) as u32 * self.data_blocks,
                packet_blocks: blocks,
                waited_for_credit: self.channels[channel as usize].vl_waited(vl),
            };
            let ovl = sw.output_vl(cand.out, cand.lane);
            if sw.cc_mut().on_start(ovl, &start) {
                self.mark(packet, channel, obs);
            }
        }
        self.start_tx(channel, packet, cand.lane, Some(cand.input), obs);
        unblocked
    }

    /// A packet's tail has left input `port` of switch `slot`: free its space and send the credit upstream.
    pub(super) fn leave_input(
        &mut self,
        slot: usize,
        port: PortId,
        lane: Lane,
        packet: PacketId,
        obs: &mut impl Observer,
    ) {
        let now = self.queue.now();
        let blocks = self.packets[packet].blocks;
        let sw = &mut self.switches[slot];
        let (entry, after) = sw.depart(port, lane, packet, blocks);
        if lane.is_data() {
            let used = sw.data_used(port);
            obs.on_occupancy(slot as u32, port, used + blocks, used, now);
            let (ovl, ivl) = (sw.output_vl(entry.out, lane), sw.input_vl(port, lane));
            sw.cc_mut().on_departure(ovl, ivl, after);
        }
        // The channel a port receives on is the reverse of the one it sends on (topology numbering).
        let in_channel = self.switches[slot].out_channel(port) ^ 1;
        self.return_credit(in_channel, lane, blocks, obs);
    }
}

/// The data packet output `out` of `sw` would start now, if any (sent on `state`, `blocks` a data packet's size);
/// the data VLs (bits) that have a packet able to go but no credit for it; and the earliest time a packet of a VL
/// that has none able to go becomes eligible (`Time::MAX`: none, or no such VL). With several VLs the output's VL
/// arbiter chooses among those that can go.
#[inline(always)]
fn data_candidate(
    sw: &SwitchState<SwitchCc>,
    out: PortId,
    state: &ChannelState,
    blocks: u32,
    now: Time,
) -> (Option<Candidate>, u16, Time) {
    if sw.vls() > 1 {
        return vl_candidate(sw, out, state, blocks, now);
    }
    if waits_for_credit(state, 0, blocks) {
        return (None, 1, Time::MAX);
    }
    match sw.first_startable(out, Lane::VL0, now) {
        Some(c) if state.has_credit(Lane::VL0, blocks) => (Some(c), 0, Time::MAX),
        Some(_) => (None, 1, Time::MAX),
        None => (None, 0, sw.unstartable_until(out, Lane::VL0)),
    }
}

/// `data_candidate` with several data VLs (out of line: the pass inlines the one-VL case, the usual one).
#[inline(never)]
fn vl_candidate(
    sw: &SwitchState<SwitchCc>,
    out: PortId,
    state: &ChannelState,
    blocks: u32,
    now: Time,
) -> (Option<Candidate>, u16, Time) {
    let mut ready = [None; MAX_DATA_VLS as usize];
    let mut lacking = 0u16;
    let mut until = Time::MAX;
    for vl in 0..sw.vls() {
        let lane = Lane::data(vl);
        if waits_for_credit(state, vl, blocks) {
            lacking |= 1 << vl;
            continue;
        }
        match sw.first_startable(out, lane, now) {
            Some(c) if state.has_credit(lane, blocks) => ready[usize::from(vl)] = Some(c),
            Some(_) => lacking |= 1 << vl,
            None => until = until.min(sw.unstartable_until(out, lane)),
        }
    }
    let choice = sw.arbiter(out).choose(|vl| ready[usize::from(vl)].is_some());
    let cand = choice.and_then(|choice| ready[usize::from(choice.vl)].map(|c| Candidate { choice: Some(choice), ..c }));
    (cand, lacking, until)
}

/// Whether data VL `vl` of the output sending on `state` has no credit for a packet and its wait for credit is
/// already on record (its VL and the link stalled): then no packet of it can start, and its packets need no look
/// (a look would only record that wait again, which changes nothing). Its credit's return looks at it
/// (`Simulation::credit_pass`). Under congestion most idle outputs wait like this.
#[inline]
fn waits_for_credit(state: &ChannelState, vl: u8, blocks: u32) -> bool {
    !state.has_credit(Lane::data(vl), blocks) && state.vl_waited(vl) && state.stalled_since().is_some()
}
