//! A workload while it runs: each process's place in its program, the operations it waits for, and each queue
//! pair's messages (docs/workload.md). It knows nothing of packets' journeys: the simulation tells it when a
//! message flow injects, delivers or has a packet acknowledged, and takes from it what to do next: flows that have
//! packets to send again (`fed`) and processes to wake at a time (`woken`).
//!
//! The protocol (docs/gpcnet.md §2):
//! - a two-sided message up to `eager_bytes` goes at once; its receive completes when its last packet arrives and
//!   a receive is posted for it, its send when its last packet is acknowledged (a reliable connection's work
//!   completion);
//! - a larger one sends a request to send (one packet); the receiver answers with a clear to send (one packet)
//!   once a receive is posted for it, and the data follows;
//! - a put is its data; complete when its last packet is acknowledged (`MPI_Win_flush`);
//! - a get is a request (one packet); the target's NIC answers with the data, no process involved; complete when
//!   the answer's last packet arrives.
//!
//! Every message is at least one packet, and every packet is full size (the simulator's packets all are).

use super::program::{loop_ends, Op, Workload};
use crate::time::{Time, NS};
use alloc::collections::VecDeque;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

/// The flow of a pair within one host: none, its messages go through the host's memory, at once.
const NO_FLOW: u32 = u32::MAX;

/// Operations a process may run at one time without time passing: more means a loop that never waits.
const MAX_STEPS_AT_ONCE: u32 = 1 << 20;

/// What a message is, for its receiver (and, for data, its sender's completion).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Two-sided data sent eagerly.
    Eager,
    /// A request to send (rendezvous).
    Rts,
    /// A clear to send: the data of the oldest request to send on the reverse flow may go.
    Cts,
    /// Two-sided data after a clear to send (its receive is already matched).
    RdvData,
    /// One-sided write.
    Put,
    /// One-sided read request for this many bytes.
    GetReq(u32),
    /// The answer to a get.
    GetResp,
}

/// One direction of a queue pair: process `src`'s messages to process `dst`, in order.
#[derive(Debug, Clone)]
struct Pair {
    src: u32,
    dst: u32,
    /// The pair the other way (`dst` to `src`).
    reverse: u32,
    /// Its flow among the workload's ([`NO_FLOW`]: both processes are on one host).
    flow: u32,
    /// Packets given to the flow, injected, delivered and acknowledged so far.
    enqueued: u64,
    injected: u64,
    delivered: u64,
    acked: u64,
    /// The injected count at which each message's last packet leaves.
    ends: VecDeque<u64>,
    /// Each message's end (delivered count) and kind: what its arrival means at `dst`.
    arriving: VecDeque<(u64, Kind)>,
    /// The ends (acknowledged count) of the messages whose sender waits for their acknowledgement, and whether
    /// each is a put (else a send).
    acking: VecDeque<(u64, bool)>,
    /// Sizes of the rendezvous messages whose request to send has gone and whose clear to send has not come.
    waiting_cts: VecDeque<u32>,
    /// At `dst`: two-sided messages arrived (eager data, or a request to send: true) no receive was posted for yet.
    unexpected: VecDeque<bool>,
    /// At `dst`: receives posted for this source that no message has matched yet.
    posted: u32,
}

/// Where a process is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    /// Runs its next operation as soon as it is looked at.
    Ready,
    /// In `Wait`, for its pending operations.
    Waiting,
    /// Busy (overhead or compute) until a wake-up.
    Sleeping,
    /// In `Await`, for a signal.
    Awaiting,
    Done,
}

#[derive(Debug, Clone)]
struct Process {
    pc: u32,
    /// Open loops: `(index of the Repeat, passes left)`.
    loops: Vec<(u32, u32)>,
    /// Operations posted and not yet complete.
    pending: u32,
    state: State,
    clock: Time,
    /// It has spent the overhead of the operation it is at (it posts it now).
    paid: bool,
    /// Samples per series.
    samples: Vec<Vec<Time>>,
    done_at: Option<Time>,
}

/// Messages counted over the run: each kind posted and completed (conservation: at the end of a run where every
/// process finished, each pair is equal).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MessageCounts {
    pub sends: u64,
    pub sends_done: u64,
    pub recvs: u64,
    pub recvs_done: u64,
    pub puts: u64,
    pub puts_done: u64,
    pub gets: u64,
    pub gets_done: u64,
}

