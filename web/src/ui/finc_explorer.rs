//! The Finc(t) explorer (INFOCOM'03 Fig. 5): change `Rmin`, `m`, link rate and packet size and see how fast AIMD,
//! FIMD and LIPD climb from `Rmin` back to `Rmax`.

use super::fields::NumberField;
use super::{storage, theme};
use ibcc_core::cc::response::ResponseFunction;
use ibcc_view::finc_plot::{self, FincInputs, InputError};
use plotters::prelude::IntoDrawingArea;
use plotters_canvas::CanvasBackend;
use serde::{Deserialize, Serialize};
use web_sys::HtmlCanvasElement;
use yew::prelude::*;

const STORAGE_KEY: &str = "ibcc.finc-explorer.v1";

/// The fields as typed, so a half-typed number ("2.") is kept while the user edits.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Fields {
    r_min_divisor: String,
    m: String,
    gbps: String,
    packet_bytes: String,
    log_time: bool,
}

impl Default for Fields {
    fn default() -> Self {
        let d = FincInputs::default();
        Self {
            r_min_divisor: d.r_min_divisor.to_string(),
            m: d.m.to_string(),
            gbps: d.gbps.to_string(),
            packet_bytes: d.packet_bytes.to_string(),
            log_time: d.log_time,
        }
    }
}

impl Fields {
    fn parse(&self) -> Result<FincInputs, InputError> {
        let num = |field: &'static str, s: &str| {
            crate::number::parse(s).ok_or_else(|| InputError { field, message: format!("{s:?} is not a number") })
        };
        let inputs = FincInputs {
            r_min_divisor: num("r_min_divisor", &self.r_min_divisor)?,
            m: num("m", &self.m)?,
            gbps: num("gbps", &self.gbps)?,
            packet_bytes: num("packet_bytes", &self.packet_bytes)?,
            log_time: self.log_time,
        };
        inputs.model()?;
        Ok(inputs)
    }
}

#[component]
pub fn FincExplorer() -> Html {
    let fields = use_state(|| storage::load::<Fields>(STORAGE_KEY).unwrap_or_default());
    let canvas = use_node_ref();
    let parsed = fields.parse();
    // The last valid inputs: a bad field leaves the plot and the times as they were, with the error shown.
    let last_good = use_mut_ref(FincInputs::default);
    if let Ok(inputs) = parsed {
        *last_good.borrow_mut() = inputs;
    }
    let inputs = *last_good.borrow();
    let model = inputs.model().expect("last_good only holds validated inputs");

    {
        let canvas = canvas.clone();
        use_effect_with(inputs, move |_| {
            if let Some(element) = canvas.cast::<HtmlCanvasElement>() {
                if let Some(backend) = CanvasBackend::with_canvas_object(element) {
                    let area = backend.into_drawing_area();
                    if let Err(err) = finc_plot::draw(&area, &model, theme::current()) {
                        web_sys::console::error_1(&format!("Finc plot: {err}").into());
                    }
                }
            }
        });
    }
    {
        let fields = (*fields).clone();
        use_effect_with(fields, |f| storage::save(STORAGE_KEY, f));
    }

    let error_for = |field: &str| match &parsed {
        Err(e) if e.field == field => Some(AttrValue::from(e.message.clone())),
        _ => None,
    };
    let setter = |apply: fn(&mut Fields, String)| {
        let fields = fields.clone();
        Callback::from(move |v: String| {
            let mut next = (*fields).clone();
            apply(&mut next, v);
            fields.set(next);
        })
    };
    let on_log = {
        let fields = fields.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            fields.set(Fields { log_time: input.checked(), ..(*fields).clone() });
        })
    };
    let on_reset = {
        let fields = fields.clone();
        Callback::from(move |_| fields.set(Fields::default()))
    };

    html! {
        <section class="finc-explorer" aria-labelledby="finc-title" data-testid="finc">
            <h2 id="finc-title">{ "How fast does a source recover? Finc(t) explorer" }</h2>
            <p class="lede">
                { "After a marked ACK a source lowers its rate limit with fdec; every unmarked ACK raises it with finc. " }
                { "Finc(t) is the rate a flow reaches t after leaving Rmin with no further marks (INFOCOM'03 §V, Fig. 5). " }
                { "FIMD and LIPD are designed so that the recovery from any single decrease takes the same time, Trec = 1/Rmin (Condition 3)." }
            </p>
            <div class="explorer-layout">
                <form class="params" aria-label="Finc(t) parameters" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                    <NumberField id="r-min" label="Rmin = Rmax /" unit="" value={fields.r_min_divisor.clone()}
                        help="Lowest rate limit, as a fraction of the link rate. InfiniBand's 256 IPD values give Rmax/256."
                        error={error_for("r_min_divisor")} on_change={setter(|f, v| f.r_min_divisor = v)} />
                    <NumberField id="m" label="m" unit="" value={fields.m.clone()}
                        help="Decrease factor of AIMD and FIMD: a mark divides the rate by m. LIPD does not use it."
                        error={error_for("m")} on_change={setter(|f, v| f.m = v)} />
                    <NumberField id="gbps" label="Link rate" unit="Gb/s" value={fields.gbps.clone()}
                        help="Rate of the source's link (Rmax). The papers' 1 GB/s InfiniBand 4X link is 8 Gb/s."
                        error={error_for("gbps")} on_change={setter(|f, v| f.gbps = v)} />
                    <NumberField id="packet-bytes" label="Packet size" unit="bytes" value={fields.packet_bytes.clone()}
                        help="Sets the packet time, the unit in which ACKs arrive. The paper uses 2048 bytes."
                        error={error_for("packet_bytes")} on_change={setter(|f, v| f.packet_bytes = v)} />
                    <div class="field checkbox">
                        <input id="log-time" type="checkbox" checked={fields.log_time} onchange={on_log} data-testid="input-log-time" />
                        <label for="log-time">{ "Logarithmic time axis" }</label>
                    </div>
                    <button type="button" onclick={on_reset} data-testid="reset-finc">{ "Paper defaults" }</button>
                </form>
                <div class="plot-panel">
                    <canvas ref={canvas} width="880" height="480" data-testid="finc-plot" role="img"
                        aria-label="Finc(t) divided by Rmax against time for AIMD, FIMD and LIPD" />
                    <div class="table-scroll"><table class="results" data-testid="recovery-times">
                        <caption>{ format!("Time from Rmin to Rmax (packet time {:.4} µs)", model.packet_time_ms * 1e3) }</caption>
                        <thead><tr><th scope="col">{ "function" }</th><th scope="col">{ "Rmin → Rmax" }</th><th scope="col">{ "Trec after one mark at Rmax" }</th></tr></thead>
                        <tbody>
                            for f in ResponseFunction::ALL {
                                <tr>
                                    <th scope="row">{ f.name() }</th>
                                    <td data-testid={format!("recovery-{}", f.name().to_ascii_lowercase())}>
                                        { format_ms(model.time_to_rmax_ms(f)) }
                                    </td>
                                    <td>{ format_ms(f.recovery_time(&model.params, 1.0) * model.packet_time_ms) }</td>
                                </tr>
                            }
                        </tbody>
                    </table></div>
                </div>
            </div>
        </section>
    }
}

fn format_ms(ms: f64) -> String {
    if ms >= 100.0 {
        format!("{ms:.1} ms")
    } else if ms >= 1.0 {
        format!("{ms:.3} ms")
    } else {
        format!("{:.3} µs", ms * 1e3)
    }
}
