//! `ibcc sweep SPEC --out DIR` and `ibcc merge DIR`: many runs of one scenario over a grid of settings.
//!
//! A spec (JSON) names a base scenario and axes; every combination of the axes' values (and of the seeds, for
//! repetitions) is a point. Points run in parallel on all cores; each finished point is appended at once to a JSONL
//! file in DIR, so an interrupted sweep re-run skips what is done. `--shard I/N` runs the points whose index is I
//! modulo N (a deterministic slice, for a batch system's job array); `ibcc merge DIR` joins every shard's file into
//! `results.jsonl` and `results.csv`, one tidy row per point, ordered by point. An unsharded sweep merges by itself.
//!
//! ```json
//! { "base": "preset:infocom03-fig6",
//!   "set": { "duration_ns": 100000000 },
//!   "axes": [ { "path": "source.response", "values": ["lipd", "fimd", "aimd"] },
//!             { "path": "switch.buffer_packets", "range": { "from": 1, "to": 8, "step": 1 } } ],
//!   "seeds": [1, 2],
//!   "links": ["A->B", "B->BC"],
//!   "measure": [ { "name": "victim_40_60", "metric": { "kind": "group_rate", "group": "victim" },
//!                  "from_ns": 40000000, "to_ns": 60000000 } ] }
//! ```

