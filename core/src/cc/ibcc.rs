//! InfiniBand Architecture congestion control, Annex A10 (docs/model.md §8; parameter names follow OpenSM's `cc_*`
//! options so a scenario can be exported as OpenSM configuration).
//!
//! Switch: an output port whose queue passes the level set by `Threshold` marks FECN on one in every
//! `Marking_Rate + 1` eligible packets (at least `Packet_Size` credits long) as they leave. A port congested only
//! because it lacks credits (a victim of congestion downstream) does not mark, unless its bit is set in
//! `Victim_Mask`. Destination: the FECN comes back as BECN on the ACK that covers the packet, or for an unreliable
//! flow, which has no ACKs, on a CN packet (the CNP). Source (per flow, as per QP): a BECN raises CCTI by `CCTI_Increase` up to `CCTI_Limit`; every
//! `CCTI_Timer` x 1.024 us CCTI falls by one, not below `CCTI_Min`; after each packet the flow waits the delay of
//! `CCT[CCTI]` = `multiplier << shift` units.
//!
//! Our choices, where the standard leaves the switch free or our sources do not say (docs/scenario.md):
//! - Threshold to queue level: a port's queue is the data waiting for it in all the switch's input buffers, besides
//!   the packet now leaving; with Threshold `T` (1 to 15) it is congested at `(16 - T)/16` of one input buffer or
//!   more (15: a sixteenth, so any other packet waiting, the most aggressive; 0: never marks).
//! - Victim: the port had to wait for credit before sending the packet now leaving.
//! - Marking_Rate: deterministic, every `Marking_Rate + 1`-th eligible packet of a congested port.
//! - The CCT delay unit (`ird_unit_ps`): 64 bytes' transmission time at 8 Gb/s (64 ns) by default; configurable.
//!   (The standard's own unit is not in our sources; this is flagged for review.)

use super::{Ack, SourceControl, Start, SwitchControl};
use crate::time::Time;
use alloc::rc::Rc;
use alloc::vec;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// One CCT entry: the delay is `multiplier << shift` units (OpenSM writes it `shift:multiplier`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct CctEntry {
    pub shift: u8,
    pub multiplier: u16,
}

/// Shaped CCTs: the delay grows linearly or quadratically with the index.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CctShape {
    Linear,
    Quadratic,
}

/// Builds a CCT of `entries` entries whose delay rises from 0 to about `max_multiplier` units with the given shape,
/// using the shift to keep multipliers within their 14 bits.
pub fn shaped_cct(shape: CctShape, entries: u16, max_multiplier: u32) -> Vec<CctEntry> {
    let n = u32::from(entries.max(1));
    (0..n)
        .map(|i| {
            let x = f64::from(i) / f64::from((n - 1).max(1));
            let y = match shape {
                CctShape::Linear => x,
                CctShape::Quadratic => x * x,
            };
            let mut value = libm::round(y * f64::from(max_multiplier)) as u64;
            let mut shift = 0u8;
            while value > 0x3FFF && shift < 3 {
                value >>= 1;
                shift += 1;
            }
            CctEntry { shift, multiplier: value.min(0x3FFF) as u16 }
        })
        .collect()
}

/// The scenario's `ib_cc` block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IbCcConfig {
    /// `cc_sw_cong_setting_threshold`: 0 (off) to 15 (most aggressive).
    pub threshold: u8,
    /// `cc_sw_cong_setting_marking_rate`: eligible packets left unmarked between two marked ones.
    pub marking_rate: u16,
    /// `cc_sw_cong_setting_packet_size`: packets shorter than this many 64-byte credits are not marked.
    pub packet_size_credits: u8,
    /// `cc_sw_cong_setting_victim_mask`: switch port numbers (1-based, port `k` is a switch's `k`-th link) that mark
    /// even as victims.
    pub victim_mask_ports: Vec<u8>,
    /// `cc_ca_cong_setting_ccti_increase`.
    pub ccti_increase: u16,
    /// `CCTI_Limit`: the highest index used (`null`: the table's last entry).
    pub ccti_limit: Option<u16>,
    /// `cc_ca_cong_setting_ccti_min`.
    pub ccti_min: u16,
    /// `cc_ca_cong_setting_ccti_timer`, in units of 1.024 us.
    pub ccti_timer: u16,
    /// `cc_cct`: the table. In a scenario either the entries, or a shape:
    /// `{"shape": "linear" | "quadratic", "entries": 128, "max_multiplier": 1024}`.
    #[serde(deserialize_with = "cct_entries_or_shape")]
    pub cct: Vec<CctEntry>,
    /// The time unit of `multiplier << shift`, in picoseconds.
    pub ird_unit_ps: u64,
}

