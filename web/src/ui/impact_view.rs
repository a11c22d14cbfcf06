//! The congestion impact view (docs/gpcnet.md §5): GPCNeT's canary tests on the playground's network, isolated and
//! congested, under the mechanisms picked, in the browser's workers (one run per job, one worker per core), with
//! progress and a way to stop; the network shows the congestors' or the canaries' routes; then the distributions
//! (processes per bin) and GPCNeT's impact table with the PFT paper's FC.

use super::bridge::{cores, SimWorker};
use super::chart::{Axes, Chart};
use super::document::{use_doc, Action, Origin};
use super::download::download_text;
use super::playground::{wall_ms, LoadCtx, LoadShown, NetworkOnly};
use crate::impact_plan::{config_for, csv, histograms, offered, plan, rows, Plan, PPORTS};
use crate::protocol::{FromWorker, PatternLoad, ToWorker};
use ibcc_core::scenario::Scenario;
use ibcc_core::sim::congestion_impact::CanaryRun;
use ibcc_core::workload::gpcnet::{Canary, GpcnetConfig};
use ibcc_view::plot::YAxis;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// A run of the view's plan as it stands (a reducer: each worker's answer is an action).
#[derive(Debug, Clone, PartialEq)]
struct Job {
    plan: Rc<Plan>,
    /// Each job's run once in, its share done meanwhile, and its error if it failed.
    runs: Vec<Option<Rc<CanaryRun>>>,
    progress: Vec<f64>,
    errors: Vec<(usize, String)>,
    done: usize,
    stopped: Option<String>,
    started_ms: f64,
    finished_ms: Option<f64>,
    workers: usize,
    /// Processes per node, for the status line.
    ppn: u32,
}

#[derive(Debug, Clone, Default, PartialEq)]
struct ImpactState(Option<Job>);

enum ImpactAction {
    Started(Job),
    Progress { id: usize, done: f64 },
    Ran { id: usize, run: Result<Box<CanaryRun>, String>, at_ms: f64 },
    Stopped { why: String, at_ms: f64 },
}

impl Reducible for ImpactState {
    type Action = ImpactAction;
    fn reduce(self: Rc<Self>, action: ImpactAction) -> Rc<Self> {
        let mut next = (*self).clone();
        let Some(j) = next.0.as_mut() else {
            if let ImpactAction::Started(job) = action {
                return Rc::new(Self(Some(job)));
            }
            return self;
        };
        match action {
            ImpactAction::Started(job) => *j = job,
            ImpactAction::Progress { id, done } => {
                if j.finished_ms.is_some() {
                    return self;
                }
                if let Some(p) = j.progress.get_mut(id) {
                    *p = done;
                }
            }
            ImpactAction::Ran { id, run, at_ms } => {
                if j.finished_ms.is_some() {
                    return self;
                }
                match run {
                    Ok(r) => {
                        if let Some(slot) = j.runs.get_mut(id) {
                            *slot = Some(Rc::from(r));
                        }
                    }
                    Err(e) => j.errors.push((id, e)),
                }
                if let Some(p) = j.progress.get_mut(id) {
                    *p = 1.0;
                }
                j.done += 1;
                if j.done >= j.plan.jobs.len() {
                    j.finished_ms = Some(at_ms);
                }
            }
            ImpactAction::Stopped { why, at_ms } => {
                if j.finished_ms.is_some() {
                    return self;
                }
                j.stopped = Some(why);
                j.finished_ms = Some(at_ms);
            }
        }
        Rc::new(next)
    }
}

/// The workers of a run under way and the next job to give out (dropped, the workers stop).
#[derive(Default)]
struct Runner {
    plan: Option<Rc<Plan>>,
    next: usize,
    answered: usize,
    workers: Vec<SimWorker>,
}

