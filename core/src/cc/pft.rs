//! Proactive Flow Throttling (PFT; the IFIP Networking 2021 paper, restated in docs/model.md §7): each host NIC watches
//! `c`, the credits in use on its own link (sent, not yet returned, in 64-byte blocks), decides from it alone whether
//! the network is congested, and while it is, spaces out its flits.
//!
//! Detection (§III-B):
//! - Fixed Threshold (FT, Algorithm 1): Normal -> Congested when `c > te`; Congested -> Normal when `c < ts`.
//! - Average Threshold (AT, Algorithm 2): in Normal, within consecutive windows of `Te` cycles, count the cycles
//!   with `c` above the enter threshold; reaching `Te'` enters Congested. In Congested, within windows of `Ts`
//!   cycles, count the cycles with `c` below the exit threshold; reaching `Ts'` returns to Normal. (Algorithm 2
//!   reuses the names of thresholds and windows; we keep them apart.) `c` is piecewise constant between events, so
//!   the counts are integrated as time, exactly, and the state changes at the instant a count is reached.
//!
//! Throttling, only while Congested (§III-C), with `f(c) = ((c << m) >> n) + k` (equation 1, as the hardware computes
//! it):
//! - Fixed Interval (FI): `f(c)` idle cycles after each flit.
//! - Random Interval (RI): every cycle draws `r` uniformly from `[0, 2^bits)` and a flit may go only if
//!   `r >= f(c)`. The wait before each flit is geometric; we draw it directly rather than cycle by cycle.
//!
//! One flit per NIC cycle is the full rate. The simulator sends whole packets, so the idle cycles of a packet's
//! flits are added after it: the same average rate, the same spacing of packets.

use super::{NicAction, NicControl};
use crate::rng::Rng;
use crate::time::Time;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// Which detection strategy.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Detection {
    #[default]
    FixedThreshold,
    AverageThreshold,
}

/// Which throttling strategy.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Throttling {
    #[default]
    FixedInterval,
    RandomInterval,
}

/// PFT parameters (the scenario's `pft` block).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PftConfig {
    pub detection: Detection,
    /// FT: enter Congested when `c` exceeds this (`te`). AT: the threshold `c` must be above to count.
    pub enter_threshold_blocks: u32,
    /// FT: return to Normal when `c` falls below this (`ts`). AT: the threshold `c` must be below to count.
    pub exit_threshold_blocks: u32,
    /// AT: the window `Te` and the count `Te'` that enters Congested, in NIC cycles.
    pub enter_window_cycles: u32,
    pub enter_count_cycles: u32,
    /// AT: the window `Ts` and the count `Ts'` that returns to Normal, in NIC cycles.
    pub exit_window_cycles: u32,
    pub exit_count_cycles: u32,
    pub throttling: Throttling,
    pub m: u32,
    pub n: u32,
    pub k: u32,
    /// Bytes per flit.
    pub flit_bytes: u32,
    /// One NIC cycle, in picoseconds (the paper's NIC: 700 MHz, 1429 ps). One flit per cycle is the full rate.
    pub cycle_ps: u64,
    /// RI: the random number's width in bits.
    pub random_bits: u32,
}

impl Default for PftConfig {
    /// Thresholds of 3 and 1 packets of 33 blocks; 16-byte flits in 16 ns cycles (one flit per cycle at 8 Gb/s);
    /// `f(c) = c`: at two packets of credit in use, each flit is followed by 66 idle cycles.
    fn default() -> Self {
        Self {
            detection: Detection::FixedThreshold,
            enter_threshold_blocks: 99,
            exit_threshold_blocks: 33,
            enter_window_cycles: 1024,
            enter_count_cycles: 512,
            exit_window_cycles: 1024,
            exit_count_cycles: 512,
            throttling: Throttling::FixedInterval,
            m: 0,
            n: 0,
            k: 0,
            flit_bytes: 16,
            cycle_ps: 16_000,
            random_bits: 8,
        }
    }
}

impl PftConfig {
    /// `f(c) = (c << m) >> n + k`, saturating.
    pub fn f(&self, c: u32) -> u64 {
        // c < 2^32 and m <= 64 keep the shift inside u128.
        let v = (u128::from(c) << self.m.min(64)) >> self.n.min(127);
        u64::try_from(v).unwrap_or(u64::MAX).saturating_add(u64::from(self.k))
    }

