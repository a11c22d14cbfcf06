//! Where a node without a position of its own is drawn: switches in levels by their distance from the hosts (the
//! switches the hosts hang from at the bottom, a fat tree's roots on top), each host under its switch. An imported
//! or generated fabric has no positions, so this is how it is drawn: as the tree it is, with no crossing where the
//! tree has none. Pure Rust, tested natively.

use ibcc_core::scenario::{NodeKind, Scenario};
use ibcc_view::sorting::{sort, sort_by};
use std::collections::BTreeMap;

/// Room for a host, horizontally and vertically, in scenario units (a host is drawn 26 across).
const HOST: (f64, f64) = (36.0, 36.0);
/// Room for a switch across (one is drawn 44 across), and between levels.
const SWITCH_X: f64 = 80.0;
const LEVEL_Y: f64 = 150.0;

/// A large fabric's hosts are folded, a bottom switch's into one group, when there are more than this many in all
/// (a k = 8 fat tree's 128 hosts, four to a switch, stay open)...
const FOLD_FABRIC_HOSTS: usize = 64;
/// ... and a switch has more than this many.
const FOLD_SWITCH_HOSTS: usize = 4;

/// A bottom switch's hosts, drawn as one group under it until it is opened.
#[derive(Debug, Clone, PartialEq)]
pub struct Fold {
    pub switch: usize,
    pub hosts: Vec<usize>,
    /// Where the group is drawn (each of its hosts is placed here too, so flows and picking find them).
    pub at: (f64, f64),
}

/// Where every node goes, and the folded groups of hosts.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Placed {
    pub positions: Vec<(f64, f64)>,
    pub folds: Vec<Fold>,
}

