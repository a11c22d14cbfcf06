//! The selected node, link or flow: its properties, edited in place (a value is applied when the field is left or
//! Enter is pressed, and refused next to the field if the network cannot have it), its live figures, and the
//! keyboard's way to build: link a node to another, add a flow from a host, delete.

use super::super::document::{use_doc, Action};
use super::super::fields::{Choice, NumberField};
use super::live::use_live;
use super::route_trace::RouteTo;
use crate::edit::{self, Selection};
use ibcc_core::scenario::{NodeKind, RoutingEngine, Scenario, SwitchOverride, Traffic, Transport};
use ibcc_core::sim::Results;
use std::rc::Rc;
use yew::prelude::*;

/// How a typed value changes the scenario: `Err` says why it cannot.
type Apply = Rc<dyn Fn(&Scenario, &str) -> Result<Scenario, String>>;

fn number(text: &str) -> Result<Option<f64>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    crate::number::parse(t).map(Some).ok_or_else(|| format!("{t:?} is not a number"))
}

fn whole(text: &str) -> Result<Option<u64>, String> {
    match number(text)? {
        None => Ok(None),
        Some(v) => crate::number::whole(v).map(Some).map_err(String::from),
    }
}

/// A value the page refused: (the selection, the field's id, the text typed, why).
type Refused = (Option<Selection>, AttrValue, String, String);

fn checked(s: &Scenario, f: impl FnOnce(&mut Scenario)) -> Result<Scenario, String> {
    let mut next = s.clone();
    f(&mut next);
    next.check().map_err(|e| in_words(&e))?;
    Ok(next)
}

/// `checked`, for a number typed in a field shown in `unit`: a build limit is stated for the number as typed, in that
/// unit ("Start 200000 ms is over this build's limit of 100000 ms"), not for the value stored (in ns, or clamped).
fn checked_as(s: &Scenario, typed: &str, unit: &str, f: impl FnOnce(&mut Scenario)) -> Result<Scenario, String> {
    use ibcc_core::scenario::Problem;
    let mut next = s.clone();
    f(&mut next);
    next.check().map_err(|e| match (label(&e), &e.problem) {
        (Some(label), Problem::LimitExceeded { limit, .. }) => {
            let per = match unit {
                "ms" => 1e6,
                "µs" => 1e3,
                _ => 1.0,
            };
            format!("{label} {} {unit} is over this build's limit of {} {unit}", typed.trim(), *limit as f64 / per)
        }
        _ => in_words(&e),
    })?;
    Ok(next)
}

/// A refusal of a node's, link's or flow's own field named as this card labels it ("Stop must be after the flow's
/// start…"), not as the file does (`flow "victim" (flows[6]), field stop_ns: …`); anything else as the file says it.
fn in_words(e: &ibcc_core::scenario::ScenarioError) -> String {
    use ibcc_core::scenario::Problem;
    match (label(e), &e.problem) {
        (Some(label), Problem::BufferSmallerThanPacket) => format!("{label} must hold at least one data packet"),
        (Some(label), problem) => format!("{label} {problem}"),
        (None, _) => e.to_string(),
    }
}

/// The card's label of the field `e` refuses, if it is one of the card's.
fn label(e: &ibcc_core::scenario::ScenarioError) -> Option<&'static str> {
    use ibcc_core::scenario::Element;
    Some(match (&e.element, e.field) {
        (Element::Flow { .. }, "start_ns") => "Start",
        (Element::Flow { .. }, "stop_ns") => "Stop",
        (Element::Flow { .. }, "sl") => "Service level",
        (Element::Flow { .. }, "group") => "Group",
        (Element::Link { .. }, "bandwidth_gbps") => "Bandwidth",
        (Element::Link { .. }, "propagation_ns") => "Propagation delay",
        (Element::Node { .. }, "switch.buffer_packets" | "buffer_packets") => "Input buffer size",
        (Element::Node { .. }, "switch.forwarding_delay_ns" | "forwarding_delay_ns") => "Forwarding delay",
        _ => return None,
    })
}

