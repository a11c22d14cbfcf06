//! A host's route to another host, hop by hop as `ibtracert` prints it (each port the packet enters, with the LIDs
//! OpenSM's addressing gives), under the scenario's routing engine; the drawing marks the route (`LoadCtx`). A
//! worker of its own routes it (`ToWorker::Trace`), off the page's main thread.

use super::super::bridge::SimWorker;
use super::super::document::use_doc;
use super::{LoadCtx, LoadShown};
use crate::protocol::{FromWorker, ToWorker};
use ibcc_core::scenario::{NodeKind, Scenario};
use std::rc::Rc;
use yew::prelude::*;

/// A route asked for: on which network, from and to which hosts, and its text or why there is none.
type Answer = (Rc<Scenario>, String, String, Result<String, String>);

#[derive(Properties, PartialEq)]
pub struct RouteToProps {
    /// The host the route starts from.
    pub from: String,
}

#[component]
pub fn RouteTo(p: &RouteToProps) -> Html {
    let doc = use_doc();
    let shown = use_context::<LoadCtx>();
    let to = use_state(String::new);
    let answer = use_state(|| None::<Answer>);
    let s = doc.scenario.clone();
    let hosts: Vec<String> =
        s.nodes.iter().filter(|n| n.kind == NodeKind::Host && n.id != p.from).map(|n| n.id.clone()).collect();
    let on_pick = {
        let to = to.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            to.set(select.value());
        })
    };
    let on_trace = {
        let (to, answer, shown, s, from) = (to.clone(), answer.clone(), shown.clone(), s.clone(), p.from.clone());
        Callback::from(move |_| {
            let target = (*to).clone();
            if target.is_empty() {
                answer.set(Some((s.clone(), from.clone(), target, Err(String::from("choose the host it goes to")))));
                return;
            }
            let (answer, shown, on, from2, to2) =
                (answer.clone(), shown.clone(), s.clone(), from.clone(), target.clone());
            let reply = Callback::from(move |m: Result<FromWorker, String>| {
                let text = match m {
                    Ok(FromWorker::Traced { route }) => route.map(|(text, load)| {
                        if let Some(shown) = &shown {
                            shown.set(Some(LoadShown {
                                on: on.clone(),
                                load: Rc::new(load),
                                counted: true,
                                always: false,
                                cycle: None,
                            }));
                        }
                        text
                    }),
                    Ok(_) => return,
                    Err(e) => Err(e),
                };
                answer.set(Some((on.clone(), from2.clone(), to2.clone(), text)));
            });
            SimWorker::ask(
                &ToWorker::Trace { scenario: Box::new((*s).clone()), from: from.clone(), to: target },
                reply,
            );
        })
    };
    // An answer holds for its own network and hosts.
    let current = (*answer).clone().filter(|(on, from, _, _)| Rc::ptr_eq(on, &s) && *from == p.from);
    html! {
        <div class="field">
            <label for="route-to">{ "Route to" }</label>
            <div class="input-row">
                <select id="route-to" onchange={on_pick} data-testid="route-to">
                    <option value="" selected={to.is_empty()}>{ "choose a host" }</option>
                    for h in hosts {
                        <option value={h.clone()} selected={*to == h}>{ h.clone() }</option>
                    }
                </select>
                <button onclick={on_trace} data-testid="route-show">{ "Show" }</button>
            </div>
            <p class="muted">{ "Hop by hop, as ibtracert prints it, routed by the scenario's engine; the drawing marks it." }</p>
            { shown_route(current) }
        </div>
    }
}

fn shown_route(current: Option<Answer>) -> Html {
    match current {
        Some((_, from, target, Ok(text))) => html! {
            <pre class="tracert" data-testid="tracert" aria-label={format!("The route from {from} to {target}")}>{ text }</pre>
        },
        Some((_, _, _, Err(e))) => html! { <p class="error" role="alert" data-testid="route-error">{ e }</p> },
        None => html! {},
    }
}
