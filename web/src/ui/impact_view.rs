//! The congestion impact view (docs/gpcnet.md §5): GPCNeT's canary tests on the playground's network, isolated and
//! congested, under the mechanisms picked, in the browser's workers (one run per job, one worker per core), with
//! progress and a way to stop; the network shows the congestors' or the canaries' routes; then the distributions
//! (processes per bin) and GPCNeT's impact table with the PFT paper's FC.

use super::bridge::{wall_ms, SimWorker};
use super::chart::{Axes, Chart};
use super::document::{use_doc, Action, Origin};
use super::download::download_text;
use super::impact_run::{start, Form, ImpactAction, ImpactCtx, Job};
use super::playground::{LoadCtx, LoadShown, NetworkOnly};
use crate::impact_plan::{config_for, csv, histograms, offered, plan, rows, Row, PPORTS};
use crate::protocol::{FromWorker, PatternLoad, ToWorker};
use ibcc_core::scenario::Scenario;
use ibcc_core::workload::gpcnet::Canary;
use ibcc_core::workload::gpcnet::GpcnetConfig;
use ibcc_view::plot::YAxis;
use std::rc::Rc;
use yew::prelude::*;

/// The network's name for the status line: its scenario's name, or its hosts.
fn name_of(s: &Scenario) -> String {
    let hosts = ibcc_core::sim::congestion_impact::gpcnet_hosts(s).len();
    if s.name.is_empty() {
        format!("{hosts} hosts")
    } else {
        format!("{} ({hosts} hosts)", s.name)
    }
}

/// Processes above which a run is likely to take minutes and hundreds of megabytes in the page (GPCNeT's all-to-all
/// congestor alone gives every pair of its processes a flow each way).
const LARGE_RUN: usize = 2_000;

/// A figure as GPCNeT prints it (two decimals; bandwidths in MiB/s/rank, latencies in usec).
fn value(v: f64) -> String {
    format!("{v:.2}")
}

/// A row's factors unrounded (GPCNeT's are of figures rounded to 0.1: coarse for sub-microsecond latencies).
fn exact(i: &ibcc_core::sim::congestion_impact::CanaryImpact) -> String {
    let ratio = |iso, con| ibcc_core::workload::gpcnet::slowdown(i.canary, iso, con);
    let (f, g) = (&i.isolated.figures, &i.congested.figures);
    format!("unrounded {:.2} / {:.2}", ratio(f.avg, g.avg), ratio(f.p99, g.p99))
}

/// The table: one row per mechanism and canary test whose two runs are in.
fn table(j: &Job, (rows, fc): &(Vec<Row>, Vec<Option<f64>>), held: Option<Canary>) -> Html {
    if rows.is_empty() {
        return html! { <p class="muted" data-testid="impact-table-waits">{ "The table fills in as each test's isolated and congested runs are both in." }</p> };
    }
    let fc_of = |label: &str| {
        let m = j.plan.mechanisms.iter().position(|m| m.label == label);
        m.and_then(|m| fc[m]).map_or(String::from("–"), |f| format!("{f:.2}"))
    };
    html! {
        <>
        <table class="results impact-table" data-testid="impact-table">
            <thead>
                <tr>
                    <th>{ "mechanism" }</th><th>{ "canary test" }</th>
                    <th>{ "isolated avg / 99%" }</th><th>{ "congested avg / 99%" }</th>
                    <th>{ "impact avg / 99%" }</th><th title="the PFT paper's control factor against no control">{ "FC" }</th>
                </tr>
            </thead>
            <tbody>
                for r in rows.iter() {
                    <tr data-testid={format!("impact-row-{}-{}", r.mechanism, r.impact.canary.id())}>
                        <td>{ r.mechanism }</td>
                        <td>{ format!("{} ({})", r.impact.canary.id(), r.impact.canary.units()) }</td>
                        <td>{ format!("{} / {}", value(r.impact.isolated.figures.avg), value(r.impact.isolated.figures.p99)) }</td>
                        <td>{ format!("{} / {}", value(r.impact.congested.figures.avg), value(r.impact.congested.figures.p99)) }</td>
                        if held == Some(r.impact.canary) && r.mechanism == "no control" {
                            <td class="impact held" data-testid="impact-held">{ "hidden until you answer the lesson's exercise" }</td>
                        } else {
                            <td class="impact">
                                { format!("{:.1}X / {:.1}X", r.impact.impact_avg, r.impact.impact_p99) }
                                <small class="unrounded" data-testid="impact-unrounded">{ exact(&r.impact) }</small>
                            </td>
                        }
                        <td>{ fc_of(r.mechanism) }</td>
                    </tr>
                }
            </tbody>
        </table>
        <p class="muted" data-testid="impact-fc-note">
            { "FC, the PFT paper's control factor: (Bc·D0) / (B0·Dc), B the bandwidth test's average and D the latency \
               test's, both congested, with the row's mechanism (c) and with no control (0). Above 1, the mechanism \
               helps the canaries; – without both tests." }
        </p>
        </>
    }
}

