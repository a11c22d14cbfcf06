//! The settings registry: every setting the page or the command line names, by its scenario path
//! (`switch.buffer_packets`), with its name in words ("Input buffer"), the unit its value is stored in, a line of
//! help, and for a setting chosen from a list its choices (each value as the scenario format writes it, and in
//! words). The settings panel, the sweep, the A/B comparison, the exercise form and the lessons all name settings
//! from here, with the path as secondary text; links, files and the command line keep the paths.

use serde_json::Value;

/// One choice of a setting chosen from a list: its value as the scenario format writes it (`"input_triggered"`;
/// `"true"`/`"false"` for a yes/no setting) and in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    pub value: &'static str,
    pub label: &'static str,
}

impl Choice {
    /// Its value in the scenario's JSON.
    pub fn json(&self) -> Value {
        match self.value {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            v => Value::String(v.to_owned()),
        }
    }
}

/// A setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Setting {
    /// Where it is in the scenario format (`flows[].transport`: that field of every flow).
    pub path: &'static str,
    pub label: &'static str,
    /// The unit of its stored value ("" for none).
    pub unit: &'static str,
    pub help: &'static str,
    /// For a setting chosen from a list, its choices; empty for a number.
    pub choices: &'static [Choice],
}

impl Setting {
    /// The choice whose value is `value`.
    pub fn choice(&self, value: &str) -> Option<&'static Choice> {
        self.choices.iter().find(|c| c.value == value)
    }
}

const fn c(value: &'static str, label: &'static str) -> Choice {
    Choice { value, label }
}

const fn num(path: &'static str, label: &'static str, unit: &'static str, help: &'static str) -> Setting {
    Setting { path, label, unit, help, choices: &[] }
}

const fn pick(path: &'static str, label: &'static str, help: &'static str, choices: &'static [Choice]) -> Setting {
    Setting { path, label, unit: "", help, choices }
}

/// The flows as a whole: no unit, no choices (the page offers its own ways to set them).
const fn block(path: &'static str, label: &'static str, help: &'static str) -> Setting {
    Setting { path, label, unit: "", help, choices: &[] }
}

