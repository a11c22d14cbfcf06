//! Source-response functions: how a source's rate limit reacts to each ACK (INFOCOM'03 §V).
//!
//! Rates are fractions of the source link's rate, so `Rmax = 1`, and time is counted in *packet times at `Rmax`*
//! (one packet time = the serialization time of one data packet on the source link). In these units a flow at rate
//! `r` receives one ACK every `1/r`, and the paper's recovery time is `Trec = 1/Rmin` (§V-A, Condition 3).
//!
//! | function | `fdec(r)` | `finc(r)` | `Finc(t)` from `Rmin` |
//! | --- | --- | --- | --- |
//! | AIMD (§VI-B, footnote 11) | `max(r/m, Rmin)` | `min(r + (m-1)·Rmin²/r, 1)` | `Rmin + (m-1)·Rmin²·t` |
//! | FIMD (§V-C) | `max(r/m, Rmin)` | `min(r·m^(Rmin/r), 1)` | `Rmin·m^(t·Rmin)` |
//! | LIPD (§V-D) | `max(1/(1/r + 1), Rmin)` | `min(r/(1 - Rmin), 1)` | `1/(1/Rmin - t·Rmin)` |
//!
//! `finc(r) = F^r_inc(1/r)`: the continuous curve followed for one ACK interval (§V-B). Because every `F^r_inc` is a
//! time shift of `Finc` (equation 1), applying `finc` once per ACK lands exactly on the curve `Finc`.

use core::fmt;
use serde::{Deserialize, Serialize};

/// One of the papers' source-response functions (in a scenario: `"aimd"`, `"fimd"`, `"lipd"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseFunction {
    /// Additive increase, multiplicative decrease, with the maximum slope Condition 1 allows (INFOCOM'03 §VI-B).
    Aimd,
    /// Fast increase, multiplicative decrease (INFOCOM'03 §V-C).
    Fimd,
    /// Linear inter-packet delay (INFOCOM'03 §V-D).
    Lipd,
}

/// Why a set of response parameters was refused.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ResponseParamError {
    /// `Rmin` (as a fraction of `Rmax`) must lie strictly between 0 and 1.
    RMinOutOfRange(f64),
    /// The decrease factor `m` must be a finite number greater than 1.
    MOutOfRange(f64),
}

impl fmt::Display for ResponseParamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::RMinOutOfRange(v) => write!(f, "r_min must be a fraction of Rmax strictly between 0 and 1, got {v}"),
            Self::MOutOfRange(v) => write!(f, "m must be a finite number greater than 1, got {v}"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ResponseParamError {}

/// Parameters shared by the response functions: `Rmin` (fraction of `Rmax`) and the decrease factor `m`
/// (AIMD and FIMD only; LIPD has none).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ResponseParams {
    r_min: f64,
    m: f64,
}

impl ResponseParams {
    /// The papers' defaults: `Rmin = Rmax/256` (the InfiniBand IPD range, INFOCOM'03 §VI-B) and `m = 2`.
    pub const PAPER: Self = Self { r_min: 1.0 / 256.0, m: 2.0 };

    /// Validated parameters.
    pub fn new(r_min: f64, m: f64) -> Result<Self, ResponseParamError> {
        if !(r_min > 0.0 && r_min < 1.0) {
            return Err(ResponseParamError::RMinOutOfRange(r_min));
        }
        if !(m.is_finite() && m > 1.0) {
            return Err(ResponseParamError::MOutOfRange(m));
        }
        Ok(Self { r_min, m })
    }

    /// `Rmin` as a fraction of `Rmax`.
    pub fn r_min(&self) -> f64 {
        self.r_min
    }

    /// The multiplicative decrease factor `m`.
    pub fn m(&self) -> f64 {
        self.m
    }

    /// The recovery time `Trec = 1/Rmin`, in packet times (INFOCOM'03 §V-A, Condition 3).
    pub fn t_rec(&self) -> f64 {
        1.0 / self.r_min
    }

    fn clamp(&self, r: f64) -> f64 {
        r.clamp(self.r_min, 1.0)
    }
}

impl Default for ResponseParams {
    fn default() -> Self {
        Self::PAPER
    }
}

impl ResponseFunction {
    /// All three, in the order the papers list them.
    pub const ALL: [Self; 3] = [Self::Aimd, Self::Fimd, Self::Lipd];

