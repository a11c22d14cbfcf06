//! The Results tab: the paper's numbers next to this run's (for a preset as published), then per group throughput
//! and fairness, the busiest links and each flow, all over the measurement interval as far as the run has reached
//! it, and the packet totals since the start.

use super::super::document::{use_doc, Action, DocCtx, Same};
use super::live::use_live;
use crate::edit::Selection;
use ibcc_core::scenario::Scenario;
use ibcc_core::sim::{FlowResult, GroupResult, LinkResult, Results};
use std::rc::Rc;
use yew::prelude::*;

/// What the delay columns count (docs/model.md §9): the network's part alone, so a throttled flow's delay falls
/// while its throughput does too.
const STALL: &str = "Time in the measurement interval the link had a packet ready but no credit for it from the next \
                     buffer, with nothing else able to go. With several virtual lanes, each VL that waited is named \
                     beneath with its own wait: the link keeps sending on another VL meanwhile, though drawn blocked.";
const DELAY: &str = "Mean time from a packet's first bit leaving its host to its last bit arriving, over the packets \
                     delivered in the measurement interval. Time a packet waited at its source before it was sent \
                     (held back by its window, rate or congestion control) is not counted.";

/// The paper's numbers and this run's, for a preset that has them.
#[component]
pub fn PaperTable() -> Html {
    let live = use_live();
    let quiz = super::use_unanswered_exercise().is_some();
    // The paper's numbers stand beside the preset as published only (`session::paper_numbers`), also after a
    // marking change made during the run.
    let run = live.run_scenario.clone();
    let (published, edited) = *use_memo(run.as_ref().map(|r| Rc::as_ptr(r) as usize), move |_| {
        let preset = run.as_ref().and_then(|s| ibcc_core::presets::find(&s.name)).filter(|p| !p.reported.is_empty());
        let published = run.as_ref().is_some_and(|s| !crate::session::paper_numbers(s).is_empty());
        (published, preset.is_some() && !published)
    });
    let Some(f) = live.frame.as_ref().filter(|f| published && !f.frame.reported.is_empty()) else {
        return html! {
            if edited && live.frame.is_some() {
                <p class="muted" data-testid="paper-edited">{ "The paper's numbers are for this preset as published; this run's settings or measured interval differ from it, so they are not set beside it." }</p>
            }
        };
    };
    if quiz {
        return html! {
            <p class="muted" data-testid="paper-held-back">{ "The paper's numbers show here once you have answered the exercise." }</p>
        };
    }
    html! {
        <div class="table-scroll"><table class="results paper" data-testid="paper-vs-ours">
            <caption>{ "The paper's numbers and this run's" }</caption>
            <thead><tr><th scope="col">{ "measured" }</th><th scope="col">{ "paper" }</th><th scope="col">{ "this run" }</th></tr></thead>
            <tbody>
                for r in f.frame.reported.iter() {
                    <tr>
                        <td>{ &r.what }</td>
                        <td>{ &r.paper }</td>
                        <td data-testid="paper-ours">
                            { r.ours.map_or(String::from("not reached yet"), |x| format!("{:.1}%", 100.0 * x)) }
                            if let Some(ms) = r.so_far_ms {
                                <small class="so-far">{ format!(" so far, to {ms:.1} ms") }</small>
                            }
                        </td>
                    </tr>
                }
            </tbody>
        </table></div>
    }
}

/// The most flows the table lists (a fabric's pattern has thousands: a table of them all would take seconds to draw).
const FLOW_ROWS: usize = 200;

/// The flows table's title: how many, and how many of them it lists.
fn flows_title(n: usize) -> String {
    if n > FLOW_ROWS {
        format!("Flows ({n}; the first {FLOW_ROWS} listed)")
    } else {
        format!("Flows ({n})")
    }
}

#[derive(Properties, PartialEq)]
pub struct ResultsTableProps {
    /// Whether the Results tab is shown.
    pub shown: bool,
}

/// The run's results, passed on only while the tab is shown: a run's frames redraw these tables (hundreds of rows on
/// a large fabric) only when someone can see them, and they stay in the page, folded rows and all, while hidden.
#[component]
pub fn ResultsTable(p: &ResultsTableProps) -> Html {
    let live = use_live();
    let kept = use_mut_ref(|| None::<(Rc<Results>, f64, Rc<Vec<ibcc_view::names::Partial>>)>);
    if p.shown || kept.borrow().is_none() {
        let from_ns = live.run_scenario.as_ref().map_or(0.0, |s| s.measure.from_ns as f64);
        let ran = live.results.as_ref().zip(live.run_scenario.as_ref()).map(|(r, s)| ran_within(r, s));
        *kept.borrow_mut() = live.results.clone().map(|r| (r, from_ns, Rc::new(ran.unwrap_or_default())));
    }
    let shown = kept.borrow().clone();
    match shown {
        Some((results, from_ns, ran)) => html! { <Tables results={Same(results)} {from_ns} {ran} /> },
        None => html! { <p class="muted" data-testid="results-table">{ "No run yet." }</p> },
    }
}

