//! The results report as an observer (docs/model.md §9): what a run measures as it goes, per link, per flow, per
//! group and per switch input. [`Report::results`], [`Report::snapshot`] and [`Report::measure`] read it beside
//! the simulation's present state; nothing here changes how the run goes.

use super::observe::{Observer, Sent};
use super::Simulation;
use crate::metrics::{overlap, BusySeries, BusyTable, Occupancy};
use crate::net::topology::{ChannelId, PortId};
use crate::time::{Time, NS};
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// Per directed link, what every packet sent adds to: one cache line each (aligned to it), as a fabric's sends
/// land on links all over memory. Marks, rarer, are kept apart ([`LinkMarks`]).
#[derive(Debug, Clone, Default)]
#[repr(align(64))]
pub(super) struct LinkCounters {
    pub data_busy: Time,
    pub ack_busy: Time,
    pub data_packets: u64,
    pub ack_packets: u64,
    /// Data packets sent carrying the ECN bit (marked here or upstream).
    pub ecn_sent: u64,
    pub stall: Time,
    /// Credit-stall time since 0, inside the measurement interval or not (the page's congestion-tree view).
    pub stall_all: Time,
}

/// Per directed link: data packets its transmitter marked (input- and output-triggered marking, Annex A10's FECN),
/// or that a full buffer marked while they waited for it (naive); and of those, the ones marked inside the
/// measurement interval.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct LinkMarks {
    pub all: u64,
    pub measured: u64,
}

/// Per flow.
#[derive(Debug, Clone, Default)]
pub(super) struct FlowCounters {
    pub injected: u64,
    pub delivered: u64,
    /// Time its packets occupied its source link inside the measurement interval.
    pub busy: Time,
    pub delivered_in_interval: u64,
    pub delay_sum: u128,
    pub marked_acks: u64,
    /// Marked ACKs received inside the measurement interval.
    pub marked_acks_in_interval: u64,
}

/// What a run measures: an [`Observer`] to pass to the simulation's steps. Cloned with it, it is the same report of
/// the same run (the page's checkpoints).
#[derive(Debug, Clone)]
pub struct Report {
    /// The measurement interval `[from, to)`; `to` is at most the end of the run.
    pub(super) from: Time,
    pub(super) to: Time,
    /// The sliding window of the rate series, and their sample spacing.
    pub(super) window: Time,
    pub(super) sample: Time,
    pub(super) links: Vec<LinkCounters>,
    pub(super) marks: Vec<LinkMarks>,
    /// With several data VLs, each link's VLs' credit-stall time since 0 (`ChannelState::vl_stalls`): link `c`'s
    /// VL `v` at `c * vls + v`. Empty with one VL.
    pub(super) vl_stall_all: Vec<Time>,
    /// With several data VLs, the same at the interval's start and at its end, taken as the run passes them
    /// ([`Observer::sample`], between events, so the event loop pays nothing for it): what lies inside the interval
    /// is their difference. None until the run reaches the time, and always with one VL.
    pub(super) vl_stall_at_from: Option<Vec<Time>>,
    pub(super) vl_stall_at_to: Option<Vec<Time>>,
    pub(super) vls: usize,
    /// Each directed link's data, binned for its rate series (a series per channel).
    pub(super) series: BusyTable,
    pub(super) flows: Vec<FlowCounters>,
    /// Group names in first-appearance order, each flow's group, and each group's data sent on its sources' links
    /// (the papers' "aggregate rate of local flows").
    pub(super) groups: Vec<String>,
    pub(super) flow_group: Vec<u32>,
    pub(super) group_series: BusyTable,
    /// Data-lane occupancy per switch input: `occupancy[switch][port]`.
    pub(super) occupancy: Vec<Vec<Occupancy>>,
    /// Each flow's data on its group's series, in its own link's time: a group of several flows to one host is
    /// measured against that host's link, which they share, so a flow from a link faster than it counts for more
    /// of it (`flow_weights`); 1 for every other flow. Empty when every one is 1 (a network whose links are one
    /// speed: the papers'), so that their runs pay nothing for it.
    pub(super) flow_weight: Vec<f64>,
}

