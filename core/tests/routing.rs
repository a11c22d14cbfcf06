//! Routing engines on the scenarios people run: on the papers' networks, which have one shortest path between any
//! two hosts, OpenSM's engines give exactly the routes the playground always gave, so every paper's figure keeps
//! its meaning; on the fat trees, where many paths tie, they spread destinations as a subnet manager does.

mod common;

use ibcc_core::presets::PRESETS;
use ibcc_core::scenario::{RoutingEngine, Scenario, VirtualLanes};
use ibcc_core::sim::Simulation;

/// Every flow's route and its reverse (the ACKs'), as channel lists, under `engine`.
fn routes(s: &Scenario, engine: RoutingEngine) -> Vec<Vec<u32>> {
    let mut s = s.clone();
    s.routing.engine = engine;
    let sim = Simulation::new(&s).unwrap_or_else(|e| panic!("{} under {engine:?}: {e}", s.name));
    let t = sim.topology();
    let id = |name: &str| s.nodes.iter().position(|n| n.id == name).unwrap() as u32;
    s.flows
        .iter()
        .flat_map(|f| [(id(&f.src), id(&f.dst)), (id(&f.dst), id(&f.src))])
        .map(|(a, b)| t.path(a, b).unwrap_or_else(|| panic!("{}: no route {a} -> {b} under {engine:?}", s.name)))
        .collect()
}

#[test]
fn on_single_path_networks_every_engine_routes_as_the_playground_always_did() {
    let mut fat_trees = 0;
    for p in PRESETS {
        let s = p.scenario();
        if s.fabric.is_some() {
            // A generated fabric (the fabric lessons'): its routes are OpenSM's, checked against OpenSM itself.
            continue;
        }
        let before = routes(&s, RoutingEngine::FirstListed);
        if p.name.contains("fattree") {
            // Ties everywhere: minhop sends destinations up different uplinks, so some flows' routes differ.
            assert_ne!(routes(&s, RoutingEngine::Minhop), before, "{}", p.name);
            fat_trees += 1;
            continue;
        }
        for engine in [RoutingEngine::Minhop, RoutingEngine::Updn, RoutingEngine::Ftree, RoutingEngine::Sssp] {
            assert_eq!(routes(&s, engine), before, "{} under {engine:?}", p.name);
        }
    }
    assert_eq!(fat_trees, 3, "the fat-tree presets");
}

#[test]
fn a_version_2_scenario_keeps_its_routing_and_a_new_one_gets_minhop() {
    let s = ibcc_core::presets::find("fattree4-hotspot").unwrap().scenario();
    assert_eq!(s.routing.engine, RoutingEngine::Minhop);
    assert!(!s.to_json().contains("\"routing\""), "the default is not written");
    let old = s.to_json().replace("\"version\": 3", "\"version\": 2");
    assert!(old.contains("\"version\": 2"));
    let read = Scenario::from_json(&old).unwrap();
    assert_eq!((read.version, read.routing.engine), (3, RoutingEngine::FirstListed));
    assert!(read.to_json().contains("\"engine\": \"first_listed\""));
}

#[test]
fn updn_roots_must_be_switches_of_the_network() {
    let mut s = ibcc_core::presets::find("fattree4-hotspot").unwrap().scenario();
    s.routing.engine = RoutingEngine::Updn;
    s.routing.roots = vec!["c0".into(), "c1".into()];
    assert!(s.validate().is_ok());
    assert_eq!(s.routing_notes().unwrap(), ["updn: 2 root switches: c0, c1"]);
    for (roots, says) in [(vec!["nowhere"], "there is no node \"nowhere\""), (vec!["h3"], "\"h3\" is a host")] {
        s.routing.roots = roots.into_iter().map(String::from).collect();
        let e = s.validate().unwrap_err().to_string();
        assert!(e.contains("routing.roots") && e.contains(says), "{e}");
        assert_eq!(s.check().unwrap_err().to_string(), e, "the page's check without routing says the same");
    }
    s.routing.engine = RoutingEngine::Minhop;
    s.routing.roots = vec!["c0".into()];
    assert!(s.validate().unwrap_err().to_string().contains("roots are updn's"));
}

