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
    html! {
        <canvas ref={canvas} width="860" height="300" class="rate-plot" data-testid="rate-plot" role="img"
            aria-label="Link and group rates over simulated time" />
    }
}
