//! Scenario settings by path (`"marking.policy"`, `"switch.buffer_packets"`, `"flows"`): read one, or set several
//! and get a validated scenario. Lessons, exercises and sweeps name the settings they change this way, in the
//! scenario format's own terms (docs/scenario.md).

use super::blocks::{switch_word, within, BLOCKS};
use super::cct;
use super::{from_value, to_value, Scenario};
use alloc::borrow::ToOwned;
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use serde_json::Value;

impl Scenario {
    /// The value at `path` (dot-separated keys of the scenario's JSON), if there is one.
    pub fn setting(&self, path: &str) -> Option<Value> {
        if let Some(field) = path.strip_prefix(cct::PREFIX) {
            return self.cct_setting(field);
        }
        let mut v = to_value(self);
        for key in path.split('.') {
            v = v.get_mut(key)?.take();
        }
        Some(v)
    }

    /// This scenario with each `(path, value)` set and the companion settings they need
    /// ([`Scenario::with_companions`]), validated; the error names the setting.
    ///
    /// A block switched by a word ([`Scenario::switch_block`]: `"pft": "at_ri"`, `"ib_cc": "on"`, or `"off"`, `null`,
    /// `true`, `false`) is switched after the other settings, so that a new Annex A10 block is scaled to the links
    /// the same settings give. A setting inside a block (`ib_cc.threshold`) turns an absent block on as that word
    /// does, and is not applied where the same settings turn its block off: a sweep of A10's threshold with A10 off
    /// and on gives the off runs as its baseline.
    pub fn with_settings<'a>(
        &self,
        set: impl IntoIterator<Item = (&'a String, &'a Value)>,
    ) -> Result<Scenario, String> {
        let set: Vec<(&String, &Value)> = set.into_iter().collect();
        let block_of = |path: &str| BLOCKS.into_iter().find(|b| within(path, b));
        let (inside, plain): (Vec<_>, Vec<_>) =
            set.iter().filter(|(p, v)| switch_word(p, v).is_none()).partition(|(p, _)| block_of(p).is_some());
        let mut next = self.with_paths(plain.iter().copied())?;
        for block in BLOCKS {
            let said = set.iter().find(|(p, v)| p.as_str() == block && switch_word(p, v).is_some());
            let turned = match said {
                Some((p, v)) => switch_word(p, v),
                // (A setting inside an absent block turns it on, as the word does.)
                None if inside.iter().any(|(p, _)| block_of(p) == Some(block)) && next.block_word(block) == "off" => {
                    Some(String::from("on"))
                }
                None => None,
            };
            if let Some(w) = turned {
                next.switch_block(block, &w).map_err(|e| format!("{block}: {e}"))?;
            }
        }
        let on: Vec<(&String, &Value)> =
            inside.iter().filter(|(p, _)| block_of(p).is_some_and(|b| next.block_word(b) != "off")).copied().collect();
        // (Annex A10's table by its shape, after its other settings: `cct.rs`.)
        let (table, on): (Vec<_>, Vec<_>) = on.into_iter().partition(|(p, _)| p.starts_with(cct::PREFIX));
        let next = next.with_paths(on)?.with_cct(&table)?.with_companions(self);
        // All but routing, which the run does (the page checks each edit this way, off its worker).
        next.check().map_err(|e| e.to_string())?;
        Ok(next)
    }

    /// This scenario with each `(path, value)` set in its JSON, neither completed nor validated.
    fn with_paths<'a>(&self, set: impl IntoIterator<Item = (&'a String, &'a Value)>) -> Result<Scenario, String> {
        let mut v = to_value(self);
        let mut paths = Vec::new();
        for (path, value) in set {
            paths.push(path.clone());
            let mut at = &mut v;
            let keys: Vec<&str> = path.split('.').collect();
            for (i, key) in keys.iter().enumerate() {
                let obj = at.as_object_mut().ok_or_else(|| format!("{path}: not a setting"))?;
                if i + 1 == keys.len() {
                    obj.insert((*key).to_owned(), value.clone());
                    break;
                }
                // (A block is on before a setting inside it is set; another absent object is made here.)
                at = obj.entry((*key).to_owned()).or_insert_with(|| Value::Object(Default::default()));
                if at.is_null() {
                    *at = Value::Object(Default::default());
                }
            }
        }
        if paths.is_empty() {
            return Ok(self.clone());
        }
        from_value(&v).map_err(|e| format!("settings {}: {e}", paths.join(", ")))
    }
}

