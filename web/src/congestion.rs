//! The congestion tree as the page highlights it, read from snapshots (Globecom'02 §II, INFOCOM'03 §III):
//!
//! - a link is **blocked** when it often waits for credit: the buffer at its far end is full, so congestion has
//!   spread back to it;
//! - the full buffer's oldest waiting packet wants some output; if that output is not itself blocked, it is a
//!   **root** of the tree (an output that cannot drain its demand);
//! - a flow that crosses a blocked link but no root is a **victim**: it is slowed by congestion it does not cause.
//!   Flows through a root are its **contributors**.
//!
//! With several virtual lanes each VL has its own buffers and credits, so the tree is per VL: a link is blocked on
//! a VL, a full VL buffer's packets make a root of their output on that VL, and a flow is a victim or a
//! contributor by what it crosses on its own VL (a victim on another VL than the tree's is not slowed by it: the
//! point of congestion isolation). A link is drawn blocked or root if it is on any VL.
//!
//! "Often" is a stall fraction measured over the recent past (`Meter`), so the picture does not flicker with each
//! credit. Pure Rust, tested natively.

use ibcc_core::sim::Snapshot;
use std::collections::VecDeque;

/// A link counts as blocked when it waited for credit at least this fraction of the recent past.
pub const BLOCKED_FRACTION: f64 = 0.25;

/// What the page highlights now.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Tree {
    /// Per channel: fraction of the recent past spent waiting for credit (its most stalled VL's).
    pub stall: Vec<f64>,
    /// Per channel: the data VLs (bits) it is blocked on, and root on (bit 0 alone with one VL).
    pub blocked_vls: Vec<u16>,
    pub root_vls: Vec<u16>,
    /// Per flow.
    pub victim: Vec<bool>,
    pub contributor: Vec<bool>,
}

impl Tree {
    /// Whether channel `c` is blocked, on any VL.
    pub fn blocked(&self, c: usize) -> bool {
        self.blocked_vls.get(c).is_some_and(|&m| m != 0)
    }

    /// Whether channel `c` is a root of the tree, on any VL.
    pub fn root(&self, c: usize) -> bool {
        self.root_vls.get(c).is_some_and(|&m| m != 0)
    }
}

/// Each channel's stall and mark counters sampled at fixed simulated times (every quarter of `span`), to measure
/// stall fractions and fresh marks over the recent past. Sampling at fixed times, never at frame times, makes the
/// picture at a given moment the same however the run got there (played, stepped, or sought back to).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Meter {
    span_ps: u64,
    every_ps: u64,
    next_ps: u64,
    /// `(time in ps, stalled ns per lane, marks per channel)`, oldest first.
    past: VecDeque<(u64, Vec<f64>, Vec<u64>)>,
}

/// What happened on each channel over the recent past.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recent {
    /// Fraction of the time it waited for credit, per lane: channel `c`'s data VL `v` at `c * vls + v`.
    pub stall: Vec<f64>,
    /// Packets marked.
    pub marks: Vec<u64>,
}

impl Meter {
    pub fn new(span_ns: f64) -> Self {
        let span_ps = ((span_ns * 1000.0).round() as u64).max(4_000);
        Self { span_ps, every_ps: span_ps / 4, next_ps: 0, past: VecDeque::new() }
    }

    /// The simulated time (ps) of the next sample: the run should stop there and call [`Meter::record`].
    pub fn next_ps(&self) -> u64 {
        self.next_ps
    }

    /// Takes the sample due at `snap`'s time (or later, if the run jumped past it).
    pub fn record(&mut self, snap: &Snapshot) {
        let now = (snap.time_ns * 1000.0).round() as u64;
        if now < self.next_ps {
            return;
        }
        self.next_ps = (now / self.every_ps + 1) * self.every_ps;
        self.past.push_back((now, lane_stalls(snap), snap.links.iter().map(|l| l.marks).collect()));
        // Keep what the span needs: the newest sample at or before `now - span`, and everything after.
        while self.past.len() > 1 && self.past[1].0 + self.span_ps <= now {
            self.past.pop_front();
        }
    }

