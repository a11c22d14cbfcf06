//! Events counted by kind, and the data packet-hops they carried (a data packet starting on a channel): where a
//! run's events go, per hop (`ibcc bench --kinds`). An observer, so counting changes nothing in the run.

use super::observe::{Observer, Sent};
use super::EventKind;

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventCounts {
    /// Per kind, in [`EventKind::ALL`]'s order: events handled, and those of them that went through the queue.
    pub events: [(u64, u64); EventKind::ALL.len()],
    /// Data packets started on a channel (by a host or a switch).
    pub data_hops: u64,
}

impl EventCounts {
    /// `(kind, events, queued)` for every kind.
    pub fn by_kind(&self) -> impl Iterator<Item = (EventKind, u64, u64)> + '_ {
        EventKind::ALL.iter().zip(&self.events).map(|(&k, &(n, q))| (k, n, q))
    }

    /// Events of every kind, and those queued.
    pub fn total(&self) -> (u64, u64) {
        self.events.iter().fold((0, 0), |(n, q), &(a, b)| (n + a, q + b))
    }
}

impl Observer for EventCounts {
    #[inline]
    fn on_event(&mut self, kind: EventKind, queued: bool) {
        let c = &mut self.events[kind as usize];
        c.0 += 1;
        c.1 += u64::from(queued);
    }

    #[inline]
    fn on_send(&mut self, sent: &Sent) {
        self.data_hops += u64::from(sent.lane.is_data());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::find;
    use crate::sim::Run;

    #[test]
    fn every_event_is_counted_once_by_kind() {
        // Marking and rate control (host timers), PFT (NIC timers), a fabric (many hops). The papers' two-switch
        // network has links without propagation delay: events across them are handled at once, not queued, and
        // must be counted too.
        for (name, ms, instant) in
            [("infocom03-fig4a", 3, true), ("pft-fattree4-hotspot", 1, false), ("fattree4-shift", 1, false)]
        {
            let mut s = find(name).unwrap().scenario();
            s.duration_ns = ms * 1_000_000;
            s.measure.from_ns = 0;
            s.measure.to_ns = None;
            let mut run = Run::new(&s).unwrap();
            let mut counts = EventCounts::default();
            run.run_until_with(run.end(), &mut counts);
            assert_eq!(counts.total(), (run.sim.events(), run.sim.queued_events()), "{name}");
            if instant {
                assert!(counts.total().0 > counts.total().1, "{name}: events handled at once");
            }
            let of = |k: EventKind| counts.by_kind().find(|c| c.0 == k).unwrap().1;
            // Every data packet-hop ends its transmission; a packet delivered was sent by its host first.
            assert!(of(EventKind::TxEnd) >= counts.data_hops && counts.data_hops > 0, "{name}");
            assert!(of(EventKind::Deliver) >= run.results().totals.delivered_packets, "{name}");
        }
    }
}
