//! A message workload in a run (docs/workload.md): its queue pairs are flows appended to the scenario's, on only
//! while they have a message's packets to send; the workload's runtime hears of each of their packets injected,
//! delivered and acknowledged, and answers with flows to turn on and processes to wake.

use super::events::Event;
use super::observe::Observer;
use super::Simulation;
use crate::scenario::{Flow, NodeKind, Scenario};
use crate::time::{Time, US};
use crate::workload::{Runtime, Workload};
use alloc::boxed::Box;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::{String, ToString};

/// The process number of the event that starts them all.
const START_ALL: u32 = u32::MAX;

/// How far [`Simulation::run_workload`] runs between looks at whether the workload is done.
pub(super) const LOOK_EVERY: Time = 10 * US;

impl Simulation {
    /// A run of `scenario` with `workload`'s processes on its hosts, each starting its program at time 0. Each pair
    /// of processes that communicate gets a flow each way (ids `p{a}>p{b}`; group and service level the sender's,
    /// transport the workload's), with the scenario's congestion control, after the scenario's own flows. The error
    /// names what is wrong.
    pub fn with_workload(scenario: &Scenario, workload: &Workload) -> Result<Self, String> {
        let hosts: BTreeSet<&str> =
            scenario.nodes.iter().filter(|n| n.kind == NodeKind::Host).map(|n| n.id.as_str()).collect();
        workload.check(|h| hosts.contains(h))?;
        let mut s = scenario.clone();
        let first = s.flows.len() as u32;
        for (a, b) in workload.network_pairs() {
            let mut flow = Flow::new(&format!("p{a}>p{b}"), &workload.hosts[a as usize], &workload.hosts[b as usize]);
            flow.group = workload.group(a as usize).into();
            flow.transport = workload.transport;
            flow.sl = workload.service_level(a as usize);
            s.flows.push(flow);
        }
        let compiled = s.compile().map_err(|e| e.to_string())?;
        let mut sim = Self::build(&s, compiled, first).map_err(|e| e.to_string())?;
        sim.workload = Some(Box::new(Runtime::new(workload, s.packet.payload_bytes)));
        // Every process starts in one event, in order, before any of their packets goes: the same order whenever
        // a set of processes is released together (GPCNeT's canaries by its congestors' signal).
        sim.queue.schedule(0, Event::Process { process: START_ALL });
        Ok(sim)
    }

    /// The workload's state, if the run has one: its processes' samples and message counts.
    pub fn workload(&self) -> Option<&Runtime> {
        self.workload.as_deref()
    }

    /// Whether the run's workload is over: every process finished, or one was stopped for a fault (none: false).
    pub fn workload_over(&self) -> bool {
        self.workload.as_ref().is_some_and(|w| w.is_done() || w.fault().is_some())
    }

    /// Runs until the workload is over or the run ends (looking every 10 µs of simulated time).
    pub fn run_workload(&mut self, obs: &mut impl Observer) {
        while !self.is_finished() && !self.workload_over() {
            let t = self.now().saturating_add(LOOK_EVERY);
            self.run_until(t, obs);
        }
    }

    /// Flow `f`'s index among the workload's flows, if it is one.
    #[inline]
    fn pair(&self, f: usize) -> Option<u32> {
        (f as u32).checked_sub(self.first_pair_flow)
    }

    // The three hooks below are on every packet of every run: for a flow of the scenario they cost one compare;
    // what a workload's pair does is kept out of line.

    /// Flow `f` starts a packet: whether it is a message's last (it asks for an ACK), and whether the flow has more
    /// to send (a pair without turns off). Flows of the scenario always have more.
    #[inline]
    pub(super) fn message_injected(&mut self, f: usize) -> (bool, bool) {
        match self.pair(f) {
            Some(pair) => self.pair_injected(pair),
            None => (false, true),
        }
    }

    /// A data packet of flow `f` reached its destination.
    #[inline]
    pub(super) fn message_delivered(&mut self, f: usize, obs: &mut impl Observer) {
        if let Some(pair) = self.pair(f) {
            self.pair_delivered(pair, obs);
        }
    }

    /// `count` data packets of flow `f` were acknowledged at its source (an unreliable flow's: have left it).
    #[inline]
    pub(super) fn message_acked(&mut self, f: usize, count: u32, obs: &mut impl Observer) {
        if let Some(pair) = self.pair(f) {
            self.pair_acked(pair, count, obs);
        }
    }

    #[cold]
    #[inline(never)]
    fn pair_injected(&mut self, pair: u32) -> (bool, bool) {
        self.workload.as_mut().expect("a run with pairs has a workload").injected(pair)
    }

    #[cold]
    #[inline(never)]
    fn pair_delivered(&mut self, pair: u32, obs: &mut impl Observer) {
        let now = self.queue.now();
        self.workload.as_mut().expect("a run with pairs has a workload").delivered(pair, now);
        self.apply_workload(obs);
    }

    #[cold]
    #[inline(never)]
    fn pair_acked(&mut self, pair: u32, count: u32, obs: &mut impl Observer) {
        let now = self.queue.now();
        self.workload.as_mut().expect("a run with pairs has a workload").acked(pair, count, now);
        self.apply_workload(obs);
    }

    pub(super) fn on_process(&mut self, process: u32, obs: &mut impl Observer) {
        let now = self.queue.now();
        if let Some(w) = self.workload.as_mut() {
            if process == START_ALL {
                w.start(now);
            } else {
                w.wake(process, now);
            }
            self.apply_workload(obs);
        }
    }

    /// Does what the workload asked: wake-ups scheduled, and pairs with new packets turned on and offered to their
    /// host's NIC.
    fn apply_workload(&mut self, obs: &mut impl Observer) {
        loop {
            let Some(w) = self.workload.as_mut() else { return };
            if w.fed.is_empty() && w.woken.is_empty() {
                return;
            }
            let (woken, fed) = (core::mem::take(&mut w.woken), core::mem::take(&mut w.fed));
            for (process, t) in woken {
                self.queue.schedule(t, Event::Process { process });
            }
            for flow in fed {
                let f = (self.first_pair_flow + flow) as usize;
                self.flows[f].turn_on(None);
                self.flow_changed(f, obs);
            }
        }
    }
}
