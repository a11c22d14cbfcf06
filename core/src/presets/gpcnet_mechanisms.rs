//! Beyond the PFT paper (docs/gpcnet.md §4): the same GPCNeT experiment on the same 120 nodes under every
//! congestion control the playground has, one setting each. None was tuned on this workload: each takes the
//! parameters its own source gives, or the defaults the rest of the playground uses, and says which.

use super::pft_gpcnet::{fabric120, settings, with_setting};
use crate::scenario::{IbCcConfig, MarkingPolicy, Response, Scenario, Transport, VirtualLanes};
use crate::workload::gpcnet::GpcnetConfig;
use alloc::vec::Vec;

/// One mechanism's run of the experiment: the network with its control, and how GPCNeT runs on it.
#[derive(Debug, Clone)]
pub struct Mechanism {
    /// A short name for tables.
    pub label: &'static str,
    /// The parameters it was given and where they come from.
    pub parameters: &'static str,
    pub scenario: Scenario,
    /// `base` with this mechanism's transport and service levels.
    pub config: GpcnetConfig,
}

/// The mechanisms compared, no control first, on [`fabric120`] with GPCNeT set up as `base`.
pub fn mechanisms(base: &GpcnetConfig) -> Vec<Mechanism> {
    mechanisms_on(&fabric120(), base)
}

/// The same mechanisms on `net`'s network (its flows and its own congestion control taken away; its buffers,
/// links and routing kept).
pub fn mechanisms_on(net: &Scenario, base: &GpcnetConfig) -> Vec<Mechanism> {
    let net = net.network_only();
    let with = |label, parameters, scenario| Mechanism { label, parameters, scenario, config: base.clone() };
    let mut out = Vec::new();
    out.push(with("no control", "credits only: no marking, no window, no rate control", net.clone()));

    let mut ecn = net.clone();
    ecn.marking.policy = MarkingPolicy::InputTriggered;
    ecn.source.response = Response::Lipd;
    out.push(with(
        "ECN + LIPD",
        "input-triggered marking (a full input buffer marks what waits for its outputs) and LIPD sources, \
         INFOCOM'03 §IV's proposal with the playground's source defaults; no window, as the fabric has none",
        ecn,
    ));

    let mut a10 = net.clone();
    // The CCT's time unit is 64 bytes' time on the hosts' links, as the playground's A10 anywhere (docs/model.md §8):
    // the papers' 64 ns on 100 Gb/s links throttled a job with nothing beside it to a quarter of its link.
    let scaled = IbCcConfig::for_link_gbps(net.fastest_host_link_gbps());
    a10.ib_cc = Some(IbCcConfig { marking_rate: 10, ccti_timer: 150, ..scaled });
    out.push(with(
        "Annex A10",
        "FECN at congested root ports, BECN on ACKs, CCTI with a linear 128-entry CCT in units of 64 bytes' time on \
         the hosts' links: OpenSM's usual marking rate 10 and CCTI timer 150 (154 us), made for links of this speed, \
         threshold 15",
        a10,
    ));

    let mut hp = net.clone();
    hp.marking.policy = MarkingPolicy::HpRootVl;
    hp.source.response = Response::Lipd;
    out.push(with(
        "HP root-VL, RC",
        "the HP slides' root-VL marking with LIPD sources; reliable queue pairs, so marks come back on ACKs",
        hp.clone(),
    ));
    let mut cn = with(
        "HP root-VL, UC + CN",
        "the same marking and sources on unreliable queue pairs: no ACKs, a marked packet makes its destination \
         send a CN packet (the HP slides' transport table); a send completes when its last packet has left",
        hp,
    );
    cn.config.transport = Transport::Unreliable;
    out.push(cn);

    let mut vls = net.clone();
    vls.virtual_lanes = Some(VirtualLanes { data_vls: 2, sl_to_vl: Vec::new(), arbitration: Default::default() });
    let mut isolated = with(
        "VL isolation",
        "no control; the canaries on SL 1 and VL 1, the congestors on VL 0, equal arbitration weights, each VL its \
         own buffers (InfiniBand's service levels, as a fabric manager would give one job its own lane)",
        vls,
    );
    isolated.config.canary_service_level = 1;
    out.push(isolated);

    let best = settings().into_iter().find(|s| s.label == "AT-RI m=18").expect("the PFT paper's best point");
    out.push(with(
        "PFT AT-RI m=18",
        "the PFT paper's best point (thresholds 0x250/0x2a0 as 64-byte blocks, 28-bit random numbers; \
         docs/gpcnet.md §3)",
        with_setting(&net, &best),
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_mechanism_is_a_valid_run() {
        let base = GpcnetConfig::default();
        let all = mechanisms(&base);
        assert_eq!(all[0].label, "no control");
        for m in &all {
            m.scenario.validate().unwrap_or_else(|e| panic!("{}: {e}", m.label));
        }
        assert!(all.iter().any(|m| m.config.transport == Transport::Unreliable));
        assert!(all.iter().any(|m| m.config.canary_service_level == 1 && m.scenario.virtual_lanes.is_some()));
        // A10's CCT unit is 64 bytes' time on the 100 Gb/s (EDR) host links: 5.12 ns, not the papers' 64 ns.
        let a10 = all.iter().find(|m| m.label == "Annex A10").and_then(|m| m.scenario.ib_cc.clone()).unwrap();
        assert_eq!((a10.ird_unit_ps, a10.marking_rate, a10.ccti_timer), (5_120, 10, 150));
    }
}
