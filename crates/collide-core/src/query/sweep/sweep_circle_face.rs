//! A circle swept against one face of a box: [`sweep_circle_face`].

use crate::math::{Real, Vec2};
use crate::query::hit::{Feature, SweepHit};
use crate::shape::feature::{face_axis, FaceSegment};

/// Sweeps a circle (centre `center`, `radius`, velocity `vel`) against one face segment.
///
/// The centre must be on the face's outer side (its signed distance to the face line, along
/// the outward normal, `>= 0`): a centre behind the face line is embedded and gets `None`
/// (resolve embedding with [`crate::contact_circle_aabb`] or the world's push-out). If the
/// circle already touches the face line (distance `<= radius`) and approaches, toi = 0.
/// A hit needs the centre's tangential coordinate at impact within `[lo, hi]`, ends included,
/// so that two adjacent faces leave no gap between them.
///
/// # Returns
/// `None` when the circle does not approach the face (including `vel = 0`), misses it, or would
/// reach it after `max_toi`. Never NaN for finite inputs.
#[must_use]
#[inline]
pub fn sweep_circle_face(
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
    let t = center[tangent] + vel[tangent] * toi;
    if !(t >= face.lo && t <= face.hi) {
        return None;
    }
    let mut point = Vec2::ZERO;
    point[axis] = face.coord;
    point[tangent] = t;
    Some(SweepHit {
        toi,
        normal: face.face.normal(),
        point,
        feature: Feature::Face(face.face),
    })
}
