//! The congestion impact view's runs (docs/gpcnet.md §5), kept by the page's shell so that they go on, and their
//! results stay, whatever view is shown (as the playground's run does): the plan's jobs in one worker per core, the
//! answers as they come, and the form's settings. A lesson's impact exercise reads its answer here.

use super::bridge::{cores, start_jobs, wall_ms, Jobs, SimWorker};
use crate::impact_plan::Plan;
use crate::protocol::{FromWorker, ToWorker};
use ibcc_core::sim::congestion_impact::CanaryRun;
use ibcc_core::workload::gpcnet::Canary;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// A run of the view's plan as it stands (a reducer: each worker's answer is an action).
#[derive(Debug, Clone, PartialEq)]
pub struct Job {
    pub plan: Rc<Plan>,
    /// Each job's run once in, its share done meanwhile, and its error if it failed.
    pub runs: Vec<Option<Rc<CanaryRun>>>,
    pub progress: Vec<f64>,
    pub errors: Vec<(usize, String)>,
    pub done: usize,
    pub stopped: Option<String>,
    pub started_ms: f64,
    pub finished_ms: Option<f64>,
    pub workers: usize,
    /// What it ran on and how, for the status line: the network's name, processes per node.
    pub network: String,
    pub ppn: u32,
}

#[derive(Debug, Clone, Default, PartialEq)]
pub struct ImpactState(pub Option<Job>);

pub enum ImpactAction {
    Started(Job),
    Progress { id: usize, done: f64 },
    Ran { id: usize, run: Result<Box<CanaryRun>, String>, at_ms: f64 },
    Stopped { why: String, at_ms: f64 },
}

impl Reducible for ImpactState {
    type Action = ImpactAction;
    fn reduce(self: Rc<Self>, action: ImpactAction) -> Rc<Self> {
        let mut next = (*self).clone();
        let Some(j) = next.0.as_mut() else {
            if let ImpactAction::Started(job) = action {
                return Rc::new(Self(Some(job)));
            }
            return self;
        };
        match action {
            ImpactAction::Started(job) => *j = job,
            ImpactAction::Progress { id, done } => {
                if j.finished_ms.is_some() {
                    return self;
                }
                if let Some(p) = j.progress.get_mut(id) {
                    *p = done;
                }
            }
            ImpactAction::Ran { id, run, at_ms } => {
                if j.finished_ms.is_some() {
                    return self;
                }
                match run {
                    Ok(r) => {
                        if let Some(slot) = j.runs.get_mut(id) {
                            *slot = Some(Rc::from(r));
                        }
                    }
                    Err(e) => j.errors.push((id, e)),
                }
                if let Some(p) = j.progress.get_mut(id) {
                    *p = 1.0;
                }
                j.done += 1;
                if j.done >= j.plan.jobs.len() {
                    j.finished_ms = Some(at_ms);
                }
            }
            ImpactAction::Stopped { why, at_ms } => {
                if j.finished_ms.is_some() {
                    return self;
                }
                j.stopped = Some(why);
                j.finished_ms = Some(at_ms);
            }
        }
        Rc::new(next)
    }
}

/// The workers of a run under way and the next job to give out (dropped, the workers stop).
#[derive(Default)]
pub struct Runner {
    pub plan: Option<Rc<Plan>>,
    pub next: usize,
    pub answered: usize,
    pub workers: Vec<SimWorker>,
}

impl Jobs for Runner {
    fn workers(&mut self) -> &mut Vec<SimWorker> {
        &mut self.workers
    }

    fn feed(&mut self, w: usize) {
        let Some(plan) = self.plan.clone() else { return };
        let Some(job) = plan.jobs.get(self.next) else { return };
        let id = self.next;
        self.next += 1;
        if let Some(worker) = self.workers.get(w) {
            let m = &plan.mechanisms[job.mechanism];
            worker.post(&ToWorker::Canary {
                id: id as u64,
                scenario: Box::new(m.scenario.clone()),
                config: m.config.clone(),
                canary: job.canary,
                congested: job.congested,
            });
        }
    }
}

