//! The source papers' experiments as ready-made scenarios (`ibcc presets`, the page's scenario picker).
//!
//! All use the two-switch network of INFOCOM'03 Fig. 1 with Table I's parameters (the scenario defaults). The
//! single-run figures run 100 ms with sources starting 100 us apart, locals first, and the victim flow active from
//! 40 to 60 ms (INFOCOM'03 §III); the papers show the same time axis for Figs. 2-4, and we use it for all of them.
//! Results are measured over the victim's 40-60 ms, where the papers read their numbers.

mod fabrics;
mod fat_tree;
pub mod gpcnet_mechanisms;
mod parking_lot;
pub mod pft_gpcnet;
mod two_switch;

pub use fabrics::{fabric32_hotspot, fattree4_shift, ring6, scale_fat_tree_hosts, scale_fat_trees};
pub use fat_tree::{fat_tree, fat_tree_hotspot, fat_tree_shift};
pub use parking_lot::parking_lot;
pub use two_switch::TwoSwitch;

use crate::cc::pft::{Detection, PftConfig};
use crate::scenario::{
    IbCcConfig, MarkingPolicy, RateMode, Response, Scenario, SourceOverride, Traffic, Transport, VirtualLanes,
};
use crate::sim::{Measurement, Metric};
use alloc::string::String;
use alloc::vec::Vec;

/// A named experiment.
#[derive(Debug, Clone, Copy)]
pub struct Preset {
    /// Stable name, used on the command line and in links.
    pub name: &'static str,
    /// What it shows, in plain words (the page's scenario picker).
    pub title: &'static str,
    /// Where it comes from, briefly ("INFOCOM'03 Fig. 2"); empty when it is not from a source document.
    pub source: &'static str,
    /// The figure it reproduces.
    pub figure: &'static str,
    /// What it shows and what to look for.
    pub description: &'static str,
    /// What the paper reports for it.
    pub paper_reports: &'static str,
    /// The paper's numbers, each with the measurement that gives ours.
    pub reported: &'static [Reported],
    build: fn() -> Scenario,
}

/// What a reported number is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    /// A flow group's rate (fraction of one link).
    Group(&'static str),
    /// A directed link's utilization, `"A->B"`.
    Link(&'static str),
}

/// A number a paper reports, read off its figure, and where we measure ours.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Reported {
    pub quantity: Quantity,
    /// The interval, in ms; `None`: the scenario's measurement interval.
    pub from_ms: Option<u32>,
    pub to_ms: Option<u32>,
    /// The paper's value as the paper gives it ("about 15%").
    pub paper: &'static str,
}

impl Reported {
    /// The measurement of our value.
    pub fn measurement(&self) -> Measurement {
        let metric = match self.quantity {
            Quantity::Group(g) => Metric::GroupRate { group: g.into() },
            Quantity::Link(l) => Metric::LinkRate { link: l.into() },
        };
        let ns = |ms: Option<u32>| ms.map(|m| u64::from(m) * 1_000_000);
        Measurement { metric, from_ns: ns(self.from_ms), to_ns: ns(self.to_ms) }
    }
}

/// During the victim's active period of the single-run figures (40-60 ms), where the papers read their numbers.
const fn victim_period(quantity: Quantity, paper: &'static str) -> Reported {
    Reported { quantity, from_ms: Some(40), to_ms: Some(60), paper }
}

/// Over the scenario's measurement interval.
const fn measured(quantity: Quantity, paper: &'static str) -> Reported {
    Reported { quantity, from_ms: None, to_ms: None, paper }
}

impl Preset {
    /// How the page lists it: its title and, if it has one the title does not already name, its source
    /// ("Congestion spreading, INFOCOM'03 Fig. 2"; not "Annex A10 against spreading, InfiniBand Annex A10").
    pub fn label(&self) -> String {
        if self.source.is_empty() || self.title.contains(self.source) {
            String::from(self.title)
        } else {
            alloc::format!("{}, {}", self.title, self.source)
        }
    }

    /// The scenario, with its name and description filled in.
    pub fn scenario(&self) -> Scenario {
        let mut s = (self.build)();
        s.name = String::from(self.name);
        s.description = alloc::format!("{} {}", self.figure, self.description);
        s
    }
}

