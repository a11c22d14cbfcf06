//! An input-buffered switch's state and its scheduling (docs/model.md §3): input buffers per port and lane, outputs with
//! the packets waiting for them, and the choice of the next packet for an output.
//!
//! Scheduling (INFOCOM'03 footnote 6, Globecom'02 Table I): among the packets that could start now (eligible, their
//! output idle with credit downstream, and their input buffer not already sending `input_transfers` packets: no
//! limit by default, 1 for a classic crossbar), each output takes the oldest by arrival (`arbitration:
//! oldest_first`, what the papers' numbers need) or serves its inputs in turn (`round_robin`). A packet may overtake
//! older packets of its own buffer that cannot go. The head of the buffer (its oldest packet not yet sent) counts
//! each time it is overtaken, and once overtaken `max_bypass` times blocks its buffer until it leaves; with
//! `bypass_counting: each_packet` every overtaken packet counts, the head or not. ACKs (their own lane) go first at
//! every output; between data VLs, each output's VL arbiter chooses (`net::vl`). The cost of a pass grows with the switch's ports and buffer sizes, never with flows or network
//! size.

use super::packet::{Lane, PacketId, PacketPool};
use super::topology::{ChannelId, NodeId, PortId};
use super::vl::{Choice, VlArbiter};
use crate::time::Time;
use alloc::vec;
use alloc::vec::Vec;
use core::cell::Cell;
use serde::{Deserialize, Serialize};

/// An output VL of a switch: `port × data VLs + VL` (with one VL, the port). The HP slides want congestion control
/// "independent for each VL": a switch's congestion control keeps its counters and state per output VL.
pub type OutputVl = u32;

/// How an output chooses among the input buffers with a packet for it. The papers only give the order within one
/// buffer ("FIFO with possible bypass of older packets", Globecom'02 Table I); this is our choice, documented in
/// docs/scenario.md.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Arbitration {
    /// The oldest packet by arrival at the switch goes first.
    #[default]
    OldestFirst,
    /// The inputs take turns: the first input after the one this output served last that has a packet able to go
    /// sends its oldest such packet.
    RoundRobin,
}

/// Which packets count bypasses toward `max_bypass`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BypassCounting {
    /// Only the head of the buffer (its oldest packet not yet sent) counts, from when it became the head:
    /// "the head of the queue can be bypassed at most 4 times" (INFOCOM'03 footnote 6).
    #[default]
    Head,
    /// Every packet counts each younger packet of its buffer that goes ahead of it, also before it is the head, and
    /// one that reaches the limit blocks the buffer until it leaves (the reading format version 1 took).
    EachPacket,
}

/// A packet in a switch input buffer.
#[derive(Debug, Clone, Copy)]
pub struct Entry {
    pub packet: PacketId,
    /// Its size in credit blocks (kept here so that a look at the buffer's bytes need not read the packet).
    pub blocks: u32,
    /// The output port it is routed to.
    pub out: PortId,
    /// Arrival order at this switch (oldest first).
    pub seq: u64,
    /// The earliest time it may start on its output (cut-through: head arrival + forwarding delay, and never
    /// overtaking its own tail on a faster output).
    pub eligible_at: Time,
    /// How many younger packets of the same buffer went ahead of it.
    pub bypassed: u32,
    /// Started on its output; its tail is leaving the buffer.
    pub started: bool,
    /// When its head arrived.
    pub arrived_at: Time,
    /// When it started on its output (meaningful once `started`).
    pub started_at: Time,
}

/// One lane of a switch input port (the ACK lane, or a data VL with its own buffer and credits).
#[derive(Debug, Clone)]
pub struct InputLane {
    /// Packets in arrival order (a few at most: bounded by the buffer size).
    queue: Vec<Entry>,
    /// Blocks occupied (from head arrival until the tail leaves).
    used: u32,
    /// Packets it is sending through the crossbar now (at most the switch's `input_transfers`).
    sending: u32,
    /// The seq of its oldest packet not started and bypassed `max_bypass` times (`u64::MAX`: none): every younger
    /// packet of the buffer is blocked behind it. Kept so that a pass rejects a blocked packet without walking the
    /// buffer (a congested fabric's outputs wait on hundreds of them).
    blocked_after: u64,
    /// Counts the changes that can let one of its packets start (one leaves, or one starts and may unblock the
    /// buffer): an output's [`Unstartable`] memo holds while its blocking inputs' counts stay the same.
    epoch: u64,
}

impl Default for InputLane {
    fn default() -> Self {
        Self { queue: Vec::new(), used: 0, sending: 0, blocked_after: u64::MAX, epoch: 0 }
    }
}

impl InputLane {
    /// The packets it holds, oldest first.
    #[inline]
    pub fn entries(&self) -> &[Entry] {
        &self.queue
    }

    /// Blocks occupied (from head arrival until the tail leaves).
    #[inline]
    pub fn used(&self) -> u32 {
        self.used
    }

    /// Its oldest packet that has not started on its output.
    pub fn oldest_waiting(&self) -> Option<&Entry> {
        self.queue.iter().find(|e| !e.started)
    }

    /// Marks the packet at `pos` started (the caller counts it `sending`); if it was the one blocking the buffer,
    /// finds the next (with `bypass_counting: each_packet` a younger packet may have reached the limit too).
    fn mark_started(&mut self, pos: usize, now: Time, max_bypass: u32) {
        let entry = &mut self.queue[pos];
        entry.started = true;
        entry.started_at = now;
        self.epoch += 1;
        if entry.seq == self.blocked_after {
            let next = self.queue.iter().find(|e| !e.started && e.bypassed >= max_bypass);
            self.blocked_after = next.map_or(u64::MAX, |e| e.seq);
        }
    }
}

