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

/// A list whose entries differ in more settings than this (Annex A10's table of 128 CCT entries, a fabric's
/// flows) is one line of the differences, not one per setting.
const FOLD_OVER: usize = 8;

/// `(setting, value in a, value in b)` for each setting that differs; "(none)" where one side lacks it.
pub fn differences(a: &Scenario, b: &Scenario) -> Vec<(String, String, String)> {
    let (fa, fb) = (flat(a), flat(b));
    let get = |f: &[(String, String)], k: &str| f.iter().find(|(p, _)| p == k).map(|(_, v)| v.clone());
    let mut keys: Vec<&String> = fa.iter().chain(fb.iter()).map(|(k, _)| k).collect();
    ibcc_view::sorting::sort(&mut keys);
    keys.dedup();
    let rows: Vec<(String, String, String)> = keys
        .into_iter()
        .filter_map(|k| {
            let (x, y) = (get(&fa, k), get(&fb, k));
            (x != y).then(|| {
                let none = || String::from("(none)");
                (k.clone(), x.unwrap_or_else(none), y.unwrap_or_else(none))
            })
        })
        .collect();
    fold_lists(fold_blocks(rows, &fa, &fb), &fa, &fb)
}

/// A block that is a mechanism on or off (`ibcc_core::scenario::BLOCKS`: PFT, Annex A10) turned on has every one of its
/// settings differ from nothing, and the list said so ten times ("ib_cc.ccti_limit: (none) → null"); one row says it
/// once.
fn fold_blocks(
    rows: Vec<(String, String, String)>,
    fa: &[(String, String)],
    fb: &[(String, String)],
) -> Vec<(String, String, String)> {
    let has = |f: &[(String, String)], block: &str| f.iter().any(|(k, _)| ibcc_view::settings::within(k, block));
    let mut out: Vec<(String, String, String)> = Vec::new();
    for row in rows {
        let block = ibcc_core::scenario::BLOCKS.iter().find(|b| ibcc_view::settings::within(&row.0, b));
        match block {
            Some(&b) if has(fa, b) != has(fb, b) => {
                if !out.iter().any(|r| r.0 == b) {
                    let on = |f| String::from(if has(f, b) { "on" } else { "off" });
                    out.push((b.to_owned(), on(fa), on(fb)));
                }
            }
            _ => out.push(row),
        }
    }
    out
}

/// The rows of a list's entries (`flows[3].src`) as one row for the list, where they are more than [`FOLD_OVER`]:
/// how many entries each side has, and how many settings differ.
fn fold_lists(
    rows: Vec<(String, String, String)>,
    fa: &[(String, String)],
    fb: &[(String, String)],
) -> Vec<(String, String, String)> {
    let list = |k: &str| k.split_once('[').map(|(l, _)| l.to_owned());
    // Entries of list `l` in a flattened scenario: its distinct indices.
    let entries = |f: &[(String, String)], l: &str| {
        let mut at: Vec<&str> =
            f.iter().filter_map(|(k, _)| k.strip_prefix(l)?.strip_prefix('[')?.split(']').next()).collect();
        at.dedup();
        at.len()
    };
    let mut out: Vec<(String, String, String)> = Vec::new();
    let mut i = 0;
    while i < rows.len() {
        let l = list(&rows[i].0);
        let n = rows[i..].iter().take_while(|r| l.is_some() && list(&r.0) == l).count().max(1);
        match l.filter(|_| n > FOLD_OVER) {
            Some(l) => {
                let side = |f| match entries(f, &l) {
                    0 => String::from("(none)"),
                    e => format!("{e} entries"),
                };
                out.push((format!("{l}[…]"), side(fa), format!("{}, {n} settings differ", side(fb))));
            }
            None => out.extend(rows[i..i + n].iter().cloned()),
        }
        i += n;
    }
    out
}

