//! The page's own time series of what the core does not record over time: each flow's rate limit, each switch
//! input buffer's occupancy, and each link's marks. Sampled from snapshots at fixed simulated times (the frame loop
//! stops the run exactly at each sample time), so the series are the same whatever the speed or frame rate.
//! Pure Rust, tested natively.

use ibcc_core::scenario::Scenario;
use ibcc_core::sim::Snapshot;
use ibcc_view::names::PlotKind;
use ibcc_view::plot::{Curve, What};

/// Samples per run: enough for smooth curves, few enough to redraw every few frames.
pub const SAMPLES: u64 = 400;

/// The sampled series of one run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Trace {
    interval_ps: u64,
    next_ps: u64,
    /// Sample times in ns.
    times: Vec<f64>,
    /// `limits[flow][k]`: rate limit as a fraction of the flow's link rate (0 while a flow is not active).
    limits: Vec<Vec<f32>>,
    /// `buffers[b][k]`: packets held, in the snapshot's buffer order.
    buffers: Vec<Vec<f32>>,
    buffer_channels: Vec<u32>,
    /// `marks[channel][k]`: marks so far.
    marks: Vec<Vec<u64>>,
}

impl Trace {
    /// A trace of a run lasting `duration_ps`.
    pub fn new(duration_ps: u64) -> Self {
        let interval_ps = (duration_ps / SAMPLES).max(1_000);
        Self { interval_ps, ..Self::default() }
    }

    /// The simulated time (ps) of the next sample: the run should stop there and call [`Trace::record`].
    pub fn next_ps(&self) -> u64 {
        self.next_ps
    }

    /// Takes the sample due at `snap.time_ns` (or later, if the run jumped past it).
    pub fn record(&mut self, snap: &Snapshot) {
        let now_ps = (snap.time_ns * 1000.0).round() as u64;
        if now_ps < self.next_ps {
            return;
        }
        self.next_ps = (now_ps / self.interval_ps + 1) * self.interval_ps;
        self.times.push(snap.time_ns);
        grow(&mut self.limits, snap.flows.len());
        for (series, f) in self.limits.iter_mut().zip(&snap.flows) {
            series.push(if f.active { f.rate_limit } else { 0.0 });
        }
        grow(&mut self.buffers, snap.buffers.len());
        self.buffer_channels = snap.buffers.iter().map(|b| b.channel).collect();
        for (series, b) in self.buffers.iter_mut().zip(&snap.buffers) {
            series.push(b.packets);
        }
        grow(&mut self.marks, snap.links.len());
        for (series, l) in self.marks.iter_mut().zip(&snap.links) {
            series.push(l.marks);
        }
    }

    pub fn len(&self) -> usize {
        self.times.len()
    }

    pub fn is_empty(&self) -> bool {
        self.times.is_empty()
    }

