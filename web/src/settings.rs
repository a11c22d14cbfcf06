//! Settings in words: what each scenario path (`switch.buffer_packets`) is called on the page ("Input buffer") and
//! its unit. The settings panel, the sweep, the A/B comparison and the exercise form all name settings from here,
//! with the path as secondary text; links, files and the command line keep the paths. Pure Rust, tested natively.

/// A setting's path, its name in words, and its unit ("" for none).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setting {
    pub path: &'static str,
    pub label: &'static str,
    pub unit: &'static str,
}

const fn s(path: &'static str, label: &'static str, unit: &'static str) -> Setting {
    Setting { path, label, unit }
}

/// The settings with a name, in the order the page offers them.
pub const SETTINGS: &[Setting] = &[
    s("switch.buffer_packets", "Input buffer", "packets"),
    s("marking.policy", "Marking policy", ""),
    s("marking.output_threshold_packets", "Output threshold", "packets"),
    s("marking.buffer_threshold_packets", "Buffer counts as full at", "packets"),
    s("marking.full_check", "Buffer full is checked", ""),
    s("marking.cnt1_until", "cnt1 counts a packet until", ""),
    s("source.response", "Source response", ""),
    s("source.rate", "Rates", ""),
    s("source.window_packets", "Window", "packets"),
    s("source.m", "Decrease factor m", ""),
    s("source.r_min_fraction", "Rmin", "of Rmax"),
    s("source.fixed_rate_fraction", "Fixed rate", "of link"),
    s("source.persistent_state", "Persistent state", ""),
    s("source.hybrid_rate", "Hybrid rate function", ""),
    s("ack_coalescing.every_packets", "ACK every", "packets"),
    s("virtual_lanes.data_vls", "Data VLs", "per port"),
    s("switch.max_bypass", "Max bypass", ""),
    s("switch.bypass_counting", "Bypass counted by", ""),
    s("switch.input_transfers", "Input transfers", "packets"),
    s("switch.arbitration", "Output serves", ""),
    s("switch.forwarding_delay_ns", "Forwarding delay", "ns"),
    s("link.bandwidth_gbps", "Link bandwidth", "Gb/s"),
    s("link.propagation_ns", "Propagation delay", "ns"),
    s("packet.payload_bytes", "Packet payload", "bytes"),
    s("seed", "Seed", ""),
    s("duration_ns", "Duration", "ns"),
    s("measure.from_ns", "Measure from", "ns"),
    s("measure.to_ns", "Measure until", "ns"),
    s("measure.window_ns", "Rate window", "ns"),
    s("pft", "Proactive Flow Throttling", ""),
    s("ib_cc", "InfiniBand Annex A10", ""),
    s("flows", "The flows", ""),
];

/// The setting at `path`, if it has a name.
pub fn find(path: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.path == path)
}

/// `path` in words: "Input buffer (packets)"; a path without a name in words is shown as it is (with the last
/// part of a longer path named when it can be: `nodes[3].switch.buffer_packets` is "nodes[3]: Input buffer").
pub fn label(path: &str) -> String {
    let with_unit =
        |s: &Setting| if s.unit.is_empty() { s.label.to_owned() } else { format!("{} ({})", s.label, s.unit) };
    if let Some(s) = find(path) {
        return with_unit(s);
    }
    SETTINGS
        .iter()
        .filter(|s| s.path.contains('.'))
        .find_map(|s| {
            path.strip_suffix(s.path)
                .and_then(|head| head.strip_suffix('.'))
                .map(|head| format!("{head}: {}", with_unit(s)))
        })
        .unwrap_or_else(|| path.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ibcc_core::presets::find as preset;

    #[test]
    fn every_named_setting_is_a_setting_of_the_format() {
        let s = preset("infocom03-fig2").unwrap().scenario();
        for setting in SETTINGS {
            // Settings that may be absent (a threshold, PFT) are still paths the format knows.
            let known = s.setting(setting.path).is_some()
                || matches!(
                    setting.path,
                    "marking.buffer_threshold_packets"
                        | "marking.output_threshold_packets"
                        | "measure.to_ns"
                        | "source.window_packets"
                        | "switch.input_transfers"
                        | "pft"
                        | "ib_cc"
                        | "ack_coalescing.every_packets"
                        | "virtual_lanes.data_vls"
                );
            assert!(known, "{}", setting.path);
        }
        assert_eq!(label("switch.buffer_packets"), "Input buffer (packets)");
        assert_eq!(label("marking.policy"), "Marking policy");
        assert_eq!(label("flows[2].start_ns"), "flows[2].start_ns");
        assert_eq!(label("nodes[1].switch.buffer_packets"), "nodes[1]: Input buffer (packets)");
    }
}
