//! A run as most callers want it: a simulation and the report that measures it, stepped together. (A caller that
//! watches more passes its own observer to [`Simulation::step_until`], a tuple holding the report among them.)

use super::measurement::{MeasureError, Measurement};
use super::{Observer, Report, Results, Simulation, Snapshot};
use crate::scenario::{Scenario, ScenarioError};
use crate::time::Time;
use alloc::string::String;
use alloc::vec::Vec;

/// A simulation and its report.
#[derive(Debug, Clone)]
pub struct Run {
    pub sim: Simulation,
    pub report: Report,
}

impl Run {
    /// Validates `scenario` and builds its run at time 0, with an empty report.
    pub fn new(scenario: &Scenario) -> Result<Self, ScenarioError> {
        let sim = Simulation::new(scenario)?;
        let report = Report::new(&sim);
        Ok(Self { sim, report })
    }

    /// Runs to the end.
    pub fn run(&mut self) {
        self.sim.run(&mut self.report);
    }

    /// Runs to `t` (see [`Simulation::run_until`]).
    pub fn run_until(&mut self, t: Time) {
        self.sim.run_until(t, &mut self.report);
    }

    /// At most `max_events` events up to `t` (see [`Simulation::step_until`]).
    pub fn step_until(&mut self, t: Time, max_events: u64) -> u64 {
        self.sim.step_until(t, max_events, &mut self.report)
    }

    /// At most `max_events` events (see [`Simulation::step_until`]).
    pub fn step(&mut self, max_events: u64) -> u64 {
        self.sim.step_until(self.sim.end(), max_events, &mut self.report)
    }

    /// At most `max_events` events up to `t`, also telling `more` what happens.
    pub fn step_with(&mut self, t: Time, max_events: u64, more: &mut impl Observer) -> u64 {
        let mut both = (&mut self.report, more);
        self.sim.step_until(t, max_events, &mut both)
    }

    /// Runs to `t`, also telling `more` what happens.
    pub fn run_until_with(&mut self, t: Time, more: &mut impl Observer) {
        let mut both = (&mut self.report, more);
        self.sim.run_until(t, &mut both);
    }

    /// The measurements so far.
    pub fn results(&self) -> Results {
        self.report.results(&self.sim)
    }

    /// The present, for drawing.
    pub fn snapshot(&self) -> Snapshot {
        self.report.snapshot(&self.sim)
    }

    /// A named measurement so far.
    pub fn measure(&self, m: &Measurement) -> Result<f64, MeasureError> {
        self.report.measure(&self.sim, m)
    }

    /// The groups of flows, in the order they first appear in the scenario.
    pub fn groups(&self) -> &[String] {
        self.report.groups()
    }

    /// A directed link's rate series so far (see [`Report::link_rate_series`]).
    pub fn link_rate_series(&self, channel: u32) -> Vec<(f64, f64)> {
        self.report.link_rate_series(channel, self.sim.now())
    }

    /// A group's aggregate rate series so far (see [`Report::group_rate_series`]).
    pub fn group_rate_series(&self, group: &str) -> Option<Vec<(f64, f64)>> {
        self.report.group_rate_series(group, self.sim.now())
    }

    pub fn scenario(&self) -> &Scenario {
        self.sim.scenario()
    }

    pub fn end(&self) -> Time {
        self.sim.end()
    }

    pub fn now(&self) -> Time {
        self.sim.now()
    }

    pub fn is_finished(&self) -> bool {
        self.sim.is_finished()
    }
}
