//! Generators for common shapes: the papers' two-switch network for given L and R, a parking lot, a k-ary fat tree
//! with a hot spot; and fabrics as OpenSM would find them (a 3-level k-ary fat tree, a 2-level fat tree of K-port
//! switches, a leaf and spine of any size, a ring, two switches with parallel cables), routed by the scenario's routing engine and drawn in levels. A generated network keeps the
//! current scenario's congestion control and run settings.

use super::super::document::{use_doc, Action, Origin};
use super::super::fields::{Choice, NumberField};
use ibcc_core::fabric::{netfile, shapes, Fabric, Speed, Width};
use ibcc_core::presets::{fat_tree_hotspot, parking_lot, TwoSwitch};
use ibcc_core::scenario::{scenario_of, IbCcConfig, RoutingEngine, Scenario};
use yew::prelude::*;

/// A generated fabric's cables: 4x EDR, 100 Gb/s (the PFT paper's rate).
const CABLE: (Width, Speed) = (Width::X4, Speed::Edr);

/// The scenario of a generated fabric: its ibsim net file (what `ibcc fabric gen` writes) in the `fabric` block.
fn of_fabric(name: &str, f: Result<Fabric, shapes::GenerateError>, duration_ns: u64) -> Result<Scenario, String> {
    let f = f.map_err(|e| e.to_string())?;
    scenario_of(name, &netfile::write_net(&f), duration_ns).map_err(|e| e.to_string())
}

/// `s` with `base`'s congestion control and run settings: seed, packets, switches, links, virtual lanes, ACKs,
/// marking, sources, PFT, Annex A10 (its times rescaled to the new links if they were scaled to the old ones), the
/// measured interval (within the run), and OpenSM's routing engine with its
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
    // Annex A10's times as turning it on scaled them for the old network's links are scaled for the new one's (a
    // paper's 8 Gb/s times throttle a 100 Gb/s fabric's flows to a quarter); times of the user's own stay.
    let (was, now) = (base.fastest_host_link_gbps(), s.fastest_host_link_gbps());
    let (was, now) = (IbCcConfig::for_link_gbps(was), IbCcConfig::for_link_gbps(now));
    if let Some(c) = s.ib_cc.as_mut() {
        if (c.ird_unit_ps, c.ccti_timer) == (was.ird_unit_ps, was.ccti_timer) {
            (c.ird_unit_ps, c.ccti_timer) = (now.ird_unit_ps, now.ccti_timer);
        }
    }
    s.check().map_err(|e| e.to_string())?;
    Ok(s)
}

/// One size a shape asks for: its label, its help and its first value.
struct Field {
    label: &'static str,
    help: &'static str,
    value: &'static str,
}

const fn field(label: &'static str, help: &'static str, value: &'static str) -> Field {
    Field { label, help, value }
}

/// The shapes, in the menu's order: their value, their name, and the sizes each asks for.
const SHAPES: [(&str, &str, &[Field]); 8] = [
    (
        "two_switch",
        "two switches (INFOCOM'03 Fig. 1)",
        &[
            field("L (local sources)", "Sources on B sending to BC; a victim AV -> BV runs throughout.", "5"),
            field("R (remote sources)", "Sources on A sending to BC across the inter-switch link.", "1"),
        ],
    ),
    (
        "parking_lot",
        "parking lot",
        &[field("Switches", "A line of switches, one source on each, all sending to D past the last.", "4")],
    ),
    (
        "fat_tree",
        "fat tree with a hot spot",
        &[field("k", "Pods and ports per switch (even): k^3/4 hosts; all outside pod 0 send to h0.", "4")],
    ),
    (
        "fabric_fat_tree",
        "fabric: 3-level fat tree (k-ary)",
        &[field("k", "Ports per switch (even, 4 to 16): k^3/4 hosts at 100 Gb/s, no flows yet.", "4")],
    ),
    (
        "fabric_two_level",
        "fabric: 2-level fat tree (K-port switches)",
        &[field(
            "K",
            "Ports per switch (even, 4 to 48): K^2/2 hosts on K leaves under K/2 spines, no flows yet.",
            "36",
        )],
    ),
    (
        "fabric_leaf_spine",
        "fabric: leaf and spine of any size",
        &[
            field("Leaves", "1 to 64 leaf switches, no flows yet (the PFT paper's 120 nodes: 10, 12, 6, 2).", "10"),
            field("Hosts per leaf", "1 to 64; at most 2,048 hosts in all.", "12"),
            field("Spines", "1 to 32 spine switches.", "6"),
            field("Cables per leaf and spine", "1 to 8, drawn as one link with their count.", "2"),
        ],
    ),
    (
        "ring",
        "fabric: ring of switches",
        &[
            field("Switches", "Switches in a ring (3 to 64), each with its hosts, no flows yet.", "6"),
            field("Hosts per switch", "1 to 16", "2"),
        ],
    ),
    (
        "fabric_parallel",
        "fabric: two switches, parallel cables",
        &[
            field(
                "Cables",
                "Cables between the two switches (1 to 16), drawn as one link with their count; no flows yet.",
                "4",
            ),
            field("Hosts per switch", "1 to 16", "4"),
        ],
    ),
];

/// The sizes `shape` asks for.
fn fields(shape: &str) -> &'static [Field] {
    SHAPES.iter().find(|(v, ..)| *v == shape).map_or(&[], |(_, _, f)| f)
}