struct Field {
    id: AttrValue,
    label: AttrValue,
    unit: &'static str,
    help: &'static str,
    value: String,
    placeholder: String,
    apply: Apply,
}

fn node_fields(s: &Scenario, id: &str) -> Vec<Field> {
    let Some(n) = s.nodes.iter().find(|n| n.id == id) else { return Vec::new() };
    let old = id.to_owned();
    let mut fields = vec![Field {
        id: "sel-id".into(),
        label: "Name".into(),
        unit: "",
        help: "Its id; links and flows follow a rename.",
        value: n.id.clone(),
        placeholder: String::new(),
        apply: Rc::new(move |s, v| edit::rename_node(s, &old, v).map_err(|r| r.0)),
    }];
    if n.kind == NodeKind::Switch {
        let o = n.switch.unwrap_or_default();
        let (a, b) = (id.to_owned(), id.to_owned());
        let set = |s: &mut Scenario, id: &str, f: &dyn Fn(&mut SwitchOverride)| {
            if let Some(n) = s.nodes.iter_mut().find(|n| n.id == id) {
                let mut o = n.switch.unwrap_or_default();
                f(&mut o);
                n.switch = (o != SwitchOverride::default()).then_some(o);
            }
        };
        fields.push(Field {
            id: "sel-buffer".into(),
            label: "Input buffer size".into(),
            unit: "packets",
            help: "Per input port; empty: the network's setting.",
            value: o.buffer_packets.map(|v| v.to_string()).unwrap_or_default(),
            placeholder: s.switch.buffer_packets.to_string(),
            apply: Rc::new(move |s, v| {
                let w = whole(v)?.map(|x| x.min(u64::from(u32::MAX)) as u32);
                checked_as(s, v, "packets", |n| set(n, &a, &|o| o.buffer_packets = w))
            }),
        });
        fields.push(Field {
            id: "sel-forwarding".into(),
            label: "Forwarding delay".into(),
            unit: "ns",
            help: "Head arrival to earliest departure (cut-through); empty: the network's setting.",
            value: o.forwarding_delay_ns.map(|v| v.to_string()).unwrap_or_default(),
            placeholder: s.switch.forwarding_delay_ns.to_string(),
            apply: Rc::new(move |s, v| {
                let w = whole(v)?;
                checked_as(s, v, "ns", |n| set(n, &b, &|o| o.forwarding_delay_ns = w))
            }),
        });
    }
    fields
}

/// With several VLs, each VL's weight in link `i`'s arbitration (its low-priority table): the link's own, or the
/// network's as the placeholder; emptied, the network's again (`edit::set_vl_weight`).
fn vl_weight_fields(s: &Scenario, i: usize) -> Vec<Field> {
    let Some(w) = edit::vl_weights(s, i) else { return Vec::new() };
    (0..w.network.len())
        .map(|vl| Field {
            id: format!("sel-vl-weight-{vl}").into(),
            label: format!("VL {vl} weight").into(),
            unit: "blocks",
            help: "64-byte blocks this VL may send per turn of the link's VL arbitration (InfiniBand), 0 to 255, at \
                   both ends; empty: the network's.",
            value: w.own.as_ref().map(|own| own[vl].to_string()).unwrap_or_default(),
            placeholder: w.network[vl].to_string(),
            apply: Rc::new(move |s, v| edit::set_vl_weight(s, i, vl as u8, whole(v)?).map_err(|r| r.0)),
        })
        .collect()
}

