//! What processes do: a program of operations each, as an MPI program's trace reads (docs/workload.md). Sends,
//! receives, puts and gets are posted without blocking, as `MPI_Isend`, `MPI_Irecv`, `MPI_Put` and `MPI_Get` are;
//! `Wait` blocks until every operation the process posted is complete (`MPI_Waitall`, or a flush for one-sided
//! operations). Loops keep long programs short; signals let one set of processes start or stop another (GPCNeT's
//! congestors run until its canaries are done).

use crate::scenario::Transport;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// One operation of a process's program. Processes are named by their index in [`Workload::hosts`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum Op {
    /// Posts a two-sided send of `bytes` to process `to` (eager up to `eager_bytes`, else rendezvous).
    Send { to: u32, bytes: u32 },
    /// Posts a receive of the next message from process `from` (matched in the order they were sent, as MPI's
    /// non-overtaking rule has it).
    Recv { from: u32 },
    /// Posts a one-sided write of `bytes` into process `to`'s memory: complete when its last packet is acknowledged.
    Put { to: u32, bytes: u32 },
    /// Posts a one-sided read of `bytes` from process `from`'s memory: a request, answered by that host's NIC
    /// without the process; complete when the last packet of the answer arrives.
    Get { from: u32, bytes: u32 },
    /// Blocks until every operation posted so far is complete.
    Wait,
    /// The process is busy for `ns` nanoseconds.
    Compute { ns: u64 },
    /// Starts the process's clock.
    Clock,
    /// Records the time since `Clock` as a sample of series `series`.
    Sample { series: u16 },
    /// Raises signal `id` by one (signals are shared by all processes).
    Signal { id: u16 },
    /// Blocks until signal `id` has been raised `count` times.
    Await { id: u16, count: u32 },
    /// Runs the operations up to its matching `End` `times` times.
    Repeat { times: u32 },
    /// Runs the operations up to its matching `End` until signal `id` has been raised `count` times, checked before
    /// each pass (so a pass begun is finished).
    RepeatUntil { id: u16, count: u32 },
    /// Closes the innermost `Repeat` or `RepeatUntil`.
    End,
}

/// Processes, where they run, and their programs: a message workload. Its flows (one each way between every two
/// processes that communicate, as a queue pair) join the scenario's own when it runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workload {
    /// The host each process runs on (a node id of the scenario).
    pub hosts: Vec<String>,
    /// Each process's program, in process order.
    pub programs: Vec<Vec<Op>>,
    /// Two-sided messages up to this size go at once (eager); larger ones first ask (rendezvous).
    #[serde(default = "default_eager_bytes")]
    pub eager_bytes: u32,
    /// The time a process spends posting each send, receive, put or get (software overhead, LogP's `o`).
    #[serde(default)]
    pub overhead_ns: u64,
    /// The results group of each process's flows (empty: "workload"), e.g. "canary" or "congestor".
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub groups: Vec<String>,
    /// `(id, count)`: the workload is over once signal `id` has been raised `count` times, whatever the other
    /// processes are doing (GPCNeT's congestors run until its canaries are done). Absent: when every process is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ends_at_signal: Option<(u16, u32)>,
    /// How the queue pairs are connected. Reliable (RC): a send or a put completes when its last packet is
    /// acknowledged. Unreliable (UC): when its last packet has left the NIC; the network acknowledges nothing, and
    /// a marked packet brings a CN packet back (docs/model.md §12).
    #[serde(default, skip_serializing_if = "Transport::is_reliable")]
    pub transport: Transport,
    /// The service level of each process's flows (empty: all 0), so that one set of processes can have a VL of its
    /// own (`virtual_lanes.sl_to_vl`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub service_levels: Vec<u8>,
}

/// MPICH's and Open MPI's usual eager limit on InfiniBand, 8 KiB (docs/gpcnet.md §2.2).
pub const DEFAULT_EAGER_BYTES: u32 = 8192;

fn default_eager_bytes() -> u32 {
    DEFAULT_EAGER_BYTES
}

