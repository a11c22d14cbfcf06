//! A plot on a canvas that fits its box (drawn at the screen's pixel density, with text at least 11 CSS px), and
//! its PNG (twice the screen's pixels, with a title) and CSV downloads. The live plot, the A/B comparison and the
//! sweep all draw through it.

use super::download::{download, download_text};
use super::theme;
use ibcc_view::plot::{self, Curve, Figure, YAxis};
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use std::rc::Rc;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsCast;
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

/// What a plot shows, besides its curves.
#[derive(Debug, Clone, PartialEq)]
pub struct Axes {
    pub x: (f64, f64),
    pub x_desc: String,
    pub x_log: bool,
    /// Names of the choices at x = 0, 1, 2... when x is a list of them (`plot::Figure::x_names`).
    pub x_names: Rc<Vec<String>>,
    pub y: YAxis,
    /// The scenario's groups, for their colours.
    pub groups: Rc<Vec<String>>,
    pub markers: bool,
    pub band: Option<(f64, f64)>,
    /// The title of the PNG.
    pub title: String,
    /// The CSV's first column.
    pub x_name: String,
}

#[derive(Properties, PartialEq)]
pub struct ChartProps {
    pub curves: Rc<Vec<Curve>>,
    pub axes: Axes,
    /// File names of the downloads, without extension.
    pub file: AttrValue,
    #[prop_or_default]
    pub testid: AttrValue,
    /// Controls shown before the downloads (a plot kind picker).
    #[prop_or_default]
    pub children: Html,
    #[prop_or_default]
    pub highlighted: bool,
}

fn figure<'a>(curves: &'a [Curve], a: &'a Axes, title: Option<&'a str>, scale: f64) -> Figure<'a> {
    Figure {
        curves,
        x: a.x,
        x_desc: &a.x_desc,
        x_log: a.x_log,
        x_names: &a.x_names,
        y: &a.y,
        groups: &a.groups,
        title,
        theme: theme::current(),
        scale,
        markers: a.markers,
        band: a.band,
    }
}

/// Draws on `canvas` at its CSS size (`size`, as last observed: reading it here, just after the page changed, would
/// make the browser lay the page out there and then) times `scale` pixels.
fn paint(canvas: &HtmlCanvasElement, size: (i32, i32), curves: &[Curve], a: &Axes, title: Option<&str>, scale: f64) {
    let (w, h) = (f64::from(size.0).max(200.0), f64::from(size.1).max(120.0));
    let (pw, ph) = ((w * scale).round() as u32, (h * scale).round() as u32);
    if canvas.width() != pw || canvas.height() != ph {
        canvas.set_width(pw);
        canvas.set_height(ph);
    }
    if let Some(backend) = CanvasBackend::with_canvas_object(canvas.clone()) {
        if let Err(err) = plot::draw(&backend.into_drawing_area(), &figure(curves, a, title, scale)) {
            web_sys::console::error_1(&format!("plot: {err}").into());
        }
    }
}

#[component]
pub fn Chart(p: &ChartProps) -> Html {
    let canvas = use_node_ref();
    let theme = theme::use_theme();
    // Redrawn when the curves or axes change, when the box is resized, and when the system's theme changes.
    let size = use_state(|| (0, 0));
    {
        let (canvas, size) = (canvas.clone(), size.clone());
        use_effect_with((), move |_| {
            let observer = canvas.cast::<HtmlCanvasElement>().and_then(|c| {
                let cb = Closure::<dyn FnMut()>::new({
                    let c = c.clone();
                    move || size.set((c.client_width(), c.client_height()))
                });
                let ro = web_sys::ResizeObserver::new(cb.as_ref().unchecked_ref()).ok()?;
                ro.observe(&c);
                Some((ro, cb))
            });
            move || {
                if let Some((ro, _cb)) = observer {
                    ro.disconnect();
                }
            }
        });
    }
    {
        let canvas = canvas.clone();
        use_effect_with((p.curves.clone(), p.axes.clone(), *size, theme), move |(curves, axes, size, _)| {
            if let Some(c) = canvas.cast::<HtmlCanvasElement>() {
                // Before the first observation (the observer reports the size as it starts), measured once.
                let size = if *size == (0, 0) { (c.client_width(), c.client_height()) } else { *size };
                paint(&c, size, curves, axes, None, theme::pixel_ratio());
            }
        });
    }
    let on_png = {
        let (curves, axes, file, shown) = (p.curves.clone(), p.axes.clone(), p.file.clone(), canvas.clone());
        Callback::from(move |_| {
            // Off screen, at twice the plot's size on the screen (at least 900 by 400 CSS pixels), with a title.
            let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
            let Some(c) = doc.create_element("canvas").ok().and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok()) else {
                return;
            };
            let (w, h) = shown
                .cast::<HtmlCanvasElement>()
                .map_or((900, 400), |s| (s.client_width().max(900), s.client_height().max(400)));
            c.set_width(2 * w as u32);
            c.set_height(2 * h as u32);
            if let Some(backend) = CanvasBackend::with_canvas_object(c.clone()) {
                let f = figure(&curves, &axes, Some(&axes.title), 2.0);
                if plot::draw(&backend.into_drawing_area(), &f).is_ok() {
                    if let Ok(url) = c.to_data_url() {
                        download(&url, &format!("{file}.png"));
                    }
                }
            }
        })
    };
    let on_csv = {
        let (curves, axes, file) = (p.curves.clone(), p.axes.clone(), p.file.clone());
        Callback::from(move |_| {
            download_text(&plot::to_csv(&axes.x_name, &axes.x_names, &curves), "text/csv", &format!("{file}.csv"));
        })
    };
    let t = &p.testid;
    html! {
        <figure class={classes!("plot-figure", p.highlighted.then_some("lesson-mark-plot"))} data-testid={format!("{t}plot-figure")}>
            <figcaption>
                { p.children.clone() }
                <span class="downloads">
                    <button onclick={on_png} data-testid={format!("{t}export-png")} title="The plot as a picture, with a title">{ "PNG" }</button>
                    <button onclick={on_csv} data-testid={format!("{t}export-csv")} title="The plotted numbers as a table">{ "CSV" }</button>
                </span>
            </figcaption>
            <canvas ref={canvas} class="chart" data-testid={format!("{t}rate-plot")} role="img"
                aria-label={p.axes.title.clone()} data-curves={p.curves.len().to_string()} data-x-max={p.axes.x.1.to_string()} />
        </figure>
    }
}
