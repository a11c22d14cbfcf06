//! The scenario format as a contract: the documented example parses, defaults are as documented, and every kind of
//! bad input is refused with an error that names the element and the field, never a panic.

use ibcc_core::scenario::{BypassCounting, Element, Problem, Scenario, ScenarioError, FORMAT, VERSION};

/// INFOCOM'03 Fig. 2's scenario digest, as exported answers carry it (re-recorded for format version 3, which
/// added `routing`: the version number is part of the hashed JSON).
const PINNED_FIG2_DIGEST: &str = "88df810bd971e8f9";

fn base() -> serde_json::Value {
    serde_json::json!({
        "format": "ibcc-scenario",
        "version": 1,
        "name": "tiny",
        "duration_ns": 1000000,
        "nodes": [
            {"id": "S", "kind": "switch"},
            {"id": "H1", "kind": "host"},
            {"id": "H2", "kind": "host"}
        ],
        "links": [{"a": "H1", "b": "S"}, {"a": "S", "b": "H2"}],
        "flows": [{"id": "f", "src": "H1", "dst": "H2", "group": "g"}]
    })
}

fn refuse(v: serde_json::Value) -> ScenarioError {
    let text = v.to_string();
    Scenario::from_json_validated(&text).expect_err(&format!("must be refused: {text}"))
}

#[test]
fn defaults_are_the_papers_table_i() {
    let s = Scenario::from_json_validated(&base().to_string()).unwrap();
    assert_eq!((s.packet.payload_bytes, s.packet.header_bytes, s.packet.ack_bytes), (2048, 20, 20));
    assert_eq!((s.switch.buffer_packets, s.switch.forwarding_delay_ns, s.switch.max_bypass), (4, 40, 4));
    assert_eq!((s.link.bandwidth_gbps, s.link.propagation_ns), (8.0, 0));
    assert_eq!(s.source.window_packets, Some(1));
    assert_eq!(s.source.r_min_fraction, 1.0 / 256.0);
    assert_eq!(s.source.m, 2.0);
    assert_eq!(s.measure.window_ns, 2_000_000);
    assert_eq!(s.seed, 1);
    assert_eq!((s.format.as_str(), s.version), (FORMAT, VERSION));
}

#[test]
fn the_documented_example_is_valid() {
    let doc = include_str!("../../docs/scenario.md");
    let start = doc.find("```json").expect("docs/scenario.md has a JSON example") + 7;
    let end = start + doc[start..].find("```").unwrap();
    let s = Scenario::from_json_validated(&doc[start..end]).unwrap();
    assert!(!s.flows.is_empty());
}

/// Version 1 had neither `switch.input_transfers` nor `switch.bypass_counting` and meant one transfer per input
/// buffer at a time, every overtaken packet counting its bypasses; a version-1 document read now keeps that meaning
/// (so old links and files replay exactly), while a current one without the fields has no transfer limit and counts
/// at the head. A switch may override either; `null` there lifts its transfer limit.
#[test]
fn version_1_keeps_its_switch_and_overrides_apply_per_switch() {
    let v1 = Scenario::from_json_validated(&base().to_string()).unwrap();
    assert_eq!(
        (v1.version, v1.switch.input_transfers, v1.switch.bypass_counting),
        (VERSION, Some(1), BypassCounting::EachPacket)
    );
    let mut v = base();
    v["version"] = VERSION.into();
    let current = Scenario::from_json_validated(&v.to_string()).unwrap();
    assert_eq!((current.switch.input_transfers, current.switch.bypass_counting), (None, BypassCounting::Head));
    v["switch"] = serde_json::json!({"input_transfers": 2});
    v["nodes"][0]["switch"] = serde_json::json!({"input_transfers": null, "bypass_counting": "each_packet"});
    let s = Scenario::from_json_validated(&v.to_string()).unwrap();
    assert_eq!(s.switch.input_transfers, Some(2));
    let own = s.switch.with(s.nodes[0].switch.as_ref());
    assert_eq!((own.input_transfers, own.bypass_counting), (None, BypassCounting::EachPacket));
    // What it writes reads back the same (a current document is not upgraded again).
    assert_eq!(Scenario::from_json(&s.to_json()).unwrap(), s);
}

