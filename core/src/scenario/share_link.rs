//! Share links: a scenario and how the page shows it, packed into a URL fragment (`#s=<link>`).
//!
//! A link is `<version>.<payload>`: the payload is the compact JSON of [`Shared`], compressed with raw DEFLATE and
//! written in URL-safe base64 without padding, so a link survives chat clients and address bars. Decoding trusts
//! nothing: sizes are bounded before and after decompression (no "zip bombs"), the JSON is parsed into plain data
//! (nothing in a link is ever run), and the scenario goes through the same validation as a file. Every failure is a
//! [`ShareLinkError`] that says what is wrong.
//!
//! Versions: a link says which version of this format made it. Version 1 is the first; when the format changes,
//! [`migrate`] turns the JSON of each older version into the next one, so old links keep opening.

use super::{Scenario, ScenarioError};
use crate::time::ms_text;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use core::fmt;
use serde::{Deserialize, Serialize};

/// The version of the link format this build writes.
pub const LINK_VERSION: u32 = 1;
/// The longest link accepted, in characters (a few hundred kB of URL is already more than browsers like).
pub const MAX_LINK_CHARS: usize = 400_000;
/// The most JSON a link may inflate to, in bytes.
pub const MAX_JSON_BYTES: usize = 4 << 20;

/// What a link carries: the scenario (topology and layout, flows, every parameter, seed, duration, its format
/// version) and what the page shows of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Shared {
    pub scenario: Scenario,
    /// The plot shown (the page's plot kind: "rates", "limits", "buffers", "marks").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plot: Option<String>,
    /// The moment of the run the link opens at, in picoseconds of simulated time (where its sender had paused):
    /// the page computes the run up to it and pauses there. None: at 0, as the run starts. At most the scenario's
    /// duration.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_ps: Option<u64>,
}

/// Why a link could not be opened.
#[derive(Debug, Clone, PartialEq)]
pub enum ShareLinkError {
    Empty,
    /// No `<version>.` in front.
    NoVersion,
    /// A version this build does not know (made by a newer version of the page).
    UnknownVersion(String),
    TooLong {
        chars: usize,
    },
    /// Not URL-safe base64 (damaged, or cut short by a chat client).
    NotBase64,
    /// The compressed data is damaged or truncated.
    Damaged,
    /// It inflates to more than [`MAX_JSON_BYTES`].
    TooLarge,
    /// Not the JSON of a shared scenario (the message says where).
    Json(String),
    /// A scenario the simulator refuses.
    Scenario(ScenarioError),
    /// A moment to open at that is not a time (its JSON as written).
    BadMoment(String),
    /// A moment to open at past the end of the scenario's run.
    MomentPastEnd {
        at_ps: u64,
        end_ps: u64,
    },
}

