//! The parameters panel: marking, source response, switch, run, PFT and Annex A10 settings of the current scenario.
//! Each setting's name, unit, help and choices come from the settings registry (`ibcc_view::settings`); a setting
//! chosen from a list is set by its path, through the core (`Scenario::with_settings`, which adds the companion
//! settings a choice needs). Each edit makes a new scenario, checked by the core's validation; a bad value is
//! refused next to its field (the scenario and the run stay as they were), a good one replaces the scenario, and
//! the run follows it (see `playground/live.rs`: a marking change applies from the moment it is made, anything else
//! makes a new run).

use super::document::Same;
use super::fields::{Choice, NumberField};
use crate::number::whole;
use ibcc_core::cc::ibcc::IbCcConfig;
use ibcc_core::scenario::{AckCoalescing, RoutingEngine, Scenario, Transport, VirtualLanes};
use ibcc_view::settings::{self, Setting};
use serde_json::Value;
use std::collections::BTreeMap;
use std::rc::Rc;
use yew::prelude::*;

/// The registry's entry for `path` (every path the panel shows has one; `settings`' tests check the format takes
/// each one's choices, and the browser tests find the panel's fields by their registered labels).
fn setting(path: &str) -> &'static Setting {
    settings::find(path).expect("the panel shows registered settings")
}

/// A numeric setting: how the panel shows it and how it applies a typed value (`None`: the field was left empty).
struct Num {
    id: &'static str,
    path: &'static str,
    /// The unit the panel shows it in, when it converts the stored value (ms for ns), and its label then.
    shown: Option<(&'static str, &'static str)>,
    get: fn(&Scenario) -> String,
    set: fn(&mut Scenario, Option<f64>) -> Result<(), &'static str>,
}

/// A setting chosen from a list: by its path, with the registry's choices; or one of the panel's own that sets
/// several fields at once (PFT's strategy; every flow's transport), with its own choices.
struct Pick {
    id: &'static str,
    path: &'static str,
    own: Option<Own>,
}

/// A choice the panel makes of several fields.
struct Own {
    options: &'static [(&'static str, &'static str)],
    get: fn(&Scenario) -> &'static str,
    set: fn(&mut Scenario, &str),
}

const fn pick(id: &'static str, path: &'static str) -> Pick {
    Pick { id, path, own: None }
}

fn required(v: Option<f64>) -> Result<f64, &'static str> {
    v.ok_or("a value is needed")
}

/// A whole number that fits a `u32` setting; a larger one is left for validation to refuse by name (no wrap-around).
fn whole_u32(v: f64) -> Result<u32, &'static str> {
    whole(v).map(|x| x.min(u64::from(u32::MAX)) as u32)
}

/// A refusal of field `f`'s value in the words and unit the field shows: a build limit is stated for the number as
/// typed and in the field's unit ("99999999999 packets is over this build's limit of 1024 packets"), not for the
/// stored value (clamped to 4294967295, or in nanoseconds).
fn in_field_units(f: &Num, e: &ibcc_core::scenario::ScenarioError, typed: &str, unit: &str) -> String {
    use ibcc_core::scenario::Problem;
    match e.problem {
        Problem::LimitExceeded { limit, .. } if e.field == f.path => {
            // The panel's ms fields are stored in ns.
            let limit = if unit == "ms" { (limit as f64 / 1e6).to_string() } else { limit.to_string() };
            let unit = if unit.is_empty() { String::new() } else { format!(" {unit}") };
            format!("{typed}{unit} is over this build's limit of {limit}{unit}")
        }
        // Shown as Rmax's divisor, stored as its inverse.
        Problem::OutOfRange(_) if e.field == f.path && f.id == "r-min-divisor" => {
            String::from("must be more than 1 and at most 65536")
        }
        // (The scenario file's "no limit" is null; here it is an empty field.)
        _ if e.field == f.path => e.problem.to_string().replace(", or null for", ", or empty for"),
        // Another setting stands in the way (a shorter run than where measuring starts): named, to change first.
        _ => match settings::find(e.field) {
            Some(other) => format!("'{}' {}: change it first", other.label, e.problem),
            None => e.to_string(),
        },
    }
}

