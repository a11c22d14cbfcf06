//! A source's congestion-control state: its rate limit and window, and how each ACK changes them
//! (INFOCOM'03 §IV-B and §V; the HP slides' hybrid window/rate template).
//!
//! - `none`: no rate limit; the window (if any) is fixed.
//! - `fixed`: a constant rate limit (INFOCOM'03 Fig. 3d).
//! - `aimd`, `fimd`, `lipd`: every ACK applies `fdec` (marked) or `finc` (unmarked) to the rate limit; the window is
//!   fixed. Continuous rates are any value in `[Rmin, Rmax]`; discrete rates are IPDs driven by [`IpdTable`].
//! - `hybrid`: the HP slides' state (CWND, OUTS, CIPD, RPI, APSN, RWL). Each injection records what delayed it
//!   (rate, window or other); only unmarked ACKs while that was the rate or the window count down RPI, and the
//!   increase goes to the limiting one. A marked ACK for a packet at or after APSN decreases both and moves APSN past
//!   the packets already sent: one decrease per window.
//!
//! As in the slides, the hybrid has one RPI: whichever of rate or window is limiting when it reaches 0 is increased,
//! and RPI is reloaded from that one's table. Our choices where the sources are silent (documented in
//! docs/scenario.md): the window tables are `window_increase[w] = w + 1` (up to `window_packets`),
//! `window_decrease[w] = max(1, w/2)` and `new_window_RPI[w] = w` (one increase per window of ACKs, as TCP); a
//! continuous rate's `new_rate_RPI` is 1 (one `finc` step per counted ACK); a decrease reloads RPI from the table of
//! the limiter then in force.

use super::ipd::{rate_of, IpdTable};
use super::response::{ResponseFunction, ResponseParams};
use super::{Ack, Limiter, SourceControl};
use crate::nullable::present_or_null;
use crate::time::Time;
use alloc::rc::Rc;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// How a source reacts to ECN feedback.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Response {
    /// No rate control (the window, if any, still applies).
    #[default]
    None,
    /// A constant rate limit, `fixed_rate_fraction` of the link (INFOCOM'03 Fig. 3d).
    Fixed,
    Aimd,
    Fimd,
    Lipd,
    /// HP's hybrid window/rate control (the HP slides): rate from `hybrid_rate`, window up to `window_packets`.
    Hybrid,
}

/// Continuous rates, or InfiniBand's 256 discrete inter-packet delays (INFOCOM'03 §VI-B.1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RateMode {
    #[default]
    Continuous,
    Discrete,
}

/// Source behaviour (INFOCOM'03 §IV-B, §V; the HP slides).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Source {
    pub response: Response,
    pub rate: RateMode,
    /// Most packets a flow may have unacknowledged; `null`: no window. Default 1 (INFOCOM'03 §IV-B). For a hybrid
    /// source, the largest window it may grow to.
    #[serde(default = "default_window")]
    pub window_packets: Option<u32>,
    /// `Rmin` as a fraction of the link rate (default 1/256: InfiniBand's IPD range).
    pub r_min_fraction: f64,
    /// Decrease factor of AIMD and FIMD.
    pub m: f64,
    /// The rate limit of a `fixed` source, as a fraction of its link.
    pub fixed_rate_fraction: f64,
    /// ON/OFF flows: keep rate and window from one ON period to the next (INFOCOM'03 §VI-B.2).
    pub persistent_state: bool,
    /// The rate function of a `hybrid` source.
    pub hybrid_rate: ResponseFunction,
}

fn default_window() -> Option<u32> {
    Some(1)
}

impl Default for Source {
    fn default() -> Self {
        Self {
            response: Response::None,
            rate: RateMode::Continuous,
            window_packets: default_window(),
            r_min_fraction: 1.0 / 256.0,
            m: 2.0,
            fixed_rate_fraction: 1.0,
            persistent_state: false,
            hybrid_rate: ResponseFunction::Lipd,
        }
    }
}

/// Per-flow overrides of [`Source`]. `window_packets: null` here means "no window" for this flow.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SourceOverride {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub response: Option<Response>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rate: Option<RateMode>,
    #[serde(deserialize_with = "present_or_null", skip_serializing_if = "Option::is_none")]
    pub window_packets: Option<Option<u32>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub r_min_fraction: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub m: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fixed_rate_fraction: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub persistent_state: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hybrid_rate: Option<ResponseFunction>,
}

