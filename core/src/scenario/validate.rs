//! Checks a scenario and compiles it into index-based tables for the simulator. Every refusal names the element and
//! field; nothing here panics on any input.

use super::error::{Element, Problem, ScenarioError};
use super::{Flow, Link, Node, NodeKind, Scenario, Source, SwitchConfig, Traffic, VlArbitration, FORMAT, VERSION};
use crate::net::topology::{NodeId, Topology};
use crate::net::vl::{MAX_DATA_VLS, MAX_SLS};
use crate::time::{Bandwidth, Time, MS, NS};
use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// A scenario's network, checked, as routing needs it.
pub(crate) struct Network<'a> {
    pub is_host: Vec<bool>,
    pub kinds: Vec<NodeKind>,
    pub ids: Vec<&'a str>,
    pub ends: Vec<(NodeId, NodeId)>,
    pub links: Vec<(NodeId, NodeId, Bandwidth, Time)>,
    pub destinations: Vec<NodeId>,
    /// Every flow's (source, destination) hosts, in flow order.
    pub pairs: Vec<(NodeId, NodeId)>,
}

/// A network routed: its topology, what the engine said, and the SLs it gave host pairs (dfsssp only).
pub(crate) type RoutedNetwork = (Rc<Topology>, Vec<String>, Vec<(NodeId, NodeId, u8)>);

/// Size limits of this build. They keep a run's memory bounded and the page responsive; raise them here if a
/// larger study needs it.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub nodes: u64,
    pub links: u64,
    pub flows: u64,
    /// Longest run, in nanoseconds (100 s).
    pub duration_ns: u64,
    /// Largest input buffer, in packets.
    pub buffer_packets: u64,
    /// Most rate-series samples over all links (each link keeps one counter per sample).
    pub series_samples: u64,
    /// Largest seed: integers above 2^53 do not survive a round trip through JavaScript.
    pub seed: u64,
}

/// Why flow `f` cannot run: its destination is out of its source's reach.
fn unreachable(f: &Flow) -> Problem {
    Problem::Unreachable { src: f.src.clone(), dst: f.dst.clone() }
}

/// The limits in force. Natively a network may be as large as the three-level fat tree of 36-port switches
/// (11,664 hosts and 1,620 switches on 34,992 links: `ibcc bench --scale --large`); in the page a quarter of that:
/// not for memory (the largest fits in 3.2 GB) but because the page lays a network out and draws it on its main
/// thread (docs/performance.md, "How large a network the page takes").
pub const LIMITS: Limits = Limits {
    nodes: if cfg!(target_arch = "wasm32") { 4096 } else { 16_384 },
    links: if cfg!(target_arch = "wasm32") { 16_384 } else { 65_536 },
    flows: 65_536,
    duration_ns: 100_000_000_000,
    buffer_packets: 1024,
    series_samples: 20_000_000,
    seed: (1 << 53) - 1,
};

/// The smallest rate a source may be limited to, as a fraction of its link.
const MIN_RATE: f64 = 1.0 / 65536.0;

/// A flow with its endpoints resolved and its source parameters merged.
#[derive(Debug, Clone)]
pub(crate) struct CompiledFlow {
    pub src: NodeId,
    pub dst: NodeId,
    pub source: Source,
    /// Its service level: its own, or the one its route's engine gives it (dfsssp).
    pub sl: u8,
}

/// The scenario as the simulator uses it.
#[derive(Debug, Clone)]
pub(crate) struct Compiled {
    pub topology: Rc<Topology>,
    /// Per node: its switch parameters (defaults for hosts, unused).
    pub switch: Vec<SwitchConfig>,
    pub flows: Vec<CompiledFlow>,
    /// What the routing engine said (that it fell back to minhop, updn's roots).
    pub routing_notes: Vec<String>,
    /// The SLs the routing engine gave the flows' host pairs (dfsssp), sorted by pair.
    pub lanes: Vec<(NodeId, NodeId, u8)>,
}

fn err(element: Element, field: &'static str, problem: Problem) -> ScenarioError {
    ScenarioError { element, field, problem }
}

fn limit(element: Element, field: &'static str, limit: u64, got: u64) -> Result<(), ScenarioError> {
    if got > limit {
        return Err(err(element, field, Problem::LimitExceeded { limit, got }));
    }
    Ok(())
}

fn check_id(id: &str) -> bool {
    (1..=64).contains(&id.chars().count()) && !id.chars().any(char::is_control)
}