/// One lane (`Lane::index`) of one switch output port. A switch keeps all of them in one array, and its input lanes
/// in another, so that reaching a packet's lists takes one step through memory, not two or three: in a large fabric
/// each step is a cache miss (docs/performance.md, "The switch's state in one place").
#[derive(Debug, Clone)]
struct OutLane {
    /// Packets waiting for this output on this lane, oldest first.
    waiting: Vec<Waiting>,
    /// Why none of them could start at the last look, while that still holds (a pass looks again at every event of
    /// the switch; in a congested fabric an idle output often waits behind inputs that stay blocked).
    unstartable: Cell<Unstartable>,
    /// Round-robin arbitration: the input whose turn it is next.
    next_input: PortId,
}

impl Default for OutLane {
    fn default() -> Self {
        Self { waiting: Vec::new(), unstartable: Cell::new(Unstartable::NONE), next_input: 0 }
    }
}

/// The ports set in both of two bitmaps, lowest first ([`SwitchState::idle_pending_outputs`]).
#[derive(Debug)]
pub struct IdlePending<'a> {
    pending: &'a [u64],
    idle: &'a [u64],
    word: usize,
    bits: u64,
}

impl IdlePending<'_> {
    /// Leaves out the outputs in `asleep` (bits of the first word: sleeping needs at most 64 ports).
    #[inline]
    fn awake(mut self, asleep: u64) -> Self {
        self.bits &= !asleep;
        self
    }
}

impl Iterator for IdlePending<'_> {
    type Item = PortId;

    #[inline(always)]
    fn next(&mut self) -> Option<PortId> {
        while self.bits == 0 {
            self.word += 1;
            if self.word >= self.pending.len() {
                return None;
            }
            self.bits = self.pending[self.word] & self.idle[self.word];
        }
        let b = self.bits.trailing_zeros() as usize;
        self.bits &= self.bits - 1;
        Some((self.word * 64 + b) as PortId)
    }
}

/// Port `p`'s bit in the bitmaps of sleeping outputs (none past 64 ports, where outputs do not sleep).
#[inline]
pub fn sleep_bit(p: PortId) -> u64 {
    1u64.checked_shl(u32::from(p)).unwrap_or(0)
}

/// Port `p`'s word and bit in a bitmap of ports.
#[inline(always)]
fn port_bit(p: PortId) -> (usize, u64) {
    (usize::from(p) / 64, 1 << (p % 64))
}

/// A packet waiting for an output: its arrival seq, its input port, and when it may leave. (The time is its input
/// buffer entry's: kept here too, a pass skips packets not yet eligible without reading their input buffers.)
#[derive(Debug, Clone, Copy)]
struct Waiting {
    seq: u64,
    input: PortId,
    eligible_at: Time,
}

/// Why no waiting packet of an output's lane can start: the inputs that blocked them (bit `input % 64`) and the
/// sum of those inputs' [`InputLane::epoch`]s then, and the earliest a packet still in its forwarding delay becomes
/// eligible. Nothing else lets one start but a new packet for the output, which clears it (`NONE`: it holds until
/// time 0, so never).
#[derive(Debug, Clone, Copy)]
struct Unstartable {
    inputs: u64,
    epochs: u64,
    until: Time,
}

impl Unstartable {
    const NONE: Self = Self { inputs: 0, epochs: 0, until: 0 };
    /// A new look, before it has found anything that keeps a packet from starting.
    const LOOK: Self = Self { inputs: 0, epochs: 0, until: Time::MAX };

    /// Input `input` blocked a packet.
    #[inline(always)]
    fn blocked_by(&mut self, input: PortId) {
        self.inputs |= 1 << (input % 64);
    }

    /// A packet becomes eligible at `at`.
    #[inline(always)]
    fn eligible_at(&mut self, at: Time) {
        self.until = self.until.min(at);
    }
}

/// The sum of the epochs of lane `lane` of the inputs in `mask` (bit `p % 64` stands for every port `p` with it);
/// `inputs` holds `lanes` lanes per port.
#[inline]
fn epochs(inputs: &[InputLane], lanes: usize, mask: u64, lane: usize) -> u64 {
    let ports = inputs.len() / lanes;
    let mut sum = 0u64;
    let mut bits = mask;
    while bits != 0 {
        let b = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        for p in (b..ports).step_by(64) {
            sum = sum.wrapping_add(inputs[p * lanes + lane].epoch);
        }
    }
    sum
}

/// A packet's head arriving at a switch input.
#[derive(Debug, Clone, Copy)]
pub struct Arrival {
    pub packet: PacketId,
    /// Its size in credit blocks.
    pub blocks: u32,
    /// The output it is routed to.
    pub out: PortId,
    /// The earliest it may start on that output.
    pub eligible_at: Time,
    pub now: Time,
}

/// How a switch forwards: the scenario's `switch` block, resolved.
#[derive(Debug, Clone, Copy)]
pub struct Forwarding {
    pub delay: Time,
    pub max_bypass: u32,
    pub bypass_counting: BypassCounting,
    /// Packets one input buffer may send at once (`u32::MAX`: no limit).
    pub input_transfers: u32,
    pub arbitration: Arbitration,
}