fn link_fields(s: &Scenario, i: usize) -> Vec<Field> {
    let Some(l) = s.links.get(i) else { return Vec::new() };
    let mut fields = vec![
        Field {
            id: "sel-bandwidth".into(),
            label: "Bandwidth".into(),
            unit: "Gb/s",
            help: "Each direction; empty: the network's setting.",
            value: l.bandwidth_gbps.map(|v| v.to_string()).unwrap_or_default(),
            placeholder: s.link.bandwidth_gbps.to_string(),
            apply: Rc::new(move |s, v| {
                let v = number(v)?;
                checked(s, |n| n.links[i].bandwidth_gbps = v)
            }),
        },
        Field {
            id: "sel-propagation".into(),
            label: "Propagation delay".into(),
            unit: "ns",
            help: "Head leaving one end to reaching the other; empty: the network's setting.",
            value: l.propagation_ns.map(|v| v.to_string()).unwrap_or_default(),
            placeholder: s.link.propagation_ns.to_string(),
            apply: Rc::new(move |s, v| {
                let w = whole(v)?;
                checked_as(s, v, "ns", |n| n.links[i].propagation_ns = w)
            }),
        },
    ];
    fields.extend(vl_weight_fields(s, i));
    fields
}

fn flow_fields(s: &Scenario, id: &str) -> Vec<Field> {
    let Some(f) = s.flows.iter().find(|f| f.id == id) else { return Vec::new() };
    let at = s.flows.iter().position(|f| f.id == id).unwrap_or(0);
    let us = |ns: u64| (ns as f64 / 1000.0).to_string();
    let (on, off) = match f.traffic {
        Traffic::Greedy => (String::new(), String::new()),
        Traffic::OnOff { mean_on_ns, mean_off_ns } => (us(mean_on_ns), us(mean_off_ns)),
    };
    // Start and stop in ms, as the timeline and the run's settings; ON/OFF periods (tens of µs) in µs.
    let ms = |ns: u64| (ns as f64 / 1e6).to_string();
    let scaled = |v: &str, ns_per_unit: f64| -> Result<Option<u64>, String> {
        match number(v)?.map(|x| (x * ns_per_unit).round()) {
            Some(x) if x < 0.0 => Err(String::from("must not be negative")),
            // (Past this, validation's limit refuses it, in the field's unit: `checked_as`.)
            x => Ok(x.map(|x| if x < 9.0e15 { x as u64 } else { u64::MAX })),
        }
    };
    let to_ns = move |v: &str| scaled(v, 1e3);
    let ms_to_ns = move |v: &str| scaled(v, 1e6);
    let on_off = move |s: &Scenario, on: Option<u64>, off: Option<u64>| {
        checked(s, |n| {
            let (cur_on, cur_off) = match n.flows[at].traffic {
                Traffic::OnOff { mean_on_ns, mean_off_ns } => (mean_on_ns, mean_off_ns),
                Traffic::Greedy => (0, 0),
            };
            let (on, off) = (on.unwrap_or(cur_on), off.unwrap_or(cur_off));
            n.flows[at].traffic = if on == 0 && off == 0 {
                Traffic::Greedy
            } else {
                Traffic::OnOff { mean_on_ns: on.max(1), mean_off_ns: off.max(1) }
            };
        })
    };
    vec![
        Field {
            id: "sel-group".into(),
            label: "Group".into(),
            unit: "",
            help: "Flows of a group are added up in the plots and results (remote, local, victim…).",
            value: f.group.clone(),
            placeholder: String::new(),
            apply: Rc::new(move |s, v| checked(s, |n| n.flows[at].group = v.trim().to_owned())),
        },
        Field {
            id: "sel-sl".into(),
            label: "Service level".into(),
            unit: "",
            help: "0 to 15: the network's SL-to-VL table gives the virtual lane its packets use (set Data VLs in the \
                   network's parameters for more than one).",
            value: f.sl.to_string(),
            placeholder: String::from("0"),
            apply: Rc::new(move |s, v| {
                let v = whole(v)?.unwrap_or(0).min(255) as u8;
                checked(s, |n| n.flows[at].sl = v)
            }),
        },
        Field {
            id: "sel-start".into(),
            label: "Start".into(),
            unit: "ms",
            help: "When it begins to send.",
            value: ms(f.start_ns),
            placeholder: String::from("0"),
            apply: Rc::new(move |s, v| {
                let ns = ms_to_ns(v)?.unwrap_or(0);
                checked_as(s, v, "ms", |n| n.flows[at].start_ns = ns)
            }),
        },
        Field {
            id: "sel-stop".into(),
            label: "Stop".into(),
            unit: "ms",
            help: "When it stops; empty: at the end of the run.",
            value: f.stop_ns.map(ms).unwrap_or_default(),
            placeholder: String::from("end"),
            apply: Rc::new(move |s, v| {
                let ns = ms_to_ns(v)?;
                checked_as(s, v, "ms", |n| n.flows[at].stop_ns = ns)
            }),
        },
        Field {
            id: "sel-on".into(),
            label: "Mean ON period".into(),
            unit: "µs",
            help: "ON/OFF traffic (INFOCOM'03 §VI-B.2): exponential ON and OFF periods. Empty both: greedy.",
            value: on,
            placeholder: String::from("greedy"),
            apply: Rc::new(move |s, v| on_off(s, Some(to_ns(v)?.unwrap_or(0)), None)),
        },
        Field {
            id: "sel-off".into(),
            label: "Mean OFF period".into(),
            unit: "µs",
            help: "Silent periods between ON periods.",
            value: off,
            placeholder: String::from("greedy"),
            apply: Rc::new(move |s, v| on_off(s, None, Some(to_ns(v)?.unwrap_or(0)))),
        },
    ]
}