use crate::exit::Error;
use ibcc_core::scenario::{NodeKind, Scenario, Settings};
use ibcc_core::sim::{Measurement, Results, Run};
use ibcc_view::grid::{self, Axis as GridAxis};
use ibcc_view::{csv, names};
use serde_json::{json, Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::fs::{self, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The sweep spec (JSON; see `ibcc sweep --help` and docs/sweeps.md).
    spec: PathBuf,
    /// Where the results go (created if needed).
    #[arg(long)]
    out: PathBuf,
    /// Run only the points with index I modulo N (0 <= I < N), e.g. `--shard 3/10`.
    #[arg(long, value_parser = parse_shard, value_name = "I/N")]
    shard: Option<(usize, usize)>,
    /// Parallel runs (default: all cores).
    #[arg(long)]
    jobs: Option<usize>,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Spec {
    /// A scenario file (relative to the spec), `preset:NAME`, or a share link.
    base: String,
    #[serde(default)]
    set: Settings,
    #[serde(default)]
    axes: Vec<Axis>,
    #[serde(default)]
    seeds: Vec<u64>,
    /// Directed links whose utilization gets a column (default: every link between two switches).
    #[serde(default)]
    links: Option<Vec<String>>,
    #[serde(default)]
    measure: Vec<Named>,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Axis {
    path: String,
    #[serde(default)]
    values: Option<Vec<Value>>,
    #[serde(default)]
    range: Option<Range>,
}

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Range {
    from: f64,
    to: f64,
    step: f64,
}

/// A measurement with its column name (serde cannot deny unknown fields through `flatten`: `Measurement` does).
#[derive(Debug, serde::Deserialize)]
struct Named {
    name: String,
    #[serde(flatten)]
    measurement: Measurement,
}

/// One point of the sweep: its index and the settings that make it.
#[derive(Debug, Clone)]
struct Point {
    index: usize,
    settings: Vec<(String, Value)>,
}

impl Axis {
    fn values(&self) -> Result<Vec<Value>, String> {
        match (&self.values, &self.range) {
            (Some(v), None) if !v.is_empty() => Ok(v.clone()),
            (None, Some(r)) => grid::range(r.from, r.to, r.step, grid::CLI_MAX_AXIS_VALUES)
                .map_err(|e| format!("axis {}: {e}", self.path)),
            _ => Err(format!("axis {}: give either a non-empty \"values\" list or a \"range\"", self.path)),
        }
    }
}

/// Every point, in order: the last axis varies fastest, seeds fastest of all (as in the page's sweep: `grid`).
fn points(spec: &Spec) -> Result<Vec<Point>, String> {
    let mut axes: Vec<GridAxis> = Vec::new();
    for a in &spec.axes {
        axes.push(GridAxis { path: a.path.clone(), values: a.values()? });
    }
    if !spec.seeds.is_empty() {
        axes.push(GridAxis { path: String::from("seed"), values: spec.seeds.iter().map(|&s| json!(s)).collect() });
    }
    grid::check(&axes)?;
    let total = grid::size(&axes, grid::CLI_MAX_POINTS).map_err(|e| e.to_string())?;
    Ok((0..total)
        .map(|index| {
            let values = grid::point(&axes, index);
            Point { index, settings: axes.iter().map(|a| a.path.clone()).zip(values).collect() }
        })
        .collect())
}

fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("{s:?}: write it as I/N with 0 <= I < N, e.g. 0/4");
    let (i, n) = s.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if n == 0 || i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The row of a finished point: its index, its settings, and the results.
fn row(point: &Point, spec: &Spec, sim: &Run, r: &Results) -> Value {
    let mut m = Map::new();
    m.insert("point".into(), json!(point.index));
    for (path, v) in &point.settings {
        m.insert(path.clone(), v.clone());
    }
    m.insert("aggregate_throughput".into(), json!(r.aggregate_throughput()));
    m.insert("mean_delay_ns".into(), json!(r.mean_delay_ns()));
    m.insert("marked_packets".into(), json!(r.totals.marked_packets));
    m.insert("dropped_packets".into(), json!(r.totals.dropped_packets));
    for g in &r.groups {
        let name = if g.name.is_empty() { names::UNGROUPED } else { g.name.as_str() };
        m.insert(format!("{name}.throughput"), json!(g.throughput_fraction));
        m.insert(format!("{name}.jain"), json!(g.jain_index));
        m.insert(format!("{name}.marks"), json!(g.marks));
        m.insert(format!("{name}.measured_marks"), json!(g.measured_marks));
        m.insert(format!("{name}.mean_delay_ns"), json!(g.mean_delay_ns));
    }
    let s = sim.scenario();
    let is_switch = |id: &str| s.nodes.iter().any(|n| n.id == id && n.kind == NodeKind::Switch);
    for l in &r.links {
        let wanted = match &spec.links {
            Some(list) => list.contains(&l.id),
            None => is_switch(&l.from) && is_switch(&l.to),
        };
        if wanted {
            m.insert(format!("{}.utilization", l.id), json!(l.utilization));
        }
    }
    for n in &spec.measure {
        m.insert(n.name.clone(), json!(sim.measure(&n.measurement).ok()));
    }
    m.insert("events".into(), json!(r.events));
    Value::Object(m)
}

fn load_spec(path: &Path) -> Result<(Spec, Scenario), Error> {
    let text = fs::read_to_string(path).map_err(|e| Error::io(path.display(), &e))?;
    let spec: Spec = serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let base_arg = if spec.base.starts_with("preset:") || spec.base.contains("#s=") || spec.base == "-" {
        spec.base.clone()
    } else {
        path.parent().unwrap_or(Path::new(".")).join(&spec.base).display().to_string()
    };
    let base = crate::input::load(&base_arg)?.with_settings(&spec.set).map_err(|e| format!("set: {e}"))?;
    Ok((spec, base))
}

/// The points already in DIR's JSONL files, after checking that they belong to this sweep: a directory holds one
/// sweep, and resuming one whose base scenario or points differ would silently mix the rows of two (the points are
/// numbered, so a new axis renumbers them all). DIR's `base.json`, written by [`sweep`], records the base scenario.
fn done(dir: &Path, base: &Scenario, all: &[Point]) -> Result<BTreeSet<usize>, String> {
    let again = || format!("use another --out directory, or delete {} to start again", dir.display());
    if fs::read_to_string(dir.join("base.json")).is_ok_and(|recorded| recorded != base.to_json()) {
        return Err(format!(
            "{} holds a sweep of another base scenario (see its base.json): {}",
            dir.display(),
            again()
        ));
    }
    let rows = read_rows(dir).unwrap_or_default();
    for p in all {
        let Some(row) = rows.get(&p.index) else { continue };
        for (path, value) in &p.settings {
            let recorded = row.get(path).unwrap_or(&Value::Null);
            if recorded != value {
                return Err(format!(
                    "{} holds another sweep: its point {} has {path} = {recorded}, this one's has {value}; {}",
                    dir.display(),
                    p.index,
                    again()
                ));
            }
        }
    }
    Ok(rows.keys().copied().collect())
}

fn read_rows(dir: &Path) -> Result<BTreeMap<usize, Value>, Error> {
    let mut rows = BTreeMap::new();
    let entries = fs::read_dir(dir).map_err(|e| Error::io(dir.display(), &e))?;
    for entry in entries.flatten() {
        let path = entry.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        if !(name.starts_with("points") && name.ends_with(".jsonl")) {
            continue;
        }
        let text = fs::read_to_string(&path).map_err(|e| Error::io(path.display(), &e))?;
        // A line cut short by an interrupted run is skipped: its point runs again.
        for line in text.lines() {
            if let Ok(v) = serde_json::from_str::<Value>(line) {
                if let Some(i) = v.get("point").and_then(Value::as_u64) {
                    rows.insert(i as usize, v);
                }
            }
        }
    }
    Ok(rows)
}

pub fn sweep(args: &Args) -> Result<(), Error> {
    let (spec, base) = load_spec(&args.spec)?;
    let all = points(&spec)?;
    let shard = args.shard;
    fs::create_dir_all(&args.out).map_err(|e| Error::io(args.out.display(), &e))?;
    // Every point's scenario is checked before any runs, so a bad axis value fails at once, naming the point.
    let mut todo = Vec::new();
    let finished = done(&args.out, &base, &all)?;
    for p in &all {
        let settings: BTreeMap<String, Value> = p.settings.iter().cloned().collect();
        let s = base.with_settings(&settings).map_err(|e| format!("point {}: {e}", p.index))?;
        let mine = shard.is_none_or(|(i, n)| p.index % n == i);
        if mine && !finished.contains(&p.index) {
            todo.push((p.clone(), s));
        }
    }
    // The point and its settings lead each row; merge reads this to order the columns.
    let mut leading = vec![String::from("point")];
    leading
        .extend(all.first().map(|p| p.settings.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>()).unwrap_or_default());
    fs::write(args.out.join("columns.json"), json!(leading).to_string())
        .and_then(|()| fs::write(args.out.join("base.json"), base.to_json()))
        .map_err(|e| Error::io(args.out.display(), &e))?;
    let file_name = match shard {
        Some((i, n)) => format!("points-{i}-of-{n}.jsonl"),
        None => String::from("points.jsonl"),
    };
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(args.out.join(&file_name))
        .map_err(|e| Error::io(args.out.join(&file_name).display(), &e))?;
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())).max(1);
    let mine_total = all.iter().filter(|p| shard.is_none_or(|(i, n)| p.index % n == i)).count();
    eprintln!(
        "sweep: {} points{}, {} to run ({} already done), {jobs} at a time",
        all.len(),
        shard.map_or(String::new(), |(i, n)| format!(" (shard {i}/{n}: {mine_total})")),
        todo.len(),
        mine_total - todo.len()
    );
    let next = AtomicUsize::new(0);
    let completed = AtomicUsize::new(0);
    let out = Mutex::new(file);
    let started = Instant::now();
    let tty = std::io::stderr().is_terminal();
    let events = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(todo.len().max(1)) {
            scope.spawn(|| loop {
                let k = next.fetch_add(1, Ordering::Relaxed);
                let Some((point, scenario)) = todo.get(k) else { break };
                let mut sim = Run::new(scenario).expect("checked above");
                sim.run();
                let r = sim.results();
                events.fetch_add(r.events as usize, Ordering::Relaxed);
                let line = row(point, &spec, &sim, &r).to_string() + "\n";
                {
                    let mut f = out.lock().expect("no writer panics");
                    let _ = f.write_all(line.as_bytes()).and_then(|()| f.flush());
                }
                let c = completed.fetch_add(1, Ordering::Relaxed) + 1;
                let msg = format!(
                    "[{c}/{}] point {} done, {:.1} s",
                    todo.len(),
                    point.index,
                    started.elapsed().as_secs_f64()
                );
                if tty {
                    eprint!("\r{msg}   ");
                } else {
                    eprintln!("{msg}");
                }
            });
        }
    });
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{}sweep: {} runs in {secs:.2} s ({:.1} M events/s over {jobs} jobs)",
        if tty { "\n" } else { "" },
        todo.len(),
        events.load(Ordering::Relaxed) as f64 / secs.max(1e-9) / 1e6
    );
    if shard.is_none() {
        merge_dir(&args.out)?;
    }
    Ok(())
}

