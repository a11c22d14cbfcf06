//! A compact binary serde format for the worker's messages to the page (a frame many times a second, results,
//! sweep points; `ibcc_web::protocol::FromWorker`). Not self-describing (both sides have the same types, built
//! together), which keeps it small and fast:
//! - integers as LEB128 varints (signed ones zigzagged), `f32`/`f64` as their little-endian bits (exact: the page
//!   shows the worker's numbers bit for bit, and a digest sees every bit), `bool` as a byte;
//! - strings, byte strings, sequences and maps as a varint length and their items; structs, tuples and a variant's
//!   fields as their fields in order; an enum variant as its index; `Option` as 0 or 1 and the value.
//!
//! Why not JSON: the page then carries no JSON reader for the results, snapshots and trees it receives (issue 19),
//! and a frame of a large network costs a copy, not a parse.
//!
//! One rule for the types: a field skipped when `None` (`skip_serializing_if = "Option::is_none"`) is written as
//! `None`, so the field is always there for the reader; no other skip is allowed (a test checks every message).
//!
//! Why not postcard, whose format this is in all but two points: (1) the results and snapshots are the same types
//! the JSON files and share links use, where an absent field is left out (`skip_serializing_if`); postcard leaves it
//! out of its bytes too, and its reader, which cannot know, then reads every later field wrong, where this format
//! writes the skipped field as `None` (`skip_field` below); (2) `u8`/`i8` are varints here (postcard: one raw byte)
//! and a `char` is its code point (postcard: UTF-8). The first is the reason; the second costs nothing either way.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;
use serde::de::{self, DeserializeOwned, DeserializeSeed, IntoDeserializer, Visitor};
use serde::ser::{self, Serialize};

/// Why a message could not be written or read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WireError(pub String);

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl core::error::Error for WireError {}

impl ser::Error for WireError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self(msg.to_string())
    }
}

impl de::Error for WireError {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Self(msg.to_string())
    }

    /// As serde says it, but written here: serde's own wording formats floats and quotes strings with `Debug`,
    /// which would carry float formatting and Unicode tables into the worker's wasm for an error message.
    fn invalid_type(unexp: de::Unexpected, exp: &dyn de::Expected) -> Self {
        Self(format!("invalid type: {}, expected {exp}", unexpected(unexp)))
    }

    fn invalid_value(unexp: de::Unexpected, exp: &dyn de::Expected) -> Self {
        Self(format!("invalid value: {}, expected {exp}", unexpected(unexp)))
    }
}

/// What was found instead, in serde's words (a float without its value, a string in plain quotes).
fn unexpected(u: de::Unexpected) -> String {
    use de::Unexpected as U;
    let words = match u {
        U::Bool(b) => return format!("boolean `{b}`"),
        U::Unsigned(n) => return format!("integer `{n}`"),
        U::Signed(n) => return format!("integer `{n}`"),
        U::Char(c) => return format!("character `{c}`"),
        U::Str(s) => return format!("string \"{s}\""),
        U::Other(other) => other,
        U::Float(_) => "floating point number",
        U::Bytes(_) => "byte array",
        U::Unit => "unit value",
        U::Option => "Option value",
        U::NewtypeStruct => "newtype struct",
        U::Seq => "sequence",
        U::Map => "map",
        U::Enum => "enum",
        U::UnitVariant => "unit variant",
        U::NewtypeVariant => "newtype variant",
        U::TupleVariant => "tuple variant",
        U::StructVariant => "struct variant",
    };
    words.to_string()
}

fn unsupported(what: &str) -> WireError {
    WireError(format!("the binary format has no {what}"))
}

/// `value` in the binary form.
pub fn to_bytes<T: Serialize>(value: &T) -> Result<Vec<u8>, WireError> {
    let mut w = Writer { out: Vec::new() };
    value.serialize(&mut w)?;
    Ok(w.out)
}

/// A `T` from its binary form; every byte must be used.
pub fn from_bytes<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, WireError> {
    let mut r = Reader::new(bytes);
    let value = T::deserialize(&mut r)?;
    r.finish()?;
    Ok(value)
}

