//! The browser sweep: up to three settings of the current scenario swept over lists of values, each point a full
//! run (in web workers), and a result plotted against the first setting, one curve per combination of the others.
//! Pure Rust, tested natively; the view is `ui/sweep.rs`.

use ibcc_core::scenario::{switch_word, NodeKind, Scenario, BLOCKS};
use ibcc_core::sim::Results;
pub use ibcc_view::grid::Axis;
use ibcc_view::grid::{self, BROWSER_MAX_POINTS};
use ibcc_view::plot::{Curve, What};
use ibcc_view::{names, settings};
use serde_json::Value;
use std::collections::BTreeMap;
use std::rc::Rc;

/// The settings the view offers to sweep, in the settings panel's order: every named one but the flows, the run's
/// length and where it is measured (a sweep compares runs measured alike), and PFT's detection and throttling alone
/// (its variants, `pft`, name both).
pub fn sweepable() -> impl Iterator<Item = &'static settings::Setting> {
    let left_out = |p: &str| {
        matches!(p, "flows" | "duration_ns" | "pft.detection" | "pft.throttling") || p.starts_with("measure.")
    };
    settings::SETTINGS.iter().filter(move |s| !left_out(s.path))
}

/// Values typed by the user: `1..8` (step 1), `1..16 step 2`, or a comma-separated list of numbers, words
/// (`lipd, aimd`) or `true`/`false`.
pub fn parse_values(text: &str) -> Result<Vec<Value>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Err(String::from("give values: a list (1, 2, 4) or a range (1..8, or 1..16 step 2)"));
    }
    if let Some((from, rest)) = t.split_once("..") {
        let (to, step) = match rest.split_once("step") {
            Some((to, step)) => (to.trim(), step.trim()),
            None => (rest.trim(), "1"),
        };
        let num = crate::number::parse;
        let (Some(a), Some(b), Some(d)) = (num(from), num(to), num(step)) else {
            return Err(format!("{t:?}: a range is FROM..TO or FROM..TO step STEP, with numbers"));
        };
        return grid::range(a, b, d, BROWSER_MAX_POINTS).map_err(|e| format!("{t:?}: {e}"));
    }
    let values: Vec<Value> = t
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| match s {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => crate::number::parse(s).map_or_else(|| Value::String(s.to_owned()), grid::number),
        })
        .collect();
    if values.is_empty() {
        return Err(String::from("give values: a list (1, 2, 4) or a range (1..8, or 1..16 step 2)"));
    }
    Ok(values)
}

/// A setting's values as the scenario writes them: for a setting with choices, each choice typed by its value or by
/// the words the page shows for it ("input-triggered" as well as "input_triggered"), case and dashes aside; an
/// unknown one is refused with the choices named. A setting without choices keeps its values.
pub fn as_choices(path: &str, values: Vec<Value>) -> Result<Vec<Value>, String> {
    let Some(entry) = settings::find(path) else { return Ok(values) };
    if entry.choices.is_empty() {
        // A number: a word is refused here, in words, not by the scenario reader's types.
        return match values.iter().find(|v| !v.is_number()) {
            Some(v) => Err(format!("{} is not a number", v.as_str().map_or_else(|| v.to_string(), str::to_owned))),
            None if values.iter().any(|v| v.as_f64().is_some_and(|x| x < 0.0)) => {
                Err(String::from("a value below 0: every number setting is 0 or more"))
            }
            None => Ok(values),
        };
    }
    let plain = |s: &str| s.to_ascii_lowercase().replace(['-', '_', ' '], "");
    values
        .into_iter()
        .map(|v| {
            let typed = v.as_str().map_or_else(|| v.to_string(), str::to_owned);
            let found =
                entry.choices.iter().find(|c| plain(c.value) == plain(&typed) || plain(c.label) == plain(&typed));
            found.map(|c| c.json()).ok_or_else(|| {
                let all: Vec<&str> = entry.choices.iter().map(|c| c.value).collect();
                format!("{typed} is not one of its choices ({})", all.join(", "))
            })
        })
        .collect()
}

/// A setting's choices as the values field shows them ("none, naive, input_triggered"); none for a number.
pub fn choices_text(path: &str) -> Option<String> {
    let entry = settings::find(path).filter(|e| !e.choices.is_empty())?;
    Some(entry.choices.iter().map(|c| c.value).collect::<Vec<_>>().join(", "))
}