    /// The curves of `kind` (other than `Rates`, which the core records), in ms, at most `max` of them: each
    /// group's mean rate limit (in percent of its flows' links), the fullest buffers, the links marking most.
    pub fn curves(&self, kind: PlotKind, s: &Scenario, max: usize) -> Vec<Curve> {
        let t_ms = |k: usize| self.times[k] / 1e6;
        let to_curve = |label: String, what: What, ys: &mut dyn Iterator<Item = f64>| {
            Curve::new(label, ys.enumerate().map(|(k, y)| (t_ms(k), y)).collect(), what)
        };
        match kind {
            PlotKind::Rates => Vec::new(),
            PlotKind::FlowLimits => {
                let mut groups: Vec<&str> = Vec::new();
                for f in &s.flows {
                    if !groups.contains(&f.group.as_str()) {
                        groups.push(&f.group);
                    }
                }
                groups
                    .into_iter()
                    .take(max)
                    .map(|g| {
                        let members: Vec<&Vec<f32>> =
                            self.limits.iter().zip(&s.flows).filter(|(_, f)| f.group == g).map(|(v, _)| v).collect();
                        let n = members.len().max(1);
                        let mean = (0..self.len())
                            .map(|k| 100.0 * members.iter().map(|v| f64::from(v[k])).sum::<f64>() / n as f64);
                        let name = ibcc_view::names::group_curve(g);
                        let label = if n > 1 { format!("{name} (mean of {n})") } else { name };
                        to_curve(label, What::Group(g.to_owned()), &mut mean.into_iter())
                    })
                    .collect()
            }
            PlotKind::Buffers => {
                // The fullest on average first; buffers that tell the same story (half a packet apart on average: a
                // hot spot's full inputs, all at 3 or 4) are one curve, named for the first and counted, not eight
                // greys drawn over each other.
                let mean = |b: usize| self.buffers[b].iter().map(|&x| f64::from(x)).sum::<f64>();
                let mut order: Vec<usize> = (0..self.buffers.len()).filter(|&b| mean(b) > 0.0).collect();
                ibcc_view::sorting::sort_by(&mut order, |&x, &y| mean(y).total_cmp(&mean(x)).then(x.cmp(&y)));
                // (A buffer fed by another switch, where congestion spreads, is never merged with a host's.)
                let from_switch = |b: usize| {
                    crate::scene::channel_ends(s, self.buffer_channels[b]).is_some_and(|(from, _)| {
                        s.nodes.iter().any(|n| n.id == from && n.kind == ibcc_core::scenario::NodeKind::Switch)
                    })
                };
                let alike = |a: usize, b: usize| {
                    if from_switch(a) != from_switch(b) {
                        return false;
                    }
                    let (a, b) = (&self.buffers[a], &self.buffers[b]);
                    let apart: f64 = a.iter().zip(b).map(|(x, y)| f64::from((x - y).abs())).sum();
                    apart <= 0.5 * a.len().max(1) as f64
                };
                // (At most `max` kinds are kept: a fabric's thousands of buffers cost `max` comparisons each.)
                let mut kinds: Vec<(usize, usize)> = Vec::new();
                for b in order {
                    let full = kinds.len() >= max;
                    match kinds.iter_mut().find(|(first, _)| alike(*first, b)) {
                        Some(k) => k.1 += 1,
                        None if !full => kinds.push((b, 1)),
                        None => {}
                    }
                }
                kinds
                    .into_iter()
                    .map(|(b, n)| {
                        let ch = self.buffer_channels[b];
                        let label = match n {
                            1 => format!("at {}", channel_name(s, ch)),
                            n => format!("at {} (+{} alike)", channel_name(s, ch), n - 1),
                        };
                        to_curve(label, What::Link(ch), &mut self.buffers[b].iter().map(|&x| f64::from(x)))
                    })
                    .collect()
            }
            PlotKind::Marks => {
                let total = |c: usize| self.marks[c].last().copied().unwrap_or(0);
                let mut by_total: Vec<usize> = (0..self.marks.len()).filter(|&c| total(c) > 0).collect();
                ibcc_view::sorting::sort_by(&mut by_total, |&x, &y| total(y).cmp(&total(x)).then(x.cmp(&y)));
                by_total
                    .into_iter()
                    .take(max)
                    .map(|c| {
                        let m = &self.marks[c];
                        // Marks per second between consecutive samples, drawn at the later one.
                        let rate = (0..self.len()).map(|k| {
                            if k == 0 {
                                0.0
                            } else {
                                (m[k] - m[k - 1]) as f64 / ((self.times[k] - self.times[k - 1]) * 1e-9)
                            }
                        });
                        to_curve(channel_name(s, c as u32), What::Link(c as u32), &mut rate.into_iter())
                    })
                    .collect()
            }
        }
    }
}

fn grow<T>(v: &mut Vec<Vec<T>>, n: usize) {
    v.resize_with(v.len().max(n), Vec::new);
}

/// `"A->B"` for channel `c` (see `Scenario::channel_name`), or its number if the scenario has no such link.
pub fn channel_name(s: &Scenario, c: u32) -> String {
    s.channel_name(c).unwrap_or_else(|| format!("channel {c}"))
}

