//! The papers' results (docs/model.md §10) reproduced from the presets. Each test names its figure, states the paper's
//! claim, and justifies its tolerance. docs/reproduction.md tabulates paper vs ours, including the claims we do not
//! reproduce (and does not hide them behind loose tolerances here).
//!
//! The single-run figures are plots of rates in a 2 ms sliding window; the papers read numbers off them around the
//! middle of the victim's active period (40-60 ms). We measure over exactly that period: the preset run up to 60 ms,
//! measured from 40 ms.

use ibcc_core::presets::{dynamic_run, find, long_run, TwoSwitch};
use ibcc_core::scenario::{Arbitration, Cnt1Until, MarkingPolicy, RateMode, Response, Scenario};
use ibcc_core::sim::{Results, Run};

/// Runs a preset over the victim's active period, optionally changed first.
fn during_victim(preset: &str, change: impl Fn(&mut Scenario)) -> Results {
    let mut s = find(preset).unwrap_or_else(|| panic!("no preset {preset}")).scenario();
    s.duration_ns = 60_000_000;
    s.measure.from_ns = 40_000_000;
    change(&mut s);
    let mut sim = Run::new(&s).unwrap();
    sim.run();
    let r = sim.results();
    assert_eq!(r.totals.dropped_packets, 0);
    r
}

fn isl(r: &Results) -> f64 {
    r.link("A->B").unwrap().utilization
}
fn root(r: &Results) -> f64 {
    r.link("B->BC").unwrap().utilization
}
fn group(r: &Results, name: &str) -> f64 {
    r.group(name).unwrap().throughput_fraction
}

/// INFOCOM'03 Fig. 2: "the victim flow uses only 15% of the bandwidth on the inter-switch link, even though the
/// inter-switch link is only 30% utilized". The paper gives two significant digits read off a plot; we accept
/// ±3 percentage points (a fifth of the victim's share): enough for plot-reading error, far too little to hide the
/// difference between spreading (15%) and none (the victim would take the idle ~70%).
#[test]
fn infocom03_fig2_congestion_spreading_starves_the_victim() {
    let r = during_victim("infocom03-fig2", |_| {});
    let (victim, isl) = (group(&r, "victim"), isl(&r));
    assert!((victim - 0.15).abs() <= 0.03, "victim {victim}");
    assert!((isl - 0.30).abs() <= 0.03, "inter-switch link {isl}");
    assert!(root(&r) > 0.99, "the root link stays saturated");
}

/// Globecom'02 Fig. 2 (R=10, L=10, no marking, and the window of one packet that "all" the paper's runs use, its
/// footnote 1): "the victim flow uses only 4% of the bandwidth on the inter-switch link, even though the
/// inter-switch link is only 32.5% utilized". ±3 points for the link as for INFOCOM'03 Fig. 2 (a value read off a
/// plot); ±1.5 for the victim, a small number read off the bottom of the same plot: tight enough to tell it from a
/// victim starved outright (under 1% without the window, docs/reproduction.md).
#[test]
fn globecom02_fig2_victim_starved_beside_an_idle_link() {
    let r = during_victim("globecom02-fig2", |_| {});
    let (victim, isl) = (group(&r, "victim"), isl(&r));
    assert!((victim - 0.04).abs() <= 0.015, "victim {victim}");
    assert!((isl - 0.325).abs() <= 0.03, "inter-switch link {isl}");
    assert!(root(&r) > 0.99, "the root link stays saturated");
}

/// Globecom'02 Fig. 2 also tells how B's root output chooses among its inputs, which neither paper states. Served
/// in turn (`switch.arbitration: round_robin`), B's eleven inputs, all backlogged, each get 1/11 of the root link:
/// the ten remote flows, which share one of them, get 9.1% between them and the inter-switch link carries about
/// 10%, a third of the paper's 32.5%. So the papers' switch serves the oldest packet first (the default, test above).
/// ±0.1 points around 1/11: the share is exact while every input stays backlogged, and one packet in the 20 ms
/// interval is 0.01 points, so the margin allows ten packets at its edges. The link: under 12%, far outside the
/// paper's 32.5% ± 3 (the test above).
#[test]
fn globecom02_fig2_rules_out_round_robin_arbitration() {
    let r = during_victim("globecom02-fig2", |s| s.switch.arbitration = Arbitration::RoundRobin);
    let remote = group(&r, "remote");
    assert!((remote - 1.0 / 11.0).abs() <= 0.001, "remote flows {remote}");
    assert!(isl(&r) < 0.12, "inter-switch link {}", isl(&r));
    assert!(root(&r) > 0.99, "the root link stays saturated");
}

