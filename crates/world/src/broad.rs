//! Broad phase for moving bodies within one step: a uniform grid of *reach boxes*.
//!
//! A body's reach box at time `t` is its bounding box grown by `speed·(dt - t)`: wherever it
//! goes before the end of the step (whatever it bounces off), it stays inside. Two bodies whose
//! reach boxes share no grid cell cannot meet in this step. When a collision makes a body
//! faster, its box is grown and it is inserted into the new cells; boxes never shrink within a
//! step. Cells are plain vectors reused from step to step (no allocation in steady state).

use collide_core::{Aabb, Real, Vec2};

#[derive(Clone, Debug, Default)]
pub(crate) struct BroadPhase {
    origin: Vec2,
    inv_cell: Real,
    cols: usize,
    rows: usize,
    cells: Vec<Vec<u32>>,
    ranges: Vec<[usize; 4]>,
    mark: Vec<u32>,
    query: u32,
    /// Candidates of the last query.
    pub(crate) out: Vec<u32>,
}

impl BroadPhase {
    /// Clears the grid for `movers` bodies over `bounds` with cells of side `cell`.
    pub(crate) fn reset(&mut self, bounds: Aabb, cell: Real, movers: usize) {
        let size = bounds.size().max(Vec2::splat(1e-9));
        let max_cells = (4 * movers + 16) as Real;
        let min_cell = (size.x * size.y / max_cells).sqrt();
        let cell = cell.max(min_cell).max(1e-9);
        self.origin = bounds.min;
        self.inv_cell = 1.0 / cell;
        self.cols = ((size.x / cell).ceil() as usize).clamp(1, 4096);
        self.rows = ((size.y / cell).ceil() as usize).clamp(1, 4096);
        let n = self.cols * self.rows;
        if self.cells.len() < n {
            self.cells.resize_with(n, Vec::new);
        }
        for c in &mut self.cells[..n] {
            c.clear();
        }
        self.ranges.clear();
        self.ranges.resize(movers, [1, 1, 0, 0]);
        self.mark.clear();
        self.mark.resize(movers, 0);
        self.query = 0;
    }

    fn range(&self, b: &Aabb) -> [usize; 4] {
        let lo = (b.min - self.origin) * self.inv_cell;
        let hi = (b.max - self.origin) * self.inv_cell;
        let clamp = |v: Real, n: usize| -> usize {
            if v.is_nan() || v <= 0.0 {
                0
            } else {
                (v as usize).min(n - 1)
            }
        };
        [
            clamp(lo.x, self.cols),
            clamp(lo.y, self.rows),
            clamp(hi.x, self.cols),
            clamp(hi.y, self.rows),
        ]
    }

    /// Registers mover `m` in the cells under `b`, growing its registered range to the union
    /// of the old and new ranges (cells already holding it are not filled twice).
    pub(crate) fn insert(&mut self, m: usize, b: &Aabb) {
        let new = self.range(b);
        let old = self.ranges[m];
        let u = if old[0] > old[2] {
            new
        } else {
            [
                old[0].min(new[0]),
                old[1].min(new[1]),
                old[2].max(new[2]),
                old[3].max(new[3]),
            ]
        };
        if u == old {
            return;
        }
        for row in u[1]..=u[3] {
            for col in u[0]..=u[2] {
                let inside_old = old[0] <= old[2]
                    && col >= old[0]
                    && col <= old[2]
                    && row >= old[1]
                    && row <= old[3];
                if !inside_old {
                    self.cells[row * self.cols + col].push(m as u32);
                }
            }
        }
        self.ranges[m] = u;
    }

    /// Fills `out` with the movers registered in the cells under `b`, each once, in the order
    /// first met (cells row-major).
    pub(crate) fn query(&mut self, b: &Aabb) {
        self.out.clear();
        self.query = self.query.wrapping_add(1);
        if self.query == 0 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.query = 1;
        }
        let r = self.range(b);
        for row in r[1]..=r[3] {
            for col in r[0]..=r[2] {
                for &m in &self.cells[row * self.cols + col] {
                    let mk = &mut self.mark[m as usize];
                    if *mk != self.query {
                        *mk = self.query;
                        self.out.push(m);
                    }
                }
            }
        }
    }
}
