//! Collectives as MPICH runs them for short messages, written out as each rank's sends and receives (MPICH 3.x/4.x
//! `coll/barrier/barrier_intra_dissemination.c` and `coll/allreduce/allreduce_intra_recursive_doubling.c`). `ranks`
//! lists the communicator's processes in rank order; each function appends to those processes' programs.

use super::program::Op;

/// `MPI_Sendrecv`: a receive and a send posted together, then waited for.
fn sendrecv(program: &mut alloc::vec::Vec<Op>, to: u32, from: u32, bytes: u32) {
    program.extend([Op::Recv { from }, Op::Send { to, bytes }, Op::Wait]);
}

/// A blocking send, or a blocking receive.
fn send(program: &mut alloc::vec::Vec<Op>, to: u32, bytes: u32) {
    program.extend([Op::Send { to, bytes }, Op::Wait]);
}

fn recv(program: &mut alloc::vec::Vec<Op>, from: u32) {
    program.extend([Op::Recv { from }, Op::Wait]);
}

/// A dissemination barrier: in round k each rank sends an empty message to rank + 2^k and receives one from
/// rank - 2^k (mod the size), `ceil(log2 n)` rounds.
pub fn barrier(programs: &mut [alloc::vec::Vec<Op>], ranks: &[u32]) {
    let n = ranks.len();
    for (r, &me) in ranks.iter().enumerate() {
        let mut mask = 1;
        while mask < n {
            let (to, from) = (ranks[(r + mask) % n], ranks[(r + n - mask) % n]);
            sendrecv(&mut programs[me as usize], to, from, 0);
            mask <<= 1;
        }
    }
}

/// An allreduce of `bytes` by recursive doubling: with `pof2` the largest power of two at most n and `rem = n -
/// pof2`, the first `2 rem` ranks pair up (even sends to odd, which takes part for both); then `log2 pof2` rounds
/// of exchanges with the rank whose new rank differs in one bit; then each odd rank of the first `2 rem` sends the
/// result back to its even partner.
pub fn allreduce(programs: &mut [alloc::vec::Vec<Op>], ranks: &[u32], bytes: u32) {
    let n = ranks.len();
    if n < 2 {
        return;
    }
    let pof2 = 1usize << (usize::BITS - 1 - n.leading_zeros());
    let rem = n - pof2;
    for (r, &me) in ranks.iter().enumerate() {
        let program = &mut programs[me as usize];
        let new_rank = if r < 2 * rem {
            if r % 2 == 0 {
                send(program, ranks[r + 1], bytes);
                None
            } else {
                recv(program, ranks[r - 1]);
                Some(r / 2)
            }
        } else {
            Some(r - rem)
        };
        if let Some(new_rank) = new_rank {
            let mut mask = 1;
            while mask < pof2 {
                let new_dst = new_rank ^ mask;
                let dst = if new_dst < rem { new_dst * 2 + 1 } else { new_dst + rem };
                sendrecv(program, ranks[dst], ranks[dst], bytes);
                mask <<= 1;
            }
        }
        if r < 2 * rem {
            if r % 2 == 1 {
                send(program, ranks[r - 1], bytes);
            } else {
                recv(program, ranks[r + 1]);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;
    use alloc::vec::Vec;

    /// Messages as `(from, to)`, sorted.
    type Messages = Vec<(u32, u32)>;

    /// Every message some rank sends, and every one some rank receives.
    fn messages(programs: &[Vec<Op>]) -> (Messages, Messages) {
        let (mut sent, mut received) = (Vec::new(), Vec::new());
        for (p, program) in programs.iter().enumerate() {
            for op in program {
                match *op {
                    Op::Send { to, .. } => sent.push((p as u32, to)),
                    Op::Recv { from } => received.push((from, p as u32)),
                    _ => {}
                }
            }
        }
        sent.sort_unstable();
        received.sort_unstable();
        (sent, received)
    }

    #[test]
    fn every_send_has_its_receive_at_every_size() {
        for n in 1..=13u32 {
            let ranks: Vec<u32> = (0..n).rev().map(|r| r + 2).collect();
            let mut programs = vec![Vec::new(); n as usize + 2];
            barrier(&mut programs, &ranks);
            allreduce(&mut programs, &ranks, 8);
            let (sent, received) = messages(&programs);
            assert_eq!(sent, received, "n = {n}");
        }
    }

    #[test]
    fn the_barrier_takes_ceil_log2_rounds_and_allreduce_folds_the_extra_ranks() {
        let mut programs = vec![Vec::new(); 6];
        barrier(&mut programs, &[0, 1, 2, 3, 4, 5]);
        assert!(programs.iter().all(|p| p.len() == 3 * 3), "3 rounds of receive, send, wait");
        let mut programs = vec![Vec::new(); 6];
        allreduce(&mut programs, &[0, 1, 2, 3, 4, 5], 8);
        // pof2 4, rem 2: rank 0 sends to 1 and waits for the answer; rank 1 takes part in 2 rounds.
        assert_eq!(programs[0], [Op::Send { to: 1, bytes: 8 }, Op::Wait, Op::Recv { from: 1 }, Op::Wait]);
        // Rank 1 receives 0's part, exchanges in 2 rounds, and sends the result back to 0.
        assert_eq!(programs[1].iter().filter(|o| matches!(o, Op::Send { .. })).count(), 2 + 1);
        assert_eq!(programs[5].iter().filter(|o| matches!(o, Op::Send { .. })).count(), 2);
    }
}
