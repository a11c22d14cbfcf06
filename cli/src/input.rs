//! Where a scenario comes from: a JSON file, standard input, a preset or a share link. Every command that takes a
//! scenario reads it here.

use crate::exit::Error;
use ibcc_core::scenario::share_link::{decode, Shared};
use ibcc_core::scenario::Scenario;
use std::io::Read;

/// Reads and validates a scenario from a file, `-` (stdin), `preset:NAME` or a share link (a URL with `#s=`); the
/// error names the source and the problem.
pub fn load(file: &str) -> Result<Scenario, Error> {
    if file.contains("#s=") {
        return open_link(file).map(|shared| shared.scenario).map_err(|e| format!("share link: {e}").into());
    }
    if let Some(name) = file.strip_prefix("preset:") {
        return ibcc_core::presets::find(name)
            .map(|p| p.scenario())
            .ok_or_else(|| format!("no preset {name:?} (see `ibcc presets`)").into());
    }
    let text = if file == "-" {
        let mut s = String::new();
        std::io::stdin().read_to_string(&mut s).map_err(|e| Error::io("reading standard input", &e))?;
        s
    } else {
        std::fs::read_to_string(file).map_err(|e| Error::io(file, &e))?
    };
    Scenario::from_json_validated(&text).map_err(|e| format!("{file}: {e}").into())
}

/// The link part of `text`: after `#s=` if there is one, else all of it.
pub fn payload(text: &str) -> &str {
    text.split_once("#s=").map_or(text, |(_, l)| l)
}

/// The shared state of a link or a URL holding one.
pub fn open_link(text: &str) -> Result<Shared, String> {
    decode(payload(text)).map_err(|e| e.to_string())
}
