//! Overlap tests against the grid's solid cells: a circle, the first solid cell a circle
//! overlaps, the distance to solid cells, and the solid-cell counts that make them fast in
//! the push-out.

use crate::grid::solid_counts::SolidCounts;
use crate::grid::*;
use crate::model::cell::Cell;
use crate::model::cell::CellCoord;
use crate::model::filter::CellKinds;
use collide_core::{circle_overlaps_aabb, Aabb, Real, Vec2};

impl Grid {
    /// Whether the disc (`center`, `radius`) overlaps any solid cell with positive area.
    #[must_use]
    pub fn overlaps_circle(&self, center: Vec2, radius: Real) -> bool {
        self.first_overlap_circle(center, radius, 0.0).is_some()
    }

    /// The counts attached by [`Grid::attach_solid_counts`] when they cover `range` and count
    /// the cells of `kinds`.
    pub(crate) fn counts_for(
        &self,
        range: (usize, usize, usize, usize),
        kinds: CellKinds,
    ) -> Option<&SolidCounts> {
        self.counts
            .as_deref()
            .filter(|c| c.kinds == kinds && c.covers(range))
    }

    /// The first solid cell (row-major) that the disc overlaps by more than `slack` world
    /// units, i.e. whose distance to the centre is below `radius - slack`.
    ///
    /// `O(cells under the disc)`, or, while solid counts cover the disc
    /// (`Grid::attach_solid_counts`), a search of blocks of cells in row-major order that
    /// skips every block with no solid cell or out of the disc's reach: about `O(log cells)`
    /// when the disc holds a solid cell well inside, `O(cells along its rim)` at worst.
    #[must_use]
    pub fn first_overlap_circle(
        &self,
        center: Vec2,
        radius: Real,
        slack: Real,
    ) -> Option<CellCoord> {
        self.first_overlap_circle_kinds(CellKinds::ALL, center, radius, slack)
    }

    /// [`Grid::first_overlap_circle`] with only the cells of `kinds` solid.
    pub(crate) fn first_overlap_circle_kinds(
        &self,
        kinds: CellKinds,
        center: Vec2,
        radius: Real,
        slack: Real,
    ) -> Option<CellCoord> {
        if kinds.is_none() {
            return None;
        }
        let r = radius - slack;
        let range = self.cell_range(&Aabb::new(center - radius, center + radius))?;
        if let Some(counts) = self.counts_for(range, kinds) {
            return self.first_overlap_in(counts, center, r, range);
        }
        let (c0, r0, c1, r1) = range;
        for row in r0..=r1 {
            for col in c0..=c1 {
                if kinds.solid(self.cells[row * self.cols + col])
                    && self.shape_usize(col, row).overlaps_circle(center, r)
                {
                    return Some(CellCoord::new(col as u32, row as u32));
                }
            }
        }
        None
    }

    /// The box of the block of cells `[c0, c1] × [r0, r1]`: from its first cell's `min` to its
    /// last cell's `max` (the same floating-point coordinates as the cells' own boxes).
    pub(crate) fn block_aabb(&self, (c0, r0, c1, r1): (usize, usize, usize, usize)) -> Aabb {
        Aabb::new(
            self.cell_aabb_usize(c0, r0).min,
            self.cell_aabb_usize(c1, r1).max,
        )
    }

    /// Whether the disc overlaps some solid cell by more than `slack` world units: whether
    /// [`Grid::first_overlap_circle`] finds one, without finding the first. While solid counts
    /// cover the disc, blocks of cells are searched nearest the centre first and a block that
    /// holds a solid cell and lies inside the disc answers at once: a disc far larger than
    /// the cells that holds solid cells near its centre costs about `O(log cells)`.
    #[must_use]
    pub fn circle_overlaps_solid(&self, center: Vec2, radius: Real, slack: Real) -> bool {
        self.overlap_near(CellKinds::ALL, center, radius, slack, false)
            .is_some()
    }

