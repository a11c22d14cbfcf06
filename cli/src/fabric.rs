//! `ibcc fabric`: real InfiniBand fabrics. Generate one, route it as OpenSM does and write its forwarding tables.

use crate::exit::Error;
use ibcc_core::fabric::lfts::{write_dump, write_ibroute};
use ibcc_core::fabric::netfile::{parse_with_notes, write_net, write_topology};
use ibcc_core::fabric::route::{route, Engine, Options};
use ibcc_core::fabric::shapes::{self, GenerateError};
use ibcc_core::fabric::updn::Roots;
use ibcc_core::fabric::{Fabric, Speed, Width};
use std::path::PathBuf;

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Print a generated fabric (as `ibnetdiscover` prints one, or as an ibsim net file).
    Gen(GenArgs),
    /// Route a fabric (an `ibnetdiscover` topology or an ibsim net file) as OpenSM does; write its LFTs.
    Route(RouteArgs),
}

#[derive(Debug, clap::Args)]
pub struct GenArgs {
    #[command(subcommand)]
    shape: Shape,
    /// Every cable's width and speed, as `ibnetdiscover` writes them (1x..12x; SDR..NDR).
    #[arg(long, default_value = "4xSDR", global = true, value_parser = parse_link)]
    link: (Width, Speed),
    /// `ibnetdiscover` (GUIDs explicit, LIDs 0 until routed) or `ibsim` (a net file; ibsim numbers the GUIDs).
    #[arg(long, default_value = "ibnetdiscover", global = true, value_parser = ["ibnetdiscover", "ibsim"])]
    format: String,
}

