//! GPCNeT's congestion-impact tests as message workloads (docs/gpcnet.md; netbench/GPCNET v1.3, commit c56fd95):
//! where its processes go, what its canaries and congestors do, and its statistics. Running them is
//! `sim::congestion_impact`. Line references: `NLT` network_load_test.c, `RR` random_ring.c, `COL` collectives.c,
//! `CG` congestors.c, `SC` subcomms.c, `UT` utils.c.

use super::collectives::{allreduce, barrier};
use super::program::{Op, Workload};
use crate::rng::Rng;
use crate::scenario::Transport;
use crate::time::Time;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// GPCNeT's fixed seed of its random rings (`RSEED`, network_test.h:26), plus the node slice.
const RSEED: u64 = 8_675_309;
/// The congestor nodes' share (`CONGESTOR_NODE_FRAC`, NLT:62).
pub const CONGESTOR_FRACTION: f64 = 0.8;
/// The congestors' message, 512 doubles (`A2A_MSG_COUNT`, `INCAST_MSG_COUNT`, `BCAST_MSG_COUNT`, NLT:49-58).
pub const CONGESTOR_BYTES: u32 = 4096;
/// The bandwidth canary's message, 16384 doubles (`BW_MSG_COUNT`, NLT:39), 8 outstanding (`BW_OUTSTANDING`).
pub const BANDWIDTH_BYTES: u32 = 131_072;
pub const BANDWIDTH_OUTSTANDING: u32 = 8;
/// The latency and allreduce canaries' message: one double.
pub const SMALL_BYTES: u32 = 8;

/// Signals: the congestors are loading the network; the canaries are done.
const WARM: u16 = 0;
const DONE: u16 = 1;

/// The three canary tests, in GPCNeT's order (NLT:666-668).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Canary {
    /// RR Two-sided Lat (8 B): exchanges with both ring neighbours (RR:141-178).
    Latency,
    /// RR Two-sided BW+Sync (131072 B): 8 messages each way to both neighbours, then a barrier (RR:325-377).
    Bandwidth,
    /// Multiple Allreduce (8 B) on the node slice (COL:89-139).
    Allreduce,
}

impl Canary {
    pub const ALL: [Canary; 3] = [Canary::Latency, Canary::Bandwidth, Canary::Allreduce];

    /// Its name in GPCNeT's table.
    pub fn name(self) -> &'static str {
        match self {
            Canary::Latency => "RR Two-sided Lat (8 B)",
            Canary::Bandwidth => "RR Two-sided BW+Sync (131072 B)",
            Canary::Allreduce => "Multiple Allreduce (8 B)",
        }
    }

    /// Its short name (`--json`, the CLI's `--canary`).
    pub fn id(self) -> &'static str {
        match self {
            Canary::Latency => "latency",
            Canary::Bandwidth => "bandwidth",
            Canary::Allreduce => "allreduce",
        }
    }

    pub fn units(self) -> &'static str {
        match self {
            Canary::Bandwidth => "MiB/s/rank",
            _ => "usec",
        }
    }

    /// Whether smaller is better (latencies: the 99th percentile counts from the bottom; UT:560).
    pub fn from_min(self) -> bool {
        self != Canary::Bandwidth
    }
}

/// The four congestors (NLT:670-673), each a quarter of the congestor nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Congestor {
    /// Pairwise exchanges with every other rank (CG:75-103).
    AllToAll,
    /// Every rank sends to the root, which receives from all (CG:22-45).
    Incast,
    /// Every rank puts to the root and flushes (CG:113-124).
    PutIncast,
    /// Every rank gets from the root and flushes (CG:126-137).
    GetBroadcast,
}

impl Congestor {
    pub const ALL: [Congestor; 4] =
        [Congestor::AllToAll, Congestor::Incast, Congestor::PutIncast, Congestor::GetBroadcast];

    pub fn name(self) -> &'static str {
        match self {
            Congestor::AllToAll => "all-to-all",
            Congestor::Incast => "incast",
            Congestor::PutIncast => "put incast",
            Congestor::GetBroadcast => "get broadcast",
        }
    }
}