/// A running workload.
#[derive(Debug, Clone)]
pub struct Runtime {
    programs: Rc<[Vec<Op>]>,
    /// Per program: each loop's other end (`program::loop_ends`).
    jumps: Rc<[Vec<u32>]>,
    processes: Vec<Process>,
    signals: Vec<u32>,
    /// Per signal: processes in `Await` for it, and the count each awaits.
    awaiting: Vec<Vec<(u32, u32)>>,
    pairs: Vec<Pair>,
    /// The pairs are sorted by `(src, dst)`: process `p`'s are from `first[p]` to `first[p + 1]`, and `peers` holds
    /// each one's `dst`. A search among one process's peers stays in a few cache lines, where one over every
    /// pair (hundreds of thousands with an all-to-all at 16 processes per node) missed the cache at every step.
    first: Vec<u32>,
    peers: Vec<u32>,
    /// Each flow's pair.
    flow_pair: Vec<u32>,
    eager_bytes: u32,
    overhead: Time,
    payload_bytes: u32,
    /// Processes ready to run (settled in order, so nothing recurses).
    ready: VecDeque<u32>,
    /// Flows that had nothing to send and have now (the simulation turns them on).
    pub(crate) fed: Vec<u32>,
    /// Processes that sleep until a time (the simulation schedules their wake-up).
    pub(crate) woken: Vec<(u32, Time)>,
    counts: MessageCounts,
    finished: u32,
    /// `Workload::ends_at_signal`.
    ends_at_signal: Option<(u16, u32)>,
    fault: Option<String>,
}

impl Runtime {
    /// The runtime of a checked `workload` whose flows are numbered as [`Workload::network_pairs`] lists them,
    /// with packets of `payload_bytes`. Nothing runs until [`Runtime::wake`].
    pub fn new(workload: &Workload, payload_bytes: u32) -> Self {
        let index = workload.pairs();
        let find = |a: u32, b: u32| index.binary_search(&(a, b)).expect("pairs go both ways") as u32;
        let mut flow_pair = Vec::new();
        let pairs = index
            .iter()
            .enumerate()
            .map(|(i, &(src, dst))| Pair {
                src,
                dst,
                reverse: find(dst, src),
                flow: if workload.hosts[src as usize] == workload.hosts[dst as usize] {
                    NO_FLOW
                } else {
                    flow_pair.push(i as u32);
                    flow_pair.len() as u32 - 1
                },
                enqueued: 0,
                injected: 0,
                delivered: 0,
                acked: 0,
                ends: VecDeque::new(),
                arriving: VecDeque::new(),
                acking: VecDeque::new(),
                waiting_cts: VecDeque::new(),
                unexpected: VecDeque::new(),
                posted: 0,
            })
            .collect();
        let mut first = vec![0u32; workload.hosts.len() + 1];
        for &(src, _) in &index {
            first[src as usize + 1] += 1;
        }
        for p in 1..first.len() {
            first[p] += first[p - 1];
        }
        let peers = index.iter().map(|&(_, dst)| dst).collect();
        let (mut signals, mut series) = (workload.ends_at_signal.map_or(0, |(id, _)| usize::from(id) + 1), 0usize);
        for op in workload.programs.iter().flatten() {
            match *op {
                Op::Signal { id } | Op::Await { id, .. } | Op::RepeatUntil { id, .. } => {
                    signals = signals.max(usize::from(id) + 1)
                }
                Op::Sample { series: s } => series = series.max(usize::from(s) + 1),
                _ => {}
            }
        }
        let process = Process {
            pc: 0,
            loops: Vec::new(),
            pending: 0,
            state: State::Ready,
            clock: 0,
            paid: false,
            samples: vec![Vec::new(); series],
            done_at: None,
        };
        Self {
            jumps: workload.programs.iter().map(|p| loop_ends(p)).collect(),
            programs: workload.programs.iter().cloned().collect(),
            processes: vec![process; workload.hosts.len()],
            signals: vec![0; signals],
            awaiting: vec![Vec::new(); signals],
            pairs,
            first,
            peers,
            flow_pair,
            eager_bytes: workload.eager_bytes,
            overhead: workload.overhead_ns * NS,
            payload_bytes: payload_bytes.max(1),
            ready: VecDeque::new(),
            fed: Vec::new(),
            woken: Vec::new(),
            counts: MessageCounts::default(),
            finished: 0,
            ends_at_signal: workload.ends_at_signal,
            fault: None,
        }
    }

