//! The scenario format: plain data describing a network, its flows, its congestion control and what to measure.
//!
//! This is a public contract (share links, the CLI and the tests depend on it), documented field by field in
//! `docs/scenario.md`. It is versioned: `format` is always `"ibcc-scenario"` and `version` is [`VERSION`]; older
//! versions are upgraded as they are read, keeping their meaning (see [`Scenario::upgrade`]). Parsing refuses unknown
//! fields so a typo is an error, not a silently ignored setting; [`Scenario::validate`] then checks everything the
//! types cannot (references, topology, ranges, limits) and names the offending element and field.

mod blocks;
mod cct;
pub use blocks::{pft_turned_on, switch_word, within, BLOCKS, PFT_VARIANTS};
mod companions;
pub use companions::{DEFAULT_HYBRID_WINDOW, DEFAULT_OUTPUT_THRESHOLD};
mod error;
mod fabric_block;
mod json;
pub use json::{from_value, pretty_json, to_value};
mod path;
mod routing;
pub use fabric_block::{link_ports, network, scenario_of, FabricBlock};
pub use routing::{Routing, RoutingEngine, SpareLanes};
pub mod share_link;
pub use path::Settings;
mod validate;

pub(crate) use error::Quoted;
pub use error::{Element, Problem, ScenarioError};
pub(crate) use validate::Compiled;
pub use validate::{CreditLoop, Limits, LinkCycle, LIMITS};

// The blocks each mechanism owns, re-exported so the format reads as one (the layers below never import this).
pub use crate::cc::ibcc::IbCcConfig;
pub use crate::cc::marking::{Cnt1Until, FullCheck, Marking, MarkingPolicy};
pub use crate::cc::pft::PftConfig;
pub use crate::cc::response::ResponseFunction;
pub use crate::cc::source::{RateMode, Response, Source, SourceOverride};
pub use crate::net::host::AckCoalescing;
pub use crate::net::switch::{Arbitration, BypassCounting};
pub use crate::net::vl::{VirtualLanes, VlArbitration, VlWeight};
use crate::nullable::present_or_null;

use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Deserializer, Serialize};

/// The value of the `format` field.
pub const FORMAT: &str = "ibcc-scenario";
/// The scenario format version this build writes. It reads this one and every older one (upgraded as read).
pub const VERSION: u32 = 3;

/// A complete scenario.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
// The derived code becomes inherent functions; the trait impls below wrap them (deserializing also upgrades).
#[serde(remote = "Self", deny_unknown_fields)]
pub struct Scenario {
    /// Always [`FORMAT`].
    pub format: String,
    /// [`VERSION`] once read (an older version is upgraded as it is read).
    pub version: u32,
    #[serde(default)]
    pub name: String,
    /// Free text: what the scenario shows.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Seed of every random choice (ON/OFF times, random throttling).
    #[serde(default = "one_u64")]
    pub seed: u64,
    /// Simulated time to run, in nanoseconds.
    pub duration_ns: u64,
    #[serde(default)]
    pub packet: PacketConfig,
    /// Defaults for every switch; a node may override them.
    #[serde(default)]
    pub switch: SwitchConfig,
    /// Defaults for every link; a link may override them.
    #[serde(default)]
    pub link: LinkConfig,
    pub nodes: Vec<Node>,
    #[serde(default)]
    pub links: Vec<Link>,
    /// Who fills the switches' forwarding tables (absent: OpenSM's minhop).
    #[serde(default, skip_serializing_if = "Routing::is_default")]
    pub routing: Routing,
    /// The real fabric this network is (its file, for routing as OpenSM routes it); absent for a drawn network.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fabric: Option<FabricBlock>,
    #[serde(default)]
    pub flows: Vec<Flow>,
    #[serde(default)]
    pub marking: Marking,
    /// Defaults for every flow's source; a flow may override them.
    #[serde(default)]
    pub source: Source,
    #[serde(default)]
    pub measure: Measure,
    /// Proactive Flow Throttling at every host NIC (absent: off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pft: Option<PftConfig>,
    /// InfiniBand Annex A10 congestion control in every switch and source (absent: off).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ib_cc: Option<IbCcConfig>,
    /// ACK coalescing at every destination (absent: every data packet is ACKed on its own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ack_coalescing: Option<AckCoalescing>,
    /// Data virtual lanes on every port, the SL-to-VL table and VL arbitration (absent: one data VL).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub virtual_lanes: Option<VirtualLanes>,
}