/// INFOCOM'03 Fig. 3b: with a window of one packet "the inter-switch link is fully utilized and the victim flow
/// consumes all its idle bandwidth (the slight under-utilization ... is an artifact of the starvation prevention
/// function of switch B's scheduling mechanism)". A lone window-1 flow can use at most 2068/2248 = 92% of its path
/// (it waits 180 ns for each ACK), which bounds what "fully" can mean: we require the link at 90% or more and the
/// victim to take at least 90% of what the remote flow leaves idle. With one transfer per input buffer
/// (`input_transfers: 1`) the victim waits behind every remote packet B sends to the root link and the link drops
/// to 86% (docs/reproduction.md): checked too, as the reason for the default.
#[test]
fn infocom03_fig3b_window_one_stops_spreading_for_one_remote_flow() {
    let r = during_victim("infocom03-fig3b", |_| {});
    assert!(isl(&r) >= 0.90, "inter-switch link {}", isl(&r));
    let idle = 1.0 - group(&r, "remote");
    assert!(group(&r, "victim") >= 0.9 * idle, "victim {} of the idle {idle}", group(&r, "victim"));
    let one = during_victim("infocom03-fig3b", |s| s.switch.input_transfers = Some(1));
    assert!(isl(&one) < isl(&r) - 0.05, "one transfer per input: {} vs {}", isl(&one), isl(&r));
}

/// INFOCOM'03 Fig. 3c: with five remote flows a window of one packet is not enough: "congestion spreading prevents
/// the victim flow from achieving high throughput and the inter-switch link is under-utilized". Compared with
/// Fig. 3b (one remote flow) the victim must lose most of its share and the link must drop well below full.
#[test]
fn infocom03_fig3c_window_one_fails_with_five_remote_flows() {
    let b = during_victim("infocom03-fig3b", |_| {});
    let c = during_victim("infocom03-fig3c", |_| {});
    assert!(
        group(&c, "victim") < 0.5 * group(&b, "victim"),
        "victim {} vs {}",
        group(&c, "victim"),
        group(&b, "victim")
    );
    assert!(isl(&c) < 0.8, "inter-switch link {}", isl(&c));
}

/// INFOCOM'03 Fig. 3d: with fixed rates (1/10 per remote and local flow, 1/2 for the victim) "all flows can achieve
/// their ideal throughputs". Every flow within half a point of its rate (packet granularity over 20 ms: one packet
/// of a 10% flow is 1% of its 20 ms). The inter-switch link is then loaded to exactly 100%, so any wait the victim's
/// window of one packet cannot absorb is lost for good: with one transfer per input buffer the victim waits behind
/// the remote packets B sends to the root link and gets 40%, not 50% (docs/reproduction.md), checked too.
#[test]
fn infocom03_fig3d_fixed_rates_give_the_ideal_shares() {
    let r = during_victim("infocom03-fig3d", |_| {});
    for f in &r.flows {
        let ideal = if f.group == "victim" { 0.5 } else { 0.1 };
        assert!((f.throughput_fraction - ideal).abs() < 0.005, "{} {}", f.id, f.throughput_fraction);
    }
    assert!(root(&r) > 0.99);
    let one = during_victim("infocom03-fig3d", |s| s.switch.input_transfers = Some(1));
    assert!(group(&one, "victim") < 0.45, "one transfer per input: victim {}", group(&one, "victim"));
}

/// INFOCOM'03 Fig. 4a / Globecom'02 Fig. 3a: with naive marking "the local flows utilize 90% of the available root
/// link bandwidth", and congestion spreading is avoided. ±3 points as for Fig. 2 (a value read off a plot). "Avoids
/// spreading": the victim does far better, at least five times, than in the same network with the same window and
/// no marking (Globecom'02 Fig. 2, where it gets 4%); the paper's "high throughput" for the victim we do not
/// reproduce (docs/reproduction.md).
#[test]
fn infocom03_fig4a_naive_marking_favours_local_flows() {
    let r = during_victim("infocom03-fig4a", |_| {});
    let local_share = group(&r, "local") / root(&r);
    assert!((local_share - 0.90).abs() <= 0.03, "locals get {local_share} of the root link");
    assert!(root(&r) > 0.97, "root link {}", root(&r));
    let none = during_victim("globecom02-fig2", |_| {});
    assert!(
        group(&r, "victim") > 5.0 * group(&none, "victim"),
        "victim {} vs {}",
        group(&r, "victim"),
        group(&none, "victim")
    );
}

