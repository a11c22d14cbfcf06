//! The model's fingerprint: a 64-bit FNV-1a hash of every event a run tells its observers, in order, with its time
//! and what it concerns (channel, lane, flow, switch port, occupancy). Two runs with the same fingerprint did the same
//! things at the same picoseconds. It reads no report: a new result field never changes it, while any change of
//! the model's behaviour does. The golden lines (tests/golden/fingerprints.txt) are fingerprints, compared natively
//! and in the browser.

use super::observe::{Observer, Sent};
use crate::net::topology::{ChannelId, PortId};
use crate::time::Time;

/// An observer that hashes the event stream.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fingerprint {
    hash: u64,
    events: u64,
}

impl Default for Fingerprint {
    fn default() -> Self {
        Self { hash: 0xcbf2_9ce4_8422_2325, events: 0 }
    }
}

impl Fingerprint {
    /// The hash so far.
    pub fn value(&self) -> u64 {
        self.hash
    }

    /// Events hashed so far.
    pub fn events(&self) -> u64 {
        self.events
    }

    fn event(&mut self, kind: u8, words: &[u64]) {
        self.events += 1;
        self.byte(kind);
        for w in words {
            for b in w.to_le_bytes() {
                self.byte(b);
            }
        }
    }

    #[inline]
    fn byte(&mut self, b: u8) {
        self.hash = (self.hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    }
}

impl Observer for Fingerprint {
    fn on_send(&mut self, s: &Sent) {
        let lane = s.lane.index() as u64;
        self.event(1, &[s.channel.into(), lane, s.marked.into(), s.now, s.ends]);
        if let Some(since) = s.stalled_since {
            self.event(2, &[s.channel.into(), since, s.now]);
        }
    }
    fn on_vl_stall_end(&mut self, channel: ChannelId, vl: u8, since: Time, now: Time) {
        self.event(3, &[channel.into(), vl.into(), since, now]);
    }
    fn on_stall_end(&mut self, channel: ChannelId, since: Time, now: Time) {
        // (As a stall a start ends: the same link stall, ended another way.)
        self.event(2, &[channel.into(), since, now]);
    }
    fn on_mark(&mut self, channel: ChannelId, now: Time) {
        self.event(4, &[channel.into(), now]);
    }
    fn on_inject(&mut self, flow: u32, now: Time, ends: Time) {
        self.event(5, &[flow.into(), now, ends]);
    }
    fn on_deliver(&mut self, flow: u32, injected_at: Time, now: Time) {
        self.event(6, &[flow.into(), injected_at, now]);
    }
    fn on_ack(&mut self, flow: u32, marked: bool, now: Time) {
        self.event(7, &[flow.into(), marked.into(), now]);
    }
    fn on_cn(&mut self, flow: u32, now: Time) {
        self.event(8, &[flow.into(), now]);
    }
    fn on_occupancy(&mut self, switch: u32, port: PortId, before: u32, after: u32, now: Time) {
        self.event(9, &[switch.into(), port.into(), before.into(), after.into(), now]);
    }
}