/// The packets a message of `bytes` takes with `payload_bytes` each: at least one (an empty message still goes).
pub fn packets_of(bytes: u32, payload_bytes: u32) -> u64 {
    u64::from(bytes.div_ceil(payload_bytes.max(1)).max(1))
}

/// Block placement, as `mpirun` places ranks by default: `per_host` processes on each host in turn (the PFT
/// paper's PPort, processes per network port). Returns each process's host.
pub fn place(hosts: &[String], per_host: u32) -> Vec<String> {
    hosts.iter().flat_map(|h| core::iter::repeat_n(h.clone(), per_host as usize)).collect()
}

impl Workload {
    /// A workload of `hosts` with empty programs and the default protocol.
    pub fn new(hosts: Vec<String>) -> Self {
        let programs = alloc::vec![Vec::new(); hosts.len()];
        Self {
            hosts,
            programs,
            eager_bytes: DEFAULT_EAGER_BYTES,
            overhead_ns: 0,
            groups: Vec::new(),
            ends_at_signal: None,
            transport: Transport::Reliable,
            service_levels: Vec::new(),
        }
    }

    /// Process `p`'s results group.
    pub fn group(&self, p: usize) -> &str {
        self.groups.get(p).map_or("workload", String::as_str)
    }

    /// Process `p`'s service level.
    pub fn service_level(&self, p: usize) -> u8 {
        self.service_levels.get(p).copied().unwrap_or(0)
    }

    /// Checks what the types cannot: programs for every process, peers that exist and are not itself, loops that
    /// close. `is_host` says whether a node id names a host. The error names the process and the operation.
    pub fn check(&self, is_host: impl Fn(&str) -> bool) -> Result<(), String> {
        if self.programs.len() != self.hosts.len() {
            return Err(format!("{} programs for {} processes", self.programs.len(), self.hosts.len()));
        }
        if !self.groups.is_empty() && self.groups.len() != self.hosts.len() {
            return Err(format!("{} groups for {} processes", self.groups.len(), self.hosts.len()));
        }
        if !self.service_levels.is_empty() && self.service_levels.len() != self.hosts.len() {
            return Err(format!("{} service levels for {} processes", self.service_levels.len(), self.hosts.len()));
        }
        if let Some((p, h)) = self.hosts.iter().enumerate().find(|(_, h)| !is_host(h)) {
            return Err(format!("process {p} runs on {h}, which is not a host of the network"));
        }
        let n = self.hosts.len() as u32;
        for (p, program) in self.programs.iter().enumerate() {
            let mut depth = 0u32;
            for (i, op) in program.iter().enumerate() {
                let at = || format!("process {p}, operation {i} ({op:?})");
                match *op {
                    Op::Send { to: q, .. } | Op::Recv { from: q } | Op::Put { to: q, .. } | Op::Get { from: q, .. } => {
                        if q >= n {
                            return Err(format!("{}: there is no process {q} (there are {n})", at()));
                        }
                        if q as usize == p {
                            return Err(format!("{}: a process cannot message itself", at()));
                        }
                    }
                    Op::Repeat { .. } | Op::RepeatUntil { .. } => depth += 1,
                    Op::End => {
                        depth = depth.checked_sub(1).ok_or_else(|| format!("{}: no loop to end", at()))?;
                    }
                    _ => {}
                }
            }
            if depth > 0 {
                return Err(format!("process {p}: {depth} loop(s) never end"));
            }
        }
        Ok(())
    }

