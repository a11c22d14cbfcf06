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