    /// RI: the probability that a cycle allows a flit, `max(0, 1 - f(c)/2^bits)`.
    pub fn ri_send_probability(&self, c: u32) -> f64 {
        let range = (1u128 << self.random_bits.min(64)) as f64;
        (1.0 - self.f(c) as f64 / range).max(0.0)
    }

    /// The injection rate while Congested, as a fraction of full rate (one flit per cycle): FI `1/(1 + f(c))`,
    /// RI the per-cycle send probability (the PFT paper's Fig. 1).
    pub fn injection_rate(&self, c: u32) -> f64 {
        match self.throttling {
            Throttling::FixedInterval => 1.0 / (1.0 + self.f(c) as f64),
            Throttling::RandomInterval => self.ri_send_probability(c),
        }
    }

    /// The idle time to add after a packet of `flits` flits sent with `c` credits in use, or `None` if RI can never
    /// send at this `c` (the NIC then waits for `c` to change).
    pub fn throttle_delay(&self, c: u32, flits: u32, rng: &mut Rng) -> Option<Time> {
        match self.throttling {
            Throttling::FixedInterval => Some(u64::from(flits).saturating_mul(self.f(c)).saturating_mul(self.cycle_ps)),
            Throttling::RandomInterval => {
                let p = self.ri_send_probability(c);
                if p <= 0.0 {
                    return None;
                }
                if p >= 1.0 {
                    return Some(0);
                }
                // Failures before the first success of each flit: floor(ln U / ln(1 - p)), U in (0, 1].
                let powers = Powers::new(1.0 - p);
                let cycles: f64 = (0..flits).map(|_| powers.failures(1.0 - rng.uniform())).sum();
                Some((cycles * self.cycle_ps as f64) as Time)
            }
        }
    }
}

/// Relative distance from a power of `q` within which `failures` computes the logarithm: far beyond the rounding of
/// either way of finding the answer.
const EPS: f64 = 1e-9;

/// `floor(ln x / ln_q)` (`ln_q = ln q`, `0 < x <= 1`, `0 < q < 1`): how many times the cycle's random number failed
/// before a flit could go. The same value as computing it, but mostly without the logarithm: it is `j` when
/// `q^(j+1) < x <= q^j`, so `x` is compared with `q, q², ...` up to `q^8`; within `EPS` of one of them, or past
/// `q^8`, it is computed.
fn failures(x: f64, q: f64, ln_q: f64) -> f64 {
    let mut power = 1.0; // q^j, with x < q^j (for j = 0, x <= 1)
    for j in 0..8 {
        let next = power * q;
        if x > next * (1.0 + EPS) {
            return f64::from(j);
        }
        if x >= next * (1.0 - EPS) {
            break;
        }
        power = next;
    }
    libm::floor(libm::log(x) / ln_q)
}

/// How many powers of `q` `Powers` keeps: a power of two, for its search.
const POWERS: usize = 16;

/// The powers of `q` one packet's draws are compared with (a packet draws one per flit, a hundred or more; heavy
/// throttling sends many of them past `q^8`, where `failures` takes a logarithm): `failures` for each draw, the
/// same value, found by a search that does not branch (where a draw lands is random, so branches would mostly be
/// mispredicted).
struct Powers {
    q: f64,
    ln_q: f64,
    /// `q^(k+1)`, formed as `failures` forms it.
    power: [f64; POWERS],
    /// `q^(k+1)·(1 + EPS)`.
    above: [f64; POWERS],
    /// `q^k·(1 - EPS)` for `k > 0`; infinite for `k = 0` (nothing lies above 1).
    below: [f64; POWERS],
}

impl Powers {
    fn new(q: f64) -> Self {
        let (mut power, mut above, mut below) = ([0.0; POWERS], [0.0; POWERS], [f64::INFINITY; POWERS]);
        let mut p = 1.0;
        for k in 0..POWERS {
            if k > 0 {
                below[k] = p * (1.0 - EPS);
            }
            p *= q;
            power[k] = p;
            above[k] = p * (1.0 + EPS);
        }
        Self { q, ln_q: libm::log(q), power, above, below }
    }

    /// `failures(x, q, ln q)`. The search finds `j`, how many of `q, ..., q^(POWERS-1)` lie at or above `x`; when
    /// `x` is also `EPS` clear of `q^j` and `q^(j+1)`, `failures` answers `j` too: from its loop, or (past `q^8`)
    /// from a logarithm that cannot round across a power `EPS` away.
    #[inline]
    fn failures(&self, x: f64) -> f64 {
        let mut j = 0;
        for step in [POWERS / 2, POWERS / 4, POWERS / 8, POWERS / 16] {
            j += if x <= self.power[j + step - 1] { step } else { 0 };
        }
        if x > self.above[j] && x < self.below[j] {
            return j as f64;
        }
        failures(x, self.q, self.ln_q)
    }
}

