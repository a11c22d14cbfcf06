//! Link payloads (`#s=` share links, `#x=` exercise links) made and opened with the browser's own raw DEFLATE
//! (`CompressionStream` / `DecompressionStream`, "deflate-raw"), so the page's wasm carries no DEFLATE code (15 KB
//! gzipped); the rest of the format is the core's (`scenario::share_link`: version, base64, size limits, migration).
//! The command line deflates with miniz_oxide: the streams differ, the JSON they hold is the same, and a link made
//! by either opens in both. The browser works asynchronously: links are made in the background as the scenario
//! changes ([`use_payload`]) and opened before the app starts ([`opened`]).

use ibcc_core::scenario::share_link::{fits, read_json, unwrap, wrap, ShareLinkError, MAX_JSON_BYTES, TOO_LONG_ADVICE};
use serde_json::Value;
use std::rc::Rc;
use wasm_bindgen::prelude::wasm_bindgen;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;
use web_sys::{ReadableStream, ReadableStreamDefaultReader, ReadableStreamReadResult};
use yew::prelude::*;

// The Compression Streams API (web-sys has it only behind an unstable flag): CompressionStream and
// DecompressionStream are transform streams of one shape.
#[wasm_bindgen]
extern "C" {
    type Transform;
    #[wasm_bindgen(constructor, js_class = "CompressionStream", catch)]
    fn compressing(format: &str) -> Result<Transform, JsValue>;
    #[wasm_bindgen(constructor, js_class = "DecompressionStream", catch)]
    fn decompressing(format: &str) -> Result<Transform, JsValue>;
    #[wasm_bindgen(method, getter)]
    fn readable(this: &Transform) -> ReadableStream;
    #[wasm_bindgen(method, getter)]
    fn writable(this: &Transform) -> web_sys::WritableStream;
}

/// Bytes written to a stream at a time: the browser inflates what it is given before the page reads it, so small
/// pieces bound what a hostile link makes it hold (about a thousand times a piece) before the limit stops it.
const PIECE: usize = 1024;

/// `bytes` through a compression or decompression `stream`, at most `limit` bytes out (`Ok(None)`: more than
/// that). The input goes in pieces while the output is read, so the stream's back-pressure keeps the browser from
/// running ahead.
async fn through(bytes: &[u8], stream: &Transform, limit: usize) -> Result<Option<Vec<u8>>, JsValue> {
    let writer = stream.writable().get_writer()?;
    let input = bytes.to_vec();
    wasm_bindgen_futures::spawn_local(async move {
        for piece in input.chunks(PIECE) {
            // (Refused once the reader has stopped: nothing more to write.)
            if JsFuture::from(writer.write_with_chunk(&js_sys::Uint8Array::from(piece))).await.is_err() {
                return;
            }
        }
        let _ = JsFuture::from(writer.close()).await;
    });
    let reader: ReadableStreamDefaultReader = stream.readable().get_reader().unchecked_into();
    let mut out = Vec::new();
    loop {
        let chunk: ReadableStreamReadResult = JsFuture::from(reader.read()).await?.unchecked_into();
        if chunk.get_done().unwrap_or(true) {
            return Ok(Some(out));
        }
        let data = js_sys::Uint8Array::new(&chunk.get_value());
        if out.len() + data.length() as usize > limit {
            // A "zip bomb": stop the stream rather than hold it.
            let _ = reader.cancel();
            return Ok(None);
        }
        let at = out.len();
        out.resize(at + data.length() as usize, 0);
        data.copy_to(&mut out[at..]);
    }
}

/// A link payload for `json` (the JSON a link carries: `scenario::share_link::json_of`).
pub async fn pack(json: &[u8]) -> Result<String, String> {
    let stream = Transform::compressing("deflate-raw").map_err(|_| no_streams())?;
    let deflated = through(json, &stream, usize::MAX).await;
    let link = deflated
        .ok()
        .flatten()
        .map(|d| wrap(&d))
        .ok_or_else(|| String::from("the browser could not compress the link"))?;
    fits(&link).map_err(|e| format!("{e}: {TOO_LONG_ADVICE}"))?;
    Ok(link)
}

/// The JSON value a link payload holds (not yet checked as a scenario or an exercise).
pub async fn unpack(link: &str) -> Result<Value, String> {
    let (version, deflated) = unwrap(link).map_err(|e| e.to_string())?;
    let stream = Transform::decompressing("deflate-raw").map_err(|_| no_streams())?;
    let json = match through(&deflated, &stream, MAX_JSON_BYTES).await {
        Ok(Some(json)) => json,
        Ok(None) => return Err(ShareLinkError::TooLarge.to_string()),
        Err(_) => return Err(ShareLinkError::Damaged.to_string()),
    };
    read_json(version, &json).map_err(|e| e.to_string())
}

fn no_streams() -> String {
    String::from("this browser cannot open or make links (it has no CompressionStream); try a newer one")
}

/// The links the page was opened with: what a share link (`#s=`) and an exercise link (`#x=`) hold, or why they
/// cannot be opened. Read (and taken out of the address) before the app starts.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Opened {
    pub share: Option<Result<Value, String>>,
    pub exercise: Option<Result<Value, String>>,
}

/// Opens the links in the page's address.
pub async fn opened() -> Opened {
    let share = take_fragment("s=");
    let exercise = take_fragment("x=");
    Opened {
        share: match share {
            Some(link) => Some(unpack(&link).await),
            None => None,
        },
        exercise: match exercise {
            Some(link) => Some(unpack(&link).await),
            None => None,
        },
    }
}

/// The link payload of `json`, made in the background: `None` until it is ready (a moment after `json` changes),
/// then the payload or why the browser could not make it.
#[hook]
pub fn use_payload(json: Option<Rc<Vec<u8>>>) -> Option<Result<Rc<String>, String>> {
    let payload = use_state(|| None::<Result<Rc<String>, String>>);
    // Only the latest request may set it: an older one can finish after a newer one.
    let latest = use_mut_ref(|| 0u32);
    {
        let payload = payload.clone();
        use_effect_with(json, move |json| {
            *latest.borrow_mut() += 1;
            let mine = *latest.borrow();
            payload.set(None);
            if let Some(json) = json.clone() {
                wasm_bindgen_futures::spawn_local(async move {
                    let made = pack(&json).await.map(Rc::new);
                    if *latest.borrow() == mine {
                        payload.set(Some(made));
                    }
                });
            }
        });
    }
    (*payload).clone()
}

/// The part of the page's address after `#{prefix}` (percent-decoding it, as some mail and chat clients encode
/// it), if the address has one. The fragment is then removed from the address, so a reload shows the work saved
/// since rather than the link again.
fn take_fragment(prefix: &str) -> Option<String> {
    let window = web_sys::window()?;
    let hash = window.location().hash().ok()?;
    let link = hash.strip_prefix('#')?.strip_prefix(prefix)?;
    let link = js_sys::decode_uri_component(link).ok().and_then(|s| s.as_string()).unwrap_or_else(|| link.to_owned());
    if let Ok(history) = window.history() {
        // (The query stays: `?embed` says how the page is shown.)
        let location = window.location();
        let path = location.pathname().unwrap_or_default() + &location.search().unwrap_or_default();
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&path));
    }
    Some(link)
}
