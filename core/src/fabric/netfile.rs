//! Reading and writing fabric files: `ibnetdiscover`'s topology files and ibsim's net files, which share a grammar.
//!
//! A file is a list of node records. A record is a header (`Switch 36 "S-0002c9030001e4f0"  # "spine 1" enhanced
//! port 0 lid 3 lmc 0`, `Ca 2 "H-..." # "node001 HCA-1"`; ibsim also writes `Hca`) and a line per cabled port
//! (`[1]  "H-0002c9030001e4a1"[1](2c9030001e4a2)  # "node001 HCA-1" lid 4 4xQDR`; a CA's port line carries its own
//! port GUID first: `[1](2c9030001e4a2)  "S-..."[1]  # lid 4 lmc 0 "leaf 1" lid 3 4xQDR`). Lines before a record
//! (`switchguid=0x..(..)`, `caguid=0x..`, `sysimgguid=0x..`, `vendid=`, `devid=`) give the next node's GUIDs;
//! `#` starts a comment. What `ibnetdiscover` writes that we take in: its header comments, a leading line that is
//! not part of the topology (a warning it printed before it), cables listed at both ends or at one, a cable from a
//! port to itself (reported, and skipped), one-port CAs, LIDs and LMC, mixed widths and speeds. Routers (`Rt`) are
//! refused: the model has none.
//!
//! GUIDs a file does not give are numbered as ibsim numbers them, in file order: CAs from 0x100000 (the node, then
//! one per port), switches from 0x200000. A cable's width and speed are the port line's (`4xQDR`), else 4xSDR, as
//! ibsim's links start.

use super::model::{Cable, Fabric, FabricNode, GivenLid, NodeKind, PortRef, Speed, Width};
use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

/// Why a fabric file cannot be read: the line (from 1) and what is wrong there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FabricError {
    pub line: usize,
    pub what: String,
}

impl fmt::Display for FabricError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            f.write_str(&self.what)
        } else {
            write!(f, "line {}: {}", self.line, self.what)
        }
    }
}

fn err(line: usize, what: impl Into<String>) -> FabricError {
    FabricError { line, what: what.into() }
}

/// A port line as written: its node's port, the remote node's name and port, where it was.
#[derive(Debug, Clone)]
struct PortLine {
    line: usize,
    node: usize,
    port: u8,
    remote: String,
    remote_port: u8,
    link: Option<(Width, Speed)>,
}

/// The width and speed a token names (`4xQDR`).
fn width_speed(token: &str) -> Option<(Width, Speed)> {
    let (lanes, speed) = token.split_once('x')?;
    let width = Width::ALL.into_iter().find(|w| w.lanes().to_string() == lanes)?;
    let speed = Speed::ALL.into_iter().find(|s| s.name() == speed)?;
    Some((width, speed))
}

/// The speeds this build reads (`Speed::ALL`'s names), for a refusal.
const SPEEDS: &str = "SDR, DDR, QDR, FDR10, FDR, EDR, HDR, NDR and XDR";

/// Whether `token` has the shape of a width and speed (`4xQDR`, `4xFOO`): digits, `x`, letters and digits.
fn looks_like_width_speed(token: &str) -> bool {
    token.split_once('x').is_some_and(|(lanes, speed)| {
        !lanes.is_empty()
            && lanes.bytes().all(|b| b.is_ascii_digit())
            && speed.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
            && speed.bytes().all(|b| b.is_ascii_alphanumeric())
    })
}

/// The number after `key` in `text` (`lid 4`).
fn number_after(text: &str, key: &str) -> Option<u32> {
    let mut words = text.split_whitespace();
    while let Some(w) = words.next() {
        if w == key {
            return words.next()?.parse().ok();
        }
    }
    None
}

/// The LID after `lid` in a comment, and the LMC after `lmc`: none for LID 0 (a port no subnet manager has
/// addressed yet).
fn lid_after(text: &str, line: usize) -> Result<Option<GivenLid>, FabricError> {
    let lmc = match number_after(text, "lmc") {
        None => 0,
        Some(m) if m <= 7 => m as u8,
        Some(m) => return Err(err(line, format!("LMC {m}: an LMC is 0 to 7"))),
    };
    match number_after(text, "lid") {
        None | Some(0) => Ok(None),
        Some(l) if l <= 0xBFFF => Ok(Some(GivenLid { lid: l as u16, lmc })),
        Some(l) => Err(err(line, format!("LID {l}: unicast LIDs run from 1 to 49151 (0xBFFF)"))),
    }
}