#[test]
fn null_window_means_no_window_and_overrides_apply_per_flow() {
    let mut v = base();
    v["source"] = serde_json::json!({"response": "lipd", "window_packets": 2});
    v["flows"][0]["source"] = serde_json::json!({"window_packets": null, "m": 4});
    let s = Scenario::from_json_validated(&v.to_string()).unwrap();
    let merged = s.source.with(s.flows[0].source.as_ref());
    assert_eq!(merged.window_packets, None);
    assert_eq!(merged.m, 4.0);
    assert_eq!(s.source.window_packets, Some(2));
}

#[test]
fn syntax_and_shape_errors_say_where() {
    let e = Scenario::from_json("{\"format\": \"ibcc-scenario\",").unwrap_err();
    assert!(matches!(e.problem, Problem::Parse(_)));
    assert!(e.to_string().contains("line 1"), "{e}");
    let mut v = base();
    v["nodes"][0]["colour"] = "red".into();
    let e = refuse(v);
    assert!(e.to_string().contains("unknown field `colour`"), "{e}");
    let mut v = base();
    v["marking"] = serde_json::json!({"policy": "sometimes"});
    assert!(refuse(v).to_string().contains("unknown variant `sometimes`"));
    let mut v = base();
    v["duration_ns"] = (-5).into();
    assert!(matches!(refuse(v).problem, Problem::Parse(_)));
}

