//! What the page and its simulation worker say to each other: the page's messages as JSON values in the binary
//! form of [`crate::jsonbin`] (the worker reads no JSON text), the worker's in the binary form of [`ibcc_core::wire`].
//! The worker owns the run (a
//! [`Driver`]) and sends small frames; the page acknowledges each frame before the next is sent, so a busy page
//! gets fewer frames while the simulation keeps its pace. Sweep points go to workers of their own with `Sweep`.
//! Pure Rust, tested natively; `bin/worker.rs` is the worker's side.

use crate::driver::{Driver, FrameMsg, Speed};
use crate::session::PaperNumber;
use ibcc_core::scenario::Scenario;
use ibcc_core::sim::congestion_impact::{CanaryRun, CanaryRunner};
use ibcc_core::sim::{Measurement, Report, Results, Simulation};
use ibcc_core::workload::gpcnet::{Canary, GpcnetConfig};
use ibcc_view::names::PlotKind;
use serde::{Deserialize, Serialize};

/// From the page to the worker.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum ToWorker {
    /// A new run at time 0, paused (`checkpoints`: keep them, so the timeline can go back). `run` names it:
    /// every reply about it carries the name, so the page can drop what a run it replaced still sent.
    Load {
        run: u32,
        /// The worker routes it: routing a large fabric takes longer than a frame, so the page carries no routing
        /// engine and only checks what it can without one (`Scenario::check`).
        scenario: Box<Scenario>,
        checkpoints: bool,
        /// The paper's numbers to set beside the run's (`session::paper_numbers`).
        papers: Vec<PaperNumber>,
    },
    /// Stop the run (the page's scenario was refused): nothing more is sent about it.
    Unload,
    Play {
        speed: Speed,
    },
    Pause,
    /// Go to this simulated time, then pause (`then: None`) or play at a speed.
    Seek {
        to_ps: u64,
        then: Option<Speed>,
    },
    /// Play from `from_ps` at `speed` and pause at exactly `until_ps` (a lesson's "watch it happen").
    Watch {
        from_ps: u64,
        speed: Speed,
        until_ps: u64,
    },
    /// A marking change from now on.
    Retune {
        scenario: Box<Scenario>,
    },
    /// What the plot shows: its kind, and for the rates a link to show first (the link a lesson step points at).
    Plot {
        kind: PlotKind,
        #[serde(default)]
        link: Option<u32>,
    },
    Measure {
        id: u32,
        measurement: Measurement,
    },
    /// The page has drawn the last frame: the next may come.
    Ack,
    /// Run a sweep point to its end.
    Sweep {
        id: u64,
        scenario: Box<Scenario>,
    },
    /// The fingerprints of these runs (`crate::selftest`; the page sends `presets::golden_runs`), by name.
    Fingerprints {
        runs: Vec<(String, Scenario)>,
    },
    /// The benchmark's scenarios (`crate::selftest`; the page sends `presets::bench_scenarios`), by name.
    Bench {
        scenarios: Vec<(String, Scenario)>,
    },
    /// Time OpenSM's engines (`crate::selftest::routing`).
    RoutingBench,
    /// The load of a traffic pattern (`Pattern::parse`: `shift:K`, `hotspot:K`...) on the scenario's network
    /// under its routing (`ibcc_core::sim::pattern_load`); random patterns are drawn from `seed`.
    Pattern {
        scenario: Box<Scenario>,
        pattern: String,
        seed: u64,
    },
    /// The route from host `from` to host `to` under the scenario's routing, as `ibtracert` prints it.
    Trace {
        scenario: Box<Scenario>,
        from: String,
        to: String,
    },
    /// A credit loop the scenario's routes can close (`Scenario::credit_loop`).
    CreditLoop {
        scenario: Box<Scenario>,
    },
    /// Run one GPCNeT canary test on the scenario's network, isolated or congested, reporting progress as it goes
    /// (the congestion impact view; `ibcc_core::sim::congestion_impact`).
    Canary {
        id: u64,
        scenario: Box<Scenario>,
        config: GpcnetConfig,
        canary: Canary,
        congested: bool,
    },
    /// The routes GPCNeT's congestors and canaries take on the scenario's network (the canary test's pairs and
    /// every congestor's, as host pairs).
    GpcnetRoutes {
        scenario: Box<Scenario>,
        config: GpcnetConfig,
    },
}

