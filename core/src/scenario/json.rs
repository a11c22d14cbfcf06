//! One way through JSON for every type the page reads and writes: typed values go to and from *text*, and a
//! [`Value`] (to read or set one field by path) is made from that text, never by serde_json's `to_value` and
//! `from_value`. serde code is generated once per (type, serializer or deserializer) pair, so each extra path adds a
//! whole copy of the scenario's (de)serializer to the page's wasm; this keeps one (issue 19: the page's size).

use alloc::string::{String, ToString};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

/// `value` as a JSON [`Value`], through its compact text.
pub fn to_value<T: Serialize>(value: &T) -> Value {
    let text = serde_json::to_string(value).expect("plain data always serializes");
    serde_json::from_str(&text).expect("serde_json reads what it writes")
}

/// A `T` from a JSON [`Value`], through its text. The error is serde_json's ([`in_words`]), without the position in
/// a text the user never saw.
pub fn from_value<T: DeserializeOwned>(value: &Value) -> Result<T, String> {
    serde_json::from_str(&value.to_string()).map_err(|e| {
        let e = in_words(&e.to_string());
        match e.rfind(" at line ") {
            Some(at) => e[..at].to_string(),
            None => e,
        }
    })
}

/// A reader's message with its type names in words ("expected u32" is "expected a whole number of 0 or more"), for files,
/// links and settings alike.
pub fn in_words(message: &str) -> String {
    let mut out = String::from(message);
    // (Whole numbers here are never negative: "-1 ... expected a whole number" read as a contradiction.)
    for (t, words) in [
        ("u8", "a whole number from 0 to 255"),
        ("u16", "a whole number from 0 to 65535"),
        ("u32", "a whole number of 0 or more"),
        ("u64", "a whole number of 0 or more"),
        ("usize", "a whole number of 0 or more"),
    ] {
        out = out.replace(&alloc::format!("expected {t}"), &alloc::format!("expected {words}"));
    }
    for t in ["f32", "f64"] {
        out = out.replace(&alloc::format!("expected {t}"), "expected a number");
    }
    out
}

/// Compact JSON re-indented as `serde_json::to_string_pretty` writes it (two spaces, `": "`, empty `[]` and `{}`).
pub fn pretty_json(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() * 2);
    let (mut depth, mut in_string, mut escaped) = (0usize, false, false);
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    let mut chars = compact.chars().peekable();
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                out.push(c);
                let close = if c == '{' { '}' } else { ']' };
                if chars.peek() == Some(&close) {
                    out.push(close);
                    chars.next();
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{from_value, in_words, pretty_json, to_value};
    use crate::presets::PRESETS;
    use crate::scenario::Scenario;
    use alloc::string::ToString;

    /// The re-indented compact JSON is byte for byte serde_json's pretty JSON: for every preset, and for strings
    /// holding the characters the re-indenter treats specially, escaped quotes and empty containers.
    #[test]
    fn pretty_json_is_serde_jsons_pretty_form() {
        for p in PRESETS {
            let s = p.scenario();
            assert_eq!(s.to_json(), serde_json::to_string_pretty(&s).unwrap(), "{}", p.name);
        }
        let v = serde_json::json!({
            "a": "x, {y}: [z] \"q\" \\", "b": [], "c": {}, "d": [[], {}, [1, [2]], {"e": null}], "f": -1.5e-7
        });
        assert_eq!(pretty_json(&v.to_string()), serde_json::to_string_pretty(&v).unwrap());
    }

    /// Through a Value and back is the identity, and an error names the problem without a position.
    #[test]
    fn values_round_trip_through_text() {
        for p in PRESETS {
            let s = p.scenario();
            assert_eq!(from_value::<Scenario>(&to_value(&s)).unwrap(), s, "{}", p.name);
        }
        let e = from_value::<Scenario>(&serde_json::json!({"name": 5})).unwrap_err();
        assert!(e.contains("invalid type") && !e.contains("line"), "{e}");
    }

    /// Files, links and settings name a wrong kind of value in words, not by the reader's type names.
    #[test]
    fn a_value_of_the_wrong_kind_is_named_in_words() {
        let mut v = to_value(&crate::presets::find("infocom03-fig2").unwrap().scenario());
        v["switch"]["buffer_packets"] = serde_json::json!("four");
        let e = from_value::<Scenario>(&v).unwrap_err();
        assert!(e.ends_with("invalid type: string \"four\", expected a whole number of 0 or more"), "{e}");
        let file = Scenario::from_json(&v.to_string()).unwrap_err().to_string();
        assert!(file.contains("expected a whole number") && !file.contains("u32"), "{file}");
        assert_eq!(
            in_words("invalid type: string \"x\", expected f64"),
            "invalid type: string \"x\", expected a number"
        );
    }
}