/// Bytes being written: the form's numbers and strings, for this format's serializer and for other binary forms
/// built on the same pieces (the page's messages to its worker, `ibcc_web::jsonbin`).
#[derive(Debug, Default)]
pub struct Writer {
    pub out: Vec<u8>,
}

impl Writer {
    /// An unsigned integer, LEB128.
    pub fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.out.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.out.push(v as u8);
    }

    /// A signed integer, zigzagged.
    pub fn signed(&mut self, v: i64) {
        self.varint(((v << 1) ^ (v >> 63)) as u64);
    }

    /// Bytes (or a string's UTF-8), after their length.
    pub fn bytes(&mut self, v: &[u8]) {
        self.varint(v.len() as u64);
        self.out.extend_from_slice(v);
    }

    fn len(&mut self, len: Option<usize>) -> Result<(), WireError> {
        self.varint(len.ok_or_else(|| unsupported("sequence of unknown length"))? as u64);
        Ok(())
    }
}

impl ser::Serializer for &mut Writer {
    type Ok = ();
    type Error = WireError;
    type SerializeSeq = Self;
    type SerializeTuple = Self;
    type SerializeTupleStruct = Self;
    type SerializeTupleVariant = Self;
    type SerializeMap = Self;
    type SerializeStruct = Self;
    type SerializeStructVariant = Self;

    fn serialize_bool(self, v: bool) -> Result<(), WireError> {
        self.out.push(u8::from(v));
        Ok(())
    }
    fn serialize_i8(self, v: i8) -> Result<(), WireError> {
        self.signed(v.into());
        Ok(())
    }
    fn serialize_i16(self, v: i16) -> Result<(), WireError> {
        self.signed(v.into());
        Ok(())
    }
    fn serialize_i32(self, v: i32) -> Result<(), WireError> {
        self.signed(v.into());
        Ok(())
    }
    fn serialize_i64(self, v: i64) -> Result<(), WireError> {
        self.signed(v);
        Ok(())
    }
    fn serialize_u8(self, v: u8) -> Result<(), WireError> {
        self.varint(v.into());
        Ok(())
    }
    fn serialize_u16(self, v: u16) -> Result<(), WireError> {
        self.varint(v.into());
        Ok(())
    }
    fn serialize_u32(self, v: u32) -> Result<(), WireError> {
        self.varint(v.into());
        Ok(())
    }
    fn serialize_u64(self, v: u64) -> Result<(), WireError> {
        self.varint(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), WireError> {
        self.out.extend_from_slice(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_f64(self, v: f64) -> Result<(), WireError> {
        self.out.extend_from_slice(&v.to_le_bytes());
        Ok(())
    }
    fn serialize_char(self, v: char) -> Result<(), WireError> {
        self.varint(u64::from(u32::from(v)));
        Ok(())
    }
    fn serialize_str(self, v: &str) -> Result<(), WireError> {
        self.serialize_bytes(v.as_bytes())
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), WireError> {
        self.bytes(v);
        Ok(())
    }
    fn serialize_none(self) -> Result<(), WireError> {
        self.out.push(0);
        Ok(())
    }
    fn serialize_some<T: ?Sized + Serialize>(self, value: &T) -> Result<(), WireError> {
        self.out.push(1);
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), WireError> {
        Ok(())
    }
    fn serialize_unit_struct(self, _: &'static str) -> Result<(), WireError> {
        Ok(())
    }
    fn serialize_unit_variant(self, _: &'static str, index: u32, _: &'static str) -> Result<(), WireError> {
        self.varint(index.into());
        Ok(())
    }
    fn serialize_newtype_struct<T: ?Sized + Serialize>(self, _: &'static str, value: &T) -> Result<(), WireError> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: ?Sized + Serialize>(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        value: &T,
    ) -> Result<(), WireError> {
        self.varint(index.into());
        value.serialize(self)
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<Self, WireError> {
        self.len(len)?;
        Ok(self)
    }
    fn serialize_tuple(self, _: usize) -> Result<Self, WireError> {
        Ok(self)
    }
    fn serialize_tuple_struct(self, _: &'static str, _: usize) -> Result<Self, WireError> {
        Ok(self)
    }
    fn serialize_tuple_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, WireError> {
        self.varint(index.into());
        Ok(self)
    }
    fn serialize_map(self, len: Option<usize>) -> Result<Self, WireError> {
        self.len(len)?;
        Ok(self)
    }
    fn serialize_struct(self, _: &'static str, _: usize) -> Result<Self, WireError> {
        Ok(self)
    }
    fn serialize_struct_variant(
        self,
        _: &'static str,
        index: u32,
        _: &'static str,
        _: usize,
    ) -> Result<Self, WireError> {
        self.varint(index.into());
        Ok(self)
    }
}

impl ser::SerializeSeq for &mut Writer {
    type Ok = ();
    type Error = WireError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), WireError> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), WireError> {
        Ok(())
    }
}

impl ser::SerializeTuple for &mut Writer {
    type Ok = ();
    type Error = WireError;
    fn serialize_element<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), WireError> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), WireError> {
        Ok(())
    }
}

