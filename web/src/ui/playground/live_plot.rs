//! The live plot beside the network: the kind the user picks (rates as in INFOCOM'03 Fig. 2, rate limits,
//! buffers, marks), over the whole run's time axis with the measured interval shaded, filling in as the run goes.

use super::super::chart::{Axes, Chart};
use super::super::document::Same;
use super::live::{use_live, use_sim};
use super::network::groups;
use super::HighlightCtx;
use crate::course::Highlight;
use crate::moments;
use crate::trace::y_axis;
use ibcc_core::sim::Metric;
use ibcc_view::names::PlotKind;
use ibcc_view::plot::What;
use std::rc::Rc;
use yew::prelude::*;

#[component]
pub fn Plot() -> Html {
    let live = use_live();
    let sim = use_sim();
    let highlight = use_context::<HighlightCtx>();
    let kind = live.kind;
    let scenario = live.run_scenario.clone();
    let groups =
        use_memo(scenario.clone().map(Same), |s| Rc::new(s.as_ref().map(|s| groups(&s.0)).unwrap_or_default()));
    let window_ms = scenario.as_ref().map_or(2.0, |s| s.measure.window_ns as f64 / 1e6);
    let (desc, top) = y_axis(kind, window_ms);
    // Before the first frame, the axis spans the scenario's run.
    let end_ms = match (&live.frame, &scenario) {
        (None, Some(s)) => s.duration_ns as f64 / 1e6,
        _ => live.end_ps() as f64 / 1e9,
    };
    let band = scenario.as_ref().map(|s| {
        let (a, b) = moments::measured(s);
        (a as f64 / 1e6, b as f64 / 1e6)
    });
    // The PNG's title says what ran: the preset's title, "Edited: ..." once changed.
    let run_title = {
        let run = scenario.clone();
        use_memo(scenario.as_ref().map(|r| Rc::as_ptr(r) as usize), move |_| {
            run.as_ref().map(|s| crate::origin::run_title(s)).unwrap_or_default()
        })
    };
    let title = format!("{}: {}", run_title, kind.label());
    let axes = Axes {
        x: (0.0, end_ms.max(1e-3)),
        x_desc: String::from("simulated time (ms)"),
        x_log: false,
        x_names: Rc::default(),
        y: ibcc_view::plot::YAxis { desc, top },
        groups: (*groups).clone(),
        markers: false,
        band,
        title,
        x_name: String::from("time_ms"),
    };
    let on_kind = {
        let sim = sim.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            sim.set_plot(PlotKind::from_id(&select.value()));
        })
    };
    let highlighted = highlight.as_ref().is_some_and(|h| matches!(**h, Some(Highlight::Plot(_))));
    // The link a lesson step points at is plotted first ("look at A->B": its curve is there).
    {
        let pointed = highlight.as_ref().and_then(|h| match &**h {
            Some(Highlight::Link(name)) => Some(name.clone()),
            _ => None,
        });
        let (sim, run) = (sim.clone(), scenario.clone());
        use_effect_with((pointed, scenario.as_ref().map(|s| Rc::as_ptr(s) as usize)), move |(pointed, _)| {
            sim.plot_link(pointed.as_deref().and_then(|name| run.as_ref()?.channel(name)));
        });
    }
    // A lesson step pointing at the plot scrolls it onto the screen.
    let panel = use_node_ref();
    {
        let panel = panel.clone();
        let pointed = highlight.as_ref().and_then(|h| (**h).clone()).filter(|h| matches!(h, Highlight::Plot(_)));
        use_effect_with(pointed, move |p| {
            if let (Some(_), Some(el)) = (p, panel.cast::<web_sys::Element>()) {
                super::scroll_into_view(&el);
            }
        });
    }
    let file = format!("ibcc-{}", kind.id());
    // The value an open exercise asks for stays out of the plot (and its PNG and CSV) until it is answered.
    let hidden = super::use_hidden_measure();
    let held = super::use_held();
    let curves = match &hidden {
        None => live.curves.clone(),
        Some(_) => Rc::new(
            live.curves
                .iter()
                .map(|c| {
                    let mut c = c.clone();
                    let name = c.label.clone();
                    super::hold_back(&mut c, &name, &held);
                    c
                })
                .collect(),
        ),
    };
    // A group's rate is what its hosts send: more than the link its flows share while the buffers on their way
    // fill (a hot spot's first milliseconds). Said where the curve stands above 100%.
    let over = kind == PlotKind::Rates
        && curves.iter().any(|c| matches!(c.what, What::Group(_)) && c.points.iter().any(|p| p.1 > 100.5));
    let hidden_label = hidden.map(|m| match m {
        Metric::GroupRate { group } => group,
        Metric::LinkRate { link } => link,
    });
    html! {
        <div class="plot-panel" data-testid="plot-panel" data-hidden={hidden_label} ref={panel}>
            <Chart curves={curves} axes={axes} file={file} highlighted={highlighted}>
                <label class="plot-kind">
                    <span class="visually-hidden">{ "Plot" }</span>
                    <select id="plot-kind" onchange={on_kind} data-testid="plot-kind" aria-label="Plot">
                        for k in PlotKind::ALL {
                            <option value={k.id()} selected={k == kind}>{ k.label() }</option>
                        }
                    </select>
                </label>
                if over {
                    <span class="plot-note" data-testid="plot-over-note">{ "A group's rate is what its hosts send: above 100% while buffers on its way fill." }</span>
                }
            </Chart>
        </div>
    }
}
