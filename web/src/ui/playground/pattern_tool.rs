//! The pattern tool (Settings > Traffic pattern): a shift, a random permutation, a bisection or all-to-all among
//! the network's hosts, routed by the scenario's engine; the drawing shows each link's routes (`LoadCtx`) and this
//! says the busiest. One click makes the pattern the scenario's flows, to run, or adds it to them (a hot spot over
//! a permutation of background flows). A worker of its own routes it (`ToWorker::Pattern`), off the page's main
//! thread.

use super::super::bridge::SimWorker;
use super::super::document::{use_doc, Action};
use super::super::fields::{Choice, NumberField};
use super::{LoadCtx, LoadShown};
use crate::protocol::{FromWorker, PatternLoad, ToWorker};
use ibcc_core::scenario::{NodeKind, Scenario, LIMITS};
use ibcc_core::sim::pattern_load;
use std::rc::Rc;
use yew::prelude::*;

/// The pattern as the worker reads it, or what is wrong with its number (the shift, or the hot spot's senders).
fn pattern(kind: &str, k: &str, hosts: usize) -> Result<String, String> {
    let number = |what: &str| match k.trim().parse::<usize>() {
        Ok(k) if k >= 1 && k < hosts => Ok(k),
        _ => Err(format!("{what} must be a whole number from 1 to {}", hosts.saturating_sub(1).max(1))),
    };
    match kind {
        "shift" => Ok(format!("shift:{}", number("the shift")?)),
        "hotspot" => Ok(format!("hotspot:{}", number("the number of senders")?)),
        other => Ok(other.to_owned()),
    }
}

/// The group a pattern's flows are in: a hot spot's are told apart from the background's (a colour of their own).
fn group(kind: &str) -> &'static str {
    if kind == "hotspot" {
        "hotspot"
    } else {
        "pattern"
    }
}

/// The busiest link direction's name (`a->b`) for channel `c` (link `c / 2`, `c % 2` the way back).
fn channel_name(s: &Scenario, c: usize) -> String {
    s.links.get(c / 2).map_or_else(String::new, |l| {
        if c % 2 == 0 {
            format!("{}->{}", l.a, l.b)
        } else {
            format!("{}->{}", l.b, l.a)
        }
    })
}

/// What the pattern does, in words.
fn summary(s: &Scenario, load: &PatternLoad) -> String {
    let busiest = load.routes.iter().enumerate().max_by_key(|&(c, &r)| (r, std::cmp::Reverse(c))).map(|(c, _)| c);
    let lost = if load.lost > 0 { format!(" {} pairs have no route.", load.lost) } else { String::new() };
    format!(
        "{} flows. Busiest link: {} route{} ({}); {:.2} on average over the links used. Each flow gets {:.*} of a \
         link on average (1 would be no sharing).{lost}",
        load.pairs.len(),
        load.max,
        if load.max == 1 { "" } else { "s" },
        busiest.map(|c| channel_name(s, c)).unwrap_or_default(),
        load.mean,
        // (Two significant digits at least: all-to-all on 648 hosts gives each flow 0.0015, not "0.00".)
        (1.0 - load.share.log10().floor()).clamp(2.0, 6.0) as usize,
        load.share,
    )
}

/// The most flows a scenario may hold.
fn flow_limit() -> usize {
    usize::try_from(LIMITS.flows).unwrap_or(usize::MAX)
}

/// Why a pattern of `pairs` flows cannot be made the flows of a scenario holding `flows`, or added to them (a
/// scenario holds at most `LIMITS.flows`): said before the click, which would build them all to be refused.
fn too_many(pairs: usize, flows: usize) -> Option<String> {
    let limit = flow_limit();
    if pairs > limit {
        Some(format!(
            "{pairs} flows are more than the {limit} a scenario may hold: its routes can be shown, not made flows. A \
             shift or a permutation gives one flow per host."
        ))
    } else if pairs + flows > limit {
        Some(format!(
            "With the scenario's {flows} flows these would be {}, more than the {limit} it may hold.",
            pairs + flows
        ))
    } else {
        None
    }
}

