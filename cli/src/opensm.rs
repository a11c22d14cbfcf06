//! `ibcc opensm export|import`: Annex A10 parameters as OpenSM `cc_*` configuration lines, and back.

use crate::run::load;
use ibcc_core::scenario::IbCcConfig;

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Print a scenario's `ib_cc` block as `opensm.conf` lines.
    Export {
        /// Scenario JSON file, `-`, or `preset:NAME`.
        scenario: String,
    },
    /// Read the `cc_*` lines of an `opensm.conf` into a scenario's `ib_cc` block and print the scenario.
    Import {
        /// The OpenSM configuration file.
        conf: String,
        /// The scenario to put them into (file, `-` or `preset:NAME`).
        scenario: String,
    },
}

pub fn run(command: &Command) -> Result<(), String> {
    match command {
        Command::Export { scenario } => {
            let s = load(scenario)?;
            let cc = s.ib_cc.ok_or_else(|| format!("{scenario}: the scenario has no ib_cc block"))?;
            crate::output::print(&cc.to_opensm());
        }
        Command::Import { conf, scenario } => {
            let text = std::fs::read_to_string(conf).map_err(|e| format!("{conf}: {e}"))?;
            let cc = IbCcConfig::from_opensm(&text).map_err(|e| format!("{conf}: {e}"))?;
            let mut s = load(scenario)?;
            s.ib_cc = Some(cc);
            s.marking.policy = ibcc_core::scenario::MarkingPolicy::None;
            s.source.response = ibcc_core::scenario::Response::None;
            s.validate().map_err(|e| format!("{scenario} with {conf}: {e}"))?;
            crate::output::print(&(s.to_json() + "\n"));
        }
    }
    Ok(())
}
