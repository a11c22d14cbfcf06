//! The page shell: the header with the views (the playground, the A/B comparison, the sweep, the Finc(t)
//! explorer; kept in the URL fragment so a view can be linked and survives a reload), and the document they all
//! work on: the scenario from a share link, an exercise link, the browser's saved work, or the default preset.

use super::compare::Compare;
use super::document::{
    keep_link_moment, preset_scenario, restore, restored_moment, save, Doc, DocCtx, Origin, Same, DEFAULT_PRESET,
};
use super::finc_explorer::FincExplorer;
use super::impact_run::{use_impact, ImpactCtx};
use super::impact_view::{use_routes, Impact, RoutesCtx};
use super::playground::live::{use_run_follows, Live, LiveAction, LiveCtx, RunCtx, Sim, SimCtx};
use super::playground::{Embedded, HighlightCtx, Playground};
use super::selftest_page::{self, SelfTest};
use super::share;
use super::share_codec::Opened;
use super::sweep_view::{use_sweep, Sweep, SweepCtx};
use super::theme;
use std::rc::Rc;
use yew::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    Playground,
    Compare,
    Sweep,
    Impact,
    Finc,
}

impl View {
    const ALL: [View; 5] = [View::Playground, View::Compare, View::Sweep, View::Impact, View::Finc];

    fn hash(self) -> &'static str {
        match self {
            View::Playground => "",
            View::Compare => "compare",
            View::Sweep => "sweep",
            View::Impact => "impact",
            View::Finc => "finc",
        }
    }

    fn label(self) -> &'static str {
        match self {
            View::Playground => "Playground",
            View::Compare => "Compare A/B",
            View::Sweep => "Sweep",
            View::Impact => "Congestion impact",
            View::Finc => "Finc(t) explorer",
        }
    }

    fn testid(self) -> &'static str {
        match self {
            View::Playground => "tab-playground",
            View::Compare => "tab-compare",
            View::Sweep => "tab-sweep",
            View::Impact => "tab-impact",
            View::Finc => "tab-finc",
        }
    }
}

fn hash() -> String {
    web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default()
}

fn view_from_hash() -> View {
    let h = hash();
    View::ALL.into_iter().find(|v| !v.hash().is_empty() && h == format!("#{}", v.hash())).unwrap_or(View::Playground)
}

#[derive(Debug, Properties, PartialEq)]
pub struct AppProps {
    /// The links the page was opened with.
    pub opened: Rc<Opened>,
}

#[component]
pub fn App(p: &AppProps) -> Html {
    use_effect_with((), |_| theme::install_palette());
    if let Some(test) = selftest_page::requested() {
        return html! { <main><SelfTest test={test} /></main> };
    }
    html! { <Shell opened={p.opened.clone()} /> }
}

