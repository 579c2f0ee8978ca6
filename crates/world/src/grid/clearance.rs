//! Clearance: how far each point of the grid is from solid cells, kept per chunk of cells so
//! that a search can skip the free space it crosses.

use crate::grid::*;
use collide_core::{distance_point_aabb, Real, Vec2};

impl Grid {
    /// Recomputes the clearance map if cells changed since it was last computed: a two-pass
    /// chamfer transform giving each cell's Chebyshev distance (in cells) to the nearest solid
    /// cell (G. Borgefors, "Distance transformations in digital images", CVGIP 34, 1986).
    /// `O(cells)`. The world calls it at the start of each step.
    pub fn refresh_clearance(&mut self) {
        if !self.dist_stale {
            return;
        }
        self.dist_stale = false;
        self.dist_unsafe = false;
        let (w, h) = (self.cols, self.rows);
        self.dist.clear();
        self.dist.extend(
            self.cells
                .iter()
                .map(|c| if c.is_solid() { 0 } else { u16::MAX }),
        );
        self.ring.clear();
        self.ring.resize(w * h, 0);
        for row in 0..h {
            for col in 0..w {
                let mut mask = 0u8;
                for (k, &(dc, dr)) in NEIGHBOURS.iter().enumerate() {
                    let (c, r) = (col as i64 + dc, row as i64 + dr);
                    if c >= 0
                        && r >= 0
                        && (c as usize) < w
                        && (r as usize) < h
                        && self.cells[r as usize * w + c as usize].is_solid()
                    {
                        mask |= 1 << k;
                    }
                }
                self.ring[row * w + col] = mask;
            }
        }
        let d = &mut self.dist;
        for row in 0..h {
            for col in 0..w {
                let i = row * w + col;
                let mut v = d[i];
                if col > 0 {
                    v = v.min(d[i - 1].saturating_add(1));
                }
                if row > 0 {
                    v = v.min(d[i - w].saturating_add(1));
                    if col > 0 {
                        v = v.min(d[i - w - 1].saturating_add(1));
                    }
                    if col + 1 < w {
                        v = v.min(d[i - w + 1].saturating_add(1));
                    }
                }
                d[i] = v;
            }
        }
        for row in (0..h).rev() {
            for col in (0..w).rev() {
                let i = row * w + col;
                let mut v = d[i];
                if col + 1 < w {
                    v = v.min(d[i + 1].saturating_add(1));
                }
                if row + 1 < h {
                    v = v.min(d[i + w].saturating_add(1));
                    if col + 1 < w {
                        v = v.min(d[i + w + 1].saturating_add(1));
                    }
                    if col > 0 {
                        v = v.min(d[i + w - 1].saturating_add(1));
                    }
                }
                d[i] = v;
            }
        }
    }

    /// A lower bound (world units) on the distance from `p` to every solid cell. In a cell
    /// next to a solid cell, the distance to the nearest solid neighbour or to the ring of
    /// cells beyond the neighbours, whichever is less; farther, the
    /// distance from `p` to the edge of the block of cells around it known to be empty
    /// (Chebyshev distance transform, see [`Grid::refresh_clearance`]). `0` in a solid cell.
    /// Used to skip the grid walk of a ball that cannot reach any tile before its next event.
    #[must_use]
    pub fn clearance(&self, p: Vec2) -> Real {
        if self.dist_unsafe {
            return 0.0;
        }
        let q = (p - self.origin) / self.cell;
        // Sides are below 2^24 cells (`limits::MAX_GRID_CELLS`): u32 conversions are exact and
        // cheaper than usize ones.
        let (w, h) = (Real::from(self.cols as u32), Real::from(self.rows as u32));
        if !(q.x >= 0.0 && q.y >= 0.0 && q.x < w && q.y < h) {
            // Outside the grid: the distance to the grid's box.
            return distance_point_aabb(p, &self.bounds());
        }
        let (col, row) = (q.x as u32, q.y as u32);
        let (col, row) = (col as usize, row as usize);
        let d = self.dist[row * self.cols + col];
        if d == 0 {
            return 0.0;
        }
        let (fx, fy) = (q.x - Real::from(col as u32), q.y - Real::from(row as u32));
        if d == 1 {
            // The nearest of the solid neighbours' boxes (at least one is solid), in cells;
            // cells two rings out can be nearer than a diagonal neighbour, so at most the own
            // cell's edge plus one ring. Bits as in `NEIGHBOURS`.
            let mask = self.ring[row * self.cols + col];
            let (lx, hx, ly, hy) = (fx, 1.0 - fx, fy, 1.0 - fy);
            let bit = |k: u32| mask >> k & 1 == 1;
            let mut best = lesser(lesser(lesser(lx, hx), ly), hy) + 1.0;
            for (k, side) in [(1, ly), (3, lx), (4, hx), (6, hy)] {
                if bit(k) {
                    best = lesser(best, side);
                }
            }
            let mut sq = best * best;
            for (k, a, b) in [(0, lx, ly), (2, hx, ly), (5, lx, hy), (7, hx, hy)] {
                if bit(k) {
                    sq = lesser(sq, a * a + b * b);
                }
            }
            return (sq.sqrt() * self.cell).max(0.0);
        }
        // Distance to the own cell's edge plus the (d - 1) empty rings around it, in cells.
        let gap = lesser(lesser(lesser(fx, 1.0 - fx), fy), 1.0 - fy);
        ((gap + Real::from(d - 1)) * self.cell).max(0.0)
    }
}
