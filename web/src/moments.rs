//! The run's timeline as the page shows it: the moments worth marking (when each group of flows starts and stops,
//! the measured interval), the playback speeds, the speed a scenario opens at (so its first key moment comes within
//! a few seconds), and the step sizes. Read from the scenario itself, so presets and networks built on the canvas
//! get the same treatment. Pure Rust, tested natively.

use ibcc_core::scenario::Scenario;

pub use crate::driver::Speed;

/// The playback speeds offered, slowest first.
pub const SPEEDS: [(&str, Speed); 6] = [
    ("10 µs/s", Some(10_000_000)),
    ("100 µs/s", Some(100_000_000)),
    ("1 ms/s", Some(1_000_000_000)),
    ("10 ms/s", Some(10_000_000_000)),
    ("100 ms/s", Some(100_000_000_000)),
    ("as fast as possible", None),
];

/// Wall-clock seconds within which a scenario's first key moment should come at its default speed.
pub const FIRST_MOMENT_WITHIN_S: f64 = 5.0;

/// What a moment is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MomentKind {
    /// A group of flows starts sending.
    Start,
    /// A group of flows stops.
    Stop,
}

/// A point on the timeline worth marking.
#[derive(Debug, Clone, PartialEq)]
pub struct Moment {
    pub at_ns: u64,
    pub kind: MomentKind,
    /// "victim starts".
    pub label: String,
}

/// The share of the timeline's width one character of a moment's label takes (0.7rem text on a timeline of about
/// 800 px, at 1024 px wide and up; phones hide the labels).
const LABEL_CHAR: f64 = 0.0075;

/// Where each label goes, given each moment's place on the timeline (0 to 1, in time order) and its label's length:
/// the first row, the second where the first is taken there, or none (the moment's dot still has it as its title).
/// Labels of moments close together ("victim starts" and "victim stops" 7 ms apart in 100) ran into each other.
pub fn label_rows(labels: &[(f64, usize)]) -> Vec<Option<u8>> {
    // The right edge of the last label placed in each row.
    let mut ends = [f64::NEG_INFINITY; 2];
    labels
        .iter()
        .map(|&(at, chars)| {
            let half = LABEL_CHAR * chars as f64 / 2.0;
            let row = ends.iter().position(|&end| at - half > end + LABEL_CHAR)?;
            ends[row] = at + half;
            Some(row as u8)
        })
        .collect()
}

/// The moments of a scenario, in time order: each group's first start and last stop inside the run. Starts in the
/// first twentieth of the run are its start-up (the papers stagger sources 100 us apart), not moments. Flows
/// without a group count as one group, "flows".
pub fn moments(s: &Scenario) -> Vec<Moment> {
    let startup = s.duration_ns / 20;
    let mut groups: Vec<&str> = Vec::new();
    for f in &s.flows {
        if !groups.contains(&f.group.as_str()) {
            groups.push(&f.group);
        }
    }
    let mut out = Vec::new();
    for g in groups {
        let flows: Vec<_> = s.flows.iter().filter(|f| f.group == g).collect();
        let name = if g.is_empty() { "flows" } else { g };
        let start = flows.iter().map(|f| f.start_ns).min().unwrap_or(0);
        if start > startup && start < s.duration_ns {
            out.push(Moment { at_ns: start, kind: MomentKind::Start, label: format!("{name} starts") });
        }
        // A group stops when its last flow does (a flow without a stop runs to the end).
        let stop = flows.iter().map(|f| f.stop_ns.unwrap_or(u64::MAX)).max().unwrap_or(u64::MAX);
        if stop > start && stop < s.duration_ns {
            out.push(Moment { at_ns: stop, kind: MomentKind::Stop, label: format!("{name} stops") });
        }
    }
    ibcc_view::sorting::sort_by(&mut out, |a, b| a.at_ns.cmp(&b.at_ns));
    out
}

/// The measured interval `[from, to)` in ns.
pub fn measured(s: &Scenario) -> (u64, u64) {
    (s.measure.from_ns.min(s.duration_ns), s.measure.until_ns(s.duration_ns))
}

/// The first moment worth waiting for: the first group start or stop after 0, else the start of the measured
/// interval, else the end of the run.
pub fn first_key_moment_ns(s: &Scenario) -> u64 {
    let (from, _) = measured(s);
    moments(s).first().map(|m| m.at_ns).or((from > 0).then_some(from)).unwrap_or(s.duration_ns).max(1)
}

/// The index in [`SPEEDS`] a scenario opens at: the slowest speed that reaches its first key moment within
/// [`FIRST_MOMENT_WITHIN_S`] (INFOCOM'03 Fig. 2: the victim at 40 ms, so 10 ms/s).
pub fn default_speed(s: &Scenario) -> usize {
    let first_ps = first_key_moment_ns(s) as f64 * 1000.0;
    SPEEDS
        .iter()
        .position(|(_, v)| v.is_some_and(|ps_per_s| first_ps / ps_per_s as f64 <= FIRST_MOMENT_WITHIN_S))
        .unwrap_or(SPEEDS.len() - 1)
}

/// What the Step button moves by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StepSize {
    /// One data packet's time on the scenario's default link.
    Packet,
    Tenth,
    Milli,
}

impl StepSize {
    pub const ALL: [StepSize; 3] = [StepSize::Packet, StepSize::Tenth, StepSize::Milli];

