//! Saving something from the page as a file (a temporary link, clicked).

/// Saves `url` as a file called `name` (a temporary link, clicked).
pub fn download(url: &str, name: &str) {
    let Some(document) = web_sys::window().and_then(|w| w.document()) else { return };
    let Ok(a) = document.create_element("a") else { return };
    let _ = a.set_attribute("href", url);
    let _ = a.set_attribute("download", name);
    if let Some(body) = document.body() {
        let _ = body.append_child(&a);
        if let Some(el) = wasm_bindgen::JsCast::dyn_ref::<web_sys::HtmlElement>(&a) {
            el.click();
        }
        let _ = body.remove_child(&a);
    }
}

/// Saves `text` of type `mime` as a file called `name`.
pub fn download_text(text: &str, mime: &str, name: &str) {
    let url = format!("data:{mime};charset=utf-8,{}", String::from(js_sys::encode_uri_component(text)));
    download(&url, name);
}