#[derive(Debug, clap::Subcommand)]
enum Shape {
    /// The three-level k-ary fat tree: k^3/4 hosts on 5k^2/4 switches of K ports.
    Fattree { k: u32 },
    /// The two-level fat tree of K-port switches: K leaves of K/2 hosts, K/2 spines.
    Twolevel { k: u32 },
    /// A ring of N switches.
    Ring {
        n: u32,
        /// Hosts on each switch.
        #[arg(long, default_value_t = 1)]
        hosts: u32,
    },
    /// Two switches joined by CABLES parallel cables, HOSTS hosts on each.
    Parallel { cables: u32, hosts: u32 },
    /// A connected irregular fabric drawn from a seed.
    Random {
        #[arg(long)]
        switches: u32,
        #[arg(long, default_value_t = 8)]
        ports: u32,
        #[arg(long)]
        hosts: u32,
        /// Cables beyond a spanning tree (fewer if the ports run out).
        #[arg(long, default_value_t = 0)]
        extra: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
}

#[derive(Debug, clap::Args)]
pub struct RouteArgs {
    /// The fabric: an `ibnetdiscover` topology file or an ibsim net file.
    file: PathBuf,
    /// OpenSM's routing engine.
    #[arg(long, default_value = "minhop", value_parser = parse_engine)]
    engine: Engine,
    /// The node the subnet manager runs on (name or description); the file's first node by default.
    #[arg(long)]
    sm: Option<String>,
    /// updn's root switches: a file of node GUIDs, one a line (OpenSM's -a); found as OpenSM finds them if not given.
    #[arg(long)]
    roots: Option<PathBuf>,
    /// LIDs per CA port are 2^LMC.
    #[arg(long, default_value_t = 0)]
    lmc: u8,
    /// Give every port a fresh LID, ignoring the file's (OpenSM's -r).
    #[arg(long)]
    reassign: bool,
    /// Where to write the tables (standard output if not given).
    #[arg(long)]
    lfts: Option<PathBuf>,
    /// `dump` (OpenSM's opensm-lfts.dump) or `ibroute` (what ibroute and dump_lfts.sh print).
    #[arg(long, default_value = "dump", value_parser = ["dump", "ibroute"])]
    lfts_format: String,
}

fn parse_link(s: &str) -> Result<(Width, Speed), String> {
    let bad = || format!("{s:?}: a width and speed such as 4xQDR (1x 2x 4x 8x 12x; SDR DDR QDR FDR10 FDR EDR HDR NDR)");
    let (lanes, speed) = s.split_once('x').ok_or_else(bad)?;
    let width = Width::ALL.into_iter().find(|w| w.lanes().to_string() == lanes).ok_or_else(bad)?;
    let speed = Speed::ALL.into_iter().find(|x| x.name() == speed).ok_or_else(bad)?;
    Ok((width, speed))
}

fn parse_engine(s: &str) -> Result<Engine, String> {
    let names: Vec<&str> = Engine::ALL.iter().map(|e| e.name()).collect();
    Engine::from_name(s).ok_or_else(|| format!("{s:?}: the engines are {}", names.join(", ")))
}

pub fn run(command: &Command) -> Result<(), Error> {
    match command {
        Command::Gen(args) => gen(args),
        Command::Route(args) => route_file(args),
    }
}

fn gen(args: &GenArgs) -> Result<(), Error> {
    let link = args.link;
    let f = match args.shape {
        Shape::Fattree { k } => shapes::fat_tree(k, link),
        Shape::Twolevel { k } => shapes::two_level(k, link),
        Shape::Ring { n, hosts } => shapes::ring(n, hosts, link),
        Shape::Parallel { cables, hosts } => shapes::parallel(cables, hosts, link),
        Shape::Random { switches, ports, hosts, extra, seed } => {
            shapes::random(switches, ports, hosts, extra, seed, link)
        }
    }
    .map_err(|GenerateError(e)| e)?;
    let text = if args.format == "ibsim" { write_net(&f) } else { write_topology(&f) };
    crate::output::print(&text);
    Ok(())
}

/// The GUIDs in a file as OpenSM reads a node map (`parse_node_map`): a GUID at the start of each line (`0x` for
/// hexadecimal, as C's `strtoull` reads it), anything after it a name; `#` starts a comment.
fn read_guids(path: &PathBuf) -> Result<Vec<u64>, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path.display(), &e))?;
    let mut guids = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim_start();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let word = line.split(|c: char| c.is_whitespace() || c == '#').next().unwrap_or("");
        let guid = match word.strip_prefix("0x").or_else(|| word.strip_prefix("0X")) {
            Some(hex) => u64::from_str_radix(hex, 16).ok(),
            None if word.len() > 1 && word.starts_with('0') => u64::from_str_radix(&word[1..], 8).ok(),
            None => word.parse().ok(),
        };
        let guid = guid.ok_or_else(|| format!("{}: line {}: {word:?} is not a GUID", path.display(), i + 1))?;
        guids.push(guid);
    }
    Ok(guids)
}

/// The fabric in `path`, or why not (the file and line); what was taken in with a note is said on stderr.
pub fn load(path: &PathBuf) -> Result<Fabric, Error> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path.display(), &e))?;
    let parsed = parse_with_notes(&text).map_err(|e| Error::Refused(format!("{}: {e}", path.display())))?;
    for note in &parsed.notes {
        eprintln!("ibcc: {}: {note}", path.display());
    }
    Ok(parsed.fabric)
}

fn route_file(args: &RouteArgs) -> Result<(), Error> {
    let f = load(&args.file)?;
    let roots = match &args.roots {
        Some(path) => Roots::Given(read_guids(path)?),
        None => Roots::Found,
    };
    let options = Options { engine: args.engine, sm: args.sm.clone(), lmc: args.lmc, reassign: args.reassign, roots };
    let r = route(&f, &options).map_err(|e| Error::Refused(format!("{}: {e}", args.file.display())))?;
    for note in &r.notes {
        eprintln!("ibcc: {note}");
    }
    let text = match args.lfts_format.as_str() {
        "ibroute" => write_ibroute(&f, &r.addressing, &r.lfts),
        _ => write_dump(&f, &r.addressing, &r.lfts),
    };
    match &args.lfts {
        Some(out) => std::fs::write(out, text).map_err(|e| Error::io(out.display(), &e)),
        None => {
            crate::output::print(&text);
            Ok(())
        }
    }
}
