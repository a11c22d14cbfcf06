//! `ibcc run FILE|-`: run a scenario and print its results as a table or, with `--json`, as one JSON document;
//! `--series` adds the rate series of docs/model.md §9 (as CSV, or inside the JSON).

use crate::exit::Error;
use crate::input::load;
use ibcc_core::scenario::Scenario;
use ibcc_core::sim::{ControlFactor, Results, Run};
use ibcc_view::csv;
use std::fmt::Write as _;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Scenario JSON file, `-` for standard input, or `preset:NAME` for a built-in scenario.
    file: String,
    /// Print the results as JSON.
    #[arg(long)]
    json: bool,
    /// Run for this long instead of the scenario's `duration_ns`.
    #[arg(long)]
    duration_ns: Option<u64>,
    /// Measure from this time instead of the scenario's `measure.from_ns`.
    #[arg(long)]
    measure_from_ns: Option<u64>,
    /// Measure until this time instead of the scenario's `measure.to_ns` (0: to the end of the run).
    #[arg(long)]
    measure_to_ns: Option<u64>,
    /// Also run the scenario with congestion control off (same seed) and report the control factor
    /// FC = (Bc·D0)/(B0·Dc) with both throughputs B and mean delays D.
    #[arg(long)]
    baseline: bool,
    /// Also give the rate over time of every link that carried data and of every group (data sent in a
    /// `measure.window_ns` window centred on each sample): as CSV instead of the table, or as `series` in the JSON.
    #[arg(long)]
    series: bool,
}

/// Rate series sampled at the same times: each a fraction of one link's capacity.
struct Series {
    time_ns: Vec<f64>,
    columns: Vec<(String, Vec<f64>)>,
}

impl Series {
    fn of(sim: &Run, r: &Results) -> Self {
        let s = sim.scenario();
        let mut time_ns = Vec::new();
        let mut columns = Vec::new();
        let mut add = |name: String, points: Vec<(f64, f64)>| {
            // Every series has the same sample times.
            if time_ns.is_empty() {
                time_ns = points.iter().map(|p| p.0).collect();
            }
            columns.push((name, points.into_iter().map(|p| p.1).collect()));
        };
        for l in r.links.iter().filter(|l| l.data_packets > 0) {
            if let Some(c) = s.channel(&l.id) {
                add(l.id.clone(), sim.link_rate_series(c));
            }
        }
        for g in sim.groups() {
            if let Some(points) = sim.group_rate_series(g) {
                add(ibcc_view::names::group_curve(g), points);
            }
        }
        Series { time_ns, columns }
    }

    fn json(&self) -> serde_json::Value {
        let columns: serde_json::Map<String, serde_json::Value> =
            self.columns.iter().map(|(name, v)| (name.clone(), serde_json::json!(v))).collect();
        serde_json::json!({ "time_ns": self.time_ns, "rates": columns })
    }

    fn csv(&self) -> String {
        let mut out = csv::record(std::iter::once("time_ns").chain(self.columns.iter().map(|(n, _)| n.as_str())));
        for (k, t) in self.time_ns.iter().enumerate() {
            let _ = write!(out, "{t}");
            for (_, v) in &self.columns {
                let _ = write!(out, ",{:.6}", v[k]);
            }
            out.push('\n');
        }
        out
    }
}

