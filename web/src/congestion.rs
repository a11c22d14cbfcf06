//! The congestion tree as the page highlights it, read from snapshots (Globecom'02 §II, INFOCOM'03 §III):
//!
//! - a link is **blocked** when it often waits for credit: the buffer at its far end is full, so congestion has
//!   spread back to it;
//! - the full buffer's oldest waiting packet wants some output; if that output is not itself blocked, it is a
//!   **root** of the tree (an output that cannot drain its demand);
//! - a flow that crosses a blocked link but no root is a **victim**: it is slowed by congestion it does not cause.
//!   Flows through a root are its **contributors**.
//!
//! "Often" is a stall fraction measured over the recent past (`Meter`), so the picture does not flicker with each
//! credit. Pure Rust, tested natively.

use ibcc_core::sim::Snapshot;
use std::collections::VecDeque;

/// A link counts as blocked when it waited for credit at least this fraction of the recent past.
pub const BLOCKED_FRACTION: f64 = 0.25;

/// What the page highlights now.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tree {
    /// Per channel: fraction of the recent past spent waiting for credit.
    pub stall: Vec<f64>,
    pub blocked: Vec<bool>,
    pub root: Vec<bool>,
    /// Per flow.
    pub victim: Vec<bool>,
    pub contributor: Vec<bool>,
}

/// Keeps recent snapshots' stall and mark counters, to measure stall fractions and fresh marks over `span_ns` of
/// simulated time.
#[derive(Debug, Clone, Default)]
pub struct Meter {
    span_ns: f64,
    past: VecDeque<(f64, Vec<f64>, Vec<u64>)>,
}

/// What happened on each channel over the recent past.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Recent {
    /// Fraction of the time it waited for credit.
    pub stall: Vec<f64>,
    /// Packets marked.
    pub marks: Vec<u64>,
}

impl Meter {
    pub fn new(span_ns: f64) -> Self {
        Self { span_ns, past: VecDeque::new() }
    }

    /// Each channel's stalled fraction and marks since the oldest kept snapshot within the span (the instant state
    /// and no marks when there is no past yet), then remembers `now`.
    pub fn update(&mut self, now: &Snapshot) -> Recent {
        // A snapshot from before a reset (time went backwards) is not the past of this one.
        self.past.retain(|(t, _, _)| *t < now.time_ns);
        while self.past.len() > 1 && self.past[1].0 <= now.time_ns - self.span_ns {
            self.past.pop_front();
        }
        let recent = match self.past.front() {
            Some((t, stalled, marks)) if now.time_ns > *t => {
                let dt = now.time_ns - t;
                Recent {
                    stall: now
                        .links
                        .iter()
                        .zip(stalled)
                        .map(|(l, s)| ((l.stalled_ns - s) / dt).clamp(0.0, 1.0))
                        .collect(),
                    marks: now.links.iter().zip(marks).map(|(l, m)| l.marks.saturating_sub(*m)).collect(),
                }
            }
            _ => Recent {
                stall: now.links.iter().map(|l| if l.stalled { 1.0 } else { 0.0 }).collect(),
                marks: vec![0; now.links.len()],
            },
        };
        self.past.push_back((
            now.time_ns,
            now.links.iter().map(|l| l.stalled_ns).collect(),
            now.links.iter().map(|l| l.marks).collect(),
        ));
        recent
    }
}

