//! The page shell: header and the current view.

use super::finc_explorer::FincExplorer;
use super::selftest::{self, DigestSelfTest};
use yew::prelude::*;

#[component]
pub fn App() -> Html {
    html! {
        <>
            <header class="top">
                <h1>{ "IBCC Playground" }</h1>
                <p class="tagline">{ "Congestion control in lossless, InfiniBand-style networks" }</p>
            </header>
            <main>
                if selftest::requested() {
                    <DigestSelfTest />
                } else {
                    <FincExplorer />
                }
            </main>
        </>
    }
}
