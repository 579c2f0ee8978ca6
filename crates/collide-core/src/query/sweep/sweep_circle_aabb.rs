//! A circle swept against a box, its faces and corners: [`sweep_circle_aabb`].

use crate::math::{Real, Vec2};
use crate::query::hit::SweepHit;
use crate::query::sweep::{sweep_circle_corner, sweep_circle_face};
use crate::shape::feature::{Corner, Face, Features};
use crate::shape::Aabb;

/// Sweeps a circle (centre `center`, `radius`, velocity `vel`) against a static box whose
/// obstacle features are `features`: the Minkowski sum of the box and the disc, faces and
/// quarter-circle corners (see [the module docs](crate::sweep)). Returns the earliest hit in
/// `[0, max_toi]`.
///
/// Ties (equal toi) go to the first feature in the order left, right, top, bottom faces, then
/// top-left, top-right, bottom-left, bottom-right corners. For a moving box, pass the velocity
/// of the circle relative to the box.
///
/// # Example
/// ```
/// use collide_core::{sweep_circle_aabb, Aabb, Features, Vec2};
/// let b = Aabb::new(Vec2::new(10.0, 0.0), Vec2::new(20.0, 10.0));
/// // Centre at x = 0 moving right at 2 units/s, radius 2: the left face grown by 2 is at
/// // x = 8, 8 units away, so toi = 4 s and the normal is (-1, 0).
/// let hit = sweep_circle_aabb(Vec2::new(0.0, 5.0), 2.0, Vec2::new(2.0, 0.0), 10.0, &b, Features::ALL).unwrap();
/// assert_eq!(hit.toi, 4.0);
/// assert_eq!(hit.normal, Vec2::new(-1.0, 0.0));
/// assert_eq!(hit.point, Vec2::new(10.0, 5.0));
/// ```
#[must_use]
pub fn sweep_circle_aabb(
    center: Vec2,
    radius: Real,
    vel: Vec2,
    max_toi: Real,
    aabb: &Aabb,
    features: Features,
) -> Option<SweepHit> {
    let mut best: Option<SweepHit> = None;
    let mut limit = max_toi;
    for face in Face::ALL {
        if features.contains(face.bit()) {
            if let Some(h) = sweep_circle_face(center, radius, vel, limit, &face.segment(aabb)) {
                if best.is_none_or(|b| h.toi < b.toi) {
                    limit = h.toi;
                    best = Some(h);
                }
            }
        }
    }
    for corner in Corner::ALL {
        if features.contains(corner.bit()) {
            let p = corner.point(aabb);
            if let Some(h) = sweep_circle_corner(center, radius, vel, limit, corner, p) {
                if best.is_none_or(|b| h.toi < b.toi) {
                    limit = h.toi;
                    best = Some(h);
                }
            }
        }
    }
    best
}
