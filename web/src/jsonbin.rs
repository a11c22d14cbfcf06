//! JSON's data model in a compact binary form, for the page's messages to its workers: the page turns a message's
//! JSON value into bytes, and the worker reads them back into the same value, with no JSON text reader (the
//! largest part of serde_json) in the worker's wasm. Numbers keep their exact kind and bits (`u64`, `i64`, `f64`).
//!
//! A value is a tag byte and its content: 0 null, 1 false, 2 true, 3 `u64` (LEB128), 4 `i64` (zigzag LEB128),
//! 5 `f64` (8 bytes, little-endian), 6 string (length, UTF-8), 7 array (length, values), 8 object (length, then
//! key string and value for each member, in order). Lengths are LEB128.

use serde_json::{Map, Number, Value};

/// `v` in the binary form.
pub fn to_bytes(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    write(&mut out, v);
    out
}

fn varint(out: &mut Vec<u8>, mut x: u64) {
    loop {
        let byte = (x & 0x7f) as u8;
        x >>= 7;
        if x == 0 {
            out.push(byte);
            return;
        }
        out.push(byte | 0x80);
    }
}

fn string(out: &mut Vec<u8>, s: &str) {
    varint(out, s.len() as u64);
    out.extend_from_slice(s.as_bytes());
}

fn write(out: &mut Vec<u8>, v: &Value) {
    match v {
        Value::Null => out.push(0),
        Value::Bool(b) => out.push(1 + u8::from(*b)),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                out.push(3);
                varint(out, u);
            } else if let Some(i) = n.as_i64() {
                out.push(4);
                varint(out, ((i << 1) ^ (i >> 63)) as u64);
            } else {
                out.push(5);
                out.extend_from_slice(&n.as_f64().unwrap_or(0.0).to_le_bytes());
            }
        }
        Value::String(s) => {
            out.push(6);
            string(out, s);
        }
        Value::Array(items) => {
            out.push(7);
            varint(out, items.len() as u64);
            for item in items {
                write(out, item);
            }
        }
        Value::Object(members) => {
            out.push(8);
            varint(out, members.len() as u64);
            for (k, item) in members {
                string(out, k);
                write(out, item);
            }
        }
    }
}

/// The value in `bytes`, which must be exactly one value in the binary form (nested at most 128 deep).
pub fn from_bytes(bytes: &[u8]) -> Result<Value, String> {
    let mut r = Reader { bytes, at: 0 };
    let v = r.value(0)?;
    if r.at != bytes.len() {
        return Err(format!("{} bytes left over after the value", bytes.len() - r.at));
    }
    Ok(v)
}

struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8, String> {
        let b = *self.bytes.get(self.at).ok_or("the message ends too early")?;
        self.at += 1;
        Ok(b)
    }

    fn varint(&mut self) -> Result<u64, String> {
        let mut x = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            x |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(x);
            }
        }
        Err(String::from("a number is too long"))
    }

    fn take(&mut self, n: u64) -> Result<&[u8], String> {
        let end = usize::try_from(n).ok().and_then(|n| self.at.checked_add(n)).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or("the message ends too early")?;
        let s = &self.bytes[self.at..end];
        self.at = end;
        Ok(s)
    }

    fn string(&mut self) -> Result<String, String> {
        let n = self.varint()?;
        let s = self.take(n)?;
        core::str::from_utf8(s).map(str::to_owned).map_err(|_| String::from("a string is not UTF-8"))
    }

    fn value(&mut self, depth: u32) -> Result<Value, String> {
        if depth > 128 {
            return Err(String::from("values nested too deep"));
        }
        Ok(match self.byte()? {
            0 => Value::Null,
            1 => Value::Bool(false),
            2 => Value::Bool(true),
            3 => Value::Number(self.varint()?.into()),
            4 => {
                let z = self.varint()?;
                Value::Number((((z >> 1) as i64) ^ -((z & 1) as i64)).into())
            }
            5 => {
                let b: [u8; 8] = self.take(8)?.try_into().map_err(|_| "the message ends too early")?;
                Number::from_f64(f64::from_le_bytes(b)).map_or(Value::Null, Value::Number)
            }
            6 => Value::String(self.string()?),
            7 => {
                let n = self.varint()?;
                // (Each item takes at least a byte: a length beyond what is left is damage, not a reason to allocate.)
                let mut items = Vec::with_capacity(usize::try_from(n).unwrap_or(0).min(self.bytes.len() - self.at));
                for _ in 0..n {
                    items.push(self.value(depth + 1)?);
                }
                Value::Array(items)
            }
            8 => {
                let n = self.varint()?;
                let mut members = Map::new();
                for _ in 0..n {
                    let k = self.string()?;
                    members.insert(k, self.value(depth + 1)?);
                }
                Value::Object(members)
            }
            t => return Err(format!("unknown tag {t}")),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every kind of value comes back as it was, floats to the bit; damage is refused, not panicked on.
    #[test]
    fn values_round_trip_exactly_and_damage_is_refused() {
        let v: Value = serde_json::from_str(
            r#"{"b": [null, true, false, 0, 18446744073709551615, -9223372036854775808, 0.1, 1e-300, -2.5e300],
                "s": "é\"\n", "o": {"z": 1, "a": []}}"#,
        )
        .unwrap();
        let bytes = to_bytes(&v);
        let back = from_bytes(&bytes).unwrap();
        assert_eq!(back, v);
        assert_eq!(back["b"][6].as_f64().unwrap().to_bits(), 0.1f64.to_bits());
        let keys: Vec<&str> = back["o"].as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["a", "z"]);
        for cut in 0..bytes.len() {
            assert!(from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        assert!(from_bytes(&[9]).unwrap_err().contains("tag"));
        assert!(from_bytes(&[7, 0xff, 0xff, 0xff, 0xff, 0x0f]).is_err(), "a huge length is damage");
        assert!(from_bytes(&[0, 0]).unwrap_err().contains("left over"));
        let deep = [7u8, 1].repeat(200);
        assert!(from_bytes(&deep).unwrap_err().contains("deep"));
    }
}
