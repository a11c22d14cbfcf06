//! Hosts: the NIC that injects ACKs and data (flows take turns, INFOCOM'03 §IV-B), the destination that absorbs
//! data and returns ACKs (docs/model.md §5), the source that applies them (§V), and ON/OFF traffic (§VI-B.2).

use super::events::Event;
use super::observe::Observer;
use super::{exp_time, Simulation};
use crate::cc::{Ack, NicControl, SourceControl};
use crate::net::host::{Acked, ACKS_OWED_PER_FLOW};
use crate::net::packet::{Lane, Packet, PacketId};
use crate::net::topology::ChannelId;
use crate::net::vl::{Choice, MAX_DATA_VLS};
use crate::scenario::Traffic;
use crate::time::{Time, NS};

impl Simulation {
    /// Recomputes flow `f`'s `rate_ok_at` after its last start or its rate changed (at each send and each ACK):
    /// its congestion control's gap at the time, after its last start.
    fn update_rate_ok_at(&mut self, f: usize) {
        let gap = self.flows[f].cc_mut().gap(self.packet_time[f], self.queue.now());
        self.flows[f].rate_gap(gap);
    }

    /// Flow `f`'s state changed (an ACK, the start of an ON period): recompute its rate timer, queue it where its
    /// host will find it, and let the host send.
    pub(super) fn flow_changed(&mut self, f: usize, obs: &mut impl Observer) {
        self.update_rate_ok_at(f);
        self.enlist(f);
        self.host_pass(self.flows[f].host() as usize, obs);
    }

    /// Whether flow `f`'s window lets it send another packet.
    #[inline]
    fn window_open(&self, f: usize) -> bool {
        let flow = &self.flows[f];
        flow.cc().may_send(flow.outstanding())
    }

    /// Puts flow `f` where its host will find it (`HostState::enlist`).
    fn enlist(&mut self, f: usize) {
        let (now, open) = (self.queue.now(), self.window_open(f));
        let flow = &mut self.flows[f];
        self.hosts[flow.host() as usize].enlist(f as u32, flow, open, now);
    }

    /// Sends the next packet from host `slot` if its NIC is idle: a waiting ACK first, then the flow at the front of
    /// the ready list. If only rate limits hold flows back, a wake-up is set for the earliest of them.
    pub(super) fn host_pass(&mut self, slot: usize, obs: &mut impl Observer) {
        let now = self.queue.now();
        let Some(channel) = self.hosts[slot].channel() else { return };
        if self.channels[channel as usize].is_busy() {
            return;
        }
        if let Some(&ack) = self.hosts[slot].acks().front() {
            if self.channels[channel as usize].has_credit(Lane::ACK, self.ack_blocks) {
                let flow = &mut self.flows[self.packets[ack].flow as usize];
                self.hosts[slot].send_ack(flow);
                self.start_tx(channel, ack, Lane::ACK, None, obs);
                return;
            }
        }
        // The NIC's congestion control may hold data back (PFT while throttling: the idle cycles after the last
        // packet, or until c changes).
        if self.nic_on {
            match self.hosts[slot].cc().data_at() {
                None => return,
                Some(t) if t > now => {
                    self.wake_host_at(slot, t);
                    return;
                }
                Some(_) => {}
            }
        }
        while let Some((t, f)) = self.hosts[slot].next_timer() {
            if t > now {
                break;
            }
            self.hosts[slot].pop_timer();
            if self.flows[f as usize].timer_due(t) {
                self.enlist(f as usize);
            }
        }
        while let Some(&f) = self.hosts[slot].ready().front() {
            let f = f as usize;
            if !self.flows[f].may_send(self.window_open(f), now) {
                // Changed since it was queued: take it out and put it back where it belongs now. If it was
                // waiting for credit and nothing else is ready, the wait ends here (its rate holds it back, or it
                // stopped).
                self.hosts[slot].dequeue(0, &mut self.flows[f]);
                self.enlist(f);
                self.end_idle_stall(slot, obs);
                continue;
            }
            // The flow that sends: with one VL the front one, if it has credit; with several, the first ready
            // flow of the VL the arbiter picks among those with credit (a VL waiting for credit does not hold
            // back the others).
            let Some((at, choice)) = self.next_to_send(slot, channel) else {
                self.channels[channel as usize].stall(now);
                // A credit will run this pass again. With several VLs a flow of another VL held only by its rate
                // may be ready before that: its timer must still wake the host.
                if self.vls > 1 {
                    self.wake_for_rate_timers(slot);
                }
                return;
            };
            let f = self.hosts[slot].ready()[at] as usize;
            self.hosts[slot].dequeue(at, &mut self.flows[f]);
            if let Some(choice) = choice {
                self.hosts[slot].vl_sent(choice, self.data_blocks);
            }
            self.inject(f, channel, obs);
            self.update_rate_ok_at(f);
            self.enlist(f);
            if self.nic_on {
                let ends = now + self.channels[channel as usize].serialization(Lane::VL0);
                let in_use = self.data_credits_in_use(channel);
                self.hosts[slot].cc_mut().after_data(ends, in_use);
            }
            return;
        }
        self.wake_for_rate_timers(slot);
    }

