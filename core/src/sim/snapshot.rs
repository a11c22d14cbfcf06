//! Small, render-ready pictures of the present for the page's animation: what each link carries now, how full each
//! input buffer is, and each flow's rate limit and window. Cheap to build every frame; plain data.

use super::Simulation;
use crate::cc::SourceControl;
use crate::net::switch::{Entry, InputLane};
use crate::time::{Time, NS};
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// One direction of a link, now.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LinkSnapshot {
    /// Fraction of capacity used by data over the last half measurement window.
    pub rate: f32,
    /// Carrying a packet right now.
    pub busy: bool,
    /// Has a packet ready but no credit for it.
    pub stalled: bool,
    /// Marked packets so far (for animating marks).
    pub marks: u64,
    /// Time spent waiting for credit since 0 (two snapshots give the stalled fraction between them).
    pub stalled_ns: f64,
}

/// A switch input buffer (its data VLs), now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BufferSnapshot {
    /// Index of the channel feeding this buffer.
    pub channel: u32,
    /// Occupied fraction of every data VL's buffer together, 0 to 1.
    pub fill: f32,
    /// Occupied space in maximum-size packets (every data VL).
    pub packets: f32,
    /// Each data VL's occupied fraction of its own buffer, 0 to 1.
    pub vl_fill: Vec<f32>,
    /// The output channel its oldest waiting packet wants (where a full buffer's congestion comes from).
    pub waiting_for: Option<u32>,
    /// With several data VLs, the output channel each VL's oldest waiting packet wants (empty with one VL).
    pub vl_waiting_for: Vec<Option<u32>>,
}

/// A flow's source, now.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FlowSnapshot {
    pub active: bool,
    pub rate_limit: f32,
    pub window: Option<u32>,
    pub outstanding: u32,
}

/// The whole network, now.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    pub time_ns: f64,
    pub events: u64,
    /// Indexed like the topology's channels (link `i` gives `2i`: a→b and `2i+1`: b→a).
    pub links: Vec<LinkSnapshot>,
    pub buffers: Vec<BufferSnapshot>,
    /// Indexed like the scenario's flows.
    pub flows: Vec<FlowSnapshot>,
    /// With several data VLs, each channel's time spent with a packet of each VL ready but no credit for it,
    /// since 0, at `channel * vls + vl` (empty with one VL: each link's `stalled_ns` says it).
    pub vl_stalled_ns: Vec<f64>,
}

impl Simulation {
    /// The present state, for drawing.
    pub fn snapshot(&self) -> Snapshot {
        let now = self.queue.now();
        let recent: Time = (self.stats.window / 2).max(1);
        let links = self
            .channels
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let from = now.saturating_sub(recent);
                let span = (now - from).max(1);
                let link = &self.stats.links[i];
                LinkSnapshot {
                    rate: (self.stats.series[i].busy_between(from, now) / span as f64) as f32,
                    busy: c.is_busy(),
                    stalled: c.stalled_since.is_some(),
                    marks: link.marks,
                    stalled_ns: (link.stall_all + c.stalled_since.map_or(0, |s| now - s)) as f64 / NS as f64,
                }
            })
            .collect();
        let mut buffers = Vec::new();
        for sw in &self.switches {
            for (port, lanes) in sw.inputs.iter().enumerate() {
                let data = &lanes[1..];
                let used = sw.data_used(port as u16);
                let oldest = data.iter().filter_map(oldest_of).min_by_key(|e| e.seq);
                let out = |e: &Entry| self.topo.out_channel(sw.node, e.out);
                buffers.push(BufferSnapshot {
                    channel: self.topo.in_channel(sw.node, port as u16),
                    fill: used as f32 / (sw.capacity as f32 * data.len() as f32),
                    packets: used as f32 / self.data_blocks as f32,
                    vl_fill: data.iter().map(|l| l.used as f32 / sw.capacity as f32).collect(),
                    waiting_for: oldest.map(out),
                    vl_waiting_for: if data.len() > 1 {
                        data.iter().map(|l| oldest_of(l).map(out)).collect()
                    } else {
                        Vec::new()
                    },
                });
            }
        }
        let flows = (0..self.flows.len())
            .map(|i| FlowSnapshot {
                active: self.flows[i].active,
                rate_limit: self.rate_limit(i) as f32,
                window: self.flows[i].cc.window(),
                outstanding: self.flows[i].outstanding,
            })
            .collect();
        let vl_stalled_ns = self
            .channels
            .iter()
            .zip(&self.stats.links)
            .flat_map(|(c, link)| {
                c.vl_stall_since
                    .iter()
                    .zip(&link.vl_stall_all)
                    .map(move |(since, all)| (all + since.map_or(0, |s| now - s)) as f64 / NS as f64)
            })
            .collect();
        Snapshot { time_ns: now as f64 / NS as f64, events: self.events(), links, buffers, flows, vl_stalled_ns }
    }

    /// Flow `i`'s rate limit now, as a fraction of its link: its congestion control's effective rate (the one
    /// place it is computed; the results and the snapshots both read it).
    pub(super) fn rate_limit(&self, i: usize) -> f64 {
        self.flows[i].cc.rate(self.packet_time[i], self.queue.now())
    }

    /// The groups of flows, in the order they first appear in the scenario.
    pub fn groups(&self) -> &[alloc::string::String] {
        &self.stats.groups
    }

    /// The aggregate rate series of a group's flows: their data sent on their source links in a window centred on
    /// each sample, as a fraction of one link's capacity (INFOCOM'03 Fig. 2: "rates of local flows, remote flow,
    /// and the victim flow"). `None` for an unknown group.
    pub fn group_rate_series(&self, group: &str) -> Option<Vec<(f64, f64)>> {
        let g = self.stats.groups.iter().position(|name| name == group)?;
        Some(sampled(&self.stats.group_series[g], self.stats.window, self.queue.now()))
    }

    /// The rate series of one directed link as `(time_ns, fraction of capacity)`: data sent in a window of
    /// `measure.window_ns` centred on each sample, up to now (model.md §9; INFOCOM'03 Fig. 2).
    pub fn link_rate_series(&self, channel: u32) -> Vec<(f64, f64)> {
        sampled(&self.stats.series[channel as usize], self.stats.window, self.queue.now())
    }
}

fn sampled(series: &crate::metrics::BusySeries, window: Time, now: Time) -> Vec<(f64, f64)> {
    let step = series.bin();
    (0..=now / step)
        .map(|k| {
            let t = k * step;
            (t as f64 / NS as f64, series.rate_at(t, window, now))
        })
        .collect()
}

/// The oldest packet in `lane` that has not started on its output.
fn oldest_of(lane: &InputLane) -> Option<&Entry> {
    lane.queue.iter().find(|e| !e.started)
}