    /// Short display name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Aimd => "AIMD",
            Self::Fimd => "FIMD",
            Self::Lipd => "LIPD",
        }
    }

    /// The new rate limit after a marked ACK.
    pub fn fdec(self, p: &ResponseParams, r: f64) -> f64 {
        let next = match self {
            Self::Aimd | Self::Fimd => r / p.m,
            Self::Lipd => 1.0 / (1.0 / r + 1.0),
        };
        p.clamp(next)
    }

    /// The new rate limit after an unmarked ACK.
    pub fn finc(self, p: &ResponseParams, r: f64) -> f64 {
        let next = match self {
            Self::Aimd => r + (p.m - 1.0) * p.r_min * p.r_min / r,
            Self::Fimd => r * libm::pow(p.m, p.r_min / r),
            Self::Lipd => r / (1.0 - p.r_min),
        };
        p.clamp(next)
    }

    /// The closed-form `Finc(t)`: the rate `t` packet times after a flow left `Rmin`, capped at `Rmax = 1`
    /// (INFOCOM'03 Fig. 5).
    pub fn finc_t(self, p: &ResponseParams, t: f64) -> f64 {
        if t >= self.time_to_rmax(p) {
            return 1.0;
        }
        let t = t.max(0.0);
        let r = match self {
            Self::Aimd => p.r_min + (p.m - 1.0) * p.r_min * p.r_min * t,
            Self::Fimd => p.r_min * libm::pow(p.m, t * p.r_min),
            Self::Lipd => 1.0 / (1.0 / p.r_min - t * p.r_min),
        };
        p.clamp(r)
    }

    /// The inverse of `Finc`: how many packet times it takes to climb from `Rmin` to rate `r`.
    pub fn time_to_rate(self, p: &ResponseParams, r: f64) -> f64 {
        let r = p.clamp(r);
        match self {
            Self::Aimd => (r - p.r_min) / ((p.m - 1.0) * p.r_min * p.r_min),
            Self::Fimd => libm::log(r / p.r_min) / (libm::log(p.m) * p.r_min),
            Self::Lipd => (1.0 / p.r_min - 1.0 / r) / p.r_min,
        }
    }

    /// How long, in packet times, `Finc` takes from `Rmin` to `Rmax` (INFOCOM'03 §VI-B: 4.2 ms for FIMD and
    /// 133.7 ms for LIPD and AIMD with 2048-byte packets on 1 GB/s links).
    pub fn time_to_rmax(self, p: &ResponseParams) -> f64 {
        self.time_to_rate(p, 1.0)
    }

    /// The recovery time from rate `r`: how long the continuous increase takes to bring `fdec(r)` back to `r`
    /// (INFOCOM'03 §V-A). Constant `Trec` for FIMD and LIPD (Condition 3); growing with `r` for AIMD.
    pub fn recovery_time(self, p: &ResponseParams, r: f64) -> f64 {
        self.time_to_rate(p, r) - self.time_to_rate(p, self.fdec(p, r))
    }
}

