//! `ibcc fabric`: real InfiniBand fabrics. Generate one, route it as OpenSM does, write its forwarding tables,
//! check them (reachability, loops, deadlock) and follow a route.

use crate::exit::Error;
use ibcc_core::fabric::check::check;
use ibcc_core::fabric::ftree::write_ca_order;
use ibcc_core::fabric::lfts::{read as read_lfts, write_dump, write_ibroute};
use ibcc_core::fabric::lids::Addressing;
use ibcc_core::fabric::netfile::{parse_with_notes, write_net, write_topology};
use ibcc_core::fabric::paths::{trace, write_tracert};
use ibcc_core::fabric::patterns::{hosts_in_node_order, load as pattern_load, Channels, Pattern};
use ibcc_core::fabric::route::{self, Engine, Options};
use ibcc_core::fabric::shapes::{self, GenerateError};
use ibcc_core::fabric::updn::Roots;
use ibcc_core::fabric::{Fabric, PortRef, Speed, Width};
use ibcc_core::rng::Rng;
use ibcc_core::scenario::{scenario_of, RoutingEngine};
use std::path::PathBuf;

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Print a generated fabric (as `ibnetdiscover` prints one, or as an ibsim net file).
    Gen(GenArgs),
    /// Route a fabric (an `ibnetdiscover` topology or an ibsim net file) as OpenSM does; write its LFTs.
    Route(RouteArgs),
    /// All-to-all among the CAs under a routing: reachability, loops, channel-dependency cycles, routes per port.
    Check(Routing),
    /// The route from one port to another, hop by hop, as ibtracert prints it.
    Path(PathArgs),
    /// A traffic pattern's load on every channel under a routing, and each flow's share of a link (the effective
    /// bisection bandwidth of Hoefler et al. for `bisection`).
    Load(LoadArgs),
    /// Print a scenario of a fabric (no flows yet: add them with `ibcc pattern`, or by hand), routed as OpenSM routes
    /// the fabric, each link at its cable's data rate.
    Scenario(ScenarioArgs),
}

#[derive(Debug, clap::Args)]
pub struct ScenarioArgs {
    /// The fabric: an `ibnetdiscover` topology file or an ibsim net file.
    file: PathBuf,
    /// minhop, updn, ftree, sssp, or first_listed (the playground's old rule).
    #[arg(long, default_value = "minhop", value_parser = parse_scenario_engine)]
    engine: RoutingEngine,
    /// Simulated time, in nanoseconds.
    #[arg(long, default_value_t = 10_000_000)]
    duration_ns: u64,
}

