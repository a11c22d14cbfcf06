//! The sweep panel's web worker: it receives a point's scenario as JSON, runs it to the end and posts back the
//! results as JSON. The page starts one per core (see `ui/playground/sweep.rs`), so sweeps use every core without
//! blocking the page.

#[cfg(target_arch = "wasm32")]
fn main() {
    use ibcc_core::scenario::Scenario;
    use ibcc_core::sim::Simulation;
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;

    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let reply = scope.clone();
    let on_message = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        // {"id": N, "scenario": {...}} -> {"id": N, "results": {...}} or {"id": N, "error": "..."}
        let text = e.data().as_string().unwrap_or_default();
        let answer = (|| {
            let job: serde_json::Value = serde_json::from_str(&text).map_err(|e| e.to_string())?;
            let id = job.get("id").cloned().unwrap_or_default();
            let scenario: Scenario =
                serde_json::from_value(job.get("scenario").cloned().unwrap_or_default()).map_err(|e| e.to_string())?;
            let mut sim = Simulation::new(&scenario).map_err(|e| e.to_string())?;
            sim.run();
            Ok::<_, String>(serde_json::json!({ "id": id, "results": sim.results() }))
        })()
        .unwrap_or_else(|err| serde_json::json!({ "error": err }));
        let _ = reply.post_message(&answer.to_string().into());
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("sweep-worker runs in the browser as the sweep panel's web worker.");
}
