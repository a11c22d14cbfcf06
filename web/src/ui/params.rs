//! The parameters panel: marking, source response, switch, run, PFT and Annex A10 settings of the current scenario.
//! Each edit makes a new scenario, checked by the core's validation; a bad value is refused next to its field (the
//! scenario and the run stay as they were), a good one replaces the scenario, and the run follows it (see
//! `playground/live.rs`: a marking change applies from the moment it is made, anything else makes a new run).

use super::fields::{Choice, NumberField};
use ibcc_core::cc::pft::{Detection, PftConfig, Throttling};
use ibcc_core::scenario::{
    AckCoalescing, Arbitration, BypassCounting, Cnt1Until, FullCheck, MarkingPolicy, RateMode, Response, Scenario,
    Transport, VirtualLanes,
};
use std::collections::BTreeMap;
use std::rc::Rc;
use yew::prelude::*;

/// A numeric setting: how to show it and how to apply a typed value (`None`: the field was left empty).
struct Num {
    id: &'static str,
    /// The scenario path it sets, shown as secondary text.
    path: &'static str,
    label: &'static str,
    unit: &'static str,
    help: &'static str,
    get: fn(&Scenario) -> String,
    set: fn(&mut Scenario, Option<f64>) -> Result<(), &'static str>,
}

/// A setting chosen from a list.
struct Pick {
    id: &'static str,
    path: &'static str,
    label: &'static str,
    help: &'static str,
    options: &'static [(&'static str, &'static str)],
    get: fn(&Scenario) -> &'static str,
    set: fn(&mut Scenario, &str),
}

fn required(v: Option<f64>) -> Result<f64, &'static str> {
    v.ok_or("a value is needed")
}

fn whole(v: f64) -> Result<u64, &'static str> {
    if v >= 0.0 && v.fract() == 0.0 && v < 9.0e15 {
        Ok(v as u64)
    } else {
        Err("must be a whole number, 0 or more")
    }
}

/// A whole number that fits a `u32` setting; a larger one is left for validation to refuse by name (no wrap-around).
fn whole_u32(v: f64) -> Result<u32, &'static str> {
    whole(v).map(|x| x.min(u64::from(u32::MAX)) as u32)
}

fn opt_u32(v: Option<u32>) -> String {
    v.map(|x| x.to_string()).unwrap_or_default()
}

const MARKING: &[Pick] = &[
    Pick {
        id: "marking-policy",
        path: "marking.policy",
        label: "Marking policy",
        help: "Which packets switches mark when congestion is detected (Globecom'02 §IV; the HP proposal's slides).",
        options: &[
            ("none", "none"),
            ("naive", "naive: the packets of a full buffer"),
            ("input_triggered", "input-triggered (cnt1/cnt2)"),
            ("input_output_triggered", "input-output-triggered"),
            ("hp_root_vl", "HP: full buffers and roots"),
        ],
        get: |s| match s.marking.policy {
            MarkingPolicy::None => "none",
            MarkingPolicy::Naive => "naive",
            MarkingPolicy::InputTriggered => "input_triggered",
            MarkingPolicy::InputOutputTriggered => "input_output_triggered",
            MarkingPolicy::HpRootVl => "hp_root_vl",
        },
        set: |s, v| {
            s.marking.policy = match v {
                "naive" => MarkingPolicy::Naive,
                "input_triggered" => MarkingPolicy::InputTriggered,
                "input_output_triggered" => MarkingPolicy::InputOutputTriggered,
                "hp_root_vl" => MarkingPolicy::HpRootVl,
                _ => MarkingPolicy::None,
            };
            if s.marking.policy == MarkingPolicy::InputOutputTriggered && s.marking.output_threshold_packets.is_none() {
                s.marking.output_threshold_packets = Some(6);
            }
        },
    },
    Pick {
        id: "full-check",
        path: "marking.full_check",
        label: "Buffer full is checked",
        help:
            "on receipt: when a packet is completely received, counting blocks actually held; on head: at head arrival.",
        options: &[("on_receipt", "on receipt"), ("on_head", "at head arrival")],
        get: |s| if s.marking.full_check == FullCheck::OnHead { "on_head" } else { "on_receipt" },
        set: |s, v| s.marking.full_check = if v == "on_head" { FullCheck::OnHead } else { FullCheck::OnReceipt },
    },
    Pick {
        id: "cnt1-until",
        path: "marking.cnt1_until",
        label: "cnt1 counts a packet until",
        help: "it starts on its output (waiting packets only), or until its tail has left the switch (a packet being \
               sent still counts, and a full buffer also arms its output).",
        options: &[("start", "it starts"), ("departure", "its tail leaves")],
        get: |s| if s.marking.cnt1_until == Cnt1Until::Departure { "departure" } else { "start" },
        set: |s, v| s.marking.cnt1_until = if v == "departure" { Cnt1Until::Departure } else { Cnt1Until::Start },
    },
];