/// Every named setting, in the order the page offers them.
pub const SETTINGS: &[Setting] = &[
    num("switch.buffer_packets", "Input buffer", "packets", "Per switch input port and VL (Globecom'02 Table I: 4)."),
    pick(
        "marking.policy",
        "Marking policy",
        "Which packets switches mark when congestion is detected (Globecom'02 §IV; the HP proposal's slides).",
        &[
            c("none", "none"),
            c("naive", "naive: the packets of a full buffer"),
            c("input_triggered", "input-triggered: a full buffer marks what waits for its outputs"),
            c("input_output_triggered", "input-output-triggered: also a long queue for one output"),
            c("hp_root_vl", "HP: full buffers and roots"),
        ],
    ),
    num(
        "marking.output_threshold_packets",
        "Output threshold",
        "packets",
        "Input-output-triggered: mark when more packets than this wait for one output.",
    ),
    num(
        "marking.buffer_threshold_packets",
        "Buffer counts as full at",
        "packets",
        "A lower mark for a full input buffer (INFOCOM'03 footnote 4); empty: when less than one packet of room is left.",
    ),
    pick(
        "marking.full_check",
        "Buffer full is checked",
        "When a packet has been received whole, counting the space actually held (Globecom'02 §IV-B), or as soon as its \
         head arrives, counting the credits already promised to it.",
        &[c("on_receipt", "when a packet is received whole"), c("on_head", "when a packet's head arrives")],
    ),
    pick(
        "marking.cnt1_until",
        "A packet counts as waiting for its output (cnt1) until",
        "The switch counts the packets waiting for each output (the papers' cnt1): until a packet starts on its output, \
         or until its tail has left the switch (a packet being sent still counts, and a full buffer also arms its \
         output).",
        &[c("start", "it starts"), c("departure", "its tail leaves")],
    ),
    pick(
        "source.response",
        "Source response",
        "How a source's rate limit follows ACKs: fdec on marked, finc on unmarked (INFOCOM'03 §V).",
        &[
            c("none", "none"),
            c("fixed", "fixed rate"),
            c("aimd", "AIMD"),
            c("fimd", "FIMD"),
            c("lipd", "LIPD"),
            c("hybrid", "hybrid window/rate (HP)"),
        ],
    ),
    pick(
        "source.rate",
        "Rates",
        "Continuous rates, or InfiniBand's 256 inter-packet delays (INFOCOM'03 §VI-B.1).",
        &[c("continuous", "continuous"), c("discrete", "discrete (IPD)")],
    ),
    num(
        "source.window_packets",
        "Window",
        "packets",
        "Most unacknowledged packets per flow; empty for no window (INFOCOM'03 §IV-B).",
    ),
    num("source.m", "Decrease factor m", "", "AIMD and FIMD: a mark divides the rate by m."),
    num("source.r_min_fraction", "Rmin", "of Rmax", "Lowest rate limit; InfiniBand's 256 IPD values give Rmax/256."),
    num("source.fixed_rate_fraction", "Fixed rate", "of link", "The rate of a fixed-rate source (INFOCOM'03 Fig. 3d)."),
    pick(
        "source.persistent_state",
        "Persistent state",
        "ON/OFF flows keep rate and window between ON periods (INFOCOM'03 §VI-B.2).",
        &[c("false", "no: each ON period starts at Rmax"), c("true", "yes")],
    ),
    pick(
        "source.hybrid_rate",
        "Hybrid rate function",
        "The rate function of a hybrid window/rate source (the HP proposal).",
        &[c("aimd", "AIMD"), c("fimd", "FIMD"), c("lipd", "LIPD")],
    ),
    num(
        "ack_coalescing.every_packets",
        "ACK every",
        "packets",
        "ACK coalescing (the HP proposal): a destination ACKs a marked packet at once, the packet that fills the \
         window, or every this many; empty: every packet is ACKed on its own.",
    ),
    pick(
        "flows[].transport",
        "Transport of every flow",
        "Every flow's transport (the HP proposal): reliable, each packet ACKed, the ACK echoing its mark, within a \
         window; or unreliable: no ACKs and no window, and a marked packet brings the source a CN packet. One flow at \
         a time: in its inspector.",
        &[c("reliable", "reliable (ACKs)"), c("unreliable", "unreliable (CN packets)")],
    ),
    num(
        "virtual_lanes.data_vls",
        "Data VLs",
        "per port",
        "Virtual lanes (InfiniBand), 1 to 15: each has its own input buffers and credits, and outputs share the link \
         between them by their weights. A flow's SL chooses its VL. Empty: one, as in the papers.",
    ),
    num(
        "switch.max_bypass",
        "Max bypass",
        "",
        "How often the oldest packet of a buffer may be overtaken before it blocks it (INFOCOM'03 footnote 6).",
    ),
    pick(
        "switch.bypass_counting",
        "Bypass counted by",
        "Which packets count toward the bypass limit: the head of a buffer, afresh each time a packet becomes head \
         (INFOCOM'03 footnote 6), or every packet overtaken, head or not.",
        &[c("head", "the head only"), c("each_packet", "every packet overtaken")],
    ),
    num(
        "switch.input_transfers",
        "Input transfers",
        "packets",
        "Packets one input buffer may send through the crossbar at once; empty for no limit (the papers' results \
         need none), 1 for a crossbar that reads one packet at a time per input.",
    ),
    pick(
        "switch.arbitration",
        "Output serves",
        "How an output chooses among the input buffers with a packet for it: the oldest packet in the switch (what \
         the papers' numbers need), or the inputs in turn, as many crossbar arbiters do.",
        &[c("oldest_first", "the oldest packet"), c("round_robin", "the inputs in turn")],
    ),
    num(
        "switch.forwarding_delay_ns",
        "Forwarding delay",
        "ns",
        "From a packet's head arriving to the earliest it may leave (Globecom'02 Table I: 40 ns).",
    ),
    pick(
        "routing.engine",
        "Routing engine",
        "How the switches' forwarding tables are filled, as OpenSM's engine of that name fills them: minhop (fewest \
         hops, destinations spread over equal ports), updn (up*/down* from root switches: no credit loop), ftree \
         (fat trees, leaf by leaf), sssp (shortest paths spread by weights), dfsssp (sssp on virtual lanes that break \
         every credit loop); or the papers' rule (fewest hops, first neighbour listed).",
        &[
            c("minhop", "minhop (OpenSM's default)"),
            c("updn", "up*/down* (updn)"),
            c("ftree", "fat tree (ftree)"),
            c("sssp", "shortest paths, spread (sssp)"),
            c("dfsssp", "deadlock-free sssp, on lanes (dfsssp)"),
            c("first_listed", "fewest hops, first listed (the papers')"),
        ],
    ),
    num("link.bandwidth_gbps", "Link bandwidth", "Gb/s", "Data rate of every link (Table I: 1 GB/s, 8 Gb/s)."),
    num("link.propagation_ns", "Propagation delay", "ns", "One way, on every link; the papers give none."),
    num("packet.payload_bytes", "Packet payload", "bytes", "Data bytes of a packet, beside its header."),
    num("seed", "Seed", "", "Seed of every random choice: the same seed replays the same run."),
    num("duration_ns", "Duration", "ns", "Simulated time to run."),
    num("measure.from_ns", "Measure from", "ns", "Results count from here (the papers: the last 400 ms of 500)."),
    num(
        "measure.to_ns",
        "Measure until",
        "ns",
        "Results count up to here; empty for the end of the run (INFOCOM'03 Figs. 2-4 read the victim's 40-60 ms).",
    ),
    num(
        "measure.window_ns",
        "Rate window",
        "ns",
        "The plot's link and group rates are averaged over this window, centred on each moment (the papers: 2 ms), \
         so a curve starts to rise half a window before its flow starts; a short run needs a shorter one.",
    ),
    pick(
        "pft",
        "Proactive Flow Throttling",
        "PFT at each NIC, from its credits in use (IFIP'21): off, or detection by a fixed or an average threshold with \
         throttling by a fixed or a random interval.",
        &[
            c("off", "off"),
            c("ft_fi", "FT-FI: fixed threshold, fixed interval"),
            c("ft_ri", "FT-RI: fixed threshold, random interval"),
            c("at_fi", "AT-FI: average threshold, fixed interval"),
            c("at_ri", "AT-RI: average threshold, random interval"),
        ],
    ),
    pick(
        "pft.detection",
        "PFT detection",
        "When a NIC counts as congested: credits in use above a threshold, or above it long enough on average.",
        &[c("fixed_threshold", "fixed threshold"), c("average_threshold", "average threshold")],
    ),
    pick(
        "pft.throttling",
        "PFT throttling",
        "While congested, idle cycles after each flit: a fixed interval f(c), or at random.",
        &[c("fixed_interval", "fixed interval"), c("random_interval", "random interval")],
    ),
    pick(
        "ib_cc",
        "InfiniBand Annex A10",
        "FECN at congested switch ports, BECN on ACKs, CCTI and CCT at sources. Replaces the papers' marking and \
         response. Turned on, its times are scaled to the network's fastest host link.",
        &[c("off", "off"), c("on", "on")],
    ),
    num(
        "ib_cc.threshold",
        "A10 threshold",
        "",
        "0 (never mark) to 15 (most aggressive): how much must wait for a switch port before it marks FECN \
         (OpenSM's cc_sw_cong_setting_threshold): (16 - threshold)/16 of one input buffer. What waits comes \
         in whole packets, so with small buffers neighbouring thresholds mark alike (a buffer of 4: four at a time).",
    ),
    num(
        "ib_cc.marking_rate",
        "A10 marking rate",
        "packets",
        "Eligible packets a congested port leaves unmarked between two it marks (cc_sw_cong_setting_marking_rate).",
    ),
    num(
        "ib_cc.packet_size_credits",
        "A10 packet size",
        "credits",
        "Packets shorter than this many 64-byte credits are not marked (cc_sw_cong_setting_packet_size).",
    ),
    num("ib_cc.ccti_increase", "CCTI increase", "", "How far a source's CCTI rises for each BECN."),
    num("ib_cc.ccti_limit", "CCTI limit", "", "The highest CCTI used; empty: the table's last entry."),
    num("ib_cc.ccti_min", "CCTI minimum", "", "The CCTI never falls below this."),
    num(
        "ib_cc.ccti_timer",
        "CCTI timer",
        "× 1.024 µs",
        "A source's CCTI falls by one every this many 1.024 µs (cc_ca_cong_setting_ccti_timer).",
    ),
    num(
        "ib_cc.ird_unit_ps",
        "CCT delay unit",
        "ps",
        "The unit of a CCT entry's delay after each packet (multiplier << shift units): 64 bytes' time, 64000 ps at \
         8 Gb/s and 5120 ps at 100 Gb/s.",
    ),
    pick(
        "ib_cc.cct.shape",
        "CCT shape",
        "How a source's delay after each packet grows with its CCTI, from 0 at the table's first entry to the top \
         multiplier at its last: in a straight line, or slowly first (quadratic).",
        &[c("linear", "linear"), c("quadratic", "quadratic")],
    ),
    num(
        "ib_cc.cct.entries",
        "CCT entries",
        "",
        "How many steps the table has, 1 to 1024: each BECN moves a source 'CCTI increase' steps along it.",
    ),
    num(
        "ib_cc.cct.max_multiplier",
        "CCT top multiplier",
        "units",
        "The delay after each packet at the table's last entry, in CCT delay units (multiplier << shift).",
    ),
    block("flows", "The flows", "Every flow: its hosts, group, start and stop, traffic and transport."),
];