/// A mutation of the valid base scenario, the element and field the error must name, and a check of the problem.
type Case = (Box<dyn Fn(&mut serde_json::Value)>, Element, &'static str, fn(&Problem) -> bool);

#[test]
fn each_bad_element_is_named() {
    let cases: Vec<Case> = vec![
        (Box::new(|v| v["format"] = "other".into()), Element::Scenario, "format", |p| {
            matches!(p, Problem::WrongFormat(_))
        }),
        (Box::new(|v| v["version"] = 9.into()), Element::Scenario, "version", |p| *p == Problem::UnsupportedVersion(9)),
        (
            Box::new(|v| v["links"][1]["b"] = "nowhere".into()),
            Element::Link { index: 1, a: "S".into(), b: "nowhere".into() },
            "b",
            |p| *p == Problem::UnknownNode("nowhere".into()),
        ),
        (
            // Found in a walk: a host renamed "h1->x" made its link "h1->x->S2".
            Box::new(|v| v["nodes"][2]["id"] = "h1->x".into()),
            Element::Node { index: 2, id: "h1->x".into() },
            "id",
            |p| *p == Problem::ArrowInNodeId,
        ),
        (Box::new(|v| v["nodes"][2]["id"] = "H1".into()), Element::Node { index: 2, id: "H1".into() }, "id", |p| {
            *p == Problem::DuplicateId
        }),
        (
            Box::new(|v| v["links"].as_array_mut().unwrap().push(serde_json::json!({"a": "H1", "b": "S"}))),
            Element::Node { index: 1, id: "H1".into() },
            "a",
            |p| *p == Problem::HostLinkCount(2),
        ),
        (
            Box::new(|v| v["links"][0]["bandwidth_gbps"] = 0.0.into()),
            Element::Link { index: 0, a: "H1".into(), b: "S".into() },
            "bandwidth_gbps",
            |p| matches!(p, Problem::OutOfRange(_)),
        ),
        (
            Box::new(|v| v["switch"] = serde_json::json!({"buffer_packets": 0})),
            Element::Scenario,
            "switch.buffer_packets",
            |p| *p == Problem::BufferSmallerThanPacket,
        ),
        (
            Box::new(|v| v["nodes"][0]["switch"] = serde_json::json!({"buffer_packets": 0})),
            Element::Node { index: 0, id: "S".into() },
            "switch.buffer_packets",
            |p| *p == Problem::BufferSmallerThanPacket,
        ),
        (
            Box::new(|v| v["nodes"][0]["switch"] = serde_json::json!({"input_transfers": 0})),
            Element::Node { index: 0, id: "S".into() },
            "switch.input_transfers",
            |p| matches!(p, Problem::OutOfRange(_)),
        ),
        (Box::new(|v| v["flows"][0]["dst"] = "S".into()), Element::Flow { index: 0, id: "f".into() }, "dst", |p| {
            *p == Problem::NotAHost("S".into())
        }),
        (Box::new(|v| v["flows"][0]["dst"] = "H1".into()), Element::Flow { index: 0, id: "f".into() }, "dst", |p| {
            *p == Problem::SameEndpoints
        }),
        (
            Box::new(|v| {
                v["nodes"].as_array_mut().unwrap().push(serde_json::json!({"id": "lone", "kind": "host"}));
                v["flows"][0]["dst"] = "lone".into();
            }),
            Element::Flow { index: 0, id: "f".into() },
            "dst",
            |p| *p == Problem::Unreachable { src: "H1".into(), dst: "lone".into() },
        ),
        (
            Box::new(|v| {
                v["flows"][0]["traffic"] = serde_json::json!({"kind": "on_off", "mean_on_ns": 0, "mean_off_ns": 5})
            }),
            Element::Flow { index: 0, id: "f".into() },
            "traffic.mean_on_ns",
            |p| matches!(p, Problem::OutOfRange(_)),
        ),
        (Box::new(|v| v["source"] = serde_json::json!({"m": 1.0})), Element::Scenario, "source.m", |p| {
            matches!(p, Problem::OutOfRange(_))
        }),
        (
            Box::new(|v| v["marking"] = serde_json::json!({"policy": "input_output_triggered"})),
            Element::Scenario,
            "marking.output_threshold_packets",
            |p| matches!(p, Problem::Inconsistent(_)),
        ),
        (Box::new(|v| v["duration_ns"] = 1_000_000_000_000u64.into()), Element::Scenario, "duration_ns", |p| {
            matches!(p, Problem::LimitExceeded { .. })
        }),
        (
            Box::new(|v| {
                // 10 s on 4 directed links and a group: even one sample per 1 us window is 5e7 counters. (In 1 ns
                // samples with the default 2 ms window it runs, with coarser series: see below.)
                v["duration_ns"] = 10_000_000_000u64.into();
                v["measure"] = serde_json::json!({"sample_ns": 1, "window_ns": 1000});
            }),
            Element::Scenario,
            "measure.window_ns",
            |p| matches!(p, Problem::TooManySamples { series: 5, samples: 50_000_005, limit: 20_000_000 }),
        ),
        (
            Box::new(|v| v["measure"] = serde_json::json!({"from_ns": 500000, "to_ns": 500000})),
            Element::Scenario,
            "measure.to_ns",
            |p| matches!(p, Problem::OutOfRange(_)),
        ),
        (
            // Found in review: a huge threshold overflowed its size in credit blocks.
            Box::new(|v| v["marking"] = serde_json::json!({"buffer_threshold_packets": 200_000_000})),
            Element::Scenario,
            "marking.buffer_threshold_packets",
            |p| matches!(p, Problem::LimitExceeded { .. }),
        ),
        (
            // Found in review: an AT count of 0 cycles is reached the instant it starts; its NIC's timer fired at
            // the same picosecond forever.
            Box::new(|v| v["pft"] = serde_json::json!({"detection": "average_threshold", "exit_count_cycles": 0})),
            Element::Scenario,
            "pft.exit_count_cycles",
            |p| matches!(p, Problem::OutOfRange(_)),
        ),
        (
            Box::new(|v| v["flows"][0]["stop_ns"] = 0.into()),
            Element::Flow { index: 0, id: "f".into() },
            "stop_ns",
            |p| matches!(p, Problem::OutOfRange(_)),
        ),
        // Virtual lanes: 1 to 15 data VLs, an SL-to-VL table of existing VLs, arbitration entries for existing VLs,
        // SLs 0 to 15, and every flow's VL served by some entry.
        (
            Box::new(|v| v["virtual_lanes"] = serde_json::json!({"data_vls": 16})),
            Element::Scenario,
            "virtual_lanes.data_vls",
            |p| matches!(p, Problem::OutOfRange(_)),
        ),
        (
            Box::new(|v| v["virtual_lanes"] = serde_json::json!({"data_vls": 0})),
            Element::Scenario,
            "virtual_lanes.data_vls",
            |p| matches!(p, Problem::OutOfRange(_)),
        ),
        (
            Box::new(|v| v["virtual_lanes"] = serde_json::json!({"data_vls": 2, "sl_to_vl": vec![0; 17]})),
            Element::Scenario,
            "virtual_lanes.sl_to_vl",
            |p| matches!(p, Problem::OutOfRange(_)),
        ),
        (
            Box::new(|v| {
                let low = vec![serde_json::json!({"vl": 0, "weight": 1}); 65];
                v["virtual_lanes"] = serde_json::json!({"data_vls": 2, "arbitration": {"low": low}});
            }),
            Element::Scenario,
            "virtual_lanes.arbitration",
            |p| matches!(p, Problem::OutOfRange(_)),
        ),
        (
            Box::new(|v| v["virtual_lanes"] = serde_json::json!({"data_vls": 2, "sl_to_vl": [0, 2]})),
            Element::Scenario,
            "virtual_lanes.sl_to_vl",
            |p| matches!(p, Problem::OutOfRange(_)),
        ),
        (
            Box::new(|v| {
                v["virtual_lanes"] = serde_json::json!({"data_vls": 2});
                v["links"][0]["vl_arbitration"] = serde_json::json!({"low": [{"vl": 3, "weight": 1}]});
            }),
            Element::Link { index: 0, a: "H1".into(), b: "S".into() },
            "vl_arbitration",
            |p| matches!(p, Problem::OutOfRange(_)),
        ),
        (Box::new(|v| v["flows"][0]["sl"] = 16.into()), Element::Flow { index: 0, id: "f".into() }, "sl", |p| {
            matches!(p, Problem::OutOfRange(_))
        }),
        (
            Box::new(|v| {
                v["virtual_lanes"] = serde_json::json!({"data_vls": 2, "arbitration": {"low": [{"vl": 0, "weight": 9}, {"vl": 1, "weight": 0}]}});
                v["flows"][0]["sl"] = 1.into();
            }),
            Element::Flow { index: 0, id: "f".into() },
            "sl",
            |p| matches!(p, Problem::Inconsistent(_)),
        ),
    ];
    for (i, (mutate, element, field, problem)) in cases.into_iter().enumerate() {
        let mut v = base();
        mutate(&mut v);
        // The page's check without routing refuses it the same way (none of these is the routing engine's verdict).
        if let Ok(s) = Scenario::from_json(&v.to_string()) {
            let c = s.check().expect_err(&format!("case {i}: check() must refuse it too"));
            assert_eq!((&c.element, c.field), (&element, field), "case {i}: {c}");
        }
        let e = refuse(v);
        assert_eq!((&e.element, e.field), (&element, field), "case {i}: {e}");
        assert!(problem(&e.problem), "case {i}: {e}");
        assert!(e.to_string().contains(e.field), "case {i}: the message names the field: {e}");
    }
}

/// Arbitrary bytes and mangled scenarios never panic the parser or the validator.
#[test]
fn garbage_is_refused_without_panicking() {
    let mut rng = ibcc_core::rng::Rng::new(5, 5);
    let valid = base().to_string();
    let mut accepted = 0;
    for _ in 0..3000 {
        let mut bytes = valid.clone().into_bytes();
        for _ in 0..1 + rng.below(6) {
            if bytes.is_empty() {
                break;
            }
            let i = rng.below(bytes.len() as u64) as usize;
            match rng.below(3) {
                0 => bytes[i] = b"{}[]\":,0123456789-.aez \n"[rng.below(24) as usize],
                1 => {
                    bytes.remove(i);
                }
                _ => bytes.truncate(i),
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(s) = Scenario::from_json_validated(&text) {
            let mut sim = ibcc_core::sim::Run::new(&s).expect("a validated scenario builds");
            sim.step(2000); // and runs
            accepted += 1;
        }
    }
    assert!(accepted > 0, "some damage is harmless, and those scenarios run");
}

/// Values that used to overflow integer time (found in review) are refused by name, and the largest accepted ones
/// run without panicking.
#[test]
fn extreme_times_and_rates_are_refused_or_run() {
    let mut v = base();
    v["flows"][0]["traffic"] =
        serde_json::json!({"kind": "on_off", "mean_on_ns": 100_000_000_000_000_000u64, "mean_off_ns": 1000});
    assert_eq!(refuse(v).field, "traffic.mean_on_ns");
    let mut v = base();
    v["flows"][0]["start_ns"] = 18_446_744_073_709_552u64.into();
    assert_eq!(refuse(v).field, "start_ns");
    let mut v = base();
    v["source"] = serde_json::json!({"response": "fixed", "fixed_rate_fraction": 1e-20});
    assert_eq!(refuse(v).field, "source.fixed_rate_fraction");
    let mut v = base();
    v["source"] = serde_json::json!({"response": "aimd", "r_min_fraction": 1e-9});
    assert_eq!(refuse(v).field, "source.r_min_fraction");
    // The largest accepted values run.
    let mut v = base();
    v["flows"][0]["traffic"] =
        serde_json::json!({"kind": "on_off", "mean_on_ns": 100_000_000_000u64, "mean_off_ns": 100_000_000_000u64});
    v["flows"][0]["start_ns"] = 100.into();
    v["source"] = serde_json::json!({"response": "fixed", "fixed_rate_fraction": 1.0 / 65536.0});
    let s = Scenario::from_json_validated(&v.to_string()).unwrap();
    let mut sim = ibcc_core::sim::Run::new(&s).unwrap();
    sim.run();
    let f = &sim.results().flows[0];
    assert!(f.throughput_fraction < 0.01, "at 1/65536 of the link: {}", f.throughput_fraction);
}

/// Series over the memory limit are coarsened, not refused: one per group counts too (20,000 one-flow groups in
/// 1 us samples need 2e7 counters over 1 ms; every second sample fits), and the results say the spacing used.
#[test]
fn series_over_the_limit_are_coarsened_and_the_results_say_so() {
    let mut v = base();
    let flows: Vec<_> = (0..20_000)
        .map(|i| serde_json::json!({"id": format!("f{i}"), "src": "H1", "dst": "H2", "group": format!("g{i}")}))
        .collect();
    v["flows"] = flows.into();
    v["measure"] = serde_json::json!({"sample_ns": 1000});
    let s = Scenario::from_json_validated(&v.to_string()).unwrap();
    assert_eq!(s.series_sample_ns(), Ok(2000));
    let mut sim = ibcc_core::sim::Run::new(&s).unwrap();
    sim.run_until(10_000_000);
    assert_eq!(sim.results().series_sample_ns, Some(2000.0));
    // A multiple of 300 ns wide enough would pass the 1 us window, but one sample per window fits: that, not a refusal.
    let mut v = base();
    v["duration_ns"] = 3_800_000_000u64.into();
    v["measure"] = serde_json::json!({"sample_ns": 300, "window_ns": 1000});
    assert_eq!(Scenario::from_json_validated(&v.to_string()).unwrap().series_sample_ns(), Ok(1000));
    // Within the limit, the spacing asked for, and the results do not mention it.
    let fig2 = ibcc_core::presets::find("infocom03-fig2").unwrap().scenario();
    assert_eq!(fig2.series_sample_ns(), Ok(fig2.measure.sample_ns()));
    let mut sim = ibcc_core::sim::Run::new(&fig2).unwrap();
    sim.run_until(1_000_000);
    assert_eq!(sim.results().series_sample_ns, None);
    // The 1,024-host fat tree for 1 s: 6,146 series of 10,001 samples would pass the limit; 400 us spacing fits.
    let big = ibcc_core::presets::fat_tree_hotspot(16, "", 1_000_000_000);
    assert_eq!(big.validate(), Ok(()));
    assert_eq!(big.series_sample_ns(), Ok(400_000));
}

/// Links are named by direction, `"A->B"`, in the topology's channel numbering (link i: 2i from a to b, 2i + 1
/// back), the same names results use.
#[test]
fn channels_are_named_by_direction_like_results() {
    let s = ibcc_core::presets::find("infocom03-fig2").unwrap().scenario();
    let mut sim = ibcc_core::sim::Run::new(&s).unwrap();
    sim.run_until(1_000_000);
    for (c, l) in sim.results().links.iter().enumerate() {
        assert_eq!(s.channel_name(c as u32).as_deref(), Some(l.id.as_str()));
        assert_eq!(s.channel(&l.id), Some(c as u32));
    }
    assert_eq!(s.channel_name(2 * s.links.len() as u32), None);
    assert_eq!(s.channel("A->nowhere"), None);
    let mut moved = s.clone();
    moved.nodes[0].x = Some(-1.0);
    moved.name = "other".into();
    assert_eq!(moved.without_layout(), s.without_layout());
    // The digest follows what changes a run, not the layout; exported answers carry it, so it must not drift
    // (a change of the preset or of the format's JSON moves it: record the new one and say why).
    assert_eq!(moved.digest(), s.digest());
    assert_eq!(s.digest(), PINNED_FIG2_DIGEST);
    moved.seed += 1;
    assert_ne!(moved.digest(), s.digest());
}

/// Nodes no cable joins to the rest (an imported fabric's stray switch and host, a lone host) are found, so the page
/// can name them: no route reaches them.
#[test]
fn nodes_no_cable_joins_to_the_rest_are_found() {
    use ibcc_core::scenario::{Link, Node, NodeKind};
    let mut s = ibcc_core::presets::find("infocom03-fig2").unwrap().scenario();
    assert!(s.apart_nodes().is_empty());
    let n = s.nodes.len();
    for (id, kind) in [("S2", NodeKind::Switch), ("h9", NodeKind::Host), ("lone", NodeKind::Host)] {
        s.nodes.push(Node { id: id.into(), kind, switch: None, x: None, y: None });
    }
    s.links.push(Link::between("h9", "S2"));
    assert_eq!(s.apart_nodes(), [n, n + 1, n + 2]);
}

/// The fastest host link: a fabric's own cables' rates, the network's default for a link without one, and the
/// default when no host is cabled; links between switches do not count.
#[test]
fn the_fastest_host_link_is_found() {
    use ibcc_core::scenario::Link;
    let mut s = ibcc_core::presets::find("infocom03-fig2").unwrap().scenario();
    assert_eq!(s.fastest_host_link_gbps(), s.link.bandwidth_gbps);
    let host_link = s.links.iter().position(|l| l.a == "B1").expect("a host's link");
    s.links[host_link].bandwidth_gbps = Some(32.0);
    assert_eq!(s.fastest_host_link_gbps(), 32.0);
    s.links.push(Link { bandwidth_gbps: Some(200.0), ..Link::between("A", "B") });
    assert_eq!(s.fastest_host_link_gbps(), 32.0, "a link between switches");
    s.links.clear();
    assert_eq!(s.fastest_host_link_gbps(), s.link.bandwidth_gbps);
    let f = ibcc_core::presets::find("fabric32-hotspot").unwrap().scenario();
    assert_eq!(f.fastest_host_link_gbps(), 100.0, "4xEDR");
}

/// The part of the interval a group ran in: only when every flow of it ran the same part, shorter than the interval
/// (so the papers' groups, which run throughout, are never given one).
#[test]
fn a_group_that_ran_for_part_of_the_interval_says_which_part() {
    let mut s = ibcc_core::presets::find("infocom03-fig2").unwrap().scenario();
    let (from, to) = (40e6, 60e6);
    for g in ["victim", "local", "remote", "nobody"] {
        assert_eq!(s.group_ran_within(g, from, to), None, "{g}");
    }
    let victim = s.flows.iter().position(|f| f.group == "victim").expect("a victim");
    (s.flows[victim].start_ns, s.flows[victim].stop_ns) = (45_000_000, Some(52_000_000));
    assert_eq!(s.group_ran_within("victim", from, to), Some((45e6, 52e6)));
    // Clipped to the interval; one that never ran in it has none.
    s.flows[victim].stop_ns = Some(80_000_000);
    assert_eq!(s.group_ran_within("victim", from, to), Some((45e6, 60e6)));
    (s.flows[victim].start_ns, s.flows[victim].stop_ns) = (70_000_000, None);
    assert_eq!(s.group_ran_within("victim", from, to), None);
    // Flows of one group that ran different parts: no one part to name.
    let local: Vec<usize> = s.flows.iter().enumerate().filter(|(_, f)| f.group == "local").map(|(i, _)| i).collect();
    s.flows[local[0]].stop_ns = Some(50_000_000);
    assert_eq!(s.group_ran_within("local", from, to), None);
    for &i in &local {
        s.flows[i].stop_ns = Some(50_000_000);
    }
    assert_eq!(s.group_ran_within("local", from, to), Some((40e6, 50e6)));
}