impl Runner {
    /// Gives worker `w` the next job, if any.
    fn feed(&mut self, w: usize) {
        let Some(plan) = self.plan.clone() else { return };
        let Some(job) = plan.jobs.get(self.next) else { return };
        let id = self.next;
        self.next += 1;
        if let Some(worker) = self.workers.get(w) {
            let m = &plan.mechanisms[job.mechanism];
            worker.post(&ToWorker::Canary {
                id: id as u64,
                scenario: Box::new(m.scenario.clone()),
                config: m.config.clone(),
                canary: job.canary,
                congested: job.congested,
            });
        }
    }
}

type RunnerRef = Rc<RefCell<Runner>>;

/// Starts `plan` in one worker per core (stopping any run under way).
fn start(plan: Plan, ppn: u32, runner: &RunnerRef, state: &UseReducerDispatcher<ImpactState>) -> Result<(), String> {
    let plan = Rc::new(plan);
    let n = plan.jobs.len();
    *runner.borrow_mut() = Runner { plan: Some(plan.clone()), ..Runner::default() };
    let workers = cores().min(n);
    state.dispatch(ImpactAction::Started(Job {
        plan,
        runs: vec![None; n],
        progress: vec![0.0; n],
        errors: Vec::new(),
        done: 0,
        stopped: None,
        started_ms: wall_ms(),
        finished_ms: None,
        workers,
        ppn,
    }));
    for w in 0..workers {
        // (The handlers hold the runner weakly: a worker holding itself would never be dropped.)
        let (weak, answered) = (Rc::downgrade(runner), state.clone());
        let on_message = Callback::from(move |m: FromWorker| match m {
            FromWorker::CanaryProgress { id, done, .. } => {
                answered.dispatch(ImpactAction::Progress { id: id as usize, done })
            }
            FromWorker::CanaryRan { id, run } => {
                answered.dispatch(ImpactAction::Ran { id: id as usize, run, at_ms: wall_ms() });
                if let Some(r) = weak.upgrade() {
                    let mut r = r.borrow_mut();
                    r.answered += 1;
                    if r.answered >= n {
                        r.workers.clear();
                    } else {
                        r.feed(w);
                    }
                }
            }
            _ => {}
        });
        let (weak, stopped) = (Rc::downgrade(runner), state.clone());
        let on_error = Callback::from(move |e: String| {
            stopped.dispatch(ImpactAction::Stopped { why: format!("a worker failed: {e}"), at_ms: wall_ms() });
            if let Some(r) = weak.upgrade() {
                r.borrow_mut().workers.clear();
            }
        });
        let worker = SimWorker::start(on_message, on_error)?;
        let mut r = runner.borrow_mut();
        r.workers.push(worker);
        r.feed(w);
    }
    Ok(())
}

/// The playground's network as GPCNeT runs on it: its flows and its congestion control taken away.
fn network_of(s: &Scenario) -> Scenario {
    let mut net = s.without_congestion_control();
    net.flows.clear();
    net
}

/// A figure as GPCNeT prints it (two decimals; bandwidths in MiB/s/rank, latencies in usec).
fn value(v: f64) -> String {
    format!("{v:.2}")
}

/// The table: one row per mechanism and canary test whose two runs are in.
fn table(j: &Job) -> Html {
    let (rows, fc) = rows(&j.plan, &j.runs);
    let fc_of = |label: &str| {
        let m = j.plan.mechanisms.iter().position(|m| m.label == label);
        m.and_then(|m| fc[m]).map_or(String::from("–"), |f| format!("{f:.2}"))
    };
    html! {
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
                        <td class="impact">{ format!("{:.1}X / {:.1}X", r.impact.impact_avg, r.impact.impact_p99) }</td>
                        <td>{ fc_of(r.mechanism) }</td>
                    </tr>
                }
            </tbody>
        </table>
    }
}

/// GPCNeT's routes on a network: the scenario they are drawn on, the congestors' and the canaries'.
type RoutesOn = Option<(Rc<Scenario>, Rc<PatternLoad>, Rc<PatternLoad>)>;

