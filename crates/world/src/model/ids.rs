//! Generational ids: stable across removals; a stale id yields `None`, never a wrong entity.
//!
//! An id never repeats within a world's life: a slot is reused with its generation bumped, and
//! a slot whose generation has reached `u32::MAX` is retired when that id is removed (never
//! reused, so the generation never wraps back to an id already issued). A retired slot costs
//! 8 bytes after 2³² uses of it; the slot indices themselves (`u32`) would run out only after
//! 2³² slots, more than [`crate::model::limits::MAX_BALLS`] live bodies can use in 2³² reuses each.

use std::fmt;

macro_rules! id_type {
    ($name:ident, $what:literal) => {
        #[doc = concat!("Stable id of a ", $what, ": a slot index and a generation. Ids of removed ")]
        #[doc = concat!($what, "s are never reused for another ", $what, " (the generation differs).")]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub struct $name {
            index: u32,
            generation: u32,
        }

        impl $name {
            /// The slot index (reused after removal, with a new generation).
            #[must_use]
            pub const fn index(self) -> u32 {
                self.index
            }

            /// The generation of the slot when this id was issued.
            #[must_use]
            pub const fn generation(self) -> u32 {
                self.generation
            }

            /// The id as one `u64`: `generation << 32 | index` (stable across builds; used in
            /// JSON output and replays).
            #[must_use]
            pub const fn to_bits(self) -> u64 {
                (self.generation as u64) << 32 | self.index as u64
            }

            /// The inverse of [`Self::to_bits`].
            #[must_use]
            pub const fn from_bits(bits: u64) -> Self {
                Self { index: bits as u32, generation: (bits >> 32) as u32 }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}v{}", self.index, self.generation)
            }
        }
    };
}

id_type!(BallId, "ball");
id_type!(RectId, "rectangle");
id_type!(ShapeId, "static shape");
id_type!(FlipperId, "flipper");
id_type!(CharacterId, "character");

/// A slot map from ids to dense indices. Removal order and free-list reuse are deterministic.
#[derive(Clone, Debug, Default, PartialEq)]
pub(crate) struct Slots {
    /// Per slot: current generation and dense index (`u32::MAX` when free).
    entries: Vec<(u32, u32)>,
    /// Free slot indices, reused last-in first-out.
    free: Vec<u32>,
}

pub(crate) trait SlotId: Copy {
    fn make(index: u32, generation: u32) -> Self;
    fn parts(self) -> (u32, u32);
}

impl SlotId for BallId {
    fn make(index: u32, generation: u32) -> Self {
        BallId { index, generation }
    }
    fn parts(self) -> (u32, u32) {
        (self.index, self.generation)
    }
}

impl SlotId for RectId {
    fn make(index: u32, generation: u32) -> Self {
        RectId { index, generation }
    }
    fn parts(self) -> (u32, u32) {
        (self.index, self.generation)
    }
}

impl SlotId for ShapeId {
    fn make(index: u32, generation: u32) -> Self {
        ShapeId { index, generation }
    }
    fn parts(self) -> (u32, u32) {
        (self.index, self.generation)
    }
}

impl SlotId for FlipperId {
    fn make(index: u32, generation: u32) -> Self {
        FlipperId { index, generation }
    }
    fn parts(self) -> (u32, u32) {
        (self.index, self.generation)
    }
}

impl SlotId for CharacterId {
    fn make(index: u32, generation: u32) -> Self {
        CharacterId { index, generation }
    }
    fn parts(self) -> (u32, u32) {
        (self.index, self.generation)
    }
}

impl Slots {
    /// The slots as (generation, dense index or `u32::MAX` when free) and the free list, for
    /// a snapshot.
    pub(crate) fn parts(&self) -> (&[(u32, u32)], &[u32]) {
        (&self.entries, &self.free)
    }

