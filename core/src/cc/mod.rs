//! Congestion control: how switches signal congestion and how sources and NICs respond to it.
//!
//! - [`marking`]: ECN marking policies at switches (Globecom'02 §IV);
//! - [`response`]: the source-response functions AIMD, FIMD, LIPD (INFOCOM'03 §V);
//! - [`ipd`]: their discrete versions as InfiniBand IPD tables;
//! - [`source`]: a flow's rate limit and window and how each ACK changes them (INFOCOM'03 §IV-B, §V; HP's hybrid);
//! - [`pft`]: Proactive Flow Throttling at the host NIC (IFIP'21);
//! - [`ibcc`]: InfiniBand's own congestion control, Annex A10 (FECN/BECN, CCTI and the CCT).
//!
//! Each scheme's file owns its configuration block of the scenario format.
//!
//! The simulation reaches congestion control through one seam, as smoltcp's TCP reaches its congestion controllers:
//! three traits of hooks with no-op defaults, and for each an enum over the implementations, so a run pays for a
//! `match`, not for a virtual call, and the state stays plain data (cloned with the run for the page's
//! checkpoints).
//! - [`SwitchControl`], one per switch: a data packet arrives (and whether its buffer is full: marking's rule,
//!   [`marking::Fullness`]), an input buffer becomes full, a packet starts on an output, a packet's tail leaves, the
//!   marking block changes during the run, and a check of its state against the buffers. [`SwitchCc`]: ECN marking
//!   ([`marking::EcnSwitch`]) or Annex A10's FECN ([`ibcc::IbCcSwitch`]).
//! - [`SourceControl`], one per flow: may it send, the gap after a packet, an ACK (with its ECN bit or BECN), its
//!   effective rate and window. [`SourceCc`]: a response function or none ([`source::EcnSource`]) or Annex A10's
//!   CCTI ([`ibcc::IbCcSource`]).
//! - [`NicControl`], one per host: when its NIC may send data, the credits in use on its link, a timer, a data
//!   packet sent. [`NicCc`]: nothing, or PFT ([`pft::PftNic`]).
//!
//! Each enum's `new` builds the scheme a scenario asks for (as smoltcp's `AnyController::new`), so a new scheme is a
//! file here, a variant and a constructor arm; the simulation never names a scheme.

pub mod ibcc;
pub mod ipd;
pub mod marking;
pub mod pft;
pub mod response;
pub mod source;

pub use crate::net::host::Limiter;
pub use crate::net::switch::OutputVl;
use crate::rng::Rng;
use crate::time::Time;
use alloc::boxed::Box;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;
use ibcc::IbCcConfig;
use ipd::IpdTable;
pub use marking::BufferCheck;
use marking::Marking;
use pft::PftConfig;
use source::{Response, Source};

/// What a switch's congestion control sees of a data packet starting on an output.
#[derive(Debug, Clone, Copy)]
pub struct Start {
    /// Data waiting for this output VL in all the switch's input buffers, besides this packet, in credit blocks.
    pub queued_blocks: u32,
    /// This packet's size in credit blocks.
    pub packet_blocks: u32,
    /// The output VL had to wait for credit before it could send this packet (it is a victim of congestion further
    /// on, not a root).
    pub waited_for_credit: bool,
}

/// An input VL of a switch, numbered like output VLs: `port × data VLs + VL`.
pub type InputVl = u32;

/// A switch's congestion control. Every hook is about the data VLs, per output VL (and input VL); a `true` answer
/// marks the packet (ECN, or Annex A10's FECN: the same bit in this model).
pub trait SwitchControl {
    /// A data packet's head, bound for output VL `out`, entered input VL `input`, whose occupancy went from
    /// `before` to `after` credit blocks. Returns whether the buffer became full, or must be checked when the
    /// packet has been completely received.
    fn on_arrival(&mut self, _out: OutputVl, _input: InputVl, _before: u32, _after: u32) -> BufferCheck {
        BufferCheck::None
    }
    /// A packet of input VL `input` has been completely received, the buffer now holding `held` blocks (what has
    /// been received and not yet sent on). Returns whether it became full now.
    fn on_received(&mut self, _input: InputVl, _held: u32) -> bool {
        false
    }
    /// An input buffer became full: called for each packet in it, bound for `out`, `started` if it is already being
    /// sent on. Returns whether to mark it.
    fn on_buffer_full(&mut self, _out: OutputVl, _started: bool) -> bool {
        false
    }
    /// A data packet starts on output `out`. Returns whether to mark it.
    fn on_start(&mut self, _out: OutputVl, _start: &Start) -> bool {
        false
    }
    /// A data packet's tail has left input VL `input` (holding `after` blocks now) through output `out`.
    fn on_departure(&mut self, _out: OutputVl, _input: InputVl, _after: u32) {}
    /// The scenario's marking block changes during the run (the one change the model takes on the fly).
    /// `per_output(with_started)` counts the data packets the switch holds for each output VL: those waiting, and
    /// with `with_started` those being sent too; `held` is the blocks each input VL holds now (received and not yet
    /// sent on, as at a packet's receipt).
    fn retune(&mut self, _marking: &Marking, _per_output: &dyn Fn(bool) -> Vec<u32>, _held: &[u32]) {}
    /// Checks its state against the switch's buffers (for the invariant checks); the error names the output VL.
    fn check(&self, _per_output: &dyn Fn(bool) -> Vec<u32>) -> Result<(), (OutputVl, String)> {
        Ok(())
    }
}

