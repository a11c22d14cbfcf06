//! A live plot on a canvas, of the kind the user picks (rates, rate limits, buffers, marks), with PNG and CSV
//! downloads of what it shows.

use super::super::download::{download, download_text};
use super::super::theme;
use crate::rate_plot::{self, Curve, YAxis};
use crate::trace::PlotKind;
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct PlotProps {
    pub kind: PlotKind,
    pub on_kind: Callback<PlotKind>,
    pub curves: Rc<Vec<Curve>>,
    pub end_ms: f64,
    pub y: YAxis,
    /// Prefix of element ids and test ids, so two plots can share a page.
    #[prop_or_default]
    pub prefix: AttrValue,
    /// Outlined (a lesson step points at it).
    #[prop_or_default]
    pub highlighted: bool,
}

#[component]
pub fn Plot(p: &PlotProps) -> Html {
    let canvas = use_node_ref();
    {
        let canvas = canvas.clone();
        let (curves, end_ms, y) = (p.curves.clone(), p.end_ms, p.y.clone());
        use_effect_with((curves.clone(), end_ms.to_bits(), y.clone()), move |_| {
            if let Some(backend) = canvas.cast::<HtmlCanvasElement>().and_then(CanvasBackend::with_canvas_object) {
                if let Err(err) =
                    rate_plot::draw(&backend.into_drawing_area(), &curves, end_ms, &y, theme::plot_theme())
                {
                    web_sys::console::error_1(&format!("rate plot: {err}").into());
                }
            }
        });
    }
    let kind = p.kind;
    let on_png = {
        let canvas = canvas.clone();
        Callback::from(move |_| {
            if let Some(url) = canvas.cast::<HtmlCanvasElement>().and_then(|c| c.to_data_url().ok()) {
                download(&url, &format!("ibcc-{}.png", kind.id()));
            }
        })
    };
    let on_csv = {
        let curves = p.curves.clone();
        Callback::from(move |_| {
            let csv = rate_plot::to_csv(&curves);
            download_text(&csv, "text/csv", &format!("ibcc-{}.csv", kind.id()));
        })
    };
    let on_kind = {
        let cb = p.on_kind.clone();
        Callback::from(move |e: Event| {
            let select: web_sys::HtmlSelectElement = e.target_unchecked_into();
            cb.emit(PlotKind::from_id(&select.value()));
        })
    };
    let pre = &p.prefix;
    html! {
        <figure class={classes!("plot-figure", p.highlighted.then_some("lesson-mark-plot"))} data-testid={format!("{pre}plot-figure")}>
            <figcaption>
                <label for={format!("{pre}plot-kind")}>{ "Plot" }</label>
                <select id={format!("{pre}plot-kind")} onchange={on_kind} data-testid={format!("{pre}plot-kind")}>
                    for k in PlotKind::ALL {
                        <option value={k.id()} selected={k == p.kind}>{ k.label() }</option>
                    }
                </select>
                <button onclick={on_png} data-testid={format!("{pre}export-png")}>{ "Download PNG" }</button>
                <button onclick={on_csv} data-testid={format!("{pre}export-csv")}>{ "Download CSV" }</button>
            </figcaption>
            <canvas ref={canvas} width="860" height="300" class="rate-plot" data-testid={format!("{pre}rate-plot")} role="img"
                aria-label={format!("{} over simulated time", p.kind.label())} data-curves={p.curves.len().to_string()} />
        </figure>
    }
}
