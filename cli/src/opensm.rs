//! `ibcc opensm export|import`: Annex A10 parameters as OpenSM `cc_*` configuration lines, and back. The format is
//! OpenSM's (`opensm.conf`): switch settings apply to every port; CA settings are per service level, and we model
//! one, so export writes SL 0 and import reads SL 0.

use crate::exit::Error;
use crate::input::load;
use ibcc_core::cc::ibcc::{CctEntry, IbCcConfig};
use std::fmt;

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Print a scenario's `ib_cc` block as `opensm.conf` lines.
    Export {
        /// Scenario JSON file, `-`, or `preset:NAME`.
        scenario: String,
    },
    /// Read the `cc_*` lines of an `opensm.conf` into a scenario's `ib_cc` block and print the scenario.
    Import {
        /// The OpenSM configuration file.
        conf: String,
        /// The scenario to put them into (file, `-` or `preset:NAME`).
        scenario: String,
    },
}

pub fn run(command: &Command) -> Result<(), Error> {
    match command {
        Command::Export { scenario } => {
            let s = load(scenario)?;
            let cc = s.ib_cc.ok_or_else(|| format!("{scenario}: the scenario has no ib_cc block"))?;
            crate::output::print(&to_opensm(&cc));
        }
        Command::Import { conf, scenario } => {
            let text = std::fs::read_to_string(conf).map_err(|e| Error::io(conf, &e))?;
            let cc = from_opensm(&text).map_err(|e| format!("{conf}: {e}"))?;
            let mut s = load(scenario)?;
            s.ib_cc = Some(cc);
            s.marking.policy = ibcc_core::scenario::MarkingPolicy::None;
            s.source.response = ibcc_core::scenario::Response::None;
            s.validate().map_err(|e| format!("{scenario} with {conf}: {e}"))?;
            crate::output::print(&(s.to_json() + "\n"));
        }
    }
    Ok(())
}

/// The settings as `opensm.conf` lines (CA settings for SL 0).
pub fn to_opensm(c: &IbCcConfig) -> String {
    let mut mask = [0u8; 32];
    for &p in &c.victim_mask_ports {
        mask[31 - usize::from(p / 8)] |= 1 << (p % 8);
    }
    let mask: String = mask.iter().map(|b| format!("{b:02x}")).collect();
    let cct: Vec<String> =
        c.cct[..=usize::from(c.limit())].iter().map(|e| format!("{}:{}", e.shift, e.multiplier)).collect();
    format!(
        "congestion_control TRUE\n\
         cc_sw_cong_setting_threshold 0x{:x}\n\
         cc_sw_cong_setting_marking_rate 0x{:04x}\n\
         cc_sw_cong_setting_packet_size {}\n\
         cc_sw_cong_setting_victim_mask 0x{mask}\n\
         cc_ca_cong_setting_ccti_timer 0 {}\n\
         cc_ca_cong_setting_ccti_increase 0 {}\n\
         cc_ca_cong_setting_ccti_min 0 {}\n\
         cc_cct {}\n",
        c.threshold,
        c.marking_rate,
        c.packet_size_credits,
        c.ccti_timer,
        c.ccti_increase,
        c.ccti_min,
        cct.join(",")
    )
}

/// What is wrong with a line of an OpenSM configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    /// A value that is not a number (decimal, or hexadecimal with `0x`).
    NotANumber(String),
    MissingValue,
    /// A CA setting without its service level: `<sl> <value>` was expected.
    ExpectedSlAndValue,
    TooLarge {
        value: u64,
        max: u64,
    },
    /// A victim mask that is not up to 64 hexadecimal digits.
    BadMask,
    /// A CCT entry that is not `shift:multiplier`.
    BadCctEntry(String),
    /// A CCT with no entries or more than 1024.
    CctSize(usize),
}

/// A refused line: its number (from 1), its key, and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfError {
    pub line: usize,
    pub key: String,
    pub problem: Problem,
}

impl fmt::Display for ConfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}: ", self.line, self.key)?;
        match &self.problem {
            Problem::NotANumber(v) => write!(f, "{v:?} is not a number"),
            Problem::MissingValue => f.write_str("missing value"),
            Problem::ExpectedSlAndValue => f.write_str("expected \"<sl> <value>\""),
            Problem::TooLarge { value, max } => write!(f, "{value} is above {max}"),
            Problem::BadMask => f.write_str("expected up to 64 hex digits"),
            Problem::BadCctEntry(e) => write!(f, "entry {e:?} is not shift:multiplier"),
            Problem::CctSize(n) => write!(f, "a CCT has 1 to 1024 entries, not {n}"),
        }
    }
}

/// A decimal or `0x` hexadecimal number.
fn number(s: &str) -> Result<u64, Problem> {
    let parsed = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16),
        None => s.parse(),
    };
    parsed.map_err(|_| Problem::NotANumber(s.to_owned()))
}

fn at_most(value: u64, max: u64) -> Result<u64, Problem> {
    if value <= max {
        Ok(value)
    } else {
        Err(Problem::TooLarge { value, max })
    }
}

/// The victim mask's ports: bit `p` of the hexadecimal mask is port `p` (port 0, the switch itself, is left out).
fn victim_mask(hex: &str) -> Result<Vec<u8>, Problem> {
    let hex = hex.trim_start_matches("0x");
    if hex.len() > 64 || !hex.chars().all(|ch| ch.is_ascii_hexdigit()) {
        return Err(Problem::BadMask);
    }
    let mut ports = Vec::new();
    for (i, ch) in hex.chars().rev().enumerate() {
        let v = ch.to_digit(16).unwrap_or(0);
        for b in 0..4 {
            let port = i * 4 + b;
            if v & (1 << b) != 0 && port > 0 && port < 256 {
                ports.push(port as u8);
            }
        }
    }
    Ok(ports)
}

