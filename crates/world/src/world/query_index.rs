//! Queries that visit only the balls near them: a uniform grid of the balls' centres, built on
//! demand for many queries between two steps.
//!
//! [`World::cast_circle`], [`World::query_point`] and [`World::query_aabb`] test every ball. A
//! game that aims, picks or scans many times a frame builds a [`QueryIndex`] once
//! ([`World::query_index`], `O(balls)`) and asks it instead: each query tests only the balls
//! whose centre lies in the cells its region reaches, grown by the largest radius, so a short
//! ray visits a handful of balls among thousands. The answers are exactly those of the world's
//! own queries (same hits, same order, same ties: candidates are tested in storage order).
//! This is the uniform grid of C. Ericson, *Real-Time Collision Detection*, 2005, §7.1, stored
//! as a counting sort (cell starts and one array of ball indices).
//!
//! The index borrows the world: it cannot outlive a step or an edit, so it is never stale.

use crate::world::query::{CastHit, Target};
use crate::world::World;
use crate::{BallId, Filter};
use collide_core::{Aabb, Real, Vec2};

/// A uniform grid of the balls' centres (see the module docs).
#[derive(Debug)]
pub struct QueryIndex<'w> {
    world: &'w World,
    /// Top-left corner of cell (0, 0) and the side of a cell, world units.
    origin: Vec2,
    cell: Real,
    cols: usize,
    rows: usize,
    /// Balls of cell `k` are `items[starts[k]..starts[k + 1]]` (dense indices, ascending).
    starts: Vec<u32>,
    items: Vec<u32>,
    /// The largest radius of the indexed balls.
    max_radius: Real,
    /// Balls much larger than the others (radius over four times the mean), kept out of the
    /// grid and tested by every query, so that one boulder does not widen every query.
    big: Vec<u32>,
}

impl World {
    /// An index of the balls' centres for fast queries until the next step or edit (see
    /// [`crate::QueryIndex`]). `O(balls)` time and about 8 bytes per ball.
    #[must_use]
    pub fn query_index(&self) -> QueryIndex<'_> {
        let n = self.balls.len();
        let pos: Vec<Vec2> = self
            .balls
            .iter()
            .enumerate()
            .map(|(i, b)| b.pos_at(self.time, self.acc_of(i)))
            .collect();
        let mean = self.balls.iter().map(|b| b.radius).sum::<Real>() / n.max(1) as Real;
        let is_big = |r: Real| r > 4.0 * mean;
        let big: Vec<u32> = (0..n as u32)
            .filter(|&i| is_big(self.balls[i as usize].radius))
            .collect();
        let max_radius = self
            .balls
            .iter()
            .filter(|b| !is_big(b.radius))
            .fold(0.0, |m: Real, b| m.max(b.radius));
        let (lo, hi) = pos.iter().fold(
            (Vec2::splat(Real::INFINITY), Vec2::splat(Real::NEG_INFINITY)),
            |(lo, hi), &p| (lo.min(p), hi.max(p)),
        );
        let (origin, extent) = if n == 0 {
            (Vec2::ZERO, Vec2::ONE)
        } else {
            (lo, (hi - lo).max(Vec2::splat(Real::MIN_POSITIVE)))
        };
        // About one ball per cell, never cells smaller than an indexed ball, at most 4096².
        let area_cell = (extent.x * extent.y / n.max(1) as Real).sqrt();
        let mut cell = area_cell
            .max(2.0 * max_radius)
            .max(extent.max_element() / 4096.0);
        if !(cell.is_finite() && cell > 0.0) {
            cell = 1.0;
        }
        let cols = ((extent.x / cell).floor() as usize + 1).min(4096);
        let rows = ((extent.y / cell).floor() as usize + 1).min(4096);
        let mut idx = QueryIndex {
            world: self,
            origin,
            cell,
            cols,
            rows,
            starts: vec![0; cols * rows + 1],
            items: vec![0; n - big.len()],
            max_radius,
            big,
        };
        let cells: Vec<usize> = pos
            .iter()
            .zip(&self.balls)
            .map(|(&p, b)| {
                if is_big(b.radius) {
                    usize::MAX
                } else {
                    idx.cell_index(p)
                }
            })
            .collect();
        for &k in cells.iter().filter(|&&k| k != usize::MAX) {
            idx.starts[k + 1] += 1;
        }
        for k in 0..cols * rows {
            idx.starts[k + 1] += idx.starts[k];
        }
        let mut next = idx.starts.clone();
        for (i, &k) in cells.iter().enumerate().filter(|(_, &k)| k != usize::MAX) {
            idx.items[next[k] as usize] = i as u32;
            next[k] += 1;
        }
        idx
    }
}