/// The acknowledgement of one packet, as its flow's source takes it (an ACK its host coalesced is taken as one of
/// these per packet it covers). `marked`: it carries the ECN bit back (BECN with Annex A10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ack {
    pub psn: u32,
    pub marked: bool,
    /// The PSN the flow will send next.
    pub next_psn: u32,
}

/// A flow's source-side congestion control.
pub trait SourceControl {
    /// Most packets it may have unacknowledged (`None`: no window).
    fn window(&self) -> Option<u32> {
        None
    }
    /// Whether its window allows another packet with `outstanding` unacknowledged.
    fn may_send(&self, outstanding: u32) -> bool {
        self.window().is_none_or(|w| outstanding < w)
    }
    /// The least time from the start of a packet to the start of the next, at `now`, for a packet taking
    /// `packet_time` at full rate.
    fn gap(&mut self, packet_time: Time, _now: Time) -> Time {
        packet_time
    }
    /// A packet was sent; `limiter` says what held it back.
    fn on_send(&mut self, _limiter: Limiter) {}
    /// An ACK for one packet arrived at `now`.
    fn on_ack(&mut self, _ack: &Ack, _now: Time) {}
    /// Its rate limit at `now`, as a fraction of its link, for packets taking `packet_time` at full rate: what the
    /// results, the snapshots and the plots show.
    fn rate(&self, _packet_time: Time, _now: Time) -> f64 {
        1.0
    }
}

/// What a NIC's congestion control asks the simulation to do after a hook.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NicAction {
    /// Schedule its timer at this time, with this generation (an earlier timer of another generation is stale).
    pub timer: Option<(Time, u32)>,
    /// Let the NIC try to send now (its throttling just ended).
    pub resume: bool,
}

/// A host NIC's congestion control.
pub trait NicControl {
    /// When the NIC may start its next data packet: from this time on, or `None`: not until the credits in use on
    /// its link change.
    fn data_at(&self) -> Option<Time> {
        Some(0)
    }
    /// The data credits in use on its link are now `in_use` blocks.
    fn on_credits(&mut self, _now: Time, _in_use: u32) -> NicAction {
        NicAction::default()
    }
    /// Its timer of generation `gen` ran out.
    fn on_timer(&mut self, _now: Time, _gen: u32) -> NicAction {
        NicAction::default()
    }
    /// It started a data packet whose tail leaves at `ends`, with `in_use` credit blocks then in use.
    fn after_data(&mut self, _ends: Time, _in_use: u32) {}
}

/// A switch's congestion control, whichever the scenario has.
#[derive(Debug, Clone)]
pub enum SwitchCc {
    Ecn(marking::EcnSwitch),
    IbCc(ibcc::IbCcSwitch),
}

impl SwitchCc {
    /// A switch's congestion control: Annex A10's FECN if the scenario has it (`ib_cc`), else ECN marking by
    /// `marking` (policy `none` counts, never marks); `ports` ports of `vls` data VLs, data buffers of `capacity`
    /// blocks and data packets of `packet_blocks`.
    pub fn new(
        ib_cc: Option<&Rc<IbCcConfig>>,
        marking: &Marking,
        ports: usize,
        vls: u8,
        capacity: u32,
        packet_blocks: u32,
    ) -> Self {
        match ib_cc {
            Some(cfg) => Self::IbCc(ibcc::IbCcSwitch::new(cfg.clone(), capacity, ports, vls)),
            None => Self::Ecn(marking::EcnSwitch::new(marking, ports * usize::from(vls), capacity, packet_blocks)),
        }
    }
}

impl SwitchControl for SwitchCc {
    #[inline]
    fn on_arrival(&mut self, out: OutputVl, input: InputVl, before: u32, after: u32) -> BufferCheck {
        match self {
            Self::Ecn(c) => c.on_arrival(out, input, before, after),
            Self::IbCc(c) => c.on_arrival(out, input, before, after),
        }
    }
    #[inline]
    fn on_received(&mut self, input: InputVl, held: u32) -> bool {
        match self {
            Self::Ecn(c) => c.on_received(input, held),
            Self::IbCc(c) => c.on_received(input, held),
        }
    }
    #[inline]
    fn on_buffer_full(&mut self, out: OutputVl, started: bool) -> bool {
        match self {
            Self::Ecn(c) => c.on_buffer_full(out, started),
            Self::IbCc(c) => c.on_buffer_full(out, started),
        }
    }
    #[inline]
    fn on_start(&mut self, out: OutputVl, start: &Start) -> bool {
        match self {
            Self::Ecn(c) => c.on_start(out, start),
            Self::IbCc(c) => c.on_start(out, start),
        }
    }
    #[inline]
    fn on_departure(&mut self, out: OutputVl, input: InputVl, after: u32) {
        match self {
            Self::Ecn(c) => c.on_departure(out, input, after),
            Self::IbCc(c) => c.on_departure(out, input, after),
        }
    }
    fn retune(&mut self, m: &Marking, per_output: &dyn Fn(bool) -> Vec<u32>, held: &[u32]) {
        match self {
            Self::Ecn(c) => c.retune(m, per_output, held),
            Self::IbCc(c) => c.retune(m, per_output, held),
        }
    }
    fn check(&self, per_output: &dyn Fn(bool) -> Vec<u32>) -> Result<(), (OutputVl, String)> {
        match self {
            Self::Ecn(c) => c.check(per_output),
            Self::IbCc(c) => c.check(per_output),
        }
    }
}

