//! Scenarios on real fabrics (`ibcc fabric scenario`): the network is the fabric's, each link at its cable's data
//! rate, and packets follow exactly the routes the fabric's own forwarding tables give (the tables OpenSM would
//! write for that file, `cli/tests/opensm.rs`), host to host, on the public fixtures and generated fabrics.

#[path = "support/fabric_fixtures.rs"]
mod fabric_fixtures;

use fabric_fixtures::fabric_fixtures;
use ibcc_core::fabric::netfile::{parse, write_net};
use ibcc_core::fabric::paths::trace;
use ibcc_core::fabric::route::{route, Engine, Options};
use ibcc_core::fabric::{shapes, Fabric, PortRef, Speed, Width};
use ibcc_core::scenario::{scenario_of, RoutingEngine};
use ibcc_core::sim::Simulation;

/// A CA's first cabled port.
fn first_port(f: &Fabric, node: usize) -> Option<PortRef> {
    (1..=f.nodes[node].ports).find(|&p| f.peer(node, p).is_some()).map(|port| PortRef { node, port })
}

/// Every host-to-host route of the scenario, as node names, equals the route through the fabric's own tables.
fn same_routes(name: &str, text: &str, engine: RoutingEngine, opensm: Engine) -> usize {
    let mut s = scenario_of(name, text, 1_000_000).unwrap();
    s.routing.engine = engine;
    let f = parse(text).unwrap();
    let r = route(&f, &Options::new(opensm)).unwrap();
    // (No flows: the topology routes to the destinations of flows, so give every host one, to the next host.)
    let hosts: Vec<usize> =
        (0..f.nodes.len()).filter(|&i| !f.nodes[i].is_switch() && first_port(&f, i).is_some()).collect();
    let reached: Vec<usize> =
        hosts.iter().copied().filter(|&h| r.addressing.port(first_port(&f, h).unwrap()).is_some()).collect();
    let mut checked = 0;
    if reached.len() < 2 {
        return 0;
    }
    for (k, &src) in reached.iter().enumerate() {
        let dst = reached[(k + 1) % reached.len()];
        s.flows.push(ibcc_core::scenario::Flow::new(
            &format!("f{k}"),
            &s.nodes[src].id.clone(),
            &s.nodes[dst].id.clone(),
        ));
    }
    let sim = Simulation::new(&s).unwrap_or_else(|e| panic!("{name}: {e}"));
    let t = sim.topology();
    // Every host to every other: each host is a flow's destination, so the topology has a route to each.
    for &src in &reached {
        for &dst in reached.iter().filter(|&&d| d != src) {
            let lid = r.addressing.port(first_port(&f, dst).unwrap()).unwrap().base;
            let theirs = trace(&f, &r.addressing, &r.lfts, first_port(&f, src).unwrap(), lid).unwrap();
            let theirs: Vec<&str> = theirs
                .steps
                .iter()
                .map(|st| s.nodes[st.switch].id.as_str())
                .chain([s.nodes[dst].id.as_str()])
                .collect();
            let ours: Vec<&str> = t
                .path(src as u32, dst as u32)
                .unwrap()
                .iter()
                .map(|&c| s.nodes[t.channel(c).to as usize].id.as_str())
                .collect();
            assert_eq!(ours, theirs, "{name} ({engine:?}): {} -> {}", f.nodes[src].name, f.nodes[dst].name);
            checked += 1;
        }
    }
    checked
}

#[test]
fn packets_follow_the_fabrics_own_tables() {
    let mut checked = 0;
    for (name, text) in fabric_fixtures() {
        checked += same_routes(&name, &text, RoutingEngine::Minhop, Engine::Minhop);
        checked += same_routes(&name, &text, RoutingEngine::Updn, Engine::Updn);
    }
    let ft = write_net(&shapes::fat_tree(8, (Width::X4, Speed::Edr)).unwrap());
    checked += same_routes("fattree-8", &ft, RoutingEngine::Ftree, Engine::Ftree);
    let random = write_net(&shapes::random(12, 8, 30, 12, 3, (Width::X4, Speed::Sdr)).unwrap());
    checked += same_routes("random", &random, RoutingEngine::Minhop, Engine::Minhop);
    assert!(checked > 20_000, "{checked} routes compared");
}