#[derive(Properties, PartialEq)]
pub struct ImpactProps {}

#[component]
pub fn Impact(_p: &ImpactProps) -> Html {
    let doc = use_doc();
    let error = use_state(|| None::<String>);
    // (The shell keeps the runs, so they go on and their results stay while another view is shown.)
    let (Some(ctx), Some(drawn)) = (use_context::<ImpactCtx>(), use_context::<RoutesCtx>()) else {
        return Html::default();
    };
    let ImpactCtx { job, runner, form } = ctx;
    let RoutesCtx { routes, which, load } = drawn;
    let Form { ppn, seed, .. } = (*form).clone();
    let config = config_for(ppn, seed);
    let hosts = ibcc_core::sim::congestion_impact::gpcnet_hosts(&doc.scenario).len();
    let on_run = {
        let (scenario, runner, state, error) = (doc.scenario.clone(), runner.clone(), job.dispatcher(), error.clone());
        let (routes, load, which) = (routes.clone(), load.clone(), which.clone());
        let (picked, canaries, config) = (form.picked.clone(), form.canaries.clone(), config.clone());
        Callback::from(move |_| {
            let net = scenario.network_only();
            let on = (name_of(&scenario), ppn);
            let started = plan(&net, &config, &picked, &canaries).and_then(|p| start(p, on, &runner, &state));
            match started {
                Ok(()) => {
                    error.set(None);
                    ask_routes(&scenario, &net, &config, &routes, &load, &which);
                }
                Err(e) => error.set(Some(e)),
            }
        })
    };
    let on_stop = {
        let (runner, state) = (runner.clone(), job.dispatcher());
        Callback::from(move |_| {
            runner.borrow_mut().workers.clear();
            state.dispatch(ImpactAction::Stopped { why: String::from("stopped"), at_ms: wall_ms() });
        })
    };
    let on_load_120 = {
        let d = doc.dispatcher();
        Callback::from(move |_| {
            let next = Box::new(ibcc_core::presets::pft_gpcnet::fabric120());
            d.dispatch(Action::Load { next, origin: Origin::Generated(String::from("the PFT paper's 120 nodes")) });
        })
    };
    let edit = |change: fn(&mut Form, String) -> Result<(), String>| {
        let (form, error) = (form.clone(), error.clone());
        move |value: String| {
            let mut f = (*form).clone();
            match change(&mut f, value) {
                Ok(()) => form.set(f),
                Err(e) => error.set(Some(e)),
            }
        }
    };
    let on_ppn = {
        let set = edit(|f, v| {
            f.ppn = v.parse().map_err(|_| format!("processes per node: {v:?}"))?;
            Ok(())
        });
        Callback::from(move |e: Event| set(e.target_unchecked_into::<web_sys::HtmlSelectElement>().value()))
    };
    let on_seed = {
        let set = edit(|f, v| {
            f.seed = v.trim().parse().map_err(|_| format!("seed: {v:?} is not a whole number from 0"))?;
            Ok(())
        });
        Callback::from(move |e: Event| set(e.target_unchecked_into::<web_sys::HtmlInputElement>().value()))
    };
    let toggle_mechanism = |i: usize| {
        let form = form.clone();
        Callback::from(move |_: Event| {
            let mut f = (*form).clone();
            match f.picked.iter().position(|&x| x == i) {
                Some(at) => {
                    f.picked.remove(at);
                }
                None => f.picked.push(i),
            }
            form.set(f);
        })
    };
    let toggle_canary = |c: Canary| {
        let form = form.clone();
        Callback::from(move |_: Event| {
            let mut f = (*form).clone();
            match f.canaries.iter().position(|&x| x == c) {
                Some(at) => {
                    f.canaries.remove(at);
                }
                None => {
                    f.canaries.push(c);
                    f.canaries.sort_by_key(|c| Canary::ALL.iter().position(|a| a == c));
                }
            }
            form.set(f);
        })
    };
    let show = |r: Routes| {
        let (which, routes, load) = (which.clone(), routes.clone(), load.clone());
        Callback::from(move |_| {
            which.set(r);
            load.set(shown(&routes, r));
        })
    };

    let guard = &job.0;
    let running = guard.as_ref().is_some_and(|j| j.finished_ms.is_none());
    let status = guard.as_ref().map(|j| {
        let n = j.plan.jobs.len();
        let share = j.progress.iter().sum::<f64>() / n.max(1) as f64;
        let secs = (j.finished_ms.unwrap_or_else(wall_ms) - j.started_ms) / 1000.0;
        let state = match (&j.stopped, j.finished_ms) {
            (Some(why), _) => why.clone(),
            (None, Some(_)) => String::from("done"),
            (None, None) => format!("running on {} workers", j.workers),
        };
        let text = format!("{}/{n} runs on {} at {} per node, {secs:.1} s, {state}", j.done, j.network, j.ppn);
        (share, text)
    });
    // The table's rows and FC, once for the table and its CSV.
    let tabled = guard.as_ref().map(|j| (j, rows(&j.plan, &j.runs)));
    let csv_button = tabled.as_ref().map(|(j, (rows, fc))| {
        let text = csv(rows, fc, &j.plan);
        Callback::from(move |_| download_text(&text, "text/csv", "ibcc-congestion-impact.csv"))
    });
    let charts = guard.as_ref().map(|j| {
        j.plan
            .canaries
            .iter()
            .map(|&c| {
                let (curves, x) = histograms(&j.plan, &j.runs, c);
                if curves.is_empty() {
                    return Html::default();
                }
                let what = if c == Canary::Bandwidth {
                    "bandwidth of a process (MiB/s)"
                } else {
                    "latency, a process's mean (usec)"
                };
                let axes = Axes {
                    x,
                    x_desc: String::from(what),
                    x_log: false,
                    x_names: Rc::default(),
                    y: YAxis { desc: String::from("processes"), top: None },
                    groups: Rc::new(Vec::new()),
                    markers: true,
                    band: None,
                    title: format!("{}: processes per bin", c.name()),
                    x_name: format!("{}_bin_centre", c.id()),
                };
                let file = format!("ibcc-impact-{}", c.id());
                html! {
                    <div class="impact-chart">
                        <h3>{ c.name() }</h3>
                        <Chart curves={Rc::new(curves)} axes={axes} file={file} testid={format!("impact-{}-", c.id())} />
                    </div>
                }
            })
            .collect::<Html>()
    });
    let errors = guard.as_ref().map(|j| {
        j.errors
            .iter()
            .map(|(id, e)| {
                let job = j.plan.jobs[*id];
                let label = j.plan.mechanisms[job.mechanism].label;
                html! { <li>{ format!("{label}: {e}") }</li> }
            })
            .collect::<Html>()
    });
    let routes_shown = routes.0.is_some();
    html! {
        <section class="impact" data-testid="impact" aria-label="Congestion impact">
            <h2>{ "Congestion impact" }</h2>
            <p class="lede">
                { "GPCNeT's question: how much do other jobs' traffic slow an application down? 80% of the nodes run \
                   congestors (all-to-all, incast, put incast, get broadcast), 20% run canary tests, each once alone \
                   (isolated) and once beside the congestors (congested). Impact = congested / isolated: 1.0X is none. \
                   As GPCNeT does, each figure is rounded to 0.1 before the division, so a latency under a \
                   microsecond gives a coarse factor: 0.29 against 0.34 reads 1.0X. The unrounded ratio is under \
                   it." }
            </p>
            <div class="impact-top">
            <div class="impact-controls">
            <div class="impact-grid">
                <span>{ "Network" }</span>
                <span data-testid="impact-network-name">
                    { format!("the playground's: {} ({hosts} hosts), without its flows or congestion control ", doc.origin.describe()) }
                    <button class="linklike" onclick={on_load_120} disabled={running} data-testid="impact-load-120">{ "use the PFT paper's 120 nodes" }</button>
                </span>
                <label for="impact-ppn">{ "Processes per node" }</label>
                <span>
                    <select id="impact-ppn" onchange={on_ppn} disabled={running} data-testid="impact-ppn">
                        for p in PPORTS {
                            <option value={p.to_string()} selected={p == ppn}>{ p.to_string() }</option>
                        }
                    </select>
                    { if ppn >= 8 { " (the PFT experiment's counts: one ring, one bandwidth iteration)" } else { " (GPCNeT's structure, counts scaled to seconds)" } }
                    if hosts * ppn as usize > LARGE_RUN {
                        <span class="notice" data-testid="impact-large">{ format!(" {} processes: a run may take minutes and much of the browser's memory.", hosts * ppn as usize) }</span>
                    }
                </span>
                <label for="impact-seed">{ "Placement seed" }</label>
                <input id="impact-seed" type="number" min="0" value={seed.to_string()} onchange={on_seed} disabled={running} data-testid="impact-seed" />
                <span>{ "Mechanisms" }</span>
                <div class="impact-checks">
                    for (i, (label, parameters)) in offered().into_iter().enumerate() {
                        <label title={parameters}>
                            <input type="checkbox" checked={i == 0 || form.picked.contains(&i)} disabled={i == 0 || running}
                                onchange={toggle_mechanism(i)} data-testid={format!("impact-mech-{i}")} />
                            { label }
                        </label>
                    }
                </div>
                <span>{ "Canary tests" }</span>
                <div class="impact-checks">
                    for c in Canary::ALL {
                        <label>
                            <input type="checkbox" checked={form.canaries.contains(&c)} disabled={running}
                                onchange={toggle_canary(c)} data-testid={format!("impact-canary-{}", c.id())} />
                            { c.name() }
                        </label>
                    }
                </div>
            </div>
            <div class="input-row">
                <button class="primary" onclick={on_run} disabled={running} data-testid="impact-run">{ "Run" }</button>
                <button onclick={on_stop} disabled={!running} data-testid="impact-stop">{ "Stop" }</button>
                if let Some((share, text)) = &status {
                    <progress max="1" value={format!("{share:.3}")} data-testid="impact-progress" />
                    <span data-testid="impact-status">{ text }</span>
                }
                if let Some(on_csv) = csv_button {
                    <button onclick={on_csv} disabled={running || form.held.is_some()} data-testid="impact-csv"
                        title={if form.held.is_some() { "after you answer the lesson's exercise" } else { "the table as CSV" }}>{ "CSV" }</button>
                }
            </div>
            if let Some(e) = &*error {
                <p class="error" role="alert" data-testid="impact-error">{ e }</p>
            }
            if let Some(errors) = errors {
                <ul class="error">{ errors }</ul>
            }
            if let Some((j, tabled)) = &tabled {
                { table(j, tabled, form.held) }
            }
            </div>
            <div class="impact-network">
                <div class="input-row" role="group" aria-label="Routes shown">
                    <span>{ "The network shows " }</span>
                    <button aria-pressed={(*which == Routes::Congestors).to_string()} onclick={show(Routes::Congestors)}
                        disabled={!routes_shown} data-testid="impact-show-congestors">{ "the congestors' routes" }</button>
                    <button aria-pressed={(*which == Routes::Canaries).to_string()} onclick={show(Routes::Canaries)}
                        disabled={!routes_shown} data-testid="impact-show-canaries">{ "the canaries' routes" }</button>
                    <span class="muted">{ if routes_shown { "a link is drawn thicker the more routes share it" } else { "(once a run starts)" } }</span>
                </div>
                <NetworkOnly load={load.clone()} />
            </div>
            </div>
            <div class="impact-charts">{ charts.unwrap_or_default() }</div>
        </section>
    }
}