/// Nanoseconds (the scenario format's unit) in a millisecond and a microsecond. (`time::MS` and `time::US` are
/// the simulator's picoseconds.)
const NS_PER_MS: u64 = 1_000_000;
const NS_PER_US: u64 = 1_000;

/// The Fig. 2 timing: 100 ms, sources 100 us apart, victim on from 40 to 60 ms, measured then.
fn timed(remote: u32, local: u32) -> Scenario {
    let mut s = TwoSwitch {
        remote,
        local,
        stagger_ns: 100 * NS_PER_US,
        victim: Some((40 * NS_PER_MS, Some(60 * NS_PER_MS))),
        dynamic: None,
    }
    .scenario("", 100 * NS_PER_MS);
    s.measure.from_ns = 40 * NS_PER_MS;
    s.measure.to_ns = Some(60 * NS_PER_MS);
    s
}

fn no_control(remote: u32, local: u32) -> Scenario {
    let mut s = timed(remote, local);
    s.source.window_packets = None;
    s
}

fn lipd_with(policy: MarkingPolicy, output_threshold: Option<u32>) -> Scenario {
    let mut s = timed(10, 10);
    s.source.response = Response::Lipd;
    s.marking.policy = policy;
    s.marking.output_threshold_packets = output_threshold;
    s
}

/// `s` with two data VLs, equal weights, and its victim flow on SL 1 (VL 1).
fn isolated(mut s: Scenario) -> Scenario {
    s.virtual_lanes = Some(VirtualLanes { data_vls: 2, sl_to_vl: Vec::new(), arbitration: Default::default() });
    for f in s.flows.iter_mut().filter(|f| f.group == "victim") {
        f.sl = 1;
    }
    s
}

/// The long-run setting of INFOCOM'03 §VI-B and Globecom'02 Fig. 4: R=10, L=10, LIPD-style rate control with a
/// window of one packet and input-triggered marking, 500 ms measured over the last 400 ms, the victim on throughout
/// (from 2 ms, after the other sources have started).
pub fn long_run(response: Response, rate: RateMode, buffer_packets: u32) -> Scenario {
    let mut s = TwoSwitch {
        remote: 10,
        local: 10,
        stagger_ns: 100 * NS_PER_US,
        victim: Some((2 * NS_PER_MS, None)),
        dynamic: None,
    }
    .scenario("", 500 * NS_PER_MS);
    s.measure.from_ns = 100 * NS_PER_MS;
    s.source.response = response;
    s.source.rate = rate;
    s.switch.buffer_packets = buffer_packets;
    s.marking.policy = MarkingPolicy::InputTriggered;
    s
}

/// INFOCOM'03 Fig. 7: [`long_run`] with ON/OFF flows of equal mean ON and OFF time. `all_dynamic` false: half the
/// local and remote flows (5 + 5 of each) are dynamic (Fig. 7a); true: all but the victim (Fig. 7b). Flows are
/// grouped "dynamic" and "static".
pub fn dynamic_run(response: Response, mean_on_ns: u64, persistent: bool, all_dynamic: bool) -> Scenario {
    let mut s = long_run(response, RateMode::Continuous, 4);
    s.source.persistent_state = persistent;
    let mut remote = 0;
    let mut local = 0;
    for f in s.flows.iter_mut().filter(|f| f.group != "victim") {
        let n = if f.group == "remote" { &mut remote } else { &mut local };
        *n += 1;
        if all_dynamic || *n <= 5 {
            f.traffic = Traffic::OnOff { mean_on_ns, mean_off_ns: mean_on_ns };
            f.group = String::from("dynamic");
        } else {
            f.group = String::from("static");
        }
    }
    s
}