#[component]
fn Shell(p: &AppProps) -> Html {
    // A share link in the address wins over an exercise link, which wins over the work saved in the browser.
    let linked = use_memo(p.opened.clone(), |o| share::from_link(&o.share));
    let exercise = use_memo(p.opened.clone(), |o| share::exercise_from_link(&o.exercise).map(Rc::new));
    // Embedded in another page, the playground shows its link's scenario and leaves the visitor's saved work alone.
    let embedded = *use_memo((), |_| share::embedded());
    let restored = use_memo((), move |_| if embedded { Ok(None) } else { restore() });
    let doc = use_reducer(|| {
        let from_exercise = exercise
            .as_ref()
            .as_ref()
            .and_then(|e| e.as_ref().as_ref().ok())
            .and_then(|sheet| sheet.exercises.first()?.scenario().ok());
        match (&*linked, from_exercise, &*restored) {
            (Some(Ok((s, _, _))), _, _) => Doc::new(s.clone(), Origin::Link),
            (_, Some(s), _) => Doc::new(s, Origin::Exercise),
            (_, _, Ok(Some((s, origin)))) => Doc::new(s.clone(), origin.clone()),
            _ => {
                let (s, origin) = preset_scenario(DEFAULT_PRESET);
                Doc::new(s, origin)
            }
        }
    });
    // The run lives here, so it goes on whatever view is shown.
    let live = use_reducer(Live::default);
    // A share link made at a moment of its run opens there: its first run is computed up to it and paused. So
    // does the page reloaded on that link's scenario, unchanged (the link has left the address by then).
    let moment = *use_memo((), {
        let (linked, origin, end_ps) =
            (linked.clone(), doc.origin.clone(), doc.scenario.duration_ns.saturating_mul(1_000));
        move |_| match &*linked {
            Some(Ok((_, _, at))) => {
                if !embedded {
                    keep_link_moment(*at);
                }
                *at
            }
            _ if !embedded => restored_moment(&origin).filter(|&at| at <= end_ps),
            _ => None,
        }
    });
    let sim = use_memo((), {
        let dispatch = live.dispatcher();
        move |_| {
            let sim = Rc::new(Sim::new(dispatch));
            if let Some(at_ps) = moment {
                sim.then_seek(at_ps);
            }
            sim
        }
    });
    let sim: Rc<Sim> = (*sim).clone();
    let highlight = use_state(|| None::<crate::course::Highlight>);
    // The sweep's and the congestion impact view's runs live here too: they go on, and their results stay, whatever
    // view is shown.
    let impact = use_impact();
    let routes = use_routes();
    let sweep = use_sweep();
    use_run_follows(&doc, &live, &sim);
    // A share link also says which plot it was shared with, and the moment it opens at is said (after the first
    // run's load, which clears what was said before it).
    {
        let (sim, linked, live) = (sim.clone(), linked.clone(), live.clone());
        let duration_ns = doc.scenario.duration_ns;
        use_effect_with((), move |_| {
            if let Some(Ok((_, Some(kind), _))) = &*linked {
                sim.set_plot(*kind);
            }
            if let Some(at_ps) = moment {
                let t = at_ps as f64 / 1e9;
                live.dispatch(LiveAction::Say(if at_ps == duration_ns.saturating_mul(1_000) {
                    format!("Opened at the run's end, {t:.3} ms, as shared: Reset starts again from 0 ms.")
                } else {
                    format!("Opened at {t:.3} ms, as shared: Run goes on, Reset starts again from 0 ms.")
                }));
            }
        });
    }
    // Every change is kept at once. (The scenario by address: the shell re-renders at every frame of the run.)
    use_effect_with((Same(doc.scenario.clone()), doc.origin.clone()), {
        let doc = doc.clone();
        move |_| {
            if !embedded {
                save(&doc)
            }
        }
    });
    let view = use_state(view_from_hash);
    // Links inside the page (a lesson's "open the Finc(t) explorer") change the fragment: follow them.
    {
        let view = view.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                gloo_events::EventListener::new(&w, "hashchange", move |_| {
                    let h = hash();
                    if h.is_empty() || View::ALL.iter().any(|v| !v.hash().is_empty() && h == format!("#{}", v.hash())) {
                        view.set(view_from_hash());
                    }
                })
            });
            move || drop(listener)
        });
    }
    // (Callbacks made once: the shell re-renders with every frame of the run, and a new callback would re-render
    // the view it is given to.)
    let go = use_callback(view.clone(), |to: View, view| {
        if let Some(location) = web_sys::window().map(|w| w.location()) {
            let _ = location.set_hash(to.hash());
        }
        view.set(to);
    });
    let to_playground = use_callback(go.clone(), |(), go| go.emit(View::Playground));
    // What a broken link leaves on screen, as the reducer above chose it: an exercise, saved work, or the default.
    let shown_instead = if doc.origin.is_exercise() {
        "The exercise is shown instead."
    } else if matches!(&*restored, Ok(Some(_))) {
        "Your saved work is shown instead, as you left it."
    } else {
        "The default scenario is shown instead."
    };
    // The views are pages of one app: a navigation whose current page is marked, not a tab list.
    let link = |to: View| {
        let here = *view == to;
        html! {
            <button aria-current={here.then_some("page")} class={classes!("tab", here.then_some("active"))}
                onclick={go.reform(move |_: MouseEvent| to)} data-testid={to.testid()}>{ to.label() }</button>
        }
    };
    html! {
        <ContextProvider<DocCtx> context={doc.clone()}>
        <ContextProvider<LiveCtx> context={live.clone()}>
        <ContextProvider<RunCtx> context={RunCtx(live.run_scenario.clone().map(Same))}>
        <ContextProvider<SimCtx> context={SimCtx(sim.clone())}>
        <ContextProvider<HighlightCtx> context={highlight.clone()}>
        <ContextProvider<ImpactCtx> context={impact}>
        <ContextProvider<SweepCtx> context={sweep}>
        <ContextProvider<RoutesCtx> context={routes}>
            if embedded {
                <main class="view-embedded">
                    if let Some(Err(e)) = &*linked {
                        <p class="error" role="alert" data-testid="link-error">{ format!("This link could not be opened: {e}. The default scenario is shown instead.") }</p>
                    }
                    <Embedded />
                </main>
            } else {
            <header class="top">
                if *view == View::Playground {
                    <super::playground::SkipToLesson />
                }
                <h1>{ "IBCC Playground" }</h1>
                <p class="tagline">{ "Congestion control in lossless, InfiniBand-style networks" }</p>
                <nav aria-label="Views">
                    { for View::ALL.into_iter().map(link) }
                </nav>
            </header>
            <main class={classes!(format!("view-{:?}", *view).to_ascii_lowercase())}>
                if super::storage::preview() {
                    <p class="notice" role="status" data-testid="preview-banner">
                        { "Student preview: answers and names given here stay in this tab and never reach your own work. Close the tab when done." }
                    </p>
                }
                if let Some(Err(e)) = &*linked {
                    <p class="error" role="alert" data-testid="link-error">
                        { format!("This link could not be opened: {e}. {shown_instead}") }
                    </p>
                }
                if let Err(e) = &*restored {
                    <p class="error" role="alert" data-testid="restore-error">
                        { format!("Your saved network could not be restored ({e}); the default scenario is loaded instead.") }
                    </p>
                }
                if *view == View::Playground {
                    <Playground exercise={(*exercise).clone()} />
                } else if *view == View::Compare {
                    <Compare />
                } else if *view == View::Sweep {
                    <Sweep on_open={to_playground} />
                } else if *view == View::Impact {
                    <Impact />
                } else if *view == View::Finc {
                    <FincExplorer />
                }
            </main>
            }
        </ContextProvider<RoutesCtx>>
        </ContextProvider<SweepCtx>>
        </ContextProvider<ImpactCtx>>
        </ContextProvider<HighlightCtx>>
        </ContextProvider<SimCtx>>
        </ContextProvider<RunCtx>>
        </ContextProvider<LiveCtx>>
        </ContextProvider<DocCtx>>
    }
}
