//! The playground's run as its web worker drives it: play at a speed (simulated time per wall second) or as fast as
//! it goes, pause, step, and seek anywhere on the timeline, forward or back. Going back is exact: the run is
//! deterministic, so the driver keeps clones of the whole run (checkpoints) at fixed simulated times and, to show
//! time `t`, restores the last one before `t` and runs on to it. Marking changes made during the run are kept with
//! the time they were made and replayed there, so the timeline stays one run however it is travelled. Pure Rust,
//! tested natively; `bin/worker.rs` wraps it in a web worker.

use crate::session::{Frame, PaperNumber, Session};
use ibcc_core::scenario::Scenario;
use ibcc_core::sim::{Measurement, NeedsRestart, Results};
use ibcc_view::names::PlotKind;
use ibcc_view::plot::Curve;
use serde::{Deserialize, Serialize};

/// Simulated picoseconds per wall second; `None`: as fast as it goes.
pub type Speed = Option<u64>;

/// Memory the checkpoints of one run may take, in bytes (an estimate: see [`checkpoint_bytes`]).
pub const CHECKPOINT_BUDGET: usize = 200 << 20;
/// At most this many checkpoints (more: shorter replays when seeking back); the one at time 0 is always kept.
const MAX_CHECKPOINTS: u64 = 64;
/// Curves drawn at most per plot.
pub const MAX_CURVES: usize = 8;
/// Wall milliseconds between two recomputations of the curves while the run moves.
const CURVES_EVERY_MS: f64 = 100.0;
/// A run at a set speed that falls this far behind wall time (ms) stops trying to catch up.
const BEHIND_MS: f64 = 200.0;

/// What the run is doing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Status {
    Paused,
    Playing,
    /// Going to a time (a seek, a step, "run to the end of the measured interval").
    Seeking,
    Finished,
}

/// Where the run is heading.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Goal {
    Paused,
    Play(Speed),
    /// To `target`, then pause or play on.
    To {
        target: u64,
        then: Option<Speed>,
    },
}

/// A frame for the page: the run's present, and the curves and results when they were recomputed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FrameMsg {
    pub time_ps: u64,
    pub end_ps: u64,
    /// The furthest time computed so far (the timeline's filled part).
    pub horizon_ps: u64,
    pub status: Status,
    /// The times at which marking changed during the run.
    pub retunes_ps: Vec<u64>,
    /// Seeks the driver had been asked for when it made this frame.
    pub seeks: u32,
    pub frame: Frame,
    pub kind: PlotKind,
    pub curves: Option<Vec<Curve>>,
    /// The measurements so far, with the curves only: on a large fabric they are hundreds of kilobytes, more than
    /// every frame should carry (the page keeps the last ones).
    pub results: Option<Results>,
    /// Each flow's channels, source to destination (the drawing shows a selected flow's route), packed
    /// ([`pack_paths`]): with the run's first frame only, as they never change (the page keeps them).
    pub paths: Option<Vec<u32>>,
}

/// Flows' paths in one list, for the message to the page: each flow's number of channels, then its channels (0
/// channels: no route). One flat list of numbers costs the page's wasm less to read than nested lists.
pub fn pack_paths(paths: &[Option<Vec<u32>>]) -> Vec<u32> {
    let mut out = Vec::new();
    for p in paths {
        let p = p.as_deref().unwrap_or_default();
        out.push(p.len() as u32);
        out.extend_from_slice(p);
    }
    out
}

/// The paths [`pack_paths`] packed (a truncated list gives the flows it holds whole).
pub fn unpack_paths(mut packed: &[u32]) -> Vec<Option<Vec<u32>>> {
    let mut out = Vec::new();
    while let Some((&n, rest)) = packed.split_first() {
        let Some(path) = rest.get(..n as usize) else { break };
        out.push((n > 0).then(|| path.to_vec()));
        packed = &rest[n as usize..];
    }
    out
}

/// An estimate of one checkpoint's size: the core's rate series (one counter per channel and group per sample,
/// allocated for the whole run) and the page's trace dominate; the packets in flight and the pending events are
/// bounded by the buffers (a few per buffer block of every channel).
pub fn checkpoint_bytes(s: &Scenario) -> usize {
    let channels = 2 * s.links.len();
    // (The spacing the run will use: coarser than asked for on a network too big for the series.)
    let sample_ns = s.series_sample_ns().unwrap_or_else(|_| s.measure.sample_ns());
    let bins = (s.duration_ns / sample_ns).saturating_add(1) as usize;
    let series = (channels + s.flows.len().min(64)) * bins * 8;
    let trace = (channels * 16 + s.flows.len() * 4 + channels * 4) * (crate::trace::SAMPLES as usize + 1);
    let in_flight = channels * (s.switch.buffer_packets as usize * 2 + 4) * 64;
    series + trace + in_flight + 64 * 1024 + 256 * (channels + s.flows.len() + s.nodes.len())
}