    /// If no flow of host `slot` has a packet ready to send now, its link's credit stall (and its VLs') ends now:
    /// a stall is time with a packet ready and no credit for it (docs/model.md §9). Without this, a flow that
    /// stopped while it waited left its link counted as waiting, and drawn as blocked, for the rest of the run.
    /// Asked where a flow leaves the ready list without sending, and when a flow stops: out of line, as a call at
    /// the end of every host pass cost the small scenarios 6-11% of their speed (docs/performance.md).
    #[cold]
    #[inline(never)]
    fn end_idle_stall(&mut self, slot: usize, obs: &mut impl Observer) {
        let Some(channel) = self.hosts[slot].channel() else { return };
        if self.channels[channel as usize].stalled_since().is_none() && self.vls == 1 {
            return;
        }
        let now = self.queue.now();
        let ready = self.hosts[slot]
            .ready()
            .iter()
            .any(|&f| self.flows[f as usize].may_send(self.window_open(f as usize), now));
        if ready {
            return;
        }
        let state = &mut self.channels[channel as usize];
        if let Some(since) = state.end_stalls(|vl, since| obs.on_vl_stall_end(channel, vl, since, now)) {
            obs.on_stall_end(channel, since, now);
        }
    }

    /// Makes sure host `slot` runs a pass when the earliest of its flows' rate timers runs out.
    fn wake_for_rate_timers(&mut self, slot: usize) {
        if let Some((t, _)) = self.hosts[slot].next_timer() {
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
        if self.vls == 1 {
            return state.has_credit(Lane::VL0, self.data_blocks).then_some((0, None));
        }
        let now = self.queue.now();
        let mut first = [None; MAX_DATA_VLS as usize];
        let mut lacking = 0u16;
        for (at, &f) in self.hosts[slot].ready().iter().enumerate() {
            let flow = &self.flows[f as usize];
            let vl = flow.lane().vl().expect("a data lane");
            if first[usize::from(vl)].is_some() || !flow.may_send(self.window_open(f as usize), now) {
                continue;
            }
            if state.has_credit(flow.lane(), self.data_blocks) {
                first[usize::from(vl)] = Some(at);
            } else {
                lacking |= 1 << vl;
            }
        }
        if lacking != 0 {
            self.channels[channel as usize].lacking_credit(lacking, now);
        }
        let choice = self.hosts[slot].arbiter().choose(|vl| first[usize::from(vl)].is_some())?;
        Some((first[usize::from(choice.vl)]?, Some(choice)))
    }

    /// Makes sure host `slot` runs a pass at `t` (keeping only the earliest pending wake-up).
    fn wake_host_at(&mut self, slot: usize, t: Time) {
        if let Some(gen) = self.hosts[slot].wake_at(t) {
            self.queue.schedule(t, Event::HostWake { host: slot as u32, gen });
        }
    }

    pub(super) fn on_host_wake(&mut self, host: u32, gen: u32, obs: &mut impl Observer) {
        if self.hosts[host as usize].woken(gen) {
            self.host_pass(host as usize, obs);
        }
    }

    /// Starts flow `f`'s next data packet now.
    fn inject(&mut self, f: usize, channel: ChannelId, obs: &mut impl Observer) {
        let now = self.queue.now();
        // A workload's pair sends only its messages' packets, and asks for an ACK on each message's last.
        let (message_end, more) = self.message_injected(f);
        let flow = &mut self.flows[f];
        let (psn, limiter) = flow.send(now);
        if !more {
            flow.turn_off();
        }
        flow.cc_mut().on_send(limiter);
        let reliable = flow.reliable();
        if !reliable {
            // No ACKs will come: the source counts each packet it sends as an unmarked ACK (its RPI and `finc`
            // steps, the slides' "general state"), the only clock it has; a CN packet brings a decrease.
            let ack = Ack { psn, marked: false, next_psn: flow.next_psn() };
            flow.cc_mut().on_ack(&ack, now);
            self.counts.unreliable_injected += 1;
        }
        // ACK coalescing: the packet that fills the window asks for an ACK (net::host::AckCoalescing).
        let ack_req =
            self.ack_every > 0 && (message_end || flow.cc().window().is_some_and(|w| flow.outstanding() >= w));
        let lane = flow.lane();
        let packet = self.packets.insert(Packet {
            flow: f as u32,
            psn,
            lane,
            blocks: self.data_blocks,
            marked: false,
            ack_req,
            count: 1,
            marks: 0,
            dst: flow.dst(),
            injected_at: now,
            hop: 0,
        });
        self.counts.injected += 1;
        obs.on_inject(f as u32, now, now + self.packet_time[f]);
        self.start_tx(channel, packet, lane, None, obs);
        if !reliable {
            // An unreliable queue pair's send or put is complete once its last packet has left (nothing will
            // acknowledge it).
            self.message_acked(f, 1, obs);
        }
    }

    /// A packet's tail reached the host at the end of `channel`.
    pub(super) fn deliver(&mut self, channel: ChannelId, packet: PacketId, obs: &mut impl Observer) {
        let p = self.packets.remove(packet);
        if p.lane.is_data() {
            let f = p.flow as usize;
            self.data_arrived(channel, p, obs);
            self.message_delivered(f, obs);
        } else {
            self.ack_arrived(p, obs);
        }
    }

    /// A data packet reached its destination: counted, and an ACK echoing its ECN bit is owed to its source (with
    /// ACK coalescing, once it is marked, asks for one, or completes `every_packets`: for all since the last).
    fn data_arrived(&mut self, channel: ChannelId, p: Packet, obs: &mut impl Observer) {
        let now = self.queue.now();
        let host_node = self.topo.channel(channel).to;
        debug_assert_eq!(p.dst, host_node);
        let f = p.flow as usize;
        self.counts.delivered += 1;
        obs.on_deliver(p.flow, p.injected_at, now);
        let slot = self.node_slot[host_node as usize] as usize;
        let (psn, count) = if !self.flows[f].reliable() {
            // Unreliable: no ACK; a marked packet brings a CN packet back to its source.
            self.counts.unreliable_delivered += 1;
            if !p.marked {
                return;
            }
            self.counts.cn_sent += 1;
            (p.psn, 0)
        } else if self.ack_every == 0 {
            (p.psn, 1)
        } else {
            match self.flows[f].received(p.psn, p.marked || p.ack_req, self.ack_every) {
                Some(acked) => acked,
                None => return,
            }
        };
        let marks = u16::from(p.marked);
        if !(self.flows[f].owed_acks().0 >= ACKS_OWED_PER_FLOW && self.coalesce_ack(f, psn, count, marks)) {
            self.counts.acks_sent += u64::from(count > 0);
            let ack = self.packets.insert(Packet {
                flow: p.flow,
                psn,
                lane: Lane::ACK,
                blocks: self.ack_blocks,
                marked: false,
                ack_req: false,
                count,
                marks,
                dst: self.flows[f].src(),
                injected_at: now,
                hop: 0,
            });
            self.hosts[slot].owe_ack(&mut self.flows[f], ack);
        }
        self.host_pass(slot, obs);
    }

    /// The host already owes flow `f` as many ACKs as it may: the ACK for `count` packets from `psn` (`marks` of
    /// them marked) joins the flow's last waiting ACK if that one ends just before it. Returns whether it did.
    fn coalesce_ack(&mut self, f: usize, psn: u32, count: u32, marks: u16) -> bool {
        let Some(last) = self.flows[f].owed_acks().1 else { return false };
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
    fn ack_arrived(&mut self, p: Packet, obs: &mut impl Observer) {
        let now = self.queue.now();
        let f = p.flow as usize;
        if p.count == 0 {
            self.cn_arrived(&p, obs);
            return;
        }
        let mut fresh = 0;
        let per_packet = self.ack_every == 0;
        for i in 0..p.count {
            let marked = i >= p.count - u32::from(p.marks);
            let psn = p.psn.wrapping_add(i);
            self.counts.acks_delivered += 1;
            obs.on_ack(p.flow, marked, now);
            let window_was_full = !self.window_open(f);
            let flow = &mut self.flows[f];
            if flow.acked(psn, window_was_full, now) == Acked::Stale {
                continue;
            }
            fresh += 1;
            // (An ACK's stale packets come first: its newest is fresh if any is.)
            if per_packet || i + 1 == p.count {
                let marked = if per_packet { marked } else { p.marks > 0 };
                let ack = Ack { psn, marked, next_psn: flow.next_psn() };
                flow.cc_mut().on_ack(&ack, now);
            }
        }
        if fresh > 0 {
            self.flow_changed(f, obs);
            self.message_acked(f, fresh, obs);
        }
    }

    /// A CN packet reached its (unreliable) flow's source: the source takes it as a marked ACK for the packet it
    /// names (a decrease, if that packet is at or after its APSN). One of an earlier ON period changes nothing.
    fn cn_arrived(&mut self, p: &Packet, obs: &mut impl Observer) {
        let now = self.queue.now();
        let f = p.flow as usize;
        self.counts.cn_delivered += 1;
        obs.on_cn(p.flow, now);
        let flow = &mut self.flows[f];
        if flow.is_stale(p.psn) {
            return;
        }
        let ack = Ack { psn: p.psn, marked: true, next_psn: flow.next_psn() };
        flow.cc_mut().on_ack(&ack, now);
        self.flow_changed(f, obs);
    }

    /// A flow starts offering traffic: its start time, or an ON period. Without persistent state an ON period is a
    /// new flow at `Rmax` (INFOCOM'03 §VI-B.2).
    pub(super) fn on_flow_on(&mut self, f: u32, gen: u32, obs: &mut impl Observer) {
        let now = self.queue.now();
        let spec = &self.scenario.flows[f as usize];
        let stop = spec.stop_ns.map(|s| s * NS);
        if gen != self.flows[f as usize].toggle_gen() || stop.is_some_and(|s| now >= s) {
            return;
        }
        let persistent = self.scenario.source.with(spec.source.as_ref()).persistent_state;
        let fresh = (!persistent).then(|| self.fresh_cc[f as usize].clone());
        let flow = &mut self.flows[f as usize];
        flow.turn_on(fresh);
        let off_at = match spec.traffic {
            Traffic::Greedy => stop,
            Traffic::OnOff { mean_on_ns, .. } => {
                let t = now.saturating_add(exp_time(flow.rng(), mean_on_ns));
                Some(stop.map_or(t, |s| t.min(s)))
            }
        };
        if let Some(t) = off_at.filter(|&t| t < self.end) {
            self.queue.schedule(t, Event::FlowOff { flow: f, gen });
        }
        self.flow_changed(f as usize, obs);
    }

    pub(super) fn on_flow_off(&mut self, f: u32, gen: u32, obs: &mut impl Observer) {
        let now = self.queue.now();
        let spec = &self.scenario.flows[f as usize];
        let stop = spec.stop_ns.map(|s| s * NS);
        let flow = &mut self.flows[f as usize];
        if gen != flow.toggle_gen() {
            return;
        }
        flow.turn_off();
        let host = flow.host() as usize;
        if let Traffic::OnOff { mean_off_ns, .. } = spec.traffic {
            let on_at = now.saturating_add(exp_time(flow.rng(), mean_off_ns));
            if stop.is_none_or(|s| on_at < s) && on_at < self.end {
                self.queue.schedule(on_at, Event::FlowOn { flow: f, gen });
            }
        }
        self.end_idle_stall(host, obs);
    }
}
