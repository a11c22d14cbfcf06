//! The simulator's mechanisms on small hand-built networks, each checked against numbers worked out by hand.

use ibcc_core::scenario::{Cnt1Until, Flow, Link, MarkingPolicy, Node, NodeKind, Response, Scenario};
use ibcc_core::sim::Run;

fn node(id: &str, kind: NodeKind) -> Node {
    Node { id: id.into(), kind, switch: None, x: None, y: None }
}

fn link(a: &str, b: &str) -> Link {
    Link::between(a, b)
}

fn flow(id: &str, src: &str, dst: &str) -> Flow {
    Flow { group: "g".into(), ..Flow::new(id, src, dst) }
}

/// H0 - S1 - S2 - H3 with one flow H0 -> H3.
fn line(duration_ns: u64) -> Scenario {
    let mut s = Scenario::empty("line", duration_ns);
    s.nodes = vec![
        node("H0", NodeKind::Host),
        node("S1", NodeKind::Switch),
        node("S2", NodeKind::Switch),
        node("H3", NodeKind::Host),
    ];
    s.links = vec![link("H0", "S1"), link("S1", "S2"), link("S2", "H3")];
    s.flows = vec![flow("f", "H0", "H3")];
    s
}

/// Cut-through across two switches (docs/model.md §3), by hand: the packet (2068 bytes, 2068 ns at 8 Gb/s) leaves H0 at
/// 0; its head reaches S1 at 0 and may leave after the 40 ns forwarding delay; likewise at S2 (40 -> 80 ns); its tail
/// reaches H3 at 80 + 2068 = 2148 ns. Each link adds its propagation delay once: 3 x 100 ns more.
#[test]
fn cut_through_latency_of_one_packet_across_two_switches() {
    for (prop, want) in [(0u64, 2148.0), (100, 2448.0)] {
        let mut s = line(3_000);
        s.link.propagation_ns = prop;
        let mut sim = Run::new(&s).unwrap();
        sim.run();
        let r = sim.results();
        let f = r.flow("f").unwrap();
        assert!(f.delivered_packets >= 1);
        assert_eq!(f.mean_delay_ns, Some(want), "propagation {prop} ns");
        sim.sim.check_invariants().unwrap();
    }
}

/// With a window of one packet the next packet waits for the ACK: the 20-byte ACK leaves H3 when the data tail
/// arrives (2148 ns), takes 20 ns per link plus 40 ns per switch: back at H0 at 2148 + 20 + 40 + 40 = 2248 ns. So one
/// packet (2068 ns of link time) per 2248 ns: throughput 2068/2248 over whole cycles.
#[test]
fn window_of_one_is_self_clocked_by_the_ack() {
    let cycles = 50;
    let mut s = line(2248 * cycles);
    s.source.window_packets = Some(1);
    let mut sim = Run::new(&s).unwrap();
    sim.run();
    let r = sim.results();
    let f = r.flow("f").unwrap();
    assert_eq!(f.injected_packets, cycles);
    assert_eq!(f.delivered_packets, cycles);
    assert!((f.throughput_fraction - 2068.0 / 2248.0).abs() < 1e-9, "{}", f.throughput_fraction);
    // Without a window the link is busy back to back.
    s.source.window_packets = None;
    let mut sim = Run::new(&s).unwrap();
    sim.run();
    assert!((sim.results().flow("f").unwrap().throughput_fraction - 1.0).abs() < 1e-9);
}

/// A fixed rate limit spaces packet starts by packet_time / r (INFOCOM'03 Fig. 3d): at r = 1/4 one 2068 ns packet
/// every 8272 ns.
#[test]
fn fixed_rate_spaces_injections() {
    let mut s = line(8272 * 100);
    s.source.response = Response::Fixed;
    s.source.fixed_rate_fraction = 0.25;
    s.source.window_packets = None;
    let mut sim = Run::new(&s).unwrap();
    sim.run();
    let f = sim.results().flow("f").unwrap().clone();
    assert_eq!(f.injected_packets, 100);
    assert!((f.throughput_fraction - 0.25).abs() < 1e-9);
}

/// How many packets one input buffer sends at once (`switch.input_transfers`), by hand. H0 sends one packet of f1 (to
/// D1, whose link is 4 Gb/s) at 0 and one of f2 (to D2, 8 Gb/s) right behind it, at 2068 ns. f1's packet leaves S at
/// 40 ns and takes 4136 ns on the slow link, so its tail leaves S's input buffer at 4176 ns, when it also reaches D1.
/// f2's packet may leave at 2068 + 40 = 2108 ns: with no limit it does, and its tail reaches D2 at 2108 + 2068 =
/// 4176 ns (a delay of 2108 ns); with one transfer per input it waits for f1's tail and arrives at 4176 + 2068 =
/// 6244 ns (a delay of 4176 ns).
#[test]
fn an_input_buffer_sends_to_two_outputs_at_once_unless_limited() {
    let mut s = Scenario::empty("fan-out", 10_000);
    s.nodes = vec![
        node("H0", NodeKind::Host),
        node("S", NodeKind::Switch),
        node("D1", NodeKind::Host),
        node("D2", NodeKind::Host),
    ];
    let mut slow = link("S", "D1");
    slow.bandwidth_gbps = Some(4.0);
    s.links = vec![link("H0", "S"), slow, link("S", "D2")];
    // One packet each: f1 stops before its ACK could let it send again, f2 just after its first start.
    s.flows = vec![flow("f1", "H0", "D1"), flow("f2", "H0", "D2")];
    s.flows[0].stop_ns = Some(1_000);
    s.flows[1].stop_ns = Some(2_100);
    for (limit, want) in [(None, 2108.0), (Some(1), 4176.0), (Some(2), 2108.0)] {
        s.switch.input_transfers = limit;
        let mut sim = Run::new(&s).unwrap();
        sim.run();
        let r = sim.results();
        assert_eq!(r.flow("f1").unwrap().mean_delay_ns, Some(4176.0), "{limit:?}");
        let f2 = r.flow("f2").unwrap();
        assert_eq!((f2.delivered_packets, f2.mean_delay_ns), (1, Some(want)), "{limit:?}");
        sim.sim.check_invariants().unwrap();
    }
}

