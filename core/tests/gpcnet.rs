//! GPCNeT's congestion impact on our networks (docs/gpcnet.md): the checks issue 31 names. The numbers the tests
//! see are printed (`cargo test --test gpcnet -- --nocapture`); no threshold here was tuned to make a test pass.

mod common;

use ibcc_core::fabric::netfile::write_net;
use ibcc_core::fabric::{shapes, Speed, Width};
use ibcc_core::scenario::{scenario_of, MarkingPolicy, Response, RoutingEngine, Scenario, VirtualLanes};
use ibcc_core::sim::congestion_impact::{
    canary_control_factor, congestion_impact, gpcnet_hosts, run_canary, CanaryImpact, CanaryRunner,
};
use ibcc_core::sim::Simulation;
use ibcc_core::workload::gpcnet::{self, Canary, GpcnetConfig, CONGESTOR_FRACTION};

/// The two-level fat tree of 8-port switches: 32 hosts on 8 leaves under 4 spines, 4xEDR, routed by ftree.
fn two_level() -> Scenario {
    let net = write_net(&shapes::two_level(8, (Width::X4, Speed::Edr)).unwrap());
    let mut s = scenario_of("twolevel8", &net, 1_000_000).unwrap();
    s.routing.engine = RoutingEngine::Ftree;
    s
}

fn show(label: &str, impacts: &[CanaryImpact]) {
    for i in impacts {
        eprintln!(
            "{label}: {:<32} isolated {:>9.3} / {:>9.3}  congested {:>9.3} / {:>9.3}  impact {}X / {}X",
            i.canary.name(),
            i.isolated.figures.avg,
            i.isolated.figures.p99,
            i.congested.figures.avg,
            i.congested.figures.p99,
            i.impact_avg,
            i.impact_p99
        );
    }
}

/// netbench/GPCNET#5: on one switch, canaries and congestors share no link and no input buffer, so every canary
/// test gives the same figures with congestors as without, at one and at several processes per node.
#[test]
fn on_one_switch_congestors_do_not_touch_the_canaries() {
    let s = common::crossbar(12);
    for ppn in [1, 3] {
        let c = GpcnetConfig { processes_per_node: ppn, ..GpcnetConfig::default() };
        let impacts = congestion_impact(&s, &c).unwrap();
        show(&format!("crossbar ppn {ppn}"), &impacts);
        for i in &impacts {
            assert_eq!(i.isolated.figures, i.congested.figures, "{:?} at ppn {ppn}", i.canary);
            assert!(i.congested.events > i.isolated.events, "the congestors ran");
            assert_eq!((i.impact_avg, i.impact_p99), (1.0, 1.0));
        }
    }
}

/// On a two-level fat tree without congestion control, congestion hurts the canaries' tail latency, more with
/// more congestor nodes; and a congestion control that works (input-output-triggered ECN marking with LIPD sources,
/// Globecom'02 and INFOCOM'03) hurts them less. At 4 processes per node: at 1 the default scale loads the fabric
/// too little for any switch to mark (the impact is 1.7X, with or without marking). The runs' numbers are printed.
#[test]
fn on_a_fat_tree_congestion_hurts_and_more_congestors_hurt_more() {
    let s = two_level();
    let latency = |s: &Scenario, share: f64| {
        let c = GpcnetConfig { congestor_fraction: share, processes_per_node: 4, ..GpcnetConfig::default() };
        let i = CanaryImpact::of(
            run_canary(s, &c, Canary::Latency, false).unwrap(),
            run_canary(s, &c, Canary::Latency, true).unwrap(),
        );
        show(&format!("{} share {share}", s.name), core::slice::from_ref(&i));
        i
    };
    let (few, many) = (latency(&s, 0.3), latency(&s, CONGESTOR_FRACTION));
    assert!(many.impact_p99 > 1.0, "{many:?}");
    assert!(many.impact_p99 > few.impact_p99, "more congestors: {} vs {}", many.impact_p99, few.impact_p99);
    let mut controlled = s.clone();
    controlled.name = String::from("twolevel8 ecn+lipd");
    controlled.marking.policy = MarkingPolicy::InputOutputTriggered;
    // Globecom'02 Fig. 4's setting: output threshold 6 packets.
    controlled.marking.output_threshold_packets = Some(6);
    controlled.source.response = Response::Lipd;
    let with = latency(&controlled, CONGESTOR_FRACTION);
    assert!(
        with.congested.figures.p99 < many.congested.figures.p99,
        "ECN and LIPD: p99 {} vs {} without",
        with.congested.figures.p99,
        many.congested.figures.p99
    );
}

