//! The playground's live rate plot on a canvas: the chosen links and every group of flows.

use super::super::theme;
use crate::rate_plot::{self, Curve};
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use std::rc::Rc;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct RatePlotProps {
    pub curves: Rc<Vec<Curve>>,
    pub end_ms: f64,
    pub window_ms: f64,
}

/// Saves `url` as a file called `name` (a temporary link, clicked).
fn download(url: &str, name: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Ok(a) = document.create_element("a") else { return };
    let _ = a.set_attribute("href", url);
    let _ = a.set_attribute("download", name);
    if let Some(body) = document.body() {
        let _ = body.append_child(&a);
        if let Some(el) = wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlElement>(&a) {
            el.click();
        }
        let _ = body.remove_child(&a);
    }
}

#[component]
pub fn RatePlot(p: &RatePlotProps) -> Html {
    let canvas = use_node_ref();
    {
        let canvas = canvas.clone();
        let (curves, end_ms, window_ms) = (p.curves.clone(), p.end_ms, p.window_ms);
        use_effect_with((curves.clone(), end_ms.to_bits()), move |_| {
            if let Some(backend) = canvas.cast::<HtmlCanvasElement>().and_then(CanvasBackend::with_canvas_object) {
                if let Err(err) =
                    rate_plot::draw(&backend.into_drawing_area(), &curves, end_ms, window_ms, theme::plot_theme())
                {
                    web_sys::console::error_1(&format!("rate plot: {err}").into());
                }
            }
        });
    }
    let on_png = {
        let canvas = canvas.clone();
        Callback::from(move |_| {
            if let Some(url) = canvas.cast::<HtmlCanvasElement>().and_then(|c| c.to_data_url().ok()) {
                download(&url, "ibcc-rates.png");
            }
        })
    };
    let on_csv = {
        let curves = p.curves.clone();
        Callback::from(move |_| {
            let csv = rate_plot::to_csv(&curves);
            let url = format!("data:text/csv;charset=utf-8,{}", String::from(js_sys::encode_uri_component(&csv)));
            download(&url, "ibcc-rates.csv");
        })
    };
    html! {
        <figure class="plot-figure">
            <canvas ref={canvas} width="860" height="300" class="rate-plot" data-testid="rate-plot" role="img"
                aria-label="Link and group rates over simulated time" />
            <figcaption>
                <button onclick={on_png} data-testid="export-png">{ "Download PNG" }</button>
                <button onclick={on_csv} data-testid="export-csv">{ "Download CSV" }</button>
            </figcaption>
        </figure>
    }
}