/// The PFT paper's Fig. 1: the injection rate while Congested (fraction of full rate) for `c` from 0 to `c_max`.
pub fn injection_curve(config: &PftConfig, c_max: u32) -> Vec<(u32, f64)> {
    (0..=c_max).map(|c| (c, config.injection_rate(c))).collect()
}

/// Normal or Congested.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PftState {
    Normal,
    Congested,
}

/// One NIC's detector, fed every change of `c`.
#[derive(Debug, Clone)]
pub struct Detector {
    config: PftConfig,
    state: PftState,
    c: u32,
    /// Last time the AT count was brought up to date.
    last: Time,
    /// Start of the current AT window.
    window_start: Time,
    /// Time counted in the current AT window.
    counted: Time,
    /// Time spent Congested so far (for the results).
    congested_time: Time,
    entered_congested: Time,
}

impl Detector {
    /// A detector in Normal at time 0 with no credit in use.
    pub fn new(config: PftConfig) -> Self {
        Self {
            config,
            state: PftState::Normal,
            c: 0,
            last: 0,
            window_start: 0,
            counted: 0,
            congested_time: 0,
            entered_congested: 0,
        }
    }

    /// Normal or Congested.
    pub fn state(&self) -> PftState {
        self.state
    }

    /// Credits in use now.
    pub fn credits_in_use(&self) -> u32 {
        self.c
    }

    /// Time spent Congested up to `now`.
    pub fn congested_time(&self, now: Time) -> Time {
        self.congested_time + if self.state == PftState::Congested { now - self.entered_congested } else { 0 }
    }

    fn counts(&self) -> bool {
        match self.state {
            PftState::Normal => self.c > self.config.enter_threshold_blocks,
            PftState::Congested => self.c < self.config.exit_threshold_blocks,
        }
    }

    /// The current state's window (at least 1 ps, so time always moves on) and the count that changes the state.
    fn window_and_target(&self) -> (Time, Time) {
        let cy = self.config.cycle_ps;
        let (window, target) = match self.state {
            PftState::Normal => {
                (u64::from(self.config.enter_window_cycles) * cy, u64::from(self.config.enter_count_cycles) * cy)
            }
            PftState::Congested => {
                (u64::from(self.config.exit_window_cycles) * cy, u64::from(self.config.exit_count_cycles) * cy)
            }
        };
        (window.max(1), target)
    }

    fn switch(&mut self, at: Time) {
        match self.state {
            PftState::Normal => {
                self.state = PftState::Congested;
                self.entered_congested = at;
            }
            PftState::Congested => {
                self.state = PftState::Normal;
                self.congested_time += at - self.entered_congested;
            }
        }
        self.window_start = at;
        self.counted = 0;
        self.last = at;
    }

    /// AT: counts time up to `now`, changing state at the exact instant a count is reached.
    fn advance(&mut self, now: Time) {
        while self.last < now {
            let (window, target) = self.window_and_target();
            let window_end = self.window_start + window;
            if !self.counts() && now >= window_end {
                // Nothing counts, so whole windows pass unchanged: on to the last one that starts by `now`.
                self.window_start = window_end + (now - window_end) / window * window;
                self.counted = 0;
                self.last = self.window_start;
                continue;
            }
            let step_end = now.min(window_end);
            if self.counts() {
                let needed = target.saturating_sub(self.counted);
                if self.last + needed <= step_end {
                    let at = self.last + needed;
                    self.switch(at);
                    continue;
                }
                self.counted += step_end - self.last;
            }
            self.last = step_end;
            if step_end == window_end {
                self.window_start = window_end;
                self.counted = 0;
            }
        }
    }

    /// `c` changes to `c` at `now`. Returns whether the state changed.
    pub fn set_credits(&mut self, now: Time, c: u32) -> bool {
        let before = self.state;
        match self.config.detection {
            Detection::FixedThreshold => {
                self.c = c;
                let flip = match self.state {
                    PftState::Normal => c > self.config.enter_threshold_blocks,
                    PftState::Congested => c < self.config.exit_threshold_blocks,
                };
                if flip {
                    self.switch(now);
                }
            }
            Detection::AverageThreshold => {
                self.advance(now);
                self.c = c;
            }
        }
        self.state != before
    }