/// The y axis of a plot kind: its description with unit, and its top (`None`: fit the data).
pub fn y_axis(kind: PlotKind, window_ms: f64) -> (String, Option<f64>) {
    match kind {
        PlotKind::Rates => (format!("rate, % of link ({window_ms} ms)"), Some(105.0)),
        PlotKind::FlowLimits => (String::from("rate limit, % of link"), Some(105.0)),
        PlotKind::Buffers => (String::from("buffer occupancy, packets"), None),
        PlotKind::Marks => (String::from("marks per second"), None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ibcc_core::presets::find;
    use ibcc_core::sim::Run;

    /// Runs `s` sampling as the page does, stopping exactly at each sample time.
    fn traced(s: &Scenario) -> Trace {
        let mut sim = Run::new(s).unwrap();
        let mut trace = Trace::new(sim.end());
        while !sim.is_finished() {
            sim.step_until(trace.next_ps(), u64::MAX);
            trace.record(&sim.snapshot());
        }
        trace
    }

    #[test]
    fn samples_at_fixed_times_and_plots_every_kind() {
        // Fig. 4a: naive marking, LIPD; 2 ms covers the local and remote flows' start.
        let mut s = find("infocom03-fig4a").unwrap().scenario();
        s.duration_ns = 2_000_000;
        s.measure.from_ns = 0;
        let t = traced(&s);
        assert_eq!(t.len() as u64, SAMPLES + 1, "one sample per interval, from 0 to the end");
        assert_eq!(t.times[1], 5_000.0);
        let limits = t.curves(PlotKind::FlowLimits, &s, 4);
        let labels: Vec<&str> = limits.iter().map(|c| c.label.as_str()).collect();
        assert_eq!(
            labels,
            ["local flows (mean of 10)", "remote flows (mean of 10)", "victim flows"],
            "one curve per group"
        );
        assert!(limits.iter().all(|c| matches!(&c.what, What::Group(_))));
        assert!(limits.iter().flat_map(|c| &c.points).any(|p| p.1 < 99.0), "congestion control lowered some limit");
        let buffers = t.curves(PlotKind::Buffers, &s, 3);
        assert_eq!(buffers.len(), 3);
        let peak = buffers[0].points.iter().map(|p| p.1).fold(0.0, f64::max);
        assert!(peak >= 2.0, "packets queue at the root (more than the one cutting through): {peak}");
        let marks = t.curves(PlotKind::Marks, &s, 6);
        assert!(!marks.is_empty());
        // Marks per second over each sample interval add up to the link's marks, and the busiest link comes first.
        let total = |c: &Curve| c.points.windows(2).map(|w| w[1].1 * (w[1].0 - w[0].0) / 1e3).sum::<f64>();
        let What::Link(first) = marks[0].what else { panic!("a link") };
        let want = *t.marks[first as usize].last().unwrap() as f64;
        assert!(want > 0.0 && (total(&marks[0]) - want).abs() < 1e-6 * want, "{} vs {want}", total(&marks[0]));
        assert!(marks.windows(2).all(|w| total(&w[0]) >= total(&w[1]) - 1e-6));
    }

    #[test]
    fn sampling_does_not_depend_on_how_the_run_is_sliced() {
        let mut s = find("infocom03-fig4a").unwrap().scenario();
        s.duration_ns = 500_000;
        s.measure.from_ns = 0;
        let whole = traced(&s);
        let mut sim = Run::new(&s).unwrap();
        let mut sliced = Trace::new(sim.end());
        while !sim.is_finished() {
            // Uneven frames, as the page's are: a few events at a time.
            sim.step_until(sliced.next_ps(), 37);
            sliced.record(&sim.snapshot());
        }
        assert_eq!(whole, sliced);
    }

    #[test]
    fn names_channels_by_direction() {
        let s = find("infocom03-fig2").unwrap().scenario();
        let l = &s.links[0];
        assert_eq!(channel_name(&s, 0), format!("{}->{}", l.a, l.b));
        assert_eq!(channel_name(&s, 1), format!("{}->{}", l.b, l.a));
        assert_eq!(PlotKind::from_id("marks"), PlotKind::Marks);
        assert_eq!(PlotKind::from_id("nonsense"), PlotKind::Rates);
    }
}
