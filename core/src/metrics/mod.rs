//! Measurements as the papers define them (docs/model.md §9): link rates in a sliding window, utilization and throughput
//! over a measurement interval, packet delay, buffer occupancy, credit stalls, marks, and Jain's fairness index.
//!
//! Everything is accumulated exactly in integer picoseconds as the run goes; series memory is bounded by the
//! scenario's limits (one counter per link per sample).

use crate::time::Time;
use alloc::vec;
use alloc::vec::Vec;

/// The part of `[start, end)` inside `[from, to)`.
pub fn overlap(start: Time, end: Time, from: Time, to: Time) -> Time {
    end.min(to).saturating_sub(start.max(from))
}

/// Busy time of many links (or groups of flows), binned by sample interval, from which their centred sliding-window
/// rate series are computed. Kept time-major, one row of bins per sample interval with a bin per link: simulated
/// time only goes forward, so at any moment every link adds to the same row (a few tens of kilobytes even in a fabric
/// of thousands of links), where a series per link scattered each packet's addition over memory.
#[derive(Debug, Clone)]
pub struct BusyTable {
    bin: Time,
    end: Time,
    /// Series in the table: bins per row.
    width: usize,
    rows: usize,
    bins: Vec<Time>,
    /// The row the last busy time started in, and its start: starts never go back, so the next one is usually in
    /// this row or the next, found without a division.
    cur: usize,
    cur_start: Time,
}

impl BusyTable {
    /// `width` series with bins of width `bin` covering `[0, duration]`.
    pub fn new(width: usize, bin: Time, duration: Time) -> Self {
        let rows = (duration / bin + 1) as usize;
        Self { bin, end: duration, width, rows, bins: vec![0; rows * width], cur: 0, cur_start: 0 }
    }

    /// The row holding time `t` (and its start).
    fn row_of(&mut self, t: Time) -> (usize, Time) {
        let next = self.cur_start + self.bin;
        if t < self.cur_start || t >= next + self.bin {
            self.cur = (t / self.bin) as usize;
            self.cur_start = self.cur as Time * self.bin;
        } else if t >= next {
            self.cur += 1;
            self.cur_start = next;
        }
        (self.cur, self.cur_start)
    }

    /// Adds busy time `[start, end)` to series `s`, split across the bins it spans; time after the end of the run is
    /// not counted.
    pub fn add(&mut self, s: usize, start: Time, end: Time) {
        let end = end.min(self.end);
        if start >= end {
            return;
        }
        let (mut row, row_start) = self.row_of(start);
        let mut t = start;
        let mut row_end = row_start + self.bin;
        loop {
            let until = end.min(row_end);
            self.bins[row * self.width + s] += until - t;
            if until == end {
                break;
            }
            t = until;
            row += 1;
            row_end += self.bin;
        }
    }

    /// Series `s`.
    pub fn series(&self, s: usize) -> BusySeries<'_> {
        debug_assert!(s < self.width);
        BusySeries { table: self, s }
    }
}

/// One series of a [`BusyTable`]: the busy time of one link (or group).
#[derive(Debug, Clone, Copy)]
pub struct BusySeries<'a> {
    table: &'a BusyTable,
    s: usize,
}

