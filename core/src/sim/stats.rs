//! What a run counts as it goes (model.md §9): per link, per flow, per group and per switch input, and for the
//! whole network. The results and the snapshots are read from here; nothing here changes how the run goes.

use crate::metrics::{BusySeries, Occupancy};
use crate::time::Time;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// Per directed link.
#[derive(Debug, Clone, Default)]
pub(super) struct LinkCounters {
    pub data_busy: Time,
    pub ack_busy: Time,
    pub data_packets: u64,
    pub ack_packets: u64,
    /// Data packets this link's transmitter marked (input- and output-triggered marking, Annex A10's FECN), or that
    /// a full buffer marked while they waited for this link (naive).
    pub marks: u64,
    /// Data packets sent carrying the ECN bit (marked here or upstream).
    pub ecn_sent: u64,
    pub stall: Time,
    /// Credit-stall time since 0, inside the measurement interval or not (the page's congestion-tree view).
    pub stall_all: Time,
    /// With several data VLs, each VL's credit-stall time since 0 (`ChannelState::vl_stall_since`).
    pub vl_stall_all: Vec<Time>,
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
    pub acks: u64,
}

/// Whole-network counters.
#[derive(Debug, Clone, Default)]
pub(super) struct Totals {
    pub injected: u64,
    pub delivered: u64,
    /// Packets that found no room in a buffer. Credit flow control makes this impossible; it is counted, not
    /// assumed, so a bug would show.
    pub dropped: u64,
    pub marked: u64,
    pub acks_delivered: u64,
    /// ACK packets the destinations sent.
    pub acks_sent: u64,
    /// Unreliable flows' data packets injected and delivered (they are never acknowledged).
    pub unreliable_injected: u64,
    pub unreliable_delivered: u64,
    /// CN packets sent by destinations and delivered to sources.
    pub cn_sent: u64,
    pub cn_delivered: u64,
}

/// Everything counted.
#[derive(Debug, Clone)]
pub(super) struct Stats {
    /// The measurement interval `[from, to)`; `to` is at most the end of the run.
    pub from: Time,
    pub to: Time,
    /// The sliding window of the rate series, and their sample spacing.
    pub window: Time,
    pub sample: Time,
    pub links: Vec<LinkCounters>,
    /// Each directed link's data, binned for its rate series.
    pub series: Vec<BusySeries>,
    pub flows: Vec<FlowCounters>,
    /// Group names in first-appearance order, each flow's group, and each group's data sent on its sources' links
    /// (the papers' "aggregate rate of local flows").
    pub groups: Vec<String>,
    pub flow_group: Vec<u32>,
    pub group_series: Vec<BusySeries>,
    /// Data-lane occupancy per switch input: `occupancy[switch][port]`.
    pub occupancy: Vec<Vec<Occupancy>>,
    pub totals: Totals,
}

/// Where a run's measurements go: the interval, the window and the sample spacing of the series.
#[derive(Debug, Clone, Copy)]
pub(super) struct Setup {
    pub from: Time,
    pub to: Time,
    pub window: Time,
    pub sample: Time,
    pub end: Time,
}

impl Stats {
    /// Empty counters for `channels` directed links of `vls` data VLs, the flows' groups (`group` of each flow)
    /// and the switches' input ports (`ports` of each switch).
    pub fn new<'a>(
        setup: Setup,
        channels: usize,
        vls: u8,
        flow_groups: impl Iterator<Item = &'a str>,
        ports: impl Iterator<Item = usize>,
    ) -> Self {
        let mut groups: Vec<String> = Vec::new();
        let flow_group: Vec<u32> = flow_groups
            .map(|g| match groups.iter().position(|name| name == g) {
                Some(i) => i as u32,
                None => {
                    groups.push(g.into());
                    (groups.len() - 1) as u32
                }
            })
            .collect();
        let series = |n: usize| (0..n).map(|_| BusySeries::new(setup.sample, setup.end)).collect::<Vec<_>>();
        Self {
            from: setup.from,
            to: setup.to,
            window: setup.window,
            sample: setup.sample,
            links: vec![
                LinkCounters {
                    vl_stall_all: if vls > 1 { vec![0; usize::from(vls)] } else { Vec::new() },
                    ..Default::default()
                };
                channels
            ],
            series: series(channels),
            flows: vec![FlowCounters::default(); flow_group.len()],
            group_series: series(groups.len()),
            groups,
            flow_group,
            occupancy: ports.map(|n| vec![Occupancy::default(); n]).collect(),
            totals: Totals::default(),
        }
    }

    /// The measurement interval, as the accumulators take it.
    pub fn interval(&self) -> (Time, Time) {
        (self.from, self.to)
    }
}