/// Every preset, in the order of the papers.
pub const PRESETS: &[Preset] = &[
    Preset {
        name: "infocom03-fig2",
        title: "Congestion spreading",
        source: "INFOCOM'03 Fig. 2",
        figure: "INFOCOM'03 Fig. 2 (= Fig. 3a).",
        description: "Congestion spreading without congestion control (L=5, R=1). The root link B->BC is \
                      oversubscribed; the input buffer of the inter-switch link at B fills with remote packets and \
                      blocks the link, so the victim AV->BV, which never touches the root link, gets little of it. \
                      Watch the victim's rate while it runs (40-60 ms) and the inter-switch link's utilization.",
        paper_reports: "The victim gets about 15% of the inter-switch link while that link is only about 30% utilized.",
        reported: &[
            victim_period(Quantity::Group("victim"), "about 15%"),
            victim_period(Quantity::Link("A->B"), "about 30%"),
        ],
        build: || no_control(1, 5),
    },
    Preset {
        name: "globecom02-fig2",
        title: "Spreading with ten remote flows",
        source: "Globecom'02 Fig. 2",
        figure: "Globecom'02 Fig. 2.",
        description: "Congestion spreading with 10 remote and 10 local flows and no ECN response, only the window \
                      of one packet that all of this paper's runs use (its footnote 1): ten remote flows can fill \
                      the 4-packet buffer at B, so the window does not stop the spreading and the victim starves.",
        paper_reports: "The victim gets 4% of the inter-switch link, which is 32.5% utilized.",
        reported: &[victim_period(Quantity::Group("victim"), "4%"), victim_period(Quantity::Link("A->B"), "32.5%")],
        // "The simulation results in this paper all use LIPD rate control and a fixed window size of one packet"
        // (Globecom'02 footnote 1): "no congestion control" here is no marking, with the window kept.
        build: || timed(10, 10),
    },
    Preset {
        name: "infocom03-fig3b",
        title: "A one-packet window stops the spreading",
        source: "INFOCOM'03 Fig. 3b",
        figure: "INFOCOM'03 Fig. 3b.",
        description: "A window of one packet per flow (L=5, R=1): at most two packets ever wait at B's inter-switch \
                      input, so it never blocks and the victim takes all the idle inter-switch bandwidth.",
        paper_reports: "The inter-switch link is fully used; the victim consumes all its idle bandwidth (slight \
                        under-use from the scheduler's starvation prevention).",
        reported: &[victim_period(Quantity::Link("A->B"), "fully used (slightly under)")],
        build: || timed(1, 5),
    },
    Preset {
        name: "infocom03-fig3c",
        title: "A window is not enough: five remote flows",
        source: "INFOCOM'03 Fig. 3c",
        figure: "INFOCOM'03 Fig. 3c.",
        description: "A window of one packet is not enough (L=5, R=5): five remote flows can fill the 4-packet \
                      buffer, so congestion spreads again and the victim suffers.",
        paper_reports: "Congestion spreading prevents the victim from getting high throughput; the inter-switch \
                        link is under-used.",
        reported: &[victim_period(Quantity::Link("A->B"), "under-used")],
        build: || timed(5, 5),
    },
    Preset {
        name: "infocom03-fig3d",
        title: "Ideal fixed rates",
        source: "INFOCOM'03 Fig. 3d",
        figure: "INFOCOM'03 Fig. 3d.",
        description: "Rate control with the ideal fixed rates (L=5, R=5, window 1): 1/10 of the link for each remote \
                      and local flow, 1/2 for the victim.",
        paper_reports: "Every flow gets its ideal throughput.",
        reported: &[
            victim_period(Quantity::Group("victim"), "50% (ideal)"),
            victim_period(Quantity::Group("remote"), "50% (ideal: 5 x 10%)"),
            victim_period(Quantity::Group("local"), "50% (ideal: 5 x 10%)"),
        ],
        build: || {
            let mut s = timed(5, 5);
            s.source.response = Response::Fixed;
            s.source.fixed_rate_fraction = 0.1;
            if let Some(v) = s.flows.iter_mut().find(|f| f.group == "victim") {
                v.source = Some(SourceOverride { fixed_rate_fraction: Some(0.5), ..SourceOverride::default() });
            }
            s
        },
    },
    Preset {
        name: "infocom03-fig4a",
        title: "Naive marking",
        source: "INFOCOM'03 Fig. 4a",
        figure: "INFOCOM'03 Fig. 4a (= Globecom'02 Fig. 3a).",
        description: "Naive marking with LIPD (R=10, L=10, window 1): only packets in a full buffer are marked, and \
                      only the remote flows share a buffer at B, so they are slowed and the locals take the root link.",
        paper_reports: "Congestion spreading is avoided and the victim is fast, but the local flows get about 90% of \
                        the root link.",
        reported: &[victim_period(Quantity::Group("local"), "about 90% of the root link")],
        build: || lipd_with(MarkingPolicy::Naive, None),
    },
    Preset {
        name: "infocom03-fig4b",
        title: "Input-triggered marking",
        source: "INFOCOM'03 Fig. 4b",
        figure: "INFOCOM'03 Fig. 4b (= Globecom'02 Fig. 3b).",
        description: "Input-triggered marking with LIPD (R=10, L=10, window 1): a full buffer marks every packet in \
                      the switch bound for the congested output, locals included.",
        paper_reports: "No spreading, high inter-switch utilization, and fairer than naive marking between remote and \
                        local flows (remotes still get less).",
        reported: &[],
        build: || lipd_with(MarkingPolicy::InputTriggered, None),
    },
    Preset {
        name: "globecom02-fig3c",
        title: "Input-output-triggered marking, threshold 4",
        source: "Globecom'02 Fig. 3c",
        figure: "Globecom'02 Fig. 3c.",
        description: "Input-output-triggered marking, output threshold 4 (R=10, L=10, LIPD): marking starts before \
                      any input buffer fills.",
        paper_reports: "Remote and local rates are closer than with input-triggered marking, but the root link is \
                        under-used: packets are marked too often.",
        reported: &[],
        build: || lipd_with(MarkingPolicy::InputOutputTriggered, Some(4)),
    },
    Preset {
        name: "globecom02-fig3d",
        title: "Input-output-triggered marking, threshold 8",
        source: "Globecom'02 Fig. 3d",
        figure: "Globecom'02 Fig. 3d.",
        description: "Input-output-triggered marking, output threshold 8 (R=10, L=10, LIPD).",
        paper_reports: "The root link is highly used without spreading; fairness is below threshold 4's but better \
                        than input-triggered marking's.",
        reported: &[],
        build: || lipd_with(MarkingPolicy::InputOutputTriggered, Some(8)),
    },
    Preset {
        name: "globecom02-fig4",
        title: "Marking with threshold 6 over 500 ms",
        source: "Globecom'02 Fig. 4",
        figure: "Globecom'02 Fig. 4 (one point).",
        description: "Input-output-triggered marking with output threshold 6 and 4-packet buffers over 500 ms \
                      (R=10, L=10, LIPD, victim on throughout). The figure sweeps buffer size and threshold; change \
                      switch.buffer_packets and marking.output_threshold_packets to explore it.",
        paper_reports: "Threshold 6 keeps the root link above 90% except at the smallest buffers; threshold 4 \
                        under-uses it; with input-triggered marking fairness improves with buffer size.",
        reported: &[measured(Quantity::Link("B->BC"), "above 90%")],
        build: || {
            let mut s = long_run(Response::Lipd, RateMode::Continuous, 4);
            s.marking.policy = MarkingPolicy::InputOutputTriggered;
            s.marking.output_threshold_packets = Some(6);
            s
        },
    },
    Preset {
        name: "infocom03-fig6",
        title: "LIPD with static traffic over 500 ms",
        source: "INFOCOM'03 Fig. 6",
        figure: "INFOCOM'03 Fig. 6 (one point).",
        description: "Static traffic over 500 ms with LIPD, continuous rates and 4-packet buffers (R=10, L=10, \
                      input-triggered marking, victim on throughout). The figure sweeps the buffer size for LIPD, \
                      FIMD and AIMD with continuous and discrete rates: change switch.buffer_packets, \
                      source.response and source.rate.",
        paper_reports: "LIPD keeps the root link near 100%; AIMD leaves the inter-switch link under-used with small \
                        buffers; discrete and continuous rates are nearly identical.",
        reported: &[measured(Quantity::Link("B->BC"), "near 100%")],
        build: || long_run(Response::Lipd, RateMode::Continuous, 4),
    },
    Preset {
        name: "infocom03-fig7a",
        title: "ON/OFF flows without persistent state",
        source: "INFOCOM'03 Fig. 7a",
        figure: "INFOCOM'03 Fig. 7a (one point).",
        description: "Half the flows ON/OFF with 0.2 ms mean ON and OFF times, without persistent state: every ON \
                      period is a new flow at Rmax. Compare with source.persistent_state = true.",
        paper_reports: "With short ON times the dynamic flows hog the bandwidth and starve the static ones; with \
                        persistent state the static flows are not penalized (they get about twice what the dynamic \
                        flows, ON half the time, get).",
        reported: &[],
        build: || dynamic_run(Response::Lipd, 200 * NS_PER_US, false, false),
    },
    Preset {
        name: "infocom03-fig7b",
        title: "ON/OFF flows with FIMD and persistent state",
        source: "INFOCOM'03 Fig. 7b",
        figure: "INFOCOM'03 Fig. 7b (one point).",
        description: "All flows but the victim ON/OFF with 0.5 ms mean ON and OFF times and persistent state, with \
                      FIMD. Compare source.response lipd and aimd, and other ON times.",
        paper_reports: "Between about 0.2 and 2 ms mean ON time FIMD gives the highest root utilization; LIPD is \
                        best for more static traffic; AIMD is about 10% below the best everywhere and leaves the \
                        inter-switch link under-used.",
        reported: &[],
        build: || dynamic_run(Response::Fimd, 500 * NS_PER_US, true, true),
    },
    Preset {
        name: "pft-two-switch",
        title: "Proactive Flow Throttling against spreading",
        source: "IFIP'21",
        figure: "PFT (IFIP'21) on INFOCOM'03 Fig. 2.",
        description: "Proactive Flow Throttling at every NIC (average threshold, fixed interval) and no other \
                      congestion control, on the Fig. 2 network (L=5, R=1). For the control factor FC, compare it \
                      with PFT off in the A/B view (ibcc run --baseline on the command line); the detection and \
                      throttling strategies are in Settings, under 'PFT and Annex A10'.",
        paper_reports:
            "FC above 1 for most strategies (2.58 for AT-RI on the paper's testbed). A NIC sees only its own \
                        link's credits, so it reacts once congestion has spread back to it.",
        reported: &[],
        build: || {
            let mut s = no_control(1, 5);
            s.pft = Some(PftConfig { detection: Detection::AverageThreshold, ..PftConfig::default() });
            s
        },
    },
    Preset {
        name: "a10-two-switch",
        title: "InfiniBand Annex A10 against spreading",
        source: "InfiniBand Annex A10",
        figure: "InfiniBand Annex A10 on INFOCOM'03 Fig. 2.",
        description: "InfiniBand's standard congestion control (FECN at congested switch ports, BECN on ACKs, CCTI \
                      and a linear CCT at the sources) on the Fig. 2 network (L=5, R=1), no window. Watch the victim \
                      while it runs (40-60 ms).",
        paper_reports:
            "Not in the seed papers: the standard that grew out of this work. The victim should keep most of \
                        the inter-switch link left after the remote flow's fair share of the root link.",
        reported: &[],
        build: || {
            let mut s = no_control(1, 5);
            s.ib_cc = Some(IbCcConfig::default());
            s
        },
    },
    Preset {
        name: "hp-two-switch",
        title: "HP's root-VL marking",
        source: "HP proposal to the IBTA",
        figure: "The HP proposal's marking policy on INFOCOM'03 Fig. 4.",
        description: "The HP slides' marking: packets in a full buffer are marked, and the outputs they wait for \
                      are assumed roots, marking what they send, until they run out of credit or have sent what was \
                      waiting (R=10, L=10, LIPD, window 1). Here it marks exactly the packets input-triggered \
                      marking does (Fig. 4b): the root link leads to a host, so no armed output runs out of credit. \
                      In a deeper tree (a fat tree) it lets go of the outputs that do.",
        paper_reports: "The slides plot the rates with LIPDI and AIMD without numbers: no spreading, the victim \
                        keeps its share.",
        reported: &[],
        build: || lipd_with(MarkingPolicy::HpRootVl, None),
    },
    Preset {
        name: "hp-unreliable-two-switch",
        title: "Unreliable flows and CN packets",
        source: "HP proposal to the IBTA",
        figure: "The HP proposal's unreliable transport on INFOCOM'03 Fig. 4.",
        description: "Every flow unreliable (R=10, L=10, LIPD, input-triggered marking): no ACKs and no window; \
                      a marked packet makes its destination send a CN packet, and the source lowers its rate. \
                      Each packet a source sends counts as an unmarked ACK for its increases.",
        paper_reports: "The slides give the transports' state (rate and general state for unreliable flows, \
                        notified by CN packets) without results.",
        reported: &[],
        build: || {
            let mut s = lipd_with(MarkingPolicy::InputTriggered, None);
            for f in &mut s.flows {
                f.transport = Transport::Unreliable;
            }
            s
        },
    },
    Preset {
        name: "vl-isolation-two-switch",
        title: "Congestion isolation: the victim on its own VL",
        source: "InfiniBand virtual lanes",
        figure: "INFOCOM'03 Fig. 2's network with the victim on a second virtual lane.",
        description: "Fig. 2 again (L=5, R=1, no congestion control), but the victim flow has service level 1, \
                      which maps to data VL 1; every other flow stays on VL 0. Each VL has its own input buffers and \
                      credits, and the inter-switch link's VL arbitration gives both VLs equal weight. The remote \
                      packets still fill VL 0's buffer at B, but the victim's packets wait in VL 1's, which drains: \
                      the victim keeps at least half the link however congested VL 0 is. Compare infocom03-fig2.",
        paper_reports: "Not in the papers: INFOCOM'03 (footnote 3) notes that virtual lanes can isolate traffic; \
                        the alternative to congestion control that InfiniBand fabrics use.",
        reported: &[],
        build: || isolated(no_control(1, 5)),
    },
    Preset {
        name: "fattree4-hotspot",
        title: "A hot spot in a fat tree",
        source: "",
        figure: "A hot spot in a k=4 fat tree, no congestion control.",
        description: "The hosts of pods 1-3 send to h0, all but h4, which sends to h6 on its own pod's other edge \
                      switch (the victim). Their flows meet at the core switch c0, whose link down to pod 0 is the \
                      root; congestion spreads back up from it, and the victim, whose own path is idle, is caught \
                      in it. Compare pft-fattree4-hotspot and a10-fattree4-hotspot.",
        paper_reports: "(Not a paper figure.) The root, c0's link down to pod 0, is saturated; the victim gets little.",
        reported: &[],
        build: || fattree_hotspot(None, None),
    },
    Preset {
        name: "pft-fattree4-hotspot",
        title: "Proactive Flow Throttling on a fat-tree hot spot",
        source: "IFIP'21",
        figure: "PFT on a hot spot in a k=4 fat tree.",
        description: "fattree4-hotspot with Proactive Flow Throttling (average threshold, fixed interval) at every \
                      NIC. For FC, compare it with PFT off in the A/B view (ibcc run --baseline on the command line).",
        paper_reports: "The PFT paper's setting is a fat tree with GPCNeT congestors; FC above 1 for most strategies.",
        reported: &[],
        build: || {
            fattree_hotspot(Some(PftConfig { detection: Detection::AverageThreshold, ..PftConfig::default() }), None)
        },
    },
    Preset {
        name: "a10-fattree4-hotspot",
        title: "InfiniBand Annex A10 on a fat-tree hot spot",
        source: "InfiniBand Annex A10",
        figure: "Annex A10 on a hot spot in a k=4 fat tree.",
        description: "fattree4-hotspot with InfiniBand's Annex A10 congestion control at every switch and source.",
        paper_reports: "(Not a paper figure.) The hot-spot senders slow down and the victim recovers.",
        reported: &[],
        build: || fattree_hotspot(None, Some(IbCcConfig::default())),
    },
    Preset {
        name: "fattree4-shift",
        title: "How OpenSM routes a fat tree: a shift under minhop",
        source: "OpenSM",
        figure: "A shift by 4 on the k=4 fat tree as OpenSM finds it, routed by minhop.",
        description: "The 3-level k=4 fat tree (16 hosts, 20 switches), generated as OpenSM would discover it. \
                      Every host sends to the host four on, in another pod, with no window. Minhop, OpenSM's \
                      default, balances each switch's routes by how many destinations use each port, switch by \
                      switch: some core links get two of the shift's routes, and every flow gets half a link. Set \
                      the routing engine to ftree: it routes destinations leaf by leaf, one route a link, and every \
                      flow gets a whole link. The pattern tool shows each link's routes.",
        paper_reports: "Not in the papers: OpenSM's routing (minhop and ftree, as OpenSM 3.3.23 fills the tables).",
        reported: &[],
        build: fattree4_shift,
    },
    Preset {
        name: "ring6-deadlock",
        title: "A credit loop on a ring: deadlock, and how routing breaks it",
        source: "OpenSM",
        figure: "A ring of six switches, each host sending two switches on, routed by minhop.",
        description: "Shortest paths on a ring chase each other round it: each link's packets wait for credit on \
                      the next link, whose packets wait on the next, back to the first (a cycle in the channel \
                      dependency graph, a credit loop). With no window the buffers fill and the run deadlocks; the \
                      credit-loop check names the cycle. updn with a root given routes round the root, and dfsssp \
                      puts the routes that close the cycle on a second virtual lane: either breaks the loop.",
        paper_reports: "Not in the papers: credit loops and deadlock-free routing in InfiniBand fabrics.",
        reported: &[],
        build: ring6,
    },
    Preset {
        name: "fabric32-hotspot",
        title: "A hot spot on a real fabric",
        source: "OpenSM",
        figure: "A hot spot over background traffic on a two-level fat tree of 8-port switches, routed by ftree.",
        description: "32 hosts on 8 leaves under 4 spines, routed by ftree. Every host sends to the same host on \
                      the next leaf (the background, which ftree spreads with one route a link), and 8 hosts spread \
                      over the leaves also send to the first host: its link is the root of a congestion tree that \
                      grows back through the spines, and background flows that share a buffer with the hot spot's \
                      packets become its victims. No congestion control: turn on marking and a source response, or \
                      Annex A10, and compare.",
        paper_reports: "Not in the papers: their mechanisms on a fabric routed as OpenSM routes it.",
        reported: &[],
        build: fabric32_hotspot,
    },
];