/// How a GPCNeT run is set up. GPCNeT's own counts fill 10 s windows; simulating them packet by packet is out of
/// reach at 120 nodes, so each count is a parameter (docs/gpcnet.md §2.6). The defaults keep GPCNeT's structure at
/// a scale one run in the page finishes in seconds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct GpcnetConfig {
    /// Processes per node (GPCNeT's PPN; the PFT paper's PPort).
    pub processes_per_node: u32,
    /// The share of nodes that run congestors, rounded down (GPCNeT: 0.8).
    pub congestor_fraction: f64,
    /// Seeds the placement of canaries and congestors (GPCNeT: the clock).
    pub seed: u64,
    /// Measurements per canary test (GPCNeT: as many as 10 s allow).
    pub measurements: u32,
    /// Random rings per measurement (GPCNeT: 30).
    pub rings: u32,
    /// Untimed, then timed, exchanges per ring of the latency test (GPCNeT: 200 and 200).
    pub latency_warmup: u32,
    pub latency_iterations: u32,
    /// Untimed, then timed, iterations per ring of the bandwidth test (GPCNeT: 1 and 8).
    pub bandwidth_warmup: u32,
    pub bandwidth_iterations: u32,
    /// Untimed, then timed, allreduces per measurement (GPCNeT: 1 and 200).
    pub allreduce_warmup: u32,
    pub allreduce_iterations: u32,
    /// Operations each congestor completes before the canaries start (GPCNeT: one whole call, 256 × 513).
    pub congestor_warmup: u32,
    /// Two-sided messages up to this size go eagerly (docs/workload.md).
    pub eager_bytes: u32,
    /// Software overhead of each post, in nanoseconds (docs/workload.md).
    pub overhead_ns: u64,
    /// Simulated time a run may take before it is called off, in nanoseconds (GPCNeT's own limit is 10 s of
    /// wall-clock time per test).
    pub time_limit_ns: u64,
    /// How the queue pairs are connected (GPCNeT's MPI: reliable; unreliable for the HP proposal's CN packets).
    #[serde(skip_serializing_if = "Transport::is_reliable")]
    pub transport: Transport,
    /// The canaries' service level (the congestors keep 0): with `virtual_lanes` mapping it to a VL of its own, the
    /// canaries are isolated from the congestors' buffers (0: they share).
    #[serde(skip_serializing_if = "is_zero")]
    pub canary_service_level: u8,
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

impl GpcnetConfig {
    /// The untimed, then timed, iterations of `canary` (per ring, or per measurement for the allreduce).
    pub fn iterations(&self, canary: Canary) -> (u32, u32) {
        match canary {
            Canary::Latency => (self.latency_warmup, self.latency_iterations),
            Canary::Bandwidth => (self.bandwidth_warmup, self.bandwidth_iterations),
            Canary::Allreduce => (self.allreduce_warmup, self.allreduce_iterations),
        }
    }
}

impl Default for GpcnetConfig {
    fn default() -> Self {
        Self {
            processes_per_node: 1,
            congestor_fraction: CONGESTOR_FRACTION,
            seed: 1,
            measurements: 1,
            rings: 4,
            latency_warmup: 5,
            latency_iterations: 20,
            bandwidth_warmup: 1,
            bandwidth_iterations: 2,
            allreduce_warmup: 1,
            allreduce_iterations: 20,
            congestor_warmup: 4,
            eager_bytes: super::program::DEFAULT_EAGER_BYTES,
            overhead_ns: 0,
            time_limit_ns: 1_000_000_000,
            transport: Transport::Reliable,
            canary_service_level: 0,
        }
    }
}

/// Which nodes run what: the canary nodes and each congestor's nodes, in GPCNeT's communicator order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placement {
    pub canaries: Vec<u32>,
    /// Per congestor, in [`Congestor::ALL`]'s order; its first node is its root.
    pub congestors: [Vec<u32>; 4],
}

/// GPCNeT's shuffle (UT:285-297): `j = rand() % i`, so every element moves (Sattolo's single cycle).
fn shuffle(list: &mut [u32], rng: &mut Rng) {
    for i in (1..list.len()).rev() {
        let j = rng.below(i as u64) as usize;
        list.swap(i, j);
    }
}

