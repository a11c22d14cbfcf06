//! Small settings kept in the browser's localStorage so a reload does not lose them. Anything unreadable (an old or
//! hand-edited value, storage disabled) is ignored and the defaults are used.
//!
//! Not gloo-storage (in the tree through Yew): its `LocalStorage::raw` throws a JavaScript exception when the page
//! has no localStorage (a sandboxed `<iframe>`, as docs/embedding.md's pages may be, or storage blocked by the
//! browser's privacy settings), where this module carries on without saving; and its `get::<String>` reads JSON, so
//! the texts saved so far (the scenario, the student's name) would read as nothing after an update.

use serde::{de::DeserializeOwned, Serialize};

/// Whether this tab is a teacher's student preview (`?preview`, opened from the exercise form): it keeps everything
/// in the tab's own sessionStorage, so nothing done in it (a student's name, answers, the exercise's scenario)
/// reaches the teacher's saved work.
pub fn preview() -> bool {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    search.trim_start_matches('?').split('&').any(|kv| kv == "preview")
}

fn storage() -> Option<web_sys::Storage> {
    let window = web_sys::window()?;
    if preview() {
        window.session_storage().ok().flatten()
    } else {
        window.local_storage().ok().flatten()
    }
}

/// The value stored under `key`, if there is one that parses. (Values are JSON text, read with serde_json: the
/// page already has serde_json's code for every type it keeps, where another deserializer would add its own copy.)
pub fn load<T: DeserializeOwned>(key: &str) -> Option<T> {
    serde_json::from_str(&storage()?.get_item(key).ok().flatten()?).ok()
}

/// Stores `value` under `key`; failures (quota, private mode) are silently ignored: this is a convenience.
pub fn save<T: Serialize>(key: &str, value: &T) {
    let Some(storage) = storage() else { return };
    if let Ok(text) = serde_json::to_string(value) {
        let _ = storage.set_item(key, &text);
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