fn one_u64() -> u64 {
    1
}

impl Serialize for Scenario {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Scenario::serialize(self, serializer)
    }
}

impl<'de> Deserialize<'de> for Scenario {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut s = Scenario::deserialize(deserializer)?;
        s.upgrade();
        Ok(s)
    }
}

/// Packet sizes (INFOCOM'03 Table I).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PacketConfig {
    pub payload_bytes: u32,
    pub header_bytes: u32,
    pub ack_bytes: u32,
}

impl Default for PacketConfig {
    fn default() -> Self {
        Self { payload_bytes: 2048, header_bytes: 20, ack_bytes: 20 }
    }
}

impl PacketConfig {
    /// Bytes of a data packet on the wire.
    pub fn data_bytes(&self) -> u32 {
        self.payload_bytes.saturating_add(self.header_bytes)
    }
}

/// Switch parameters (INFOCOM'03 Table I, footnote 6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SwitchConfig {
    /// Input buffer per port (data lane), in maximum-size data packets.
    pub buffer_packets: u32,
    /// Minimum time from a packet's head arriving to its head leaving (cut-through), in nanoseconds.
    pub forwarding_delay_ns: u64,
    /// How many times the oldest packet of an input buffer may be bypassed before it blocks the buffer.
    pub max_bypass: u32,
    /// Which packets count the times they are bypassed.
    pub bypass_counting: BypassCounting,
    /// How many packets one input buffer (per lane) may send through the crossbar at the same time; `None`: no
    /// limit. The papers do not say; their results need no limit (docs/reproduction.md), so that is the default.
    /// 1 is a classic input-queued crossbar, where an input reads one packet at a time.
    pub input_transfers: Option<u32>,
    /// How an output chooses among the input buffers that have a packet for it.
    pub arbitration: Arbitration,
}

impl Default for SwitchConfig {
    fn default() -> Self {
        Self {
            buffer_packets: 4,
            forwarding_delay_ns: 40,
            max_bypass: 4,
            bypass_counting: BypassCounting::Head,
            input_transfers: None,
            arbitration: Arbitration::OldestFirst,
        }
    }
}

/// Per-switch overrides of [`SwitchConfig`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SwitchOverride {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buffer_packets: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub forwarding_delay_ns: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_bypass: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bypass_counting: Option<BypassCounting>,
    /// `null` here means "no limit" for this switch.
    #[serde(deserialize_with = "present_or_null", skip_serializing_if = "Option::is_none")]
    pub input_transfers: Option<Option<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arbitration: Option<Arbitration>,
}

impl SwitchConfig {
    /// These defaults with `o`'s overrides applied.
    pub fn with(&self, o: Option<&SwitchOverride>) -> Self {
        let Some(o) = o else { return *self };
        Self {
            buffer_packets: o.buffer_packets.unwrap_or(self.buffer_packets),
            forwarding_delay_ns: o.forwarding_delay_ns.unwrap_or(self.forwarding_delay_ns),
            max_bypass: o.max_bypass.unwrap_or(self.max_bypass),
            bypass_counting: o.bypass_counting.unwrap_or(self.bypass_counting),
            input_transfers: o.input_transfers.unwrap_or(self.input_transfers),
            arbitration: o.arbitration.unwrap_or(self.arbitration),
        }
    }
}

/// Link parameters. The papers' "1 GB/s InfiniBand 4X" link is 8 Gb/s; they give no propagation delay.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LinkConfig {
    pub bandwidth_gbps: f64,
    pub propagation_ns: u64,
}

impl Default for LinkConfig {
    fn default() -> Self {
        Self { bandwidth_gbps: 8.0, propagation_ns: 0 }
    }
}

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeKind {
    Switch,
    Host,
}

/// A switch or a host. Hosts have exactly one link; only switches forward.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Node {
    pub id: String,
    pub kind: NodeKind,
    /// Overrides of the scenario's `switch` block (switches only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub switch: Option<SwitchOverride>,
    /// Position on the playground canvas (layout only; no effect on the simulation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub x: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub y: Option<f64>,
}

/// A full-duplex link between two nodes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Link {
    pub a: String,
    pub b: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bandwidth_gbps: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub propagation_ns: Option<u64>,
    /// VL arbitration at both ends of this link (absent: `virtual_lanes.arbitration`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub vl_arbitration: Option<VlArbitration>,
}