/// GPCNeT's placement of `nodes` nodes (SC:22-51, NLT:530-573): a shuffled node list, the first
/// `floor(fraction · nodes)` congestors and the rest canaries; each congestor node gets the colour of a second
/// shuffle of their positions, modulo 4 (one stream, not reseeded, as GPCNeT's `rand()`).
pub fn placement(nodes: usize, fraction: f64, seed: u64) -> Result<Placement, String> {
    if !(0.0..1.0).contains(&fraction) {
        return Err(format!("the congestor share must be at least 0 and below 1, not {fraction}"));
    }
    let congestor_nodes = libm::floor(fraction * nodes as f64) as usize;
    let canary_nodes = nodes - congestor_nodes;
    if canary_nodes < 2 || (congestor_nodes > 0 && congestor_nodes < 2 * Congestor::ALL.len()) {
        return Err(format!(
            "GPCNeT needs at least 2 canary nodes and 8 congestor nodes (or none): {nodes} nodes at a congestor share \
             of {fraction} give {canary_nodes} and {congestor_nodes}"
        ));
    }
    let mut rng = Rng::new(seed, 0x4750_434E);
    let mut all: Vec<u32> = (0..nodes as u32).collect();
    shuffle(&mut all, &mut rng);
    let mut colours: Vec<u32> = (0..congestor_nodes as u32).collect();
    shuffle(&mut colours, &mut rng);
    let mut congestors: [Vec<u32>; 4] = Default::default();
    for (i, &node) in all[..congestor_nodes].iter().enumerate() {
        congestors[colours[i] as usize % 4].push(node);
    }
    Ok(Placement { canaries: all[congestor_nodes..].to_vec(), congestors })
}

/// One GPCNeT run as a workload: `canary` on the canary nodes, alone (`congested` false, the isolated run) or with
/// the congestors loading the network. `hosts` are the nodes' host names; process `node · ppn + k` is rank `k` of
/// `node` (block placement), and every test runs once per node slice `k` (SC:53-126).
pub fn workload(
    hosts: &[String],
    config: &GpcnetConfig,
    place: &Placement,
    canary: Canary,
    congested: bool,
) -> Result<Workload, String> {
    let ppn = config.processes_per_node;
    if ppn == 0 || ppn > 64 {
        return Err(format!("processes per node must be 1 to 64, not {ppn}"));
    }
    let mut w = Workload::new(super::program::place(hosts, ppn));
    w.eager_bytes = config.eager_bytes;
    w.overhead_ns = config.overhead_ns;
    w.groups = vec![String::from("idle"); w.hosts.len()];
    w.transport = config.transport;
    let rank = |node: u32, k: u32| node * ppn + k;
    let all_canaries: Vec<u32> = place.canaries.iter().flat_map(|&n| (0..ppn).map(move |k| rank(n, k))).collect();
    let congestor_processes: u32 =
        if congested { place.congestors.iter().map(|g| g.len() as u32).sum::<u32>() * ppn } else { 0 };
    if config.canary_service_level != 0 {
        w.service_levels = vec![0; w.hosts.len()];
    }
    for &p in &all_canaries {
        w.groups[p as usize] = String::from("canary");
        if config.canary_service_level != 0 {
            w.service_levels[p as usize] = config.canary_service_level;
        }
        if congested {
            // Released once every congestor has loaded the network (NLT:180-182, 418-428).
            w.programs[p as usize].push(Op::Await { id: WARM, count: congestor_processes });
        }
    }
    let slices: Vec<Vec<u32>> = (0..ppn).map(|k| place.canaries.iter().map(|&n| rank(n, k)).collect()).collect();
    canary_programs(&mut w.programs, config, canary, &slices, &all_canaries);
    for &p in &all_canaries {
        w.programs[p as usize].push(Op::Signal { id: DONE });
    }
    w.ends_at_signal = Some((DONE, all_canaries.len() as u32));
    if congested {
        for (congestor, nodes) in Congestor::ALL.into_iter().zip(&place.congestors) {
            for k in 0..ppn {
                let ranks: Vec<u32> = nodes.iter().map(|&n| rank(n, k)).collect();
                for &p in &ranks {
                    w.groups[p as usize] = String::from(congestor.name());
                }
                congestor_programs(&mut w.programs, config, congestor, &ranks, all_canaries.len() as u32);
            }
        }
    }
    Ok(w)
}