/// Whether `path` is the links' default rate or delay and every link of `s` has its own (a fabric's cables), so
/// that changing it changes nothing.
pub fn unused_link_default(s: &Scenario, path: &str) -> bool {
    let own = |l: &ibcc_core::scenario::Link| match path {
        "link.bandwidth_gbps" => l.bandwidth_gbps.is_some(),
        "link.propagation_ns" => l.propagation_ns.is_some(),
        _ => false,
    };
    !s.links.is_empty() && s.links.iter().all(own)
}

/// Every point's values and scenario, validated; the error names the point's values, or a setting that would change
/// nothing (the links' default rate or delay on a network whose every link has its own: a fabric's cables).
pub fn points(base: &Scenario, axes: &[Axis]) -> Result<Vec<(Vec<Value>, Scenario)>, String> {
    for a in axes {
        if unused_link_default(base, &a.path) {
            return Err(format!(
                "{}: every link of this network has its own (its cables'), so this default, for links without one, \
                 changes nothing here",
                settings::label(&a.path)
            ));
        }
    }
    grid::check(axes)?;
    if base.flows.is_empty() {
        return Err(String::from(
            "this network has no flows yet: add some (the Flow tool, or a traffic pattern) to sweep",
        ));
    }
    let total = grid::size(axes, BROWSER_MAX_POINTS).map_err(|e| match e {
        grid::SizeError::TooMany(..) => format!("{e} for the browser; use ibcc sweep"),
        grid::SizeError::Empty => e.to_string(),
    })?;
    (0..total)
        .map(|index| {
            let values = grid::point(axes, index);
            // Filled by insert, not collect: collecting sorts the pairs first, a sort instantiation of its own.
            let mut set: BTreeMap<String, Value> = BTreeMap::new();
            for (a, v) in axes.iter().zip(&values) {
                set.insert(a.path.clone(), v.clone());
            }
            let s = base.with_settings(&set).map_err(|e| format!("{}: {e}", describe(axes, &values)))?;
            Ok((values, s))
        })
        .collect()
}

