//! Directed channels: one direction of a link, its transmitter and the credits it holds for the receiver's
//! buffers (credit-based flow control, docs/model.md §3). The state is private: a packet starts only with the credit
//! it needs, which the channel takes; credit comes back only up to the receiver's buffer size; a transmitter sends
//! one packet at a time.

use super::packet::{Lane, PacketId, MAX_LANES};
use super::topology::{NodeId, PortId};
use crate::time::Time;
use alloc::boxed::Box;
use alloc::vec;
use alloc::vec::Vec;

/// What a channel's transmitter is sending.
#[derive(Debug, Clone, Copy)]
pub struct Sending {
    pub packet: PacketId,
    pub lane: Lane,
    /// At a switch: the input port the packet came from (its buffer is freed when the tail leaves).
    pub from_input: Option<PortId>,
    /// When the tail leaves the transmitter.
    pub ends_at: Time,
}

/// One end of a channel as the event loop needs it: the node, whether it is a host, its index among the hosts or
/// switches, and the port (the topology's, resolved once).
#[derive(Debug, Clone, Copy)]
pub struct End {
    pub node: NodeId,
    pub host: bool,
    pub slot: u32,
    pub port: PortId,
}

/// Credit stalls that a packet's start ended: the time the transmitter (and, with several VLs, the packet's VL)
/// had been waiting for credit since.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct StallsEnded {
    pub link: Option<Time>,
    pub vl: Option<Time>,
}

/// A directed channel: its transmitter and the credits it holds for the receiver's buffers.
///
/// Two cache lines, aligned to them, what a packet's hop reads first in the first: a fabric's hops land on
/// channels all over memory, and each line is a miss (docs/performance.md, "The switch's state in one place"). What
/// only several data VLs need is kept apart ([`ManyVls`]).
#[derive(Debug, Clone)]
#[repr(C, align(64))]
pub struct ChannelState {
    from: End,
    to: End,
    sending: Option<Sending>,
    /// Free blocks in the receiver's buffer of the ACK lane and data VL 0 (`Lane::index`; further VLs': `many`).
    /// Hosts absorb everything they receive at line rate, so a channel into a host never runs out (`u32::MAX`).
    credits: [u32; 2],
    /// The receiver's buffer size of each lane, in blocks (`u32::MAX` into a host).
    capacity: u32,
    /// The data VLs (bit `v`) that had a packet ready but no credit since they last started one: what "waited for
    /// credit" means to a switch's congestion control (the HP root-VL heuristic, Annex A10's victim mask).
    vl_stalled: u16,
    propagation: Time,
    /// Serialization time of a data packet and of an ACK on this channel (`Lane::kind`; computed once: the event
    /// loop needs them for every packet).
    serialization: [Time; 2],
    /// Since when the transmitter has had a packet ready but no credit for it (and no other lane could go).
    stalled_since: Option<Time>,
    /// With several data VLs, their credits and stalls; `None` with one.
    many: Option<Box<ManyVls>>,
}

/// What a channel with several data VLs keeps besides: the credits of lanes 2 on (VL 1 on), and since when each VL
/// has had a packet ready but no credit for it (it ends when the VL gets the credit or starts a packet): the page's
/// congestion tree is per VL. With one VL, `stalled_since` says it.
#[derive(Debug, Clone)]
struct ManyVls {
    credits: Vec<u32>,
    stall_since: Vec<Option<Time>>,
}

impl ChannelState {
    /// An idle channel from `from` to `to` whose receiver's buffers hold `capacity` blocks per lane (`u32::MAX`:
    /// a host, which never runs out), with `vls` data VLs and the serialization times of a data packet and an ACK.
    pub fn new(from: End, to: End, propagation: Time, capacity: u32, vls: u8, serialization: [Time; 2]) -> Self {
        Self {
            from,
            to,
            propagation,
            sending: None,
            credits: [capacity; 2],
            capacity,
            stalled_since: None,
            vl_stalled: 0,
            many: (vls > 1).then(|| {
                let vls = usize::from(vls).min(MAX_LANES - 1);
                Box::new(ManyVls { credits: vec![capacity; vls - 1], stall_since: vec![None; vls] })
            }),
            serialization,
        }
    }