/// The canary test's programs: `slices[k]` is node slice `k`'s ranks in rank order, `global` every canary rank.
/// Each slice runs its own copy of the test; the collectives over `global` bind them together.
fn canary_programs(programs: &mut [Vec<Op>], c: &GpcnetConfig, canary: Canary, slices: &[Vec<u32>], global: &[u32]) {
    for _ in 0..c.measurements {
        // Each measurement starts with the timeout check, an allreduce over every canary rank (RR:60, COL:110).
        allreduce(programs, global, SMALL_BYTES);
        if canary == Canary::Allreduce {
            for slice in slices {
                let pass = |programs: &mut [Vec<Op>], timed: bool| {
                    for &p in slice {
                        programs[p as usize].push(Op::Clock);
                    }
                    allreduce(programs, slice, SMALL_BYTES);
                    if timed {
                        for &p in slice {
                            programs[p as usize].push(Op::Sample { series: 0 });
                        }
                    }
                };
                let (warmup, iterations) = c.iterations(Canary::Allreduce);
                repeat(programs, slice, warmup, |programs| pass(programs, false));
                repeat(programs, slice, iterations, |programs| pass(programs, true));
            }
            continue;
        }
        // The same rings in every measurement: each slice's stream is reseeded with RSEED + slice at ring 0 (RR:68).
        let mut rngs: Vec<Rng> = (0..slices.len()).map(|k| Rng::new(RSEED + k as u64, 0x5252)).collect();
        for _ in 0..c.rings {
            barrier(programs, global);
            for (slice, rng) in slices.iter().zip(&mut rngs) {
                ring_pass(programs, c, canary, slice, rng);
            }
        }
    }
    if canary == Canary::Allreduce {
        barrier(programs, global);
    }
}

/// One ring of the latency or bandwidth test on one node slice: a shuffle of its ranks, then the untimed and the
/// timed iterations with both neighbours (RR:141-178, 325-377), then a barrier over the slice.
fn ring_pass(programs: &mut [Vec<Op>], c: &GpcnetConfig, canary: Canary, slice: &[u32], rng: &mut Rng) {
    let n = slice.len();
    let mut ring: Vec<u32> = (0..n as u32).collect();
    shuffle(&mut ring, rng);
    let (warmup, iterations) = c.iterations(canary);
    let (count, bytes) = match canary {
        Canary::Latency => (1, SMALL_BYTES),
        _ => (BANDWIDTH_OUTSTANDING, BANDWIDTH_BYTES),
    };
    for timed in [false, true] {
        let times = if timed { iterations } else { warmup };
        if times == 0 {
            continue;
        }
        for (at, &r) in ring.iter().enumerate() {
            let me = slice[r as usize];
            let left = slice[ring[(at + n - 1) % n] as usize];
            let right = slice[ring[(at + 1) % n] as usize];
            let program = &mut programs[me as usize];
            program.push(Op::Repeat { times });
            if timed {
                program.push(Op::Clock);
            }
            for _ in 0..count {
                program.extend([Op::Recv { from: left }, Op::Recv { from: right }]);
            }
            for _ in 0..count {
                program.extend([Op::Send { to: left, bytes }, Op::Send { to: right, bytes }]);
            }
            program.push(Op::Wait);
        }
        if canary == Canary::Bandwidth {
            // BW+Sync: a barrier over the slice inside the timed region (RR:357).
            barrier(programs, slice);
        }
        for &me in slice {
            if timed {
                programs[me as usize].push(Op::Sample { series: 0 });
            }
            programs[me as usize].push(Op::End);
        }
    }
    barrier(programs, slice);
}

