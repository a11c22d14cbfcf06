//! Linear forwarding tables, and the two files they are written in: OpenSM's `opensm-lfts.dump` and the output of
//! `ibroute` / `dump_lfts.sh` (docs/opensm-routing.md §1.4, §6). OpenSM's `file` engine reads both; so do we, so a
//! site's real routing can be replayed.

use super::hops::NO_PATH;
use super::lids::Addressing;
use super::model::{Fabric, NodeIx, NodeKind};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt::Write;

/// Each switch's table: the output port for each destination LID (0 = the switch itself, [`NO_PATH`] = none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lfts {
    /// The switches, in OpenSM's order.
    pub switches: Vec<NodeIx>,
    /// `tables[i][lid]` for switch `switches[i]`; every table runs from LID 0 to the top LID.
    pub tables: Vec<Vec<u8>>,
    /// `slot[node]`: the index of a switch's table.
    slot: Vec<Option<u32>>,
}

impl Lfts {
    /// Tables of `top + 1` entries, all "no path".
    pub fn empty(switches: Vec<NodeIx>, top: u16) -> Self {
        let tables = switches.iter().map(|_| alloc::vec![NO_PATH; usize::from(top) + 1]).collect();
        let mut slot = alloc::vec![None; switches.iter().max().map_or(0, |&m| m + 1)];
        for (i, &s) in switches.iter().enumerate() {
            slot[s] = Some(i as u32);
        }
        Self { switches, tables, slot }
    }

    /// The table of switch `node`.
    pub fn table(&self, node: NodeIx) -> Option<&[u8]> {
        let i = (*self.slot.get(node)?)?;
        Some(&self.tables[i as usize])
    }

    /// The port switch `node` forwards `lid` to, if it has a route.
    pub fn port(&self, node: NodeIx, lid: u16) -> Option<u8> {
        self.table(node)?.get(usize::from(lid)).copied().filter(|&p| p != NO_PATH)
    }

    /// The top LID.
    pub fn top(&self) -> u16 {
        self.tables.first().map_or(0, |t| (t.len() - 1) as u16)
    }
}

/// `'desc'` as OpenSM prints a node description: non-printable characters as spaces, at most 63 characters.
fn clean(desc: &str) -> String {
    desc.chars().map(|c| if c.is_ascii_graphic() || c == ' ' { c } else { ' ' }).take(63).collect()
}

fn kind_name(k: NodeKind) -> &'static str {
    match k {
        NodeKind::Switch => "Switch",
        NodeKind::Ca => "Channel Adapter",
    }
}

/// The tables as OpenSM's `opensm-lfts.dump`: every switch in order, each LID it has a route for.
pub fn write_dump(f: &Fabric, a: &Addressing, l: &Lfts) -> String {
    let mut out = String::new();
    for (i, &s) in l.switches.iter().enumerate() {
        let node = &f.nodes[s];
        let top = l.tables[i].len() - 1;
        let _ = writeln!(
            out,
            "Unicast lids [0-{top}] of switch Lid {} guid 0x{:016x} ('{}'):",
            a.switch_lid(s),
            node.node_guid,
            clean(&node.desc)
        );
        for lid in 1..=top {
            let port = l.tables[i][lid];
            if port > node.ports {
                continue;
            }
            let _ = write!(out, "0x{lid:04x} {port:03} # ");
            match a.owner(lid as u16) {
                Some(p) => {
                    let o = &f.nodes[p.at.node];
                    let _ = writeln!(out, "{} portguid 0x{:016x}: '{}'", kind_name(o.kind), p.guid, clean(&o.desc));
                }
                None => out.push_str("unknown node and type\n"),
            }
        }
        let _ = writeln!(out, "{top} lids dumped");
    }
    out
}

