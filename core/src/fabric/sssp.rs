//! OpenSM's `sssp` engine, which is also the routing half of `dfsssp` (`osm_ucast_dfsssp.c`; docs/opensm-routing.md
//! §5.1–5.3): one Dijkstra per destination LID over the switches, on link weights that grow with the routes already
//! laid on them, so that paths spread across the fabric while staying shortest where it is idle.
//!
//! Every switch-to-switch cable is a directed link in each direction, first weighted P² (P: the LIDs of all CA and
//! switch ports), so that a longer path never beats a shorter one while weights are small. Destinations come in
//! OpenSM's order: the switches sorted by how many end ports they carry (most first, ties in switch order), each
//! switch's CA ports in port order, then every switch itself. For each destination LID, a Dijkstra grows from the
//! destination (a CA joins through a link of weight 1 to its switch); each switch's table sends the LID back along the
//! link it was reached by; then every switch's path to the destination adds the switch's end-port count to each link
//! on it. Ties are decided by OpenSM's 4-ary heap (`complib/cl_heap.c`), emulated here operation by operation.

use super::hops::SwitchGraph;
use super::lfts::Lfts;
use super::lids::Addressing;
use super::model::{sort_by_u64, Fabric, PortRef};
use alloc::string::String;
use alloc::vec::Vec;

/// OpenSM's "infinite" distance.
const INF: u64 = 0x7FFF_FFFF;

/// A directed link: from vertex `from` to vertex `to`, arriving on `to`'s port `to_port` (the port `to` sends back
/// on toward `from`).
#[derive(Debug, Clone)]
struct Link {
    from: usize,
    to: usize,
    to_port: u8,
    weight: u64,
}

/// The switches as Dijkstra's vertices 1..=N (vertex 0: the CA a search starts from), each with its links in port
/// order, and the state of the last search.
struct Graph {
    /// Per vertex: its links (indices into `links`).
    out: Vec<Vec<usize>>,
    links: Vec<Link>,
    /// Per vertex: the end ports (LIDs) on the switch, its own included (OpenSM's `num_hca`).
    num_hca: Vec<u64>,
    dist: Vec<u64>,
    used: Vec<Option<usize>>,
    done: Vec<bool>,
    heap: Heap,
}

/// OpenSM's `cl_heap` with branching factor 4: keys and vertices, and each vertex's place.
struct Heap {
    elems: Vec<(u64, usize)>,
    at: Vec<usize>,
}

impl Heap {
    fn set(&mut self, i: usize, e: (u64, usize)) {
        self.elems[i] = e;
        self.at[e.1] = i;
    }

    fn insert(&mut self, key: u64, v: usize) {
        self.elems.push((key, v));
        self.at[v] = self.elems.len() - 1;
        self.up(self.elems.len() - 1);
    }

    /// `heap_up`: move while strictly less than the parent.
    fn up(&mut self, index: usize) {
        if index == 0 {
            return;
        }
        let tmp = self.elems[index];
        let (mut parent, mut hole) = (index, None);
        loop {
            let child = parent;
            parent = (child - 1) / 4;
            if tmp.0 < self.elems[parent].0 {
                let e = self.elems[parent];
                self.set(child, e);
                hole = Some(parent);
            } else {
                break;
            }
            if parent == 0 {
                break;
            }
        }
        if let Some(h) = hole {
            self.set(h, tmp);
        }
    }

    /// `heap_down`: among the children the last with the least key; move while greater than it.
    fn down(&mut self, index: usize) {
        let tmp = self.elems[index];
        let n = self.elems.len();
        let (mut parent, mut moved) = (index, false);
        while parent * 4 + 1 < n {
            let first = parent * 4 + 1;
            let mut swap = first;
            for child in first + 1..(first + 4).min(n) {
                if self.elems[child].0 <= self.elems[swap].0 {
                    swap = child;
                }
            }
            if tmp.0 > self.elems[swap].0 {
                let e = self.elems[swap];
                self.set(parent, e);
                parent = swap;
                moved = true;
            } else {
                break;
            }
        }
        if moved {
            self.set(parent, tmp);
        }
    }

    fn modify_key(&mut self, key: u64, index: usize) {
        let old = self.elems[index].0;
        self.elems[index].0 = key;
        if key < old {
            self.up(index);
        } else if key > old {
            self.down(index);
        }
    }

    /// `cl_heap_extract_root`: the last element to the root, then down.
    fn extract_root(&mut self) -> Option<usize> {
        let n = self.elems.len();
        match n {
            0 => None,
            1 => self.elems.pop().map(|e| e.1),
            _ => {
                let root = self.elems[0];
                let last = self.elems.pop().expect("two or more");
                self.set(0, last);
                self.down(0);
                Some(root.1)
            }
        }
    }
}

impl Graph {
    /// Dijkstra from `source` (a switch vertex, or vertex 0 joined to switch vertex `ca.0` on its port `ca.1`).
    fn search(&mut self, n: usize, source: usize, ca: Option<(usize, u8)>) {
        self.heap.elems.clear();
        for v in 1..=n {
            (self.dist[v], self.used[v], self.done[v]) = (INF, None, false);
            self.heap.insert(INF, v);
        }
        self.out[0].clear();
        if let Some((sw, port)) = ca {
            // A fresh link of weight 1 from the CA to its switch, every search.
            self.links.truncate(self.ca_link_base());
            self.links.push(Link { from: 0, to: sw, to_port: port, weight: 1 });
            self.out[0].push(self.links.len() - 1);
            (self.used[0], self.done[0]) = (None, false);
            self.heap.insert(INF, 0);
        }
        (self.dist[source], self.done[source]) = (0, true);
        self.heap.modify_key(0, self.heap.at[source]);
        while let Some(x) = self.heap.extract_root() {
            self.done[x] = true;
            for k in 0..self.out[x].len() {
                let l = self.out[x][k];
                let (to, w) = (self.links[l].to, self.links[l].weight);
                if !self.done[to] && self.dist[x] + w < self.dist[to] {
                    self.used[to] = Some(l);
                    self.dist[to] = self.dist[x] + w;
                    self.heap.modify_key(self.dist[to], self.heap.at[to]);
                }
            }
        }
    }