impl Default for IbCcConfig {
    /// Settings for the papers' 8 Gb/s links, where a packet takes 2 us: threshold 15, every other eligible packet
    /// marked (marking rate 1), packet size 1, CCTI increase 1, timer 50 (51 us), and a linear 128-entry CCT up to
    /// 1024 units (65.5 us at 64 ns). OpenSM's usual values (marking rate 10, timer 150) suit links some ten times
    /// faster and barely act here; docs/reproduction.md shows both.
    fn default() -> Self {
        Self {
            threshold: 15,
            marking_rate: 1,
            packet_size_credits: 1,
            victim_mask_ports: Vec::new(),
            ccti_increase: 1,
            ccti_limit: None,
            ccti_min: 0,
            ccti_timer: 50,
            cct: shaped_cct(CctShape::Linear, 128, 1024),
            ird_unit_ps: 64_000,
        }
    }
}

impl IbCcConfig {
    /// The defaults with their two times scaled to links of `gbps`: the CCT's unit stays 64 bytes' time and the CCTI
    /// timer as many packets' time as at the papers' 8 Gb/s (where these give the defaults exactly), so that a CCT
    /// step takes the same share of a link, and the CCTI falls as often per packet sent, on faster links. Unscaled,
    /// the 64 ns unit on 100 Gb/s links (a 2 KB packet in 165 ns) makes the first steps of the table throttle a flow
    /// to a quarter of its link. Our choice (the standard's unit is not in our sources; docs/model.md §8): the page
    /// turns A10 on with these for its network's fastest host link.
    pub fn for_link_gbps(gbps: f64) -> Self {
        let scale = if gbps.is_finite() && gbps > 0.0 { 8.0 / gbps } else { 1.0 };
        let d = Self::default();
        Self {
            ird_unit_ps: (libm::round(d.ird_unit_ps as f64 * scale) as u64).max(1),
            ccti_timer: (libm::round(f64::from(d.ccti_timer) * scale) as u16).max(1),
            ..d
        }
    }
}

/// The most entries and the highest top multiplier of a shaped CCT (a multiplier has 14 bits, the shift up to 3).
pub const CCT_MAX_ENTRIES: u16 = 1024;
pub const CCT_MAX_MULTIPLIER: u32 = 0x3FFF << 3;

impl IbCcConfig {
    /// The CCT's shape, entries and top multiplier, when it is one `shaped_cct` makes (as the defaults and a
    /// scenario's `{"shape": ...}` are); `None` for a table of other entries.
    pub fn cct_shape(&self) -> Option<(CctShape, u16, u32)> {
        let entries = u16::try_from(self.cct.len()).ok().filter(|&n| (1..=CCT_MAX_ENTRIES).contains(&n))?;
        let last = self.cct.last()?;
        // The top multiplier as given lies within the last entry's rounding by its shift.
        let top = u32::from(last.multiplier) << last.shift;
        (top..top + (1u32 << last.shift)).filter(|&m| m <= CCT_MAX_MULTIPLIER).find_map(|max| {
            [CctShape::Linear, CctShape::Quadratic]
                .into_iter()
                .find(|&shape| shaped_cct(shape, entries, max) == self.cct)
                .map(|shape| (shape, entries, max))
        })
    }
}

/// A CCT given by its shape instead of its entries.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ShapedCct {
    shape: CctShape,
    entries: u16,
    max_multiplier: u32,
}

#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum CctSpec {
    Entries(Vec<CctEntry>),
    Shaped(ShapedCct),
}

