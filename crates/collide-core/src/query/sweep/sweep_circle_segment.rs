//! A circle swept along a straight line against a segment: [`sweep_circle_segment`].

use crate::math::{Real, Vec2};
use crate::query::hit::{Earliest, SegmentFeature, SegmentHit};
use crate::query::sweep::sweep_circle_point::point_toi;
use crate::shape::{Segment, SegmentEnd, SegmentEnds};

/// Sweeps a circle (centre `center`, `radius`, velocity `vel`) against a static `segment`
/// whose obstacle end points are `ends`: the earliest hit in `[0, max_toi]`.
///
/// The centre touches the segment exactly when it reaches the segment grown by `radius` (the
/// Minkowski sum of the segment and the disc: a capsule): two faces, the segment's line pushed
/// out by `radius` on each side, and two half discs of `radius` around the end points
/// (C. Ericson, *Real-Time Collision Detection*, 2005, §5.5.7 applied to a segment):
/// - a **face** (the side the centre is on) is hit when the centre's distance to the line
///   reaches `radius` while approaching it, at a point whose projection lies on the segment
///   (ends included): `toi = (dist − radius)/(−v_n)`, normal the segment's normal signed
///   toward the centre;
/// - an **end point** is hit when the centre comes within `radius` of it (the point quadratic
///   of [`crate::sweep_circle_point`]), only if it is in `ends`, and only if the normal at
///   impact points away from the segment (`(c − end)·(other end − end) <= 0`): a contact inside
///   the slab of the segment is a face's (the "fake" tangencies of the box corners).
///
/// Contact at start (Bannerman et al. 2014): already within `radius` of the face's line (on
/// the segment's span) or of an obstacle end point and approaching: `toi = 0`; touching and
/// separating or sliding: no hit. A centre exactly on the segment's line has no side, and its
/// faces are not hit (an end point still can be). Ties go to the face, then end `a`, then `b`.
/// A segment of zero length has no face: it is a point, hit as end `a` if `ends` has `A`, else
/// as `b` if it has `B`.
///
/// # Arguments
/// - `center`, `radius`: the circle (world units, `radius >= 0`).
/// - `vel`: its velocity; the toi is in the time unit of `vel` (pass the step's displacement
///   and `max_toi = 1` for a fraction of the motion).
/// - `segment`, `ends`: the obstacle and which of its end points are obstacles (for the joints
///   of a polyline, see [`SegmentEnds`]).
///
/// # Returns
/// The earliest [`SegmentHit`] (normal from the segment toward the circle, point on the
/// segment), or `None`: no approach (including `vel = 0`), a miss, or a hit after `max_toi`.
/// Never NaN for finite inputs.
///
/// # Example
/// ```
/// use collide_core::{sweep_circle_segment, Segment, SegmentEnds, SegmentFeature, Vec2};
/// // A floor from (0, 10) to (20, 10); a ball of radius 2 at (5, 0) falling at 4 units/s
/// // (y down). Its centre must reach y = 10 − 2 = 8, 8 units away: toi = 8/4 = 2 s, landing at
/// // x = 5 on the face, normal up (0, −1).
/// let floor = Segment::new(Vec2::new(0.0, 10.0), Vec2::new(20.0, 10.0));
/// let hit = sweep_circle_segment(Vec2::new(5.0, 0.0), 2.0, Vec2::new(0.0, 4.0), 10.0, &floor, SegmentEnds::BOTH).unwrap();
/// assert_eq!(hit.toi, 2.0);
/// assert_eq!(hit.normal, Vec2::new(0.0, -1.0));
/// assert_eq!(hit.point, Vec2::new(5.0, 10.0));
/// assert_eq!(hit.feature, SegmentFeature::Face);
/// ```
#[must_use]
pub fn sweep_circle_segment(
    center: Vec2,
    radius: Real,
    vel: Vec2,
    max_toi: Real,
    segment: &Segment,
    ends: SegmentEnds,
) -> Option<SegmentHit> {
    let d = segment.b - segment.a;
    let len2 = d.length_squared();
    let mut e = Earliest::new(max_toi);
    if len2 > 0.0 {
        e.consider(face_hit(center, radius, vel, e.limit, segment, d, len2));
    }
    for end in SegmentEnd::ALL {
        if !ends.contains(end.bit())
            || (len2 == 0.0 && end == SegmentEnd::B && ends.contains(SegmentEnds::A))
        {
            continue;
        }
        let p = segment.end(end);
        e.consider(
            point_toi(center - p, radius, vel, e.limit)
                .and_then(|(toi, q)| end_hit(toi, q, end, p, d, vel)),
        );
    }
    e.best
}

/// The face of `segment` on the centre's side (see [`sweep_circle_segment`]).
fn face_hit(
    center: Vec2,
    radius: Real,
    vel: Vec2,
    max_toi: Real,
    segment: &Segment,
    d: Vec2,
    len2: Real,
) -> Option<SegmentHit> {
    let n = d.perp() / len2.sqrt();
    let s = (center - segment.a).dot(n);
    if s == 0.0 {
        return None;
    }
    let normal = if s > 0.0 { n } else { -n };
    let dist = s.abs();
    let vn = vel.dot(normal);
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
    let u = (center + vel * toi - segment.a).dot(d);
    if !(u >= 0.0 && u <= len2) {
        return None;
    }
    Some(SegmentHit {
        toi,
        normal,
        point: face_point(segment, d, u, len2),
        feature: SegmentFeature::Face,
    })
}

/// The point of the segment at the (unnormalised) projection `u = (c − a)·d`, `0 <= u <= |d|²`:
/// the end points themselves at the ends.
pub(crate) fn face_point(segment: &Segment, d: Vec2, u: Real, len2: Real) -> Vec2 {
    if u <= 0.0 {
        segment.a
    } else if u >= len2 {
        segment.b
    } else {
        segment.a + d * (u / len2)
    }
}

/// The hit of an end point `p` of a segment of direction `d = b − a` when the centre is at `q`
/// from it at `toi`, if the normal points away from the segment, to within 1e-12 of a right
/// angle (see [`sweep_circle_segment`]);
/// `vel` gives the normal of a zero-radius circle that reaches the point itself. Shared with
/// the sweep along curved paths.
pub(crate) fn end_hit(
    toi: Real,
    q: Vec2,
    end: SegmentEnd,
    p: Vec2,
    d: Vec2,
    vel: Vec2,
) -> Option<SegmentHit> {
    // Outward to within 1e-12 of a right angle: the faces' span test (`0 <= u <= |d|²`, `u`
    // from the end `a`) rounds differently from this one at the junction of a face and an
    // end's half disc, and a circle touching exactly there (a ball pushed out of a capsule to
    // the rim of its end) would otherwise be claimed by neither and pass into the segment.
    let along = q.dot(d);
    let tol = 1e-12 * q.length() * d.length();
    let outward = match end {
        SegmentEnd::A => along <= tol,
        SegmentEnd::B => along >= -tol,
    };
    if !outward {
        return None;
    }
    let len = q.length();
    let normal = if len > 0.0 {
        q / len
    } else {
        let s = vel.length();
        if s > 0.0 {
            -vel / s
        } else {
            Vec2::NEG_Y
        }
    };
    Some(SegmentHit {
        toi,
        normal,
        point: p,
        feature: SegmentFeature::End(end),
    })
}