impl BusySeries<'_> {
    /// Busy time in `[from, to)`, assuming busy time is spread evenly inside each bin (exact when `from` and `to`
    /// fall on bin edges, or on the run's end: the last bin is only as wide as the run lasts in it).
    pub fn busy_between(&self, from: Time, to: Time) -> f64 {
        if to <= from {
            return 0.0;
        }
        let t = self.table;
        let (first, last) = ((from / t.bin) as usize, ((to - 1) / t.bin) as usize);
        let mut sum = 0.0;
        for i in first..=last.min(t.rows.saturating_sub(1)) {
            let (b0, b1) = (i as Time * t.bin, ((i as Time + 1) * t.bin).min(t.end));
            let covered = overlap(b0, b1, from, to);
            if covered > 0 {
                sum += t.bins[i * t.width + self.s] as f64 * (covered as f64 / (b1 - b0) as f64);
            }
        }
        sum
    }

    /// Busy time in `[from, now)` at `now`, while the run is under way: the bins before `now`'s as
    /// [`Self::busy_between`] counts them, then `now`'s own bin less `ahead`, the part of it still to come (busy
    /// time is added when a transmission starts, the whole of it, so the bin being filled already holds what lies
    /// after `now`: the caller knows what is in progress). Exact when `from` is on a bin edge, as a scenario's
    /// measurement start is; with `from` inside `now`'s bin, that bin is spread evenly over the part elapsed.
    pub fn busy_so_far(&self, from: Time, now: Time, ahead: Time) -> f64 {
        let t = self.table;
        let edge = self.final_until(now);
        if now >= t.end || now <= from || now == edge {
            // (At a bin's edge the bins before are the whole of it.)
            return self.busy_between(from, now);
        }
        let row = (edge / t.bin) as usize;
        let filled = t.bins.get(row * t.width + self.s).map_or(0, |&b| b.saturating_sub(ahead));
        if from >= edge {
            return filled as f64 * ((now - from) as f64 / (now - edge).max(1) as f64);
        }
        self.busy_between(from, edge) + filled as f64
    }

    /// The end of the bin `now` is in (the run's end at the latest): what [`Self::busy_so_far`]'s `ahead` counts
    /// up to.
    pub fn bin_end(&self, now: Time) -> Time {
        let t = self.table;
        (now / t.bin * t.bin + t.bin).min(t.end)
    }

    /// How far the series is final at simulated time `now`: to the start of the bin `now` is in (a bin still being
    /// filled holds the whole of the transmissions in progress, the part still to come too, so spreading it over
    /// the part elapsed would be wrong), or to the run's end once it is there.
    pub fn final_until(&self, now: Time) -> Time {
        let t = self.table;
        if now >= t.end {
            t.end
        } else {
            now / t.bin * t.bin
        }
    }

    /// The fraction of `[t - window/2, t + window/2]` (clipped to `[0, end]`) the link was busy. (`end`: where
    /// the series is final, [`BusySeries::final_until`].)
    pub fn rate_at(&self, t: Time, window: Time, end: Time) -> f64 {
        let from = t.saturating_sub(window / 2);
        let to = (t + window / 2).min(end);
        if to <= from {
            return 0.0;
        }
        self.busy_between(from, to) / (to - from) as f64
    }

    /// The sample spacing.
    pub fn bin(&self) -> Time {
        self.table.bin
    }
}

/// Time-weighted occupancy of one buffer over the measurement interval.
#[derive(Debug, Clone, Default)]
pub struct Occupancy {
    /// Sum of blocks × picoseconds inside the interval.
    integral: u128,
    last_change: Time,
    /// Most blocks ever used.
    pub max: u32,
}

impl Occupancy {
    /// The buffer held `used_before` blocks since the last change and holds `used_now` from `now` on; only time in
    /// `[from, to)` counts toward the mean.
    pub fn change(&mut self, now: Time, used_before: u32, used_now: u32, (from, to): (Time, Time)) {
        let counted = overlap(self.last_change, now, from, to);
        // (In u64 when it fits, as it nearly always does: wasm multiplies 128-bit numbers by a library call.)
        self.integral += if counted <= u64::from(u32::MAX) {
            u128::from(u64::from(used_before) * counted)
        } else {
            u128::from(used_before) * u128::from(counted)
        };
        self.last_change = now;
        self.max = self.max.max(used_now);
    }

    /// Mean blocks over `[from, min(now, to))`, with `used` held since the last change.
    pub fn mean(&self, now: Time, used: u32, (from, to): (Time, Time)) -> f64 {
        let counted = overlap(self.last_change, now, from, to);
        let total = self.integral + u128::from(used) * u128::from(counted);
        let span = now.min(to).saturating_sub(from);
        if span == 0 {
            return f64::from(used);
        }
        total as f64 / span as f64
    }
}

