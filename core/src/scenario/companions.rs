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
    /// `self` (a changed `before`) with the companion settings its changes need: only a change that turns a setting
    /// on brings its companion (emptying a threshold that is already needed stays an error to report), and turning
    /// Annex A10 on turns off only the marking and response the same change did not set.
    pub fn with_companions(mut self, before: &Scenario) -> Scenario {
        if self.ib_cc.is_some() && before.ib_cc.is_none() {
            // Annex A10 replaces the papers' marking and source response (validation refuses both at once).
            if self.marking.policy == before.marking.policy {
                self.marking.policy = MarkingPolicy::None;
            }
            if self.source.response == before.source.response {
                self.source.response = Response::None;
            }
            for (f, was) in self.flows.iter_mut().zip(before.flows.iter().map(|f| f.source.as_ref())) {
                if let Some(o) = &mut f.source {
                    if o.response == was.and_then(|w| w.response) {
                        o.response = None;
                    }
                }
            }
        }
        let io = MarkingPolicy::InputOutputTriggered;
        if self.marking.policy == io && before.marking.policy != io && self.marking.output_threshold_packets.is_none() {
            self.marking.output_threshold_packets = Some(DEFAULT_OUTPUT_THRESHOLD);
        }
        let hybrid = Response::Hybrid;
        if self.source.response == hybrid && before.source.response != hybrid && self.source.window_packets.is_none() {
            self.source.window_packets = Some(DEFAULT_HYBRID_WINDOW);
        }
        let base = self.source;
        for (i, f) in self.flows.iter_mut().enumerate() {
            let Some(o) = &mut f.source else { continue };
            let was_hybrid = before.flows.get(i).is_some_and(|b| {
                b.source.as_ref().and_then(|o| o.response).unwrap_or(before.source.response) == hybrid
            });
            let hybrid_now = o.response.unwrap_or(base.response) == hybrid;
            if hybrid_now && !was_hybrid && o.window_packets.unwrap_or(base.window_packets).is_none() {
                o.window_packets = Some(Some(DEFAULT_HYBRID_WINDOW));
            }
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use crate::presets::find;
    use crate::scenario::{IbCcConfig, MarkingPolicy, Response};

    #[test]
    fn a_change_that_turns_a_setting_on_brings_its_companion_and_nothing_else_does() {
        let s = find("infocom03-fig2").unwrap().scenario();
        let mut io = s.clone();
        io.marking.policy = MarkingPolicy::InputOutputTriggered;
        let io = io.with_companions(&s);
        assert_eq!(io.marking.output_threshold_packets, Some(6));
        // Emptied while it is needed: left empty, for validation to say why.
        let mut emptied = io.clone();
        emptied.marking.output_threshold_packets = None;
        assert_eq!(emptied.clone().with_companions(&io).marking.output_threshold_packets, None);
        // Annex A10 on: the papers' marking goes, unless the same change set it (then validation refuses both).
        let mut a10 = io.clone();
        a10.ib_cc = Some(IbCcConfig::default());
        assert_eq!(a10.clone().with_companions(&io).marking.policy, MarkingPolicy::None);
        a10.marking.policy = MarkingPolicy::Naive;
        assert_eq!(a10.with_companions(&io).marking.policy, MarkingPolicy::Naive);
        let mut hybrid = s.clone();
        hybrid.source.response = Response::Hybrid;
        hybrid.source.window_packets = None;
        assert_eq!(hybrid.with_companions(&s).source.window_packets, Some(4));
    }
}