/// A quoted string at the start of `s` (after spaces): its content and the rest.
fn quoted(s: &str) -> Option<(&str, &str)> {
    let s = s.trim_start().strip_prefix('"')?;
    let end = s.find('"')?;
    Some((&s[..end], &s[end + 1..]))
}

/// `[n]` at the start of `s`: n and the rest.
fn bracketed(s: &str) -> Option<(u32, &str)> {
    let s = s.trim_start().strip_prefix('[')?;
    let end = s.find(']')?;
    Some((s[..end].trim().parse().ok()?, &s[end + 1..]))
}

/// `(hex)` at the start of `s`: the number and the rest.
fn parenthesized_hex(s: &str) -> Option<(u64, &str)> {
    let s = s.trim_start().strip_prefix('(')?;
    let end = s.find(')')?;
    Some((u64::from_str_radix(s[..end].trim().trim_start_matches("0x"), 16).ok()?, &s[end + 1..]))
}

/// A hexadecimal GUID (`0x0002c9...` or `0002c9...`).
fn hex_guid(s: &str) -> Option<u64> {
    let s = s.trim();
    u64::from_str_radix(s.strip_prefix("0x").unwrap_or(s), 16).ok()
}

/// The fabric a topology or net file describes.
pub fn parse(text: &str) -> Result<Fabric, FabricError> {
    parse_with_notes(text).map(|p| p.fabric)
}

/// A fabric read from a file, and what was taken in that a reader should know of (each naming its line).
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub fabric: Fabric,
    pub notes: Vec<String>,
}

