//! Proactive Flow Throttling at host NICs (model.md §7): the detector follows the data credits in use on the NIC's
//! link; while it says Congested, each data packet is followed by its throttle delay (ACKs are never throttled).

use super::events::Event;
use super::Simulation;
use crate::cc::pft::{PftConfig, PftState};
use crate::net::packet::Lane;
use crate::net::topology::ChannelId;
use crate::time::Time;

impl Simulation {
    /// Data credits in use on `channel`: blocks sent and not yet returned.
    fn data_credits_in_use(&self, channel: ChannelId) -> u32 {
        let state = &self.channels[channel as usize];
        state.capacity[Lane::Data.index()] - state.credits[Lane::Data.index()]
    }

    /// Flits in a data packet.
    fn flits(&self, cfg: &PftConfig) -> u32 {
        self.data_bytes.div_ceil(cfg.flit_bytes)
    }

    /// The credits in use on `channel` changed: if its sender is a host NIC running PFT, tell its detector. Called
    /// (when the scenario has PFT) on every data credit a host takes or gets back.
    pub(super) fn pft_credits_changed(&mut self, channel: ChannelId) {
        let Some(cfg) = self.scenario.pft else { return };
        let from = self.topo.channel(channel).from;
        if !self.is_host[from as usize] {
            return;
        }
        let slot = self.node_slot[from as usize] as usize;
        let (now, c, flits) = (self.queue.now(), self.data_credits_in_use(channel), self.flits(&cfg));
        let pft = self.hosts[slot].pft.as_mut().expect("every host has PFT state when the scenario has PFT");
        let changed = pft.detector.set_credits(now, c);
        if pft.next_data_at.is_none() {
            // Blocked by RI at the old c: draw the wait for the last packet's flits again at the new c.
            pft.next_data_at = cfg.throttle_delay(c, flits, &mut pft.rng).map(|d| now + d);
        }
        self.pft_after_change(slot, changed);
    }

    pub(super) fn on_pft_timer(&mut self, host: u32, gen: u32) {
        let now = self.queue.now();
        let Some(pft) = self.hosts[host as usize].pft.as_mut() else { return };
        if pft.timer_gen != gen {
            return;
        }
        pft.timer_at = None;
        let changed = pft.detector.on_timer(now);
        self.pft_after_change(host as usize, changed);
    }

    /// Re-arms the AT timer if its deadline moved; when the NIC returns to Normal its throttling ends at once.
    fn pft_after_change(&mut self, slot: usize, changed: bool) {
        let now = self.queue.now();
        let pft = self.hosts[slot].pft.as_mut().expect("PFT is on");
        let deadline = pft.detector.next_deadline().map(|t| t.max(now));
        if deadline != pft.timer_at {
            pft.timer_gen = pft.timer_gen.wrapping_add(1);
            pft.timer_at = deadline;
            if let Some(t) = deadline {
                self.queue.schedule(t, Event::PftTimer { host: slot as u32, gen: pft.timer_gen });
            }
        }
        if changed && pft.detector.state() == PftState::Normal {
            pft.next_data_at = Some(now);
            self.host_pass(slot);
        }
    }

    /// After host `slot` started a data packet ending at `ends`: while Congested, the idle cycles of its flits
    /// follow it.
    pub(super) fn pft_after_data_packet(&mut self, slot: usize, ends: Time) {
        let Some(cfg) = self.scenario.pft else { return };
        let channel = self.hosts[slot].channel.expect("a host that sends data has a link");
        let (c, flits) = (self.data_credits_in_use(channel), self.flits(&cfg));
        let pft = self.hosts[slot].pft.as_mut().expect("PFT is on");
        pft.next_data_at = if pft.detector.state() == PftState::Congested {
            cfg.throttle_delay(c, flits, &mut pft.rng).map(|d| ends + d)
        } else {
            Some(ends)
        };
    }
}
