//! JSON's data model in a compact binary form, for the page's messages to its workers: the page turns a message's
//! JSON value into bytes ([`to_bytes`]), and the worker deserializes the message from them ([`from_bytes`]), a
//! self-describing serde format read as serde_json reads a `Value`, so every type reads as it does from JSON; the
//! worker's wasm then carries none of serde_json (its text reader is its largest part). Numbers keep their exact
//! kind and bits (`u64`, `i64`, `f64`). Object keys are read as strings only (serde_json also reads numbers and
//! booleans from them): the messages have no maps with other keys.
//!
//! A value is a tag byte and its content: 0 null, 1 false, 2 true, 3 `u64` (LEB128), 4 `i64` (zigzag LEB128),
//! 5 `f64` (8 bytes, little-endian), 6 string (length, UTF-8), 7 array (length, values), 8 object (length, then
//! key string and value for each member, in order). Lengths are LEB128. The numbers, strings and errors are those
//! of the worker's own form, `ibcc_core::wire` (its `Writer` and `Reader`); only the tags are this form's.
//!
//! Measured against maintained formats in the worker's place (November 2026: the worker built as `./dev` builds it,
//! wasm-bindgen and `wasm-opt -O3`, gzip -9; decoding a `ToWorker::Load` of each benchmark scenario 50 times in
//! headless Chromium on the 2-core development machine):
//!
//! | format, in the worker | worker, gzipped | decode fig. 2 (2.3 KB) | fat tree k=8 (27 KB) | 1024 flows (95 KB) |
//! | --- | --- | --- | --- | --- |
//! | this form | 132,405 B | 0.036 ms | 0.26 ms | 3.7 ms |
//! | serde-wasm-bindgen (a JS object, structured-cloned) | 132,460 B | 0.15 ms | 1.04 ms | 4.9 ms |
//! | ciborium (CBOR) | 162,176 B | | | |
//! | rmp-serde (MessagePack) | 201,358 B | | | |
//!
//! serde-wasm-bindgen is as small but reads a scenario 1.3 to 4 times slower (every field crosses into JavaScript),
//! and the two binary formats add 30 and 69 KB to a 150 KB budget; so the hand-written form stays.

use ibcc_core::wire::{Reader, WireError as Error, Writer};
use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, Visitor};
use serde_json::Value;

/// `v` in the binary form.
pub fn to_bytes(v: &Value) -> Vec<u8> {
    let mut w = Writer::default();
    write(&mut w, v);
    w.out
}

fn write(w: &mut Writer, v: &Value) {
    match v {
        Value::Null => w.out.push(0),
        Value::Bool(b) => w.out.push(1 + u8::from(*b)),
        Value::Number(n) => {
            if let Some(u) = n.as_u64() {
                w.out.push(3);
                w.varint(u);
            } else if let Some(i) = n.as_i64() {
                w.out.push(4);
                w.signed(i);
            } else {
                w.out.push(5);
                w.out.extend_from_slice(&n.as_f64().unwrap_or(0.0).to_le_bytes());
            }
        }
        Value::String(s) => {
            w.out.push(6);
            w.bytes(s.as_bytes());
        }
        Value::Array(items) => {
            w.out.push(7);
            w.varint(items.len() as u64);
            for item in items {
                write(w, item);
            }
        }
        Value::Object(members) => {
            w.out.push(8);
            w.varint(members.len() as u64);
            for (k, item) in members {
                w.bytes(k.as_bytes());
                write(w, item);
            }
        }
    }
}

fn error(what: &str) -> Error {
    Error(what.to_owned())
}

/// A `T` from `bytes`, which must hold exactly one value in the binary form (nested at most 128 deep).
pub fn from_bytes<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, Error> {
    let mut r = Values { r: Reader::new(bytes), depth: 0 };
    let value = T::deserialize(&mut r)?;
    r.r.finish()?;
    Ok(value)
}

