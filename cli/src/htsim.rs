//! `ibcc bench --against-htsim DIR`: our simulator and htsim (Broadcom's csg-htsim, RoCE over lossless PFC queues)
//! on the same traffic, paired, run after run. DIR holds the traffic matrices (`hotspot_victim_32.cm`, ...: htsim's
//! connection-matrix files); htsim is the `sim` folder `DIR/build.sh` made (`--htsim`, or `$HTSIM` as its
//! `run_htsim.sh` takes it). Both sides: 1 GB/s links, 25 ns per hop, 2068-byte packets, no congestion control, the
//! same fat tree. Printed per case: each side's wall time per delivered packet-hop, their ratio (median over the
//! pairs: the two runs of a pair share the machine's state), and our cost per queued event beside a bare
//! binary-heap event loop's with as many events pending (and the same loop on our own queue). With `--instructions`, each side's instructions per
//! delivered packet-hop instead (valgrind's count, the same on every machine, where wall times are not).

use crate::bare_loop;
use crate::output::outln;
use ibcc_core::fabric::{netfile, shapes, Speed, Width};
use ibcc_core::scenario::{scenario_of, RoutingEngine, Scenario};
use ibcc_core::sim::pattern_load::with_flows;
use ibcc_core::sim::Run;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// One side-by-side case: htsim's run of the same name in `run_htsim.sh`.
struct Case {
    name: &'static str,
    /// Fat-tree tiers (htsim's `-tiers`) and switch radix k.
    tiers: u32,
    k: usize,
    matrix: &'static str,
    sim_ms: u64,
}

impl Case {
    /// Hosts in htsim's fat tree: k^tiers / 2^(tiers - 1).
    fn hosts(&self) -> usize {
        self.k.pow(self.tiers) / 2usize.pow(self.tiers - 1)
    }
}

const CASES: [Case; 5] = [
    Case { name: "hs32", tiers: 2, k: 8, matrix: "hotspot_victim_32.cm", sim_ms: 1000 },
    Case { name: "hs128", tiers: 2, k: 16, matrix: "hotspot_victim_128.cm", sim_ms: 1000 },
    Case { name: "perm128", tiers: 2, k: 16, matrix: "perm_128.cm", sim_ms: 100 },
    Case { name: "hs1024", tiers: 3, k: 16, matrix: "hotspot_victim_1024.cm", sim_ms: 1000 },
    Case { name: "perm1024", tiers: 3, k: 16, matrix: "perm_1024.cm", sim_ms: 20 },
];

/// The cases the targets name, run when `--cases` is not given.
const DEFAULT_CASES: &str = "hs32,hs1024,perm1024";

/// htsim's packet size on the wire (its `-mtu`); ours by default (2048 bytes of payload and a 20-byte header).
const PACKET_BYTES: u64 = 2068;

/// How `run` measures the two sides.
#[derive(Debug, Clone, Copy)]
pub enum Mode {
    /// Wall time, `repeat` pairs of runs.
    Timed { repeat: u32 },
    /// Instructions, counted by valgrind's cachegrind: one run each.
    Instructions,
    /// Our side alone, once and untimed, printing what it delivered as JSON (what `Instructions` counts under
    /// valgrind); with `setup_only`, the runs are built but not run (their instructions are subtracted).
    OursOnly { setup_only: bool },
}

