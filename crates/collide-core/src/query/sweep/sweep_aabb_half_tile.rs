//! A moving box swept against a static half-tile: [`sweep_aabb_half_tile`], and the
//! separating-axis pieces shared with [`crate::sweep_path::sweep_path_aabb_half_tile`].
//!
//! A box and a triangle are convex polygons: they overlap exactly when their projections
//! overlap on every axis normal to an edge of either (the separating axis theorem: C. Ericson,
//! *Real-Time Collision Detection*, 2005, §5.2.1 and §5.5.8; G. van den Bergen, *Collision
//! Detection in Interactive 3D Environments*, 2003, §4.2). The box's edge normals are x and y,
//! the half-tile's are x, y (its legs) and the diagonal's outward normal: three axes. Their
//! Minkowski difference is the convex polygon cut by the three slabs, so a translating box
//! first overlaps the triangle at the latest of the three slab entries, provided it is before
//! the earliest exit. The diagonal's axis is used unnormalised, `(−sx·h, −sy·w)` (times are
//! ratios of projections, so the scale cancels), which on a square cell is `(−sx, −sy)` and
//! keeps the projections of integer coordinates exact.

use super::start_rate;
use crate::math::{Real, Vec2, FRAC_1_SQRT_2};
use crate::query::hit::{Feature, SweepHit};
use crate::query::overlap::closest_point_on_segment;
use crate::shape::feature::{Corner, Face};
use crate::shape::{Aabb, HalfTile};

/// The three separating axes: x, y and the diagonal's (unnormalised) outward direction.
pub(crate) fn axes(tile: &HalfTile) -> [Vec2; 3] {
    [Vec2::X, Vec2::Y, tile.outward()]
}

/// The projection `[lo, hi]` of the box `a` on the axis `m` (exact on x and y).
pub(crate) fn project_aabb(a: &Aabb, m: Vec2) -> (Real, Real) {
    let (x0, x1) = (a.min.x * m.x, a.max.x * m.x);
    let (y0, y1) = (a.min.y * m.y, a.max.y * m.y);
    (x0.min(x1) + y0.min(y1), x0.max(x1) + y0.max(y1))
}

/// One axis of a moving box's slab test against a static convex shape (Ericson §5.5.8): the
/// box's projection `a = [lo, hi]` moving at `v` along the axis, the shape's `b = [lo, hi]`.
/// `Some((entry, exit, side))`: the times the projections start and stop overlapping and the
/// side entered from (`-1`: from below `b`, `+1`: from above; `(−∞, +∞, 0)` without motion
/// along the axis while they overlap); `None` when they never overlap (apart, no motion).
pub(crate) fn slab(a: (Real, Real), b: (Real, Real), v: Real) -> Option<(Real, Real, Real)> {
    let ((alo, ahi), (blo, bhi)) = (a, b);
    if v > 0.0 {
        Some(((blo - ahi) / v, (bhi - alo) / v, -1.0))
    } else if v < 0.0 {
        Some(((bhi - alo) / v, (blo - ahi) / v, 1.0))
    } else if ahi > blo && alo < bhi {
        Some((Real::NEG_INFINITY, Real::INFINITY, 0.0))
    } else {
        None
    }
}

/// The slab test's verdict from the three axes' [`slab`] times: the latest entry, when it
/// comes before the earliest exit and that exit is ahead (`< 0`: overlapping at the start);
/// `None` when the box never enters all three slabs at once, or only did in the past.
pub(crate) fn slabs_entry(entry: &[Real; 3], exit: &[Real; 3]) -> Option<Real> {
    let t_entry = entry[0].max(entry[1]).max(entry[2]);
    let t_exit = exit[0].min(exit[1]).min(exit[2]);
    (t_entry < t_exit && t_exit > 0.0 && t_entry > Real::NEG_INFINITY).then_some(t_entry)
}

/// The projection `[lo, hi]` of the triangle on the axis `m`: the extremes of its vertices.
pub(crate) fn project_tile(tile: &HalfTile, m: Vec2) -> (Real, Real) {
    let mut lo = Real::INFINITY;
    let mut hi = Real::NEG_INFINITY;
    for c in tile.vertices() {
        let p = c.point(&tile.aabb).dot(m);
        lo = lo.min(p);
        hi = hi.max(p);
    }
    (lo, hi)
}

