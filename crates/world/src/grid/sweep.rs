//! Swept circles and boxes against the grid: the walk over the cells a motion crosses, each
//! cell met by its exposed faces and convex corners only (no ghost collisions).

use crate::grid::*;
use crate::model::cell::Cell;
use crate::model::cell::CellCoord;
use crate::model::filter::CellKinds;
use collide_core::{
    sweep_aabb_aabb, sweep_aabb_half_tile, sweep_circle_aabb, sweep_circle_half_tile, Aabb, Corner,
    Face, Feature, Features, HalfTile, Real, SweepHit, Vec2,
};

impl Grid {
    /// The parameter range `[t0, t1]` within `[0, max_t]` during which `b0` moving with `vel`
    /// can touch the grid's box, or `None`.
    pub(crate) fn clip_to_grid(&self, b0: &Aabb, vel: Vec2, max_t: Real) -> Option<(Real, Real)> {
        let g = self.bounds();
        let (mut t0, mut t1) = (0.0, max_t);
        for k in 0..2 {
            if vel[k] == 0.0 {
                if b0.max[k] < g.min[k] || b0.min[k] > g.max[k] {
                    return None;
                }
            } else {
                let a = (g.min[k] - b0.max[k]) / vel[k];
                let b = (g.max[k] - b0.min[k]) / vel[k];
                let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                t0 = Real::max(t0, lo);
                t1 = Real::min(t1, hi);
            }
        }
        (t0 <= t1).then_some((t0, t1))
    }

    /// Walks the motion of box `b0` (the moving shape's bounding box at time 0) with velocity
    /// `vel` over `[0, max_t]` in chunks of at most one cell, calling `test(col, row, limit)`
    /// on the solid cells under each chunk; `test` returns a hit time `<= limit` or `None`.
    /// Returns the earliest hit and its cell.
    pub(crate) fn walk<H: Copy>(
        &self,
        feats: &[Features],
        b0: &Aabb,
        vel: Vec2,
        min_t: Real,
        max_t: Real,
        mut test: impl FnMut(usize, usize, Real) -> Option<(Real, H)>,
    ) -> Option<(Real, H, CellCoord)> {
        if self.cols == 0 || self.rows == 0 {
            return None;
        }
        let (t0, t1) = self.clip_to_grid(b0, vel, max_t)?;
        let t0 = t0.max(min_t);
        if !(t0 <= t1) {
            return None;
        }
        let len = vel.length() * (t1 - t0);
        // Chunks of at least one cell and at least the moving shape's size: consecutive chunks of
        // a shape much larger than the cells would otherwise rescan the same cells.
        let chunk_len = self.cell.max(b0.size().max_element());
        let chunks = chunk_count(len / chunk_len);
        let mut best: Option<(Real, H, CellCoord)> = None;
        for k in 0..chunks {
            let ta = t0 + (t1 - t0) * (k as Real / chunks as Real);
            let tb = if k + 1 == chunks {
                t1
            } else {
                t0 + (t1 - t0) * ((k + 1) as Real / chunks as Real)
            };
            let swept = b0.translated(vel * ta).union(&b0.translated(vel * tb));
            if let Some((c0, r0, c1, r1)) = self.cell_range(&swept) {
                for row in r0..=r1 {
                    for col in c0..=c1 {
                        if feats[row * self.cols + col].is_empty() {
                            continue;
                        }
                        let limit = best.map_or(max_t, |b| b.0);
                        if let Some((t, h)) = test(col, row, limit) {
                            if best.is_none_or(|b| t < b.0) {
                                best = Some((t, h, CellCoord::new(col as u32, row as u32)));
                                // Hits are never before `min_t` and ties go to the first
                                // found: a hit at `min_t` is the answer (a body resting
                                // against tiles, or embedded, stops the walk at once).
                                if t <= min_t {
                                    return best;
                                }
                            }
                        }
                    }
                }
            }
            if best.is_some_and(|b| b.0 <= tb) {
                break;
            }
        }
        best
    }

    /// Sweeps a circle (centre `center`, `radius`, velocity `vel`) through the grid over
    /// `[0, max_t]`: the earliest contact with an exposed face or convex corner of a solid
    /// cell. Times are in the unit of `vel` (seconds for units/s). Ties between cells go to the
    /// first in walk order (chunk, then row-major). docs/algorithms.md, section 3, says why
    /// this never tunnels and never reports a ghost collision.
    #[must_use]
    pub fn sweep_circle(
        &self,
        center: Vec2,
        radius: Real,
        vel: Vec2,
        max_t: Real,
    ) -> Option<GridHit> {
        self.sweep_circle_between(center, radius, vel, 0.0, max_t)
    }

