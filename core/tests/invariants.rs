//! Property tests: on randomly generated networks and traffic, the model's invariants hold at every step (nothing
//! dropped, packets and ACKs conserved, credits consistent with buffer occupancy and within bounds, every step makes
//! progress),
//! and the same scenario and seed always give the same results.

mod common;

use common::random_scenario;
use ibcc_core::sim::{Fingerprint, Run};

#[test]
fn invariants_hold_at_every_step_of_random_scenarios() {
    for seed in 1..=60 {
        let s = random_scenario(seed);
        // The switches form a connected tree (plus loops), so every random scenario is valid.
        let mut sim = Run::new(&s).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        while !sim.is_finished() {
            // (The clock cannot go back: the event queue refuses it, core/src/engine's tests.) Each step makes
            // progress: it handles an event or, with none left before the end, finishes the run.
            let before = sim.sim.events();
            sim.step(1 + seed % 50);
            assert!(
                sim.sim.events() > before || sim.is_finished(),
                "seed {seed}: a step did nothing at {} ps",
                sim.now()
            );
            assert!(sim.now() <= sim.sim.end());
            if let Err(e) = sim.sim.check_invariants() {
                panic!("seed {seed} at {} ps: {e}\n{}", sim.now(), s.to_json());
            }
        }
        let r = sim.results();
        assert_eq!(r.totals.dropped_packets, 0);
        for l in &r.links {
            assert!((0.0..=1.0 + 1e-9).contains(&l.utilization), "seed {seed} {}: {}", l.id, l.utilization);
        }
        for f in &r.flows {
            assert!((0.0..=1.0 + 1e-9).contains(&f.throughput_fraction), "seed {seed} {}", f.id);
            assert!(f.measured_marks <= f.marks, "seed {seed} {}", f.id);
        }
        for b in &r.buffers {
            assert!((0.0..=b.capacity_packets + 1e-9).contains(&b.mean_packets), "seed {seed} {}<-{}", b.node, b.from);
        }
        for g in &r.groups {
            let members: Vec<_> = r.flows.iter().filter(|f| f.group == g.name).collect();
            assert_eq!(g.flows as usize, members.len(), "seed {seed} group {}", g.name);
            assert_eq!(g.marks, members.iter().map(|f| f.marks).sum::<u64>(), "seed {seed} group {}", g.name);
            let measured = members.iter().map(|f| f.measured_marks).sum::<u64>();
            assert_eq!(g.measured_marks, measured, "seed {seed} group {}", g.name);
            let delays: Vec<f64> = members.iter().filter_map(|f| f.mean_delay_ns).collect();
            match g.mean_delay_ns {
                None => assert!(delays.is_empty(), "seed {seed} group {}", g.name),
                Some(d) => {
                    let (lo, hi) = delays.iter().fold((f64::MAX, 0.0f64), |(lo, hi), &x| (lo.min(x), hi.max(x)));
                    assert!(lo - 1e-6 <= d && d <= hi + 1e-6, "seed {seed} group {}: {d} outside [{lo}, {hi}]", g.name);
                }
            }
        }
    }
}

#[test]
fn same_scenario_and_seed_give_identical_results() {
    for seed in [3, 17, 29] {
        let s = random_scenario(seed);
        let mut a = Run::new(&s).unwrap();
        let mut b = Run::new(&s).unwrap();
        let (mut fa, mut fb) = (Fingerprint::default(), Fingerprint::default());
        a.run_until_with(a.end(), &mut fa);
        // The other run in uneven slices: how a run is driven must change neither what happens nor what it reports.
        while !b.is_finished() {
            let t = b.end();
            b.step_with(t, 7, &mut fb);
        }
        assert_eq!(fa, fb, "seed {seed}: the same events at the same times");
        assert_eq!(a.results(), b.results(), "seed {seed}");
    }
}

/// A host whose ACK lane is starved of credit: four senders on short links feed one receiver at 100 Gb/s, whose own
/// link is long (100 us each way) with a four-packet buffer at the switch, so ACK credit comes back for 132 ACKs
/// per 200 us while some 1,200 data packets arrive. Without a bound the receiver's owed ACKs grow with the run (some
/// 5,000 per ms); coalesced, memory stays flat, every packet is still acknowledged, and the invariants hold.
#[test]
fn a_credit_starved_ack_lane_keeps_memory_flat() {
    use ibcc_core::scenario::{Flow, Link, Node, NodeKind, Scenario};
    let mut s = Scenario::empty("starved acks", 40_000_000);
    s.link.bandwidth_gbps = 100.0;
    s.switch.buffer_packets = 4;
    s.source.window_packets = None;
    let node = |id: &str, kind| Node { id: id.into(), kind, switch: None, x: None, y: None };
    s.nodes = vec![node("S", NodeKind::Switch), node("R", NodeKind::Host)];
    s.links = vec![Link { propagation_ns: Some(100_000), ..Link::between("R", "S") }];
    for i in 0..4 {
        let id = format!("H{i}");
        s.nodes.push(node(&id, NodeKind::Host));
        s.links.push(Link::between(&id, "S"));
        s.flows.push(Flow { group: "senders".into(), ..Flow::new(&format!("f{i}"), &id, "R") });
    }
    let mut sim = Run::new(&s).unwrap();
    let mut most = [0u64; 2];
    for ms in 1..=40u64 {
        sim.run_until(ms * 1_000_000_000);
        sim.sim.check_invariants().unwrap_or_else(|e| panic!("at {ms} ms: {e}"));
        let (packets, events) = sim.sim.held();
        if ms == 5 {
            most = [packets, events];
        }
        if ms > 5 {
            assert!(
                packets <= most[0] + 64 && events <= most[1] + 64,
                "at {ms} ms: {packets} packets, {events} events"
            );
        }
    }
    let r = sim.results();
    let acks_sent = r.link("R->S").unwrap().ack_packets;
    assert!(
        r.totals.delivered_packets > 5 * acks_sent,
        "ACKs were coalesced: {acks_sent} for {}",
        r.totals.delivered_packets
    );
    // The acknowledgements keep pace: what is not yet acknowledged is a few waiting and in-flight ACKs' worth.
    let (acked, delivered) = (r.totals.acks_delivered, r.totals.delivered_packets);
    assert!(acked as f64 > 0.95 * delivered as f64, "{acked} of {delivered} acknowledged");
}