impl ser::SerializeTupleStruct for &mut Writer {
    type Ok = ();
    type Error = WireError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), WireError> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), WireError> {
        Ok(())
    }
}

impl ser::SerializeTupleVariant for &mut Writer {
    type Ok = ();
    type Error = WireError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), WireError> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), WireError> {
        Ok(())
    }
}

impl ser::SerializeMap for &mut Writer {
    type Ok = ();
    type Error = WireError;
    fn serialize_key<T: ?Sized + Serialize>(&mut self, key: &T) -> Result<(), WireError> {
        key.serialize(&mut **self)
    }
    fn serialize_value<T: ?Sized + Serialize>(&mut self, value: &T) -> Result<(), WireError> {
        value.serialize(&mut **self)
    }
    fn end(self) -> Result<(), WireError> {
        Ok(())
    }
}

impl ser::SerializeStruct for &mut Writer {
    type Ok = ();
    type Error = WireError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, _: &'static str, value: &T) -> Result<(), WireError> {
        value.serialize(&mut **self)
    }
    /// Only `skip_serializing_if = "Option::is_none"` skips a field (see the module's rule): write it as `None`.
    fn skip_field(&mut self, _: &'static str) -> Result<(), WireError> {
        self.out.push(0);
        Ok(())
    }
    fn end(self) -> Result<(), WireError> {
        Ok(())
    }
}

impl ser::SerializeStructVariant for &mut Writer {
    type Ok = ();
    type Error = WireError;
    fn serialize_field<T: ?Sized + Serialize>(&mut self, _: &'static str, value: &T) -> Result<(), WireError> {
        value.serialize(&mut **self)
    }
    fn skip_field(&mut self, _: &'static str) -> Result<(), WireError> {
        self.out.push(0);
        Ok(())
    }
    fn end(self) -> Result<(), WireError> {
        Ok(())
    }
}

/// Bytes being read: the form's numbers and strings, for this format's deserializer and for other binary forms
/// built on the same pieces. Nothing read can make it panic or allocate beyond the bytes it holds.
#[derive(Debug)]
pub struct Reader<'b> {
    bytes: &'b [u8],
    at: usize,
}

impl<'b> Reader<'b> {
    pub fn new(bytes: &'b [u8]) -> Self {
        Self { bytes, at: 0 }
    }

    /// Every byte must have been read.
    pub fn finish(&self) -> Result<(), WireError> {
        match self.bytes.len() - self.at {
            0 => Ok(()),
            left => Err(WireError(format!("{left} bytes left over after the message"))),
        }
    }

    /// The next byte, not read yet.
    pub fn peek(&self) -> Result<u8, WireError> {
        self.bytes.get(self.at).copied().ok_or_else(|| WireError(String::from("the message is cut short")))
    }

    /// The next `n` bytes.
    pub fn take(&mut self, n: usize) -> Result<&'b [u8], WireError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let end = end.ok_or_else(|| WireError(String::from("the message is cut short")))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    /// The next byte.
    pub fn byte(&mut self) -> Result<u8, WireError> {
        Ok(self.take(1)?[0])
    }