/// An input-buffered switch. Its state changes only through [`admit`](Self::admit) (a packet's head arrives),
/// [`start`](Self::start) (a packet starts on its output) and [`depart`](Self::depart) (its tail has left), which
/// keep the buffers, the outputs' waiting lists and the counts in step.
#[derive(Debug, Clone)]
pub struct SwitchState<C> {
    node: NodeId,
    /// The channel each port sends on (the topology's, kept here for the passes).
    out_channels: Vec<ChannelId>,
    /// Lanes per port: the ACK lane and the data VLs.
    lanes: usize,
    /// Input lane `lane.index()` of port `port` is `inputs[port * lanes + lane.index()]`.
    inputs: Vec<InputLane>,
    /// Output lanes, numbered as the inputs'.
    outputs: Vec<OutLane>,
    /// Each output's VL arbiter: which data VL sends next.
    arbiters: Vec<VlArbiter>,
    /// Data VLs per port.
    vls: u8,
    /// Buffer size of each lane of an input, in blocks.
    capacity: u32,
    forwarding: Forwarding,
    next_seq: u64,
    /// Per `Lane::kind` (data, ACKs), bit `out`: output `out` has packets of that kind waiting. A pass looks for
    /// ACKs only where some wait: every data packet is acknowledged, so a switch nearly always holds an ACK, but few
    /// of its outputs do.
    pending: [Vec<u64>; 2],
    /// Bit `out`: output `out`'s transmitter is idle (the simulation says when it starts and ends a packet). A pass
    /// looks only at outputs both pending and idle: under load most pending outputs are sending, and a 36-port
    /// switch would look at each of them, and its channel, at every event.
    idle: Vec<u64>,
    /// Packets waiting (not started), data and ACKs (`Lane::kind`), so a pass can skip what has nothing in it.
    waiting: [u32; 2],
    /// Per `Lane::kind`, bit `out`: output `out` is asleep. Its last look found no packet of that kind able to
    /// start, and none can until an input that blocked them changes (which wakes it), a packet for it arrives, or
    /// `asleep_until`. A pass passes over sleeping outputs without a look; in a congested fabric most idle outputs
    /// wait like this behind blocked inputs. Only with at most 64 ports, and for data only with one VL.
    asleep: [u64; 2],
    /// Per input port and `Lane::kind`: the outputs (bits) a change of that input's buffer wakes.
    wakers: Vec<[u64; 2]>,
    /// The earliest time a packet of a sleeping output becomes eligible: every output wakes then.
    asleep_until: Time,
    /// Until when the last pass's finding (no packet can start) holds for every output but those whose resources
    /// change (`sim::switching` says which): the earliest time a packet it passed over, or one admitted since,
    /// becomes eligible. 0: no pass has found it yet.
    calm_until: Time,
    /// Its congestion control (what it is, this layer does not know).
    cc: C,
}

/// The data packets in `inputs` (`vls + 1` lanes per port) bound for each of `ports × vls` output VLs (see
/// `SwitchState::data_per_output_vl`).
fn per_output_vl(inputs: &[InputLane], ports: usize, vls: u8, with_started: bool) -> Vec<u32> {
    let mut n = vec![0; ports * usize::from(vls)];
    for input in inputs.chunks(usize::from(vls) + 1) {
        for lane in Lane::all(vls).skip(1) {
            for e in input[lane.index()].queue.iter().filter(|e| !e.started || with_started) {
                let ovl = usize::from(e.out) * usize::from(vls) + usize::from(lane.vl().unwrap_or(0));
                n[ovl] += 1;
            }
        }
    }
    n
}

/// A packet that can start now: which output, which input, where it is in that input's queue, its age.
#[derive(Debug, Clone, Copy)]
pub struct Candidate {
    pub seq: u64,
    pub out: PortId,
    pub input: PortId,
    pub pos: usize,
    pub lane: Lane,
    /// The VL arbiter's choice that picked it (data with several VLs).
    pub choice: Option<Choice>,
}

impl<C> SwitchState<C> {
    /// A switch with empty buffers: port `p` sends on `out_channels[p]` with the VL arbiter `arbiters[p]`; each
    /// input has the ACK lane and `vls` data VLs of `capacity` blocks each.
    pub fn new(
        node: NodeId,
        out_channels: Vec<ChannelId>,
        arbiters: impl IntoIterator<Item = VlArbiter>,
        vls: u8,
        capacity: u32,
        forwarding: Forwarding,
        cc: C,
    ) -> Self {
        let (ports, lanes) = (out_channels.len(), usize::from(vls) + 1);
        let arbiters: Vec<VlArbiter> = arbiters.into_iter().collect();
        assert_eq!(arbiters.len(), ports, "one VL arbiter per port");
        Self {
            node,
            out_channels,
            lanes,
            inputs: vec![InputLane::default(); ports * lanes],
            outputs: vec![OutLane::default(); ports * lanes],
            arbiters,
            vls,
            capacity,
            forwarding,
            next_seq: 0,
            calm_until: 0,
            asleep: [0, 0],
            wakers: vec![[0, 0]; ports],
            asleep_until: Time::MAX,
            // (At least one word: a pass reads the first.)
            pending: [vec![0; ports.div_ceil(64).max(1)], vec![0; ports.div_ceil(64).max(1)]],
            idle: (0..ports.div_ceil(64).max(1))
                .map(|w| if (w + 1) * 64 <= ports { u64::MAX } else { (1 << (ports % 64)) - 1 })
                .collect(),
            waiting: [0, 0],
            cc,
        }
    }

    /// Brings in what a pass reads first: the words saying which outputs have packets waiting and which are idle,
    /// and (with `port`) that port's input and output lanes and the id of the channel it sends on
    /// (`sim::lookahead`). Both sides, whichever the event concerns: a port's traffic goes both ways (ACKs and credit
    /// come back through it), and bringing in only the event's side ran no faster (docs/performance.md).
    #[inline(always)]
    pub(crate) fn prefetch_lists(&self, port: Option<PortId>) {
        use crate::prefetch::prefetch;
        for words in [&self.pending[0], &self.pending[1], &self.idle] {
            if let Some(first) = words.first() {
                prefetch(first);
            }
        }
        if let Some(port) = port {
            let at = self.at(port, 0);
            if let (Some(inputs), Some(outputs)) =
                (self.inputs.get(at..at + self.lanes), self.outputs.get(at..at + self.lanes))
            {
                prefetch(inputs);
                prefetch(outputs);
            }
            if let Some(c) = self.out_channels.get(usize::from(port)) {
                prefetch(c);
            }
        }
    }