impl Report {
    /// An empty report for `sim`, which has not run yet (a report begun later would miss what came before).
    pub fn new(sim: &Simulation) -> Self {
        debug_assert_eq!(sim.events(), 0, "a report watches a run from its start");
        let s = sim.scenario();
        // (The scenario compiled, so its spacing is known; no panic, whose message would format floats in wasm.)
        let sample = s.series_sample_ns().unwrap_or_else(|_| s.measure.sample_ns()) * NS;
        let end = sim.end();
        let mut groups: Vec<String> = Vec::new();
        let flow_group: Vec<u32> = s
            .flows
            .iter()
            .map(|f| match groups.iter().position(|name| *name == f.group) {
                Some(i) => i as u32,
                None => {
                    groups.push(f.group.clone());
                    (groups.len() - 1) as u32
                }
            })
            .collect();
        let channels = sim.topology().channels().len();
        let vls = sim.vls();
        Self {
            from: s.measure.from_ns * NS,
            to: s.measure.until_ns(s.duration_ns) * NS,
            window: s.measure.window_ns * NS,
            sample,
            links: vec![LinkCounters::default(); channels],
            marks: vec![LinkMarks::default(); channels],
            vl_stall_all: if vls > 1 { vec![0; channels * usize::from(vls)] } else { Vec::new() },
            vl_stall_at_from: None,
            vl_stall_at_to: None,
            vls: usize::from(vls),
            series: BusyTable::new(channels, sample, end),
            flows: vec![FlowCounters::default(); flow_group.len()],
            flow_weight: flow_weights(sim, &flow_group, groups.len()),
            group_series: BusyTable::new(groups.len(), sample, end),
            groups,
            flow_group,
            occupancy: sim.switches().iter().map(|sw| vec![Occupancy::default(); sw.ports()]).collect(),
        }
    }

    /// Each link's VLs' credit-stall time from 0 to now (link `c`'s VL `v` at `c * vls + v`): the stalls ended and
    /// the ones still going on. Empty with one VL.
    pub(super) fn vl_stalls_now(&self, sim: &Simulation) -> Vec<Time> {
        let now = sim.now();
        self.vl_stall_all
            .iter()
            .enumerate()
            .map(|(i, ended)| {
                let going = sim.channel((i / self.vls) as u32).vl_stalls().get(i % self.vls).copied().flatten();
                ended + going.map_or(0, |since| now - since)
            })
            .collect()
    }

    /// Each link's VLs' credit-stall time inside the measurement interval, as far as the run has gone (as
    /// [`Report::vl_stalls_now`]): empty with one VL.
    pub(super) fn vl_stalls_measured(&self, sim: &Simulation) -> Vec<Time> {
        let Some(start) = &self.vl_stall_at_from else { return vec![0; self.vl_stall_all.len()] };
        let end = self.vl_stall_at_to.clone().unwrap_or_else(|| self.vl_stalls_now(sim));
        end.iter().zip(start).map(|(end, start)| end - start).collect()
    }

    /// The measurement interval, as the accumulators take it.
    pub(super) fn interval(&self) -> (Time, Time) {
        (self.from, self.to)
    }

    /// The groups of flows, in the order they first appear in the scenario.
    pub fn groups(&self) -> &[String] {
        &self.groups
    }

    /// The aggregate rate series of a group's flows up to `now`: their data sent on their source links in a window
    /// centred on each sample, as a fraction of one link's capacity (INFOCOM'03 Fig. 2: "rates of local flows,
    /// remote flow, and the victim flow"). `None` for an unknown group.
    pub fn group_rate_series(&self, group: &str, now: Time) -> Option<Vec<(f64, f64)>> {
        let g = self.groups.iter().position(|name| name == group)?;
        Some(sampled(self.group_series.series(g), self.window, now))
    }

    /// The rate series of one directed link up to `now` as `(time_ns, fraction of capacity)`: data sent in a
    /// window of `measure.window_ns` centred on each sample (docs/model.md §9; INFOCOM'03 Fig. 2).
    pub fn link_rate_series(&self, channel: u32, now: Time) -> Vec<(f64, f64)> {
        sampled(self.series.series(channel as usize), self.window, now)
    }
}

/// Each flow's weight in its group's rate: its source link's rate over its destination's, for a group of several
/// flows all to one host (their sum is then that host's link's share they get, as INFOCOM'03 Fig. 2's local flows'
/// is), and 1 for the rest (a lone flow is measured against its own link, and flows to many hosts each against
/// theirs). Empty if every one is 1.
pub(super) fn flow_weights(sim: &Simulation, flow_group: &[u32], groups: usize) -> Vec<f64> {
    // Per group: its flows, and its one destination (`None` once a second one is seen).
    let mut members = vec![0usize; groups];
    let mut dst: Vec<Option<Option<u32>>> = vec![None; groups];
    for (i, &g) in flow_group.iter().enumerate() {
        let (g, d) = (g as usize, sim.flow(i).dst());
        members[g] += 1;
        dst[g] = match dst[g] {
            None => Some(Some(d)),
            Some(Some(x)) if x == d => Some(Some(d)),
            _ => Some(None),
        };
    }
    let topo = sim.topology();
    let gbps = |c: ChannelId| topo.channel(c).bandwidth.gbps();
    let weights: Vec<f64> = flow_group
        .iter()
        .enumerate()
        .map(|(i, &g)| {
            let f = sim.flow(i);
            if members[g as usize] < 2 || dst[g as usize] != Some(Some(f.dst())) {
                return 1.0;
            }
            // A host sends and receives on its port 0; the channel into it is the reverse of the one out.
            gbps(topo.out_channel(f.src(), 0)) / gbps(topo.out_channel(f.dst(), 0) ^ 1)
        })
        .collect();
    if weights.iter().all(|&w| w == 1.0) {
        Vec::new()
    } else {
        weights
    }
}