    /// An unsigned integer (LEB128).
    pub fn varint(&mut self) -> Result<u64, WireError> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err(WireError(String::from("a number is too long")))
    }

    /// A signed integer (zigzagged).
    pub fn signed(&mut self) -> Result<i64, WireError> {
        let v = self.varint()?;
        Ok(((v >> 1) as i64) ^ -((v & 1) as i64))
    }

    fn fits<T: TryFrom<u64>>(v: u64) -> Result<T, WireError> {
        T::try_from(v).map_err(|_| WireError(format!("{v} is out of range")))
    }

    fn fits_signed<T: TryFrom<i64>>(v: i64) -> Result<T, WireError> {
        T::try_from(v).map_err(|_| WireError(format!("{v} is out of range")))
    }

    /// A length, no longer than the bytes left (each item takes at least one byte, or none for unit items, which
    /// no message has in a sequence): a damaged length cannot ask for a huge allocation.
    pub fn length(&mut self) -> Result<usize, WireError> {
        let n = self.varint()?;
        if n > (self.bytes.len() - self.at) as u64 {
            return Err(WireError(format!("a length of {n} is longer than the message")));
        }
        Ok(n as usize)
    }

    /// A string, after its length.
    pub fn str(&mut self) -> Result<&'b str, WireError> {
        let n = self.length()?;
        core::str::from_utf8(self.take(n)?).map_err(|_| WireError(String::from("a string is not UTF-8")))
    }
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = WireError;

    fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, WireError> {
        Err(unsupported("self-describing values"))
    }
    fn deserialize_bool<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        match self.byte()? {
            0 => v.visit_bool(false),
            1 => v.visit_bool(true),
            b => Err(WireError(format!("{b} is not a boolean"))),
        }
    }
    fn deserialize_i8<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        let n = self.signed()?;
        v.visit_i8(Reader::fits_signed(n)?)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        let n = self.signed()?;
        v.visit_i16(Reader::fits_signed(n)?)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        let n = self.signed()?;
        v.visit_i32(Reader::fits_signed(n)?)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        v.visit_i64(self.signed()?)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        let n = self.varint()?;
        v.visit_u8(Reader::fits(n)?)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        let n = self.varint()?;
        v.visit_u16(Reader::fits(n)?)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        let n = self.varint()?;
        v.visit_u32(Reader::fits(n)?)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        v.visit_u64(self.varint()?)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        let b = self.take(4)?;
        v.visit_f32(f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
    fn deserialize_f64<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        let b = self.take(8)?;
        v.visit_f64(f64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
    }
    fn deserialize_char<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        let n: u32 = Reader::fits(self.varint()?)?;
        v.visit_char(char::from_u32(n).ok_or_else(|| WireError(format!("{n} is not a character")))?)
    }
    fn deserialize_str<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        v.visit_borrowed_str(self.str()?)
    }
    fn deserialize_string<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        v.visit_borrowed_str(self.str()?)
    }
    fn deserialize_bytes<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        let n = self.length()?;
        v.visit_borrowed_bytes(self.take(n)?)
    }
    fn deserialize_byte_buf<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        self.deserialize_bytes(v)
    }
    fn deserialize_option<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        match self.byte()? {
            0 => v.visit_none(),
            1 => v.visit_some(self),
            b => Err(WireError(format!("{b} is not an option's tag"))),
        }
    }
    fn deserialize_unit<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        v.visit_unit()
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(self, _: &'static str, v: V) -> Result<V::Value, WireError> {
        v.visit_unit()
    }
    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _: &'static str, v: V) -> Result<V::Value, WireError> {
        v.visit_newtype_struct(self)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        let n = self.length()?;
        v.visit_seq(Items { r: self, left: n })
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, WireError> {
        v.visit_seq(Items { r: self, left: len })
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        len: usize,
        v: V,
    ) -> Result<V::Value, WireError> {
        v.visit_seq(Items { r: self, left: len })
    }
    fn deserialize_map<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        let n = self.length()?;
        v.visit_map(Items { r: self, left: n })
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _: &'static str,
        fields: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, WireError> {
        v.visit_seq(Items { r: self, left: fields.len() })
    }
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _: &'static str,
        _: &'static [&'static str],
        v: V,
    ) -> Result<V::Value, WireError> {
        v.visit_enum(self)
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, v: V) -> Result<V::Value, WireError> {
        v.visit_u64(self.varint()?)
    }
    fn deserialize_ignored_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, WireError> {
        Err(unsupported("ignored values"))
    }
    fn is_human_readable(&self) -> bool {
        false
    }
}