/// The fat-tree hot spot over 20 ms, measured from 5 ms, with no window and the given NIC / Annex A10 control.
fn fattree_hotspot(pft: Option<PftConfig>, ib_cc: Option<IbCcConfig>) -> Scenario {
    let mut s = fat_tree_hotspot(4, "", 20 * NS_PER_MS);
    s.measure.from_ns = 5 * NS_PER_MS;
    s.source.window_packets = None;
    s.pft = pft;
    s.ib_cc = ib_cc;
    s
}

/// The golden scenario: INFOCOM'03 Fig. 4b cut to 10 ms, with one ON/OFF remote flow so random draws are
/// exercised too, and discrete (IPD table) rates.
pub fn golden_scenario() -> Scenario {
    let mut s = find("infocom03-fig4b").expect("preset exists").scenario();
    s.name = String::from("golden");
    s.duration_ns = 10 * NS_PER_MS;
    s.measure.from_ns = 2 * NS_PER_MS;
    s.source.rate = RateMode::Discrete;
    if let Some(f) = s.flows.iter_mut().find(|f| f.id == "remote1") {
        f.traffic = Traffic::OnOff { mean_on_ns: 300 * NS_PER_US, mean_off_ns: 300 * NS_PER_US };
    }
    for f in &mut s.flows {
        f.start_ns /= 10;
        if f.group == "victim" {
            f.start_ns = 3 * NS_PER_MS;
            f.stop_ns = Some(7 * NS_PER_MS);
        }
    }
    s
}