/// H1 and H2 both send to D through switch S, with no window: S's output to D is the bottleneck.
fn incast(duration_ns: u64) -> Scenario {
    let mut s = Scenario::empty("incast", duration_ns);
    s.nodes = vec![
        node("H1", NodeKind::Host),
        node("H2", NodeKind::Host),
        node("S", NodeKind::Switch),
        node("D", NodeKind::Host),
    ];
    s.links = vec![link("H1", "S"), link("H2", "S"), link("S", "D")];
    s.flows = vec![flow("a", "H1", "D"), flow("b", "H2", "D")];
    s.source.window_packets = None;
    s
}

/// `s` run to its end with the invariants checked every 997 events; its results.
fn run_checking(s: &Scenario) -> ibcc_core::sim::Results {
    let mut sim = Run::new(s).unwrap();
    while sim.step_until(u64::MAX, 997) > 0 {
        sim.sim.check_invariants().unwrap();
    }
    sim.results()
}

/// The incast: both inputs back up. Credit flow control must stop each sender exactly when the 4-packet (132-block)
/// input buffer is full: nothing is dropped, occupancy reaches but never exceeds capacity, and the two flows share
/// the output evenly (oldest first).
#[test]
fn credits_stop_senders_at_a_full_buffer() {
    let s = incast(2_000_000);
    let mut sim = Run::new(&s).unwrap();
    while !sim.is_finished() {
        sim.step(97);
        sim.sim.check_invariants().unwrap();
    }
    let r = sim.results();
    assert_eq!(r.totals.dropped_packets, 0);
    let fed: Vec<_> = r.buffers.iter().filter(|b| b.from == "H1" || b.from == "H2").collect();
    assert_eq!(fed.len(), 2, "the two senders' buffers");
    for b in fed {
        assert_eq!(b.max_packets, 4.0, "{} filled exactly to capacity", b.from);
    }
    let (a, b) = (r.flow("a").unwrap().throughput_fraction, r.flow("b").unwrap().throughput_fraction);
    assert!((a - 0.5).abs() < 0.01 && (b - 0.5).abs() < 0.01, "{a} {b}");
    assert!(r.link("S->D").unwrap().utilization > 0.99);
    assert!(r.link("H1->S").unwrap().credit_stall_ns > 0.0, "the senders wait for credit");
}

/// A credit stall is time with a packet ready and no credit for it: when a sender that waits for credit stops, its
/// link waits for nothing, and its stall ends there (it used to run on to the end of the run, and the page drew the
/// link as blocked long after its flow had stopped).
#[test]
fn a_stopped_flow_leaves_its_link_waiting_for_nothing() {
    // (Stopped at several moments: some while it waits for credit, some while it sends.)
    for stop in (0..8).map(|k| 1_000_000 + k * 337) {
        let mut s = incast(2_000_000);
        s.flows[0].stop_ns = Some(stop);
        let stall = |from_ns: u64| {
            let mut s = s.clone();
            s.measure.from_ns = from_ns;
            run_checking(&s).link("H1->S").unwrap().credit_stall_ns
        };
        let whole = stall(0);
        assert!(whole > 100_000.0 && whole < stop as f64, "stopped at {stop} ns: it waited while it sent: {whole} ns");
        assert_eq!(stall(stop), 0.0, "stopped at {stop} ns: then it waits for nothing");
    }
}