/// A flow's transport (the HP slides' table): reliable, or unreliable with CN packets. A refusal (a hybrid source
/// needs a window) shows under it, like a refused field's.
fn transport_choice(
    s: &Scenario,
    id: &str,
    dispatch: &UseReducerDispatcher<super::super::document::Doc>,
    refused: &UseStateHandle<Option<Refused>>,
    sel: &Selection,
) -> Html {
    let Some(at) = s.flows.iter().position(|f| f.id == id) else { return html! {} };
    let value = if s.flows[at].transport == Transport::Unreliable { "unreliable" } else { "reliable" };
    let on_change = {
        let (scenario, d, refused, sel) = (s.clone(), dispatch.clone(), refused.clone(), sel.clone());
        Callback::from(move |v: String| {
            let t = if v == "unreliable" { Transport::Unreliable } else { Transport::Reliable };
            match checked(&scenario, |n| n.flows[at].transport = t) {
                Ok(next) => {
                    refused.set(None);
                    d.dispatch(Action::Edit { next: Box::new(next), select: Some(sel.clone()), note: None });
                }
                Err(reason) => refused.set(Some((Some(sel.clone()), AttrValue::from("sel-transport"), v, reason))),
            }
        })
    };
    let error = match &**refused {
        Some((Some(rs), rid, _, reason)) if rs == sel && rid.as_str() == "sel-transport" => Some(reason.clone()),
        _ => None,
    };
    let options = vec![
        (AttrValue::from("reliable"), AttrValue::from("reliable: ACKs and a window")),
        (AttrValue::from("unreliable"), AttrValue::from("unreliable: no ACKs, CN packets for marks")),
    ];
    html! {
        <>
            <Choice id="sel-transport" label="Transport" options={options} value={value} on_change={on_change}
                help="The HP proposal's transports: an unreliable flow has no ACKs and no window; a marked packet brings a CN packet back, and each packet sent counts as an unmarked ACK." />
            if let Some(e) = error {
                <p class="error" role="alert" data-testid="transport-refused">{ e }</p>
            }
        </>
    }
}