/// Settings as a map, for [`Scenario::with_settings`].
pub type Settings = BTreeMap<String, Value>;

#[cfg(test)]
mod tests {
    use crate::presets::find;
    use crate::scenario::MarkingPolicy;
    use alloc::collections::BTreeMap;
    use alloc::string::String;
    use serde_json::Value;

    #[test]
    fn settings_apply_by_path_and_bad_ones_are_named() {
        let s = find("infocom03-fig2").unwrap().scenario();
        let set = BTreeMap::from([(String::from("marking.policy"), Value::from("naive"))]);
        assert_eq!(s.with_settings(&set).unwrap().marking.policy, MarkingPolicy::Naive);
        assert_eq!(s.setting("switch.buffer_packets"), Some(Value::from(4)));
        assert_eq!(s.setting("switch.nothing"), None);
        let bad = BTreeMap::from([(String::from("marking.policy"), Value::from("sometimes"))]);
        assert!(s.with_settings(&bad).unwrap_err().contains("marking.policy"));
        let nowhere = BTreeMap::from([(String::from("seed.deeper"), Value::from(1))]);
        assert!(s.with_settings(&nowhere).unwrap_err().contains("not a setting"));
        let pft = BTreeMap::from([(String::from("pft.m"), Value::from(2))]);
        assert!(s.with_settings(&pft).unwrap().pft.is_some(), "a path into an absent block creates it");
        // A setting that needs another brings it (the settings panel, lessons and sweeps alike).
        let io = BTreeMap::from([(String::from("marking.policy"), Value::from("input_output_triggered"))]);
        assert_eq!(s.with_settings(&io).unwrap().marking.output_threshold_packets, Some(6));
        let hybrid = BTreeMap::from([(String::from("source.response"), Value::from("hybrid"))]);
        assert_eq!(s.with_settings(&hybrid).unwrap().source.window_packets, Some(4));
        let a10 = BTreeMap::from([(String::from("ib_cc.threshold"), Value::from(8))]);
        let on = s.with_settings(&io).unwrap().with_settings(&a10).unwrap();
        assert_eq!((on.marking.policy, on.ib_cc.as_ref().map(|c| c.threshold)), (MarkingPolicy::None, Some(8)));
        // Blocks switched by a word: after the other settings (A10's times scaled to the links they give), and a
        // setting inside a block turned off is not applied.
        let a10_fast = BTreeMap::from([
            (String::from("ib_cc"), Value::from("on")),
            (String::from("link.bandwidth_gbps"), Value::from(100)),
        ]);
        assert_eq!(s.with_settings(&a10_fast).unwrap().ib_cc.map(|c| c.ird_unit_ps), Some(5120));
        let off = BTreeMap::from([
            (String::from("ib_cc"), Value::Bool(false)),
            (String::from("ib_cc.threshold"), Value::from(3)),
        ]);
        assert_eq!(on.with_settings(&off).unwrap().ib_cc, None);
        let variant =
            BTreeMap::from([(String::from("pft"), Value::from("at_fi")), (String::from("pft.m"), Value::from(3))]);
        let pft_on = s.with_settings(&variant).unwrap();
        assert_eq!((pft_on.block_word("pft"), pft_on.pft.map(|p| p.m)), ("at_fi", Some(3)));
        let unknown = BTreeMap::from([(String::from("pft"), Value::from("sometimes"))]);
        assert!(s.with_settings(&unknown).unwrap_err().starts_with("pft: \"sometimes\" is not one of its choices"));
        let invalid = BTreeMap::from([(String::from("switch.buffer_packets"), Value::from(0))]);
        assert!(s.with_settings(&invalid).unwrap_err().contains("buffer"));
        // A value of the wrong kind is named in words, not by the reader's type names.
        let word = BTreeMap::from([(String::from("switch.buffer_packets"), Value::from("abc"))]);
        let said = s.with_settings(&word).unwrap_err();
        assert!(said.ends_with("invalid type: string \"abc\", expected a whole number of 0 or more"), "{said}");
        let negative = BTreeMap::from([(String::from("switch.buffer_packets"), Value::from(-1))]);
        assert!(s.with_settings(&negative).unwrap_err().ends_with("expected a whole number of 0 or more"));
    }
}