pub fn run(dir: &Path, htsim: Option<&Path>, cases: Option<&str>, mode: Mode, json: bool) -> Result<(), String> {
    let repeat = match mode {
        Mode::OursOnly { setup_only } => return ours_only(dir, cases, setup_only),
        Mode::Instructions => 1,
        Mode::Timed { repeat } => repeat,
    };
    let sim_dir = match htsim {
        Some(p) => p.to_path_buf(),
        None => PathBuf::from(std::env::var("HTSIM").map_err(|_| {
            "say where htsim is: --htsim SIM_DIR (the `sim` folder build.sh made) or HTSIM=SIM_DIR".to_owned()
        })?),
    };
    let binary = sim_dir.join("datacenter/htsim_roce");
    let parser = sim_dir.join("parse_output");
    for p in [&binary, &parser] {
        if !p.is_file() {
            return Err(format!("{}: not found (build htsim with {}/build.sh)", p.display(), dir.display()));
        }
    }
    // htsim runs in a folder of its own: paths given to it must not be relative.
    let dir = &dir.canonicalize().map_err(|e| format!("{}: {e}", dir.display()))?;
    let wanted = wanted_cases(cases)?;
    let work = std::env::temp_dir().join(format!("ibcc-htsim-{}", std::process::id()));
    std::fs::create_dir_all(&work).map_err(|e| format!("{}: {e}", work.display()))?;
    if let Mode::Instructions = mode {
        let counted = instructions(dir, &wanted, &binary, &parser, &work, json);
        let _ = std::fs::remove_dir_all(&work);
        return counted;
    }
    if !json {
        outln!(
            "{:<9} {:>6} {:>9} {:>11} {:>9} {:>11} {:>11} {:>7} {:>10} {:>10} {:>6} {:>9}",
            "case",
            "hosts",
            "ours s",
            "pkt-hops",
            "htsim s",
            "pkt-hops",
            "ns/hop o/h",
            "ratio",
            "ns/queued",
            "bare ns",
            "x bare",
            "wheel ns"
        );
    }
    for case in CASES.iter().filter(|c| wanted.contains(&c.name)) {
        let matrix = read_matrix(&dir.join(case.matrix))?;
        let scenario = scenario(case, &matrix)?;
        let hops = path_hops(&Run::new(&scenario).map_err(|e| e.to_string())?)?;
        let mut pairs = Vec::new();
        for _ in 0..repeat.max(1) {
            let ours = run_ours(&scenario, &hops)?;
            let theirs = run_htsim(case, &binary, &parser, &dir.join(case.matrix), &work, &hops)?;
            pairs.push((ours, theirs));
        }
        let ratios: Vec<f64> = pairs.iter().map(|(o, h)| h.ns_per_hop() / o.ns_per_hop()).collect();
        let mid = |mut v: Vec<f64>| {
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        let ratio = mid(ratios.clone());
        let (o, h) = &pairs[pairs.len() / 2];
        let ours_queued_ns = mid(pairs.iter().map(|(o, _)| o.wall * 1e9 / o.queued as f64).collect());
        let like = o.like.expect("our side's run");
        let (bare_ns, wheel_ns) = (like.heap_ns(), like.wheel_ns());
        let hosts = case.hosts();
        if json {
            let doc = serde_json::json!({ "case": case.name, "hosts": hosts, "sim_ms": case.sim_ms,
                "ours_wall_s": o.wall, "ours_packet_hops": o.packet_hops, "ours_events": o.events,
                "ours_queued": o.queued, "htsim_wall_s": h.wall, "htsim_packet_hops": h.packet_hops,
                "ratios": ratios, "ratio": ratio, "ours_ns_per_queued": ours_queued_ns, "bare_ns_per_event": bare_ns,
                "bare_wheel_ns_per_event": wheel_ns,
                "pending": like.pending });
            outln!("{doc}");
        } else {
            outln!(
                "{:<9} {:>6} {:>9.3} {:>11} {:>9.3} {:>11} {:>5.0}/{:<5.0} {:>7.2} {:>10.1} {:>10.1} {:>6.2} {:>9.1}",
                case.name,
                hosts,
                o.wall,
                o.packet_hops,
                h.wall,
                h.packet_hops,
                o.ns_per_hop(),
                h.ns_per_hop(),
                ratio,
                ours_queued_ns,
                bare_ns,
                ours_queued_ns / bare_ns,
                wheel_ns
            );
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    if !json {
        outln!("ratio: htsim's wall time per delivered packet-hop over ours (median of {} pairs);", repeat.max(1));
        outln!("x bare: our wall time per queued event over a bare binary-heap loop's with as many events pending;");
        outln!("wheel ns: the same bare loop on our own queue (the timing wheel, the run's bucket width)");
    }
    Ok(())
}

/// Our scenarios of the cases named in `cases` (comma-separated; default: the issue's), read from DIR's matrices:
/// what `ibcc bench --kinds --against-htsim DIR` counts events on, without htsim.
pub fn scenarios(dir: &Path, cases: Option<&str>) -> Result<Vec<(String, Scenario)>, String> {
    let wanted = wanted_cases(cases)?;
    CASES
        .iter()
        .filter(|c| wanted.contains(&c.name))
        .map(|case| Ok((case.name.to_string(), scenario(case, &read_matrix(&dir.join(case.matrix))?)?)))
        .collect()
}

/// The names in `cases`, each checked.
fn wanted_cases(cases: Option<&str>) -> Result<Vec<&str>, String> {
    let wanted: Vec<&str> = cases.unwrap_or(DEFAULT_CASES).split(',').map(str::trim).collect();
    for w in &wanted {
        if !CASES.iter().any(|c| c.name == *w) {
            let names: Vec<_> = CASES.iter().map(|c| c.name).collect();
            return Err(format!("no case {w:?}; the cases are {}", names.join(", ")));
        }
    }
    Ok(wanted)
}

/// One side's run: wall seconds, delivered data packet-hops, and (ours) events.
struct Side {
    wall: f64,
    packet_hops: u64,
    events: u64,
    queued: u64,
    /// (Ours) a bare event loop made like the run.
    like: Option<bare_loop::Like>,
}

impl Side {
    fn ns_per_hop(&self) -> f64 {
        self.wall * 1e9 / self.packet_hops.max(1) as f64
    }
}

/// htsim's connection matrix: `src->dst start T size S` lines, in order.
fn read_matrix(path: &Path) -> Result<Vec<(usize, usize)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut pairs = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some((src, dst)) = line.split_whitespace().next().and_then(|w| w.split_once("->")) else { continue };
        let num =
            |s: &str| s.parse::<usize>().map_err(|_| format!("{}:{}: {s:?} is not a host", path.display(), i + 1));
        pairs.push((num(src)?, num(dst)?));
    }
    Ok(pairs)
}

/// Our scenario for `case`: htsim's fat tree, generated as the fabric it is (`fabric::shapes`: two tiers are k
/// leaves of k/2 hosts under k/2 spines, three are k pods of k/2 edge and k/2 aggregation switches under (k/2)^2
/// cores, hosts numbered as htsim numbers them), 4X SDR (8 Gb/s of data, htsim's 1 GB/s), 25 ns per hop, and one
/// greedy flow per matrix line, no congestion control. Routed by OpenSM's minhop, which spreads destinations over
/// the uplinks as htsim's per-connection ECMP does.
fn scenario(case: &Case, matrix: &[(usize, usize)]) -> Result<Scenario, String> {
    if let Some(&(a, b)) = matrix.iter().find(|&&(a, b)| a.max(b) >= case.hosts()) {
        return Err(format!("{}: {a}->{b} names a host beyond the tree's {}", case.matrix, case.hosts()));
    }
    let link = (Width::X4, Speed::Sdr);
    let k = case.k as u32;
    let fabric = if case.tiers == 2 { shapes::two_level(k, link) } else { shapes::fat_tree(k, link) };
    let fabric = fabric.map_err(|e| format!("{}: {e}", case.name))?;
    let name = format!("htsim {}", case.name);
    let s = scenario_of(&name, &netfile::write_net(&fabric), case.sim_ms * 1_000_000)
        .map_err(|e| format!("{}: {e}", case.name))?;
    let mut s = with_flows(&s.without_congestion_control(), matrix, "htsim");
    s.routing.engine = RoutingEngine::Minhop;
    s.link.propagation_ns = 25;
    s.source.window_packets = None;
    s.measure.from_ns = 0;
    s.validate().map_err(|e| format!("{}: {e}", case.name))?;
    Ok(s)
}

/// Links on each flow's path (minimal in a fat tree, so the same length on both sides), in flow order: the matrix's.
fn path_hops(run: &Run) -> Result<Vec<u64>, String> {
    let s = run.scenario();
    let node = |id: &str| s.nodes.iter().position(|n| n.id == id).map(|i| i as u32);
    s.flows
        .iter()
        .map(|f| {
            let (a, b) = (node(&f.src).ok_or("a flow's source")?, node(&f.dst).ok_or("a flow's destination")?);
            let path = run.sim.topology().path(a, b).ok_or(format!("no route {} -> {}", f.src, f.dst))?;
            Ok(path.len() as u64)
        })
        .collect()
}

/// Our run: built and run to its end, timed; packet-hops are each flow's delivered packets times its path.
fn run_ours(scenario: &Scenario, hops: &[u64]) -> Result<Side, String> {
    let t0 = Instant::now();
    let mut run = Run::new(scenario).map_err(|e| e.to_string())?;
    run.run();
    let wall = t0.elapsed().as_secs_f64();
    let results = run.results();
    let packet_hops = results.flows.iter().zip(hops).map(|(f, h)| f.delivered_packets * h).sum();
    let (events, queued, like) = (results.events, run.sim.queued_events(), Some(bare_loop::Like::run(&run)));
    Ok(Side { wall, packet_hops, events, queued, like })
}

/// htsim's run of `case` as `run_htsim.sh` makes it, timed as a process; its delivered packets come from its sink
/// logs (each sink's last cumulative ACK, in bytes), sinks in the order of the matrix's lines (htsim numbers its
/// objects as it creates them, one connection after another).
fn run_htsim(
    case: &Case,
    binary: &Path,
    parser: &Path,
    matrix: &Path,
    work: &Path,
    hops: &[u64],
) -> Result<Side, String> {
    let log = work.join(format!("{}.log", case.name));
    let t0 = Instant::now();
    let out = Command::new(binary)
        .current_dir(work)
        .args(htsim_args(case, &log, matrix, case.sim_ms * 1000))
        .output()
        .map_err(|e| format!("{}: {e}", binary.display()))?;
    let wall = t0.elapsed().as_secs_f64();
    if !out.status.success() {
        let said = String::from_utf8_lossy(&out.stdout);
        let tail: Vec<&str> = said.lines().rev().take(3).collect();
        return Err(format!("htsim failed on {} ({}): {}", case.name, out.status, tail.join(" / ")));
    }
    let packet_hops = htsim_hops(case, parser, &log, hops)?;
    Ok(Side { wall, packet_hops, events: 0, queued: 0, like: None })
}

/// htsim's command line for `case`, as `run_htsim.sh` makes it, logging its sinks to `log`, simulating `end_us`
/// microseconds.
fn htsim_args(case: &Case, log: &Path, matrix: &Path, end_us: u64) -> Vec<String> {
    let (log, matrix) = (log.to_string_lossy(), matrix.to_string_lossy());
    let (end, nodes, tiers) = (end_us.to_string(), case.hosts().to_string(), case.tiers.to_string());
    ["-o", &log, "-mtu", "2068", "-linkspeed", "8000", "-hop_latency", "0.025", "-q", "300", "-strat", "ecmp_host"]
        .iter()
        .chain(&["-paths", "1", "-log", "sink", "-end", &end, "-nodes", &nodes, "-tiers", &tiers, "-tm", &matrix])
        .map(|a| a.to_string())
        .collect()
}

/// htsim's delivered packet-hops in `log`: each sink's last cumulative ACK, in packets, times its flow's path.
fn htsim_hops(case: &Case, parser: &Path, log: &Path, hops: &[u64]) -> Result<u64, String> {
    let parsed =
        Command::new(parser).arg(log).arg("-ascii").output().map_err(|e| format!("{}: {e}", parser.display()))?;
    // Lines: "TIME Type ROCE_SINK ID n Ev RATE CAck BYTES Rate R": the last CAck of each sink.
    let mut last = std::collections::BTreeMap::new();
    for line in String::from_utf8_lossy(&parsed.stdout).lines() {
        let w: Vec<&str> = line.split_whitespace().collect();
        if w.len() > 8 && w[2] == "ROCE_SINK" && w[7] == "CAck" {
            if let (Ok(id), Ok(bytes)) = (w[4].parse::<u64>(), w[8].parse::<u64>()) {
                last.insert(id, bytes);
            }
        }
    }
    if last.len() != hops.len() {
        return Err(format!("htsim's log of {} has {} sinks for {} connections", case.name, last.len(), hops.len()));
    }
    Ok(last.values().zip(hops).map(|(bytes, h)| bytes / PACKET_BYTES * h).sum())
}

/// Our side of the cases in `cases`, each run once to its end (or, with `setup_only`, only built), untimed: one
/// JSON line each with what it delivered. `--instructions` runs this under valgrind.
fn ours_only(dir: &Path, cases: Option<&str>, setup_only: bool) -> Result<(), String> {
    for (name, scenario) in scenarios(dir, cases)? {
        let mut run = Run::new(&scenario).map_err(|e| e.to_string())?;
        if !setup_only {
            run.run();
        }
        let hops = path_hops(&run)?;
        let results = run.results();
        let packet_hops: u64 = results.flows.iter().zip(&hops).map(|(f, h)| f.delivered_packets * h).sum();
        let doc = serde_json::json!({ "case": name, "packet_hops": packet_hops, "events": results.events,
            "queued": run.sim.queued_events() });
        outln!("{doc}");
    }
    Ok(())
}

/// Each side's instructions on each of `cases`, counted by cachegrind, without its set-up (building and routing
/// the fabric is not simulating): ours as this program's run of the case less its run that only builds it,
/// htsim's as its run less the same run simulating one microsecond. Printed per delivered packet-hop, and their
/// ratio.
fn instructions(
    dir: &Path,
    cases: &[&str],
    binary: &Path,
    parser: &Path,
    work: &Path,
    json: bool,
) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| format!("this program's path: {e}"))?;
    if !json {
        outln!(
            "{:<9} {:>6} {:>12} {:>11} {:>9} {:>9} {:>12} {:>11} {:>9} {:>7}",
            "case",
            "hosts",
            "ours Minstr",
            "pkt-hops",
            "per hop",
            "per event",
            "htsim Minstr",
            "pkt-hops",
            "per hop",
            "ratio"
        );
    }
    for case in CASES.iter().filter(|c| cases.contains(&c.name)) {
        let ours = |setup_only: bool| {
            let mut args: Vec<String> = ["bench", "--against-htsim", &dir.to_string_lossy(), "--cases", case.name]
                .iter()
                .map(|a| a.to_string())
                .collect();
            args.push("--ours-only".into());
            if setup_only {
                args.push("--setup-only".into());
            }
            counted(&exe, &args, work)
        };
        let (all, said) = ours(false)?;
        let (setup, _) = ours(true)?;
        let doc: serde_json::Value =
            serde_json::from_str(said.trim()).map_err(|e| format!("our run of {} printed {said:?}: {e}", case.name))?;
        let field = |k: &str| doc[k].as_u64().ok_or(format!("our run of {} printed no {k}", case.name));
        let (hops, events, queued) = (field("packet_hops")?, field("events")?, field("queued")?);
        let ours_instr = all.saturating_sub(setup);
        let log = work.join(format!("{}.log", case.name));
        let htsim = |end_us| counted(binary, &htsim_args(case, &log, &dir.join(case.matrix), end_us), work);
        // (Its set-up: the same command simulating a microsecond. Its log is read from the whole run, after.)
        let (setup, _) = htsim(1)?;
        let (all, _) = htsim(case.sim_ms * 1000)?;
        let theirs_instr = all.saturating_sub(setup);
        let matrix = read_matrix(&dir.join(case.matrix))?;
        let paths = path_hops(&Run::new(&scenario(case, &matrix)?).map_err(|e| e.to_string())?)?;
        let theirs_hops = htsim_hops(case, parser, &log, &paths)?;
        let per_hop = |i: u64, h: u64| i as f64 / h.max(1) as f64;
        let ratio = per_hop(theirs_instr, theirs_hops) / per_hop(ours_instr, hops);
        if json {
            let doc = serde_json::json!({ "case": case.name, "hosts": case.hosts(), "ours_instructions": ours_instr,
                "ours_packet_hops": hops, "ours_events": events, "ours_queued": queued,
                "htsim_instructions": theirs_instr, "htsim_packet_hops": theirs_hops, "ratio": ratio });
            outln!("{doc}");
        } else {
            outln!(
                "{:<9} {:>6} {:>12.0} {:>11} {:>9.0} {:>9.0} {:>12.0} {:>11} {:>9.0} {:>7.2}",
                case.name,
                case.hosts(),
                ours_instr as f64 / 1e6,
                hops,
                per_hop(ours_instr, hops),
                per_hop(ours_instr, events),
                theirs_instr as f64 / 1e6,
                theirs_hops,
                per_hop(theirs_instr, theirs_hops),
                ratio
            );
        }
    }
    if !json {
        outln!("instructions counted by valgrind's cachegrind, each side's set-up left out; ratio: htsim's");
        outln!("instructions per delivered packet-hop over ours");
    }
    Ok(())
}

/// Runs `program` with `args` in `work` under cachegrind: the instructions it executed, and what it printed.
fn counted(program: &Path, args: &[String], work: &Path) -> Result<(u64, String), String> {
    let out = Command::new("valgrind")
        .current_dir(work)
        .args(["--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"])
        .arg(program)
        .args(args)
        .output()
        .map_err(|e| format!("valgrind: {e} (--instructions runs each side under valgrind: install it)"))?;
    let said = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() {
        let tail: Vec<&str> = said.lines().rev().take(3).collect();
        return Err(format!("{} under valgrind failed ({}): {}", program.display(), out.status, tail.join(" / ")));
    }
    // cachegrind's summary: "==PID== I   refs:      12,780,215,220".
    let refs = said
        .lines()
        .find_map(|l| l.split_once("I   refs:").map(|(_, n)| n.trim().replace(',', "")))
        .and_then(|n| n.parse().ok())
        .ok_or(format!("valgrind printed no instruction count for {}", program.display()))?;
    Ok((refs, String::from_utf8_lossy(&out.stdout).into_owned()))
}