/// The lock of every setting at once (an exercise's `locked`): the student's run must be the exercise's own, but
/// for where it is measured and how it is drawn.
pub const EVERY_SETTING: &str = "*";

/// Whether `path` is a setting inside block `block` (`ib_cc.threshold` in `ib_cc`; not `ib_cc` itself): the
/// scenario's own rule, which `Scenario::with_settings` applies.
pub use ibcc_core::scenario::within;

/// The setting at `path`, if it has a name.
pub fn find(path: &str) -> Option<&'static Setting> {
    SETTINGS.iter().find(|s| s.path == path)
}

/// `path` in words: "Input buffer (packets)"; a path without a name in words is shown as it is (with the last
/// part of a longer path named when it can be: `nodes[3].switch.buffer_packets` is "nodes[3]: Input buffer").
pub fn label(path: &str) -> String {
    let with_unit =
        |s: &Setting| if s.unit.is_empty() { s.label.to_owned() } else { format!("{} ({})", s.label, s.unit) };
    if path == EVERY_SETTING {
        return String::from("Every setting");
    }
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

/// A value of setting `path` in words: a choice's label ("naive: the packets of a full buffer"), or the value as it is.
pub fn value_label(path: &str, value: &Value) -> String {
    let text = value.as_str().map_or_else(|| value.to_string(), str::to_owned);
    find(path).and_then(|s| s.choice(&text)).map_or(text, |c| c.label.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ibcc_core::presets::find as preset;
    use std::collections::BTreeMap;

    /// Every path is one the scenario format knows, and every choice a value it takes there (the panel sets them
    /// by path, so a misspelt one would be refused at the first click).
    #[test]
    fn every_setting_and_choice_is_the_format_s() {
        let s = preset("infocom03-fig2").unwrap().scenario();
        for setting in SETTINGS {
            let (path, blocks) = (setting.path, ["pft", "ib_cc", "flows", "flows[].transport"]);
            let absent_but_known = matches!(
                path,
                "marking.buffer_threshold_packets"
                    | "marking.output_threshold_packets"
                    | "measure.to_ns"
                    | "source.window_packets"
                    | "switch.input_transfers"
                    | "ack_coalescing.every_packets"
                    | "virtual_lanes.data_vls"
                    | "routing.engine"
                    | "pft.detection"
                    | "pft.throttling"
            );
            assert!(
                s.setting(path).is_some() || absent_but_known || blocks.contains(&path) || path.starts_with("ib_cc."),
                "{path}"
            );
            if path == "pft" || path == "ib_cc" {
                // Switched by a word (`Scenario::switch_block`), each choice one it takes.
                for choice in setting.choices {
                    let set = BTreeMap::from([(path.to_owned(), choice.json())]);
                    let next = s.with_settings(&set).unwrap_or_else(|e| panic!("{path} = {}: {e}", choice.value));
                    assert_eq!(next.block_word(path), choice.value, "{path}");
                }
                continue;
            }
            if blocks.contains(&path) || path.starts_with("ib_cc.") {
                continue;
            }
            if absent_but_known && setting.choices.is_empty() {
                // A number the preset leaves out: the format takes one there.
                let v = Value::from(if path == "measure.to_ns" { s.duration_ns } else { 2 });
                let set = BTreeMap::from([(path.to_owned(), v.clone())]);
                let next = s.with_settings(&set).unwrap_or_else(|e| panic!("{path} = {v}: {e}"));
                assert_eq!(next.setting(path), Some(v), "{path}");
            }
            for choice in setting.choices {
                // (Choosing a hybrid source brings its window: `Scenario::with_companions`.)
                let set = BTreeMap::from([(path.to_owned(), choice.json())]);
                let next = s.with_settings(&set).unwrap_or_else(|e| panic!("{path} = {}: {e}", choice.value));
                // (The default routing block is left out of the format.)
                let got = next.setting(path).or_else(|| (path == "routing.engine").then(|| Value::from("minhop")));
                assert_eq!(got, Some(choice.json()), "{path}");
            }
        }
        // Annex A10's numbers, on a scenario that has it (absent, the block is off).
        let a10 = preset("a10-two-switch").unwrap().scenario();
        for setting in SETTINGS.iter().filter(|s| s.path.starts_with("ib_cc.")) {
            let path = setting.path;
            assert!(a10.setting(path).is_some() || path == "ib_cc.ccti_limit", "{path}");
            // (Its table's shape by a choice, other than the preset's first.)
            let v = setting.choices.last().map_or(Value::from(3), Choice::json);
            let set = BTreeMap::from([(path.to_owned(), v.clone())]);
            let next = a10.with_settings(&set).unwrap_or_else(|e| panic!("{path} = {v}: {e}"));
            assert_eq!(next.setting(path), Some(v), "{path}");
        }
        assert_eq!(label("switch.buffer_packets"), "Input buffer (packets)");
        assert_eq!(label("marking.policy"), "Marking policy");
        assert_eq!(label("flows[2].start_ns"), "flows[2].start_ns");
        assert_eq!(label("nodes[1].switch.buffer_packets"), "nodes[1]: Input buffer (packets)");
        assert_eq!(value_label("marking.policy", &Value::from("naive")), "naive: the packets of a full buffer");
        assert_eq!(value_label("switch.buffer_packets", &Value::from(4)), "4");
    }
}
