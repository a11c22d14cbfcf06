//! The page's entry point: mounts the Yew app (see the library for the modules).

fn main() {
    #[cfg(target_arch = "wasm32")]
    yew::Renderer::<ibcc_web::ui::App>::new().render();
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("ibcc-web is the browser app: build and serve it with `./dev serve`.");
}