/// Links run at their cables' data rate, the network must stay the fabric's, and a bad file names its line.
#[test]
fn a_fabric_scenario_keeps_its_cables_and_its_network() {
    let edr = write_net(&shapes::two_level(4, (Width::X4, Speed::Edr)).unwrap());
    let s = scenario_of("t", &edr, 1_000_000).unwrap();
    assert!(s.validate().is_ok());
    assert!(s.links.iter().all(|l| l.bandwidth_gbps == Some(100.0)), "4xEDR is 100 Gb/s");
    let back = ibcc_core::scenario::Scenario::from_json_validated(&s.to_json()).unwrap();
    assert_eq!(back, s);
    let mut cut = s.clone();
    cut.links.pop();
    let e = cut.validate().unwrap_err().to_string();
    assert!(e.contains("fabric") && e.contains("no longer the fabric's"), "{e}");
    let mut renamed = s.clone();
    renamed.nodes[0].id = "elsewhere".into();
    for l in &mut renamed.links {
        for end in [&mut l.a, &mut l.b] {
            if *end == s.nodes[0].id {
                *end = "elsewhere".into();
            }
        }
    }
    assert!(renamed.validate().unwrap_err().to_string().contains("\"elsewhere\""));
    let e = scenario_of("bad", "Switch 8 \"S1\"\n[1] \"H1\"[1]\n[2] \"nowhere\"[1]\n", 1).unwrap_err().to_string();
    assert!(e.contains("line 2") && e.contains("\"H1\" is not a node"), "{e}");
}

/// A scenario's route between two hosts, as `ibtracert` prints it, is the fabric's own (`ibcc fabric path`) on every
/// fixture and a generated fat tree, under each OpenSM engine; a drawn network's too; what cannot be traced says why.
#[test]
fn a_scenario_s_tracert_is_the_fabric_s() {
    use ibcc_core::fabric::paths::write_tracert;
    let ft4 = write_net(&shapes::fat_tree(4, (Width::X4, Speed::Edr)).unwrap());
    let mut texts = fabric_fixtures();
    texts.push((String::from("fattree 4"), ft4.clone()));
    let mut traced = 0;
    for (name, text) in &texts {
        for (engine, opensm) in [(RoutingEngine::Minhop, Engine::Minhop), (RoutingEngine::Updn, Engine::Updn)] {
            let mut s = scenario_of(name, text, 1_000_000).unwrap();
            s.routing.engine = engine;
            let f = parse(text).unwrap();
            let Ok(r) = route(&f, &Options::new(opensm)) else { continue };
            let hosts: Vec<usize> = (0..f.nodes.len())
                .filter(|&i| !f.nodes[i].is_switch())
                .filter(|&i| first_port(&f, i).is_some_and(|p| r.addressing.port(p).is_some()))
                .collect();
            for (&a, &b) in hosts.iter().zip(hosts.iter().rev()).take(3).filter(|(a, b)| a != b) {
                let dlid = r.addressing.port(first_port(&f, b).unwrap()).unwrap().base;
                let want = trace(&f, &r.addressing, &r.lfts, first_port(&f, a).unwrap(), dlid)
                    .map(|route| write_tracert(&f, &r.addressing, &route))
                    .map_err(|lost| lost.describe(&f));
                assert_eq!(s.tracert(&s.nodes[a].id, &s.nodes[b].id), want, "{name} {engine:?}");
                traced += 1;
            }
        }
    }
    assert!(traced >= 20, "{traced}");

    let mut s = scenario_of("k4", &ft4, 1_000_000).unwrap();
    let out = s.tracert("h-0-0-0", "h-3-1-1").unwrap();
    assert_eq!(out.lines().count(), 8, "From, six ports entered, To: {out}");
    assert!(s.tracert("h-0-0-0", "edge-0-0").unwrap_err().contains("is a switch"));
    assert!(s.tracert("h-0-0-0", "nobody").unwrap_err().contains("no node is called nobody"));
    s.routing.engine = RoutingEngine::FirstListed;
    assert!(s.tracert("h-0-0-0", "h-3-1-1").unwrap_err().contains("pick one of OpenSM's engines"));
    // A drawn network is traced as the fabric routing made of it: its hosts' and switches' ids named.
    let fig2 = ibcc_core::presets::find("infocom03-fig2").unwrap().scenario();
    let out = fig2.tracert("AV", "BV").unwrap();
    assert!(
        out.starts_with("From ca")
            && out.contains("\"A\"")
            && out.contains("\"B\"")
            && out.trim_end().ends_with("\"BV\""),
        "{out}"
    );
}