/// INFOCOM'03 Fig. 4b / Globecom'02 Fig. 3b: input-triggered marking "also avoids congestion spreading and keeps the
/// inter-switch link at high utilization. Moreover, fairness between the remote and local flows is improved when
/// compared to the naive scheme", while "unfairness is not entirely eliminated" (remotes still get less); and victim
/// packets "rarely receive marks" (§VI-B.1). The paper gives no numbers; we require the remote/local ratio at least
/// doubled and still below 1, the root link busy, the inter-switch link at 90% or more (against 33% with spreading,
/// Globecom'02 Fig. 2), and under 1% of the victim's packets marked (LIPD keeps a flow near full rate only with
/// fewer than about 1 mark in 256 packets). If `cnt1` counted a packet until its tail leaves the switch
/// (`marking.cnt1_until: departure`), a victim packet cutting through B when a remote packet fills B's buffer would
/// arm B's output to the victim and the next victim packet would be marked: the link then loses over 20 points
/// (49.5% against 95.7%, docs/reproduction.md), against this figure. Checked too, as the reason for the default.
#[test]
fn infocom03_fig4b_input_triggered_marking_is_fairer() {
    let naive = during_victim("infocom03-fig4a", |_| {});
    let it = during_victim("infocom03-fig4b", |_| {});
    let ratio = |r: &Results| group(r, "remote") / group(r, "local");
    assert!(ratio(&it) > 2.0 * ratio(&naive), "remote/local {} vs naive {}", ratio(&it), ratio(&naive));
    assert!(ratio(&it) < 1.0, "remote flows still get less: {}", ratio(&it));
    assert!(root(&it) > 0.97, "root link {}", root(&it));
    assert!(isl(&it) >= 0.90, "inter-switch link {}", isl(&it));
    let victim = it.flow("victim").unwrap();
    assert!(
        victim.marks * 100 < victim.delivered_packets,
        "victim marks {} of {}",
        victim.marks,
        victim.delivered_packets
    );
    let departure = during_victim("infocom03-fig4b", |s| s.marking.cnt1_until = Cnt1Until::Departure);
    assert!(isl(&departure) < isl(&it) - 0.2, "inter-switch link {} vs {}", isl(&departure), isl(&it));
    assert!(departure.flow("victim").unwrap().marks > 10 * victim.marks.max(1));
}

/// Globecom'02 Fig. 3c-d: input-output-triggered marking. "With a small output threshold of 4 packets, packets are too
/// frequently marked before an input buffer fills, resulting in low utilization of the congested link. With a higher
/// threshold of eight packets, the root link has high utilization ... Although fairness is degraded with the higher
/// threshold, it is still better than that achieved by the input-triggered marking mechanism." Tested as stated:
/// threshold 4 leaves the root link clearly (over 5 points) less used than threshold 8, which is above 97%; and
/// fairness (the remote/local ratio's distance from 1) orders threshold 4 > threshold 8 > input-triggered.
#[test]
fn globecom02_fig3cd_output_threshold_trades_utilization_for_fairness() {
    let t4 = during_victim("globecom02-fig3c", |_| {});
    let t8 = during_victim("globecom02-fig3d", |_| {});
    let it = during_victim("infocom03-fig4b", |_| {});
    assert!(root(&t4) < root(&t8) - 0.05, "root link: threshold 4 {} vs 8 {}", root(&t4), root(&t8));
    assert!(root(&t8) > 0.97);
    let unfairness = |r: &Results| (1.0 - group(r, "remote") / group(r, "local")).abs();
    assert!(unfairness(&t4) < unfairness(&t8), "{} vs {}", unfairness(&t4), unfairness(&t8));
    assert!(unfairness(&t8) < unfairness(&it), "{} vs {}", unfairness(&t8), unfairness(&it));
}

// ---- Long runs: 500 ms, measured over the last 400 ms, R=10, L=10, victim on throughout (INFOCOM'03 §VI-B,
// Globecom'02 Fig. 4). The figures are sweeps; we test the points their text makes claims about.