fn cct(list: &str) -> Result<Vec<CctEntry>, Problem> {
    let mut cct = Vec::new();
    for e in list.split(',') {
        let (s, m) = e.split_once(':').ok_or_else(|| Problem::BadCctEntry(e.to_owned()))?;
        cct.push(CctEntry { shift: at_most(number(s)?, 3)? as u8, multiplier: at_most(number(m)?, 0x3FFF)? as u16 });
    }
    if cct.is_empty() || cct.len() > 1024 {
        return Err(Problem::CctSize(cct.len()));
    }
    Ok(cct)
}

/// Applies one `key args...` line to `c`.
fn apply(c: &mut IbCcConfig, key: &str, args: &[&str]) -> Result<(), Problem> {
    let one = || args.first().copied().ok_or(Problem::MissingValue);
    // CA settings are per SL: "<sl> <value>"; we model one SL and read SL 0.
    let sl0 = || -> Result<Option<&str>, Problem> {
        match args {
            [sl, v] => Ok((number(sl)? == 0).then_some(*v)),
            _ => Err(Problem::ExpectedSlAndValue),
        }
    };
    match key {
        "cc_sw_cong_setting_threshold" => c.threshold = at_most(number(one()?)?, 15)? as u8,
        "cc_sw_cong_setting_marking_rate" => c.marking_rate = at_most(number(one()?)?, 0xFFFF)? as u16,
        "cc_sw_cong_setting_packet_size" => c.packet_size_credits = at_most(number(one()?)?, 0xFF)? as u8,
        "cc_sw_cong_setting_victim_mask" => c.victim_mask_ports = victim_mask(one()?)?,
        "cc_ca_cong_setting_ccti_timer" => {
            if let Some(v) = sl0()? {
                c.ccti_timer = at_most(number(v)?, 0xFFFF)? as u16;
            }
        }
        "cc_ca_cong_setting_ccti_increase" => {
            if let Some(v) = sl0()? {
                c.ccti_increase = at_most(number(v)?, 0xFF)? as u16;
            }
        }
        "cc_ca_cong_setting_ccti_min" => {
            if let Some(v) = sl0()? {
                c.ccti_min = at_most(number(v)?, 0xFF)? as u16;
            }
        }
        "cc_cct" => {
            c.cct = cct(one()?)?;
            c.ccti_limit = None;
        }
        _ => {}
    }
    Ok(())
}

/// Reads the `cc_*` lines of an OpenSM configuration, from the defaults (other lines are ignored; CA settings are
/// taken from SL 0). The first unreadable value is refused, naming its line and key.
pub fn from_opensm(text: &str) -> Result<IbCcConfig, ConfError> {
    let mut c = IbCcConfig::default();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let key = words.next().unwrap_or("");
        let args: Vec<&str> = words.collect();
        apply(&mut c, key, &args).map_err(|problem| ConfError { line: n + 1, key: key.to_owned(), problem })?;
    }
    Ok(c)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ibcc_core::cc::ibcc::{shaped_cct, CctShape};

    #[test]
    fn export_and_import_round_trip() {
        let c = IbCcConfig {
            threshold: 9,
            marking_rate: 4,
            packet_size_credits: 8,
            victim_mask_ports: vec![1, 3, 36],
            ccti_increase: 2,
            ccti_limit: Some(63),
            ccti_min: 3,
            ccti_timer: 200,
            cct: shaped_cct(CctShape::Quadratic, 64, 50_000),
            ird_unit_ps: 64_000,
        };
        let text = to_opensm(&c);
        assert!(text.contains("cc_sw_cong_setting_threshold 0x9\n"));
        assert!(text.contains("cc_ca_cong_setting_ccti_timer 0 200\n"));
        let back = from_opensm(&text).unwrap();
        // The limit travels as the table's length: the same limit back, whichever way it is stored.
        assert_eq!(back.limit(), c.limit());
        assert_eq!(IbCcConfig { ccti_limit: c.ccti_limit, ..back }, c);
    }

    #[test]
    fn a_bad_value_is_refused_naming_its_line_and_key() {
        let e = from_opensm("# comment\ncc_sw_cong_setting_threshold 0x1f\n").unwrap_err();
        assert_eq!(
            e,
            ConfError {
                line: 2,
                key: "cc_sw_cong_setting_threshold".into(),
                problem: Problem::TooLarge { value: 31, max: 15 }
            }
        );
        assert_eq!(e.to_string(), "line 2: cc_sw_cong_setting_threshold: 31 is above 15");
        let e = from_opensm("cc_cct 0:1,2\n").unwrap_err();
        assert_eq!(e.problem, Problem::BadCctEntry("2".into()));
        let e = from_opensm("\n\ncc_ca_cong_setting_ccti_min 7\n").unwrap_err();
        assert_eq!((e.line, e.problem), (3, Problem::ExpectedSlAndValue));
        let e = from_opensm("cc_sw_cong_setting_victim_mask 0xzz\n").unwrap_err();
        assert_eq!(e.problem, Problem::BadMask);
        assert_eq!(from_opensm("cc_sw_cong_setting_marking_rate\n").unwrap_err().problem, Problem::MissingValue);
        let c = from_opensm("cc_ca_cong_setting_ccti_timer 3 999\nsm_priority 1\n").unwrap();
        assert_eq!(c.ccti_timer, IbCcConfig::default().ccti_timer, "SL 3 is not modelled; other options ignored");
    }
}