    /// [`Grid::circle_overlaps_solid`] with only the cells of `kinds` solid.
    pub(crate) fn circle_overlaps_solid_kinds(
        &self,
        kinds: CellKinds,
        center: Vec2,
        radius: Real,
        slack: Real,
    ) -> bool {
        self.overlap_near(kinds, center, radius, slack, false)
            .is_some()
    }

    /// A solid cell the disc overlaps by more than `slack` world units, searched nearest the
    /// centre first (while solid counts cover the disc; else the row-major first, as
    /// [`Grid::first_overlap_circle`]): the push-out pushes out of it.
    pub(crate) fn overlap_near_center(
        &self,
        kinds: CellKinds,
        center: Vec2,
        radius: Real,
        slack: Real,
    ) -> Option<CellCoord> {
        self.overlap_near(kinds, center, radius, slack, true)
    }

    pub(crate) fn overlap_near(
        &self,
        kinds: CellKinds,
        center: Vec2,
        radius: Real,
        slack: Real,
        want_cell: bool,
    ) -> Option<CellCoord> {
        if kinds.is_none() {
            return None;
        }
        let r = radius - slack;
        let range = self.cell_range(&Aabb::new(center - radius, center + radius))?;
        match self.counts_for(range, kinds) {
            Some(counts) => self.overlap_near_in(counts, center, r, range, want_cell),
            None => self.first_overlap_circle_kinds(kinds, center, radius, slack),
        }
    }

    /// A solid cell of the block `[c0, c1] × [r0, r1]` that the disc (`center`, `r`)
    /// overlaps, or `None`: the halves of a block are visited nearest the centre first. A
    /// block whose four corners lie inside the disc overlaps it with every cell (a disc is
    /// convex): any solid cell in it answers (found by the counts alone when `want_cell`,
    /// else the block's first cell stands for it).
    pub(crate) fn overlap_near_in(
        &self,
        counts: &SolidCounts,
        center: Vec2,
        r: Real,
        (c0, r0, c1, r1): (usize, usize, usize, usize),
        want_cell: bool,
    ) -> Option<CellCoord> {
        if counts.count(c0, r0, c1, r1) == 0 {
            return None;
        }
        let block = self.block_aabb((c0, r0, c1, r1));
        if !circle_overlaps_aabb(center, r, &block) {
            return None;
        }
        let far = (center - block.min).abs().max((center - block.max).abs());
        if far.length_squared() < r * r {
            return Some(if want_cell {
                counts.some_solid((c0, r0, c1, r1))
            } else {
                CellCoord::new(c0 as u32, r0 as u32)
            });
        }
        let (a, b) = if r0 < r1 {
            let m = r0 + (r1 - r0) / 2;
            ((c0, r0, c1, m), (c0, m + 1, c1, r1))
        } else if c0 < c1 {
            let m = c0 + (c1 - c0) / 2;
            ((c0, r0, m, r1), (m + 1, r0, c1, r1))
        } else {
            // One solid cell whose box the disc overlaps: a slope only with its half.
            return self
                .shape_usize(c0, r0)
                .overlaps_circle(center, r)
                .then(|| CellCoord::new(c0 as u32, r0 as u32));
        };
        let dist = |range| {
            let bb = self.block_aabb(range);
            (center - center.clamp(bb.min, bb.max)).length_squared()
        };
        let (first, second) = if dist(b) < dist(a) { (b, a) } else { (a, b) };
        self.overlap_near_in(counts, center, r, first, want_cell)
            .or_else(|| self.overlap_near_in(counts, center, r, second, want_cell))
    }