/// The values in the bytes of `r`, and how deeply nested the one being read is.
struct Values<'b> {
    r: Reader<'b>,
    depth: u32,
}

impl Values<'_> {
    /// Runs `f` one level deeper.
    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T, Error>) -> Result<T, Error> {
        if self.depth >= 128 {
            return Err(error("values nested too deep"));
        }
        self.depth += 1;
        let out = f(self);
        self.depth -= 1;
        out
    }
}

impl<'de> Values<'de> {
    /// A scalar (anything but an array or object; those are refused as `v` would refuse them).
    fn scalar<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value, Error> {
        match self.r.byte()? {
            0 => v.visit_unit(),
            1 => v.visit_bool(false),
            2 => v.visit_bool(true),
            3 => v.visit_u64(self.r.varint()?),
            4 => v.visit_i64(self.r.signed()?),
            5 => {
                let b: [u8; 8] = self.r.take(8)?.try_into().map_err(|_| error("the message is cut short"))?;
                v.visit_f64(f64::from_le_bytes(b))
            }
            6 => v.visit_borrowed_str(self.r.str()?),
            7 => Err(de::Error::invalid_type(de::Unexpected::Seq, &v)),
            8 => Err(de::Error::invalid_type(de::Unexpected::Map, &v)),
            t => Err(Error(format!("unknown tag {t}"))),
        }
    }

    /// The items of an array (`tag` 7) or the members of an object (8), given to `v` by `visit` (its `visit_seq` or
    /// `visit_map`); anything else is read as a scalar, for `v` to take or refuse.
    fn items<V: Visitor<'de>>(
        &mut self,
        tag: u8,
        v: V,
        visit: impl FnOnce(V, &mut Items<'_, 'de>) -> Result<V::Value, Error>,
    ) -> Result<V::Value, Error> {
        if self.r.peek()? != tag {
            return self.scalar(v);
        }
        self.r.byte()?;
        let left = self.r.length()?;
        self.nested(|r| {
            let mut items = Items { r, left };
            let value = visit(v, &mut items)?;
            if items.left > 0 {
                return Err(error("an array or object has more items than expected"));
            }
            Ok(value)
        })
    }

    fn seq<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value, Error> {
        self.items(7, v, |v, items| v.visit_seq(items))
    }

    fn map<V: Visitor<'de>>(&mut self, v: V) -> Result<V::Value, Error> {
        self.items(8, v, |v, items| v.visit_map(items))
    }
}

/// Deserializer methods that read a scalar.
macro_rules! scalars {
    ($($method:ident)*) => {
        $(fn $method<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
            self.scalar(v)
        })*
    };
}

/// Each kind of request reads only what it can take (a copy of this code is made for every type read, so the
/// scalars do not carry the arrays' and objects' reading).
impl<'de> de::Deserializer<'de> for &mut Values<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        match self.r.peek()? {
            7 => self.seq(v),
            8 => self.map(v),
            _ => self.scalar(v),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        if self.r.peek()? == 0 {
            self.r.byte()?;
            v.visit_none()
        } else {
            v.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, v: V) -> Result<V::Value, Error> {
        v.visit_newtype_struct(self)
    }

