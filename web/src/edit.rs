//! Edits of a scenario's network as the canvas makes them: add, move, connect, delete, change properties, undo and
//! redo. Every edit returns a new scenario that the core's validation accepts, or says why it was refused, so the
//! simulation never sees a broken network. Pure Rust, tested natively.

use ibcc_core::scenario::{Flow, Link, Node, NodeKind, Scenario, VlArbitration, VlWeight};
use std::collections::{BTreeSet, VecDeque};

/// What the user has selected on the canvas.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selection {
    Node(String),
    /// A link by its index in `scenario.links`.
    Link(usize),
    Flow(String),
}

/// An edit that was refused: the message says why, in the user's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub String);

impl core::fmt::Display for Refused {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.0)
    }
}

fn kind_of(s: &Scenario, id: &str) -> Option<NodeKind> {
    s.nodes.iter().find(|n| n.id == id).map(|n| n.kind)
}

fn degree(s: &Scenario, id: &str) -> usize {
    s.links.iter().filter(|l| l.a == id || l.b == id).count()
}

/// The first free id of the form `{prefix}{n}`, n from 1.
fn fresh_id(taken: impl Fn(&str) -> bool, prefix: &str) -> String {
    (1..).map(|n| format!("{prefix}{n}")).find(|id| !taken(id)).unwrap_or_default()
}

/// The scenario after `change`, if the core's validation accepts it.
pub fn checked(s: &Scenario, change: impl FnOnce(&mut Scenario)) -> Result<Scenario, Refused> {
    let mut next = s.clone();
    change(&mut next);
    next.check().map_err(|e| Refused(e.to_string()))?;
    Ok(next)
}

/// Adds a switch or a host at `(x, y)`; returns the new scenario and the new node's id.
pub fn add_node(s: &Scenario, kind: NodeKind, x: f64, y: f64) -> Result<(Scenario, String), Refused> {
    let prefix = if kind == NodeKind::Switch { "S" } else { "h" };
    let id = fresh_id(|id| s.nodes.iter().any(|n| n.id == id), prefix);
    let node = Node { id: id.clone(), kind, switch: None, x: Some(x), y: Some(y) };
    Ok((checked(s, |n| n.nodes.push(node))?, id))
}

/// Moves node `id` to `(x, y)` (layout only: the simulation does not change).
pub fn move_node(s: &Scenario, id: &str, x: f64, y: f64) -> Scenario {
    let mut next = s.clone();
    if let Some(n) = next.nodes.iter_mut().find(|n| n.id == id) {
        (n.x, n.y) = (Some(x), Some(y));
    }
    next
}

/// Links `a` and `b` with the scenario's default bandwidth and propagation delay.
pub fn add_link(s: &Scenario, a: &str, b: &str) -> Result<Scenario, Refused> {
    if a == b {
        return Err(Refused(format!("{a} cannot be linked to itself")));
    }
    for end in [a, b] {
        match kind_of(s, end) {
            None => return Err(Refused(format!("there is no node {end}"))),
            Some(NodeKind::Host) if degree(s, end) >= 1 => {
                return Err(Refused(format!("host {end} already has its link (a host has exactly one)")))
            }
            _ => {}
        }
    }
    if s.links.iter().any(|l| (l.a == a && l.b == b) || (l.a == b && l.b == a)) {
        return Err(Refused(format!("{a} and {b} are already linked")));
    }
    let link = Link::between(a, b);
    checked(s, |n| n.links.push(link))
}

/// Whether data can go from host `src` to host `dst` (only switches forward).
pub fn reachable(s: &Scenario, src: &str, dst: &str) -> bool {
    let mut seen = BTreeSet::from([src]);
    let mut queue = VecDeque::from([src]);
    while let Some(at) = queue.pop_front() {
        if at == dst {
            return true;
        }
        if at != src && kind_of(s, at) != Some(NodeKind::Switch) {
            continue;
        }
        for l in &s.links {
            let next = if l.a == at {
                l.b.as_str()
            } else if l.b == at {
                l.a.as_str()
            } else {
                continue;
            };
            if seen.insert(next) {
                queue.push_back(next);
            }
        }
    }
    false
}