    /// The first solid cell in row-major order of the block `[c0, c1] × [r0, r1]` that the
    /// disc (`center`, `r`) overlaps, by halving the block (rows first, the upper half first,
    /// then columns, the left half first) so that the order is row-major. A block is skipped
    /// when it holds no solid cell or when the disc does not overlap its box: every cell's
    /// box lies inside the block's box (the same floating-point coordinates bound both), so
    /// no cell of the block could overlap either; the answer is the scan's, bit for bit.
    pub(crate) fn first_overlap_in(
        &self,
        counts: &SolidCounts,
        center: Vec2,
        r: Real,
        (c0, r0, c1, r1): (usize, usize, usize, usize),
    ) -> Option<CellCoord> {
        if counts.count(c0, r0, c1, r1) == 0 {
            return None;
        }
        let block = self.block_aabb((c0, r0, c1, r1));
        if !circle_overlaps_aabb(center, r, &block) {
            return None;
        }
        if r0 < r1 {
            let m = r0 + (r1 - r0) / 2;
            self.first_overlap_in(counts, center, r, (c0, r0, c1, m))
                .or_else(|| self.first_overlap_in(counts, center, r, (c0, m + 1, c1, r1)))
        } else if c0 < c1 {
            let m = c0 + (c1 - c0) / 2;
            self.first_overlap_in(counts, center, r, (c0, r0, m, r1))
                .or_else(|| self.first_overlap_in(counts, center, r, (m + 1, r0, c1, r1)))
        } else {
            // One solid cell, and the disc overlaps its box (a slope: its half).
            self.shape_usize(c0, r0)
                .overlaps_circle(center, r)
                .then(|| CellCoord::new(c0 as u32, r0 as u32))
        }
    }

    /// Builds solid-cell counts over the cells under `region` (world units) for the next
    /// calls of [`Grid::first_overlap_circle`] whose discs lie in it, until
    /// [`Grid::detach_solid_counts`]. `O(cells under region)` time, 4 bytes per such cell.
    #[cfg(test)]
    pub(crate) fn attach_solid_counts(&mut self, region: &Aabb) {
        self.attach_solid_counts_kinds(CellKinds::ALL, region);
    }

    /// [`Grid::attach_solid_counts`] counting only the cells of `kinds` as solid.
    pub(crate) fn attach_solid_counts_kinds(&mut self, kinds: CellKinds, region: &Aabb) {
        self.counts = self
            .cell_range(region)
            .map(|range| Box::new(SolidCounts::new(kinds, &self.cells, self.cols, range)));
    }

    /// Drops the counts of [`Grid::attach_solid_counts`].
    pub(crate) fn detach_solid_counts(&mut self) {
        self.counts = None;
    }

    /// Distance from `p` to the nearest solid cell within `max_dist` (world units), or `None`
    /// if there is none that close. `0` when `p` is inside a solid cell.
    #[must_use]
    pub fn distance_to_solid(&self, p: Vec2, max_dist: Real) -> Option<Real> {
        let (c0, r0, c1, r1) = self.cell_range(&Aabb::new(p - max_dist, p + max_dist))?;
        let mut best: Option<Real> = None;
        for row in r0..=r1 {
            for col in c0..=c1 {
                if self.cells[row * self.cols + col].is_solid() {
                    let d = self.shape_usize(col, row).distance_point(p);
                    if d <= max_dist && best.is_none_or(|b| d < b) {
                        best = Some(d);
                    }
                }
            }
        }
        best
    }

    /// Calls `f(coord, cell)` for every solid cell whose box overlaps `b` (positive area or
    /// touching), in row-major order.
    pub fn for_each_solid_in(&self, b: &Aabb, f: impl FnMut(CellCoord, Cell)) {
        self.for_each_solid_in_kinds(CellKinds::ALL, b, f);
    }

    /// [`Grid::for_each_solid_in`] for the cells of `kinds` only.
    pub(crate) fn for_each_solid_in_kinds(
        &self,
        kinds: CellKinds,
        b: &Aabb,
        mut f: impl FnMut(CellCoord, Cell),
    ) {
        if let Some((c0, r0, c1, r1)) = self.cell_range(b) {
            for row in r0..=r1 {
                for col in c0..=c1 {
                    let cell = self.cells[row * self.cols + col];
                    if kinds.solid(cell) {
                        f(CellCoord::new(col as u32, row as u32), cell);
                    }
                }
            }
        }
    }
}
