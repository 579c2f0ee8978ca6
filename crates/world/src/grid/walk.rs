//! Sweeping a circle on a curved path (a ball under gravity) through the tile grid.
//!
//! The straight sweep (`Grid::sweep_circle_between`) walks the cells under the path in chunks
//! of about one cell. A parabola is walked the same way in *time* windows: each window is short
//! enough that the path covers at most about one cell (`|v|·Δ + ½·|a|·Δ² <= cell`, the bound of
//! `collide_core::motion::Path::reach`), its exact bounding box (the path's coordinates at the
//! window's ends and at the vertex of each axis' parabola inside it) grown by the radius lists
//! the cells it can touch, and each of their exposed faces and convex corners is swept exactly
//! (`collide_core::sweep_path`: the face quadratic, the corner quartic). Windows are visited in
//! time order, so the first window with a hit holds the earliest hit: as for straight paths,
//! the walk never tunnels (every cell the path's disc touches in a window is in its box) and
//! never reports a ghost collision (only exposed features are obstacles).

use crate::grid::sweep::{box_cell_hit, box_slope_hit};
use crate::grid::{Grid, GridHit};

use crate::model::cell::Cell;
use crate::model::cell::CellCoord;
use crate::model::filter::CellKinds;
use collide_core::motion::Path;
use collide_core::sweep_path::{
    sweep_path_aabb_aabb, sweep_path_aabb_half_tile, sweep_path_circle_aabb,
    sweep_path_circle_half_tile,
};
use collide_core::{Aabb, HalfTile, Real, Vec2};

/// The exact bounding box of `path` over `[ta, tb]` (times of the path): its ends and, per
/// axis, the vertex of the parabola when it lies inside.
pub(crate) fn path_bounds(path: &Path, ta: Real, tb: Real) -> Aabb {
    let (pa, pb) = (path.pos_at(ta), path.pos_at(tb));
    let mut lo = pa.min(pb);
    let mut hi = pa.max(pb);
    for k in 0..2 {
        let a = path.accel[k];
        if a != 0.0 {
            let tv = -path.v0[k] / a;
            if tv > ta && tv < tb {
                let x = path.pos_at(tv)[k];
                lo[k] = lo[k].min(x);
                hi[k] = hi[k].max(x);
            }
        }
    }
    // A hair wider than the rounded values: the box is a bound, never too small.
    let eps = (hi - lo).max_element().max(hi.abs().max_element()) * 1e-12;
    Aabb::new(lo - eps, hi + eps)
}

/// The exact bounding box of the box `aabb` displaced along `disp` (a path of displacements,
/// `p0` usually zero) over `[ta, tb]`: [`path_bounds`] of its lower corner, widened by its size.
pub(crate) fn box_path_bounds(aabb: &Aabb, disp: &Path, ta: Real, tb: Real) -> Aabb {
    let corner = Path::ballistic(aabb.min + disp.p0, disp.v0, disp.accel);
    let b = path_bounds(&corner, ta, tb);
    Aabb::new(b.min, b.max + aabb.size())
}

/// Whether a body whose bounds over a window are `b`, entirely beyond the grid's bounds
/// `grid` on an axis, moves and accelerates away from it along that axis at the window's end
/// (velocity `v`, acceleration `a` then): its coordinate on that axis only goes farther
/// (a parabola's is monotone once speed and acceleration agree), so it never reaches the
/// grid again and a walk can stop there. Without it, a body falling away from a small grid
/// under strong gravity walked window after window to the end of its search (the step's
/// lookahead: 128 steps), for nothing.
pub(crate) fn recedes(b: &Aabb, grid: &Aabb, v: Vec2, a: Vec2) -> bool {
    (0..2).any(|k| {
        (b.min[k] > grid.max[k] && v[k] >= 0.0 && a[k] >= 0.0)
            || (b.max[k] < grid.min[k] && v[k] <= 0.0 && a[k] <= 0.0)
    })
}

/// The end of the time window that starts at `ta` on `path` (times of the path) and covers at
/// most `chunk` of path ([`time_to_cover`] from the speed at `ta`), or `limit` when that comes
/// first, or when the window would make no progress at this magnitude of time (the rest of
/// the walk in one window). The walks of the grid, the sensor cells and the static shapes
/// step through their windows with it.
pub(crate) fn window_end(path: &Path, ta: Real, limit: Real, chunk: Real) -> Real {
    let w = time_to_cover(path.vel_at(ta).length(), path.accel.length(), chunk);
    let tb = if w.is_finite() && ta + w < limit {
        ta + w
    } else {
        limit
    };
    if tb > ta {
        tb
    } else {
        limit
    }
}