/// Congestion isolation: with the canaries on a VL of their own (SL 1), the congestors' full buffers no longer hold
/// their packets, so the latency canary's congested p99 falls (at 4 processes per node, as above); the congestors'
/// traffic still shares every link with them. The runs' numbers are printed.
#[test]
fn a_vl_of_their_own_shields_the_canaries() {
    let s = two_level();
    let c = GpcnetConfig { processes_per_node: 4, ..GpcnetConfig::default() };
    let shared = run_canary(&s, &c, Canary::Latency, true).unwrap();
    let mut lanes = s.clone();
    lanes.virtual_lanes = Some(VirtualLanes { data_vls: 2, sl_to_vl: Vec::new(), arbitration: Default::default() });
    let isolated_c = GpcnetConfig { canary_service_level: 1, ..c.clone() };
    let own = run_canary(&lanes, &isolated_c, Canary::Latency, true).unwrap();
    eprintln!(
        "twolevel8 ppn4 congested latency p99: shared VL {:.3} us, own VL {:.3} us",
        shared.figures.p99, own.figures.p99
    );
    assert!(own.figures.p99 < shared.figures.p99, "own VL {} vs shared {}", own.figures.p99, shared.figures.p99);
    // The same lanes with everyone on SL 0 run as one VL did: the second VL alone changes nothing.
    let one = run_canary(&lanes, &c, Canary::Latency, true).unwrap();
    assert_eq!(one.figures, shared.figures);
}

/// FC of the baseline against itself is exactly 1, and every message a finished run posted completed.
#[test]
fn the_baseline_against_itself_has_fc_1_and_messages_are_conserved() {
    let s = two_level();
    let c = GpcnetConfig::default();
    let impacts = congestion_impact(&s, &c).unwrap();
    show("twolevel8", &impacts);
    assert_eq!(canary_control_factor(&impacts, &impacts).unwrap().fc, 1.0);
    let hosts = gpcnet_hosts(&s);
    let place = gpcnet::placement(hosts.len(), c.congestor_fraction, c.seed).unwrap();
    let mut s = s;
    s.duration_ns = c.time_limit_ns;
    for canary in Canary::ALL {
        // The isolated run ends when every process has finished; the congested one when the canaries have.
        let w = gpcnet::workload(&hosts, &c, &place, canary, false).unwrap();
        let mut sim = Simulation::with_workload(&s, &w).unwrap();
        sim.run_workload(&mut ());
        assert!(sim.workload().unwrap().unfinished().is_empty(), "{canary:?}");
        let counts = sim.workload().unwrap().counts();
        assert_eq!((counts.sends_done, counts.recvs, counts.recvs_done), (counts.sends, counts.sends, counts.sends));
        sim.check_invariants().unwrap();
    }
}

/// The same configuration and seed give the same figures; another placement seed gives other ones.
#[test]
fn runs_are_deterministic_in_the_seed() {
    let s = two_level();
    let c = GpcnetConfig::default();
    let a = run_canary(&s, &c, Canary::Allreduce, true).unwrap();
    assert_eq!(a, run_canary(&s, &c, Canary::Allreduce, true).unwrap());
    let other = GpcnetConfig { seed: 2, ..c };
    assert_ne!(a.figures, run_canary(&s, &other, Canary::Allreduce, true).unwrap().figures);
}

/// A run taken a step at a time is the same run: its progress climbs to 1 and it ends with `run_canary`'s figures
/// and events.
#[test]
fn a_run_in_steps_is_the_same_run_and_shows_its_progress() {
    let s = two_level();
    let c = GpcnetConfig { processes_per_node: 2, ..GpcnetConfig::default() };
    for canary in Canary::ALL {
        let whole = run_canary(&s, &c, canary, true).unwrap();
        let mut steps = CanaryRunner::new(&s, &c, canary, true).unwrap();
        let mut seen = vec![steps.progress()];
        while !steps.step() {
            seen.push(steps.progress());
        }
        seen.push(steps.progress());
        assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{canary:?}: progress went back: {seen:?}");
        assert!(seen[seen.len() / 2] > 0.0 && seen[seen.len() - 2] < 1.0, "{canary:?}: {seen:?}");
        assert_eq!(*seen.last().unwrap(), 1.0);
        assert_eq!(steps.finish().unwrap(), whole, "{canary:?}");
    }
}

/// Bad settings are refused by name.
#[test]
fn bad_settings_are_refused_by_name() {
    let s = common::crossbar(12);
    let c = GpcnetConfig { processes_per_node: 0, ..GpcnetConfig::default() };
    assert!(run_canary(&s, &c, Canary::Latency, false).unwrap_err().contains("processes per node"));
    let small = common::crossbar(9);
    let err = run_canary(&small, &GpcnetConfig::default(), Canary::Latency, false).unwrap_err();
    assert!(err.contains("at least 2 canary nodes and 8 congestor nodes"), "{err}");
    let c = GpcnetConfig { time_limit_ns: 1_000, ..GpcnetConfig::default() };
    let err = run_canary(&s, &c, Canary::Latency, false).unwrap_err();
    assert!(err.contains("had not finished after"), "{err}");
}