/// Simulated time between two checkpoints of a run of `s`: as many as the memory budget allows, up to
/// [`MAX_CHECKPOINTS`] (a huge network may get only the one at time 0, and replays from there).
pub fn checkpoint_every_ps(s: &Scenario) -> u64 {
    let n = (CHECKPOINT_BUDGET / checkpoint_bytes(s).max(1)) as u64;
    let n = n.clamp(1, MAX_CHECKPOINTS);
    (s.duration_ns * 1000 / n).max(1_000)
}

/// A run with its checkpoints, its marking changes and where it is heading.
#[derive(Debug)]
pub struct Driver {
    run: Session,
    /// Clones of the run at multiples of `every_ps`, oldest first; each taken after the marking changes due then.
    checkpoints: Vec<Session>,
    every_ps: u64,
    keep_checkpoints: bool,
    /// Marking changes: the time and the scenario from then on, in time order.
    retunes: Vec<(u64, Scenario)>,
    /// How many of `retunes` the run has applied.
    applied: usize,
    horizon_ps: u64,
    goal: Goal,
    /// A seek asked for and not yet begun: many may come while a timeline is dragged, and only the last counts
    /// (its checkpoint is restored when the run next works).
    pending_seek: Option<(u64, Option<Speed>)>,
    /// Seeks asked for so far: frames carry it, so the page knows which seek a frame answers.
    seeks: u32,
    /// Wall ms and simulated ps when playing at a speed began (or caught up).
    anchor: Option<(f64, u64)>,
    kind: PlotKind,
    /// A link the rate plot shows first.
    link: Option<u32>,
    curves_at_ms: Option<f64>,
    /// Something changed since the last frame.
    dirty: bool,
    /// Playing stops here (a lesson's "watch it happen" ends at the step's moment); the user's own play, pause or
    /// seek lets go of it.
    pause_at: Option<u64>,
    /// The flows' paths went with a frame.
    paths_sent: bool,
}

impl Driver {
    /// A new run of `s` at time 0, paused, with `papers`' numbers beside its own. `checkpoints: false` keeps none
    /// (a run that only plays forward).
    pub fn new(s: &Scenario, checkpoints: bool, papers: Vec<PaperNumber>) -> Result<Self, String> {
        let run = Session::new(s, papers).map_err(|e| e.to_string())?;
        let mut d = Self {
            run,
            checkpoints: Vec::new(),
            every_ps: checkpoint_every_ps(s),
            keep_checkpoints: checkpoints,
            retunes: Vec::new(),
            applied: 0,
            horizon_ps: 0,
            goal: Goal::Paused,
            pending_seek: None,
            seeks: 0,
            anchor: None,
            kind: PlotKind::Rates,
            link: None,
            curves_at_ms: None,
            dirty: true,
            pause_at: None,
            paths_sent: false,
        };
        d.checkpoint();
        Ok(d)
    }

    pub fn now_ps(&self) -> u64 {
        self.run.sim().now()
    }

    pub fn end_ps(&self) -> u64 {
        self.run.sim().end()
    }

    pub fn horizon_ps(&self) -> u64 {
        self.horizon_ps
    }

    /// The scenario the run follows now (the last marking change applied).
    pub fn scenario(&self) -> &Scenario {
        self.run.sim().scenario()
    }

    pub fn status(&self) -> Status {
        if self.pending_seek.is_some() {
            return Status::Seeking;
        }
        match self.goal {
            Goal::Paused if self.run.is_finished() => Status::Finished,
            Goal::Paused => Status::Paused,
            Goal::Play(_) => Status::Playing,
            Goal::To { .. } => Status::Seeking,
        }
    }

    /// How many checkpoints are kept now.
    pub fn checkpoints(&self) -> usize {
        self.checkpoints.len()
    }

