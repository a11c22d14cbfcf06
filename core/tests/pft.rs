//! Proactive Flow Throttling in whole scenarios (docs/model.md §7; the IFIP'21 paper).

use ibcc_core::cc::pft::{Detection, PftConfig, Throttling};
use ibcc_core::presets::find;
use ibcc_core::scenario::{Link, Node, NodeKind, Scenario};
use ibcc_core::sim::{ControlFactor, Results, Run};

fn run(s: &Scenario) -> Results {
    let mut sim = Run::new(s).unwrap();
    while !sim.is_finished() {
        sim.step(10_000);
        sim.sim.check_invariants().unwrap();
    }
    sim.results()
}

/// Globecom'02 Fig. 2's network without end-to-end congestion control (no window either), measured while the
/// victim runs.
fn spreading(pft: Option<PftConfig>) -> Scenario {
    let mut s = find("globecom02-fig2").unwrap().scenario();
    s.source.window_packets = None;
    s.duration_ns = 60_000_000;
    s.measure.from_ns = 40_000_000;
    s.pft = pft;
    s
}

/// What a NIC-local scheme can and cannot do here. A remote source's credits stay in use only while A's input buffer
/// for it is full, which happens only once B's ISL buffer is full and the ISL blocked: PFT sees congestion after it
/// has spread to the source. Throttled, the sources stop stuffing their first hop, so the congesting flows' packets
/// wait less (the delay falls, the root link stays saturated: FC > 1). But ten remote sources, each throttled, still
/// offer more than their input's 1/11 share of the root link, so B's ISL buffer stays full and the victim, which
/// shares it, stays starved. So FC comes from the delay alone: tested that throughput is unchanged (within 1%, the
/// root link saturated either way), that the delay falls by at least a tenth (a clear effect, not noise: runs are
/// deterministic), and that the victim stays under 5% of its link.
#[test]
fn pft_shortens_queues_but_cannot_rescue_the_victim() {
    let base = run(&spreading(None));
    for detection in [Detection::FixedThreshold, Detection::AverageThreshold] {
        let cfg = PftConfig { detection, throttling: Throttling::FixedInterval, ..PftConfig::default() };
        let r = run(&spreading(Some(cfg)));
        let fc = ControlFactor::new(&r, &base).unwrap();
        assert!(
            (fc.throughput / fc.baseline_throughput - 1.0).abs() < 0.01,
            "{detection:?}: B {} vs {}",
            fc.throughput,
            fc.baseline_throughput
        );
        assert!(
            fc.delay_ns < 0.9 * fc.baseline_delay_ns,
            "{detection:?}: delay {} vs {}",
            fc.delay_ns,
            fc.baseline_delay_ns
        );
        assert!(fc.fc > 1.1, "{detection:?}: FC {}", fc.fc);
        assert!(r.link("B->BC").unwrap().utilization > 0.99);
        assert!(r.group("victim").unwrap().throughput_fraction < 0.05, "{detection:?}: the victim is not rescued");
        assert_eq!(r.totals.dropped_packets, 0);
    }
}

/// Fixed Interval on one host, by hand: with FT thresholds 0/0 the NIC is Congested from its first packet (c > 0)
/// and never leaves (c < 0 is impossible). With n = 64 the shift clears c, so f(c) = k = 1: each 2068-byte packet
/// (130 flits of 16 bytes) is followed by 130 idle cycles of 16 ns, so one packet per 2068 + 2080 ns.
#[test]
fn fixed_interval_spaces_packets_by_the_flits_idle_cycles() {
    let mut s = Scenario::empty("fi", 1_000_000);
    s.nodes = vec![
        Node { id: "H".into(), kind: NodeKind::Host, switch: None, x: None, y: None },
        Node { id: "S".into(), kind: NodeKind::Switch, switch: None, x: None, y: None },
        Node { id: "D".into(), kind: NodeKind::Host, switch: None, x: None, y: None },
    ];
    s.links = vec![Link::between("H", "S"), Link::between("S", "D")];
    s.flows = vec![ibcc_core::scenario::Flow::new("f", "H", "D")];
    s.source.window_packets = None;
    s.pft =
        Some(PftConfig { enter_threshold_blocks: 0, exit_threshold_blocks: 0, n: 64, k: 1, ..PftConfig::default() });
    let r = run(&s);
    let f = r.flow("f").unwrap();
    let want = 2068.0 / (2068.0 + 130.0 * 16.0);
    assert!((f.throughput_fraction - want).abs() < 0.01, "{} vs {want}", f.throughput_fraction);
}

/// Fixed-threshold detection needs its exit threshold at or below its enter threshold (te >= ts, IFIP'21 §III-B):
/// the other way round it would leave Congested at the first credit back. The error names the field.
#[test]
fn fixed_threshold_detection_refuses_an_exit_above_its_enter() {
    let mut s = find("pft-two-switch").unwrap().scenario();
    let pft = s.pft.as_mut().unwrap();
    pft.detection = Detection::FixedThreshold;
    (pft.enter_threshold_blocks, pft.exit_threshold_blocks) = (33, 99);
    let err = s.validate().unwrap_err().to_string();
    assert!(err.contains("pft.exit_threshold_blocks") && err.contains("te >= ts"), "{err}");
    s.pft.as_mut().unwrap().detection = Detection::AverageThreshold;
    assert!(s.validate().is_ok(), "AT has no such order (the paper's best point has escape above enter)");
}
