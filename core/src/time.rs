//! Simulated time and link rates, in integers (docs/model.md §1): time is a count of picoseconds, so every platform
//! computes exactly the same event times.

/// Simulated time in picoseconds.
pub type Time = u64;

/// One nanosecond in [`Time`] units.
pub const NS: Time = 1_000;
/// One microsecond in [`Time`] units.
pub const US: Time = 1_000_000;
/// One millisecond in [`Time`] units.
pub const MS: Time = 1_000_000_000;

/// `t` in milliseconds, with as few decimals as it needs, to the picosecond ("40", "0.5", "12.000001",
/// "45.000000001"): written with integers, so exact, and without float formatting in the simulation worker's wasm.
pub fn ms_text(t: Time) -> alloc::string::String {
    let (whole, frac) = (t / MS, t % MS);
    if frac == 0 {
        return alloc::format!("{whole}");
    }
    let digits = alloc::format!("{frac:09}");
    alloc::format!("{whole}.{}", digits.trim_end_matches('0'))
}

/// The highest link rate, in Mb/s (100 Tb/s).
const MAX_MBPS: u64 = 100_000_000;

/// A link's data rate, held in whole megabits per second so serialization times are exact integer arithmetic.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Bandwidth {
    mbps: u64,
}

impl Bandwidth {
    /// From Gb/s, rounded to the nearest Mb/s. `None` unless the result is at least 1 Mb/s and at most 100 Tb/s.
    pub fn from_gbps(gbps: f64) -> Option<Self> {
        if !gbps.is_finite() {
            return None;
        }
        let mbps = libm::round(gbps * 1000.0);
        if (1.0..=MAX_MBPS as f64).contains(&mbps) {
            // In range and integral, so the cast is exact.
            Some(Self { mbps: mbps as u64 })
        } else {
            None
        }
    }

    /// The rate in Gb/s.
    pub fn gbps(self) -> f64 {
        self.mbps as f64 / 1000.0
    }

    /// Time to serialize `bytes` bytes, rounded up to a whole picosecond: `bytes · 8 / rate`.
    pub fn serialization(self, bytes: u32) -> Time {
        (u64::from(bytes) * 8_000_000).div_ceil(self.mbps)
    }

    /// How many bytes this link carries in `t` (rounded down); the inverse of [`Self::serialization`].
    pub fn bytes_in(self, t: Time) -> u64 {
        // Long durations at high rates overflow u64 in the product: u128 then. Not always: wasm divides 128-bit
        // numbers by a library call, and this runs for every packet of a buffer at each receipt. (A bound, not
        // `checked_mul`, which wasm also computes in 128 bits.)
        if t <= u64::MAX / MAX_MBPS {
            t * self.mbps / 8_000_000
        } else {
            (u128::from(t) * u128::from(self.mbps) / 8_000_000) as u64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_i_packet_time() {
        // INFOCOM'03 Table I: a 2068-byte packet takes 2.068 us on a 1 GB/s (8 Gb/s) link.
        let b = Bandwidth::from_gbps(8.0).unwrap();
        assert_eq!(b.serialization(2068), 2_068 * NS);
        assert_eq!(b.serialization(20), 20 * NS);
        assert_eq!(b.serialization(64), 64 * NS);
    }

    #[test]
    fn odd_rates_round_up() {
        let b = Bandwidth::from_gbps(3.0).unwrap();
        // 1 byte at 3 Gb/s = 2666.67 ps.
        assert_eq!(b.serialization(1), 2667);
        assert_eq!(Bandwidth::from_gbps(12.5).unwrap().serialization(2068), 1_323_520);
        assert_eq!(b.bytes_in(b.serialization(3000)), 3000);
    }

    /// Exact on both sides of the bound where the 64-bit product gives way to 128 bits (0.18 s), and past the
    /// product's u64 range at this rate (184 s at 100 Gb/s).
    #[test]
    fn bytes_in_holds_over_long_times() {
        let b = Bandwidth::from_gbps(100.0).unwrap();
        let (bound, edge) = (u64::MAX / MAX_MBPS, u64::MAX / 100_000);
        for t in [bound - 1, bound, bound + 1, edge - 1, edge, edge + 1, 1_000 * 1_000_000_000_000, u64::MAX] {
            let exact = (u128::from(t) * 100_000 / 8_000_000) as u64;
            assert_eq!(b.bytes_in(t), exact, "{t}");
        }
        assert_eq!(b.bytes_in(200 * 1_000_000_000_000), 2_500_000_000_000);
    }

    #[test]
    fn bad_rates_are_refused() {
        for g in [0.0, -1.0, 0.0004, f64::NAN, f64::INFINITY, 1e6] {
            assert_eq!(Bandwidth::from_gbps(g), None, "{g}");
        }
    }
}
