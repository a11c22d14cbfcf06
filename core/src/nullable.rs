//! A serde helper for override blocks: tells an explicit `null` (`Some(None)`: "none for this one") from an absent
//! field (`None`, with `#[serde(default)]`: "as the defaults say").

use serde::{Deserialize, Deserializer};

pub(crate) fn present_or_null<'de, D: Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    Option::<T>::deserialize(d).map(Some)
}