impl Source {
    /// These defaults with `o`'s overrides applied.
    pub fn with(&self, o: Option<&SourceOverride>) -> Self {
        let Some(o) = o else { return *self };
        Self {
            response: o.response.unwrap_or(self.response),
            rate: o.rate.unwrap_or(self.rate),
            window_packets: o.window_packets.unwrap_or(self.window_packets),
            r_min_fraction: o.r_min_fraction.unwrap_or(self.r_min_fraction),
            m: o.m.unwrap_or(self.m),
            fixed_rate_fraction: o.fixed_rate_fraction.unwrap_or(self.fixed_rate_fraction),
            persistent_state: o.persistent_state.unwrap_or(self.persistent_state),
            hybrid_rate: o.hybrid_rate.unwrap_or(self.hybrid_rate),
        }
    }
}

/// How the rate limit is held.
#[derive(Debug, Clone)]
enum Rate {
    /// No limit: `Rmax`.
    Unlimited,
    /// A constant fraction of `Rmax`.
    Fixed(f64),
    /// Any value in `[Rmin, Rmax]`, changed by `finc`/`fdec`.
    /// `memo`: the last gap computed, with the rate bits and packet time it was computed for.
    Continuous { function: ResponseFunction, params: ResponseParams, r: f64, memo: (u64, Time, Time) },
    /// An IPD with its countdown of unmarked ACKs to the next increase.
    Discrete { table: Rc<IpdTable>, ipd: u16, rpi: u32 },
}

/// Congestion-control state of one flow's source: its response to ECN, or none.
#[derive(Debug, Clone)]
pub struct EcnSource {
    rate: Rate,
    /// Current window (`None`: unlimited).
    window: Option<u32>,
    /// Hybrid only: the largest window, and its countdown to the next window increase.
    hybrid: Option<Hybrid>,
    /// The last limiter recorded (hybrid only).
    limiter: Limiter,
}

#[derive(Debug, Clone, Copy)]
struct Hybrid {
    max_window: u32,
    /// Unmarked, rate- or window-limited ACKs still needed before the next increase (the slides' RPI).
    rpi: u32,
    /// PSN of the first packet a new mark may decrease for (APSN).
    apsn: u32,
}

/// How a source was configured (resolved from the scenario).
#[derive(Debug, Clone)]
pub enum SourceKind {
    None,
    Fixed(f64),
    Continuous(ResponseFunction, ResponseParams),
    Discrete(Rc<IpdTable>),
}

impl SourceKind {
    /// The rate control `s` describes, sharing IPD tables between flows with the same parameters (`tables`).
    pub fn of(s: &Source, tables: &mut Vec<Rc<IpdTable>>) -> Self {
        let function = match s.response {
            Response::None => return Self::None,
            Response::Fixed => return Self::Fixed(s.fixed_rate_fraction),
            Response::Aimd => ResponseFunction::Aimd,
            Response::Fimd => ResponseFunction::Fimd,
            Response::Lipd => ResponseFunction::Lipd,
            Response::Hybrid => s.hybrid_rate,
        };
        // (Not `expect`: formatting the error would carry float formatting into the worker's wasm.)
        let Ok(params) = ResponseParams::new(s.r_min_fraction, s.m) else { panic!("validated source parameters") };
        match s.rate {
            RateMode::Continuous => Self::Continuous(function, params),
            RateMode::Discrete => {
                let table = match tables.iter().find(|t| t.key() == (function, params)) {
                    Some(t) => t.clone(),
                    None => {
                        let t = Rc::new(IpdTable::new(function, params));
                        tables.push(t.clone());
                        t
                    }
                };
                Self::Discrete(table)
            }
        }
    }
}

impl EcnSource {
    /// A new flow: at `Rmax` (INFOCOM'03 §VI-B) with its full window.
    pub fn new(kind: &SourceKind, window: Option<u32>, hybrid: bool) -> Self {
        let rate = match kind {
            SourceKind::None => Rate::Unlimited,
            SourceKind::Fixed(r) => Rate::Fixed(*r),
            SourceKind::Continuous(function, params) => {
                Rate::Continuous { function: *function, params: *params, r: 1.0, memo: (u64::MAX, 0, 0) }
            }
            SourceKind::Discrete(table) => Rate::Discrete { table: table.clone(), ipd: 0, rpi: table.rpi(0) },
        };
        let hybrid = (hybrid && window.is_some()).then(|| Hybrid {
            max_window: window.unwrap_or(1),
            rpi: window.unwrap_or(1),
            apsn: 0,
        });
        Self { rate, window, hybrid, limiter: Limiter::Other }
    }
}