    /// Plays at `speed` from where the run is; during a seek, from where the seek goes.
    pub fn play(&mut self, speed: Speed, wall_ms: f64) {
        self.pause_at = None;
        self.dirty = true;
        self.curves_at_ms = None;
        if self.set_after_seek(Some(speed)) {
            return;
        }
        self.goal = if self.run.is_finished() { Goal::Paused } else { Goal::Play(speed) };
        self.anchor = Some((wall_ms, self.now_ps()));
    }

    /// Pauses where the run is; during a seek, where the seek goes (the time the page already shows).
    pub fn pause(&mut self) {
        self.pause_at = None;
        self.dirty = true;
        // The curves at once, so the plot shows the time the run stops at.
        self.curves_at_ms = None;
        if self.set_after_seek(None) {
            return;
        }
        self.goal = Goal::Paused;
    }

    /// If a seek is asked for or under way, what follows it becomes `then`; returns whether one was.
    fn set_after_seek(&mut self, after: Option<Speed>) -> bool {
        if let Some((_, then)) = &mut self.pending_seek {
            *then = after;
            return true;
        }
        if let Goal::To { then, .. } = &mut self.goal {
            *then = after;
            return true;
        }
        false
    }

    /// Goes to simulated time `t` (ps; at most the end), then pauses or, with `then`, plays on at that speed.
    /// Back in time, the run restarts from the last checkpoint before `t`; forward, from a later checkpoint if
    /// one is nearer than where the run is.
    pub fn seek(&mut self, t: u64, then: Option<Speed>) {
        self.pause_at = None;
        self.pending_seek = Some((t, then));
        self.seeks = self.seeks.wrapping_add(1);
        self.anchor = None;
        self.dirty = true;
        self.curves_at_ms = None;
    }

    /// Plays from `from` (ps) at `speed` and pauses at exactly `until`: the moment watched as it happens.
    pub fn watch(&mut self, from: u64, speed: Speed, until: u64) {
        self.seek(from, Some(speed));
        self.pause_at = Some(until.max(from));
    }

    /// Starts the last seek asked for, if any: restores its checkpoint and sets the goal.
    fn begin_seek(&mut self) {
        let Some((t, then)) = self.pending_seek.take() else { return };
        let t = t.min(self.end_ps());
        let now = self.now_ps();
        let best = self.checkpoints.iter().rposition(|c| c.sim().now() <= t);
        if let Some(i) = best {
            let at = self.checkpoints[i].sim().now();
            if t < now || at > now {
                self.run = self.checkpoints[i].clone();
                self.applied = self.retunes.iter().take_while(|(rt, _)| *rt <= at).count();
            }
        }
        self.goal = Goal::To { target: t, then };
    }

    /// Completes a seek under way (all at once: used before a change or a measurement, which apply to the time
    /// the seek goes to, the one the page shows).
    pub fn finish_seek(&mut self) {
        self.begin_seek();
        if let Goal::To { target, then } = self.goal {
            self.advance(target, &mut || true);
            self.goal = match then {
                Some(speed) => Goal::Play(speed),
                None => Goal::Paused,
            };
            self.anchor = None;
            self.curves_at_ms = None;
        }
    }

    /// Applies a marking change from now on, if the model allows it without a new run: the change is kept with
    /// its time and replayed there, and what was computed after now (which did not have it) is dropped.
    pub fn retune(&mut self, next: &Scenario) -> Result<(), NeedsRestart> {
        self.finish_seek();
        self.run.retune(next)?;
        let now = self.now_ps();
        self.retunes.retain(|(t, _)| *t < now);
        self.retunes.push((now, next.clone()));
        self.applied = self.retunes.len();
        self.checkpoints.retain(|c| c.sim().now() < now);
        self.horizon_ps = now;
        self.checkpoint();
        self.dirty = true;
        self.curves_at_ms = None;
        Ok(())
    }

    /// The plot the page shows, and the link it shows first (its curves are sent with the next frame).
    pub fn set_plot(&mut self, kind: PlotKind, link: Option<u32>) {
        self.kind = kind;
        self.link = link;
        self.curves_at_ms = None;
        self.dirty = true;
    }