#[component]
pub fn PatternTool() -> Html {
    let doc = use_doc();
    let shown = use_context::<LoadCtx>();
    let kind = use_state(|| String::from("shift"));
    let hosts = doc.scenario.nodes.iter().filter(|n| n.kind == NodeKind::Host).count();
    let shift = use_state(|| String::from("1"));
    let senders = use_state(|| String::from("8"));
    let error = use_state(|| None::<String>);
    // The answer, with the network it was worked out on and the kind of pattern it is.
    let answer = use_state(|| None::<(Rc<Scenario>, Rc<PatternLoad>, String)>);
    // A change of the pattern takes away the routes of the one before: left standing beside another choice, they
    // read as its routes, and "Make these the flows" would have made the old pattern.
    let set = |h: &UseStateHandle<String>| {
        let (h, answer, shown) = (h.clone(), answer.clone(), shown.clone());
        Callback::from(move |v: String| {
            h.set(v);
            answer.set(None);
            if let Some(shown) = &shown {
                shown.set(None);
            }
        })
    };
    let on_show = {
        let (kind, shift, senders, error, answer, shown) =
            (kind.clone(), shift.clone(), senders.clone(), error.clone(), answer.clone(), shown.clone());
        let s = doc.scenario.clone();
        Callback::from(move |_| {
            let k = if *kind == "hotspot" { &senders } else { &shift };
            let p = match pattern(&kind, k, hosts) {
                Ok(p) => p,
                Err(e) => {
                    answer.set(None);
                    if let Some(shown) = &shown {
                        shown.set(None);
                    }
                    return error.set(Some(e));
                }
            };
            let (error, answer, shown, on, asked) =
                (error.clone(), answer.clone(), shown.clone(), s.clone(), (*kind).clone());
            let reply = Callback::from(move |m: Result<FromWorker, String>| match m {
                Ok(FromWorker::Patterned { load: Ok(load) }) => {
                    error.set(None);
                    let load = Rc::new(load);
                    if let Some(shown) = &shown {
                        shown.set(Some(LoadShown {
                            on: on.clone(),
                            load: load.clone(),
                            counted: true,
                            always: false,
                            cycle: None,
                        }));
                    }
                    answer.set(Some((on.clone(), load, asked.clone())));
                }
                Ok(FromWorker::Patterned { load: Err(e) }) | Err(e) => error.set(Some(e)),
                Ok(_) => {}
            });
            SimWorker::ask(&ToWorker::Pattern { scenario: Box::new((*s).clone()), pattern: p, seed: s.seed }, reply);
        })
    };
    // The answer holds for the network it was worked out on.
    let current = (*answer).clone().filter(|(on, _, _)| Rc::ptr_eq(on, &doc.scenario));
    // The pattern's flows instead of the scenario's, or added to them.
    let make_flows = |add: bool| {
        let (d, current) = (doc.dispatcher(), current.clone());
        Callback::from(move |_| {
            // In the group of the pattern worked out (a change of the menu takes the answer away).
            let Some((s, load, kind)) = &current else { return };
            let group = group(kind);
            let pairs: Vec<(usize, usize)> = load.pairs.iter().map(|&(a, b)| (a as usize, b as usize)).collect();
            let (next, note) = if add {
                (pattern_load::plus_flows(s, &pairs, group), format!("{} flows of the pattern added", pairs.len()))
            } else {
                (pattern_load::with_flows(s, &pairs, group), format!("{} flows of the pattern", pairs.len()))
            };
            d.dispatch(Action::Edit { next: Box::new(next), select: None, note: Some(note) });
        })
    };
    let on_hide = {
        let (answer, shown) = (answer.clone(), shown.clone());
        Callback::from(move |_| {
            answer.set(None);
            if let Some(shown) = &shown {
                shown.set(None);
            }
        })
    };
    let options: Vec<(AttrValue, AttrValue)> = vec![
        ("shift".into(), "shift: each host to the one K further on".into()),
        ("permutation".into(), "random permutation".into()),
        ("bisection".into(), "bisection: random halves, pairs both ways".into()),
        ("all_to_all".into(), "all-to-all".into()),
        ("hotspot".into(), "hot spot: K hosts all send to the first".into()),
    ];
    html! {
        <details class="generate" data-testid="pattern-section">
            <summary>{ "Traffic pattern" }</summary>
            <Choice id="pattern-kind" label="Pattern" help="Among the hosts in the order the network lists them; random ones drawn from the seed."
                options={options} value={(*kind).clone()} on_change={set(&kind)} />
            if *kind == "shift" {
                <NumberField id="pattern-shift" label="Shift by K" unit="hosts" help={format!("1 to {}: host i sends to host i + K.", hosts.saturating_sub(1))}
                    value={(*shift).clone()} error={None::<AttrValue>} on_change={set(&shift)} />
            }
            if *kind == "hotspot" {
                <NumberField id="pattern-senders" label="Senders K" unit="hosts" help={format!("1 to {}, spread evenly through the hosts, all sending to the first: added over background flows, it grows a congestion tree.", hosts.saturating_sub(1))}
                    value={(*senders).clone()} error={None::<AttrValue>} on_change={set(&senders)} />
            }
            if let Some(e) = &*error {
                <p class="error" role="alert" data-testid="pattern-error">{ e }</p>
            }
            <button onclick={on_show} data-testid="pattern-show">{ "Show its routes" }</button>
            if let Some((s, load, _)) = &current {
                <p role="status" data-testid="pattern-summary">{ summary(s, load) }</p>
                <RoutingNotes notes={load.notes.clone()} />
                <p class="muted">{ "On the drawing, each link is as wide as its routes, with their number." }</p>
                if let Some(why) = too_many(load.pairs.len(), s.flows.len()) {
                    <p class="error" data-testid="pattern-too-many">{ why }</p>
                }
                <div class="row">
                    <button onclick={make_flows(false)} disabled={load.pairs.len() > flow_limit()} data-testid="pattern-flows">{ "Make these the flows" }</button>
                    <button onclick={make_flows(true)} disabled={too_many(load.pairs.len(), s.flows.len()).is_some()} data-testid="pattern-add">{ "Add to the flows" }</button>
                    <button onclick={on_hide} data-testid="pattern-hide">{ "Hide the routes" }</button>
                </div>
            }
        </details>
    }
}

#[derive(Properties, PartialEq)]
pub struct NotesProps {
    pub notes: Vec<String>,
}

/// What the routing engine said of the network (updn's root switches, a fallback to minhop), in its words.
#[component]
pub fn RoutingNotes(p: &NotesProps) -> Html {
    html! {
        for n in &p.notes {
            <p class="muted" data-testid="routing-note">{ format!("Routing: {n}.") }</p>
        }
    }
}