/// The fabric a topology or net file describes, and notes on its quirks: loopback plugs skipped, cables whose
/// ends disagree on width or speed.
pub fn parse_with_notes(text: &str) -> Result<Parsed, FabricError> {
    let mut nodes: Vec<FabricNode> = Vec::new();
    let mut lines: Vec<PortLine> = Vec::new();
    // GUIDs the lines before a record give it.
    let (mut next_guid, mut next_sysimg): (Option<u64>, Option<u64>) = (None, None);
    let (mut ca_counter, mut sw_counter) = (0x10_0000u64, 0x20_0000u64);
    let mut current: Option<usize> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some((key, value)) = line.split_once('=').filter(|(k, _)| !k.contains(['"', '[', ' '])) {
            let guid_of = |v: &str| hex_guid(v.split('(').next().unwrap_or(v));
            match key.trim() {
                "switchguid" | "caguid" => {
                    next_guid = Some(guid_of(value).ok_or_else(|| err(n, format!("{key}: not a GUID: {value}")))?);
                }
                "sysimgguid" => {
                    next_sysimg = Some(guid_of(value).ok_or_else(|| err(n, format!("{key}: not a GUID: {value}")))?);
                }
                "rtguid" => return Err(err(n, "a router (rtguid): the model has switches and CAs only")),
                // vendid, devid, width, speed...: nothing the model keeps.
                _ => {}
            }
            current = None;
            continue;
        }
        let word = line.split_whitespace().next().unwrap_or("");
        if matches!(word, "Switch" | "Ca" | "Hca" | "Rt") {
            if word == "Rt" {
                return Err(err(n, "a router (Rt): the model has switches and CAs only; remove it from the file"));
            }
            let rest = line[word.len()..].trim_start();
            let count = rest.split_whitespace().next().unwrap_or("");
            let ports: u8 = count
                .parse()
                .ok()
                .filter(|&p| p >= 1)
                .ok_or_else(|| err(n, format!("{word}: the number of ports should be 1 to 255, not {count:?}")))?;
            let (name, after) = quoted(&rest[count.len()..])
                .ok_or_else(|| err(n, format!("{word}: its name should follow in double quotes")))?;
            if nodes.iter().any(|x| x.name == name) {
                return Err(err(n, format!("\"{name}\" is named twice")));
            }
            let comment = after.split_once('#').map_or("", |(_, c)| c);
            let desc = quoted(comment).map_or(name, |(d, _)| d).to_string();
            let kind = if word == "Switch" { NodeKind::Switch } else { NodeKind::Ca };
            // A name that is a GUID (`S-0002c9...`, `H-...`) gives the node's GUID.
            let named = name.get(2..).filter(|_| name.get(1..2) == Some("-")).and_then(hex_guid);
            let node_guid = match (next_guid.take(), named, kind) {
                (Some(g), _, _) | (None, Some(g), _) => g,
                (None, None, NodeKind::Ca) => ca_counter,
                (None, None, NodeKind::Switch) => sw_counter,
            };
            let port_guids = if kind == NodeKind::Switch {
                sw_counter = sw_counter.max(node_guid + 1);
                alloc::vec![node_guid]
            } else {
                ca_counter = ca_counter.max(node_guid + u64::from(ports) + 1);
                (0..=u64::from(ports)).map(|p| node_guid + p).collect()
            };
            let mut lids = alloc::vec![None; usize::from(ports) + 1];
            if kind == NodeKind::Switch {
                lids[0] = lid_after(comment, n)?;
            }
            nodes.push(FabricNode {
                kind,
                name: name.to_string(),
                desc,
                node_guid,
                sysimg_guid: next_sysimg.take().unwrap_or(node_guid),
                ports,
                port_guids,
                lids,
            });
            current = Some(nodes.len() - 1);
            continue;
        }
        if line.starts_with('[') {
            let Some(node) = current else {
                return Err(err(n, "a port line outside a Switch or Ca record"));
            };
            let (port, rest) = bracketed(line).ok_or_else(|| err(n, "a port line starts with [port]"))?;
            let nd = &mut nodes[node];
            let port = u8::try_from(port)
                .ok()
                .filter(|&p| p >= 1 && p <= nd.ports)
                .ok_or_else(|| err(n, format!("port {port}: \"{}\" has ports 1 to {}", nd.name, nd.ports)))?;
            // A CA port's own GUID may follow its number.
            let rest = match parenthesized_hex(rest) {
                Some((guid, r)) if nd.kind == NodeKind::Ca => {
                    nd.port_guids[usize::from(port)] = guid;
                    r
                }
                _ => rest,
            };
            let (remote, rest) =
                quoted(rest).ok_or_else(|| err(n, "the remote node's name should follow in double quotes"))?;
            let (remote_port, rest) =
                bracketed(rest).ok_or_else(|| err(n, format!("\"{remote}\": its port should follow as [port]")))?;
            let remote_port =
                u8::try_from(remote_port).map_err(|_| err(n, format!("port {remote_port}: at most 255")))?;
            let comment = rest.split_once('#').map_or("", |(_, c)| c);
            let link = comment.split_whitespace().find_map(width_speed);
            // A width and speed after the descriptions that this build does not know is refused, not read as the
            // default 4xSDR (found in a walk: 4xXDR loaded as 8 Gb/s without a word).
            if link.is_none() {
                let after = comment.rsplit('"').next().unwrap_or("");
                if let Some(t) = after.split_whitespace().find(|t| looks_like_width_speed(t)) {
                    return Err(err(n, format!("link {t}: widths are 1x to 12x and speeds {SPEEDS}")));
                }
            }
            if nd.kind == NodeKind::Ca {
                // `# lid 4 lmc 0 "desc" lid 3 4xQDR`: the first lid is this port's.
                let own = comment.split('"').next().unwrap_or("");
                nd.lids[usize::from(port)] = lid_after(own, n)?;
            }
            lines.push(PortLine { line: n, node, port, remote: remote.to_string(), remote_port, link });
            continue;
        }
        if nodes.is_empty() {
            continue; // something printed before the topology (ibnetdiscover's warnings)
        }
        return Err(err(n, format!("not part of a fabric file: {line:?}")));
    }
    if nodes.is_empty() {
        return Err(err(0, "no Switch or Ca records: not a fabric file"));
    }
    cables(nodes, &lines)
}