/// Marking on the incast: when an input buffer becomes full, naive marking marks the packets waiting in it, and
/// input-triggered marking arms the congested output to mark as many departures as packets wait for it. Either way
/// marks flow back on ACKs and the sources see them; with `none` nothing is marked.
#[test]
fn marking_policies_mark_the_incast() {
    let base = incast(1_000_000);
    let mut marks = Vec::new();
    for policy in [MarkingPolicy::None, MarkingPolicy::Naive, MarkingPolicy::InputTriggered] {
        let mut s = base.clone();
        s.marking.policy = policy;
        let mut sim = Run::new(&s).unwrap();
        sim.run();
        let r = sim.results();
        sim.sim.check_invariants().unwrap();
        let acked_marks: u64 = r.flows.iter().map(|f| f.marks).sum();
        assert!(acked_marks <= r.totals.marked_packets, "marks reach sources only on ACKs of marked packets");
        marks.push((policy, r.totals.marked_packets, acked_marks));
    }
    assert_eq!(marks[0].1, 0);
    assert!(marks[1].1 > 100 && marks[1].2 > 100, "{marks:?}");
    assert!(marks[2].1 > 100 && marks[2].2 > 100, "{marks:?}");
    // Marks in the measurement interval: all of them when it is the whole run, fewer when it is either half.
    let mut s = base.clone();
    s.marking.policy = MarkingPolicy::InputTriggered;
    for (from_ns, to_ns, whole) in [(0, None, true), (500_000, None, false), (0, Some(500_000), false)] {
        (s.measure.from_ns, s.measure.to_ns) = (from_ns, to_ns);
        let mut sim = Run::new(&s).unwrap();
        sim.run();
        for f in &sim.results().flows {
            assert!(f.measured_marks > 0, "{from_ns}-{to_ns:?}: {f:?}");
            assert_eq!(f.measured_marks == f.marks, whole, "{from_ns}-{to_ns:?}: {f:?}");
        }
    }
}

/// The two readings of `cnt1` (Globecom'02 §IV-B, `marking.cnt1_until`), by hand. Into S's buffer from H0 (a 2068-byte
/// packet is 33 blocks and takes 2068 ns): `one`'s single packet to D2 (1 Gb/s, so it is sent from 40 to 16584 ns),
/// then `many`'s four to D (2 Gb/s, 8272 ns each): q1 at 2068, q2 at 4136, q3 at 6204 and, when credit comes back
/// as q1's tail leaves at 10380 ns, q4 (received at 12448). S sends q1 from 2108 and q2 from 10380. When q3 is
/// received (8272 ns) the buffer holds 17 + 9 + 33 + 33 = 92 blocks; when q4 is received it holds 9 (`one`, 1551
/// bytes sent) + 25 (q2, 517 bytes sent) + 33 + 33 = 100: full (less than a packet of room), the only trigger.
/// Both readings mark the two waiting packets, q3 and q4. `departure` also counts the two being sent: it arms D
/// for one more packet, and D2, which nothing waits for, for one: so H1's single packets to D2 (at 40 us) and to D
/// (at 60 us), long after, are marked only there.
#[test]
fn cnt1_counts_packets_being_sent_only_until_departure() {
    let mut s = Scenario::empty("arming", 100_000);
    s.nodes = vec![
        node("H0", NodeKind::Host),
        node("H1", NodeKind::Host),
        node("S", NodeKind::Switch),
        node("D", NodeKind::Host),
        node("D2", NodeKind::Host),
    ];
    let (mut to_d, mut to_d2) = (link("S", "D"), link("S", "D2"));
    (to_d.bandwidth_gbps, to_d2.bandwidth_gbps) = (Some(2.0), Some(1.0));
    s.links = vec![link("H0", "S"), link("H1", "S"), to_d, to_d2];
    s.flows =
        vec![flow("one", "H0", "D2"), flow("many", "H0", "D"), flow("late", "H1", "D2"), flow("late_d", "H1", "D")];
    let windows = [(0, 1), (1, 11_000), (40_000, 40_001), (60_000, 60_001)];
    for (f, (start, stop)) in s.flows.iter_mut().zip(windows) {
        (f.start_ns, f.stop_ns) = (start, Some(stop));
    }
    s.source.window_packets = None;
    s.marking.policy = MarkingPolicy::InputTriggered;
    for (until, late_marks) in [(Cnt1Until::Start, 0), (Cnt1Until::Departure, 1)] {
        s.marking.cnt1_until = until;
        let mut sim = Run::new(&s).unwrap();
        sim.run_until(12_447_000);
        assert_eq!(sim.results().totals.marked_packets, 0, "{until:?}: nothing before q4 is received");
        while !sim.is_finished() {
            sim.step(3);
            sim.sim.check_invariants().unwrap();
        }
        let r = sim.results();
        let got: Vec<(u64, u64)> = r.flows.iter().map(|f| (f.injected_packets, f.marks)).collect();
        assert_eq!(got, [(1, 0), (4, 2), (1, late_marks), (1, late_marks)], "{until:?}");
    }
}

/// A victim packet bound for an idle output may bypass older packets of its buffer that wait for a busy output, but
/// only `max_bypass` times each. With no bypass at all the victim is stuck behind them; allowing it lets the
/// victim through (INFOCOM'03 footnote 6).
#[test]
fn bypass_lets_a_victim_past_blocked_packets_up_to_the_limit() {
    let mut share = Vec::new();
    for max_bypass in [0, 4, 255] {
        let mut s = ibcc_core::presets::find("infocom03-fig2").unwrap().scenario();
        s.switch.max_bypass = max_bypass;
        s.duration_ns = 60_000_000;
        s.measure.from_ns = 41_000_000;
        let mut sim = Run::new(&s).unwrap();
        sim.run();
        share.push(sim.results().flow("victim").unwrap().throughput_fraction);
    }
    assert!(share[0] < share[1] && share[1] <= share[2], "victim share by max_bypass 0/4/255: {share:?}");
}

