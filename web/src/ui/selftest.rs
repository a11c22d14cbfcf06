//! `?selftest=digest`: runs the cross-platform golden scenario in the browser and shows its results digest, which
//! the browser tests compare with the value the native tests check (tests/golden/digest.txt).

use ibcc_core::presets::golden_scenario;
use ibcc_core::sim::Simulation;
use yew::prelude::*;

/// Whether the page was opened as the digest self-test.
pub fn requested() -> bool {
    web_sys::window().and_then(|w| w.location().search().ok()).is_some_and(|q| q.contains("selftest=digest"))
}

#[component]
pub fn DigestSelfTest() -> Html {
    let outcome = use_memo((), |_| {
        let mut sim = Simulation::new(&golden_scenario()).map_err(|e| e.to_string())?;
        sim.run();
        Ok::<_, String>(format!("{:016x}", sim.results().digest()))
    });
    match &*outcome {
        Ok(digest) => {
            html! { <p>{ "Golden results digest: " }<output data-testid="golden-digest">{ digest }</output></p> }
        }
        Err(e) => html! { <p role="alert">{ e }</p> },
    }
}
