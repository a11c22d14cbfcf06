//! Small, render-ready pictures of the present for the page's animation: what each link carries now, how full each
//! input buffer is, and each flow's rate limit and window. Cheap to build every frame; plain data.

use super::{Report, Simulation};
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

impl Report {
    /// `sim`'s present state, for drawing (this report's counters give the recent rates, the marks and the stalls).
    pub fn snapshot(&self, sim: &Simulation) -> Snapshot {
        let now = sim.now();
        let recent: Time = (self.window / 2).max(1);
        let topo = sim.topology();
        let links = (0..topo.channels().len())
            .map(|i| {
                let c = sim.channel(i as u32);
                let from = now.saturating_sub(recent);
                let span = (now - from).max(1);
                let link = &self.links[i];
                LinkSnapshot {
                    rate: (self.series.series(i).busy_between(from, now) / span as f64) as f32,
                    busy: c.is_busy(),
                    stalled: c.stalled_since().is_some(),
                    marks: self.marks[i].all,
                    stalled_ns: (link.stall_all + c.stalled_since().map_or(0, |s| now - s)) as f64 / NS as f64,
                }
            })
            .collect();
        let mut buffers = Vec::new();
        let data_blocks = sim.data_blocks();
        for sw in sim.switches() {
            for port in 0..sw.ports() as u16 {
                let data = sw.data_inputs(port);
                let used = sw.data_used(port);
                let oldest = data.iter().filter_map(InputLane::oldest_waiting).min_by_key(|e| e.seq);
                let out = |e: &Entry| topo.out_channel(sw.node(), e.out);
                buffers.push(BufferSnapshot {
                    channel: topo.in_channel(sw.node(), port),
                    fill: used as f32 / (sw.capacity() as f32 * data.len() as f32),
                    packets: used as f32 / data_blocks as f32,
                    vl_fill: data.iter().map(|l| l.used() as f32 / sw.capacity() as f32).collect(),
                    waiting_for: oldest.map(out),
                    vl_waiting_for: if data.len() > 1 {
                        data.iter().map(|l| l.oldest_waiting().map(out)).collect()
                    } else {
                        Vec::new()
                    },
                });
            }
        }
        let flows = (0..sim.scenario().flows.len())
            .map(|i| {
                let flow = sim.flow(i);
                FlowSnapshot {
                    active: flow.active(),
                    rate_limit: sim.rate_limit(i) as f32,
                    window: flow.cc().window(),
                    outstanding: flow.outstanding(),
                }
            })
            .collect();
        let vl_stalled_ns = self.vl_stalls_now(sim).iter().map(|&t| t as f64 / NS as f64).collect();
        Snapshot { time_ns: now as f64 / NS as f64, events: sim.events(), links, buffers, flows, vl_stalled_ns }
    }
}
