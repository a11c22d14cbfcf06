//! The PFT paper's own experiment (IFIP'21 §IV; docs/gpcnet.md §3): GPCNeT on a 120-node fat tree of 100 Gb/s
//! links, without congestion control and with each PFT strategy. The paper's figures are images whose values the
//! text does not carry, nor does it give buffer sizes, credit units, random-number widths or AT's windows; every
//! choice below says where it comes from.

use super::fabrics::fabric;
use crate::cc::pft::{Detection, PftConfig, Throttling};
use crate::fabric::shapes::{self, LeafSpine};
use crate::fabric::{Speed, Width};
use crate::scenario::{RoutingEngine, Scenario};
use crate::workload::gpcnet::GpcnetConfig;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// The paper's best setting's thresholds, "threshold enter = 0x250, threshold escape = 0x2a0" (§IV-C), read as our
/// 64-byte credit blocks (the paper gives no unit).
pub const ENTER_BLOCKS: u32 = 0x250;
pub const EXIT_BLOCKS: u32 = 0x2a0;

/// The experiment's network: 10 leaves of 12 nodes under 6 spines, two cables from each leaf to each spine (24-port
/// switches, non-blocking), 4xEDR (100 Gb/s), routed by ftree; no window (the paper's NIC is limited by credits
/// only); 32-packet input buffers, so that the thresholds above can be reached (1,056 blocks; the paper gives no
/// buffer size).
pub fn fabric120() -> Scenario {
    let shape = LeafSpine { leaves: 10, hosts: 12, spines: 6, cables: 2 };
    let f = shapes::leaf_spine(shape, (Width::X4, Speed::Edr)).expect("the PFT paper's 120 nodes");
    let mut s = fabric("pft-fabric120", f, RoutingEngine::Ftree, 1_000_000, 0);
    s.switch.buffer_packets = 32;
    s
}

/// GPCNeT's counts for this experiment at the paper's 16 processes per port: one ring, 10 timed latency exchanges
/// after 2, one timed bandwidth iteration (2 MiB per rank), so that the congested bandwidth test, which moves
/// 32 MiB into every canary node while 96 nodes congest the fabric, ends within a simulated second.
pub fn gpcnet_scale() -> GpcnetConfig {
    GpcnetConfig {
        processes_per_node: 16,
        rings: 1,
        latency_warmup: 2,
        latency_iterations: 10,
        bandwidth_warmup: 0,
        bandwidth_iterations: 1,
        ..GpcnetConfig::default()
    }
}

/// PFT as the paper's NIC runs it: one flit per 700 MHz cycle at 100 Gb/s (18 bytes in 1,429 ps), a 28-bit random
/// number for RI (so that `f(c) = 2^m·c` with the paper's m = 15 to 22 throttles at c in the hundreds of blocks
/// rather than stopping outright), and AT's windows at our defaults.
fn nic(detection: Detection, throttling: Throttling, m: u32, n: u32) -> PftConfig {
    let (enter, exit) = match detection {
        // FT needs te >= ts (§III-B); the paper's pair is escape > enter, so FT takes it the other way round.
        Detection::FixedThreshold => (EXIT_BLOCKS, ENTER_BLOCKS),
        Detection::AverageThreshold => (ENTER_BLOCKS, EXIT_BLOCKS),
    };
    PftConfig {
        detection,
        throttling,
        enter_threshold_blocks: enter,
        exit_threshold_blocks: exit,
        m,
        n,
        k: 0,
        flit_bytes: 18,
        cycle_ps: 1_429,
        random_bits: 28,
        ..PftConfig::default()
    }
}

/// One setting of the experiment: its strategy's name (FT-FI, FT-RI, AT-FI, AT-RI), a label, and its NIC.
#[derive(Debug, Clone)]
pub struct Setting {
    pub strategy: &'static str,
    pub label: String,
    pub pft: PftConfig,
}

/// The settings compared: FI over the paper's recommended n of 8 to 12 with m = k = 0 (§III-C, Fig. 1a: n = 8 and
/// 10; above 10, f(c) is 0 below 2,048 blocks), RI over its m of 15 to 22 with n = k = 0 (Fig. 1b: 15, 18, 22), for
/// each detection; and AT-RI's best point (m = 18) with a 32-bit random number and with the thresholds swapped.
pub fn settings() -> Vec<Setting> {
    let mut out = Vec::new();
    for (detection, d) in [(Detection::FixedThreshold, "FT"), (Detection::AverageThreshold, "AT")] {
        for n in [8, 10] {
            let pft = nic(detection, Throttling::FixedInterval, 0, n);
            out.push(Setting { strategy: strategy(d, "FI"), label: format!("{d}-FI n={n}"), pft });
        }
        for m in [15, 18, 22] {
            let pft = nic(detection, Throttling::RandomInterval, m, 0);
            out.push(Setting { strategy: strategy(d, "RI"), label: format!("{d}-RI m={m}"), pft });
        }
    }
    let mut wide = nic(Detection::AverageThreshold, Throttling::RandomInterval, 18, 0);
    wide.random_bits = 32;
    out.push(Setting { strategy: "AT-RI", label: String::from("AT-RI m=18, 32-bit r"), pft: wide });
    let mut swapped = nic(Detection::AverageThreshold, Throttling::RandomInterval, 18, 0);
    (swapped.enter_threshold_blocks, swapped.exit_threshold_blocks) = (EXIT_BLOCKS, ENTER_BLOCKS);
    out.push(Setting { strategy: "AT-RI", label: String::from("AT-RI m=18, thresholds swapped"), pft: swapped });
    out
}

fn strategy(detection: &str, throttling: &str) -> &'static str {
    match (detection, throttling) {
        ("FT", "FI") => "FT-FI",
        ("FT", _) => "FT-RI",
        (_, "FI") => "AT-FI",
        _ => "AT-RI",
    }
}

/// `s` with `setting`'s PFT at every NIC.
pub fn with_setting(s: &Scenario, setting: &Setting) -> Scenario {
    let mut s = s.clone();
    s.pft = Some(setting.pft);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_experiment_is_what_it_says() {
        let s = fabric120();
        let hosts = s.nodes.iter().filter(|n| n.kind == crate::scenario::NodeKind::Host).count();
        assert_eq!((hosts, s.nodes.len() - hosts), (120, 16));
        assert!(s.validate().is_ok());
        let all = settings();
        assert_eq!(all.len(), 12);
        for setting in &all {
            with_setting(&s, setting).validate().unwrap_or_else(|e| panic!("{}: {e}", setting.label));
        }
        assert!(all.iter().any(|x| x.label == "AT-RI m=18"), "the paper's best point");
    }
}