    /// Brings in the first entries of port `port`'s input lanes and of its output lanes' waiting lists
    /// (`sim::lookahead`).
    #[inline(always)]
    pub(crate) fn prefetch_entries(&self, port: PortId) {
        use crate::prefetch::prefetch;
        let at = self.at(port, 0);
        for l in 0..self.lanes {
            if let Some(first) = self.inputs.get(at + l).and_then(|i| i.queue.first()) {
                prefetch(first);
            }
            if let Some(first) = self.outputs.get(at + l).and_then(|o| o.waiting.first()) {
                prefetch(first);
            }
        }
    }

    #[inline]
    pub fn node(&self) -> NodeId {
        self.node
    }

    /// Its number of ports.
    #[inline]
    pub fn ports(&self) -> usize {
        self.arbiters.len()
    }

    /// The channel port `port` sends on.
    #[inline]
    pub fn out_channel(&self, port: PortId) -> ChannelId {
        self.out_channels[port as usize]
    }

    /// Data VLs per port.
    #[inline]
    pub fn vls(&self) -> u8 {
        self.vls
    }

    /// Buffer size of each lane of an input, in blocks.
    #[inline]
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    #[inline]
    pub fn forwarding_delay(&self) -> Time {
        self.forwarding.delay
    }

    /// Where lane `lane` (`Lane::index`) of port `port` is in `inputs` and `outputs`.
    #[inline(always)]
    fn at(&self, port: PortId, lane: usize) -> usize {
        usize::from(port) * self.lanes + lane
    }

    /// Input `port`'s buffer of `lane`.
    #[inline]
    pub fn input(&self, port: PortId, lane: Lane) -> &InputLane {
        &self.inputs[self.at(port, lane.index())]
    }

    /// Input `port`'s data VLs' buffers, VL 0 first.
    #[inline]
    pub fn data_inputs(&self, port: PortId) -> &[InputLane] {
        let first = self.at(port, 0);
        &self.inputs[first + 1..first + self.lanes]
    }

    /// How many packets wait for output `out` on `lane`.
    #[inline]
    pub fn waiting_for(&self, out: PortId, lane: Lane) -> usize {
        self.outputs[self.at(out, lane.index())].waiting.len()
    }

    /// Output `out`'s VL arbiter.
    #[inline]
    pub fn arbiter(&self, out: PortId) -> &VlArbiter {
        &self.arbiters[out as usize]
    }