/// What the selection does now, in the run shown.
fn live_figures(s: &Scenario, sel: &Selection, f: &crate::session::Frame, r: &Results) -> Option<String> {
    match sel {
        Selection::Flow(id) => {
            let i = s.flows.iter().position(|f| &f.id == id)?;
            let snap = f.snapshot.flows.get(i)?;
            // (Its throughput is the measurement's, not the moment's: a flow stopped now keeps what it had. Before
            // measuring starts there is none, as the Results tab says, not 0.0%.)
            let measured = if !r.measured_nothing() {
                let fr = r.flows.get(i)?;
                format!("throughput {:.1}%, {} marks", 100.0 * fr.throughput_fraction, fr.marks)
            } else {
                format!("nothing yet (it starts at {} ms)", ibcc_view::plot::tick(s.measure.from_ns as f64 / 1e6))
            };
            Some(format!(
                "Now: {}, rate limit {:.1}%, window {}, {} outstanding. Over the measurement: {measured}.",
                if snap.active { "sending" } else { "off" },
                100.0 * snap.rate_limit,
                snap.window.map_or(String::from("unlimited"), |w| w.to_string()),
                snap.outstanding,
            ))
        }
        Selection::Link(i) => {
            let (ab, ba) = (f.snapshot.links.get(2 * i)?, f.snapshot.links.get(2 * i + 1)?);
            let name = |c: usize| r.links.get(c).map_or(String::new(), |r| r.id.clone());
            Some(format!("Now: {} {:.1}%, {} {:.1}%.", name(2 * i), 100.0 * ab.rate, name(2 * i + 1), 100.0 * ba.rate))
        }
        Selection::Node(_) => None,
    }
}

#[derive(Properties, PartialEq)]
struct LiveFiguresProps {
    sel: Selection,
    /// What an open exercise asks for: held back.
    held: bool,
}

/// The selection's figures in the run shown: a component of its own, so that the run's frames redraw this line and
/// not the whole inspector.
#[component]
fn LiveFigures(p: &LiveFiguresProps) -> Html {
    let doc = use_doc();
    let live = use_live();
    let shown = live.drawable(&doc.scenario).zip(live.results.as_ref());
    let text = if p.held {
        Some(format!("Now: {}.", super::HIDDEN))
    } else {
        shown.and_then(|(f, r)| live_figures(&doc.scenario, &p.sel, &f.frame, r))
    };
    html! {
        if let Some(text) = text {
            <p class="live-figures" data-testid="selection-live">{ text }</p>
        }
    }
}

#[derive(Properties, PartialEq)]
struct ConnectProps {
    node: String,
}

/// Building with the keyboard: link the selected node to another, or add a flow from this host.
#[component]
fn Connect(p: &ConnectProps) -> Html {
    let doc = use_doc();
    let link_to = use_state(String::new);
    let s = &doc.scenario;
    let id = &p.node;
    let others: Vec<String> = s.nodes.iter().filter(|n| &n.id != id).map(|n| n.id.clone()).collect();
    let on_pick = {
        let link_to = link_to.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            link_to.set(select.value());
        })
    };
    let act = |flow: bool| {
        let (scenario, d, id, target) = (s.clone(), doc.dispatcher(), id.clone(), (*link_to).clone());
        Callback::from(move |_| {
            let made = if flow {
                edit::add_flow(&scenario, &id, &target).map(|(n, f)| (n, Selection::Flow(f)))
            } else {
                edit::add_link(&scenario, &id, &target).map(|n| (n.clone(), Selection::Link(n.links.len() - 1)))
            };
            match made {
                Ok((next, sel)) => d.dispatch(Action::Edit { next: Box::new(next), select: Some(sel), note: None }),
                Err(r) => d.dispatch(Action::Refuse { text: r.0, at: None }),
            }
        })
    };
    let is_host = s.nodes.iter().any(|n| &n.id == id && n.kind == NodeKind::Host);
    html! {
        <div class="field">
            <label for="connect-to">{ "Connect to" }</label>
            <div class="input-row">
                <select id="connect-to" onchange={on_pick} data-testid="connect-to">
                    <option value="" selected={link_to.is_empty()}>{ "choose a node" }</option>
                    for o in others {
                        <option value={o.clone()} selected={*link_to == o}>{ o.clone() }</option>
                    }
                </select>
                <button onclick={act(false)} data-testid="connect-link">{ "Link" }</button>
                if is_host {
                    <button onclick={act(true)} data-testid="connect-flow">{ "Flow" }</button>
                }
            </div>
        </div>
    }
}

