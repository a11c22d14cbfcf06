//! `ibcc gpcnet` (GPCNeT's `network_load_test`): its congestion-impact suite (docs/gpcnet.md) on a scenario's
//! network, or a fabric file's, with the scenario's congestion control. Prints GPCNeT's tables, or `--json`.

use crate::exit::Error;
use ibcc_core::scenario::{scenario_of, RoutingEngine, Scenario};
use ibcc_core::sim::congestion_impact::{
    canary_fc, congested_pair, gpcnet_hosts, gpcnet_placement, run_canary, CanaryImpact, CanaryRun,
};
use ibcc_core::workload::gpcnet::{Canary, GpcnetConfig};
use std::path::Path;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// A scenario (JSON file, `-`, `preset:NAME` or a share link), or a fabric file (`ibnetdiscover` topology or
    /// ibsim net file: anything that is not JSON).
    input: String,
    /// For a fabric file: minhop, updn, ftree, sssp, dfsssp or first_listed.
    #[arg(long, default_value = "minhop", value_parser = crate::fabric::parse_scenario_engine)]
    engine: RoutingEngine,
    /// Processes per node (GPCNeT's PPN, the PFT paper's PPort).
    #[arg(long, default_value_t = 1)]
    ppn: u32,
    /// Seeds the placement of canaries and congestors.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// GPCNeT's settings as JSON (docs/gpcnet.md), e.g. '{"rings": 30, "latency_iterations": 200}'; --ppn and --seed
    /// override theirs.
    #[arg(long)]
    config: Option<String>,
    /// Only these canary tests (latency, bandwidth, allreduce), comma-separated.
    #[arg(long, value_delimiter = ',')]
    canary: Vec<String>,
    /// Also run the latency and bandwidth tests under congestion with congestion control off (same seed) and print
    /// the PFT paper's control factor FC = (Bc·D0)/(B0·Dc) over the canaries (docs/gpcnet.md §2.10).
    #[arg(long)]
    baseline: bool,
    /// Print JSON: per canary test the isolated and congested figures and their impact.
    #[arg(long)]
    json: bool,
    /// Parallel runs (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
}

/// The scenario of `input`: a scenario as `ibcc run` reads it, or a fabric file routed by `engine`.
fn scenario(input: &str, engine: RoutingEngine) -> Result<Scenario, Error> {
    let path = Path::new(input);
    let is_json = input == "-"
        || input.starts_with("preset:")
        || input.contains("#s=")
        || std::fs::read_to_string(path).is_ok_and(|t| t.trim_start().starts_with('{'));
    if is_json {
        return crate::input::load(input);
    }
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(input, &e))?;
    let name = path.file_stem().map_or(String::from("fabric"), |n| n.to_string_lossy().into_owned());
    let mut s = scenario_of(&name, &text, 1_000_000).map_err(|e| format!("{input}: {e}"))?;
    s.routing.engine = engine;
    Ok(s)
}

fn config(args: &Args) -> Result<GpcnetConfig, Error> {
    let mut c = match &args.config {
        Some(text) => serde_json::from_str::<GpcnetConfig>(text).map_err(|e| format!("--config: {e}"))?,
        None => GpcnetConfig::default(),
    };
    c.processes_per_node = args.ppn;
    c.seed = args.seed;
    Ok(c)
}

fn canaries(names: &[String]) -> Result<Vec<Canary>, Error> {
    if names.is_empty() {
        return Ok(Canary::ALL.to_vec());
    }
    names
        .iter()
        .map(|n| {
            Canary::ALL
                .into_iter()
                .find(|c| c.id() == n)
                .ok_or_else(|| format!("--canary: no canary test {n:?} (latency, bandwidth, allreduce)").into())
        })
        .collect()
}