    /// How many processes there are.
    pub fn processes(&self) -> usize {
        self.processes.len()
    }

    /// Whether the workload is over: every process has run its program to the end, or its end signal is raised.
    pub fn is_done(&self) -> bool {
        self.finished as usize == self.processes.len()
            || self
                .ends_at_signal
                .is_some_and(|(id, count)| self.signals.get(usize::from(id)).is_some_and(|&s| s >= count))
    }

    /// When process `p` finished its program, if it has.
    pub fn done_at(&self, p: usize) -> Option<Time> {
        self.processes[p].done_at
    }

    /// Process `p`'s samples of `series`, in the order taken.
    pub fn samples(&self, p: usize, series: u16) -> &[Time] {
        self.processes[p].samples.get(usize::from(series)).map_or(&[], Vec::as_slice)
    }

    /// Messages posted and completed so far.
    pub fn counts(&self) -> &MessageCounts {
        &self.counts
    }

    /// What stopped a process, if one was stopped (a loop that never waits).
    pub fn fault(&self) -> Option<&str> {
        self.fault.as_deref()
    }

    /// The processes still short of their program's end, the operation each is at, and what it waits for.
    pub fn unfinished(&self) -> Vec<(usize, u32, &'static str)> {
        let what = |s: State| match s {
            State::Waiting => "waits for its messages",
            State::Awaiting => "waits for a signal",
            State::Sleeping => "is busy",
            State::Ready | State::Done => "is running",
        };
        // (A process in `Wait` or `Await` is past it.)
        let at = |p: &Process| if matches!(p.state, State::Waiting | State::Awaiting) { p.pc - 1 } else { p.pc };
        self.processes
            .iter()
            .enumerate()
            .filter(|(_, p)| p.done_at.is_none())
            .map(|(i, p)| (i, at(p), what(p.state)))
            .collect()
    }

    /// The source and destination processes of the workload's flow `flow`.
    pub fn flow_processes(&self, flow: u32) -> (u32, u32) {
        let p = &self.pairs[self.flow_pair[flow as usize] as usize];
        (p.src, p.dst)
    }

    /// Packets given to the workload's flow `flow`, injected, delivered and acknowledged so far.
    pub fn progress(&self, flow: u32) -> [u64; 4] {
        let p = &self.pairs[self.flow_pair[flow as usize] as usize];
        [p.enqueued, p.injected, p.delivered, p.acked]
    }

    /// Every process starts its program at `now`, in order.
    pub fn start(&mut self, now: Time) {
        self.ready.extend(0..self.processes.len() as u32);
        self.settle(now);
    }

    /// Process `p` wakes at `now`, at the end of a busy time.
    pub fn wake(&mut self, p: u32, now: Time) {
        let proc = &mut self.processes[p as usize];
        if proc.state == State::Sleeping {
            proc.state = State::Ready;
            self.ready.push_back(p);
        }
        self.settle(now);
    }

    /// The workload's flow `flow` starts a packet: whether it is its message's last, and whether the flow has more
    /// to send.
    pub fn injected(&mut self, flow: u32) -> (bool, bool) {
        let p = &mut self.pairs[self.flow_pair[flow as usize] as usize];
        p.injected += 1;
        let last = p.ends.front() == Some(&p.injected);
        if last {
            p.ends.pop_front();
        }
        (last, p.injected < p.enqueued)
    }

    /// A packet of the workload's flow `flow` reached its destination host at `now`.
    pub fn delivered(&mut self, flow: u32, now: Time) {
        let pair = self.flow_pair[flow as usize];
        self.pairs[pair as usize].delivered += 1;
        loop {
            let p = &mut self.pairs[pair as usize];
            let Some(&(end, kind)) = p.arriving.front().filter(|&&(end, _)| end <= p.delivered) else { break };
            debug_assert_eq!(end, p.delivered, "a flow's packets arrive in order");
            p.arriving.pop_front();
            self.arrived(pair, kind);
        }
        self.settle(now);
    }

    /// `count` packets of the workload's flow `flow` were acknowledged at its source at `now`.
    pub fn acked(&mut self, flow: u32, count: u32, now: Time) {
        let pair = self.flow_pair[flow as usize];
        let p = &mut self.pairs[pair as usize];
        p.acked += u64::from(count);
        let (src, acked) = (p.src, p.acked);
        while let Some(&(end, put)) = self.pairs[pair as usize].acking.front() {
            if end > acked {
                break;
            }
            self.pairs[pair as usize].acking.pop_front();
            self.acked_message(src, put);
        }
        self.settle(now);
    }

