//! A parking lot: switches S1..Sn in a line, host Hi on switch Si, every Hi sending to D on the last switch. Flows
//! that join nearer the destination cross fewer shared links, the classic test of fairness across hops.

use crate::scenario::{Flow, Link, Node, NodeKind, Scenario};
use alloc::format;
use alloc::string::String;

/// A parking lot of `n` switches (at least 1).
pub fn parking_lot(n: u32, name: &str, duration_ns: u64) -> Scenario {
    let n = n.max(1);
    let mut s = Scenario::empty(name, duration_ns);
    let step = 900.0 / f64::from(n + 1);
    for i in 1..=n {
        let x = step * f64::from(i);
        s.nodes.push(Node { id: format!("S{i}"), kind: NodeKind::Switch, switch: None, x: Some(x), y: Some(250.0) });
        s.nodes.push(Node { id: format!("H{i}"), kind: NodeKind::Host, switch: None, x: Some(x), y: Some(420.0) });
        s.links.push(Link::between(&format!("H{i}"), &format!("S{i}")));
        if i > 1 {
            s.links.push(Link::between(&format!("S{}", i - 1), &format!("S{i}")));
        }
        s.flows.push(Flow {
            group: format!("from S{i}"),
            start_ns: u64::from(i - 1) * 100_000,
            ..Flow::new(&format!("f{i}"), &format!("H{i}"), "D")
        });
    }
    let x = step * f64::from(n) + step * 0.6;
    s.nodes.push(Node { id: String::from("D"), kind: NodeKind::Host, switch: None, x: Some(x), y: Some(100.0) });
    s.links.push(Link::between(&format!("S{n}"), "D"));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_host_reaches_the_destination_along_the_line() {
        let s = parking_lot(4, "p", 1_000_000);
        s.validate().unwrap();
        let mut run = crate::sim::Run::new(&s).unwrap();
        let d = s.nodes.iter().position(|n| n.id == "D").unwrap() as u32;
        let h1 = s.nodes.iter().position(|n| n.id == "H1").unwrap() as u32;
        assert_eq!(run.sim.topology().path(h1, d).unwrap().len(), 5, "H1 -> S1 -> S2 -> S3 -> S4 -> D");
        run.run();
        assert_eq!(run.results().totals.dropped_packets, 0);
    }
}