fn sampled(series: BusySeries, window: Time, now: Time) -> Vec<(f64, f64)> {
    let step = series.bin();
    // (Each window ends where the series is final: before the run's end, a bin still filling would make the
    // newest samples sag, and rise again as the run goes on.)
    let known = series.final_until(now);
    (0..=now / step)
        .map(|k| {
            let t = k * step;
            (t as f64 / NS as f64, series.rate_at(t, window, known))
        })
        .collect()
}

impl Observer for Report {
    #[inline]
    fn on_send(&mut self, s: &Sent) {
        let (from, to) = (self.from, self.to);
        if let Some(since) = s.stalled_since {
            self.on_stall_end(s.channel, since, s.now);
        }
        let link = &mut self.links[s.channel as usize];
        let counted = overlap(s.now, s.ends, from, to);
        if s.lane.is_data() {
            self.series.add(s.channel as usize, s.now, s.ends);
            link.data_busy += counted;
            link.data_packets += 1;
            link.ecn_sent += u64::from(s.marked);
        } else {
            link.ack_busy += counted;
            link.ack_packets += 1;
        }
    }

    #[inline]
    fn on_vl_stall_end(&mut self, channel: ChannelId, vl: u8, since: Time, now: Time) {
        self.vl_stall_all[channel as usize * self.vls + usize::from(vl)] += now - since;
    }

    #[inline]
    fn on_stall_end(&mut self, channel: ChannelId, since: Time, now: Time) {
        let link = &mut self.links[channel as usize];
        link.stall += overlap(since, now, self.from, self.to);
        link.stall_all += now - since;
    }

    #[inline]
    fn on_mark(&mut self, channel: ChannelId, now: Time) {
        let marks = &mut self.marks[channel as usize];
        marks.all += 1;
        marks.measured += u64::from((self.from..self.to).contains(&now));
    }

    #[inline]
    fn on_inject(&mut self, flow: u32, now: Time, ends: Time) {
        let f = flow as usize;
        let counters = &mut self.flows[f];
        counters.injected += 1;
        counters.busy += overlap(now, ends, self.from, self.to);
        // (Weighted, its data is counted as the destination's link would carry it: from the same start, at that
        // link's rate. No weights: every one is 1.)
        let ends = match self.flow_weight.get(f) {
            Some(&w) if w != 1.0 => now + libm::round((ends - now) as f64 * w) as Time,
            _ => ends,
        };
        self.group_series.add(self.flow_group[f] as usize, now, ends);
    }

    #[inline]
    fn on_deliver(&mut self, flow: u32, injected_at: Time, now: Time) {
        let counters = &mut self.flows[flow as usize];
        counters.delivered += 1;
        if (self.from..self.to).contains(&now) {
            counters.delivered_in_interval += 1;
            counters.delay_sum += u128::from(now - injected_at);
        }
    }

    #[inline]
    fn on_ack(&mut self, flow: u32, marked: bool, now: Time) {
        let counters = &mut self.flows[flow as usize];
        counters.marked_acks += u64::from(marked);
        if marked && (self.from..self.to).contains(&now) {
            counters.marked_acks_in_interval += 1;
        }
    }

    #[inline]
    fn on_cn(&mut self, flow: u32, now: Time) {
        self.on_ack(flow, true, now);
    }

    #[inline]
    fn next_sample(&self) -> Time {
        match (&self.vl_stall_at_from, &self.vl_stall_at_to) {
            _ if self.vls < 2 => Time::MAX,
            (None, _) => self.from,
            (Some(_), None) => self.to,
            (Some(_), Some(_)) => Time::MAX,
        }
    }

    /// (Asked for only with several VLs: each VL's stall times at the interval's start, then at its end.)
    fn sample(&mut self, sim: &Simulation) {
        let taken = self.vl_stalls_now(sim);
        if self.vl_stall_at_from.is_none() {
            // (An interval with no length ends where it starts: no second sample at the same time.)
            if sim.now() >= self.to {
                self.vl_stall_at_to = Some(taken.clone());
            }
            self.vl_stall_at_from = Some(taken);
        } else if self.vl_stall_at_to.is_none() {
            self.vl_stall_at_to = Some(taken);
        }
    }

    fn on_occupancy(&mut self, switch: u32, port: PortId, before: u32, after: u32, now: Time) {
        let interval = (self.from, self.to);
        self.occupancy[switch as usize][port as usize].change(now, before, after, interval);
    }
}