/// `"Input buffer (packets) = 4, Source response = LIPD"`: each setting in words, a choice by the first part of its
/// label ("FT-FI", not "FT-FI: fixed threshold, fixed interval"), and a setting inside a mechanism the same point
/// turns off marked as not applied (`Scenario::with_settings`).
pub fn describe(axes: &[Axis], values: &[Value]) -> String {
    let off = |block: &str| {
        axes.iter().zip(values).any(|(a, v)| a.path == block && switch_word(block, v).as_deref() == Some("off"))
    };
    axes.iter()
        .zip(values)
        .map(|(a, v)| {
            let word = settings::value_label(&a.path, v);
            let word = word.split(':').next().unwrap_or_default();
            let block = BLOCKS.into_iter().find(|b| settings::within(&a.path, b));
            match block.filter(|b| off(b)) {
                Some(b) => format!("{} = {word} (not applied: {} off)", settings::label(&a.path), settings::label(b)),
                None => format!("{} = {word}", settings::label(&a.path)),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether every point that has a result gave the same value of `quantity` (to 0.05 of a percent, the tables'
/// rounding): the swept settings then change nothing this measures on this network as it is.
pub fn all_the_same(results: &[Option<Rc<Results>>], quantity: &Quantity) -> bool {
    let values: Vec<f64> = results.iter().flatten().map(|r| quantity.value(r)).collect();
    let (lo, hi) = values.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &v| (a.min(v), b.max(v)));
    values.len() >= 2 && hi - lo < 0.05
}

/// Whether an axis's values are all powers of two (buffer sizes 2, 4, 8, 16...): the plot then uses a log axis.
pub fn powers_of_two(values: &[Value]) -> bool {
    values.len() >= 3 && values.iter().all(|v| v.as_u64().is_some_and(|x| x > 0 && x.is_power_of_two()))
}

/// What the sweep plots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Quantity {
    Aggregate,
    Group(String),
    Link(String),
}

impl Quantity {
    /// Its value in `r`, in percent of a link, as the results tables give it: a group of flows to many hosts by its
    /// flows' mean (`GroupRate`; a permutation's sum would be hundreds of links' worth).
    pub fn value(&self, r: &Results) -> f64 {
        use crate::session::GroupRate;
        100.0
            * match self {
                Self::Aggregate => r.aggregate_throughput(),
                Self::Group(g) => {
                    r.group(g).map_or(f64::NAN, |gr| GroupRate::in_results(r, g).shown(gr.throughput_fraction))
                }
                Self::Link(l) => r.link(l).map_or(f64::NAN, |l| l.utilization),
            }
    }

    pub fn label(&self) -> String {
        match self {
            Self::Aggregate => String::from("aggregate throughput (% of a link)"),
            Self::Group(g) => format!("throughput of the {} (%)", names::group_curve(g)),
            Self::Link(l) => format!("utilization of {l} (%)"),
        }
    }

    pub fn id(&self) -> String {
        match self {
            Self::Aggregate => String::from("aggregate"),
            Self::Group(g) => format!("group:{g}"),
            Self::Link(l) => format!("link:{l}"),
        }
    }

    pub fn from_id(id: &str) -> Self {
        match id.split_once(':') {
            Some(("group", g)) => Self::Group(g.into()),
            Some(("link", l)) => Self::Link(l.into()),
            _ => Self::Aggregate,
        }
    }
}

/// The quantities worth offering for `s`: the aggregate, each group, and every link between two switches (both
/// directions), then the hosts' links.
pub fn quantities(s: &Scenario) -> Vec<Quantity> {
    let mut out = vec![Quantity::Aggregate];
    let mut groups: Vec<&str> = Vec::new();
    for f in &s.flows {
        if !f.group.is_empty() && !groups.contains(&f.group.as_str()) {
            groups.push(&f.group);
        }
    }
    out.extend(groups.into_iter().map(|g| Quantity::Group(g.into())));
    let is_switch = |id: &str| s.nodes.iter().any(|n| n.id == id && n.kind == NodeKind::Switch);
    let (mut inner, mut edge) = (Vec::new(), Vec::new());
    for l in &s.links {
        for (a, b) in [(&l.a, &l.b), (&l.b, &l.a)] {
            let q = Quantity::Link(format!("{a}->{b}"));
            if is_switch(a) && is_switch(b) {
                inner.push(q);
            } else if is_switch(a) {
                edge.push(q);
            }
        }
    }
    out.extend(inner);
    out.extend(edge);
    out
}

/// The plot of a sweep: `quantity` against the first axis (its values if all are numbers, else their positions),
/// one curve per combination of the other axes' values. Points without results yet are left out.
pub fn curves(axes: &[Axis], results: &[Option<Rc<Results>>], quantity: &Quantity) -> (Vec<Curve>, bool) {
    let Some(first) = axes.first() else { return (Vec::new(), false) };
    let numeric = first.values.iter().all(Value::is_number);
    let x = |i: usize| if numeric { first.values[i].as_f64().unwrap_or(i as f64) } else { i as f64 };
    let n0 = first.values.len();
    let rest = &axes[1..];
    let n1: usize = rest.iter().map(|a| a.values.len()).product();
    let curves = (0..n1)
        .map(|j| {
            // One curve of a group's rate is drawn in the group's colour, as everywhere else on the page; several
            // (one per combination of the other settings) take the sweep's own colours, named in the legend.
            let what = match quantity {
                Quantity::Group(g) if n1 == 1 => What::Group(g.clone()),
                _ => What::Series(j),
            };
            // The other axes' values of combination j (the last varies fastest, as in `points`).
            let values = grid::point(rest, j);
            let label = if rest.is_empty() { quantity.label() } else { describe(rest, &values) };
            let points = (0..n0)
                .filter_map(|i| results.get(i * n1 + j).and_then(Option::as_deref).map(|r| (x(i), quantity.value(r))))
                .collect();
            Curve::new(label, points, what)
        })
        .collect();
    (curves, numeric)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ibcc_core::presets::find;
    use ibcc_core::sim::Run;

    #[test]
    fn a_choice_is_typed_as_the_page_shows_it_and_a_wrong_one_names_the_choices() {
        let typed = vec![Value::from("input-triggered"), Value::from("NAIVE"), Value::from("none")];
        let got = as_choices("marking.policy", typed).expect("choices");
        assert_eq!(got, [Value::from("input_triggered"), Value::from("naive"), Value::from("none")]);
        let e = as_choices("marking.policy", vec![Value::from(1)]).expect_err("a number is no policy");
        assert!(e.starts_with("1 is not one of its choices (none, naive, input_triggered"), "{e}");
        // A number setting keeps its numbers; a setting's choices fill its values field.
        assert_eq!(as_choices("switch.buffer_packets", vec![Value::from(4)]), Ok(vec![Value::from(4)]));
        assert!(choices_text("marking.policy").is_some_and(|t| t.starts_with("none, naive, input_triggered")));
        assert_eq!(choices_text("switch.buffer_packets"), None);
    }

    #[test]
    fn values_parse_as_lists_and_ranges() {
        assert_eq!(parse_values("1..4").unwrap(), [1, 2, 3, 4].map(Value::from));
        assert_eq!(parse_values("2..8 step 3").unwrap(), [2, 5, 8].map(Value::from));
        assert_eq!(parse_values("0.5, 2").unwrap(), [Value::from(0.5), Value::from(2)]);
        assert_eq!(parse_values("lipd, aimd").unwrap(), [Value::from("lipd"), Value::from("aimd")]);
        assert_eq!(parse_values("true,false").unwrap(), [Value::Bool(true), Value::Bool(false)]);
        assert!(parse_values("").is_err() && parse_values("8..1").is_err() && parse_values("1..x").is_err());
        assert!(parse_values("1..100000").unwrap_err().contains("too many"));
        assert_eq!(parse_values(" , ,"), parse_values(""), "no values, said one way");
        // A word or a negative number for a number setting: refused in words.
        assert_eq!(as_choices("ib_cc.threshold", parse_values("4, 1S").unwrap()).unwrap_err(), "1S is not a number");
        assert!(as_choices("ib_cc.threshold", parse_values("-1").unwrap()).unwrap_err().contains("0 or more"));
    }

    #[test]
    fn points_cover_the_grid_and_bad_ones_are_named() {
        let base = find("infocom03-fig2").unwrap().scenario();
        let axes = [
            Axis { path: "switch.buffer_packets".into(), values: parse_values("2..4").unwrap() },
            Axis { path: "source.response".into(), values: parse_values("lipd, aimd").unwrap() },
        ];
        let p = points(&base, &axes).unwrap();
        assert_eq!(p.len(), 6);
        assert_eq!(p[1].1.switch.buffer_packets, 2);
        assert_eq!(p[5].1.switch.buffer_packets, 4);
        let bad = [Axis { path: "source.response".into(), values: parse_values("lipd, quick").unwrap() }];
        assert!(points(&base, &bad).unwrap_err().starts_with("Source response = quick:"));
        // A fabric's links each have their rate: the default rate would change nothing, and is refused by name.
        let fabric = find("fabric32-hotspot").unwrap().scenario();
        let rate = [Axis { path: "link.bandwidth_gbps".into(), values: parse_values("10, 100").unwrap() }];
        assert!(points(&fabric, &rate).unwrap_err().starts_with("Link bandwidth (Gb/s): every link of this network"));
        assert_eq!(points(&base, &rate).unwrap().len(), 2, "Fig. 2's links take the default");
        let mut no_flows = base.clone();
        no_flows.flows.clear();
        assert!(points(&no_flows, &rate).unwrap_err().starts_with("this network has no flows yet"));
    }

    #[test]
    fn mechanisms_sweep_on_and_off_with_the_off_runs_as_baseline() {
        let fabric = find("fabric32-hotspot").unwrap().scenario();
        let on_off = as_choices("ib_cc", parse_values("off, on").unwrap()).unwrap();
        let axes = [
            Axis { path: "ib_cc.threshold".into(), values: parse_values("4, 15").unwrap() },
            Axis { path: "ib_cc".into(), values: on_off },
        ];
        let p = points(&fabric, &axes).unwrap();
        let a10: Vec<_> = p.iter().map(|(_, s)| s.ib_cc.as_ref().map(|c| (c.threshold, c.ird_unit_ps))).collect();
        // Off: no A10 block at either threshold; on: the threshold, and times scaled to the 100 Gb/s host links.
        assert_eq!(a10, [None, Some((4, 5120)), None, Some((15, 5120))]);
        assert_eq!(describe(&axes, &p[3].0), "A10 threshold = 15, InfiniBand Annex A10 = on");
        assert_eq!(
            describe(&axes, &p[2].0),
            "A10 threshold = 15 (not applied: InfiniBand Annex A10 off), InfiniBand Annex A10 = off"
        );
        // One setting on two axes: refused, where the second would silently win.
        let twice = [axes[1].clone(), axes[1].clone()];
        assert_eq!(
            points(&fabric, &twice).unwrap_err(),
            "InfiniBand Annex A10 is on two axes: give all its values on one"
        );
        // PFT's variants, typed as the page shows them.
        let pft = as_choices("pft", parse_values("off, FT-FI, at-ri").unwrap()).unwrap();
        let p = points(&fabric, &[Axis { path: "pft".into(), values: pft }]).unwrap();
        let words: Vec<&str> = p.iter().map(|(_, s)| s.block_word("pft")).collect();
        assert_eq!(words, ["off", "ft_fi", "at_ri"]);
        // A choice is named by the first part of its label.
        assert_eq!(
            describe(&[Axis { path: "pft".into(), values: vec![] }], &[Value::from("at_ri")]),
            "Proactive Flow Throttling = AT-RI"
        );
        assert!(as_choices("ib_cc", vec![Value::from("ft_fi")]).unwrap_err().contains("(off, on)"));
        // Every mechanism is offered, but not the run's length or where it is measured.
        let offered: Vec<&str> = sweepable().map(|s| s.path).collect();
        for path in ["ib_cc", "pft", "ib_cc.threshold", "routing.engine", "virtual_lanes.data_vls", "seed"] {
            assert!(offered.contains(&path), "{path}");
        }
        assert!(!offered.iter().any(|p| p.starts_with("measure.") || *p == "duration_ns" || *p == "flows"));
    }

    #[test]
    fn curves_follow_the_axes() {
        let mut base = find("infocom03-fig2").unwrap().scenario();
        base.duration_ns = 2_000_000;
        base.measure.from_ns = 1_000_000;
        let axes = [
            Axis { path: "switch.buffer_packets".into(), values: parse_values("2, 4").unwrap() },
            Axis { path: "seed".into(), values: parse_values("1, 2").unwrap() },
        ];
        let results: Vec<Option<Rc<Results>>> = points(&base, &axes)
            .unwrap()
            .iter()
            .map(|(_, s)| {
                let mut sim = Run::new(s).unwrap();
                sim.run();
                Some(Rc::new(sim.results()))
            })
            .collect();
        let q = Quantity::Link("B->BC".into());
        let (c, numeric) = curves(&axes, &results, &q);
        assert!(numeric);
        assert_eq!(c.len(), 2);
        assert_eq!(c[1].label, "Seed = 2");
        assert_eq!(c[0].points.iter().map(|p| p.0).collect::<Vec<_>>(), [2.0, 4.0]);
        assert!(c[0].points.iter().all(|p| p.1 > 90.0), "the root link is full, in percent");
        // B->BC is full at every point: the same to the tables' rounding; A->B, which the buffer size sets, is not.
        assert!(all_the_same(&results, &q) && !all_the_same(&results, &Quantity::Link("A->B".into())));
        assert!(!all_the_same(&results[..1], &q), "one point is no comparison");
        assert!(powers_of_two(&parse_values("2, 4, 8, 16").unwrap()));
        assert!(!powers_of_two(&parse_values("2, 4").unwrap()) && !powers_of_two(&parse_values("1..8").unwrap()));
        let partial = vec![results[0].clone(), None, None, None];
        assert_eq!(curves(&axes, &partial, &q).0[0].points.len(), 1, "missing points are left out");
        let victim = Quantity::Group("victim".into());
        assert_eq!(curves(&axes, &results, &victim).0[0].what, What::Series(0), "two curves: the sweep's colours");
        let (one, _) = curves(&axes[..1], &results[..2], &victim);
        assert_eq!(one[0].what, What::Group("victim".into()), "one curve of the victims: their colour");
        let qs = quantities(&base);
        assert_eq!(qs[0], Quantity::Aggregate);
        assert!(qs.contains(&Quantity::Group("victim".into())) && qs.contains(&Quantity::Link("A->B".into())));
        assert_eq!(Quantity::from_id(&Quantity::Link("A->B".into()).id()), Quantity::Link("A->B".into()));
        // A group of flows to several hosts is plotted by their mean, as Results shows it (found in a walk: a sweep of
        // a fabric's pattern read 617.9% beside Results' 38.6% mean); one of flows to one host by their sum.
        let mut mixed = base.clone();
        mixed.flows.iter_mut().filter(|f| f.id == "victim" || f.id == "remote1").for_each(|f| f.group = "two".into());
        let mut sim = Run::new(&mixed).unwrap();
        sim.run();
        let r = sim.results();
        let (two, local) = (r.group("two").unwrap().throughput_fraction, r.group("local").unwrap().throughput_fraction);
        assert!((Quantity::Group("two".into()).value(&r) - 100.0 * two / 2.0).abs() < 1e-9);
        assert!((Quantity::Group("local".into()).value(&r) - 100.0 * local).abs() < 1e-9);
    }
}
