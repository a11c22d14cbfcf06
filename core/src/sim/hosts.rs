//! Hosts: the NIC that injects ACKs and data (flows take turns, INFOCOM'03 §IV-B), the destination that absorbs
//! data and returns ACKs (model.md §5), the source that applies them (§V), and ON/OFF traffic (§VI-B.2).

use super::events::Event;
use super::{exp_time, Simulation};
use crate::cc::{Ack, Limiter, NicControl, SourceControl};
use crate::metrics::overlap;
use crate::net::host::ACKS_OWED_PER_FLOW;
use crate::net::packet::{Lane, Packet, PacketId};
use crate::net::topology::ChannelId;
use crate::net::vl::{Choice, MAX_DATA_VLS};
use crate::scenario::Traffic;
use crate::time::{Time, NS};
use core::cmp::Reverse;

impl Simulation {
    /// Recomputes flow `f`'s `rate_ok_at` after its last start or its rate changed (at each send and each ACK):
    /// its congestion control's gap at the time, after its last start.
    fn update_rate_ok_at(&mut self, f: usize) {
        let gap = self.flows[f].cc.gap(self.packet_time[f], self.queue.now());
        let flow = &mut self.flows[f];
        flow.rate_ok_at = flow.last_start.map_or(0, |t| t.saturating_add(gap));
    }

    /// Flow `f`'s state changed (an ACK, the start of an ON period): recompute its rate timer, queue it where its
    /// host will find it, and let the host send.
    fn flow_changed(&mut self, f: usize) {
        self.update_rate_ok_at(f);
        self.enlist(f);
        self.host_pass(self.flows[f].host as usize);
    }

    /// Puts flow `f` where its host will find it: in the ready list if it may send now, under a rate timer if only
    /// its rate limit holds it back, nowhere if it is off or its window is full (an ACK or its next ON period calls
    /// this again).
    fn enlist(&mut self, f: usize) {
        let now = self.queue.now();
        let flow = &self.flows[f];
        if !flow.active || !flow.cc.may_send(flow.outstanding) {
            return;
        }
        let t = self.flows[f].rate_ok_at;
        let slot = self.flows[f].host as usize;
        let (flow, host) = (&mut self.flows[f], &mut self.hosts[slot]);
        if t <= now {
            if !flow.in_ready {
                flow.in_ready = true;
                host.ready.push_back(f as u32);
            }
        } else if flow.timer_at.is_none_or(|at| t < at) {
            flow.timer_at = Some(t);
            host.timers.push(Reverse((t, f as u32)));
        }
    }