/// Simulated time of each golden run: enough for every preset's flows to start and its congestion control to act.
const GOLDEN_NS: u64 = 4 * NS_PER_MS;

/// The runs whose fingerprints are recorded (tests/golden/fingerprints.txt) and compared natively and in the
/// browser: every preset cut to its first 4 ms (its flows' starts brought forward as in the golden scenario, so
/// each runs), the golden scenario, and one with ACK coalescing, which no preset has. Together they exercise
/// every marking policy, source response, PFT, Annex A10, virtual lanes, unreliable flows, ON/OFF traffic and
/// OpenSM's engines (minhop, ftree, and dfsssp with its lanes on the ring).
pub fn golden_runs() -> Vec<(String, Scenario)> {
    let mut runs: Vec<(String, Scenario)> = PRESETS
        .iter()
        .map(|p| {
            let mut s = p.scenario();
            let (full, short) = (s.duration_ns.max(1), s.duration_ns.min(GOLDEN_NS));
            s.duration_ns = short;
            s.measure = Default::default();
            for f in &mut s.flows {
                // Starts and stops keep their order, in the first 4 ms.
                f.start_ns = f.start_ns * short / full;
                f.stop_ns = f.stop_ns.map(|t| t * short / full);
            }
            if p.name == "ring6-deadlock" {
                // Its deadlock stops it within a thousand events: the golden run is its cure, dfsssp's lanes (and
                // each flow's SL from them), which no other preset exercises.
                s.routing.engine = crate::scenario::RoutingEngine::Dfsssp;
                s.virtual_lanes =
                    Some(VirtualLanes { data_vls: 2, sl_to_vl: Vec::new(), arbitration: Default::default() });
            }
            (String::from(p.name), s)
        })
        .collect();
    runs.push((String::from("golden"), golden_scenario()));
    let mut coalescing = golden_scenario();
    coalescing.name = String::from("golden-ack-coalescing");
    coalescing.ack_coalescing = Some(crate::net::host::AckCoalescing { every_packets: 4 });
    coalescing.source.window_packets = Some(8);
    runs.push((coalescing.name.clone(), coalescing));
    runs
}

