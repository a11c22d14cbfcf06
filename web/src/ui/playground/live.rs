//! The run as the page sees it, in one place: a reducer fed by the simulation worker's frames (`Live`), and a
//! controller (`Sim`) whose methods start, play, pause, seek, retune and measure the run in the worker. Components
//! reach both through contexts (`use_live`, `use_sim`); the worker keeps the simulation off the main thread.

use super::super::bridge::SimWorker;
use super::super::document::{Doc, Same};
use super::super::share::Moment;
use crate::driver::{FrameMsg, Speed, Status};
use crate::moments::{self, StepSize, SPEEDS};
use crate::protocol::{FromWorker, ToWorker};
use crate::session::same_run;
use ibcc_core::scenario::Scenario;
use ibcc_core::sim::{Measurement, Results};
use ibcc_view::names::PlotKind;
use ibcc_view::plot::Curve;
use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::rc::Rc;
use yew::prelude::*;

/// A message above the canvas about the run, and whether it offers a restart.
#[derive(Debug, Clone, PartialEq)]
pub struct Notice {
    pub text: String,
    pub restart: bool,
}

/// What the page knows of the run.
#[derive(Debug, Clone, PartialEq)]
pub struct Live {
    /// The last frame from the worker.
    pub frame: Option<Rc<FrameMsg>>,
    /// The plot's curves (they come with some frames only).
    pub curves: Rc<Vec<Curve>>,
    /// The measurements so far (they come with the curves).
    pub results: Option<Rc<Results>>,
    /// The scenario the run follows (the document's, unless an edit waits for a restart).
    pub run_scenario: Option<Rc<Scenario>>,
    /// The document differs from the run in a way that needs a restart.
    pub pending: bool,
    pub notice: Option<Notice>,
    pub error: Option<String>,
    /// Index in [`SPEEDS`].
    pub speed: usize,
    pub step: StepSize,
    pub kind: PlotKind,
    /// A time asked for (a seek, a scrub) that no frame shows yet.
    pub seeking_to: Option<u64>,
    /// How far that seek has got (its frames are not shown: the drawing stays at a time the page has shown, so
    /// it never shows a time the timeline does not).
    pub seek_at: Option<u64>,
    /// Seeks sent to this run: a frame answers the last one only when it says it has seen as many.
    pub seeks_sent: u32,
    /// Frames received: the page acknowledges each once drawn.
    pub frames: u64,
    /// Each flow's channels in the run, source to destination (they come with its first frame).
    pub paths: Option<Rc<Vec<Option<Vec<u32>>>>>,
    /// A marking change was applied to this run mid-way: from its document, a new run would not replay it.
    pub retuned: bool,
}

impl Default for Live {
    fn default() -> Self {
        Self {
            frame: None,
            curves: Rc::new(Vec::new()),
            results: None,
            run_scenario: None,
            pending: false,
            notice: None,
            error: None,
            speed: 3,
            step: StepSize::Tenth,
            kind: PlotKind::Rates,
            seeking_to: None,
            seek_at: None,
            seeks_sent: 0,
            frames: 0,
            paths: None,
            retuned: false,
        }
    }
}

impl Live {
    /// The frame to draw on the document `doc`: the run's last, unless a change waiting for a restart has made
    /// another network of it (a change of settings leaves the paused run on the drawing, where the notice says it
    /// is).
    pub fn drawable(&self, doc: &Scenario) -> Option<&Rc<FrameMsg>> {
        let same = || self.run_scenario.as_ref().is_some_and(|r| crate::session::same_network(r, doc));
        self.frame.as_ref().filter(|_| !self.pending || same())
    }

    /// Keeps the flows' paths a frame brings (a run's first).
    fn keep_paths(&mut self, f: &mut FrameMsg) {
        if let Some(p) = f.paths.take() {
            self.paths = Some(Rc::new(crate::driver::unpack_paths(&p)));
        }
    }

    /// The simulated time shown, in ps (a scrub's target while it is on its way).
    pub fn time_ps(&self) -> u64 {
        self.seeking_to.or(self.frame.as_ref().map(|f| f.time_ps)).unwrap_or(0)
    }

    pub fn end_ps(&self) -> u64 {
        self.frame.as_ref().map_or(1, |f| f.end_ps.max(1))
    }

