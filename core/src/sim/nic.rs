//! The host NIC's congestion control at work (PFT, docs/model.md §7): it hears of every change of the data credits
//! in use on the NIC's link and of its timer, and may hold the NIC's data back (`cc::NicControl`).

use super::events::Event;
use super::observe::Observer;
use super::Simulation;
use crate::cc::{NicAction, NicControl};
use crate::net::topology::ChannelId;

impl Simulation {
    /// Data credits in use on `channel`: blocks sent and not yet returned, over every data VL.
    pub(super) fn data_credits_in_use(&self, channel: ChannelId) -> u32 {
        self.channels[channel as usize].data_credits_in_use(self.vls)
    }

    /// The data credits in use on `channel`, whose sender is host `slot`, changed (it sent a data packet, or a
    /// credit came back).
    pub(super) fn nic_credits_changed(&mut self, slot: usize, channel: ChannelId, obs: &mut impl Observer) {
        let (now, in_use) = (self.queue.now(), self.data_credits_in_use(channel));
        let action = self.hosts[slot].cc_mut().on_credits(now, in_use);
        self.nic_act(slot, action, obs);
    }

    pub(super) fn on_nic_timer(&mut self, host: u32, gen: u32, obs: &mut impl Observer) {
        let action = self.hosts[host as usize].cc_mut().on_timer(self.queue.now(), gen);
        self.nic_act(host as usize, action, obs);
    }

    fn nic_act(&mut self, slot: usize, action: NicAction, obs: &mut impl Observer) {
        if let Some((t, gen)) = action.timer {
            self.queue.schedule(t, Event::NicTimer { host: slot as u32, gen });
        }
        if action.resume {
            self.host_pass(slot, obs);
        }
    }
}