    /// Sends the next packet from host `slot` if its NIC is idle: a waiting ACK first, then the flow at the front of
    /// the ready list. If only rate limits hold flows back, a wake-up is set for the earliest of them.
    pub(super) fn host_pass(&mut self, slot: usize) {
        let now = self.queue.now();
        let Some(channel) = self.hosts[slot].channel else { return };
        if self.channels[channel as usize].is_busy() {
            return;
        }
        if let Some(&ack) = self.hosts[slot].acks.front() {
            if self.channels[channel as usize].has_credit(Lane::ACK, self.ack_blocks) {
                self.hosts[slot].acks.pop_front();
                let flow = &mut self.flows[self.packets[ack].flow as usize];
                flow.owed_acks -= 1;
                if flow.last_owed_ack == Some(ack) {
                    flow.last_owed_ack = None;
                }
                self.start_tx(channel, ack, Lane::ACK, None);
                return;
            }
        }
        // The NIC's congestion control may hold data back (PFT while throttling: the idle cycles after the last
        // packet, or until c changes).
        if self.nic_on {
            match self.hosts[slot].cc.data_at() {
                None => return,
                Some(t) if t > now => {
                    self.wake_host_at(slot, t);
                    return;
                }
                Some(_) => {}
            }
        }
        while let Some(&Reverse((t, f))) = self.hosts[slot].timers.peek() {
            if t > now {
                break;
            }
            self.hosts[slot].timers.pop();
            if self.flows[f as usize].timer_at == Some(t) {
                self.flows[f as usize].timer_at = None;
                self.enlist(f as usize);
            }
        }
        while let Some(&f) = self.hosts[slot].ready.front() {
            let f = f as usize;
            let flow = &self.flows[f];
            let rate_ok_at = flow.rate_ok_at;
            if !flow.active || !flow.cc.may_send(flow.outstanding) || rate_ok_at > now {
                // Changed since it was queued: take it out and put it back where it belongs now.
                self.hosts[slot].ready.pop_front();
                self.flows[f].in_ready = false;
                self.enlist(f);
                continue;
            }
            // The flow that sends: with one VL the front one, if it has credit; with several, the first ready
            // flow of the VL the arbiter picks among those with credit (a VL waiting for credit does not hold
            // back the others).
            let Some((at, choice)) = self.next_to_send(slot, channel) else {
                self.channels[channel as usize].stalled_since.get_or_insert(now);
                // A credit will run this pass again. With several VLs a flow of another VL held only by its rate
                // may be ready before that: its timer must still wake the host.
                if self.vls > 1 {
                    self.wake_for_rate_timers(slot);
                }
                return;
            };
            let f = self.hosts[slot].ready.remove(at).expect("found in the ready list") as usize;
            let rate_ok_at = self.flows[f].rate_ok_at;
            self.flows[f].in_ready = false;
            if let Some(choice) = choice {
                self.hosts[slot].arbiter.sent(choice, self.data_blocks);
            }
            self.inject(f, channel, rate_ok_at);
            self.update_rate_ok_at(f);
            self.enlist(f);
            if self.nic_on {
                let ends = now + self.channels[channel as usize].serialization[0];
                let in_use = self.data_credits_in_use(channel);
                self.hosts[slot].cc.after_data(ends, in_use);
            }
            return;
        }
        self.wake_for_rate_timers(slot);
    }

    /// Makes sure host `slot` runs a pass when the earliest of its flows' rate timers runs out.
    fn wake_for_rate_timers(&mut self, slot: usize) {
        if let Some(&Reverse((t, _))) = self.hosts[slot].timers.peek() {
            self.wake_host_at(slot, t);
        }
    }

    /// Where in host `slot`'s ready list the flow is that sends next on `channel`, and the VL arbiter's choice
    /// that picked it (several VLs). With one VL, the front flow if it has credit. With several, the arbiter picks
    /// among the VLs with a flow that may send and credit for it, and that VL's first such flow goes; flows that
    /// can no longer send are passed over, left for the front. VLs with a flow ready but no credit are noted as
    /// waiting for credit.
    fn next_to_send(&mut self, slot: usize, channel: ChannelId) -> Option<(usize, Option<Choice>)> {
        let state = &self.channels[channel as usize];
        let ready = &self.hosts[slot].ready;
        if self.vls == 1 {
            return state.has_credit(Lane::VL0, self.data_blocks).then_some((0, None));
        }
        let now = self.queue.now();
        let mut first = [None; MAX_DATA_VLS as usize];
        let mut lacking = 0u16;
        for (at, &f) in ready.iter().enumerate() {
            let flow = &self.flows[f as usize];
            let vl = flow.lane.vl().expect("a data lane");
            if first[usize::from(vl)].is_some()
                || !flow.active
                || !flow.cc.may_send(flow.outstanding)
                || flow.rate_ok_at > now
            {
                continue;
            }
            if state.has_credit(flow.lane, self.data_blocks) {
                first[usize::from(vl)] = Some(at);
            } else {
                lacking |= 1 << vl;
            }
        }
        if lacking != 0 {
            self.channels[channel as usize].lacking_credit(lacking, now);
        }
        let choice = self.hosts[slot].arbiter.choose(|vl| first[usize::from(vl)].is_some())?;
        Some((first[usize::from(choice.vl)]?, Some(choice)))
    }

