//! Beyond the PFT paper (docs/gpcnet.md §4): GPCNeT's congestion impact on the PFT experiment's 120 nodes under
//! every congestion control we have, as one table: per canary the impact on the average and the 99th percentile,
//! and FC against no control (`gpcnet-mechanisms.csv` and `.md`).

use crate::exit::Error;
use crate::figure_files::{write, Entry};
use ibcc_core::presets::gpcnet_mechanisms::{mechanisms, Mechanism};
use ibcc_core::sim::congestion_impact::{canary_control_factor, run_canary, CanaryImpact};
use ibcc_core::workload::gpcnet::{Canary, GpcnetConfig};
use ibcc_view::csv::field;
use std::fmt::Write as _;
use std::path::Path;

/// The table and its report entry, at `ppn` processes per node and GPCNeT's counts scaled as `config`.
pub fn entries(out: &Path, ppn: u32, config: &GpcnetConfig) -> Result<Vec<Entry>, Error> {
    let base = GpcnetConfig { processes_per_node: ppn, ..config.clone() };
    let all = mechanisms(&base);
    let runs: Vec<(&Mechanism, Canary, bool)> =
        all.iter().flat_map(|m| Canary::ALL.into_iter().flat_map(move |c| [(m, c, false), (m, c, true)])).collect();
    eprintln!("figures: gpcnet-mechanisms ({} GPCNeT runs at {ppn} processes per node)", runs.len());
    let done = crate::parallel::map(&runs, None, |&(m, canary, congested)| {
        run_canary(&m.scenario, &m.config, canary, congested).map_err(|e| format!("{}: {e}", m.label))
    });
    let done: Vec<_> = done.into_iter().collect::<Result<_, _>>().map_err(Error::Refused)?;
    let suites: Vec<Vec<CanaryImpact>> = done
        .chunks(2 * Canary::ALL.len())
        .map(|s| s.chunks(2).map(|p| CanaryImpact::of(p[0].clone(), p[1].clone())).collect())
        .collect();

    let mut csv = String::from("mechanism");
    let mut md = String::from("| mechanism |");
    for c in Canary::ALL {
        let _ = write!(csv, ",{0}_isolated_avg,{0}_congested_avg,{0}_impact_avg,{0}_impact_p99", c.id());
        let _ = write!(md, " {} impact avg / p99 |", c.id());
    }
    csv.push_str(",fc,parameters\n");
    md.push_str(" FC |\n|---|");
    md.push_str(&"---|".repeat(Canary::ALL.len() + 1));
    md.push('\n');
    for (m, suite) in all.iter().zip(&suites) {
        let fc = canary_control_factor(suite, &suites[0]).map_or(f64::NAN, |f| f.fc);
        let _ = write!(csv, "{}", field(m.label));
        let _ = write!(md, "| {} |", m.label);
        for i in suite {
            let (iso, con) = (i.isolated.figures.avg, i.congested.figures.avg);
            let _ = write!(csv, ",{iso:.4},{con:.4},{:.1},{:.1}", i.impact_avg, i.impact_p99);
            let _ = write!(md, " {:.1}X / {:.1}X |", i.impact_avg, i.impact_p99);
        }
        let _ = writeln!(csv, ",{fc:.4},{}", field(m.parameters));
        let _ = writeln!(md, " {fc:.2} |");
    }
    md.push('\n');
    for m in &all {
        let _ = writeln!(md, "- **{}**: {}.", m.label, m.parameters);
    }
    write(&out.join("gpcnet-mechanisms.csv"), &csv)?;
    write(&out.join("gpcnet-mechanisms.md"), &md)?;
    let ours = format!(
        "{ppn} processes per node, GPCNeT counts {}.\n\n{md}",
        serde_json::to_string(&base).unwrap_or_default()
    );
    Ok(vec![Entry {
        file: "gpcnet-mechanisms.csv, gpcnet-mechanisms.md".into(),
        title: "Beyond the PFT paper: GPCNeT's congestion impact on its 120 nodes under every congestion control \
                here (docs/gpcnet.md §4)."
            .into(),
        paper: "Not in the papers. GPCNeT reports impact = congested / isolated (bandwidth: isolated / congested) for \
                the average and the 99th percentile of each canary; FC is the PFT paper's control factor against no \
                control."
            .into(),
        ours,
    }])
}
