//! The characters' broad phase during the step ([`Crowd`]): a uniform grid of buckets over
//! the world holding each character's storage index in the buckets its box meets, so that a
//! moving character's box cast tests only the characters near its path instead of every one
//! (Ericson, "Real-Time Collision Detection", §7.1 "Uniform grids").
//!
//! Built at the step's start when there are enough characters for it to pay
//! ([`MIN_CHARACTERS`]; never in the WebAssembly build, to keep its size budget), updated
//! after each character moves, dropped at the step's end (between steps a cast tests every
//! character). It changes which characters are tested, never a result: the cast keeps the
//! earliest contact, and among equal times the one of the lowest storage index, whatever
//! order the buckets give them in.

use crate::body::character::Character;
use collide_core::{Aabb, Real, Vec2};

/// Below this many characters every cast tests every character (no index).
pub(crate) const MIN_CHARACTERS: usize = 32;
/// At most this many buckets on a side.
const MAX_SIDE: usize = 256;

/// The bucket grid (module docs); empty (`cols == 0`) when not in use.
#[derive(Clone, Debug, Default)]
pub(crate) struct Crowd {
    /// Bucket side, world units.
    cell: Real,
    cols: usize,
    rows: usize,
    /// Each bucket's characters (storage indices), row-major.
    buckets: Vec<Vec<u32>>,
    /// Each character's bucket range (`col0, row0, col1, row1`, inclusive), by storage index.
    spans: Vec<[u32; 4]>,
}

impl Crowd {
    /// Whether the index is in use: never in the WebAssembly build, whose main module's size
    /// is budgeted (docs/js.md), and where every cast tests every character (the same
    /// results).
    pub(crate) fn active(&self) -> bool {
        !cfg!(target_arch = "wasm32") && self.cols > 0
    }

    /// Indexes `characters` in a world of `size` (world units), or clears the index when
    /// there are fewer than [`MIN_CHARACTERS`]. The bucket side is twice the largest box
    /// side (at least 1 unit), grown until at most [`MAX_SIDE`] buckets fit on a side.
    pub(crate) fn build(&mut self, characters: &[Character], size: Vec2) {
        self.spans.clear();
        for b in &mut self.buckets {
            b.clear();
        }
        if cfg!(target_arch = "wasm32") || characters.len() < MIN_CHARACTERS {
            self.cols = 0;
            self.rows = 0;
            return;
        }
        let largest = characters
            .iter()
            .map(|c| c.desc.half_extents.max_element())
            .fold(0.5, Real::max);
        let mut cell = 4.0 * largest;
        while size.max_element() / cell > MAX_SIDE as Real {
            cell *= 2.0;
        }
        self.cell = cell;
        self.cols = ((size.x / cell).ceil() as usize).clamp(1, MAX_SIDE);
        self.rows = ((size.y / cell).ceil() as usize).clamp(1, MAX_SIDE);
        self.buckets.resize_with(self.cols * self.rows, Vec::new);
        for (i, c) in characters.iter().enumerate() {
            let s = self.span(&c.aabb());
            self.spans.push(s);
            self.insert(i as u32, s);
        }
    }

    /// Drops the index (its buckets' memory kept).
    pub(crate) fn clear(&mut self) {
        for b in &mut self.buckets {
            b.clear();
        }
        self.spans.clear();
        self.cols = 0;
        self.rows = 0;
    }

    /// The inclusive bucket range a box meets, clamped to the grid (a box outside the world
    /// is in its edge buckets).
    fn span(&self, b: &Aabb) -> [u32; 4] {
        let at = |x: Real, n: usize| ((x / self.cell).floor().max(0.0) as usize).min(n - 1) as u32;
        [
            at(b.min.x, self.cols),
            at(b.min.y, self.rows),
            at(b.max.x, self.cols),
            at(b.max.y, self.rows),
        ]
    }

    fn insert(&mut self, i: u32, s: [u32; 4]) {
        for r in s[1]..=s[3] {
            for c in s[0]..=s[2] {
                self.buckets[r as usize * self.cols + c as usize].push(i);
            }
        }
    }

    /// Character `i` (storage index) now has box `b`.
    pub(crate) fn moved(&mut self, i: usize, b: &Aabb) {
        if !self.active() {
            return;
        }
        let s = self.span(b);
        let old = self.spans[i];
        if s == old {
            return;
        }
        for r in old[1]..=old[3] {
            for c in old[0]..=old[2] {
                let bucket = &mut self.buckets[r as usize * self.cols + c as usize];
                if let Some(k) = bucket.iter().position(|&x| x as usize == i) {
                    bucket.swap_remove(k);
                }
            }
        }
        self.spans[i] = s;
        self.insert(i as u32, s);
    }

    /// Calls `f` with the storage index of each character whose buckets meet `reach` (a
    /// character in several of them more than once). Returns `false`, calling nothing, when
    /// the index is not in use or `reach` covers more buckets than there are characters (a
    /// scan of every character is then cheaper).
    pub(crate) fn near(&self, reach: &Aabb, f: &mut dyn FnMut(usize)) -> bool {
        if !self.active() {
            return false;
        }
        let s = self.span(reach);
        let count = (s[2] - s[0] + 1) as usize * (s[3] - s[1] + 1) as usize;
        if count > self.spans.len() {
            return false;
        }
        for r in s[1]..=s[3] {
            for c in s[0]..=s[2] {
                for &i in &self.buckets[r as usize * self.cols + c as usize] {
                    f(i as usize);
                }
            }
        }
        true
    }
}