fn cct_entries_or_shape<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<CctEntry>, D::Error> {
    match CctSpec::deserialize(d)? {
        CctSpec::Entries(e) => Ok(e),
        CctSpec::Shaped(s) => {
            if s.entries == 0 || s.entries > CCT_MAX_ENTRIES || s.max_multiplier > CCT_MAX_MULTIPLIER {
                return Err(serde::de::Error::custom(
                    "a shaped CCT has 1 to 1024 entries and a max_multiplier of at most 131064",
                ));
            }
            Ok(shaped_cct(s.shape, s.entries, s.max_multiplier))
        }
    }
}

/// The CCTI timer's unit: 1.024 us.
pub const CCTI_TIMER_UNIT: Time = 1_024_000;

impl IbCcConfig {
    /// The highest CCTI in use.
    pub fn limit(&self) -> u16 {
        let last = self.cct.len().saturating_sub(1) as u16;
        self.ccti_limit.map_or(last, |l| l.min(last))
    }

    /// The delay after each packet at index `ccti`.
    pub fn ird(&self, ccti: u16) -> Time {
        let e =
            self.cct.get(usize::from(ccti.min(self.limit()))).copied().unwrap_or(CctEntry { shift: 0, multiplier: 0 });
        (u64::from(e.multiplier) << e.shift).saturating_mul(self.ird_unit_ps)
    }

    /// The injection rate at index `ccti`, as a fraction of the link, for packets taking `packet_time` to send.
    pub fn rate(&self, ccti: u16, packet_time: Time) -> f64 {
        packet_time as f64 / (packet_time + self.ird(ccti)) as f64
    }

    /// The delay after each packet and the resulting injection rate for every CCTI up to the limit, for packets
    /// taking `packet_time` to send: `(ccti, delay, rate)`.
    pub fn delay_curve(&self, packet_time: Time) -> Vec<(u16, Time, f64)> {
        (0..=self.limit()).map(|i| (i, self.ird(i), self.rate(i, packet_time))).collect()
    }

    /// The queue level (in 64-byte blocks) at which an output is congested, given one input buffer's size;
    /// `None` for threshold 0 (marking off).
    pub fn queue_level(&self, buffer_blocks: u32) -> Option<u32> {
        (self.threshold > 0).then(|| (buffer_blocks * (16 - u32::from(self.threshold.min(15)))).div_ceil(16).max(1))
    }

    /// Whether switch port `port` (0-based) marks even when it is a victim.
    pub fn victim_marks(&self, port: u16) -> bool {
        self.victim_mask_ports.iter().any(|&p| u16::from(p) == port + 1)
    }
}

/// A flow's CCTI (Annex A10 source side). The timer is free-running: CCTI falls by one at every `CCTI_Timer`
/// boundary counted from `anchor`; the decrements are applied when the state is next looked at (exactly the same
/// result as a tick event per period, without the events).
#[derive(Debug, Clone)]
pub struct Ccti {
    index: u16,
    anchor: Time,
}

impl Ccti {
    /// A new flow at CCTI_Min (no delay from congestion control).
    pub fn new(config: &IbCcConfig) -> Self {
        Self { index: config.ccti_min, anchor: 0 }
    }

    /// The index and the timer's anchor at `now`, the timer's decrements applied.
    fn advanced(&self, config: &IbCcConfig, now: Time) -> (u16, Time) {
        let period = (u64::from(config.ccti_timer) * CCTI_TIMER_UNIT).max(1);
        let ticks = now.saturating_sub(self.anchor) / period;
        if ticks == 0 {
            return (self.index, self.anchor);
        }
        let drop = u16::try_from(ticks).unwrap_or(u16::MAX);
        (self.index.saturating_sub(drop).max(config.ccti_min), self.anchor + ticks * period)
    }

    /// Applies the timer's decrements up to `now`; returns the index.
    pub fn at(&mut self, config: &IbCcConfig, now: Time) -> u16 {
        (self.index, self.anchor) = self.advanced(config, now);
        self.index
    }

    /// The index at `now`, without keeping the decrements (for looking, not changing).
    pub fn peek(&self, config: &IbCcConfig, now: Time) -> u16 {
        self.advanced(config, now).0
    }