pub type RunnerRef = Rc<RefCell<Runner>>;

/// Starts `plan` in one worker per core (stopping any run under way).
pub fn start(
    plan: Plan,
    (network, ppn): (String, u32),
    runner: &RunnerRef,
    state: &UseReducerDispatcher<ImpactState>,
) -> Result<(), String> {
    let plan = Rc::new(plan);
    let n = plan.jobs.len();
    *runner.borrow_mut() = Runner { plan: Some(plan.clone()), ..Runner::default() };
    let workers = cores().min(n);
    state.dispatch(ImpactAction::Started(Job {
        plan,
        runs: vec![None; n],
        progress: vec![0.0; n],
        errors: Vec::new(),
        done: 0,
        stopped: None,
        started_ms: wall_ms(),
        finished_ms: None,
        workers,
        network,
        ppn,
    }));
    let answered = state.clone();
    let on_message = move |w: usize, m: FromWorker, runner: &std::rc::Weak<RefCell<Runner>>| match m {
        FromWorker::CanaryProgress { id, done, .. } => {
            answered.dispatch(ImpactAction::Progress { id: id as usize, done })
        }
        FromWorker::CanaryRan { id, run } => {
            answered.dispatch(ImpactAction::Ran { id: id as usize, run, at_ms: wall_ms() });
            if let Some(r) = runner.upgrade() {
                let mut r = r.borrow_mut();
                r.answered += 1;
                if r.answered >= n {
                    r.workers.clear();
                } else {
                    r.feed(w);
                }
            }
        }
        _ => {}
    };
    let stopped = state.clone();
    let on_failed = move |e: String| {
        stopped.dispatch(ImpactAction::Stopped { why: format!("a worker failed: {e}"), at_ms: wall_ms() })
    };
    start_jobs(runner, workers, on_message, on_failed)
}

/// The view's settings as the student left them.
#[derive(Debug, Clone, PartialEq)]
pub struct Form {
    pub ppn: u32,
    pub seed: u64,
    /// The mechanisms picked, by their index in `impact_plan::offered` (no control is always run).
    pub picked: Vec<usize>,
    pub canaries: Vec<Canary>,
    /// The canary test whose no-control impact an open lesson exercise asks for: held back until it is answered.
    pub held: Option<Canary>,
}

impl Default for Form {
    fn default() -> Self {
        Self { ppn: 1, seed: 1, picked: vec![1], canaries: vec![Canary::Latency, Canary::Bandwidth], held: None }
    }
}

/// Everything the view keeps, held by the shell.
#[derive(Clone)]
pub struct ImpactCtx {
    pub job: UseReducerHandle<ImpactState>,
    pub runner: RunnerRef,
    pub form: UseStateHandle<Form>,
}

/// (Handles compare the states they were made with: a change of any is a new context.)
impl PartialEq for ImpactCtx {
    fn eq(&self, o: &Self) -> bool {
        self.job == o.job && Rc::ptr_eq(&self.runner, &o.runner) && self.form == o.form
    }
}

/// The view's state, made once by the shell.
#[hook]
pub fn use_impact() -> ImpactCtx {
    ImpactCtx {
        job: use_reducer(ImpactState::default),
        runner: use_mut_ref(Runner::default),
        form: use_state(Form::default),
    }
}

impl Job {
    /// The impact of the no-control run of `canary` on `net`'s network at `ppn` processes per node and placement
    /// `seed`, once both its runs are in.
    pub fn no_control_impact(
        &self,
        net: &ibcc_core::scenario::Scenario,
        canary: Canary,
        (ppn, seed): (u32, u64),
    ) -> Option<ibcc_core::sim::congestion_impact::CanaryImpact> {
        let none = self.plan.mechanisms.first()?;
        if (self.ppn, none.config.seed) != (ppn, seed) || !crate::course::same_network(&none.scenario, net) {
            return None;
        }
        let run = |congested| self.plan.index(0, canary, congested).and_then(|i| self.runs[i].clone());
        Some(ibcc_core::sim::congestion_impact::CanaryImpact::of((*run(false)?).clone(), (*run(true)?).clone()))
    }
}