impl Link {
    /// A link between nodes `a` and `b` with the scenario's bandwidth, propagation delay and VL arbitration.
    pub fn between(a: &str, b: &str) -> Self {
        Self { a: a.into(), b: b.into(), bandwidth_gbps: None, propagation_ns: None, vl_arbitration: None }
    }
}

impl Flow {
    /// A greedy flow `id` from host `src` to host `dst`, in no group, from time 0 to the end, reliable, SL 0, with
    /// the scenario's source response: set the fields that differ with `Flow { group: .., ..Flow::new(..) }`.
    pub fn new(id: &str, src: &str, dst: &str) -> Self {
        Self {
            id: id.into(),
            src: src.into(),
            dst: dst.into(),
            group: String::new(),
            start_ns: 0,
            stop_ns: None,
            traffic: Traffic::Greedy,
            source: None,
            transport: Transport::Reliable,
            sl: 0,
        }
    }
}

/// How a flow offers traffic.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Traffic {
    /// Always has a packet to send (INFOCOM'03 §III: "all flows are greedy").
    #[default]
    Greedy,
    /// Alternating exponentially distributed ON (greedy) and OFF (silent) periods (INFOCOM'03 §VI-B.2).
    OnOff { mean_on_ns: u64, mean_off_ns: u64 },
}

/// A flow of data packets from one host to another.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flow {
    pub id: String,
    pub src: String,
    pub dst: String,
    /// Flows with the same group are aggregated in the results ("remote", "local", "victim").
    #[serde(default)]
    pub group: String,
    #[serde(default)]
    pub start_ns: u64,
    /// `null`: to the end of the run.
    #[serde(default)]
    pub stop_ns: Option<u64>,
    #[serde(default)]
    pub traffic: Traffic,
    /// Overrides of the scenario's `source` block for this flow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<SourceOverride>,
    /// How its packets are acknowledged (absent: reliable).
    #[serde(default, skip_serializing_if = "Transport::is_reliable")]
    pub transport: Transport,
    /// Its service level, 0 to 15: `virtual_lanes.sl_to_vl` gives its VL.
    #[serde(default, skip_serializing_if = "is_zero_u8")]
    pub sl: u8,
}

fn is_zero_u8(v: &u8) -> bool {
    *v == 0
}

/// How a flow's packets are acknowledged: the HP slides' table of transports ("Implementation for Different
/// Transports").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Transport {
    /// Reliable connection: every data packet is acknowledged, the window limits what is outstanding, and the
    /// ACKs echo the ECN bit (window, rate and general state, per flow).
    #[default]
    Reliable,
    /// Unreliable (and RDMA read responses): no ACKs, so no window; a marked packet makes its destination send a
    /// CN packet to the source, which decreases its rate (rate and general state only).
    Unreliable,
}

impl Transport {
    pub fn is_reliable(&self) -> bool {
        *self == Transport::Reliable
    }
}

/// What to measure (docs/model.md §9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Measure {
    /// Utilization, throughput and delay count from this time (the papers: the last 400 ms of 500 ms).
    pub from_ns: u64,
    /// ... until this time; `null`: to the end of the run (INFOCOM'03 Figs. 2-4 quote the victim's 40-60 ms).
    pub to_ns: Option<u64>,
    /// Width of the sliding window of the link-rate series, centred on each sample (the papers: 2 ms).
    pub window_ns: u64,
    /// Spacing of the rate-series samples; `null`: a twentieth of the window.
    pub sample_ns: Option<u64>,
}

impl Default for Measure {
    fn default() -> Self {
        Self { from_ns: 0, to_ns: None, window_ns: 2_000_000, sample_ns: None }
    }
}

impl Measure {
    /// The sample spacing in effect.
    pub fn sample_ns(&self) -> u64 {
        self.sample_ns.unwrap_or(self.window_ns / 20).max(1)
    }

    /// Where the measurement interval ends in a run of `duration_ns`: `to_ns`, at most the run's end.
    pub fn until_ns(&self, duration_ns: u64) -> u64 {
        self.to_ns.map_or(duration_ns, |t| t.min(duration_ns))
    }
}

