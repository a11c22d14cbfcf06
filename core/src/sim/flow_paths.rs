//! Each flow's output ports along its path, its data's and its ACKs': what the forwarding tables say at each switch,
//! read once per flow when the run is built instead of at every hop. The tables of a large fabric are megabytes
//! (11,664 hosts: 19 MB), so a hop's look-up missed the caches; a flow's ports are a few bytes. Tables that fit in
//! cache are read directly: there one look-up costs less than keeping each packet's place on its path
//! (docs/performance.md, "A flow's ports"). The same ports either way, so the same run.

use crate::net::packet::Packet;
use crate::net::topology::{NodeId, PortId, Topology};
use alloc::vec::Vec;

/// Forwarding tables larger than this many bytes are read once per flow rather than at every hop.
pub(super) const TABLES_IN_CACHE: usize = 1 << 20;

/// The ports of every flow's path, in the order its packets meet the switches.
#[derive(Debug, Clone, Default)]
pub(super) struct FlowPaths {
    /// Per flow, its data's path and its ACKs': where its ports start in `ports`, and how many there are (0: none
    /// known, as when the path is longer than a packet's hop count can say; the tables are read then).
    spans: Vec<[(u32, u8); 2]>,
    ports: Vec<PortId>,
}

impl FlowPaths {
    /// The paths of flows from `src` to `dst` (in flow order), as `topo`'s tables route them.
    pub(super) fn new(topo: &Topology, flows: impl Iterator<Item = (NodeId, NodeId)>) -> Self {
        let mut paths = Self::default();
        for (src, dst) in flows {
            let data = paths.walk(topo, src, dst);
            let acks = paths.walk(topo, dst, src);
            paths.spans.push([data, acks]);
        }
        paths
    }

    /// The ports host `from`'s packets to `to` leave the switches of their path by: every link of the path but the
    /// first leaves a switch (none: unreachable, or too long for a packet's hop count; the tables answer then).
    fn walk(&mut self, topo: &Topology, from: NodeId, to: NodeId) -> (u32, u8) {
        let start = self.ports.len();
        let path = topo.path(from, to).filter(|p| p.len() <= usize::from(u8::MAX));
        if let Some(onward) = path.as_ref().and_then(|p| p.get(1..)) {
            let ports = onward.iter().map(|&c| topo.channel(c));
            if ports.clone().all(|c| topo.switch_row(c.from).is_some()) {
                self.ports.extend(ports.map(|c| c.from_port));
            }
        }
        (start as u32, (self.ports.len() - start) as u8)
    }

    /// The port packet `p` leaves its next switch by, if its path is known.
    #[inline(always)]
    pub(super) fn port(&self, p: &Packet) -> Option<PortId> {
        let (start, len) = self.spans.get(p.flow as usize)?[usize::from(p.lane.is_ack())];
        (p.hop < len).then(|| self.ports[start as usize + usize::from(p.hop)])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets::find;
    use crate::sim::{Fingerprint, Simulation};

    #[test]
    fn a_flows_ports_are_those_its_tables_give_at_each_switch_both_ways() {
        let sim = Simulation::new(&find("fattree4-shift").unwrap().scenario()).unwrap();
        let topo = sim.topology();
        let flows: Vec<_> = (0..sim.scenario().flows.len()).map(|f| (sim.flow(f).src(), sim.flow(f).dst())).collect();
        let paths = FlowPaths::new(topo, flows.iter().copied());
        for (f, &(src, dst)) in flows.iter().enumerate() {
            for (back, (from, to)) in [(false, (src, dst)), (true, (dst, src))] {
                let channels = topo.path(from, to).unwrap();
                // Every link but the first leaves a switch: the port the tables give there.
                let want: Vec<PortId> =
                    channels[1..].iter().map(|&c| topo.route(topo.channel(c ^ 1).to, to).unwrap()).collect();
                let (start, len) = paths.spans[f][usize::from(back)];
                assert_eq!(&paths.ports[start as usize..][..usize::from(len)], &want[..], "flow {f}, back {back}");
            }
        }
    }

    /// The run reads each flow's ports instead of the tables, and looks ahead, only when the tables are large; a
    /// small fabric made to do both does exactly what it does without (debug builds also check each hop's port
    /// against the tables).
    #[test]
    fn a_run_on_flow_paths_is_the_run_on_the_tables() {
        for name in ["fattree4-shift", "pft-fattree4-hotspot"] {
            let mut s = find(name).unwrap().scenario();
            s.duration_ns = 1_000_000;
            s.measure.from_ns = 0;
            s.measure.to_ns = None;
            let fingerprint = |paths: bool| {
                let mut sim = Simulation::new(&s).unwrap();
                assert!(sim.paths.is_none(), "{name}: a small fabric's tables are read directly");
                if paths {
                    let flows = (0..sim.flows.len()).map(|f| (sim.flows[f].src(), sim.flows[f].dst()));
                    sim.paths = Some(alloc::rc::Rc::new(FlowPaths::new(&sim.topo, flows)));
                }
                let mut fp = Fingerprint::default();
                sim.run(&mut fp);
                (fp.value(), fp.events(), sim.counts().delivered)
            };
            let (with, without) = (fingerprint(true), fingerprint(false));
            assert!(with.2 > 0, "{name}");
            assert_eq!(with, without, "{name}");
        }
    }
}