/// The normal and feature of an entry on axis `k` (0: x, 1: y, 2: the diagonal) from `side`
/// (`-1`: the box came from below the triangle's projection, `+1`: from above). On x or y the
/// side is a leg ([`Feature::Face`]) or, on the other two faces of the cell, only the vertex at
/// that end of the diagonal ([`Feature::Corner`], with the axis as its normal, which lies in
/// the vertex's normal cone). On the diagonal's axis from above: [`Feature::Diagonal`]; from
/// below (only at a tie, as x and y are then entered too): the corner `solid`.
fn axis_feature(tile: &HalfTile, k: usize, side: Real) -> (Vec2, Feature) {
    let legs = tile.legs();
    match k {
        0 => {
            let face = if side < 0.0 { Face::Left } else { Face::Right };
            let f = if legs[0] == face {
                Feature::Face(face)
            } else {
                Feature::Corner(tile.solid.flip_x())
            };
            (Vec2::new(side, 0.0), f)
        }
        1 => {
            let face = if side < 0.0 { Face::Top } else { Face::Bottom };
            let f = if legs[1] == face {
                Feature::Face(face)
            } else {
                Feature::Corner(tile.solid.flip_y())
            };
            (Vec2::new(0.0, side), f)
        }
        _ => {
            if side > 0.0 {
                (tile.diagonal_normal(), Feature::Diagonal)
            } else {
                (-tile.diagonal_normal(), Feature::Corner(tile.solid))
            }
        }
    }
}

/// x and y entered at the same instant (box corner to cell corner): the unit diagonal of the
/// signs as the normal and that corner of the cell, as [`crate::sweep_aabb_aabb`] does; the
/// corner opposite `solid` is no vertex, and the contact there is the diagonal's.
fn corner_feature(tile: &HalfTile, sx: Real, sy: Real) -> (Vec2, Feature) {
    let corner = Corner::from_signs(sx, sy);
    if corner == tile.solid.opposite() {
        (tile.diagonal_normal(), Feature::Diagonal)
    } else {
        (Vec2::new(sx, sy) * FRAC_1_SQRT_2, Feature::Corner(corner))
    }
}

/// The normal and feature of the latest of the slab entries `starts` (sides `sides`): ties
/// between x and y (both latest) give the corner, other ties go to x, then y, then the
/// diagonal.
pub(crate) fn entry_feature(
    tile: &HalfTile,
    starts: [Real; 3],
    sides: [Real; 3],
) -> (Vec2, Feature) {
    let t = starts[0].max(starts[1]).max(starts[2]);
    if starts[0] == t && starts[1] == t {
        return corner_feature(tile, sides[0], sides[1]);
    }
    let k = (0..3).find(|&k| starts[k] == t).unwrap_or(2);
    axis_feature(tile, k, sides[k])
}

/// The contact point of the box `at` touching the triangle by `feature`: on a leg, the middle
/// of the shared stretch of the leg's line; at a vertex, the vertex; on the diagonal, the
/// box's corner nearest to it (its corner named `solid`) projected onto the diagonal.
pub(crate) fn contact_point(at: &Aabb, tile: &HalfTile, feature: Feature) -> Vec2 {
    match feature {
        Feature::Face(face) => {
            let seg = face.segment(&tile.aabb);
            let (axis, _) = crate::shape::feature::face_axis(face);
            let t = 1 - axis;
            let lo = at.min[t].max(seg.lo);
            let hi = at.max[t].min(seg.hi);
            let mut p = Vec2::ZERO;
            p[axis] = seg.coord;
            p[t] = (0.5 * (lo + hi)).max(seg.lo).min(seg.hi);
            p
        }
        Feature::Corner(c) => c.point(&tile.aabb),
        Feature::Diagonal | Feature::Circle => {
            closest_point_on_segment(tile.solid.point(at), &tile.diagonal()).0
        }
    }
}

/// The contact of a box that already overlaps the triangle with positive area (by rounding):
/// the contact rule on the axis of least penetration (the depths along the unit axes), as
/// [`crate::sweep_aabb_aabb`]'s: a hit at toi 0 only if the box approaches along it, by
/// [`start_rate`] of its velocity `rates[k]` and acceleration `acc[k]` along axis `k` (zero on
/// a straight path), else `None`. Ties go to x, then y, then the diagonal; x and y tied (and
/// least) give the corner when both approach.
pub(crate) fn overlapping_start(
    a: &Aabb,
    tile: &HalfTile,
    rates: [Real; 3],
    acc: [Real; 3],
) -> Option<SweepHit> {
    let ax = axes(tile);
    let mut depth = [0.0; 3];
    let mut sign = [0.0; 3];
    let mut rate = [0.0; 3];
    for k in 0..3 {
        let (alo, ahi) = project_aabb(a, ax[k]);
        let (tlo, thi) = project_tile(tile, ax[k]);
        let (up, down) = (thi - alo, ahi - tlo);
        let (d, s) = if up <= down { (up, 1.0) } else { (down, -1.0) };
        depth[k] = if k == 2 { d / ax[k].length() } else { d };
        sign[k] = s;
        rate[k] = start_rate(rates[k], acc[k], d);
    }
    let approach = |k: usize| rate[k] * sign[k] < 0.0;
    let least = depth[0].min(depth[1]).min(depth[2]);
    let (normal, feature) = if depth[0] == least && depth[1] == least {
        match (approach(0), approach(1)) {
            (false, false) => return None,
            (true, false) => axis_feature(tile, 0, sign[0]),
            (false, true) => axis_feature(tile, 1, sign[1]),
            (true, true) => corner_feature(tile, sign[0], sign[1]),
        }
    } else {
        let k = (0..3).find(|&k| depth[k] == least).unwrap_or(2);
        if !approach(k) {
            return None;
        }
        axis_feature(tile, k, sign[k])
    };
    let lo = a.min.max(tile.aabb.min);
    let hi = a.max.min(tile.aabb.max);
    Some(SweepHit {
        toi: 0.0,
        normal,
        point: tile.closest_point((lo + hi) * 0.5),
        feature,
    })
}