fn run(s: &Scenario) -> Results {
    let mut sim = Run::new(s).unwrap();
    sim.run();
    let r = sim.results();
    assert_eq!(r.totals.dropped_packets, 0);
    r
}

fn ratio(r: &Results) -> f64 {
    group(r, "remote") / group(r, "local")
}

/// INFOCOM'03 Fig. 6: "LIPD performs the best for this static flow scenario, resulting in almost 100% utilization
/// of the root link and high utilization of the inter-switch link"; "for all the schemes, fairness between local and
/// remote flows improves with larger buffers". "Almost 100%": at least 95% from 4-packet buffers up. "High": at
/// least 80% at 2, 4 and 8 packets (against 33% with spreading, Globecom'02 Fig. 2).
#[test]
fn infocom03_fig6_static_traffic() {
    let lipd: Vec<Results> =
        [2, 4, 8].iter().map(|&b| run(&long_run(Response::Lipd, RateMode::Continuous, b))).collect();
    assert!(root(&lipd[1]) > 0.95 && root(&lipd[2]) > 0.95, "LIPD root {} {}", root(&lipd[1]), root(&lipd[2]));
    for r in &lipd {
        assert!(isl(r) >= 0.80, "LIPD inter-switch link {}", isl(r));
    }
    assert!(ratio(&lipd[0]) < ratio(&lipd[1]) && ratio(&lipd[1]) < ratio(&lipd[2]), "fairness grows with buffers");
}

/// INFOCOM'03 Fig. 6, AIMD: "in contrast to LIPD and FIMD, with AIMD the inter-switch link has low utilization in
/// scenarios with small input buffers": "victim packets receive more marks with smaller buffer sizes" and AIMD
/// recovers slowly from these "sporadic marks". Not reproduced by default: our victims, which cut through B, are
/// marked still more rarely than the paper's, not at all at 2-packet buffers, so AIMD's victim is not held back
/// (docs/reproduction.md). With one transfer per input buffer victims wait in B's buffer and are marked often
/// enough: AIMD's inter-switch link is then at least 10 points below LIPD's at 2- and 4-packet buffers. Both checked.
#[test]
fn infocom03_fig6_aimd_and_the_victims_marks() {
    for b in [2, 4] {
        let lipd = run(&long_run(Response::Lipd, RateMode::Continuous, b));
        let aimd = run(&long_run(Response::Aimd, RateMode::Continuous, b));
        assert!(isl(&aimd) > 0.9, "buffer {b}: default AIMD ISL {}", isl(&aimd));
        assert!(
            aimd.flow("victim").unwrap().marks < 10,
            "buffer {b}: victim marks {}",
            aimd.flow("victim").unwrap().marks
        );
        let one = |f| {
            let mut s = long_run(f, RateMode::Continuous, b);
            s.switch.input_transfers = Some(1);
            run(&s)
        };
        let (lipd1, aimd1) = (one(Response::Lipd), one(Response::Aimd));
        assert!(isl(&aimd1) < isl(&lipd1) - 0.10, "buffer {b}: AIMD ISL {} vs LIPD {}", isl(&aimd1), isl(&lipd1));
        assert!(isl(&lipd1) < isl(&lipd) - 0.2, "buffer {b}: LIPD ISL {} vs {} by default", isl(&lipd1), isl(&lipd));
    }
}

/// INFOCOM'03 Fig. 6: "the discrete and continuous curves are nearly identical". For LIPD (whose IPD tables are
/// exact) both links agree within 3 points at 4- and 8-packet buffers (runs are deterministic; moving the victim's
/// start shifts them by under a point). FIMD's and AIMD's curves differ more (docs/reproduction.md).
#[test]
fn infocom03_fig6_discrete_rates_match_continuous_for_lipd() {
    for b in [4, 8] {
        let c = run(&long_run(Response::Lipd, RateMode::Continuous, b));
        let d = run(&long_run(Response::Lipd, RateMode::Discrete, b));
        assert!((root(&c) - root(&d)).abs() < 0.03, "buffer {b}: root {} vs {}", root(&c), root(&d));
        assert!((isl(&c) - isl(&d)).abs() < 0.03, "buffer {b}: inter-switch link {} vs {}", isl(&c), isl(&d));
    }
}