    /// A measurement of the run over its whole interval (an exercise's answer, a teacher's or a student's): none
    /// until the run (or the seek under way) has reached the interval's end, where a measurement so far would be
    /// of part of it.
    pub fn measure(&mut self, m: &Measurement) -> Result<f64, String> {
        self.finish_seek();
        let (_, to_ns) = m.interval_ns(self.run.sim().scenario()).map_err(|e| e.to_string())?;
        let now = self.now_ps();
        if now < to_ns * 1_000 {
            return Err(format!(
                "the run is at {:.3} ms, and the answer is measured up to {} ms",
                now as f64 / 1e9,
                ibcc_core::time::ms_text(to_ns.saturating_mul(ibcc_core::time::NS))
            ));
        }
        self.run.measure(m).map_err(|e| e.to_string())
    }

    /// Keeps a clone of the run if it stands at a checkpoint time without one (none at the end: nothing is
    /// replayed from there).
    fn checkpoint(&mut self) {
        let now = self.now_ps();
        if !self.keep_checkpoints || now % self.every_ps != 0 || now >= self.end_ps() {
            return;
        }
        if let Err(i) = self.checkpoints.binary_search_by_key(&now, |c| c.sim().now()) {
            self.checkpoints.insert(i, self.run.clone());
        }
    }

    /// Runs toward `target` while `more()` allows, stopping at each checkpoint time and marking change on the way.
    fn advance(&mut self, target: u64, more: &mut dyn FnMut() -> bool) {
        loop {
            let now = self.now_ps();
            while let Some((_, s)) = self.retunes.get(self.applied).filter(|(t, _)| *t <= now) {
                // The change was accepted at this very state before: replaying it cannot be refused.
                let _ = self.run.retune(s);
                self.applied += 1;
            }
            self.checkpoint();
            self.horizon_ps = self.horizon_ps.max(now);
            if now >= target || self.run.is_finished() || !more() {
                return;
            }
            let mut stop = target.min((now / self.every_ps + 1) * self.every_ps);
            if let Some((t, _)) = self.retunes.get(self.applied) {
                stop = stop.min(*t);
            }
            self.run.advance(stop, &mut *more);
        }
    }

    /// Works on the goal for about `budget_ms` of wall time (`clock` gives wall ms). Returns when to be called
    /// again: `Some(0.0)` at once, `Some(ms)` after a pause (playing ahead of wall time), `None` when idle.
    pub fn tick(&mut self, clock: &dyn Fn() -> f64, budget_ms: f64) -> Option<f64> {
        self.begin_seek();
        let start = clock();
        let mut more = || clock() - start < budget_ms;
        let wait = match self.goal {
            Goal::Paused => return None,
            Goal::Play(None) => {
                self.advance(self.end_ps().min(self.pause_at.unwrap_or(u64::MAX)), &mut more);
                Some(0.0)
            }
            Goal::Play(Some(speed)) => {
                let (wall0, sim0) = *self.anchor.get_or_insert((start, self.now_ps()));
                let per_ms = speed as f64 / 1000.0;
                let target =
                    sim0.saturating_add(((start - wall0) * per_ms) as u64).min(self.pause_at.unwrap_or(u64::MAX));
                self.advance(target, &mut more);
                let behind_ms = target.saturating_sub(self.now_ps()) as f64 / per_ms;
                if behind_ms > BEHIND_MS {
                    // Too slow for this speed: go on from here rather than race to catch up.
                    self.anchor = Some((clock(), self.now_ps()));
                }
                Some(if self.now_ps() >= target { 8.0 } else { 0.0 })
            }
            Goal::To { target, then } => {
                self.advance(target, &mut more);
                if self.now_ps() >= target.min(self.end_ps()) {
                    self.goal = match then {
                        Some(speed) => Goal::Play(speed),
                        None => Goal::Paused,
                    };
                    self.anchor = None;
                    self.curves_at_ms = None;
                }
                Some(0.0)
            }
        };
        let reached = matches!(self.goal, Goal::Play(_)) && self.pause_at.is_some_and(|t| self.now_ps() >= t);
        if self.run.is_finished() || reached {
            self.goal = Goal::Paused;
            self.curves_at_ms = None;
            self.pause_at = None;
        }
        self.dirty = true;
        if self.goal == Goal::Paused {
            None
        } else {
            wait
        }
    }

    /// Whether the run goes as fast as it can (rather than at a speed, or toward a time).
    pub fn flat_out(&self) -> bool {
        self.goal == Goal::Play(None)
    }

    /// Whether there is something new to show.
    pub fn dirty(&self) -> bool {
        self.dirty
    }