    /// Each channel's stalled fraction and marks from the newest sample at least a span before `now` (or the
    /// oldest kept) to `now`; the instant state and no marks when there is no earlier sample.
    pub fn recent(&self, now: &Snapshot) -> Recent {
        let t = (now.time_ns * 1000.0).round() as u64;
        let base = self.past.iter().rev().find(|(at, _, _)| at + self.span_ps <= t).or(self.past.front());
        match base {
            Some((at, stalled, marks)) if t > *at => {
                let dt = (t - at) as f64 / 1000.0;
                Recent {
                    stall: lane_stalls(now).iter().zip(stalled).map(|(l, s)| ((l - s) / dt).clamp(0.0, 1.0)).collect(),
                    marks: now.links.iter().zip(marks).map(|(l, m)| l.marks.saturating_sub(*m)).collect(),
                }
            }
            _ => Recent {
                // (Each VL as its link: the snapshot says only whether a link as a whole is stalled now.)
                stall: now
                    .links
                    .iter()
                    .flat_map(|l| std::iter::repeat_n(if l.stalled { 1.0 } else { 0.0 }, vls(now)))
                    .collect(),
                marks: vec![0; now.links.len()],
            },
        }
    }
}

/// Data VLs in `snap` (1 when it has no per-VL stalls).
fn vls(snap: &Snapshot) -> usize {
    match snap.links.len() {
        0 => 1,
        n => (snap.vl_stalled_ns.len() / n).max(1),
    }
}

/// Each lane's credit-stall time since 0: channel `c`'s VL `v` at `c * vls + v`.
fn lane_stalls(snap: &Snapshot) -> Vec<f64> {
    if snap.vl_stalled_ns.is_empty() {
        snap.links.iter().map(|l| l.stalled_ns).collect()
    } else {
        snap.vl_stalled_ns.clone()
    }
}