    pub fn id(self) -> &'static str {
        match self {
            StepSize::Packet => "packet",
            StepSize::Tenth => "0.1ms",
            StepSize::Milli => "1ms",
        }
    }

    pub fn from_id(id: &str) -> Self {
        Self::ALL.into_iter().find(|s| s.id() == id).unwrap_or(StepSize::Tenth)
    }

    /// How far a step goes in `s`, in picoseconds.
    pub fn ps(self, s: &Scenario) -> u64 {
        match self {
            StepSize::Packet => packet_time_ps(s),
            StepSize::Tenth => 100_000_000,
            StepSize::Milli => 1_000_000_000,
        }
    }

    /// Its label, with the packet time worked out for `s`.
    pub fn label(self, s: &Scenario) -> String {
        match self {
            StepSize::Packet => format!("1 packet ({})", format_time_ns(packet_time_ps(s) as f64 / 1000.0)),
            StepSize::Tenth => String::from("0.1 ms"),
            StepSize::Milli => String::from("1 ms"),
        }
    }
}

/// One data packet's serialization time on the scenario's default link, in ps (at least 1 ns).
pub fn packet_time_ps(s: &Scenario) -> u64 {
    let bits = f64::from(s.packet.data_bytes()) * 8.0;
    ((bits / s.link.bandwidth_gbps.max(1e-6) * 1000.0).round() as u64).max(1000)
}

/// The run's times in words: "a run of 100 ms, measured from 40 ms to 60 ms" (a generated or imported network keeps
/// them, and every point of a sweep runs them).
pub fn run_times(s: &Scenario) -> String {
    let t = |ns: u64| format_time_ns(ns as f64);
    let until = s.measure.to_ns.map_or_else(|| String::from("the end"), t);
    format!("a run of {}, measured from {} to {until}", t(s.duration_ns), t(s.measure.from_ns))
}

/// A time for people: "40 ms", "2.05 µs", "0.4 ms".
pub fn format_time_ns(ns: f64) -> String {
    let trim = |x: f64| {
        let s = format!("{x:.3}");
        s.trim_end_matches('0').trim_end_matches('.').to_owned()
    };
    if ns >= 1e6 || ns == 0.0 {
        format!("{} ms", trim(ns / 1e6))
    } else if ns >= 1e3 {
        format!("{} µs", trim(ns / 1e3))
    } else {
        format!("{} ns", trim(ns))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_close_together_take_a_second_row_and_a_third_is_left_to_its_dot() {
        // Fig. 2's victim from 40 to 60 ms of 100: apart. From 45 to 52: the second row. Three within 3 ms: no room.
        assert_eq!(label_rows(&[(0.4, 13), (0.6, 12)]), [Some(0), Some(0)]);
        assert_eq!(label_rows(&[(0.45, 13), (0.52, 12)]), [Some(0), Some(1)]);
        assert_eq!(label_rows(&[(0.45, 13), (0.46, 12), (0.47, 12), (0.9, 5)]), [Some(0), Some(1), None, Some(0)]);
    }
    use ibcc_core::presets::{find, PRESETS};

    #[test]
    fn fig2_marks_the_victim_and_opens_fast_enough_to_reach_it() {
        let s = find("infocom03-fig2").unwrap().scenario();
        let m = moments(&s);
        let labels: Vec<&str> = m.iter().map(|m| m.label.as_str()).collect();
        assert_eq!(labels, ["victim starts", "victim stops"], "locals and remotes start in the first ms: {m:?}");
        assert_eq!((m[0].at_ns, m[1].at_ns), (40_000_000, 60_000_000));
        assert_eq!(measured(&s), (40_000_000, 60_000_000));
        assert_eq!(SPEEDS[default_speed(&s)].0, "10 ms/s");
    }

    #[test]
    fn every_preset_reaches_its_first_key_moment_within_five_seconds() {
        for p in PRESETS {
            let s = p.scenario();
            let (_, speed) = SPEEDS[default_speed(&s)];
            let first_s = match speed {
                Some(v) => first_key_moment_ns(&s) as f64 * 1000.0 / v as f64,
                None => 0.0,
            };
            assert!(first_s <= FIRST_MOMENT_WITHIN_S, "{}: {first_s} s", p.name);
            // Not needlessly fast: one speed slower would miss it.
            if let Some(i) = default_speed(&s).checked_sub(1) {
                let slower = SPEEDS[i].1.unwrap();
                assert!(first_key_moment_ns(&s) as f64 * 1000.0 / slower as f64 > FIRST_MOMENT_WITHIN_S, "{}", p.name);
            }
        }
    }

    #[test]
    fn groups_without_starts_or_stops_give_no_moments() {
        let mut s = find("infocom03-fig2").unwrap().scenario();
        for f in &mut s.flows {
            f.start_ns = 0;
            f.stop_ns = None;
        }
        assert!(moments(&s).is_empty());
        assert_eq!(first_key_moment_ns(&s), 40_000_000, "then the measured interval's start");
        s.measure.from_ns = 0;
        assert_eq!(first_key_moment_ns(&s), s.duration_ns);
    }

    #[test]
    fn steps_are_visible_amounts() {
        let s = find("infocom03-fig2").unwrap().scenario();
        // A 2068-byte packet at 8 Gb/s (Table I): 2.068 us.
        assert_eq!(StepSize::Packet.ps(&s), 2_068_000);
        assert_eq!(StepSize::Tenth.ps(&s), 100_000_000);
        assert_eq!(StepSize::from_id("1ms"), StepSize::Milli);
        assert_eq!(format_time_ns(40e6), "40 ms");
        assert_eq!(format_time_ns(2048.0), "2.048 µs");
        assert_eq!(format_time_ns(0.0), "0 ms");
    }
}
