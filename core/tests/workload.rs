//! Message workloads (docs/workload.md): processes' programs run over the network's flows. Checked here: messages
//! are conserved, eager and rendezvous, put and get take the round trips they should, ACK coalescing still
//! completes every message, canaries on a crossbar are untouched by congestors, runs are deterministic, and random
//! workloads on random networks finish with the network's invariants intact.

mod common;

use ibcc_core::rng::Rng;
use ibcc_core::scenario::{AckCoalescing, NodeKind, Response, Scenario, Transport};
use ibcc_core::sim::Simulation;
use ibcc_core::time::Time;
use ibcc_core::workload::{collectives, Op, Workload};

fn hosts(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("H{i}")).collect()
}

/// Runs `w` on `s` to its end; the simulation after.
fn run(s: &Scenario, w: &Workload) -> Simulation {
    let mut sim = Simulation::with_workload(s, w).unwrap();
    sim.run_workload(&mut ());
    let rt = sim.workload().unwrap();
    assert!(rt.is_done(), "unfinished: {:?} {:?}", rt.unfinished(), rt.fault());
    sim.check_invariants().unwrap();
    sim
}

/// Every send was received and completed, and every put and get completed.
fn conserved(sim: &Simulation) {
    let c = sim.workload().unwrap().counts();
    assert_eq!((c.sends, c.sends_done, c.recvs_done), (c.recvs, c.sends, c.recvs), "{c:?}");
    assert_eq!((c.puts_done, c.gets_done), (c.puts, c.gets), "{c:?}");
}

/// Process 0 times `exchange` (its operations, then a wait) `times` times; process 1 runs `answer` as often.
fn ping(bytes: u32, times: u32) -> Workload {
    let mut w = Workload::new(hosts(2));
    w.programs[0] = vec![
        Op::Repeat { times },
        Op::Clock,
        Op::Send { to: 1, bytes },
        Op::Recv { from: 1 },
        Op::Wait,
        Op::Sample { series: 0 },
        Op::End,
    ];
    w.programs[1] =
        vec![Op::Repeat { times }, Op::Recv { from: 0 }, Op::Wait, Op::Send { to: 0, bytes }, Op::Wait, Op::End];
    w
}

#[test]
fn a_ping_pong_is_conserved_steady_and_deterministic() {
    let s = common::crossbar(2);
    let sim = run(&s, &ping(8, 20));
    conserved(&sim);
    let samples = sim.workload().unwrap().samples(0, 0).to_vec();
    assert_eq!(samples.len(), 20);
    // Nothing else runs: after the first exchange every round trip takes the same time.
    assert!(samples[1..].iter().all(|&t| t == samples[1]), "{samples:?}");
    assert!(samples[1] > 0);
    let again = run(&s, &ping(8, 20));
    assert_eq!(again.workload().unwrap().samples(0, 0), samples.as_slice());
    // A clone part way runs on to the same samples (the page's checkpoints).
    let mut sim = Simulation::with_workload(&s, &ping(8, 20)).unwrap();
    sim.run_until(samples[0] * 3, &mut ());
    let mut copy = sim.clone();
    copy.run_workload(&mut ());
    assert_eq!(copy.workload().unwrap().samples(0, 0), samples.as_slice());
}

#[test]
fn rendezvous_costs_a_round_trip_more_than_eager_and_overhead_adds_up() {
    let s = common::crossbar(2);
    let eager = |bytes: u32| {
        let mut w = ping(bytes, 3);
        w.eager_bytes = u32::MAX;
        run(&s, &w).workload().unwrap().samples(0, 0)[2]
    };
    let rendezvous = |bytes: u32| {
        let mut w = ping(bytes, 3);
        w.eager_bytes = 0;
        run(&s, &w).workload().unwrap().samples(0, 0)[2]
    };
    let one_packet = eager(8);
    // Each way the request to send and the clear to send are two more one-packet trips before the data.
    assert!(rendezvous(8) >= one_packet * 2, "{} vs {one_packet}", rendezvous(8));
    assert!(eager(2048 * 4) > one_packet, "four packets take longer than one");
    // Overhead comes before a post takes effect: process 0's send is 100 ns later at least; at most all four posts
    // of an exchange add up (some overlap the messages' travel: here 160 ns in all).
    let mut w = ping(8, 3);
    w.overhead_ns = 100;
    let with = run(&s, &w).workload().unwrap().samples(0, 0)[2];
    assert!(with > one_packet + 100_000 && with <= one_packet + 4 * 100_000, "{with} vs {one_packet}");
}