fn opt_u32(v: Option<u32>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

/// A setting's value as the registry's choices name it (`"true"`/`"false"` for yes or no).
fn choice_value(s: &Scenario, path: &str) -> String {
    // (A mechanism on or off: its word, not its block.)
    if let Some(&block) = ibcc_core::scenario::BLOCKS.iter().find(|&&b| b == path) {
        return s.block_word(block).to_owned();
    }
    match s.setting(path) {
        Some(Value::String(v)) => v,
        Some(Value::Bool(b)) => b.to_string(),
        // A scenario without a routing block routes as the format's default engine.
        None if path == "routing.engine" => {
            ibcc_core::scenario::to_value(&RoutingEngine::default()).as_str().unwrap_or("").into()
        }
        _ => String::new(),
    }
}

const MARKING: &[Pick] = &[
    pick("marking-policy", "marking.policy"),
    pick("full-check", "marking.full_check"),
    pick("cnt1-until", "marking.cnt1_until"),
];

const MARKING_NUM: &[Num] = &[Num {
    id: "output-threshold",
    path: "marking.output_threshold_packets",
    shown: None,
    get: |s| opt_u32(s.marking.output_threshold_packets),
    set: |s, v| {
        s.marking.output_threshold_packets = v.map(whole_u32).transpose()?;
        Ok(())
    },
}];

const SOURCE: &[Pick] = &[
    pick("response", "source.response"),
    pick("rate-mode", "source.rate"),
    pick("persistent", "source.persistent_state"),
    Pick {
        id: "transport",
        path: "flows[].transport",
        own: Some(Own {
            options: &[
                ("reliable", "reliable (ACKs)"),
                ("unreliable", "unreliable (CN packets)"),
                ("mixed", "as each flow says"),
            ],
            get: |s| {
                let reliable = s.flows.iter().filter(|f| f.transport == Transport::Reliable).count();
                match (reliable, s.flows.len()) {
                    (r, n) if r == n => "reliable",
                    (0, _) => "unreliable",
                    _ => "mixed",
                }
            },
            set: |s, v| {
                let transport = match v {
                    "reliable" => Transport::Reliable,
                    "unreliable" => Transport::Unreliable,
                    _ => return,
                };
                for f in &mut s.flows {
                    f.transport = transport;
                }
            },
        }),
    },
];

const SOURCE_NUM: &[Num] = &[
    Num {
        id: "window",
        path: "source.window_packets",
        shown: None,
        get: |s| opt_u32(s.source.window_packets),
        set: |s, v| {
            s.source.window_packets = v.map(whole_u32).transpose()?;
            Ok(())
        },
    },
    Num {
        id: "r-min-divisor",
        path: "source.r_min_fraction",
        // Shown as the divisor of Rmax (256 for InfiniBand's IPD table), stored as the fraction.
        shown: Some(("Rmin = Rmax /", "")),
        get: |s| format!("{}", (1.0 / s.source.r_min_fraction * 1000.0).round() / 1000.0),
        set: |s, v| {
            s.source.r_min_fraction = 1.0 / required(v)?;
            Ok(())
        },
    },
    Num {
        id: "m",
        path: "source.m",
        shown: None,
        get: |s| s.source.m.to_string(),
        set: |s, v| {
            s.source.m = required(v)?;
            Ok(())
        },
    },
    Num {
        id: "fixed-rate",
        path: "source.fixed_rate_fraction",
        shown: None,
        get: |s| s.source.fixed_rate_fraction.to_string(),
        set: |s, v| {
            s.source.fixed_rate_fraction = required(v)?;
            Ok(())
        },
    },
    Num {
        id: "ack-every",
        path: "ack_coalescing.every_packets",
        shown: None,
        get: |s| opt_u32(s.ack_coalescing.map(|a| a.every_packets)),
        set: |s, v| {
            s.ack_coalescing = v.map(whole_u32).transpose()?.map(|every_packets| AckCoalescing { every_packets });
            Ok(())
        },
    },
];

/// The id of updn's roots field (after the prefix).
const ROOTS_ID: &str = "updn-roots";

const NETWORK: &[Pick] = &[
    pick("routing-engine", "routing.engine"),
    pick("bypass-counting", "switch.bypass_counting"),
    pick("arbitration", "switch.arbitration"),
];

const NETWORK_NUM: &[Num] = &[
    Num {
        id: "buffer",
        path: "switch.buffer_packets",
        shown: None,
        get: |s| s.switch.buffer_packets.to_string(),
        set: |s, v| {
            s.switch.buffer_packets = whole_u32(required(v)?)?;
            Ok(())
        },
    },
    Num {
        id: "data-vls",
        path: "virtual_lanes.data_vls",
        shown: None,
        get: |s| s.virtual_lanes.as_ref().map(|v| v.data_vls.to_string()).unwrap_or_default(),
        set: |s, v| {
            let Some(v) = v else {
                s.virtual_lanes = None;
                return Ok(());
            };
            let n = whole(v)?.min(255) as u8;
            let vl = s.virtual_lanes.get_or_insert_with(|| VirtualLanes {
                data_vls: 1,
                sl_to_vl: Vec::new(),
                arbitration: Default::default(),
            });
            vl.data_vls = n;
            Ok(())
        },
    },
    Num {
        id: "max-bypass",
        path: "switch.max_bypass",
        shown: None,
        get: |s| s.switch.max_bypass.to_string(),
        set: |s, v| {
            s.switch.max_bypass = whole_u32(required(v)?)?;
            Ok(())
        },
    },
    Num {
        id: "input-transfers",
        path: "switch.input_transfers",
        shown: None,
        get: |s| opt_u32(s.switch.input_transfers),
        set: |s, v| {
            s.switch.input_transfers = v.map(whole_u32).transpose()?;
            Ok(())
        },
    },
    Num {
        id: "duration",
        path: "duration_ns",
        shown: Some(("Duration", "ms")),
        get: |s| (s.duration_ns as f64 / 1e6).to_string(),
        set: |s, v| {
            s.duration_ns = whole((required(v)? * 1e6).round())?;
            Ok(())
        },
    },
    Num {
        id: "measure-from",
        path: "measure.from_ns",
        shown: Some(("Measure from", "ms")),
        get: |s| (s.measure.from_ns as f64 / 1e6).to_string(),
        set: |s, v| {
            s.measure.from_ns = whole((required(v)? * 1e6).round())?;
            Ok(())
        },
    },
    Num {
        id: "measure-to",
        path: "measure.to_ns",
        shown: Some(("Measure until", "ms")),
        get: |s| s.measure.to_ns.map(|t| (t as f64 / 1e6).to_string()).unwrap_or_default(),
        set: |s, v| {
            s.measure.to_ns = v.map(|v| whole((v * 1e6).round())).transpose()?;
            Ok(())
        },
    },
    // The plot's averaging: the papers' 2 ms suits a 100 ms run, not a 2 ms one.
    Num {
        id: "measure-window",
        path: "measure.window_ns",
        shown: Some(("Rate window", "ms")),
        get: |s| (s.measure.window_ns as f64 / 1e6).to_string(),
        set: |s, v| {
            s.measure.window_ns = whole((required(v)? * 1e6).round())?;
            Ok(())
        },
    },
    Num {
        id: "seed",
        path: "seed",
        shown: None,
        get: |s| s.seed.to_string(),
        set: |s, v| {
            s.seed = whole(required(v)?)?;
            Ok(())
        },
    },
];

// (PFT's and Annex A10's choices are the words `Scenario::with_settings` switches them by: turned on, A10's times are
// scaled to the network's links, and the papers' marking and response it replaces are turned off.)
const EXTRA: &[Pick] = &[pick("pft", "pft"), pick("ib-cc", "ib_cc")];

/// One of Annex A10's numbers: field `$field` of the scenario's `ib_cc`, a whole number made its type by `$into`.
macro_rules! a10_num {
    ($id:literal, $field:ident, $into:expr) => {
        Num {
            id: $id,
            path: concat!("ib_cc.", stringify!($field)),
            shown: None,
            get: |s| s.ib_cc.as_ref().map(|c| c.$field.to_string()).unwrap_or_default(),
            set: |s, v| {
                a10(s)?.$field = $into(whole(required(v)?)?)?;
                Ok(())
            },
        }
    };
}

fn at_most_u16(x: u64) -> Result<u16, &'static str> {
    u16::try_from(x).map_err(|_| "must be at most 65535")
}