/// What ran for only part of the measured interval, and what it had while it ran (a group as the tables show it).
fn ran_within(r: &Results, s: &Scenario) -> Vec<ibcc_view::names::Partial> {
    use crate::session::GroupRate;
    let shown = |g: &GroupResult| GroupRate::in_results(r, &g.name).shown(g.throughput_fraction);
    ibcc_view::names::partial_runs(r, s, shown, 5)
}

#[derive(Properties, PartialEq)]
struct TablesProps {
    results: Same<Results>,
    /// Where the run's measurement begins.
    from_ns: f64,
    /// What ran for part of the interval.
    ran: Rc<Vec<ibcc_view::names::Partial>>,
}

#[component]
fn Tables(p: &TablesProps) -> Html {
    let doc = use_doc();
    // An open exercise's value stays out of the tables until it is answered.
    // (With the links and groups that would give it away: `held::revealing`.)
    let held_back = super::use_held();
    let hidden_group = |g: &str| held_back.groups.iter().any(|h| h == g);
    let held = || html! { <td class="muted" data-testid="hidden-measure">{ super::HIDDEN }</td> };
    let r = &p.results.0;
    let colours = ibcc_view::palette::group_colours(&r.groups.iter().map(|g| g.name.as_str()).collect::<Vec<_>>());
    let colours: Vec<(String, String)> =
        r.groups.iter().zip(colours).map(|(g, c)| (g.name.clone(), crate::ui::theme::paint(c))).collect();
    let from_ns = p.from_ns;
    // Nothing measured yet: the run has not passed where measuring begins (or stopped there, at a deadlock).
    let before = r.measured_nothing();
    let stopped = r.deadlock.is_some();
    let not_yet = if stopped {
        format!(
            "nothing measured: the run stopped at {:.3} ms, and measuring starts at {:.1} ms",
            r.simulated_ns / 1e6,
            from_ns / 1e6
        )
    } else {
        format!("measuring starts at {:.1} ms", from_ns / 1e6)
    };
    let window = format!("{:.1} to {:.1} ms", r.measured_from_ns / 1e6, r.measured_to_ns / 1e6);
    // The busiest links, or those that waited longest for credit: in a fabric dozens of links run full, and the
    // congestion tree's links are not among the first eight (found in a walk).
    let by_stall = use_state(|| false);
    let mut links: Vec<_> = r.links.iter().filter(|l| l.data_packets > 0).collect();
    let key = |l: &LinkResult| if *by_stall { l.credit_stall_ns } else { l.utilization };
    ibcc_view::sorting::sort_by(&mut links, |a, b| key(b).total_cmp(&key(a)));
    let order = {
        let by_stall = by_stall.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            by_stall.set(select.value() == "stall");
        })
    };
    let which = if *by_stall { "Links waiting longest for credit" } else { "Busiest links" };
    let t = &r.totals;
    html! {
        <div class="results-panel" data-testid="results-table">
            <div class="table-scroll"><table class="results" data-testid="groups-table">
                <caption>
                    if before {
                        { format!("Groups: {not_yet}") }
                    } else {
                        { format!("Groups, measured from {window}") }
                    }
                </caption>
                <thead><tr><th scope="col">{ "group" }</th><th scope="col">{ "flows" }</th><th scope="col">{ "through\u{ad}put" }</th><th scope="col" title="Jain's fairness index among the group's flows">{ "Jain" }</th><th scope="col" title="marked ACKs received in the measurement interval">{ "marks" }</th><th scope="col" title={DELAY}>{ "delay (µs)" }</th></tr></thead>
                <tbody>
                    for g in &r.groups {
                        <tr data-testid={format!("group-{}", g.name)}>
                            // Flows with no group have a name here too, the plot's legend's.
                            <th scope="row">{ if g.name.is_empty() { ibcc_view::names::UNGROUPED } else { &g.name } }</th>
                            <td>{ g.flows }</td>
                            if hidden_group(&g.name) {
                                { held() }
                            } else if before {
                                // (Nothing measured: no 0.0% and a perfect Jain index for a run that never got there.)
                                <td>{ "-" }</td>
                            } else {
                                { group_throughput(r, g) }
                            }
                            // (Flows that sent nothing are not "perfectly fair": 0/0.)
                            <td>{ if before || g.throughput_fraction == 0.0 { String::from("-") } else { format!("{:.3}", g.jain_index) } }</td>
                            <td title={format!("{} over the whole run so far", g.marks)}>{ if before { String::from("-") } else { g.measured_marks.to_string() } }</td>
                            <td>{ g.mean_delay_ns.filter(|_| !before).map_or_else(|| String::from("-"), |d| format!("{:.1}", d / 1e3)) }</td>
                        </tr>
                    }
                </tbody>
            </table></div>
            // (A group that ran for a third of the interval reads a third of its rate: said beside the table.)
            for said in p.ran.iter().filter(|p| !hidden_group(&p.group)) {
                <p class="muted" data-testid={format!("ran-within-{}", said.key.replace(' ', "-"))}>{ &said.words }</p>
            }
            // (Found in a walk: a 4 Gb/s link at 100% beside the two flows crossing it at "50.3% sum".)
            if !before && crate::session::mixed_speeds(&doc.scenario) {
                <p class="muted" data-testid="mixed-speeds">{ "Links of different speeds: a group's throughput is a share of its flows' own source links, a link's utilization a share of that link, so they can differ for the same packets." }</p>
            }
            if before {
                // Nothing is measured yet: rows of 0.0% would contradict the links drawn busy.
                if stopped {
                    <p class="muted" data-testid="links-not-yet">{ "Busiest links: nothing measured. The plot shows each link's rate over the run." }</p>
                } else {
                    <p class="muted" data-testid="links-not-yet">{ format!("Busiest links: measured from {:.1} ms on. Until then the drawing shows each link's rate now.", from_ns / 1e6) }</p>
                }
            } else {
                <div class="table-scroll"><table class="results" data-testid="links-table">
                    <caption>
                        { format!("{which}, measured from {window} ") }
                        <select class="links-order" aria-label="Which links" onchange={order} data-testid="links-order">
                            <option value="busy" selected={!*by_stall}>{ "busiest first" }</option>
                            <option value="stall" selected={*by_stall}>{ "longest wait for credit first" }</option>
                        </select>
                    </caption>
                    <thead><tr><th scope="col">{ "link" }</th><th scope="col">{ "utilization" }</th><th scope="col" title="packets marked for the link in the measurement interval">{ "marks" }</th><th scope="col" title={STALL}>{ "credit stall (ms)" }</th></tr></thead>
                    <tbody>
                        for l in links.iter().take(8) {
                            <tr>
                                // (A long name may break after its arrow, and only there: an imported fabric's GUID
                                // names pushed the numbers out of the panel. Short ones stay on one line, and get no
                                // <wbr>: Chrome breaks at one even where white-space forbids it.)
                                if l.id.chars().count() > 20 {
                                    <th scope="row" class="link-id"><span>{ format!("{}->", l.from) }</span><wbr /><span>{ &l.to }</span></th>
                                } else {
                                    <th scope="row">{ &l.id }</th>
                                }
                                if held_back.links.contains(&l.id) {
                                    { held() }
                                } else {
                                    <td>{ format!("{:.1}%", 100.0 * l.utilization) }</td>
                                }
                                <td title={format!("{} over the whole run so far", l.marks)}>{ l.measured_marks }</td>
                                <td>
                                    { ms(l.credit_stall_ns) }
                                    for (vl, ns) in vl_stalls(l) {
                                        <span class="vl-stall" data-testid={format!("vl-stall-{}-{vl}", l.id)}>{ format!("VL {vl}: {}", ms(ns)) }</span>
                                    }
                                </td>
                            </tr>
                        }
                    </tbody>
                </table></div>
            }
            <details>
                <summary>{ flows_title(r.flows.len()) }</summary>
                <div class="table-scroll"><table class="results flows" data-testid="flows-table">
                    <thead><tr><th scope="col">{ "flow" }</th><th scope="col">{ "route" }</th><th scope="col">{ "group" }</th><th scope="col">{ "through\u{ad}put" }</th><th scope="col">{ "rate limit" }</th><th scope="col">{ "window" }</th><th scope="col" title="marked ACKs received in the measurement interval">{ "marks" }</th><th scope="col" title={DELAY}>{ "delay (µs)" }</th></tr></thead>
                    <tbody>
                        for fl in r.flows.iter().take(FLOW_ROWS) {
                            { flow_row(fl, &doc, &colours, hidden_group(&fl.group)) }
                        }
                    </tbody>
                </table></div>
            </details>
            <p class="totals" data-testid="totals">
                { format!("Since the start: injected {}, delivered {}, in flight {}, dropped {}, marked {}", t.injected_packets, t.delivered_packets, t.in_flight_packets, t.dropped_packets, t.marked_packets) }
                if let Some(acks) = t.ack_packets_sent {
                    { format!("; {acks} ACK packets for {} packets acknowledged", t.acks_delivered) }
                }
                if let Some(cn) = t.cn_packets_sent {
                    { format!("; {cn} CN packets") }
                }
            </p>
        </div>
    }
}