    /// What a share link can carry of where this run stands: its time, when it is paused past 0 and its document
    /// replays it (no change waits for a restart, none was applied mid-way) and no seek is on its way.
    pub fn moment_to_share(&self) -> Moment {
        let Some(f) = self.frame.as_ref() else { return Moment::Start };
        if f.time_ps == 0 || self.pending || self.seeking_to.is_some() {
            Moment::Start
        } else if self.retuned {
            Moment::Changed
        } else if self.playing() {
            Moment::Playing
        } else {
            Moment::At(f.time_ps)
        }
    }

    pub fn status(&self) -> Status {
        self.frame.as_ref().map_or(Status::Paused, |f| f.status)
    }

    pub fn playing(&self) -> bool {
        self.status() == Status::Playing
    }

    pub fn finished(&self) -> bool {
        self.frame.as_ref().is_some_and(|f| f.time_ps >= f.end_ps)
    }

    /// The run has started and not finished: a change of the document applies to it from now (marking) or
    /// waits for a restart.
    pub fn mid_run(&self) -> bool {
        self.frame.as_ref().is_some_and(|f| f.time_ps > 0 && f.time_ps < f.end_ps)
    }

    pub fn speed(&self) -> Speed {
        SPEEDS[self.speed.min(SPEEDS.len() - 1)].1
    }
}

pub enum LiveAction {
    /// A new run of this scenario is being built (at this speed, if it says).
    Loading(Rc<Scenario>, Option<usize>),
    Failed(String),
    Frame(Box<FrameMsg>),
    /// A marking change applied from `at_ps` (now the run's scenario), or refused because it needs a restart.
    Retuned {
        at_ps: u64,
        scenario: Rc<Scenario>,
        needs_restart: Option<String>,
    },
    /// The document is back to what the run runs.
    InStep,
    Speed(usize),
    Step(StepSize),
    Kind(PlotKind),
    Seeking(u64),
    /// Something the page says of the run (a notice the user may dismiss).
    Say(String),
    Dismiss,
}

fn ms(ps: u64) -> f64 {
    ps as f64 / 1e9
}

impl Reducible for Live {
    type Action = LiveAction;

    fn reduce(self: Rc<Self>, action: LiveAction) -> Rc<Self> {
        let mut l = (*self).clone();
        match action {
            LiveAction::Loading(s, speed) => {
                l.run_scenario = Some(s);
                l.pending = false;
                l.notice = None;
                l.error = None;
                l.frame = None;
                l.curves = Rc::new(Vec::new());
                l.results = None;
                l.seeking_to = None;
                l.seek_at = None;
                l.seeks_sent = 0;
                l.paths = None;
                l.retuned = false;
                if let Some(speed) = speed {
                    l.speed = speed;
                }
            }
            LiveAction::Failed(e) => {
                l.error = Some(e);
                l.frame = None;
                l.results = None;
                l.run_scenario = None;
                l.paths = None;
            }
            // (The run's paths come with its first frame, whichever kind it is.)
            LiveAction::Frame(mut f) if f.status == Status::Seeking && l.frame.is_some() => {
                l.seek_at = Some(f.time_ps);
                l.frames += 1;
                l.keep_paths(&mut f);
            }
            LiveAction::Frame(mut f) => {
                l.seek_at = None;
                l.keep_paths(&mut f);
                if let Some(c) = f.curves.take() {
                    l.curves = Rc::new(c);
                }
                if let Some(r) = f.results.take() {
                    l.results = Some(Rc::new(r));
                }
                // (A frame of an earlier seek of a drag does not end the seek the page is waiting for.)
                let answers_last = f.seeks == l.seeks_sent;
                if l.seeking_to.is_some_and(|t| answers_last && (f.status != Status::Seeking || f.time_ps == t)) {
                    l.seeking_to = None;
                }
                l.frame = Some(Rc::new(*f));
                l.frames += 1;
            }
            LiveAction::Retuned { at_ps, scenario, needs_restart } => match needs_restart {
                None => {
                    l.run_scenario = Some(scenario);
                    l.pending = false;
                    l.retuned = true;
                    l.notice = Some(Notice {
                        text: format!("Marking changed at {:.3} ms: it applies from then on.", ms(at_ps)),
                        restart: false,
                    });
                }
                Some(why) => {
                    l.pending = true;
                    l.notice = Some(Notice {
                        text: format!(
                            "This change needs a new run ({why}): the run is paused at {:.3} ms. Restart to apply it, or undo it to carry on.",
                            ms(at_ps)
                        ),
                        restart: true,
                    });
                }
            },
            LiveAction::InStep => {
                l.pending = false;
                if l.notice.as_ref().is_some_and(|n| n.restart) {
                    l.notice = None;
                }
            }
            LiveAction::Speed(i) => l.speed = i.min(SPEEDS.len() - 1),
            LiveAction::Step(s) => l.step = s,
            LiveAction::Kind(k) => l.kind = k,
            LiveAction::Seeking(t) => {
                l.seeking_to = Some(t);
                l.seeks_sent = l.seeks_sent.wrapping_add(1);
            }
            LiveAction::Say(text) => l.notice = Some(Notice { text, restart: false }),
            LiveAction::Dismiss => l.notice = None,
        }
        Rc::new(l)
    }
}