impl fmt::Display for ResponseFunction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// Rates from just above `fdec⁻¹(Rmin)` to `Rmax`, geometrically spaced: the range over which the paper states its
    /// conditions (§V-A, Condition 3: `fdec⁻¹(Rmin) ≤ r ≤ Rmax`). Below it `fdec` is clamped at `Rmin` and no response
    /// function can satisfy Condition 1 (a flow at `Rmin` can only go up).
    fn rates_above_clamp(f: ResponseFunction, p: &ResponseParams) -> Vec<f64> {
        let lowest = match f {
            ResponseFunction::Aimd | ResponseFunction::Fimd => p.r_min * p.m,
            ResponseFunction::Lipd => p.r_min / (1.0 - p.r_min),
        };
        let n = 2000;
        (0..=n).map(|i| lowest * libm::pow(1.0 / lowest, f64::from(i) / f64::from(n))).collect()
    }

    fn param_grid() -> Vec<ResponseParams> {
        let mut ps = Vec::new();
        for r_min in [1.0 / 16.0, 1.0 / 64.0, 1.0 / 256.0, 1.0 / 1024.0] {
            for m in [1.25, 2.0, 3.0, 8.0] {
                ps.push(ResponseParams::new(r_min, m).unwrap());
            }
        }
        ps
    }

    /// Relative tolerance for comparing analytically equal float expressions (a few ulps of accumulated error).
    const EPS: f64 = 1e-9;

    #[test]
    fn condition_1_increase_never_undoes_a_decrease() {
        for p in param_grid() {
            for f in ResponseFunction::ALL {
                for r in rates_above_clamp(f, &p) {
                    let back = f.finc(&p, f.fdec(&p, r));
                    assert!(back <= r * (1.0 + EPS), "{f} r_min={} m={} r={r}: finc(fdec(r))={back}", p.r_min, p.m);
                }
            }
        }
    }

    #[test]
    fn condition_3_recovery_time_is_constant_for_fimd_and_lipd() {
        for p in param_grid() {
            for f in [ResponseFunction::Fimd, ResponseFunction::Lipd] {
                for r in rates_above_clamp(f, &p) {
                    let t = f.recovery_time(&p, r);
                    assert!((t - p.t_rec()).abs() <= EPS * p.t_rec(), "{f} r={r}: Trec={t}, want {}", p.t_rec());
                }
            }
        }
    }

    #[test]
    fn condition_2_aimd_recovers_low_rates_no_slower_than_high_rates() {
        for p in param_grid() {
            let f = ResponseFunction::Aimd;
            let rates = rates_above_clamp(f, &p);
            for w in rates.windows(2) {
                assert!(f.recovery_time(&p, w[0]) <= f.recovery_time(&p, w[1]) * (1.0 + EPS));
            }
            // And at the bottom of the range AIMD meets Condition 3's minimum: one ACK interval at Rmin.
            let t = f.recovery_time(&p, rates[0]);
            assert!((t - p.t_rec()).abs() <= EPS * p.t_rec());
        }
    }

    /// Applying `finc` once per ACK (ACKs `1/r` apart) follows the closed form exactly at the ACK instants (§V-B,
    /// equation 1), so the per-ACK recovery from `fdec(r)` reaches `r` no earlier than `Trec` and less than one
    /// ACK interval later.
    #[test]
    fn per_ack_increase_tracks_the_closed_form() {
        for p in param_grid() {
            for f in ResponseFunction::ALL {
                let mut r = p.r_min;
                let mut t = 0.0;
                let mut steps = 0;
                while r < 1.0 && steps < 10_000_000 {
                    t += 1.0 / r;
                    r = f.finc(&p, r);
                    steps += 1;
                    if r < 1.0 {
                        let closed = f.finc_t(&p, t);
                        assert!((closed - r).abs() <= 1e-6 * r, "{f} step {steps}: per-ACK {r} vs Finc(t) {closed}");
                    }
                }
                assert!(r >= 1.0, "{f} never reached Rmax");
                // The last ACK interval overshoots the closed-form time to Rmax by less than one ACK interval at Rmin.
                let to_max = f.time_to_rmax(&p);
                assert!(t >= to_max * (1.0 - 1e-6) && t < to_max + p.t_rec(), "{f}: {t} vs {to_max}");
            }
        }
    }

    #[test]
    fn decrease_and_increase_stay_within_bounds() {
        for p in param_grid() {
            for f in ResponseFunction::ALL {
                assert_eq!(f.fdec(&p, p.r_min), p.r_min);
                assert_eq!(f.finc(&p, 1.0), 1.0);
                assert!(f.fdec(&p, 1.0) < 1.0);
                assert!(f.finc(&p, p.r_min) > p.r_min);
                assert_eq!(f.finc_t(&p, 0.0), p.r_min);
                assert_eq!(f.finc_t(&p, f.time_to_rmax(&p) * 1.0001), 1.0);
            }
        }
    }

    #[test]
    fn lipd_decrease_adds_one_to_the_inter_packet_delay() {
        let p = ResponseParams::PAPER;
        for ipd in 0..200u32 {
            let r = 1.0 / f64::from(1 + ipd);
            let next = ResponseFunction::Lipd.fdec(&p, r);
            assert!((1.0 / next - f64::from(2 + ipd)).abs() < 1e-9);
        }
    }

    /// INFOCOM'03 §VI-B: "for 1 GByte/sec links and 2048 byte packets, the total time to reach the maximum rate
    /// starting from the minimum rate is 4.2 ms for FIMD and 133.7 ms for LIPD and AIMD" (Rmin = Rmax/256, m = 2).
    /// The paper rounds to one decimal, so the tolerance is half a unit of its last digit.
    #[test]
    fn paper_recovery_times_fig5() {
        let packet_time_s = 2048.0 * 8.0 / 8e9;
        let p = ResponseParams::PAPER;
        let ms = |f: ResponseFunction| f.time_to_rmax(&p) * packet_time_s * 1e3;
        assert!((ms(ResponseFunction::Fimd) - 4.2).abs() <= 0.05, "FIMD {}", ms(ResponseFunction::Fimd));
        assert!((ms(ResponseFunction::Lipd) - 133.7).abs() <= 0.05, "LIPD {}", ms(ResponseFunction::Lipd));
        assert!((ms(ResponseFunction::Aimd) - 133.7).abs() <= 0.05, "AIMD {}", ms(ResponseFunction::Aimd));
    }

    #[test]
    fn bad_parameters_are_refused_by_name() {
        assert_eq!(ResponseParams::new(0.0, 2.0), Err(ResponseParamError::RMinOutOfRange(0.0)));
        assert_eq!(ResponseParams::new(1.0, 2.0), Err(ResponseParamError::RMinOutOfRange(1.0)));
        assert!(matches!(ResponseParams::new(f64::NAN, 2.0), Err(ResponseParamError::RMinOutOfRange(_))));
        assert_eq!(ResponseParams::new(0.1, 1.0), Err(ResponseParamError::MOutOfRange(1.0)));
        assert!(matches!(ResponseParams::new(0.1, f64::INFINITY), Err(ResponseParamError::MOutOfRange(_))));
        assert!(std::format!("{}", ResponseParamError::MOutOfRange(0.5)).contains("m must be"));
    }
}