/// The tree, given each channel's stall fraction and each flow's path (channels, `None` when unknown).
pub fn tree(now: &Snapshot, stall: Vec<f64>, paths: &[Option<Vec<u32>>]) -> Tree {
    let blocked: Vec<bool> = stall.iter().map(|&f| f >= BLOCKED_FRACTION).collect();
    let mut root = vec![false; blocked.len()];
    for b in &now.buffers {
        let feeds_blocked = blocked.get(b.channel as usize).copied().unwrap_or(false);
        if let (true, Some(out)) = (feeds_blocked, b.waiting_for) {
            if !blocked.get(out as usize).copied().unwrap_or(true) {
                root[out as usize] = true;
            }
        }
    }
    let crosses = |path: &Option<Vec<u32>>, set: &[bool]| {
        path.as_ref().is_some_and(|p| p.iter().any(|&c| set.get(c as usize).copied().unwrap_or(false)))
    };
    let contributor: Vec<bool> = paths.iter().map(|p| crosses(p, &root)).collect();
    let victim = paths.iter().zip(&contributor).map(|(p, &c)| !c && crosses(p, &blocked)).collect();
    Tree { stall, blocked, root, victim, contributor }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ibcc_core::sim::{BufferSnapshot, LinkSnapshot};

    fn link(stalled_ns: f64, stalled: bool) -> LinkSnapshot {
        LinkSnapshot { rate: 1.0, busy: true, stalled, marks: (stalled_ns / 10.0) as u64, stalled_ns }
    }

    fn snap(time_ns: f64, links: Vec<LinkSnapshot>, buffers: Vec<BufferSnapshot>) -> Snapshot {
        Snapshot { time_ns, events: 0, links, buffers, flows: Vec::new() }
    }

    #[test]
    fn stall_fractions_come_from_the_counters_over_the_span() {
        let mut m = Meter::new(100.0);
        let first = m.update(&snap(0.0, vec![link(0.0, true), link(0.0, false)], vec![]));
        assert_eq!(first, Recent { stall: vec![1.0, 0.0], marks: vec![0, 0] }, "no past: the instant state");
        let later = m.update(&snap(50.0, vec![link(25.0, false), link(0.0, false)], vec![]));
        assert_eq!(later, Recent { stall: vec![0.5, 0.0], marks: vec![2, 0] });
        m.update(&snap(150.0, vec![link(25.0, false), link(100.0, true)], vec![]));
        // The snapshot at 0 has left the span; the one at 50 is the past now.
        let r = m.update(&snap(160.0, vec![link(25.0, false), link(110.0, true)], vec![]));
        assert_eq!(r, Recent { stall: vec![0.0, 1.0], marks: vec![0, 11] });
        let after_reset = m.update(&snap(0.0, vec![link(0.0, false), link(0.0, false)], vec![]));
        assert_eq!(after_reset.stall, [0.0, 0.0]);
    }

    /// Two switches: channel 0 (A->B, inter-switch) blocked because B's buffer waits for channel 2 (B->root), which
    /// drains at full rate. Flow 0 goes through the root, flow 1 only through channel 0 to another output (4).
    #[test]
    fn finds_the_root_and_the_victim() {
        let buffers = vec![BufferSnapshot { channel: 0, fill: 1.0, packets: 4.0, waiting_for: Some(2) }];
        let s = snap(10.0, vec![link(0.0, true); 6], buffers);
        let stall = vec![0.9, 0.0, 0.0, 0.0, 0.0, 0.0];
        let paths = [Some(vec![0, 2]), Some(vec![0, 4]), Some(vec![5]), None];
        let t = tree(&s, stall, &paths);
        assert_eq!(t.blocked, [true, false, false, false, false, false]);
        assert_eq!(t.root, [false, false, true, false, false, false]);
        assert_eq!(t.contributor, [true, false, false, false]);
        assert_eq!(t.victim, [false, true, false, false]);
    }

    #[test]
    fn a_blocked_output_is_not_a_root() {
        // The buffer waits for channel 2, itself blocked further down: congestion comes from beyond it.
        let buffers = vec![BufferSnapshot { channel: 0, fill: 1.0, packets: 4.0, waiting_for: Some(2) }];
        let t = tree(&snap(10.0, vec![link(0.0, false); 4], buffers), vec![0.5, 0.0, 0.6, 0.0], &[]);
        assert_eq!(t.root, [false; 4]);
        assert_eq!(t.blocked, [true, false, true, false]);
    }
}