/// Results can be read at any moment of a run, also before the measurement interval starts (they are then empty),
/// without underflow (found in review).
#[test]
fn results_before_the_measurement_interval_are_empty_not_wrong() {
    let mut s = line(2_000_000);
    s.source.window_packets = None;
    s.measure.from_ns = 1_000_000;
    let mut sim = Run::new(&s).unwrap();
    // Before the interval: nothing is measured yet, though the flow has been sending since 0.
    for t in [1_000u64, 500_000, 999_999] {
        sim.run_until(t * 1000);
        let r = sim.results();
        assert_eq!((r.measured_from_ns, r.measured_to_ns), (t as f64, t as f64), "an empty interval at {t} ns");
        assert!(r.links.iter().all(|l| l.utilization == 0.0 && l.credit_stall_ns == 0.0), "at {t} ns");
        assert_eq!(r.flow("f").unwrap().throughput_fraction, 0.0, "at {t} ns");
        // (Its first packet arrives at 2148 ns.)
        assert_eq!(r.flow("f").unwrap().delivered_packets > 0, t > 2148, "at {t} ns");
    }
    // 1 us into it: the greedy flow has kept its link busy all along (back to back, no window).
    sim.run_until(1_001_000 * 1000);
    let r = sim.results();
    assert_eq!((r.measured_from_ns, r.measured_to_ns), (1_000_000.0, 1_001_000.0));
    assert_eq!(r.link("H0->S1").unwrap().utilization, 1.0);
    assert_eq!(r.flow("f").unwrap().throughput_fraction, 1.0);
}

/// `measure.to_ns` ends the interval, by hand: a greedy flow sends back to back (2068 ns a packet) until it stops at
/// 1 ms; its last packet starts at 483 x 2068 = 998844 ns and ends at 1000912 ns. Every packet takes 2068 + 2 x 40 =
/// 2148 ns to arrive, so those delivered before 1 ms are the 483 with k x 2068 + 2148 < 1000000.
#[test]
fn the_measurement_interval_ends_at_to_ns() {
    let mut s = line(2_000_000);
    s.source.window_packets = None;
    s.flows[0].stop_ns = Some(1_000_000);
    let measure = |to_ns: Option<u64>| {
        let mut s = s.clone();
        s.measure.to_ns = to_ns;
        let mut sim = Run::new(&s).unwrap();
        sim.run();
        sim.results()
    };
    let (until_stop, to_end) = (measure(Some(1_000_000)), measure(None));
    let util = |r: &ibcc_core::sim::Results| r.link("H0->S1").unwrap().utilization;
    assert!((util(&until_stop) - 1.0).abs() < 1e-9, "busy throughout [0, 1 ms): {}", util(&until_stop));
    assert!((util(&to_end) - 1_000_912.0 / 2_000_000.0).abs() < 1e-9, "{}", util(&to_end));
    assert_eq!((until_stop.measured_from_ns, until_stop.measured_to_ns), (0.0, 1_000_000.0));
    let f = &until_stop.flows[0];
    assert_eq!(f.measured_packets, 483);
    assert_eq!(f.mean_delay_ns, Some(2148.0));
    assert!((f.throughput_fraction - 1.0).abs() < 1e-9);
    assert_eq!(to_end.flows[0].measured_packets, 484, "the last packet arrives after 1 ms");
    // Read halfway, the interval ends at the present.
    let mut half = s.clone();
    half.measure.to_ns = Some(1_000_000);
    let mut sim = Run::new(&half).unwrap();
    sim.run_until(500_000 * 1000);
    assert_eq!(sim.results().measured_to_ns, 500_000.0);
}

/// A long link's credit round trip limits what it carries, exactly (docs/model.md §3). S1's output to S2 holds
/// credit for S2's 4-packet buffer; packet k starts at s_k, its head reaches S2 P later, leaves it 40 ns on and its
/// tail 2068 ns after that, and its credit is back at S1 P later again: packet k + 4 starts at s_k + 2P + 2108. So
/// the link carries 4 x 2068 bytes per 2P + 2108 ns, starting with packet 4 at 40 + 2P + 2108. At P = 20 us the
/// credits come back to an idle transmitter that waits for them; at P = 3.5 us they come back while it is still
/// sending its four, and it must look again when they arrive: a late or missed look shows here.
#[test]
fn a_long_links_credit_round_trip_limits_it_exactly() {
    for prop in [20_000u64, 3_500] {
        let round_trip = 2 * prop + 2108;
        let from = 40 + round_trip;
        let cycles = 20;
        let mut s = line(from + (cycles + 2) * round_trip);
        s.links[1].propagation_ns = Some(prop);
        s.source.window_packets = None;
        s.measure.from_ns = from;
        s.measure.to_ns = Some(from + cycles * round_trip);
        let r = run_checking(&s);
        let link = r.link("S1->S2").unwrap();
        let want = 4.0 * 2068.0 / round_trip as f64;
        assert!((link.utilization - want).abs() < 1e-12, "P = {prop} ns: {} against {want}", link.utilization);
        assert!(link.credit_stall_ns > 0.0, "P = {prop} ns: it waits for credit");
        assert_eq!(r.totals.dropped_packets, 0);
    }
}

