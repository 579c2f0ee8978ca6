//! The event queue: at most one entry per mover, keyed by (time, order key, mover index),
//! and the entries come out in key order. A new prediction replaces the mover's entry in
//! place, so the queue never holds stale entries. Ties in time are broken by the order key
//! the caller gives (the step gives each body's stable id), then the mover index, so the
//! order does not depend on the order of insertions.
//!
//! Two tiers. Only the entries due by the queue's `limit` (the end of the current step) are
//! ordered; later ones wait unordered, each in its mover's slot, and join the ordered tier
//! when the limit passes them (`set_limit`, one sequential pass over the slots a step).
//! Predictions reach up to 128 steps ahead, so at low speeds most movers are not due in the
//! current step (three quarters of them at 10 000 balls and 60 units/s), and an event whose
//! next prediction lies beyond the step leaves the queue's ordered part for good.
//!
//! The ordered tier is a calendar queue (R. Brown, "Calendar queues: a fast O(1) priority
//! queue implementation for the simulation event set problem", Commun. ACM 31, 1988; for
//! event-driven hard-sphere dynamics, G. Paul, "A complexity O(1) priority queue for event
//! driven molecular dynamics simulations", J. Comput. Phys. 221, 2007): the step's interval
//! split into buckets of equal length, each a doubly linked list of its entries, unordered.
//! There are about as many buckets as the step will put entries into them, so that a bucket
//! near the cursor holds about one: the last step's count, or the entries due at the step's
//! start if more, as a power of two, at most four per mover (allocated when the queue is
//! reset, never by a step). The earliest entry is
//! the least key of the first non-empty bucket from a cursor, which only moves forward while
//! events move forward in time. The bucket of a time is a monotone function of it (a
//! subtraction and a multiplication, both rounded monotonically), so every key of an earlier
//! bucket is less than every key of a later one, and the entries come out in exactly the
//! order of a heap's (the order the tests check against a sorted model). An entry set
//! earlier than the cursor's bucket (never done by the step, whose new events are never
//! earlier than the current one) moves the cursor back.
//!
//! It replaced an indexed 4-ary heap of all the movers (D. C. Rapaport's "event tree",
//! J. Comput. Phys. 34, 1980, as a d-ary heap): about a quarter of the step's instructions
//! at 10 000 balls and 60 units/s went into that heap's sift-downs (docs/performance.md).

use collide_core::Real;

/// In `pos`, `next`, `prev`, `head`: no entry, no mover.
const NONE: u32 = u32::MAX;
/// In `pos`: the mover's entry waits in the far tier (not due by the limit).
const FAR: u32 = u32::MAX - 1;
/// The key of a mover out of the queue: greater than every key.
const OUT: Entry = Entry(u128::MAX);
/// Most buckets of a step, per mover.
const BUCKETS_PER_MOVER: usize = 4;
/// Fewest buckets of a step.
const MIN_BUCKETS: usize = 16;

/// A queue entry: the key `(time, order key, mover)` packed in one integer that orders like
/// the triple (the time's bits mapped to an unsigned integer that orders like the float, IEEE
/// 754 total order, then the caller's order key, then the mover index), so that one integer
/// comparison orders two entries. The step's order key is the body's stable id (its slot),
/// so ties do not depend on where a body happens to be stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry(u128);

impl Entry {
    #[inline]
    fn new(time: Real, key: u32, m: u32) -> Entry {
        let b = time.to_bits();
        // Negative floats reverse their order: flip all bits; positive: set the sign bit.
        let ord = if b >> 63 == 1 { !b } else { b | 1 << 63 };
        Entry(u128::from(ord) << 64 | u128::from(key) << 32 | u128::from(m))
    }

    /// The order key it was made with.
    #[inline]
    fn key(self) -> u32 {
        (self.0 >> 32) as u32
    }

    #[inline]
    fn time(self) -> Real {
        let ord = (self.0 >> 64) as u64;
        let b = if ord >> 63 == 1 {
            ord & !(1 << 63)
        } else {
            !ord
        };
        Real::from_bits(b)
    }
}

/// A mover's place in the queue.
#[derive(Clone, Copy, Debug)]
struct Node {
    /// Its key; `OUT` while it is not queued.
    key: Entry,
    /// The next and previous mover in its bucket's list.
    next: u32,
    prev: u32,
    /// Its bucket, `FAR` or `NONE`.
    pos: u32,
}

impl Node {
    const OUT: Node = Node {
        key: OUT,
        next: NONE,
        prev: NONE,
        pos: NONE,
    };
}