/// A flow's source-side congestion control, whichever the scenario has.
#[derive(Debug, Clone)]
pub enum SourceCc {
    Ecn(source::EcnSource),
    IbCc(ibcc::IbCcSource),
}

impl SourceControl for SourceCc {
    #[inline]
    fn window(&self) -> Option<u32> {
        match self {
            Self::Ecn(c) => c.window(),
            Self::IbCc(c) => c.window(),
        }
    }
    #[inline]
    fn may_send(&self, outstanding: u32) -> bool {
        match self {
            Self::Ecn(c) => c.may_send(outstanding),
            Self::IbCc(c) => c.may_send(outstanding),
        }
    }
    #[inline]
    fn gap(&mut self, packet_time: Time, now: Time) -> Time {
        match self {
            Self::Ecn(c) => c.gap(packet_time, now),
            Self::IbCc(c) => c.gap(packet_time, now),
        }
    }
    #[inline]
    fn on_send(&mut self, limiter: Limiter) {
        match self {
            Self::Ecn(c) => c.on_send(limiter),
            Self::IbCc(c) => c.on_send(limiter),
        }
    }
    #[inline]
    fn on_ack(&mut self, ack: &Ack, now: Time) {
        match self {
            Self::Ecn(c) => c.on_ack(ack, now),
            Self::IbCc(c) => c.on_ack(ack, now),
        }
    }
    #[inline]
    fn rate(&self, packet_time: Time, now: Time) -> f64 {
        match self {
            Self::Ecn(c) => c.rate(packet_time, now),
            Self::IbCc(c) => c.rate(packet_time, now),
        }
    }
}

impl SourceCc {
    /// A flow's source-side congestion control, new: Annex A10's CCTI at CCTI_Min if the scenario has it, else the
    /// response `source` describes, at `Rmax` with its full window (INFOCOM'03 §VI-B). Flows with the same response
    /// parameters share one IPD table (`tables`).
    pub fn new(ib_cc: Option<&Rc<IbCcConfig>>, source: &Source, tables: &mut Vec<Rc<IpdTable>>) -> Self {
        match ib_cc {
            Some(cfg) => Self::IbCc(ibcc::IbCcSource::new(cfg.clone(), source.window_packets)),
            None => {
                let kind = source::SourceKind::of(source, tables);
                let hybrid = source.response == Response::Hybrid;
                Self::Ecn(source::EcnSource::new(&kind, source.window_packets, hybrid))
            }
        }
    }

    /// Annex A10: the flow's CCTI at `now`.
    #[inline]
    pub fn ccti(&self, now: Time) -> Option<u16> {
        match self {
            Self::IbCc(c) => Some(c.ccti(now)),
            Self::Ecn(_) => None,
        }
    }
}

/// A host NIC's congestion control, whichever the scenario has.
#[derive(Debug, Clone)]
pub enum NicCc {
    None,
    /// (Boxed: most hosts have none, and the host's own state stays small.)
    Pft(Box<pft::PftNic>),
}

impl NicCc {
    /// A host NIC's congestion control: PFT if the scenario has it, drawing from its own random stream `rng`.
    pub fn new(pft: Option<PftConfig>, data_bytes: u32, rng: Rng) -> Self {
        match pft {
            Some(cfg) => Self::Pft(Box::new(pft::PftNic::new(cfg, data_bytes, rng))),
            None => Self::None,
        }
    }
}

impl NicControl for NicCc {
    #[inline]
    fn data_at(&self) -> Option<Time> {
        match self {
            Self::None => Some(0),
            Self::Pft(c) => c.data_at(),
        }
    }
    #[inline]
    fn on_credits(&mut self, now: Time, in_use: u32) -> NicAction {
        match self {
            Self::None => NicAction::default(),
            Self::Pft(c) => c.on_credits(now, in_use),
        }
    }
    #[inline]
    fn on_timer(&mut self, now: Time, gen: u32) -> NicAction {
        match self {
            Self::None => NicAction::default(),
            Self::Pft(c) => c.on_timer(now, gen),
        }
    }
    #[inline]
    fn after_data(&mut self, ends: Time, in_use: u32) {
        if let Self::Pft(c) = self {
            c.after_data(ends, in_use);
        }
    }
}