pub fn run(args: &Args) -> Result<(), Error> {
    let s = scenario(&args.input, args.engine)?;
    let c = config(args)?;
    let tests = canaries(&args.canary)?;
    let place = gpcnet_placement(&s, &c)?;
    if args.baseline && !(tests.contains(&Canary::Latency) && tests.contains(&Canary::Bandwidth)) {
        return Err("--baseline needs the latency and the bandwidth tests (FC is made of both)".into());
    }
    let base = s.without_congestion_control();
    // Isolated and congested runs of each test, then the baseline's congested ones, in parallel.
    let mut runs: Vec<(Canary, bool, &Scenario)> =
        tests.iter().flat_map(|&t| [(t, false, &s), (t, true, &s)]).collect();
    if args.baseline {
        runs.extend([(Canary::Latency, true, &base), (Canary::Bandwidth, true, &base)]);
    }
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let started = Instant::now();
    let results =
        crate::parallel::map(&runs, Some(jobs), |&(t, congested, scenario)| run_canary(scenario, &c, t, congested));
    let seconds = started.elapsed().as_secs_f64();
    let events: u64 = results.iter().flatten().map(|r| r.events).sum();
    let mut results = results.into_iter();
    let mut impacts = Vec::new();
    for _ in &tests {
        let isolated = results.next().unwrap().map_err(Error::Refused)?;
        let congested = results.next().unwrap().map_err(Error::Refused)?;
        impacts.push(CanaryImpact::of(isolated, congested));
    }
    // The baseline's congested latency and bandwidth runs, if asked for.
    let baseline: Vec<CanaryRun> = results.collect::<Result<_, _>>().map_err(Error::Refused)?;
    let control = match (&baseline[..], congested_pair(&impacts)) {
        ([latency0, bandwidth0], Some(with)) => canary_fc(with, (latency0, bandwidth0)),
        _ => None,
    };
    let nodes = gpcnet_hosts(&s).len();
    if args.json {
        let out = serde_json::json!({
            "scenario": s.name,
            "nodes": nodes,
            "canary_nodes": place.canaries.len(),
            "congestor_nodes": place.congestors.iter().map(Vec::len).sum::<usize>(),
            "config": c,
            "tests": impacts,
            "control_factor": control,
            "wall_seconds": seconds,
            "events": events,
        });
        crate::output::print(&(serde_json::to_string_pretty(&out).expect("JSON") + "\n"));
    } else {
        let mut text = table(&s, &c, &place, &impacts);
        if let Some(f) = &control {
            text += &format!(
                "\nControl factor FC = (Bc·D0)/(B0·Dc) = {:.3}: bandwidth {:.1} MiB/s/rank (without control {:.1}), \
                 latency {:.3} usec (without control {:.3})\n",
                f.fc,
                f.throughput,
                f.baseline_throughput,
                f.delay_ns / 1e3,
                f.baseline_delay_ns / 1e3
            );
        }
        crate::output::print(&text);
    }
    eprintln!("ibcc gpcnet: {} runs, {events} events, {seconds:.2} s on {jobs} threads", runs.len());
    Ok(())
}

/// GPCNeT's printed tables (NLT:655-662, UT:341-413), with a note that the network is simulated.
fn table(
    s: &Scenario,
    c: &GpcnetConfig,
    place: &ibcc_core::workload::gpcnet::Placement,
    impacts: &[CanaryImpact],
) -> String {
    let nodes = gpcnet_hosts(s).len();
    let congestors: usize = place.congestors.iter().map(Vec::len).sum();
    let bar = format!("+{}+", "-".repeat(78));
    let head = format!("| {:>31} | {:>12} | {:>12} | {:>12} |", "Name", "Avg", "99%", "Units");
    let mut out = format!(
        "NetworkLoad Tests v1.3, simulated ({}: {} ranks on {nodes} nodes)\n  {} nodes running Network Tests\n  {congestors} \
         nodes running Congestion Tests (min {} nodes per congestor)\n",
        s.name,
        nodes as u32 * c.processes_per_node,
        place.canaries.len(),
        place.congestors.iter().map(Vec::len).min().unwrap_or(0),
    );
    for (title, congested) in [("Isolated Network Tests", false), ("Network Tests running with Congestion Tests", true)]
    {
        out += &format!("\n{bar}\n| {title:^76} |\n{bar}\n{head}\n{bar}\n");
        for i in impacts {
            let run = if congested { &i.congested } else { &i.isolated };
            out += &format!(
                "| {:>31} | {:>12.1} | {:>12.1} | {:>12} |\n{bar}\n",
                i.canary.name(),
                run.figures.avg,
                run.figures.p99,
                i.canary.units()
            );
        }
    }
    let bar2 = "+---------------------------------+----------------------+---------------------+";
    out += &format!(
        "\n{bar2}\n| {:^76} |\n{bar2}\n| {:>31} | {:^42} |\n| {:>31} | {:^20} | {:^19} |\n{bar2}\n",
        "Network Tests running with Congestion Tests - Key Results",
        "Name",
        "Congestion Impact Factor",
        "",
        "Avg",
        "99%"
    );
    for i in impacts {
        out += &format!("| {:>31} | {:>19.1}X | {:>18.1}X |\n{bar2}\n", i.canary.name(), i.impact_avg, i.impact_p99);
    }
    out
}