impl fmt::Display for ShareLinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => f.write_str("the link has no scenario in it"),
            Self::NoVersion => f.write_str("the link does not start with a format version (\"1.\")"),
            Self::UnknownVersion(v) => {
                write!(
                    f,
                    "the link's format version {} is newer than this page knows ({LINK_VERSION})",
                    super::Quoted(v)
                )
            }
            Self::TooLong { chars } => write!(f, "the link is too long ({chars} characters; at most {MAX_LINK_CHARS})"),
            Self::NotBase64 => f.write_str("the link is damaged: it has characters a link cannot have, or was cut"),
            Self::Damaged => f.write_str("the link is damaged or cut short: its data does not decompress"),
            Self::TooLarge => write!(f, "the link's scenario is too large (over {MAX_JSON_BYTES} bytes)"),
            Self::Json(e) => write!(f, "the link does not hold a scenario: {e}"),
            Self::Scenario(e) => write!(f, "the link's scenario is not valid: {e}"),
            Self::BadMoment(v) => write!(
                f,
                "the link's moment to open at (at_ps) is {v}, not a time: a whole number of picoseconds, 0 or more"
            ),
            Self::MomentPastEnd { at_ps, end_ps } => {
                write!(
                    f,
                    "the link opens its run at {} ms, past the run's end at {} ms",
                    ms_text(*at_ps),
                    ms_text(*end_ps)
                )
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ShareLinkError {}

/// `value` as a link payload: `<version>.<base64url(deflate(json))>`. Share links and exercise links both use it.
pub fn pack<T: Serialize>(value: &T) -> String {
    wrap(&miniz_oxide::deflate::compress_to_vec(&json_of(value), 9))
}

/// Whether a link just made can be opened: one longer than [`MAX_LINK_CHARS`] would be refused by every reader
/// (a fabric of several thousand hosts), so its maker says so at once, rather than hand out a link that fails.
pub fn fits(link: &str) -> Result<(), ShareLinkError> {
    let chars = link.chars().count();
    if chars > MAX_LINK_CHARS {
        return Err(ShareLinkError::TooLong { chars });
    }
    Ok(())
}

/// What to do with a scenario too large for a link: the message that goes with [`fits`]'s refusal.
pub const TOO_LONG_ADVICE: &str = "a network this large travels as a scenario file instead (Save JSON in the page)";

/// The JSON a link of `value` carries (compact), before it is deflated.
pub fn json_of<T: Serialize>(value: &T) -> Vec<u8> {
    serde_json::to_vec(value).expect("plain data always serializes")
}

/// Raw DEFLATE data as a link payload: `<version>.<base64url>`. The page deflates with the browser's own
/// `CompressionStream` (no DEFLATE code in its wasm), the command line with miniz_oxide ([`pack`]): a link made by
/// either opens in both.
pub fn wrap(deflated: &[u8]) -> String {
    let mut out = LINK_VERSION.to_string();
    out.push('.');
    URL_SAFE_NO_PAD.encode_string(deflated, &mut out);
    out
}

/// The JSON inside a link payload made by [`pack`], migrated to the current version; nothing about its meaning
/// is checked yet.
pub fn unpack(link: &str) -> Result<serde_json::Value, ShareLinkError> {
    let (version, deflated) = unwrap(link)?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_JSON_BYTES).map_err(|e| {
        if e.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput {
            ShareLinkError::TooLarge
        } else {
            ShareLinkError::Damaged
        }
    })?;
    read_json(version, &json)
}

/// A link payload's version and its raw DEFLATE data (not inflated yet: [`read_json`] takes the inflated JSON,
/// which must be at most [`MAX_JSON_BYTES`]).
pub fn unwrap(link: &str) -> Result<(u32, Vec<u8>), ShareLinkError> {
    let link = link.trim();
    if link.is_empty() {
        return Err(ShareLinkError::Empty);
    }
    if link.chars().count() > MAX_LINK_CHARS {
        return Err(ShareLinkError::TooLong { chars: link.chars().count() });
    }
    let (version, payload) = link.split_once('.').ok_or(ShareLinkError::NoVersion)?;
    let version: u32 = match version.parse() {
        Ok(v) if (1..=LINK_VERSION).contains(&v) => v,
        Ok(_) | Err(_) if version.bytes().all(|b| b.is_ascii_digit()) && !version.is_empty() => {
            return Err(ShareLinkError::UnknownVersion(version.into()))
        }
        _ => return Err(ShareLinkError::NoVersion),
    };
    if payload.is_empty() {
        return Err(ShareLinkError::Empty);
    }
    let deflated = URL_SAFE_NO_PAD.decode(payload).map_err(|_| ShareLinkError::NotBase64)?;
    Ok((version, deflated))
}

/// The JSON value of a link of `version` from its inflated bytes, migrated to the current version.
pub fn read_json(version: u32, json: &[u8]) -> Result<serde_json::Value, ShareLinkError> {
    // From text, not bytes: one JSON reader in the page's wasm (scenario/json.rs).
    let json = core::str::from_utf8(json).map_err(|_| ShareLinkError::Json("the data is not UTF-8 text".into()))?;
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| ShareLinkError::Json(e.to_string()))?;
    migrate(version, value)
}

/// The link of `shared` (without the `#s=`).
pub fn encode(shared: &Shared) -> String {
    pack(shared)
}

/// Opens a link (without the `#s=`; surrounding whitespace is ignored).
pub fn decode(link: &str) -> Result<Shared, ShareLinkError> {
    shared_of(&unpack(link)?)
}

