//! Deadlock: routes whose channel dependencies form a cycle (docs/model.md §13; `fabric::check` finds such cycles in
//! the tables) can fill a ring of buffers that then wait on each other for ever, since credit-based flow control
//! never drops a packet. The run finds this and stops, naming the cycle and the stuck packets, rather than running
//! on with nothing moving.
//!
//! The test is exact, not a timeout: a set of switch input buffers is deadlocked when none of them has a packet
//! leaving, and every packet waiting in them waits for room in a buffer of the set that has too little room for it.
//! Room in a buffer is only ever made by its own packets leaving, so no packet of the set can move again (packets on
//! the wire toward it only fill it further). The largest such set is found by starting from every buffer whose
//! waiting packets all wait for full switch buffers, and removing, until none is left to remove, each buffer with a
//! packet that waits for a buffer outside the set.

use super::Simulation;
use crate::net::packet::Lane;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// How often (simulated) the run looks for a deadlock (and once more at its end): a deadlock is reported within
/// this long of forming. Every 0.5 ms costs the papers' two-switch runs under 0.5% more instructions; every 50 us
/// cost them 2.2% (callgrind, `ibcc run preset:infocom03-fig2`).
pub const CHECK_EVERY_PS: u64 = 500_000_000;

/// A deadlock found in a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Deadlock {
    /// When it was found (the run stopped there): at the first check after it formed ([`CHECK_EVERY_PS`]).
    pub at_ns: f64,
    /// When the last of the stuck packets came into its buffer (its head arrived): nothing has come into the
    /// deadlocked buffers since, and the deadlock formed then or soon after (once the last packet leaving one of
    /// them had left).
    pub last_in_ns: f64,
    /// A cycle of directed links (`"A->B"`), each waiting for the next to make room, the last for the first.
    pub cycle: Vec<String>,
    /// The same cycle as channels (link `i`: `2i` from its `a` to its `b`, `2i + 1` back), for drawing it.
    pub channels: Vec<u32>,
    /// Packets that can never move again: every packet in the deadlocked buffers.
    pub stuck_packets: u64,
    /// The flows those packets belong to (an ACK counts for the flow it acknowledges), in scenario order.
    pub flows: Vec<String>,
}

impl Deadlock {
    /// The cycle node by node (`["sw-1", "sw-2", ...]`: each link's start; the last link ends at the first), as
    /// the page's credit-loop check names a loop.
    pub fn nodes(&self) -> Vec<&str> {
        self.cycle.iter().filter_map(|l| l.split_once("->").map(|(from, _)| from)).collect()
    }
}

impl Simulation {
    /// The deadlock the network is in now, if any.
    pub fn find_deadlock(&self) -> Option<Deadlock> {
        let lanes = 1 + usize::from(self.vls);
        let mut first = Vec::with_capacity(self.switches.len() + 1);
        let mut count = 0;
        for sw in &self.switches {
            first.push(count);
            count += sw.ports() * lanes;
        }
        first.push(count);
        // For each buffer: the buffers its waiting packets wait on (None: one of them can move, or may).
        let mut waits: Vec<Option<Vec<(usize, u32)>>> = alloc::vec![None; count];
        for (s, sw) in self.switches.iter().enumerate() {
            if sw.waiting_packets(0) + sw.waiting_packets(1) == 0 {
                // (Nothing waits here, so no buffer of it can: a look at each would read every input of a large
                // fabric, a twentieth of a 1,024-host hot spot's run at a look every 0.5 ms.)
                continue;
            }
            for port in 0..sw.ports() {
                for lane in Lane::all(self.vls) {
                    let entries = sw.input(port as u16, lane).entries();
                    if entries.is_empty() || entries.iter().any(|e| e.started) {
                        continue;
                    }
                    let mut on = Vec::with_capacity(entries.len());
                    for e in entries {
                        let c = sw.out_channel(e.out);
                        let to = self.channels[c as usize].to();
                        let blocks = self.packets[e.packet].blocks;
                        if to.host {
                            break;
                        }
                        let down = &self.switches[to.slot as usize];
                        if down.input(to.port, lane).used() + blocks <= down.capacity() {
                            break;
                        }
                        on.push((first[to.slot as usize] + usize::from(to.port) * lanes + lane.index(), c));
                    }
                    if on.len() == entries.len() {
                        waits[first[s] + port * lanes + lane.index()] = Some(on);
                    }
                }
            }
        }
        loop {
            let outside: Vec<usize> = (0..count)
                .filter(|&b| waits[b].as_ref().is_some_and(|on| on.iter().any(|&(d, _)| waits[d].is_none())))
                .collect();
            if outside.is_empty() {
                break;
            }
            for b in outside {
                waits[b] = None;
            }
        }
        let start = (0..count).find(|&b| waits[b].is_some())?;
        // A cycle: from any deadlocked buffer, follow each one's first wait until a buffer comes back.
        let mut path: Vec<(usize, u32)> = Vec::new();
        let mut at = start;
        let cycle_from = loop {
            if let Some(i) = path.iter().position(|&(b, _)| b == at) {
                break i;
            }
            let &(next, c) = &waits[at].as_ref().expect("a deadlocked buffer waits on one")[0];
            path.push((at, c));
            at = next;
        };
        let scenario = &self.scenario;
        let channels: Vec<u32> = path[cycle_from..].iter().map(|&(_, c)| c).collect();
        let cycle = channels.iter().map(|&c| scenario.channel_name(c).unwrap_or_default()).collect();
        let mut stuck = 0u64;
        let mut last_in = 0;
        let mut flows = alloc::vec![false; scenario.flows.len()];
        for (s, sw) in self.switches.iter().enumerate() {
            for port in 0..sw.ports() {
                for lane in Lane::all(self.vls) {
                    if waits[first[s] + port * lanes + lane.index()].is_none() {
                        continue;
                    }
                    for e in sw.input(port as u16, lane).entries() {
                        stuck += 1;
                        last_in = last_in.max(e.arrived_at);
                        flows[self.packets[e.packet].flow as usize] = true;
                    }
                }
            }
        }
        Some(Deadlock {
            at_ns: self.now() as f64 / crate::time::NS as f64,
            last_in_ns: last_in as f64 / crate::time::NS as f64,
            cycle,
            channels,
            stuck_packets: stuck,
            flows: scenario.flows.iter().zip(&flows).filter(|(_, &s)| s).map(|(f, _)| f.id.clone()).collect(),
        })
    }
}
