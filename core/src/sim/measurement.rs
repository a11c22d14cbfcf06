//! Named measurements of a run over a chosen interval: what the papers read off their plots ("the victim gets 15%
//! of the inter-switch link between 40 and 60 ms"), what the page sets next to them, and what exercises ask
//! students to predict. They come from the run's rate series, so any interval can be measured after the run.

use super::Simulation;
use crate::time::{Time, NS};
use alloc::format;
use alloc::string::String;
use serde::{Deserialize, Serialize};

/// A quantity of a run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Metric {
    /// The data rate of a group's flows on their source links, added up, as a fraction of one link (INFOCOM'03
    /// Fig. 2's "rates of local flows, remote flow, and the victim flow").
    GroupRate { group: String },
    /// The fraction of time a directed link (`"A->B"`) carried data.
    LinkRate { link: String },
}

/// A metric over an interval; `None` ends mean the scenario's measurement interval (`measure.from_ns` to the end).
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
                let ms = |t: Option<u64>, or: &str| t.map_or(String::from(or), |t| format!("{}", t as f64 / 1e6));
                format!("{what}, {}-{} ms", ms(from, "start"), ms(to, "end"))
            }
        }
    }
}

/// Why a measurement has no value (yet).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MeasureError {
    UnknownGroup(String),
    UnknownLink(String),
    /// The run has not reached the interval's start, or the interval is empty.
    NotReached,
}

impl core::fmt::Display for MeasureError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::UnknownGroup(g) => write!(f, "the scenario has no flow group {g:?}"),
            Self::UnknownLink(l) => write!(f, "the scenario has no link {l:?} (write it as \"A->B\")"),
            Self::NotReached => f.write_str("the run has not reached the measured interval yet"),
        }
    }
}

impl Simulation {
    /// The value of `m` over its interval, as far as the run has got (an interval still under way is measured up
    /// to now).
    pub fn measure(&self, m: &Measurement) -> Result<f64, MeasureError> {
        let series = match &m.metric {
            Metric::GroupRate { group } => {
                let g = self
                    .groups
                    .iter()
                    .position(|name| name == group)
                    .ok_or_else(|| MeasureError::UnknownGroup(group.clone()))?;
                &self.group_series[g]
            }
            Metric::LinkRate { link } => {
                let channel = self.scenario.channel(link).ok_or_else(|| MeasureError::UnknownLink(link.clone()))?;
                &self.series[channel as usize]
            }
        };
        let from: Time = m.from_ns.map_or(self.measure_from, |t| t.saturating_mul(NS));
        let to: Time = m.to_ns.map_or(self.measure_to, |t| t.saturating_mul(NS)).min(self.end).min(self.queue.now());
        if to <= from {
            return Err(MeasureError::NotReached);
        }
        Ok(series.busy_between(from, to) / (to - from) as f64)
    }
}
