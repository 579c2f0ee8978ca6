//! A circle on a curved path (a ball under constant acceleration) against a half-tile:
//! [`sweep_path_circle_half_tile`].

use crate::math::Real;
use crate::motion::Path;
use crate::query::hit::{Earliest, Feature, SweepHit};
use crate::query::sweep::sweep_circle_half_tile::vertex_hit;
use crate::query::sweep::sweep_circle_segment::face_point;
use crate::shape::feature::Features;
use crate::shape::HalfTile;
use crate::sweep_path::{entry, point_entry, sweep_path_circle_face};

/// A circle of `radius` on `path` against a static half-tile whose obstacle features are
/// `features`: the Minkowski sum of the triangle and the disc of
/// [`crate::sweep_circle_half_tile`] (legs, the diagonal, vertex arcs in their exterior normal
/// cones; the same feature bits) met by the centre's parabola `p(τ) = p0 + v0·τ + ½·a·τ²`.
///
/// - The **legs** are the box's faces, swept by [`crate::sweep_path::sweep_path_circle_face`].
/// - The **diagonal** (always an obstacle) is reached when the gap `s0 − r + v_n·τ + ½·a_n·τ²`
///   along [`HalfTile::diagonal_normal`] is entered, the quadratic of
///   [`crate::sweep_path_circle_segment`]'s faces, its earliest entry certified by
///   [`crate::roots::first_entry`] (stable roots, *Numerical Recipes* §5.6); the centre's
///   projection must then lie on the diagonal. One-sided: contact at the start needs the
///   centre on the outer side (`s0 >= 0`) and not at an end of the span moving past it; a
///   centre starting behind the line can still reach it later from outside (that entry is
///   found).
/// - Each **vertex** in `features` is reached at the certified earliest entry of the quartic
///   `|q + v·τ + ½·a·τ²|² − r²` ([`crate::roots::corner_quartic`]) and counts only when the
///   normal at impact lies in the vertex's exterior normal cone (the quadrant at `solid`, 135°
///   at the ends of the diagonal), as for the straight sweep.
///
/// Contact at the start follows the crate's rule to second order (a ball resting on the
/// diagonal under gravity is a hit at 0); touching and separating is no hit, but the next
/// entry is found. Roots are isolated on `[0, SOLVE_HORIZON]` (or `[0, max_toi]` if longer)
/// before the comparison with `max_toi` ([`crate::sweep_path::SOLVE_HORIZON`]). Ties go to the
/// legs, then the diagonal, then the vertices (the order of [`crate::sweep_circle_half_tile`]).
///
/// # Arguments
/// - `path`: the centre's path (seconds, units/s, units/s²; y down, gravity is `(0, +g)`).
/// - `radius`: the circle's radius (world units, `>= 0`).
/// - `max_toi`: the horizon (seconds from the path's start).
/// - `tile`, `features`: the obstacle and which of its legs and vertices are obstacles.
///
/// # Returns
/// The earliest [`SweepHit`] in `[0, max_toi]` (normal from the triangle toward the circle,
/// point on the triangle), or `None`. Never NaN for finite inputs.
///
/// # Example
/// ```
/// use collide_core::motion::Path;
/// use collide_core::sweep_path::sweep_path_circle_half_tile;
/// use collide_core::{Aabb, Corner, Feature, Features, HalfTile, Vec2};
/// // The cell [0, 100]², solid bottom-right: the diagonal from (100, 0) to (0, 100) is the line
/// // x + y = 100, normal (−1, −1)/√2 (up and left). A ball of radius √2 dropped from rest at
/// // (40, 0) under g = 100: its distance to the line is (100 − 40 − y)/√2, which is √2 when
/// // y = 58: ½·100·t² = 58, t = √1.16 s.
/// let t = HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::splat(100.0)), Corner::BottomRight);
/// let path = Path::ballistic(Vec2::new(40.0, 0.0), Vec2::ZERO, Vec2::new(0.0, 100.0));
/// let hit = sweep_path_circle_half_tile(&path, 2.0f64.sqrt(), 10.0, &t, Features::ALL).unwrap();
/// assert!((hit.toi - 1.16f64.sqrt()).abs() < 1e-13);
/// assert_eq!(hit.feature, Feature::Diagonal);
/// assert_eq!(hit.normal, t.diagonal_normal());
/// ```
#[must_use]
pub fn sweep_path_circle_half_tile(
    path: &Path,
    radius: Real,
    max_toi: Real,
    tile: &HalfTile,
    features: Features,
) -> Option<SweepHit> {
    let mut e = Earliest::new(max_toi);
    for face in tile.legs() {
        if features.contains(face.bit()) {
            let h = sweep_path_circle_face(path, radius, e.limit, &face.segment(&tile.aabb));
            e.consider(h);
        }
    }
    e.consider(diagonal_hit(path, radius, e.limit, tile));
    for corner in tile.vertices() {
        if features.contains(corner.bit()) {
            let p = corner.point(&tile.aabb);
            let h = point_entry(path, radius, e.limit, p, false)
                .and_then(|(toi, q)| vertex_hit(toi, q, tile, corner, p));
            e.consider(h);
        }
    }
    e.best
}

/// The one-sided diagonal face on a curved path (see [`sweep_path_circle_half_tile`]).
fn diagonal_hit(path: &Path, radius: Real, max_toi: Real, tile: &HalfTile) -> Option<SweepHit> {
    let seg = tile.diagonal();
    let normal = tile.diagonal_normal();
    let d = seg.b - seg.a;
    let len2 = d.length_squared();
    let s0 = (path.p0 - seg.a).dot(normal);
    let vn = path.v0.dot(normal);
    let an = path.accel.dot(normal);
    // At an end of the span and moving (or accelerating) past it, the diagonal holds the
    // circle no longer: contact at the start is the vertex's to decide.
    let (u, ut, at) = ((path.p0 - seg.a).dot(d), path.v0.dot(d), path.accel.dot(d));
    let leaving =
        |end: Real, out: Real| u == end && (ut * out > 0.0 || (ut == 0.0 && at * out > 0.0));
    let on_span = !(leaving(len2, 1.0) || leaving(0.0, -1.0));
    let outside = on_span && s0 >= 0.0;
    let gap = [s0 - radius, vn, 0.5 * an, 0.0, 0.0];
    let toi = entry(&gap, vn, an, max_toi, outside)?;
    let u = (path.pos_at(toi) - seg.a).dot(d);
    if !(u >= 0.0 && u <= len2) {
        return None;
    }
    Some(SweepHit {
        toi,
        normal,
        point: face_point(&seg, d, u, len2),
        feature: Feature::Diagonal,
    })
}