/// What a link's JSON value holds, checked: the scenario gets the companion settings it lacks (as any edit does:
/// `Scenario::with_companions`) and goes through the same checks as a file the page opens (`Scenario::check`: all
/// but the routing engine's verdict, which the run gives).
pub fn shared_of(value: &serde_json::Value) -> Result<Shared, ShareLinkError> {
    // (Named here: the reader's own message would blame the scenario.)
    if let Some(at) = value.get("at_ps").filter(|at| !at.is_null() && at.as_u64().is_none()) {
        return Err(ShareLinkError::BadMoment(at.to_string()));
    }
    let mut shared: Shared = super::from_value(value).map_err(ShareLinkError::Json)?;
    shared.scenario = shared.scenario.clone().with_companions(&shared.scenario);
    shared.scenario.check().map_err(ShareLinkError::Scenario)?;
    shared.moment_in_run()?;
    Ok(shared)
}

impl Shared {
    /// Whether the moment to open at, if any, is within the scenario's run (its end included).
    pub fn moment_in_run(&self) -> Result<(), ShareLinkError> {
        let end_ps = self.scenario.duration_ns.saturating_mul(1_000);
        match self.at_ps {
            Some(at_ps) if at_ps > end_ps => Err(ShareLinkError::MomentPastEnd { at_ps, end_ps }),
            _ => Ok(()),
        }
    }
}

/// The `<iframe>` snippet that embeds the playground published at `page` (its address: a folder ending in `/` or
/// its `index.html`) showing `link` in another page (docs/embedding.md): the network, the transport and the plot.
pub fn embed_code(page: &str, link: &str, name: &str) -> String {
    let title: String = alloc::format!("IBCC Playground: {name}").chars().filter(|c| !"\"<>&".contains(*c)).collect();
    alloc::format!(
        r#"<iframe src="{page}?embed#s={link}" title="{title}" width="640" height="400" style="border:0;max-width:100%" loading="lazy"></iframe>"#
    )
}

/// Brings the JSON of a link of `version` up to [`LINK_VERSION`], one version at a time. There is only version 1
/// so far: a change of the format adds a step here (`1 => ...`) and a test that opens a link of the old version.
pub fn migrate(version: u32, value: serde_json::Value) -> Result<serde_json::Value, ShareLinkError> {
    match version {
        LINK_VERSION => Ok(value),
        other => Err(ShareLinkError::UnknownVersion(other.to_string())),
    }
}

/// Bytes of a link, for fuzzing: any input must give `Ok` or a `ShareLinkError`, never a panic.
pub fn decode_bytes(bytes: &[u8]) -> Result<Shared, ShareLinkError> {
    decode(&String::from_utf8_lossy(bytes))
}

#[cfg(test)]
mod tests {
    #[test]
    fn embed_code_is_an_iframe_of_the_embed_view_with_a_safe_title() {
        let code = embed_code("https://example.org/net/playground/", "1.abc", "a \"quoted\" <name> & more");
        assert_eq!(
            code,
            r#"<iframe src="https://example.org/net/playground/?embed#s=1.abc" title="IBCC Playground: a quoted name  more" width="640" height="400" style="border:0;max-width:100%" loading="lazy"></iframe>"#
        );
    }

    use super::*;
    use crate::presets::PRESETS;
    use alloc::format;
    use alloc::vec::Vec;

