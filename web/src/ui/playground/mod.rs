//! The playground: pick a scenario, run it, and watch link rates, buffers and results move.
//!
//! The simulation lives in this component (outside the reducer state) and advances in per-frame slices with a time
//! budget, so the page never blocks: each tick runs events until the simulated time for this frame is reached or
//! 8 ms of wall time are spent, then takes a small snapshot to draw.

mod generate;
mod params;
mod plot;
mod results;
mod topology;

use crate::rate_plot::Curve;
use generate::Generate;
use gloo_timers::callback::Interval;
use ibcc_core::presets::{find, PRESETS};
use ibcc_core::scenario::Scenario;
use ibcc_core::sim::{Results, Simulation, Snapshot};
use params::ParamsPanel;
use plot::RatePlot;
use results::ResultsTable;
use std::cell::Cell;
use std::cell::RefCell;
use std::rc::Rc;
use topology::TopologyView;
use yew::prelude::*;

/// Simulated time per wall-clock second; `None`: as fast as the frame budget allows.
const SPEEDS: [(&str, Option<u64>); 5] = [
    ("10 µs/s", Some(10_000_000)),
    ("100 µs/s", Some(100_000_000)),
    ("1 ms/s", Some(1_000_000_000)),
    ("10 ms/s", Some(10_000_000_000)),
    ("as fast as possible", None),
];

/// Wall time one frame may spend simulating, in milliseconds.
const FRAME_BUDGET_MS: f64 = 8.0;
const FRAME_MS: u32 = 16;

fn wall_ms() -> f64 {
    web_sys::window().and_then(|w| w.performance()).map_or(0.0, |p| p.now())
}

/// What the page shows of a run: the latest snapshot, results and rate curves.
#[derive(Clone, PartialEq)]
struct View {
    snapshot: Rc<Snapshot>,
    results: Rc<Results>,
    curves: Rc<Vec<Curve>>,
    end_ns: f64,
}

/// Frames between two recomputations of the rate curves (the snapshot and results follow every frame).
const CURVE_EVERY: u32 = 8;

/// The rate curves: the busiest link (the root of congestion), the busiest link between two switches (where
/// congestion spreads), and every group of flows.
fn curves_of(sim: &Simulation, results: &Results) -> Vec<Curve> {
    let s = sim.scenario();
    let is_switch = |id: &str| s.nodes.iter().any(|n| n.id == id && n.kind == ibcc_core::scenario::NodeKind::Switch);
    // By data packets carried so far: meaningful from the first packet, unlike utilization (0 before measure.from).
    let by_use = |a: &&ibcc_core::sim::LinkResult, b: &&ibcc_core::sim::LinkResult| a.data_packets.cmp(&b.data_packets);
    let used = || results.links.iter().filter(|l| l.data_packets > 0);
    let busiest = used().max_by(by_use);
    let inter_switch = used().filter(|l| is_switch(&l.from) && is_switch(&l.to)).max_by(by_use);
    let mut chosen: Vec<&str> = busiest.into_iter().chain(inter_switch).map(|l| l.id.as_str()).collect();
    chosen.dedup();
    // A sample's window is centred on it: while the run goes on, show only samples whose whole window has passed.
    let complete_until_ns = if sim.is_finished() {
        f64::INFINITY
    } else {
        (sim.now() as f64 - s.measure.window_ns as f64 * 1000.0 / 2.0) / 1000.0
    };
    let to_ms = |pts: Vec<(f64, f64)>| {
        pts.into_iter().filter(|&(t, _)| t <= complete_until_ns).map(|(t, r)| (t / 1e6, r)).collect::<Vec<_>>()
    };
    let mut curves = Vec::new();
    for id in chosen {
        let channel = s.links.iter().enumerate().find_map(|(i, l)| {
            if format!("{}->{}", l.a, l.b) == id {
                Some(2 * i as u32)
            } else if format!("{}->{}", l.b, l.a) == id {
                Some(2 * i as u32 + 1)
            } else {
                None
            }
        });
        if let Some(c) = channel {
            curves.push(Curve { label: id.to_owned(), points: to_ms(sim.link_rate_series(c)) });
        }
    }
    for g in sim.groups() {
        if let Some(points) = sim.group_rate_series(g) {
            let label = if g.is_empty() { String::from("(no group)") } else { format!("{g} flows") };
            curves.push(Curve { label, points: to_ms(points) });
        }
    }
    curves
}