/// Globecom'02 Fig. 4: "the root link is underutilized with a low output threshold (4) or small input buffer size
/// (2 to 4). ... Using a slightly higher output threshold (6) enables high root link utilization (> 90%), except at
/// the smallest buffer sizes."
#[test]
fn globecom02_fig4_output_threshold_and_buffer_size() {
    let io = |buffer: u32, threshold: u32| {
        let mut s = long_run(Response::Lipd, RateMode::Continuous, buffer);
        s.marking.policy = MarkingPolicy::InputOutputTriggered;
        s.marking.output_threshold_packets = Some(threshold);
        run(&s)
    };
    for b in [4, 8] {
        assert!(root(&io(b, 6)) > 0.90, "threshold 6, buffer {b}: {}", root(&io(b, 6)));
        assert!(root(&io(b, 4)) < root(&io(b, 6)) - 0.05, "threshold 4 under-uses the root at buffer {b}");
    }
    assert!(root(&io(2, 6)) < 0.90, "except at the smallest buffers: {}", root(&io(2, 6)));
}

/// INFOCOM'03 Fig. 7a: half the flows dynamic. Without persistent state, "with frequent arrivals and departures
/// (small mean ON duration), dynamic flows hog the bandwidth, starving the static flows"; with persistent state
/// "static flows are not penalized and receive a fair share", which for flows ON half the time means the static
/// flows get about twice the dynamic flows' aggregate (footnote 12). At 0.2 ms mean ON: hogging means the dynamic
/// flows take over 4 times what the static ones get; fair means the static/dynamic ratio is between 1.5 and 3.
#[test]
fn infocom03_fig7a_persistent_state_protects_static_flows() {
    let fresh = run(&dynamic_run(Response::Lipd, 200_000, false, false));
    assert!(
        group(&fresh, "dynamic") > 4.0 * group(&fresh, "static"),
        "dynamic {} static {}",
        group(&fresh, "dynamic"),
        group(&fresh, "static")
    );
    let persistent = run(&dynamic_run(Response::Lipd, 200_000, true, false));
    let r = group(&persistent, "static") / group(&persistent, "dynamic");
    assert!((1.5..=3.0).contains(&r), "static/dynamic with persistent state {r}");
}

/// INFOCOM'03 Fig. 7b: all flows dynamic with persistent state. "The intermediate range of ON durations (from
/// approximately 0.2 ms to 2 ms) ... benefits from using FIMD"; for more static traffic "utilization is maximized by
/// LIPD"; "AIMD has the worst performance on all ranges achieving approximately 10% lower utilization than the
/// best"; "the inter-switch link has high utilization, except in the case of AIMD". Tested at 0.5 ms and 10 ms mean
/// ON time; "approximately 10%": at least 5 points below the best; "high": at least 90% for LIPD and FIMD. AIMD's
/// lower inter-switch link we do not reproduce, as for Fig. 6 (infocom03_fig6_aimd_and_the_victims_marks).
#[test]
fn infocom03_fig7b_fimd_wins_for_dynamic_traffic() {
    let at = |on_ns: u64| -> Vec<Results> {
        [Response::Lipd, Response::Fimd, Response::Aimd]
            .iter()
            .map(|&f| run(&dynamic_run(f, on_ns, true, true)))
            .collect()
    };
    let mid = at(500_000);
    assert!(root(&mid[1]) > root(&mid[0]) && root(&mid[1]) > root(&mid[2]), "0.5 ms: FIMD best");
    let slow = at(10_000_000);
    assert!(root(&slow[0]) > root(&slow[1]), "10 ms: LIPD beats FIMD");
    for (name, rs) in [("0.5 ms", &mid), ("10 ms", &slow)] {
        let best = rs.iter().map(root).fold(0.0, f64::max);
        assert!(root(&rs[2]) < best - 0.05, "{name}: AIMD {} vs best {best}", root(&rs[2]));
        assert!(isl(&rs[0]) >= 0.9 && isl(&rs[1]) >= 0.9, "{name}: ISL {} {}", isl(&rs[0]), isl(&rs[1]));
    }
}

