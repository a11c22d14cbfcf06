//! The timeline: the run from 0 to its end, with what has been computed so far, the measured interval (shaded), the
//! moments worth marking (a group starts or stops; press one to go there) and the marking changes made during the
//! run. Drag it, forward or back, and the canvas, plot and tables show the run at that time (exactly: going back
//! replays from a checkpoint); if the run was playing it plays on from where it is let go. With the keyboard it is a
//! slider: arrows step, Page keys move a tenth, Home and End go to the ends.

use super::live::{use_live, use_sim};
use crate::moments::{self as tl, format_time_ns};
use yew::prelude::*;

fn pct(x: f64) -> String {
    format!("{:.3}%", (100.0 * x).clamp(0.0, 100.0))
}

/// How near an end of the track (in CSS pixels) a pointer is at that end.
const SNAP_PX: f64 = 6.0;

#[component]
pub fn Timeline() -> Html {
    let live = use_live();
    let sim = use_sim();
    let track = use_node_ref();
    // While dragging: whether the run was playing (it plays on after), and the last time sent.
    let drag = use_mut_ref(|| None::<(bool, u64)>);
    let end = live.end_ps();
    let t = live.time_ps().min(end);
    let horizon = live.frame.as_ref().map_or(0, |f| f.horizon_ps).max(live.seek_at.unwrap_or(0)).max(t);
    let ready = live.frame.is_some() && !live.pending;

    let at = {
        let track = track.clone();
        move |x: f64| -> Option<u64> {
            let el = track.cast::<web_sys::Element>()?;
            let r = el.get_bounding_client_rect();
            // Within a thumb's half-width (6 px) of either end is the end itself: a drag to the end reaches it
            // (lesson 4 asks for 20 ms; a pixel short gave 19.939).
            let px = (x - r.left()).clamp(0.0, r.width());
            let px = if px < SNAP_PX {
                0.0
            } else if px > r.width() - SNAP_PX {
                r.width()
            } else {
                px
            };
            Some((px / r.width().max(1.0) * end as f64).round() as u64)
        }
    };
    let on_down = {
        let (at, drag, sim, live, track) = (at.clone(), drag.clone(), sim.clone(), live.clone(), track.clone());
        Callback::from(move |e: PointerEvent| {
            if !ready || e.button() != 0 {
                return;
            }
            let Some(to) = at(f64::from(e.client_x())) else { return };
            if let Some(el) = track.cast::<web_sys::Element>() {
                let _ = el.set_pointer_capture(e.pointer_id());
            }
            *drag.borrow_mut() = Some((live.playing(), to));
            sim.seek(to, None);
        })
    };
    let on_move = {
        let (at, drag, sim) = (at.clone(), drag.clone(), sim.clone());
        Callback::from(move |e: PointerEvent| {
            let mut d = drag.borrow_mut();
            let Some((playing, last)) = *d else { return };
            let Some(to) = at(f64::from(e.client_x())) else { return };
            if to != last {
                *d = Some((playing, to));
                sim.seek(to, None);
            }
        })
    };
    let on_up = {
        let (drag, sim, live) = (drag.clone(), sim.clone(), live.clone());
        Callback::from(move |_: PointerEvent| {
            if let Some((true, to)) = drag.borrow_mut().take() {
                sim.seek(to, Some(live.speed()));
            }
        })
    };
    let on_key = {
        let (sim, live) = (sim.clone(), live.clone());
        Callback::from(move |e: KeyboardEvent| {
            if !ready {
                return;
            }
            let step = live.run_scenario.as_ref().map_or(end / 100, |s| live.step.ps(s));
            let to = match e.key().as_str() {
                "ArrowRight" | "ArrowUp" => t.saturating_add(step),
                "ArrowLeft" | "ArrowDown" => t.saturating_sub(step),
                "PageUp" => t.saturating_add(end / 10),
                "PageDown" => t.saturating_sub(end / 10),
                "Home" => 0,
                "End" => end,
                _ => return,
            };
            e.prevent_default();
            sim.seek(to.min(end), None);
        })
    };
    let mut moments = live.run_scenario.as_ref().map(|s| tl::moments(s)).unwrap_or_default();
    let measured = live.run_scenario.as_ref().map(|s| tl::measured(s));
    let retunes = live.frame.as_ref().map(|f| f.retunes_ps.clone()).unwrap_or_default();
    // (A run that deadlocked ends before its scenario's end: what lies after it is not drawn past the bar.)
    let frac = |ps: u64| ps.min(end) as f64 / end as f64;
    moments.retain(|m| m.at_ns * 1000 <= end);
    let rows =
        tl::label_rows(&moments.iter().map(|m| (frac(m.at_ns * 1000), m.label.chars().count())).collect::<Vec<_>>());
    let moment = |m: &tl::Moment| {
        let (sim, to) = (sim.clone(), m.at_ns * 1000);
        let onclick = Callback::from(move |_| sim.seek(to, None));
        let title = format!("{} at {}", m.label, format_time_ns(m.at_ns as f64));
        // The button is a finger's width; the dot it shows is small.
        html! {
            <button class={classes!("moment", format!("{:?}", m.kind).to_ascii_lowercase())} style={format!("left: {}", pct(frac(to)))}
                {onclick} title={title.clone()} aria-label={format!("Go to: {title}")} disabled={!ready}
                data-testid={format!("moment-{}", m.label.replace(' ', "-"))} />
        }
    };
    // The slider is the track alone; the moments are buttons of their own beside it (a slider has no parts).
    html! {
        <div class="timeline" data-testid="timeline">
            <div class="track" ref={track} role="slider" tabindex="0" aria-label="Timeline"
                aria-valuemin="0" aria-valuemax={format!("{:.3}", end as f64 / 1e9)} aria-valuenow={format!("{:.3}", t as f64 / 1e9)}
                aria-valuetext={format!("{:.3} ms of {:.3} ms", t as f64 / 1e9, end as f64 / 1e9)} aria-disabled={(!ready).to_string()}
                onkeydown={on_key} onpointerdown={on_down} onpointermove={on_move} onpointerup={on_up.clone()} onpointercancel={on_up}>
                <div class="computed" style={format!("width: {}", pct(frac(horizon)))} />
                if let Some((a, b)) = measured.filter(|(a, b)| b > a) {
                    <div class="measured" data-testid="timeline-measured" style={format!("left: {}; width: {}", pct(frac(a * 1000)), pct(frac(b * 1000) - frac(a * 1000)))}
                        title={format!("measured interval, {} to {}", format_time_ns(a as f64), format_time_ns(b as f64))} />
                }
                <div class="played" style={format!("width: {}", pct(frac(t)))} />
                for r in retunes.iter() {
                    <span class="retune" style={format!("left: {}", pct(frac(*r)))} title={format!("marking changed at {}", format_time_ns(*r as f64 / 1000.0))} />
                }
                <div class="thumb" style={format!("left: {}", pct(frac(t)))} />
            </div>
            <div class="moments" role="group" aria-label="Moments of the run">
                { for moments.iter().map(moment) }
            </div>
            <div class={classes!("moment-labels", rows.contains(&Some(1)).then_some("two-rows"))} aria-hidden="true">
                for (m, row) in moments.iter().zip(&rows) {
                    if let Some(row) = row {
                        <span class={(*row == 1).then_some("second")} style={format!("left: {}", pct(frac(m.at_ns * 1000)))}>{ &m.label }</span>
                    }
                }
            </div>
        </div>
    }
}
