//! `ibcc bench --scale`: the same traffic (a random permutation on a fat tree routed by ftree) from 32 to 11,664
//! hosts: the cost per data packet-hop at each size, how many events a hop takes, and the memory the run holds
//! (resident memory grown while building and running it, divided by the hosts and by the switch ports). The
//! networks are `ibcc_core::presets::scale_fat_trees`. Each runs in a process of its own (this program again, with
//! `--hosts`): in one process, a network's growth counted only what the ones before it had not left free, and it
//! started with their data in the caches.

use crate::bare_loop;
use crate::output::outln;
use ibcc_core::presets::{scale_fat_tree_hosts, scale_fat_trees};
use ibcc_core::sim::Run;
use std::time::Instant;

pub fn run(duration_ms: f64, large: bool, only: Option<usize>, json: bool) -> Result<(), String> {
    let duration_ns = (duration_ms * 1e6).round().max(1.0) as u64;
    let large = large || only == Some(11_664);
    let sizes = scale_fat_tree_hosts(large);
    if let Some(n) = only.filter(|n| !sizes.contains(n)) {
        let sizes: Vec<String> = sizes.iter().map(ToString::to_string).collect();
        return Err(format!("no network of {n} hosts; the sizes are {} and 11664", sizes.join(", ")));
    }
    if !json {
        outln!(
            "{:<26} {:>6} {:>6} {:>8} {:>8} {:>12} {:>9} {:>10} {:>9} {:>10} {:>10} {:>8} {:>8} {:>8}",
            "network",
            "hosts",
            "ports",
            "build s",
            "run s",
            "packet-hops",
            "ev/hop",
            "ns/hop",
            "MB",
            "KB/host",
            "KB/port",
            "q/hop",
            "wheel",
            "heap"
        );
    }
    let Some(hosts) = only else {
        for hosts in sizes {
            alone(hosts, duration_ms, json)?;
        }
        if !json {
            legend();
        }
        return Ok(());
    };
    for (name, scenario) in scale_fat_trees(duration_ns, large, only) {
        // Every link has a port at each end; the hosts' own are counted too (a NIC's port is a port).
        let ports = 2 * scenario.links.len();
        let before = resident_bytes();
        let t0 = Instant::now();
        let mut run = Run::new(&scenario).map_err(|e| format!("{name}: {e}"))?;
        let built = t0.elapsed().as_secs_f64();
        let t1 = Instant::now();
        run.run();
        let ran = t1.elapsed().as_secs_f64();
        let grown = resident_bytes().zip(before).map(|(a, b)| a.saturating_sub(b));
        let results = run.results();
        let hops: u64 = results.links.iter().map(|l| l.data_packets).sum();
        let per_hop = ran * 1e9 / hops.max(1) as f64;
        let events_per_hop = results.events as f64 / hops.max(1) as f64;
        // The floor beside our cost per hop: bare loops popping as many events per hop as the run queued.
        let queued_per_hop = run.sim.queued_events() as f64 / hops.max(1) as f64;
        let like = bare_loop::Like::run(&run);
        let (wheel, heap) = (like.wheel_ns(), like.heap_ns());
        let (floor_wheel, floor_heap) = (wheel * queued_per_hop, heap * queued_per_hop);
        if json {
            let doc = serde_json::json!({ "network": name, "hosts": hosts, "ports": ports, "sim_ms": duration_ms,
                "build_s": built, "run_s": ran, "events": results.events, "packet_hops": hops,
                "ns_per_hop": per_hop, "events_per_hop": events_per_hop, "resident_bytes": grown,
                "queued_per_hop": queued_per_hop, "bare_wheel_ns_per_event": wheel, "bare_heap_ns_per_event": heap,
                "bare_wheel_ns_per_hop": floor_wheel, "bare_heap_ns_per_hop": floor_heap });
            outln!("{doc}");
            continue;
        }
        let (mb, per_host, per_port) = match grown {
            Some(b) => (
                format!("{:.1}", b as f64 / 1e6),
                format!("{:.1}", b as f64 / 1e3 / hosts as f64),
                format!("{:.1}", b as f64 / 1e3 / ports as f64),
            ),
            None => ("n/a".into(), "n/a".into(), "n/a".into()),
        };
        outln!(
            "{:<26} {:>6} {:>6} {:>8.2} {:>8.2} {:>12} {:>9.2} {:>10.1} {:>9} {:>10} {:>10} {:>8.2} {:>8.1} {:>8.1}",
            name,
            hosts,
            ports,
            built,
            ran,
            hops,
            events_per_hop,
            per_hop,
            mb,
            per_host,
            per_port,
            queued_per_hop,
            floor_wheel,
            floor_heap
        );
    }
    if !json {
        legend();
    }
    Ok(())
}

/// What the last three columns are.
const LEGEND: [&str; 3] = [
    "q/hop: events per hop that went through the queue (the others were handled at once); wheel, heap: ns per hop",
    "of a bare event loop (pop one, schedule one a packet time or a forwarding delay on, nothing else) on our queue",
    "and on a binary heap, q/hop events a hop, as many pending as the run ended with: the least any loop pays",
];

fn legend() {
    for line in LEGEND {
        outln!("{line}");
    }
}

/// Runs the network of `hosts` hosts in a process of its own and prints its row (the header is printed once).
fn alone(hosts: usize, duration_ms: f64, json: bool) -> Result<(), String> {
    let exe =
        std::env::current_exe().map_err(|e| format!("cannot find this program to run each network alone: {e}"))?;
    let mut cmd = std::process::Command::new(exe);
    cmd.args(["bench", "--scale", "--hosts", &hosts.to_string(), "--duration-ms", &duration_ms.to_string()]);
    if json {
        cmd.arg("--json");
    }
    let out = cmd.stderr(std::process::Stdio::inherit()).output().map_err(|e| format!("{hosts} hosts: {e}"))?;
    if !out.status.success() {
        return Err(format!("the run of {hosts} hosts failed ({})", out.status));
    }
    for line in
        String::from_utf8_lossy(&out.stdout).lines().filter(|l| !l.starts_with("network ") && !LEGEND.contains(l))
    {
        outln!("{line}");
    }
    Ok(())
}

/// This process's resident memory in bytes, where the system says (Linux's /proc); `None` elsewhere.
fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}