impl SourceControl for EcnSource {
    /// The current rate limit as a fraction of the link rate.
    #[inline]
    fn rate(&self, _packet_time: Time, _now: Time) -> f64 {
        match &self.rate {
            Rate::Unlimited => 1.0,
            Rate::Fixed(r) => *r,
            Rate::Continuous { r, .. } => *r,
            Rate::Discrete { ipd, .. } => rate_of(*ipd),
        }
    }

    /// The current window, `None` if unlimited.
    #[inline]
    fn window(&self) -> Option<u32> {
        self.window
    }

    /// The least time between the starts of two packets, for a packet time of `packet_time` at `Rmax`.
    #[inline]
    fn gap(&mut self, packet_time: Time, _now: Time) -> Time {
        match &mut self.rate {
            Rate::Unlimited => packet_time,
            // The papers' discrete rates are exact multiples of the packet time.
            Rate::Discrete { ipd, .. } => packet_time * (1 + u64::from(*ipd)),
            Rate::Continuous { r, memo, .. } => {
                // Asked after every send and every ACK; the rate changes only on ACKs.
                let (bits, time, gap) = *memo;
                if bits == r.to_bits() && time == packet_time {
                    return gap;
                }
                let gap = gap_at(packet_time, *r);
                *memo = (r.to_bits(), packet_time, gap);
                gap
            }
            Rate::Fixed(r) => gap_at(packet_time, *r),
        }
    }

    /// Records what delayed the injection of a packet (the HP slides' RWL).
    #[inline]
    fn on_send(&mut self, limiter: Limiter) {
        self.limiter = limiter;
    }

    /// Applies one ACK: `fdec` or `finc`, or the hybrid's rules (the next PSN is for its one-decrease-per-window
    /// rule).
    fn on_ack(&mut self, ack: &Ack, _now: Time) {
        let (marked, psn, next_psn) = (ack.marked, ack.psn, ack.next_psn);
        if let Some(h) = &mut self.hybrid {
            let window = self.window.unwrap_or(1);
            if marked {
                if psn >= h.apsn {
                    self.window = Some((window / 2).max(1));
                    decrease(&mut self.rate);
                    h.apsn = next_psn;
                    h.rpi = reload(self.limiter, self.window.unwrap_or(1), &self.rate);
                }
                return;
            }
            if self.limiter == Limiter::Other {
                return;
            }
            h.rpi = h.rpi.saturating_sub(1);
            if h.rpi == 0 {
                match self.limiter {
                    Limiter::Window => self.window = Some((window + 1).min(h.max_window)),
                    _ => step_up(&mut self.rate),
                }
                h.rpi = reload(self.limiter, self.window.unwrap_or(1), &self.rate);
            }
            return;
        }
        if marked {
            decrease(&mut self.rate);
        } else {
            increase(&mut self.rate);
        }
    }
}

/// The gap between packet starts at rate `r` (a fraction of `Rmax`).
fn gap_at(packet_time: Time, r: f64) -> Time {
    // r >= Rmin > 0 bounds the gap well inside u64.
    libm::round(packet_time as f64 / r) as Time
}

fn decrease(rate: &mut Rate) {
    match rate {
        Rate::Unlimited | Rate::Fixed(_) => {}
        Rate::Continuous { function, params, r, .. } => *r = function.fdec(params, *r),
        Rate::Discrete { table, ipd, rpi } => {
            *ipd = table.decrease(*ipd);
            *rpi = table.rpi(*ipd);
        }
    }
}

/// One step up of the hybrid's rate: the next IPD, or one `finc`.
fn step_up(rate: &mut Rate) {
    match rate {
        Rate::Unlimited | Rate::Fixed(_) => {}
        Rate::Continuous { function, params, r, .. } => *r = function.finc(params, *r),
        Rate::Discrete { table, ipd, .. } => *ipd = table.increase(*ipd),
    }
}

/// The hybrid's RPI reload: `new_window_RPI[w] = w` for the window, `new_rate_RPI[ipd]` for a discrete rate, 1 for a
/// continuous one.
fn reload(limiter: Limiter, window: u32, rate: &Rate) -> u32 {
    match (limiter, rate) {
        (Limiter::Window, _) => window.max(1),
        (_, Rate::Discrete { table, ipd, .. }) => table.rpi(*ipd),
        _ => 1,
    }
}

