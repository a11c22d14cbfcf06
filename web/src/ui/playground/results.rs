//! The results so far: per group throughput and fairness, the busiest links, and the packet totals.

use ibcc_core::sim::Results;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ResultsProps {
    pub results: Rc<Results>,
    /// When the scenario starts measuring (`measure.from_ns`), in nanoseconds.
    pub measure_from_ns: f64,
}

#[component]
pub fn ResultsTable(p: &ResultsProps) -> Html {
    let r = &p.results;
    let mut links: Vec<_> = r.links.iter().filter(|l| l.data_packets > 0).collect();
    links.sort_by(|a, b| b.utilization.total_cmp(&a.utilization));
    let t = &r.totals;
    html! {
        <div class="results-panel" data-testid="results-table">
            <table class="results">
                                <caption>
                    if r.simulated_ns < p.measure_from_ns {
                        { format!("Groups: measuring starts at {:.1} ms (measure.from_ns)", p.measure_from_ns / 1e6) }
                    } else {
                        { format!("Groups, measured from {:.1} to {:.1} ms", r.measured_from_ns / 1e6, r.measured_to_ns / 1e6) }
                    }
                </caption>
                <thead><tr><th scope="col">{ "group" }</th><th scope="col">{ "flows" }</th><th scope="col">{ "throughput" }</th><th scope="col">{ "Jain" }</th><th scope="col" title="marked ACKs over the whole run">{ "marks" }</th><th scope="col">{ "delay" }</th></tr></thead>
                <tbody>
                    for g in &r.groups {
                        <tr data-testid={format!("group-{}", g.name)}>
                            <th scope="row">{ &g.name }</th>
                            <td>{ g.flows }</td>
                            <td>{ format!("{:.1}%", 100.0 * g.throughput_fraction) }</td>
                            <td>{ format!("{:.3}", g.jain_index) }</td>
                            <td title={format!("{} in the measurement interval", g.measured_marks)}>{ g.marks }</td>
                            <td>{ g.mean_delay_ns.map_or_else(|| String::from("-"), |d| format!("{:.1} µs", d / 1e3)) }</td>
                        </tr>
                    }
                </tbody>
            </table>
            <table class="results">
                <caption>{ "Busiest links" }</caption>
                <thead><tr><th scope="col">{ "link" }</th><th scope="col">{ "utilization" }</th><th scope="col">{ "marks" }</th><th scope="col">{ "credit stall" }</th></tr></thead>
                <tbody>
                    for l in links.iter().take(8) {
                        <tr>
                            <th scope="row">{ &l.id }</th>
                            <td>{ format!("{:.1}%", 100.0 * l.utilization) }</td>
                            <td>{ l.marks }</td>
                            <td>{ format!("{:.2} ms", l.credit_stall_ns / 1e6) }</td>
                        </tr>
                    }
                </tbody>
            </table>
                        <details>
                <summary>{ format!("Flows ({})", r.flows.len()) }</summary>
                <table class="results" data-testid="flows-table">
                    <thead><tr><th scope="col">{ "flow" }</th><th scope="col">{ "throughput" }</th><th scope="col">{ "rate limit" }</th><th scope="col">{ "window" }</th><th scope="col">{ "marks" }</th><th scope="col">{ "delay" }</th></tr></thead>
                    <tbody>
                        for f in r.flows.iter().take(200) {
                            <tr data-testid={format!("flow-row-{}", f.id)}>
                                <th scope="row" title={format!("{} -> {} ({})", f.src, f.dst, f.group)}>{ &f.id }</th>
                                <td>{ format!("{:.1}%", 100.0 * f.throughput_fraction) }</td>
                                <td>{ format!("{:.3}", f.rate_limit) }</td>
                                <td>{ f.window.map_or_else(|| String::from("-"), |w| w.to_string()) }</td>
                                <td>{ f.marks }</td>
                                <td>{ f.mean_delay_ns.map_or_else(|| String::from("-"), |d| format!("{:.1} µs", d / 1e3)) }</td>
                            </tr>
                        }
                    </tbody>
                </table>
            </details>
            <p class="totals" data-testid="totals">
                { format!("injected {}, delivered {}, in flight {}, dropped {}, marked {}", t.injected_packets, t.delivered_packets, t.in_flight_packets, t.dropped_packets, t.marked_packets) }
            </p>
        </div>
    }
}