/// From the worker to the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum FromWorker {
    /// The run could not be built (the scenario is refused), or the page sent what the worker cannot read.
    LoadError {
        run: u32,
        error: String,
    },
    Frame {
        run: u32,
        frame: Box<FrameMsg>,
    },
    /// A marking change was applied at `at_ps`, or needs a new run (why).
    Retuned {
        run: u32,
        at_ps: u64,
        needs_restart: Option<String>,
    },
    Measured {
        run: u32,
        id: u32,
        value: Result<f64, String>,
    },
    Swept {
        id: u64,
        results: Result<Box<Results>, String>,
    },
    /// The fingerprints of a `Fingerprints`' runs, in its order.
    Fingerprinted {
        lines: Result<Vec<(String, u64)>, String>,
    },
    /// The benchmark's runs (`crate::selftest`).
    Benched {
        rows: Vec<crate::selftest::BenchRow>,
    },
    RoutingBenched {
        rows: Vec<crate::selftest::RoutingRow>,
    },
    /// A `Pattern`'s pairs and load, or why not.
    Patterned {
        load: Result<PatternLoad, String>,
    },
    /// A `Trace`'s route: its `ibtracert` text and its channels (as a pattern of one pair), or why there is none.
    Traced {
        route: Result<(String, PatternLoad), String>,
    },
    /// A `CreditLoop`'s cycle: its link directions in order, its lane, and its channels (once each, as a pattern
    /// draws them); `None` if there is none.
    CreditLooped {
        found: Result<Looped, String>,
    },
    /// How far a `Canary` run is (a share from 0 to 1) and its simulated time.
    CanaryProgress {
        id: u64,
        done: f64,
        simulated_ns: u64,
    },
    CanaryRan {
        id: u64,
        run: Result<Box<CanaryRun>, String>,
    },
    /// A `GpcnetRoutes`' loads: the congestors' routes, then the canaries'.
    GpcnetRouted {
        loads: Result<(PatternLoad, PatternLoad), String>,
    },
}

/// A traffic pattern on a network: its pairs of hosts (in the order of the scenario's hosts) and the routes on each
/// channel (link `i`: `2i` from `a` to `b`, `2i + 1` back).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PatternLoad {
    pub pairs: Vec<(u32, u32)>,
    pub routes: Vec<u32>,
    /// The most routes on one channel, the mean over the channels used, and each flow's share of a link (the mean
    /// of 1 / the routes on its busiest channel).
    pub max: u32,
    pub mean: f64,
    pub share: f64,
    /// Pairs with no route.
    pub lost: u32,
    /// What the routing engine said of the network: updn's roots, a fallback to minhop.
    pub notes: Vec<String>,
}

/// What the worker answers to `ToWorker::Pattern`.
fn pattern_load(s: &Scenario, pattern: &str, seed: u64) -> Result<PatternLoad, String> {
    let p = ibcc_core::fabric::patterns::Pattern::parse(pattern)?;
    pairs_load(s, ibcc_core::sim::pattern_load::pairs(s, p, seed)?)
}

/// What the worker answers to `ToWorker::Trace`.
fn trace(s: &Scenario, from: &str, to: &str) -> Result<(String, PatternLoad), String> {
    let text = s.tracert(from, to)?;
    let hosts = ibcc_core::sim::pattern_load::hosts(s);
    let at = |id: &str| hosts.iter().position(|h| *h == id).unwrap_or(0);
    Ok((text, pairs_load(s, vec![(at(from), at(to))])?))
}

