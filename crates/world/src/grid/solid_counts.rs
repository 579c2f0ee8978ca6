//! Counts of solid cells over any rectangle of cells of a block of the grid, in `O(1)`: a
//! summed-area table (F. C. Crow, "Summed-area tables for texture mapping", SIGGRAPH 1984).
//!
//! The push-out of an embedded body ([`crate::step::embed`]) tests many discs against the cells of
//! the region it searches. Scanning every cell under each disc made that quadratic in the
//! cells covered (a disc of radius 100 over cells of 0.01 units covers 4·10⁸ cells); with the
//! counts, a disc test descends only into blocks of cells that hold a solid cell and meet the
//! disc (`Grid::first_overlap_circle`), so a push-out costs about linear time in the cells of
//! its region (built once per search, `O(cells)` time and 4 bytes per cell of the region).

use crate::model::cell::Cell;
use crate::model::filter::CellKinds;

/// Solid-cell counts over the block of cells `[c0, c0 + cols) × [r0, r0 + rows)` of a grid.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SolidCounts {
    /// First column and row of the block.
    c0: usize,
    r0: usize,
    /// Size of the block in cells.
    cols: usize,
    rows: usize,
    /// `sat[(r + 1)·(cols + 1) + (c + 1)]`: solid cells in the block's cells `[0, c] × [0, r]`
    /// (relative coordinates); row 0 and column 0 of the table are zeros.
    sat: Vec<u32>,
    /// The cell kinds counted as solid (`crate::model::filter`).
    pub(crate) kinds: CellKinds,
}

impl SolidCounts {
    /// The counts of the cells `[c0, c1] × [r0, r1]` (inclusive) of a grid of `grid_cols`
    /// columns whose cells are `cells` (row-major). The block has at most 2²⁴ cells (the
    /// grid's limit), so counts fit a `u32`. Cells of `kinds` count as solid.
    pub(crate) fn new(
        kinds: CellKinds,
        cells: &[Cell],
        grid_cols: usize,
        (c0, r0, c1, r1): (usize, usize, usize, usize),
    ) -> Self {
        let (cols, rows) = (c1 + 1 - c0, r1 + 1 - r0);
        let w = cols + 1;
        let mut sat = vec![0u32; w * (rows + 1)];
        for r in 0..rows {
            let mut run = 0u32;
            let row = &cells[(r0 + r) * grid_cols + c0..][..cols];
            for (c, cell) in row.iter().enumerate() {
                run += u32::from(kinds.solid(*cell));
                sat[(r + 1) * w + c + 1] = sat[r * w + c + 1] + run;
            }
        }
        SolidCounts {
            c0,
            r0,
            cols,
            rows,
            sat,
            kinds,
        }
    }

    /// Whether the block holds every cell of `[c0, c1] × [r0, r1]` (grid coordinates).
    pub(crate) fn covers(&self, (c0, r0, c1, r1): (usize, usize, usize, usize)) -> bool {
        c0 >= self.c0 && r0 >= self.r0 && c1 < self.c0 + self.cols && r1 < self.r0 + self.rows
    }

    /// A solid cell of `[c0, c1] × [r0, r1]` (grid coordinates, inside the block, holding at
    /// least one solid cell), found by halving along the counts: `O(log cells)`.
    pub(crate) fn some_solid(
        &self,
        (mut c0, mut r0, mut c1, mut r1): (usize, usize, usize, usize),
    ) -> crate::model::cell::CellCoord {
        while r0 < r1 || c0 < c1 {
            if r0 < r1 {
                let m = r0 + (r1 - r0) / 2;
                if self.count(c0, r0, c1, m) > 0 {
                    r1 = m;
                } else {
                    r0 = m + 1;
                }
            } else {
                let m = c0 + (c1 - c0) / 2;
                if self.count(c0, r0, m, r1) > 0 {
                    c1 = m;
                } else {
                    c0 = m + 1;
                }
            }
        }
        crate::model::cell::CellCoord::new(c0 as u32, r0 as u32)
    }