fn bandwidth(element: impl Fn() -> Element, field: &'static str, gbps: f64) -> Result<Bandwidth, ScenarioError> {
    Bandwidth::from_gbps(gbps)
        .ok_or_else(|| err(element(), field, Problem::OutOfRange("between 0.001 and 100000 Gb/s")))
}

fn check_propagation(element: impl Fn() -> Element, field: &'static str, ns: u64) -> Result<Time, ScenarioError> {
    if ns > 1_000_000_000 {
        return Err(err(element(), field, Problem::OutOfRange("at most 1 s (1000000000 ns)")));
    }
    Ok(ns * NS)
}

fn check_switch(element: impl Fn() -> Element, s: &SwitchConfig, limits: &Limits) -> Result<(), ScenarioError> {
    if s.buffer_packets == 0 {
        return Err(err(element(), "switch.buffer_packets", Problem::BufferSmallerThanPacket));
    }
    limit(element(), "switch.buffer_packets", limits.buffer_packets, u64::from(s.buffer_packets))?;
    if s.forwarding_delay_ns > 1_000_000 {
        return Err(err(element(), "switch.forwarding_delay_ns", Problem::OutOfRange("at most 1 ms (1000000 ns)")));
    }
    if s.max_bypass > 255 {
        return Err(err(element(), "switch.max_bypass", Problem::OutOfRange("at most 255")));
    }
    if s.input_transfers.is_some_and(|t| t == 0 || t > 65_535) {
        return Err(err(
            element(),
            "switch.input_transfers",
            Problem::OutOfRange("from 1 to 65535, or null for no limit"),
        ));
    }
    Ok(())
}

/// Checks the source parameters that apply to `response`.
fn check_source(element: impl Fn() -> Element, s: &Source) -> Result<(), ScenarioError> {
    if s.window_packets == Some(0) {
        return Err(err(element(), "source.window_packets", Problem::OutOfRange("at least 1, or null for no window")));
    }
    if let Some(w) = s.window_packets {
        limit(element(), "source.window_packets", 65_536, u64::from(w))?;
    }
    if s.response == super::Response::Hybrid && s.window_packets.is_none() {
        return Err(err(
            element(),
            "source.window_packets",
            Problem::Inconsistent("a hybrid source needs a largest window"),
        ));
    }
    // At least 1/65536: InfiniBand-style IPD tables stay exact, and rate gaps stay far inside integer time.
    if !(s.r_min_fraction >= MIN_RATE && s.r_min_fraction < 1.0) {
        return Err(err(element(), "source.r_min_fraction", Problem::OutOfRange("at least 1/65536 and below 1")));
    }
    if !(s.m.is_finite() && s.m > 1.0 && s.m <= 1024.0) {
        return Err(err(element(), "source.m", Problem::OutOfRange("greater than 1 and at most 1024")));
    }
    if !(s.fixed_rate_fraction >= MIN_RATE && s.fixed_rate_fraction <= 1.0) {
        return Err(err(
            element(),
            "source.fixed_rate_fraction",
            Problem::OutOfRange("at least 1/65536 and at most 1"),
        ));
    }
    Ok(())
}

/// Link directions `(from id, to id)`, each leading to the next and the last to the first.
pub type LinkCycle = Vec<(String, String)>;

/// A credit loop: the link directions it runs along, and its virtual lane.
pub type CreditLoop = (LinkCycle, u8);

