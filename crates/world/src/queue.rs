//! The event queue: an indexed 4-ary min-heap holding at most one entry per mover, keyed by
//! (time, mover index). A new prediction replaces the mover's entry in place, so the queue
//! never holds stale entries and stays the size of the number of movers (the "event tree" of
//! D. C. Rapaport, J. Comput. Phys. 34, 1980, as a heap). Ties are broken by the mover index,
//! so the order does not depend on the order of insertions.
//!
//! Keys are stored inline with the mover index (16 bytes an entry), four children to a node:
//! a node's children share one 64-byte cache line and the tree is half as deep as a binary
//! heap's (the d-ary heap of D. B. Johnson, "Priority queues with update and finding minimum
//! spanning trees", Inf. Process. Lett. 4, 1975; LaMarca and Ladner, J. Algorithms 31, 1999,
//! for the cache argument). Most updates push the root's key later (the event just handled
//! predicts its next one), a sift-down.

use collide_core::Real;

const NONE: u32 = u32::MAX;
const ARITY: usize = 4;

/// A queue entry: the key `(time, mover)` packed in one integer that orders like the pair
/// (the time's bits mapped to an unsigned integer that orders like the float, IEEE 754
/// total order, then the mover index), so that one integer comparison orders two entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry(u128);

impl Entry {
    #[inline]
    fn new(time: Real, m: u32) -> Entry {
        let b = time.to_bits();
        // Negative floats reverse their order: flip all bits; positive: set the sign bit.
        let ord = if b >> 63 == 1 { !b } else { b | 1 << 63 };
        Entry(u128::from(ord) << 32 | u128::from(m))
    }

    #[inline]
    fn m(self) -> u32 {
        self.0 as u32
    }

    #[inline]
    fn time(self) -> Real {
        let ord = (self.0 >> 32) as u64;
        let b = if ord >> 63 == 1 {
            ord & !(1 << 63)
        } else {
            !ord
        };
        Real::from_bits(b)
    }

    #[inline]
    fn before(&self, o: &Entry) -> bool {
        self.0 < o.0
    }
}

#[derive(Clone, Debug, Default)]
pub(crate) struct EventQueue {
    /// The heap of (time, mover).
    heap: Vec<Entry>,
    /// Position of each mover in `heap`, or `NONE`.
    pos: Vec<u32>,
}

impl EventQueue {
    /// Bytes per mover: its heap entry and its position in the heap.
    pub(crate) const BYTES_PER_MOVER: usize =
        std::mem::size_of::<Entry>() + std::mem::size_of::<u32>();

    /// Empties the queue for `n` movers.
    pub(crate) fn reset(&mut self, n: usize) {
        self.heap.clear();
        self.heap.reserve(n);
        self.pos.clear();
        self.pos.resize(n, NONE);
    }

