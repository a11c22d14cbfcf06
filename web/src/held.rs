//! What an open exercise holds back until it is answered (predict, observe, explain): besides the value it asks
//! for, the links whose rates would give that value away. The page's plot, results, inspector and cards hold those
//! back too (`ui::playground::use_held_links`).

use ibcc_core::scenario::{Flow, NodeKind, Scenario};
use ibcc_core::sim::Metric;

/// The links (named `from->to`, as a run names them) whose data rate would give away what `m` asks for: its own
/// link; for a group's rate, each link that carries the group's flows and no others, as far as the page can tell
/// without routing: a host's link to its switch when every flow from that host is in the group, and the link into
/// a host when every flow to it is. (A link between switches carries what routing puts on it; in the lessons'
/// networks the groups share those.)
pub fn revealing_links(s: &Scenario, m: &Metric) -> Vec<String> {
    let group = match m {
        Metric::LinkRate { link } => return vec![link.clone()],
        Metric::GroupRate { group } => group,
    };
    let host = |id: &str| s.nodes.iter().any(|n| n.id == id && n.kind == NodeKind::Host);
    // Whether the flows with `end` at host `h` are all of the group (and there is one).
    let only_group = |h: &str, end: fn(&Flow) -> &str| {
        let mut flows = s.flows.iter().filter(|f| end(f) == h).peekable();
        flows.peek().is_some() && flows.all(|f| f.group == *group)
    };
    let mut held = Vec::new();
    for l in &s.links {
        for (from, to) in [(&l.a, &l.b), (&l.b, &l.a)] {
            if (host(from) && only_group(from, |f| &f.src)) || (host(to) && only_group(to, |f| &f.dst)) {
                held.push(format!("{from}->{to}"));
            }
        }
    }
    held
}

#[cfg(test)]
mod tests {
    use super::revealing_links;
    use ibcc_core::presets::find;
    use ibcc_core::sim::Metric;

    /// Fig. 2: the victim AV->BV is the only flow from AV and the only one to BV, so its first and last links give
    /// its rate away; the local flows each leave from a host of their own, and share the link into BC with the
    /// remote ones; A->B carries every group.
    #[test]
    fn a_group_s_rate_is_held_back_on_the_links_only_it_uses() {
        let s = find("infocom03-fig2").expect("preset").scenario();
        let victim = revealing_links(&s, &Metric::GroupRate { group: "victim".into() });
        assert_eq!(victim, ["AV->A", "B->BV"]);
        let local = revealing_links(&s, &Metric::GroupRate { group: "local".into() });
        assert!(!local.is_empty() && local.iter().all(|l| l.ends_with("->B")), "{local:?}");
        assert!(!local.iter().any(|l| l.contains("BC") || l == "A->B"), "{local:?}");
        assert_eq!(revealing_links(&s, &Metric::LinkRate { link: "A->B".into() }), ["A->B"]);
        assert!(revealing_links(&s, &Metric::GroupRate { group: "nobody".into() }).is_empty());
    }
}