impl Flow {
    /// The part of `[from_ns, to_ns)` this flow ran in (from its start to its stop), when shorter than the interval
    /// (by over 1%): see [`Scenario::group_ran_within`].
    pub fn ran_within(&self, from_ns: f64, to_ns: f64) -> Option<(f64, f64)> {
        part_of(self.ran(from_ns, to_ns), from_ns, to_ns)
    }

    /// The part of `[from_ns, to_ns)` from its start to its stop (empty, at its start, if it ran in none of it).
    fn ran(&self, from_ns: f64, to_ns: f64) -> (f64, f64) {
        let a = (self.start_ns as f64).max(from_ns);
        let b = self.stop_ns.map_or(to_ns, |t| (t as f64).min(to_ns));
        (a, b.max(a))
    }
}

/// `span` if it is a part of `[from_ns, to_ns)` worth saying: not empty, and shorter than the interval by over 1%.
fn part_of((a, b): (f64, f64), from_ns: f64, to_ns: f64) -> Option<(f64, f64)> {
    (b > a && b - a < 0.99 * (to_ns - from_ns)).then_some((a, b))
}

impl Scenario {
    /// An empty, valid-format scenario (no nodes yet) with every default.
    pub fn empty(name: &str, duration_ns: u64) -> Self {
        Self {
            format: FORMAT.into(),
            version: VERSION,
            name: name.into(),
            description: String::new(),
            seed: 1,
            duration_ns,
            packet: PacketConfig::default(),
            switch: SwitchConfig::default(),
            link: LinkConfig::default(),
            nodes: Vec::new(),
            links: Vec::new(),
            routing: Routing::default(),
            fabric: None,
            flows: Vec::new(),
            marking: Marking::default(),
            source: Source::default(),
            measure: Measure::default(),
            pft: None,
            ib_cc: None,
            ack_coalescing: None,
            virtual_lanes: None,
        }
    }

    /// Data VLs on every port (1 without `virtual_lanes`).
    pub fn data_vls(&self) -> u8 {
        self.virtual_lanes.as_ref().map_or(1, |v| v.data_vls)
    }

    /// The data VL flow `f`'s own SL maps to (under dfsssp its route's SL decides: `Simulation::flow_vl`).
    pub fn vl_of(&self, f: &Flow) -> u8 {
        self.vl_of_sl(f.sl)
    }

    /// The data VL that SL `sl` maps to.
    pub fn vl_of_sl(&self, sl: u8) -> u8 {
        self.virtual_lanes.as_ref().map_or(0, |v| v.vl_of(sl))
    }

    /// The VL arbitration at the ends of link `i`: its own, or the scenario's.
    pub fn vl_arbitration(&self, i: usize) -> VlArbitration {
        match self.links.get(i).and_then(|l| l.vl_arbitration.clone()) {
            Some(a) => a,
            None => self.virtual_lanes.as_ref().map(|v| v.arbitration.clone()).unwrap_or_default(),
        }
    }

    /// Brings a scenario read in an older format version to [`VERSION`] without changing what it means:
    /// - version 1 had no `switch.input_transfers` and meant one transfer per input at a time, which it keeps;
    /// - nor `switch.bypass_counting`: every packet counted its bypasses, which it keeps;
    /// - version 2 had no `routing` and meant the playground's own (fewest hops, ties to the neighbour listed
    ///   first), which it keeps; version 3 routes as OpenSM's minhop unless `routing` says otherwise.
    ///
    /// Any other version is left alone for validation to refuse by name.
    pub fn upgrade(&mut self) {
        if self.version == 1 {
            self.switch.input_transfers = Some(1);
            self.switch.bypass_counting = BypassCounting::EachPacket;
            self.version = 2;
        }
        if self.version == 2 {
            self.routing.engine = RoutingEngine::FirstListed;
            self.version = 3;
        }
    }

    /// Parses scenario JSON. Syntax and type errors name the line and column; nothing here panics.
    pub fn from_json(text: &str) -> Result<Self, ScenarioError> {
        serde_json::from_str(text).map_err(|e| ScenarioError::parse(json::in_words(&alloc::format!("{e}"))))
    }

    /// Parses and validates.
    pub fn from_json_validated(text: &str) -> Result<Self, ScenarioError> {
        let s = Self::from_json(text)?;
        s.validate()?;
        Ok(s)
    }

    /// Parses and checks everything but routing ([`Scenario::check`]), as the page reads a file.
    pub fn from_json_checked(text: &str) -> Result<Self, ScenarioError> {
        let s = Self::from_json(text)?;
        s.check()?;
        Ok(s)
    }