impl QueryIndex<'_> {
    /// The cell column and row holding `p`, clamped into the grid.
    fn cell_of(&self, p: Vec2) -> (usize, usize) {
        let c = ((p - self.origin) / self.cell).floor();
        let clamp = |v: Real, n: usize| {
            if v.is_nan() || v < 0.0 {
                0
            } else {
                (v as usize).min(n - 1)
            }
        };
        (clamp(c.x, self.cols), clamp(c.y, self.rows))
    }

    fn cell_index(&self, p: Vec2) -> usize {
        let (c, r) = self.cell_of(p);
        r * self.cols + c
    }

    /// The dense indices, ascending, of the balls whose centre lies in a cell that `b` grown by
    /// the largest radius reaches: every ball that can overlap `b`.
    fn candidates(&self, b: &Aabb) -> Vec<usize> {
        let grown = b.grown(self.max_radius);
        let (c0, r0) = self.cell_of(grown.min);
        let (c1, r1) = self.cell_of(grown.max);
        let mut out: Vec<usize> = Vec::new();
        for r in r0..=r1 {
            let row = r * self.cols;
            let (s, e) = (self.starts[row + c0], self.starts[row + c1 + 1]);
            out.extend(
                self.items[s as usize..e as usize]
                    .iter()
                    .map(|&i| i as usize),
            );
        }
        out.extend(self.big.iter().map(|&i| i as usize));
        out.sort_unstable();
        out
    }

    /// How many balls a query of region `b` tests (for measurements: a world query tests them
    /// all).
    #[must_use]
    pub fn balls_visited(&self, b: &Aabb) -> usize {
        self.candidates(b).len()
    }

    /// [`World::cast_circle`], testing only the balls near the segment: the same answer.
    #[must_use]
    pub fn cast_circle(
        &self,
        from: Vec2,
        to: Vec2,
        radius: Real,
        ignore: &[BallId],
        filter: Filter,
    ) -> Option<CastHit> {
        let swept = Aabb::new(from.min(to), from.max(to)).grown(radius);
        let balls = self.candidates(&swept);
        self.world
            .cast_circle_among(from, to, radius, ignore, filter, balls.into_iter())
    }

    /// [`World::cast_ray`], testing only the balls near the segment: the same answer.
    #[must_use]
    pub fn cast_ray(
        &self,
        from: Vec2,
        to: Vec2,
        ignore: &[BallId],
        filter: Filter,
    ) -> Option<CastHit> {
        self.cast_circle(from, to, 0.0, ignore, filter)
    }

    /// [`World::query_point`], testing only the balls near `p`: the same answer.
    pub fn query_point(&self, p: Vec2, filter: Filter, out: &mut Vec<Target>) {
        let balls = self.candidates(&Aabb::new(p, p));
        self.world
            .query_point_among(p, filter, out, balls.into_iter());
    }

    /// [`World::query_aabb`], testing only the balls near `aabb`: the same answer.
    pub fn query_aabb(&self, aabb: &Aabb, filter: Filter, out: &mut Vec<Target>) {
        let balls = self.candidates(aabb);
        self.world
            .query_aabb_among(aabb, filter, out, balls.into_iter());
    }
}