#[component]
pub fn Inspector() -> Html {
    let doc = use_doc();
    let held_back = super::use_held();
    // The field whose last value was refused: (selection, field id, text, reason).
    let refused = use_state(|| None::<Refused>);
    let s = &doc.scenario;
    let dispatch = doc.dispatcher();
    let Some(sel) = doc.selection.clone() else {
        let flows = s.flows.iter().map(|f| {
            let (d, id) = (dispatch.clone(), f.id.clone());
            let onclick = Callback::from(move |_| d.dispatch(Action::Select(Some(Selection::Flow(id.clone())))));
            html! { <li><button class="linklike" {onclick} data-testid={format!("pick-flow-{}", f.id)}>{ format!("{}: {} → {}", f.id, f.src, f.dst) }</button></li> }
        });
        return html! {
            <section class="inspector" aria-label="Selection" data-testid="inspector">
                <h3>{ "Selection" }</h3>
                <p class="muted">{ "Click a node, link or flow on the canvas to see and edit it. Delete removes it; Ctrl+Z undoes." }</p>
                if !s.flows.is_empty() {
                    <details>
                        <summary>{ format!("Flows ({})", s.flows.len()) }</summary>
                        <ul class="flow-list">{ for flows }</ul>
                    </details>
                }
            </section>
        };
    };
    let (title, fields) = match &sel {
        Selection::Node(id) => {
            let kind = s.nodes.iter().find(|n| &n.id == id).map_or("node", |n| match n.kind {
                NodeKind::Switch => "Switch",
                NodeKind::Host => "Host",
            });
            (format!("{kind} {id}"), node_fields(s, id))
        }
        Selection::Link(i) => {
            let name = s.links.get(*i).map_or(String::new(), |l| format!("{} — {}", l.a, l.b));
            (format!("Link {name}"), link_fields(s, *i))
        }
        Selection::Flow(id) => {
            let name = s.flows.iter().find(|f| &f.id == id).map_or(String::new(), |f| format!("{} → {}", f.src, f.dst));
            (format!("Flow {id}: {name}"), flow_fields(s, id))
        }
    };
    let fields = fields.into_iter().map(|f| {
        let (scenario, d, refused_h, sel_now) = (s.clone(), dispatch.clone(), refused.clone(), sel.clone());
        let apply = f.apply.clone();
        let id = f.id.clone();
        let (was, unit, placeholder) = (f.value.clone(), f.unit, f.placeholder.clone());
        let on_commit = Callback::from(move |text: String| match apply(&scenario, &text) {
            Ok(next) => {
                refused_h.set(None);
                // A rename changes the selection's id.
                let select = match &sel_now {
                    Selection::Node(_) if id.as_str() == "sel-id" => Some(Selection::Node(text.trim().to_owned())),
                    other => Some(other.clone()),
                };
                d.dispatch(Action::Edit { next: Box::new(next), select, note: None });
            }
            Err(reason) => {
                // (Said, as Settings says it: the network keeps the value it had.)
                // (An empty field stands for the network's value, its placeholder: "still the network's 4 packets".)
                let kept = match (was.is_empty(), crate::number::parse(&placeholder)) {
                    (false, _) => format!("{was} {unit}"),
                    (true, Some(_)) => format!("the network's {placeholder} {unit}"),
                    (true, None) => format!("empty ({placeholder})"),
                };
                let kept = kept.trim_end();
                let reason = format!("{reason}. Not applied: still {kept}");
                refused_h.set(Some((Some(sel_now.clone()), id.clone(), text, reason)))
            }
        });
        let (value, error) = match &*refused {
            Some((Some(rs), rid, text, reason)) if *rs == sel && *rid == f.id => (text.clone(), Some(reason.clone())),
            _ => (f.value.clone(), None),
        };
        html! {
            <NumberField id={f.id} label={f.label} unit={f.unit} help={f.help} value={value} placeholder={f.placeholder}
                error={error.map(AttrValue::from)} on_change={on_commit} on_commit_only=true text={f.unit.is_empty()} />
        }
    });
    // (Not what an open exercise asks for: a flow of its group, or its link.)
    let held = match &sel {
        Selection::Flow(id) => s.flows.iter().any(|f| &f.id == id && held_back.groups.contains(&f.group)),
        Selection::Link(i) => s.links.get(*i).is_some_and(|l| {
            held_back.links.iter().any(|h| *h == format!("{}->{}", l.a, l.b) || *h == format!("{}->{}", l.b, l.a))
        }),
        _ => false,
    };
    let connect = match &sel {
        Selection::Node(id) if s.nodes.iter().any(|n| n.id == *id && n.kind == NodeKind::Host) => html! {
            <><Connect node={id.clone()} /><RouteTo from={id.clone()} /></>
        },
        Selection::Node(id) => html! { <Connect node={id.clone()} /> },
        Selection::Flow(id) => {
            let lane =
                s.flows.iter().find(|f| &f.id == id).filter(|_| s.data_vls() > 1).map(|f| match s.routing.engine {
                    RoutingEngine::Dfsssp => format!(
                        "dfsssp gives its packets the VL of its route's lane, one of the network's {} data VLs.",
                        s.data_vls()
                    ),
                    _ => format!("Its packets use VL {} of the network's {} data VLs.", s.vl_of(f), s.data_vls()),
                });
            html! {
                <>
                    if let Some(text) = lane {
                        <p class="muted" data-testid="flow-vl">{ text }</p>
                    }
                    { transport_choice(s, id, &dispatch, &refused, &sel) }
                </>
            }
        }
        Selection::Link(i) if s.data_vls() > 1 => {
            let a = s.vl_arbitration(*i);
            let mut notes = Vec::new();
            if edit::vl_weights(s, *i).is_none() {
                notes.push(format!(
                    "Its VL arbitration table has {} low-priority entries, not one per VL: edit it in the scenario file.",
                    a.low.len()
                ));
            }
            if !a.high.is_empty() {
                let vls: Vec<String> = a.high.iter().map(|e| format!("VL {} ({} blocks)", e.vl, e.weight)).collect();
                let limit = match a.high_limit {
                    255 => String::from("no limit"),
                    0 => String::from("one packet at a time while low priority waits"),
                    n => format!("{} bytes at a time while low priority waits", u32::from(n) * 4096),
                };
                notes.push(format!("High priority first: {}; {limit}.", vls.join(", ")));
            }
            html! { <>{ for notes.into_iter().map(|n| html! { <p class="muted" data-testid="link-vl-note">{ n }</p> }) }</> }
        }
        _ => html! {},
    };
    // A start at or past the run's end is valid (the run may be made longer) but sends nothing: said at the top of
    // the card, where it is seen, so that a flow silent in the results is not a mystery.
    let after_end = match &sel {
        Selection::Flow(id) => s.flows.iter().find(|f| &f.id == id).filter(|f| f.start_ns >= s.duration_ns).map(|f| {
            let ms = |ns: u64| ibcc_core::time::ms_text(ns.saturating_mul(ibcc_core::time::NS));
            format!(
                "It starts at {} ms, at or after the run's end at {} ms: it sends nothing in this run. Make the run \
                 longer (Settings, Network and run) or start it earlier.",
                ms(f.start_ns),
                ms(s.duration_ns)
            )
        }),
        _ => None,
    };
    let delete = {
        let d = dispatch.clone();
        Callback::from(move |_| d.dispatch(Action::DeleteSelected))
    };
    html! {
        <section class="inspector" aria-label="Selection" data-testid="inspector">
            <h3 data-testid="selection-title">{ title }</h3>
            if let Some(text) = after_end {
                <p class="notice" role="status" data-testid="flow-after-end">{ text }</p>
            }
            <LiveFigures sel={sel.clone()} {held} />
            { for fields }
            { connect }
            <button class="danger" onclick={delete} data-testid="delete-selection">{ "Delete" }</button>
        </section>
    }
}
