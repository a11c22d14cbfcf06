//! Any bytes given to the share-link decoder give a scenario or an error, never a panic, a hang or a runaway
//! allocation. Inputs starting with 0 skip the text layer: the rest is taken as the compressed payload, so the
//! fuzzer also reaches the inflater and the JSON and scenario checks behind it.
#![no_main]

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ibcc_core::scenario::share_link::{decode, decode_bytes};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    match data.split_first() {
        Some((0, packed)) => {
            let _ = decode(&format!("1.{}", URL_SAFE_NO_PAD.encode(packed)));
        }
        _ => {
            let _ = decode_bytes(data);
        }
    }
});