/// How long from time `t` a path with speed `speed` now and acceleration of length `acc` takes
/// to possibly cover `dist`: the root of `speed·Δ + ½·acc·Δ² = dist` (stable form).
pub(crate) fn time_to_cover(speed: Real, acc: Real, dist: Real) -> Real {
    let s = (speed * speed + 2.0 * acc * dist).sqrt();
    let d = speed + s;
    if d > 0.0 {
        2.0 * dist / d
    } else {
        Real::INFINITY
    }
}

impl Grid {
    /// Sweeps a circle of `radius` whose centre follows `path` (times from the path's start)
    /// through the grid over `[min_t, max_t]`: the earliest contact with an exposed face or
    /// convex corner of a solid cell, as [`Grid::sweep_circle_between`] for straight paths
    /// (the circle is known to have met nothing before `min_t`; a hit computed before it by
    /// rounding is reported at `min_t`). Ties go to the first cell in walk order (window, then
    /// row-major). See docs/algorithms.md, section 4c.
    #[must_use]
    pub fn sweep_path_circle_between(
        &self,
        path: &Path,
        radius: Real,
        min_t: Real,
        max_t: Real,
    ) -> Option<GridHit> {
        self.sweep_path_circle_kinds(CellKinds::ALL, path, radius, min_t, max_t)
    }

    /// [`Grid::sweep_path_circle_between`] for a body colliding with the cell kinds `kinds`
    /// only (`crate::model::filter`).
    pub(crate) fn sweep_path_circle_kinds(
        &self,
        kinds: CellKinds,
        path: &Path,
        radius: Real,
        min_t: Real,
        max_t: Real,
    ) -> Option<GridHit> {
        self.sweep_path_circle_skip(kinds, path, radius, min_t, max_t, None)
    }

    /// [`Grid::sweep_path_circle_kinds`] without the slope cells of corner `skip.1` on the
    /// same diagonal line as cell `skip.0`: the ramp whose diagonal holds the ball
    /// (`crate::step::shape_rest`). The cells are square, so that line holds the cells of the
    /// same `col + row` (corners top-left, bottom-right) or `col − row` (the others); a ball
    /// over one of their diagonals, `r` from the line on its empty side, is at least `r` from
    /// every one of their triangles, so no contact is lost.
    pub(crate) fn sweep_path_circle_skip(
        &self,
        kinds: CellKinds,
        path: &Path,
        radius: Real,
        min_t: Real,
        max_t: Real,
        skip: Option<(CellCoord, collide_core::Corner)>,
    ) -> Option<GridHit> {
        let on_ramp = |c: CellCoord| self.on_ramp(c, skip);
        if self.cols() == 0 || self.rows() == 0 || !(min_t <= max_t) || kinds.is_none() {
            return None;
        }
        let grid = self.bounds();
        let chunk = self.cell_size().max(2.0 * radius);
        let mut best: Option<GridHit> = None;
        let mut ta = min_t;
        // Bounded: each window covers at least `chunk` of path or ends the walk; a path
        // within `max_t` covers finitely many (and `max_t` is finite here).
        while ta < max_t {
            let tb = window_end(path, ta, max_t, chunk);
            let b = path_bounds(path, ta, tb).grown(radius);
            if collide_core::aabb_overlaps_aabb(&b, &grid) {
                if let Some((c0, r0, c1, r1)) = self.cell_range(&b) {
                    for row in r0..=r1 {
                        for col in c0..=c1 {
                            let c = CellCoord::new(col as u32, row as u32);
                            let f = self.features_for(c, kinds);
                            if f.is_empty() || on_ramp(c) {
                                continue;
                            }
                            let limit = best.map_or(max_t, |h| h.hit.toi);
                            let cell = self.cell_aabb_usize(col, row);
                            let hit = match self.cell(c) {
                                Cell::Slope(solid) => sweep_path_circle_half_tile(
                                    path,
                                    radius,
                                    limit,
                                    &HalfTile::new(cell, solid),
                                    f,
                                ),
                                _ => sweep_path_circle_aabb(path, radius, limit, &cell, f),
                            };
                            if let Some(mut hit) = hit {
                                hit.toi = hit.toi.max(min_t);
                                if best.is_none_or(|h| hit.toi < h.hit.toi) {
                                    best = Some(GridHit { hit, cell: c });
                                }
                            }
                        }
                    }
                }
            } else if recedes(&b, &grid, path.vel_at(tb), path.accel) {
                break;
            }
            if best.is_some_and(|h| h.hit.toi <= tb) {
                break;
            }
            ta = tb;
        }
        best
    }