    /// Solid cells in `[c0, c1] × [r0, r1]` (grid coordinates, inclusive, inside the block:
    /// see [`SolidCounts::covers`]).
    pub(crate) fn count(&self, c0: usize, r0: usize, c1: usize, r1: usize) -> u32 {
        let w = self.cols + 1;
        let (a, b) = (c0 - self.c0, r0 - self.r0);
        let (c, d) = (c1 + 1 - self.c0, r1 + 1 - self.r0);
        // Inclusion–exclusion; the sum of the two positive terms is at least the sum of the
        // negative ones, so wrapping arithmetic gives the exact count.
        self.sat[d * w + c]
            .wrapping_sub(self.sat[b * w + c])
            .wrapping_sub(self.sat[d * w + a])
            .wrapping_add(self.sat[b * w + a])
    }
}

#[cfg(test)]
mod tests {
    use crate::grid::Grid;
    use crate::model::desc::GridDesc;
    use crate::model::rng::XorShift64Star;
    use collide_core::{Aabb, Vec2};

    /// The counts equal a direct count over random rectangles.
    #[test]
    fn counts_match_a_direct_count() {
        let desc = crate::fixtures::random_grid(37, 23, 0.4, 9, 1.0, Vec2::ZERO).unwrap();
        let counts = super::SolidCounts::new(
            crate::model::filter::CellKinds::ALL,
            &desc.cells,
            37,
            (3, 2, 30, 20),
        );
        let mut rng = XorShift64Star::new(5);
        for _ in 0..2000 {
            let (a, b) = (
                3 + (rng.next_u64() % 28) as usize,
                3 + (rng.next_u64() % 28) as usize,
            );
            let (c, d) = (
                2 + (rng.next_u64() % 19) as usize,
                2 + (rng.next_u64() % 19) as usize,
            );
            let (c0, c1, r0, r1) = (a.min(b), a.max(b), c.min(d), c.max(d));
            let direct = (r0..=r1)
                .flat_map(|r| (c0..=c1).map(move |c| (c, r)))
                .filter(|&(c, r)| desc.cells[r * 37 + c].is_solid())
                .count();
            assert_eq!(counts.count(c0, r0, c1, r1) as usize, direct);
        }
    }

    /// With counts attached, `first_overlap_circle` gives the scan's answer (the same cell,
    /// or none) for random discs of every size, slack and position, on grids of different
    /// fills; discs reaching past the counted region fall back to the scan.
    #[test]
    fn counted_search_answers_as_the_scan() {
        let mut rng = XorShift64Star::new(77);
        for (k, fill) in [0.02, 0.3, 0.5, 0.9].into_iter().enumerate() {
            let cell = [0.5, 1.0, 0.01, 9.0][k];
            let origin = Vec2::new(-3.0, 7.0);
            let desc: GridDesc =
                crate::fixtures::random_grid(60, 45, fill, k as u64 + 1, cell, origin).unwrap();
            let plain = Grid::new(&desc).unwrap();
            let mut counted = plain.clone();
            let size = Vec2::new(60.0, 45.0) * cell;
            counted.attach_solid_counts(&Aabb::new(origin + size * 0.1, origin + size * 0.9));
            for _ in 0..3000 {
                let p = origin
                    + Vec2::new(rng.next_f64() * 1.4 - 0.2, rng.next_f64() * 1.4 - 0.2) * size;
                let radius = rng.next_f64() * rng.next_f64() * size.x * 0.6;
                let slack = [0.0, 1e-7, radius * 0.5][(rng.next_u64() % 3) as usize];
                assert_eq!(
                    counted.first_overlap_circle(p, radius, slack),
                    plain.first_overlap_circle(p, radius, slack),
                    "disc at {p} of radius {radius}, slack {slack}, fill {fill}"
                );
            }
        }
    }
}