/// Where a measurement's value (or why there is none) goes.
type Measured = Callback<Result<f64, String>>;

/// The controller of the run in the worker.
pub struct Sim {
    worker: RefCell<Option<SimWorker>>,
    /// The worker failed (it crashed or could not load): the next message starts a new one. It is not dropped in
    /// its own error handler, which would free the handler while it runs.
    dead: Rc<Cell<bool>>,
    /// The name of the current run: replies about an earlier one are dropped.
    run: Rc<Cell<u32>>,
    dispatch: UseReducerDispatcher<Live>,
    /// Callbacks waiting for a measurement, by request id.
    measures: Rc<RefCell<BTreeMap<u32, Measured>>>,
    next_id: Cell<u32>,
    /// The scenarios of marking changes sent, in order, until the worker answers each.
    retunes: Rc<RefCell<Vec<Rc<Scenario>>>>,
    kind: Cell<PlotKind>,
    /// The link the rate plot shows first (`ToWorker::Plot`).
    link: Cell<Option<u32>>,
    /// Where the next new run goes once loaded (a lesson step that runs to its moment), and whether it plays there
    /// from its start ("watch it happen") or jumps.
    after_load: Cell<Option<(u64, bool)>>,
}

impl std::fmt::Debug for Sim {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sim")
    }
}

impl Sim {
    pub fn new(dispatch: UseReducerDispatcher<Live>) -> Self {
        Self {
            worker: RefCell::new(None),
            dead: Rc::default(),
            run: Rc::default(),
            dispatch,
            measures: Rc::default(),
            next_id: Cell::new(0),
            retunes: Rc::default(),
            kind: Cell::new(PlotKind::Rates),
            link: Cell::new(None),
            after_load: Cell::new(None),
        }
    }

    fn post(&self, m: &ToWorker) {
        if self.dead.replace(false) {
            self.worker.borrow_mut().take();
        }
        if self.worker.borrow().is_none() {
            self.start();
        }
        if let Some(w) = self.worker.borrow().as_ref() {
            w.post(m);
        }
    }

