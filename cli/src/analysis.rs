//! `ibcc analysis pft|cct`: the curves behind PFT and Annex A10, as CSV, from a scenario's settings (or the
//! defaults): PFT's injection rate against the credits in use (the PFT paper's Fig. 1), and the CCT's delay and rate
//! against CCTI.

use crate::input::load;
use ibcc_core::cc::pft::injection_curve;
use ibcc_core::time::Bandwidth;

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// PFT: injection rate while Congested for c = 0..=C_MAX credit blocks.
    Pft {
        /// Scenario with a pft block (file, `-` or `preset:NAME`); default settings if omitted.
        scenario: Option<String>,
        #[arg(long, default_value_t = 264)]
        c_max: u32,
    },
    /// Annex A10: the delay after each packet and the injection rate for every CCTI.
    Cct {
        /// Scenario with an ib_cc block (file, `-` or `preset:NAME`); default settings if omitted.
        scenario: Option<String>,
    },
}

pub fn run(command: &Command) -> Result<(), crate::exit::Error> {
    let mut out = String::new();
    match command {
        Command::Pft { scenario, c_max } => {
            let cfg = match scenario {
                Some(s) => load(s)?.pft.ok_or_else(|| format!("{s}: the scenario has no pft block"))?,
                None => Default::default(),
            };
            out.push_str("credits_in_use,injection_rate\n");
            for (c, r) in injection_curve(&cfg, *c_max) {
                out.push_str(&format!("{c},{r}\n"));
            }
        }
        Command::Cct { scenario } => {
            let (cfg, packet_time) = match scenario {
                Some(s) => {
                    let sc = load(s)?;
                    let bw = Bandwidth::from_gbps(sc.link.bandwidth_gbps).ok_or("bad link rate")?;
                    let pt = bw.serialization(sc.packet.data_bytes());
                    (sc.ib_cc.ok_or_else(|| format!("{s}: the scenario has no ib_cc block"))?, pt)
                }
                None => (Default::default(), 2_068_000),
            };
            out.push_str("ccti,delay_ns,injection_rate\n");
            for (i, d, r) in cfg.delay_curve(packet_time) {
                out.push_str(&format!("{i},{},{r}\n", d as f64 / 1e3));
            }
        }
    }
    crate::output::print(&out);
    Ok(())
}