/// A credit loop (its links, VL and the drawing's marks), if there is one, and what the engine said.
pub type Looped = (Option<(ibcc_core::scenario::LinkCycle, u8, PatternLoad)>, Vec<String>);

/// What the worker answers to `ToWorker::CreditLoop`.
fn credit_loop(s: &Scenario) -> Result<Looped, String> {
    let (found, notes) = s.credit_loop()?;
    let Some((cycle, lane)) = found else { return Ok((None, notes)) };
    let mut routes = vec![0u32; 2 * s.links.len()];
    for (a, b) in &cycle {
        let along = s.links.iter().position(|l| l.a == *a && l.b == *b).map(|i| 2 * i);
        let back = || s.links.iter().position(|l| l.a == *b && l.b == *a).map(|i| 2 * i + 1);
        if let Some(c) = along.or_else(back) {
            routes[c] = 1;
        }
    }
    let load = PatternLoad { pairs: Vec::new(), routes, max: 1, mean: 1.0, share: 1.0, lost: 0, notes: Vec::new() };
    Ok((Some((cycle, lane, load)), notes))
}

/// What the worker answers to `ToWorker::GpcnetRoutes`: the host pairs every congestor's and the canaries'
/// processes message across the network (as GPCNeT places them, all three canary tests'), as two loads.
fn gpcnet_routes(s: &Scenario, config: &GpcnetConfig) -> Result<(PatternLoad, PatternLoad), String> {
    use ibcc_core::workload::gpcnet;
    let hosts = ibcc_core::sim::congestion_impact::gpcnet_hosts(s);
    let place = gpcnet::placement(hosts.len(), config.congestor_fraction, config.seed)?;
    let one = GpcnetConfig { processes_per_node: 1, ..config.clone() };
    let (mut congestors, mut canaries) = (Vec::new(), Vec::new());
    for canary in Canary::ALL {
        let w = gpcnet::workload(&hosts, &one, &place, canary, true)?;
        for (a, b) in w.network_pairs() {
            let pair = (a as usize, b as usize);
            if w.group(a as usize) == "canary" {
                canaries.push(pair);
            } else {
                congestors.push(pair);
            }
        }
    }
    for pairs in [&mut congestors, &mut canaries] {
        pairs.sort_unstable();
        pairs.dedup();
    }
    Ok((pairs_load(s, congestors)?, pairs_load(s, canaries)?))
}

fn pairs_load(s: &Scenario, pairs: Vec<(usize, usize)>) -> Result<PatternLoad, String> {
    let (load, notes) = ibcc_core::sim::pattern_load::load(s, &pairs).map_err(|e| e.to_string())?;
    Ok(PatternLoad {
        pairs: pairs.iter().map(|&(a, b)| (a as u32, b as u32)).collect(),
        routes: load.routes,
        max: load.max,
        mean: load.mean,
        share: load.share,
        lost: load.lost as u32,
        notes,
    })
}

impl ToWorker {
    /// The message as the page sends it: its JSON value (made through the page's one JSON path) in binary.
    pub fn to_bytes(&self) -> Vec<u8> {
        crate::jsonbin::to_bytes(&ibcc_core::scenario::to_value(self))
    }

    /// A message from its bytes (the worker's side).
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        crate::jsonbin::from_bytes(bytes).map_err(|e| e.0)
    }
}

