//! Virtual lanes (InfiniBand Architecture Specification vol. 1, §7.6: data VLs, SL-to-VL mapping, VL arbitration).
//!
//! A port carries 1 to 15 data VLs, each with its own input buffer and credits, and the ACK lane. A flow's service
//! level (SL) picks its VL through the scenario's SL-to-VL table (default `sl mod VLs`). An output chooses which
//! VL sends next by InfiniBand's VL arbitration (§7.6.9): a high-priority and a low-priority table of
//! (VL, weight) entries, each served in weighted round robin, a weight being how many 64-byte blocks the entry may
//! send before the next entry's turn (a packet that starts is always sent whole, so an entry may overshoot). An
//! entry whose VL has nothing that can go (nothing waiting, or no credit) passes its turn. The high-priority table
//! goes first, but once it has sent `high_limit` × 4096 bytes while a low-priority VL had a packet ready, one
//! low-priority packet goes (255: no limit; 0: one high-priority packet at a time). The count starts over when a
//! low-priority packet goes or when none is ready: the limit bounds how long a ready low-priority packet waits.
//!
//! The source documents only ask for congestion control "independent for each VL" (the HP proposal's slides) and
//! for VLs as InfiniBand's isolation (INFOCOM'03 footnote 3); the arbitration is the specification's, and the
//! defaults (every VL once in the low-priority table, weight 64, no high-priority table) are ours: equal shares.

use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// The most data VLs a port may have (InfiniBand: VL0 to VL14; VL15 is for subnet management).
pub const MAX_DATA_VLS: u8 = 15;
/// The most service levels.
pub const MAX_SLS: u8 = 16;
/// The default weight of each VL's entry, in 64-byte blocks.
pub const DEFAULT_WEIGHT: u8 = 64;

/// One entry of a VL arbitration table.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VlWeight {
    pub vl: u8,
    /// 64-byte blocks it may send per turn, 0 to 255 (0: the entry is skipped).
    pub weight: u8,
}

/// VL arbitration at an output (IBA §7.6.9).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct VlArbitration {
    /// The low-priority table; empty: every data VL once, weight [`DEFAULT_WEIGHT`].
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub low: Vec<VlWeight>,
    /// The high-priority table (empty: none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub high: Vec<VlWeight>,
    /// How much the high-priority table may send, in 4096-byte units, while a low-priority packet is ready
    /// (255: no limit; 0: one packet).
    #[serde(skip_serializing_if = "is_zero")]
    pub high_limit: u8,
}

fn is_zero(v: &u8) -> bool {
    *v == 0
}

/// The scenario's virtual lanes (absent: one data VL, as the papers model).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VirtualLanes {
    /// Data VLs on every port, 1 to 15.
    pub data_vls: u8,
    /// The VL of each service level (index: the SL); empty: `sl mod data_vls`. Shorter than 16: the SLs past
    /// its end map to `sl mod data_vls`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sl_to_vl: Vec<u8>,
    /// Every output's arbitration between its VLs, unless its link overrides it.
    #[serde(default)]
    pub arbitration: VlArbitration,
}

impl VirtualLanes {
    /// The VL that service level `sl` travels on.
    pub fn vl_of(&self, sl: u8) -> u8 {
        match self.sl_to_vl.get(usize::from(sl)) {
            Some(&vl) => vl,
            None => sl % self.data_vls.max(1),
        }
    }
}

impl VlArbitration {
    /// The low-priority table in effect for `vls` data VLs (the default when empty).
    pub fn low_table(&self, vls: u8) -> Vec<VlWeight> {
        if self.low.is_empty() {
            (0..vls).map(|vl| VlWeight { vl, weight: DEFAULT_WEIGHT }).collect()
        } else {
            self.low.clone()
        }
    }

    /// Whether VL `vl` has an entry of non-zero weight in a table in effect for `vls` data VLs (else it is never
    /// served).
    pub fn serves(&self, vls: u8, vl: u8) -> bool {
        self.low_table(vls).iter().chain(&self.high).any(|e| e.vl == vl && e.weight > 0)
    }
}

/// One table's turn: the entry whose turn it is and the blocks it may still send.
#[derive(Debug, Clone, Copy, Default)]
struct Turn {
    pos: usize,
    left: i64,
    /// `left` holds the current entry's remaining weight (false: it is fresh, its full weight).
    started: bool,
}

/// An output's VL arbiter: its tables (shared shape, kept per output) and whose turn it is.
#[derive(Debug, Clone, Default)]
pub struct VlArbiter {
    low: Vec<VlWeight>,
    high: Vec<VlWeight>,
    /// In blocks; `None`: no limit.
    high_limit_blocks: Option<i64>,
    low_turn: Turn,
    high_turn: Turn,
    /// Blocks the high-priority table sent since a low-priority packet last went.
    high_sent: i64,
}

/// Which table an arbitration choice came from, and its entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Choice {
    pub vl: u8,
    high: bool,
    entry: usize,
    /// A low-priority VL was ready too (a high-priority packet counts toward the limit only then).
    low_ready: bool,
}

impl VlArbiter {
    /// The arbiter for `vls` data VLs with configuration `cfg`.
    pub fn new(cfg: &VlArbitration, vls: u8) -> Self {
        Self {
            low: cfg.low_table(vls),
            high: cfg.high.clone(),
            high_limit_blocks: (cfg.high_limit != 255).then(|| i64::from(cfg.high_limit) * 64),
            ..Self::default()
        }
    }