/// A position for every node (those with their own are not moved by it; the caller keeps theirs); a large
/// fabric's hosts folded under their switch, but for the switches in `open`.
pub fn levels(s: &Scenario, open: &[usize]) -> Placed {
    let n = s.nodes.len();
    let index: BTreeMap<&str, usize> = s.nodes.iter().enumerate().map(|(i, n)| (n.id.as_str(), i)).collect();
    let mut near: Vec<Vec<usize>> = vec![Vec::new(); n];
    for l in &s.links {
        if let (Some(&a), Some(&b)) = (index.get(l.a.as_str()), index.get(l.b.as_str())) {
            // Parallel cables are one neighbour.
            if a != b && !near[a].contains(&b) {
                near[a].push(b);
                near[b].push(a);
            }
        }
    }
    let is_host = |i: usize| s.nodes[i].kind == NodeKind::Host;

    // Level: hops from the nearest host (hosts 0). A switch with no host in its part sits at level 1.
    let mut level = vec![usize::MAX; n];
    let mut queue: Vec<usize> = (0..n).filter(|&i| is_host(i)).collect();
    for &i in &queue {
        level[i] = 0;
    }
    let mut next = 0;
    while let Some(&i) = queue.get(next) {
        next += 1;
        for &j in &near[i] {
            if level[j] == usize::MAX && !is_host(j) {
                level[j] = level[i] + 1;
                queue.push(j);
            }
        }
    }
    for (i, l) in level.iter_mut().enumerate() {
        if *l == usize::MAX {
            *l = usize::from(!is_host(i));
        }
    }
    let top = level.iter().copied().max().unwrap_or(0).max(1);

    // The bottom switches, grouped by the switches above them (a fat tree's pod shares them), then by file order.
    let above = |i: usize| {
        let mut up: Vec<usize> = near[i].iter().copied().filter(|&j| level[j] > level[i]).collect();
        sort(&mut up);
        up
    };
    let mut bottom: Vec<(Vec<usize>, usize)> = (0..n).filter(|&i| level[i] == 1).map(|i| (above(i), i)).collect();
    sort(&mut bottom);

    // Each bottom switch's hosts under it, in rows; hosts on no switch at the end.
    let host_of = |h: usize| near[h].iter().copied().find(|&j| !is_host(j));
    let mut under: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    let mut loose = Vec::new();
    for h in (0..n).filter(|&i| is_host(i)) {
        match host_of(h) {
            Some(sw) if level[sw] == 1 => under.entry(sw).or_default().push(h),
            _ => loose.push(h),
        }
    }
    let columns = |hosts: usize| ((2.0 * hosts as f64).sqrt().ceil() as usize).clamp(1, hosts.max(1));
    let flat = top == 1 && bottom.len() >= 3 && bottom.iter().any(|&(_, i)| near[i].iter().any(|&j| level[j] == 1));
    if flat {
        return Placed { positions: ring(s, &near, &bottom, &under, &loose, columns), folds: Vec::new() };
    }
    let fold_any = (0..n).filter(|&i| is_host(i)).count() > FOLD_FABRIC_HOSTS;
    let folded = |sw: usize, hosts: usize| fold_any && hosts > FOLD_SWITCH_HOSTS && !open.contains(&sw);
    let mut folds = Vec::new();
    let hosts_y = (top as f64 - 1.0) * LEVEL_Y + 110.0;
    let mut pos = vec![(0.0, 0.0); n];
    let mut x = 0.0;
    let place_hosts = |hosts: &[usize], left: f64, pos: &mut Vec<(f64, f64)>| {
        let cols = columns(hosts.len());
        for (k, &h) in hosts.iter().enumerate() {
            pos[h] = (left + ((k % cols) as f64 + 0.5) * HOST.0, hosts_y + (k / cols) as f64 * HOST.1);
        }
        cols as f64 * HOST.0
    };
    for &(_, sw) in &bottom {
        let hosts = under.get(&sw).map_or(&[][..], Vec::as_slice);
        if folded(sw, hosts.len()) {
            let at = (x + SWITCH_X / 2.0, hosts_y);
            for &h in hosts {
                pos[h] = at;
            }
            folds.push(Fold { switch: sw, hosts: hosts.to_vec(), at });
            pos[sw] = (at.0, (top - 1) as f64 * LEVEL_Y);
            x += SWITCH_X + HOST.0 / 2.0;
            continue;
        }
        let width = (columns(hosts.len()) as f64 * HOST.0).max(SWITCH_X);
        let inner = columns(hosts.len()) as f64 * HOST.0;
        place_hosts(hosts, x + (width - inner) / 2.0, &mut pos);
        pos[sw] = (x + width / 2.0, (top - 1) as f64 * LEVEL_Y);
        x += width + HOST.0 / 2.0;
    }
    if !loose.is_empty() {
        x += place_hosts(&loose, x, &mut pos) + HOST.0 / 2.0;
    }
    let width = (x - HOST.0 / 2.0).max(SWITCH_X);

    // Each level above, ordered by where its neighbours below are (the barycentre: a pod's switches over their
    // pod), spread evenly over the width.
    let mut by_level: Vec<Vec<usize>> = vec![Vec::new(); top + 1];
    for (i, &l) in level.iter().enumerate() {
        by_level[l].push(i);
    }
    for (l, nodes) in by_level.iter().enumerate().skip(2) {
        let mut row: Vec<(f64, usize)> = nodes
            .iter()
            .map(|&i| {
                let below: Vec<f64> = near[i].iter().filter(|&&j| level[j] < l).map(|&j| pos[j].0).collect();
                let centre =
                    if below.is_empty() { width / 2.0 } else { below.iter().sum::<f64>() / below.len() as f64 };
                (centre, i)
            })
            .collect();
        sort_by(&mut row, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let span = (row.len() as f64 * SWITCH_X).max(width);
        let step = span / row.len().max(1) as f64;
        for (k, &(_, i)) in row.iter().enumerate() {
            pos[i] = ((width - span) / 2.0 + (k as f64 + 0.5) * step, (top - l) as f64 * LEVEL_Y);
        }
    }

    // At least the drawing panel's shape (about 2.3 wide to 1 high): the levels of a wide fabric move apart, so that
    // fitting it to the panel does not shrink it to a strip.
    let depth = pos.iter().map(|p| p.1).fold(0.0, f64::max);
    if top > 1 && depth < width / ASPECT {
        let gap = (width / ASPECT - (depth - (top - 1) as f64 * LEVEL_Y)) / (top - 1) as f64;
        for (i, p) in pos.iter_mut().enumerate() {
            p.1 = if is_host(i) { p.1 + (top - 1) as f64 * (gap - LEVEL_Y) } else { p.1 / LEVEL_Y * gap };
        }
        for f in &mut folds {
            f.at.1 += (top - 1) as f64 * (gap - LEVEL_Y);
        }
    }
    Placed { positions: pos, folds }
}

/// Switches cabled to each other on one level (a ring, or a mesh of switches that all have hosts): on a circle, in
/// the order a walk along their cables meets them, each one's hosts outside it; so the cable that closes a ring
/// does not run along a row over every other.
fn ring(
    s: &Scenario,
    near: &[Vec<usize>],
    bottom: &[(Vec<usize>, usize)],
    under: &BTreeMap<usize, Vec<usize>>,
    loose: &[usize],
    columns: impl Fn(usize) -> usize,
) -> Vec<(f64, f64)> {
    let is_switch = |i: usize| s.nodes[i].kind != NodeKind::Host;
    let mut order = Vec::with_capacity(bottom.len());
    let mut seen = vec![false; s.nodes.len()];
    for &(_, start) in bottom {
        let mut stack = vec![start];
        while let Some(i) = stack.pop() {
            if seen[i] {
                continue;
            }
            seen[i] = true;
            order.push(i);
            stack.extend(near[i].iter().rev().copied().filter(|&j| is_switch(j) && !seen[j]));
        }
    }
    let slot = |sw: usize| (columns(under.get(&sw).map_or(0, Vec::len)) as f64 * HOST.0).max(SWITCH_X);
    let circumference: f64 = order.iter().map(|&sw| slot(sw)).sum();
    let radius = (circumference / core::f64::consts::TAU).max(150.0);
    let mut pos = vec![(0.0, 0.0); s.nodes.len()];
    let mut along = 0.0;
    for &sw in &order {
        let a = (along + slot(sw) / 2.0) / circumference * core::f64::consts::TAU;
        along += slot(sw);
        pos[sw] = (radius * a.cos(), radius * a.sin());
        let hosts = under.get(&sw).map_or(&[][..], Vec::as_slice);
        let cols = columns(hosts.len());
        for (k, &h) in hosts.iter().enumerate() {
            let r = radius + 90.0 + (k / cols) as f64 * HOST.1;
            let b = a + ((k % cols) as f64 - (cols - 1) as f64 / 2.0) * HOST.0 / r;
            pos[h] = (r * b.cos(), r * b.sin());
        }
    }
    let below = radius + 90.0 + 4.0 * HOST.1;
    for (k, &h) in loose.iter().enumerate() {
        pos[h] = ((k as f64 - (loose.len() - 1) as f64 / 2.0) * HOST.0, below);
    }
    pos
}

/// The drawing panel's width over its height, roughly, on a laptop's screen.
const ASPECT: f64 = 2.3;

#[cfg(test)]
mod tests {
    use super::*;
    use ibcc_core::scenario::scenario_of;

    fn fabric(text: &str) -> Scenario {
        scenario_of("t", text, 1_000_000).unwrap()
    }

    #[test]
    fn a_fat_tree_is_drawn_in_levels_with_its_pods_together_and_hosts_under_their_leaf() {
        let f = ibcc_core::fabric::shapes::fat_tree(4, (ibcc_core::fabric::Width::X4, ibcc_core::fabric::Speed::Edr));
        let s = fabric(&ibcc_core::fabric::netfile::write_net(&f.unwrap()));
        let pos = levels(&s, &[]).positions;
        let ys: std::collections::BTreeSet<i64> = pos.iter().map(|p| p.1 as i64).collect();
        assert_eq!(ys.len(), 4, "cores, aggregation, edge, hosts: {ys:?}");
        let at = |id: &str| pos[s.nodes.iter().position(|n| n.id == id).unwrap()];
        for l in &s.links {
            let (a, b) = (at(&l.a), at(&l.b));
            assert_ne!(a.1, b.1, "every cable joins two levels: {} {}", l.a, l.b);
            let (upper, lower) = if a.1 < b.1 { (a, b) } else { (b, a) };
            assert!(upper.1 < lower.1);
        }
        // No two nodes on one spot, and each host is under its switch.
        for (i, p) in pos.iter().enumerate() {
            assert!(pos[..i].iter().all(|q| q != p), "{} overlaps", s.nodes[i].id);
        }
        for l in s.links.iter().filter(|l| s.nodes.iter().any(|n| n.id == l.b && n.kind == NodeKind::Host)) {
            assert!((at(&l.a).0 - at(&l.b).0).abs() <= 2.0 * HOST.0, "{} under {}", l.b, l.a);
        }
        // Edge-to-aggregation cables never cross: each pod's switches sit over the pod.
        let level_of = |y: f64| ys.iter().position(|&v| v == y as i64).unwrap();
        let mut spans: Vec<(f64, f64)> = s
            .links
            .iter()
            .map(|l| (at(&l.a), at(&l.b)))
            .filter(|(a, b)| level_of(a.1).min(level_of(b.1)) == 1 && level_of(a.1).max(level_of(b.1)) == 2)
            .map(|(a, b)| if a.1 < b.1 { (a.0, b.0) } else { (b.0, a.0) })
            .collect();
        spans.sort_by(|a, b| a.0.total_cmp(&b.0));
        let pods: Vec<Vec<(f64, f64)>> = spans.chunks(4).map(<[_]>::to_vec).collect();
        for w in pods.windows(2) {
            let right_of_first = w[0].iter().map(|s| s.0.max(s.1)).fold(f64::MIN, f64::max);
            let left_of_next = w[1].iter().map(|s| s.0.min(s.1)).fold(f64::MAX, f64::min);
            assert!(right_of_first < left_of_next, "pods overlap: {w:?}");
        }
    }

    fn distinct(s: &Scenario, pos: &[(f64, f64)]) {
        assert_eq!(pos.len(), s.nodes.len());
        for (i, p) in pos.iter().enumerate() {
            assert!(p.0.is_finite() && p.1.is_finite(), "{}", s.nodes[i].id);
            assert!(pos[..i].iter().all(|q| (q.0 - p.0).abs() + (q.1 - p.1).abs() > 20.0), "{}", s.nodes[i].id);
        }
    }

    #[test]
    fn a_ring_is_a_circle_with_hosts_outside_and_odd_networks_are_placed() {
        let f = ibcc_core::fabric::shapes::ring(6, 2, (ibcc_core::fabric::Width::X4, ibcc_core::fabric::Speed::Edr));
        let s = fabric(&ibcc_core::fabric::netfile::write_net(&f.unwrap()));
        let pos = levels(&s, &[]).positions;
        distinct(&s, &pos);
        let r = |p: (f64, f64)| p.0.hypot(p.1);
        let (sw, hosts): (Vec<usize>, Vec<usize>) =
            (0..s.nodes.len()).partition(|&i| s.nodes[i].kind == NodeKind::Switch);
        let radius = r(pos[sw[0]]);
        assert!(sw.iter().all(|&i| (r(pos[i]) - radius).abs() < 1e-6), "switches on one circle");
        assert!(hosts.iter().all(|&i| r(pos[i]) > radius + 50.0), "hosts outside it");
        // Neighbours on the ring are neighbours on the circle: no cable between switches is longer than two steps.
        let step = core::f64::consts::TAU * radius / 6.0;
        let at = |id: &str| pos[s.nodes.iter().position(|n| n.id == id).unwrap()];
        for l in &s.links {
            let (a, b) = (at(&l.a), at(&l.b));
            assert!((a.0 - b.0).hypot(a.1 - b.1) < 1.5 * step, "{} - {}", l.a, l.b);
        }

        // An empty network, switches alone, isolated nodes, a host cabled to a host.
        let mut odd = Scenario::empty("odd", 1_000_000);
        assert!(levels(&odd, &[]).positions.is_empty());
        for (id, kind) in
            [("a", NodeKind::Switch), ("b", NodeKind::Switch), ("h", NodeKind::Host), ("g", NodeKind::Host)]
        {
            odd.nodes.push(ibcc_core::scenario::Node { id: id.into(), kind, switch: None, x: None, y: None });
        }
        odd.links.push(ibcc_core::scenario::Link::between("a", "b"));
        odd.links.push(ibcc_core::scenario::Link::between("h", "g"));
        distinct(&odd, &levels(&odd, &[]).positions);
    }

    #[test]
    fn a_large_fabric_s_hosts_fold_under_their_switch_until_it_is_opened() {
        let f = ibcc_core::fabric::shapes::two_level(36, (ibcc_core::fabric::Width::X4, ibcc_core::fabric::Speed::Edr));
        let s = fabric(&ibcc_core::fabric::netfile::write_net(&f.unwrap()));
        let placed = levels(&s, &[]);
        assert_eq!(placed.folds.len(), 36, "a group under each leaf");
        assert!(placed
            .folds
            .iter()
            .all(|f| f.hosts.len() == 18 && f.hosts.iter().all(|&h| placed.positions[h] == f.at)));
        let leaf = placed.folds[3].switch;
        assert!((placed.positions[leaf].0 - placed.folds[3].at.0).abs() < 1e-9, "the group is under its leaf");
        let opened = levels(&s, &[leaf]);
        assert_eq!(opened.folds.len(), 35);
        let hosts: Vec<(f64, f64)> = placed.folds[3].hosts.iter().map(|&h| opened.positions[h]).collect();
        assert!((1..hosts.len()).all(|i| !hosts[..i].contains(&hosts[i])), "its hosts each in their place");
        // A k = 8 fat tree's four hosts a switch stay open.
        let f = ibcc_core::fabric::shapes::fat_tree(8, (ibcc_core::fabric::Width::X4, ibcc_core::fabric::Speed::Edr));
        assert!(levels(&fabric(&ibcc_core::fabric::netfile::write_net(&f.unwrap())), &[]).folds.is_empty());
    }

    #[test]
    fn any_network_without_positions_is_placed_without_overlap() {
        let mut s = ibcc_core::presets::find("infocom03-fig2").unwrap().scenario();
        for n in &mut s.nodes {
            (n.x, n.y) = (None, None);
        }
        let pos = levels(&s, &[]).positions;
        for (i, p) in pos.iter().enumerate() {
            assert!(p.0.is_finite() && p.1.is_finite());
            assert!(pos[..i].iter().all(|q| (q.0 - p.0).abs() + (q.1 - p.1).abs() > 20.0), "{}", s.nodes[i].id);
        }
    }
}