    /// As JSON writes them: a unit variant as its name, any other as an object of one member, its name and content.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        match self.r.byte()? {
            6 => v.visit_enum(self.r.str()?.into_deserializer()),
            8 if self.r.varint()? == 1 => self.nested(|r| v.visit_enum(r)),
            _ => Err(error("an enum is its variant's name, or an object of one member")),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.seq(v)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, Error> {
        self.seq(v)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _n: &'static str, _len: usize, v: V) -> Result<V::Value, Error> {
        self.seq(v)
    }

    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, Error> {
        self.map(v)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, Error> {
        self.map(v)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, v: V) -> Result<V::Value, Error> {
        self.scalar(v)
    }

    scalars! {
        deserialize_bool deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64 deserialize_u8
        deserialize_u16 deserialize_u32 deserialize_u64 deserialize_f32 deserialize_f64 deserialize_char
        deserialize_str deserialize_string deserialize_bytes deserialize_byte_buf deserialize_unit
        deserialize_identifier
    }

    serde::forward_to_deserialize_any! { i128 u128 ignored_any }
}

/// The items of an array, or the members of an object, still to read.
struct Items<'r, 'de> {
    r: &'r mut Values<'de>,
    left: usize,
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.r).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

impl<'de> de::MapAccess<'de> for Items<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Error> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        let key = self.r.r.str()?;
        seed.deserialize(de::value::BorrowedStrDeserializer::new(key)).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        seed.deserialize(&mut *self.r)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

/// An enum written as an object of one member: the variant's name, then its content.
impl<'de> de::EnumAccess<'de> for &mut Values<'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<(T::Value, Self), Error> {
        let name = self.r.str()?;
        Ok((seed.deserialize(de::value::BorrowedStrDeserializer::new(name))?, self))
    }
}

impl<'de> de::VariantAccess<'de> for &mut Values<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        de::Deserialize::deserialize(self)
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(self)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, v: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_any(self, v)
    }

    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], v: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_any(self, v)
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
        let back: Value = from_bytes(&bytes).unwrap();
        assert_eq!(back, v);
        assert_eq!(back["b"][6].as_f64().unwrap().to_bits(), 0.1f64.to_bits());
        let keys: Vec<&str> = back["o"].as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["a", "z"]);
        let read = |b: &[u8]| from_bytes::<Value>(b).map_err(|e| e.0);
        for cut in 0..bytes.len() {
            assert!(read(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        assert!(read(&[9]).unwrap_err().contains("tag"));
        assert!(read(&[7, 0xff, 0xff, 0xff, 0xff, 0x0f]).is_err(), "a huge length is damage");
        assert!(read(&[0, 0]).unwrap_err().contains("left over"));
        let deep = [7u8, 1].repeat(200);
        assert!(read(&deep).unwrap_err().contains("deep"));
    }

    /// Typed values read from the bytes of their JSON value exactly as serde_json reads them from the value:
    /// every preset's scenario (internally tagged traffic, untagged CCT tables, options, defaults, enums of each
    /// kind) and each kind of message; a wrong shape is refused, as from JSON.
    #[test]
    fn typed_values_read_as_from_json() {
        use crate::protocol::ToWorker;
        use ibcc_core::scenario::{to_value, Scenario};
        for p in ibcc_core::presets::PRESETS {
            let s = p.scenario();
            assert_eq!(from_bytes::<Scenario>(&to_bytes(&to_value(&s))).unwrap(), s, "{}", p.name);
        }
        let s = ibcc_core::presets::find("a10-two-switch").unwrap().scenario();
        let m = ibcc_core::sim::Measurement {
            metric: ibcc_core::sim::Metric::GroupRate { group: String::from("victim") },
            from_ns: Some(1_000_000),
            to_ns: None,
        };
        for msg in [
            ToWorker::Load { run: 2, scenario: Box::new(s.clone()), checkpoints: true, papers: vec![] },
            ToWorker::Pause,
            ToWorker::Seek { to_ps: 7, then: None },
            ToWorker::Measure { id: 3, measurement: m },
            ToWorker::Bench { scenarios: vec![(String::from("x"), s.clone())] },
            ToWorker::RoutingBench,
            ToWorker::Pattern { scenario: Box::new(s.clone()), pattern: String::from("shift:3"), seed: 9 },
        ] {
            assert_eq!(from_bytes::<ToWorker>(&msg.to_bytes()).unwrap(), msg);
        }
        let wrong = serde_json::json!({"Seek": {"to_ps": "soon", "then": null}});
        let e = from_bytes::<ToWorker>(&to_bytes(&wrong)).unwrap_err().0;
        let from_json = serde_json::from_value::<ToWorker>(wrong).unwrap_err().to_string();
        assert_eq!(e, from_json, "the same complaint as from JSON");
    }
}