const MARKING_NUM: &[Num] = &[Num {
    id: "output-threshold",
    path: "marking.output_threshold_packets",
    label: "Output threshold",
    unit: "packets",
    help: "Input-output-triggered: mark when more packets than this wait for one output.",
    get: |s| opt_u32(s.marking.output_threshold_packets),
    set: |s, v| {
        s.marking.output_threshold_packets = v.map(whole_u32).transpose()?;
        Ok(())
    },
}];

const SOURCE: &[Pick] = &[
    Pick {
        id: "response",
        path: "source.response",
        label: "Source response",
        help: "How a source's rate limit follows ACKs: fdec on marked, finc on unmarked (INFOCOM'03 §V).",
        options: &[
            ("none", "none"),
            ("fixed", "fixed rate"),
            ("aimd", "AIMD"),
            ("fimd", "FIMD"),
            ("lipd", "LIPD"),
            ("hybrid", "hybrid window/rate (HP)"),
        ],
        get: |s| match s.source.response {
            Response::None => "none",
            Response::Fixed => "fixed",
            Response::Aimd => "aimd",
            Response::Fimd => "fimd",
            Response::Lipd => "lipd",
            Response::Hybrid => "hybrid",
        },
        set: |s, v| {
            s.source.response = match v {
                "fixed" => Response::Fixed,
                "aimd" => Response::Aimd,
                "fimd" => Response::Fimd,
                "lipd" => Response::Lipd,
                "hybrid" => Response::Hybrid,
                _ => Response::None,
            };
            if s.source.response == Response::Hybrid && s.source.window_packets.is_none() {
                s.source.window_packets = Some(4);
            }
        },
    },
    Pick {
        id: "rate-mode",
        path: "source.rate",
        label: "Rates",
        help: "Continuous rates, or InfiniBand's 256 inter-packet delays (INFOCOM'03 §VI-B.1).",
        options: &[("continuous", "continuous"), ("discrete", "discrete (IPD)")],
        get: |s| if s.source.rate == RateMode::Discrete { "discrete" } else { "continuous" },
        set: |s, v| s.source.rate = if v == "discrete" { RateMode::Discrete } else { RateMode::Continuous },
    },
    Pick {
        id: "persistent",
        path: "source.persistent_state",
        label: "Persistent state",
        help: "ON/OFF flows keep rate and window between ON periods (INFOCOM'03 §VI-B.2).",
        options: &[("no", "no: each ON period starts at Rmax"), ("yes", "yes")],
        get: |s| if s.source.persistent_state { "yes" } else { "no" },
        set: |s, v| s.source.persistent_state = v == "yes",
    },
    Pick {
        id: "transport",
        path: "flows[].transport",
        label: "Transport of every flow",
        help:
            "Every flow's transport (the HP proposal): reliable, each packet ACKed, the ACK echoing its mark, within \
               a window; or unreliable, no ACKs and no window, a marked packet making the destination send the source \
               a CN packet. One flow at a time: in its inspector.",
        options: &[
            ("reliable", "reliable (ACKs)"),
            ("unreliable", "unreliable (CN packets)"),
            ("mixed", "as each flow says"),
        ],
        get: |s| {
            let reliable = s.flows.iter().filter(|f| f.transport == Transport::Reliable).count();
            match (reliable, s.flows.len()) {
                (r, n) if r == n => "reliable",
                (0, _) => "unreliable",
                _ => "mixed",
            }
        },
        set: |s, v| {
            let transport = match v {
                "reliable" => Transport::Reliable,
                "unreliable" => Transport::Unreliable,
                _ => return,
            };
            for f in &mut s.flows {
                f.transport = transport;
            }
        },
    },
];