    /// Where the CA link of a search goes (after the switch links).
    fn ca_link_base(&self) -> usize {
        self.out[1..].iter().map(Vec::len).sum()
    }

    /// Every switch's path to the source gains the switch's end-port count on each link (`update_weights`).
    fn update_weights(&mut self, n: usize) {
        for i in 1..=n {
            let Some(_) = self.used[i] else { continue };
            let add = self.num_hca[i];
            let mut j = i;
            while let Some(l) = self.used[j] {
                self.links[l].weight += add;
                j = self.links[l].from;
            }
        }
    }
}

/// sssp's tables for `f` and the end ports in the order it routed them (OpenSM's port order list, which dfsssp's
/// layering walks), or why OpenSM would not run it (and route with minhop instead).
pub fn build(f: &Fabric, a: &Addressing, g: &SwitchGraph) -> Result<(Lfts, Vec<PortRef>), String> {
    let n = g.len();
    let vertex = |s: usize| s + 1;
    let total: u64 = a.ports.iter().map(|p| u64::from(p.count)).sum();
    let mut out = alloc::vec![Vec::new(); n + 1];
    let mut links = Vec::new();
    let mut num_hca = alloc::vec![0u64; n + 1];
    for s in 0..n {
        let node = g.nodes[s];
        num_hca[vertex(s)] += 1;
        for p in 1..=f.nodes[node].ports {
            let Some(r) = f.peer(node, p) else { continue };
            if r.node == node {
                continue;
            }
            match g.index[r.node] {
                None => num_hca[vertex(s)] += a.port(r).map_or(1, |e| u64::from(e.count)),
                Some(o) => {
                    out[vertex(s)].push(links.len());
                    links.push(Link { from: vertex(s), to: vertex(o), to_port: r.port, weight: total * total });
                }
            }
        }
    }
    let mut graph = Graph {
        out,
        links,
        num_hca,
        dist: alloc::vec![INF; n + 1],
        used: alloc::vec![None; n + 1],
        done: alloc::vec![false; n + 1],
        heap: Heap { elems: Vec::with_capacity(n + 1), at: alloc::vec![0; n + 1] },
    };
    // The dry run from the subnet manager's port: a switch it cannot reach fails the engine.
    let (sm_source, sm_ca) = source(f, g, a.sm);
    graph.search(n, sm_source, sm_ca);
    let unreached = (1..=n).filter(|&v| graph.used[v].is_none()).count();
    let allowed = usize::from(f.nodes[a.sm.node].is_switch());
    if unreached > allowed {
        return Err(String::from("switches the subnet manager cannot reach (OpenSM: \"detached and inaccessible\")"));
    }
    let mut lfts = Lfts::empty(g.nodes.clone(), a.max_lid());
    for s in 0..n {
        let lid = a.switch_lid(g.nodes[s]);
        lfts.tables[s][usize::from(lid)] = 0;
    }
    let order = order(f, a, g, &graph.num_hca);
    for &at in &order {
        let Some(e) = a.port(at) else { continue };
        let (src, ca) = source(f, g, at);
        for lid in e.base..e.base + e.count {
            graph.search(n, src, ca);
            for s in 0..n {
                if let Some(l) = graph.used[vertex(s)] {
                    lfts.tables[s][usize::from(lid)] = graph.links[l].to_port;
                }
            }
            graph.update_weights(n);
        }
    }
    Ok((lfts, order))
}

/// Where a search toward port `at` starts: its switch's vertex, or vertex 0 joined to the CA's switch.
fn source(f: &Fabric, g: &SwitchGraph, at: PortRef) -> (usize, Option<(usize, u8)>) {
    match g.index[at.node] {
        Some(s) => (s + 1, None),
        None => {
            let sw = f.peer(at.node, at.port).and_then(|r| g.index[r.node].map(|s| (s + 1, r.port)));
            (0, sw)
        }
    }
}

/// OpenSM's destination order: switches by end-port count (most first, ties in switch order), each one's CA ports
/// in port order, then the switches' own port 0 in the same order.
fn order(f: &Fabric, a: &Addressing, g: &SwitchGraph, num_hca: &[u64]) -> Vec<PortRef> {
    let mut by_hca: Vec<usize> = (0..g.len()).collect();
    sort_by_u64(&mut by_hca, |&s| u64::MAX - num_hca[s + 1]);
    let mut listed = alloc::vec![false; a.ports.len()];
    let mut order = Vec::new();
    for &s in &by_hca {
        let node = g.nodes[s];
        for p in 1..=f.nodes[node].ports {
            let Some(r) = f.peer(node, p).filter(|r| g.index[r.node].is_none()) else { continue };
            if let Some(i) = a.port_index(r).filter(|&i| !listed[i]) {
                listed[i] = true;
                order.push(r);
            }
        }
    }
    order.extend(by_hca.iter().map(|&s| PortRef { node: g.nodes[s], port: 0 }));
    order
}