    /// Every ordered pair of processes a message goes between, either way (a queue pair carries both), sorted.
    /// Those on one host talk through its memory; the others ([`Workload::network_pairs`]) over the network.
    pub fn pairs(&self) -> Vec<(u32, u32)> {
        let mut pairs = Vec::new();
        for (p, program) in self.programs.iter().enumerate() {
            for op in program {
                if let Op::Send { to: q, .. } | Op::Recv { from: q } | Op::Put { to: q, .. } | Op::Get { from: q, .. } =
                    *op
                {
                    pairs.push((p as u32, q));
                    pairs.push((q, p as u32));
                }
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        pairs
    }

    /// The pairs on different hosts, in [`Workload::pairs`]' order: each is a flow.
    pub fn network_pairs(&self) -> Vec<(u32, u32)> {
        let mut pairs = self.pairs();
        pairs.retain(|&(a, b)| self.hosts[a as usize] != self.hosts[b as usize]);
        pairs
    }

    /// The data packets process `p`'s program puts on the network, through its loops (a `RepeatUntil`'s body
    /// counted once): its sends and puts to other hosts, and its gets' requests and answers. Rendezvous requests and
    /// clears to send are not counted. For a progress bar.
    pub fn packets_posted(&self, p: usize, payload_bytes: u32) -> u64 {
        let packets = |bytes| packets_of(bytes, payload_bytes);
        let remote = |q: u32| self.hosts.get(q as usize).is_some_and(|h| *h != self.hosts[p]);
        let (mut total, mut times) = (0u64, alloc::vec![1u64]);
        for op in &self.programs[p] {
            let now = *times.last().expect("the outermost level");
            match *op {
                Op::Send { to, bytes } | Op::Put { to, bytes } if remote(to) => total += now * packets(bytes),
                Op::Get { from, bytes } if remote(from) => total += now * (1 + packets(bytes)),
                Op::Repeat { times: n } => times.push(now.saturating_mul(u64::from(n))),
                Op::RepeatUntil { .. } => times.push(now),
                Op::End if times.len() > 1 => {
                    times.pop();
                }
                _ => {}
            }
        }
        total
    }
}

/// Where each loop of `program` ends: for the index of each `Repeat`/`RepeatUntil`, the index of its `End` (and
/// for each `End`, its loop's start). `program` has been checked.
pub(crate) fn loop_ends(program: &[Op]) -> Vec<u32> {
    let mut jump = alloc::vec![0u32; program.len()];
    let mut open = Vec::new();
    for (i, op) in program.iter().enumerate() {
        match op {
            Op::Repeat { .. } | Op::RepeatUntil { .. } => open.push(i),
            Op::End => {
                let start = open.pop().expect("a checked program's loops close");
                jump[start] = i as u32;
                jump[i] = start as u32;
            }
            _ => {}
        }
    }
    jump
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn two() -> Workload {
        Workload::new(vec![String::from("a"), String::from("b")])
    }

    #[test]
    fn a_checked_workload_names_what_is_wrong() {
        let hosts = |h: &str| h == "a" || h == "b";
        let mut w = two();
        w.programs[0] = vec![Op::Send { to: 2, bytes: 8 }];
        assert!(w.check(hosts).unwrap_err().contains("there is no process 2"));
        w.programs[0] = vec![Op::Repeat { times: 2 }, Op::Wait];
        assert!(w.check(hosts).unwrap_err().contains("never end"));
        w.programs[0] = vec![Op::End];
        assert!(w.check(hosts).unwrap_err().contains("no loop to end"));
        w.programs[0] = vec![Op::Recv { from: 0 }];
        assert!(w.check(hosts).unwrap_err().contains("cannot message itself"));
        w.hosts[1] = String::from("s1");
        assert!(w.check(hosts).unwrap_err().contains("s1, which is not a host"));
    }

    #[test]
    fn loops_know_their_ends_and_pairs_go_both_ways() {
        let program = [Op::Repeat { times: 2 }, Op::Clock, Op::Repeat { times: 3 }, Op::Wait, Op::End, Op::End];
        assert_eq!(loop_ends(&program), [5, 0, 4, 0, 2, 0]);
        let mut w = two();
        w.programs[0] = vec![Op::Get { from: 1, bytes: 4096 }];
        assert_eq!(w.pairs(), [(0, 1), (1, 0)]);
        assert_eq!(place(&w.hosts, 2), ["a", "a", "b", "b"]);
        w.hosts[1] = String::from("a");
        assert_eq!(w.pairs().len(), 2);
        assert!(w.network_pairs().is_empty(), "one host: through its memory");
    }
}