/// GPCNeT's routes on a network, if asked for: the scenario they are drawn on, the congestors' and the canaries'.
/// (Compared by address: a large fabric's scenario is hundreds of kilobytes, and the shell compares its contexts at
/// every frame of the playground's run.)
#[derive(Debug, Clone, Default)]
pub struct RoutesOn(pub Option<(Rc<Scenario>, Rc<PatternLoad>, Rc<PatternLoad>)>);

impl PartialEq for RoutesOn {
    fn eq(&self, o: &Self) -> bool {
        match (&self.0, &o.0) {
            (Some(a), Some(b)) => Rc::ptr_eq(&a.0, &b.0) && Rc::ptr_eq(&a.1, &b.1) && Rc::ptr_eq(&a.2, &b.2),
            (None, None) => true,
            _ => false,
        }
    }
}

/// Which routes the network shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Routes {
    Congestors,
    Canaries,
}

/// What the network draws of `routes`: the congestors' or the canaries', on the scenario they were routed for.
pub fn shown(routes: &RoutesOn, which: Routes) -> Option<LoadShown> {
    routes.0.as_ref().map(|(on, congestors, canaries)| LoadShown {
        on: on.clone(),
        load: if which == Routes::Congestors { congestors.clone() } else { canaries.clone() },
        counted: true,
        always: true,
        cycle: None,
    })
}

