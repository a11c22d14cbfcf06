//! Putting packets on links: starting a transmission (taking the receiver's credit), finishing it (freeing the
//! sender's input buffer and returning that credit upstream), and credits arriving.

use super::events::Event;
use super::Simulation;
use crate::metrics::overlap;
use crate::net::channel::Sending;
use crate::net::packet::{Lane, PacketId};
use crate::net::topology::{ChannelId, PortId};
use crate::time::Time;

impl Simulation {
    /// Starts sending `packet` on `channel` now. The caller has checked that the transmitter is idle and the
    /// receiver has room (credit) for it.
    pub(super) fn start_tx(&mut self, channel: ChannelId, packet: PacketId, lane: Lane, from_input: Option<PortId>) {
        let now = self.queue.now();
        let p = self.packets[packet];
        let state = &mut self.channels[channel as usize];
        let (to_host, propagation) = (state.to.host, state.propagation);
        debug_assert!(!state.is_busy(), "a transmitter sends one packet at a time");
        let credits = &mut state.credits[lane.index()];
        if *credits != u32::MAX {
            assert!(*credits >= p.blocks, "started without credit");
            *credits -= p.blocks;
        }
        debug_assert_eq!(p.lane, lane);
        if let Some(vl) = lane.vl() {
            state.vl_stalled &= !(1 << vl);
        }
        let done = now + state.serialization[lane.kind()];
        state.sending = Some(Sending { packet, lane, from_input, ends_at: done });
        let (from, to) = (self.stats.from, self.stats.to);
        let link = &mut self.stats.links[channel as usize];
        if let Some(since) = state.stalled_since.take() {
            link.stall += overlap(since, now, from, to);
            link.stall_all += now - since;
        }
        if let Some(vl) = lane.vl().filter(|_| !state.vl_stall_since.is_empty()) {
            end_vl_stall(&mut state.vl_stall_since, &mut link.vl_stall_all, vl, now);
        }
        self.queue.schedule(done, Event::TxEnd { channel });

        let counted = overlap(now, done, from, to);
        if lane.is_data() {
            self.stats.series[channel as usize].add(now, done);
            link.data_busy += counted;
            link.data_packets += 1;
            link.ecn_sent += u64::from(p.marked);
        } else {
            link.ack_busy += counted;
            link.ack_packets += 1;
        }
        if self.nic_on && lane.is_data() && from_input.is_none() {
            // A host sent it: its NIC's congestion control follows the credits in use.
            let host = self.channels[channel as usize].from.slot;
            self.nic_credits_changed(host as usize, channel);
        }
        if !to_host {
            if propagation == 0 {
                self.immediate += 1;
                self.arrive(channel, packet);
            } else {
                self.queue.schedule(now + propagation, Event::Arrive { channel, packet });
            }
        }
    }

    /// A transmitter finished: its packet's tail has left the sender (freeing a switch's input buffer) and, one
    /// propagation delay later, reaches the receiver (a host absorbs it then).
    pub(super) fn on_tx_end(&mut self, channel: ChannelId) {
        let state = &mut self.channels[channel as usize];
        let sending = state.sending.take().expect("TxEnd without a transmission");
        let (from, to, propagation) = (state.from, state.to, state.propagation);
        if let Some(input) = sending.from_input {
            self.leave_input(from.slot as usize, input, sending.lane, sending.packet);
        }
        if to.host {
            if propagation == 0 {
                self.immediate += 1;
                self.deliver(channel, sending.packet);
            } else {
                let t = self.queue.now() + propagation;
                self.queue.schedule(t, Event::Deliver { channel, packet: sending.packet });
            }
        }
        self.node_pass(from);
    }

    /// Returns `blocks` of `lane` credit to the transmitter of `channel`, now or after its propagation delay.
    pub(super) fn return_credit(&mut self, channel: ChannelId, lane: Lane, blocks: u32) {
        let prop = self.channels[channel as usize].propagation;
        if prop == 0 {
            self.immediate += 1;
            self.on_credit(channel, lane, blocks);
        } else {
            let t = self.queue.now() + prop;
            self.queue.schedule(t, Event::Credit { channel, lane, blocks });
        }
    }

    pub(super) fn on_credit(&mut self, channel: ChannelId, lane: Lane, blocks: u32) {
        let state = &mut self.channels[channel as usize];
        let credits = &mut state.credits[lane.index()];
        *credits += blocks;
        assert!(*credits <= state.capacity, "credit above the receiver's buffer size");
        if let Some(vl) = lane.vl().filter(|_| !state.vl_stall_since.is_empty()) {
            // A VL that waited for credit now has enough for a data packet: it waits for credit no longer (a
            // turn of the VL arbitration may still keep it waiting).
            if state.has_credit(lane, self.data_blocks) {
                let now = self.queue.now();
                end_vl_stall(&mut state.vl_stall_since, &mut self.stats.links[channel as usize].vl_stall_all, vl, now);
            }
        }
        let from = state.from;
        if self.nic_on && lane.is_data() && from.host {
            self.nic_credits_changed(from.slot as usize, channel);
        }
        self.node_pass(from);
    }
}

/// Ends data VL `vl`'s credit stall, if it had one, adding its length to `total`.
fn end_vl_stall(since: &mut [Option<Time>], total: &mut [Time], vl: u8, now: Time) {
    if let Some(t) = since[usize::from(vl)].take() {
        total[usize::from(vl)] += now - t;
    }
}