/// Sweeps a box `a` moving at `va` (no rotation) against a static half-tile: the earliest toi
/// in `[0, max_toi]` at which they start to overlap (the instant they touch while entering),
/// by the separating axes x, y and the diagonal's normal (see the module docs: the entry is
/// the latest of the three slab entries, if before the earliest exit; Ericson §5.5.8's slab
/// test with the triangle's third axis).
///
/// The normal is the axis entered last, pointing from the triangle toward the box: `±x` or
/// `±y` (feature [`Feature::Face`] of the leg, or, on the two other faces of the cell, where
/// the triangle is only the vertex at the end of its diagonal, [`Feature::Corner`] of that
/// vertex) or [`HalfTile::diagonal_normal`] ([`Feature::Diagonal`]: the box meets the diagonal
/// corner first). Ties: x and y entered at the same instant give the corner of the cell and
/// the unit diagonal `(sx, sy)/√2`, as [`crate::sweep_aabb_aabb`]; other ties go to x, then y,
/// then the diagonal. The contact point is the middle of the shared stretch of a leg, the
/// vertex, or the box's corner on the diagonal.
///
/// Boxes that only touch or slide along the triangle never hit. Already overlapping (by
/// rounding): the axis of least penetration decides, toi 0 if approaching along it, else no
/// hit (as [`crate::sweep_aabb_aabb`]). For a moving tile, pass the relative velocity.
///
/// # Returns
/// The hit, or `None` (apart throughout `[0, max_toi]`, separating, or sliding). Never NaN for
/// finite inputs.
///
/// # Example
/// ```
/// use collide_core::{sweep_aabb_half_tile, Aabb, Corner, Feature, HalfTile, Vec2};
/// // The cell [0, 10]², solid bottom-right: the diagonal x + y = 10, normal (−1, −1)/√2.
/// // A 2 × 2 box [2, 4] × [−6, −4] falls at 2 units/s. Its corner nearest the line is its
/// // bottom-right (4, −4 + 2t) (largest x + y), which meets it when 4 − 4 + 2t = 10, t = 5 s,
/// // at the point (4, 6); its bottom entered the cell's top row y = 0 earlier, at t = 2 s.
/// let t = HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::splat(10.0)), Corner::BottomRight);
/// let a = Aabb::new(Vec2::new(2.0, -6.0), Vec2::new(4.0, -4.0));
/// let hit = sweep_aabb_half_tile(&a, Vec2::new(0.0, 2.0), &t, 10.0).unwrap();
/// assert_eq!(hit.toi, 5.0);
/// assert_eq!(hit.feature, Feature::Diagonal);
/// assert_eq!(hit.normal, t.diagonal_normal());
/// assert!((hit.point - Vec2::new(4.0, 6.0)).length() < 1e-14);
/// ```
#[must_use]
pub fn sweep_aabb_half_tile(
    a: &Aabb,
    va: Vec2,
    tile: &HalfTile,
    max_toi: Real,
) -> Option<SweepHit> {
    let ax = axes(tile);
    let mut entry = [Real::NEG_INFINITY; 3];
    let mut exit = [Real::INFINITY; 3];
    let mut side = [0.0; 3];
    let mut rates = [0.0; 3];
    for k in 0..3 {
        let (alo, ahi) = project_aabb(a, ax[k]);
        let (tlo, thi) = project_tile(tile, ax[k]);
        let v = match k {
            0 => va.x,
            1 => va.y,
            _ => va.dot(ax[k]),
        };
        rates[k] = v;
        (entry[k], exit[k], side[k]) = slab((alo, ahi), (tlo, thi), v)?;
    }
    let t_entry = slabs_entry(&entry, &exit)?;
    if t_entry < 0.0 {
        return overlapping_start(a, tile, rates, [0.0; 3]);
    }
    let toi = t_entry;
    if !(toi <= max_toi) {
        return None;
    }
    let (normal, feature) = entry_feature(tile, entry, side);
    let at = a.translated(va * toi);
    Some(SweepHit {
        toi,
        normal,
        point: contact_point(&at, tile, feature),
        feature,
    })
}