#[test]
fn puts_complete_on_their_ack_and_gets_on_their_answer() {
    let s = common::crossbar(3);
    let mut w = Workload::new(hosts(3));
    // Process 0 puts to 1 and gets from 2, four of each (4 KiB: two packets), waiting for each.
    w.programs[0] = vec![
        Op::Repeat { times: 4 },
        Op::Clock,
        Op::Put { to: 1, bytes: 4096 },
        Op::Wait,
        Op::Sample { series: 0 },
        Op::Clock,
        Op::Get { from: 2, bytes: 4096 },
        Op::Wait,
        Op::Sample { series: 1 },
        Op::End,
    ];
    let sim = run(&s, &w);
    conserved(&sim);
    let rt = sim.workload().unwrap();
    assert_eq!(rt.counts().puts_done, 4);
    assert_eq!(rt.counts().gets_done, 4);
    let (put, get) = (rt.samples(0, 0)[3], rt.samples(0, 1)[3]);
    // A put is two packets out and an ACK back; a get a one-packet request out and two packets back (and their
    // ACK is not waited for): the get takes at least as long.
    assert!(put > 0 && get >= put, "put {put}, get {get}");
    // The targets' processes did nothing: their programs are empty and done at 0.
    assert_eq!(rt.done_at(2), Some(0));
}

/// On unreliable queue pairs nothing is acknowledged: a put completes once its last packet has left, before an ACK
/// could have come back, and the receiver still gets every message.
#[test]
fn unreliable_queue_pairs_complete_as_their_last_packet_leaves() {
    let s = common::crossbar(2);
    let put = |transport| {
        let mut w = Workload::new(hosts(2));
        w.transport = transport;
        w.programs[0] = vec![Op::Clock, Op::Put { to: 1, bytes: 4096 }, Op::Wait, Op::Sample { series: 0 }];
        w.programs[1] = vec![Op::Recv { from: 0 }, Op::Wait];
        w.programs[0].extend([Op::Send { to: 1, bytes: 8 }, Op::Wait]);
        let sim = run(&s, &w);
        conserved(&sim);
        (sim.workload().unwrap().samples(0, 0)[0], sim.counts().acks_sent)
    };
    let ((rc, rc_acks), (uc, uc_acks)) = (put(Transport::Reliable), put(Transport::Unreliable));
    assert!(uc < rc, "a UC put ({uc} ps) should complete before an RC put is acknowledged ({rc} ps)");
    assert!(rc_acks > 0 && uc_acks == 0, "ACKs sent: RC {rc_acks}, UC {uc_acks}");
}

#[test]
fn messages_ask_for_their_ack_when_acks_are_coalesced() {
    let mut s = common::crossbar(2);
    s.ack_coalescing = Some(AckCoalescing { every_packets: 64 });
    // Without a window and with an ACK only every 64 packets, a one-packet send would wait for its ACK forever
    // unless its last packet asks for one.
    s.source.window_packets = None;
    let sim = run(&s, &ping(8, 5));
    conserved(&sim);
}

