//! Putting packets on links: starting a transmission (the channel takes the receiver's credit), finishing it (freeing
//! the sender's input buffer and returning that credit upstream), and credits arriving.

use super::events::{Event, EventKind};
use super::observe::{Observer, Sent};
use super::Simulation;
use crate::net::packet::{Lane, PacketId};
use crate::net::topology::{ChannelId, PortId};

impl Simulation {
    /// Starts sending `packet` on `channel` now. The caller has checked that the transmitter is idle and the
    /// receiver has room (credit) for it.
    pub(super) fn start_tx(
        &mut self,
        channel: ChannelId,
        packet: PacketId,
        lane: Lane,
        from_input: Option<PortId>,
        obs: &mut impl Observer,
    ) {
        let now = self.queue.now();
        let p = self.packets[packet];
        debug_assert_eq!(p.lane, lane);
        let state = &mut self.channels[channel as usize];
        let (sending, stalls) = state.start(packet, lane, p.blocks, from_input, now);
        let (from, to, propagation) = (state.from(), state.to(), state.propagation());
        if !from.host {
            self.switches[from.slot as usize].set_idle(from.port, false);
        }
        if let (Some(since), Some(vl)) = (stalls.vl, lane.vl()) {
            obs.on_vl_stall_end(channel, vl, since, now);
        }
        self.queue.schedule(sending.ends_at, Event::TxEnd { channel });
        let ends = sending.ends_at;
        obs.on_send(&Sent { channel, lane, marked: p.marked, now, ends, stalled_since: stalls.link });
        if self.nic_on && lane.is_data() && from_input.is_none() {
            // A host sent it: its NIC's congestion control follows the credits in use.
            let host = self.channels[channel as usize].from().slot;
            self.nic_credits_changed(host as usize, channel, obs);
        }
        if !to.host {
            if propagation == 0 {
                self.immediate += 1;
                obs.on_event(EventKind::Arrive, false);
                self.arrive(channel, packet, obs);
            } else {
                self.queue.schedule(now + propagation, Event::Arrive { channel, packet });
            }
        }
    }

    /// A transmitter finished: its packet's tail has left the sender (freeing a switch's input buffer) and, one
    /// propagation delay later, reaches the receiver (a host absorbs it then).
    #[inline(always)]
    pub(super) fn on_tx_end(&mut self, channel: ChannelId, obs: &mut impl Observer) {
        let state = &mut self.channels[channel as usize];
        let sending = state.finish();
        let (from, to, propagation) = (state.from(), state.to(), state.propagation());
        if !from.host {
            self.switches[from.slot as usize].set_idle(from.port, true);
        }
        if let Some(input) = sending.from_input {
            self.leave_input(from.slot as usize, input, sending.lane, sending.packet, obs);
        }
        if to.host {
            if propagation == 0 {
                self.immediate += 1;
                obs.on_event(EventKind::Deliver, false);
                self.deliver(channel, sending.packet, obs);
            } else {
                let t = self.queue.now() + propagation;
                self.queue.schedule(t, Event::Deliver { channel, packet: sending.packet });
            }
        }
        if from.host {
            self.host_pass(from.slot as usize, obs);
        } else {
            let input = sending.from_input.expect("a switch sends from its inputs");
            self.freed_pass(from.slot as usize, from.port, input, sending.lane, obs);
        }
    }

    /// Returns `blocks` of `lane` credit to the transmitter of `channel`, now or after its propagation delay.
    pub(super) fn return_credit(&mut self, channel: ChannelId, lane: Lane, blocks: u32, obs: &mut impl Observer) {
        let prop = self.channels[channel as usize].propagation();
        if prop == 0 {
            self.immediate += 1;
            obs.on_event(EventKind::Credit, false);
            self.on_credit(channel, lane, blocks, obs);
        } else {
            let t = self.queue.now() + prop;
            self.queue.schedule(t, Event::Credit { channel, lane, blocks });
        }
    }

    #[inline(always)]
    pub(super) fn on_credit(&mut self, channel: ChannelId, lane: Lane, blocks: u32, obs: &mut impl Observer) {
        let now = self.queue.now();
        let state = &mut self.channels[channel as usize];
        if let Some(since) = state.return_credit(lane, blocks, self.data_blocks) {
            obs.on_vl_stall_end(channel, lane.vl().expect("a data VL"), since, now);
        }
        let (from, busy) = (state.from(), state.is_busy());
        if self.nic_on && lane.is_data() && from.host {
            self.nic_credits_changed(from.slot as usize, channel, obs);
        }
        if from.host {
            self.host_pass(from.slot as usize, obs);
        } else {
            self.credit_pass(from.slot as usize, from.port, lane, busy, obs);
        }
    }
}