/// The HP proposal's marking policy (the slides' "Packet Marking Policy"; issue 20). The slides plot rates without
/// numbers, so this checks what the heuristic must do, exactly, not a figure. On INFOCOM'03 Fig. 4's network it
/// marks exactly the packets input-triggered marking does: both arm every output a full buffer's packets wait for,
/// HP's marks on the full buffer's own packets fall on packets input-triggered marking marks when they start, and
/// no armed output runs out of credit (the root link leads to a host). The runs are identical, bit for bit. In a
/// fat tree with LIPD and no window, the tree reaches back through the core: upstream outputs run out of credit,
/// and HP lets go of them (fewer marks there) while the root link marks what they no longer do.
#[test]
fn hp_root_vl_marking_is_input_triggered_on_fig4_and_lets_go_of_blocked_outputs() {
    let fig4 = |policy| {
        during_victim("infocom03-fig4b", |s| {
            s.marking.policy = policy;
        })
    };
    let (hp, it) = (fig4(MarkingPolicy::HpRootVl), fig4(MarkingPolicy::InputTriggered));
    assert_eq!(hp, it, "Fig. 4: the same run");
    assert!(group(&hp, "victim") > 0.5 && root(&hp) > 0.95, "no spreading: {hp:?}");
    assert_eq!(find("hp-two-switch").unwrap().scenario().marking.policy, MarkingPolicy::HpRootVl);

    let tree = |policy| {
        let mut s = find("fattree4-hotspot").unwrap().scenario();
        s.source.response = Response::Lipd;
        s.source.window_packets = None;
        s.marking.policy = policy;
        run(&s)
    };
    let (hp, it) = (tree(MarkingPolicy::HpRootVl), tree(MarkingPolicy::InputTriggered));
    let marks = |r: &Results, root: bool| -> u64 {
        r.links.iter().filter(|l| (l.id == "c0->a0.0") == root).map(|l| l.marks).sum()
    };
    assert!(marks(&hp, false) < marks(&it, false), "upstream: HP {} vs {}", marks(&hp, false), marks(&it, false));
    assert!(marks(&hp, true) > marks(&it, true), "at the root: HP {} vs {}", marks(&hp, true), marks(&it, true));
}

/// Unreliable flows with CN packets (the HP slides' transports; `hp-unreliable-two-switch`). The slides give no
/// numbers; what must hold: no ACKs at all, one CN packet per marked packet delivered, and rate control through CNs
/// alone keeps the spreading down. Without marking the same flows (no window, no ACKs) leave the victim 0.9% of the
/// ISL; with CNs it gets 33.4%. We ask for more than ten times the unmarked share (9%): far above what spreading
/// leaves, without pinning the number, which depends on LIPD's recovery.
#[test]
fn unreliable_flows_are_rate_controlled_by_cn_packets_alone() {
    let r = during_victim("hp-unreliable-two-switch", |_| {});
    let t = &r.totals;
    assert_eq!(t.acks_delivered, 0);
    let cn = t.cn_packets_sent.unwrap();
    assert!(cn <= t.marked_packets && cn + t.in_flight_packets >= t.marked_packets, "{t:?}");
    let unmarked = during_victim("hp-unreliable-two-switch", |s| s.marking.policy = MarkingPolicy::None);
    assert_eq!(unmarked.totals.cn_packets_sent, Some(0));
    assert!(group(&unmarked, "victim") < 0.02, "spreading without marks: {}", group(&unmarked, "victim"));
    assert!(group(&r, "victim") > 0.09, "victim {}", group(&r, "victim"));
}