    /// AT: brings the count up to `now` (a timer from [`Self::next_deadline`]). Returns whether the state changed.
    pub fn on_timer(&mut self, now: Time) -> bool {
        let before = self.state;
        if self.config.detection == Detection::AverageThreshold {
            self.advance(now);
        }
        self.state != before
    }

    /// AT: the next time the state could change with `c` unchanged: when the count is reached, in this window or
    /// (counting from its start) the next; none while nothing counts, or if no window is long enough. A window's
    /// end alone changes nothing, so it needs no timer (`advance` passes over whole windows when `c` next changes).
    pub fn next_deadline(&self) -> Option<Time> {
        if self.config.detection != Detection::AverageThreshold || !self.counts() {
            return None;
        }
        let (window, target) = self.window_and_target();
        let window_end = self.window_start + window;
        let reached = self.last + target.saturating_sub(self.counted);
        if reached <= window_end {
            Some(reached)
        } else if target <= window {
            Some(window_end + target)
        } else {
            None
        }
    }
}

/// PFT at one host NIC: the detector, and while Congested when its next data packet may start.
#[derive(Debug, Clone)]
pub struct PftNic {
    config: PftConfig,
    detector: Detector,
    /// Flits in one data packet.
    flits: u32,
    /// The NIC may start its next data packet at this time (`None`: not until `c` changes, RI with
    /// `f(c) >= 2^bits`).
    next_data_at: Option<Time>,
    /// The pending AT timer's time, and its generation (a newer timer cancels older ones).
    timer_at: Option<Time>,
    timer_gen: u32,
    rng: Rng,
}

impl PftNic {
    /// A NIC in Normal at time 0, sending data packets of `data_bytes`.
    pub fn new(config: PftConfig, data_bytes: u32, rng: Rng) -> Self {
        Self {
            config,
            detector: Detector::new(config),
            flits: data_bytes.div_ceil(config.flit_bytes),
            next_data_at: Some(0),
            timer_at: None,
            timer_gen: 0,
            rng,
        }
    }

    /// Re-arms the AT timer if its deadline moved; when the NIC returns to Normal its throttling ends at once.
    fn after_change(&mut self, now: Time, changed: bool) -> NicAction {
        let mut action = NicAction::default();
        let deadline = self.detector.next_deadline().map(|t| t.max(now));
        if deadline != self.timer_at {
            self.timer_gen = self.timer_gen.wrapping_add(1);
            self.timer_at = deadline;
            action.timer = deadline.map(|t| (t, self.timer_gen));
        }
        if changed && self.detector.state() == PftState::Normal {
            self.next_data_at = Some(now);
            action.resume = true;
        }
        action
    }
}

impl NicControl for PftNic {
    fn data_at(&self) -> Option<Time> {
        self.next_data_at
    }

    fn on_credits(&mut self, now: Time, in_use: u32) -> NicAction {
        let changed = self.detector.set_credits(now, in_use);
        if self.next_data_at.is_none() {
            // Blocked by RI at the old c: draw the wait for the last packet's flits again at the new c.
            self.next_data_at = self.config.throttle_delay(in_use, self.flits, &mut self.rng).map(|d| now + d);
        }
        self.after_change(now, changed)
    }

    fn on_timer(&mut self, now: Time, gen: u32) -> NicAction {
        if gen != self.timer_gen {
            return NicAction::default();
        }
        self.timer_at = None;
        let changed = self.detector.on_timer(now);
        self.after_change(now, changed)
    }