#[test]
fn collectives_complete_and_a_signal_stops_the_congestors() {
    let n = 8;
    let s = common::crossbar(n);
    let mut w = Workload::new(hosts(n));
    let canaries: Vec<u32> = (0..5).collect();
    // Canaries: 10 timed allreduces with a barrier before, then a signal. Congestors: incast to process 5 until
    // the signal.
    for &c in &canaries {
        w.programs[c as usize].push(Op::Repeat { times: 10 });
    }
    collectives::barrier(&mut w.programs, &canaries);
    for &c in &canaries {
        w.programs[c as usize].push(Op::Clock);
    }
    collectives::allreduce(&mut w.programs, &canaries, 8);
    for &c in &canaries {
        w.programs[c as usize].extend([Op::Sample { series: 0 }, Op::End, Op::Signal { id: 0 }]);
    }
    for src in 6..8u32 {
        w.programs[src as usize] =
            vec![Op::RepeatUntil { id: 0, count: 5 }, Op::Send { to: 5, bytes: 4096 }, Op::Wait, Op::End];
        w.programs[5].push(Op::Recv { from: src });
    }
    // The root keeps a receive posted for each sender; it does not know how many will come, so the test lets it
    // take what was sent (below) rather than a fixed count.
    w.programs[5].clear();
    let mut sim = Simulation::with_workload(&s, &w).unwrap();
    sim.run_workload(&mut ());
    let rt = sim.workload().unwrap();
    // The root never posted a receive, so the congestors' eager messages wait unexpected; their sends complete at
    // their ACK all the same (eager), and the signal stops them.
    assert!(rt.is_done(), "{:?}", rt.unfinished());
    for &c in &canaries {
        assert_eq!(rt.samples(c as usize, 0).len(), 10);
    }
    let c = rt.counts();
    assert!(c.sends > 10 && c.sends_done == c.sends, "{c:?}");
    sim.check_invariants().unwrap();
}

/// GPCNeT's netbench/GPCNET#5: on one switch, canaries and congestors share no link or buffer, so the canaries'
/// samples are the same with and without congestors.
#[test]
fn on_a_crossbar_congestors_do_not_touch_the_canaries() {
    let n = 10;
    let s = common::crossbar(n);
    let canary = |w: &mut Workload| {
        let ring = [0u32, 1, 2, 3];
        for (i, &me) in ring.iter().enumerate() {
            let (left, right) = (ring[(i + 3) % 4], ring[(i + 1) % 4]);
            w.programs[me as usize] = vec![
                Op::Repeat { times: 30 },
                Op::Clock,
                Op::Recv { from: left },
                Op::Recv { from: right },
                Op::Send { to: left, bytes: 8 },
                Op::Send { to: right, bytes: 8 },
                Op::Wait,
                Op::Sample { series: 0 },
                Op::End,
                Op::Signal { id: 0 },
            ];
        }
    };
    let mut quiet = Workload::new(hosts(n));
    canary(&mut quiet);
    let mut busy = quiet.clone();
    // Congestors: hosts 5..9 send 128 KiB to host 4 (incast) and get from each other, until the canaries finish.
    for src in 5..10u32 {
        busy.programs[src as usize] = vec![
            Op::RepeatUntil { id: 0, count: 4 },
            Op::Put { to: 4, bytes: 131_072 },
            Op::Get { from: 5 + (src - 4) % 5, bytes: 4096 },
            Op::Wait,
            Op::End,
        ];
    }
    let (a, b) = (run(&s, &quiet), run(&s, &busy));
    assert!(b.workload().unwrap().counts().puts >= 5, "the congestors ran");
    for p in 0..4 {
        assert_eq!(a.workload().unwrap().samples(p, 0), b.workload().unwrap().samples(p, 0), "process {p}");
    }
}

/// Processes on one host talk through its memory, at once; their messages never touch the network.
#[test]
fn messages_within_a_host_take_no_time() {
    let s = common::crossbar(2);
    let mut w = ping(131_072, 3);
    w.hosts = vec!["H0".into(), "H0".into()];
    let sim = run(&s, &w);
    conserved(&sim);
    assert_eq!(sim.workload().unwrap().samples(0, 0), [0, 0, 0]);
    assert_eq!(sim.counts().injected, 0);
}

#[test]
fn bad_workloads_are_refused_by_name() {
    let s = common::crossbar(2);
    let mut w = Workload::new(vec!["H0".into(), "S".into()]);
    let err = Simulation::with_workload(&s, &w).unwrap_err();
    assert!(err.contains("process 1 runs on S, which is not a host"), "{err}");
    w.hosts[1] = "H1".into();
    w.programs[0] = vec![Op::RepeatUntil { id: 0, count: 1 }, Op::Clock, Op::End];
    // A loop that never waits for anything is stopped, with why, and the run does not hang.
    let mut sim = Simulation::with_workload(&s, &w).unwrap();
    sim.run_workload(&mut ());
    assert!(
        sim.workload().unwrap().fault().unwrap().contains("process 0 ran"),
        "{:?}",
        sim.workload().unwrap().fault()
    );
    // A receive nobody sends to: the run ends at its duration with the process still waiting.
    w.programs[0] = vec![Op::Recv { from: 1 }, Op::Wait];
    let mut short = s.clone();
    short.duration_ns = 50_000;
    let mut sim = Simulation::with_workload(&short, &w).unwrap();
    sim.run_workload(&mut ());
    assert_eq!(sim.workload().unwrap().unfinished(), [(0, 1, "waits for its messages")]);
}

