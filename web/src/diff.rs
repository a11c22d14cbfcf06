//! What differs between two scenarios, setting by setting, for the A/B comparison ("B differs in marking.policy:
//! none → naive"). Names, descriptions and layout are left out: they do not change a run. Pure Rust, tested
//! natively.

use ibcc_core::scenario::Scenario;
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
    if let Ok(v) = serde_json::to_value(s.without_layout()) {
        leaves(&v, String::new(), &mut out);
    }
    out
}

/// `(setting, value in a, value in b)` for each setting that differs; "(none)" where one side lacks it.
pub fn differences(a: &Scenario, b: &Scenario) -> Vec<(String, String, String)> {
    let (fa, fb) = (flat(a), flat(b));
    let get = |f: &[(String, String)], k: &str| f.iter().find(|(p, _)| p == k).map(|(_, v)| v.clone());
    let mut keys: Vec<&String> = fa.iter().chain(fb.iter()).map(|(k, _)| k).collect();
    keys.sort();
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

#[cfg(test)]
mod tests {
    use super::*;
    use ibcc_core::scenario::MarkingPolicy;

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