    /// The frame to show now; the curves come with it when they are due (every so often while the run moves,
    /// and always once it stops or the plot changes).
    pub fn frame(&mut self, wall_ms: f64) -> FrameMsg {
        let moving = matches!(self.goal, Goal::Play(_) | Goal::To { .. });
        let due = self.curves_at_ms.is_none_or(|at| moving && wall_ms - at >= CURVES_EVERY_MS);
        let (curves, results) = if due {
            self.curves_at_ms = Some(wall_ms);
            let results = self.run.results();
            (Some(self.run.curves(self.kind, self.link, &results, MAX_CURVES)), Some(results))
        } else {
            (None, None)
        };
        self.dirty = false;
        FrameMsg {
            time_ps: self.now_ps(),
            end_ps: self.end_ps(),
            horizon_ps: self.horizon_ps,
            status: self.status(),
            retunes_ps: self.retunes.iter().map(|(t, _)| *t).collect(),
            seeks: self.seeks,
            frame: self.run.frame(),
            kind: self.kind,
            curves,
            results,
            paths: (!std::mem::replace(&mut self.paths_sent, true)).then(|| pack_paths(self.run.paths())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ibcc_core::presets::find;
    use ibcc_core::scenario::MarkingPolicy;
    use std::cell::Cell;

    /// A clock that moves 1 ms each time it is read: `tick` with a budget of `n` ms does about `n` reads' work.
    fn clock() -> impl Fn() -> f64 {
        let t = Cell::new(0.0);
        move || {
            t.set(t.get() + 1.0);
            t.get()
        }
    }

    fn until_idle(d: &mut Driver) {
        let c = clock();
        while d.tick(&c, 5.0).is_some() {}
    }

    fn fig2(ms: u64) -> Scenario {
        let mut s = find("infocom03-fig2").unwrap().scenario();
        s.duration_ns = ms * 1_000_000;
        s.measure.from_ns = 0;
        s.measure.to_ns = None;
        s
    }

    #[test]
    fn paths_pack_into_one_list_and_back() {
        let paths = vec![Some(vec![0, 2, 7]), None, Some(vec![5])];
        assert_eq!(pack_paths(&paths), [3, 0, 2, 7, 0, 1, 5]);
        assert_eq!(unpack_paths(&pack_paths(&paths)), paths);
        assert_eq!(unpack_paths(&[3, 0, 2]), [], "a flow cut short is left out");
        assert_eq!(unpack_paths(&[]), []);
    }

    #[test]
    fn seeking_back_gives_exactly_what_a_direct_run_gives() {
        let s = fig2(10);
        let mut direct = Driver::new(&s, true, Vec::new()).unwrap();
        direct.seek(3_300_000_000, None);
        until_idle(&mut direct);
        assert_eq!(direct.now_ps(), 3_300_000_000);
        let want = direct.frame(0.0);

        let mut d = Driver::new(&s, true, Vec::new()).unwrap();
        d.seek(8_000_000_000, None);
        until_idle(&mut d);
        assert!(d.checkpoints() > 4, "checkpoints on the way: {}", d.checkpoints());
        assert_eq!(d.horizon_ps(), 8_000_000_000);
        // Back to 3.3 ms, forward to 9 ms, back again: the same frame as the direct run each time it is there.
        for t in [3_300_000_000, 9_000_000_000, 3_300_000_000] {
            d.seek(t, None);
            until_idle(&mut d);
            assert_eq!(d.now_ps(), t);
        }
        let got = d.frame(0.0);
        assert_eq!(got.frame, want.frame, "snapshot, congestion tree and marks alike");
        assert!(got.results.is_some(), "a paused run's frame has its results");
        assert_eq!(got.results, want.results);
        assert_eq!(got.curves, want.curves);
        assert_eq!(d.status(), Status::Paused);
    }

    #[test]
    fn watching_plays_from_the_start_at_its_speed_and_pauses_exactly_at_the_moment() {
        let s = fig2(10);
        let mut d = Driver::new(&s, true, Vec::new()).unwrap();
        d.seek(7_000_000_000, None);
        until_idle(&mut d);
        // 1 ms of simulated time per wall second; each tick is 50 wall ms later (0.05 ms simulated).
        d.watch(0, Some(1_000_000_000), 2_500_000_000);
        let (mut wall, mut seen) = (0.0, Vec::new());
        for _ in 0..200 {
            wall += 50.0;
            let t = wall;
            d.tick(&move || t, 5.0);
            seen.push(d.now_ps());
            if d.status() == Status::Paused {
                break;
            }
        }
        assert_eq!((d.now_ps(), d.status()), (2_500_000_000, Status::Paused), "paused at exactly the moment");
        assert!(seen.iter().filter(|&&t| t > 0 && t < 2_500_000_000).count() > 20, "it played through: {seen:?}");
        // The user's own play lets go of the moment.
        d.watch(0, None, 1_000_000_000);
        d.play(None, wall);
        until_idle(&mut d);
        assert_eq!(d.now_ps(), d.end_ps());
    }

    /// An exercise's measurement (a teacher's "This run gives", a student's Check) waits for the run to reach the
    /// end of its interval: part-way, a value so far would be of part of it (at 4.5 ms of 0-10 ms, not the answer).
    #[test]
    fn an_exercise_is_measured_over_its_whole_interval_or_not_at_all() {
        let s = fig2(10);
        let mut d = Driver::new(&s, true, Vec::new()).unwrap();
        let m = Measurement {
            metric: ibcc_core::sim::Metric::LinkRate { link: "A->B".into() },
            from_ns: None,
            to_ns: None,
        };
        d.seek(4_500_000_000, None);
        until_idle(&mut d);
        let early = d.measure(&m).unwrap_err();
        assert_eq!(early, "the run is at 4.500 ms, and the answer is measured up to 10 ms");
        let part = Measurement { to_ns: Some(4_000_000), ..m.clone() };
        assert!(d.measure(&part).is_ok(), "an interval the run has passed is measured");
        d.seek(10_000_000_000, None);
        until_idle(&mut d);
        let whole = d.measure(&m).unwrap();
        assert!(whole > 0.0 && whole <= 1.0, "{whole}");
    }

    #[test]
    fn a_scrub_ends_where_it_is_let_go() {
        // A drag along the timeline: seeks one after another, each interrupting the last part-way.
        let s = fig2(10);
        let mut d = Driver::new(&s, true, Vec::new()).unwrap();
        d.play(None, 0.0);
        until_idle(&mut d);
        let c = clock();
        for ms in [9, 5, 4, 3, 2] {
            d.seek(ms * 1_000_000_000 + 123_456, None);
            d.tick(&c, 2.0);
        }
        until_idle(&mut d);
        assert_eq!(d.now_ps(), 2_000_123_456);
        assert_eq!(d.status(), Status::Paused);
    }

    /// A pause or a play that comes with (or during) a seek keeps the seek's target: the run stops, or plays on,
    /// where the page shows it, not at the checkpoint the seek replays from.
    #[test]
    fn pause_or_play_during_a_seek_keep_its_target() {
        let s = fig2(10);
        let mut d = Driver::new(&s, true, Vec::new()).unwrap();
        d.seek(8_000_000_000, None);
        until_idle(&mut d);
        let c = clock();
        d.seek(5_500_000_000, Some(None));
        d.pause();
        until_idle(&mut d);
        assert_eq!((d.now_ps(), d.status()), (5_500_000_000, Status::Paused));
        // Under way: back to the checkpoint before 2.51 ms, part of the replay done, then a pause.
        d.seek(2_510_000_000, None);
        d.tick(&c, 1.0);
        assert_eq!(d.status(), Status::Seeking);
        d.pause();
        until_idle(&mut d);
        assert_eq!((d.now_ps(), d.status()), (2_510_000_000, Status::Paused));
        d.seek(3_000_000_000, None);
        d.play(None, 0.0);
        until_idle(&mut d);
        assert!(d.run.is_finished(), "played on from the target to the end");
        assert_eq!(d.frame(0.0).seeks, 4, "frames say how many seeks came");
    }

    #[test]
    fn a_marking_change_is_replayed_where_it_was_made() {
        let s = fig2(6);
        let mut marked = s.clone();
        // (A change asked for while a seek is under way applies where the seek goes: see the protocol's tests.)
        marked.marking.policy = MarkingPolicy::Naive;
        marked.source.response = ibcc_core::scenario::Response::None;

        let mut d = Driver::new(&s, true, Vec::new()).unwrap();
        d.seek(2_000_000_000, None);
        until_idle(&mut d);
        d.retune(&marked).unwrap();
        assert_eq!(d.horizon_ps(), 2_000_000_000, "what came after the change is dropped");
        d.seek(5_000_000_000, None);
        until_idle(&mut d);
        let want = d.frame(0.0);
        let marks = |f: &FrameMsg| f.results.as_ref().unwrap().totals.marked_packets;
        assert!(marks(&want) > 0, "naive marking marks");
        assert_eq!(want.retunes_ps, [2_000_000_000]);
        // Back before the change: unmarked; forward again: the change applies at 2 ms as before.
        d.seek(1_000_000_000, None);
        until_idle(&mut d);
        assert_eq!(d.scenario().marking.policy, MarkingPolicy::None);
        assert_eq!(marks(&d.frame(0.0)), 0);
        d.seek(5_000_000_000, None);
        until_idle(&mut d);
        let again = d.frame(0.0);
        assert_eq!((&again.frame, &again.results), (&want.frame, &want.results));
        // A change the model cannot make during a run is refused and nothing moves.
        let mut other = marked.clone();
        other.switch.buffer_packets = 8;
        assert!(d.retune(&other).is_err());
        assert_eq!(d.now_ps(), 5_000_000_000);
    }

    #[test]
    fn playing_at_a_speed_follows_the_wall_clock_and_stops_at_the_end() {
        let s = fig2(2);
        let mut d = Driver::new(&s, false, Vec::new()).unwrap();
        assert_eq!(d.checkpoints(), 0);
        // 1 ms/s: 100 ms of wall time is 0.1 ms simulated.
        d.play(Some(1_000_000_000), 0.0);
        let at = |ms: f64| move || ms;
        assert_eq!(d.tick(&at(100.0), 50.0), Some(8.0), "caught up: wait for the wall clock");
        assert_eq!(d.now_ps(), 100_000_000);
        assert_eq!(d.status(), Status::Playing);
        d.pause();
        assert_eq!(d.tick(&at(5000.0), 50.0), None);
        assert_eq!(d.now_ps(), 100_000_000, "paused: the time stands");
        d.play(None, 5000.0);
        until_idle(&mut d);
        assert_eq!(d.status(), Status::Finished);
        assert_eq!(d.now_ps(), d.end_ps());
        d.play(None, 0.0);
        assert_eq!(d.status(), Status::Finished, "a finished run does not play");
    }

    #[test]
    fn curves_come_when_due_and_whenever_the_run_stops() {
        let s = fig2(2);
        let mut d = Driver::new(&s, true, Vec::new()).unwrap();
        let first = d.frame(0.0);
        assert!(first.curves.is_some(), "the first frame has them");
        assert_eq!(
            first.paths.as_deref().map(unpack_paths).as_deref(),
            Some(d.run.paths()),
            "and the flows' paths, once"
        );
        let second = d.frame(10.0);
        assert!(second.curves.is_none(), "paused, nothing changed");
        assert_eq!(second.paths, None, "the paths never change");
        d.play(Some(1_000_000_000), 10.0);
        let at = |ms: f64| move || ms;
        d.tick(&at(50.0), 5.0);
        assert!(d.frame(50.0).curves.is_some(), "playing begins with them");
        d.tick(&at(60.0), 5.0);
        let f = d.frame(60.0);
        assert!(f.curves.is_none() && f.results.is_none(), "less than 100 ms later: not yet, nor the results");
        d.pause();
        let f = d.frame(61.0);
        assert!(f.curves.is_some() && f.results.is_some(), "a pause shows the curves up to where it stops");
        d.set_plot(PlotKind::Buffers, None);
        let f = d.frame(20.0);
        assert_eq!(f.kind, PlotKind::Buffers);
        assert!(f.curves.is_some(), "a new plot kind");
        d.seek(1_000_000_000, None);
        let f = d.frame(30.0);
        assert!(f.curves.is_some(), "a seek redraws them");
    }

    #[test]
    fn checkpoints_fit_the_memory_budget() {
        let fig2 = find("infocom03-fig2").unwrap().scenario();
        assert_eq!(checkpoint_every_ps(&fig2), fig2.duration_ns * 1000 / MAX_CHECKPOINTS, "small: as many as allowed");
        let big = ibcc_core::presets::fat_tree_hotspot(8, "", 500_000_000);
        let every = checkpoint_every_ps(&big);
        let n = big.duration_ns * 1000 / every;
        assert!(n as usize * checkpoint_bytes(&big) <= CHECKPOINT_BUDGET, "{n}");
        let huge = ibcc_core::presets::fat_tree_hotspot(16, "", 2_000_000_000);
        assert_eq!(checkpoint_every_ps(&huge), huge.duration_ns * 1000, "one checkpoint: the one at 0");
    }
}