/// The new network, with `base`'s settings; `Err` names the bad size.
fn generate(shape: &str, v: &[String], base: &Scenario) -> Result<Scenario, String> {
    let at = |i: usize| v.get(i).map_or("", String::as_str);
    // (An error names the size as its field is labelled.)
    let what = |i: usize| fields(shape).get(i).map_or("a size", |f| f.label);
    let num = |i: usize, max: u32| -> Result<u32, String> {
        match at(i).trim().parse::<u32>() {
            Ok(v) if v >= 1 && v <= max => Ok(v),
            _ => Err(format!("{} must be a whole number from 1 to {max}", what(i))),
        }
    };
    let even = |i: usize, max: u32| -> Result<u32, String> {
        match num(i, max)? {
            k if k % 2 == 0 && k >= 4 => Ok(k),
            _ => Err(format!("{} must be even, from 4 to {max}", what(i))),
        }
    };
    let d = base.duration_ns;
    let s = match shape {
        "two_switch" => {
            let (l, r) = (num(0, 64)?, num(1, 64)?);
            TwoSwitch { remote: r, local: l, stagger_ns: 100_000, victim: Some((0, None)), dynamic: None }
                .scenario(&format!("two-switch L={l} R={r}"), base.duration_ns)
        }
        "parking_lot" => {
            let n = num(0, 32)?;
            parking_lot(n, &format!("parking lot of {n}"), base.duration_ns)
        }
        "fat_tree" => {
            let k = num(0, 8)?;
            if k % 2 == 1 || k < 4 {
                return Err(String::from("k must be even, from 4 to 8"));
            }
            fat_tree_hotspot(k, &format!("fat tree k={k} hot spot"), base.duration_ns)
        }
        "fabric_fat_tree" => {
            let k = even(0, 16)?;
            of_fabric(&format!("fat tree fabric k={k}"), shapes::fat_tree(k, CABLE), d)?
        }
        "fabric_two_level" => {
            let k = even(0, 48)?;
            of_fabric(&format!("two-level fat tree of {k}-port switches"), shapes::two_level(k, CABLE), d)?
        }
        "fabric_leaf_spine" => {
            let (leaves, hosts, spines, cables) = (num(0, 64)?, num(1, 64)?, num(2, 32)?, num(3, 8)?);
            if leaves * hosts > 2048 {
                return Err(format!(
                    "{leaves} leaves of {hosts} hosts is {} hosts: the page draws at most 2,048",
                    leaves * hosts
                ));
            }
            let shape = shapes::LeafSpine { leaves, hosts, spines, cables };
            let cables = if cables == 1 { String::from("1 cable") } else { format!("{cables} cables") };
            let name = format!("{leaves} leaves of {hosts} hosts under {spines} spines, {cables} each");
            of_fabric(&name, shapes::leaf_spine(shape, CABLE), d)?
        }
        "fabric_parallel" => {
            let (c, h) = (num(0, 16)?, num(1, 16)?);
            of_fabric(&format!("two switches joined by {c} cables"), shapes::parallel(c, h, CABLE), d)?
        }
        _ => {
            let (n, h) = (num(0, 64)?, num(1, 16)?);
            if n < 3 {
                return Err(String::from("a ring needs 3 switches or more"));
            }
            of_fabric(&format!("ring of {n} switches"), shapes::ring(n, h, CABLE), d)?
        }
    };
    keep_settings(s, base)
}

/// The first values of `shape`'s sizes.
fn first_values(shape: &str) -> Vec<String> {
    fields(shape).iter().map(|f| f.value.to_owned()).collect()
}

#[component]
pub fn Generate() -> Html {
    let doc = use_doc();
    let shape = use_state(|| String::from("two_switch"));
    let values = use_state(|| first_values("two_switch"));
    let error = use_state(|| None::<String>);
    let on_shape = {
        let (shape, values) = (shape.clone(), values.clone());
        Callback::from(move |v: String| {
            values.set(first_values(&v));
            shape.set(v);
        })
    };
    let on_value = |i: usize| {
        let values = values.clone();
        Callback::from(move |v: String| {
            let mut next = (*values).clone();
            if let Some(slot) = next.get_mut(i) {
                *slot = v;
            }
            values.set(next);
        })
    };
    let on_click = {
        let (shape, values, error, base, d) =
            (shape.clone(), values.clone(), error.clone(), doc.scenario.clone(), doc.dispatcher());
        Callback::from(move |_| match generate(&shape, &values, &base) {
            Ok(s) => {
                error.set(None);
                let origin = Origin::Generated(s.name.clone());
                d.dispatch(Action::Load { next: Box::new(s), origin });
            }
            Err(e) => error.set(Some(e)),
        })
    };
    let options: Vec<(AttrValue, AttrValue)> =
        SHAPES.iter().map(|(v, name, _)| ((*v).into(), (*name).into())).collect();
    let ids = ["generate-a", "generate-b", "generate-c", "generate-d"];
    html! {
        <details class="generate" data-testid="generate-section">
            <summary>{ "Generate a network" }</summary>
            <Choice id="generate-shape" label="Shape" help={format!("Keeps the current congestion control and run settings ({}); change them in Settings after.", crate::moments::run_times(&doc.scenario))}
                options={options} value={(*shape).clone()} on_change={on_shape} />
            { for fields(&shape).iter().zip(ids).enumerate().map(|(i, (f, id))| html! {
                <NumberField id={id} label={f.label} unit="" help={f.help}
                    value={values.get(i).cloned().unwrap_or_default()} error={None::<AttrValue>} on_change={on_value(i)} />
            }) }
            if let Some(e) = &*error {
                <p class="error" role="alert" data-testid="generate-error">{ e }</p>
            }
            <button onclick={on_click} data-testid="generate">{ "Generate" }</button>
        </details>
    }
}