    fn sift_up(&mut self, mut i: usize) {
        let e = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / ARITY;
            let p = self.heap[parent];
            if !e.before(&p) {
                break;
            }
            self.heap[i] = p;
            self.pos[p.m() as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = e;
        self.pos[e.m() as usize] = i as u32;
    }

    /// Index of the least of the children `first..first + ARITY` (fewer at the end of the
    /// heap), and that child.
    #[inline]
    fn least_child(&self, first: usize) -> (usize, Entry) {
        if let Some(k) = self
            .heap
            .get(first..first + ARITY)
            .and_then(|k| <&[Entry; ARITY]>::try_from(k).ok())
        {
            // All four children: a tournament on indices (the winner is loaded once).
            let a = usize::from(k[1] < k[0]);
            let c = 2 + usize::from(k[3] < k[2]);
            let w = if k[c] < k[a] { c } else { a };
            (first + w, k[w])
        } else {
            let mut ci = first;
            for j in first + 1..self.heap.len() {
                if self.heap[j] < self.heap[ci] {
                    ci = j;
                }
            }
            (ci, self.heap[ci])
        }
    }

    /// Moves the entry at `i`, made later, down to its place. Bottom-up (I. Wegener,
    /// "Bottom-up-heapsort", Theor. Comput. Sci. 118, 1993): the hole goes down along the
    /// least children to a leaf without comparing with the entry, which then rises to its
    /// place; a later key nearly always belongs near the leaves (three quarters of a 4-ary
    /// heap's nodes are leaves), so this saves one comparison a level.
    fn sift_down(&mut self, i: usize) {
        let e = self.heap[i];
        let n = self.heap.len();
        let start = i;
        let mut i = i;
        loop {
            let first = ARITY * i + 1;
            if first >= n {
                break;
            }
            let (ci, child) = self.least_child(first);
            self.heap[i] = child;
            self.pos[child.m() as usize] = i as u32;
            i = ci;
        }
        while i > start {
            let parent = (i - 1) / ARITY;
            let p = self.heap[parent];
            if !e.before(&p) {
                break;
            }
            self.heap[i] = p;
            self.pos[p.m() as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = e;
        self.pos[e.m() as usize] = i as u32;
    }

    /// Sets mover `m`'s event time (inserting it if absent).
    pub(crate) fn set(&mut self, m: usize, t: Real) {
        let p = self.pos[m];
        let e = Entry::new(t, m as u32);
        if p == NONE {
            self.heap.push(e);
            let i = self.heap.len() - 1;
            self.pos[m] = i as u32;
            self.sift_up(i);
        } else {
            let p = p as usize;
            let old = self.heap[p];
            self.heap[p] = e;
            if e.before(&old) {
                self.sift_up(p);
            } else {
                self.sift_down(p);
            }
        }
    }

    /// Takes mover `m` out of the queue (no-op if absent).
    pub(crate) fn remove(&mut self, m: usize) {
        let p = self.pos[m];
        if p == NONE {
            return;
        }
        self.pos[m] = NONE;
        let Some(last) = self.heap.pop() else {
            return;
        };
        let p = p as usize;
        if p < self.heap.len() {
            let old = self.heap[p];
            self.heap[p] = last;
            self.pos[last.m() as usize] = p as u32;
            if last.before(&old) {
                self.sift_up(p);
            } else {
                self.sift_down(p);
            }
        }
    }

    /// Mover `from`, the last one, becomes mover `to` (`to < from`, not in the queue: a
    /// removed mover's place), keeping its time; the queue then holds `from` movers.
    pub(crate) fn rename_last(&mut self, from: usize, to: usize) {
        debug_assert!(from + 1 == self.pos.len() && to < from && self.pos[to] == NONE);
        let p = self.pos[from];
        self.pos[from] = NONE;
        if p != NONE {
            let p = p as usize;
            // The same time with a lower index: earlier, so it can only rise.
            self.heap[p] = Entry::new(self.heap[p].time(), to as u32);
            self.pos[to] = p as u32;
            self.sift_up(p);
        }
        self.pos.pop();
    }

    /// Makes room for one more mover (not in the queue).
    pub(crate) fn push_mover(&mut self) {
        self.pos.push(NONE);
    }

    /// Forgets the last mover (not in the queue: a removed mover).
    pub(crate) fn pop_last(&mut self) {
        debug_assert!(self.pos.last() == Some(&NONE));
        self.pos.pop();
    }

    /// The earliest mover and its time.
    pub(crate) fn peek(&self) -> Option<(usize, Real)> {
        self.heap.first().map(|e| (e.m() as usize, e.time()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_in_time_then_index_order_with_updates_and_removals() {
        let mut q = EventQueue::default();
        q.reset(8);
        let times = [5.0, 1.0, 3.0, 1.0, 9.0, 2.0, 7.0, 4.0];
        for (m, t) in times.iter().enumerate() {
            q.set(m, *t);
        }
        q.set(4, 0.5); // earlier
        q.set(1, 8.0); // later
        q.remove(6);
        let mut out = Vec::new();
        while let Some((m, t)) = q.peek() {
            out.push((m, t));
            q.remove(m);
        }
        // Sorted by time, ties by index: 4@0.5, 3@1, 5@2, 2@3, 7@4, 0@5, 1@8.
        assert_eq!(
            out,
            vec![
                (4, 0.5),
                (3, 1.0),
                (5, 2.0),
                (2, 3.0),
                (7, 4.0),
                (0, 5.0),
                (1, 8.0)
            ]
        );
    }

    #[test]
    fn matches_a_sorted_model_over_random_updates() {
        // xorshift64* stream; the model is a plain (time, index) list sorted at every pop.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut rnd = move || {
            x ^= x >> 12;
            x ^= x << 25;
            x ^= x >> 27;
            x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40
        };
        let n = 300;
        let mut q = EventQueue::default();
        q.reset(n);
        let mut model: Vec<Option<Real>> = vec![None; n];
        for _ in 0..20_000 {
            let m = (rnd() % n as u64) as usize;
            match rnd() % 4 {
                0 => {
                    q.remove(m);
                    model[m] = None;
                }
                1 => {
                    let want = model
                        .iter()
                        .enumerate()
                        .filter_map(|(i, t)| t.map(|t| (i, t)))
                        .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
                    assert_eq!(q.peek(), want);
                    if let Some((i, _)) = want {
                        q.remove(i);
                        model[i] = None;
                    }
                }
                _ => {
                    // Coarse times so that ties happen.
                    let t = (rnd() % 64) as Real;
                    q.set(m, t);
                    model[m] = Some(t);
                }
            }
        }
    }
}