/// Annex A10's numbers (shown while it is on). (The threshold past 255 is left for validation to refuse as past 15.)
const IB_CC_NUM: &[Num] = &[
    a10_num!("a10-threshold", threshold, |x: u64| Ok::<u8, &'static str>(x.min(255) as u8)),
    a10_num!("a10-marking-rate", marking_rate, at_most_u16),
    a10_num!("a10-ccti-increase", ccti_increase, at_most_u16),
    a10_num!("a10-ccti-timer", ccti_timer, at_most_u16),
    a10_num!("a10-ird-unit", ird_unit_ps, Ok::<u64, &'static str>),
];

/// One of the table's numbers (`ib_cc.cct.entries`, `ib_cc.cct.max_multiplier`), set by path as a sweep sets it
/// (`Scenario::with_settings`: the table is made again with the others kept).
macro_rules! cct_num {
    ($id:literal, $path:literal, $range:literal) => {
        Num {
            id: $id,
            path: $path,
            shown: None,
            get: |s| s.setting($path).map(|v| v.to_string()).unwrap_or_default(),
            set: |s, v| {
                let v = Value::from(whole(required(v)?)?);
                *s = s.with_settings(&BTreeMap::from([($path.to_owned(), v)])).map_err(|_| $range)?;
                Ok(())
            },
        }
    };
}

/// Annex A10's table's shape, and by it the table's numbers (shown while it is on).
const CCT_SHAPE: Pick = pick("a10-cct-shape", "ib_cc.cct.shape");
/// The table's numbers, when it has a shape.
const CCT_NUM: &[Num] = &[
    cct_num!("a10-cct-entries", "ib_cc.cct.entries", "must be a whole number from 1 to 1024"),
    cct_num!("a10-cct-max", "ib_cc.cct.max_multiplier", "must be a whole number from 0 to 131064"),
];

/// The scenario's Annex A10 block, to change one of its numbers.
fn a10(s: &mut Scenario) -> Result<&mut IbCcConfig, &'static str> {
    s.ib_cc.as_mut().ok_or("turn Annex A10 on first")
}

#[derive(Properties)]
pub struct ParamsProps {
    pub scenario: Rc<Scenario>,
    /// A new, valid scenario.
    pub on_change: Callback<Scenario>,
    /// Prefix of the fields' ids, so two panels can share a page (the A/B comparison's B).
    #[prop_or_default]
    pub prefix: AttrValue,
    /// Why a setting (by path) cannot be changed now, if it cannot (an open exercise fixes it).
    #[prop_or_default]
    pub locked: Option<Callback<&'static str, Option<String>>>,
}

/// The scenario compared by address (`Same`): a large fabric's is not compared field by field each render.
impl PartialEq for ParamsProps {
    fn eq(&self, o: &Self) -> bool {
        Rc::ptr_eq(&self.scenario, &o.scenario)
            && self.on_change == o.on_change
            && self.prefix == o.prefix
            && self.locked == o.locked
    }
}

#[component]
pub fn ParamsPanel(p: &ParamsProps) -> Html {
    // Text of fields whose last edit was refused, with the reason.
    let drafts = use_state(BTreeMap::<&'static str, (String, String)>::new);
    let pick_error = use_state(|| None::<String>);
    let keys = use_state(|| false);
    // A preset or an accepted edit replaces the scenario: drafts of the old one no longer apply.
    {
        let (drafts, pick_error) = (drafts.clone(), pick_error.clone());
        use_effect_with(Same(p.scenario.clone()), move |_| {
            drafts.set(BTreeMap::new());
            pick_error.set(None);
        });
    }
    let lock = |path: &'static str| p.locked.as_ref().and_then(|l| l.emit(path)).map(AttrValue::from);
    let num_field = |f: &'static Num| {
        let entry = setting(f.path);
        let (label, unit) = f.shown.unwrap_or((entry.label, entry.unit));
        let (scenario, on_change, edits) = (p.scenario.clone(), p.on_change.clone(), drafts.clone());
        let on_edit = Callback::from(move |text: String| {
            let trimmed = text.trim();
            let value = if trimmed.is_empty() {
                Ok(None)
            } else {
                crate::number::parse(trimmed).map(Some).ok_or("not a number")
            };
            let mut next = (*scenario).clone();
            let outcome = value
                .and_then(|v| (f.set)(&mut next, v).map(|()| next.with_companions(&scenario)))
                .map_err(String::from)
                .and_then(|next| next.check().map(|()| next).map_err(|e| in_field_units(f, &e, trimmed, unit)));
            let mut d = (*edits).clone();
            match outcome {
                Ok(next) => {
                    d.remove(f.id);
                    edits.set(d);
                    on_change.emit(next);
                }
                Err(message) => {
                    // Said, so that a run started now is not taken for one with the refused value.
                    let kept = match (f.get)(&scenario) {
                        k if k.is_empty() => String::from("none"),
                        k if unit.is_empty() => k,
                        k => format!("{k} {unit}"),
                    };
                    d.insert(f.id, (text, format!("{message}. Not applied: still {kept}")));
                    edits.set(d);
                }
            }
        });
        let (value, error) = match drafts.get(f.id) {
            Some((text, message)) => (text.clone(), Some(AttrValue::from(message.clone()))),
            None => ((f.get)(&p.scenario), None),
        };
        let help = if crate::sweep_plan::unused_link_default(&p.scenario, f.path) {
            "Every link of this network has its own (its cables'): this default, for links without one, changes \
             nothing here."
        } else {
            entry.help
        };
        html! {
            <NumberField id={format!("{}{}", p.prefix, f.id)} {label} {unit} {help} value={value} error={error} on_change={on_edit} path={f.path}
                locked={lock(f.path)} />
        }
    };
    let pick_field = |f: &'static Pick| {
        let entry = setting(f.path);
        let (scenario, on_change, pick_error) = (p.scenario.clone(), p.on_change.clone(), pick_error.clone());
        let on_pick = Callback::from(move |v: String| {
            let next = match &f.own {
                Some(own) => {
                    let mut next = (*scenario).clone();
                    (own.set)(&mut next, &v);
                    let next = next.with_companions(&scenario);
                    next.check().map(|()| next).map_err(|e| e.to_string())
                }
                None => {
                    let value = entry.choice(&v).map_or(Value::Null, settings::Choice::json);
                    scenario.with_settings(&BTreeMap::from([(f.path.to_owned(), value)]))
                }
            };
            match next {
                Ok(next) => on_change.emit(next),
                Err(e) => pick_error.set(Some(format!("{}: {e}", entry.label))),
            }
        });
        let (options, value): (Vec<(AttrValue, AttrValue)>, String) = match &f.own {
            Some(own) => {
                let options = own.options.iter().map(|&(v, l)| (AttrValue::from(v), AttrValue::from(l))).collect();
                (options, (own.get)(&p.scenario).to_owned())
            }
            None => {
                let mut options: Vec<(AttrValue, AttrValue)> =
                    entry.choices.iter().map(|c| (AttrValue::from(c.value), AttrValue::from(c.label))).collect();
                let value = choice_value(&p.scenario, f.path);
                // (A value none of the choices name, as a CCT of the file's own entries: said, not shown as the
                // first choice.)
                if !entry.choices.iter().any(|c| c.value == value) {
                    options.insert(0, (AttrValue::from(""), AttrValue::from("(the file's own)")));
                }
                (options, value)
            }
        };
        html! {
            <Choice id={format!("{}{}", p.prefix, f.id)} label={entry.label} help={entry.help} options={options} value={value} on_change={on_pick} path={f.path}
                locked={lock(f.path)} />
        }
    };
    // updn's root switches (OpenSM's -a / root_guid_file): by name, found as OpenSM finds them when empty. A list, so
    // not in the settings registry of numbers and choices; shown while updn routes.
    let roots_field = {
        let (scenario, on_change, edits) = (p.scenario.clone(), p.on_change.clone(), drafts.clone());
        let on_edit = Callback::from(move |text: String| {
            let mut next = (*scenario).clone();
            next.routing.roots =
                text.split([',', ' ']).map(str::trim).filter(|r| !r.is_empty()).map(String::from).collect();
            let mut d = (*edits).clone();
            match next.check() {
                Ok(()) => {
                    d.remove(ROOTS_ID);
                    edits.set(d);
                    on_change.emit(next);
                }
                Err(e) => {
                    d.insert(ROOTS_ID, (text, e.to_string()));
                    edits.set(d);
                }
            }
        });
        let (value, error) = match drafts.get(ROOTS_ID) {
            Some((text, message)) => (text.clone(), Some(AttrValue::from(message.clone()))),
            None => (p.scenario.routing.roots.join(", "), None),
        };
        html! {
            if p.scenario.routing.engine == RoutingEngine::Updn {
                <NumberField id={format!("{}{ROOTS_ID}", p.prefix)} label="updn root switches" unit="" text=true
                    help="The switches updn routes up to and down from, by name, separated by commas (OpenSM's -a). Empty: found as OpenSM finds them, the switches from which nearly every host is the same number of hops away (a fat tree's top switches); a ring has none."
                    placeholder="found as OpenSM finds them" {value} {error} on_change={on_edit} on_commit_only=true
                    path="routing.roots" locked={lock("routing.engine")} />
            }
        }
    };
    let toggle_keys = {
        let keys = keys.clone();
        Callback::from(move |_: Event| keys.set(!*keys))
    };
    // The scenario's name and description: what a teacher's link, its exercise card and the line under the
    // transport say it is (they change no run). The A/B comparison's variants are not named.
    let naming = p.prefix.is_empty().then(|| {
        let set = |f: fn(&mut Scenario, String)| {
            let (scenario, on_change) = (p.scenario.clone(), p.on_change.clone());
            move |text: String| {
                let mut next = (*scenario).clone();
                f(&mut next, text.trim().to_owned());
                if next != *scenario {
                    on_change.emit(next);
                }
            }
        };
        let on_name = Callback::from(set(|s, t| s.name = t));
        let describe = set(|s, t| s.description = t);
        let on_description =
            Callback::from(move |e: Event| describe(e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value()));
        html! {
            <details data-testid="naming">
                <summary>{ "Name and description" }</summary>
                <NumberField id="scenario-name" label="Name" unit="" text=true on_commit_only=true
                    help="What the scenario is called in its file, its share link and an exercise made from it."
                    value={p.scenario.name.clone()} error={None::<AttrValue>} on_change={on_name} />
                <div class="field">
                    <label for="scenario-description">{ "Description" }</label>
                    <textarea id="scenario-description" rows="4" value={p.scenario.description.clone()}
                        onchange={on_description} data-testid="input-scenario-description" />
                    <small>{ "Shown under the controls to whoever opens it: what it is, and what to watch." }</small>
                </div>
            </details>
        }
    });
    html! {
        <aside class={classes!("params", (!*keys).then_some("hide-keys"))} aria-label="Parameters" data-testid={format!("{}params", p.prefix)}>
            // Students read the settings in words; the scenario's keys (for files, sweeps and the command line)
            // are there for whoever asks.
            <label class="keys-toggle">
                <input type="checkbox" checked={*keys} onchange={toggle_keys} data-testid={format!("{}show-keys", p.prefix)} />
                { " Show each setting's key in files" }
            </label>
            if let Some(e) = &*pick_error {
                <p class="error" role="alert">{ e }</p>
            }
            <details open=true>
                <summary>{ "ECN marking" }</summary>
                { for MARKING.iter().map(pick_field) }
                { for MARKING_NUM.iter().map(num_field) }
            </details>
            <details open=true>
                <summary>{ "Source response" }</summary>
                { for SOURCE.iter().map(pick_field) }
                { for SOURCE_NUM.iter().map(num_field) }
            </details>
            <details>
                <summary>{ "Network and run" }</summary>
                { for NETWORK.iter().map(pick_field) }
                { roots_field }
                { for NETWORK_NUM.iter().map(num_field) }
            </details>
            <details>
                <summary>{ "PFT and Annex A10" }</summary>
                { for EXTRA.iter().map(pick_field) }
                if let Some(c) = &p.scenario.ib_cc {
                    { a10_scale(&p.scenario, c, &p.on_change, lock("ib_cc").is_some()) }
                    { for IB_CC_NUM.iter().map(num_field) }
                    { pick_field(&CCT_SHAPE) }
                    if c.cct_shape().is_none() {
                        <p class="muted" data-testid="a10-cct-own">{ format!("The table has {} entries of its own (from the file): a shape replaces them.", c.cct.len()) }</p>
                    } else {
                        { for CCT_NUM.iter().map(num_field) }
                    }
                }
            </details>
            { naming }
        </aside>
    }
}