    /// A BECN at `now`: CCTI rises by CCTI_Increase, up to CCTI_Limit.
    pub fn on_becn(&mut self, config: &IbCcConfig, now: Time) {
        let i = self.at(config, now);
        self.index = i.saturating_add(config.ccti_increase).min(config.limit()).max(config.ccti_min);
    }
}

/// Annex A10 at one switch: each output VL's count of eligible packets still to pass before its next FECN.
#[derive(Debug, Clone)]
pub struct IbCcSwitch {
    config: Rc<IbCcConfig>,
    /// The queue level at which an output is congested, for this switch's buffers (`None`: threshold 0, off).
    level: Option<u32>,
    /// Per output VL.
    fecn_skip: Vec<u16>,
    /// Data VLs per port (an output VL's port is `out / vls`).
    vls: u32,
}

impl IbCcSwitch {
    /// A switch with `ports` ports of `vls` data VLs, each VL's input buffers of `buffer_blocks` blocks.
    pub fn new(config: Rc<IbCcConfig>, buffer_blocks: u32, ports: usize, vls: u8) -> Self {
        let level = config.queue_level(buffer_blocks);
        Self { config, level, fecn_skip: vec![0; ports * usize::from(vls)], vls: u32::from(vls) }
    }
}

impl SwitchControl for IbCcSwitch {
    /// Congested (the data waiting for this output VL passes the Threshold's level), eligible (long enough), a root (it
    /// did not wait for credit) or in the Victim_Mask: one in Marking_Rate + 1 is marked FECN.
    fn on_start(&mut self, out: super::OutputVl, s: &Start) -> bool {
        let cfg = &self.config;
        let congested = self.level.is_some_and(|level| s.queued_blocks >= level);
        let eligible = s.packet_blocks >= u32::from(cfg.packet_size_credits);
        if !(congested && eligible && (!s.waited_for_credit || cfg.victim_marks((out / self.vls) as u16))) {
            return false;
        }
        let skip = &mut self.fecn_skip[out as usize];
        if *skip == 0 {
            *skip = cfg.marking_rate;
            true
        } else {
            *skip -= 1;
            false
        }
    }
}

/// Annex A10 at one flow's source: a fixed window (if any) and the CCTI, whose CCT entry delays each next packet.
#[derive(Debug, Clone)]
pub struct IbCcSource {
    config: Rc<IbCcConfig>,
    window: Option<u32>,
    ccti: Ccti,
}

impl IbCcSource {
    /// A new flow at CCTI_Min.
    pub fn new(config: Rc<IbCcConfig>, window: Option<u32>) -> Self {
        let ccti = Ccti::new(&config);
        Self { config, window, ccti }
    }

    /// Its CCTI at `now`.
    pub fn ccti(&self, now: Time) -> u16 {
        self.ccti.peek(&self.config, now)
    }
}

impl SourceControl for IbCcSource {
    fn window(&self) -> Option<u32> {
        self.window
    }

    /// After each packet, the delay of `CCT[CCTI]`, CCTI as it stands now.
    #[inline]
    fn gap(&mut self, packet_time: Time, now: Time) -> Time {
        packet_time.saturating_add(self.config.ird(self.ccti.at(&self.config, now)))
    }

    /// A BECN raises CCTI.
    fn on_ack(&mut self, ack: &Ack, now: Time) {
        if ack.marked {
            self.ccti.on_becn(&self.config, now);
        }
    }

