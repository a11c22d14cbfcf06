//! A traffic pattern on a scenario's network (a shift, a random permutation, a bisection, all-to-all or a hot spot
//! among its hosts, in the order of `nodes`) and the load its routing puts on each link: what `ibcc pattern` prints
//! and the page's pattern tool draws. The pattern's flows can then replace the scenario's, or join them, to run it.

use super::Simulation;
use crate::fabric::patterns::{Load, Pattern};
use crate::rng::Rng;
use crate::scenario::{Flow, NodeKind, Scenario, ScenarioError};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// The random stream a pattern is drawn from (with the scenario's seed).
const PATTERN_STREAM: u64 = 0x7061_7474;

/// The hosts of `s`, in the order a pattern numbers them (the order of `nodes`).
pub fn hosts(s: &Scenario) -> Vec<&str> {
    s.nodes.iter().filter(|n| n.kind == NodeKind::Host).map(|n| n.id.as_str()).collect()
}

/// The pairs of `pattern` among `s`'s hosts (indices into [`hosts`]), drawn from `seed` if it is random.
pub fn pairs(s: &Scenario, pattern: Pattern, seed: u64) -> Result<Vec<(usize, usize)>, String> {
    pattern.pairs(hosts(s).len(), &mut Rng::new(seed, PATTERN_STREAM))
}

/// `s` with its flows replaced by `pairs` among its hosts: flows `p0`, `p1`, ... in group `group`.
pub fn with_flows(s: &Scenario, pairs: &[(usize, usize)], group: &str) -> Scenario {
    let hosts = hosts(s);
    let mut next = s.clone();
    next.flows = pairs
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| Flow { group: String::from(group), ..Flow::new(&format!("p{i}"), hosts[a], hosts[b]) })
        .collect();
    next
}

/// `s` with `pairs` among its hosts added to its flows (a hot spot over a permutation of background flows), in
/// group `group`, named `{group}0`, `{group}1`, ... (skipping a name a flow has already).
pub fn plus_flows(s: &Scenario, pairs: &[(usize, usize)], group: &str) -> Scenario {
    let hosts = hosts(s);
    let mut next = s.clone();
    // The names already taken that this group's could collide with (a list: the page carries no set of strings).
    let taken: Vec<&str> = s.flows.iter().map(|f| f.id.as_str()).filter(|id| id.starts_with(group)).collect();
    let mut n = 0;
    for &(a, b) in pairs {
        let id = loop {
            let id = format!("{group}{n}");
            n += 1;
            if !taken.contains(&id.as_str()) {
                break id;
            }
        };
        next.flows.push(Flow { group: String::from(group), ..Flow::new(&id, hosts[a], hosts[b]) });
    }
    next
}

/// The routes `pairs` take under `s`'s routing: [`Load::routes`] per channel of the simulation's topology (link `i`
/// gives channels `2i`, from `a` to `b`, and `2i + 1`, back), the busiest, the mean and each flow's share; and what
/// the engine said of the network (updn's roots, a fallback to minhop).
pub fn load(s: &Scenario, pairs: &[(usize, usize)]) -> Result<(Load, Vec<String>), ScenarioError> {
    // Routes are laid toward the flows' destinations: one flow into each host makes every host one, so any pair's
    // route is known, whatever the pattern (all-to-all would be more flows than a scenario takes).
    let n = hosts(s).len();
    let into_each: Vec<(usize, usize)> = (0..n).map(|i| ((i + 1) % n, i)).filter(|&(a, b)| a != b).collect();
    let probe = with_flows(s, &into_each, "pattern");
    let sim = Simulation::new(&probe)?;
    let t = sim.topology();
    let at: Vec<u32> = (0..s.nodes.len()).filter(|&i| s.nodes[i].kind == NodeKind::Host).map(|i| i as u32).collect();
    let mut routes = alloc::vec![0u32; t.channels().len()];
    let mut paths = Vec::with_capacity(pairs.len());
    let mut lost = 0;
    for &(a, b) in pairs {
        match t.path(at[a], at[b]) {
            Some(p) => {
                let p: Vec<usize> = p.into_iter().map(|c| c as usize).collect();
                for &c in &p {
                    routes[c] += 1;
                }
                paths.push(p);
            }
            None => lost += 1,
        }
    }
    Ok((Load::of(routes, &paths, lost), sim.routing_notes().to_vec()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fat_tree(engine: &str) -> Scenario {
        let f = crate::fabric::shapes::fat_tree(4, (crate::fabric::Width::X4, crate::fabric::Speed::Edr)).unwrap();
        let mut s = crate::scenario::scenario_of("k4", &crate::fabric::write_net(&f), 1_000_000).unwrap();
        s.routing.engine = crate::scenario::from_value(&serde_json::Value::from(engine)).unwrap();
        s
    }

    /// The load of a pattern is the load of the same flows run: each flow's own path, counted per channel.
    #[test]
    fn a_pattern_s_load_is_its_flows_routes() {
        let s = fat_tree("ftree");
        let pairs = pairs(&s, Pattern::Shift(4), 1).unwrap();
        let (load, _) = load(&s, &pairs).unwrap();
        assert_eq!((load.flows, load.lost), (16, 0));
        let run = with_flows(&s, &pairs, "shift");
        let sim = Simulation::new(&run).unwrap();
        let id = |h: &str| run.nodes.iter().position(|n| n.id == h).unwrap() as u32;
        let mut routes = alloc::vec![0u32; sim.topology().channels().len()];
        for f in &run.flows {
            for c in sim.topology().path(id(&f.src), id(&f.dst)).unwrap() {
                routes[c as usize] += 1;
            }
        }
        assert_eq!(load.routes, routes);
        // ftree spreads a shift: no channel carries two of its routes (the fat-tree engine's point).
        assert_eq!(load.max, 1);
    }

    /// A hot spot added over a shift: the shift's flows stay, the hot spot's join them with names of their own
    /// (one taken already is skipped), and the scenario still routes and checks.
    #[test]
    fn a_hot_spot_is_added_over_the_background_flows() {
        let s = fat_tree("ftree");
        let shift = with_flows(&s, &pairs(&s, Pattern::Shift(4), 1).unwrap(), "shift");
        let mut taken = shift.clone();
        taken.flows[0].id = String::from("hotspot1");
        let both = plus_flows(&taken, &pairs(&s, Pattern::Hotspot(3), 1).unwrap(), "hotspot");
        assert_eq!(both.flows.len(), 19);
        assert_eq!(both.flows[..16], taken.flows[..]);
        let added: Vec<(&str, &str, &str)> =
            both.flows[16..].iter().map(|f| (f.id.as_str(), f.src.as_str(), f.dst.as_str())).collect();
        let h = hosts(&s);
        assert_eq!(added, [("hotspot0", h[4], h[0]), ("hotspot2", h[8], h[0]), ("hotspot3", h[12], h[0])]);
        assert!(both.flows[16..].iter().all(|f| f.group == "hotspot"));
        both.check().unwrap();
        Simulation::new(&both).unwrap();
    }

    #[test]
    fn all_to_all_is_loaded_without_a_flow_per_pair() {
        let s = fat_tree("minhop");
        let pairs = pairs(&s, Pattern::AllToAll, 1).unwrap();
        assert_eq!(pairs.len(), 16 * 15);
        let (load, _) = load(&s, &pairs).unwrap();
        assert_eq!((load.flows, load.lost), (240, 0));
        // Every host sends 15 routes up its link and receives 15 down it.
        assert!(load.max >= 15);
    }
}
