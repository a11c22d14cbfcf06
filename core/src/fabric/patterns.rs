//! Traffic patterns for routing studies, and what a routing does to them.
//!
//! A pattern is a list of (source, destination) pairs among `n` hosts numbered in a given order; each pair's route
//! follows the forwarding tables, and a channel (a cable in one direction) carries as many routes as cross it. What
//! one route can have is set by the busiest channel on it: with static routing and every flow sending at once, a
//! flow that shares a channel with c - 1 others gets at most 1/c of the link. The *effective bisection bandwidth* of
//! Hoefler, Schneider and Lumsdaine ("Multistage switches are not crossbars", Cluster'08) is that share averaged
//! over the flows of many random bisection patterns: 1 for a network that routes like a crossbar.
//!
//! The patterns:
//! - `shift k`: host i sends to host (i + k) mod n;
//! - `permutation`: host i sends to host p(i) for a random permutation p with no host drawn to itself (a
//!   derangement, drawn uniformly: every host sends and every host receives, as in htsim's permutation matrices and
//!   most traffic studies);
//! - `bisection`: the hosts split at random into two halves of n/2 (one left out if n is odd), each host of one half
//!   paired with one of the other, and each pair sending both ways (the links are full duplex);
//! - `all_to_all`: every host to every other;
//! - `hotspot k`: k hosts, spread evenly through the order (host round(j n / (k + 1)) for j = 1..k), all send to
//!   host 0: an incast, the classic congestion tree's root at host 0's link, usually over a permutation of
//!   background flows.

use super::hops::NO_PATH;
use super::lfts::Lfts;
use super::lids::Addressing;
use super::model::{Fabric, PortRef};
use super::paths::trace;
use crate::rng::Rng;
use alloc::string::String;
use alloc::vec::Vec;

/// A traffic pattern among the hosts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pattern {
    Shift(usize),
    Permutation,
    Bisection,
    AllToAll,
    Hotspot(usize),
}

impl Pattern {
    /// Reads `shift:K`, `permutation`, `bisection`, `all_to_all` (also `all-to-all`) or `hotspot:K`.
    pub fn parse(s: &str) -> Result<Self, String> {
        match s {
            "permutation" => Ok(Self::Permutation),
            "bisection" => Ok(Self::Bisection),
            "all_to_all" | "all-to-all" => Ok(Self::AllToAll),
            _ => match (
                s.strip_prefix("shift:").map(str::parse::<usize>),
                s.strip_prefix("hotspot:").map(str::parse::<usize>),
            ) {
                (Some(Ok(k)), _) => Ok(Self::Shift(k)),
                (_, Some(Ok(k))) => Ok(Self::Hotspot(k)),
                _ => Err(alloc::format!(
                    "{s:?}: a pattern is shift:K, permutation, bisection, all_to_all or hotspot:K (K a whole number)"
                )),
            },
        }
    }

    /// Whether the pattern draws random numbers (and so differs from seed to seed).
    pub fn is_random(self) -> bool {
        matches!(self, Self::Permutation | Self::Bisection)
    }

    /// The pairs among `n` hosts, drawn from `rng` if the pattern is random. A host never sends to itself.
    pub fn pairs(self, n: usize, rng: &mut Rng) -> Result<Vec<(usize, usize)>, String> {
        if n < 2 {
            return Err(alloc::format!("a pattern needs two hosts or more; this network has {n}"));
        }
        Ok(match self {
            Self::Shift(k) => {
                if k % n == 0 {
                    return Err(alloc::format!("shift:{k} sends every one of the {n} hosts to itself"));
                }
                (0..n).map(|i| (i, (i + k) % n)).collect()
            }
            Self::Permutation => {
                // Shuffled again until no host is drawn to itself: uniform over derangements, about e shuffles.
                let p = loop {
                    let p = shuffled(n, rng);
                    if p.iter().enumerate().all(|(i, &d)| d != i) {
                        break p;
                    }
                };
                p.into_iter().enumerate().collect()
            }
            Self::Bisection => {
                let p = shuffled(n, rng);
                let half = n / 2;
                (0..half).flat_map(|i| [(p[i], p[half + i]), (p[half + i], p[i])]).collect()
            }
            Self::AllToAll => (0..n).flat_map(|i| (0..n).filter(move |&j| j != i).map(move |j| (i, j))).collect(),
            Self::Hotspot(k) => {
                if k == 0 || k >= n {
                    return Err(alloc::format!("hotspot:{k} needs 1 to {} senders among the {n} hosts", n - 1));
                }
                // Rounded to the nearest host; j n / (k + 1) rises by at least 1 per j when k < n, so no repeats.
                (1..=k).map(|j| ((2 * j * n + k + 1) / (2 * (k + 1)), 0)).collect()
            }
        })
    }
}