/// Congestion isolation with virtual lanes (IBA §7.6; INFOCOM'03 footnote 3): the victim on VL 1, everything
/// else on VL 0, equal arbitration weights. Whatever congests VL 0 (Fig. 2's one remote flow; ten remote flows
/// without a window; the same with ten local flows too), the victim gets at least its half of the inter-switch link
/// while it runs, where on one VL it starves. Tolerance: the half is a weighted share of the arbiter (two
/// 33-block packets per turn), exact while both VLs have a packet ready; the victim only ever gets more, so the
/// bound is 0.5 less 1% for the first turns of its 20 ms. Measured: 83%, 50% and 91% (one VL: 16%, 5%, 1%).
#[test]
fn a_victim_on_its_own_vl_keeps_its_share_of_the_inter_switch_link() {
    let heavier = |s: &mut Scenario, remote: u32, local: u32| {
        let mut t = TwoSwitch {
            remote,
            local,
            stagger_ns: 100_000,
            victim: Some((40_000_000, Some(60_000_000))),
            dynamic: None,
        }
        .scenario("", s.duration_ns);
        (t.virtual_lanes, t.measure, t.source) = (s.virtual_lanes.clone(), s.measure, s.source);
        for f in t.flows.iter_mut().filter(|f| f.group == "victim") {
            f.sl = 1;
        }
        *s = t;
    };
    for (remote, local) in [(1, 5), (10, 1), (10, 10)] {
        let isolated = during_victim("vl-isolation-two-switch", |s| heavier(s, remote, local));
        let one_vl = during_victim("vl-isolation-two-switch", |s| {
            heavier(s, remote, local);
            s.virtual_lanes = None;
        });
        let (victim, starved) = (group(&isolated, "victim"), group(&one_vl, "victim"));
        assert!(victim >= 0.49, "R={remote} L={local}: the victim on its own VL gets {victim}");
        assert!(starved < 0.2, "R={remote} L={local}: on one VL the victim gets {starved}");
        // The victim takes what VL 0 leaves, so the link is full, and that costs the congested flows nothing
        // (1%: the victim's turns delay a few of their packets).
        assert!(isl(&isolated) > 0.99, "R={remote} L={local}: inter-switch link {}", isl(&isolated));
        let (remote_isolated, remote_one_vl) = (group(&isolated, "remote"), group(&one_vl, "remote"));
        assert!(remote_isolated > remote_one_vl - 0.01, "R={remote} L={local}: {remote_isolated} vs {remote_one_vl}");
    }
}

/// The page sets each preset's reported numbers next to ours, measured with `Simulation::measure`. Every
/// measurement names a group or link its preset has, and measuring the victim period after the fact agrees with
/// a run whose measurement interval is that period (the numbers of the tests above), to rounding.
#[test]
fn reported_numbers_are_measured_like_the_tests_measure_them() {
    use ibcc_core::presets::PRESETS;
    use ibcc_core::sim::MeasureError;
    for p in PRESETS {
        let sim = Run::new(&p.scenario()).unwrap();
        for r in p.reported {
            assert_eq!(sim.measure(&r.measurement()), Err(MeasureError::NotReached), "{}: {:?}", p.name, r);
        }
    }
    let mut s = find("infocom03-fig2").unwrap().scenario();
    s.duration_ns = 60_000_000;
    let mut sim = Run::new(&s).unwrap();
    sim.run();
    let reference = during_victim("infocom03-fig2", |_| {});
    let fig2 = find("infocom03-fig2").unwrap();
    let victim = sim.measure(&fig2.reported[0].measurement()).unwrap();
    let link = sim.measure(&fig2.reported[1].measurement()).unwrap();
    assert!((victim - group(&reference, "victim")).abs() < 1e-9, "{victim} vs {}", group(&reference, "victim"));
    assert!((link - isl(&reference)).abs() < 1e-9, "{link} vs {}", isl(&reference));
    // An end left out is the scenario's own (Fig. 2 measures 40-60 ms): from 70 ms on, nothing is left.
    use ibcc_core::sim::{Measurement, Metric};
    let late =
        |to_ns| Measurement { metric: Metric::GroupRate { group: "victim".into() }, from_ns: Some(70_000_000), to_ns };
    let s = fig2.scenario();
    assert_eq!(late(None).interval_ns(&s), Err(MeasureError::Empty { from_ns: 70_000_000, to_ns: 60_000_000 }));
    assert_eq!(late(Some(200_000_000)).interval_ns(&s), Ok((70_000_000, 100_000_000)), "at most to the run's end");
    assert!(late(None).interval_ns(&s).unwrap_err().to_string().contains("empty"));
}

/// Paused inside the measured interval (anywhere, not only at a sample's edge), a reported number is the Results
/// tables' own: the link's utilization and the one-flow group's throughput over the interval so far. (It spread the
/// sample being filled evenly over the part elapsed, though that sample already holds the whole of every
/// transmission in progress: 31.9% beside the table's 32.0%.)
#[test]
fn a_number_measured_mid_interval_is_the_tables_number() {
    let fig2 = find("infocom03-fig2").unwrap();
    let mut sim = Run::new(&fig2.scenario()).unwrap();
    let mut checked = 0;
    // 40-60 ms, at times that fall anywhere in a sample (a prime number of ns apart).
    for t in (40_000_001..60_000_000u64).step_by(1_234_567) {
        sim.run_until(t * 1000);
        let results = sim.results();
        let victim = sim.measure(&fig2.reported[0].measurement()).unwrap();
        let link = sim.measure(&fig2.reported[1].measurement()).unwrap();
        let table_link = results.links.iter().find(|l| l.id == "A->B").unwrap().utilization;
        let table_victim = results.flows.iter().find(|f| f.group == "victim").unwrap().throughput_fraction;
        assert!((link - table_link).abs() < 1e-9, "at {t} ns: A->B {link} against the table's {table_link}");
        assert!((victim - table_victim).abs() < 1e-9, "at {t} ns: victim {victim} against the table's {table_victim}");
        checked += 1;
    }
    assert_eq!(checked, 17);
}