#[derive(Debug, clap::Args)]
pub struct LoadArgs {
    #[command(flatten)]
    routing: Routing,
    /// shift:K, permutation, bisection, all_to_all or hotspot:K, among the CA ports in the file's node order (under ftree, in
    /// its compute-node order).
    #[arg(long, value_parser = Pattern::parse)]
    pattern: Pattern,
    /// Random patterns (permutation, bisection): how many to draw and average over.
    #[arg(long, default_value_t = 1)]
    samples: u32,
    /// Seed of the random patterns.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// How many of the busiest channels to list.
    #[arg(long, default_value_t = 10)]
    top: usize,
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
    /// LEAVES leaves of HOSTS hosts under SPINES spines, each leaf cabled to each spine `--cables` times (the PFT
    /// paper's 120 nodes: leafspine 10 12 6 --cables 2).
    Leafspine {
        leaves: u32,
        hosts: u32,
        spines: u32,
        #[arg(long, default_value_t = 1)]
        cables: u32,
    },
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
    #[command(flatten)]
    routing: Routing,
    /// Where to write the tables (standard output if not given).
    #[arg(long)]
    lfts: Option<PathBuf>,
    /// `dump` (OpenSM's opensm-lfts.dump) or `ibroute` (what ibroute and dump_lfts.sh print).
    #[arg(long, default_value = "dump", value_parser = ["dump", "ibroute"])]
    lfts_format: String,
    /// With ftree: where to write its compute-node order, as OpenSM's opensm-ftree-ca-order.dump (shift
    /// permutations in this order are contention-free on a full fat tree).
    #[arg(long)]
    ca_order: Option<PathBuf>,
    /// With dfsssp: where to write each source/destination LID pair's virtual lane, as OpenSM's debug log prints
    /// it ("route from src_lid=.. to dest_lid=.. on vl=..", after the lanes available and needed).
    #[arg(long)]
    vl_table: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
pub struct PathArgs {
    #[command(flatten)]
    routing: Routing,
    /// Where the route starts: a node's name or description, a LID, or a port GUID (0x...).
    src: String,
    /// Where it goes: the same kinds of name.
    dst: String,
}

/// A fabric and how it is routed: by an engine, or by tables read from a file.
#[derive(Debug, clap::Args)]
pub struct Routing {
    /// The fabric: an `ibnetdiscover` topology file or an ibsim net file.
    file: PathBuf,
    /// Forwarding tables to use instead of an engine's (opensm-lfts.dump or ibroute/dump_lfts.sh output), as
    /// OpenSM's `file` engine replays a site's routing.
    #[arg(long, conflicts_with_all = ["engine", "roots"])]
    tables: Option<PathBuf>,
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
    /// The virtual lanes every switch port operates, which dfsssp may use (1 to 15).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u8).range(1..=15))]
    vls: u8,
}

fn parse_link(s: &str) -> Result<(Width, Speed), String> {
    let bad = || format!("{s:?}: a width and speed such as 4xQDR (1x 2x 4x 8x 12x; SDR DDR QDR FDR10 FDR EDR HDR NDR)");
    let (lanes, speed) = s.split_once('x').ok_or_else(bad)?;
    let width = Width::ALL.into_iter().find(|w| w.lanes().to_string() == lanes).ok_or_else(bad)?;
    let speed = Speed::ALL.into_iter().find(|x| x.name() == speed).ok_or_else(bad)?;
    Ok((width, speed))
}

pub fn parse_scenario_engine(s: &str) -> Result<RoutingEngine, String> {
    serde_json::from_value(serde_json::Value::String(s.to_owned()))
        .map_err(|_| format!("{s:?}: the engines are minhop, updn, ftree, sssp, dfsssp and first_listed"))
}

fn parse_engine(s: &str) -> Result<Engine, String> {
    let names: Vec<&str> = Engine::ALL.iter().map(|e| e.name()).collect();
    Engine::from_name(s).ok_or_else(|| format!("{s:?}: the engines are {}", names.join(", ")))
}

pub fn run(command: &Command) -> Result<(), Error> {
    match command {
        Command::Gen(args) => gen(args),
        Command::Route(args) => route_file(args),
        Command::Check(routing) => check_file(routing),
        Command::Path(args) => path(args),
        Command::Load(args) => load_pattern(args),
        Command::Scenario(args) => scenario(args),
    }
}

fn gen(args: &GenArgs) -> Result<(), Error> {
    let link = args.link;
    let f = match args.shape {
        Shape::Fattree { k } => shapes::fat_tree(k, link),
        Shape::Twolevel { k } => shapes::two_level(k, link),
        Shape::Ring { n, hosts } => shapes::ring(n, hosts, link),
        Shape::Parallel { cables, hosts } => shapes::parallel(cables, hosts, link),
        Shape::Leafspine { leaves, hosts, spines, cables } => {
            shapes::leaf_spine(shapes::LeafSpine { leaves, hosts, spines, cables }, link)
        }
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

/// A routed fabric: the fabric, its LIDs and tables, and the engine that filled them.
struct Routed {
    fabric: Fabric,
    routed: route::Routed,
}

impl Routing {
    fn route(&self) -> Result<Routed, Error> {
        let fabric = load(&self.file)?;
        let roots = match &self.roots {
            Some(path) => Roots::Given(read_guids(path)?),
            None => Roots::Found,
        };
        let options = Options {
            engine: self.engine,
            sm: self.sm.clone(),
            lmc: self.lmc,
            reassign: self.reassign,
            roots,
            vls: self.vls,
        };
        let mut routed =
            route::route(&fabric, &options).map_err(|e| Error::Refused(format!("{}: {e}", self.file.display())))?;
        if let Some(path) = &self.tables {
            let text = std::fs::read_to_string(path).map_err(|e| Error::io(path.display(), &e))?;
            let a = &routed.addressing;
            routed.lfts = read_lfts(&text, &fabric, &a.switches, a.max_lid())
                .map_err(|e| Error::Refused(format!("{}: {e}", path.display())))?;
            routed.notes = vec![format!("the tables of {}", path.display())];
        }
        for note in &routed.notes {
            eprintln!("ibcc: {note}");
        }
        Ok(Routed { fabric, routed })
    }

    /// What filled the tables, for a report's first line.
    fn source(&self, r: &route::Routed) -> String {
        match &self.tables {
            Some(path) => format!("the tables in {}", path.display()),
            None => format!("OpenSM's {}", r.engine.name()),
        }
    }
}

fn route_file(args: &RouteArgs) -> Result<(), Error> {
    let Routed { fabric: f, routed: r } = args.routing.route()?;
    if let Some(out) = &args.ca_order {
        if r.engine != Engine::Ftree {
            return Err(Error::Refused(String::from("--ca-order: only ftree has a compute-node order")));
        }
        let text = write_ca_order(&f, &r.addressing, &r.ca_order);
        std::fs::write(out, text).map_err(|e| Error::io(out.display(), &e))?;
    }
    if let Some(out) = &args.vl_table {
        let Some(layers) = &r.layers else {
            return Err(Error::Refused(format!(
                "--vl-table: only dfsssp gives routes virtual lanes ({} routed)",
                r.engine.name()
            )));
        };
        std::fs::write(out, layers.write()).map_err(|e| Error::io(out.display(), &e))?;
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

fn check_file(routing: &Routing) -> Result<(), Error> {
    let Routed { fabric: f, routed: r } = routing.route()?;
    let c = check(&f, &r.addressing, &r.lfts, r.layers.as_ref());
    let labels = f.labels();
    let name = |n: usize| labels[n].as_str();
    let (switches, cas) = (r.addressing.switches.len(), r.addressing.ports.len() - r.addressing.switches.len());
    let mut out = format!(
        "fabric: {switches} switches, {cas} CA ports, LIDs 1-{}; routed by {}\n",
        r.addressing.max_lid(),
        routing.source(&r)
    );
    out += &format!("reachability: {} of {} CA-to-CA pairs arrive\n", c.reached, c.pairs);
    for (src, lid, why) in &c.lost {
        out += &format!("  \"{}\" port {} to LID {lid}: {}\n", name(src.node), src.port, why.describe(&f));
    }
    if c.pairs - c.reached > c.lost.len() {
        out += &format!("  ... and {} more\n", c.pairs - c.reached - c.lost.len());
    }
    out += &format!(
        "forwarding loops: {}\n",
        if c.loops == 0 { String::from("none") } else { format!("{} pairs", c.loops) }
    );
    let lanes = r.layers.as_ref().map_or(1, |l| l.needed);
    let what = if lanes > 1 { "switch-to-switch channels on their lanes" } else { "switch-to-switch channels" };
    out += &format!("channel dependencies: {} {what}, {} dependencies; ", c.channels, c.dependencies);
    match &c.cycle {
        None if lanes == 1 => out += "no cycle: deadlock-free on one virtual lane\n",
        None => {
            out += &format!("no cycle on any of the {lanes} virtual lanes dfsssp gives the routes: deadlock-free\n")
        }
        Some(cycle) => {
            let hops: Vec<String> =
                cycle.iter().map(|ch| format!("\"{}\" port {}", name(ch.switch), ch.port)).collect();
            let on = if lanes > 1 { format!(" on lane {}", c.cycle_lane) } else { String::new() };
            out +=
                &format!("a cycle of {}{on}: {} -> back to the first (can deadlock)\n", cycle.len(), hops.join(" -> "));
        }
    }
    let loads: Vec<u32> = c.port_routes.values().copied().collect();
    let max = loads.iter().max().copied().unwrap_or(0);
    let mean = if loads.is_empty() { 0.0 } else { f64::from(loads.iter().sum::<u32>()) / loads.len() as f64 };
    out += &format!(
        "routes per switch port (all-to-all, base LIDs): max {max}, mean {mean:.1} over {} ports\n",
        loads.len()
    );
    out += "switch\tport\tto\troutes\n";
    for (ch, n) in &c.port_routes {
        let to = f.peer(ch.switch, ch.port).map_or(String::from("-"), |p| format!("{}[{}]", name(p.node), p.port));
        out += &format!("{}\t{}\t{to}\t{n}\n", name(ch.switch), ch.port);
    }
    crate::output::print(&out);
    Ok(())
}

/// The port a name means: a node (its first cabled port; a switch's port 0), a LID, or a port GUID.
fn endpoint(f: &Fabric, a: &Addressing, what: &str) -> Result<PortRef, Error> {
    let port_of = |node: usize| {
        if f.nodes[node].is_switch() {
            Some(PortRef { node, port: 0 })
        } else {
            (1..=f.nodes[node].ports).find(|&p| f.peer(node, p).is_some()).map(|port| PortRef { node, port })
        }
    };
    let found = if let Some(hex) = what.strip_prefix("0x") {
        let guid = u64::from_str_radix(hex, 16).map_err(|_| format!("{what:?}: not a GUID"))?;
        a.ports.iter().find(|p| p.guid == guid).map(|p| p.at)
    } else if let Ok(lid) = what.parse::<u16>() {
        a.owner(lid).map(|p| p.at)
    } else {
        f.find(what).or_else(|| f.nodes.iter().position(|n| n.desc == what)).and_then(port_of)
    };
    found
        .filter(|&at| {
            a.port(if f.nodes[at.node].is_switch() { PortRef { node: at.node, port: 0 } } else { at }).is_some()
        })
        .ok_or_else(|| Error::Refused(format!("{what:?}: no addressed port of the fabric has that name, LID or GUID")))
}

fn path(args: &PathArgs) -> Result<(), Error> {
    let Routed { fabric: f, routed: r } = args.routing.route()?;
    let a = &r.addressing;
    let (src, dst) = (endpoint(&f, a, &args.src)?, endpoint(&f, a, &args.dst)?);
    let lid = a.port(dst).map(|p| p.base).expect("an endpoint is addressed");
    match trace(&f, a, &r.lfts, src, lid) {
        Ok(route) => {
            let mut out = write_tracert(&f, a, &route);
            // dfsssp's lane for the pair (OpenSM's base SL; a path query may answer another lane of its share).
            let slid = a.port(src).map(|p| p.base).unwrap_or(0);
            if let Some(vl) = r.layers.as_ref().and_then(|l| l.vl(slid, lid)) {
                let share = r.layers.as_ref().map_or(1, |l| l.split[usize::from(vl)]).max(1);
                let spread = if share > 1 {
                    format!(" (its SL spread over lanes {vl}-{})", vl + share - 1)
                } else {
                    String::new()
                };
                out += &format!("dfsssp lane: VL {vl}{spread}\n");
            }
            crate::output::print(&out);
            Ok(())
        }
        Err(lost) => Err(Error::Refused(format!(
            "no route from {} to {} (LID {lid}): {}",
            args.src,
            args.dst,
            lost.describe(&f)
        ))),
    }
}

fn load_pattern(args: &LoadArgs) -> Result<(), Error> {
    let Routed { fabric: f, routed: r } = args.routing.route()?;
    let a = &r.addressing;
    // Under ftree, its compute-node order (shifts in it are what ftree makes contention-free).
    let hosts = if r.engine == Engine::Ftree {
        r.ca_order.iter().flatten().map(|&at| (at, a.port(at).expect("an ordered CA port is addressed").base)).collect()
    } else {
        hosts_in_node_order(&f, a)
    };
    let samples = if args.pattern.is_random() { args.samples.max(1) } else { 1 };
    let mut rng = Rng::new(args.seed, 0x7061_7474); // "patt": the patterns' own stream
    let (mut share, mut mean, mut max, mut flows, mut lost) = (0.0, 0.0, 0, 0, 0);
    let mut busiest = Vec::new();
    for _ in 0..samples {
        let pairs = args.pattern.pairs(hosts.len(), &mut rng).map_err(Error::Refused)?;
        let l = pattern_load(&f, a, &r.lfts, &hosts, &pairs);
        (share, mean) = (share + l.share, mean + l.mean);
        (flows, lost) = (flows + l.flows, lost + l.lost);
        if l.max > max || busiest.is_empty() {
            max = l.max;
            busiest = l.routes;
        }
    }
    let n = f64::from(samples);
    let labels = f.labels();
    let mut out = format!(
        "pattern {} among {} CA ports{}; routed by {}\n",
        pattern_name(args.pattern),
        hosts.len(),
        if args.pattern.is_random() { format!(", {samples} drawn from seed {}", args.seed) } else { String::new() },
        args.routing.source(&r)
    );
    out += &format!("flows routed: {} a pattern (lost: {})\n", flows as f64 / n, lost as f64 / n);
    out += &format!("most routes on one channel: {max}\n");
    out += &format!("routes per channel, over the channels that carry any: {:.3}\n", mean / n);
    out += &format!(
        "each flow's share of a link, 1 / routes on the busiest channel of its route, averaged: {:.4}{}\n",
        share / n,
        if args.pattern == Pattern::Bisection { " (effective bisection bandwidth; 1 for a crossbar)" } else { "" }
    );
    let channels = Channels::new(&f);
    let mut order: Vec<usize> = (0..busiest.len()).filter(|&c| busiest[c] > 0).collect();
    order.sort_by_key(|&c| (std::cmp::Reverse(busiest[c]), c));
    out += &format!(
        "busiest channels{}:\nroutes\tfrom\tport\tto\tport\n",
        if samples > 1 { " (the sample with the most)" } else { "" }
    );
    for &c in order.iter().take(args.top) {
        let at = channels.at(c);
        let to = f.peer(at.node, at.port).expect("a channel is cabled");
        out += &format!("{}\t{}\t{}\t{}\t{}\n", busiest[c], labels[at.node], at.port, labels[to.node], to.port);
    }
    crate::output::print(&out);
    Ok(())
}

fn pattern_name(p: Pattern) -> String {
    match p {
        Pattern::Shift(k) => format!("shift:{k}"),
        Pattern::Permutation => String::from("permutation"),
        Pattern::Bisection => String::from("bisection"),
        Pattern::AllToAll => String::from("all_to_all"),
        Pattern::Hotspot(k) => format!("hotspot:{k}"),
    }
}

fn scenario(args: &ScenarioArgs) -> Result<(), Error> {
    let text = std::fs::read_to_string(&args.file).map_err(|e| Error::io(args.file.display(), &e))?;
    let name = args.file.file_stem().map_or(String::from("fabric"), |n| n.to_string_lossy().into_owned());
    let mut s = scenario_of(&name, &text, args.duration_ns)
        .map_err(|e| Error::Refused(format!("{}: {e}", args.file.display())))?;
    s.routing.engine = args.engine;
    s.measure.from_ns = args.duration_ns / 4;
    for note in s.routing_notes().map_err(|e| Error::Refused(format!("{}: {e}", args.file.display())))? {
        eprintln!("ibcc: routing: {note}");
    }
    crate::output::print(&(s.to_json() + "\n"));
    Ok(())
}