    /// Makes sure host `slot` runs a pass at `t` (keeping only the earliest pending wake-up).
    fn wake_host_at(&mut self, slot: usize, t: Time) {
        let host = &mut self.hosts[slot];
        if host.wake_at.is_none_or(|w| w > t) {
            host.wake_gen = host.wake_gen.wrapping_add(1);
            host.wake_at = Some(t);
            self.queue.schedule(t, Event::HostWake { host: slot as u32, gen: host.wake_gen });
        }
    }

    pub(super) fn on_host_wake(&mut self, host: u32, gen: u32) {
        let h = &mut self.hosts[host as usize];
        if h.wake_gen != gen {
            return;
        }
        h.wake_at = None;
        self.host_pass(host as usize);
    }

    /// Starts flow `f`'s next data packet now.
    fn inject(&mut self, f: usize, channel: ChannelId, rate_ok_at: Time) {
        let now = self.queue.now();
        let flow = &mut self.flows[f];
        // What held this packet back last (the HP slides' RWL): the window if it opened last, the rate timer if
        // that ran out last, or something else (the NIC, credits, other flows) if both were already satisfied.
        let window_ok_at = flow.window_open_at;
        let limiter = if rate_ok_at.max(window_ok_at) < now {
            Limiter::Other
        } else if window_ok_at >= rate_ok_at {
            Limiter::Window
        } else {
            Limiter::Rate
        };
        flow.cc.on_send(limiter);
        let psn = flow.next_psn;
        flow.next_psn = flow.next_psn.wrapping_add(1);
        flow.last_start = Some(now);
        if flow.reliable {
            flow.outstanding += 1;
        } else {
            // No ACKs will come: the source counts each packet it sends as an unmarked ACK (its RPI and `finc`
            // steps, the slides' "general state"), the only clock it has; a CN packet brings a decrease.
            flow.cc.on_ack(&Ack { psn, marked: false, next_psn: flow.next_psn }, now);
            self.stats.totals.unreliable_injected += 1;
        }
        // ACK coalescing: the packet that fills the window asks for an ACK (net::host::AckCoalescing).
        let ack_req = self.ack_every > 0 && flow.cc.window().is_some_and(|w| flow.outstanding >= w);
        let lane = flow.lane;
        let packet = self.packets.insert(Packet {
            flow: f as u32,
            psn,
            lane,
            blocks: self.data_blocks,
            marked: false,
            ack_req,
            count: 1,
            marks: 0,
            dst: flow.dst,
            injected_at: now,
        });
        let stats = &mut self.stats;
        stats.totals.injected += 1;
        let counters = &mut stats.flows[f];
        counters.injected += 1;
        counters.busy += overlap(now, now + self.packet_time[f], stats.from, stats.to);
        stats.group_series[stats.flow_group[f] as usize].add(now, now + self.packet_time[f]);
        self.start_tx(channel, packet, lane, None);
    }

    /// A packet's tail reached the host at the end of `channel`.
    pub(super) fn deliver(&mut self, channel: ChannelId, packet: PacketId) {
        let p = self.packets.remove(packet);
        if p.lane.is_data() {
            self.data_arrived(channel, p);
        } else {
            self.ack_arrived(p);
        }
    }

