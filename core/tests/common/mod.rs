//! Shared by the integration tests: random scenarios, and a single switch.
// (Each test file uses some of these.)
#![allow(dead_code)]

use ibcc_core::cc::pft::{Detection, PftConfig, Throttling};
use ibcc_core::rng::Rng;
use ibcc_core::scenario::{
    AckCoalescing, Arbitration, BypassCounting, Cnt1Until, Flow, FullCheck, IbCcConfig, Link, MarkingPolicy, Node,
    NodeKind, RateMode, Response, RoutingEngine, Scenario, SourceOverride, Traffic, Transport, VirtualLanes,
    VlArbitration, VlWeight,
};

/// A random connected network: a random tree of switches plus a few extra switch links, hosts on random switches,
/// random flows with random congestion control, random link rates and propagation delays.
pub fn random_scenario(seed: u64) -> Scenario {
    let mut rng = Rng::new(seed, 0xC0FFEE);
    let mut s = Scenario::empty(&format!("random-{seed}"), 400_000 + rng.below(800_000));
    s.seed = seed;
    let switches = 1 + rng.below(6) as usize;
    let hosts = 2 + rng.below(10) as usize;
    for i in 0..switches {
        s.nodes.push(Node { id: format!("S{i}"), kind: NodeKind::Switch, switch: None, x: None, y: None });
    }
    for i in 1..switches {
        let parent = rng.below(i as u64);
        s.links.push(Link::between(&format!("S{parent}"), &format!("S{i}")));
    }
    for _ in 0..rng.below(3) {
        let (a, b) = (rng.below(switches as u64), rng.below(switches as u64));
        if a != b {
            s.links.push(Link::between(&format!("S{a}"), &format!("S{b}")));
        }
    }
    for i in 0..hosts {
        s.nodes.push(Node { id: format!("H{i}"), kind: NodeKind::Host, switch: None, x: None, y: None });
        let sw = rng.below(switches as u64);
        s.links.push(Link::between(&format!("H{i}"), &format!("S{sw}")));
    }
    for l in &mut s.links {
        if rng.below(3) == 0 {
            l.bandwidth_gbps = Some([2.0, 4.0, 8.0, 16.0, 12.5][rng.below(5) as usize]);
        }
        if rng.below(3) == 0 {
            l.propagation_ns = Some(rng.below(500));
        }
    }
    s.switch.buffer_packets = 1 + rng.below(6) as u32;
    s.switch.max_bypass = rng.below(6) as u32;
    s.switch.bypass_counting = [BypassCounting::Head, BypassCounting::EachPacket][rng.below(2) as usize];
    s.switch.input_transfers = [None, Some(1), Some(2)][rng.below(3) as usize];
    s.switch.arbitration = [Arbitration::OldestFirst, Arbitration::RoundRobin][rng.below(2) as usize];
    s.switch.forwarding_delay_ns = rng.below(100);
    s.packet.payload_bytes = [256, 1024, 2048, 4096][rng.below(4) as usize];
    s.marking.policy = [
        MarkingPolicy::None,
        MarkingPolicy::Naive,
        MarkingPolicy::InputTriggered,
        MarkingPolicy::InputOutputTriggered,
        MarkingPolicy::HpRootVl,
    ][rng.below(5) as usize];
    s.marking.output_threshold_packets = Some(1 + rng.below(8) as u32);
    if rng.below(3) == 0 {
        s.marking.buffer_threshold_packets = Some(1 + rng.below(4) as u32);
    }
    s.marking.full_check = [FullCheck::OnReceipt, FullCheck::OnHead][rng.below(2) as usize];
    s.marking.cnt1_until = [Cnt1Until::Start, Cnt1Until::Departure][rng.below(2) as usize];
    let responses = [Response::None, Response::Fixed, Response::Aimd, Response::Fimd, Response::Lipd, Response::Hybrid];
    s.source.response = responses[rng.below(6) as usize];
    s.source.rate = if rng.below(2) == 0 { RateMode::Continuous } else { RateMode::Discrete };
    s.source.window_packets = [None, Some(1), Some(2), Some(4)][rng.below(4) as usize];
    if s.source.response == Response::Hybrid && s.source.window_packets.is_none() {
        s.source.window_packets = Some(4);
    }
    s.source.fixed_rate_fraction = 0.05 + 0.95 * rng.uniform();
    s.source.persistent_state = rng.below(2) == 0;
    let flows = 1 + rng.below(12);
    for i in 0..flows {
        let src = rng.below(hosts as u64);
        let mut dst = rng.below(hosts as u64);
        if dst == src {
            dst = (dst + 1) % hosts as u64;
        }
        let traffic = if rng.below(3) == 0 {
            Traffic::OnOff { mean_on_ns: 1 + rng.below(100_000), mean_off_ns: 1 + rng.below(100_000) }
        } else {
            Traffic::Greedy
        };
        let start_ns = rng.below(s.duration_ns / 2);
        let stop_ns = (rng.below(4) == 0).then(|| start_ns + 1 + rng.below(s.duration_ns));
        let source =
            (rng.below(4) == 0).then(|| SourceOverride { response: Some(Response::Lipd), ..Default::default() });
        s.flows.push(Flow {
            group: format!("g{}", rng.below(3)),
            start_ns,
            stop_ns,
            traffic,
            source,
            ..Flow::new(&format!("f{i}"), &format!("H{src}"), &format!("H{dst}"))
        });
    }
    if rng.below(3) == 0 {
        let mut pft = PftConfig {
            detection: if rng.below(2) == 0 { Detection::FixedThreshold } else { Detection::AverageThreshold },
            throttling: if rng.below(2) == 0 { Throttling::FixedInterval } else { Throttling::RandomInterval },
            enter_threshold_blocks: rng.below(200) as u32,
            exit_threshold_blocks: rng.below(100) as u32,
            enter_window_cycles: 64 + rng.below(512) as u32,
            enter_count_cycles: 32,
            exit_window_cycles: 64 + rng.below(512) as u32,
            exit_count_cycles: 32,
            m: rng.below(3) as u32,
            n: rng.below(3) as u32,
            k: rng.below(4) as u32,
            random_bits: 6 + rng.below(4) as u32,
            ..PftConfig::default()
        };
        if pft.detection == Detection::FixedThreshold {
            // FT needs te >= ts (IFIP'21 §III-B).
            pft.exit_threshold_blocks = pft.exit_threshold_blocks.min(pft.enter_threshold_blocks);
        }
        s.pft = Some(pft);
    } else if rng.below(3) == 0 {
        s.ib_cc = Some(IbCcConfig {
            threshold: rng.below(16) as u8,
            marking_rate: rng.below(4) as u16,
            victim_mask_ports: (1..=rng.below(4) as u8).collect(),
            ccti_increase: 1 + rng.below(3) as u16,
            ccti_timer: 1 + rng.below(100) as u16,
            ..IbCcConfig::default()
        });
        s.marking.policy = MarkingPolicy::None;
        s.source.response = Response::None;
        for f in &mut s.flows {
            f.source = None;
        }
    }
    s.measure.from_ns = rng.below(s.duration_ns);
    // Half the time the interval ends early (or, clipped, past the end of the run).
    s.measure.to_ns = (rng.below(2) == 0).then(|| s.measure.from_ns + 1 + rng.below(s.duration_ns));
    s.measure.window_ns = 50_000;
    // ACK coalescing a third of the time, and a quarter of the flows unreliable (drawn last, so the rest of each
    // scenario is what it was). A hybrid source needs a window, which an unreliable flow does not have.
    if rng.below(3) == 0 {
        s.ack_coalescing = Some(AckCoalescing { every_packets: 1 + rng.below(8) as u32 });
    }
    let base = s.source;
    for f in &mut s.flows {
        let response = f.source.as_ref().and_then(|o| o.response).unwrap_or(base.response);
        if rng.below(4) == 0 && response != Response::Hybrid {
            f.transport = Transport::Unreliable;
        }
    }
    // Virtual lanes a third of the time (drawn last too): 2 to 4 VLs, SLs per flow, sometimes an SL-to-VL table,
    // a high-priority table or links with weights of their own. Every VL keeps an entry in the low table, so every
    // flow is served.
    if rng.below(3) == 0 {
        let vls = 2 + rng.below(3) as u8;
        let all = |rng: &mut Rng, max: u64| -> Vec<VlWeight> {
            (0..vls).map(|vl| VlWeight { vl, weight: 1 + rng.below(max) as u8 }).collect()
        };
        let sl_to_vl =
            if rng.below(2) == 0 { (0..16).map(|_| rng.below(u64::from(vls)) as u8).collect() } else { vec![] };
        let (high, high_limit) = if rng.below(3) == 0 {
            (
                vec![VlWeight { vl: rng.below(u64::from(vls)) as u8, weight: 1 + rng.below(255) as u8 }],
                rng.below(256) as u8,
            )
        } else {
            (vec![], 0)
        };
        let low = if rng.below(2) == 0 { all(&mut rng, 255) } else { vec![] };
        s.virtual_lanes =
            Some(VirtualLanes { data_vls: vls, sl_to_vl, arbitration: VlArbitration { low, high, high_limit } });
        for f in &mut s.flows {
            f.sl = rng.below(16) as u8;
        }
        for l in &mut s.links {
            if rng.below(4) == 0 {
                l.vl_arbitration = Some(VlArbitration { low: all(&mut rng, 255), ..Default::default() });
            }
        }
    }
    // Last, so that the draws above (and the scenarios they make) stay as they were.
    s.routing.engine = [RoutingEngine::Minhop, RoutingEngine::Updn, RoutingEngine::FirstListed][rng.below(3) as usize];
    s
}

/// `hosts` hosts H0.. on one switch S (a crossbar).
pub fn crossbar(hosts: usize) -> Scenario {
    let mut s = Scenario::empty("crossbar", 100_000_000);
    s.nodes.push(Node { id: "S".into(), kind: NodeKind::Switch, switch: None, x: None, y: None });
    for i in 0..hosts {
        s.nodes.push(Node { id: format!("H{i}"), kind: NodeKind::Host, switch: None, x: None, y: None });
        s.links.push(Link::between(&format!("H{i}"), "S"));
    }
    s
}