/// Which routes the network shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Routes {
    Congestors,
    Canaries,
}

#[derive(Properties, PartialEq)]
pub struct ImpactProps {}

#[component]
pub fn Impact(_p: &ImpactProps) -> Html {
    let doc = use_doc();
    let ppn = use_state(|| 1u32);
    let seed = use_state(|| 1u64);
    let picked = use_state(|| vec![1usize]);
    let canaries = use_state(|| vec![Canary::Latency, Canary::Bandwidth]);
    let error = use_state(|| None::<String>);
    let job = use_reducer(ImpactState::default);
    let runner: RunnerRef = use_mut_ref(Runner::default);
    let routes = use_state(|| RoutesOn::None);
    let which = use_state(|| Routes::Congestors);
    let load: LoadCtx = use_state(|| None);
    {
        // Leaving the view stops its workers.
        let runner = runner.clone();
        use_effect_with((), move |_| move || *runner.borrow_mut() = Runner::default());
    }
    let config = config_for(*ppn, *seed);
    let hosts = ibcc_core::sim::congestion_impact::gpcnet_hosts(&doc.scenario).len();
    let on_run = {
        let (scenario, runner, state, error) = (doc.scenario.clone(), runner.clone(), job.dispatcher(), error.clone());
        let (routes, load, which) = (routes.clone(), load.clone(), which.clone());
        let (picked, canaries, config, ppn) = ((*picked).clone(), (*canaries).clone(), config.clone(), *ppn);
        Callback::from(move |_| {
            let net = network_of(&scenario);
            let started = plan(&net, &config, &picked, &canaries).and_then(|p| start(p, ppn, &runner, &state));
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
    let on_ppn = {
        let ppn = ppn.clone();
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlSelectElement>().value();
            ppn.set(v.parse().unwrap_or(1));
        })
    };
    let on_seed = {
        let (seed, error) = (seed.clone(), error.clone());
        Callback::from(move |e: Event| {
            let v = e.target_unchecked_into::<web_sys::HtmlInputElement>().value();
            match v.trim().parse::<u64>() {
                Ok(s) => seed.set(s),
                Err(_) => error.set(Some(format!("seed: {v:?} is not a whole number from 0"))),
            }
        })
    };
    let toggle_mechanism = |i: usize| {
        let picked = picked.clone();
        Callback::from(move |_: Event| {
            let mut p = (*picked).clone();
            if let Some(at) = p.iter().position(|&x| x == i) {
                p.remove(at);
            } else {
                p.push(i);
            }
            picked.set(p);
        })
    };
    let toggle_canary = |c: Canary| {
        let canaries = canaries.clone();
        Callback::from(move |_: Event| {
            let mut v = (*canaries).clone();
            if let Some(at) = v.iter().position(|&x| x == c) {
                v.remove(at);
            } else {
                v.push(c);
                v.sort_by_key(|c| Canary::ALL.iter().position(|a| a == c));
            }
            canaries.set(v);
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
        let text = format!("{}/{n} runs at {} per node, {secs:.1} s, {state}", j.done, j.ppn);
        (share, text)
    });
    let csv_button = guard.as_ref().map(|j| {
        let (rows, fc) = rows(&j.plan, &j.runs);
        let text = csv(&rows, &fc, &j.plan);
        Callback::from(move |_| download_text(&text, "text/csv", "ibcc-congestion-impact.csv"))
    });
    let charts = guard.as_ref().map(|j| {
        j.plan
            .canaries
            .iter()
            .map(|&c| {
                let (curves, x) = histograms(&j.plan, &j.runs, c);
                let what = if c == Canary::Bandwidth {
                    "bandwidth of a process (MiB/s)"
                } else {
                    "latency, a process's mean (usec)"
                };
                let axes = Axes {
                    x,
                    x_desc: String::from(what),
                    x_log: false,
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
    let routes_shown = routes.is_some();
    html! {
        <section class="impact" data-testid="impact" aria-label="Congestion impact">
            <h2>{ "Congestion impact" }</h2>
            <p class="lede">
                { "GPCNeT's question: how much do other jobs' traffic slow an application down? 80% of the nodes run \
                   congestors (all-to-all, incast, put incast, get broadcast), 20% run canary tests, each once alone \
                   (isolated) and once beside the congestors (congested). Impact = congested / isolated: 1.0X is none." }
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
                            <option value={p.to_string()} selected={p == *ppn}>{ p.to_string() }</option>
                        }
                    </select>
                    { if *ppn >= 8 { " (the PFT experiment's counts: one ring, one bandwidth iteration)" } else { " (GPCNeT's structure, counts scaled to seconds)" } }
                </span>
                <label for="impact-seed">{ "Placement seed" }</label>
                <input id="impact-seed" type="number" min="0" value={seed.to_string()} onchange={on_seed} disabled={running} data-testid="impact-seed" />
                <span>{ "Mechanisms" }</span>
                <div class="impact-checks">
                    for (i, (label, parameters)) in offered().into_iter().enumerate() {
                        <label title={parameters}>
                            <input type="checkbox" checked={i == 0 || picked.contains(&i)} disabled={i == 0 || running}
                                onchange={toggle_mechanism(i)} data-testid={format!("impact-mech-{i}")} />
                            { label }
                        </label>
                    }
                </div>
                <span>{ "Canary tests" }</span>
                <div class="impact-checks">
                    for c in Canary::ALL {
                        <label>
                            <input type="checkbox" checked={canaries.contains(&c)} disabled={running}
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
                    <button onclick={on_csv} disabled={running} data-testid="impact-csv">{ "CSV" }</button>
                }
            </div>
            if let Some(e) = &*error {
                <p class="error" role="alert" data-testid="impact-error">{ e }</p>
            }
            if let Some(errors) = errors {
                <ul class="error">{ errors }</ul>
            }
            if let Some(j) = guard.as_ref() {
                { table(j) }
            }
            </div>
            <div class="impact-network">
                <div class="input-row" role="group" aria-label="Routes shown">
                    <span>{ "The network shows " }</span>
                    <button aria-pressed={(*which == Routes::Congestors).to_string()} onclick={show(Routes::Congestors)}
                        disabled={!routes_shown} data-testid="impact-show-congestors">{ "the congestors' routes" }</button>
                    <button aria-pressed={(*which == Routes::Canaries).to_string()} onclick={show(Routes::Canaries)}
                        disabled={!routes_shown} data-testid="impact-show-canaries">{ "the canaries' routes" }</button>
                    <span class="muted">{ if routes_shown { "each link as wide as the routes it carries, labelled with their number" } else { "(once a run starts)" } }</span>
                </div>
                <NetworkOnly load={load.clone()} />
            </div>
            </div>
            <div class="impact-charts">{ charts.unwrap_or_default() }</div>
        </section>
    }
}

/// What the network draws of `routes`: the congestors' or the canaries', on the scenario they were routed for.
fn shown(routes: &RoutesOn, which: Routes) -> Option<LoadShown> {
    routes.as_ref().map(|(on, congestors, canaries)| LoadShown {
        on: on.clone(),
        load: if which == Routes::Congestors { congestors.clone() } else { canaries.clone() },
        counted: true,
        always: true,
    })
}

/// Asks a worker for GPCNeT's routes on `net` and shows them on `on` (the playground's scenario), the congestors'
/// first.
fn ask_routes(
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
            let r = Some((on.clone(), Rc::new(congestors), Rc::new(canaries)));
            load.set(shown(&r, Routes::Congestors));
            which.set(Routes::Congestors);
            routes.set(r);
        }
    });
    SimWorker::ask(&ToWorker::GpcnetRoutes { scenario: Box::new(net.clone()), config: config.clone() }, answer);
}