    /// A data packet reached its destination: counted, and an ACK echoing its ECN bit is owed to its source (with
    /// ACK coalescing, once it is marked, asks for one, or completes `every_packets`: for all since the last).
    fn data_arrived(&mut self, channel: ChannelId, p: Packet) {
        let now = self.queue.now();
        let host_node = self.topo.channel(channel).to;
        debug_assert_eq!(p.dst, host_node);
        let f = p.flow as usize;
        let stats = &mut self.stats;
        stats.totals.delivered += 1;
        let counters = &mut stats.flows[f];
        counters.delivered += 1;
        if (stats.from..stats.to).contains(&now) {
            counters.delivered_in_interval += 1;
            counters.delay_sum += u128::from(now - p.injected_at);
        }
        let slot = self.node_slot[host_node as usize] as usize;
        let (psn, count) = if !self.flows[f].reliable {
            // Unreliable: no ACK; a marked packet brings a CN packet back to its source.
            self.stats.totals.unreliable_delivered += 1;
            if !p.marked {
                return;
            }
            self.stats.totals.cn_sent += 1;
            (p.psn, 0)
        } else if self.ack_every == 0 {
            (p.psn, 1)
        } else {
            let flow = &mut self.flows[f];
            if flow.unacked == 0 {
                flow.unacked_psn = p.psn;
            }
            debug_assert_eq!(flow.unacked_psn.wrapping_add(flow.unacked), p.psn, "a flow's packets arrive in order");
            flow.unacked += 1;
            if !(p.marked || p.ack_req || flow.unacked >= self.ack_every) {
                return;
            }
            (flow.unacked_psn, core::mem::take(&mut flow.unacked))
        };
        let marks = u16::from(p.marked);
        if !(self.flows[f].owed_acks >= ACKS_OWED_PER_FLOW && self.coalesce_ack(f, psn, count, marks)) {
            self.stats.totals.acks_sent += u64::from(count > 0);
            let ack = self.packets.insert(Packet {
                flow: p.flow,
                psn,
                lane: Lane::ACK,
                blocks: self.ack_blocks,
                marked: false,
                ack_req: false,
                count,
                marks,
                dst: self.flows[f].src,
                injected_at: now,
            });
            self.flows[f].owed_acks += 1;
            self.flows[f].last_owed_ack = Some(ack);
            self.hosts[slot].acks.push_back(ack);
        }
        self.host_pass(slot);
    }

    /// The host already owes flow `f` as many ACKs as it may: the ACK for `count` packets from `psn` (`marks` of
    /// them marked) joins the flow's last waiting ACK if that one ends just before it. Returns whether it did.
    fn coalesce_ack(&mut self, f: usize, psn: u32, count: u32, marks: u16) -> bool {
        let Some(last) = self.flows[f].last_owed_ack else { return false };
        let ack = &mut self.packets[last];
        if count == 0
            || ack.count == 0
            || ack.psn.wrapping_add(ack.count) != psn
            || ack.count.checked_add(count).is_none()
            || ack.marks.checked_add(marks).is_none()
        {
            return false;
        }
        ack.count += count;
        ack.marks += marks;
        true
    }

    /// An ACK reached its flow's source: each packet it acknowledges is taken in order (a coalesced ACK's marks go
    /// to its newest packets: our choice, the order inside it being lost, and one spanning two ON periods gives
    /// them to the newer), then the flow may send again. ACKs of an earlier ON period change nothing. With ACK
    /// coalescing the source's congestion control takes the ACK once, for its newest packet, marked if any of its
    /// packets was (the slides' window, RPI and APSN count ACKs, not packets).
    fn ack_arrived(&mut self, p: Packet) {
        let now = self.queue.now();
        let f = p.flow as usize;
        if p.count == 0 {
            self.cn_arrived(&p);
            return;
        }
        let mut fresh = false;
        let per_packet = self.ack_every == 0;
        for i in 0..p.count {
            let marked = i >= p.count - u32::from(p.marks);
            let psn = p.psn.wrapping_add(i);
            let stats = &mut self.stats;
            stats.totals.acks_delivered += 1;
            let counters = &mut stats.flows[f];
            counters.acks += 1;
            counters.marked_acks += u64::from(marked);
            if marked && (stats.from..stats.to).contains(&now) {
                counters.marked_acks_in_interval += 1;
            }
            let flow = &mut self.flows[f];
            if psn.wrapping_sub(flow.epoch_psn) >= flow.next_psn.wrapping_sub(flow.epoch_psn) {
                // An ACK for a previous ON period's flow: it no longer concerns this one (INFOCOM'03 §VI-B.2:
                // without persistent state each ON period is a new flow).
                flow.stale_outstanding -= 1;
                continue;
            }
            if !flow.cc.may_send(flow.outstanding) {
                flow.window_open_at = now;
            }
            flow.outstanding -= 1;
            fresh = true;
            // (An ACK's stale packets come first: its newest is fresh if any is.)
            if per_packet || i + 1 == p.count {
                let marked = if per_packet { marked } else { p.marks > 0 };
                let ack = Ack { psn, marked, next_psn: flow.next_psn };
                flow.cc.on_ack(&ack, now);
            }
        }
        if fresh {
            self.flow_changed(f);
        }
    }

