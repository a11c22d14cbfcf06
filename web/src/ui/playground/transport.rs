//! The transport bar: the scenario picker, Run/Pause, Step (by a chosen amount), Reset, the speed, the time, the
//! timeline, "go to the end of the measured interval", and Share. One row on a wide screen, wrapped on a phone;
//! the scenario's description is one line under it, with more on request.

use super::super::document::use_doc;
use super::super::share;
use super::live::{use_live, use_sim, LiveAction};
use super::picker::Picker;
use super::timeline::Timeline;
use crate::moments::{self as tl, StepSize, SPEEDS};
use ibcc_core::presets::find;
use yew::prelude::*;

#[component]
pub fn Transport() -> Html {
    let doc = use_doc();
    let live = use_live();
    let sim = use_sim();
    let run = live.run_scenario.clone();
    let scenario = doc.scenario.clone();
    let ready = live.frame.is_some() && !live.pending;

    let on_run = {
        let (sim, live) = (sim.clone(), live.clone());
        Callback::from(move |_| {
            if live.notice.as_ref().is_some_and(|n| !n.restart) {
                live.dispatch(LiveAction::Dismiss);
            }
            if live.playing() {
                sim.pause();
            } else {
                sim.play(live.speed());
            }
        })
    };
    let on_step = {
        let (sim, live, run) = (sim.clone(), live.clone(), run.clone());
        Callback::from(move |_| {
            let Some(s) = run.as_ref() else { return };
            let by = live.step.ps(s);
            sim.seek(live.time_ps().saturating_add(by).min(live.end_ps()), None);
        })
    };
    let on_step_size = {
        let live = live.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            live.dispatch(LiveAction::Step(StepSize::from_id(&select.value())));
        })
    };
    let on_reset = {
        let (sim, scenario) = (sim.clone(), scenario.clone());
        Callback::from(move |_| sim.load(&scenario, false))
    };
    let on_speed = {
        let (sim, live) = (sim.clone(), live.clone());
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            let i: usize = select.value().parse().unwrap_or(3);
            live.dispatch(LiveAction::Speed(i));
            if live.playing() {
                sim.play(SPEEDS[i.min(SPEEDS.len() - 1)].1);
            }
        })
    };
    let measured_end = run.as_ref().map(|s| tl::measured(s).1 * 1000);
    let on_measured = {
        let sim = sim.clone();
        Callback::from(move |_| {
            if let Some(t) = measured_end {
                sim.seek(t, None);
            }
        })
    };

    let step_title = run
        .as_ref()
        .map_or(String::new(), |s| format!("Advance the run by {} of simulated time, then pause", live.step.label(s)));
    let time = live.time_ps() as f64 / 1e9;
    let end = live.end_ps() as f64 / 1e9;
    // (What the paper reports is held back while an exercise waits for its answer.)
    let quiz = super::use_unanswered_exercise().is_some();
    // (A preset's words describe it as loaded: once edited, a lesson's step or the student may have changed what
    // they say, a buffer's depth or a threshold.)
    let changed = match doc.origin {
        crate::origin::Origin::Edited(_) => Some("As loaded, before the changes since: "),
        crate::origin::Origin::ForLesson(_) => Some("As published, before the lesson's changes: "),
        _ => None,
    };
    // (A preset whose description was rewritten in Settings is described by its new words.)
    let own = || if scenario.description.is_empty() { scenario.name.clone() } else { scenario.description.clone() };
    let preset = find(&scenario.name).filter(|p| scenario.description == format!("{} {}", p.figure, p.description));
    let description = preset.map_or_else(own, |p| {
        let said = if quiz { p.description.to_owned() } else { format!("{} {}", p.description, p.paper_reports) };
        match changed {
            Some(before) => format!("{before}{said}"),
            None => said,
        }
    });
    let more = use_state(|| false);
    let restart = {
        let (sim, doc) = (sim.clone(), doc.clone());
        Callback::from(move |_| sim.load(&doc.scenario, false))
    };
    let dismiss = {
        let live = live.clone();
        Callback::from(move |_| live.dispatch(LiveAction::Dismiss))
    };
    let embedded = use_memo((), |_| share::embedded());
    let toggle_more = {
        let more = more.clone();
        Callback::from(move |_| more.set(!*more))
    };
    html! {
        <>
            <div class="transport" role="toolbar" aria-label="Simulation controls">
                if *embedded { <share::OpenInPlayground plot={live.kind} moment={live.moment_to_share()} /> } else { <Picker /> }
                <div class="buttons">
                    <button class="primary" onclick={on_run} data-testid="run" disabled={!ready || (live.finished() && !live.playing())}
                        title="Run or pause the simulation (the speed is beside it)">
                        // Symbols are decoration: the button is named by its word alone.
                        if live.playing() {
                            <span aria-hidden="true">{ "❚❚ " }</span>{ "Pause" }
                        } else {
                            <span aria-hidden="true">{ "▶ " }</span>{ "Run" }
                        }
                    </button>
                    <span class="step-group">
                        <button onclick={on_step} data-testid="step" disabled={!ready || live.finished()} title={step_title}>{ "Step" }</button>
                        <select aria-label="Step size" data-testid="step-size" onchange={on_step_size}>
                            for s in StepSize::ALL {
                                <option value={s.id()} selected={s == live.step}>{ run.as_ref().map_or(String::new(), |r| s.label(r)) }</option>
                            }
                        </select>
                    </span>
                    <button onclick={on_reset} data-testid="reset" title="A new run of the scenario from 0 ms"><span aria-hidden="true">{ "↺ " }</span>{ "Reset" }</button>
                    <label class="speed">
                        <span>{ "Speed" }</span>
                        <select onchange={on_speed} data-testid="speed" title="Simulated time per second of yours">
                            for (i, (name, _)) in SPEEDS.iter().enumerate() {
                                <option value={i.to_string()} selected={i == live.speed}>{ *name }</option>
                            }
                        </select>
                    </label>
                </div>
                if !*embedded { <share::ShareMenu plot={live.kind} moment={live.moment_to_share()} /> }
            </div>
            <div class="timeline-row">
                <div class="clock">
                    <output data-testid="sim-time" aria-label="Simulated time" class={classes!(live.seeking_to.is_some().then_some("seeking"))}
                        title={live.seek_at.map(|at| format!("computing: at {:.3} ms", at as f64 / 1e9))}
                        data-events={live.results.as_ref().map_or(0, |r| r.events).to_string()}>
                        { format!("{time:.3} ms") }{ if live.seeking_to.is_some() { "…" } else { "" } }
                    </output>
                    <span class="muted end">{ format!("/ {} ms", trim(end)) }</span>
                </div>
                <Timeline />
                <button class="icon" onclick={on_measured} disabled={!ready || measured_end.is_none()} data-testid="to-measured-end"
                    title="Go to the end of the measured interval (where the results are read), then pause">
                    // Named by what it shows (WCAG 2.5.3, label in name); the title says what it does.
                    <span aria-hidden="true">{ "⇥ " }</span>{ "Measured end" }
                </button>
            </div>
            // A run's notice (a change that needs a new run, a marking change applied) takes the scenario line's
            // place while it lasts: one line, so the drawing below does not move mid-lesson.
            if let Some(n) = &live.notice {
                <p class={classes!("scenario-line", (*more).then_some("open"))} data-testid="scenario-line">
                    <span class="text notice" role="status" data-testid="notice" title={n.text.clone()}>{ &n.text }</span>
                    if n.restart {
                        <button onclick={restart} data-testid="restart">{ "Restart with the change" }</button>
                    } else {
                        <button class="linklike" onclick={dismiss} aria-label="Dismiss" data-testid="notice-dismiss">{ "×" }</button>
                    }
                    <button class="linklike" onclick={toggle_more} aria-expanded={more.to_string()} data-testid="scenario-more">
                        { if *more { "less" } else { "more" } }
                    </button>
                </p>
            } else {
                <p class={classes!("scenario-line", (*more).then_some("open"))} data-testid="scenario-line">
                    <span class="text">{ description }</span>
                    <button class="linklike" onclick={toggle_more} aria-expanded={more.to_string()} data-testid="scenario-more">
                        { if *more { "less" } else { "more" } }
                    </button>
                </p>
            }
        </>
    }
}

/// `100` for 100.0, `2.5` for 2.5.
fn trim(x: f64) -> String {
    let s = format!("{x:.3}");
    s.trim_end_matches('0').trim_end_matches('.').to_owned()
}
