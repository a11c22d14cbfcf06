//! Generators for common shapes: the papers' two-switch network for given L and R, a parking lot, a k-ary fat tree
//! with a hot spot; and fabrics as OpenSM would find them (a 3-level k-ary fat tree, a 2-level fat tree of K-port
//! switches, a ring), routed by the scenario's routing engine and drawn in levels. A generated network keeps the
//! current scenario's congestion control and run settings.

use super::super::document::{use_doc, Action, Origin};
use super::super::fields::{Choice, NumberField};
use ibcc_core::fabric::{netfile, shapes, Fabric, Speed, Width};
use ibcc_core::presets::{fat_tree_hotspot, parking_lot, TwoSwitch};
use ibcc_core::scenario::{scenario_of, RoutingEngine, Scenario};
use yew::prelude::*;

/// A generated fabric's cables: 4x EDR, 100 Gb/s (the PFT paper's rate).
const CABLE: (Width, Speed) = (Width::X4, Speed::Edr);

/// The scenario of a generated fabric: its ibsim net file (what `ibcc fabric gen` writes) in the `fabric` block.
fn of_fabric(name: &str, f: Result<Fabric, shapes::GenerateError>, duration_ns: u64) -> Result<Scenario, String> {
    let f = f.map_err(|e| e.to_string())?;
    scenario_of(name, &netfile::write_net(&f), duration_ns).map_err(|e| e.to_string())
}

/// `s` with `base`'s congestion control and run settings: seed, packets, switches, links, virtual lanes, ACKs,
/// marking, sources, PFT, Annex A10, the measured interval (within the run), and OpenSM's routing engine with its
/// spare-lane rule (not the papers' first-listed rule, which old presets carry, nor updn roots, which name nodes).
pub fn keep_settings(mut s: Scenario, base: &Scenario) -> Result<Scenario, String> {
    if base.routing.engine != RoutingEngine::FirstListed {
        s.routing.engine = base.routing.engine;
        s.routing.spare_lanes = base.routing.spare_lanes;
    }
    s.virtual_lanes = base.virtual_lanes.clone();
    s.ack_coalescing = base.ack_coalescing;
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

/// The new network, with `base`'s settings; `Err` names the bad size.
fn generate(shape: &str, a: &str, b: &str, base: &Scenario) -> Result<Scenario, String> {
    let num = |s: &str, what: &str, max: u32| -> Result<u32, String> {
        match s.trim().parse::<u32>() {
            Ok(v) if v >= 1 && v <= max => Ok(v),
            _ => Err(format!("{what} must be a whole number from 1 to {max}")),
        }
    };
    let even = |v: &str, what: &str, max: u32| -> Result<u32, String> {
        match num(v, what, max)? {
            k if k % 2 == 0 && k >= 4 => Ok(k),
            _ => Err(format!("{what} must be even, from 4 to {max}")),
        }
    };
    let d = base.duration_ns;
    let s = match shape {
        "two_switch" => {
            let (l, r) = (num(a, "L", 64)?, num(b, "R", 64)?);
            TwoSwitch { remote: r, local: l, stagger_ns: 100_000, victim: Some((0, None)), dynamic: None }
                .scenario(&format!("two-switch L={l} R={r}"), base.duration_ns)
        }
        "parking_lot" => {
            let n = num(a, "switches", 32)?;
            parking_lot(n, &format!("parking lot of {n}"), base.duration_ns)
        }
        "fat_tree" => {
            let k = num(a, "k", 8)?;
            if k % 2 == 1 || k < 4 {
                return Err(String::from("k must be even, from 4 to 8"));
            }
            fat_tree_hotspot(k, &format!("fat tree k={k} hot spot"), base.duration_ns)
        }
        "fabric_fat_tree" => {
            let k = even(a, "k", 16)?;
            of_fabric(&format!("fat tree fabric k={k}"), shapes::fat_tree(k, CABLE), d)?
        }
        "fabric_two_level" => {
            let k = even(a, "K", 48)?;
            of_fabric(&format!("two-level fat tree of {k}-port switches"), shapes::two_level(k, CABLE), d)?
        }
        "fabric_parallel" => {
            let (c, h) = (num(a, "cables", 16)?, num(b, "hosts per switch", 16)?);
            of_fabric(&format!("two switches joined by {c} cables"), shapes::parallel(c, h, CABLE), d)?
        }
        _ => {
            let (n, h) = (num(a, "switches", 64)?, num(b, "hosts per switch", 16)?);
            if n < 3 {
                return Err(String::from("a ring needs 3 switches or more"));
            }
            of_fabric(&format!("ring of {n} switches"), shapes::ring(n, h, CABLE), d)?
        }
    };
    keep_settings(s, base)
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
                "fabric_two_level" => ("36", ""),
                "ring" => ("6", "2"),
                "fabric_parallel" => ("4", "4"),
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
        ("fabric_fat_tree".into(), "fabric: 3-level fat tree (k-ary)".into()),
        ("fabric_two_level".into(), "fabric: 2-level fat tree (K-port switches)".into()),
        ("ring".into(), "fabric: ring of switches".into()),
        ("fabric_parallel".into(), "fabric: two switches, parallel cables".into()),
    ];
    let (a_label, a_help, b_label) = match shape.as_str() {
        "two_switch" => (
            "L (local sources)",
            "Sources on B sending to BC; a victim AV -> BV runs throughout.",
            Some("R (remote sources)"),
        ),
        "parking_lot" => ("Switches", "A line of switches, one source on each, all sending to D past the last.", None),
        "fat_tree" => ("k", "Pods and ports per switch (even): k^3/4 hosts; all outside pod 0 send to h0.", None),
        "fabric_fat_tree" => ("k", "Ports per switch (even, 4 to 16): k^3/4 hosts at 100 Gb/s, no flows yet.", None),
        "fabric_two_level" => {
            ("K", "Ports per switch (even, 4 to 48): K^2/2 hosts on K leaves under K/2 spines, no flows yet.", None)
        }
        "fabric_parallel" => (
            "Cables",
            "Cables between the two switches (1 to 16), drawn as one link with their count; no flows yet.",
            Some("Hosts per switch"),
        ),
        _ => ("Switches", "Switches in a ring (3 to 64), each with its hosts, no flows yet.", Some("Hosts per switch")),
    };
    html! {
        <details class="generate" data-testid="generate-section">
            <summary>{ "Generate a network" }</summary>
            <Choice id="generate-shape" label="Shape" help="Keeps the current congestion control and run settings."
                options={options} value={(*shape).clone()} on_change={on_shape} />
            <NumberField id="generate-a" label={a_label} unit="" help={a_help} value={(*a).clone()} error={None::<AttrValue>} on_change={set(&a)} />
            if let Some(label) = b_label {
                <NumberField id="generate-b" label={label} unit=""
                    help={if *shape == "ring" || *shape == "fabric_parallel" { "1 to 16" } else { "Sources on A sending to BC across the inter-switch link." }}
                    value={(*b).clone()} error={None::<AttrValue>} on_change={set(&b)} />
            }
            if let Some(e) = &*error {
                <p class="error" role="alert" data-testid="generate-error">{ e }</p>
            }
            <button onclick={on_click} data-testid="generate">{ "Generate" }</button>
        </details>
    }
}