/// 0..n in a random order (Fisher-Yates).
fn shuffled(n: usize, rng: &mut Rng) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        p.swap(i, rng.below(i as u64 + 1) as usize);
    }
    p
}

/// What a routing does to a pattern.
#[derive(Debug, Clone, PartialEq)]
pub struct Load {
    /// The pairs routed (those whose route arrives).
    pub flows: usize,
    /// Pairs whose route does not arrive (no entry, a loop).
    pub lost: usize,
    /// Routes per channel: `routes[c]` for the channel [`Channels::at`] numbers `c`.
    pub routes: Vec<u32>,
    /// The most routes any channel carries.
    pub max: u32,
    /// Routes per channel, averaged over the channels that carry at least one.
    pub mean: f64,
    /// Each routed flow's share of a link, 1 / (routes on the busiest channel of its route), averaged.
    pub share: f64,
}

/// The fabric's channels, numbered: channel `c` leaves node `at(c).node` by port `at(c).port` (cabled ports only).
#[derive(Debug)]
pub struct Channels {
    first: Vec<usize>,
    at: Vec<PortRef>,
}

impl Channels {
    pub fn new(f: &Fabric) -> Self {
        let mut first = Vec::with_capacity(f.nodes.len() + 1);
        let mut at = Vec::new();
        for (node, n) in f.nodes.iter().enumerate() {
            first.push(at.len());
            at.extend((1..=n.ports).filter(|&port| f.peer(node, port).is_some()).map(|port| PortRef { node, port }));
        }
        first.push(at.len());
        Self { first, at }
    }

    pub fn len(&self) -> usize {
        self.at.len()
    }

    pub fn is_empty(&self) -> bool {
        self.at.is_empty()
    }

    /// Where channel `c` leaves from.
    pub fn at(&self, c: usize) -> PortRef {
        self.at[c]
    }

    /// The channel that leaves by `p` (a cabled port).
    fn of(&self, p: PortRef) -> usize {
        let node = &self.at[self.first[p.node]..self.first[p.node + 1]];
        self.first[p.node] + node.iter().position(|x| x.port == p.port).expect("a cabled port is a channel")
    }
}

/// Routes `pairs` among `hosts` (CA ports with their base LIDs, in the pattern's host order) through the tables.
pub fn load(f: &Fabric, a: &Addressing, l: &Lfts, hosts: &[(PortRef, u16)], pairs: &[(usize, usize)]) -> Load {
    let channels = Channels::new(f);
    let mut routes = alloc::vec![0u32; channels.len()];
    let mut paths: Vec<Vec<usize>> = Vec::with_capacity(pairs.len());
    let mut lost = 0;
    for &(s, d) in pairs {
        let (from, _) = hosts[s];
        let Ok(r) = trace(f, a, l, from, hosts[d].1) else {
            lost += 1;
            continue;
        };
        let mut path = alloc::vec![channels.of(from)];
        path.extend(
            r.steps
                .iter()
                .filter(|st| st.out_port != NO_PATH)
                .map(|st| channels.of(PortRef { node: st.switch, port: st.out_port })),
        );
        for &c in &path {
            routes[c] += 1;
        }
        paths.push(path);
    }
    Load::of(routes, &paths, lost)
}