/// Jain's fairness index `(Σx)² / (n·Σx²)`: 1 when all are equal, `1/n` when one takes everything. 1 for an empty
/// or all-zero set (nothing is unfairly shared).
pub fn jain_index(xs: &[f64]) -> f64 {
    let sum: f64 = xs.iter().sum();
    let sq: f64 = xs.iter().map(|x| x * x).sum();
    if xs.is_empty() || sq == 0.0 {
        return 1.0;
    }
    sum * sum / (xs.len() as f64 * sq)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_time_is_split_across_bins() {
        // Two series side by side: each keeps its own time.
        let mut s = BusyTable::new(2, 100, 1000);
        s.add(1, 50, 250);
        s.add(0, 120, 130);
        let bins = |s: &BusyTable, k: usize| (0..11).map(|row| s.bins[row * 2 + k]).collect::<Vec<_>>();
        assert_eq!(bins(&s, 1)[..4], [50, 100, 50, 0]);
        assert_eq!(bins(&s, 0)[..4], [0, 10, 0, 0]);
        let one = s.series(1);
        assert_eq!(one.busy_between(0, 300), 200.0);
        assert_eq!(one.busy_between(100, 200), 100.0);
        assert_eq!(one.busy_between(150, 200), 50.0, "interpolated inside a bin");
        assert_eq!(s.series(0).busy_between(0, 300), 10.0);
        s.add(1, 990, 2000);
        assert_eq!(bins(&s, 1)[9], 10);
        assert_eq!(bins(&s, 1)[10], 0, "only up to the end of the run (bin 10 starts at 1000)");
        s.add(0, 40, 60); // earlier than the last addition: found again
        assert_eq!(bins(&s, 0)[0], 20);
    }

    #[test]
    fn busy_time_so_far_leaves_out_what_is_still_to_come() {
        let mut s = BusyTable::new(1, 100, 1000);
        // Busy 150-190, then a transmission 210-260 that, at 230, is in progress: added whole at its start.
        s.add(0, 150, 190);
        s.add(0, 210, 260);
        let one = s.series(0);
        // At 230, from 100: 40 before the bin, and 20 of the 50 in it (30 are still to come).
        assert_eq!(one.bin_end(230), 300);
        assert_eq!(one.busy_so_far(100, 230, 30), 60.0);
        assert_eq!(one.busy_between(100, 230), 40.0 + 50.0 * 0.3, "spread evenly, the bin says otherwise");
        // On a bin's edge the bins before are the whole of it; from inside the bin, spread over the part elapsed.
        assert_eq!(one.busy_so_far(100, 200, 0), 40.0);
        assert!((one.busy_so_far(220, 230, 30) - 20.0 * 10.0 / 30.0).abs() < 1e-12);
        // At the run's end nothing is still to come.
        assert_eq!(one.busy_so_far(0, 1000, 0), 90.0);
    }

    #[test]
    fn centred_window_rate() {
        let mut table = BusyTable::new(1, 10, 1000);
        table.add(0, 0, 500); // busy for the first half
        let s = table.series(0);
        assert_eq!(s.rate_at(250, 100, 1000), 1.0);
        assert_eq!(s.rate_at(500, 100, 1000), 0.5);
        assert_eq!(s.rate_at(800, 100, 1000), 0.0);
        assert_eq!(s.rate_at(0, 100, 1000), 1.0, "clipped at the start, not halved");
    }

    /// A link sending back to back, looked at mid-run: the bin `now` is in holds the packet in progress whole, the
    /// part still to come too. Spread over the part elapsed it made the newest samples sag below 100% (and rise
    /// again as the run went on); the windows end where the series is final instead.
    #[test]
    fn a_busy_link_reads_busy_up_to_the_newest_sample() {
        let mut table = BusyTable::new(1, 10, 1000);
        let now = 62;
        for k in 0..=now / 7 {
            table.add(0, k * 7, k * 7 + 7); // the last one, from 56 to 63, is in progress at 62
        }
        let s = table.series(0);
        assert_eq!(s.final_until(now), 60);
        assert_eq!(s.rate_at(60, 20, s.final_until(now)), 1.0);
        assert!(s.rate_at(60, 20, now) < 1.0, "what the newest sample read before");
        assert_eq!(s.final_until(1000), 1000, "at the run's end, all of it");
    }

    /// A run that ends inside a bin: the last bin is as wide as the run lasts in it.
    #[test]
    fn the_last_bin_is_as_wide_as_the_run_lasts_in_it() {
        let mut table = BusyTable::new(1, 10, 995);
        table.add(0, 0, 995);
        let s = table.series(0);
        assert_eq!(s.busy_between(990, 995), 5.0);
        assert_eq!(s.rate_at(990, 20, s.final_until(995)), 1.0);
    }

    #[test]
    fn occupancy_mean_counts_only_the_interval() {
        let mut o = Occupancy::default();
        o.change(10, 0, 4, (100, Time::MAX)); // 4 blocks from t=10
        o.change(150, 4, 2, (100, Time::MAX)); // 2 from t=150; 4 blocks × 50 ps count (100..150)
        assert_eq!(o.mean(250, 2, (100, Time::MAX)), (4.0 * 50.0 + 2.0 * 100.0) / 150.0);
        assert_eq!(o.max, 4);
        // An interval that ends at 200: the 2 blocks count for 50 ps, and what follows not at all.
        assert_eq!(o.mean(250, 2, (100, 200)), (4.0 * 50.0 + 2.0 * 50.0) / 100.0);
        let mut late = o.clone();
        late.change(300, 2, 9, (100, 200));
        assert_eq!(late.mean(400, 9, (100, 200)), (4.0 * 50.0 + 2.0 * 50.0) / 100.0);
    }

    #[test]
    fn jain() {
        assert_eq!(jain_index(&[1.0, 1.0, 1.0]), 1.0);
        assert!((jain_index(&[1.0, 0.0, 0.0, 0.0]) - 0.25).abs() < 1e-12);
        assert_eq!(jain_index(&[]), 1.0);
    }
}