    fn start(&self) {
        let (dispatch, measures, retunes) = (self.dispatch.clone(), self.measures.clone(), self.retunes.clone());
        let current = self.run.clone();
        let on_message = Callback::from(move |m: FromWorker| match m {
            FromWorker::Frame { run, .. }
            | FromWorker::LoadError { run, .. }
            | FromWorker::Retuned { run, .. }
            | FromWorker::Measured { run, .. }
                if run != current.get() =>
            {
                // About a run the page has since replaced (or unloaded): a measurement waiting for it gets no value.
                if let FromWorker::Measured { id, .. } = m {
                    if let Some(done) = measures.borrow_mut().remove(&id) {
                        done.emit(Err("the run was replaced by a new one".to_owned()));
                    }
                }
            }
            FromWorker::Frame { frame, .. } => dispatch.dispatch(LiveAction::Frame(frame)),
            FromWorker::LoadError { error, .. } => dispatch.dispatch(LiveAction::Failed(error)),
            FromWorker::Retuned { at_ps, needs_restart, .. } => {
                let sent = {
                    let mut r = retunes.borrow_mut();
                    (!r.is_empty()).then(|| r.remove(0))
                };
                if let Some(scenario) = sent {
                    dispatch.dispatch(LiveAction::Retuned { at_ps, scenario, needs_restart });
                }
            }
            FromWorker::Measured { id, value, .. } => {
                if let Some(cb) = measures.borrow_mut().remove(&id) {
                    cb.emit(value);
                }
            }
            FromWorker::Swept { .. }
            | FromWorker::Fingerprinted { .. }
            | FromWorker::Benched { .. }
            | FromWorker::RoutingBenched { .. }
            | FromWorker::Patterned { .. }
            | FromWorker::Traced { .. }
            | FromWorker::CreditLooped { .. }
            | FromWorker::CanaryProgress { .. }
            | FromWorker::CanaryRan { .. }
            | FromWorker::GpcnetRouted { .. } => {}
        });
        let (dispatch, dead, measures) = (self.dispatch.clone(), self.dead.clone(), self.measures.clone());
        let on_error = Callback::from(move |e: String| {
            dead.set(true);
            let waiting = std::mem::take(&mut *measures.borrow_mut());
            for done in waiting.into_values() {
                done.emit(Err("the simulation stopped".to_owned()));
            }
            dispatch.dispatch(LiveAction::Failed(format!("{e}. Press ↺ Reset to start the run again.")))
        });
        match SimWorker::start(on_message, on_error) {
            Ok(w) => *self.worker.borrow_mut() = Some(w),
            Err(e) => self.dispatch.dispatch(LiveAction::Failed(e)),
        }
    }

    /// A new run of `s` from 0, paused; `fresh`: a new scenario, which opens at its own default speed.
    pub fn load(&self, s: &Scenario, fresh: bool) {
        self.retunes.borrow_mut().clear();
        let run = self.run.get().wrapping_add(1);
        self.run.set(run);
        // Measurements of the run replaced get no value.
        let waiting = std::mem::take(&mut *self.measures.borrow_mut());
        for done in waiting.into_values() {
            done.emit(Err("the run was replaced by a new one".to_owned()));
        }
        let speed = fresh.then(|| moments::default_speed(s));
        self.dispatch.dispatch(LiveAction::Loading(Rc::new(s.clone()), speed));
        // The worker routes it (off the main thread) and answers with a LoadError if routing refuses it.
        if let Err(e) = s.check() {
            self.after_load.set(None);
            self.dispatch.dispatch(LiveAction::Failed(e.to_string()));
            if self.worker.borrow().is_some() {
                self.post(&ToWorker::Unload);
            }
            return;
        }
        let papers = crate::session::paper_numbers(s);
        self.post(&ToWorker::Load { run, scenario: Box::new(s.clone()), checkpoints: true, papers });
        self.post(&ToWorker::Plot { kind: self.kind.get(), link: self.link.get() });
        match self.after_load.take() {
            Some((t_ps, false)) => self.seek(t_ps, None),
            Some((t_ps, true)) => self.watch(s, t_ps),
            None => {}
        }
    }

    /// Once the next new run is loaded, goes to `t_ps` and pauses there.
    pub fn then_seek(&self, t_ps: u64) {
        self.after_load.set(Some((t_ps, false)));
    }

    /// Once the next new run is loaded, plays it as [`Sim::watch`] does.
    pub fn then_watch(&self, t_ps: u64) {
        self.after_load.set(Some((t_ps, true)));
    }

    /// Plays the run of `s` from its start at `s`'s own speed (the one that reaches its first key moment in a few
    /// seconds) and pauses at exactly `t_ps`: a lesson's moment, watched as it happens.
    pub fn watch(&self, s: &Scenario, t_ps: u64) {
        let i = moments::default_speed(s);
        self.dispatch.dispatch(LiveAction::Speed(i));
        self.dispatch.dispatch(LiveAction::Seeking(0));
        self.post(&ToWorker::Watch { from_ps: 0, speed: SPEEDS[i].1, until_ps: t_ps });
    }

    pub fn play(&self, speed: Speed) {
        self.post(&ToWorker::Play { speed });
    }

    pub fn pause(&self) {
        self.post(&ToWorker::Pause);
    }