#[derive(Clone, Debug, Default)]
pub(crate) struct EventQueue {
    /// Each mover's queue node: its key, bucket and list links, in one half cache line (an
    /// event reads and writes them together).
    node: Vec<Node>,
    /// Each bucket's first mover (`NONE`: empty); `n_buckets` of them in use this step.
    head: Vec<u32>,
    n_buckets: usize,
    /// Entries put into buckets since the last `set_limit` (sizes the next step's buckets).
    links: usize,
    /// The first bucket that may hold an entry.
    cursor: usize,
    /// Due entries (in buckets).
    due: usize,
    /// The movers that `set_limit` finds due, first in a slot per mover.
    due_list: Vec<u32>,
    /// Entries later than this are in the far tier.
    limit: Real,
    /// The start of bucket 0 and buckets per unit of time.
    origin: Real,
    per_time: Real,
}

impl EventQueue {
    /// Bytes per mover: its key, its bucket, its two list links, its share of the bucket
    /// heads (`BUCKETS_PER_MOVER`) and of the list of due movers.
    pub(crate) const BYTES_PER_MOVER: usize =
        std::mem::size_of::<Entry>() + (3 + BUCKETS_PER_MOVER + 1) * std::mem::size_of::<u32>();

    /// Empties the queue for `n` movers (the limit stays; until the next `set_limit`, every
    /// due entry shares the first bucket).
    pub(crate) fn reset(&mut self, n: usize) {
        self.node.clear();
        self.node.resize(n, Node::OUT);
        self.due_list.clear();
        self.due_list.resize(n, 0);
        self.head.clear();
        // At most four buckets a mover, a power of two: never grown by a step (a
        // steady-state step does not allocate).
        self.head.resize(
            BUCKETS_PER_MOVER * n.max(MIN_BUCKETS).next_power_of_two(),
            NONE,
        );
        self.n_buckets = MIN_BUCKETS;
        self.cursor = 0;
        self.due = 0;
        self.origin = self.limit;
        self.per_time = 0.0;
    }

    /// The bucket of `time`: non-decreasing in `time`.
    #[inline]
    fn bucket(&self, time: Real) -> usize {
        // `as` saturates: times before the origin (and NaN) go to bucket 0.
        let b = ((time - self.origin) * self.per_time) as usize;
        b.min(self.n_buckets - 1)
    }

    /// Puts mover `m` (not in a bucket, its key at time `t`) into that time's bucket.
    #[inline]
    fn link(&mut self, m: usize, t: Real) {
        let b = self.bucket(t);
        let h = self.head[b];
        self.node[m].next = h;
        self.node[m].prev = NONE;
        if h != NONE {
            self.node[h as usize].prev = m as u32;
        }
        self.head[b] = m as u32;
        self.node[m].pos = b as u32;
        if b < self.cursor {
            self.cursor = b;
        }
        self.due += 1;
        self.links += 1;
    }

    /// Takes mover `m` out of bucket `b`, its bucket.
    #[inline]
    fn unlink(&mut self, m: usize, b: usize) {
        let (nx, pv) = (self.node[m].next, self.node[m].prev);
        if pv == NONE {
            self.head[b] = nx;
        } else {
            self.node[pv as usize].next = nx;
        }
        if nx != NONE {
            self.node[nx as usize].prev = pv;
        }
        self.due -= 1;
    }

    /// Entries at times up to `limit` come out of [`EventQueue::peek`] from now on: the
    /// buckets are laid anew over the time from `from` (the step's start) to `limit` (its
    /// end), sized as the module says, and every entry at most `limit` (the far ones it
    /// passes, the due ones still waiting) goes into its bucket. Entries before `from` share
    /// the first bucket.
    pub(crate) fn set_limit(&mut self, from: Real, limit: Real) {
        if self.due > 0 {
            // Entries still in buckets (queued against the last limit, or left when a step
            // stopped early): all wait as far ones, then come back by the rule below.
            for q in &mut self.node {
                if q.pos != NONE {
                    q.pos = FAR;
                }
            }
            self.due = 0;
        }
        self.limit = limit;
        // The far entries due by the new limit: one pass over the keys (a mover out of the
        // queue has the greatest key, never due).
        let last = Entry::new(limit, u32::MAX, u32::MAX);
        // Without a branch per mover (a quarter of them due, at random: a branch would be
        // mispredicted about every third time): every index is written, the count advances
        // only for the due ones. The list has a slot per mover, so no write is out of bounds.
        if self.due_list.len() != self.node.len() {
            // Only after movers were added or removed (`reset` sizes it).
            self.due_list.resize(self.node.len(), 0);
        }
        let mut due = 0;
        for (m, q) in self.node.iter().enumerate() {
            self.due_list[due] = m as u32;
            due += usize::from(q.key <= last);
        }
        // About one entry per bucket where events happen: as many buckets as the entries the
        // last step put into buckets (every event puts its mover back unless its next event
        // is after the step), at least as many as due now, within the buckets allocated.
        self.n_buckets = due
            .max(self.links)
            .max(MIN_BUCKETS)
            .next_power_of_two()
            .min(self.head.len().max(MIN_BUCKETS));
        if self.head.len() < self.n_buckets {
            // Only when `reset` was not called for these movers (never in the step).
            self.head.resize(self.n_buckets, NONE);
        }
        self.origin = from;
        let span = limit - from;
        self.per_time = if span > 0.0 {
            self.n_buckets as Real / span
        } else {
            0.0
        };
        // (A bucket beyond `n_buckets` is never read: `head` above it may hold old lists.)
        self.head[..self.n_buckets].fill(NONE);
        self.cursor = 0;
        self.links = 0;
        for i in 0..due {
            let m = self.due_list[i] as usize;
            self.link(m, self.node[m].key.time());
        }
    }

