//! Why a scenario was refused: which element, which field, what is wrong. The page uses the element and field to
//! point at the culprit; the CLI prints the message.

use alloc::string::String;
use core::fmt;

/// The part of a scenario an error is about. Indices are positions in the scenario's arrays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Element {
    /// The scenario as a whole, or one of its top-level blocks.
    Scenario,
    Node {
        index: usize,
        id: String,
    },
    Link {
        index: usize,
        a: String,
        b: String,
    },
    Flow {
        index: usize,
        id: String,
    },
}

/// What is wrong.
#[derive(Debug, Clone, PartialEq)]
pub enum Problem {
    /// Not JSON, or not of the scenario's shape (the message has the line and column).
    Parse(String),
    /// `format` is not `"ibcc-scenario"`.
    WrongFormat(String),
    /// A `version` this build cannot read.
    UnsupportedVersion(u32),
    /// Another node (or flow) already has this id.
    DuplicateId,
    /// An id is empty, too long, or has control characters.
    BadId,
    /// A node's id with `->` in it: links are named `from->to`, which it would make ambiguous.
    ArrowInNodeId,
    /// A reference to a node that does not exist.
    UnknownNode(String),
    /// A link from a node to itself.
    SelfLink,
    /// A host must have exactly one link; this one has this many.
    HostLinkCount(usize),
    /// A flow endpoint that is a switch.
    NotAHost(String),
    /// An updn root that is a host.
    NotASwitch(String),
    /// The routing engine cannot route this network; the text says why.
    Routing(String),
    /// The `fabric` block's topology cannot be read, or the network is no longer the fabric's.
    Fabric(String),
    /// A flow from a host to itself.
    SameEndpoints,
    /// No path from the flow's source to its destination (their ids).
    Unreachable { src: String, dst: String },
    /// A number outside its allowed range; the text says the range.
    OutOfRange(&'static str),
    /// An input buffer that cannot hold one maximum-size packet.
    BufferSmallerThanPacket,
    /// A size limit of this build (keeps the page responsive and memory bounded).
    LimitExceeded { limit: u64, got: u64 },
    /// A setting that only makes sense with another one.
    Inconsistent(&'static str),
    /// The rate series (`series` of them: one per direction of each link, one per group) would need `samples`
    /// samples, over this build's limit, even with one sample per measurement window.
    TooManySamples { series: u64, samples: u64, limit: u64 },
}

/// A refused scenario: the element, the field (`""` when the whole element is meant) and the problem.
#[derive(Debug, Clone, PartialEq)]
pub struct ScenarioError {
    pub element: Element,
    pub field: &'static str,
    pub problem: Problem,
}

impl ScenarioError {
    pub(crate) fn parse(message: String) -> Self {
        Self { element: Element::Scenario, field: "", problem: Problem::Parse(message) }
    }
}

/// A name in double quotes, as `{:?}` writes it for the names people type (quotes and backslashes escaped, control
/// characters, spaces other than ' ', and the invisible or direction-changing characters a name may carry as
/// `\u{..}`), without `Debug`'s Unicode tables in the wasm files. (Debug also escapes a combining mark at the start
/// and unassigned code points; those print as they are here.)
pub(crate) struct Quoted<'a>(pub &'a str);

/// Characters a reader could not see or that would reorder the text around them.
fn unseen(c: char) -> bool {
    c.is_control()
        || (c.is_whitespace() && c != ' ')
        || matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{feff}')
}

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("\"")?;
        for c in self.0.chars() {
            match c {
                '"' | '\\' => write!(f, "\\{c}")?,
                '\t' => f.write_str("\\t")?,
                '\n' => f.write_str("\\n")?,
                '\r' => f.write_str("\\r")?,
                '\0' => f.write_str("\\0")?,
                c if unseen(c) => write!(f, "\\u{{{:x}}}", u32::from(c))?,
                c => write!(f, "{c}")?,
            }
        }
        f.write_str("\"")
    }
}

impl fmt::Display for Element {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Scenario => f.write_str("scenario"),
            Self::Node { index, id } => write!(f, "node {} (nodes[{index}])", Quoted(id)),
            Self::Link { index, a, b } => write!(f, "link {}-{} (links[{index}])", Quoted(a), Quoted(b)),
            Self::Flow { index, id } => write!(f, "flow {} (flows[{index}])", Quoted(id)),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Parse(m) => write!(f, "cannot read it: {m}"),
            Self::WrongFormat(s) => write!(f, "format is {}, expected \"{}\"", Quoted(s), super::FORMAT),
            Self::UnsupportedVersion(v) => {
                write!(f, "version {v} is not supported (this build reads {})", super::VERSION)
            }
            Self::DuplicateId => f.write_str("this id is used twice"),
            Self::BadId => f.write_str("ids must be 1 to 64 characters with no control characters"),
            Self::ArrowInNodeId => f.write_str("a node's id cannot contain \"->\", which names links (A->B)"),
            Self::UnknownNode(id) => write!(f, "there is no node {}", Quoted(id)),
            Self::SelfLink => f.write_str("a link must join two different nodes"),
            Self::HostLinkCount(n) => {
                write!(f, "a host must have exactly one link, this one has {n}")
            }
            Self::NotAHost(id) => write!(f, "{} is a switch; flows run between hosts", Quoted(id)),
            Self::NotASwitch(id) => write!(f, "{} is a host; roots are switches", Quoted(id)),
            Self::Routing(why) => write!(f, "cannot be routed: {why}"),
            Self::Fabric(why) => write!(f, "{why}"),
            Self::SameEndpoints => f.write_str("source and destination are the same host"),
            Self::Unreachable { src, dst } => {
                write!(f, "the destination {} cannot be reached from the source {}", Quoted(dst), Quoted(src))
            }
            Self::OutOfRange(range) => write!(f, "must be {range}"),
            Self::BufferSmallerThanPacket => f.write_str("the input buffer must hold at least one data packet"),
            Self::LimitExceeded { limit, got } => {
                write!(f, "{got} is over this build's limit of {limit}")
            }
            Self::Inconsistent(m) => f.write_str(m),
            Self::TooManySamples { series, samples, limit } => write!(
                f,
                "{series} rate series (one per direction of each link, one per group) would need {samples} samples \
                 even at one sample per window, over this build's limit of {limit}: widen measure.window_ns or \
                 shorten duration_ns"
            ),
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            write!(f, "{}: {}", self.element, self.problem)
        } else {
            write!(f, "{}, field `{}`: {}", self.element, self.field, self.problem)
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ScenarioError {}

#[cfg(test)]
mod tests {
    use super::Quoted;
    use alloc::format;

    /// As `{:?}` writes the names people type.
    #[test]
    fn quoted_is_debug_for_names() {
        for name in [
            "A1",
            "a \"b\" \\c",
            "é→ü",
            "tab\there",
            "new\nline\r\0",
            "bell\u{7}",
            "",
            "nb\u{a0}sp",
            "wide\u{3000}space",
            "zero\u{200b}width",
            "rtl\u{202e}x",
            "soft\u{ad}hyphen",
            "bom\u{feff}",
            "日本",
        ] {
            assert_eq!(format!("{}", Quoted(name)), format!("{name:?}"), "{name}");
        }
    }
}