impl FromWorker {
    pub fn to_bytes(&self) -> Vec<u8> {
        ibcc_core::wire::to_bytes(self).unwrap_or_default()
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<Self, String> {
        ibcc_core::wire::from_bytes(bytes)
            .map_err(|e| format!("a message from the simulation worker could not be read: {e}"))
    }
}

/// The worker's state: the run it drives, and whether the page is ready for a frame.
#[derive(Debug, Default)]
pub struct Worker {
    pub driver: Option<Driver>,
    /// The name of the run the driver drives (the last `Load`'s).
    run: u32,
    /// The page has acknowledged the last frame.
    ready: bool,
    /// Wall ms of the last frame sent.
    last_frame_ms: f64,
    /// A `Canary` run under way (a worker of the congestion impact view runs one at a time), its id, and the wall
    /// ms of its last progress report.
    canary: Option<(u64, Box<CanaryRunner>, f64)>,
}

/// Wall ms between a canary run's progress reports at most.
pub const PROGRESS_MS: f64 = 250.0;

/// Wall ms between frames at most (the page's display rate).
pub const FRAME_MS: f64 = 16.0;

/// Wall ms between frames at most when the run goes as fast as it can: each frame costs the worker its making and
/// the page its drawing, and on two cores the page's share is taken from the simulation. Ten a second still show
/// the run moving; a large fabric at sixty kept the simulation at three fifths of its speed.
pub const FLAT_OUT_FRAME_MS: f64 = 100.0;

impl Worker {
    pub fn new() -> Self {
        Self { driver: None, run: 0, ready: true, last_frame_ms: f64::NEG_INFINITY, canary: None }
    }

    /// Handles a message from the page (`clock`: wall ms); returns the replies to send at once.
    pub fn handle(&mut self, bytes: &[u8], clock: &dyn Fn() -> f64) -> Vec<FromWorker> {
        let wall_ms = clock();
        let msg = match ToWorker::from_bytes(bytes) {
            Ok(m) => m,
            Err(e) => {
                let error = format!("the page sent a message the worker cannot read: {e}");
                return vec![FromWorker::LoadError { run: self.run, error }];
            }
        };
        let run = self.run;
        let mut out = Vec::new();
        match msg {
            ToWorker::Load { run, scenario, checkpoints, papers } => {
                self.run = run;
                self.ready = true;
                match Driver::new(&scenario, checkpoints, papers) {
                    Ok(d) => self.driver = Some(d),
                    Err(error) => {
                        self.driver = None;
                        out.push(FromWorker::LoadError { run, error });
                    }
                }
            }
            ToWorker::Unload => self.driver = None,
            ToWorker::Ack => self.ready = true,
            ToWorker::Sweep { id, scenario } => {
                let sim = Simulation::new(&scenario).map_err(|e| e.to_string());
                let results = sim.map(|mut sim| {
                    let mut report = Report::new(&sim);
                    crate::session::run_to_end(&mut sim, &mut report, None);
                    Box::new(report.results(&sim))
                });
                out.push(FromWorker::Swept { id, results });
            }
            ToWorker::Fingerprints { runs } => {
                out.push(FromWorker::Fingerprinted { lines: crate::selftest::fingerprints(&runs) })
            }
            ToWorker::Bench { scenarios } => {
                out.push(FromWorker::Benched { rows: crate::selftest::bench(&scenarios, clock) })
            }
            ToWorker::RoutingBench => out.push(FromWorker::RoutingBenched { rows: crate::selftest::routing(clock) }),
            ToWorker::Pattern { scenario, pattern, seed } => {
                out.push(FromWorker::Patterned { load: pattern_load(&scenario, &pattern, seed) })
            }
            ToWorker::Trace { scenario, from, to } => {
                out.push(FromWorker::Traced { route: trace(&scenario, &from, &to) })
            }
            ToWorker::CreditLoop { scenario } => out.push(FromWorker::CreditLooped { found: credit_loop(&scenario) }),
            ToWorker::Canary { id, scenario, config, canary, congested } => {
                match CanaryRunner::new(&scenario, &config, canary, congested) {
                    Ok(r) => self.canary = Some((id, Box::new(r), wall_ms)),
                    Err(e) => out.push(FromWorker::CanaryRan { id, run: Err(e) }),
                }
            }
            ToWorker::GpcnetRoutes { scenario, config } => {
                out.push(FromWorker::GpcnetRouted { loads: gpcnet_routes(&scenario, &config) })
            }
            ToWorker::Measure { id, .. } if self.driver.is_none() => {
                let value = Err("there is no run to measure".to_owned());
                out.push(FromWorker::Measured { run, id, value });
            }
            other => {
                let Some(d) = self.driver.as_mut() else { return out };
                match other {
                    ToWorker::Play { speed } => d.play(speed, wall_ms),
                    ToWorker::Pause => d.pause(),
                    ToWorker::Seek { to_ps, then } => d.seek(to_ps, then),
                    ToWorker::Watch { from_ps, speed, until_ps } => d.watch(from_ps, speed, until_ps),
                    ToWorker::Retune { scenario } => {
                        let needs_restart = d.retune(&scenario).err().map(|why| why.0.to_owned());
                        out.push(FromWorker::Retuned { run, at_ps: d.now_ps(), needs_restart });
                    }
                    ToWorker::Plot { kind, link } => d.set_plot(kind, link),
                    ToWorker::Measure { id, measurement } => {
                        out.push(FromWorker::Measured { run, id, value: d.measure(&measurement) })
                    }
                    ToWorker::Load { .. }
                    | ToWorker::Unload
                    | ToWorker::Ack
                    | ToWorker::Sweep { .. }
                    | ToWorker::Fingerprints { .. }
                    | ToWorker::Bench { .. }
                    | ToWorker::RoutingBench
                    | ToWorker::Pattern { .. }
                    | ToWorker::Trace { .. }
                    | ToWorker::CreditLoop { .. }
                    | ToWorker::Canary { .. }
                    | ToWorker::GpcnetRoutes { .. } => {}
                }
            }
        }
        out
    }

