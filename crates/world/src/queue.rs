//! The event queue: an indexed binary min-heap holding at most one entry per mover, keyed by
//! (time, mover index). A new prediction replaces the mover's entry in place, so the queue
//! never holds stale entries and stays the size of the number of movers (the "event tree" of
//! D. C. Rapaport, J. Comput. Phys. 34, 1980, as a heap). Ties are broken by the mover index,
//! so the order does not depend on the order of insertions.

use collide_core::Real;

const NONE: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
pub(crate) struct EventQueue {
    /// Heap of movers.
    heap: Vec<u32>,
    /// Position of each mover in `heap`, or `NONE`.
    pos: Vec<u32>,
    /// Key (event time) of each mover.
    time: Vec<Real>,
}

impl EventQueue {
    /// Empties the queue for `n` movers.
    pub(crate) fn reset(&mut self, n: usize) {
        self.heap.clear();
        self.pos.clear();
        self.pos.resize(n, NONE);
        self.time.clear();
        self.time.resize(n, Real::INFINITY);
    }

    #[inline]
    fn less(&self, a: u32, b: u32) -> bool {
        let (ta, tb) = (self.time[a as usize], self.time[b as usize]);
        ta < tb || (ta == tb && a < b)
    }

    fn sift_up(&mut self, mut i: usize) {
        let m = self.heap[i];
        while i > 0 {
            let parent = (i - 1) / 2;
            let p = self.heap[parent];
            if !self.less(m, p) {
                break;
            }
            self.heap[i] = p;
            self.pos[p as usize] = i as u32;
            i = parent;
        }
        self.heap[i] = m;
        self.pos[m as usize] = i as u32;
    }

    fn sift_down(&mut self, mut i: usize) {
        let m = self.heap[i];
        let n = self.heap.len();
        loop {
            let l = 2 * i + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            let c = if r < n && self.less(self.heap[r], self.heap[l]) {
                r
            } else {
                l
            };
            let child = self.heap[c];
            if !self.less(child, m) {
                break;
            }
            self.heap[i] = child;
            self.pos[child as usize] = i as u32;
            i = c;
        }
        self.heap[i] = m;
        self.pos[m as usize] = i as u32;
    }

    /// Sets mover `m`'s event time (inserting it if absent).
    pub(crate) fn set(&mut self, m: usize, t: Real) {
        let old = self.time[m];
        self.time[m] = t;
        let p = self.pos[m];
        if p == NONE {
            self.heap.push(m as u32);
            let i = self.heap.len() - 1;
            self.pos[m] = i as u32;
            self.sift_up(i);
        } else if t < old || (t == old) {
            self.sift_up(p as usize);
            let p = self.pos[m] as usize;
            self.sift_down(p);
        } else {
            self.sift_down(p as usize);
        }
    }

    /// Takes mover `m` out of the queue (no-op if absent).
    pub(crate) fn remove(&mut self, m: usize) {
        let p = self.pos[m];
        if p == NONE {
            return;
        }
        self.pos[m] = NONE;
        self.time[m] = Real::INFINITY;
        let last = self.heap.pop().unwrap_or(NONE);
        let p = p as usize;
        if p < self.heap.len() {
            self.heap[p] = last;
            self.pos[last as usize] = p as u32;
            self.sift_up(p);
            let q = self.pos[last as usize] as usize;
            self.sift_down(q);
        }
    }

    /// The earliest mover and its time.
    pub(crate) fn peek(&self) -> Option<(usize, Real)> {
        self.heap
            .first()
            .map(|&m| (m as usize, self.time[m as usize]))
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
}
