//! Directed channels: one direction of a link, its transmitter and the credits it holds for the receiver's
//! buffers (credit-based flow control, model.md §2).

use super::packet::{Lane, PacketId, MAX_LANES};
use super::topology::{NodeId, PortId};
use crate::time::Time;
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

/// A directed channel: its transmitter and the credits it holds for the receiver's buffers.
#[derive(Debug, Clone)]
pub struct ChannelState {
    /// The sender and the receiver.
    pub from: End,
    pub to: End,
    pub propagation: Time,
    pub sending: Option<Sending>,
    /// Free blocks in the receiver's buffer, per lane (`Lane::index`). Hosts absorb everything they receive at
    /// line rate, so a channel into a host never runs out (`u32::MAX`).
    pub credits: [u32; MAX_LANES],
    /// The receiver's buffer size of each lane, in blocks (for the bound checks).
    pub capacity: u32,
    /// Since when the transmitter has had a packet ready but no credit for it (and no other lane could go).
    pub stalled_since: Option<Time>,
    /// The data VLs (bit `v`) that had a packet ready but no credit since they last started one: what "waited for
    /// credit" means to a switch's congestion control (the HP root-VL heuristic, Annex A10's victim mask).
    pub vl_stalled: u16,
    /// With several data VLs, since when each has had a packet ready but no credit for it (it ends when the VL
    /// gets the credit or starts a packet): the page's congestion tree is per VL. Empty with one VL, where
    /// `stalled_since` says it.
    pub vl_stall_since: Vec<Option<Time>>,
    /// Serialization time of a data packet and of an ACK on this channel (`Lane::kind`; computed once: the event
    /// loop needs them for every packet).
    pub serialization: [Time; 2],
}

impl ChannelState {
    pub fn is_busy(&self) -> bool {
        self.sending.is_some()
    }

    /// The data VLs `lacking` (bits) have a packet ready but no credit for it: what a switch's congestion control
    /// calls waiting for credit, and, with several VLs, the start of each one's credit stall.
    pub fn lacking_credit(&mut self, lacking: u16, now: Time) {
        self.vl_stalled |= lacking;
        for (vl, since) in self.vl_stall_since.iter_mut().enumerate() {
            if lacking & (1 << vl) != 0 {
                since.get_or_insert(now);
            }
        }
    }

    /// Whether the receiver has room for `blocks` more on `lane`.
    #[inline]
    pub fn has_credit(&self, lane: Lane, blocks: u32) -> bool {
        self.credits[lane.index()] >= blocks
    }
}