const SOURCE_NUM: &[Num] = &[
    Num {
        id: "window",
        path: "source.window_packets",
        label: "Window",
        unit: "packets",
        help: "Most unacknowledged packets per flow; empty for no window (INFOCOM'03 §IV-B).",
        get: |s| opt_u32(s.source.window_packets),
        set: |s, v| {
            s.source.window_packets = v.map(whole_u32).transpose()?;
            Ok(())
        },
    },
    Num {
        id: "r-min-divisor",
        path: "source.r_min_fraction",
        label: "Rmin = Rmax /",
        unit: "",
        help: "Lowest rate limit; InfiniBand's 256 IPD values give Rmax/256.",
        get: |s| format!("{}", (1.0 / s.source.r_min_fraction * 1000.0).round() / 1000.0),
        set: |s, v| {
            s.source.r_min_fraction = 1.0 / required(v)?;
            Ok(())
        },
    },
    Num {
        id: "m",
        path: "source.m",
        label: "m",
        unit: "",
        help: "Decrease factor of AIMD and FIMD: a mark divides the rate by m.",
        get: |s| s.source.m.to_string(),
        set: |s, v| {
            s.source.m = required(v)?;
            Ok(())
        },
    },
    Num {
        id: "fixed-rate",
        path: "source.fixed_rate_fraction",
        label: "Fixed rate",
        unit: "of link",
        help: "The rate of a fixed-rate source (INFOCOM'03 Fig. 3d).",
        get: |s| s.source.fixed_rate_fraction.to_string(),
        set: |s, v| {
            s.source.fixed_rate_fraction = required(v)?;
            Ok(())
        },
    },
    Num {
        id: "ack-every",
        path: "ack_coalescing.every_packets",
        label: "ACK every",
        unit: "packets",
        help:
            "ACK coalescing (the HP proposal): a destination ACKs a marked packet at once, the packet that fills the \
               window, or every this many; empty: every packet is ACKed on its own.",
        get: |s| opt_u32(s.ack_coalescing.map(|a| a.every_packets)),
        set: |s, v| {
            s.ack_coalescing = v.map(whole_u32).transpose()?.map(|every_packets| AckCoalescing { every_packets });
            Ok(())
        },
    },
];

const NETWORK: &[Pick] = &[
    Pick {
        id: "bypass-counting",
        path: "switch.bypass_counting",
        label: "Bypass counted by",
        help: "Which packets count toward the bypass limit: the head of a buffer, afresh each time a packet becomes \
               head (INFOCOM'03 fn. 6), or every packet overtaken, head or not.",
        options: &[("head", "the head only"), ("each_packet", "every packet overtaken")],
        get: |s| if s.switch.bypass_counting == BypassCounting::EachPacket { "each_packet" } else { "head" },
        set: |s, v| {
            s.switch.bypass_counting =
                if v == "each_packet" { BypassCounting::EachPacket } else { BypassCounting::Head }
        },
    },
    Pick {
        id: "arbitration",
        path: "switch.arbitration",
        label: "Output serves",
        help: "How an output chooses among the input buffers with a packet for it: the oldest packet in the switch \
               (what the papers' numbers need), or the inputs in turn, as many crossbar arbiters do.",
        options: &[("oldest_first", "the oldest packet"), ("round_robin", "the inputs in turn")],
        get: |s| if s.switch.arbitration == Arbitration::RoundRobin { "round_robin" } else { "oldest_first" },
        set: |s, v| {
            s.switch.arbitration = if v == "round_robin" { Arbitration::RoundRobin } else { Arbitration::OldestFirst }
        },
    },
];

