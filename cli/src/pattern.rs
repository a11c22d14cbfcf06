//! `ibcc pattern`: a scenario's flows replaced by a traffic pattern among its hosts (shift, random permutation,
//! bisection, all-to-all), and the load the pattern puts on the scenario's links under its routing.

use crate::exit::Error;
use crate::input::load;
use ibcc_core::fabric::patterns::{Load, Pattern};
use ibcc_core::rng::Rng;
use ibcc_core::scenario::{Flow, NodeKind};
use ibcc_core::sim::Simulation;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Scenario JSON file, `-`, `preset:NAME` or a share link: its network, settings and routing are kept.
    scenario: String,
    /// shift:K, permutation, bisection or all_to_all, among the hosts in the order of `nodes`.
    #[arg(long, value_parser = Pattern::parse)]
    pattern: Pattern,
    /// Seed of a random pattern.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The group the flows are in (rates and results are reported per group).
    #[arg(long, default_value = "pattern")]
    group: String,
}

pub fn run(args: &Args) -> Result<(), Error> {
    let mut s = load(&args.scenario)?;
    let hosts: Vec<String> = s.nodes.iter().filter(|n| n.kind == NodeKind::Host).map(|n| n.id.clone()).collect();
    let pairs = args.pattern.pairs(hosts.len(), &mut Rng::new(args.seed, 0x7061_7474)).map_err(Error::Refused)?;
    s.flows = pairs
        .iter()
        .enumerate()
        .map(|(i, &(a, b))| Flow { group: args.group.clone(), ..Flow::new(&format!("p{i}"), &hosts[a], &hosts[b]) })
        .collect();
    let sim = Simulation::new(&s).map_err(|e| format!("{}: with the pattern's flows: {e}", args.scenario))?;
    let t = sim.topology();
    let id = |name: &str| s.nodes.iter().position(|n| n.id == name).expect("a flow's host is a node") as u32;
    let paths: Vec<Vec<usize>> = s
        .flows
        .iter()
        .map(|f| t.path(id(&f.src), id(&f.dst)).expect("a valid scenario's flows are routed"))
        .map(|p| p.into_iter().map(|c| c as usize).collect())
        .collect();
    let mut routes = vec![0u32; t.channels().len()];
    for &c in paths.iter().flatten() {
        routes[c] += 1;
    }
    let load = Load::of(routes, &paths, 0);
    eprintln!(
        "ibcc: {} flows among {} hosts, routed by {:?}: most routes on one link {}, mean {:.3} over the links used; each flow's share of a link {:.4}",
        s.flows.len(),
        hosts.len(),
        s.routing.engine,
        load.max,
        load.mean,
        load.share
    );
    crate::output::print(&(s.to_json() + "\n"));
    Ok(())
}