/// Asks a worker for GPCNeT's routes on `net` and shows them on `on` (the playground's scenario), the congestors'
/// first.
pub fn ask_routes(
    on: &Rc<Scenario>,
    net: &Scenario,
    config: &GpcnetConfig,
    routes: &UseStateHandle<RoutesOn>,
    load: &LoadCtx,
    which: &UseStateHandle<Routes>,
) {
    let (on, routes, load, which) = (on.clone(), routes.clone(), load.clone(), which.clone());
    let answer = Callback::from(move |reply: Result<FromWorker, String>| {
        if let Ok(FromWorker::GpcnetRouted { loads: Ok((congestors, canaries)) }) = reply {
            let r = RoutesOn(Some((on.clone(), Rc::new(congestors), Rc::new(canaries))));
            load.set(shown(&r, Routes::Congestors));
            which.set(Routes::Congestors);
            routes.set(r);
        }
    });
    SimWorker::ask(&ToWorker::GpcnetRoutes { scenario: Box::new(net.clone()), config: config.clone() }, answer);
}

/// GPCNeT's routes as the network shows them, held by the page's shell with the view's runs.
#[derive(Clone, PartialEq)]
pub struct RoutesCtx {
    routes: UseStateHandle<RoutesOn>,
    which: UseStateHandle<Routes>,
    load: LoadCtx,
}

/// The routes' state, made once by the shell.
#[hook]
pub fn use_routes() -> RoutesCtx {
    RoutesCtx {
        routes: use_state(RoutesOn::default),
        which: use_state(|| Routes::Congestors),
        load: use_state(|| None),
    }
}