    /// A CN packet reached its (unreliable) flow's source: the source takes it as a marked ACK for the packet it
    /// names (a decrease, if that packet is at or after its APSN). One of an earlier ON period changes nothing.
    fn cn_arrived(&mut self, p: &Packet) {
        let now = self.queue.now();
        let f = p.flow as usize;
        let stats = &mut self.stats;
        stats.totals.cn_delivered += 1;
        let counters = &mut stats.flows[f];
        counters.marked_acks += 1;
        if (stats.from..stats.to).contains(&now) {
            counters.marked_acks_in_interval += 1;
        }
        let flow = &mut self.flows[f];
        if p.psn.wrapping_sub(flow.epoch_psn) >= flow.next_psn.wrapping_sub(flow.epoch_psn) {
            return;
        }
        flow.cc.on_ack(&Ack { psn: p.psn, marked: true, next_psn: flow.next_psn }, now);
        self.flow_changed(f);
    }

    /// A flow starts offering traffic: its start time, or an ON period. Without persistent state an ON period is a
    /// new flow at `Rmax` (INFOCOM'03 §VI-B.2).
    pub(super) fn on_flow_on(&mut self, f: u32, gen: u32) {
        let now = self.queue.now();
        let spec = &self.scenario.flows[f as usize];
        let stop = spec.stop_ns.map(|s| s * NS);
        let flow = &mut self.flows[f as usize];
        if gen != flow.toggle_gen || stop.is_some_and(|s| now >= s) {
            return;
        }
        let persistent = self.scenario.source.with(spec.source.as_ref()).persistent_state;
        if flow.last_start.is_some() && !persistent {
            // A new flow: fresh congestion-control state, and nothing outstanding (the old flow's packets still in
            // the network are its own).
            flow.cc = self.fresh_cc[f as usize].clone();
            flow.stale_outstanding += flow.outstanding;
            flow.outstanding = 0;
            flow.epoch_psn = flow.next_psn;
        }
        flow.active = true;
        let off_at = match spec.traffic {
            Traffic::Greedy => stop,
            Traffic::OnOff { mean_on_ns, .. } => {
                let t = now.saturating_add(exp_time(&mut flow.rng, mean_on_ns));
                Some(stop.map_or(t, |s| t.min(s)))
            }
        };
        if let Some(t) = off_at.filter(|&t| t < self.end) {
            self.queue.schedule(t, Event::FlowOff { flow: f, gen });
        }
        self.flow_changed(f as usize);
    }

    pub(super) fn on_flow_off(&mut self, f: u32, gen: u32) {
        let now = self.queue.now();
        let spec = &self.scenario.flows[f as usize];
        let stop = spec.stop_ns.map(|s| s * NS);
        let flow = &mut self.flows[f as usize];
        if gen != flow.toggle_gen {
            return;
        }
        flow.active = false;
        if let Traffic::OnOff { mean_off_ns, .. } = spec.traffic {
            let on_at = now.saturating_add(exp_time(&mut flow.rng, mean_off_ns));
            if stop.is_none_or(|s| on_at < s) && on_at < self.end {
                self.queue.schedule(on_at, Event::FlowOn { flow: f, gen });
            }
        }
    }
}