/// A greedy flow from host `src` to host `dst` for the whole run; returns the new scenario and the flow's id.
pub fn add_flow(s: &Scenario, src: &str, dst: &str) -> Result<(Scenario, String), Refused> {
    for end in [src, dst] {
        match kind_of(s, end) {
            None => return Err(Refused(format!("there is no node {end}"))),
            Some(NodeKind::Switch) => return Err(Refused(format!("{end} is a switch: flows go from host to host"))),
            Some(NodeKind::Host) => {}
        }
    }
    if src == dst {
        return Err(Refused(format!("a flow needs two different hosts ({src} to itself)")));
    }
    if !reachable(s, src, dst) {
        return Err(Refused(format!("{dst} cannot be reached from {src}: link them through switches first")));
    }
    let id = fresh_id(|id| s.flows.iter().any(|f| f.id == id), "f");
    let flow = Flow::new(&id, src, dst);
    Ok((checked(s, |n| n.flows.push(flow))?, id))
}

/// Removes flows that can no longer reach their destination; returns their ids.
fn drop_unreachable(s: &mut Scenario) -> Vec<String> {
    let gone: Vec<String> = s.flows.iter().filter(|f| !reachable(s, &f.src, &f.dst)).map(|f| f.id.clone()).collect();
    s.flows.retain(|f| !gone.contains(&f.id));
    gone
}

/// Deletes the selection. A node takes its links with it; flows that lose their path go too. Returns the new
/// scenario and, when more than the selection went, a note saying what.
pub fn delete(s: &Scenario, sel: &Selection) -> (Scenario, Option<String>) {
    let mut next = s.clone();
    let mut gone_links = 0;
    // (A host's own flows go with it, and are said as those that lost their path are.)
    let mut own_flows = Vec::new();
    match sel {
        Selection::Node(id) => {
            next.nodes.retain(|n| &n.id != id);
            let before = next.links.len();
            next.links.retain(|l| &l.a != id && &l.b != id);
            gone_links = before - next.links.len();
            own_flows = next.flows.iter().filter(|f| &f.src == id || &f.dst == id).map(|f| f.id.clone()).collect();
            next.flows.retain(|f| &f.src != id && &f.dst != id);
        }
        Selection::Link(i) => {
            if *i < next.links.len() {
                next.links.remove(*i);
            }
        }
        Selection::Flow(id) => next.flows.retain(|f| &f.id != id),
    }
    let lost_flows = drop_unreachable(&mut next);
    let mut also = Vec::new();
    if gone_links > 0 {
        also.push(format!("{gone_links} link{}", if gone_links == 1 { "" } else { "s" }));
    }
    let flows = |ids: &[String], why: String| {
        format!("flow{} {} ({why})", if ids.len() == 1 { "" } else { "s" }, ids.join(", "))
    };
    if let Selection::Node(id) = sel {
        if !own_flows.is_empty() {
            also.push(flows(&own_flows, format!("from or to {id}")));
        }
    }
    if !lost_flows.is_empty() {
        also.push(flows(&lost_flows, "no path left".into()));
    }
    let note = (!also.is_empty()).then(|| format!("Also removed {}.", also.join(" and ")));
    (next, note)
}

/// Renames node `old` to `new`, with every link and flow that names it.
pub fn rename_node(s: &Scenario, old: &str, new: &str) -> Result<Scenario, Refused> {
    let new = new.trim();
    if new != old && s.nodes.iter().any(|n| n.id == new) {
        return Err(Refused(format!("another node is already called {new}")));
    }
    checked(s, |n| {
        let swap = |id: &mut String| {
            if id == old {
                *id = new.to_owned();
            }
        };
        n.nodes.iter_mut().for_each(|node| swap(&mut node.id));
        n.links.iter_mut().for_each(|l| {
            swap(&mut l.a);
            swap(&mut l.b);
        });
        n.flows.iter_mut().for_each(|f| {
            swap(&mut f.src);
            swap(&mut f.dst);
        });
    })
}

/// Link `i`'s VL arbitration weights as the inspector edits them: one weight (64-byte blocks) per data VL, the
/// link's own (`None`: it follows the network's) and the network's. `None` with one VL, or when a table in effect
/// is anything but one entry per VL in VL order (written in a scenario file, a VL listed twice for example): the
/// page says so rather than flatten it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VlWeights {
    pub own: Option<Vec<u8>>,
    pub network: Vec<u8>,
}