/// The preset with this name.
pub fn find(name: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.name == name)
}

/// The benchmark scenarios of `ibcc bench` and the page's `?selftest=bench` (the same runs natively and in wasm):
/// the Fig. 4 case (R=10, L=10, LIPD, input-triggered marking, window 1), Fig. 2 without control, 1024 flows, and a
/// k=8 fat tree.
pub fn bench_scenarios(duration_ms: u64) -> Vec<(&'static str, Scenario)> {
    let mut fig4 = find("infocom03-fig4b").expect("preset exists").scenario();
    fig4.duration_ns = duration_ms * 1_000_000;
    fig4.measure.from_ns = fig4.duration_ns / 5;
    fig4.measure.to_ns = None;
    for f in &mut fig4.flows {
        f.stop_ns = None;
    }
    let mut fig2 = find("infocom03-fig2").expect("preset exists").scenario();
    fig2.duration_ns = duration_ms * 1_000_000;
    fig2.measure.from_ns = fig2.duration_ns / 5;
    fig2.measure.to_ns = None;
    // Scaling: 16 source hosts with 64 flows each (1024 flows) into the same root link, LIPD with input-triggered
    // marking. The cost per event should match the 21-flow case: nothing in the event loop scans all flows.
    let mut many = TwoSwitch { remote: 8, local: 8, stagger_ns: 10_000, victim: Some((0, None)), dynamic: None }
        .scenario("many-flows", duration_ms * 1_000_000);
    many.source.response = Response::Lipd;
    many.marking.policy = MarkingPolicy::InputTriggered;
    many.measure.from_ns = many.duration_ns / 5;
    let base: Vec<_> = many.flows.drain(..).collect();
    for f in base {
        let copies = if f.group == "victim" { 1 } else { 64 };
        for k in 0..copies {
            let mut g = f.clone();
            g.id = alloc::format!("{}-{k}", f.id);
            g.start_ns += k * 1_000;
            many.flows.push(g);
        }
    }
    // Scaling with the network: a k=8 fat tree (80 switches, 128 hosts) under a shift pattern, LIPD with
    // input-triggered marking. A tenth of the duration: it has about 40x the events per simulated ms.
    let mut tree = fat_tree_shift(8, "fattree8-shift", (duration_ms * 1_000_000 / 10).max(1));
    tree.source.response = Response::Lipd;
    tree.marking.policy = MarkingPolicy::InputTriggered;
    tree.measure.from_ns = tree.duration_ns / 5;
    alloc::vec![
        ("fig4-lipd-input-triggered", fig4),
        ("fig2-no-control", fig2),
        ("many-flows-1024", many),
        ("fattree8-shift", tree),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_valid_and_round_trips_through_json() {
        for p in PRESETS {
            let s = p.scenario();
            s.validate().unwrap_or_else(|e| panic!("{}: {e}", p.name));
            assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s, "{}", p.name);
        }
    }

    #[test]
    fn names_are_unique() {
        for (i, p) in PRESETS.iter().enumerate() {
            assert!(PRESETS[i + 1..].iter().all(|q| q.name != p.name), "{}", p.name);
            assert_eq!(find(p.name).map(|q| q.name), Some(p.name));
            // The page lists presets by label: two alike could not be told apart.
            assert!(PRESETS[i + 1..].iter().all(|q| q.label() != p.label()), "{}", p.label());
        }
        assert_eq!(find("infocom03-fig2").unwrap().label(), "Congestion spreading, INFOCOM'03 Fig. 2");
        // A title that names its source is not followed by it again.
        assert_eq!(find("a10-two-switch").unwrap().label(), "InfiniBand Annex A10 against spreading");
        assert_eq!(find("fattree4-shift").unwrap().label(), "How OpenSM routes a fat tree: a shift under minhop");
    }
}
