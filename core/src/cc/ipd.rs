//! Discrete rates: InfiniBand's inter-packet delay (IPD) as lookup tables (INFOCOM'03 §V-D and §VI-B.1; the HP
//! slides' "function template").
//!
//! A flow at IPD `ipd` waits `ipd` packet times after each packet, so its rate is `Rmax/(1 + ipd)`. With
//! `Rmin = Rmax/N` the IPDs run from 0 to `N - 1` (256 rates for the papers' `Rmin = Rmax/256`).
//!
//! - `rate_decrease[ipd]`: the IPD whose rate is nearest `fdec(rate(ipd))` (exact for LIPD, and for AIMD/FIMD with
//!   `m = 2`). Our choice where the papers are silent: at least one step down, so a mark always lowers the rate.
//! - `rate_increase[ipd] = ipd - 1`.
//! - `new_rate_rpi[ipd]`: how many ACKs, arriving at `rate(ipd)`, the continuous `Finc` needs to climb from
//!   `rate(ipd)` to `rate(ipd - 1)`, rounded to the nearest whole ACK and at least 1 (docs/model.md §6).

use super::response::{ResponseFunction, ResponseParams};
use alloc::vec::Vec;

/// The tables of one response function with one set of parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct IpdTable {
    function: ResponseFunction,
    params: ResponseParams,
    decrease: Vec<u16>,
    rpi: Vec<u32>,
}

/// The rate of IPD `ipd`, as a fraction of `Rmax`.
pub fn rate_of(ipd: u16) -> f64 {
    1.0 / (1.0 + f64::from(ipd))
}

impl IpdTable {
    /// Builds the tables. The largest IPD is `round(1/Rmin) - 1`, at most 65534.
    pub fn new(function: ResponseFunction, params: ResponseParams) -> Self {
        let max = (libm::round(1.0 / params.r_min()) - 1.0).clamp(1.0, 65534.0) as u16;
        let nearest = |r: f64| -> u16 {
            let x = (1.0 / r - 1.0).max(0.0);
            let lo = libm::floor(x).min(f64::from(max)) as u16;
            let hi = lo.saturating_add(1).min(max);
            if (rate_of(lo) - r).abs() <= (rate_of(hi) - r).abs() {
                lo
            } else {
                hi
            }
        };
        let decrease = (0..=max)
            .map(|ipd| {
                let target = nearest(function.fdec(&params, rate_of(ipd)));
                target.max(ipd.saturating_add(1)).min(max)
            })
            .collect();
        let rpi = (0..=max)
            .map(|ipd| {
                if ipd == 0 {
                    return 1;
                }
                let climb =
                    function.time_to_rate(&params, rate_of(ipd - 1)) - function.time_to_rate(&params, rate_of(ipd));
                libm::round(climb * rate_of(ipd)).clamp(1.0, f64::from(u32::MAX)) as u32
            })
            .collect();
        Self { function, params, decrease, rpi }
    }

    /// The function and parameters these tables were built for.
    pub fn key(&self) -> (ResponseFunction, ResponseParams) {
        (self.function, self.params)
    }

    /// The largest IPD (the rate closest to `Rmin`).
    pub fn max_ipd(&self) -> u16 {
        (self.decrease.len() - 1) as u16
    }

    /// The IPD after a marked ACK.
    pub fn decrease(&self, ipd: u16) -> u16 {
        self.decrease[usize::from(ipd.min(self.max_ipd()))]
    }

    /// The IPD after an increase (`ipd - 1`, not below 0).
    pub fn increase(&self, ipd: u16) -> u16 {
        ipd.saturating_sub(1)
    }

    /// Unmarked ACKs needed at `ipd` before the next increase.
    pub fn rpi(&self, ipd: u16) -> u32 {
        self.rpi[usize::from(ipd.min(self.max_ipd()))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lipd_tables_are_exact() {
        let t = IpdTable::new(ResponseFunction::Lipd, ResponseParams::PAPER);
        assert_eq!(t.max_ipd(), 255);
        for ipd in 0..255 {
            assert_eq!(t.decrease(ipd), ipd + 1, "LIPD adds one packet time of delay");
        }
        assert_eq!(t.decrease(255), 255);
        // LIPD's climb from rate(ipd) to rate(ipd-1) takes exactly Trec = 256 packet times: 256/(1+ipd) ACKs.
        assert_eq!(t.rpi(1), 128);
        assert_eq!(t.rpi(3), 64);
        assert_eq!(t.rpi(255), 1);
        assert_eq!(t.rpi(2), 85, "256/3 = 85.3 rounds to 85");
    }

    #[test]
    fn halving_is_exact_for_m_2() {
        for f in [ResponseFunction::Aimd, ResponseFunction::Fimd] {
            let t = IpdTable::new(f, ResponseParams::PAPER);
            for ipd in 0..=127u16 {
                // rate(ipd)/2 = 1/(2 + 2·ipd) = rate(2·ipd + 1).
                assert_eq!(t.decrease(ipd), 2 * ipd + 1, "{f} at {ipd}");
            }
        }
    }

    #[test]
    fn a_mark_always_lowers_the_rate() {
        let t = IpdTable::new(ResponseFunction::Fimd, ResponseParams::new(1.0 / 256.0, 1.05).unwrap());
        for ipd in 0..t.max_ipd() {
            assert!(t.decrease(ipd) > ipd);
        }
    }

    /// The time the tables take from Rmin to Rmax, stepping up one IPD every `rpi` ACKs (ACKs `1 + ipd` packet
    /// times apart), against the continuous `Finc` (INFOCOM'03 Fig. 5), in packet times. LIPD's tables follow the
    /// curve (within 5%). FIMD's and AIMD's cannot: the HP template steps one IPD per increase, at least one ACK
    /// each, so no table climbs faster than `Σ (1 + ipd)` = 32,895 packet times, where continuous FIMD takes 2,048
    /// (docs/reproduction.md, "Discrete rates"); AIMD, whose continuous climb is slow at high rates, ends 47% slower.
    #[test]
    fn discrete_climb_against_the_continuous_time() {
        let p = ResponseParams::PAPER;
        let floor: f64 = (1..=255u32).map(|ipd| f64::from(1 + ipd)).sum();
        for (f, ratio) in
            [(ResponseFunction::Lipd, 0.97), (ResponseFunction::Aimd, 1.47), (ResponseFunction::Fimd, 16.5)]
        {
            let t = IpdTable::new(f, p);
            let elapsed: f64 = (1..=t.max_ipd()).map(|ipd| f64::from(t.rpi(ipd)) * (1.0 + f64::from(ipd))).sum();
            let continuous = f.time_to_rmax(&p);
            assert!(elapsed >= floor, "{f}: {elapsed} below one step per ACK");
            let got = elapsed / continuous;
            assert!((got - ratio).abs() < 0.02 * ratio, "{f}: discrete/continuous {got:.3}, documented {ratio}");
        }
    }
}