    /// A send (or a put: `put`) of process `src` is acknowledged: complete.
    fn acked_message(&mut self, src: u32, put: bool) {
        if put {
            self.counts.puts_done += 1;
        } else {
            self.counts.sends_done += 1;
        }
        self.complete(src);
    }

    /// A whole message of `kind` arrived on `pair`.
    fn arrived(&mut self, pair: u32, kind: Kind) {
        let (dst, reverse) = (self.pairs[pair as usize].dst, self.pairs[pair as usize].reverse);
        match kind {
            Kind::Eager | Kind::Rts => {
                let p = &mut self.pairs[pair as usize];
                if p.posted > 0 {
                    p.posted -= 1;
                    self.matched(pair, kind == Kind::Rts);
                } else {
                    p.unexpected.push_back(kind == Kind::Rts);
                }
            }
            Kind::Cts => {
                // The clear to send came back on the reverse of the data's pair.
                let bytes = self.pairs[reverse as usize].waiting_cts.pop_front().expect("a request to send waits");
                self.send_message(reverse, Kind::RdvData, bytes, Some(false));
            }
            Kind::RdvData => {
                self.counts.recvs_done += 1;
                self.complete(dst);
            }
            Kind::Put => {}
            Kind::GetReq(bytes) => self.send_message(reverse, Kind::GetResp, bytes, None),
            Kind::GetResp => {
                self.counts.gets_done += 1;
                self.complete(dst);
            }
        }
    }

    /// A receive at pair `pair`'s destination met its message: eager data completes it; a request to send is
    /// answered with a clear to send, and the receive completes when the data arrives.
    fn matched(&mut self, pair: u32, rendezvous: bool) {
        if rendezvous {
            let reverse = self.pairs[pair as usize].reverse;
            self.send_message(reverse, Kind::Cts, 0, None);
        } else {
            self.counts.recvs_done += 1;
            self.complete(self.pairs[pair as usize].dst);
        }
    }

    /// An operation of process `p` completed.
    fn complete(&mut self, p: u32) {
        let proc = &mut self.processes[p as usize];
        proc.pending -= 1;
        if proc.pending == 0 && proc.state == State::Waiting {
            proc.state = State::Ready;
            self.ready.push_back(p);
        }
    }

    /// Gives pair `pair`'s flow a message of `kind` of `bytes` (at least one packet); `acking`: its sender waits
    /// for its acknowledgement, as a put (`Some(true)`) or a send. Within one host it arrives at once.
    fn send_message(&mut self, pair: u32, kind: Kind, bytes: u32, acking: Option<bool>) {
        if self.pairs[pair as usize].flow == NO_FLOW {
            // (Our choice: shared memory takes no time; docs/workload.md.)
            self.arrived(pair, kind);
            if let Some(put) = acking {
                self.acked_message(self.pairs[pair as usize].src, put);
            }
            return;
        }
        let packets = super::program::packets_of(bytes, self.payload_bytes);
        let p = &mut self.pairs[pair as usize];
        if p.injected == p.enqueued {
            self.fed.push(p.flow);
        }
        p.enqueued += packets;
        p.ends.push_back(p.enqueued);
        p.arriving.push_back((p.enqueued, kind));
        if let Some(put) = acking {
            p.acking.push_back((p.enqueued, put));
        }
    }

    /// The flow (pair index) from process `a` to process `b`.
    fn pair_of(&self, a: u32, b: u32) -> u32 {
        let from = self.first[a as usize] as usize;
        let peers = &self.peers[from..self.first[a as usize + 1] as usize];
        (from + peers.binary_search(&b).expect("a checked workload's pairs have flows")) as u32
    }

    /// Runs every ready process until it blocks, in the order they became ready.
    fn settle(&mut self, now: Time) {
        while let Some(p) = self.ready.pop_front() {
            self.run(p, now);
        }
    }