/// The view of `sim` now, reusing `curves` if given (they cost more than the rest, so they are refreshed less often).
fn view_of(sim: &Simulation, curves: Option<Rc<Vec<Curve>>>) -> View {
    let results = Rc::new(sim.results());
    let curves = curves.unwrap_or_else(|| Rc::new(curves_of(sim, &results)));
    View { snapshot: Rc::new(sim.snapshot()), results, curves, end_ns: sim.end() as f64 / 1000.0 }
}

/// Advances `sim` by one frame at `speed`; returns whether the run has finished.
fn advance(sim: &mut Simulation, speed: Option<u64>) -> bool {
    let start = wall_ms();
    let target = match speed {
        Some(ps_per_s) => sim.now().saturating_add(ps_per_s / 1000 * u64::from(FRAME_MS)),
        None => sim.end(),
    };
    while sim.now() < target && !sim.is_finished() && wall_ms() - start < FRAME_BUDGET_MS {
        sim.step_until(target, 2_000);
    }
    sim.is_finished()
}

#[component]
pub fn Playground() -> Html {
    let preset = use_state(|| String::from("infocom03-fig2"));
    let preset_scenario =
        |name: &str| Rc::new(find(name).map(|p| p.scenario()).unwrap_or_else(|| Scenario::empty("", 1)));
    let scenario = use_state(|| preset_scenario(&preset));
    // Set when an edit of the parameters restarted a run that was under way.
    let notice = use_state(|| None::<String>);
    let sim: Rc<RefCell<Option<Simulation>>> = use_mut_ref(|| None);
    let view = use_state(|| None::<View>);
    let error = use_state(|| None::<String>);
    let running = use_state(|| false);
    let speed = use_state(|| 2usize);

    let reset = {
        let (sim, view, error, running, scenario) =
            (sim.clone(), view.clone(), error.clone(), running.clone(), (*scenario).clone());
        move || {
            running.set(false);
            match Simulation::new(&scenario) {
                Ok(s) => {
                    view.set(Some(view_of(&s, None)));
                    *sim.borrow_mut() = Some(s);
                    error.set(None);
                }
                Err(e) => {
                    *sim.borrow_mut() = None;
                    view.set(None);
                    error.set(Some(e.to_string()));
                }
            }
        }
    };
    {
        let reset = reset.clone();
        use_effect_with((*scenario).clone(), move |_| reset());
    }
    {
        let (sim, view, running_handle) = (sim.clone(), view.clone(), running.clone());
        let speed = SPEEDS[*speed].1;
        use_effect_with((*running, speed), move |&(running, speed)| {
            let frames = Cell::new(0u32);
            let last_curves = RefCell::new(None::<Rc<Vec<Curve>>>);
            let interval = running.then(|| {
                Interval::new(FRAME_MS, move || {
                    let mut guard = sim.borrow_mut();
                    let Some(s) = guard.as_mut() else { return };
                    let finished = advance(s, speed);
                    frames.set(frames.get() + 1);
                    let refresh = finished || frames.get() % CURVE_EVERY == 0;
                    let reuse = if refresh { None } else { last_curves.borrow().clone() };
                    let v = view_of(s, reuse);
                    *last_curves.borrow_mut() = Some(v.curves.clone());
                    view.set(Some(v));
                    if finished {
                        running_handle.set(false);
                    }
                })
            });
            move || drop(interval)
        });
    }

    let on_pick = {
        let (preset, scenario, notice) = (preset.clone(), scenario.clone(), notice.clone());
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            scenario.set(preset_scenario(&select.value()));
            preset.set(select.value());
            notice.set(None);
        })
    };
    let on_params = {
        let (scenario, notice, view) = (scenario.clone(), notice.clone(), view.clone());
        Callback::from(move |next: Scenario| {
            // Said when a run under way restarts; it stays until the next Run or scenario.
            if view.as_ref().is_some_and(|v| v.snapshot.time_ns > 0.0) {
                notice.set(Some(String::from("Parameters changed: the run restarted from 0 with the new values.")));
            }
            scenario.set(Rc::new(next));
        })
    };
    let on_speed = {
        let speed = speed.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            speed.set(select.value().parse().unwrap_or(2));
        })
    };
    let on_run = {
        let (running, notice) = (running.clone(), notice.clone());
        Callback::from(move |_| {
            notice.set(None);
            running.set(!*running);
        })
    };
    let on_step = {
        let (sim, view, running) = (sim.clone(), view.clone(), running.clone());
        Callback::from(move |_| {
            running.set(false);
            if let Some(s) = sim.borrow_mut().as_mut() {
                // One step: the next microsecond of simulated time.
                let t = s.now() + 1_000_000;
                s.run_until(t);
                view.set(Some(view_of(s, None)));
            }
        })
    };
    let on_reset = Callback::from(move |_| reset());

    // The current scenario's own description: a preset's, with what the paper reports, or a generated one's name.
    let description = match find(&scenario.name) {
        Some(p) => Some(format!("{} {} Paper: {}", p.figure, p.description, p.paper_reports)),
        None => Some(format!("{}. {}", scenario.name, scenario.description)).filter(|_| !scenario.name.is_empty()),
    };
    let (time_ns, end_ns) = view.as_ref().map_or((0.0, 1.0), |v| (v.snapshot.time_ns, v.end_ns));
    let finished = time_ns >= end_ns;

    html! {
        <section class="playground" data-testid="playground" aria-label="Playground">
            <div class="transport" role="toolbar" aria-label="Simulation controls">
                <label for="scenario-picker">{ "Scenario" }</label>
                <select id="scenario-picker" onchange={on_pick} data-testid="scenario-picker">
                    for p in PRESETS.iter() {
                        <option value={p.name} selected={p.name == preset.as_str()}>{ p.name }</option>
                    }
                </select>
                <button onclick={on_run} data-testid="run" disabled={finished && !*running}>
                    { if *running { "Pause" } else { "Run" } }
                </button>
                <button onclick={on_step} data-testid="step">{ "Step" }</button>
                <button onclick={on_reset} data-testid="reset">{ "Reset" }</button>
                <label for="speed">{ "Speed" }</label>
                <select id="speed" onchange={on_speed} data-testid="speed">
                    for (i, (name, _)) in SPEEDS.iter().enumerate() {
                        <option value={i.to_string()} selected={i == *speed}>{ *name }</option>
                    }
                </select>
                <output data-testid="sim-time" aria-label="Simulated time">{ format!("{:.3} ms", time_ns / 1e6) }</output>
                <progress data-testid="progress" max="1" value={(time_ns / end_ns).min(1.0).to_string()} />
            </div>
            if let Some(text) = description {
                <p class="lede">{ text }</p>
            }
                        if let Some(e) = &*error {
                <p class="error" role="alert">{ e }</p>
            }
            if let Some(n) = &*notice {
                <p class="notice" role="status" data-testid="notice">{ n }</p>
            }
            if let Some(v) = &*view {
                <div class="playground-layout">
                                        <div class="side">
                        <Generate scenario={(*scenario).clone()} on_generate={on_params.clone()} />
                        <ParamsPanel scenario={(*scenario).clone()} on_change={on_params} />
                    </div>
                    <div class="playground-main">
                                                <TopologyView scenario={(*scenario).clone()} snapshot={v.snapshot.clone()} />
                        <RatePlot curves={v.curves.clone()} end_ms={v.end_ns / 1e6}
                            window_ms={scenario.measure.window_ns as f64 / 1e6} />
                    </div>
                    <ResultsTable results={v.results.clone()} measure_from_ns={scenario.measure.from_ns as f64} />
                </div>
            }
        </section>
    }
}