pub fn run(args: &Args) -> Result<(), Error> {
    let mut scenario = load(&args.file)?;
    if let Some(d) = args.duration_ns {
        scenario.duration_ns = d;
    }
    if let Some(f) = args.measure_from_ns {
        scenario.measure.from_ns = f;
    }
    if let Some(t) = args.measure_to_ns {
        scenario.measure.to_ns = (t > 0).then_some(t);
    }
    if args.series && args.baseline && !args.json {
        return Err(Error::Refused(String::from(
            "--series prints only the series as CSV; add --json to get them with --baseline's control factor",
        )));
    }
    let (results, series) = simulate(&scenario, args.series, false).map_err(|e| format!("{}: {e}", args.file))?;
    if let (Some(d), true) = (&results.deadlock, args.json || args.series) {
        // (The table says it in its place; JSON and CSV carry it or not, so it is said here too.)
        eprintln!("ibcc: {}", deadlock_line(d));
    }
    let control = if args.baseline {
        let (base, _) =
            simulate(&scenario.without_congestion_control(), false, true).map_err(|e| format!("{}: {e}", args.file))?;
        Some(
            ControlFactor::new(&results, &base)
                .ok_or_else(|| String::from("no packet was delivered in the measurement interval"))?,
        )
    } else {
        None
    };
    let text = if args.json {
        let mut doc = serde_json::to_value(&results).expect("results serialize");
        if let Some(c) = &control {
            doc["control_factor"] = serde_json::to_value(c).expect("serializes");
        }
        if let Some(s) = &series {
            doc["series"] = s.json();
        }
        serde_json::to_string_pretty(&doc).expect("serializes") + "\n"
    } else if let Some(s) = &series {
        s.csv()
    } else {
        let mut t = table(&results, &scenario);
        if let Some(c) = &control {
            let _ = writeln!(
                t,
                "\ncontrol factor FC = {:.3}: throughput {:.4} vs {:.4} without congestion control, mean delay {:.2} us vs {:.2} us",
                c.fc,
                c.throughput,
                c.baseline_throughput,
                c.delay_ns / 1e3,
                c.baseline_delay_ns / 1e3
            );
        }
        t
    };
    crate::output::print(&text);
    Ok(())
}

/// What a deadlock was, in one line.
fn deadlock_line(d: &ibcc_core::sim::Deadlock) -> String {
    let nodes = d.nodes();
    format!(
        "DEADLOCK found at {:.3} ms (the last stuck packet came in at {:.3} ms): the run stopped there. {} packets \
         (flows {}) wait on each other round the cycle {} -> {}, and can never move: the routes have a credit loop \
         (try updn with a root, or ftree)",
        d.at_ns / 1e6,
        d.last_in_ns / 1e6,
        d.stuck_packets,
        d.flows.join(", "),
        // Switch by switch, as the page says it (each link's "A->B" joined by "->" read as one long name).
        nodes.join(" -> "),
        nodes.first().copied().unwrap_or_default()
    )
}

/// Runs `s`; says what the routing engine said unless this is the baseline run (which routes the same).
fn simulate(
    s: &Scenario,
    series: bool,
    baseline: bool,
) -> Result<(Results, Option<Series>), ibcc_core::scenario::ScenarioError> {
    let mut sim = Run::new(s)?;
    if !baseline {
        for note in sim.sim.routing_notes() {
            eprintln!("routing: {note}");
        }
    }
    sim.run();
    let r = sim.results();
    let series = series.then(|| Series::of(&sim, &r));
    Ok((r, series))
}

/// The results of `s`'s run as text (where its measuring starts is the scenario's: the results' own start is clamped
/// to the run's end).
fn table(r: &Results, s: &Scenario) -> String {
    let from_ns = s.measure.from_ns;
    let mut out = String::new();
    // Writing to a String cannot fail.
    macro_rules! println {
        ($($arg:tt)*) => {{ let _ = writeln!(out, $($arg)*); }};
    }
    println!(
        "{}  (seed {}, {:.3} ms simulated, measured from {:.3} to {:.3} ms, {} events)",
        if r.scenario.is_empty() { "scenario" } else { &r.scenario },
        r.seed,
        r.simulated_ns / 1e6,
        r.measured_from_ns / 1e6,
        r.measured_to_ns / 1e6,
        r.events
    );
    if let Some(ns) = r.series_sample_ns {
        println!(
            "rate series sampled every {:.3} ms: coarser than measure.sample_ns, to fit this many links",
            ns / 1e6
        );
    }
    if let Some(d) = &r.deadlock {
        println!("\n{}", deadlock_line(d));
    }
    if r.measured_nothing() {
        // (As the page's Results say it: no 0.0% and perfect Jain indices for an interval the run never reached.)
        println!(
            "\nnothing measured: the run stopped at {:.3} ms, and measuring starts at {:.3} ms",
            r.simulated_ns / 1e6,
            from_ns as f64 / 1e6
        );
    } else {
        measured(&mut out, r, s);
    }
    let t = &r.totals;
    println!(
        "\ntotals: injected {}, delivered {}, in flight {}, dropped {}, marked {}",
        t.injected_packets, t.delivered_packets, t.in_flight_packets, t.dropped_packets, t.marked_packets
    );
    if let Some(acks) = t.ack_packets_sent {
        println!("ACK coalescing: {acks} ACK packets for {} packets acknowledged", t.acks_delivered);
    }
    if let Some(cn) = t.cn_packets_sent {
        println!("unreliable flows: {cn} CN packets sent");
    }
    out
}