impl Load {
    /// The load of these routes (each its channels), given the routes on every channel and how many were lost.
    pub fn of(routes: Vec<u32>, paths: &[Vec<usize>], lost: usize) -> Self {
        let used: Vec<u32> = routes.iter().copied().filter(|&r| r > 0).collect();
        let max = used.iter().copied().max().unwrap_or(0);
        let mean =
            if used.is_empty() { 0.0 } else { used.iter().map(|&r| f64::from(r)).sum::<f64>() / used.len() as f64 };
        let share = if paths.is_empty() {
            0.0
        } else {
            paths.iter().map(|p| 1.0 / f64::from(p.iter().map(|&c| routes[c]).max().unwrap_or(1))).sum::<f64>()
                / paths.len() as f64
        };
        Load { flows: paths.len(), lost, routes, max, mean, share }
    }
}

/// The hosts in the order a pattern numbers them: the CA ports the subnet manager addressed, in the fabric's node
/// order (the order of the file, or of a generated shape: leaf by leaf), each with its base LID.
pub fn hosts_in_node_order(f: &Fabric, a: &Addressing) -> Vec<(PortRef, u16)> {
    let mut hosts: Vec<(PortRef, u16)> =
        a.ports.iter().filter(|p| !f.nodes[p.at.node].is_switch()).map(|p| (p.at, p.base)).collect();
    super::model::sort_by_u64(&mut hosts, |(at, _)| at.key());
    hosts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fabric::route::{route, Engine, Options};
    use crate::fabric::{shapes, Speed, Width};
    const LINK: (Width, Speed) = (Width::X4, Speed::Sdr);

    /// Two switches joined by two cables, four hosts on each: shift by four sends every host across, and minhop
    /// spreads each switch's four destinations over the two cables, two routes on each, so each flow gets half.
    #[test]
    fn load_counts_the_routes_on_each_channel() {
        let f = shapes::parallel(2, 4, LINK).unwrap();
        let r = route(&f, &Options::new(Engine::Minhop)).unwrap();
        let hosts = hosts_in_node_order(&f, &r.addressing);
        assert_eq!(hosts.len(), 8);
        let pairs = Pattern::Shift(4).pairs(8, &mut Rng::new(1, 0)).unwrap();
        let across = load(&f, &r.addressing, &r.lfts, &hosts, &pairs);
        assert_eq!((across.flows, across.lost, across.max, across.share), (8, 0, 2, 0.5));
        let channels = Channels::new(&f);
        for (c, &n) in across.routes.iter().enumerate() {
            let at = channels.at(c);
            let between_switches =
                f.peer(at.node, at.port).is_some_and(|p| f.nodes[p.node].is_switch()) && f.nodes[at.node].is_switch();
            assert_eq!(n, if between_switches { 2 } else { 1 }, "channel from {at:?}");
        }
        assert_eq!(across.mean, 24.0 / 20.0, "16 host channels with one route, 4 switch channels with two");
        // Shift by one stays on the switch but for the two flows that cross: one on each cable.
        let near = load(&f, &r.addressing, &r.lfts, &hosts, &Pattern::Shift(1).pairs(8, &mut Rng::new(1, 0)).unwrap());
        assert_eq!((near.max, near.share), (1, 1.0));
    }

    /// All-to-all on the k=4 fat tree under minhop: each host's link carries its 15 routes each way, and each of the
    /// 192 routes between pods crosses one core switch. They could be 12 on each core downlink; they are 24 on the
    /// downlinks of two cores and none on the other two's. Edge and aggregation switches both give destinations to
    /// their uplinks in turn, in the same LID order, so the destinations an edge sends to an aggregation switch are
    /// the ones that switch sends to the same core of its two (OpenSM does exactly this: the tables equal its own,
    /// cli/tests/opensm.rs). ftree exists for this.
    #[test]
    fn all_to_all_on_a_fat_tree_shows_minhop_using_half_the_cores() {
        let f = shapes::fat_tree(4, LINK).unwrap();
        let r = route(&f, &Options::new(Engine::Minhop)).unwrap();
        let hosts = hosts_in_node_order(&f, &r.addressing);
        let all = load(&f, &r.addressing, &r.lfts, &hosts, &Pattern::AllToAll.pairs(16, &mut Rng::new(1, 0)).unwrap());
        assert_eq!((all.flows, all.lost, all.max), (240, 0, 24));
        let channels = Channels::new(&f);
        let (mut core_down, mut per_core) = (0, alloc::vec![0u32; 4]);
        for (c, &n) in all.routes.iter().enumerate() {
            let at = channels.at(c);
            let to = f.peer(at.node, at.port).unwrap();
            let (from, into) = (&f.nodes[at.node].name, &f.nodes[to.node].name);
            if !f.nodes[at.node].is_switch() || !f.nodes[to.node].is_switch() {
                assert_eq!(n, 15, "{from} -> {into}");
            }
            if let Some(core) = from.strip_prefix("core-") {
                core_down += n;
                per_core[core.parse::<usize>().unwrap()] += n;
            }
        }
        assert_eq!(core_down, 192);
        assert_eq!(per_core, [96, 0, 0, 96]);
    }

    #[test]
    fn patterns_pair_hosts_as_named() {
        let mut rng = Rng::new(1, 0);
        assert_eq!(Pattern::Shift(1).pairs(3, &mut rng).unwrap(), [(0, 1), (1, 2), (2, 0)]);
        assert_eq!(Pattern::AllToAll.pairs(3, &mut rng).unwrap().len(), 6);
        for n in [2, 3, 7, 16] {
            let p = Pattern::Permutation.pairs(n, &mut rng).unwrap();
            assert_eq!(p.len(), n, "every host sends");
            let mut dsts: Vec<usize> = p.iter().map(|&(_, d)| d).collect();
            dsts.sort_unstable();
            dsts.dedup();
            assert_eq!(dsts.len(), p.len(), "each host receives once");
            assert!(p.iter().all(|&(s, d)| s != d));
            let b = Pattern::Bisection.pairs(n, &mut rng).unwrap();
            assert_eq!(b.len(), n / 2 * 2);
            let mut ends: Vec<usize> = b.iter().map(|&(s, _)| s).collect();
            ends.sort_unstable();
            ends.dedup();
            assert_eq!(ends.len(), n / 2 * 2, "each host of the bisection sends once");
        }
        assert!(Pattern::Shift(3).pairs(3, &mut rng).unwrap_err().contains("to itself"));
        assert!(Pattern::AllToAll.pairs(1, &mut rng).is_err());
        assert_eq!(Pattern::parse("shift:4"), Ok(Pattern::Shift(4)));
        assert!(Pattern::parse("shift:x").unwrap_err().contains("shift:K"));
        assert_eq!(Pattern::parse("hotspot:3"), Ok(Pattern::Hotspot(3)));
    }

    /// A hot spot's senders are spread evenly through the hosts and distinct, for every size it allows.
    #[test]
    fn a_hot_spot_spreads_its_senders_into_host_0() {
        let mut rng = Rng::new(1, 0);
        assert_eq!(Pattern::Hotspot(3).pairs(16, &mut rng).unwrap(), [(4, 0), (8, 0), (12, 0)]);
        assert_eq!(Pattern::Hotspot(2).pairs(648, &mut rng).unwrap(), [(216, 0), (432, 0)]);
        for n in 2..40 {
            for k in 1..n {
                let p = Pattern::Hotspot(k).pairs(n, &mut rng).unwrap();
                let mut senders: Vec<usize> = p.iter().map(|&(s, d)| if d == 0 { s } else { 0 }).collect();
                senders.dedup();
                assert_eq!(senders.len(), k, "{k} of {n}");
                assert!(senders.iter().all(|&s| (1..n).contains(&s)), "{k} of {n}: {senders:?}");
            }
            assert!(Pattern::Hotspot(n).pairs(n, &mut rng).unwrap_err().contains("1 to"));
            assert!(Pattern::Hotspot(0).pairs(n, &mut rng).is_err());
        }
    }
}