    /// Free blocks in the receiver's buffer of lane `i` (`Lane::index`); a lane it does not have never runs out.
    #[inline(always)]
    fn credit(&self, i: usize) -> u32 {
        match (i, &self.many) {
            (0 | 1, _) => self.credits[i],
            (_, Some(many)) => many.credits.get(i - 2).copied().unwrap_or(self.capacity),
            (_, None) => self.capacity,
        }
    }

    #[inline(always)]
    fn credit_mut(&mut self, i: usize) -> &mut u32 {
        match (i, &mut self.many) {
            (0 | 1, _) => &mut self.credits[i],
            (_, Some(many)) => &mut many.credits[i - 2],
            (_, None) => panic!("lane {i} on a channel of one data VL"),
        }
    }

    /// The sender.
    #[inline]
    pub fn from(&self) -> End {
        self.from
    }

    /// The receiver.
    #[inline]
    pub fn to(&self) -> End {
        self.to
    }

    #[inline]
    pub fn propagation(&self) -> Time {
        self.propagation
    }

    /// The receiver's buffer size of each lane, in blocks (`u32::MAX` into a host).
    #[inline]
    pub fn capacity(&self) -> u32 {
        self.capacity
    }

    /// Free blocks in the receiver's buffer of `lane`, as the transmitter knows them.
    #[inline]
    pub fn credits(&self, lane: Lane) -> u32 {
        self.credit(lane.index())
    }

    /// Serialization time of a packet of `lane` (every data packet is as long, every ACK too).
    #[inline]
    pub fn serialization(&self, lane: Lane) -> Time {
        self.serialization[lane.kind()]
    }

    /// What it is sending, if anything.
    #[inline]
    pub fn sending(&self) -> Option<&Sending> {
        self.sending.as_ref()
    }

    #[inline]
    pub fn is_busy(&self) -> bool {
        self.sending.is_some()
    }

    /// Whether the receiver has room for `blocks` more on `lane`.
    #[inline]
    pub fn has_credit(&self, lane: Lane, blocks: u32) -> bool {
        self.credit(lane.index()) >= blocks
    }

    /// Data credit blocks in use (sent, not yet returned) over the first `vls` data VLs: what PFT watches.
    pub fn data_credits_in_use(&self, vls: u8) -> u32 {
        let lanes = (usize::from(vls) + 1).min(MAX_LANES);
        (1..lanes).map(|i| self.capacity - self.credit(i)).sum()
    }

    /// Starts `packet` (`blocks` credit blocks on `lane`) at `now`: takes its credit and ends the credit stalls its
    /// start ends. Panics if the transmitter is busy or the receiver has no room: the caller checks both first.
    #[inline(always)]
    pub fn start(
        &mut self,
        packet: PacketId,
        lane: Lane,
        blocks: u32,
        from_input: Option<PortId>,
        now: Time,
    ) -> (Sending, StallsEnded) {
        debug_assert!(!self.is_busy(), "a transmitter sends one packet at a time");
        let credits = self.credit_mut(lane.index());
        if *credits != u32::MAX {
            assert!(*credits >= blocks, "started without credit");
            *credits -= blocks;
        }
        let mut ended = StallsEnded { link: self.stalled_since.take(), vl: None };
        if let Some(vl) = lane.vl() {
            self.vl_stalled &= !(1 << vl);
            if let Some(since) = self.many.as_mut().and_then(|m| m.stall_since.get_mut(usize::from(vl))) {
                ended.vl = since.take();
            }
        }
        let sending = Sending { packet, lane, from_input, ends_at: now + self.serialization(lane) };
        self.sending = Some(sending);
        (sending, ended)
    }

    /// The packet being sent has left the transmitter: what it was.
    pub fn finish(&mut self) -> Sending {
        self.sending.take().expect("a transmission to finish")
    }

    /// `blocks` of `lane` come back from the receiver; a data VL that waited for credit and now has room for a
    /// packet of `packet_blocks` waits no longer (a turn of the VL arbitration may still keep it waiting): returns
    /// since when it had waited. Panics if credit would exceed the receiver's buffer.
    pub fn return_credit(&mut self, lane: Lane, blocks: u32, packet_blocks: u32) -> Option<Time> {
        let capacity = self.capacity;
        let credits = self.credit_mut(lane.index());
        *credits += blocks;
        assert!(*credits <= capacity, "credit above the receiver's buffer size");
        let vl = lane.vl().filter(|_| self.many.is_some())?;
        if self.has_credit(lane, packet_blocks) {
            self.many.as_mut()?.stall_since[usize::from(vl)].take()
        } else {
            None
        }
    }