/// A group's throughput as the plot shows it: the sum of its flows' when they go to one host, their mean when they
/// go to many (a sum of hundreds of links' worth says nothing); the cell says which.
fn group_throughput(r: &Results, g: &GroupResult) -> Html {
    use crate::session::GroupRate;
    let rate = GroupRate::in_results(r, &g.name);
    let value = format!("{:.1}%", 100.0 * rate.shown(g.throughput_fraction));
    let (tag, title) = match rate {
        GroupRate::One => return html! { <td>{ value }</td> },
        GroupRate::Sum(n) => ("sum", format!("Sum of its {n} flows: they share one host's link")),
        GroupRate::Mean(n) => {
            ("mean", format!("Mean of its {n} flows, each on its own link (sum {:.1}%)", 100.0 * g.throughput_fraction))
        }
    };
    html! { <td {title}>{ value }{ " " }<span class="muted">{ tag }</span></td> }
}

/// A flow's row: its hosts and group in the open, and a click (or Enter on its name) selects it, as in the drawing.
/// `held`: the flow's group rate is what an open exercise asks for (its throughput and rate limit would add up to
/// it).
fn flow_row(fl: &FlowResult, doc: &DocCtx, colours: &[(String, String)], held: bool) -> Html {
    // The run's flows can differ from the document's after an edit: only a flow the network still has is selectable.
    let exists = doc.scenario.flows.iter().any(|f| f.id == fl.id);
    let selected = matches!(&doc.selection, Some(Selection::Flow(x)) if *x == fl.id);
    let select = {
        let (d, id) = (doc.dispatcher(), fl.id.clone());
        Callback::from(move |_: MouseEvent| {
            if exists {
                d.dispatch(Action::Show(Selection::Flow(id.clone())));
            }
        })
    };
    let colour = colours.iter().find(|(g, _)| *g == fl.group).map_or("", |(_, c)| c.as_str());
    let group = if fl.group.is_empty() { ibcc_view::names::UNGROUPED } else { &fl.group };
    html! {
        <tr class={classes!(exists.then_some("pick"), selected.then_some("selected"))} onclick={select} data-testid={format!("flow-row-{}", fl.id)}>
            <th scope="row">
                <button class="linklike" aria-pressed={selected.to_string()} disabled={!exists} data-testid={format!("flow-select-{}", fl.id)}>{ &fl.id }</button>
            </th>
            <td>{ format!("{}→{}", fl.src, fl.dst) }</td>
            <td><span class="swatch" style={format!("background:{colour}")} aria-hidden="true"></span>{ group }</td>
            if held {
                <td class="muted" data-testid="hidden-measure">{ super::HIDDEN }</td>
                <td class="muted">{ super::HIDDEN }</td>
            } else {
                <td>{ format!("{:.1}%", 100.0 * fl.throughput_fraction) }</td>
                <td>{ format!("{:.1}%", 100.0 * fl.rate_limit) }</td>
            }
            <td>{ fl.window.map_or_else(|| String::from("-"), |w| w.to_string()) }</td>
            <td title={format!("{} over the whole run so far", fl.marks)}>{ fl.measured_marks }</td>
            <td>{ fl.mean_delay_ns.map_or_else(|| String::from("-"), |d| format!("{:.1}", d / 1e3)) }</td>
        </tr>
    }
}

/// A time in ns as the tables' milliseconds.
fn ms(ns: f64) -> String {
    format!("{:.2}", ns / 1e6)
}

/// The VLs of link `l` to name beneath its credit stall, with their own stall: with several VLs the link can send on
/// one while another waits (drawn blocked, its own stall 0.00). None where they would only repeat the link's figure
/// (one VL waited, as long as the link did).
fn vl_stalls(l: &LinkResult) -> Vec<(usize, f64)> {
    let waited: Vec<(usize, f64)> =
        l.vl_credit_stall_ns.iter().copied().enumerate().filter(|&(_, ns)| ms(ns) != ms(0.0)).collect();
    match waited.as_slice() {
        [(_, ns)] if ms(*ns) == ms(l.credit_stall_ns) => Vec::new(),
        _ => waited,
    }
}
