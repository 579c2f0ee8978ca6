//! A circle swept against a half-tile (a 45° slope cell): [`sweep_circle_half_tile`].

use crate::math::{Real, Vec2};
use crate::query::hit::{Earliest, Feature, SweepHit};
use crate::query::sweep::sweep_circle_face;
use crate::query::sweep::sweep_circle_point::point_toi;
use crate::query::sweep::sweep_circle_segment::face_point;
use crate::shape::feature::{Corner, Features};
use crate::shape::HalfTile;

/// Sweeps a circle (centre `center`, `radius`, velocity `vel`) against a static half-tile
/// whose obstacle features are `features`: the earliest hit in `[0, max_toi]`.
///
/// The centre touches the triangle exactly when it enters the Minkowski sum of the triangle
/// and the disc: three edge slabs (each edge pushed out by `radius` along its outward normal)
/// and three arcs of `radius` around the vertices, each spanning the vertex's exterior normal
/// cone (C. Ericson, *Real-Time Collision Detection*, 2005, §5.5.7, applied to a convex
/// polygon as [`crate::sweep_circle_aabb`] applies it to a box):
/// - the two **legs** ([`HalfTile::legs`]) are the box's faces, swept by
///   [`crate::sweep_circle_face`], and are obstacles only if their face bit is in `features`
///   (the bits of the two other faces are ignored);
/// - the **diagonal** is always an obstacle, one-sided like a face: a centre on its outer side
///   (signed distance along [`HalfTile::diagonal_normal`] `>= 0`) reaches the line pushed out
///   by `radius` at `toi = (dist − radius)/(−v_n)` (toi 0 if already within `radius` and
///   approaching), and the hit counts if the centre's projection then lies on the diagonal,
///   ends included. Feature [`Feature::Diagonal`], normal [`HalfTile::diagonal_normal`], point
///   the foot of the centre on the diagonal;
/// - each **vertex** ([`HalfTile::vertices`]) whose corner bit is in `features` (the bit of
///   the corner opposite `solid` is ignored) is hit when the centre comes within `radius` of it
///   (the point quadratic of [`crate::sweep_circle_point`]), and only if the normal at impact
///   `q = centre − vertex` lies in the vertex's exterior normal cone: `q·e <= 0` for both unit
///   edge directions `e` leaving the vertex. At `solid` this is the quadrant of
///   [`crate::sweep_circle_corner`]; at an end of the diagonal it is a 135° cone, wider than
///   the box corner's quadrant, so that a ball coming from outside the quadrant but beside the
///   diagonal's slab meets the vertex rather than tunnelling past it. Feature
///   [`Feature::Corner`] of that box corner, normal `q/|q|`.
///
/// Contact at start (Bannerman et al. 2014): a centre within `radius` of a leg's or the
/// diagonal's line, on its outer side and within its span, or within `radius` of an obstacle
/// vertex (in its cone), and approaching it: `toi = 0`; touching and separating or sliding: no
/// hit. A centre behind an edge's line (inside the triangle, or in the empty half of the box
/// for a leg) gets no hit from that edge. Ties (equal toi) go to the legs (in the order of
/// [`HalfTile::legs`]), then the diagonal, then the vertices in the order of
/// [`HalfTile::vertices`].
///
/// # Arguments
/// - `center`, `radius`: the circle (world units, `radius >= 0`).
/// - `vel`: its velocity; the toi is in the time unit of `vel`.
/// - `max_toi`: the horizon.
/// - `tile`, `features`: the obstacle and which of its legs and vertices are obstacles (a tile
///   grid passes the exposed legs and convex vertices of the cell).
///
/// # Returns
/// The earliest [`SweepHit`] (normal from the triangle toward the circle, point on the
/// triangle), or `None`: no approach (including `vel = 0`), a miss, or a hit after `max_toi`.
/// Never NaN for finite inputs.
///
/// # Example
/// ```
/// use collide_core::{sweep_circle_half_tile, Aabb, Corner, Feature, Features, HalfTile, Vec2};
/// // The cell [0, 10]², solid bottom-left: the diagonal is the line y = x, normal
/// // (1, −1)/√2. A ball of radius √2 at (8, −10) falling at 1 unit/s: its signed distance to
/// // the line is (8 − y)/√2, which reaches √2 when y = 6: after 16 s. The centre (8, 6) then
/// // has its foot ((8 + 6)/2, (8 + 6)/2) = (7, 7) on the diagonal.
/// let t = HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::splat(10.0)), Corner::BottomLeft);
/// let r = 2.0f64.sqrt();
/// let hit = sweep_circle_half_tile(Vec2::new(8.0, -10.0), r, Vec2::new(0.0, 1.0), 100.0, &t, Features::ALL).unwrap();
/// assert!((hit.toi - 16.0).abs() < 1e-13);
/// assert_eq!(hit.feature, Feature::Diagonal);
/// assert_eq!(hit.normal, t.diagonal_normal());
/// assert!((hit.point - Vec2::new(7.0, 7.0)).length() < 1e-13);
/// ```
#[must_use]
pub fn sweep_circle_half_tile(
    center: Vec2,
    radius: Real,
    vel: Vec2,
    max_toi: Real,
    tile: &HalfTile,
    features: Features,
) -> Option<SweepHit> {
    let mut e = Earliest::new(max_toi);
    for face in tile.legs() {
        if features.contains(face.bit()) {
            let h = sweep_circle_face(center, radius, vel, e.limit, &face.segment(&tile.aabb));
            e.consider(h);
        }
    }
    e.consider(diagonal_hit(center, radius, vel, e.limit, tile));
    for corner in tile.vertices() {
        if features.contains(corner.bit()) {
            let p = corner.point(&tile.aabb);
            let h = point_toi(center - p, radius, vel, e.limit)
                .and_then(|(toi, q)| vertex_hit(toi, q, tile, corner, p));
            e.consider(h);
        }
    }
    e.best
}

/// The one-sided diagonal face (see [`sweep_circle_half_tile`]).
fn diagonal_hit(
    center: Vec2,
    radius: Real,
    vel: Vec2,
    max_toi: Real,
    tile: &HalfTile,
) -> Option<SweepHit> {
    let seg = tile.diagonal();
    let n = tile.diagonal_normal();
    let dist = (center - seg.a).dot(n);
    let vn = vel.dot(n);
    if !(dist >= 0.0 && vn < 0.0) {
        return None;
    }
    let toi = if dist <= radius {
        0.0
    } else {
        (dist - radius) / -vn
    };
    if !(toi <= max_toi) {
        return None;
    }
    let d = seg.b - seg.a;
    let len2 = d.length_squared();
    let u = (center + vel * toi - seg.a).dot(d);
    if !(u >= 0.0 && u <= len2) {
        return None;
    }
    Some(SweepHit {
        toi,
        normal: n,
        point: face_point(&seg, d, u, len2),
        feature: Feature::Diagonal,
    })
}

/// The hit of a circle whose centre is at `q` from the vertex `corner` (at `point`) of `tile`
/// at `toi`, if `q` lies in the vertex's exterior normal cone (see
/// [`sweep_circle_half_tile`]); shared with the sweep along curved paths.
pub(crate) fn vertex_hit(
    toi: Real,
    q: Vec2,
    tile: &HalfTile,
    corner: Corner,
    point: Vec2,
) -> Option<SweepHit> {
    if !tile.in_vertex_cone(corner, q) {
        return None;
    }
    Some(SweepHit {
        toi,
        normal: tile.vertex_normal(corner, q),
        point,
        feature: Feature::Corner(corner),
    })
}