    fn rate(&self, packet_time: Time, now: Time) -> f64 {
        self.config.rate(self.ccti(now), packet_time)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaled_to_a_link_keeps_the_times_in_packets() {
        assert_eq!(IbCcConfig::for_link_gbps(8.0), IbCcConfig::default(), "the papers' links: the defaults");
        let edr = IbCcConfig::for_link_gbps(100.0);
        assert_eq!((edr.ird_unit_ps, edr.ccti_timer), (5_120, 4), "64 bytes at 100 Gb/s; 50 x 8/100 rounded");
        assert_eq!(IbCcConfig { ird_unit_ps: 64_000, ccti_timer: 50, ..edr }, IbCcConfig::default(), "only the times");
        assert_eq!(IbCcConfig::for_link_gbps(2.5).ccti_timer, 160);
        assert_eq!(IbCcConfig::for_link_gbps(1e6).ccti_timer, 1, "never 0");
        assert_eq!(IbCcConfig::for_link_gbps(0.0), IbCcConfig::default(), "no rate: unscaled");
    }

    #[test]
    fn ird_is_multiplier_shifted_in_units() {
        let c = IbCcConfig {
            cct: alloc::vec![CctEntry { shift: 0, multiplier: 0 }, CctEntry { shift: 2, multiplier: 3 }],
            ird_unit_ps: 1000,
            ..IbCcConfig::default()
        };
        assert_eq!(c.ird(0), 0);
        assert_eq!(c.ird(1), 12_000);
        assert_eq!(c.ird(7), 12_000, "indices above the limit use the last entry");
        assert!((c.rate(1, 4_000) - 0.25).abs() < 1e-12);
        assert_eq!(c.delay_curve(4_000), [(0, 0, 1.0), (1, 12_000, 0.25)]);
    }

    #[test]
    fn shaped_tables_rise_monotonically_from_zero() {
        for shape in [CctShape::Linear, CctShape::Quadratic] {
            let t = shaped_cct(shape, 64, 100_000);
            let ird: Vec<u64> = t.iter().map(|e| u64::from(e.multiplier) << e.shift).collect();
            assert_eq!(ird[0], 0);
            assert!(ird.windows(2).all(|w| w[1] >= w[0]), "{shape:?}");
            assert!((ird[63] as f64 - 100_000.0).abs() / 100_000.0 < 0.001, "{shape:?}: {}", ird[63]);
            assert!(t.iter().all(|e| e.multiplier <= 0x3FFF && e.shift <= 3));
        }
        let q = shaped_cct(CctShape::Quadratic, 11, 100);
        assert_eq!(u64::from(q[5].multiplier) << q[5].shift, 25, "(5/10)^2 of 100");
    }

    /// CCTI by hand: timer 10 x 1.024 us = 10.24 us; increase 2, limit 5, min 1.
    #[test]
    fn ccti_rises_on_becn_and_decays_on_the_timer() {
        let c =
            IbCcConfig { ccti_increase: 2, ccti_limit: Some(5), ccti_min: 1, ccti_timer: 10, ..IbCcConfig::default() };
        let mut s = Ccti::new(&c);
        assert_eq!(s.at(&c, 0), 1, "starts at CCTI_Min");
        s.on_becn(&c, 1_000_000);
        s.on_becn(&c, 2_000_000);
        s.on_becn(&c, 3_000_000);
        assert_eq!(s.at(&c, 3_000_000), 5, "1 + 2 + 2 + 2 capped at the limit");
        assert_eq!(s.at(&c, 10_239_999), 5, "the first tick is at 10.24 us");
        assert_eq!(s.at(&c, 10_240_000), 4);
        assert_eq!(s.at(&c, 3 * 10_240_000), 2);
        assert_eq!(s.at(&c, 100 * 10_240_000), 1, "not below CCTI_Min");
    }

    #[test]
    fn a_scenario_may_give_the_cct_by_its_shape() {
        let c: IbCcConfig =
            serde_json::from_str(r#"{"cct": {"shape": "quadratic", "entries": 11, "max_multiplier": 100}}"#).unwrap();
        assert_eq!(c.cct, shaped_cct(CctShape::Quadratic, 11, 100));
        let c: IbCcConfig = serde_json::from_str(r#"{"cct": [{"shift": 1, "multiplier": 5}]}"#).unwrap();
        assert_eq!(c.ird(0), 10 * c.ird_unit_ps);
        assert!(serde_json::from_str::<IbCcConfig>(
            r#"{"cct": {"shape": "linear", "entries": 0, "max_multiplier": 1}}"#
        )
        .is_err());
    }

    #[test]
    fn threshold_maps_to_a_queue_level() {
        let c = |threshold| IbCcConfig { threshold, ..IbCcConfig::default() };
        assert_eq!(c(0).queue_level(132), None);
        assert_eq!(c(15).queue_level(132), Some(9), "a sixteenth of 132 blocks, rounded up");
        assert_eq!(c(8).queue_level(132), Some(66));
        assert_eq!(c(1).queue_level(132), Some(124));
    }
}