const NETWORK_NUM: &[Num] = &[
    Num {
        id: "buffer",
        path: "switch.buffer_packets",
        label: "Input buffer",
        unit: "packets",
        help: "Per switch input port (Table I: 4).",
        get: |s| s.switch.buffer_packets.to_string(),
        set: |s, v| {
            s.switch.buffer_packets = whole_u32(required(v)?)?;
            Ok(())
        },
    },
    Num {
        id: "data-vls",
        path: "virtual_lanes.data_vls",
        label: "Data VLs",
        unit: "per port",
        help: "Virtual lanes (InfiniBand), 1 to 15: each has its own input buffers and credits, and outputs share \
               their link between them by weight (a link's weights are in its inspector). A flow's service level picks \
               its VL. Empty: one, as in the papers.",
        get: |s| s.virtual_lanes.as_ref().map(|v| v.data_vls.to_string()).unwrap_or_default(),
        set: |s, v| {
            let Some(v) = v else {
                s.virtual_lanes = None;
                return Ok(());
            };
            let n = whole(v)?.min(255) as u8;
            let vl = s.virtual_lanes.get_or_insert_with(|| VirtualLanes {
                data_vls: 1,
                sl_to_vl: Vec::new(),
                arbitration: Default::default(),
            });
            vl.data_vls = n;
            Ok(())
        },
    },
    Num {
        id: "max-bypass",
        path: "switch.max_bypass",
        label: "Max bypass",
        unit: "",
        help: "How often the oldest packet of a buffer may be overtaken before it blocks it (INFOCOM'03 fn. 6).",
        get: |s| s.switch.max_bypass.to_string(),
        set: |s, v| {
            s.switch.max_bypass = whole_u32(required(v)?)?;
            Ok(())
        },
    },
    Num {
        id: "input-transfers",
        path: "switch.input_transfers",
        label: "Input transfers",
        unit: "packets",
        help: "Packets one input buffer may send through the crossbar at once; empty for no limit (the papers' \
               results need none), 1 for a crossbar that reads one packet at a time per input.",
        get: |s| opt_u32(s.switch.input_transfers),
        set: |s, v| {
            s.switch.input_transfers = v.map(whole_u32).transpose()?;
            Ok(())
        },
    },
    Num {
        id: "duration",
        path: "duration_ns",
        label: "Duration",
        unit: "ms",
        help: "Simulated time to run.",
        get: |s| (s.duration_ns as f64 / 1e6).to_string(),
        set: |s, v| {
            s.duration_ns = whole((required(v)? * 1e6).round())?;
            Ok(())
        },
    },
    Num {
        id: "measure-from",
        path: "measure.from_ns",
        label: "Measure from",
        unit: "ms",
        help: "Results count from here (the papers: the last 400 ms of 500).",
        get: |s| (s.measure.from_ns as f64 / 1e6).to_string(),
        set: |s, v| {
            s.measure.from_ns = whole((required(v)? * 1e6).round())?;
            Ok(())
        },
    },
    Num {
        id: "measure-to",
        path: "measure.to_ns",
        label: "Measure until",
        unit: "ms",
        help: "Results count up to here; empty for the end of the run (INFOCOM'03 Figs. 2-4 read the victim's \
               40-60 ms).",
        get: |s| s.measure.to_ns.map(|t| (t as f64 / 1e6).to_string()).unwrap_or_default(),
        set: |s, v| {
            s.measure.to_ns = v.map(|v| whole((v * 1e6).round())).transpose()?;
            Ok(())
        },
    },
    Num {
        id: "seed",
        path: "seed",
        label: "Seed",
        unit: "",
        help: "Seed of every random choice: the same seed replays the same run.",
        get: |s| s.seed.to_string(),
        set: |s, v| {
            s.seed = whole(required(v)?)?;
            Ok(())
        },
    },
];

const EXTRA: &[Pick] = &[
    Pick {
        id: "pft",
        path: "pft",
        label: "PFT at the NICs",
        help: "Proactive Flow Throttling from each NIC's credits in use (IFIP'21).",
        options: &[
            ("off", "off"),
            ("ft_fi", "fixed threshold, fixed interval"),
            ("ft_ri", "fixed threshold, random interval"),
            ("at_fi", "average threshold, fixed interval"),
            ("at_ri", "average threshold, random interval"),
        ],
        get: |s| match s.pft.map(|p| (p.detection, p.throttling)) {
            None => "off",
            Some((Detection::FixedThreshold, Throttling::FixedInterval)) => "ft_fi",
            Some((Detection::FixedThreshold, Throttling::RandomInterval)) => "ft_ri",
            Some((Detection::AverageThreshold, Throttling::FixedInterval)) => "at_fi",
            Some((Detection::AverageThreshold, Throttling::RandomInterval)) => "at_ri",
        },
        set: |s, v| {
            let (detection, throttling) = match v {
                "ft_fi" => (Detection::FixedThreshold, Throttling::FixedInterval),
                "ft_ri" => (Detection::FixedThreshold, Throttling::RandomInterval),
                "at_fi" => (Detection::AverageThreshold, Throttling::FixedInterval),
                "at_ri" => (Detection::AverageThreshold, Throttling::RandomInterval),
                _ => {
                    s.pft = None;
                    return;
                }
            };
            let base = s.pft.unwrap_or(PftConfig { m: 1, ..PftConfig::default() });
            s.pft = Some(PftConfig { detection, throttling, ..base });
        },
    },
    Pick {
        id: "ib-cc",
        path: "ib_cc",
        label: "InfiniBand Annex A10",
        help: "FECN at congested switch ports, BECN on ACKs, CCTI and CCT at sources. Replaces the papers' marking and response.",
        options: &[("off", "off"), ("on", "on")],
        get: |s| if s.ib_cc.is_some() { "on" } else { "off" },
        set: |s, v| {
            if v == "on" {
                s.ib_cc = Some(s.ib_cc.clone().unwrap_or_default());
                s.marking.policy = MarkingPolicy::None;
                s.source.response = Response::None;
                for f in &mut s.flows {
                    if let Some(o) = &mut f.source {
                        o.response = None;
                    }
                }
            } else {
                s.ib_cc = None;
            }
        },
    },
];

