//! The host NIC's congestion control at work (PFT, model.md §7): it hears of every change of the data credits in
//! use on the NIC's link and of its timer, and may hold the NIC's data back (`cc::NicControl`).

use super::events::Event;
use super::Simulation;
use crate::cc::{NicAction, NicControl};
use crate::net::topology::ChannelId;

impl Simulation {
    /// Data credits in use on `channel`: blocks sent and not yet returned, over every data VL.
    pub(super) fn data_credits_in_use(&self, channel: ChannelId) -> u32 {
        let state = &self.channels[channel as usize];
        let vls = state.credits.len().min(usize::from(self.vls) + 1);
        state.credits[1..vls].iter().map(|&c| state.capacity - c).sum()
    }

    /// The data credits in use on `channel`, whose sender is host `slot`, changed (it sent a data packet, or a
    /// credit came back).
    pub(super) fn nic_credits_changed(&mut self, slot: usize, channel: ChannelId) {
        let (now, in_use) = (self.queue.now(), self.data_credits_in_use(channel));
        let action = self.hosts[slot].cc.on_credits(now, in_use);
        self.nic_act(slot, action);
    }

    pub(super) fn on_nic_timer(&mut self, host: u32, gen: u32) {
        let action = self.hosts[host as usize].cc.on_timer(self.queue.now(), gen);
        self.nic_act(host as usize, action);
    }

    fn nic_act(&mut self, slot: usize, action: NicAction) {
        if let Some((t, gen)) = action.timer {
            self.queue.schedule(t, Event::NicTimer { host: slot as u32, gen });
        }
        if action.resume {
            self.host_pass(slot);
        }
    }
}
