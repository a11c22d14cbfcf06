//! The page's entry point: mounts the Yew app (see the library for the modules).

fn main() {
    #[cfg(target_arch = "wasm32")]
    wasm_bindgen_futures::spawn_local(ibcc_web::ui::start());
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("ibcc-web is the browser app: build and serve it with `./dev serve`.");
}
