//! Checks of the model's invariants, for tests (and for anyone debugging a scenario): nothing dropped, packets
//! conserved, credits within bounds and consistent with buffer occupancy, buffers within capacity, marking counters
//! consistent with the buffers (each switch's congestion control checks its own: `cc::SwitchControl::check`).

use super::Simulation;
use crate::cc::SwitchControl;
use crate::net::packet::Lane;
use alloc::format;
use alloc::string::String;

impl Simulation {
    /// `Ok` if every invariant holds now; otherwise what is wrong. Cost: linear in the network's size.
    pub fn check_invariants(&self) -> Result<(), String> {
        let t = &self.counts;
        if t.dropped != 0 {
            return Err(format!("{} packets dropped", t.dropped));
        }
        let data_live = u64::from(self.packets.live(false));
        if data_live != t.injected - t.delivered {
            return Err(format!(
                "{data_live} data packets exist, but {} injected - {} delivered",
                t.injected, t.delivered
            ));
        }
        // Data packets delivered and not yet acknowledged at their sources: waiting at their destinations to be
        // ACKed (ACK coalescing), or in ACKs on their way back (one each, or fewer when coalesced).
        // (Unreliable flows' packets are never acknowledged; their CN packets acknowledge nothing.)
        let acks_live = u64::from(self.packets.live(true)) - (t.cn_sent - t.cn_delivered);
        let owed = t.delivered - t.unreliable_delivered - t.acks_delivered;
        let unacked: u64 = self.flows.iter().map(|f| u64::from(f.unacked())).sum();
        let in_acks = owed.checked_sub(unacked).ok_or_else(|| format!("{unacked} unACKed of {owed} owed"))?;
        if acks_live > in_acks || (acks_live == 0) != (in_acks == 0) {
            return Err(format!("{acks_live} ACKs exist for {in_acks} delivered packets ACKed but not yet back"));
        }
        // Each flow's owed ACKs are the ones waiting at its destination host.
        let mut queued = alloc::vec![0u32; self.flows.len()];
        for host in &self.hosts {
            for &a in host.acks() {
                queued[self.packets[a].flow as usize] += 1;
            }
        }
        for (i, (f, q)) in self.flows.iter().zip(queued).enumerate() {
            let (owed, last) = f.owed_acks();
            if owed != q || (q == 0) != last.is_none() {
                return Err(format!("flow {i} counts {owed} owed ACKs, {q} wait at its host"));
            }
        }
        let outstanding: u64 =
            self.flows.iter().map(|f| u64::from(f.outstanding()) + u64::from(f.stale_outstanding())).sum();
        let reliable_live = data_live - (t.unreliable_injected - t.unreliable_delivered);
        if outstanding != reliable_live + owed {
            return Err(format!(
                "flows count {outstanding} outstanding, {reliable_live} reliable data packets exist and {owed} await their ACK"
            ));
        }
        for (i, c) in self.topo.channels().iter().enumerate() {
            if self.topo.nodes()[c.to as usize].is_host {
                continue;
            }
            let state = &self.channels[i];
            let sw = &self.switches[self.node_slot[c.to as usize] as usize];
            for lane in Lane::all(sw.vls()) {
                let l = lane.index();
                let used = sw.input(c.to_port, lane).used();
                let (credits, capacity) = (state.credits(lane), state.capacity());
                if used > capacity {
                    return Err(format!("channel {i} lane {l}: buffer holds {used} of {capacity} blocks"));
                }
                // Without propagation delay no credit is in flight: the sender's view is exact. With it, credits
                // in flight (or packets not yet arrived) make the sum smaller.
                let sum = credits + used;
                if sum > capacity || (c.propagation == 0 && sum != capacity) {
                    return Err(format!(
                        "channel {i} lane {l}: {credits} credits + {used} used vs capacity {capacity}"
                    ));
                }
            }
        }
        for sw in &self.switches {
            if let Err((ovl, why)) = sw.cc().check(&|with_started| sw.data_per_output_vl(with_started)) {
                let (port, vl) = (ovl / u32::from(sw.vls()), ovl % u32::from(sw.vls()));
                return Err(format!("node {} output {port} VL {vl}: {why}", sw.node()));
            }
        }
        Ok(())
    }
}