    /// Sets mover `m`'s event time (inserting it if absent), with `key` ordering it among
    /// entries of the same time (then the mover index).
    pub(crate) fn set(&mut self, m: usize, t: Real, key: u32) {
        let p = self.node[m].pos;
        if p != FAR && p != NONE {
            self.unlink(m, p as usize);
        }
        self.node[m].key = Entry::new(t, key, m as u32);
        // Written `>` so that a NaN time (never made) would be due, as in a single heap.
        if t > self.limit {
            self.node[m].pos = FAR;
        } else {
            self.link(m, t);
        }
    }

    /// Takes mover `m` out of the queue (no-op if absent).
    pub(crate) fn remove(&mut self, m: usize) {
        let p = self.node[m].pos;
        if p != FAR && p != NONE {
            self.unlink(m, p as usize);
        }
        self.node[m].pos = NONE;
        self.node[m].key = OUT;
    }

    /// Mover `from`, the last one, becomes mover `to` (`to < from`, not in the queue: a
    /// removed mover's place), keeping its time; the queue then holds `from` movers.
    pub(crate) fn rename_last(&mut self, from: usize, to: usize) {
        debug_assert!(from + 1 == self.node.len() && to < from && self.node[to].pos == NONE);
        if self.node[from].pos != NONE {
            let (t, key) = (self.node[from].key.time(), self.node[from].key.key());
            self.remove(from);
            self.set(to, t, key);
        }
        self.pop_last();
    }

    /// Makes room for one more mover (not in the queue).
    pub(crate) fn push_mover(&mut self) {
        self.node.push(Node::OUT);
        self.due_list.push(0);
    }

    /// Forgets the last mover (not in the queue: a removed mover).
    pub(crate) fn pop_last(&mut self) {
        debug_assert!(self.node.last().is_some_and(|q| q.pos == NONE));
        self.node.pop();
        self.due_list.pop();
    }

    /// The earliest mover due by the limit, and its time.
    #[inline(always)]
    pub(crate) fn peek(&mut self) -> Option<(usize, Real)> {
        if self.due == 0 {
            return None;
        }
        while self.head[self.cursor] == NONE {
            self.cursor += 1;
        }
        let mut m = self.head[self.cursor];
        let mut best = self.node[m as usize].key;
        loop {
            m = self.node[m as usize].next;
            if m == NONE {
                break;
            }
            let k = self.node[m as usize].key;
            if k < best {
                best = k;
            }
        }
        Some(((best.0 as u32) as usize, best.time()))
    }

    /// Starts loading mover `m`'s node (a cache hint: nothing changes; out of range: nothing).
    pub(crate) fn prefetch(&self, m: usize) {
        if let Some(x) = self.node.get(m) {
            mem_prefetch::prefetch_read_data::<_, 3>(x);
        }
    }