    /// Like [`Grid::sweep_circle`] for the part `[min_t, max_t]` of the motion only: the cells
    /// under the path before `min_t` are not visited. The circle is known to have met nothing
    /// before `min_t` (the world sweeps each ball from the start of its current straight path,
    /// so that its impact times do not depend on the step size). A hit computed before `min_t`
    /// by rounding is reported at `min_t`.
    #[must_use]
    pub fn sweep_circle_between(
        &self,
        center: Vec2,
        radius: Real,
        vel: Vec2,
        min_t: Real,
        max_t: Real,
    ) -> Option<GridHit> {
        self.sweep_circle_kinds(CellKinds::ALL, center, radius, vel, min_t, max_t)
    }

    /// [`Grid::sweep_circle_between`] for a body colliding with the cell kinds `kinds` only:
    /// the other cells are empty space, and exposure is theirs (`crate::model::filter`).
    pub(crate) fn sweep_circle_kinds(
        &self,
        kinds: CellKinds,
        center: Vec2,
        radius: Real,
        vel: Vec2,
        min_t: Real,
        max_t: Real,
    ) -> Option<GridHit> {
        if kinds.is_none() {
            return None;
        }
        let feats = self.features_of_kinds(kinds);
        let b0 = Aabb::new(center - radius, center + radius);
        let found = self.walk(feats, &b0, vel, min_t, max_t, |col, row, limit| {
            let i = row * self.cols + col;
            let (f, square) = (feats[i], self.cell_aabb_usize(col, row));
            let mut hit = match self.cells[i] {
                Cell::Slope(solid) => sweep_circle_half_tile(
                    center,
                    radius,
                    vel,
                    limit,
                    &HalfTile::new(square, solid),
                    f,
                )?,
                _ => sweep_circle_aabb(center, radius, vel, limit, &square, f)?,
            };
            hit.toi = hit.toi.max(min_t);
            Some((hit.toi, hit))
        })?;
        Some(GridHit {
            hit: found.1,
            cell: found.2,
        })
    }

    /// Sweeps a box `aabb` moving with `vel` through the grid over `[0, max_t]`: the earliest
    /// time it starts to overlap a solid cell through an exposed face (slab test of
    /// `collide_core::sweep_aabb_aabb`). The normal keeps only the components whose face is
    /// exposed: a corner-to-corner hit on a corner inside a flat run acts as a face hit; a hit
    /// through an internal face only is ignored (the neighbour's exposed face is met first).
    #[must_use]
    pub fn sweep_aabb(&self, aabb: &Aabb, vel: Vec2, max_t: Real) -> Option<GridHit> {
        self.sweep_aabb_between(aabb, vel, 0.0, max_t)
    }

    /// Like [`Grid::sweep_aabb`] for the part `[min_t, max_t]` of the motion only, as
    /// [`Grid::sweep_circle_between`] for circles: the box is known to have met nothing
    /// before `min_t` (the world sweeps a dynamic rectangle from the start of its current
    /// path); a hit computed before `min_t` by rounding is reported at `min_t`.
    #[must_use]
    pub fn sweep_aabb_between(
        &self,
        aabb: &Aabb,
        vel: Vec2,
        min_t: Real,
        max_t: Real,
    ) -> Option<GridHit> {
        self.sweep_aabb_kinds(CellKinds::ALL, aabb, vel, min_t, max_t)
    }

    /// [`Grid::sweep_aabb_between`] for a body colliding with the cell kinds `kinds` only.
    pub(crate) fn sweep_aabb_kinds(
        &self,
        kinds: CellKinds,
        aabb: &Aabb,
        vel: Vec2,
        min_t: Real,
        max_t: Real,
    ) -> Option<GridHit> {
        if kinds.is_none() {
            return None;
        }
        let feats = self.features_of_kinds(kinds);
        let found = self.walk(feats, aabb, vel, min_t, max_t, |col, row, limit| {
            let i = row * self.cols + col;
            let (f, cb) = (feats[i], self.cell_aabb_usize(col, row));
            let hit = match self.cells[i] {
                Cell::Slope(solid) => {
                    let tile = HalfTile::new(cb, solid);
                    let h = sweep_aabb_half_tile(aabb, vel, &tile, limit)?;
                    box_slope_hit(f, solid, tile.diagonal_normal(), vel, h)?
                }
                _ => box_cell_hit(f, sweep_aabb_aabb(aabb, vel, &cb, Vec2::ZERO, limit)?)?,
            };
            let toi = hit.toi.max(min_t);
            Some((toi, SweepHit { toi, ..hit }))
        })?;
        Some(GridHit {
            hit: found.1,
            cell: found.2,
        })
    }

