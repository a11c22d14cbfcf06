//! Companion settings: a setting that needs another one (input-output-triggered marking needs an output threshold,
//! a hybrid source a window) gets it, at its usual value, when a change turns it on without it; turning Annex A10 on
//! turns off the papers' marking and source response it replaces. Every way a scenario changes goes through
//! [`Scenario::with_companions`]: the settings panel, lessons and exercises, sweeps and share links, so a setting is
//! never accepted in one place and refused in another.

use super::{MarkingPolicy, Response, Scenario};

/// The output threshold input-output-triggered marking gets when none is given: Globecom'02 §V finds 6 keeps the
/// root link above 90% busy except with the smallest buffers (Fig. 4).
pub const DEFAULT_OUTPUT_THRESHOLD: u32 = 6;
/// The window a hybrid window/rate source gets when none is given (the HP proposal's slides give none; four packets
/// cover a 1 GB/s link's round trip in the papers' network).
pub const DEFAULT_HYBRID_WINDOW: u32 = 4;

impl Scenario {
    /// `self` (a changed `before`) with the companion settings its changes need.
    pub fn with_companions(mut self, before: &Scenario) -> Scenario {
        if self.marking.policy == MarkingPolicy::InputOutputTriggered && self.marking.output_threshold_packets.is_none()
        {
            self.marking.output_threshold_packets = Some(DEFAULT_OUTPUT_THRESHOLD);
        }
        if self.source.response == Response::Hybrid && self.source.window_packets.is_none() {
            self.source.window_packets = Some(DEFAULT_HYBRID_WINDOW);
        }
        for f in &mut self.flows {
            if let Some(o) = &mut f.source {
                let hybrid = o.response.unwrap_or(self.source.response) == Response::Hybrid;
                if hybrid && o.window_packets.unwrap_or(self.source.window_packets).is_none() {
                    o.window_packets = Some(Some(DEFAULT_HYBRID_WINDOW));
                }
            }
        }
        if self.ib_cc.is_some() && before.ib_cc.is_none() {
            // Annex A10 replaces the papers' marking and source response (validation refuses both at once).
            self.marking.policy = MarkingPolicy::None;
            self.source.response = Response::None;
            for f in &mut self.flows {
                if let Some(o) = &mut f.source {
                    o.response = None;
                }
            }
        }
        self
    }
}
