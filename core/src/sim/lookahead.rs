//! Bringing in, a few events ahead, the state the coming events will touch. In a fabric of thousands of hosts the
//! run's state is tens of megabytes, and nearly every event starts with misses in every cache: its channel, the
//! switch at the channel's end, that switch's lists and lanes, the entries in those, each a load that waits for
//! memory and on which the next depends. The queue knows the coming events (the bucket being drained is sorted), so
//! each event asks for theirs, in steps that each need only what the step before brought in: what an event [`FAR`]
//! on names (its channel and packet, or its switch); the switch at the channel's end for the event [`MID`] on; that
//! switch's lists and the port's lanes for the event [`NEAR`] on; the first entries of those lanes for the event
//! [`LAST`] on. Only where the forwarding tables do not fit in cache either (the runs that read each flow's ports,
//! `flow_paths.rs`): in a smaller network the state is in cache already and looking ahead only costs. And only on
//! x86_64 (`crate::prefetch`): in wasm there is no such instruction. It changes nothing the run depends on
//! (docs/performance.md, "Looking ahead").

use super::events::Event;
use super::Simulation;
use crate::prefetch::prefetch;

// How far ahead each step looks, as `EventQueue::ahead` counts (0: the event after the one being handled).
// Measured on the 3,456-host fat tree (docs/performance.md): with three steps, 8, 4, 2 ran as fast as or faster than
// 4, 2, 1, 6, 3, 1, 12, 6, 3 and 16, 8, 2; the fourth step, at 8, 5, 3, 1, ran faster again.
const FAR: usize = 8;
const MID: usize = 5;
const NEAR: usize = 3;
const LAST: usize = 1;

/// What a step brings in of an event's switch.
#[derive(Clone, Copy)]
enum Step {
    Switch,
    Lists,
    Entries,
}

impl Simulation {
    /// Called as each event is popped, before it is handled. (Cold: small networks never call it, and their event
    /// loop is compiled as if the call were not there.)
    #[cold]
    #[inline(never)]
    pub(super) fn look_ahead(&self) {
        if let Some(&e) = self.queue.ahead(FAR) {
            self.prefetch_named(e);
        }
        for (k, step) in [(MID, Step::Switch), (NEAR, Step::Lists), (LAST, Step::Entries)] {
            if let Some(&e) = self.queue.ahead(k) {
                self.prefetch_switch(e, step);
            }
        }
    }

    /// What an event names: its channel and packet (their places are known without a load), or its switch (found
    /// through `node_slot`, small enough to stay in cache).
    #[inline(always)]
    fn prefetch_named(&self, e: Event) {
        match e {
            Event::Arrive { channel, packet } | Event::Deliver { channel, packet } => {
                if let Some(c) = self.channels.get(channel as usize) {
                    prefetch(c);
                }
                if let Some(p) = self.packets.get(packet) {
                    prefetch(p);
                }
            }
            Event::TxEnd { channel } | Event::Credit { channel, .. } => {
                if let Some(c) = self.channels.get(channel as usize) {
                    prefetch(c);
                }
            }
            Event::Eligible { node } | Event::Received { node, .. } => {
                if let Some(s) = self.node_slot.get(node as usize).and_then(|&s| self.switches.get(s as usize)) {
                    prefetch(s);
                }
            }
            _ => {}
        }
    }

    /// `step` of the switch at the event's end (found through its channel, which `prefetch_named` brought in), and
    /// of the port the event concerns there. (An event naming its switch had that brought in by `prefetch_named`.)
    #[inline(always)]
    fn prefetch_switch(&self, e: Event, step: Step) {
        let (slot, port) = match e {
            Event::Arrive { channel, .. } => match self.channels.get(channel as usize) {
                Some(c) if !c.to().host => (c.to().slot, Some(c.to().port)),
                _ => return,
            },
            Event::TxEnd { channel } | Event::Credit { channel, .. } => match self.channels.get(channel as usize) {
                Some(c) if !c.from().host => (c.from().slot, Some(c.from().port)),
                _ => return,
            },
            Event::Eligible { .. } | Event::Received { .. } if matches!(step, Step::Switch) => return,
            Event::Eligible { node } => match self.node_slot.get(node as usize) {
                Some(&s) => (s, None),
                None => return,
            },
            Event::Received { node, port, .. } => match self.node_slot.get(node as usize) {
                Some(&s) => (s, Some(port)),
                None => return,
            },
            _ => return,
        };
        let Some(sw) = self.switches.get(slot as usize) else { return };
        match (step, port) {
            (Step::Switch, _) => prefetch(sw),
            (Step::Lists, port) => sw.prefetch_lists(port),
            (Step::Entries, Some(port)) => sw.prefetch_entries(port),
            (Step::Entries, None) => {}
        }
    }
}