/// The tables as `ibroute <switch LID>` prints each switch's (and `dump_lfts.sh` all of them): a header with the
/// LID range in hex, column titles, an entry per LID with a valid port, the extra LIDs of an LMC block as "path #k
/// out of n", and a count with its trailing space.
pub fn write_ibroute(f: &Fabric, a: &Addressing, l: &Lfts) -> String {
    let mut out = String::new();
    for (i, &s) in l.switches.iter().enumerate() {
        let node = &f.nodes[s];
        let top = l.tables[i].len() - 1;
        let _ = writeln!(
            out,
            "Unicast lids [0x0-0x{top:x}] of switch Lid {} guid 0x{:016x} ({}):",
            a.switch_lid(s),
            node.node_guid,
            clean(&node.desc)
        );
        out.push_str("  Lid  Out   Destination\n       Port     Info \n");
        let mut n = 0;
        for lid in 0..=top {
            let port = l.tables[i][lid];
            if port > node.ports {
                continue;
            }
            n += 1;
            let _ = write!(out, "0x{lid:04x} {port:03} ");
            match a.owner(lid as u16) {
                Some(p) if lid as u16 > p.base => {
                    let _ = writeln!(
                        out,
                        ": (path #{} out of {}: portguid 0x{:016x})",
                        lid as u16 - p.base + 1,
                        p.count,
                        p.guid
                    );
                }
                Some(p) => {
                    let o = &f.nodes[p.at.node];
                    let _ = writeln!(out, ": ({} portguid 0x{:016x}: '{}')", kind_name(o.kind), p.guid, clean(&o.desc));
                }
                None => out.push_str(": (unknown node and type)\n"),
            }
        }
        let _ = writeln!(out, "{n} valid lids dumped ");
    }
    out
}

/// Why an LFT file cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LftError {
    pub line: usize,
    pub what: String,
}

impl core::fmt::Display for LftError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "line {}: {}", self.line, self.what)
    }
}

/// Read tables in either form (`opensm-lfts.dump`, or `ibroute`/`dump_lfts.sh` output) for the fabric's switches,
/// as OpenSM's `file` engine reads them: a section per switch, found by its GUID; entries `0xLID PORT`; a switch
/// the file does not list keeps no routes. Unlike OpenSM, a section for a switch the fabric lacks, a port the
/// switch lacks or a LID past `top` is an error naming its line: replaying a site's routing on the wrong fabric
/// should say so.
pub fn read(text: &str, f: &Fabric, switches: &[NodeIx], top: u16) -> Result<Lfts, LftError> {
    let mut l = Lfts::empty(switches.to_vec(), top);
    let mut current: Option<usize> = None;
    let err = |line: usize, what: String| LftError { line, what };
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim_start();
        if line.starts_with("Unicast lids") {
            let guid = line
                .split_once(" guid 0x")
                .and_then(|(_, rest)| rest.split_whitespace().next())
                .and_then(|g| u64::from_str_radix(g, 16).ok())
                .ok_or_else(|| err(n, String::from("a switch header without \"guid 0x...\"")))?;
            let at = l.switches.iter().position(|&s| f.nodes[s].node_guid == guid);
            let at = at.ok_or_else(|| err(n, format!("switch 0x{guid:016x} is not in the fabric")))?;
            l.tables[at].fill(NO_PATH);
            current = Some(at);
        } else if line.starts_with("Multicast mlids") {
            current = None;
        } else if let Some(rest) = line.strip_prefix("0x") {
            let Some(at) = current else { continue };
            let mut words = rest.split_whitespace();
            let lid = words.next().and_then(|w| u16::from_str_radix(w, 16).ok());
            let port = words.next().and_then(|w| w.parse::<u16>().ok());
            let (Some(lid), Some(port)) = (lid, port) else {
                return Err(err(n, format!("an entry should read \"0xLID PORT\", not {:?}", raw.trim())));
            };
            let sw = &f.nodes[l.switches[at]];
            if port > u16::from(sw.ports) {
                return Err(err(n, format!("port {port}: switch \"{}\" has ports 0 to {}", sw.name, sw.ports)));
            }
            if lid > top {
                return Err(err(n, format!("LID {lid} is past the fabric's top LID {top}")));
            }
            l.tables[at][usize::from(lid)] = port as u8;
        }
    }
    Ok(l)
}
