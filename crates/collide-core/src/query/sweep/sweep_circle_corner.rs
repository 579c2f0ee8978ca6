//! A circle swept against one convex corner of a box: [`sweep_circle_corner`].

use crate::math::{Real, Vec2, FRAC_1_SQRT_2};
use crate::query::hit::{Feature, SweepHit};
use crate::query::sweep::sweep_circle_point::point_toi;
use crate::shape::feature::Corner;

/// Sweeps a circle against one convex corner of a box: like
/// [`sweep_circle_point`](crate::sweep_circle_point), but the hit only counts when the normal
/// at impact lies in the corner's exterior quadrant (signs of [`Corner::signs`], zero
/// components included). Outside that quadrant the circle meets a face first, or not at all:
/// those are seed 000's "fake" tangencies.
///
/// A zero normal component (exactly on the quadrant's edge) is accepted: there the corner's
/// arc and the neighbouring face give the same normal. A zero-radius circle (a point) that hits
/// the corner point exactly gets the quadrant's unit diagonal `(sx, sy)/√2` as its normal.
#[must_use]
#[inline]
pub fn sweep_circle_corner(
    center: Vec2,
    radius: Real,
    vel: Vec2,
    max_toi: Real,
    corner: Corner,
    point: Vec2,
) -> Option<SweepHit> {
    let (toi, q) = point_toi(center - point, radius, vel, max_toi)?;
    corner_hit(toi, q, corner, point)
}

/// The hit of a circle whose centre is at `q` from the corner `point` at time `toi`, if the
/// normal lies in the corner's exterior quadrant (see [`sweep_circle_corner`]); shared by the
/// sweeps along curved paths.
pub(crate) fn corner_hit(toi: Real, q: Vec2, corner: Corner, point: Vec2) -> Option<SweepHit> {
    let s = corner.signs();
    if q.x * s.x < 0.0 || q.y * s.y < 0.0 {
        return None;
    }
    let len = q.length();
    // The centre exactly on the corner at impact (a zero radius): the quadrant's diagonal.
    let normal = if len > 0.0 {
        q / len
    } else {
        s * FRAC_1_SQRT_2
    };
    Some(SweepHit {
        toi,
        normal,
        point,
        feature: Feature::Corner(corner),
    })
}