/// A hot spot and a background shift on the k=8 fat tree (128 hosts), under the playground's old routing, OpenSM's
/// minhop and OpenSM's ftree (issue 28; docs/reproduction.md, "Routing on the fat trees"). 28 hosts (every fourth
/// outside pod 0) send to `h0`; 99 others each send to the host 64 places on (a shift by half: every flow crosses
/// the core); no congestion control, 5 ms measured after 2 ms. What must hold, and why:
/// - ftree routes a shift without contention, and the hot spot's tree does not reach the background's buffers: the
///   background gets its whole link, hot spot or not (measured 0.991; bound 0.95, for the first packets' start);
/// - minhop puts four background flows on some core links whatever the hot spot does (0.25 with and without it;
///   bounds 0.2-0.3 around a quarter);
/// - sssp spreads the shift nearly without contention (0.853), but its routes cross the hot spot's tree, which takes
///   a fifth of that (0.674): bounds 0.8, and a loss of at least 0.1;
/// - the old routing funnels everything up the same uplinks: the background already gets less than under minhop,
///   and the hot spot's congestion spreads into it (0.08 without the hot spot, 0.036 with).
#[test]
fn ftree_keeps_a_background_shift_clear_of_a_hot_spot_on_the_k8_fat_tree() {
    use ibcc_core::scenario::{Flow, RoutingEngine};
    let background = |hot: bool, engine: RoutingEngine| {
        let mut s = find("fattree4-hotspot").unwrap().scenario();
        let tree = ibcc_core::presets::fat_tree(8, "fattree8", 7_000_000);
        (s.nodes, s.links, s.duration_ns) = (tree.nodes, tree.links, tree.duration_ns);
        s.measure.from_ns = 2_000_000;
        s.routing.engine = engine;
        let senders: Vec<u32> = (16..128).filter(|h| h % 4 == 0).collect();
        s.flows = Vec::new();
        if hot {
            s.flows.extend(senders.iter().map(|&h| Flow {
                group: "hotspot".into(),
                start_ns: u64::from(h) * 1000,
                ..Flow::new(&format!("hot{h}"), &format!("h{h}"), "h0")
            }));
        }
        for h in (1..128u32).filter(|h| !senders.contains(h) && (h + 64) % 128 != 0) {
            s.flows.push(Flow {
                group: "background".into(),
                start_ns: u64::from(h) * 100,
                ..Flow::new(&format!("bg{h}"), &format!("h{h}"), &format!("h{}", (h + 64) % 128))
            });
        }
        let r = run(&s);
        let flows: Vec<f64> =
            r.flows.iter().filter(|f| f.group == "background").map(|f| f.throughput_fraction).collect();
        assert_eq!(flows.len(), 99);
        flows.iter().sum::<f64>() / flows.len() as f64
    };
    for hot in [false, true] {
        let ftree = background(hot, RoutingEngine::Ftree);
        assert!(ftree > 0.95, "ftree, hot spot {hot}: {ftree}");
        let minhop = background(hot, RoutingEngine::Minhop);
        assert!((0.2..0.3).contains(&minhop), "minhop, hot spot {hot}: {minhop}");
    }
    let (alone, with_hot) = (background(false, RoutingEngine::Sssp), background(true, RoutingEngine::Sssp));
    assert!(alone > 0.8 && with_hot < alone - 0.1, "sssp: {alone} alone, {with_hot} with the hot spot");
    let (alone, with_hot) =
        (background(false, RoutingEngine::FirstListed), background(true, RoutingEngine::FirstListed));
    assert!(alone < 0.2 && with_hot < alone * 0.75, "first listed: {alone} alone, {with_hot} with the hot spot");
}