    /// Whether cell `c` is a slope cell of corner `skip.1` on the same diagonal line as cell
    /// `skip.0` (a ramp of one face, `crate::step::shape_rest`): the cells of the same
    /// `col + row` (corners top-left, bottom-right) or `col − row` (the others), the cells
    /// being square. `false` without `skip`.
    fn on_ramp(&self, c: CellCoord, skip: Option<(CellCoord, collide_core::Corner)>) -> bool {
        let Some((h, corner)) = skip else {
            return false;
        };
        if self.cell(c) != Cell::Slope(corner) {
            return false;
        }
        let s = corner.signs();
        let (a, b) = (i64::from(c.col), i64::from(c.row));
        let (ha, hb) = (i64::from(h.col), i64::from(h.row));
        if s.x == s.y {
            a + b == ha + hb
        } else {
            a - b == ha - hb
        }
    }

    /// Sweeps the box `aabb` displaced along `disp` (times from the path's start; a dynamic
    /// rectangle under gravity) through the grid over `[min_t, max_t]` for a body colliding
    /// with the cell kinds `kinds`: the earliest hit on an exposed face of a solid cell, as
    /// [`Grid::sweep_aabb_between`] for straight paths. Walked in time windows as a circle's
    /// parabola (see the module docs): each window's exact bounding box lists the cells the
    /// box can touch, each is swept exactly (`collide_core::sweep_path::sweep_path_aabb_aabb`,
    /// per axis quadratics) and its hit kept on exposed faces only.
    pub(crate) fn sweep_path_aabb_kinds(
        &self,
        kinds: CellKinds,
        aabb: &Aabb,
        disp: &Path,
        min_t: Real,
        max_t: Real,
    ) -> Option<GridHit> {
        self.sweep_path_aabb_skip(kinds, aabb, disp, min_t, max_t, None)
    }

