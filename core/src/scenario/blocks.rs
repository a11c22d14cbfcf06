//! Mechanisms present or absent as a whole, switched by a word: Annex A10 `off` or `on`; PFT `off` or one of the
//! paper's four variants (`ft_fi`, `ft_ri`, `at_fi`, `at_ri`: fixed or average threshold detection, fixed or random
//! interval throttling), or `on` for the scenario's own. The settings panel's switches, a sweep's axis
//! (`{"path": "ib_cc", "values": ["off", "on"]}`) and a setting by path all turn one on the same way.

use super::{IbCcConfig, PftConfig, Scenario};
use crate::cc::pft::{Detection, Throttling};
use alloc::format;
use alloc::string::String;
use serde_json::Value;

/// The blocks switched by a word.
pub const BLOCKS: [&str; 2] = ["pft", "ib_cc"];

/// PFT's variants by the paper's names (IFIP'21 §III: FT or AT detection, FI or RI throttling).
pub const PFT_VARIANTS: [(&str, Detection, Throttling); 4] = [
    ("ft_fi", Detection::FixedThreshold, Throttling::FixedInterval),
    ("ft_ri", Detection::FixedThreshold, Throttling::RandomInterval),
    ("at_fi", Detection::AverageThreshold, Throttling::FixedInterval),
    ("at_ri", Detection::AverageThreshold, Throttling::RandomInterval),
];

/// The PFT block a scenario without one is given when PFT is turned on: the defaults with `m = 1`, so that
/// `f(c) = 2c`, a throttle that visibly acts.
pub fn pft_turned_on() -> PftConfig {
    PftConfig { m: 1, ..PftConfig::default() }
}

/// The word a setting by path switches block `path` by (`"on"`, `"off"`, a PFT variant; `null`, `false` and
/// `true` too), if `path` is a block switched by a word and `v` is one; a block given whole (an object) is not.
pub fn switch_word(path: &str, v: &Value) -> Option<String> {
    if !BLOCKS.contains(&path) {
        return None;
    }
    match v {
        Value::Null | Value::Bool(false) => Some(String::from("off")),
        Value::Bool(true) => Some(String::from("on")),
        Value::String(w) => Some(w.clone()),
        _ => None,
    }
}

/// Whether `path` is a setting inside block `block` (`ib_cc.threshold` in `ib_cc`; not `ib_cc` itself).
pub fn within(path: &str, block: &str) -> bool {
    path.strip_prefix(block).is_some_and(|rest| rest.starts_with('.'))
}

impl Scenario {
    /// Switches `block` (`"pft"` or `"ib_cc"`) by `word`. Turned on, a block the scenario has is kept (a PFT variant
    /// changes only its detection and throttling); a new Annex A10 block has its times scaled to the network's
    /// fastest host link ([`IbCcConfig::for_link_gbps`]: the defaults suit the papers' 8 Gb/s). The error names the
    /// words the block takes.
    pub fn switch_block(&mut self, block: &str, word: &str) -> Result<(), String> {
        match (block, word) {
            (_, "off") if BLOCKS.contains(&block) => match block {
                "pft" => self.pft = None,
                _ => self.ib_cc = None,
            },
            ("ib_cc", "on") => {
                let scaled = IbCcConfig::for_link_gbps(self.fastest_host_link_gbps());
                self.ib_cc = Some(self.ib_cc.take().unwrap_or(scaled));
            }
            ("pft", "on") => self.pft = Some(self.pft.unwrap_or_else(pft_turned_on)),
            ("pft", _) => {
                let Some(&(_, detection, throttling)) = PFT_VARIANTS.iter().find(|v| v.0 == word) else {
                    return Err(format!("{word:?} is not one of its choices (off, on, ft_fi, ft_ri, at_fi, at_ri)"));
                };
                self.pft = Some(PftConfig { detection, throttling, ..self.pft.unwrap_or_else(pft_turned_on) });
            }
            ("ib_cc", _) => return Err(format!("{word:?} is not one of its choices (off, on)")),
            _ => return Err(format!("{block}: not a block switched by a word")),
        }
        Ok(())
    }

    /// `block`'s state in a word: `"off"`, `"on"` (Annex A10), or PFT's variant.
    pub fn block_word(&self, block: &str) -> &'static str {
        match block {
            "pft" => self.pft.map_or("off", |p| {
                PFT_VARIANTS.iter().find(|v| (v.1, v.2) == (p.detection, p.throttling)).map_or("on", |v| v.0)
            }),
            _ if self.ib_cc.is_some() => "on",
            _ => "off",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::find;

    #[test]
    fn blocks_switch_by_word_and_keep_what_the_scenario_has() {
        let mut s = find("fabric32-hotspot").unwrap().scenario();
        assert_eq!(s.block_word("ib_cc"), "off");
        s.switch_block("ib_cc", "on").unwrap();
        // Scaled to the fabric's 100 Gb/s host links.
        assert_eq!(s.ib_cc.as_ref().map(|c| (c.ird_unit_ps, c.ccti_timer)), Some((5120, 4)));
        s.ib_cc.as_mut().unwrap().threshold = 3;
        s.switch_block("ib_cc", "on").unwrap();
        assert_eq!(s.ib_cc.as_ref().map(|c| c.threshold), Some(3), "its own block is kept");
        s.switch_block("pft", "at_ri").unwrap();
        assert_eq!(
            s.pft.map(|p| (p.m, p.detection, p.throttling)),
            Some((1, Detection::AverageThreshold, Throttling::RandomInterval))
        );
        assert_eq!(s.block_word("pft"), "at_ri");
        s.pft.as_mut().unwrap().m = 4;
        s.switch_block("pft", "ft_fi").unwrap();
        assert_eq!(s.pft.map(|p| (p.m, s.block_word("pft"))), Some((4, "ft_fi")), "a variant keeps its numbers");
        s.switch_block("pft", "off").unwrap();
        s.switch_block("ib_cc", "off").unwrap();
        assert_eq!((s.pft, s.ib_cc.is_none(), s.block_word("pft")), (None, true, "off"));
        assert!(s.switch_block("pft", "sometimes").unwrap_err().contains("ft_fi"));
        assert!(s.switch_block("ib_cc", "ft_fi").unwrap_err().contains("off, on"));
        assert!(s.switch_block("flows", "on").is_err());
    }
}