/// Each congestion-control mechanism of `s` (and what routes and carries its packets) in a few words, by name.
fn mechanisms(s: &Scenario) -> Vec<(&'static str, String)> {
    let words = |path: &str| {
        s.setting(path).map_or_else(|| String::from("none"), |v| ibcc_view::settings::value_label(path, &v))
    };
    let on_off = |on: bool| String::from(if on { "on" } else { "off" });
    let window = s.source.window_packets.map_or_else(|| String::from("none"), |w| format!("{w} packets"));
    let pft = s
        .pft
        .as_ref()
        .map_or_else(|| on_off(false), |_| format!("on ({}, {})", words("pft.detection"), words("pft.throttling")));
    let vls = s.virtual_lanes.as_ref().map_or(1, |v| v.data_vls);
    let coalescing =
        s.ack_coalescing.as_ref().map_or_else(|| on_off(false), |c| format!("every {} packets", c.every_packets));
    vec![
        ("Marking", words("marking.policy")),
        ("Source response", words("source.response")),
        ("Window", window),
        ("PFT", pft),
        ("Annex A10", on_off(s.ib_cc.is_some())),
        ("Transport", words("flows[].transport")),
        ("ACK coalescing", coalescing),
        ("Data VLs", vls.to_string()),
        // The field itself: a scenario without a routing block has none to read, and routes by the default engine.
        (
            "Routing",
            ibcc_view::settings::value_label("routing.engine", &ibcc_core::scenario::to_value(&s.routing.engine)),
        ),
    ]
}

/// What B changes, mechanism by mechanism, in words: "Annex A10: off → on", "Source response: LIPD → none".
pub fn mechanism_changes(a: &Scenario, b: &Scenario) -> Vec<String> {
    mechanisms(a)
        .into_iter()
        .zip(mechanisms(b))
        .filter(|((_, x), (_, y))| x != y)
        .map(|((name, x), (_, y))| format!("{name}: {x} → {y}"))
        .collect()
}

/// One row of the results side by side: what, each run's value (A first), and each other run's difference from A.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub what: String,
    pub values: Vec<String>,
    pub diffs: Vec<String>,
}

/// A percentage of a link, and a difference in percentage points.
fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn row(what: String, values: &[Option<f64>], show: fn(f64) -> String, diff: fn(f64) -> String) -> Row {
    let a = values.first().copied().flatten();
    let diffs = values[1.min(values.len())..]
        .iter()
        .map(|v| match (a, v) {
            (Some(x), Some(y)) => diff(y - x),
            _ => String::from("-"),
        })
        .collect();
    Row { what, values: values.iter().map(|v| v.map_or(String::from("-"), show)).collect(), diffs }
}

/// A difference with its sign, `decimals` after the point; one that rounds to zero has none ("0.000", not "-0.000").
fn signed(d: f64, decimals: usize) -> String {
    let text = format!("{d:+.decimals$}");
    if text[1..].bytes().all(|c| c == b'0' || c == b'.') {
        text[1..].to_owned()
    } else {
        text
    }
}

/// The rows of the side-by-side table for `runs` (A, B and perhaps C), in the results tables' units (percent of a
/// link, µs), with each run minus A, all over each run's measurement interval (marks included).
pub fn compare_rows(runs: &[&Results]) -> Vec<Row> {
    let points = |d: f64| format!("{} points", signed(100.0 * d, 1));
    let count = |d: f64| signed(d, 0);
    let us = |d: f64| format!("{:.2} µs", d / 1000.0);
    let us_diff = |d: f64| format!("{} µs", signed(d / 1000.0, 2));
    let jain = |x: f64| format!("{x:.3}");
    let jain_diff = |d: f64| signed(d, 3);
    let whole = |x: f64| format!("{x:.0}");
    let each = |f: &dyn Fn(&Results) -> Option<f64>| runs.iter().map(|r| f(r)).collect::<Vec<_>>();
    let Some(a) = runs.first() else { return Vec::new() };
    let mut r =
        vec![row(String::from("aggregate throughput"), &each(&|r| Some(r.aggregate_throughput())), pct, points)];
    for g in &a.groups {
        let name = ibcc_view::names::group_curve(&g.name);
        let of = |r: &Results| r.group(&g.name).cloned();
        // (As the plot shows it: a sum, or a mean over flows to many hosts.)
        let rate = crate::session::GroupRate::in_results(a, &g.name);
        let shown = |x: &Results| of(x).map(|o| rate.shown(o.throughput_fraction));
        r.push(row(throughput_row(a, &g.name), &each(&shown), pct, points));
        r.push(row(format!("{name} Jain's index"), &each(&|x| of(x).map(|o| o.jain_index)), jain, jain_diff));
        r.push(row(format!("{name} marks"), &each(&|x| of(x).map(|o| o.measured_marks as f64)), whole, count));
        r.push(row(format!("{name} mean delay"), &each(&|x| of(x).and_then(|o| o.mean_delay_ns)), us, us_diff));
    }
    r.push(row(String::from("mean delay"), &each(&|x| x.mean_delay_ns()), us, us_diff));
    let marked = |x: &Results| Some(x.links.iter().map(|l| l.measured_marks).sum::<u64>() as f64);
    r.push(row(String::from("packets marked"), &each(&marked), whole, count));
    let dropped = |x: &Results| Some(x.totals.dropped_packets as f64);
    r.push(row(String::from("dropped packets (whole run)"), &each(&dropped), whole, count));
    for f in &a.flows {
        let of = |x: &Results| x.flow(&f.id).map(|o| o.throughput_fraction);
        r.push(row(format!("flow {} throughput", f.id), &each(&of), pct, points));
    }
    r
}

