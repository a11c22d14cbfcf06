//! Settings > Credit loops: whether the routes between all hosts can close a cycle of channel dependencies (a
//! credit loop, where packets waiting for credit wait on each other for ever), said in plain words and marked on
//! the drawing; before any run deadlocks on it. A worker of its own checks (`ToWorker::CreditLoop`).

use super::super::bridge::SimWorker;
use super::super::document::use_doc;
use super::{LoadCtx, LoadShown};
use crate::protocol::{FromWorker, ToWorker};
use ibcc_core::scenario::{LinkCycle, Scenario};
use std::rc::Rc;
use yew::prelude::*;

/// The answer in words: the loop's links in order, or that there is none.
fn said(found: &Option<(LinkCycle, u8)>) -> String {
    match found {
        None => String::from(
            "No credit loop: the routes between every pair of hosts form no cycle of links waiting on each other, \
             so they cannot deadlock.",
        ),
        Some((cycle, lane)) => {
            let mut path: Vec<&str> = cycle.iter().map(|(a, _)| a.as_str()).collect();
            path.extend(cycle.first().map(|(a, _)| a.as_str()));
            let on = if *lane > 0 { format!(" on VL {lane}") } else { String::new() };
            format!(
                "A credit loop{on}: {} ({} links). When every buffer along it is full, each packet waits for credit \
                 that only the next can free, and the traffic stops for good (a deadlock). updn with a root, or \
                 dfsssp with enough data VLs, routes without one. Red arrows on the network lead round it.",
                path.join(" → "),
                cycle.len()
            )
        }
    }
}

#[component]
pub fn CreditLoops() -> Html {
    let doc = use_doc();
    let shown = use_context::<LoadCtx>();
    // The answer, for the network it was worked out on.
    let answer = use_state(|| None::<(Rc<Scenario>, Result<(String, Vec<String>), String>)>);
    let on_check = {
        let (answer, shown, s) = (answer.clone(), shown.clone(), doc.scenario.clone());
        Callback::from(move |_| {
            let (answer, shown, on) = (answer.clone(), shown.clone(), s.clone());
            let reply = Callback::from(move |m: Result<FromWorker, String>| {
                let text = match m {
                    Ok(FromWorker::CreditLooped { found }) => found.map(|(found, notes)| {
                        let load = found.as_ref().map(|(_, _, load)| load.clone());
                        if let (Some(shown), Some(load)) = (&shown, load) {
                            // (The loop's channels: those its routes use, once each.)
                            let cycle =
                                load.routes.iter().enumerate().filter(|r| *r.1 > 0).map(|r| r.0 as u32).collect();
                            shown.set(Some(LoadShown {
                                on: on.clone(),
                                load: Rc::new(load),
                                counted: false,
                                always: false,
                                cycle: Some(cycle),
                            }));
                        }
                        (said(&found.map(|(cycle, lane, _)| (cycle, lane))), notes)
                    }),
                    Ok(_) => return,
                    Err(e) => Err(e),
                };
                answer.set(Some((on.clone(), text)));
            });
            SimWorker::ask(&ToWorker::CreditLoop { scenario: Box::new((*s).clone()) }, reply);
        })
    };
    let current = (*answer).clone().filter(|(on, _)| Rc::ptr_eq(on, &doc.scenario)).map(|(_, text)| text);
    // The answer comes in below the button, often below the panel's fold: brought into sight.
    let said_ref = use_node_ref();
    {
        let said_ref = said_ref.clone();
        use_effect_with(current.is_some(), move |_| {
            if let Some(el) = said_ref.cast::<web_sys::Element>() {
                super::scroll_into_view(&el);
            }
        });
    }
    html! {
        <details class="generate" data-testid="credit-loop-section">
            <summary>{ "Credit loops" }</summary>
            <p class="muted">{ "Looks for a cycle the routes between all hosts can close, under the routing engine, before a run deadlocks on it." }</p>
            <button onclick={on_check} data-testid="credit-loop-check">{ "Look for a credit loop" }</button>
            {
                match current {
                    Some(Ok((text, notes))) => html! {
                        <>
                            <p role="status" data-testid="credit-loop" ref={said_ref}>{ text }</p>
                            <super::pattern_tool::RoutingNotes notes={notes} />
                        </>
                    },
                    Some(Err(e)) => html! { <p class="error" role="alert" data-testid="credit-loop-error" ref={said_ref}>{ e }</p> },
                    None => html! {},
                }
            }
        </details>
    }
}