    /// Outputs with packets of `kind` (`Lane::kind`: 0 data, 1 ACKs) waiting for them and an idle transmitter, in
    /// port order.
    #[inline]
    pub fn idle_pending_outputs(&self, kind: usize) -> IdlePending<'_> {
        let pending = &self.pending[kind];
        IdlePending { pending, idle: &self.idle, word: 0, bits: pending[0] & self.idle[0] }
    }

    /// [`idle_pending_outputs`](Self::idle_pending_outputs) but those asleep.
    #[inline]
    pub fn awake_idle_pending_outputs(&self, kind: usize) -> IdlePending<'_> {
        self.idle_pending_outputs(kind).awake(self.asleep[kind])
    }

    /// Wakes every sleeping output if one of their packets is eligible by `now`.
    #[inline]
    pub fn wake_due(&mut self, now: Time) {
        if now >= self.asleep_until {
            self.asleep = [0, 0];
            self.asleep_until = Time::MAX;
        }
    }

    /// The outputs in `outs` (bits, per `Lane::kind`) found no packet of that kind able to start (their memos hold
    /// that now): they sleep until that may change, where sleeping applies. Returns until when the sleeping outputs
    /// sleep at least.
    #[inline(always)]
    pub fn sleep(&mut self, outs: [u64; 2]) -> Time {
        // (Most passes put none to sleep: that case is inlined into the pass.)
        if outs[0] | outs[1] == 0 {
            return self.asleep_until;
        }
        self.sleep_outputs(outs)
    }

    #[inline(never)]
    fn sleep_outputs(&mut self, outs: [u64; 2]) -> Time {
        for (kind, mut outs) in outs.into_iter().enumerate() {
            if self.ports() > 64 || (kind == 0 && self.vls != 1) {
                continue;
            }
            let lane = if kind == 1 { Lane::ACK } else { Lane::VL0 };
            while outs != 0 {
                let out = outs.trailing_zeros() as usize;
                outs &= outs - 1;
                let memo = self.outputs[out * self.lanes + lane.index()].unstartable.get();
                self.asleep[kind] |= 1 << out;
                let mut inputs = memo.inputs;
                while inputs != 0 {
                    self.wakers[inputs.trailing_zeros() as usize][kind] |= 1 << out;
                    inputs &= inputs - 1;
                }
                self.asleep_until = self.asleep_until.min(memo.until);
            }
        }
        self.asleep_until
    }

    /// Whether output `out` holds no packet of `kind` that could start whatever its resources: none waits, or it
    /// sleeps.
    #[inline]
    pub fn nothing_for(&self, out: PortId, kind: usize) -> bool {
        let (w, bit) = port_bit(out);
        self.pending[kind][w] & bit == 0 || (w == 0 && self.asleep[kind] & bit != 0)
    }

    /// Input `port`'s buffer of `kind` changed: the outputs it blocked wake.
    #[inline]
    fn input_changed(&mut self, port: PortId, kind: usize) {
        if self.asleep[kind] == 0 {
            return; // (no one to wake: a waker bit left over wakes an output needlessly later, which only costs a look)
        }
        let w = &mut self.wakers[port as usize][kind];
        self.asleep[kind] &= !*w;
        *w = 0;
    }

    /// Output `out`'s transmitter started (`false`) or finished (`true`) a packet.
    #[inline]
    pub fn set_idle(&mut self, out: PortId, idle: bool) {
        let (w, bit) = port_bit(out);
        if idle {
            self.idle[w] |= bit;
        } else {
            self.idle[w] &= !bit;
        }
    }

    /// Until when no packet can start here unless an output's resources change (see `calm_until`).
    #[inline]
    pub fn calm_until(&self) -> Time {
        self.calm_until
    }

    /// A pass found that no packet can start until `t` (at the earliest: the first eligible time it passed over).
    #[inline]
    pub fn set_calm_until(&mut self, t: Time) {
        self.calm_until = t;
    }

    /// The earliest time output `out`'s last look at `lane` passed over a packet not yet eligible: until then, and
    /// while its inputs do not change, nothing it holds can start.
    #[inline]
    pub fn unstartable_until(&self, out: PortId, lane: Lane) -> Time {
        self.outputs[self.at(out, lane.index())].unstartable.get().until
    }

    /// Packets waiting to start, data (`Lane::kind` 0) or ACKs (1).
    #[inline]
    pub fn waiting_packets(&self, kind: usize) -> u32 {
        self.waiting[kind]
    }

    /// Its congestion control.
    #[inline]
    pub fn cc(&self) -> &C {
        &self.cc
    }

    #[inline]
    pub fn cc_mut(&mut self) -> &mut C {
        &mut self.cc
    }

    /// A packet's head arrives at input `port` on `lane`: it waits there for its output until it is eligible.
    /// Returns the blocks the buffer held before and holds now (more than its size only if credit flow control
    /// failed: the caller counts a drop).
    #[inline(always)]
    pub fn admit(&mut self, port: PortId, lane: Lane, a: Arrival) -> (u32, u32) {
        let Arrival { packet, blocks, out, eligible_at, now } = a;
        let seq = self.next_seq;
        self.next_seq += 1;
        let buffer = &mut self.inputs[usize::from(port) * self.lanes + lane.index()];
        let before = buffer.used;
        buffer.used += blocks;
        if self.forwarding.max_bypass == 0 {
            // Nothing ever bypasses: it blocks whatever arrives after it.
            buffer.blocked_after = buffer.blocked_after.min(seq);
        }
        buffer.queue.push(Entry {
            packet,
            blocks,
            out,
            seq,
            eligible_at,
            bypassed: 0,
            started: false,
            arrived_at: now,
            started_at: 0,
        });
        let after = buffer.used;
        let output = &mut self.outputs[usize::from(out) * self.lanes + lane.index()];
        output.waiting.push(Waiting { seq, input: port, eligible_at });
        output.unstartable.set(Unstartable::NONE);
        self.calm_until = self.calm_until.min(eligible_at);
        self.asleep[lane.kind()] &= !sleep_bit(out);
        self.waiting[lane.kind()] += 1;
        self.mark_pending(out, lane.kind());
        (before, after)
    }

    /// The tail of `packet` (`blocks` blocks, on `lane`) has left input `port`: it frees its space. Returns its
    /// entry and the blocks the buffer still holds.
    #[inline(always)]
    pub fn depart(&mut self, port: PortId, lane: Lane, packet: PacketId, blocks: u32) -> (Entry, u32) {
        let buffer = &mut self.inputs[usize::from(port) * self.lanes + lane.index()];
        let pos = buffer.queue.iter().position(|e| e.packet == packet).expect("the leaving packet is buffered");
        let entry = buffer.queue.remove(pos);
        debug_assert!(entry.started);
        buffer.used -= blocks;
        buffer.sending -= 1;
        buffer.epoch += 1;
        let used = buffer.used;
        self.input_changed(port, lane.kind());
        (entry, used)
    }

    /// Whether input `port`'s buffer of `lane`, after a packet left it, may send again where it could not before:
    /// it was sending as many packets as `input_transfers` allows.
    #[inline]
    pub fn freed_transfer(&self, port: PortId, lane: Lane) -> bool {
        self.input(port, lane).sending + 1 >= self.forwarding.input_transfers
    }

    /// The output VL `(out, vl)` as congestion control numbers them: `out × VLs + vl` (with one VL, the port).
    #[inline]
    pub fn output_vl(&self, out: PortId, lane: Lane) -> OutputVl {
        u32::from(out) * u32::from(self.vls) + u32::from(lane.vl().unwrap_or(0))
    }

    /// Input VL `(port, vl)` as congestion control numbers them: `port × VLs + vl`, as output VLs.
    #[inline]
    pub fn input_vl(&self, port: PortId, lane: Lane) -> u32 {
        u32::from(port) * u32::from(self.vls) + u32::from(lane.vl().unwrap_or(0))
    }

    /// The data packets in the buffers bound for each output VL (`output_vl`): those that have not started, and
    /// with `with_started` also those being sent (what ECN marking's `cnt1` counts).
    pub fn data_per_output_vl(&self, with_started: bool) -> Vec<u32> {
        per_output_vl(&self.inputs, self.ports(), self.vls, with_started)
    }

    /// Lets its congestion control change with a look at the buffers: `f` gets it and
    /// [`data_per_output_vl`](Self::data_per_output_vl).
    pub fn cc_with_buffers<R>(&mut self, f: impl FnOnce(&mut C, &dyn Fn(bool) -> Vec<u32>) -> R) -> R {
        let (inputs, ports, vls) = (&self.inputs, self.ports(), self.vls);
        f(&mut self.cc, &|with_started| per_output_vl(inputs, ports, vls, with_started))
    }

    /// Blocks held by every data VL of input `port`.
    pub fn data_used(&self, port: PortId) -> u32 {
        self.data_inputs(port).iter().map(|l| l.used).sum()
    }

    /// Marks output `out` as having waiting packets of `kind`.
    #[inline]
    fn mark_pending(&mut self, out: PortId, kind: usize) {
        let (w, bit) = port_bit(out);
        self.pending[kind][w] |= bit;
    }

    /// The packet at `pos` of an input buffer starts ahead of older ones that still wait: the head counts a bypass,
    /// and with `each_packet` counting so does every other one it overtakes.
    #[inline]
    fn count_bypasses(&mut self, input: PortId, lane: usize, pos: usize) {
        let head_only = self.forwarding.bypass_counting == BypassCounting::Head;
        let max_bypass = self.forwarding.max_bypass;
        let buffer = &mut self.inputs[usize::from(input) * self.lanes + lane];
        for older in buffer.queue.iter_mut().take(pos).filter(|e| !e.started) {
            older.bypassed += 1;
            if older.bypassed >= max_bypass {
                buffer.blocked_after = buffer.blocked_after.min(older.seq);
            }
            if head_only {
                break;
            }
        }
    }

    /// The packet that goes first on `out` and `lane` if `out` is idle with credit: among those that could start
    /// now, the oldest (`oldest_first`), or the oldest of the first input in round-robin order (`round_robin`).
    #[inline(always)]
    pub fn first_startable(&self, out: PortId, lane: Lane, now: Time) -> Option<Candidate> {
        let l = lane.index();
        let unstartable = &self.outputs[self.at(out, l)].unstartable;
        let memo = unstartable.get();
        if now < memo.until && epochs(&self.inputs, self.lanes, memo.inputs, l) == memo.epochs {
            debug_assert!(
                self.scan(out, lane, now, &mut Unstartable { ..Unstartable::LOOK }).is_none(),
                "the memo hid a packet"
            );
            return None;
        }
        let mut why = Unstartable::LOOK;
        let found = self.scan(out, lane, now, &mut why);
        if found.is_none() {
            why.epochs = epochs(&self.inputs, self.lanes, why.inputs, l);
            unstartable.set(why);
        }
        found
    }

    /// [`first_startable`](Self::first_startable) by a look at every waiting packet; `why` learns what kept each
    /// from starting.
    #[inline(always)]
    fn scan(&self, out: PortId, lane: Lane, now: Time, why: &mut Unstartable) -> Option<Candidate> {
        let l = lane.index();
        let output = &self.outputs[self.at(out, l)];
        let waiting = &output.waiting;
        match self.forwarding.arbitration {
            Arbitration::OldestFirst => {
                // An input that blocked one packet blocks its younger ones too (`startable`): with at most 64
                // ports, the scan skips them by their bit.
                let exact = self.ports() <= 64;
                waiting.iter().find_map(|w| {
                    // (Not eligible yet: nothing to read in its input buffer.)
                    if w.eligible_at > now {
                        why.eligible_at(w.eligible_at);
                        return None;
                    }
                    if exact && why.inputs & (1 << w.input) != 0 {
                        return None;
                    }
                    self.startable(w.seq, w.input, out, lane, now, why)
                })
            }
            Arbitration::RoundRobin => {
                let (ports, turn) = (self.ports(), usize::from(output.next_input));
                let after_turn = |input: PortId| (usize::from(input) + ports - turn) % ports;
                // Oldest first within each input, so an input's first packet that can go is the one it sends.
                let mut best: Option<Candidate> = None;
                for &Waiting { seq, input, .. } in waiting {
                    if best.is_some_and(|b| after_turn(input) >= after_turn(b.input)) {
                        continue; // an input served before this one already has a packet that can go
                    }
                    if let Some(c) = self.startable(seq, input, out, lane, now, why) {
                        if after_turn(input) == 0 {
                            return Some(c);
                        }
                        best = Some(c);
                    }
                }
                best
            }
        }
    }

    /// Starts `cand` at `now`: it counts its bypasses, is marked started, and leaves its output's waiting list;
    /// the VL arbiter that chose it counts its size (`packets` knows it). Returns its packet, and whether it was the
    /// packet blocking its buffer (younger packets of the buffer may go now).
    #[inline(always)]
    pub fn start(&mut self, cand: &Candidate, now: Time, packets: &PacketPool) -> (PacketId, bool) {
        let l = cand.lane.index();
        let (input_at, output_at) = (self.at(cand.input, l), self.at(cand.out, l));
        let packet = self.inputs[input_at].queue[cand.pos].packet;
        if let Some(choice) = cand.choice {
            self.arbiters[cand.out as usize].sent(choice, packets[packet].blocks);
        }
        self.count_bypasses(cand.input, l, cand.pos);
        let buffer = &mut self.inputs[input_at];
        let unblocked = buffer.blocked_after == cand.seq;
        buffer.mark_started(cand.pos, now, self.forwarding.max_bypass);
        buffer.sending += 1;
        self.input_changed(cand.input, cand.lane.kind());
        let ports = self.ports() as PortId;
        let output = &mut self.outputs[output_at];
        // (Not `% ports`: a hardware division on every start, tens of cycles.)
        output.next_input = if cand.input + 1 >= ports { 0 } else { cand.input + 1 };
        let at = output.waiting.iter().position(|w| w.seq == cand.seq).expect("a candidate is waiting");
        output.waiting.remove(at);
        let kind = cand.lane.kind();
        self.waiting[kind] -= 1;
        let none_left = if kind == 1 {
            self.outputs[output_at].waiting.is_empty()
        } else {
            let first = self.at(cand.out, 1);
            self.outputs[first..first + usize::from(self.vls)].iter().all(|o| o.waiting.is_empty())
        };
        if none_left {
            let (w, bit) = port_bit(cand.out);
            self.pending[kind][w] &= !bit;
        }
        (packet, unblocked)
    }

    /// The waiting packet `seq` of buffer `input`, if it could start now: eligible, its buffer free to send
    /// another packet, and no older packet of the buffer bypassed too often. If not, `why` learns which.
    #[inline(always)]
    fn startable(
        &self,
        seq: u64,
        input: PortId,
        out: PortId,
        lane: Lane,
        now: Time,
        why: &mut Unstartable,
    ) -> Option<Candidate> {
        let buffer = self.input(input, lane);
        // An older packet bypassed too often blocks everything behind it.
        if buffer.sending >= self.forwarding.input_transfers || seq > buffer.blocked_after {
            why.blocked_by(input);
            return None;
        }
        debug_assert!(!buffer
            .queue
            .iter()
            .any(|e| e.seq < seq && !e.started && e.bypassed >= self.forwarding.max_bypass));
        let Some(pos) = buffer.queue.iter().position(|e| e.seq == seq) else {
            debug_assert!(false, "a waiting packet is in its input buffer");
            why.blocked_by(input);
            return None;
        };
        if buffer.queue[pos].eligible_at > now {
            why.eligible_at(buffer.queue[pos].eligible_at);
            return None;
        }
        Some(Candidate { seq, out, input, pos, lane, choice: None })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    /// The data lane's index (VL 0).
    const D: usize = Lane::VL0.index();

    impl<C> SwitchState<C> {
        /// Input `port`'s data lane (VL 0).
        fn lane_mut(&mut self, port: PortId) -> &mut InputLane {
            let at = self.at(port, D);
            &mut self.inputs[at]
        }

        /// Output `out`'s data lane (VL 0).
        fn out_mut(&mut self, out: PortId) -> &mut OutLane {
            let at = self.at(out, D);
            &mut self.outputs[at]
        }
    }

    /// One input holding, oldest first, packets for outputs 0, 1, 1; two outputs.
    fn switch(max_bypass: u32) -> SwitchState<()> {
        switch_with(max_bypass, &[0, 1, 1], BypassCounting::Head)
    }

    /// Packet `seq`, bound for `out`, eligible from time 0 and not yet started.
    fn waiting(seq: u64, out: PortId) -> Entry {
        Entry {
            packet: seq as u32,
            blocks: 33,
            out,
            seq,
            eligible_at: 0,
            bypassed: 0,
            started: false,
            arrived_at: 0,
            started_at: 0,
        }
    }

    /// One input holding, oldest first (seq 0, 1, ...), packets for the outputs `outs`; two outputs.
    fn switch_with(max_bypass: u32, outs: &[PortId], bypass_counting: BypassCounting) -> SwitchState<()> {
        let mut sw = empty(2, max_bypass, bypass_counting);
        for (seq, &out) in outs.iter().enumerate() {
            sw.admit(0, Lane::VL0, Arrival { packet: seq as PacketId, blocks: 33, out, eligible_at: 0, now: 0 });
        }
        sw
    }

    /// A switch of `ports` ports with empty buffers, one VL.
    fn empty(ports: usize, max_bypass: u32, bypass_counting: BypassCounting) -> SwitchState<()> {
        let forwarding = Forwarding {
            delay: 0,
            max_bypass,
            bypass_counting,
            input_transfers: 1,
            arbitration: Arbitration::OldestFirst,
        };
        let out_channels = (0..ports as ChannelId).collect();
        SwitchState::new(0, out_channels, vec![VlArbiter::default(); ports], 1, 132, forwarding, ())
    }

    #[test]
    fn a_younger_packet_may_bypass_until_the_oldest_reaches_the_limit() {
        let mut sw = switch(2);
        // Output 1's oldest waiting packet (seq 1) can go ahead of seq 0 (bound for output 0).
        let c = sw.first_startable(1, Lane::VL0, 0).unwrap();
        assert_eq!((c.seq, c.pos), (1, 1));
        // Two bypasses reach the limit of 2: now seq 0 blocks the buffer.
        sw.count_bypasses(0, D, 1);
        sw.count_bypasses(0, D, 1);
        assert!(sw.first_startable(1, Lane::VL0, 0).is_none());
        // The oldest packet itself may still go.
        assert_eq!(sw.first_startable(0, Lane::VL0, 0).map(|c| c.seq), Some(0));
        // With a limit of 0 nothing ever bypasses.
        let sw = switch(0);
        assert!(sw.first_startable(1, Lane::VL0, 0).is_none());
    }

    /// Two packets for a busy output 0 (seq 0, 1), then packets for output 1, limit 2. Packets 2 and 3 overtake both;
    /// then packet 0 leaves. Counting at the head only, packet 1 is a fresh head and packet 4 may overtake it; counting
    /// every packet, packet 1 was overtaken twice already and blocks the buffer (INFOCOM'03 footnote 6, docs/model.md §3).
    #[test]
    fn head_only_counting_starts_each_head_afresh() {
        for (counting, counts, next) in
            [(BypassCounting::Head, [2, 0], Some(4)), (BypassCounting::EachPacket, [2, 2], None)]
        {
            let mut sw = switch_with(2, &[0, 0, 1, 1, 1], counting);
            for pos in [2, 3] {
                assert_eq!(sw.first_startable(1, Lane::VL0, 0).map(|c| c.pos), Some(pos));
                sw.count_bypasses(0, D, pos);
                sw.lane_mut(0).mark_started(pos, 0, 2);
                sw.out_mut(1).waiting.remove(0);
            }
            let bypassed = [sw.lane_mut(0).queue[0].bypassed, sw.lane_mut(0).queue[1].bypassed];
            assert_eq!(bypassed, counts, "{counting:?}");
            assert!(sw.first_startable(1, Lane::VL0, 0).is_none(), "the head reached the limit");
            sw.lane_mut(0).mark_started(0, 0, 2);
            assert_eq!(sw.first_startable(1, Lane::VL0, 0).map(|c| c.seq), next, "{counting:?}");
        }
    }

    /// Three inputs with one packet each for output 0, arriving from input 2, then 0, then 1 (seq 0, 1, 2).
    fn three_inputs(arbitration: Arbitration) -> SwitchState<()> {
        let mut sw = empty(3, 4, BypassCounting::Head);
        for (seq, input) in [(0, 2), (1, 0), (2, 1)] {
            sw.lane_mut(input as PortId).queue.push(waiting(seq, 0));
            sw.out_mut(0).waiting.push(Waiting { seq, input: input as PortId, eligible_at: 0 });
        }
        sw.forwarding.arbitration = arbitration;
        sw
    }

    /// Oldest first serves the oldest packet whatever its input; round robin serves the first input, from the one
    /// whose turn it is, that has a packet able to go. (That the turn moves on after each start is checked end to
    /// end: core/tests/reproduction.rs, where every input gets its equal share.)
    #[test]
    fn round_robin_serves_the_inputs_in_turn() {
        let sw = three_inputs(Arbitration::OldestFirst);
        assert_eq!(sw.first_startable(0, Lane::VL0, 0).map(|c| (c.input, c.seq)), Some((2, 0)));
        let mut sw = three_inputs(Arbitration::RoundRobin);
        for (turn, input) in [(0, 0), (1, 1), (2, 2)] {
            sw.out_mut(0).next_input = turn;
            assert_eq!(sw.first_startable(0, Lane::VL0, 0).map(|c| c.input), Some(input), "turn {turn}");
        }
        // Input 1's turn, but its packet is still in its forwarding delay: input 2 goes, then (wrapping) input 0.
        sw.out_mut(0).next_input = 1;
        sw.lane_mut(1).queue[0].eligible_at = 10;
        assert_eq!(sw.first_startable(0, Lane::VL0, 0).map(|c| c.input), Some(2));
        sw.lane_mut(2).sending = 1;
        assert_eq!(sw.first_startable(0, Lane::VL0, 0).map(|c| c.input), Some(0));
        // Within an input, its oldest packet that can go: input 0 now holds seq 1 and seq 3.
        let mut second = sw.lane_mut(0).queue[0];
        second.seq = 3;
        sw.lane_mut(0).queue.push(second);
        sw.out_mut(0).waiting.push(Waiting { seq: 3, input: 0, eligible_at: 0 });
        sw.out_mut(0).next_input = 0;
        assert_eq!(sw.first_startable(0, Lane::VL0, 0).map(|c| c.seq), Some(1));
        sw.lane_mut(0).queue[0].eligible_at = 10;
        assert_eq!(sw.first_startable(0, Lane::VL0, 0).map(|c| c.seq), Some(3));
    }

    /// An output whose packets all wait behind busy inputs remembers why, and looks again once one of those inputs
    /// frees (a packet leaves) or a new packet arrives for it; inputs 3 and 67 share a bit of the memo's mask.
    #[test]
    fn an_output_blocked_by_busy_inputs_looks_again_when_one_frees() {
        let forwarding = Forwarding {
            delay: 0,
            max_bypass: 4,
            bypass_counting: BypassCounting::Head,
            input_transfers: 1,
            arbitration: Arbitration::OldestFirst,
        };
        let ports = 70;
        let out_channels = (0..ports as ChannelId).collect();
        let mut sw = SwitchState::new(0, out_channels, vec![VlArbiter::default(); ports], 1, 1_000, forwarding, ());
        let pool = PacketPool::default();
        let arrive = |sw: &mut SwitchState<()>, input: PortId, packet: PacketId, out: PortId| {
            sw.admit(input, Lane::VL0, Arrival { packet, blocks: 33, out, eligible_at: 0, now: 0 });
        };
        // Inputs 3 and 67 each send a packet on output 1, then hold one for output 0.
        arrive(&mut sw, 3, 0, 1);
        arrive(&mut sw, 67, 1, 1);
        for _ in 0..2 {
            let c = sw.first_startable(1, Lane::VL0, 0).expect("output 1's oldest");
            sw.start(&c, 0, &pool);
        }
        arrive(&mut sw, 3, 2, 0);
        arrive(&mut sw, 67, 3, 0);
        assert!(sw.first_startable(0, Lane::VL0, 10).is_none(), "both inputs are sending");
        assert!(sw.first_startable(0, Lane::VL0, 20).is_none(), "and still are");
        sw.depart(67, Lane::VL0, 1, 33);
        assert_eq!(sw.first_startable(0, Lane::VL0, 30).map(|c| c.input), Some(67), "input 67 is free");
        // A new packet from a free input clears the memo too.
        let c = sw.first_startable(0, Lane::VL0, 30).expect("input 67's");
        sw.start(&c, 30, &pool);
        assert!(sw.first_startable(0, Lane::VL0, 40).is_none());
        arrive(&mut sw, 5, 4, 0);
        assert_eq!(sw.first_startable(0, Lane::VL0, 40).map(|c| c.input), Some(5));
    }

    #[test]
    fn a_busy_input_or_a_packet_still_in_its_forwarding_delay_cannot_start() {
        let mut sw = switch(4);
        sw.lane_mut(0).queue[1].eligible_at = 50;
        sw.lane_mut(0).queue[2].eligible_at = 60;
        assert!(sw.first_startable(1, Lane::VL0, 49).is_none());
        assert_eq!(sw.first_startable(1, Lane::VL0, 50).map(|c| c.seq), Some(1));
        sw.lane_mut(0).sending = 1;
        assert!(sw.first_startable(0, Lane::VL0, 100).is_none());
    }
}
