//! Named measurements of a run over a chosen interval: what the papers read off their plots ("the victim gets 15%
//! of the inter-switch link between 40 and 60 ms"), what the page sets next to them, and what exercises ask
//! students to predict. They come from the run's rate series, so any interval can be measured after the run.

use super::{Report, Simulation};
use crate::metrics::overlap;
use crate::scenario::{Quoted, Scenario};
use crate::time::{Time, NS};
use alloc::format;
use alloc::string::String;
use serde::{Deserialize, Serialize};

/// A quantity of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Metric {
    /// The data rate of a group's flows on their source links, added up, as a fraction of one link (INFOCOM'03
    /// Fig. 2's "rates of local flows, remote flow, and the victim flow"); for several flows all to one host, of
    /// that host's link (`GroupResult::throughput_fraction`).
    GroupRate { group: String },
    /// The fraction of time a directed link (`"A->B"`) carried data.
    LinkRate { link: String },
}

/// A metric over an interval; an end left `None` is that end of the scenario's measurement interval
/// (`measure.from_ns`; `measure.to_ns`, or the end of the run).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Measurement {
    pub metric: Metric,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_ns: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_ns: Option<u64>,
}

impl Measurement {
    /// What it measures, in words ("victim flows' rate, 40-60 ms").
    pub fn describe(&self) -> String {
        let what = match &self.metric {
            Metric::GroupRate { group } => format!("rate of the {group} flows"),
            Metric::LinkRate { link } => format!("utilization of {link}"),
        };
        match (self.from_ns, self.to_ns) {
            (None, None) => what,
            (from, to) => {
                let end = |t: Option<u64>, or: &str| t.map_or(String::from(or), ms);
                format!("{what}, {}-{} ms", end(from, "start"), end(to, "end"))
            }
        }
    }

    /// The interval `[from, to)` it covers in `s`, in nanoseconds; an error if it is empty.
    pub fn interval_ns(&self, s: &Scenario) -> Result<(u64, u64), MeasureError> {
        let from = self.from_ns.unwrap_or(s.measure.from_ns);
        let to = self.to_ns.map_or(s.measure.until_ns(s.duration_ns), |t| t.min(s.duration_ns));
        if to <= from {
            return Err(MeasureError::Empty { from_ns: from, to_ns: to });
        }
        Ok((from, to))
    }
}

/// `ns` nanoseconds in ms, as few decimals as it needs.
fn ms(ns: u64) -> String {
    crate::time::ms_text(ns.saturating_mul(NS))
}

/// Why a measurement has no value (yet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MeasureError {
    UnknownGroup(String),
    UnknownLink(String),
    /// The run has not reached the interval's start.
    NotReached,
    /// The interval ends (at the latest at the end of the run) before it starts.
    Empty {
        from_ns: u64,
        to_ns: u64,
    },
}

impl core::fmt::Display for MeasureError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::UnknownGroup(g) => write!(f, "the scenario has no flow group {}", Quoted(g)),
            Self::UnknownLink(l) => write!(f, "the scenario has no link {} (write it as \"A->B\")", Quoted(l)),
            Self::NotReached => f.write_str("the run has not reached the measured interval yet"),
            Self::Empty { from_ns, to_ns } => write!(
                f,
                "the interval is empty: it ends at {} ms, not after its start at {} ms",
                ms(*to_ns),
                ms(*from_ns)
            ),
        }
    }
}

impl Report {
    /// The value of `m` over its interval in `sim`, as far as the run has got (an interval still under way is
    /// measured up to now).
    pub fn measure(&self, sim: &Simulation, m: &Measurement) -> Result<f64, MeasureError> {
        let now = sim.now();
        let (from_ns, to_ns) = m.interval_ns(sim.scenario())?;
        let from: Time = from_ns.saturating_mul(NS);
        let to: Time = to_ns.saturating_mul(NS).min(now);
        if to <= from {
            return Err(MeasureError::NotReached);
        }
        // What lies at or after `now` of the transmissions in progress, in `now`'s bin (`BusySeries::busy_so_far`):
        // so that an interval still under way is measured as exactly as the Results tables measure it.
        let ahead = |bin_end: Time, started: Time, ends: Time| overlap(now.max(started), ends, now, bin_end);
        let (series, pending) = match &m.metric {
            Metric::GroupRate { group } => {
                let g = self
                    .groups
                    .iter()
                    .position(|name| name == group)
                    .ok_or_else(|| MeasureError::UnknownGroup(group.clone()))?;
                let series = self.group_series.series(g);
                let end = series.bin_end(now);
                let members = (0..self.flow_group.len()).filter(|&f| self.flow_group[f] as usize == g);
                let pending = members
                    .filter_map(|f| sim.flow(f).last_start().map(|l| ahead(end, l, l + sim.packet_time(f))))
                    .sum();
                (series, pending)
            }
            Metric::LinkRate { link } => {
                let channel = sim.scenario().channel(link).ok_or_else(|| MeasureError::UnknownLink(link.clone()))?;
                let series = self.series.series(channel as usize);
                let sending = sim.channel(channel).sending().filter(|s| s.lane.is_data());
                let pending = sending.map_or(0, |s| ahead(series.bin_end(now), 0, s.ends_at));
                (series, pending)
            }
        };
        let busy = if to < now { series.busy_between(from, to) } else { series.busy_so_far(from, now, pending) };
        Ok(busy / (to - from) as f64)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn milliseconds_are_written_exactly_with_the_decimals_they_need() {
        assert_eq!([0, 40_000_000, 500_000, 12_000_001, 1].map(super::ms), ["0", "40", "0.5", "12.000001", "0.000001"]);
    }
}
