//! Changing a run's settings while it goes on, where the model allows it: the marking block (policy, thresholds,
//! when "full" is checked, what `cnt1` counts) is read afresh at every arrival and transmission, so a new one applies
//! from the next event on. Everything else (the network, the flows, the sources' response functions and their state,
//! PFT, Annex A10) shapes state built at time 0, so changing it needs a new run.

use super::Simulation;
use crate::cc::SwitchControl;
use crate::net::packet::Lane;
use crate::net::topology::PortId;
use crate::scenario::Scenario;
use alloc::vec::Vec;

/// Why a change cannot apply to a run under way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NeedsRestart(pub &'static str);

/// `s` without what does not shape the run (see `Scenario::without_layout`) or what retune changes (marking).
fn fixed_part(s: &Scenario) -> Scenario {
    let mut s = s.without_layout();
    s.marking = Default::default();
    s
}

/// Whether a run of `run` must start again to follow `next`: they differ in more than marking, names and
/// positions (what [`Simulation::retune`] refuses; the page says so before the run has answered).
pub fn needs_restart(run: &Scenario, next: &Scenario) -> bool {
    fixed_part(next) != fixed_part(run)
}

impl Simulation {
    /// Makes the run follow `next` from now on, if `next` differs from the current scenario only in its marking
    /// settings (or in name, description and positions): each switch's congestion control takes the new block
    /// (`SwitchControl::retune`). Otherwise nothing changes and the reason is given.
    pub fn retune(&mut self, next: &Scenario) -> Result<(), NeedsRestart> {
        if needs_restart(&self.scenario, next) {
            return Err(NeedsRestart("only marking settings can change during a run"));
        }
        // The network is the run's, so its routes are too: checked with them, not routed again.
        let routed = (self.topo.clone(), self.routing_notes.clone(), self.routing_lanes.clone());
        if next.compile_on(routed).is_err() {
            return Err(NeedsRestart("the new scenario is not valid"));
        }
        for slot in 0..self.switches.len() {
            let ports = self.switches[slot].ports() as PortId;
            let held: Vec<u32> = (0..ports)
                .flat_map(|port| (0..self.vls).map(move |vl| (port, Lane::data(vl))))
                .map(|(port, lane)| self.held_blocks(slot, port, lane))
                .collect();
            let sw = &mut self.switches[slot];
            sw.cc_with_buffers(|cc, per_output| cc.retune(&next.marking, per_output, &held));
        }
        self.scenario = next.clone();
        Ok(())
    }
}