    #[test]
    fn every_preset_round_trips() {
        for p in PRESETS {
            let scenario = p.scenario();
            let at_ps = Some(scenario.duration_ns * 1_000 / 2);
            let shared = Shared { scenario, plot: Some("buffers".into()), at_ps };
            let link = encode(&shared);
            assert!(link.starts_with("1."), "{link}");
            assert!(link.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b)), "URL-safe: {}", p.name);
            assert_eq!(decode(&link).unwrap(), shared, "{}", p.name);
        }
    }

    /// A link the readers would refuse is refused as it is made, by the same count; one at the limit fits.
    #[test]
    fn a_link_too_long_to_open_is_refused_when_made() {
        let at_limit = "1.".to_string() + &"A".repeat(MAX_LINK_CHARS - 2);
        assert_eq!(fits(&at_limit), Ok(()));
        assert_ne!(unwrap(&at_limit), Err(ShareLinkError::TooLong { chars: MAX_LINK_CHARS }));
        let over = at_limit + "A";
        assert_eq!(fits(&over), Err(ShareLinkError::TooLong { chars: MAX_LINK_CHARS + 1 }));
        assert_eq!(unwrap(&over), Err(ShareLinkError::TooLong { chars: MAX_LINK_CHARS + 1 }));
    }

    #[test]
    fn links_are_compact() {
        let s = crate::presets::find("infocom03-fig2").unwrap().scenario();
        let json = s.to_json();
        let link = encode(&Shared { scenario: s, plot: None, at_ps: None });
        assert!(link.len() * 3 < json.len(), "{} chars for {} bytes of JSON", link.len(), json.len());
    }

    #[test]
    fn bad_links_say_what_is_wrong() {
        let good = encode(&Shared {
            scenario: crate::presets::find("infocom03-fig2").unwrap().scenario(),
            plot: None,
            at_ps: None,
        });
        let cut = &good[..good.len() / 2];
        let cases: Vec<(String, &str)> = alloc::vec![
            (String::new(), "no scenario"),
            ("abc".into(), "format version"),
            ("9.abc".into(), "newer than this page"),
            ("1.".into(), "no scenario"),
            ("1.a b".into(), "damaged"),
            ("1.AAAA".into(), "damaged"),
            (cut.into(), "damaged"),
            (
                format!("1.{}", URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"{\"x\":1}", 6))),
                "does not hold a scenario"
            ),
            (
                format!(
                    "1.{}",
                    URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(b"<script>alert(1)</script>", 6))
                ),
                "does not hold a scenario"
            ),
            ("1.".to_string() + &"A".repeat(MAX_LINK_CHARS), "too long"),
        ];
        for (link, expected) in cases {
            let e = decode(&link).unwrap_err().to_string();
            assert!(e.contains(expected), "{link:.40}: {e}");
        }
    }

    /// A link opens at a moment of its run up to the run's end, and one past it is refused, naming both times.
    #[test]
    fn a_moment_past_the_runs_end_is_refused() {
        let s = crate::presets::find("infocom03-fig2").unwrap().scenario();
        let end_ps = s.duration_ns * 1_000;
        let at = |at_ps| decode(&encode(&Shared { scenario: s.clone(), plot: None, at_ps: Some(at_ps) }));
        assert_eq!(at(end_ps).unwrap().at_ps, Some(end_ps));
        assert_eq!(at(45_500_000_000).unwrap().at_ps, Some(45_500_000_000));
        assert_eq!(ms_text(45_500_000_000), "45.5");
        let e = at(end_ps + 1).unwrap_err();
        assert_eq!(e, ShareLinkError::MomentPastEnd { at_ps: end_ps + 1, end_ps });
        assert_eq!(e.to_string(), "the link opens its run at 100.000000001 ms, past the run's end at 100 ms");
        // Not a time at all: named as the moment, not blamed on the scenario.
        let mut value = serde_json::to_value(Shared { scenario: s.clone(), plot: None, at_ps: None }).unwrap();
        for bad in [serde_json::json!(-5), serde_json::json!(12.5), serde_json::json!("45 ms"), serde_json::json!(1e30)]
        {
            value["at_ps"] = bad.clone();
            assert_eq!(shared_of(&value), Err(ShareLinkError::BadMoment(bad.to_string())));
        }
        value["at_ps"] = serde_json::json!(-5);
        assert_eq!(
            shared_of(&value).unwrap_err().to_string(),
            "the link's moment to open at (at_ps) is -5, not a time: a whole number of picoseconds, 0 or more"
        );
    }

    #[test]
    fn a_bomb_is_refused_before_it_inflates() {
        let zeros = alloc::vec![b' '; MAX_JSON_BYTES + 1];
        let link = format!("1.{}", URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&zeros, 9)));
        assert!(link.len() < 20_000);
        assert_eq!(decode(&link), Err(ShareLinkError::TooLarge));
    }

    #[test]
    fn an_invalid_scenario_names_its_problem() {
        let mut s = crate::presets::find("infocom03-fig2").unwrap().scenario();
        s.flows[0].dst = "nowhere".into();
        let json = serde_json::to_vec(&Shared { scenario: s, plot: None, at_ps: None }).unwrap();
        let link = format!("1.{}", URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(&json, 9)));
        let e = decode(&link).unwrap_err().to_string();
        assert!(e.contains("not valid") && e.contains("nowhere"), "{e}");
    }
}