fn network_arbitration(s: &Scenario) -> VlArbitration {
    s.virtual_lanes.as_ref().map(|v| v.arbitration.clone()).unwrap_or_default()
}

/// Each VL's weight, if `a`'s low-priority table is one entry per VL in VL order.
fn per_vl(a: &VlArbitration, vls: u8) -> Option<Vec<u8>> {
    let table = a.low_table(vls);
    let simple = table.len() == usize::from(vls) && table.iter().enumerate().all(|(k, e)| usize::from(e.vl) == k);
    simple.then(|| table.iter().map(|e| e.weight).collect())
}

pub fn vl_weights(s: &Scenario, i: usize) -> Option<VlWeights> {
    let vls = s.data_vls();
    if vls < 2 {
        return None;
    }
    let network = per_vl(&network_arbitration(s), vls)?;
    let own = match &s.links.get(i)?.vl_arbitration {
        None => None,
        Some(a) => Some(per_vl(a, vls)?),
    };
    Some(VlWeights { own, network })
}

/// Sets data VL `vl`'s weight on link `i` (`None`: back to the network's). The link keeps its own high-priority
/// table and limit, if it has them; a link whose arbitration comes back to the network's follows it again.
pub fn set_vl_weight(s: &Scenario, i: usize, vl: u8, weight: Option<u64>) -> Result<Scenario, Refused> {
    let refuse = |why: &str| Err(Refused(why.into()));
    let Some(w) = vl_weights(s, i) else {
        return refuse("this link's VL arbitration table lists VLs in another order or more than once: edit it in the scenario file");
    };
    let mut weights = w.own.unwrap_or_else(|| w.network.clone());
    let Some(slot) = weights.get_mut(usize::from(vl)) else { return refuse("no such VL") };
    *slot = match weight {
        None => w.network[usize::from(vl)],
        Some(x) => match u8::try_from(x) {
            Ok(x) => x,
            Err(_) => return refuse("a weight is 0 to 255 blocks (of 64 bytes)"),
        },
    };
    let network = network_arbitration(s);
    let base = s.links[i].vl_arbitration.clone().unwrap_or_else(|| network.clone());
    let low = weights.iter().enumerate().map(|(k, &weight)| VlWeight { vl: k as u8, weight }).collect();
    let own = VlArbitration { low, ..base };
    let vls = s.data_vls();
    let same = own.low_table(vls) == network.low_table(vls)
        && own.high == network.high
        && own.high_limit == network.high_limit;
    checked(s, |n| n.links[i].vl_arbitration = (!same).then_some(own))
}

/// Undo and redo: the states (a scenario, and where it came from) before and after the current one.
#[derive(Debug, Clone, PartialEq)]
pub struct History<T> {
    undo: Vec<T>,
    redo: Vec<T>,
}

impl<T> History<T> {
    /// Whether both hold the same states, each pair compared by `same`.
    pub fn same(&self, o: &Self, same: impl Fn(&T, &T) -> bool) -> bool {
        let all = |a: &[T], b: &[T]| a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same(x, y));
        all(&self.undo, &o.undo) && all(&self.redo, &o.redo)
    }
}

impl<T> Default for History<T> {
    fn default() -> Self {
        Self { undo: Vec::new(), redo: Vec::new() }
    }
}

/// How many edits can be undone.
const DEPTH: usize = 200;

impl<T> History<T> {
    /// Records that `before` was replaced by an edit; a new edit forgets what could be redone.
    pub fn record(&mut self, before: T) {
        self.undo.push(before);
        if self.undo.len() > DEPTH {
            self.undo.remove(0);
        }
        self.redo.clear();
    }

    /// The state before `current`, if any.
    pub fn undo(&mut self, current: T) -> Option<T> {
        let prev = self.undo.pop()?;
        self.redo.push(current);
        Some(prev)
    }

    /// The state undone from `current`, if any.
    pub fn redo(&mut self, current: T) -> Option<T> {
        let next = self.redo.pop()?;
        self.undo.push(current);
        Some(next)
    }

    pub fn can_undo(&self) -> bool {
        !self.undo.is_empty()
    }