/// Whether Annex A10's times suit the network's links, and if not a button that scales them (the defaults are for
/// the papers' 8 Gb/s links; `IbCcConfig::for_link_gbps`).
fn a10_scale(s: &Rc<Scenario>, c: &IbCcConfig, on_change: &Callback<Scenario>, locked: bool) -> Html {
    let gbps = s.fastest_host_link_gbps();
    let scaled = IbCcConfig::for_link_gbps(gbps);
    let rate = ibcc_view::plot::tick(gbps);
    if (c.ird_unit_ps, c.ccti_timer) == (scaled.ird_unit_ps, scaled.ccti_timer) {
        return html! {
            <p class="muted" data-testid="a10-scaled">{ format!("Times scaled to the {rate} Gb/s host links: a CCT unit of 64 bytes' time, and the CCTI timer as many packets' time as the papers' 50 at 8 Gb/s.") }</p>
        };
    }
    let apply = {
        let (s, on_change) = (s.clone(), on_change.clone());
        Callback::from(move |_: MouseEvent| {
            let mut next = (*s).clone();
            if let Some(c) = next.ib_cc.as_mut() {
                (c.ird_unit_ps, c.ccti_timer) = (scaled.ird_unit_ps, scaled.ccti_timer);
            }
            if next.check().is_ok() {
                on_change.emit(next);
            }
        })
    };
    html! {
        <div class="notice" data-testid="a10-unscaled">
            <p>{ format!("On these {rate} Gb/s host links, 64 bytes take {} ps, and the papers' CCTI timer of 50 at 8 Gb/s is {} here; this scenario has {} ps and {}.", scaled.ird_unit_ps, scaled.ccti_timer, c.ird_unit_ps, c.ccti_timer) }</p>
            <button onclick={apply} disabled={locked} data-testid="a10-scale">{ format!("Use {} ps and {}", scaled.ird_unit_ps, scaled.ccti_timer) }</button>
        </div>
    }
}
