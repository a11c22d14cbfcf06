//! What an open exercise holds back until it is answered (predict, observe, explain): besides the value it asks
//! for, the links whose rates would give that value away. The page's plot, results, inspector and cards hold those
//! back too (`ui::playground::use_held`).

use ibcc_core::scenario::{Flow, NodeKind, Scenario};
use ibcc_core::sim::Metric;

/// What an open exercise holds back besides the value it asks for.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Held {
    /// Links, named `from->to` as a run names them, whose data rate would give the value away.
    pub links: Vec<String>,
    /// Groups of flows whose rate would.
    pub groups: Vec<String>,
}

/// What would give away what `m` asks for. For a group's rate: the group, and each link that carries the group's
/// flows and no others, as far as the page can tell without routing: a host's link to its switch when every flow
/// from that host is in the group, and the link into a host when every flow to it is. (A link between switches
/// carries what routing puts on it; in the lessons' networks the groups share those.) For a link's rate: the link,
/// and, given the run's `paths` (each flow's channels; the page has them once the run's first frame is in), every
/// link that carries exactly the flows it carries, and every group made of exactly those flows (a lone flow's
/// links and curve all show its link's rate).
pub fn revealing(s: &Scenario, m: &Metric, paths: Option<&[Option<Vec<u32>>]>) -> Held {
    let group = match m {
        Metric::LinkRate { link } => return revealing_a_link(s, link, paths),
        Metric::GroupRate { group } => group,
    };
    let host = |id: &str| s.nodes.iter().any(|n| n.id == id && n.kind == NodeKind::Host);
    // Whether the flows with `end` at host `h` are all of the group (and there is one).
    let only_group = |h: &str, end: fn(&Flow) -> &str| {
        let mut flows = s.flows.iter().filter(|f| end(f) == h).peekable();
        flows.peek().is_some() && flows.all(|f| f.group == *group)
    };
    let mut links = Vec::new();
    for l in &s.links {
        for (from, to) in [(&l.a, &l.b), (&l.b, &l.a)] {
            if (host(from) && only_group(from, |f| &f.src)) || (host(to) && only_group(to, |f| &f.dst)) {
                links.push(format!("{from}->{to}"));
            }
        }
    }
    Held { links, groups: vec![group.clone()] }
}

/// [`revealing`] for link `link`'s rate.
fn revealing_a_link(s: &Scenario, link: &str, paths: Option<&[Option<Vec<u32>>]>) -> Held {
    let mut held = Held { links: vec![link.to_owned()], groups: Vec::new() };
    let (Some(paths), Some(asked)) = (paths, s.channel(link)) else { return held };
    // Each channel's flows, in flow order.
    let mut on: Vec<Vec<usize>> = vec![Vec::new(); 2 * s.links.len()];
    for (i, path) in paths.iter().enumerate() {
        for &c in path.iter().flatten() {
            if let Some(flows) = on.get_mut(c as usize) {
                flows.push(i);
            }
        }
    }
    let flows = &on[asked as usize];
    if flows.is_empty() {
        return held;
    }
    for (c, those) in on.iter().enumerate() {
        if c != asked as usize && those == flows {
            held.links.extend(s.channel_name(c as u32));
        }
    }
    for g in crate::scene::groups(s) {
        let of_g: Vec<usize> = s.flows.iter().enumerate().filter(|(_, f)| f.group == g).map(|(i, _)| i).collect();
        if of_g == *flows {
            held.groups.push(g);
        }
    }
    held
}

#[cfg(test)]
mod tests {
    use super::{revealing, Held};
    use ibcc_core::presets::find;
    use ibcc_core::sim::Metric;

    /// Fig. 2: the victim AV->BV is the only flow from AV and the only one to BV, so its first and last links give
    /// its rate away; the local flows each leave from a host of their own, and share the link into BC with the
    /// remote ones; A->B carries every group.
    #[test]
    fn a_group_s_rate_is_held_back_on_the_links_only_it_uses() {
        let s = find("infocom03-fig2").expect("preset").scenario();
        let victim = revealing(&s, &Metric::GroupRate { group: "victim".into() }, None);
        assert_eq!(victim, Held { links: vec!["AV->A".into(), "B->BV".into()], groups: vec!["victim".into()] });
        let local = revealing(&s, &Metric::GroupRate { group: "local".into() }, None).links;
        assert!(!local.is_empty() && local.iter().all(|l| l.ends_with("->B")), "{local:?}");
        assert!(!local.iter().any(|l| l.contains("BC") || l == "A->B"), "{local:?}");
        assert_eq!(revealing(&s, &Metric::LinkRate { link: "A->B".into() }, None).links, ["A->B"]);
        assert!(revealing(&s, &Metric::GroupRate { group: "nobody".into() }, None).links.is_empty());
    }

    /// Lesson 2's exercise: one flow alone from A1 to BC, A->B's rate asked. Every link of its path, and its group's
    /// curve, show that same rate; the links it does not take, and a group that also has another flow, do not.
    #[test]
    fn a_lone_flow_s_links_and_group_give_its_link_s_rate_away() {
        let mut s = find("infocom03-fig2").expect("preset").scenario();
        s.flows.retain(|f| f.src == "A1");
        assert_eq!(s.flows.len(), 1);
        let group = s.flows[0].group.clone();
        let session = crate::session::Session::new(&s, Vec::new()).expect("runs");
        let asked = Metric::LinkRate { link: "A->B".into() };
        let held = revealing(&s, &asked, Some(session.paths()));
        let mut links = held.links.clone();
        links.sort();
        assert_eq!(links, ["A->B", "A1->A", "B->BC"]);
        assert_eq!(held.groups, [group]);
        // With a second flow of the group on another path, the group's rate is not A->B's.
        let mut two = s.clone();
        let mut other = two.flows[0].clone();
        (other.id, other.src, other.dst) = ("other".into(), "B1".into(), "BC".into());
        two.flows.push(other);
        let session = crate::session::Session::new(&two, Vec::new()).expect("runs");
        let held = revealing(&two, &asked, Some(session.paths()));
        let mut links = held.links.clone();
        links.sort();
        assert_eq!((links, held.groups), (vec!["A->B".to_owned(), "A1->A".to_owned()], Vec::<String>::new()));
    }
}