/// `step_until` never passes its time, processes at most its count, and sliced runs equal one run to the end.
#[test]
fn step_until_is_bounded_in_events_and_time() {
    let s = incast(500_000);
    let mut whole = Run::new(&s).unwrap();
    whole.run();
    let mut sliced = Run::new(&s).unwrap();
    let mut t = 0;
    while !sliced.is_finished() {
        t += 3_333_333;
        loop {
            let n = sliced.step_until(t, 50);
            assert!(n <= 50);
            assert!(sliced.now() <= t.min(sliced.end()));
            if sliced.now() >= t.min(sliced.end()) {
                break;
            }
        }
    }
    assert_eq!(sliced.results(), whole.results());
}

/// Marking settings change during a run from the next event on: retuning at time 0 is the same run as starting
/// with the new settings, retuning halfway marks only from then, and any other change is refused with the run
/// left as it was.
#[test]
fn marking_retunes_during_a_run_and_nothing_else_does() {
    let plain = incast(400_000);
    let mut marked = plain.clone();
    marked.marking.policy = MarkingPolicy::InputTriggered;

    let mut fresh = Run::new(&marked).unwrap();
    fresh.run();
    let mut at_zero = Run::new(&plain).unwrap();
    at_zero.sim.retune(&marked).unwrap();
    at_zero.run();
    assert_eq!(at_zero.results(), fresh.results());

    let mut halfway = Run::new(&plain).unwrap();
    halfway.run_until(200_000_000);
    assert_eq!(halfway.results().totals.marked_packets, 0);
    halfway.sim.retune(&marked).unwrap();
    halfway.run();
    halfway.sim.check_invariants().unwrap();
    let late = halfway.results().totals.marked_packets;
    assert!(late > 0 && late < fresh.results().totals.marked_packets, "{late}");

    // What cnt1 counts may change too: it is counted again from the buffers, with or without the packets being sent.
    // Checked at every step after each change (a count carried over unchanged would be off by the packets being sent).
    let mut departure = marked.clone();
    departure.marking.cnt1_until = Cnt1Until::Departure;
    let mut sim = Run::new(&marked).unwrap();
    let mut changes = [(100_000_000, &departure), (200_000_000, &marked), (300_000_000, &departure)].into_iter();
    let mut next = changes.next();
    while !sim.is_finished() {
        if let Some((_, to)) = next.filter(|(at, _)| sim.now() >= *at) {
            sim.sim.retune(to).unwrap();
            next = changes.next();
            assert_eq!(sim.sim.scenario().marking.cnt1_until, to.marking.cnt1_until, "the run follows the change");
        }
        sim.step(3);
        sim.sim.check_invariants().unwrap();
    }
    assert!(next.is_none(), "every change was made");
    let mut fresh = Run::new(&departure).unwrap();
    fresh.run();
    let mut at_zero = Run::new(&marked).unwrap();
    at_zero.sim.retune(&departure).unwrap();
    at_zero.run();
    assert_eq!(at_zero.results(), fresh.results());

    let mut other = marked.clone();
    other.flows.pop();
    let mut sim = Run::new(&plain).unwrap();
    sim.run_until(1_000_000);
    let err = sim.sim.retune(&other).unwrap_err();
    assert!(err.0.contains("only marking"), "{err:?}");
    assert_eq!(sim.sim.scenario(), &plain, "a refused change leaves the run as it was");
    // What the page asks before the run answers: the same rule.
    assert!(ibcc_core::sim::needs_restart(&plain, &other));
    assert!(!ibcc_core::sim::needs_restart(&plain, &marked), "marking applies during a run");
}

/// ACK coalescing (the HP slides; `net::host::AckCoalescing`), by hand on the line H0 -> H3. A window of 4 and an
/// ACK every 8 packets: the packet that fills the window carries AckReq, so each window gets one ACK, for all four
/// packets, and the invariants (nothing lost between destination and source) hold throughout. A marked packet is
/// ACKed at once.
#[test]
fn coalesced_acks_one_per_window_and_at_once_for_a_mark() {
    use ibcc_core::scenario::AckCoalescing;
    let mut s = line(2_000_000);
    s.source.window_packets = Some(4);
    s.ack_coalescing = Some(AckCoalescing { every_packets: 8 });
    let r = run_checking(&s);
    let (t, f) = (&r.totals, r.flow("f").unwrap());
    let sent = t.ack_packets_sent.unwrap();
    assert!(f.delivered_packets > 100);
    // Every window of four is ACKed once (the last may still be on its way at the end).
    assert!(
        sent * 4 >= t.acks_delivered && sent * 4 <= t.acks_delivered + 4,
        "{sent} ACKs, {} acked",
        t.acks_delivered
    );
    assert!(t.delivered_packets - t.acks_delivered <= 4, "at most a window is unacknowledged at the end");
    // Without coalescing: one ACK per packet, and no count reported.
    s.ack_coalescing = None;
    let mut sim = Run::new(&s).unwrap();
    sim.run();
    assert_eq!(sim.results().totals.ack_packets_sent, None);

    // Marks: an incast through one switch marks packets (naive marking); each marked packet is ACKed at once, so
    // there are at least as many ACKs as marked packets, and every mark reaches its source.
    let mut s = incast(1_000_000);
    s.marking.policy = MarkingPolicy::Naive;
    s.source.response = Response::Lipd;
    s.source.window_packets = Some(8);
    s.ack_coalescing = Some(AckCoalescing { every_packets: 64 });
    let mut sim = Run::new(&s).unwrap();
    sim.run();
    sim.sim.check_invariants().unwrap();
    let r = sim.results();
    let marked_acks: u64 = r.flows.iter().map(|f| f.marks).sum();
    assert!(r.totals.marked_packets > 0);
    assert!(r.totals.ack_packets_sent.unwrap() >= marked_acks && marked_acks > 0, "{:?}", r.totals);
    assert!(r.totals.ack_packets_sent.unwrap() < r.totals.acks_delivered, "fewer ACKs than packets: {:?}", r.totals);
}