/// A network drawn by hand may be in parts not yet linked: each part is its own subnet, routed by its own subnet
/// manager, and a flow between parts is refused as unreachable (not a routing error).
#[test]
fn each_part_of_a_network_is_routed_on_its_own() {
    use ibcc_core::scenario::{Flow, Link, Node, NodeKind};
    let mut s = Scenario::empty("parts", 1_000_000);
    let node = |id: &str, kind| Node { id: id.into(), kind, switch: None, x: None, y: None };
    for (id, kind) in
        [("h1", NodeKind::Host), ("s1", NodeKind::Switch), ("h2", NodeKind::Host), ("lonely", NodeKind::Host)]
    {
        s.nodes.push(node(id, kind));
    }
    for (id, kind) in
        [("s2", NodeKind::Switch), ("s3", NodeKind::Switch), ("h3", NodeKind::Host), ("h4", NodeKind::Host)]
    {
        s.nodes.push(node(id, kind));
    }
    for (a, b) in [("h1", "s1"), ("s1", "h2"), ("s2", "s3"), ("h3", "s2"), ("h4", "s3")] {
        s.links.push(Link::between(a, b));
    }
    s.flows = vec![Flow::new("f1", "h1", "h2"), Flow::new("f2", "h3", "h4")];
    for engine in [RoutingEngine::Minhop, RoutingEngine::Updn] {
        s.routing.engine = engine;
        assert_eq!(routes(&s, engine), routes(&s, RoutingEngine::FirstListed), "{engine:?}");
    }
    s.flows.push(Flow::new("f3", "h1", "h4"));
    let e = s.validate().unwrap_err().to_string();
    assert!(e.contains("f3") && e.contains("reach"), "{e}");
    assert_eq!(s.check().unwrap_err().to_string(), e, "the page's check without routing says the same");
}

