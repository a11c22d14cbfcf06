//! The page shell: header, navigation between the playground and the Finc(t) explorer (kept in the URL fragment so
//! a view can be linked and survives a reload), and the current view.

use super::finc_explorer::FincExplorer;
use super::playground::Playground;
use super::selftest::{self, BenchSelfTest, DigestSelfTest};
use yew::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    Playground,
    Finc,
}

fn view_from_hash() -> View {
    let hash = web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default();
    if hash == "#finc" {
        View::Finc
    } else {
        View::Playground
    }
}

#[component]
pub fn App() -> Html {
    let view = use_state(view_from_hash);
    // Links inside the page (a lesson's "open the Finc(t) explorer") change the fragment: follow them.
    {
        let view = view.clone();
        use_effect_with((), move |_| {
            let listener = web_sys::window().map(|w| {
                gloo_events::EventListener::new(&w, "hashchange", move |_| {
                    let next = view_from_hash();
                    if next == View::Finc
                        || web_sys::window().and_then(|w| w.location().hash().ok()).unwrap_or_default().is_empty()
                    {
                        view.set(next);
                    }
                })
            });
            move || drop(listener)
        });
    }
    let go = |to: View| {
        let view = view.clone();
        Callback::from(move |_| {
            if let Some(location) = web_sys::window().map(|w| w.location()) {
                let _ = location.set_hash(if to == View::Finc { "finc" } else { "" });
            }
            view.set(to);
        })
    };
    let tab = |to: View, label: &'static str, testid: &'static str| {
        html! {
            <button role="tab" aria-selected={(*view == to).to_string()} class={classes!("tab", (*view == to).then_some("active"))}
                onclick={go(to)} data-testid={testid}>{ label }</button>
        }
    };
    html! {
        <>
            <header class="top">
                <h1>{ "IBCC Playground" }</h1>
                <p class="tagline">{ "Congestion control in lossless, InfiniBand-style networks" }</p>
                <nav role="tablist" aria-label="Views">
                    { tab(View::Playground, "Playground", "tab-playground") }
                    { tab(View::Finc, "Finc(t) explorer", "tab-finc") }
                </nav>
            </header>
            <main>
                if selftest::requested() {
                    <DigestSelfTest />
                } else if selftest::bench_requested() {
                    <BenchSelfTest />
                } else if *view == View::Finc {
                    <FincExplorer />
                } else {
                    <Playground />
                }
            </main>
        </>
    }
}