fn increase(rate: &mut Rate) {
    match rate {
        Rate::Unlimited | Rate::Fixed(_) => {}
        Rate::Continuous { function, params, r, .. } => *r = function.finc(params, *r),
        Rate::Discrete { table, ipd, rpi } => {
            if *ipd == 0 {
                return;
            }
            *rpi -= 1;
            if *rpi == 0 {
                *ipd = table.increase(*ipd);
                *rpi = table.rpi(*ipd);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ACK helpers: the source's hooks with the time (which this source does not use) left out.
    fn ack(c: &mut EcnSource, marked: bool, psn: u32, next_psn: u32) {
        c.on_ack(&Ack { psn, marked, next_psn }, 0);
    }

    fn lipd_discrete() -> SourceKind {
        SourceKind::Discrete(Rc::new(IpdTable::new(ResponseFunction::Lipd, ResponseParams::PAPER)))
    }

    #[test]
    fn new_flows_start_at_rmax() {
        let mut c =
            EcnSource::new(&SourceKind::Continuous(ResponseFunction::Fimd, ResponseParams::PAPER), Some(1), false);
        assert_eq!(c.rate(0, 0), 1.0);
        assert_eq!(c.gap(2_068_000, 0), 2_068_000);
        assert_eq!(c.window(), Some(1));
    }

    #[test]
    fn continuous_follows_fdec_and_finc() {
        let p = ResponseParams::PAPER;
        let mut c = EcnSource::new(&SourceKind::Continuous(ResponseFunction::Lipd, p), Some(1), false);
        ack(&mut c, true, 0, 1);
        assert!((c.rate(0, 0) - 0.5).abs() < 1e-12);
        assert_eq!(c.gap(1000, 0), 2000);
        ack(&mut c, false, 1, 2);
        assert!((c.rate(0, 0) - 0.5 / (1.0 - 1.0 / 256.0)).abs() < 1e-12);
    }

    #[test]
    fn discrete_counts_down_rpi_before_each_increase() {
        let mut c = EcnSource::new(&lipd_discrete(), Some(1), false);
        ack(&mut c, true, 0, 1);
        ack(&mut c, true, 1, 2);
        ack(&mut c, true, 2, 3);
        assert_eq!(c.gap(10, 0), 40, "three marks: IPD 3");
        for _ in 0..63 {
            ack(&mut c, false, 0, 0);
        }
        assert_eq!(c.gap(10, 0), 40, "LIPD at IPD 3 needs 64 unmarked ACKs");
        ack(&mut c, false, 0, 0);
        assert_eq!(c.gap(10, 0), 30);
    }

    #[test]
    fn fixed_and_unlimited_ignore_acks() {
        let mut c = EcnSource::new(&SourceKind::Fixed(0.1), None, false);
        ack(&mut c, true, 0, 1);
        ack(&mut c, false, 1, 2);
        assert_eq!(c.rate(0, 0), 0.1);
        assert_eq!(c.gap(2_068_000, 0), 20_680_000);
        assert_eq!(c.window(), None);
    }

    #[test]
    fn hybrid_decreases_once_per_window_and_increases_the_limiter() {
        let mut c = EcnSource::new(&lipd_discrete(), Some(8), true);
        assert_eq!(c.window(), Some(8));
        ack(&mut c, true, 0, 8); // packets 0..8 in flight: APSN moves to 8
        assert_eq!((c.window(), c.gap(1, 0)), (Some(4), 2));
        ack(&mut c, true, 3, 9); // same window: ignored
        assert_eq!((c.window(), c.gap(1, 0)), (Some(4), 2));
        ack(&mut c, true, 8, 12); // a later window: decreases again; RPI reloads from the rate table (IPD 2: 85)
        assert_eq!((c.window(), c.gap(1, 0)), (Some(2), 3));
        // One RPI for both: window-limited ACKs count it down and the window takes the increase.
        c.on_send(Limiter::Window);
        for psn in 12..96 {
            ack(&mut c, false, psn, psn + 1);
        }
        assert_eq!((c.window(), c.gap(1, 0)), (Some(2), 3), "84 of 85");
        ack(&mut c, false, 96, 97);
        assert_eq!((c.window(), c.gap(1, 0)), (Some(3), 3), "the 85th: window up, RPI reloads to 3");
        // While limited by something else, nothing changes.
        c.on_send(Limiter::Other);
        for psn in 97..200 {
            ack(&mut c, false, psn, psn + 1);
        }
        assert_eq!((c.window(), c.gap(1, 0)), (Some(3), 3));
        // Now rate-limited: the remaining 3 count down and the rate takes the increase.
        c.on_send(Limiter::Rate);
        for psn in 200..203 {
            ack(&mut c, false, psn, psn + 1);
        }
        assert_eq!((c.window(), c.gap(1, 0)), (Some(3), 2));
    }
}
