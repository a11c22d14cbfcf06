//! `ibcc presets` and `ibcc preset NAME`: the papers' experiments as scenario JSON.

use ibcc_core::presets::{find, PRESETS};

pub fn list() {
    let text: String = PRESETS.iter().map(|p| format!("{:<20} {}\n", p.name, p.figure)).collect();
    crate::output::print(&text);
}

pub fn show(name: &str) -> Result<(), String> {
    let p = find(name).ok_or_else(|| {
        let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        format!("no preset {name:?}; the presets are: {}", names.join(", "))
    })?;
    crate::output::print(&(p.scenario().to_json() + "\n"));
    Ok(())
}
