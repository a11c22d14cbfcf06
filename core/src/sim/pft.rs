//! Proactive Flow Throttling at host NICs (model.md §7): the detector follows the data credits in use on the NIC's
//! link; while it says Congested, each data packet is followed by its throttle delay (ACKs are never throttled).

use super::events::Event;
use super::Simulation;
use crate::cc::pft::PftState;
use crate::net::packet::Lane;
use crate::net::topology::{ChannelId, NodeId};

impl Simulation {
    /// The data credits in use on `channel` (sent, not yet returned), if its sender is a host with PFT.
    fn pft_host_of(&self, channel: ChannelId) -> Option<usize> {
        let from: NodeId = self.topo.channel(channel).from;
        let slot = self.node_slot[from as usize] as usize;
        (self.topo.nodes()[from as usize].is_host && self.hosts[slot].pft.is_some()).then_some(slot)
    }

    /// Tells host `slot`'s detector that the credits in use on its link changed.
    pub(super) fn pft_credits_changed(&mut self, channel: ChannelId) {
        let Some(slot) = self.pft_host_of(channel) else { return };
        let now = self.queue.now();
        let state = &self.channels[channel as usize];
        let c = state.capacity[Lane::Data.index()] - state.credits[Lane::Data.index()];
        let pft = self.hosts[slot].pft.as_mut().expect("checked above");
        let changed = pft.detector.set_credits(now, c);
        if pft.next_data_at.is_none() {
            // Blocked by RI at the old c: draw the wait for the last packet's flits again at the new c.
            let flits = pft.last_flits;
            let cfg_delay = self.scenario.pft.expect("PFT is on").throttle_delay(c, flits, &mut pft.rng);
            pft.next_data_at = cfg_delay.map(|d| now + d);
        }
        self.pft_after_change(slot, changed);
    }

    pub(super) fn on_pft_timer(&mut self, host: u32, gen: u32) {
        let now = self.queue.now();
        let Some(pft) = self.hosts[host as usize].pft.as_mut() else { return };
        if pft.timer_gen != gen {
            return;
        }
        let changed = pft.detector.on_timer(now);
        self.pft_after_change(host as usize, changed);
    }

    /// Re-arms the AT timer; when the NIC returns to Normal its throttling ends at once.
    fn pft_after_change(&mut self, slot: usize, changed: bool) {
        let now = self.queue.now();
        let pft = self.hosts[slot].pft.as_mut().expect("PFT is on");
        if let Some(t) = pft.detector.next_deadline() {
            pft.timer_gen = pft.timer_gen.wrapping_add(1);
            self.queue.schedule(t.max(now), Event::PftTimer { host: slot as u32, gen: pft.timer_gen });
        }
        if changed && pft.detector.state() == PftState::Normal {
            pft.next_data_at = Some(now);
            self.host_pass(slot);
        }
    }

    /// After host `slot` started a data packet ending at `ends`: while Congested, the idle cycles of its flits
    /// follow it.
    pub(super) fn pft_after_data_packet(&mut self, slot: usize, ends: crate::time::Time) {
        let flits = {
            let Some(cfg) = self.scenario.pft.as_ref() else { return };
            self.data_bytes.div_ceil(cfg.flit_bytes)
        };
        let cfg = self.scenario.pft.expect("PFT is on");
        let node = self.hosts[slot].node;
        let channel = self.topo.out_channel(node, 0);
        let state = &self.channels[channel as usize];
        let c = state.capacity[Lane::Data.index()] - state.credits[Lane::Data.index()];
        let pft = self.hosts[slot].pft.as_mut().expect("PFT is on");
        pft.last_flits = flits;
        pft.next_data_at = if pft.detector.state() == PftState::Congested {
            cfg.throttle_delay(c, flits, &mut pft.rng).map(|d| ends + d)
        } else {
            Some(ends)
        };
    }
}