    pub fn can_redo(&self) -> bool {
        !self.redo.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::rc::Rc;

    fn two_switch() -> Scenario {
        let mut s = Scenario::empty("t", 1_000_000);
        let (s1, id1) = add_node(&s, NodeKind::Switch, 0.0, 0.0).unwrap();
        let (s2, id2) = add_node(&s1, NodeKind::Switch, 100.0, 0.0).unwrap();
        assert_eq!((id1.as_str(), id2.as_str()), ("S1", "S2"));
        s = add_link(&s2, "S1", "S2").unwrap();
        for (i, sw) in ["S1", "S1", "S2"].iter().enumerate() {
            let (n, id) = add_node(&s, NodeKind::Host, i as f64, 50.0).unwrap();
            s = add_link(&n, &id, sw).unwrap();
        }
        s
    }

    #[test]
    fn builds_a_network_that_validates() {
        let s = two_switch();
        assert_eq!(s.nodes.len(), 5);
        assert_eq!(s.links.len(), 4);
        let (s, f) = add_flow(&s, "h1", "h3").unwrap();
        assert_eq!(f, "f1");
        assert!(s.validate().is_ok());
        assert_eq!(s.flows[0].src, "h1");
    }

    #[test]
    fn refuses_what_the_network_cannot_have() {
        let s = two_switch();
        assert!(add_link(&s, "h1", "S2").unwrap_err().0.contains("host h1 already has its link"));
        assert!(add_link(&s, "S1", "S1").is_err());
        assert!(add_link(&s, "S2", "S1").unwrap_err().0.contains("already linked"));
        assert!(add_flow(&s, "h1", "S2").unwrap_err().0.contains("S2 is a switch"));
        assert!(add_flow(&s, "h1", "h1").is_err());
        let (lonely, h) = add_node(&s, NodeKind::Host, 0.0, 0.0).unwrap();
        let e = add_flow(&lonely, "h1", &h).unwrap_err();
        assert!(e.0.contains("cannot be reached"), "{e}");
    }

    #[test]
    fn hosts_do_not_forward() {
        let mut s = Scenario::empty("t", 1_000_000);
        for kind in [NodeKind::Host, NodeKind::Host] {
            s = add_node(&s, kind, 0.0, 0.0).unwrap().0;
        }
        s = add_link(&s, "h1", "h2").unwrap();
        assert!(reachable(&s, "h1", "h2"));
        let s = add_node(&s, NodeKind::Host, 0.0, 0.0).unwrap().0;
        assert!(!reachable(&s, "h1", "h3"));
    }

    #[test]
    fn deleting_takes_dependents_along() {
        let (s, _) = add_flow(&two_switch(), "h1", "h3").unwrap();
        let (s2, _) = add_flow(&s, "h1", "h2").unwrap();
        let (after, note) = delete(&s2, &Selection::Link(0));
        assert_eq!(after.flows.iter().map(|f| f.id.as_str()).collect::<Vec<_>>(), ["f2"], "f1 crossed S1-S2");
        assert_eq!(note.as_deref(), Some("Also removed flow f1 (no path left)."));
        let (after, note) = delete(&s2, &Selection::Node("S1".into()));
        assert!(after.flows.is_empty() && after.links.len() == 1);
        assert!(note.unwrap().starts_with("Also removed 3 links"));
        assert!(after.validate().is_ok());
        // A host's own flows go with it, and are named.
        let (after, note) = delete(&s2, &Selection::Node("h1".into()));
        assert!(after.flows.is_empty());
        assert_eq!(note.as_deref(), Some("Also removed 1 link and flows f1, f2 (from or to h1)."));
        let (after, note) = delete(&s2, &Selection::Flow("f2".into()));
        assert_eq!((after.flows.len(), note), (1, None));
    }

    #[test]
    fn renaming_follows_references() {
        let (s, _) = add_flow(&two_switch(), "h1", "h3").unwrap();
        let s = rename_node(&s, "h1", "src").unwrap();
        assert_eq!(s.flows[0].src, "src");
        assert!(s.links.iter().any(|l| l.a == "src"));
        assert!(rename_node(&s, "src", "h3").is_err());
        assert!(rename_node(&s, "src", "").is_err(), "ids are not empty");
    }

    #[test]
    fn moving_changes_only_the_position() {
        let s = two_switch();
        let m = move_node(&s, "S1", 7.0, 8.0);
        assert_eq!((m.nodes[0].x, m.nodes[0].y), (Some(7.0), Some(8.0)));
        assert_eq!(m.links, s.links);
    }

    #[test]
    fn undo_and_redo_walk_the_edits() {
        let mut h = History::<Rc<Scenario>>::default();
        let a = Rc::new(Scenario::empty("a", 1));
        let b = Rc::new(Scenario::empty("b", 1));
        let c = Rc::new(Scenario::empty("c", 1));
        h.record(a.clone());
        h.record(b.clone());
        assert_eq!(h.undo(c.clone()).unwrap().name, "b");
        assert_eq!(h.undo(b.clone()).unwrap().name, "a");
        assert!(h.undo(a.clone()).is_none(), "nothing before the first");
        let mut h2 = History::<Rc<Scenario>>::default();
        h2.record(a.clone());
        let back = h2.undo(b.clone()).unwrap();
        assert_eq!(back.name, "a");
        assert!(h2.can_redo());
        assert_eq!(h2.redo(back).unwrap().name, "b");
        assert!(!h2.can_redo());
        h2.undo(b.clone());
        h2.record(c);
        assert!(!h2.can_redo(), "a new edit forgets the redo");
    }

    /// A link's VL weights: edited one VL at a time, the rest kept; back to the network's, the link follows it
    /// again; a high-priority table of the link's own survives; more than 255 blocks, or a VL left with no weight
    /// while a flow uses it, is refused; a table in another shape is not flattened.
    #[test]
    fn vl_weights_edit_a_link_and_keep_the_rest() {
        use ibcc_core::scenario::VirtualLanes;
        let mut s = two_switch();
        assert_eq!(vl_weights(&s, 0), None, "one VL: nothing to weigh");
        s.virtual_lanes = Some(VirtualLanes { data_vls: 2, sl_to_vl: vec![], arbitration: Default::default() });
        assert_eq!(vl_weights(&s, 0), Some(VlWeights { own: None, network: vec![64, 64] }));
        let t = set_vl_weight(&s, 0, 1, Some(128)).unwrap();
        assert_eq!(vl_weights(&t, 0), Some(VlWeights { own: Some(vec![64, 128]), network: vec![64, 64] }));
        assert_eq!(vl_weights(&t, 1).unwrap().own, None, "only that link");
        let back = set_vl_weight(&t, 0, 1, None).unwrap();
        assert_eq!(back.links[0].vl_arbitration, None, "the network's again");
        assert_eq!(set_vl_weight(&t, 0, 1, Some(64)).unwrap().links[0].vl_arbitration, None);
        assert!(set_vl_weight(&s, 0, 0, Some(256)).unwrap_err().0.contains("255"));

        let mut high = t.clone();
        high.links[0].vl_arbitration.as_mut().unwrap().high = vec![VlWeight { vl: 1, weight: 9 }];
        let edited = set_vl_weight(&high, 0, 0, Some(32)).unwrap();
        let own = edited.links[0].vl_arbitration.clone().unwrap();
        assert_eq!((own.high.len(), own.low_table(2)[0].weight), (1, 32), "its high table kept");
        let reset = set_vl_weight(&edited, 0, 0, None).and_then(|e| set_vl_weight(&e, 0, 1, None)).unwrap();
        assert!(reset.links[0].vl_arbitration.is_some(), "still its own high table");

        let (mut on_vl1, flow) = (t.clone(), t.flows.len());
        let (with_flow, _) = add_flow(&on_vl1, "h1", "h3").unwrap();
        on_vl1 = with_flow;
        on_vl1.flows[flow].sl = 1;
        assert!(set_vl_weight(&on_vl1, 0, 1, Some(0)).is_err(), "its flow would never be sent");

        let mut listed = s.clone();
        let twice =
            vec![VlWeight { vl: 0, weight: 200 }, VlWeight { vl: 1, weight: 10 }, VlWeight { vl: 0, weight: 200 }];
        listed.links[0].vl_arbitration = Some(VlArbitration { low: twice, ..Default::default() });
        assert_eq!(vl_weights(&listed, 0), None);
        assert!(set_vl_weight(&listed, 0, 0, Some(1)).is_err());
    }
}