/// `body` written `times` times as a loop on each of `ranks`' programs (nothing if `times` is 0).
fn repeat(programs: &mut [Vec<Op>], ranks: &[u32], times: u32, body: impl FnOnce(&mut [Vec<Op>])) {
    if times == 0 {
        return;
    }
    for &p in ranks {
        programs[p as usize].push(Op::Repeat { times });
    }
    body(programs);
    for &p in ranks {
        programs[p as usize].push(Op::End);
    }
}

/// One congestor's programs for one node slice (`ranks`, the root first): its operation `congestor_warmup` times,
/// a signal, then again until every one of `canaries` canary ranks is done.
fn congestor_programs(programs: &mut [Vec<Op>], c: &GpcnetConfig, congestor: Congestor, ranks: &[u32], canaries: u32) {
    let n = ranks.len();
    let operation = |programs: &mut [Vec<Op>]| match congestor {
        Congestor::AllToAll => {
            let pof2 = n.is_power_of_two();
            for (me, &p) in ranks.iter().enumerate() {
                // i = 0 is a rank's exchange with itself, a copy in its memory.
                for i in 1..n {
                    let (dst, src) = if pof2 { (me ^ i, me ^ i) } else { ((me + i) % n, (me + n - i) % n) };
                    programs[p as usize].extend([
                        Op::Recv { from: ranks[src] },
                        Op::Send { to: ranks[dst], bytes: CONGESTOR_BYTES },
                        Op::Wait,
                    ]);
                }
            }
        }
        Congestor::Incast => {
            let root = ranks[0];
            for &p in &ranks[1..] {
                programs[root as usize].push(Op::Recv { from: p });
                programs[p as usize].extend([Op::Send { to: root, bytes: CONGESTOR_BYTES }, Op::Wait]);
            }
            programs[root as usize].push(Op::Wait);
        }
        Congestor::PutIncast => {
            for &p in &ranks[1..] {
                programs[p as usize].extend([Op::Put { to: ranks[0], bytes: CONGESTOR_BYTES }, Op::Wait]);
            }
        }
        Congestor::GetBroadcast => {
            for &p in &ranks[1..] {
                programs[p as usize].extend([Op::Get { from: ranks[0], bytes: CONGESTOR_BYTES }, Op::Wait]);
            }
        }
    };
    // The one-sided roots do nothing themselves (their NIC answers): they only say they are ready.
    let one_sided = matches!(congestor, Congestor::PutIncast | Congestor::GetBroadcast);
    let active = if one_sided { &ranks[1..] } else { ranks };
    repeat(programs, active, c.congestor_warmup, operation);
    for &p in ranks {
        programs[p as usize].push(Op::Signal { id: WARM });
    }
    for &p in active {
        programs[p as usize].push(Op::RepeatUntil { id: DONE, count: canaries });
    }
    operation(programs);
    for &p in active {
        programs[p as usize].push(Op::End);
    }
}

/// A canary test's figures, as GPCNeT prints them (UT:505-668).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CanaryFigures {
    /// The grand mean: per ring (or, for the allreduce, per process) the total over its iterations, averaged across
    /// the canary ranks, then over rings and measurements.
    pub avg: f64,
    /// The 99th percentile from GPCNeT's 100,000-bucket histogram of every sample (for bandwidth, counted from the
    /// top: the slow tail, still labelled "99%").
    pub p99: f64,
    pub min: f64,
    pub max: f64,
    /// Samples pooled.
    pub samples: usize,
    /// Each canary process's own value over all its samples (its mean latency, or its bytes over its time), in
    /// process order: the PFT paper's Figs. 3 and 4 count processes by these.
    pub per_process: Vec<f64>,
}