    /// [`Grid::sweep_path_aabb_kinds`] without the slope cells of the ramp `skip` whose
    /// diagonal holds the box (see [`Grid::sweep_path_circle_skip`]): a box whose corner is on
    /// the diagonal's line, on its empty side, lies in the empty half-plane of that line and
    /// overlaps none of the ramp's triangles, so no contact is lost.
    pub(crate) fn sweep_path_aabb_skip(
        &self,
        kinds: CellKinds,
        aabb: &Aabb,
        disp: &Path,
        min_t: Real,
        max_t: Real,
        skip: Option<(CellCoord, collide_core::Corner)>,
    ) -> Option<GridHit> {
        // (NaN times: no walk.)
        let ordered = min_t <= max_t;
        if self.cols() == 0 || self.rows() == 0 || !ordered || kinds.is_none() {
            return None;
        }
        let grid = self.bounds();
        let chunk = self.cell_size();
        let still = Path::default();
        let mut best: Option<GridHit> = None;
        let mut ta = min_t;
        // Bounded as the circle's walk.
        while ta < max_t {
            let tb = window_end(disp, ta, max_t, chunk);
            let b = box_path_bounds(aabb, disp, ta, tb);
            if collide_core::aabb_overlaps_aabb(&b, &grid) {
                if let Some((c0, r0, c1, r1)) = self.cell_range(&b) {
                    for row in r0..=r1 {
                        for col in c0..=c1 {
                            let c = CellCoord::new(col as u32, row as u32);
                            let f = self.features_for(c, kinds);
                            if f.is_empty() || self.on_ramp(c, skip) {
                                continue;
                            }
                            let limit = best.map_or(max_t, |h| h.hit.toi);
                            let cell = self.cell_aabb_usize(col, row);
                            let hit = match self.cell(c) {
                                Cell::Slope(solid) => {
                                    let tile = HalfTile::new(cell, solid);
                                    sweep_path_aabb_half_tile(aabb, disp, &tile, limit).and_then(
                                        |h| {
                                            let v = disp.vel_at(h.toi);
                                            let n = tile.diagonal_normal();
                                            box_slope_hit(f, solid, n, v, h)
                                        },
                                    )
                                }
                                _ => sweep_path_aabb_aabb(aabb, disp, &cell, &still, limit)
                                    .and_then(|h| box_cell_hit(f, h)),
                            };
                            if let Some(mut hit) = hit {
                                hit.toi = hit.toi.max(min_t);
                                if best.is_none_or(|h| hit.toi < h.hit.toi) {
                                    best = Some(GridHit { hit, cell: c });
                                }
                            }
                        }
                    }
                }
            } else if recedes(&b, &grid, disp.vel_at(tb), disp.accel) {
                break;
            }
            if best.is_some_and(|h| h.hit.toi <= tb) {
                break;
            }
            ta = tb;
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide_core::Vec2;
    use proptest::prelude::*;

    proptest! {
        /// The box holds the path: sampled points of random parabolas over random windows.
        #[test]
        fn path_bounds_hold_the_path(
            p in prop::array::uniform2(-1e3f64..1e3),
            v in prop::array::uniform2(-1e3f64..1e3),
            a in prop::array::uniform2(-1e4f64..1e4),
            ta in 0.0f64..2.0,
            len in 0.0f64..2.0,
        ) {
            let path = Path::ballistic(Vec2::from(p), Vec2::from(v), Vec2::from(a));
            let b = path_bounds(&path, ta, ta + len);
            for k in 0..=200 {
                let q = path.pos_at(ta + len * (k as f64 / 200.0));
                prop_assert!(b.min.x <= q.x && q.x <= b.max.x && b.min.y <= q.y && q.y <= b.max.y);
            }
        }
    }

    #[test]
    fn covering_time_solves_the_reach_bound() {
        for (s, a, d) in [(0.0, 981.0, 10.0), (100.0, 0.0, 10.0), (50.0, 9.81, 3.0)] {
            let t: Real = time_to_cover(s, a, d);
            assert!(
                (s * t + 0.5 * a * t * t - d).abs() < 1e-12 * d,
                "{s} {a} {d}"
            );
        }
        assert_eq!(time_to_cover(0.0, 0.0, 1.0), Real::INFINITY);
    }

    /// A ball dropped onto a floor of cells lands at the textbook time, on a face (never on
    /// the seam between two cells), and the walk agrees with a sweep of every cell.
    #[test]
    fn a_dropped_ball_lands_on_the_floor_face() {
        let mut rows = vec![String::from("..........")];
        for _ in 0..8 {
            rows.push(String::from(".........."));
        }
        rows.push(String::from("##########"));
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let g = Grid::from_rows(10.0, Vec2::ZERO, &refs).unwrap();
        // Centre at x = 30 (on the seam of cells 2 and 3), y = 5; floor at y = 90, radius 2:
        // it falls 83 units under g = 100: t = sqrt(2·83/100).
        let path = Path::ballistic(Vec2::new(30.0, 5.0), Vec2::ZERO, Vec2::new(0.0, 100.0));
        let h = g.sweep_path_circle_between(&path, 2.0, 0.0, 10.0).unwrap();
        let t: Real = (2.0f64 * 83.0 / 100.0).sqrt();
        assert!((h.hit.toi - t).abs() < 1e-14, "{} vs {t}", h.hit.toi);
        assert_eq!(h.hit.normal, Vec2::new(0.0, -1.0));
        assert!(matches!(h.hit.feature, collide_core::Feature::Face(_)));
    }
}

#[cfg(test)]
mod box_tests {
    use super::*;
    use collide_core::Vec2;

    /// A box leaving a floor of cells upward (touching it at the start) comes back down on
    /// it after `2·v/g`, on the top face, straddling a seam: one hit.
    #[test]
    fn a_box_thrown_up_from_a_floor_lands_back_on_it() {
        let mut rows = vec![String::from("          "); 20];
        rows.push(String::from("##########"));
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let g = Grid::from_rows(20.0, Vec2::ZERO, &refs).unwrap();
        let b = Aabb::new(Vec2::new(72.0, 384.0), Vec2::new(88.0, 400.0));
        let disp = Path::ballistic(Vec2::ZERO, Vec2::new(0.0, -158.0), Vec2::new(0.0, 1000.0));
        let h = g
            .sweep_path_aabb_kinds(CellKinds::ALL, &b, &disp, 0.0, 10.0)
            .expect("it lands");
        assert!((h.hit.toi - 0.316).abs() < 1e-12, "{}", h.hit.toi);
        assert_eq!(h.hit.normal, Vec2::new(0.0, -1.0));
    }
}
