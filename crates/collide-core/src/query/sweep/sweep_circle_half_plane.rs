//! A circle swept against a solid half-plane (a wall): [`sweep_circle_half_plane`].

use crate::math::{Real, Vec2};
use crate::query::hit::{Feature, SweepHit};
use crate::shape::feature::{face_axis, FaceSegment};

/// Sweeps a circle against a solid half-plane: everything behind the line of `face` (on the
/// side opposite its outward normal), e.g. a wall of the world. Unlike a face of a box, the
/// whole region behind the line is solid, so a centre already behind the line (by rounding,
/// or a zero-radius circle) is in contact too: whenever the distance along the normal is
/// `<= radius` and the circle approaches, toi = 0. `face.lo`/`face.hi` are ignored.
///
/// # Returns
/// `None` when the circle does not approach (including `vel = 0`) or would reach the line
/// after `max_toi`. Never NaN for finite inputs.
#[must_use]
#[inline]
pub fn sweep_circle_half_plane(
    center: Vec2,
    radius: Real,
    vel: Vec2,
    max_toi: Real,
    face: &FaceSegment,
) -> Option<SweepHit> {
    let (axis, sign) = face_axis(face.face);
    let tangent = 1 - axis;
    let dist = (center[axis] - face.coord) * sign;
    let vn = vel[axis] * sign;
    if !(vn < 0.0) {
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
    let mut point = Vec2::ZERO;
    point[axis] = face.coord;
    point[tangent] = center[tangent] + vel[tangent] * toi;
    Some(SweepHit {
        toi,
        normal: face.face.normal(),
        point,
        feature: Feature::Face(face.face),
    })
}