/// The links', flows' and groups' tables over the measurement interval.
fn measured(out: &mut String, r: &Results, s: &Scenario) {
    // Writing to a String cannot fail.
    macro_rules! println {
        ($($arg:tt)*) => {{ let _ = writeln!(out, $($arg)*); }};
    }
    println!("\nlinks (data utilization over the measurement interval)");
    // With several data VLs, each VL's own wait for credit beside the link's (which counts only waits with no VL
    // able to send).
    let vls = r.links.iter().any(|l| !l.vl_credit_stall_ns.is_empty());
    let per_vl = if vls { "stall ms per VL" } else { "" };
    let head = format!("  {:<20} {:>8} {:>8} {:>10} {:>12}  {per_vl}", "link", "util", "acks", "marks", "stall ms");
    println!("{}", head.trim_end());
    for l in r.links.iter().filter(|l| l.data_packets > 0 || l.ack_packets > 0) {
        let each: Vec<String> = l.vl_credit_stall_ns.iter().map(|ns| format!("{:.3}", ns / 1e6)).collect();
        let row = format!(
            "  {:<20} {:>7.1}% {:>7.2}% {:>10} {:>12.3}  {}",
            l.id,
            100.0 * l.utilization,
            100.0 * l.ack_utilization,
            l.marks,
            l.credit_stall_ns / 1e6,
            each.join(" / ")
        );
        println!("{}", row.trim_end());
    }
    if vls {
        println!("  (stall: waiting for credit with no VL able to send; per VL: each VL's own wait, VL 0 first)");
    }
    println!("\nflows (throughput as a share of the source link)");
    println!("  {:<14} {:<8} {:>9} {:>10} {:>8} {:>12}", "flow", "group", "tput", "delivered", "marks", "delay us");
    for f in &r.flows {
        let delay = f.mean_delay_ns.map_or_else(|| "-".into(), |d| format!("{:.2}", d / 1e3));
        println!(
            "  {:<14} {:<8} {:>8.2}% {:>10} {:>8} {:>12}",
            f.id,
            f.group,
            100.0 * f.throughput_fraction,
            f.delivered_packets,
            f.marks,
            delay
        );
    }
    println!("\ngroups");
    for g in &r.groups {
        let delay = g.mean_delay_ns.map_or_else(|| "-".into(), |d| format!("{:.2} us", d / 1e3));
        println!(
            "  {:<14} {:>3} flows {:>8.2}%  Jain {}  marks {:>8} ({} in the interval)  delay {}",
            g.name,
            g.flows,
            100.0 * g.throughput_fraction,
            // (Flows that sent nothing are not "perfectly fair": 0/0.)
            if g.throughput_fraction == 0.0 { String::from("-    ") } else { format!("{:.3}", g.jain_index) },
            g.marks,
            g.measured_marks,
            delay
        );
    }
    for p in ibcc_view::names::partial_runs(r, s, |g| g.throughput_fraction, 20) {
        println!("  {}", p.words);
    }
}
