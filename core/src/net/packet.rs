//! Packets and their storage. Packets live in a pool and are referred to by index while they travel.

use super::topology::NodeId;
use crate::time::Time;
use alloc::vec::Vec;

/// Index of a packet in the [`PacketPool`].
pub type PacketId = u32;

/// The lane a packet travels on: the ACK lane or a data virtual lane (`net::vl`). ACKs have their own lane,
/// buffers and credits (docs/model.md §5), so they are never stuck behind data. As an index into per-lane arrays the ACK
/// lane is 0 and data VL `v` is `v + 1`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Lane(u8);

impl Lane {
    /// The ACK lane.
    pub const ACK: Lane = Lane(0);
    /// Data VL 0 (the only data lane of a one-VL network).
    pub const VL0: Lane = Lane(1);

    /// Data VL `vl`.
    pub const fn data(vl: u8) -> Lane {
        Lane(vl + 1)
    }

    pub fn is_ack(self) -> bool {
        self.0 == 0
    }

    pub fn is_data(self) -> bool {
        self.0 != 0
    }

    /// A data lane's VL (the ACK lane: none).
    pub fn vl(self) -> Option<u8> {
        self.0.checked_sub(1)
    }

    /// The lane as an index into per-lane arrays (ACK 0, data VL `v` at `v + 1`).
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// 0 for data, 1 for ACKs: the index into what differs only between data and ACKs (sizes, serialization).
    pub fn kind(self) -> usize {
        usize::from(self.is_ack())
    }

    /// The ACK lane and `data_vls` data lanes, ACK first.
    pub fn all(data_vls: u8) -> impl Iterator<Item = Lane> {
        (0..=data_vls).map(Lane)
    }
}

/// Most lanes a port has: 15 data VLs and the ACK lane.
pub const MAX_LANES: usize = 16;

/// A data packet or an ACK.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Packet {
    /// The flow it belongs to (an ACK: the flow it acknowledges).
    pub flow: u32,
    /// Data: the flow's packet sequence number. ACK: the PSN it acknowledges.
    pub psn: u32,
    /// (Its size on the wire is its lane's: every data packet is as long, every ACK too.)
    pub lane: Lane,
    /// Size in 64-byte credit blocks.
    pub blocks: u32,
    /// A data packet's ECN bit (an ACK echoes its packets' bits in `marks`).
    pub marked: bool,
    /// A data packet's AckReq bit (ACK coalescing: its destination ACKs it at once).
    pub ack_req: bool,
    /// An ACK: the packets it acknowledges, consecutive from `psn` (1, unless its host coalesced them:
    /// `net::host::ACKS_OWED_PER_FLOW`, or ACK coalescing). 0: a CN packet (an unreliable flow's congestion
    /// notification for its packet `psn`, acknowledging nothing). A data packet: 1.
    pub count: u32,
    /// An ACK: how many of the packets it acknowledges were marked (the echoed ECN bits). A data packet: 0.
    pub marks: u16,
    pub dst: NodeId,
    /// When the data packet started leaving its source (for the packet delay).
    pub injected_at: Time,
    /// The switches it has reached: its place on its flow's path (`sim::flow_paths`).
    pub hop: u8,
}

/// Storage for packets in flight, reusing freed slots.
#[derive(Debug, Clone, Default)]
pub struct PacketPool {
    slots: Vec<Packet>,
    free: Vec<PacketId>,
    /// Stored data packets and ACKs.
    live: [u32; 2],
}

impl PacketPool {
    /// Packet `id`'s slot, if there is one (a freed slot holds the packet it last held).
    #[inline]
    pub fn get(&self, id: PacketId) -> Option<&Packet> {
        self.slots.get(id as usize)
    }

    /// Stores a packet and returns its id.
    pub fn insert(&mut self, p: Packet) -> PacketId {
        self.live[p.lane.kind()] += 1;
        if let Some(id) = self.free.pop() {
            self.slots[id as usize] = p;
            id
        } else {
            self.slots.push(p);
            (self.slots.len() - 1) as PacketId
        }
    }

    /// Frees a packet's slot.
    pub fn remove(&mut self, id: PacketId) -> Packet {
        let p = self.slots[id as usize];
        self.live[p.lane.kind()] -= 1;
        self.free.push(id);
        p
    }

    /// How many data packets (`ack` false) or ACKs are stored.
    pub fn live(&self, ack: bool) -> u32 {
        self.live[usize::from(ack)]
    }
}

impl core::ops::Index<PacketId> for PacketPool {
    type Output = Packet;
    fn index(&self, id: PacketId) -> &Packet {
        &self.slots[id as usize]
    }
}

impl core::ops::IndexMut<PacketId> for PacketPool {
    fn index_mut(&mut self, id: PacketId) -> &mut Packet {
        &mut self.slots[id as usize]
    }
}

/// InfiniBand's flow-control unit: buffers and credits are counted in 64-byte blocks (docs/model.md §3).
pub const CREDIT_BLOCK_BYTES: u32 = 64;

/// Credit blocks a packet of `bytes` bytes occupies.
pub fn blocks(bytes: u32) -> u32 {
    bytes.div_ceil(CREDIT_BLOCK_BYTES)
}

#[cfg(test)]
mod tests {
    #[test]
    fn table_i_packet_is_33_blocks() {
        assert_eq!(super::blocks(2068), 33);
        assert_eq!(super::blocks(20), 1);
        assert_eq!(super::blocks(64), 1);
        assert_eq!(super::blocks(65), 2);
    }
}