/// The figures of `canary` from each canary process's samples (`per_process[i]`: its timed samples in order,
/// picoseconds), with `iterations` samples per ring (`rings` per measurement; the allreduce has no rings).
pub fn figures(canary: Canary, per_process: &[&[Time]], iterations: u32) -> Option<CanaryFigures> {
    // One sample in GPCNeT's units: half an exchange in µs, 2 MiB over the iteration in MiB/s, an allreduce in µs.
    let value = |t: Time| match canary {
        Canary::Latency => t as f64 / 2e6,
        Canary::Bandwidth => {
            let mib = f64::from(BANDWIDTH_BYTES) * 2.0 * f64::from(BANDWIDTH_OUTSTANDING) / (1024.0 * 1024.0);
            mib / (t as f64 * 1e-12)
        }
        Canary::Allreduce => t as f64 / 1e6,
    };
    let all: Vec<f64> = per_process.iter().flat_map(|s| s.iter().map(|&t| value(t))).collect();
    if all.is_empty() || iterations == 0 {
        return None;
    }
    // A process's value over some of its samples: the mean (latencies), or the bytes over the time (bandwidth).
    let over = |c: &[Time]| {
        let total: Time = c.iter().sum();
        match canary {
            Canary::Bandwidth => value(total) * c.len() as f64,
            _ => value(total) / c.len() as f64,
        }
    };
    // Per value index (ring, or the whole run for the allreduce): each process's value over its iterations.
    let per_ring = |samples: &[Time]| -> Vec<f64> {
        let block = if canary == Canary::Allreduce { samples.len().max(1) } else { iterations as usize };
        samples.chunks(block).map(over).collect()
    };
    let rings: Vec<Vec<f64>> = per_process.iter().map(|s| per_ring(s)).collect();
    let values = rings.iter().map(Vec::len).max().unwrap_or(0);
    let mut avg = 0.0;
    for i in 0..values {
        let (sum, count) = rings
            .iter()
            .filter_map(|r| r.get(i).filter(|&&v| v > 0.0))
            .fold((0.0, 0usize), |(s, n), &v| (s + v, n + 1));
        avg += sum / count.max(1) as f64;
    }
    avg /= values.max(1) as f64;
    let (min, max) = all.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)));
    let per_process = per_process.iter().filter(|s| !s.is_empty()).map(|s| over(s)).collect();
    Some(CanaryFigures {
        avg,
        p99: percentile_99(&all, min, max, canary.from_min()),
        min,
        max,
        samples: all.len(),
        per_process,
    })
}

/// GPCNeT's 99th percentile (UT:518-590): 100,000 buckets of width `(max - min) / 99,999` from `min`; the bucket
/// where the count from the bottom (`from_min`) or from the top first reaches `floor(0.99 · n)`, at its upper or its
/// lower edge. (Every sample equal: GPCNeT divides by zero; that value is the answer.)
fn percentile_99(values: &[f64], min: f64, max: f64, from_min: bool) -> f64 {
    const BUCKETS: usize = 100_000;
    let width = (max - min) / (BUCKETS - 1) as f64;
    if width <= 0.0 {
        return min;
    }
    let mut buckets: Vec<usize> =
        values.iter().map(|&v| ((v - min) / width) as usize).filter(|&b| b < BUCKETS).collect();
    let target = (0.99 * buckets.len() as f64) as usize;
    if from_min {
        buckets.sort_unstable();
        let j = if target == 0 { 0 } else { buckets[target - 1] };
        min + (j + 1) as f64 * width
    } else {
        buckets.sort_unstable_by(|a, b| b.cmp(a));
        let j = if target == 0 { BUCKETS - 1 } else { buckets[target - 1] };
        min + j as f64 * width
    }
}

/// GPCNeT's congestion impact factor (UT:381-413): congested over isolated for latencies, isolated over congested
/// for bandwidth, each first printed with one decimal and read back, and the factor printed with one decimal.
pub fn impact(canary: Canary, isolated: f64, congested: f64) -> f64 {
    let round1 = |v: f64| libm::round(v * 10.0) / 10.0;
    round1(slowdown(canary, round1(isolated), round1(congested)))
}