    /// A mover likely to come out after the earliest one (`m`, just peeked), for the caller
    /// to start loading its records while it handles `m`: another entry of the earliest
    /// bucket, else the first of the next non-empty bucket among the following few; `None`
    /// when there is none nearby. Only a hint: the order of events never depends on it.
    pub(crate) fn likely_next(&self, m: usize) -> Option<usize> {
        let h = self.head[self.cursor];
        if h != m as u32 {
            return Some(h as usize);
        }
        let n = self.node[m].next;
        if n != NONE {
            return Some(n as usize);
        }
        let end = (self.cursor + 8).min(self.n_buckets);
        self.head[self.cursor + 1..end]
            .iter()
            .find(|&&b| b != NONE)
            .map(|&b| b as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random integers below 2^24 from the crate's xorshift64* generator.
    fn stream(seed: u64) -> impl FnMut() -> u64 {
        let mut r = crate::model::rng::XorShift64Star::new(seed);
        move || r.next_u64() >> 40
    }

    #[test]
    fn pops_in_time_then_index_order_with_updates_and_removals() {
        let mut q = EventQueue::default();
        q.reset(8);
        q.set_limit(0.0, 10.0);
        let times = [5.0, 1.0, 3.0, 1.0, 9.0, 2.0, 7.0, 4.0];
        for (m, t) in times.iter().enumerate() {
            q.set(m, *t, m as u32);
        }
        q.set(4, 0.5, 4); // earlier
        q.set(1, 8.0, 1); // later
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

    /// The queue's order on (mover, time) pairs: time, then mover index.
    fn time_then_index(a: &(usize, Real), b: &(usize, Real)) -> std::cmp::Ordering {
        a.1.total_cmp(&b.1).then(a.0.cmp(&b.0))
    }

    /// The model's least (mover, time) due by `limit` (`None` when nothing is).
    fn earliest(model: &[Option<Real>], limit: Real) -> Option<(usize, Real)> {
        model
            .iter()
            .enumerate()
            .filter_map(|(i, t)| t.filter(|&t| t <= limit).map(|t| (i, t)))
            .min_by(time_then_index)
    }

    #[test]
    fn matches_a_sorted_model_over_random_updates() {
        // xorshift64* stream; the model is a plain (time, index) list sorted at every pop.
        let mut rnd = stream(1);
        let n = 300;
        let mut q = EventQueue::default();
        q.reset(n);
        q.set_limit(0.0, 64.0);
        let mut model: Vec<Option<Real>> = vec![None; n];
        for _ in 0..20_000 {
            let m = (rnd() % n as u64) as usize;
            match rnd() % 4 {
                0 => {
                    q.remove(m);
                    model[m] = None;
                }
                1 => {
                    let want = earliest(&model, Real::INFINITY);
                    assert_eq!(q.peek(), want);
                    if let Some((i, _)) = want {
                        q.remove(i);
                        model[i] = None;
                    }
                }
                _ => {
                    // Coarse times so that ties happen.
                    let t = (rnd() % 64) as Real;
                    q.set(m, t, m as u32);
                    model[m] = Some(t);
                }
            }
        }
    }

    #[test]
    fn gives_the_due_entries_in_order_whatever_tier_they_waited_in() {
        // The model: every entry, due when its time is at most the limit; `peek` must give
        // the least due (time, index), and entries set beyond the limit must come out once
        // the limit passes them. The limit rises by random amounts, and once falls; entries
        // are set before the buckets' start, within them (before the cursor too) and after.
        let mut rnd = stream(2);
        let n = 200;
        let mut q = EventQueue::default();
        q.reset(n);
        let mut model: Vec<Option<Real>> = vec![None; n];
        let mut limit: Real = 0.0;
        q.set_limit(limit, limit);
        let mut seen_far = 0;
        for round in 0..30_000 {
            let m = (rnd() % n as u64) as usize;
            match rnd() % 8 {
                0 => {
                    q.remove(m);
                    model[m] = None;
                }
                1 | 2 => {
                    let want = earliest(&model, limit);
                    assert_eq!(q.peek(), want, "round {round}, limit {limit}");
                    if let Some((i, _)) = want {
                        // The hint names another due entry, never the earliest itself.
                        if let Some(h) = q.likely_next(i) {
                            assert_ne!(h, i);
                            assert!(model[h].is_some_and(|t| t <= limit), "round {round}");
                        }
                        q.remove(i);
                        model[i] = None;
                    }
                }
                3 => {
                    let from = limit;
                    limit = if round == 15_000 {
                        limit - 40.0
                    } else {
                        limit + (rnd() % 8) as Real
                    };
                    // Buckets over the last few units, entries before them in the first.
                    q.set_limit(from.min(limit) - (rnd() % 4) as Real, limit);
                }
                _ => {
                    // Coarse times around the limit so that ties and both tiers happen.
                    let t = limit - 8.0 + (rnd() % 64) as Real;
                    if t > limit {
                        seen_far += 1;
                    }
                    q.set(m, t, m as u32);
                    model[m] = Some(t);
                }
            }
        }
        assert!(
            seen_far > 1000,
            "the far tier was exercised {seen_far} times"
        );
        // Everything left comes out, in order, once the limit passes it.
        q.set_limit(limit, Real::INFINITY);
        let mut left: Vec<(usize, Real)> = model
            .iter()
            .enumerate()
            .filter_map(|(i, t)| t.map(|t| (i, t)))
            .collect();
        left.sort_by(time_then_index);
        let mut out = Vec::new();
        while let Some((m, t)) = q.peek() {
            out.push((m, t));
            q.remove(m);
        }
        assert_eq!(out, left);
    }
}
