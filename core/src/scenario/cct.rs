//! Annex A10's table (CCT) by its shape, as three settings: `ib_cc.cct.shape` (`linear` or `quadratic`),
//! `ib_cc.cct.entries` and `ib_cc.cct.max_multiplier`, read and set by path as any other (the settings panel, a
//! sweep of how aggressive the table is, `ibcc sweep`). The format stores the table's entries; these name the tables
//! `shaped_cct` makes (`IbCcConfig::cct_shape`), and setting one makes the table again with the others kept.

use super::Scenario;
use crate::cc::ibcc::{shaped_cct, CctShape, CCT_MAX_ENTRIES, CCT_MAX_MULTIPLIER};
use alloc::format;
use alloc::string::{String, ToString};
use serde_json::Value;

/// The prefix of the table's settings.
pub const PREFIX: &str = "ib_cc.cct.";

impl Scenario {
    /// The table's setting `field` (`shape`, `entries`, `max_multiplier`), if A10 is on and its table has a shape.
    pub(super) fn cct_setting(&self, field: &str) -> Option<Value> {
        let (shape, entries, max) = self.ib_cc.as_ref()?.cct_shape()?;
        match field {
            "shape" => Some(Value::from(if shape == CctShape::Linear { "linear" } else { "quadratic" })),
            "entries" => Some(Value::from(entries)),
            "max_multiplier" => Some(Value::from(max)),
            _ => None,
        }
    }

    /// This scenario with the table's settings in `set` applied (A10 on), the others kept from the table it has (a
    /// table of other entries: linear, its length, its last entry's delay). The error names the setting.
    pub(super) fn with_cct(mut self, set: &[(&String, &Value)]) -> Result<Scenario, String> {
        let Some(c) = self.ib_cc.as_mut() else { return Ok(self) };
        let last = c.cct.last().map_or(0, |e| u32::from(e.multiplier) << e.shift);
        let (mut shape, mut entries, mut max) = c.cct_shape().unwrap_or((
            CctShape::Linear,
            c.cct.len().clamp(1, usize::from(CCT_MAX_ENTRIES)) as u16,
            last,
        ));
        for (path, v) in set {
            let field = path.strip_prefix(PREFIX).unwrap_or(path);
            let whole = |most: u64| v.as_u64().filter(|&x| (1..=most).contains(&x));
            match field {
                "shape" => {
                    shape = match v.as_str() {
                        Some("linear") => CctShape::Linear,
                        Some("quadratic") => CctShape::Quadratic,
                        _ => return Err(format!("{path}: {} is not one of linear, quadratic", shown(v))),
                    }
                }
                "entries" => {
                    entries = whole(u64::from(CCT_MAX_ENTRIES)).ok_or_else(|| {
                        format!("{path}: {} is not a whole number from 1 to {CCT_MAX_ENTRIES}", shown(v))
                    })? as u16
                }
                "max_multiplier" => {
                    max = v.as_u64().filter(|&x| x <= u64::from(CCT_MAX_MULTIPLIER)).ok_or_else(|| {
                        format!("{path}: {} is not a whole number from 0 to {CCT_MAX_MULTIPLIER}", shown(v))
                    })? as u32
                }
                _ => return Err(format!("{path}: not a setting (the table's are shape, entries, max_multiplier)")),
            }
        }
        c.cct = shaped_cct(shape, entries, max);
        Ok(self)
    }
}

fn shown(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), String::from)
}

#[cfg(test)]
mod tests {
    use crate::presets::find;
    use alloc::collections::BTreeMap;
    use alloc::string::String;
    use serde_json::Value;

    #[test]
    fn the_table_is_read_and_set_by_its_shape() {
        let s = find("a10-two-switch").unwrap().scenario();
        assert_eq!(s.setting("ib_cc.cct.shape"), Some(Value::from("linear")));
        assert_eq!(s.setting("ib_cc.cct.entries"), Some(Value::from(128)));
        assert_eq!(s.setting("ib_cc.cct.max_multiplier"), Some(Value::from(1024)));
        let set = |pairs: &[(&str, Value)]| -> BTreeMap<String, Value> {
            pairs.iter().map(|(p, v)| (String::from(*p), v.clone())).collect()
        };
        let q = s.with_settings(&set(&[("ib_cc.cct.shape", Value::from("quadratic"))])).unwrap();
        let c = q.ib_cc.as_ref().unwrap();
        assert_eq!(c.cct_shape(), Some((crate::cc::ibcc::CctShape::Quadratic, 128, 1024)), "the others kept");
        assert_eq!(c.cct[64].multiplier, 260, "(64/127)^2 x 1024 = 260.05, rounded");
        // A top past a multiplier's 14 bits is kept through the shift, and read back as given.
        let big = s
            .with_settings(&set(&[
                ("ib_cc.cct.max_multiplier", Value::from(100_000)),
                ("ib_cc.cct.entries", Value::from(16)),
            ]))
            .unwrap();
        assert_eq!(big.setting("ib_cc.cct.max_multiplier"), Some(Value::from(100_000)));
        assert_eq!(big.setting("ib_cc.cct.entries"), Some(Value::from(16)));
        for (path, bad, said) in [
            ("ib_cc.cct.shape", Value::from("cubic"), "ib_cc.cct.shape: cubic is not one of linear, quadratic"),
            ("ib_cc.cct.entries", Value::from(0), "ib_cc.cct.entries: 0 is not a whole number from 1 to 1024"),
            (
                "ib_cc.cct.max_multiplier",
                Value::from(-3),
                "ib_cc.cct.max_multiplier: -3 is not a whole number from 0 to 131064",
            ),
            (
                "ib_cc.cct.top",
                Value::from(3),
                "ib_cc.cct.top: not a setting (the table's are shape, entries, max_multiplier)",
            ),
        ] {
            assert_eq!(s.with_settings(&set(&[(path, bad)])).unwrap_err(), said);
        }
        // On a scenario without A10, a table's setting turns it on (as any setting inside the block) and applies.
        let fig2 = find("infocom03-fig2").unwrap().scenario();
        let on = fig2.with_settings(&set(&[("ib_cc.cct.entries", Value::from(32))])).unwrap();
        assert_eq!(on.setting("ib_cc.cct.entries"), Some(Value::from(32)));
        // A table of other entries has no shape to read; setting one replaces it.
        let mut custom = s.clone();
        custom.ib_cc.as_mut().unwrap().cct[3].multiplier += 1;
        assert_eq!(custom.setting("ib_cc.cct.shape"), None);
        let shaped = custom.with_settings(&set(&[("ib_cc.cct.shape", Value::from("linear"))])).unwrap();
        assert_eq!(shaped.ib_cc, s.ib_cc, "linear, its 128 entries, up to its last entry's 1024");
    }
}