    /// While Congested, the idle cycles of the packet's flits follow it.
    fn after_data(&mut self, ends: Time, in_use: u32) {
        self.next_data_at = if self.detector.state() == PftState::Congested {
            self.config.throttle_delay(in_use, self.flits, &mut self.rng).map(|d| ends + d)
        } else {
            Some(ends)
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `failures`, and `Powers` for a packet, give what the logarithm gives, for random draws and for draws at and
    /// beside each `q^j`, inside the table and past it.
    #[test]
    fn failures_without_the_logarithm_are_the_logarithms() {
        let mut rng = Rng::new(7, 0);
        for p in [1e-6, 0.01, 0.03, 0.1, 0.22, 0.25, 0.5, 0.6, 0.9, 0.999, 1.0 - 1e-12] {
            let q = 1.0 - p;
            let ln_q = libm::log(q);
            let by_log = |x: f64| libm::floor(libm::log(x) / ln_q);
            let mut xs: Vec<f64> = (0..20_000).map(|_| 1.0 - rng.uniform()).collect();
            let mut power = 1.0;
            for _ in 0..70 {
                power *= q;
                if power == 0.0 {
                    break; // (a small q's powers underflow)
                }
                xs.extend([power, power * (1.0 + 1e-12), power * (1.0 - 1e-12), power * (1.0 + 2e-9)]);
                xs.extend([
                    power * (1.0 - 2e-9),
                    f64::from_bits(power.to_bits() + 1),
                    f64::from_bits(power.to_bits() - 1),
                ]);
            }
            xs.extend([1.0, f64::EPSILON, 1.0 - f64::EPSILON / 2.0]);
            let powers = Powers::new(q);
            for x in xs.into_iter().filter(|x| *x > 0.0 && *x <= 1.0) {
                assert_eq!(failures(x, q, ln_q), by_log(x), "p {p}, x {x}");
                assert_eq!(powers.failures(x), by_log(x), "table, p {p}, x {x}");
            }
        }
    }

    fn at_config() -> PftConfig {
        PftConfig {
            detection: Detection::AverageThreshold,
            enter_threshold_blocks: 50,
            exit_threshold_blocks: 20,
            enter_window_cycles: 100,
            enter_count_cycles: 60,
            exit_window_cycles: 200,
            exit_count_cycles: 150,
            cycle_ps: 10,
            ..PftConfig::default()
        }
    }

    #[test]
    fn f_is_shift_left_m_shift_right_n_plus_k() {
        let cfg = |m, n, k| PftConfig { m, n, k, ..PftConfig::default() };
        assert_eq!(cfg(0, 0, 0).f(66), 66);
        assert_eq!(cfg(3, 0, 0).f(66), 528);
        assert_eq!(cfg(0, 3, 0).f(66), 8, "66 >> 3");
        assert_eq!(cfg(2, 3, 5).f(66), (66 << 2 >> 3) + 5);
        assert_eq!(cfg(80, 0, 1).f(66), u64::MAX, "saturates");
    }

    #[test]
    fn fixed_threshold_transitions_with_hysteresis() {
        let mut d =
            Detector::new(PftConfig { enter_threshold_blocks: 99, exit_threshold_blocks: 33, ..Default::default() });
        assert!(!d.set_credits(10, 99), "99 does not exceed te = 99");
        assert!(d.set_credits(20, 100));
        assert_eq!(d.state(), PftState::Congested);
        assert!(!d.set_credits(30, 33), "33 is not below ts = 33");
        assert!(!d.set_credits(35, 60));
        assert!(d.set_credits(40, 32));
        assert_eq!(d.state(), PftState::Normal);
        assert_eq!(d.congested_time(100), 20);
    }

    /// AT by hand: windows of 100 cycles (1000 ps), 60 cycles (600 ps) above 50 blocks enter Congested.
    #[test]
    fn average_threshold_counts_time_above_the_threshold_per_window() {
        let mut d = Detector::new(at_config());
        d.set_credits(0, 80); // above from 0
        d.set_credits(500, 10); // 500 ps counted, below from 500
        assert_eq!(d.next_deadline(), None, "nothing counts: no timer, though the window ends at 1000");
        d.set_credits(1100, 90); // a new window from 1000, nothing counted in it
        assert_eq!(d.state(), PftState::Normal, "500 ps < 600 ps in the first window");
        assert_eq!(d.next_deadline(), Some(1700), "600 ps after 1100, before the window ends at 2000");
        assert!(d.on_timer(1700));
        assert_eq!(d.state(), PftState::Congested);
        // Congested: windows of 2000 ps from 1700; 1500 ps below 20 blocks return to Normal.
        d.set_credits(1800, 10);
        assert_eq!(d.next_deadline(), Some(3300));
        d.set_credits(2000, 30); // 200 ps counted; stops counting
        assert_eq!(d.next_deadline(), None);
        d.set_credits(3700, 0); // the window ending at 3700 reached only 200 ps; a new one from 3700
        assert_eq!(d.state(), PftState::Congested);
        assert_eq!(d.next_deadline(), Some(5200));
        assert!(d.on_timer(5200));
        assert_eq!(d.state(), PftState::Normal);
        // Normal from 5200 (windows of 1000 ps): counting from 5700 cannot reach 600 ps before 6200, so the count
        // restarts there and is reached at 6800.
        d.set_credits(5700, 90);
        assert_eq!(d.next_deadline(), Some(6800), "the next window's count");
        assert!(d.on_timer(6800));
        assert_eq!(d.state(), PftState::Congested);
        // Congested from 6800 (windows of 2000 ps); nothing counts for five windows, which pass at once.
        d.set_credits(6900, 50);
        assert_eq!(d.next_deadline(), None);
        d.set_credits(17_500, 10); // in the window from 16_800
        assert_eq!(d.next_deadline(), Some(20_300), "not by 18_800; then 1500 ps into the next window");
        assert!(!d.on_timer(18_800), "a window's end alone changes nothing");
        assert!(d.on_timer(20_300));
        assert_eq!(d.state(), PftState::Normal);
    }

    /// Fig. 1's trends: FI's rate falls as c grows and falls faster for smaller n; RI's reaches 0 at f(c) = 2^bits.
    #[test]
    fn injection_curves_fall_with_c() {
        let fi = |n| injection_curve(&PftConfig { n, ..PftConfig::default() }, 200);
        let (n4, n2) = (fi(4), fi(2));
        assert!(n4.windows(2).all(|w| w[1].1 <= w[0].1));
        assert!(n4.iter().zip(&n2).all(|(a, b)| a.1 >= b.1), "a larger n throttles less");
        let ri = injection_curve(
            &PftConfig { throttling: Throttling::RandomInterval, random_bits: 7, ..Default::default() },
            200,
        );
        assert_eq!(ri[0].1, 1.0);
        assert_eq!(ri[128].1, 0.0);
        assert!((ri[64].1 - 0.5).abs() < 1e-12);
    }

    #[test]
    fn fixed_interval_idles_f_c_cycles_per_flit() {
        let cfg = PftConfig { m: 1, n: 0, k: 2, cycle_ps: 1000, ..PftConfig::default() };
        let mut rng = Rng::new(1, 1);
        // f(10) = 22 idle cycles after each of 130 flits.
        assert_eq!(cfg.throttle_delay(10, 130, &mut rng), Some(130 * 22 * 1000));
        assert!((cfg.injection_rate(10) - 1.0 / 23.0).abs() < 1e-12);
    }

    /// RI: each flit waits a geometric number of cycles with success probability p = 1 - f(c)/2^bits, so a packet
    /// of F flits waits F(1-p)/p cycles on average with variance F(1-p)/p^2. The sample mean of 20000 packets must
    /// lie within 4 standard errors.
    #[test]
    fn random_interval_waiting_time_matches_its_closed_form() {
        let cfg =
            PftConfig { throttling: Throttling::RandomInterval, random_bits: 8, cycle_ps: 1, ..Default::default() };
        let (c, flits, n) = (192u32, 10u32, 20_000u32);
        let p = cfg.ri_send_probability(c);
        assert!((p - 0.25).abs() < 1e-12, "f(192) = 192 of 256");
        let mut rng = Rng::new(3, 0);
        let total: f64 = (0..n).map(|_| cfg.throttle_delay(c, flits, &mut rng).unwrap() as f64).sum();
        let mean = total / f64::from(n);
        let want = f64::from(flits) * (1.0 - p) / p;
        let sd = (f64::from(flits) * (1.0 - p) / (p * p)).sqrt() / f64::from(n).sqrt();
        assert!((mean - want).abs() < 4.0 * sd, "mean {mean} vs {want} (se {sd})");
        assert_eq!(cfg.throttle_delay(256, 1, &mut rng), None, "f(c) >= 2^bits: never");
        // The whole distribution for one flit: P(wait = j cycles) = (1-p)^j p. Pearson's chi-squared over j = 0..9 and
        // "10 or more" (10 degrees of freedom) must stay below 29.6, its 0.1% critical value.
        let n = 40_000;
        let mut counts = [0u32; 11];
        for _ in 0..n {
            let j = cfg.throttle_delay(c, 1, &mut rng).unwrap() as usize;
            counts[j.min(10)] += 1;
        }
        let chi2: f64 = (0..11)
            .map(|j| {
                let prob = if j < 10 { (1.0 - p).powi(j as i32) * p } else { (1.0 - p).powi(10) };
                let expected = prob * f64::from(n);
                (f64::from(counts[j]) - expected).powi(2) / expected
            })
            .sum();
        assert!(chi2 < 29.6, "chi-squared {chi2}: {counts:?}");
        assert_eq!(cfg.throttle_delay(0, 5, &mut rng), Some(0));
    }
}