    /// Whether `feature` of cell `c` is currently an obstacle (the cell is solid and the face
    /// exposed or the corner convex). Used to drop predictions made before a brick broke.
    #[must_use]
    pub fn feature_exists(&self, c: CellCoord, feature: Feature) -> bool {
        self.feature_exists_for(c, feature, CellKinds::ALL)
    }

    /// [`Grid::feature_exists`] for a body colliding with the cell kinds `kinds`.
    #[inline]
    pub(crate) fn feature_exists_for(
        &self,
        c: CellCoord,
        feature: Feature,
        kinds: CellKinds,
    ) -> bool {
        let f = self.features_for(c, kinds);
        match feature {
            Feature::Face(face) => f.contains(face.bit()),
            // A corner bit is set exactly when both faces around it are exposed, which is also
            // what a box's corner-to-corner hit needs.
            Feature::Corner(corner) => {
                f.contains(corner.bit())
                    && self.cell(c).slope().is_none_or(|s| corner != s.opposite())
            }
            // A slope's diagonal is an obstacle while the slope is there.
            Feature::Diagonal => self.cell(c).slope().is_some() && !f.is_empty(),
            Feature::Circle => false,
        }
    }
}

/// A box's hit on a cell whose exposed features are `f`, kept on the exposed faces only: a
/// face hit on a hidden face is no hit (the neighbour across it is met instead: no ghost
/// collision at a seam), a corner-to-corner hit keeps the axes whose faces are exposed.
pub(crate) fn box_cell_hit(f: Features, hit: SweepHit) -> Option<SweepHit> {
    let n = hit.normal;
    let keep_x = n.x != 0.0
        && f.contains(if n.x < 0.0 {
            Face::Left.bit()
        } else {
            Face::Right.bit()
        });
    let keep_y = n.y != 0.0
        && f.contains(if n.y < 0.0 {
            Face::Top.bit()
        } else {
            Face::Bottom.bit()
        });
    let (normal, feature) = match (keep_x, keep_y) {
        (true, true) => (n, hit.feature),
        (true, false) => {
            let face = if n.x < 0.0 { Face::Left } else { Face::Right };
            (Vec2::new(n.x.signum(), 0.0), Feature::Face(face))
        }
        (false, true) => {
            let face = if n.y < 0.0 { Face::Top } else { Face::Bottom };
            (Vec2::new(0.0, n.y.signum()), Feature::Face(face))
        }
        (false, false) => return None,
    };
    Some(SweepHit {
        normal,
        feature,
        ..hit
    })
}

/// A box's hit on a slope cell solid at corner `solid` whose features are `f`
/// (`collide_core::sweep_aabb_half_tile`): a hit on the diagonal is kept (always an
/// obstacle); a face hit on a leg when the leg is exposed; a hit on a vertex (the box's face
/// on the end of the diagonal, or corner to corner) when that vertex is a convex corner, and
/// otherwise on the axes whose faces are exposed, as [`box_cell_hit`] (the neighbouring cells'
/// faces around a vertex that is no obstacle are met instead).
///
/// A box that meets the end of the diagonal where the diagonal is flush with its neighbour's
/// face (the foot of a ramp: a box sliding along the floor reaches the diagonal's lower end)
/// and moves on into the diagonal (`motion`, its velocity then, against `diag`, the diagonal's
/// outward normal) meets the diagonal there: no exposed face holds it back, and going on would
/// enter the slope.
pub(crate) fn box_slope_hit(
    f: Features,
    solid: Corner,
    diag: Vec2,
    motion: Vec2,
    hit: SweepHit,
) -> Option<SweepHit> {
    match hit.feature {
        Feature::Diagonal => Some(hit),
        Feature::Face(face) if covered_sides(Cell::Slope(solid)) & face.bit().0 != 0 => {
            f.contains(face.bit()).then_some(hit)
        }
        Feature::Corner(v) if v != solid.opposite() && f.contains(v.bit()) => Some(hit),
        _ => box_cell_hit(f, hit).or_else(|| {
            (motion.dot(diag) < 0.0).then_some(SweepHit {
                normal: diag,
                feature: Feature::Diagonal,
                ..hit
            })
        }),
    }
}