    /// Runs process `p`'s program from where it is until it blocks, sleeps or ends.
    fn run(&mut self, p: u32, now: Time) {
        let programs = Rc::clone(&self.programs);
        let jumps = Rc::clone(&self.jumps);
        let (program, jump) = (&programs[p as usize], &jumps[p as usize]);
        let mut steps = 0u32;
        loop {
            let proc = &mut self.processes[p as usize];
            if proc.state != State::Ready {
                return;
            }
            let pc = proc.pc as usize;
            let Some(&op) = program.get(pc) else {
                proc.state = State::Done;
                proc.done_at = Some(now);
                self.finished += 1;
                return;
            };
            steps += 1;
            if steps > MAX_STEPS_AT_ONCE {
                proc.state = State::Done;
                self.fault.get_or_insert_with(|| {
                    format!("process {p} ran {MAX_STEPS_AT_ONCE} operations without time passing (a loop that never waits?)")
                });
                return;
            }
            let posts = matches!(op, Op::Send { .. } | Op::Recv { .. } | Op::Put { .. } | Op::Get { .. });
            if posts && self.overhead > 0 && !core::mem::replace(&mut proc.paid, true) {
                // LogP's `o`: the process is busy before the operation takes effect.
                self.busy(p, self.overhead, now);
                continue;
            }
            proc.paid = false;
            proc.pc += 1;
            match op {
                Op::Send { to, bytes } => {
                    proc.pending += 1;
                    self.counts.sends += 1;
                    let pair = self.pair_of(p, to);
                    if bytes <= self.eager_bytes {
                        self.send_message(pair, Kind::Eager, bytes, Some(false));
                    } else {
                        self.pairs[pair as usize].waiting_cts.push_back(bytes);
                        self.send_message(pair, Kind::Rts, 0, None);
                    }
                }
                Op::Recv { from } => {
                    proc.pending += 1;
                    self.counts.recvs += 1;
                    let pair = self.pair_of(from, p);
                    match self.pairs[pair as usize].unexpected.pop_front() {
                        Some(rendezvous) => self.matched(pair, rendezvous),
                        None => self.pairs[pair as usize].posted += 1,
                    }
                }
                Op::Put { to, bytes } => {
                    proc.pending += 1;
                    self.counts.puts += 1;
                    let pair = self.pair_of(p, to);
                    self.send_message(pair, Kind::Put, bytes, Some(true));
                }
                Op::Get { from, bytes } => {
                    proc.pending += 1;
                    self.counts.gets += 1;
                    let pair = self.pair_of(p, from);
                    self.send_message(pair, Kind::GetReq(bytes), 0, None);
                }
                Op::Wait => {
                    if proc.pending > 0 {
                        proc.state = State::Waiting;
                    }
                }
                Op::Compute { ns } => self.busy(p, ns * NS, now),
                Op::Clock => proc.clock = now,
                Op::Sample { series } => {
                    let t = now - proc.clock;
                    proc.samples[usize::from(series)].push(t);
                }
                Op::Signal { id } => {
                    let id = usize::from(id);
                    self.signals[id] += 1;
                    let raised = self.signals[id];
                    let (processes, ready) = (&mut self.processes, &mut self.ready);
                    self.awaiting[id].retain(|&(q, count)| {
                        if raised < count {
                            return true;
                        }
                        processes[q as usize].state = State::Ready;
                        ready.push_back(q);
                        false
                    });
                }
                Op::Await { id, count } => {
                    if self.signals[usize::from(id)] < count {
                        proc.state = State::Awaiting;
                        self.awaiting[usize::from(id)].push((p, count));
                    }
                }
                Op::Repeat { times } => {
                    if times == 0 {
                        proc.pc = jump[pc] + 1;
                    } else {
                        proc.loops.push((pc as u32, times));
                    }
                }
                Op::RepeatUntil { id, count } => {
                    if self.signals[usize::from(id)] >= count {
                        proc.pc = jump[pc] + 1;
                    } else {
                        proc.loops.push((pc as u32, u32::MAX));
                    }
                }
                Op::End => {
                    let (start, left) = proc.loops.last_mut().expect("a checked program's End closes a loop");
                    let again = match program[*start as usize] {
                        Op::Repeat { .. } => {
                            *left -= 1;
                            *left > 0
                        }
                        Op::RepeatUntil { id, count } => self.signals[usize::from(id)] < count,
                        _ => unreachable!("a loop starts at a Repeat"),
                    };
                    if again {
                        proc.pc = *start + 1;
                    } else {
                        proc.loops.pop();
                    }
                }
            }
        }
    }

    /// Process `p` is busy for `time` from `now` (no time: it goes on).
    fn busy(&mut self, p: u32, time: Time, now: Time) {
        if time > 0 {
            self.processes[p as usize].state = State::Sleeping;
            self.woken.push((p, now + time));
        }
    }
}