/// The page checks each edit without routing (`Scenario::check`) and its worker routes: a scenario that routes is
/// never refused by the check, under any engine, on the presets and on imported fabrics.
#[test]
fn the_check_without_routing_accepts_what_routing_accepts() {
    let mut scenarios: Vec<Scenario> = PRESETS.iter().map(|p| p.scenario()).collect();
    scenarios.extend((1..=12).map(common::random_scenario));
    scenarios.push(ring_of_six());
    for file in ["X5.topofile", "ibtopotool-1.topo"] {
        let text = std::fs::read_to_string(format!("{}/tests/fabrics/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
        let mut s = ibcc_core::scenario::scenario_of(file, &text, 1_000_000).unwrap();
        let hosts: Vec<String> =
            s.nodes.iter().filter(|n| n.kind == ibcc_core::scenario::NodeKind::Host).map(|n| n.id.clone()).collect();
        s.flows.push(ibcc_core::scenario::Flow::new("f", &hosts[0], &hosts[hosts.len() - 1]));
        scenarios.push(s);
    }
    let mut checked = 0;
    for s in &scenarios {
        for engine in RoutingEngine::ALL {
            let mut s = with_vls(s.clone(), 4);
            s.routing.engine = engine;
            if s.validate().is_ok() {
                s.check().unwrap_or_else(|e| panic!("{} under {engine:?}: {e}", s.name));
                checked += 1;
            }
        }
    }
    assert!(checked >= scenarios.len() * 5, "most of them route under every engine ({checked})");
}

/// ftree takes the fat-tree presets for fat trees (no fallback), and spreads a shift over the core: on the k=4 tree,
/// every host sending to the one eight places on, no channel carries two flows.
#[test]
fn ftree_routes_the_fat_tree_presets_as_fat_trees() {
    for name in ["fattree4-hotspot", "pft-fattree4-hotspot", "a10-fattree4-hotspot"] {
        let mut s = ibcc_core::presets::find(name).unwrap().scenario();
        s.routing.engine = RoutingEngine::Ftree;
        assert_eq!(s.routing_notes().unwrap(), Vec::<String>::new(), "{name}");
    }
    let mut s = ibcc_core::presets::fat_tree_shift(4, "shift", 1_000_000);
    for (engine, most) in [(RoutingEngine::FirstListed, 4), (RoutingEngine::Ftree, 1)] {
        let mut load = std::collections::HashMap::new();
        s.routing.engine = engine;
        for route in routes(&s, engine).iter().step_by(2) {
            for c in route {
                *load.entry(*c).or_insert(0) += 1;
            }
        }
        assert_eq!(load.values().max(), Some(&most), "{engine:?}");
    }
}

/// A ring of six switches, each host sending two switches on with no window: shortest paths chase each other round
/// the ring, a credit loop (`fabric check` names the same cycle in the tables). Under minhop (updn finds no root on
/// a ring and falls back to it, as OpenSM does) the buffers fill and wait on each other for ever; the run finds
/// this at its first check (0.5 ms), stops there, and names the cycle and every stuck packet. With the default
/// window of one packet per flow the ring never fills and nothing is reported; updn with a root given routes round
/// the cycle, and the traffic runs to the end.
#[test]
fn a_credit_loop_deadlocks_and_the_run_stops_saying_so() {
    use ibcc_core::sim::Run;
    let mut s = ring_of_six();
    let mut windowed = Run::new(&s).unwrap();
    windowed.run();
    assert_eq!((windowed.results().deadlock, windowed.results().simulated_ns), (None, 2_000_000.0));
    s.source.window_packets = None;
    for engine in [RoutingEngine::Minhop, RoutingEngine::Updn, RoutingEngine::FirstListed] {
        s.routing.engine = engine;
        let mut run = Run::new(&s).unwrap();
        run.run();
        let r = run.results();
        let d = r.deadlock.as_ref().unwrap_or_else(|| panic!("{engine:?}: no deadlock"));
        assert_eq!((d.at_ns, r.simulated_ns), (500_000.0, 500_000.0), "{engine:?}");
        assert_eq!(d.cycle, ["s0->s1", "s1->s2", "s2->s3", "s3->s4", "s4->s5", "s5->s0"], "{engine:?}");
        assert_eq!(d.nodes(), ["s0", "s1", "s2", "s3", "s4", "s5"], "{engine:?}: switch by switch");
        // The ring's links are links 0 to 5, each from s(i) to s(i+1): their forward channels, in order.
        assert_eq!(d.channels, [0, 2, 4, 6, 8, 10], "{engine:?}");
        assert_eq!(d.flows, ["f0", "f1", "f2", "f3", "f4", "f5"], "{engine:?}");
        assert_eq!(d.stuck_packets, r.totals.in_flight_packets, "{engine:?}: every packet in flight is stuck");
        assert!(run.is_finished());
        // Found at the check, formed well before it: the ring's buffers fill in tens of microseconds. A run
        // stopped just after the last stuck packet came in finds the same deadlock, the same packets stuck.
        assert!(d.last_in_ns > 0.0 && d.last_in_ns < 100_000.0, "{engine:?}: {}", d.last_in_ns);
        let mut early = s.clone();
        (early.duration_ns, early.measure.from_ns) = (d.last_in_ns as u64 + 1, 0);
        let mut run = Run::new(&early).unwrap();
        run.run();
        let e = run.results().deadlock.unwrap_or_else(|| panic!("{engine:?}: not deadlocked yet"));
        assert_eq!((e.last_in_ns, e.stuck_packets, &e.cycle), (d.last_in_ns, d.stuck_packets, &d.cycle), "{engine:?}");
    }
    // A run shorter than the checks' interval is looked at once more at its end.
    let mut short = s.clone();
    (short.duration_ns, short.measure.from_ns) = (300_000, 0);
    let mut run = Run::new(&short).unwrap();
    run.run();
    assert_eq!(run.results().deadlock.map(|d| d.at_ns), Some(300_000.0));
    s.routing =
        ibcc_core::scenario::Routing { engine: RoutingEngine::Updn, roots: vec!["s0".into()], ..Default::default() };
    let mut run = Run::new(&s).unwrap();
    run.run();
    let r = run.results();
    assert_eq!((r.deadlock.as_ref(), r.simulated_ns), (None, 2_000_000.0));
    assert!(r.flows.iter().all(|f| f.throughput_fraction > 0.1), "{:?}", r.flows);
}

/// Six switches in a ring, a host on each sending to the host two switches on.
fn ring_of_six() -> Scenario {
    use ibcc_core::scenario::{Flow, Link, Node, NodeKind};
    let mut s = Scenario::empty("ring", 2_000_000);
    let node = |id: String, kind| Node { id, kind, switch: None, x: None, y: None };
    for i in 0..6 {
        s.nodes.push(node(format!("s{i}"), NodeKind::Switch));
    }
    for i in 0..6 {
        s.nodes.push(node(format!("h{i}"), NodeKind::Host));
        s.links.push(Link::between(&format!("s{i}"), &format!("s{}", (i + 1) % 6)));
    }
    for i in 0..6 {
        s.links.push(Link::between(&format!("h{i}"), &format!("s{i}")));
        s.flows.push(Flow::new(&format!("f{i}"), &format!("h{i}"), &format!("h{}", (i + 2) % 6)));
    }
    s
}

fn with_vls(mut s: Scenario, data_vls: u8) -> Scenario {
    s.virtual_lanes = Some(VirtualLanes { data_vls, sl_to_vl: Vec::new(), arbitration: Default::default() });
    s
}

/// The same deadlocking ring under dfsssp: the routes are sssp's (the same shortest paths, so one lane would
/// deadlock), but dfsssp moves the routes that close the cycle to a second lane and each flow's SL sends its packets
/// there, so the traffic runs to the end. With one data VL there is no second lane: OpenSM falls back to minhop
/// (and says so), and the ring deadlocks as before.
#[test]
fn dfsssp_s_lanes_keep_the_ring_running() {
    use ibcc_core::sim::Run;
    let mut s = with_vls(ring_of_six(), 2);
    s.source.window_packets = None;
    s.routing.engine = RoutingEngine::Dfsssp;
    let mut run = Run::new(&s).unwrap();
    run.run();
    let r = run.results();
    assert_eq!((r.deadlock.as_ref(), r.simulated_ns), (None, 2_000_000.0));
    assert!(r.flows.iter().all(|f| f.throughput_fraction > 0.1), "{:?}", r.flows);
    let vls: Vec<u8> = (0..6).map(|i| run.sim.flow_vl(i)).collect();
    assert!(vls.contains(&0) && vls.contains(&1), "both lanes carry flows: {vls:?}");
    assert!(
        run.sim.routing_notes().iter().any(|n| n.contains("2 of 2 virtual lanes")),
        "{:?}",
        run.sim.routing_notes()
    );
    let one = with_vls(s.clone(), 1);
    let mut run = Run::new(&one).unwrap();
    run.run();
    assert!(run.results().deadlock.is_some());
    assert!(
        run.sim.routing_notes().iter().any(|n| n.contains("falls back to minhop")),
        "{:?}",
        run.sim.routing_notes()
    );
    // Its lanes need VLs of their own: an SL-to-VL table that puts both on one VL is refused.
    let mut merged = s.clone();
    merged.virtual_lanes.as_mut().unwrap().sl_to_vl = vec![0, 0];
    let e = merged.validate().unwrap_err().to_string();
    assert!(e.contains("sl_to_vl") && e.contains("dfsssp"), "{e}");
    // dfsssp chooses the SLs; a flow's own is refused, naming it.
    let mut own = s.clone();
    own.flows[3].sl = 1;
    let e = own.validate().unwrap_err().to_string();
    assert!(e.contains("flows[3]") && e.contains("sl") && e.contains("dfsssp"), "{e}");
}

/// dfsssp needs two lanes of the ring's eight here, and OpenSM spreads the routes over all eight: each pair's SL is
/// drawn from the scenario's seed (a run replays exactly, and another seed draws other lanes), or with
/// `spare_lanes: unused` every route keeps the first lane of its share, so only two lanes carry traffic.
#[test]
fn dfsssp_spreads_routes_over_spare_lanes_from_the_seed() {
    use ibcc_core::scenario::SpareLanes;
    let mut s = with_vls(ring_of_six(), 8);
    s.routing.engine = RoutingEngine::Dfsssp;
    let lanes = |s: &Scenario| {
        let sim = Simulation::new(s).unwrap();
        (0..s.flows.len()).map(|i| sim.flow_vl(i)).collect::<Vec<u8>>()
    };
    let first = lanes(&s);
    assert_eq!(first, lanes(&s), "the same seed, the same lanes");
    assert!(first.iter().any(|&v| v > 1), "spread beyond the two lanes needed: {first:?}");
    let others: Vec<Vec<u8>> = (2..6).map(|seed| lanes(&Scenario { seed, ..s.clone() })).collect();
    assert!(others.iter().any(|o| *o != first), "other seeds draw other lanes");
    s.routing.spare_lanes = SpareLanes::Unused;
    let mut used = lanes(&s);
    used.sort_unstable();
    used.dedup();
    assert_eq!(used.len(), 2, "{used:?}");
    s.routing.engine = RoutingEngine::Minhop;
    let e = s.validate().unwrap_err().to_string();
    assert!(e.contains("spare_lanes"), "{e}");
}

/// The credit loop a scenario's routes can close, found before any run: the ring's under minhop (the cycle its run
/// deadlocks on) and under dfsssp with one data VL (which falls back to minhop); none under updn with a root, none
/// under dfsssp on two VLs (its lanes break it), none on a fat tree.
#[test]
fn the_credit_loop_is_found_before_the_run_and_gone_where_routing_breaks_it() {
    let ring = ring_of_six();
    let around: Vec<(String, String)> = (0..6).map(|i| (format!("s{i}"), format!("s{}", (i + 1) % 6))).collect();
    let mut s = ring.clone();
    let (cycle, lane) = s.credit_loop().unwrap().0.expect("minhop's ring has a credit loop");
    // The same links as the run's deadlock (either way round the ring, from any switch).
    let mut sorted = cycle.clone();
    sorted.sort();
    let mut reversed: Vec<(String, String)> = around.iter().map(|(a, b)| (b.clone(), a.clone())).collect();
    reversed.sort();
    assert!(sorted == around || sorted == reversed, "{cycle:?}");
    assert!(cycle.windows(2).all(|w| w[0].1 == w[1].0), "each link leads to the next: {cycle:?}");
    assert_eq!(lane, 0);
    s.routing =
        ibcc_core::scenario::Routing { engine: RoutingEngine::Updn, roots: vec!["s0".into()], ..Default::default() };
    let (found, notes) = s.credit_loop().unwrap();
    assert_eq!(found, None);
    // What the page shows beside the answer: the engine's own words, the root named.
    assert_eq!(notes, ["updn: 1 root switch: s0"]);
    let mut s = with_vls(ring.clone(), 2);
    s.routing.engine = RoutingEngine::Dfsssp;
    assert_eq!(s.credit_loop().unwrap().0, None, "dfsssp's lanes break it");
    let mut s = ring;
    s.routing.engine = RoutingEngine::Dfsssp;
    let (found, notes) = s.credit_loop().unwrap();
    assert!(found.is_some(), "one VL: dfsssp falls back to minhop");
    assert!(notes.iter().any(|n| n.starts_with("dfsssp") && n.contains("falls back to minhop")), "{notes:?}");
    let fat_tree = ibcc_core::presets::find("fattree4-hotspot").unwrap().scenario();
    assert_eq!(fat_tree.credit_loop().unwrap().0, None);
    s.routing.engine = RoutingEngine::FirstListed;
    assert!(s.credit_loop().unwrap_err().contains("pick one of OpenSM's engines"));
}

/// A site's forwarding tables replayed (OpenSM's `file` engine): the k=4 fat tree's shift, routed by minhop but given
/// ftree's tables, as `opensm-lfts.dump` writes them, forwards every flow as ftree does; tables that do not fit the
/// fabric are refused naming the line, and a network drawn by hand (no GUIDs a dump could name) refuses them.
#[test]
fn given_forwarding_tables_replace_the_engine_s() {
    use ibcc_core::fabric::{lfts::write_dump, netfile, route};
    let s = ibcc_core::presets::fattree4_shift();
    assert_eq!(s.routing.engine, RoutingEngine::Minhop);
    let fabric = netfile::parse(&s.fabric.as_ref().unwrap().topology).unwrap();
    let ftree = route::route(&fabric, &route::Options::new(route::Engine::Ftree)).unwrap();
    let dump = write_dump(&fabric, &ftree.addressing, &ftree.lfts);
    let mut replayed = s.clone();
    replayed.routing.engine = RoutingEngine::Minhop;
    replayed.routing.tables = dump.clone();
    let want = routes(&s, RoutingEngine::Ftree);
    assert_eq!(routes(&replayed, RoutingEngine::Minhop), want, "ftree's routes, from its tables");
    assert_ne!(routes(&s, RoutingEngine::Minhop), want, "minhop's own routes differ");
    let notes = replayed.routing_notes().unwrap();
    assert!(notes[0].starts_with("forwarding by the tables given (20 of 20 switches"), "{notes:?}");

    // A port the switch lacks, named with its line.
    let line = dump.lines().position(|l| l.starts_with("0x")).unwrap();
    let mut broken: Vec<String> = dump.lines().map(String::from).collect();
    broken[line] = broken[line].split(' ').next().unwrap().to_owned() + " 099 : (Channel Adapter portguid 0x0: 'x')";
    replayed.routing.tables = broken.join("\n");
    let Err(e) = Simulation::new(&replayed).map(|_| ()) else { panic!("a port the switch lacks is refused") };
    let e = e.to_string();
    assert!(e.contains(&format!("line {}", line + 1)), "{e}");

    // Nor are they ignored under the papers' first-listed rule, which has no tables to replace.
    replayed.routing.tables = dump.clone();
    replayed.routing.engine = RoutingEngine::FirstListed;
    let Err(e) = Simulation::new(&replayed).map(|_| ()) else { panic!("tables under first_listed are refused") };
    assert!(e.to_string().contains("one of OpenSM's engines"), "{e}");

    let mut drawn = ibcc_core::presets::find("fattree4-hotspot").unwrap().scenario();
    drawn.routing.tables = dump;
    let Err(e) = Simulation::new(&drawn).map(|_| ()) else { panic!("tables without a fabric are refused") };
    let e = e.to_string();
    assert!(e.contains("bring the fabric"), "{e}");
}
