//! What differs between A and B in the A/B comparison: their scenarios, setting by setting ("B differs in Marking
//! policy: none → naive"; names, descriptions and layout are left out: they do not change a run), and their results
//! side by side with the difference. Pure Rust, tested natively.

use ibcc_core::scenario::Scenario;
use ibcc_core::sim::Results;
use serde_json::Value;

/// Every leaf of `v` as `(path, value)`, with paths like `marking.policy` or `flows[2].start_ns`.
fn leaves(v: &Value, path: String, out: &mut Vec<(String, String)>) {
    match v {
        Value::Object(map) => {
            for (k, x) in map {
                let p = if path.is_empty() { k.clone() } else { format!("{path}.{k}") };
                leaves(x, p, out);
            }
        }
        Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                leaves(x, format!("{path}[{i}]"), out);
            }
            if items.is_empty() {
                out.push((path, String::from("[]")));
            }
        }
        Value::String(s) => out.push((path, s.clone())),
        other => out.push((path, other.to_string())),
    }
}

fn flat(s: &Scenario) -> Vec<(String, String)> {
    let mut out = Vec::new();
    leaves(&ibcc_core::scenario::to_value(&s.without_layout()), String::new(), &mut out);
    out
}

/// `(setting, value in a, value in b)` for each setting that differs; "(none)" where one side lacks it.
pub fn differences(a: &Scenario, b: &Scenario) -> Vec<(String, String, String)> {
    let (fa, fb) = (flat(a), flat(b));
    let get = |f: &[(String, String)], k: &str| f.iter().find(|(p, _)| p == k).map(|(_, v)| v.clone());
    let mut keys: Vec<&String> = fa.iter().chain(fb.iter()).map(|(k, _)| k).collect();
    ibcc_view::sorting::sort(&mut keys);
    keys.dedup();
    keys.into_iter()
        .filter_map(|k| {
            let (x, y) = (get(&fa, k), get(&fb, k));
            (x != y).then(|| {
                let none = || String::from("(none)");
                (k.clone(), x.unwrap_or_else(none), y.unwrap_or_else(none))
            })
        })
        .collect()
}

/// One row of the results side by side: what, A's value, B's, and B minus A.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub what: String,
    pub a: String,
    pub b: String,
    pub diff: String,
}

/// A percentage of a link, and a difference in percentage points.
fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn row(what: String, a: Option<f64>, b: Option<f64>, show: fn(f64) -> String, diff: fn(f64) -> String) -> Row {
    let cell = |v: Option<f64>| v.map_or(String::from("-"), show);
    let d = match (a, b) {
        (Some(x), Some(y)) => diff(y - x),
        _ => String::from("-"),
    };
    Row { what, a: cell(a), b: cell(b), diff: d }
}

/// The rows of the side-by-side table, in the results tables' units (percent of a link, µs), with B minus A.
pub fn compare_rows(a: &Results, b: &Results) -> Vec<Row> {
    let points = |d: f64| format!("{:+.1} points", 100.0 * d);
    let count = |d: f64| format!("{d:+.0}");
    let us = |d: f64| format!("{:.2} µs", d / 1000.0);
    let us_diff = |d: f64| format!("{:+.2} µs", d / 1000.0);
    let jain = |x: f64| format!("{x:.3}");
    let jain_diff = |d: f64| format!("{d:+.3}");
    let mut r = vec![row(
        String::from("aggregate throughput"),
        Some(a.aggregate_throughput()),
        Some(b.aggregate_throughput()),
        pct,
        points,
    )];
    for g in &a.groups {
        let o = b.group(&g.name);
        let name = ibcc_view::names::group_curve(&g.name);
        r.push(row(
            format!("{name} throughput"),
            Some(g.throughput_fraction),
            o.map(|o| o.throughput_fraction),
            pct,
            points,
        ));
        r.push(row(format!("{name} Jain's index"), Some(g.jain_index), o.map(|o| o.jain_index), jain, jain_diff));
        r.push(row(
            format!("{name} marks"),
            Some(g.marks as f64),
            o.map(|o| o.marks as f64),
            |x| format!("{x:.0}"),
            count,
        ));
        r.push(row(format!("{name} mean delay"), g.mean_delay_ns, o.and_then(|o| o.mean_delay_ns), us, us_diff));
    }
    r.push(row(String::from("mean delay"), a.mean_delay_ns(), b.mean_delay_ns(), us, us_diff));
    let n = |x: u64| Some(x as f64);
    let whole = |x: f64| format!("{x:.0}");
    r.push(row(String::from("marked packets"), n(a.totals.marked_packets), n(b.totals.marked_packets), whole, count));
    r.push(row(
        String::from("dropped packets"),
        n(a.totals.dropped_packets),
        n(b.totals.dropped_packets),
        whole,
        count,
    ));
    for f in &a.flows {
        let o = b.flow(&f.id).map(|o| o.throughput_fraction);
        r.push(row(format!("flow {} throughput", f.id), Some(f.throughput_fraction), o, pct, points));
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use ibcc_core::scenario::MarkingPolicy;

    #[test]
    fn results_side_by_side_with_the_difference() {
        let mut a = ibcc_core::presets::find("infocom03-fig2").unwrap().scenario();
        a.duration_ns = 3_000_000;
        a.measure.from_ns = 1_000_000;
        a.measure.to_ns = None;
        let mut b = a.clone();
        b.marking.policy = MarkingPolicy::InputTriggered;
        b.source.response = ibcc_core::scenario::Response::Lipd;
        let run = |s: &Scenario| {
            let mut sim = ibcc_core::sim::Run::new(s).unwrap();
            sim.run();
            sim.results()
        };
        let (ra, rb) = (run(&a), run(&b));
        let rows = compare_rows(&ra, &rb);
        let get = |w: &str| rows.iter().find(|r| r.what == w).unwrap().clone();
        let m = get("marked packets");
        assert_eq!(m.a, "0");
        assert!(m.diff.starts_with('+') && m.diff != "+0", "B marks: {m:?}");
        let v = get("local flows throughput");
        let (x, y): (f64, f64) =
            (v.a.trim_end_matches('%').parse().unwrap(), v.b.trim_end_matches('%').parse().unwrap());
        let d: f64 = v.diff.trim_end_matches(" points").parse().unwrap();
        assert!((y - x - d).abs() < 0.11, "{v:?}");
        assert_eq!(get("dropped packets").diff, "+0");
    }

    #[test]
    fn names_each_changed_setting() {
        let a = ibcc_core::presets::find("infocom03-fig2").unwrap().scenario();
        let mut b = a.clone();
        assert!(differences(&a, &b).is_empty());
        b.marking.policy = MarkingPolicy::Naive;
        b.nodes[0].x = Some(-1.0);
        b.name = "B".into();
        assert_eq!(differences(&a, &b), [("marking.policy".into(), "none".into(), "naive".into())]);
        b.flows[1].start_ns = 7;
        let d = differences(&a, &b);
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].0, "flows[1].start_ns");
    }
}