/// The side-by-side row of group `group`'s throughput ("local flows (sum of 5) throughput").
pub fn throughput_row(r: &Results, group: &str) -> String {
    format!(
        "{} throughput",
        crate::session::GroupRate::in_results(r, group).label(&ibcc_view::names::group_curve(group))
    )
}

/// What to say when run `b` (called `name`) moved its packets exactly as run `a` did, its changes
/// notwithstanding (`None` when the two differ): every flow sent and delivered as many packets, at the same
/// throughput. Marks may still differ: a switch that marks changes no rate unless something responds to the marks,
/// the case a learner meets most (naive marking against none, without a source response).
pub fn same_traffic(a: (&Scenario, &Results), b: (&Scenario, &Results), name: &str) -> Option<String> {
    let moved = |r: &Results| -> Vec<(f64, u64, u64)> {
        r.flows.iter().map(|f| (f.throughput_fraction, f.injected_packets, f.delivered_packets)).collect()
    };
    if a.1.simulated_ns != b.1.simulated_ns || moved(a.1) != moved(b.1) {
        return None;
    }
    use ibcc_core::scenario::Response;
    // Sources that change their rate or window on marked ACKs (a fixed rate does not), or Annex A10's.
    let responds = |s: &Scenario| {
        let reacts = |r: Response| !matches!(r, Response::None | Response::Fixed);
        s.ib_cc.is_some()
            || reacts(s.source.response)
            || s.flows.iter().any(|f| f.source.as_ref().and_then(|o| o.response).is_some_and(reacts))
    };
    Some(if a.0 == b.0 {
        format!("{name} is A unchanged, so it ran exactly as A did. Change a setting of {name} to compare.")
    } else if a.0.marking != b.0.marking && !responds(a.0) && !responds(b.0) {
        format!(
            "{name} moved every packet exactly as A did. Its switches mark differently, but nothing responds to a mark \
             here (no source response, no Annex A10): a mark changes no rate by itself. Give {name} a source \
             response too, and its marks slow the flows that get them."
        )
    } else {
        format!("{name} moved every packet exactly as A did: what it changes makes no difference to this run.")
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ibcc_core::scenario::MarkingPolicy;

    #[test]
    fn says_why_marking_without_a_response_changes_nothing() {
        let mut a = ibcc_core::presets::find("infocom03-fig2").unwrap().scenario();
        a.duration_ns = 3_000_000;
        a.measure.from_ns = 1_000_000;
        let run = |s: &Scenario| {
            let mut sim = ibcc_core::sim::Run::new(s).unwrap();
            sim.run();
            sim.results()
        };
        let mut b = a.clone();
        b.marking.policy = MarkingPolicy::Naive;
        let (ra, rb) = (run(&a), run(&b));
        assert!(rb.totals.marked_packets > 0, "B marks");
        let said = same_traffic((&a, &ra), (&b, &rb), "B").expect("the same traffic");
        assert!(said.contains("nothing responds to a mark"), "{said}");
        // With a response the marks slow the flows: the runs differ, and nothing is said.
        b.source.response = ibcc_core::scenario::Response::Lipd;
        assert_eq!(same_traffic((&a, &ra), (&b, &run(&b)), "B"), None);
        // A change that does nothing else: said, without the marking's reason.
        let mut c = a.clone();
        c.name = String::from("renamed");
        let said = same_traffic((&a, &ra), (&c, &run(&c)), "C").expect("the same run");
        assert!(said.starts_with("C moved every packet exactly as A did: what it changes"), "{said}");
        // Unchanged, it is said to be A itself, not a change that made no difference.
        let said = same_traffic((&a, &ra), (&a.clone(), &ra), "B").expect("the same run");
        assert_eq!(said, "B is A unchanged, so it ran exactly as A did. Change a setting of B to compare.");
    }

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
        // C: A with a window of one packet.
        let mut c = a.clone();
        c.source.window_packets = Some(1);
        let (ra, rb, rc) = (run(&a), run(&b), run(&c));
        let rows = compare_rows(&[&ra, &rb, &rc]);
        let get = |w: &str| rows.iter().find(|r| r.what == w).unwrap().clone();
        let m = get("packets marked");
        assert_eq!((m.values.len(), m.diffs.len()), (3, 2), "A, B, C; B - A, C - A");
        assert_eq!(m.values[0], "0");
        assert!(m.diffs[0].starts_with('+') && m.diffs[0] != "+0", "B marks: {m:?}");
        assert_eq!(m.diffs[1], "0", "C marks nothing either: {m:?}");
        // Marks are counted over the interval, as every other row: fewer than over the whole run.
        let whole: u64 = rb.links.iter().map(|l| l.marks).sum();
        assert!(m.values[1].parse::<u64>().unwrap() < whole, "{m:?} against {whole} over the run");
        let v = get("local flows (sum of 5) throughput");
        let pct = |t: &str| t.trim_end_matches('%').parse::<f64>().unwrap();
        for k in 0..2 {
            let d: f64 = v.diffs[k].trim_end_matches(" points").parse().unwrap();
            assert!((pct(&v.values[k + 1]) - pct(&v.values[0]) - d).abs() < 0.11, "{v:?}");
        }
        assert_eq!(get("dropped packets (whole run)").diffs, ["0", "0"]);
    }

    #[test]
    fn a_difference_that_rounds_to_zero_has_no_sign() {
        assert_eq!(
            [signed(-0.0001, 3), signed(0.0004, 3), signed(-0.02, 1), signed(0.0, 0)],
            ["0.000", "0.000", "0.0", "0"]
        );
        assert_eq!([signed(-0.0006, 3), signed(2.0, 0), signed(-1.26, 1)], ["-0.001", "+2", "-1.3"]);
    }

    #[test]
    fn says_which_mechanisms_changed_in_words() {
        let a = ibcc_core::presets::find("a10-two-switch").unwrap().scenario();
        let mut b = a.clone();
        assert!(mechanism_changes(&a, &b).is_empty());
        b.ib_cc = None;
        b.source.response = ibcc_core::scenario::Response::Lipd;
        b.switch.buffer_packets += 1;
        let changes = mechanism_changes(&a, &b);
        assert_eq!(changes, ["Source response: none → LIPD", "Annex A10: on → off"], "{changes:?}");
        // A scenario without a routing block routes by the default engine, minhop, and says so (not "none").
        let mut c = a.clone();
        c.routing.engine = ibcc_core::scenario::RoutingEngine::Ftree;
        assert_eq!(mechanism_changes(&a, &c), ["Routing: minhop (OpenSM's default) → fat tree (ftree)"]);
        // Annex A10 turned off is one line, not one per setting of its block; and where it stays on, its table of
        // 128 CCT entries is one line, not one per setting of each.
        let d = differences(&a, &b);
        assert!(d.iter().any(|x| *x == ("ib_cc".into(), "on".into(), "off".into())), "{d:?}");
        assert!(!d.iter().any(|x| x.0.starts_with("ib_cc.")), "{d:?}");
        let mut short = a.clone();
        short.ib_cc.as_mut().unwrap().cct.truncate(2);
        let d = differences(&a, &short);
        assert_eq!(d, [("ib_cc.cct[…]".into(), "128 entries".into(), "2 entries, 252 settings differ".into())]);
        let p = ibcc_core::presets::find("pft-two-switch").unwrap().scenario();
        let mut off = p.clone();
        off.pft = None;
        let changes = mechanism_changes(&p, &off);
        assert!(
            changes.len() == 1 && changes[0].starts_with("PFT: on (") && changes[0].ends_with(") → off"),
            "{changes:?}"
        );
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
        // A mechanism turned on is one row, not one per setting of its block; a setting of it changed on both
        // sides is its own row.
        let mut a10 = a.clone();
        a10.marking.policy = MarkingPolicy::None;
        a10.ib_cc = Some(Default::default());
        let mut no_marking = a.clone();
        no_marking.marking.policy = MarkingPolicy::None;
        assert_eq!(differences(&no_marking, &a10), [("ib_cc".into(), "off".into(), "on".into())]);
        let mut faster = a10.clone();
        faster.ib_cc.as_mut().unwrap().ccti_timer = 4;
        assert_eq!(differences(&a10, &faster), [("ib_cc.ccti_timer".into(), "50".into(), "4".into())]);
    }
}