/// `ibcc merge DIR`.
pub fn merge_dir(dir: &Path) -> Result<(), Error> {
    let rows = read_rows(dir)?;
    if rows.is_empty() {
        return Err(format!("{}: no points-*.jsonl with results", dir.display()).into());
    }
    // The point and its settings first (as the sweep recorded them), then the results in name order.
    let mut columns: Vec<String> = fs::read_to_string(dir.join("columns.json"))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_else(|| vec![String::from("point")]);
    let mut rest: BTreeSet<String> = BTreeSet::new();
    for r in rows.values() {
        if let Value::Object(m) = r {
            rest.extend(m.keys().filter(|k| !columns.contains(k)).cloned());
        }
    }
    columns.extend(rest);
    let cell = |v: Option<&Value>| match v {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    };
    let mut csv = csv::record(&columns);
    let mut jsonl = String::new();
    for r in rows.values() {
        csv += &csv::record(columns.iter().map(|c| cell(r.get(c))));
        jsonl += &(r.to_string() + "\n");
    }
    fs::write(dir.join("results.csv"), csv).map_err(|e| Error::io(dir.join("results.csv").display(), &e))?;
    fs::write(dir.join("results.jsonl"), jsonl).map_err(|e| Error::io(dir.join("results.jsonl").display(), &e))?;
    eprintln!("merge: {} points into {}", rows.len(), dir.join("results.csv").display());
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(text: &str) -> Spec {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn points_cover_the_grid_in_order() {
        let s = spec(
            r#"{"base": "preset:infocom03-fig2", "axes": [
                {"path": "source.response", "values": ["lipd", "aimd"]},
                {"path": "switch.buffer_packets", "range": {"from": 2, "to": 4, "step": 1}}], "seeds": [7, 8]}"#,
        );
        let p = points(&s).unwrap();
        assert_eq!(p.len(), 12);
        let show = |k: usize| p[k].settings.iter().map(|(_, v)| v.to_string()).collect::<Vec<_>>().join(" ");
        assert_eq!(show(0), "\"lipd\" 2 7");
        assert_eq!(show(1), "\"lipd\" 2 8");
        assert_eq!(show(2), "\"lipd\" 3 7");
        assert_eq!(show(11), "\"aimd\" 4 8");
    }

    #[test]
    fn bad_specs_and_shards_are_named() {
        let s = spec(r#"{"base": "x", "axes": [{"path": "seed", "range": {"from": 3, "to": 1, "step": 1}}]}"#);
        assert!(points(&s).unwrap_err().contains("axis seed"));
        let s = spec(r#"{"base": "x", "axes": [{"path": "seed"}]}"#);
        assert!(points(&s).unwrap_err().contains("either"));
        let s = spec(r#"{"base": "x", "axes": [{"path": "seed", "values": [1, 2]}], "seeds": [3]}"#);
        assert_eq!(points(&s).unwrap_err(), "Seed is on two axes: give all its values on one");
        assert_eq!(parse_shard("3/10"), Ok((3, 10)));
        assert!(parse_shard("10/10").is_err() && parse_shard("a/b").is_err() && parse_shard("1/0").is_err());
    }

    #[test]
    fn the_shipped_specs_build_every_point() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../sweeps");
        let mut checked = 0;
        for entry in fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let (spec, base) = load_spec(&path).unwrap_or_else(|e| panic!("{e}"));
            for p in points(&spec).unwrap() {
                let settings: BTreeMap<String, Value> = p.settings.into_iter().collect();
                base.with_settings(&settings).unwrap_or_else(|e| panic!("{}: point {}: {e}", path.display(), p.index));
            }
            checked += 1;
        }
        assert!(checked >= 2, "sweeps/ holds the Fig. 6 and switch-readings specs");
    }

    #[test]
    fn ranges_keep_integers_whole() {
        let a: Axis = serde_json::from_str(r#"{"path": "m", "range": {"from": 1.5, "to": 2.5, "step": 0.5}}"#).unwrap();
        assert_eq!(a.values().unwrap(), [json!(1.5), json!(2), json!(2.5)]);
    }
}
