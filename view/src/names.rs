//! What things are called, in the page, the command line and their exports alike: the plots a scenario can show
//! (their ids travel in share links and lessons) and the curve of a group of flows.

use serde::{Deserialize, Serialize};

/// Why an aggregate throughput can pass 100%, said wherever one does (the A/B results, a sweep).
pub const AGGREGATE_OVER_100: &str = "Aggregate throughput adds up every flow's share of its own source link, so it \
     passes 100% when flows send from different hosts.";

/// A group that ran for only part of the measured interval (`Scenario::group_ran_within`), in words: its
/// throughput `shown` (a fraction) is over the whole interval, and what it had while it ran.
pub fn ran_within(group: &str, shown: f64, ran: (f64, f64), interval: (f64, f64)) -> String {
    let ms = |ns: f64| ns / 1e6;
    let while_ran = shown * (interval.1 - interval.0) / (ran.1 - ran.0);
    format!(
        "{group} ran from {:.1} to {:.1} ms of the measured {:.1} to {:.1} ms: its {:.1}% is over the whole interval, \
         {:.1}% while it ran.",
        ms(ran.0),
        ms(ran.1),
        ms(interval.0),
        ms(interval.1),
        100.0 * shown,
        100.0 * while_ran
    )
}

/// Something that ran for only part of the measured interval, said in words ([`partial_runs`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Partial {
    /// Its group (a flow's own), so that a view holding a group back holds this back too.
    pub group: String,
    /// `group NAME` or `flow ID`, unique among them (the page's test ids).
    pub key: String,
    pub words: String,
}

/// What ran for only part of `r`'s measured interval in `s`'s run, and what it had while it ran: each group whose
/// flows ran the same part (its value as `group_value` gives it: the page's sum or mean), then, one by one, the
/// flows that did in groups that did not (their neighbours ran throughout; at most `most_flows` of them, then a
/// count of the rest).
pub fn partial_runs(
    r: &ibcc_core::sim::Results,
    s: &ibcc_core::scenario::Scenario,
    group_value: impl Fn(&ibcc_core::sim::GroupResult) -> f64,
    most_flows: usize,
) -> Vec<Partial> {
    let interval = (r.measured_from_ns, r.measured_to_ns);
    if r.measured_nothing() {
        return Vec::new();
    }
    let mut said: Vec<Partial> = r
        .groups
        .iter()
        .filter_map(|g| {
            let ran = s.group_ran_within(&g.name, interval.0, interval.1)?;
            let name = if g.name.is_empty() { UNGROUPED } else { &g.name };
            let words = ran_within(name, group_value(g), ran, interval);
            Some(Partial { group: g.name.clone(), key: format!("group {}", g.name), words })
        })
        .collect();
    // (The run's results list its scenario's flows in order: a fabric's pattern has thousands, asked every frame.)
    let flows: Vec<Partial> = r
        .flows
        .iter()
        .zip(&s.flows)
        .filter(|(fl, f)| fl.id == f.id && !said.iter().any(|p| p.group == fl.group))
        .filter_map(|(fl, f)| {
            let part = f.ran_within(interval.0, interval.1)?;
            let words = ran_within(&format!("flow {}", fl.id), fl.throughput_fraction, part, interval);
            Some(Partial { group: fl.group.clone(), key: format!("flow {}", fl.id), words })
        })
        .collect();
    let more = flows.len().saturating_sub(most_flows);
    said.extend(flows.into_iter().take(most_flows));
    if more > 0 {
        let words = if more == 1 {
            String::from("1 more flow ran for part of the interval too.")
        } else {
            format!("{more} more flows ran for part of the interval too.")
        };
        said.push(Partial { group: String::new(), key: String::from("more"), words });
    }
    said
}

/// What a plot shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum PlotKind {
    /// Link and group rates (INFOCOM'03 Fig. 2), from the core's series.
    Rates,
    FlowLimits,
    Buffers,
    Marks,
}

impl PlotKind {
    pub const ALL: [PlotKind; 4] = [PlotKind::Rates, PlotKind::FlowLimits, PlotKind::Buffers, PlotKind::Marks];

    /// Its id in share links, lessons and `ibcc link --plot`.
    pub fn id(self) -> &'static str {
        match self {
            Self::Rates => "rates",
            Self::FlowLimits => "limits",
            Self::Buffers => "buffers",
            Self::Marks => "marks",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Rates => "Link and group rates",
            Self::FlowLimits => "Flow rate limits",
            Self::Buffers => "Buffer occupancy",
            Self::Marks => "Marks per second",
        }
    }

    /// The plot with this id, if there is one.
    pub fn parse(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|k| k.id() == id)
    }

    /// The plot with this id; the rates for an id this build does not know (a link from a newer page).
    pub fn from_id(id: &str) -> Self {
        Self::parse(id).unwrap_or(Self::Rates)
    }
}

/// The flows of no group, as plots and tables name them.
pub const UNGROUPED: &str = "flows without a group";

/// The curve (or row) of group `g`'s flows: "victim flows", or [`UNGROUPED`].
pub fn group_curve(g: &str) -> String {
    if g.is_empty() {
        String::from(UNGROUPED)
    } else {
        format!("{g} flows")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_that_ran_for_part_of_the_interval_is_given_its_rate_while_it_ran() {
        // 5.5% of 40-60 ms, run for 45-52 ms: 5.5 x 20 / 7 = 15.7% while it ran.
        assert_eq!(
            ran_within("victim", 0.055, (45e6, 52e6), (40e6, 60e6)),
            "victim ran from 45.0 to 52.0 ms of the measured 40.0 to 60.0 ms: its 5.5% is over the whole interval, \
             15.7% while it ran."
        );
    }

    #[test]
    fn what_ran_for_part_of_the_interval_is_said_by_group_and_else_by_flow() {
        let mut s = ibcc_core::presets::find("infocom03-fig2").unwrap().scenario();
        (s.duration_ns, s.measure.from_ns, s.measure.to_ns) = (4_000_000, 1_000_000, None);
        for f in s.flows.iter_mut().filter(|f| f.group == "victim") {
            (f.start_ns, f.stop_ns) = (2_000_000, Some(3_000_000));
        }
        // One of the five local flows stops early: its group did not, so it is said on its own.
        let local = s.flows.iter().position(|f| f.group == "local").unwrap();
        s.flows[local].stop_ns = Some(2_500_000);
        let mut run = ibcc_core::sim::Run::new(&s).unwrap();
        run.run();
        let r = run.results();
        let said = partial_runs(&r, &s, |g| g.throughput_fraction, 5);
        let keys: Vec<&str> = said.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(keys, ["group victim", format!("flow {}", s.flows[local].id).as_str()]);
        assert!(
            said[0].words.starts_with("victim ran from 2.0 to 3.0 ms of the measured 1.0 to 4.0 ms"),
            "{}",
            said[0].words
        );
        assert_eq!(said[1].group, "local", "held back with its group");
        assert!(partial_runs(&r, &s, |g| g.throughput_fraction, 0)
            .last()
            .is_some_and(|p| p.words == "1 more flow ran for part of the interval too."));
    }

    #[test]
    fn plots_are_found_by_their_ids_and_groups_named_one_way() {
        for k in PlotKind::ALL {
            assert_eq!(PlotKind::parse(k.id()), Some(k));
        }
        assert_eq!(PlotKind::parse("nothing"), None);
        assert_eq!(PlotKind::from_id("nothing"), PlotKind::Rates);
        assert_eq!(group_curve("victim"), "victim flows");
        assert_eq!(group_curve(""), UNGROUPED);
    }
}