/// Unreliable flows (the HP slides' table of transports): no ACKs and no window; a marked packet makes its
/// destination send a CN packet, and the source decreases its rate. On the incast with naive marking and LIPD:
/// nothing is acknowledged, every CN answers a marked packet (those still in flight at the end have none yet), the
/// sources hear them (their marks) and slow down, and the invariants hold at every step. A hybrid source, which
/// needs a window, is refused for an unreliable flow, by name.
#[test]
fn unreliable_flows_get_cn_packets_for_marks_and_no_acks() {
    use ibcc_core::scenario::Transport;
    let mut s = incast(2_000_000);
    s.marking.policy = MarkingPolicy::Naive;
    s.source.response = Response::Lipd;
    s.source.window_packets = Some(1); // ignored: an unreliable flow has no window
    for f in &mut s.flows {
        f.transport = Transport::Unreliable;
    }
    let mut sim = Run::new(&s).unwrap();
    while sim.step_until(u64::MAX, 1009) > 0 {
        sim.sim.check_invariants().unwrap();
    }
    let r = sim.results();
    let t = &r.totals;
    let cn = t.cn_packets_sent.unwrap();
    assert_eq!(t.acks_delivered, 0);
    assert_eq!(t.ack_packets_sent, None);
    assert!(cn > 0 && cn <= t.marked_packets && cn + t.in_flight_packets >= t.marked_packets, "{t:?}");
    let heard: u64 = r.flows.iter().map(|f| f.marks).sum();
    assert!(heard > 0 && heard <= cn, "{heard} CNs heard of {cn}");
    for f in &r.flows {
        assert_eq!(f.window, None);
        assert!(f.delivered_packets > 100, "{f:?}");
    }
    // Each ACK-lane packet on the way back is a CN: two links (D->S, S->H) per CN.
    let ack_lane: u64 = r.links.iter().map(|l| l.ack_packets).sum();
    assert!(ack_lane <= 2 * cn && ack_lane + 2 >= 2 * heard, "{ack_lane} ACK-lane packets for {cn} CNs");
    // The rate control works: without the CNs' decreases (no marking) the sources stay at full rate and the
    // buffer stays full; with them, the senders' rate limits are below full.
    assert!(r.flows.iter().any(|f| f.rate_limit < 1.0), "{:?}", r.flows);

    s.source.response = Response::Hybrid;
    s.source.window_packets = Some(4);
    let e = Run::new(&s).unwrap_err().to_string();
    assert!(e.contains("transport") && e.contains("window"), "{e}");
}

/// `s` with `vls` data VLs at the default (equal) weights.
fn with_vls(mut s: Scenario, vls: u8) -> Scenario {
    use ibcc_core::scenario::VirtualLanes;
    s.virtual_lanes = Some(VirtualLanes { data_vls: vls, sl_to_vl: vec![], arbitration: Default::default() });
    s
}

/// VL arbitration by hand (IBA §7.6.9, `net::vl`): the incast with flow a on VL 0 and flow b on VL 1, and the
/// output to D weighting VL 0 at 99 blocks (three 33-block packets per turn) and VL 1 at 33 (one): a gets 3/4 of
/// the output and b 1/4. Both VLs always have a packet waiting (their input buffers stay full), so the shares are
/// the weights' exactly, to the few packets of the first turns (0.5%). At equal weights, half each.
#[test]
fn vl_arbitration_weights_share_an_output() {
    use ibcc_core::scenario::{VlArbitration, VlWeight};
    for (weights, share_a) in [([99, 33], 0.75), ([64, 64], 0.5)] {
        let mut s = with_vls(incast(2_000_000), 2);
        s.flows[1].sl = 1;
        let low = vec![VlWeight { vl: 0, weight: weights[0] }, VlWeight { vl: 1, weight: weights[1] }];
        s.links[2].vl_arbitration = Some(VlArbitration { low, ..Default::default() });
        let r = run_checking(&s);
        let (a, b) = (r.flow("a").unwrap().throughput_fraction, r.flow("b").unwrap().throughput_fraction);
        assert!((a - share_a).abs() < 0.005 && (b - (1.0 - share_a)).abs() < 0.005, "{weights:?}: {a} {b}");
    }
}