#[derive(Properties, PartialEq)]
pub struct ParamsProps {
    pub scenario: Rc<Scenario>,
    /// A new, valid scenario.
    pub on_change: Callback<Scenario>,
    /// Prefix of the fields' ids, so two panels can share a page (the A/B comparison's B).
    #[prop_or_default]
    pub prefix: AttrValue,
    /// Why a setting (by path) cannot be changed now, if it cannot (an open exercise fixes it).
    #[prop_or_default]
    pub locked: Option<Callback<&'static str, Option<String>>>,
}

#[component]
pub fn ParamsPanel(p: &ParamsProps) -> Html {
    // Text of fields whose last edit was refused, with the reason.
    let drafts = use_state(BTreeMap::<&'static str, (String, String)>::new);
    let pick_error = use_state(|| None::<String>);
    // A preset or an accepted edit replaces the scenario: drafts of the old one no longer apply.
    {
        let (drafts, pick_error) = (drafts.clone(), pick_error.clone());
        use_effect_with(p.scenario.clone(), move |_| {
            drafts.set(BTreeMap::new());
            pick_error.set(None);
        });
    }
    let lock = |path: &'static str| p.locked.as_ref().and_then(|l| l.emit(path)).map(AttrValue::from);
    let num_field = |f: &'static Num| {
        let (scenario, on_change, edits) = (p.scenario.clone(), p.on_change.clone(), drafts.clone());
        let on_edit = Callback::from(move |text: String| {
            let trimmed = text.trim();
            let value = if trimmed.is_empty() {
                Ok(None)
            } else {
                crate::number::parse(trimmed).map(Some).ok_or("not a number")
            };
            let mut next = (*scenario).clone();
            let outcome = value
                .and_then(|v| (f.set)(&mut next, v).map(|()| next))
                .map_err(String::from)
                .and_then(|next| next.validate().map(|()| next).map_err(|e| e.problem.to_string()));
            let mut d = (*edits).clone();
            match outcome {
                Ok(next) => {
                    d.remove(f.id);
                    edits.set(d);
                    on_change.emit(next);
                }
                Err(message) => {
                    d.insert(f.id, (text, message));
                    edits.set(d);
                }
            }
        });
        let (value, error) = match drafts.get(f.id) {
            Some((text, message)) => (text.clone(), Some(AttrValue::from(message.clone()))),
            None => ((f.get)(&p.scenario), None),
        };
        html! {
            <NumberField id={format!("{}{}", p.prefix, f.id)} label={f.label} unit={f.unit} help={f.help} value={value} error={error} on_change={on_edit} path={f.path}
                locked={lock(f.path)} />
        }
    };
    let pick_field = |f: &'static Pick| {
        let (scenario, on_change, pick_error) = (p.scenario.clone(), p.on_change.clone(), pick_error.clone());
        let on_pick = Callback::from(move |v: String| {
            let mut next = (*scenario).clone();
            (f.set)(&mut next, &v);
            match next.validate() {
                Ok(()) => on_change.emit(next),
                Err(e) => pick_error.set(Some(format!("{}: {e}", f.label))),
            }
        });
        let options = f.options.iter().map(|&(v, l)| (AttrValue::from(v), AttrValue::from(l))).collect::<Vec<_>>();
        html! {
            <Choice id={format!("{}{}", p.prefix, f.id)} label={f.label} help={f.help} options={options} value={(f.get)(&p.scenario)} on_change={on_pick} path={f.path}
                locked={lock(f.path)} />
        }
    };
    html! {
        <aside class="params" aria-label="Parameters" data-testid={format!("{}params", p.prefix)}>
            if let Some(e) = &*pick_error {
                <p class="error" role="alert">{ e }</p>
            }
            <details open=true>
                <summary>{ "ECN marking" }</summary>
                { for MARKING.iter().map(pick_field) }
                { for MARKING_NUM.iter().map(num_field) }
            </details>
            <details open=true>
                <summary>{ "Source response" }</summary>
                { for SOURCE.iter().map(pick_field) }
                { for SOURCE_NUM.iter().map(num_field) }
            </details>
            <details>
                <summary>{ "Network and run" }</summary>
                { for NETWORK.iter().map(pick_field) }
                { for NETWORK_NUM.iter().map(num_field) }
            </details>
            <details>
                <summary>{ "PFT and Annex A10" }</summary>
                { for EXTRA.iter().map(pick_field) }
            </details>
        </aside>
    }
}