    /// The VL that sends next, among those `ready` says could start a packet now (waiting and with credit): the
    /// first ready entry from the current turn on, high-priority table first unless its limit is reached while a
    /// low-priority VL is ready. Only looks: [`VlArbiter::sent`] moves the turn.
    pub fn choose(&self, mut ready: impl FnMut(u8) -> bool) -> Option<Choice> {
        let high = first_ready(&self.high, self.high_turn.pos, &mut ready);
        let low = first_ready(&self.low, self.low_turn.pos, &mut ready);
        let limit_reached = self.high_limit_blocks.is_some_and(|l| self.high_sent > 0 && self.high_sent >= l);
        let high_choice = |h: usize| Choice { vl: self.high[h].vl, high: true, entry: h, low_ready: low.is_some() };
        match (high, low) {
            (Some(h), Some(_)) if !limit_reached => Some(high_choice(h)),
            (Some(h), None) => Some(high_choice(h)),
            (_, Some(l)) => Some(Choice { vl: self.low[l].vl, high: false, entry: l, low_ready: true }),
            (None, None) => None,
        }
    }

    /// The choice `c` started a packet of `blocks`: its entry's weight is spent by as much, and once spent (or
    /// overshot) the turn moves to the next entry.
    pub fn sent(&mut self, c: Choice, blocks: u32) {
        let (table, turn) = if c.high { (&self.high, &mut self.high_turn) } else { (&self.low, &mut self.low_turn) };
        if c.entry != turn.pos || !turn.started {
            *turn = Turn { pos: c.entry, left: i64::from(table[c.entry].weight), started: true };
        }
        turn.left -= i64::from(blocks);
        if turn.left <= 0 {
            *turn = Turn { pos: (c.entry + 1) % table.len(), left: 0, started: false };
        }
        if c.high && c.low_ready {
            self.high_sent += i64::from(blocks);
        } else {
            self.high_sent = 0;
        }
    }
}

/// The first entry from `from` on (wrapping) with weight whose VL is ready.
fn first_ready(table: &[VlWeight], from: usize, ready: &mut impl FnMut(u8) -> bool) -> Option<usize> {
    let n = table.len();
    (0..n).map(|k| (from + k) % n).find(|&i| table[i].weight > 0 && ready(table[i].vl))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn arbiter(low: &[(u8, u8)], high: &[(u8, u8)], high_limit: u8) -> VlArbiter {
        let entries = |t: &[(u8, u8)]| t.iter().map(|&(vl, weight)| VlWeight { vl, weight }).collect();
        VlArbiter::new(&VlArbitration { low: entries(low), high: entries(high), high_limit }, 2)
    }

    /// The VLs of `n` packets of `blocks` each when every VL in `ready` always has a packet.
    fn order(a: &mut VlArbiter, ready: &[u8], blocks: u32, n: usize) -> Vec<u8> {
        (0..n)
            .map(|_| {
                let c = a.choose(|vl| ready.contains(&vl)).expect("a ready VL");
                a.sent(c, blocks);
                c.vl
            })
            .collect()
    }

    /// Weights in 64-byte blocks: VL0 with 99 sends three 33-block packets per turn, VL1 with 33 one; a weight
    /// that a packet overshoots still lets that packet go whole (34 = two packets).
    #[test]
    fn weights_share_an_output_in_blocks() {
        let mut a = arbiter(&[(0, 99), (1, 33)], &[], 0);
        assert_eq!(order(&mut a, &[0, 1], 33, 8), [0, 0, 0, 1, 0, 0, 0, 1]);
        let mut a = arbiter(&[(0, 34), (1, 1)], &[], 0);
        assert_eq!(order(&mut a, &[0, 1], 33, 6), [0, 0, 1, 0, 0, 1]);
    }

    /// The default table: each VL once with equal weight, so two always-ready VLs alternate (64 blocks: two
    /// Table I packets each); a VL with nothing ready passes its turn.
    #[test]
    fn default_weights_are_equal_and_an_idle_vl_passes_its_turn() {
        let mut a = VlArbiter::new(&VlArbitration::default(), 2);
        assert_eq!(order(&mut a, &[0, 1], 33, 6), [0, 0, 1, 1, 0, 0]);
        assert_eq!(order(&mut a, &[1], 33, 3), [1, 1, 1]);
        assert_eq!(a.choose(|_| false), None);
    }

    /// High priority goes first; with a limit of 1 (4096 bytes = 64 blocks) a ready low-priority VL gets one packet
    /// after the high table has sent 64 blocks or more; limit 255 never yields.
    #[test]
    fn the_high_table_yields_to_low_after_its_limit() {
        let mut a = arbiter(&[(0, 64)], &[(1, 255)], 1);
        assert_eq!(order(&mut a, &[0, 1], 33, 6), [1, 1, 0, 1, 1, 0]);
        let mut a = arbiter(&[(0, 64)], &[(1, 255)], 255);
        assert_eq!(order(&mut a, &[0, 1], 33, 10), vec![1; 10]);
        // Limit 0: one high-priority packet, then one low.
        let mut a = arbiter(&[(0, 64)], &[(1, 255)], 0);
        assert_eq!(order(&mut a, &[0, 1], 33, 4), [1, 0, 1, 0]);
        // Nothing low ready: high goes on past its limit, and what it sent then does not count toward it.
        let mut a = arbiter(&[(0, 64)], &[(1, 255)], 1);
        assert_eq!(order(&mut a, &[1], 33, 3), [1, 1, 1]);
        assert_eq!(order(&mut a, &[0, 1], 33, 3), [1, 1, 0]);
    }

    #[test]
    fn sl_to_vl_defaults_to_sl_mod_vls() {
        let v = VirtualLanes { data_vls: 3, sl_to_vl: vec![2], arbitration: VlArbitration::default() };
        assert_eq!([0, 1, 2, 3, 4].map(|sl| v.vl_of(sl)), [2, 1, 2, 0, 1]);
    }
}