    /// Goes to `t_ps`, then pauses or (`then`) plays on at that speed.
    pub fn seek(&self, t_ps: u64, then: Option<Speed>) {
        self.dispatch.dispatch(LiveAction::Seeking(t_ps));
        self.post(&ToWorker::Seek { to_ps: t_ps, then });
    }

    /// Applies a marking change from now on (the answer comes as `LiveAction::Retuned`).
    pub fn retune(&self, s: &Scenario) {
        self.retunes.borrow_mut().push(Rc::new(s.clone()));
        self.post(&ToWorker::Retune { scenario: Box::new(s.clone()) });
    }

    pub fn set_plot(&self, kind: PlotKind) {
        self.kind.set(kind);
        self.dispatch.dispatch(LiveAction::Kind(kind));
        self.post(&ToWorker::Plot { kind, link: self.link.get() });
    }

    /// Shows link `link` (a channel) first on the rate plot, or none: what a lesson step points at.
    pub fn plot_link(&self, link: Option<u32>) {
        if self.link.replace(link) != link {
            self.post(&ToWorker::Plot { kind: self.kind.get(), link });
        }
    }

    /// Measures the run as it is now; `done` gets the value (or why there is none).
    pub fn measure(&self, m: Measurement, done: Callback<Result<f64, String>>) {
        let id = self.next_id.get();
        self.next_id.set(id.wrapping_add(1));
        self.measures.borrow_mut().insert(id, done);
        self.post(&ToWorker::Measure { id, measurement: m });
    }

    /// The last frame is on screen.
    pub fn ack(&self) {
        if self.worker.borrow().is_some() {
            self.post(&ToWorker::Ack);
        }
    }
}

/// The controller as a context value (compared by identity).
#[derive(Clone)]
pub struct SimCtx(pub Rc<Sim>);

impl PartialEq for SimCtx {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

pub type LiveCtx = UseReducerHandle<Live>;

/// The scenario the run follows, by address: for what changes with the run, not with its frames (a component that
/// reads the whole [`LiveCtx`] re-renders at every frame).
#[derive(Clone, PartialEq)]
pub struct RunCtx(pub Option<Same<Scenario>>);

/// The scenario the run follows.
#[hook]
pub fn use_run_scenario() -> Option<Rc<Scenario>> {
    use_context::<RunCtx>().and_then(|r| r.0.map(|s| s.0))
}

#[hook]
pub fn use_live() -> LiveCtx {
    use_context::<LiveCtx>().expect("the playground provides the run")
}

#[hook]
pub fn use_sim() -> Rc<Sim> {
    use_context::<SimCtx>().expect("the playground provides the controller").0
}

/// The run follows the document: a new scenario (a load) starts a new run; during a run a marking change applies
/// from that moment and anything else waits, with the run paused, for a restart (or for its undo); at time 0 or
/// once finished, any change makes a new run. Used by the app, so it holds whatever view is shown.
#[hook]
pub fn use_run_follows(doc: &Doc, live: &LiveCtx, sim: &Rc<Sim>) {
    let (sim2, live2) = (sim.clone(), live.clone());
    let last_loads = use_mut_ref(|| None::<u32>);
    use_effect_with((Same(doc.scenario.clone()), doc.loads), move |(Same(scenario), loads)| {
        let fresh = *last_loads.borrow() != Some(*loads);
        *last_loads.borrow_mut() = Some(*loads);
        match live2.run_scenario.as_ref() {
            _ if fresh => sim2.load(scenario, true),
            Some(run) if same_run(run, scenario) => {
                if live2.pending {
                    live2.dispatch(LiveAction::InStep);
                }
            }
            Some(_) if live2.mid_run() => sim2.retune(scenario),
            _ => {
                // A finished run gives way to a new one at once: say so, or its results seem to vanish.
                let ended = live2.finished().then(|| live2.time_ps());
                sim2.load(scenario, false);
                if let Some(t) = ended {
                    live2.dispatch(LiveAction::Say(format!(
                        "A new run started with the change; the run that had ended at {:.3} ms is gone.",
                        t as f64 / 1e9
                    )));
                }
            }
        }
    });
    // A change the run cannot take pauses it.
    let sim3 = sim.clone();
    use_effect_with(live.pending, move |&pending| {
        if pending {
            sim3.pause();
        }
    });
}