/// The cables the port lines describe: each once, whether listed at one end or both. Where the two ends give
/// different widths or speeds (old `ibnetdiscover`s print each end's own), the cable runs at the lower of each,
/// as a link trains to what both ends support.
fn cables(nodes: Vec<FabricNode>, lines: &[PortLine]) -> Result<Parsed, FabricError> {
    let mut notes = Vec::new();
    // Filled by insert, not collect: collecting sorts the pairs first, a sort instantiation the page would carry.
    let mut index: BTreeMap<&str, usize> = BTreeMap::new();
    for (i, n) in nodes.iter().enumerate() {
        index.insert(n.name.as_str(), i);
    }
    let mut at: BTreeMap<PortRef, (PortRef, usize)> = BTreeMap::new();
    let mut cables = Vec::new();
    for l in lines {
        let here = PortRef { node: l.node, port: l.port };
        let Some(&r) = index.get(l.remote.as_str()) else {
            return Err(err(l.line, format!("\"{}\" is not a node of this file", l.remote)));
        };
        let there = PortRef { node: r, port: l.remote_port };
        if l.remote_port == 0 || l.remote_port > nodes[r].ports {
            return Err(err(
                l.line,
                format!("\"{}\" has ports 1 to {}, not {}", l.remote, nodes[r].ports, l.remote_port),
            ));
        }
        if here == there {
            notes.push(format!(
                "line {}: \"{}\" port {} is cabled to itself (a loopback plug): no link",
                l.line, l.remote, l.port
            ));
            continue;
        }
        let mut seen = |p: PortRef, q: PortRef| -> Result<bool, FabricError> {
            match at.get(&p) {
                Some(&(other, line)) if other != q => Err(err(
                    l.line,
                    format!(
                        "\"{}\" port {} is cabled to \"{}\" port {} on line {line}",
                        nodes[p.node].name, p.port, nodes[other.node].name, other.port
                    ),
                )),
                Some(_) => Ok(true),
                None => {
                    at.insert(p, (q, l.line));
                    Ok(false)
                }
            }
        };
        let (a_seen, b_seen) = (seen(here, there)?, seen(there, here)?);
        if !(a_seen && b_seen) {
            let (width, speed) = l.link.unwrap_or((Width::X4, Speed::Sdr));
            cables.push(Cable { a: here, b: there, width, speed });
        } else if let Some((width, speed)) = l.link {
            let c = cables.iter_mut().find(|c| (c.a == there && c.b == here) || (c.a == here && c.b == there));
            if let Some(c) = c.filter(|c| (c.width, c.speed) != (width, speed)) {
                let was = format!("{}{}", c.width, c.speed.name());
                (c.width, c.speed) = (c.width.min(width), c.speed.min(speed));
                notes.push(format!(
                    "line {}: the two ends of this cable say {was} and {width}{}: taken as {}{}",
                    l.line,
                    speed.name(),
                    c.width,
                    c.speed.name()
                ));
            }
        }
    }
    Ok(Parsed { fabric: Fabric::new(nodes, cables), notes })
}

/// The fabric as an ibsim net file: every node with its name and description, each cable at both ends (as ibsim
/// wants), and on each port line the comment ibsim 0.10 reads (`sim_net.c:parse_port_connection_data`): the remote
/// description, LIDs (0 where none is given yet) and the cable's width and speed (`# "S2" lid 3 4xQDR`; a CA port
/// first gives its own: `# lid 4 lmc 0 "S1" lid 3 4xQDR`).
pub fn write_net(f: &Fabric) -> String {
    let mut out = String::new();
    let lid = |node: usize, port: u8| {
        let n = &f.nodes[node];
        n.lids[if n.is_switch() { 0 } else { usize::from(port) }]
    };
    for (i, n) in f.nodes.iter().enumerate() {
        let word = if n.is_switch() { "Switch" } else { "Ca" };
        let own_lid = match n.lids[0] {
            Some(l) if n.is_switch() => format!(" lid {} lmc {}", l.lid, l.lmc),
            _ => String::new(),
        };
        out += &format!("{word}\t{} \"{}\"\t# \"{}\"{own_lid}\n", n.ports, n.name, n.desc);
        for p in 1..=n.ports {
            let Some(r) = f.peer(i, p) else { continue };
            let here = PortRef { node: i, port: p };
            let c = f.cables.iter().find(|c| c.a == here || c.b == here).expect("a cabled port has its cable");
            let remote_lid = lid(r.node, r.port).map_or(0, |l| l.lid);
            let remote = format!("\"{}\" lid {remote_lid} {}{}", f.nodes[r.node].desc, c.width, c.speed.name());
            let own = match lid(i, p) {
                _ if n.is_switch() => String::new(),
                Some(l) => format!("lid {} lmc {} ", l.lid, l.lmc),
                None => String::from("lid 0 lmc 0 "),
            };
            out += &format!("[{p}]\t\"{}\"[{}]\t# {own}{remote}\n", f.nodes[r.node].name, r.port);
        }
        out.push('\n');
    }
    out
}

