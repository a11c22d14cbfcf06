//! `ibcc pattern`: a scenario's flows replaced by a traffic pattern among its hosts (shift, random permutation,
//! bisection, all-to-all), and the load the pattern puts on the scenario's links under its routing.

use crate::exit::Error;
use crate::input::load;
use ibcc_core::fabric::patterns::Pattern;
use ibcc_core::sim::pattern_load;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Scenario JSON file, `-`, `preset:NAME` or a share link: its network, settings and routing are kept.
    scenario: String,
    /// shift:K, permutation, bisection, all_to_all or hotspot:K, among the hosts in the order of `nodes`.
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
    let s = load(&args.scenario)?;
    let pairs = pattern_load::pairs(&s, args.pattern, args.seed).map_err(Error::Refused)?;
    let s = pattern_load::with_flows(&s, &pairs, &args.group);
    let (load, _) =
        pattern_load::load(&s, &pairs).map_err(|e| format!("{}: with the pattern's flows: {e}", args.scenario))?;
    eprintln!(
        "ibcc: {} flows among {} hosts, routed by {:?}: most routes on one link {}, mean {:.3} over the links used; each flow's share of a link {:.4}",
        s.flows.len(),
        pattern_load::hosts(&s).len(),
        s.routing.engine,
        load.max,
        load.mean,
        load.share
    );
    crate::output::print(&(s.to_json() + "\n"));
    Ok(())
}