    /// Its network alone: no flows, no congestion control (the network GPCNeT's workloads run on in the congestion
    /// impact view and its lesson).
    pub fn network_only(&self) -> Self {
        let mut s = self.without_congestion_control();
        s.flows.clear();
        s
    }

    /// The same scenario with every congestion control off: no marking, no rate control, no window, no PFT, no
    /// per-flow source overrides. The baseline of the control factor FC.
    pub fn without_congestion_control(&self) -> Self {
        let mut s = self.clone();
        s.marking.policy = MarkingPolicy::None;
        s.source.response = Response::None;
        s.source.window_packets = None;
        s.pft = None;
        s.ib_cc = None;
        for f in &mut s.flows {
            f.source = None;
        }
        s
    }

    /// The name of directed channel `c` as results and the page name links, `"A->B"`: link `c / 2`, from `a` to
    /// `b` when `c` is even (the topology's numbering).
    pub fn channel_name(&self, c: u32) -> Option<String> {
        let l = self.links.get((c / 2) as usize)?;
        Some(if c % 2 == 0 { alloc::format!("{}->{}", l.a, l.b) } else { alloc::format!("{}->{}", l.b, l.a) })
    }

    /// The directed channel named `"A->B"`.
    pub fn channel(&self, name: &str) -> Option<u32> {
        let (from, to) = name.split_once("->")?;
        self.links.iter().enumerate().find_map(|(i, l)| {
            if l.a == from && l.b == to {
                Some(2 * i as u32)
            } else if l.b == from && l.a == to {
                Some(2 * i as u32 + 1)
            } else {
                None
            }
        })
    }

    /// The fastest link a host is cabled by, in Gb/s (the network's default rate if no host has a link): what
    /// settings given in a source's time are scaled to (`IbCcConfig::for_link_gbps`).
    pub fn fastest_host_link_gbps(&self) -> f64 {
        let hosts: alloc::collections::BTreeSet<&str> =
            self.nodes.iter().filter(|n| n.kind == NodeKind::Host).map(|n| n.id.as_str()).collect();
        let host = |id: &str| hosts.contains(id);
        self.links
            .iter()
            .filter(|l| host(&l.a) || host(&l.b))
            .map(|l| l.bandwidth_gbps.unwrap_or(self.link.bandwidth_gbps))
            .reduce(f64::max)
            .unwrap_or(self.link.bandwidth_gbps)
    }

    /// The part of the interval `[from_ns, to_ns)` that group `group`'s flows ran in (from their start to their
    /// stop), when it is the same for each of them and shorter than the interval (by over 1%); `None` otherwise. A
    /// group's throughput is over the whole interval, so one that ran for a third of it reads a third of its rate:
    /// the page and `ibcc run` then also say what it had while it ran (docs/results.md).
    pub fn group_ran_within(&self, group: &str, from_ns: f64, to_ns: f64) -> Option<(f64, f64)> {
        let mut spans = self.flows.iter().filter(|f| f.group == group).map(|f| f.ran(from_ns, to_ns));
        let first = spans.next()?;
        part_of(first, from_ns, to_ns).filter(|_| spans.all(|x| x == first))
    }

    /// This scenario without what does not change a run: its name, description and the nodes' positions.
    pub fn without_layout(&self) -> Scenario {
        let mut s = self.clone();
        s.name.clear();
        s.description.clear();
        for n in &mut s.nodes {
            (n.x, n.y) = (None, None);
        }
        s
    }

    /// Pretty-printed JSON (exactly serde_json's pretty form, made from the compact one: the web page then carries
    /// one copy of the scenario's serializer instead of one per output format).
    pub fn to_json(&self) -> String {
        pretty_json(&serde_json::to_string(self).expect("a scenario always serializes"))
    }

    /// A 64-bit FNV-1a digest of what changes a run (the scenario [`without_layout`](Self::without_layout)), in
    /// hex: two scenarios with the same digest give the same results. Exported exercise answers carry it, so a
    /// teacher can tell which network an answer was measured on.
    pub fn digest(&self) -> String {
        let json = serde_json::to_string(&self.without_layout()).expect("a scenario always serializes");
        alloc::format!("{:016x}", fnv1a(json.as_bytes()))
    }
}

/// The 64-bit FNV-1a hash of `bytes`: the digest of a scenario (stable across platforms).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}