/// Per-VL buffers and credits: on the line H0 - S1 - S2 - H3 with the last link at half speed, two flows from H0,
/// one per VL. Each VL's input buffer at S2 fills to its own 4 packets and no further (the invariants check each
/// lane's credits against its buffer every step), so the port holds 8 packets of its 2 x 4; the host sends both
/// flows (neither VL's wait for credit holds back the other) and they share the slow link evenly, a quarter of
/// their source link each (0.5%: a packet's worth over the interval).
#[test]
fn each_vl_has_its_own_buffer_and_credits() {
    let mut s = with_vls(line(2_000_000), 2);
    s.links[2].bandwidth_gbps = Some(4.0);
    s.flows.push(Flow { sl: 1, ..flow("g", "H0", "H3") });
    s.source.window_packets = None;
    s.measure.from_ns = 500_000; // after the buffers have filled
    let r = run_checking(&s);
    let at_s2 = r.buffers.iter().find(|b| b.node == "S2" && b.from == "S1").unwrap();
    assert_eq!((at_s2.max_packets, at_s2.capacity_packets), (8.0, 8.0));
    let (f, g) = (r.flow("f").unwrap().throughput_fraction, r.flow("g").unwrap().throughput_fraction);
    assert!((f - 0.25).abs() < 0.005 && (g - 0.25).abs() < 0.005, "{f} {g}");
    // One VL: the same two flows share one buffer of 4 packets.
    s.virtual_lanes = None;
    let mut sim = Run::new(&s).unwrap();
    sim.run();
    let r = sim.results();
    let at_s2 = r.buffers.iter().find(|b| b.node == "S2" && b.from == "S1").unwrap();
    assert_eq!((at_s2.max_packets, at_s2.capacity_packets), (4.0, 4.0));
}

/// A host's NIC arbitrates between VLs too (IBA §7.6.9; its link's arbitration): on the line H0 - S1 - S2 - H3,
/// three greedy flows from H0, two on VL 0 and one on VL 1, at equal weights. The arbiter gives each VL half of
/// H0's link, and VL 0's two flows take turns within its half: 1/4, 1/4 and 1/2 (the flows taking turns
/// regardless of VL would give a third each). Weights 99 and 33 (three 33-block packets of VL 0 per one of VL
/// 1): 3/8, 3/8 and 1/4. Nothing downstream is slower, so the shares are the arbiter's exactly, to the packets of
/// the first turns (0.5%).
#[test]
fn a_host_shares_its_link_between_vls_by_weight() {
    use ibcc_core::scenario::{VlArbitration, VlWeight};
    for (weights, want) in [([64, 64], [0.25, 0.25, 0.5]), ([99, 33], [0.375, 0.375, 0.25])] {
        let mut s = with_vls(line(2_000_000), 2);
        s.flows.push(flow("g", "H0", "H3"));
        s.flows.push(Flow { sl: 1, ..flow("v", "H0", "H3") });
        s.source.window_packets = None;
        let low = vec![VlWeight { vl: 0, weight: weights[0] }, VlWeight { vl: 1, weight: weights[1] }];
        s.links[0].vl_arbitration = Some(VlArbitration { low, ..Default::default() });
        let r = run_checking(&s);
        let got = ["f", "g", "v"].map(|id| r.flow(id).unwrap().throughput_fraction);
        for (g, w) in got.iter().zip(want) {
            assert!((g - w).abs() < 0.005, "{weights:?}: {got:?}, want {want:?}");
        }
    }
}

/// A VL waiting for credit at a host does not hold back a rate-limited flow of another VL: on the line H0 - S1 -
/// S2 - H3 with a host H4 on S1 and the last link at a tenth of the speed, flow f (VL 0, H0 -> H3) fills VL 0's
/// buffers back to H0 and waits for credit most of the time, while flow v (VL 1, H0 -> H4, a path f does not
/// slow) is held to a fixed rate of 0.3 by its rate timer. v must get its 0.3 of its link (1%: the packets of its
/// first gaps): its timer wakes the host while VL 0 waits for credit, rather than v waiting for VL 0's next credit
/// (one every ten packet times).
#[test]
fn a_rate_timer_wakes_a_host_whose_other_vl_waits_for_credit() {
    use ibcc_core::scenario::{Response, SourceOverride};
    let mut s = with_vls(line(4_000_000), 2);
    s.nodes.push(node("H4", NodeKind::Host));
    s.links.push(link("H4", "S1"));
    s.links[2].bandwidth_gbps = Some(0.8);
    s.source.window_packets = None;
    let fixed =
        SourceOverride { response: Some(Response::Fixed), fixed_rate_fraction: Some(0.3), ..Default::default() };
    s.flows.push(Flow { sl: 1, source: Some(fixed), ..flow("v", "H0", "H4") });
    s.measure.from_ns = 1_000_000;
    let r = run_checking(&s);
    let (f, v) = (r.flow("f").unwrap().throughput_fraction, r.flow("v").unwrap().throughput_fraction);
    assert!(f < 0.11, "f is held by the slow link: {f}");
    assert!((v - 0.3).abs() < 0.01, "v gets {v}");
}

