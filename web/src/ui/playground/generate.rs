//! Generators for common shapes: the papers' two-switch network for given L and R, a parking lot, a k-ary fat tree
//! with a hot spot. A generated network keeps the current scenario's congestion control and run settings.

use super::super::document::{use_doc, Action, Origin};
use super::super::fields::{Choice, NumberField};
use ibcc_core::presets::{fat_tree_hotspot, parking_lot, TwoSwitch};
use ibcc_core::scenario::Scenario;
use yew::prelude::*;

/// The new network, with `base`'s settings; `Err` names the bad size.
fn generate(shape: &str, a: &str, b: &str, base: &Scenario) -> Result<Scenario, String> {
    let num = |s: &str, what: &str, max: u32| -> Result<u32, String> {
        match s.trim().parse::<u32>() {
            Ok(v) if v >= 1 && v <= max => Ok(v),
            _ => Err(format!("{what} must be a whole number from 1 to {max}")),
        }
    };
    let mut s = match shape {
        "two_switch" => {
            let (l, r) = (num(a, "L", 64)?, num(b, "R", 64)?);
            TwoSwitch { remote: r, local: l, stagger_ns: 100_000, victim: Some((0, None)), dynamic: None }
                .scenario(&format!("two-switch L={l} R={r}"), base.duration_ns)
        }
        "parking_lot" => {
            let n = num(a, "switches", 32)?;
            parking_lot(n, &format!("parking lot of {n}"), base.duration_ns)
        }
        _ => {
            let k = num(a, "k", 8)?;
            if k % 2 == 1 || k < 4 {
                return Err(String::from("k must be even, from 4 to 8"));
            }
            fat_tree_hotspot(k, &format!("fat tree k={k} hot spot"), base.duration_ns)
        }
    };
    s.seed = base.seed;
    s.packet = base.packet;
    s.switch = base.switch;
    s.link = base.link;
    s.marking = base.marking;
    s.source = base.source;
    s.measure = base.measure;
    s.measure.from_ns = s.measure.from_ns.min(s.duration_ns / 2);
    s.pft = base.pft;
    s.ib_cc = base.ib_cc.clone();
    s.check().map_err(|e| e.to_string())?;
    Ok(s)
}

#[component]
pub fn Generate() -> Html {
    let doc = use_doc();
    let shape = use_state(|| String::from("two_switch"));
    let a = use_state(|| String::from("5"));
    let b = use_state(|| String::from("1"));
    let error = use_state(|| None::<String>);
    let set = |h: &UseStateHandle<String>| {
        let h = h.clone();
        Callback::from(move |v: String| h.set(v))
    };
    let on_shape = {
        let (shape, a, b) = (shape.clone(), a.clone(), b.clone());
        Callback::from(move |v: String| {
            let (da, db) = match v.as_str() {
                "two_switch" => ("5", "1"),
                "parking_lot" => ("4", ""),
                _ => ("4", ""),
            };
            a.set(da.into());
            b.set(db.into());
            shape.set(v);
        })
    };
    let on_click = {
        let (shape, a, b, error, base, d) =
            (shape.clone(), a.clone(), b.clone(), error.clone(), doc.scenario.clone(), doc.dispatcher());
        Callback::from(move |_| match generate(&shape, &a, &b, &base) {
            Ok(s) => {
                error.set(None);
                let origin = Origin::Generated(s.name.clone());
                d.dispatch(Action::Load { next: Box::new(s), origin });
            }
            Err(e) => error.set(Some(e)),
        })
    };
    let options: Vec<(AttrValue, AttrValue)> = vec![
        ("two_switch".into(), "two switches (INFOCOM'03 Fig. 1)".into()),
        ("parking_lot".into(), "parking lot".into()),
        ("fat_tree".into(), "fat tree with a hot spot".into()),
    ];
    let (a_label, a_help, b_label) = match shape.as_str() {
        "two_switch" => (
            "L (local sources)",
            "Sources on B sending to BC; a victim AV -> BV runs throughout.",
            Some("R (remote sources)"),
        ),
        "parking_lot" => ("Switches", "A line of switches, one source on each, all sending to D past the last.", None),
        _ => ("k", "Pods and ports per switch (even): k^3/4 hosts; all outside pod 0 send to h0.", None),
    };
    html! {
        <details class="generate" data-testid="generate-section">
            <summary>{ "Generate a network" }</summary>
            <Choice id="generate-shape" label="Shape" help="Keeps the current congestion control and run settings."
                options={options} value={(*shape).clone()} on_change={on_shape} />
            <NumberField id="generate-a" label={a_label} unit="" help={a_help} value={(*a).clone()} error={None::<AttrValue>} on_change={set(&a)} />
            if let Some(label) = b_label {
                <NumberField id="generate-b" label={label} unit="" help="Sources on A sending to BC across the inter-switch link."
                    value={(*b).clone()} error={None::<AttrValue>} on_change={set(&b)} />
            }
            if let Some(e) = &*error {
                <p class="error" role="alert" data-testid="generate-error">{ e }</p>
            }
            <button onclick={on_click} data-testid="generate">{ "Generate" }</button>
        </details>
    }
}