/// Random rings, puts, gets and allreduces on random networks with random congestion control, on reliable or
/// unreliable queue pairs: every process
/// finishes (unless the network deadlocks), messages are conserved, and the invariants hold throughout.
#[test]
fn random_workloads_on_random_networks_finish() {
    let (mut finished, mut unreliable) = (0, 0);
    for seed in 0..100 {
        let mut s = common::random_scenario(seed);
        s.duration_ns = 200_000_000;
        let names: Vec<String> = s.nodes.iter().filter(|n| n.kind == NodeKind::Host).map(|n| n.id.clone()).collect();
        let mut rng = Rng::new(seed, 7);
        let per_host = 1 + rng.below(3) as u32;
        let mut w = Workload::new(ibcc_core::workload::place(&names, per_host));
        w.eager_bytes = [0, 8192, u32::MAX][rng.below(3) as usize];
        w.overhead_ns = rng.below(300);
        // A quarter run on unreliable queue pairs (sends complete as they leave; no ACKs), where the source allows
        // (drawn from a stream of its own, so that the reliable runs are as they were).
        if Rng::new(seed, 8).below(4) == 0 && s.source.response != Response::Hybrid {
            w.transport = Transport::Unreliable;
            unreliable += 1;
        }
        // One slice per rank on a host (as GPCNeT's node slices), each a communicator of one process per host.
        for k in 0..per_host {
            let ranks: Vec<u32> = (0..names.len() as u32).map(|h| h * per_host + k).collect();
            let n = ranks.len();
            for (i, &me) in ranks.iter().enumerate() {
                let right = ranks[(i + 1) % n];
                let left = ranks[(i + n - 1) % n];
                let bytes = [8, 4096, 16_384][rng.below(3) as usize];
                w.programs[me as usize].extend([
                    Op::Repeat { times: 2 },
                    Op::Recv { from: left },
                    Op::Send { to: right, bytes },
                    Op::Put { to: right, bytes: 4096 },
                    Op::Get { from: left, bytes: 2048 },
                    Op::Wait,
                    Op::End,
                ]);
            }
            // The ring's sizes differ per sender; receives take whatever comes.
            collectives::allreduce(&mut w.programs, &ranks, 8);
            collectives::barrier(&mut w.programs, &ranks);
        }
        // And a barrier over every process, some of them on one host.
        let all: Vec<u32> = (0..w.hosts.len() as u32).collect();
        collectives::barrier(&mut w.programs, &all);
        let mut sim = Simulation::with_workload(&s, &w).unwrap();
        let mut steps = 0u64;
        while !sim.is_finished() && !sim.workload_over() {
            sim.run_until(sim.now() + 20_000_000, &mut ());
            steps += 1;
            if steps % 7 == 0 {
                sim.check_invariants().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            }
        }
        sim.check_invariants().unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        if sim.deadlock().is_some() {
            continue;
        }
        let rt = sim.workload().unwrap();
        assert!(rt.is_done(), "seed {seed}: {:?} {:?}", rt.unfinished(), rt.fault());
        conserved(&sim);
        finished += 1;
    }
    assert!(finished >= 80, "only {finished} of 100 networks ran without deadlock");
    assert!(unreliable >= 10, "only {unreliable} of 100 ran on unreliable queue pairs");
}

/// The samples are simulated time: integers, the same on every platform.
#[test]
fn samples_are_whole_picoseconds() {
    let sim = run(&common::crossbar(2), &ping(8, 2));
    let t: Time = sim.workload().unwrap().samples(0, 0)[1];
    assert!(t > 1000);
}