/// The items of a sequence, tuple, struct or map.
struct Items<'r, 'de> {
    r: &'r mut Reader<'de>,
    left: usize,
}

impl<'de> de::SeqAccess<'de> for Items<'_, 'de> {
    type Error = WireError;
    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, WireError> {
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
    type Error = WireError;
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, WireError> {
        if self.left == 0 {
            return Ok(None);
        }
        self.left -= 1;
        seed.deserialize(&mut *self.r).map(Some)
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, WireError> {
        seed.deserialize(&mut *self.r)
    }
    fn size_hint(&self) -> Option<usize> {
        Some(self.left)
    }
}

impl<'de> de::EnumAccess<'de> for &mut Reader<'de> {
    type Error = WireError;
    type Variant = Self;
    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), WireError> {
        let index: u32 = Reader::fits(self.varint()?)?;
        let value = seed.deserialize(index.into_deserializer())?;
        Ok((value, self))
    }
}

impl<'de> de::VariantAccess<'de> for &mut Reader<'de> {
    type Error = WireError;
    fn unit_variant(self) -> Result<(), WireError> {
        Ok(())
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, WireError> {
        seed.deserialize(self)
    }
    fn tuple_variant<V: Visitor<'de>>(self, len: usize, v: V) -> Result<V::Value, WireError> {
        v.visit_seq(Items { r: self, left: len })
    }
    fn struct_variant<V: Visitor<'de>>(self, fields: &'static [&'static str], v: V) -> Result<V::Value, WireError> {
        v.visit_seq(Items { r: self, left: fields.len() })
    }
}

#[cfg(test)]
mod tests {
    use super::{from_bytes, to_bytes};
    use alloc::collections::BTreeMap;
    use alloc::string::String;
    use alloc::vec;
    use alloc::vec::Vec;
    use serde::{Deserialize, Serialize};

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    enum Kind {
        Unit,
        New(i16),
        Tuple(u8, char),
        Fields { a: Option<u64>, b: String },
    }

    #[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
    struct All {
        b: bool,
        i: i64,
        u: u64,
        f: f64,
        g: f32,
        s: String,
        v: Vec<Kind>,
        m: BTreeMap<String, u32>,
        t: (u8, i32),
        #[serde(default, skip_serializing_if = "Option::is_none")]
        skipped: Option<String>,
        r: Result<f64, String>,
    }

    fn sample() -> All {
        All {
            b: true,
            i: -1 << 40,
            u: u64::MAX,
            f: -0.1 + 0.2,
            g: f32::MIN_POSITIVE,
            s: String::from("héllo"),
            v: vec![Kind::Unit, Kind::New(-300), Kind::Tuple(7, 'λ'), Kind::Fields { a: None, b: "x".into() }],
            m: [(String::from("k"), 5)].into(),
            t: (255, i32::MIN),
            skipped: None,
            r: Err(String::from("no")),
        }
    }

    /// Every shape of value survives the trip bit for bit, including a field skipped when `None`.
    #[test]
    fn round_trips() {
        let a = sample();
        assert_eq!(from_bytes::<All>(&to_bytes(&a).unwrap()).unwrap(), a);
        let b = All { skipped: Some("here".into()), f: f64::NAN, ..sample() };
        let back: All = from_bytes(&to_bytes(&b).unwrap()).unwrap();
        assert!(back.f.is_nan() && back.f.to_bits() == b.f.to_bits());
        assert_eq!(back.skipped.as_deref(), Some("here"));
    }

    /// A damaged message is an error, never a panic or a huge allocation: every cut and every flipped byte.
    #[test]
    fn damaged_messages_are_errors() {
        let bytes = to_bytes(&sample()).unwrap();
        for cut in 0..bytes.len() {
            assert!(from_bytes::<All>(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        for i in 0..bytes.len() {
            let mut b = bytes.clone();
            b[i] ^= 0xff;
            let _ = from_bytes::<All>(&b);
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(from_bytes::<All>(&longer).unwrap_err().0.contains("left over"));
        assert!(from_bytes::<Vec<u8>>(&[0xff, 0xff, 0xff, 0x0f]).unwrap_err().0.contains("longer than the message"));
    }
}