/// How many times worse `congested` is than `isolated`, unrounded: congested over isolated for latencies, isolated
/// over congested for bandwidth ([`impact`] is this of GPCNeT's rounded figures, rounded).
pub fn slowdown(canary: Canary, isolated: f64, congested: f64) -> f64 {
    if canary.from_min() {
        congested / isolated
    } else {
        isolated / congested
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_splits_as_gpcnet_does() {
        let p = placement(120, CONGESTOR_FRACTION, 7).unwrap();
        assert_eq!(p.canaries.len(), 24);
        let sizes: Vec<usize> = p.congestors.iter().map(Vec::len).collect();
        assert_eq!(sizes, [24, 24, 24, 24]);
        let mut all: Vec<u32> = p.canaries.iter().chain(p.congestors.iter().flatten()).copied().collect();
        all.sort_unstable();
        assert_eq!(all, (0..120).collect::<Vec<_>>(), "every node once");
        assert_eq!(placement(120, CONGESTOR_FRACTION, 7).unwrap(), p, "the seed decides");
        assert_ne!(placement(120, CONGESTOR_FRACTION, 8).unwrap(), p);
        // 97 congestor nodes: groups of 25, 24, 24, 24 in some order.
        let p = placement(122, CONGESTOR_FRACTION, 1).unwrap();
        let mut sizes: Vec<usize> = p.congestors.iter().map(Vec::len).collect();
        sizes.sort_unstable();
        assert_eq!(sizes, [24, 24, 24, 25]);
        assert!(placement(9, CONGESTOR_FRACTION, 1).unwrap_err().contains("at least 2 canary nodes and 8 congestor"));
        assert_eq!(placement(10, 0.0, 1).unwrap().canaries.len(), 10);
    }

    #[test]
    fn the_shuffle_moves_every_element() {
        let mut rng = Rng::new(3, 0);
        let mut list: Vec<u32> = (0..50).collect();
        shuffle(&mut list, &mut rng);
        assert!(list.iter().enumerate().all(|(i, &v)| i as u32 != v), "Sattolo: one cycle, no fixed point");
    }

    #[test]
    fn the_percentile_follows_gpcnets_buckets() {
        // 100 values 1..=100: floor(0.99 · 100) = 99 from the bottom is the bucket of 99, at its upper edge.
        let v: Vec<f64> = (1..=100).map(f64::from).collect();
        let width = 99.0 / 99_999.0;
        let bucket = |x: f64| ((x - 1.0) / width) as usize;
        assert_eq!(percentile_99(&v, 1.0, 100.0, true), 1.0 + (bucket(99.0) + 1) as f64 * width);
        // From the top, 99 values down is the bucket of 2, at its lower edge.
        assert_eq!(percentile_99(&v, 1.0, 100.0, false), 1.0 + bucket(2.0) as f64 * width);
        assert_eq!(percentile_99(&[5.0; 10], 5.0, 5.0, true), 5.0);
    }

    #[test]
    fn impact_rounds_as_gpcnet_prints() {
        assert_eq!(impact(Canary::Latency, 1.04, 1.16), 1.2, "1.0 and 1.2 printed, then 1.2X");
        assert_eq!(impact(Canary::Bandwidth, 9000.0, 3000.0), 3.0);
        assert_eq!(impact(Canary::Latency, 2.0, 2.0), 1.0);
    }

    #[test]
    fn figures_average_rings_then_processes() {
        // Two processes, two rings of two samples: latency is half an exchange, in µs.
        let a: [Time; 4] = [2_000_000, 2_000_000, 4_000_000, 4_000_000];
        let b: [Time; 4] = [2_000_000, 2_000_000, 8_000_000, 8_000_000];
        let f = figures(Canary::Latency, &[&a, &b], 2).unwrap();
        // Ring 0: 1 µs for both; ring 1: 2 and 4 µs, mean 3: the grand mean is 2.
        assert_eq!(f.avg, 2.0);
        assert_eq!((f.min, f.max, f.samples), (1.0, 4.0, 8));
        assert_eq!(f.per_process, [1.5, 2.5], "each process's mean over both rings");
        // Bandwidth per ring is the bytes over the total time: 2 MiB in 1 µs and in 3 µs give 2e6/1 and 2e6/3 MiB/s
        // with two samples each, so 4 MiB over 4 µs is 1e6 MiB/s.
        let c: [Time; 2] = [1_000_000, 3_000_000];
        let f = figures(Canary::Bandwidth, &[&c], 2).unwrap();
        assert!((f.avg - 1e6).abs() < 1e-6, "{}", f.avg);
    }
}