impl Scenario {
    /// Checks everything; `Ok` means the scenario runs.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        self.compile().map(|_| ())
    }

    /// What the routing engine says about this network: the roots updn ranked from, or that it found none and
    /// OpenSM (and so the simulator) routes with minhop instead.
    pub fn routing_notes(&self) -> Result<Vec<String>, ScenarioError> {
        self.compile().map(|c| c.routing_notes)
    }

    /// Checks everything but the routing engine's own verdict, without routing: each flow's destination need only be
    /// in its source's connected part. What this refuses, [`Scenario::validate`] refuses too; what it accepts, routing may still refuse (dfsssp's lanes against the arbitration tables, a fabric too large for an
    /// engine). The page checks each edit this way and leaves routing to its simulation worker, off the main thread.
    pub fn check(&self) -> Result<(), ScenarioError> {
        let (net, flows) = self.checked()?;
        if let Some(b) = &self.fabric {
            b.fabric_of(self)?;
        }
        self.routing.check(&net.kinds, &net.ids, &net.ends)?;
        let part = super::routing::part_of(net.kinds.len(), &net.ends);
        for (i, (f, cf)) in self.flows.iter().zip(&flows).enumerate() {
            if part[cf.src as usize] != part[cf.dst as usize] {
                return Err(err(flow_element(i, f), "dst", unreachable(f)));
            }
        }
        // Under dfsssp the SLs are its lanes, known once it has routed (or none, where it falls back to minhop).
        if self.routing.engine != super::RoutingEngine::Dfsssp {
            self.check_served(&flows, false)?;
        }
        Ok(())
    }

    /// Checks everything and routes the network with its engine.
    pub(crate) fn compile(&self) -> Result<Compiled, ScenarioError> {
        self.compile_with(|s, net| {
            let fabric = s.fabric.as_ref().map(|b| b.fabric_of(s)).transpose()?;
            Ok(match s.routing.tables(&net.kinds, &net.ids, &net.ends, fabric, s.data_vls())? {
                None => (Rc::new(Topology::new(&net.is_host, &net.links, &net.destinations)), Vec::new(), Vec::new()),
                Some(t) => {
                    let mut lanes: Vec<(NodeId, NodeId, u8)> = net
                        .pairs
                        .iter()
                        .filter_map(|&(a, b)| t.sl(a, b, s.seed, s.routing.spare_lanes).map(|sl| (a, b, sl)))
                        .collect();
                    // One SL per pair: sorted by pair (the shared sort keeps the page's code small).
                    crate::fabric::model::sort_by_u64(&mut lanes, |&(a, b, _)| u64::from(a) << 32 | u64::from(b));
                    lanes.dedup();
                    let topology =
                        Topology::with_routes(&net.is_host, &net.links, &net.destinations, |at, d| t.next(at, d));
                    (Rc::new(topology), t.notes, lanes)
                }
            })
        })
    }

    /// The route from host `src` to host `dst` (node ids) under the scenario's engine, as `ibtracert` prints it:
    /// each port the packet enters, with its switch's LIDs (`ibcc fabric path` prints the same for a fabric file).
    pub fn tracert(&self, src: &str, dst: &str) -> Result<String, String> {
        let (net, _) = self.checked().map_err(|e| e.to_string())?;
        let node = |id: &str| {
            let i = net.ids.iter().position(|x| *x == id).ok_or_else(|| alloc::format!("no node is called {id}"))?;
            if net.is_host[i] {
                Ok(i as NodeId)
            } else {
                Err(alloc::format!("{id} is a switch: a route runs between two hosts"))
            }
        };
        let (a, b) = (node(src)?, node(dst)?);
        self.tables(&net)?.tracert(a, b)
    }

    /// A credit loop the routes between all hosts can close under the scenario's engine (a cycle of channel
    /// dependencies, as `ibcc fabric check` finds it), as the link directions `(from id, to id)` it runs along,
    /// and its virtual lane (`None` if the routes have none); and what the engine said (updn's roots, a fallback).
    pub fn credit_loop(&self) -> Result<(Option<CreditLoop>, Vec<String>), String> {
        let (net, _) = self.checked().map_err(|e| e.to_string())?;
        let id = |n: NodeId| String::from(net.ids[n as usize]);
        let tables = self.tables(&net)?;
        let found = tables.credit_loop();
        Ok((found.map(|c| (c.channels.iter().map(|&(a, b)| (id(a), id(b))).collect(), c.lane)), tables.notes))
    }

    /// The network's OpenSM tables (the papers' first-listed routing has none).
    fn tables(&self, net: &Network<'_>) -> Result<super::routing::Tables, String> {
        let fabric = self.fabric.as_ref().map(|f| f.fabric_of(self)).transpose().map_err(|e| e.to_string())?;
        self.routing
            .tables(&net.kinds, &net.ids, &net.ends, fabric, self.data_vls())
            .map_err(|e| e.to_string())?
            .ok_or_else(|| {
                String::from(
                    "the papers' first-listed routing fills no forwarding tables: pick one of OpenSM's engines",
                )
            })
    }

    /// Checks everything on a network already routed (a run's own, which a marking change keeps).
    pub(crate) fn compile_on(&self, routed: RoutedNetwork) -> Result<Compiled, ScenarioError> {
        self.compile_with(|_, _| Ok(routed))
    }

    fn compile_with(
        &self,
        route: impl FnOnce(&Self, &Network) -> Result<RoutedNetwork, ScenarioError>,
    ) -> Result<Compiled, ScenarioError> {
        let (net, mut flows) = self.checked()?;
        let (topology, routing_notes, lanes) = route(self, &net)?;
        for (i, (f, cf)) in self.flows.iter().zip(flows.iter_mut()).enumerate() {
            if topology.path(cf.src, cf.dst).is_none() {
                return Err(err(flow_element(i, f), "dst", unreachable(f)));
            }
            if let Ok(at) = lanes.binary_search_by_key(&(cf.src, cf.dst), |&(a, b, _)| (a, b)) {
                if f.sl != 0 {
                    return Err(err(
                        flow_element(i, f),
                        "sl",
                        Problem::Inconsistent("dfsssp gives each flow its SL (its route's lane): leave sl out"),
                    ));
                }
                cf.sl = lanes[at].2;
            }
        }
        if !lanes.is_empty() {
            self.check_lanes_apart()?;
        }
        self.check_served(&flows, !lanes.is_empty())?;
        let switch = self.nodes.iter().map(|n| self.switch.with(n.switch.as_ref())).collect();
        Ok(Compiled { topology, switch, flows, routing_notes, lanes })
    }

    /// Everything checked before routing: the network as routing reads it, and the flows compiled.
    fn checked(&self) -> Result<(Network<'_>, Vec<CompiledFlow>), ScenarioError> {
        let limits = &LIMITS;
        let top = || Element::Scenario;
        if self.format != FORMAT {
            return Err(err(top(), "format", Problem::WrongFormat(self.format.clone())));
        }
        if self.version != VERSION {
            return Err(err(top(), "version", Problem::UnsupportedVersion(self.version)));
        }
        limit(top(), "seed", limits.seed, self.seed)?;
        if self.duration_ns == 0 {
            return Err(err(top(), "duration_ns", Problem::OutOfRange("greater than 0")));
        }
        limit(top(), "duration_ns", limits.duration_ns, self.duration_ns)?;
        self.check_globals(limits)?;
        let index = self.check_nodes(limits)?;
        let links = self.check_links(&index, limits)?;
        let (flows, destinations) = self.check_flows(&index)?;
        let net = Network {
            is_host: self.nodes.iter().map(|n| n.kind == NodeKind::Host).collect(),
            kinds: self.nodes.iter().map(|n| n.kind).collect(),
            ids: self.nodes.iter().map(|n| n.id.as_str()).collect(),
            ends: links.iter().map(|&(a, b, _, _)| (a, b)).collect(),
            links,
            destinations,
            pairs: flows.iter().map(|f| (f.src, f.dst)).collect(),
        };
        Ok((net, flows))
    }

    fn check_globals(&self, limits: &Limits) -> Result<(), ScenarioError> {
        let top = || Element::Scenario;
        let p = &self.packet;
        if p.payload_bytes == 0 || p.payload_bytes > 65_536 {
            return Err(err(top(), "packet.payload_bytes", Problem::OutOfRange("from 1 to 65536 bytes")));
        }
        if p.header_bytes > 1024 {
            return Err(err(top(), "packet.header_bytes", Problem::OutOfRange("at most 1024 bytes")));
        }
        if p.ack_bytes == 0 || p.ack_bytes > 1024 {
            return Err(err(top(), "packet.ack_bytes", Problem::OutOfRange("from 1 to 1024 bytes")));
        }
        check_switch(top, &self.switch, limits)?;
        bandwidth(top, "link.bandwidth_gbps", self.link.bandwidth_gbps)?;
        check_propagation(top, "link.propagation_ns", self.link.propagation_ns)?;
        check_source(top, &self.source)?;
        let m = &self.marking;
        if m.buffer_threshold_packets == Some(0) {
            return Err(err(top(), "marking.buffer_threshold_packets", Problem::OutOfRange("at least 1, or null")));
        }
        if let Some(t) = m.buffer_threshold_packets {
            // No buffer may be larger, and the threshold in credit blocks must fit the buffers' counters.
            limit(top(), "marking.buffer_threshold_packets", limits.buffer_packets, u64::from(t))?;
        }
        match (m.policy, m.output_threshold_packets) {
            (super::MarkingPolicy::InputOutputTriggered, None) => {
                return Err(err(
                    top(),
                    "marking.output_threshold_packets",
                    Problem::Inconsistent("input_output_triggered marking needs an output threshold"),
                ));
            }
            (_, Some(0)) => {
                return Err(err(top(), "marking.output_threshold_packets", Problem::OutOfRange("at least 1")));
            }
            _ => {}
        }
        if self.ack_coalescing.is_some_and(|a| !(1..=1024).contains(&a.every_packets)) {
            return Err(err(top(), "ack_coalescing.every_packets", Problem::OutOfRange("from 1 to 1024")));
        }
        self.check_virtual_lanes()?;
        if let Some(p) = &self.pft {
            let ft = p.detection == crate::cc::pft::Detection::FixedThreshold;
            let checks: [(&'static str, bool, &'static str); 11] = [
                (
                    "pft.exit_threshold_blocks",
                    !ft || p.exit_threshold_blocks <= p.enter_threshold_blocks,
                    "at most enter_threshold_blocks with fixed_threshold detection (te >= ts, IFIP'21 §III-B)",
                ),
                ("pft.flit_bytes", p.flit_bytes >= 1 && p.flit_bytes <= 65_536, "from 1 to 65536 bytes"),
                ("pft.cycle_ps", p.cycle_ps >= 1 && p.cycle_ps <= 1_000_000_000, "from 1 ps to 1 ms"),
                ("pft.m", p.m <= 64, "at most 64"),
                ("pft.n", p.n <= 64, "at most 64"),
                ("pft.random_bits", (1..=64).contains(&p.random_bits), "from 1 to 64"),
                ("pft.enter_window_cycles", p.enter_window_cycles >= 1, "at least 1"),
                ("pft.exit_window_cycles", p.exit_window_cycles >= 1, "at least 1"),
                // (A count of 0 would be reached the instant it starts, before `c` has changed: a timer at the same
                // picosecond forever.)
                ("pft.enter_count_cycles", p.enter_count_cycles >= 1, "at least 1"),
                ("pft.exit_count_cycles", p.exit_count_cycles >= 1, "at least 1"),
                (
                    "pft.enter_count_cycles",
                    p.enter_count_cycles <= p.enter_window_cycles && p.exit_count_cycles <= p.exit_window_cycles,
                    "a count within its window (enter_count <= enter_window, exit_count <= exit_window)",
                ),
            ];
            for (field, ok, range) in checks {
                if !ok {
                    return Err(err(top(), field, Problem::OutOfRange(range)));
                }
            }
        }
        if let Some(c) = &self.ib_cc {
            let bad = |field, range| Err(err(top(), field, Problem::OutOfRange(range)));
            if c.threshold > 15 {
                return bad("ib_cc.threshold", "from 0 to 15");
            }
            if c.cct.is_empty() || c.cct.len() > 1024 {
                return bad("ib_cc.cct", "1 to 1024 entries");
            }
            if c.cct.iter().any(|e| e.shift > 3 || e.multiplier > 0x3FFF) {
                return bad("ib_cc.cct", "entries with shift 0 to 3 and multiplier 0 to 16383");
            }
            if c.ccti_timer == 0 {
                return bad("ib_cc.ccti_timer", "at least 1 (units of 1.024 us)");
            }
            if c.ird_unit_ps == 0 || c.ird_unit_ps > 1_000_000_000 {
                return bad("ib_cc.ird_unit_ps", "from 1 ps to 1 ms");
            }
            if c.ccti_min > c.limit() {
                return bad("ib_cc.ccti_min", "at most CCTI_Limit (the table's last index)");
            }
            if c.victim_mask_ports.contains(&0) {
                return bad("ib_cc.victim_mask_ports", "switch port numbers from 1 to 255");
            }
            if self.marking.policy != super::MarkingPolicy::None {
                return Err(err(
                    top(),
                    "marking.policy",
                    Problem::Inconsistent("Annex A10 marks FECN itself: set marking.policy to none with ib_cc"),
                ));
            }
            let responses = core::iter::once(self.source.response)
                .chain(self.flows.iter().filter_map(|f| f.source.as_ref().and_then(|s| s.response)));
            if responses.into_iter().any(|r| r != super::Response::None) {
                return Err(err(
                    top(),
                    "source.response",
                    Problem::Inconsistent("Annex A10 sources follow their CCT: set source.response to none with ib_cc"),
                ));
            }
        }
        let me = &self.measure;
        if me.window_ns == 0 || me.window_ns > self.duration_ns.max(2 * MS / NS) {
            return Err(err(
                top(),
                "measure.window_ns",
                Problem::OutOfRange("greater than 0 and at most the duration"),
            ));
        }
        if me.from_ns >= self.duration_ns {
            return Err(err(top(), "measure.from_ns", Problem::OutOfRange("before the end of the run")));
        }
        if me.to_ns.is_some_and(|t| t <= me.from_ns) {
            return Err(err(
                top(),
                "measure.to_ns",
                Problem::OutOfRange("after the measured interval's start, or none (to the end)"),
            ));
        }
        if me.sample_ns == Some(0) {
            return Err(err(top(), "measure.sample_ns", Problem::OutOfRange("greater than 0, or null")));
        }
        self.series_sample_ns().map(|_| ())
    }

    /// The spacing of the rate-series samples a run uses, in nanoseconds: `measure.sample_ns` (or its default), or
    /// if the series (one per direction of each link and one per group) would then hold more samples than this
    /// build allows, the smallest multiple of it that fits, at most the measurement window (a big fabric gets
    /// coarser series, not a refusal; the results say the spacing used). Refused only when even one sample per
    /// window would not fit.
    pub fn series_sample_ns(&self) -> Result<u64, ScenarioError> {
        let me = &self.measure;
        let wanted = me.sample_ns();
        // The distinct groups, found as the simulation's statistics find them (a sort here would compile a copy
        // of the standard sort into both wasm files for one count).
        let mut groups: Vec<&str> = Vec::new();
        for f in &self.flows {
            if !groups.contains(&f.group.as_str()) {
                groups.push(&f.group);
            }
        }
        let series = 2 * self.links.len() as u64 + groups.len() as u64;
        let samples = |spacing: u64| (self.duration_ns / spacing + 1).saturating_mul(series);
        let limit = LIMITS.series_samples;
        if samples(wanted) <= limit {
            return Ok(wanted);
        }
        // (duration / s + 1) * series <= limit  <=>  floor(duration / s) <= n = limit / series - 1  <=>
        // s > duration / (n + 1): the smallest multiple of the spacing asked for that is, or else one sample per
        // window if that fits and the multiple would be wider.
        let n = (limit / series.max(1)).saturating_sub(1);
        let window = me.window_ns.max(1);
        let coarse = match n {
            0 => None,
            n => Some((self.duration_ns / (n + 1).saturating_mul(wanted) + 1).saturating_mul(wanted)),
        };
        match coarse {
            Some(s) if s <= window => Ok(s),
            _ if samples(window) <= limit => Ok(window),
            _ => {
                let samples = samples(window);
                Err(err(Element::Scenario, "measure.window_ns", Problem::TooManySamples { series, samples, limit }))
            }
        }
    }

    fn check_nodes(&self, limits: &Limits) -> Result<BTreeMap<&str, NodeId>, ScenarioError> {
        limit(Element::Scenario, "nodes", limits.nodes, self.nodes.len() as u64)?;
        let mut index = BTreeMap::new();
        for (i, n) in self.nodes.iter().enumerate() {
            let el = || node_element(i, n);
            if !check_id(&n.id) {
                return Err(err(el(), "id", Problem::BadId));
            }
            if n.id.contains("->") {
                return Err(err(el(), "id", Problem::ArrowInNodeId));
            }
            if index.insert(n.id.as_str(), i as NodeId).is_some() {
                return Err(err(el(), "id", Problem::DuplicateId));
            }
            if let Some(o) = &n.switch {
                if n.kind == NodeKind::Host {
                    return Err(err(el(), "switch", Problem::Inconsistent("only switches have switch parameters")));
                }
                check_switch(el, &self.switch.with(Some(o)), limits)?;
            }
            for (field, v) in [("x", n.x), ("y", n.y)] {
                if v.is_some_and(|v| !v.is_finite()) {
                    return Err(err(el(), field, Problem::OutOfRange("a finite number")));
                }
            }
        }
        Ok(index)
    }

    fn check_links(
        &self,
        index: &BTreeMap<&str, NodeId>,
        limits: &Limits,
    ) -> Result<Vec<(NodeId, NodeId, Bandwidth, Time)>, ScenarioError> {
        limit(Element::Scenario, "links", limits.links, self.links.len() as u64)?;
        let mut degree = alloc::vec![0usize; self.nodes.len()];
        let mut out = Vec::with_capacity(self.links.len());
        for (i, l) in self.links.iter().enumerate() {
            let el = || link_element(i, l);
            let a = *index.get(l.a.as_str()).ok_or_else(|| err(el(), "a", Problem::UnknownNode(l.a.clone())))?;
            let b = *index.get(l.b.as_str()).ok_or_else(|| err(el(), "b", Problem::UnknownNode(l.b.clone())))?;
            if a == b {
                return Err(err(el(), "b", Problem::SelfLink));
            }
            let bw = bandwidth(el, "bandwidth_gbps", l.bandwidth_gbps.unwrap_or(self.link.bandwidth_gbps))?;
            let prop = check_propagation(el, "propagation_ns", l.propagation_ns.unwrap_or(self.link.propagation_ns))?;
            for (end, field) in [(a, "a"), (b, "b")] {
                degree[end as usize] += 1;
                let node = &self.nodes[end as usize];
                if node.kind == NodeKind::Host && degree[end as usize] > 1 {
                    return Err(err(
                        node_element(end as usize, node),
                        field,
                        Problem::HostLinkCount(degree[end as usize]),
                    ));
                }
                if degree[end as usize] > usize::from(u16::MAX - 1) {
                    return Err(err(
                        el(),
                        field,
                        Problem::LimitExceeded { limit: 65534, got: degree[end as usize] as u64 },
                    ));
                }
            }
            out.push((a, b, bw, prop));
        }
        Ok(out)
    }

    /// The VL count, the SL-to-VL table, every arbitration table (the scenario's and the links'), and that every
    /// flow's VL is served.
    fn check_virtual_lanes(&self) -> Result<(), ScenarioError> {
        let top = || Element::Scenario;
        let vls = self.data_vls();
        if let Some(v) = &self.virtual_lanes {
            if !(1..=MAX_DATA_VLS).contains(&vls) {
                return Err(err(top(), "virtual_lanes.data_vls", Problem::OutOfRange("from 1 to 15")));
            }
            if v.sl_to_vl.len() > usize::from(MAX_SLS) {
                return Err(err(
                    top(),
                    "virtual_lanes.sl_to_vl",
                    Problem::OutOfRange("at most 16 entries (SL 0 to 15)"),
                ));
            }
            if v.sl_to_vl.iter().any(|&vl| vl >= vls) {
                return Err(err(top(), "virtual_lanes.sl_to_vl", Problem::OutOfRange("VLs below data_vls")));
            }
            check_arbitration(top, "virtual_lanes.arbitration", &v.arbitration, vls)?;
        }
        for (i, l) in self.links.iter().enumerate() {
            if let Some(a) = &l.vl_arbitration {
                check_arbitration(|| link_element(i, l), "vl_arbitration", a, vls)?;
            }
        }
        for (i, f) in self.flows.iter().enumerate() {
            if f.sl >= MAX_SLS {
                return Err(err(flow_element(i, f), "sl", Problem::OutOfRange("from 0 to 15")));
            }
        }
        Ok(())
    }

    /// dfsssp's lanes keep apart only if the SL-to-VL table sends each of its SLs to a VL of its own (OpenSM's
    /// dfsssp takes SL i to VL i): two lanes on one VL would join their dependencies, and a credit loop could return.
    fn check_lanes_apart(&self) -> Result<(), ScenarioError> {
        let lanes = crate::fabric::layers::operated(self.data_vls());
        for a in 0..lanes {
            for b in a + 1..lanes {
                if self.vl_of_sl(a) == self.vl_of_sl(b) {
                    return Err(err(
                        Element::Scenario,
                        "virtual_lanes.sl_to_vl",
                        Problem::Inconsistent(
                            "dfsssp needs each of its lanes (SLs) on a VL of its own, or the credit loops it broke \
                             could close again",
                        ),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Every flow's VL (by its SL, its own or its route's) is served by every arbitration table.
    fn check_served(&self, flows: &[CompiledFlow], routed_sls: bool) -> Result<(), ScenarioError> {
        let vls = self.data_vls();
        // The VLs served everywhere: by the scenario's table where a link has none, and by every link's own.
        let mask = |a: &VlArbitration| (0..vls).filter(|&v| a.serves(vls, v)).fold(0u16, |m, v| m | 1 << v);
        let default = self.virtual_lanes.as_ref().map(|v| v.arbitration.clone()).unwrap_or_default();
        let mut served = if self.links.iter().any(|l| l.vl_arbitration.is_none()) { mask(&default) } else { u16::MAX };
        for l in self.links.iter().filter_map(|l| l.vl_arbitration.as_ref()) {
            served &= mask(l);
        }
        for (i, (f, cf)) in self.flows.iter().zip(flows).enumerate() {
            if served & (1 << self.vl_of_sl(cf.sl)) != 0 {
                continue;
            }
            return Err(if routed_sls {
                // The SL is dfsssp's, not the flow's own: name the tables, not the field the user was told to omit.
                err(
                    Element::Scenario,
                    "virtual_lanes.arbitration",
                    Problem::Inconsistent(
                        "dfsssp puts a flow's route on a VL with no entry of non-zero weight in an arbitration table \
                         (virtual_lanes.arbitration or a link's vl_arbitration), so it would never be sent",
                    ),
                )
            } else {
                err(
                    flow_element(i, f),
                    "sl",
                    Problem::Inconsistent(
                        "its VL has no entry of non-zero weight in an arbitration table (virtual_lanes.arbitration \
                         or a link's vl_arbitration), so it would never be sent",
                    ),
                )
            });
        }
        Ok(())
    }

    fn check_flows(&self, index: &BTreeMap<&str, NodeId>) -> Result<(Vec<CompiledFlow>, Vec<NodeId>), ScenarioError> {
        limit(Element::Scenario, "flows", LIMITS.flows, self.flows.len() as u64)?;
        let mut ids = BTreeMap::new();
        let mut flows = Vec::with_capacity(self.flows.len());
        let mut destinations = Vec::new();
        for (i, f) in self.flows.iter().enumerate() {
            let el = || flow_element(i, f);
            if !check_id(&f.id) {
                return Err(err(el(), "id", Problem::BadId));
            }
            if ids.insert(f.id.as_str(), i).is_some() {
                return Err(err(el(), "id", Problem::DuplicateId));
            }
            let host = |field: &'static str, id: &String| -> Result<NodeId, ScenarioError> {
                let n = *index.get(id.as_str()).ok_or_else(|| err(el(), field, Problem::UnknownNode(id.clone())))?;
                if self.nodes[n as usize].kind != NodeKind::Host {
                    return Err(err(el(), field, Problem::NotAHost(id.clone())));
                }
                Ok(n)
            };
            let src = host("src", &f.src)?;
            let dst = host("dst", &f.dst)?;
            if src == dst {
                return Err(err(el(), "dst", Problem::SameEndpoints));
            }
            if f.group.chars().count() > 64 || f.group.chars().any(char::is_control) {
                return Err(err(el(), "group", Problem::BadId));
            }
            limit(el(), "start_ns", LIMITS.duration_ns, f.start_ns)?;
            if let Some(stop) = f.stop_ns {
                limit(el(), "stop_ns", LIMITS.duration_ns, stop)?;
            }
            if f.stop_ns.is_some_and(|stop| stop <= f.start_ns) {
                return Err(err(
                    el(),
                    "stop_ns",
                    Problem::OutOfRange("after the flow's start, or none (it never stops)"),
                ));
            }
            if let Traffic::OnOff { mean_on_ns, mean_off_ns } = f.traffic {
                limit(el(), "traffic.mean_on_ns", LIMITS.duration_ns, mean_on_ns)?;
                limit(el(), "traffic.mean_off_ns", LIMITS.duration_ns, mean_off_ns)?;
                if mean_on_ns == 0 {
                    return Err(err(el(), "traffic.mean_on_ns", Problem::OutOfRange("greater than 0")));
                }
                if mean_off_ns == 0 {
                    return Err(err(el(), "traffic.mean_off_ns", Problem::OutOfRange("greater than 0")));
                }
            }
            let mut source = self.source.with(f.source.as_ref());
            if f.transport == super::Transport::Unreliable {
                if source.response == super::Response::Hybrid {
                    return Err(err(
                        el(),
                        "transport",
                        Problem::Inconsistent("an unreliable flow has no window; a hybrid source needs one"),
                    ));
                }
                // No ACKs, so no window (the HP slides: rate and general state only).
                source.window_packets = None;
            }
            check_source(el, &source)?;
            destinations.extend([src, dst]);
            flows.push(CompiledFlow { src, dst, source, sl: f.sl });
        }
        Ok((flows, destinations))
    }
}

/// A VL arbitration table: entries for existing VLs, at most 64 per table (IBA §7.6.9).
fn check_arbitration(
    element: impl Fn() -> Element,
    field: &'static str,
    a: &VlArbitration,
    vls: u8,
) -> Result<(), ScenarioError> {
    for table in [&a.low, &a.high] {
        if table.len() > 64 {
            return Err(err(element(), field, Problem::OutOfRange("at most 64 entries per table")));
        }
        if table.iter().any(|e| e.vl >= vls) {
            return Err(err(element(), field, Problem::OutOfRange("entries for VLs below virtual_lanes.data_vls")));
        }
    }
    Ok(())
}

fn node_element(index: usize, n: &Node) -> Element {
    Element::Node { index, id: n.id.clone() }
}

fn link_element(index: usize, l: &Link) -> Element {
    Element::Link { index, a: l.a.clone(), b: l.b.clone() }
}

fn flow_element(index: usize, f: &Flow) -> Element {
    Element::Flow { index, id: f.id.clone() }
}
