//! Small settings kept in the browser's localStorage so a reload does not lose them. Anything unreadable (an old or
//! hand-edited value, storage disabled) is ignored and the defaults are used.

use serde::{de::DeserializeOwned, Serialize};

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// The value stored under `key`, if there is one that parses.
pub fn load<T: DeserializeOwned>(key: &str) -> Option<T> {
    let text = storage()?.get_item(key).ok().flatten()?;
    let value = js_sys::JSON::parse(&text).ok()?;
    serde_wasm_bindgen::from_value(value).ok()
}

/// Stores `value` under `key`; failures (quota, private mode) are silently ignored: this is a convenience.
pub fn save<T: Serialize>(key: &str, value: &T) {
    let Some(storage) = storage() else { return };
    let Ok(js) = serde_wasm_bindgen::to_value(value) else {
        return;
    };
    if let Ok(text) = js_sys::JSON::stringify(&js) {
        if let Some(text) = text.as_string() {
            let _ = storage.set_item(key, &text);
        }
    }
}

/// The text stored under `key`, if any.
pub fn load_text(key: &str) -> Option<String> {
    storage()?.get_item(key).ok().flatten()
}

/// Stores `text` under `key` (failures ignored, as for [`save`]).
pub fn save_text(key: &str, text: &str) {
    if let Some(storage) = storage() {
        let _ = storage.set_item(key, text);
    }
}

/// Forgets what is stored under `key`.
pub fn remove(key: &str) {
    if let Some(storage) = storage() {
        let _ = storage.remove_item(key);
    }
}