/// Two flows from 32 Gb/s hosts to one host on a 16 Gb/s link share that link: each sends a quarter of its own
/// link, and their group, several flows to one host, is measured against the link they share: all of it (the table's
/// sum and the rate series alike), not the half that adding their own links' quarters gives. A lone flow keeps its
/// own link's fraction.
#[test]
fn a_group_to_one_host_is_measured_against_that_host_s_link_on_mixed_speeds() {
    use ibcc_core::sim::{Measurement, Metric};
    let mut s = Scenario::empty("mixed", 3_000_000);
    s.nodes = vec![
        node("S", NodeKind::Switch),
        node("A", NodeKind::Host),
        node("B", NodeKind::Host),
        node("D", NodeKind::Host),
        node("E", NodeKind::Host),
    ];
    let fast = |a: &str| Link { bandwidth_gbps: Some(32.0), ..link(a, "S") };
    s.links = vec![fast("A"), fast("B"), Link { bandwidth_gbps: Some(16.0), ..link("D", "S") }, fast("E")];
    s.flows = vec![flow("a", "A", "D"), flow("b", "B", "D"), Flow { group: "lone".into(), ..Flow::new("e", "E", "A") }];
    s.source.window_packets = None;
    s.measure.from_ns = 1_000_000;
    let mut sim = Run::new(&s).unwrap();
    sim.run();
    let r = sim.results();
    for f in ["a", "b"] {
        let own = r.flow(f).unwrap().throughput_fraction;
        assert!((own - 0.25).abs() < 0.01, "{f}: a quarter of its 32 Gb/s link, {own}");
    }
    let group = |name: &str| r.group(name).unwrap().throughput_fraction;
    assert!((group("g") - 1.0).abs() < 0.01, "the 16 Gb/s link they share, full: {}", group("g"));
    let m = Measurement { metric: Metric::GroupRate { group: "g".into() }, from_ns: None, to_ns: None };
    let series = sim.measure(&m).unwrap();
    assert!((series - group("g")).abs() < 1e-3, "the rate series says the same: {series}");
    assert_eq!(group("lone"), r.flow("e").unwrap().throughput_fraction, "a lone flow: its own link");
}

/// Each VL's credit stall inside the measurement interval (`LinkResult::vl_credit_stall_ns`), which the report takes
/// from its stall times at the interval's ends, against a recount from every stall the run tells of: on the VL
/// preset (the victim on VL 1, the inter-switch link's VL 0 waiting while VL 1 sends, so the link-level stall
/// misses it), read before the interval, inside it, after it, and run in slices that straddle its ends. The two
/// must agree to the picosecond.
#[test]
fn each_vl_s_credit_stall_is_measured_inside_the_interval() {
    use ibcc_core::metrics::overlap;
    use ibcc_core::net::topology::ChannelId;
    use ibcc_core::sim::Observer;
    use ibcc_core::time::{Time, NS};

    #[derive(Default)]
    struct Stalls(Vec<(ChannelId, u8, Time, Time)>);
    impl Observer for Stalls {
        fn on_vl_stall_end(&mut self, channel: ChannelId, vl: u8, since: Time, now: Time) {
            self.0.push((channel, vl, since, now));
        }
    }

    let mut s = ibcc_core::presets::find("vl-isolation-two-switch").unwrap().scenario();
    s.duration_ns = 12_000_000;
    let victim = s.flows.iter_mut().find(|f| f.id == "victim").unwrap();
    (victim.start_ns, victim.stop_ns) = (3_000_000, None);
    s.measure.from_ns = 5_000_000;
    s.measure.to_ns = Some(9_000_000);
    let (from, to) = (5_000_000 * NS, 9_000_000 * NS);
    let mut run = Run::new(&s).unwrap();
    let mut told = Stalls::default();
    let mut waited = false;
    for t in [1_000_000, 4_999_999, 5_000_000, 7_300_001, 9_000_000, 9_000_001, 12_000_000] {
        // (Slices of 2,999 events: the run stops between events at every time the report asks for, too.)
        while run.step_with(t * NS, 2_999, &mut told) > 0 {}
        let now = run.now();
        let r = run.results();
        for (c, link) in r.links.iter().enumerate() {
            assert_eq!(link.vl_credit_stall_ns.len(), 2, "{}", link.id);
            for vl in 0..2u8 {
                let ended: Time = told
                    .0
                    .iter()
                    .filter(|&&(ch, v, ..)| ch as usize == c && v == vl)
                    .map(|&(_, _, since, end)| overlap(since, end, from, to.min(now)))
                    .sum();
                let going = run.sim.channel(c as u32).vl_stalls()[usize::from(vl)]
                    .map_or(0, |since| overlap(since, now, from, to.min(now)));
                let want = (ended + going) as f64 / NS as f64;
                let got = link.vl_credit_stall_ns[usize::from(vl)];
                assert_eq!(got, want, "{} VL {vl} at {t} ns", link.id);
                waited |= got > 0.0;
            }
        }
    }
    assert!(waited, "some VL waited for credit in the interval");
    let ab = run.results().links.into_iter().find(|l| l.id == "A->B").unwrap();
    assert!(ab.credit_stall_ns == 0.0 && ab.vl_credit_stall_ns[0] > 1e6, "{ab:?}");
    // One VL: no per-VL figures.
    s.virtual_lanes = None;
    let mut run = Run::new(&s).unwrap();
    run.run();
    assert!(run.results().links.iter().all(|l| l.vl_credit_stall_ns.is_empty()));
}