    /// Slots from [`Slots::parts`] for `live` bodies whose ids are `ids` (in dense order), or
    /// what is inconsistent: every id's slot must point at its dense index with its
    /// generation, every other slot must be free, and the free list must hold each free,
    /// not retired slot once.
    pub(crate) fn from_parts(
        entries: Vec<(u32, u32)>,
        free: Vec<u32>,
        ids: impl Iterator<Item = (u32, u32)>,
    ) -> Result<Slots, &'static str> {
        let mut seen = vec![false; entries.len()];
        let mut live = 0usize;
        for (dense, (index, generation)) in ids.enumerate() {
            let e = entries
                .get(index as usize)
                .ok_or("an id's slot does not exist")?;
            if *e != (generation, dense as u32) || seen[index as usize] {
                return Err("an id does not match its slot");
            }
            seen[index as usize] = true;
            live += 1;
        }
        if entries.iter().filter(|e| e.1 != u32::MAX).count() != live {
            return Err("a slot points at a body that does not exist");
        }
        let mut in_free = vec![false; entries.len()];
        for &f in &free {
            let e = entries
                .get(f as usize)
                .ok_or("a free slot does not exist")?;
            if e.1 != u32::MAX || in_free[f as usize] {
                return Err("the free list is not a list of free slots");
            }
            in_free[f as usize] = true;
        }
        // A free slot off the free list is retired: at its last generation.
        if entries
            .iter()
            .zip(&in_free)
            .any(|(e, &listed)| e.1 == u32::MAX && !listed && e.0 != u32::MAX)
        {
            return Err("a free slot is missing from the free list");
        }
        Ok(Slots { entries, free })
    }

    /// Allocates an id pointing at dense index `dense`.
    pub(crate) fn insert<I: SlotId>(&mut self, dense: u32) -> I {
        if let Some(index) = self.free.pop() {
            let e = &mut self.entries[index as usize];
            e.1 = dense;
            I::make(index, e.0)
        } else {
            self.entries.push((0, dense));
            I::make(self.entries.len() as u32 - 1, 0)
        }
    }

    /// The dense index of `id`, or `None` when stale.
    pub(crate) fn get<I: SlotId>(&self, id: I) -> Option<usize> {
        let (index, generation) = id.parts();
        let &(g, dense) = self.entries.get(index as usize)?;
        (g == generation && dense != u32::MAX).then_some(dense as usize)
    }

    /// Points `id` at a new dense index (after a swap-remove moved it).
    pub(crate) fn relocate<I: SlotId>(&mut self, id: I, dense: u32) {
        self.entries[id.parts().0 as usize].1 = dense;
    }

    /// Frees `id`'s slot; its generation is bumped so the id goes stale. A slot at the last
    /// generation (`u32::MAX`) is retired instead: never reused, so no id repeats.
    pub(crate) fn remove<I: SlotId>(&mut self, id: I) {
        let index = id.parts().0;
        let e = &mut self.entries[index as usize];
        e.1 = u32::MAX;
        if let Some(next) = e.0.checked_add(1) {
            e.0 = next;
            self.free.push(index);
        }
        // else: the slot keeps its last generation and a dense index of `u32::MAX`: `get`
        // finds nothing there, and `insert` never takes it again.
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_is_retired_at_its_last_generation_instead_of_wrapping() {
        let mut slots = Slots::default();
        let first: BallId = slots.insert(0);
        assert_eq!((first.index(), first.generation()), (0, 0));
        // Fast-forward slot 0 to its last two generations (2^32 - 2 reuses).
        slots.remove(first);
        slots.entries[0].0 = u32::MAX - 1;
        let a: BallId = slots.insert(0);
        assert_eq!((a.index(), a.generation()), (0, u32::MAX - 1));
        slots.remove(a);
        let b: BallId = slots.insert(0);
        assert_eq!((b.index(), b.generation()), (0, u32::MAX));
        slots.remove(b);
        // Slot 0 is retired: the next id takes a new slot, and no earlier id comes back.
        let c: BallId = slots.insert(0);
        assert_eq!((c.index(), c.generation()), (1, 0));
        for old in [first, a, b] {
            assert_eq!(slots.get(old), None);
        }
        assert_eq!(slots.get(c), Some(0));
        for _ in 0..10 {
            let d: BallId = slots.insert(0);
            assert_ne!(d.index(), 0);
            slots.remove(d);
        }
    }
}
