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
    let text = with_fabric_file(&text, file)?;
    Scenario::from_json_validated(&text).map_err(|e| format!("{file}: {e}").into())
}

/// A scenario whose `fabric` names a file (`{"file": "site.topo"}`, relative to the scenario's folder) gets that
/// file's text as its `topology`, as `ibcc fabric scenario` embeds it; a page cannot read files, so only the
/// command line takes this form.
fn with_fabric_file(text: &str, file: &str) -> Result<String, Error> {
    let Ok(mut doc) = serde_json::from_str::<serde_json::Value>(text) else { return Ok(text.to_owned()) };
    let Some(path) = doc.pointer("/fabric/file").and_then(|v| v.as_str()).map(str::to_owned) else {
        return Ok(text.to_owned());
    };
    let base = if file == "-" { None } else { std::path::Path::new(file).parent() };
    let full = base.map_or_else(|| std::path::PathBuf::from(&path), |b| b.join(&path));
    let topology = std::fs::read_to_string(&full).map_err(|e| Error::io(full.display(), &e))?;
    doc["fabric"] = serde_json::json!({ "topology": topology });
    Ok(doc.to_string())
}

/// The link part of `text`: after `#s=` if there is one, else all of it.
pub fn payload(text: &str) -> &str {
    text.split_once("#s=").map_or(text, |(_, l)| l)
}

/// The shared state of a link or a URL holding one.
pub fn open_link(text: &str) -> Result<Shared, String> {
    decode(payload(text)).map_err(|e| e.to_string())
}