    /// The transmitter has a packet ready but nothing can start for lack of credit: a link stall from `now` on,
    /// unless one is already under way.
    #[inline]
    pub fn stall(&mut self, now: Time) {
        self.stalled_since.get_or_insert(now);
    }

    /// Since when the transmitter has been waiting for credit, if it is.
    #[inline]
    pub fn stalled_since(&self) -> Option<Time> {
        self.stalled_since
    }

    /// The transmitter no longer has a packet ready (a host whose flows stopped, or whose rates now hold them
    /// back): its credit stall ends with no packet started. Returns since when it had waited, and tells
    /// `vl_ended` each data VL's stall that ends with it. (`vl_waited` keeps its meaning: waited since the VL last
    /// started a packet.)
    pub fn end_stalls(&mut self, mut vl_ended: impl FnMut(u8, Time)) -> Option<Time> {
        if let Some(m) = self.many.as_mut() {
            for (vl, since) in m.stall_since.iter_mut().enumerate() {
                if let Some(since) = since.take() {
                    vl_ended(vl as u8, since);
                }
            }
        }
        self.stalled_since.take()
    }

    /// The data VLs `lacking` (bits) have a packet ready but no credit for it: what a switch's congestion control
    /// calls waiting for credit, and, with several VLs, the start of each one's credit stall.
    pub fn lacking_credit(&mut self, lacking: u16, now: Time) {
        self.vl_stalled |= lacking;
        let stalls = self.many.as_mut().map_or(&mut [][..], |m| &mut m.stall_since[..]);
        for (vl, since) in stalls.iter_mut().enumerate() {
            if lacking & (1 << vl) != 0 {
                since.get_or_insert(now);
            }
        }
    }

    /// Whether data VL `vl` has waited for credit since it last started a packet.
    #[inline]
    pub fn vl_waited(&self, vl: u8) -> bool {
        self.vl_stalled & (1 << vl) != 0
    }

    /// With several data VLs, since when each has been waiting for credit (empty with one VL).
    pub fn vl_stalls(&self) -> &[Option<Time>] {
        self.many.as_ref().map_or(&[], |m| &m.stall_since)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn end(node: NodeId) -> End {
        End { node, host: false, slot: node, port: 0 }
    }

    #[test]
    fn credit_is_taken_at_the_start_and_given_back_up_to_the_buffer() {
        let mut c = ChannelState::new(end(0), end(1), 0, 66, 2, [100, 10]);
        let lane = Lane::data(1);
        c.lacking_credit(0b10, 5);
        assert!(c.vl_waited(1) && !c.vl_waited(0));
        let (s, ended) = c.start(7, lane, 33, Some(2), 10);
        assert_eq!((s.ends_at, ended), (110, StallsEnded { link: None, vl: Some(5) }));
        assert!(!c.vl_waited(1), "starting a packet ends its VL's wait");
        assert_eq!((c.credits(lane), c.data_credits_in_use(2)), (33, 33));
        assert_eq!(c.finish().packet, 7);
        assert!(!c.is_busy());
        assert_eq!(c.return_credit(lane, 33, 33), None);
        assert_eq!(c.credits(lane), 66);
    }

    /// Its layout is chosen for the cache (two lines): a field added carelessly would make every hop pay a third.
    #[test]
    fn a_channel_fits_two_cache_lines() {
        assert_eq!(size_of::<ChannelState>(), 128);
        assert_eq!(align_of::<ChannelState>(), 64);
    }

    #[test]
    #[should_panic(expected = "credit above the receiver's buffer size")]
    fn credit_never_exceeds_the_buffer() {
        let mut c = ChannelState::new(end(0), end(1), 0, 66, 1, [100, 10]);
        c.return_credit(Lane::VL0, 1, 33);
    }

    #[test]
    #[should_panic(expected = "started without credit")]
    fn a_packet_never_starts_without_credit() {
        let mut c = ChannelState::new(end(0), end(1), 0, 32, 1, [100, 10]);
        c.start(0, Lane::VL0, 33, None, 0);
    }
}