/// The tree, given each lane's stall fraction (`Recent::stall`), and each flow's path (channels, `None` when
/// unknown) and data VL.
pub fn tree(now: &Snapshot, stall: Vec<f64>, paths: &[Option<Vec<u32>>], flow_vls: &[u8]) -> Tree {
    let vls = vls(now);
    let channels = now.links.len();
    let lane = |c: u32, vl: usize| c as usize * vls + vl;
    let blocked: Vec<bool> = stall.iter().map(|&f| f >= BLOCKED_FRACTION).collect();
    let mut root = vec![false; blocked.len()];
    for b in &now.buffers {
        for vl in 0..vls {
            let waiting_for = if vls == 1 { b.waiting_for } else { b.vl_waiting_for.get(vl).copied().flatten() };
            let feeds_blocked = blocked.get(lane(b.channel, vl)).copied().unwrap_or(false);
            if let (true, Some(out)) = (feeds_blocked, waiting_for) {
                if !blocked.get(lane(out, vl)).copied().unwrap_or(true) {
                    root[lane(out, vl)] = true;
                }
            }
        }
    }
    let bits = |set: &[bool]| -> Vec<u16> {
        (0..channels)
            .map(|c| (0..vls).filter(|&vl| set.get(c * vls + vl) == Some(&true)).fold(0, |m, vl| m | 1 << vl))
            .collect()
    };
    let (blocked_vls, root_vls) = (bits(&blocked), bits(&root));
    let crosses = |flow: usize, set: &[u16]| {
        let vl = flow_vls.get(flow).copied().unwrap_or(0);
        paths[flow].as_ref().is_some_and(|p| p.iter().any(|&c| set.get(c as usize).is_some_and(|m| m & (1 << vl) != 0)))
    };
    // Only a flow that is sending takes part; and a victim of spreading needs congestion to spread from: a root on
    // its VL. (A lone flow on long links waits for credit, and its links count as blocked, yet nothing victimises it.)
    let sending = |f: usize| now.flows.get(f).is_none_or(|x| x.active);
    let rooted = |f: usize| {
        let vl = flow_vls.get(f).copied().unwrap_or(0);
        root_vls.iter().any(|m| m & (1 << vl) != 0)
    };
    let contributor: Vec<bool> = (0..paths.len()).map(|f| sending(f) && crosses(f, &root_vls)).collect();
    let victim =
        (0..paths.len()).map(|f| sending(f) && !contributor[f] && rooted(f) && crosses(f, &blocked_vls)).collect();
    Tree {
        stall: (0..channels)
            .map(|c| (0..vls).map(|vl| stall.get(c * vls + vl).copied().unwrap_or(0.0)).fold(0.0, f64::max))
            .collect(),
        blocked_vls,
        root_vls,
        victim,
        contributor,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ibcc_core::sim::{BufferSnapshot, LinkSnapshot};

    fn link(stalled_ns: f64, stalled: bool) -> LinkSnapshot {
        LinkSnapshot { rate: 1.0, busy: true, stalled, marks: (stalled_ns / 10.0) as u64, stalled_ns }
    }

    /// Channel 0's buffer (one VL), full, its oldest packet waiting for channel `out`.
    fn full_buffer_waiting_for(out: u32) -> Vec<BufferSnapshot> {
        vec![BufferSnapshot {
            channel: 0,
            fill: 1.0,
            packets: 4.0,
            vl_fill: vec![1.0],
            waiting_for: Some(out),
            vl_waiting_for: vec![],
        }]
    }

    fn snap(time_ns: f64, links: Vec<LinkSnapshot>, buffers: Vec<BufferSnapshot>) -> Snapshot {
        Snapshot { time_ns, events: 0, links, buffers, flows: Vec::new(), vl_stalled_ns: Vec::new() }
    }

    #[test]
    fn stall_fractions_come_from_samples_at_fixed_times() {
        // Span 100 ns: samples every 25 ns.
        let mut m = Meter::new(100.0);
        assert_eq!(m.next_ps(), 0);
        let first = snap(0.0, vec![link(0.0, true), link(0.0, false)], vec![]);
        assert_eq!(m.recent(&first), Recent { stall: vec![1.0, 0.0], marks: vec![0, 0] }, "no past: the instant state");
        m.record(&first);
        assert_eq!(m.next_ps(), 25_000);
        let later = snap(50.0, vec![link(25.0, false), link(0.0, false)], vec![]);
        assert_eq!(m.recent(&later), Recent { stall: vec![0.5, 0.0], marks: vec![2, 0] }, "since the sample at 0");
        for t in [25.0, 50.0, 75.0, 100.0, 125.0, 150.0] {
            m.record(&snap(t, vec![link(t / 2.0, false), link(0.0, false)], vec![]));
        }
        // At 160 the base is the newest sample at least 100 ns back: the one at 50 (stalled 25 then).
        let r = m.recent(&snap(160.0, vec![link(25.0, false), link(110.0, true)], vec![]));
        assert_eq!(r, Recent { stall: vec![0.0, 1.0], marks: vec![0, 11] });
        // Samples are not taken between their times: a frame at any time reads the same.
        let mut n = m.clone();
        n.record(&snap(160.0, vec![link(25.0, false), link(110.0, true)], vec![]));
        assert_eq!(n, m);
    }

    /// Two switches: channel 0 (A->B, inter-switch) blocked because B's buffer waits for channel 2 (B->root), which
    /// drains at full rate. Flow 0 goes through the root, flow 1 only through channel 0 to another output (4).
    #[test]
    fn finds_the_root_and_the_victim() {
        let buffers = full_buffer_waiting_for(2);
        let s = snap(10.0, vec![link(0.0, true); 6], buffers);
        let stall = vec![0.9, 0.0, 0.0, 0.0, 0.0, 0.0];
        let paths = [Some(vec![0, 2]), Some(vec![0, 4]), Some(vec![5]), None];
        let t = tree(&s, stall, &paths, &[0; 4]);
        assert_eq!(t.blocked_vls, [1, 0, 0, 0, 0, 0]);
        assert_eq!(t.root_vls, [0, 0, 1, 0, 0, 0]);
        assert_eq!(t.contributor, [true, false, false, false]);
        assert_eq!(t.victim, [false, true, false, false]);
    }

    /// No halo on a flow that is not sending (before its start, after its stop), and no victim where no root is:
    /// a lone flow on long links waits for credit on every link, but nothing spreads to it.
    #[test]
    fn only_a_sending_flow_under_a_root_is_a_victim() {
        use ibcc_core::sim::FlowSnapshot;
        let flow = |active| FlowSnapshot { active, rate_limit: 1.0, window: None, outstanding: 0 };
        let mut s = snap(10.0, vec![link(0.0, true); 6], full_buffer_waiting_for(2));
        s.flows = vec![flow(true), flow(false)];
        let paths = [Some(vec![0, 2]), Some(vec![0, 4])];
        let t = tree(&s, vec![0.9, 0.0, 0.0, 0.0, 0.0, 0.0], &paths, &[0, 0]);
        assert_eq!((t.contributor.clone(), t.victim.clone()), (vec![true, false], vec![false, false]));
        s.flows = vec![flow(false), flow(true)];
        let t = tree(&s, vec![0.9, 0.0, 0.0, 0.0, 0.0, 0.0], &paths, &[0, 0]);
        assert_eq!((t.contributor, t.victim), (vec![false, false], vec![false, true]), "the root still stands");
        // Every link of a lone flow's path waits for credit, and no buffer waits for an unblocked output.
        let lone = snap(10.0, vec![link(0.0, true); 4], vec![]);
        let t = tree(&lone, vec![0.5, 0.0, 0.5, 0.0], &[Some(vec![0, 2])], &[0]);
        assert_eq!(t.root_vls, [0; 4]);
        assert_eq!(t.victim, [false]);
    }

    #[test]
    fn a_blocked_output_is_not_a_root() {
        // The buffer waits for channel 2, itself blocked further down: congestion comes from beyond it.
        let buffers = full_buffer_waiting_for(2);
        let t = tree(&snap(10.0, vec![link(0.0, false); 4], buffers), vec![0.5, 0.0, 0.6, 0.0], &[], &[]);
        assert_eq!(t.root_vls, [0; 4]);
        assert_eq!(t.blocked_vls, [1, 0, 1, 0]);
    }

    /// Two VLs: channel 0's VL 0 is blocked by a full VL 0 buffer waiting for channel 2, which drains; its VL 1
    /// flows. Flow 0 (VL 0) feeds the root; flow 1 crosses channel 0 on VL 0 to another output (a victim); flow 2
    /// crosses it on VL 1 (not slowed: isolated).
    #[test]
    fn the_tree_is_per_vl() {
        let buffers = vec![BufferSnapshot {
            channel: 0,
            fill: 0.5,
            packets: 4.0,
            vl_fill: vec![1.0, 0.0],
            waiting_for: Some(2),
            vl_waiting_for: vec![Some(2), None],
        }];
        let mut s = snap(10.0, vec![link(0.0, false); 6], buffers);
        s.vl_stalled_ns = vec![0.0; 12];
        // Lanes: channel c's VL v at 2c + v.
        let mut stall = vec![0.0; 12];
        stall[0] = 0.9;
        let paths = [Some(vec![0, 2]), Some(vec![0, 4]), Some(vec![0, 4])];
        let t = tree(&s, stall, &paths, &[0, 0, 1]);
        assert_eq!(t.blocked_vls, [1, 0, 0, 0, 0, 0]);
        assert_eq!(t.root_vls, [0, 0, 1, 0, 0, 0]);
        assert!(t.blocked(0) && !t.blocked(1) && t.root(2) && !t.root(0), "any VL counts");
        assert_eq!(t.stall[0], 0.9);
        assert_eq!(t.contributor, [true, false, false]);
        assert_eq!(t.victim, [false, true, false]);
    }

    /// The congestion-isolation preset as the page runs it, at 55 ms (the victim runs from 40 to 60): the inter-switch link is blocked on VL 0
    /// (the remote flow's), the root is B->BC, and the victim, alone on VL 1, is no victim. On one VL the same
    /// network makes it one (INFOCOM'03 Fig. 2).
    #[test]
    fn isolation_frees_the_victim_in_the_picture() {
        let mut s = ibcc_core::presets::find("vl-isolation-two-switch").unwrap().scenario();
        for vls in [2, 1] {
            if vls == 1 {
                s.virtual_lanes = None;
            }
            let mut run = crate::session::Session::new(&s, Vec::new()).unwrap();
            run.advance(55_000_000_000, || true);
            let f = run.frame();
            let channel = |a: &str, b: &str| {
                let i = s.links.iter().position(|l| (l.a == a && l.b == b) || (l.a == b && l.b == a)).unwrap();
                2 * i + usize::from(s.links[i].a != a)
            };
            let victim = s.flows.iter().position(|f| f.group == "victim").unwrap();
            let remote = s.flows.iter().position(|f| f.group == "remote").unwrap();
            assert!(f.tree.blocked(channel("A", "B")), "{vls} VLs: the inter-switch link is blocked");
            assert!(f.tree.root(channel("B", "BC")), "{vls} VLs: the root link");
            assert!(f.tree.contributor[remote]);
            assert_eq!(f.tree.victim[victim], vls == 1, "{vls} VLs");
            if vls == 2 {
                assert_eq!(f.tree.blocked_vls[channel("A", "B")], 1, "blocked on VL 0 only");
            }
        }
    }
}