    /// Works for up to `budget_ms`; returns a frame if one is due, and when to be called again (`None`: when a
    /// message comes; an acknowledgement is one).
    pub fn work(&mut self, clock: &dyn Fn() -> f64, budget_ms: f64) -> (Option<FromWorker>, Option<f64>) {
        if self.canary.is_some() {
            return self.work_canary(clock, budget_ms);
        }
        let Some(d) = self.driver.as_mut() else { return (None, None) };
        let mut again = d.tick(clock, budget_ms);
        let now = clock();
        let mut frame = None;
        if d.dirty() && self.ready {
            let gap = if d.flat_out() { FLAT_OUT_FRAME_MS } else { FRAME_MS };
            if now - self.last_frame_ms >= gap {
                frame = Some(FromWorker::Frame { run: self.run, frame: Box::new(d.frame(now)) });
                self.ready = false;
                self.last_frame_ms = now;
            } else {
                // Too soon after the last one: come back when it is due.
                let due = self.last_frame_ms + gap - now;
                again = Some(again.map_or(due, |a| a.min(due)));
            }
        }
        (frame, again)
    }
}

impl Worker {
    /// Steps the canary run for up to `budget_ms`: its result once over, else its progress if one is due.
    fn work_canary(&mut self, clock: &dyn Fn() -> f64, budget_ms: f64) -> (Option<FromWorker>, Option<f64>) {
        let Some((id, run, last)) = self.canary.as_mut() else { return (None, None) };
        let start = clock();
        // At least one step a slice, however slow the clock says the last one was.
        let mut over = run.step();
        while !over && clock() - start < budget_ms {
            over = run.step();
        }
        let id = *id;
        if over {
            let (_, run, _) = self.canary.take().expect("a run under way");
            return (Some(FromWorker::CanaryRan { id, run: run.finish().map(Box::new) }), None);
        }
        let now = clock();
        let report = (now - *last >= PROGRESS_MS).then(|| {
            *last = now;
            FromWorker::CanaryProgress { id, done: run.progress(), simulated_ns: run.simulated_ns() }
        });
        (report, Some(0.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ibcc_core::presets::find;

    #[test]
    fn messages_round_trip() {
        let s = find("infocom03-fig2").unwrap().scenario();
        let papers = crate::session::paper_numbers(&s);
        assert_eq!(papers.len(), 2, "Fig. 2's two numbers go with it");
        let m = ToWorker::Load { run: 3, scenario: Box::new(s), checkpoints: true, papers };
        assert_eq!(ToWorker::from_bytes(&m.to_bytes()).unwrap(), m);
        let r = FromWorker::Retuned { run: 3, at_ps: 5, needs_restart: Some("why".into()) };
        assert_eq!(FromWorker::from_bytes(&r.to_bytes()).unwrap(), r);
        assert!(FromWorker::from_bytes(&[9]).unwrap_err().contains("could not be read"));
    }

    /// Every message the worker sends reads back as it was (frames, results, errors: the wire format's rule on
    /// skipped fields holds for all of them).
    fn trip(m: &FromWorker) {
        assert_eq!(&FromWorker::from_bytes(&m.to_bytes()).unwrap(), m);
    }

    #[test]
    fn the_worker_runs_sends_frames_when_acknowledged_and_answers() {
        let mut s = find("infocom03-fig2").unwrap().scenario();
        s.duration_ns = 1_000_000;
        s.measure.from_ns = 0;
        s.measure.to_ns = None;
        let mut w = Worker::new();
        let clock = || 1000.0;
        assert!(w
            .handle(
                &ToWorker::Load { run: 4, scenario: Box::new(s.clone()), checkpoints: true, papers: Vec::new() }
                    .to_bytes(),
                &|| 0.0
            )
            .is_empty());
        let (frame, again) = w.work(&clock, 5.0);
        assert!(matches!(frame, Some(FromWorker::Frame { run: 4, .. })), "the first frame of the new run, named");
        assert_eq!(again, None, "paused: nothing to do until told");
        w.handle(&ToWorker::Seek { to_ps: 500_000_000, then: None }.to_bytes(), &|| 0.0);
        let (frame, again) = w.work(&clock, 5.0);
        assert!(frame.is_none(), "not acknowledged yet");
        assert_eq!(again, None, "there (this clock never runs out of budget); the acknowledgement wakes it");
        w.handle(&ToWorker::Ack.to_bytes(), &|| 0.0);
        let mut later = 1000.0;
        let mut last = None;
        for _ in 0..1000 {
            later += 20.0;
            let t = later;
            let (f, again) = w.work(&move || t, 5.0);
            if let Some(m) = &f {
                trip(m);
            }
            if let Some(FromWorker::Frame { frame: f, .. }) = f {
                w.handle(&ToWorker::Ack.to_bytes(), &move || t);
                last = Some(f);
            }
            if again.is_none() {
                break;
            }
        }
        let last = last.unwrap();
        assert_eq!(last.time_ps, 500_000_000);
        assert_eq!(last.status, crate::driver::Status::Paused);
        // (Over the half of the run it has covered: the whole run's interval has no value until its end.)
        let m = Measurement {
            metric: ibcc_core::sim::Metric::GroupRate { group: "local".into() },
            from_ns: None,
            to_ns: Some(500_000),
        };
        let replies = w.handle(&ToWorker::Measure { id: 7, measurement: m }.to_bytes(), &|| 0.0);
        replies.iter().for_each(trip);
        assert!(matches!(&replies[..], [FromWorker::Measured { run: 4, id: 7, value: Ok(_) }]));
        let empty = Box::new(Scenario::empty("x", 0));
        let bad = w.handle(
            &ToWorker::Load { run: 5, scenario: empty, checkpoints: true, papers: Vec::new() }.to_bytes(),
            &|| 0.0,
        );
        assert!(matches!(&bad[..], [FromWorker::LoadError { run: 5, .. }]));
        bad.iter().for_each(trip);
        let swept = w.handle(&ToWorker::Sweep { id: 9, scenario: Box::new(s.clone()) }.to_bytes(), &|| 0.0);
        assert!(matches!(&swept[..], [FromWorker::Swept { id: 9, results: Ok(_) }]));
        swept.iter().for_each(trip);
        let m = Measurement {
            metric: ibcc_core::sim::Metric::GroupRate { group: "local".into() },
            from_ns: None,
            to_ns: None,
        };
        let replies = w.handle(&ToWorker::Measure { id: 8, measurement: m }.to_bytes(), &|| 0.0);
        assert!(
            matches!(&replies[..], [FromWorker::Measured { run: 5, id: 8, value: Err(_) }]),
            "a measurement with no run gets an answer, so nothing waits for ever"
        );
        assert!(
            matches!(&w.handle(b"nonsense", &|| 0.0)[..], [FromWorker::LoadError { error, .. }] if error.contains("cannot read"))
        );
        w.handle(
            &ToWorker::Load { run: 6, scenario: Box::new(s), checkpoints: false, papers: Vec::new() }.to_bytes(),
            &|| 0.0,
        );
        w.handle(&ToWorker::Play { speed: None }.to_bytes(), &|| 0.0);
        w.handle(&ToWorker::Unload.to_bytes(), &|| 0.0);
        assert!(matches!(w.work(&clock, 5.0), (None, None)), "unloaded: no frames, no work");
    }

    #[test]
    fn a_pattern_s_load_comes_back_through_the_wire_or_its_refusal() {
        let mut w = Worker::default();
        let s = find("fattree4-hotspot").unwrap().scenario();
        let ask = |pattern: &str| ToWorker::Pattern { scenario: Box::new(s.clone()), pattern: pattern.into(), seed: 1 };
        let replies = w.handle(&ask("shift:4").to_bytes(), &|| 0.0);
        let back = FromWorker::from_bytes(&replies[0].to_bytes()).unwrap();
        let FromWorker::Patterned { load: Ok(load) } = back else { panic!("{back:?}") };
        assert_eq!(load.pairs.len(), 16);
        assert_eq!(load.routes.len(), 2 * s.links.len());
        assert_eq!(load.max, *load.routes.iter().max().unwrap());
        let replies = w.handle(&ask("shift:16").to_bytes(), &|| 0.0);
        assert!(matches!(&replies[..], [FromWorker::Patterned { load: Err(e) }] if e.contains("to itself")));
        // A route: its text, and its channels as a pattern of one pair (each once).
        let trace = |to: &str| ToWorker::Trace { scenario: Box::new(s.clone()), from: "h0".into(), to: to.into() };
        let replies = w.handle(&trace("h15").to_bytes(), &|| 0.0);
        let FromWorker::Traced { route: Ok((text, load)) } = FromWorker::from_bytes(&replies[0].to_bytes()).unwrap()
        else {
            panic!("{replies:?}")
        };
        assert_eq!(text, s.tracert("h0", "h15").unwrap());
        assert_eq!(load.routes.iter().sum::<u32>() as usize, text.lines().count() - 2, "a channel a port entered");
        let replies = w.handle(&trace("c0").to_bytes(), &|| 0.0);
        assert!(matches!(&replies[..], [FromWorker::Traced { route: Err(e) }] if e.contains("is a switch")));
        // A credit loop: none on the fat tree; a ring's, each of its links marked once.
        let mut check =
            |s: &Scenario| w.handle(&ToWorker::CreditLoop { scenario: Box::new(s.clone()) }.to_bytes(), &|| 0.0);
        assert!(matches!(&check(&s)[..], [FromWorker::CreditLooped { found: Ok((None, _)) }]));
        let f = ibcc_core::fabric::shapes::ring(6, 1, (ibcc_core::fabric::Width::X4, ibcc_core::fabric::Speed::Sdr));
        let ring = ibcc_core::scenario::scenario_of("ring", &ibcc_core::fabric::write_net(&f.unwrap()), 1).unwrap();
        let replies = check(&ring);
        let [FromWorker::CreditLooped { found: Ok((Some((cycle, 0, load)), _)) }] = &replies[..] else {
            panic!("{replies:?}")
        };
        assert_eq!(cycle.len(), 6);
        assert_eq!(load.routes.iter().sum::<u32>(), 6);
    }

    /// A canary run in a worker: its progress climbs as the clock advances, and its result, read back from the
    /// wire, is `run_canary`'s. A bad network is refused at once, by name.
    #[test]
    fn a_canary_run_reports_progress_and_ends_with_the_native_result() {
        let s = find("fabric32-hotspot").unwrap().scenario();
        let net = s.network_only();
        let config = GpcnetConfig::default();
        let mut w = Worker::new();
        let ask = ToWorker::Canary {
            id: 3,
            scenario: Box::new(net.clone()),
            config: config.clone(),
            canary: Canary::Latency,
            congested: true,
        };
        assert!(w.handle(&ask.to_bytes(), &|| 0.0).is_empty());
        // The clock moves 20 ms each time it is read: a slice of a 5 ms budget runs one step.
        let t = core::cell::Cell::new(0.0);
        let clock = || {
            t.set(t.get() + 20.0);
            t.get()
        };
        let (mut seen, mut result) = (Vec::new(), None);
        for _ in 0..1_000_000 {
            let (m, again) = w.work(&clock, 5.0);
            match m {
                Some(FromWorker::CanaryProgress { id: 3, done, .. }) => seen.push(done),
                Some(m @ FromWorker::CanaryRan { .. }) => {
                    trip(&m);
                    result = Some(m);
                    assert_eq!(again, None);
                    break;
                }
                other => assert!(other.is_none() && again.is_some(), "{other:?} {again:?}"),
            }
        }
        assert!(!seen.is_empty() && seen.windows(2).all(|p| p[0] <= p[1]) && seen.iter().all(|&d| d < 1.0), "{seen:?}");
        let Some(FromWorker::CanaryRan { id: 3, run: Ok(run) }) = result else { panic!("{result:?}") };
        let native = ibcc_core::sim::congestion_impact::run_canary(&net, &config, Canary::Latency, true).unwrap();
        assert_eq!(*run, native);
        let tiny = find("infocom03-fig2").unwrap().scenario();
        let refused = w.handle(
            &ToWorker::Canary { id: 4, scenario: Box::new(tiny), config, canary: Canary::Latency, congested: false }
                .to_bytes(),
            &|| 0.0,
        );
        assert!(
            matches!(&refused[..], [FromWorker::CanaryRan { id: 4, run: Err(e) }] if e.contains("nodes")),
            "{refused:?}"
        );
    }

    /// GPCNeT's routes on a fat tree: the congestors' many, the canaries' fewer, both through the wire.
    #[test]
    fn gpcnet_routes_split_congestors_from_canaries() {
        let s = find("fabric32-hotspot").unwrap().scenario();
        let mut w = Worker::new();
        let ask = ToWorker::GpcnetRoutes { scenario: Box::new(s.clone()), config: GpcnetConfig::default() };
        let replies = w.handle(&ask.to_bytes(), &|| 0.0);
        replies.iter().for_each(trip);
        let [FromWorker::GpcnetRouted { loads: Ok((congestors, canaries)) }] = &replies[..] else {
            panic!("{replies:?}")
        };
        assert_eq!(congestors.routes.len(), 2 * s.links.len());
        // 32 hosts: 25 congestor nodes (an all-to-all among its own among them) and 7 canaries.
        assert!(congestors.pairs.len() > canaries.pairs.len() && !canaries.pairs.is_empty());
        assert_eq!(congestors.lost + canaries.lost, 0);
    }
}
