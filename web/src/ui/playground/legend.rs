//! The canvas's legend, drawn by the same functions that draw the network (`topology.rs`) from the palette's list
//! of marks, so it covers every mark on screen and cannot drift from it: the rate scale with its values, blocked
//! links, roots, ECN marks, buffer fill, each flow group's colour, and the contributor and victim halos.

use super::network::{buffer_bar, cycle_arrow, flow_path, lane, mark_dot, LaneLook, Role};
use crate::scene::BufferSpot;
use ibcc_view::palette::{self, Mark};
use yew::prelude::*;

/// A small drawing 44 by 16 units.
fn sample(content: Html) -> Html {
    html! { <svg class="legend-sample" viewBox="0 0 44 16" width="44" height="16" aria-hidden="true">{ content }</svg> }
}

fn bar(fill: f64) -> Html {
    let spot = BufferSpot { channel: 0, centre: (22.0, 8.0), angle_deg: 0.0, length: 30.0, width: 7.0 };
    buffer_bar(&spot, fill, &[(fill, fill >= 1.0)], "legend", false)
}

/// A buffer bar of two VLs: VL 0 full, VL 1 filling.
fn stripes() -> Html {
    let spot = BufferSpot { channel: 0, centre: (22.0, 8.0), angle_deg: 0.0, length: 30.0, width: 10.0 };
    buffer_bar(&spot, 0.7, &[(1.0, true), (0.4, false)], "legend", false)
}

fn flow(colour: palette::Colour, role: Option<Role>) -> Html {
    flow_path("M3,13 Q22,-3 41,13", colour, role, classes!(), "legend")
}

/// What each mark looks like.
fn drawing(m: Mark) -> Html {
    let line = |look: LaneLook| lane((3.0, 8.0), (41.0, 8.0), look, "legend");
    match m {
        Mark::Rate => html! {},
        // (Over a blocked link, as a cycle's links always are.)
        Mark::Cycle => {
            html! { <>{ drawing(Mark::Blocked) }{ cycle_arrow((-19.0, 8.0), (63.0, 8.0), 3.0, "legend") }</> }
        }
        Mark::Blocked => line(LaneLook { rate: Some(0.3), blocked: true, root: false }),
        Mark::Root => line(LaneLook { rate: Some(1.0), blocked: false, root: true }),
        Mark::Ecn => {
            html! { <>{ line(LaneLook { rate: Some(0.6), ..LaneLook::default() }) }{ mark_dot((16.0, 8.0), 10, "legend") }</> }
        }
        Mark::Buffer => bar(0.5),
        Mark::BufferFull => bar(1.0),
        Mark::Contributor => flow(palette::GREY, Some(Role::Contributor)),
        Mark::Victim => flow(palette::GREY, Some(Role::Victim)),
    }
}

#[derive(Properties, PartialEq)]
pub struct LegendProps {
    /// The scenario's groups, in first-appearance order.
    pub groups: Vec<String>,
    /// Data VLs per port: with more than one, each buffer bar is a stripe per VL.
    #[prop_or(1)]
    pub vls: u8,
    /// A traffic pattern's routes are drawn (the pattern tool, a route, a credit loop): a lane's width is its share
    /// of the busiest lane's routes, not a rate.
    #[prop_or_default]
    pub routes: bool,
    /// A cycle of links is drawn (a deadlock, or a credit loop the check found).
    #[prop_or_default]
    pub cycle: bool,
    /// A run's state is drawn: its blocked links, roots, marks and buffers (not in a view that shows the network
    /// alone, before any run).
    #[prop_or(true)]
    pub run: bool,
    /// Every bundle of parallel cables holds this many (`scene::uniform_bundles`): said here, not on each.
    #[prop_or_default]
    pub bundles: Option<usize>,
}

#[component]
pub fn Legend(p: &LegendProps) -> Html {
    // Folded in an embedded page, where the drawing has little room.
    let open = use_state(|| !super::super::share::embedded());
    let toggle = {
        let open = open.clone();
        Callback::from(move |_| open.set(!*open))
    };
    let colours = palette::group_colours(&p.groups);
    let rate = |r: f32, label: &'static str| {
        html! {
            <span class="rate-step">
                { sample(lane((3.0, 8.0), (41.0, 8.0), LaneLook { rate: Some(r), ..LaneLook::default() }, "legend")) }
                <span>{ label }</span>
            </span>
        }
    };
    html! {
        <div class={classes!("legend", (*open).then_some("open"))} data-testid="legend">
            <button class="legend-toggle" onclick={toggle} aria-expanded={open.to_string()} data-testid="legend-toggle"
                title={if *open { "Fold the legend away" } else { "Show the legend" }}>
                { if *open { "Legend ▾" } else { "Legend" } }
            </button>
            if *open {
                <ul aria-label="Legend">
                    <li data-testid="legend-rate">
                        if p.routes {
                            <span class="rates">{ rate(0.0, "none") }{ rate(0.5, "half") }{ rate(1.0, "most") }</span>
                            <span>{ "routes on a link: thicker carries more of the routes shown" }</span>
                        } else {
                            <span class="rates">{ rate(0.0, "idle") }{ rate(0.5, "50%") }{ rate(1.0, "100%") }</span>
                            <span>{ Mark::Rate.meaning() }</span>
                        }
                    </li>
                    // (A cycle only where one is drawn; with no run drawn, or a pattern's routes drawn instead, none of a
                    // run's marks is on the drawing.)
                    for m in Mark::ALL.into_iter().filter(|&m| match m {
                        Mark::Rate => false,
                        Mark::Cycle => p.cycle,
                        _ => p.run && !p.routes,
                    }) {
                        <li data-testid={format!("legend-{}", m.id())}>{ sample(drawing(m)) }<span>{ m.meaning() }</span></li>
                    }
                    if let Some(n) = p.bundles {
                        <li data-testid="legend-bundles">
                            { sample(html! { <>{ lane((3.0, 12.0), (41.0, 12.0), LaneLook { rate: Some(0.3), ..LaneLook::default() }, "legend") }<text x="22" y="8" class="cables-label">{ format!("×{n}") }</text></> }) }
                            <span>{ format!("every bundle of parallel cables here is {n} cables, drawn as one link") }</span>
                        </li>
                    }
                    if p.vls > 1 && p.run && !p.routes {
                        <li data-testid="legend-vl-stripes">{ sample(stripes()) }<span>{ "a stripe per virtual lane (VL 0 on top)" }</span></li>
                    }
                    for (g, c) in p.groups.iter().zip(colours) {
                        <li data-testid={format!("legend-group-{g}")}>
                            { sample(flow(c, None)) }
                            <span>{ format!("{}: {}", c.name, ibcc_view::names::group_curve(g)) }</span>
                        </li>
                    }
                </ul>
            }
        </div>
    }
}
