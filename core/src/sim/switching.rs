//! The input-buffered switch at work (model.md §3–4): packets enter an input buffer at head arrival, wait for the
//! forwarding delay, and leave by FIFO-with-bypass scheduling through the crossbar (`net::switch` chooses); the
//! switch's congestion control hears of every arrival, full buffer, start and departure (`cc::SwitchControl`).

use super::events::Event;
use super::Simulation;
use crate::cc::SwitchCc;
use crate::cc::{Start, SwitchControl};
use crate::net::channel::ChannelState;
use crate::net::packet::{Lane, PacketId, CREDIT_BLOCK_BYTES};
use crate::net::switch::{Candidate, Entry, SwitchState};
use crate::net::topology::{ChannelId, NodeId, PortId};
use crate::net::vl::MAX_DATA_VLS;
use crate::scenario::FullCheck;

/// Whole credit blocks needed for `bytes` bytes.
fn blocks_of(bytes: u64) -> u32 {
    bytes.div_ceil(u64::from(CREDIT_BLOCK_BYTES)).min(u64::from(u32::MAX)) as u32
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
        let (lane, l) = (p.lane, p.lane.index());
        let sw = &mut self.switches[slot];
        // Cut-through: after the forwarding delay, and never so early that a faster output would catch up with the
        // packet's own tail still arriving (model.md §3).
        let tail_in = now + self.channels[channel as usize].serialization[lane.kind()];
        let out_time = self.channels[out_channel as usize].serialization[lane.kind()];
        let eligible_at = (now + sw.forwarding_delay).max(tail_in.saturating_sub(out_time));
        let seq = sw.next_seq;
        sw.next_seq += 1;
        let capacity = self.channels[channel as usize].capacity;
        let port_before = if lane.is_data() { sw.data_used(port) } else { 0 };
        let buffer = &mut sw.inputs[port as usize][l];
        let before = buffer.used;
        buffer.used += p.blocks;
        if buffer.used > capacity {
            self.stats.totals.dropped += 1;
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
        sw.waiting[lane.kind()] += 1;
        sw.mark_pending(out);
        if lane.is_data() {
            let interval = self.stats.interval();
            self.stats.occupancy[slot][port as usize].change(now, port_before, port_before + p.blocks, interval);
            sw.cc.on_arrival(sw.output_vl(out, lane));
            match self.full_check {
                // Triggered when the buffer becomes full: on the crossing (with the default threshold every
                // arrival that fills it is one, since credit guaranteed a packet's room).
                FullCheck::OnHead => {
                    if before < sw.full_at && used >= sw.full_at {
                        self.buffer_full(slot, port, lane);
                    }
                }
                // Nothing else arrives on this input before this packet's tail, so the blocks held at receipt are at
                // most those reserved now: below the threshold now, the check cannot trigger.
                FullCheck::OnReceipt if used >= sw.full_at => {
                    self.queue.schedule(tail_in, Event::Received { node, port, lane, packet });
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

    /// A data packet has been completely received at `port` on data lane `lane`: the buffer is full if the blocks
    /// it actually holds now leave less room than one packet. A packet that cut through holds only its blocks not
    /// yet sent on; one that waits holds all it has received.
    pub(super) fn received(&mut self, node: NodeId, port: PortId, lane: Lane, packet: PacketId) {
        let now = self.queue.now();
        let slot = self.node_slot[node as usize] as usize;
        let in_bw = self.topo.channel(self.topo.in_channel(node, port)).bandwidth;
        let sw = &self.switches[slot];
        let buffer = &sw.inputs[port as usize][lane.index()];
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
        self.switches[slot].inputs[port as usize][lane.index()].full = full;
        if crossed {
            self.buffer_full(slot, port, lane);
        }
    }

    /// A data input buffer (one VL's) became full: its congestion control hears of each packet in it, and may mark
    /// them.
    fn buffer_full(&mut self, slot: usize, port: PortId, lane: Lane) {
        if !self.switches[slot].cc.hears_full_buffers() {
            return;
        }
        let held = self.switches[slot].inputs[port as usize][lane.index()].queue.len();
        for i in 0..held {
            let sw = &mut self.switches[slot];
            let e = sw.inputs[port as usize][lane.index()].queue[i];
            let ovl = sw.output_vl(e.out, lane);
            if sw.cc.on_buffer_full(ovl, e.started) {
                let channel = self.switches[slot].out_channels[e.out as usize];
                self.mark(e.packet, channel);
            }
        }
    }

    /// Marks a data packet (once) for `channel`'s transmitter.
    fn mark(&mut self, packet: PacketId, channel: ChannelId) {
        let p = &mut self.packets[packet];
        if !p.marked {
            p.marked = true;
            self.stats.totals.marked += 1;
            self.stats.links[channel as usize].marks += 1;
        }
    }

    /// Starts every packet that can start now, ACKs before data, each output's data VL by its VL arbiter, the
    /// outputs' choices oldest first.
    pub(super) fn switch_pass(&mut self, slot: usize) {
        let now = self.queue.now();
        loop {
            let mut best: Option<Candidate> = None;
            // Candidates this scan found: starting one only takes resources (its input, its output, credit), so if
            // it was the only one, nothing else can start and the scan need not be repeated.
            let mut found = 0;
            for ack in [true, false] {
                let sw = &self.switches[slot];
                if sw.waiting[usize::from(ack)] == 0 {
                    continue;
                }
                for &out in &sw.pending_outputs {
                    let channel = sw.out_channels[out as usize];
                    let state = &self.channels[channel as usize];
                    if state.is_busy() {
                        continue;
                    }
                    let cand = if ack {
                        match sw.first_startable(out, Lane::ACK, now) {
                            Some(c) if state.has_credit(Lane::ACK, self.ack_blocks) => c,
                            _ => continue,
                        }
                    } else {
                        let (cand, lacking) = data_candidate(sw, out, state, self.data_blocks, now);
                        if lacking != 0 {
                            // Ready but no room downstream: the link is stalled by credit flow control (unless
                            // another VL can go).
                            let state = &mut self.channels[channel as usize];
                            state.lacking_credit(lacking, now);
                            if cand.is_none() {
                                state.stalled_since.get_or_insert(now);
                            }
                        }
                        let Some(cand) = cand else { continue };
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
            let Some(cand) = best else { break };
            // An ACK scan stops before the data lanes, which may hold candidates of their own.
            let last = found == 1 && (cand.lane.is_data() || self.switches[slot].waiting[0] == 0);
            self.start_from_switch(slot, cand);
            if last {
                break;
            }
        }
    }

    /// Starts the packet `cand` on its output.
    fn start_from_switch(&mut self, slot: usize, cand: Candidate) {
        let packet = self.switches[slot].start(&cand, self.queue.now());
        let blocks = self.packets[packet].blocks;
        let sw = &mut self.switches[slot];
        if let Some(choice) = cand.choice {
            sw.outputs[cand.out as usize].arbiter.sent(choice, blocks);
        }
        let channel = sw.out_channels[cand.out as usize];
        if let Some(vl) = cand.lane.vl() {
            let start = Start {
                // Data waiting for this output VL besides the packet now leaving it (already taken off the list).
                queued_blocks: sw.outputs[cand.out as usize].waiting[cand.lane.index()].len() as u32 * self.data_blocks,
                packet_blocks: blocks,
                waited_for_credit: self.channels[channel as usize].vl_stalled & (1 << vl) != 0,
            };
            let ovl = sw.output_vl(cand.out, cand.lane);
            if sw.cc.on_start(ovl, &start) {
                self.mark(packet, channel);
            }
        }
        self.start_tx(channel, packet, cand.lane, Some(cand.input));
    }

    /// A packet's tail has left input `port` of switch `slot`: free its space and send the credit upstream.
    pub(super) fn leave_input(&mut self, slot: usize, port: PortId, lane: Lane, packet: PacketId) {
        let now = self.queue.now();
        let sw = &mut self.switches[slot];
        let full_at = sw.full_at;
        let buffer = &mut sw.inputs[port as usize][lane.index()];
        let pos = buffer.queue.iter().position(|e| e.packet == packet).expect("the leaving packet is buffered");
        let entry = buffer.queue.remove(pos);
        debug_assert!(entry.started);
        let blocks = self.packets[packet].blocks;
        buffer.used -= blocks;
        buffer.sending -= 1;
        if buffer.used < full_at {
            buffer.full = false;
        }
        if lane.is_data() {
            let used = sw.data_used(port);
            let interval = self.stats.interval();
            self.stats.occupancy[slot][port as usize].change(now, used + blocks, used, interval);
            let ovl = sw.output_vl(entry.out, lane);
            sw.cc.on_departure(ovl);
        }
        // The channel a port receives on is the reverse of the one it sends on (topology numbering).
        let in_channel = self.switches[slot].out_channels[port as usize] ^ 1;
        self.return_credit(in_channel, lane, blocks);
    }
}

/// The data packet output `out` of `sw` would start now, if any (sent on `state`, `blocks` a data packet's size),
/// and the data VLs (bits) that have a packet able to go but no credit for it. With several VLs the output's VL
/// arbiter chooses among those that can go.
#[inline]
fn data_candidate(
    sw: &SwitchState<SwitchCc>,
    out: PortId,
    state: &ChannelState,
    blocks: u32,
    now: crate::time::Time,
) -> (Option<Candidate>, u16) {
    if sw.vls == 1 {
        return match sw.first_startable(out, Lane::VL0, now) {
            Some(c) if state.has_credit(Lane::VL0, blocks) => (Some(c), 0),
            Some(_) => (None, 1),
            None => (None, 0),
        };
    }
    let mut ready = [None; MAX_DATA_VLS as usize];
    let mut lacking = 0u16;
    for vl in 0..sw.vls {
        let lane = Lane::data(vl);
        match sw.first_startable(out, lane, now) {
            Some(c) if state.has_credit(lane, blocks) => ready[usize::from(vl)] = Some(c),
            Some(_) => lacking |= 1 << vl,
            None => {}
        }
    }
    let choice = sw.outputs[out as usize].arbiter.choose(|vl| ready[usize::from(vl)].is_some());
    let cand = choice.and_then(|choice| ready[usize::from(choice.vl)].map(|c| Candidate { choice: Some(choice), ..c }));
    (cand, lacking)
}