/// The name `ibnetdiscover` gives a node: `S-`, `H-` and its GUID.
fn discovered_name(n: &FabricNode) -> String {
    format!("{}-{:016x}", if n.is_switch() { 'S' } else { 'H' }, n.node_guid)
}

/// The fabric as `ibnetdiscover` prints it (switches, then CAs; GUIDs, LIDs, widths and speeds), with the LIDs
/// its nodes have, or 0 where there are none yet, as before a subnet manager has run. Read back, it is the same
/// fabric under `ibnetdiscover`'s names.
pub fn write_topology(f: &Fabric) -> String {
    let mut out = String::from("#\n# Topology file: generated by ibcc\n#\n");
    let given = |node: usize, port: u8| {
        let n = &f.nodes[node];
        n.lids[if n.is_switch() { 0 } else { usize::from(port) }]
    };
    let lid = |node: usize, port: u8| given(node, port).map_or(0, |l| l.lid);
    let lmc = |node: usize, port: u8| given(node, port).map_or(0, |l| l.lmc);
    let link = |node: usize, port: u8| {
        let here = PortRef { node, port };
        f.cables
            .iter()
            .find(|c| c.a == here || c.b == here)
            .map_or(String::new(), |c| format!("{}{}", c.width, c.speed.name()))
    };
    let order = (0..f.nodes.len())
        .filter(|&i| f.nodes[i].is_switch())
        .chain((0..f.nodes.len()).filter(|&i| !f.nodes[i].is_switch()));
    for i in order {
        let n = &f.nodes[i];
        out += &format!("\nvendid=0x0\ndevid=0x0\nsysimgguid=0x{:x}\n", n.sysimg_guid);
        if n.is_switch() {
            out += &format!("switchguid=0x{:x}({:x})\n", n.node_guid, n.port_guids[0]);
            out += &format!(
                "Switch\t{} \"{}\"\t\t# \"{}\" base port 0 lid {} lmc 0\n",
                n.ports,
                discovered_name(n),
                n.desc,
                lid(i, 0)
            );
        } else {
            out += &format!("caguid=0x{:x}\n", n.node_guid);
            out += &format!("Ca\t{} \"{}\"\t\t# \"{}\"\n", n.ports, discovered_name(n), n.desc);
        }
        for p in 1..=n.ports {
            let Some(r) = f.peer(i, p) else { continue };
            let rn = &f.nodes[r.node];
            let remote_guid = if rn.is_switch() { String::new() } else { format!("({:x}) ", rn.port_guid(r.port)) };
            let remote_lid = lid(r.node, if rn.is_switch() { 0 } else { r.port });
            if n.is_switch() {
                out += &format!(
                    "[{p}]\t\"{}\"[{}]{remote_guid}\t\t# \"{}\" lid {remote_lid} {}\n",
                    discovered_name(rn),
                    r.port,
                    rn.desc,
                    link(i, p)
                );
            } else {
                let remote_guid = if remote_guid.is_empty() { remote_guid } else { format!(" {remote_guid}") };
                out += &format!(
                    "[{p}]({:x}) \t\"{}\"[{}]{remote_guid}\t\t# lid {} lmc {} \"{}\" lid {remote_lid} {}\n",
                    n.port_guid(p),
                    discovered_name(rn),
                    r.port,
                    lid(i, p),
                    lmc(i, p),
                    rn.desc,
                    link(i, p)
                );
            }
        }
    }
    out
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// Two switches joined by two cables, a host on each: the smallest fabric with a tie (the other tests use it).
    pub(crate) const TWO_SWITCHES: &str = "Switch\t8 \"S1\"\n[1]\t\"H1\"[1]\n[3]\t\"S2\"[3]\n[5]\t\"S2\"[5]\n\n\
        Switch\t8 \"S2\"\n[1]\t\"H2\"[1]\n[3]\t\"S1\"[3]\n[5]\t\"S1\"[5]\n\n\
        Hca\t1 \"H1\"\n[1]\t\"S1\"[1]\n\nHca\t1 \"H2\"\n[1]\t\"S2\"[1]\n";

    #[test]
    fn an_ibsim_net_file_gets_ibsim_s_guids_and_each_cable_once() {
        let f = parse(TWO_SWITCHES).unwrap();
        let guids: Vec<u64> = f.nodes.iter().map(|n| n.node_guid).collect();
        assert_eq!(guids, [0x20_0000, 0x20_0001, 0x10_0000, 0x10_0002]);
        assert_eq!(f.nodes[3].port_guids[1], 0x10_0003);
        assert_eq!(f.cables.len(), 4, "two parallel cables between the switches, one to each host");
        assert_eq!(f.peer(0, 5), Some(PortRef { node: 1, port: 5 }));
        assert_eq!((f.cables[0].width, f.cables[0].speed), (Width::X4, Speed::Sdr));
        assert_eq!(parse(&write_net(&f)).unwrap(), f, "written and read back");
    }

    #[test]
    fn an_ibnetdiscover_file_keeps_its_guids_lids_widths_and_speeds() {
        let text = "ibwarn: [1234] mad_rpc_open_port: can't open UMAD port\n#\n# Topology file: generated\n#\n\n\
            vendid=0x2c9\ndevid=0xbd36\nsysimgguid=0x2c903000a0b0c\nswitchguid=0x2c903000a0b0c(2c903000a0b0c)\n\
            Switch\t36 \"S-0002c903000a0b0c\"\t\t# \"leaf 1\" enhanced port 0 lid 3 lmc 0\n\
            [1]\t\"H-0002c903000a0001\"[1](2c903000a0002) \t\t# \"node001 HCA-1\" lid 4 4xQDR\n\
            [2]\t\"S-0002c903000a0b0c\"[2]\t\t# \"leaf 1\" lid 3 4xQDR\n\n\
            vendid=0x2c9\ndevid=0x673c\nsysimgguid=0x2c903000a0001\ncaguid=0x2c903000a0001\n\
            Ca\t2 \"H-0002c903000a0001\"\t\t# \"node001 HCA-1\"\n\
            [1](2c903000a0002) \t\"S-0002c903000a0b0c\"[1]\t\t# lid 4 lmc 0 \"leaf 1\" lid 3 4xQDR\n";
        let Parsed { fabric: f, notes } = parse_with_notes(text).unwrap();
        assert_eq!(notes.len(), 1);
        assert!(notes[0].starts_with("line 12:") && notes[0].contains("loopback"), "{notes:?}");
        assert_eq!(f.nodes[0].desc, "leaf 1");
        assert_eq!((f.nodes[0].node_guid, f.nodes[0].lids[0].map(|l| l.lid)), (0x0002_c903_000a_0b0c, Some(3)));
        assert_eq!((f.nodes[1].port_guids[1], f.nodes[1].lids[1].map(|l| l.lid)), (0x0002_c903_000a_0002, Some(4)));
        assert_eq!(f.cables.len(), 1, "listed at both ends: one cable; the loopback on port 2 is no cable");
        assert_eq!((f.cables[0].width, f.cables[0].speed), (Width::X4, Speed::Qdr));
        // XDR (200 Gb/s a lane) is read; a speed this build does not know is refused by name, not taken as SDR.
        let xdr = parse_with_notes(&text.replace("4xQDR", "4xXDR")).unwrap().fabric;
        assert_eq!((xdr.cables[0].width, xdr.cables[0].speed), (Width::X4, Speed::Xdr));
        let e = parse_with_notes(&text.replace("4xQDR", "4xFOO")).unwrap_err();
        assert_eq!(e.line, 11, "the first port line with it");
        assert!(e.what.starts_with("link 4xFOO: widths are 1x to 12x and speeds SDR,"), "{}", e.what);
        let names: Vec<&str> = Speed::ALL.iter().map(|s| s.name()).collect();
        assert_eq!(SPEEDS.replace(" and", ","), names.join(", "), "the refusal names every speed read");
        // (A description that happens to look like one is not a speed.)
        assert!(parse_with_notes(&text.replace("\"leaf 1\" lid 3", "\"leaf 2xA\" lid 3")).is_ok());
    }

    /// A node by GUID: its GUID, description, ports and port GUIDs.
    type NodeByGuid = (u64, String, u8, Vec<u64>);
    /// A cable by GUIDs: each end's node GUID and port, then its width and speed.
    type CableByGuid = (u64, u8, u64, u8, String);

    /// The fabric with nodes known by GUID: what two listings of one fabric share.
    fn by_guid(f: &Fabric) -> (Vec<NodeByGuid>, Vec<CableByGuid>) {
        let mut nodes: Vec<_> =
            f.nodes.iter().map(|n| (n.node_guid, n.desc.clone(), n.ports, n.port_guids.clone())).collect();
        nodes.sort();
        let g = |p: PortRef| (f.nodes[p.node].node_guid, p.port);
        let mut cables: Vec<_> = f
            .cables
            .iter()
            .map(|c| {
                let (a, b) = if g(c.a) < g(c.b) { (g(c.a), g(c.b)) } else { (g(c.b), g(c.a)) };
                (a.0, a.1, b.0, b.1, format!("{}{}", c.width, c.speed.name()))
            })
            .collect();
        cables.sort();
        (nodes, cables)
    }

    #[test]
    fn a_cable_whose_ends_disagree_runs_at_the_lower_width_and_speed() {
        let text = "Switch 8 \"S1\"\n[1] \"S2\"[1] # \"S2\" lid 0 1xQDR\n\nSwitch 8 \"S2\"\n[1] \"S1\"[1] # \"S1\" lid 0 4xSDR\n";
        let p = parse_with_notes(text).unwrap();
        assert_eq!((p.fabric.cables[0].width, p.fabric.cables[0].speed), (Width::X1, Speed::Sdr));
        assert!(p.notes[0].starts_with("line 5:") && p.notes[0].contains("1xSDR"), "{:?}", p.notes);
    }

    #[test]
    fn a_written_topology_reads_back_as_the_same_fabric_with_its_lids() {
        let mut f = parse(TWO_SWITCHES).unwrap();
        f.cables[0].speed = Speed::Edr;
        f = Fabric::new(f.nodes.clone(), f.cables.clone());
        for (n, node) in f.nodes.iter_mut().enumerate() {
            for (p, lid) in node.lids.iter_mut().enumerate() {
                *lid = Some(GivenLid { lid: (10 * n + p + 1) as u16, lmc: 0 });
            }
        }
        let text = write_topology(&f);
        let back = parse(&text).unwrap();
        assert_eq!(by_guid(&back), by_guid(&f));
        let s2 = back.nodes.iter().find(|n| n.desc == "S2").unwrap();
        assert_eq!((s2.name.as_str(), s2.lids[0].map(|l| l.lid)), ("S-0000000000200001", Some(11)));
        let h2 = back.nodes.iter().find(|n| n.desc == "H2").unwrap();
        assert_eq!(h2.lids[1], Some(GivenLid { lid: 32, lmc: 0 }), "a CA port's own LID");
        let bare = parse(TWO_SWITCHES).unwrap();
        let unaddressed = parse(&write_topology(&bare)).unwrap();
        assert!(unaddressed.nodes.iter().all(|n| n.lids.iter().all(Option::is_none)), "lid 0: none yet");
    }

    #[test]
    fn a_malformed_file_is_refused_naming_its_line() {
        let cases = [
            ("Switch 8 \"S1\"\n[9] \"H1\"[1]\nCa 1 \"H1\"\n[1] \"S1\"[9]\n", 2, "ports 1 to 8"),
            ("Switch 8 \"S1\"\n[1] \"H9\"[1]\n", 2, "not a node"),
            ("Switch 8 \"S1\"\n[1] \"H1\"[1]\nCa 1 \"H1\"\n[1] \"S1\"[2]\n", 4, "cabled to"),
            (
                "Switch 8 \"S1\"\n[1] \"H1\"[1]\nCa 1 \"H1\"\n[1] \"S1\"[1]\nCa 1 \"H2\"\n[1] \"S1\"[1]\n",
                6,
                "cabled to",
            ),
            ("Switch x \"S1\"\n", 1, "number of ports"),
            ("Rt 2 \"R1\"\n", 1, "router"),
            ("Switch 8 \"S1\"\nnonsense here\n", 2, "not part of"),
            ("Switch 8 S1\n", 1, "double quotes"),
            ("Switch 8 \"S1\" # \"S1\" base port 0 lid 50000 lmc 0\n", 1, "unicast LIDs"),
        ];
        for (text, line, says) in cases {
            let e = parse(text).unwrap_err();
            assert_eq!(e.line, line, "{text:?}: {e}");
            assert!(e.what.contains(says), "{text:?}: {e}");
        }
        assert!(parse("hello\n").unwrap_err().to_string().contains("not a fabric file"));
    }
}
