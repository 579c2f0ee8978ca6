//! A circle on a curved path (a ball under constant acceleration) against a segment:
//! [`sweep_path_circle_segment`].

use crate::math::{Real, Vec2};
use crate::motion::Path;
use crate::query::hit::{Earliest, SegmentFeature, SegmentHit};
use crate::query::sweep::sweep_circle_segment::{end_hit, face_point};
use crate::shape::{Segment, SegmentEnd, SegmentEnds};
use crate::sweep_path::{entry, point_entry};

/// A circle of `radius` on `path` against a static `segment` whose obstacle end points are
/// `ends`: the segment grown by `radius` (two faces and two end-point half discs, as
/// [`crate::sweep_circle_segment`]) met by the centre's parabola
/// `p(τ) = p0 + v0·τ + ½·a·τ²`.
///
/// - Each **face** (the segment's line pushed out by `radius` on one side, normal `±n̂`) is
///   reached when the gap `s0 − r + v_n·τ + ½·a_n·τ²` (`s0`, `v_n`, `a_n`: the signed
///   distance, velocity and acceleration along that side's normal) is entered, a quadratic
///   whose earliest entry is certified by [`crate::roots::first_entry`] (stable roots,
///   *Numerical Recipes* §5.6); the centre's projection must then lie on the segment. Both
///   sides are searched: a parabola can pass an end and come back to the far side. Contact at
///   the start only counts on the side the centre is on (`s0 > 0` strictly) and when the
///   centre is not at an end of the span moving (or accelerating) past it.
/// - Each **end point** in `ends` is reached at the certified earliest entry of the quartic
///   `|q + v·τ + ½·a·τ²|² − r²` ([`crate::roots::corner_quartic`]), and counts only when the
///   normal at impact points away from the segment (as for the straight sweep).
///
/// Contact at the start follows the crate's rule to second order (touching with the gap's
/// rate `< 0`, or `= 0` and its second derivative `< 0`: a ball resting on a slope under
/// gravity, is a hit at 0); touching and separating is no hit, but the next entry is found.
/// As every curved sweep, roots are isolated on `[0, SOLVE_HORIZON]` (or `[0, max_toi]` if
/// longer) before the comparison with `max_toi`, so the time found does not depend on how far
/// the caller looks ([`crate::sweep_path::SOLVE_HORIZON`]). Ties go to the faces (the side of
/// `n̂` first), then end `a`, then `b`. A segment of zero length is a point (see
/// [`crate::sweep_circle_segment`]).
///
/// # Arguments
/// - `path`: the centre's path (seconds, units/s, units/s²; y down, gravity is `(0, +g)`).
/// - `radius`: the circle's radius (world units, `>= 0`).
/// - `max_toi`: the horizon (seconds from the path's start).
/// - `segment`, `ends`: the obstacle and which of its end points are obstacles.
///
/// # Returns
/// The earliest [`SegmentHit`] in `[0, max_toi]` (normal from the segment toward the circle,
/// point on the segment), or `None`. Never NaN for finite inputs.
///
/// # Example
/// ```
/// use collide_core::motion::Path;
/// use collide_core::sweep_path::sweep_path_circle_segment;
/// use collide_core::{Segment, SegmentEnds, SegmentFeature, Vec2};
/// // A ball of radius 1 dropped from rest at (5, 0) under g = 100 (y down) onto a floor
/// // segment at y = 51: the centre falls 50 − 0 = 50 units, ½·100·t² = 50, t = 1 s.
/// let floor = Segment::new(Vec2::new(0.0, 51.0), Vec2::new(10.0, 51.0));
/// let path = Path::ballistic(Vec2::new(5.0, 0.0), Vec2::ZERO, Vec2::new(0.0, 100.0));
/// let hit = sweep_path_circle_segment(&path, 1.0, 10.0, &floor, SegmentEnds::BOTH).unwrap();
/// assert!((hit.toi - 1.0).abs() < 1e-15);
/// assert_eq!(hit.normal, Vec2::new(0.0, -1.0));
/// assert_eq!(hit.feature, SegmentFeature::Face);
/// ```
#[must_use]
pub fn sweep_path_circle_segment(
    path: &Path,
    radius: Real,
    max_toi: Real,
    segment: &Segment,
    ends: SegmentEnds,
) -> Option<SegmentHit> {
    let d = segment.b - segment.a;
    let len2 = d.length_squared();
    let mut e = Earliest::new(max_toi);
    if len2 > 0.0 {
        let n = d.perp() / len2.sqrt();
        for normal in [n, -n] {
            e.consider(face_hit(path, radius, e.limit, segment, d, len2, normal));
        }
    }
    for end in SegmentEnd::ALL {
        if !ends.contains(end.bit())
            || (len2 == 0.0 && end == SegmentEnd::B && ends.contains(SegmentEnds::A))
        {
            continue;
        }
        let p = segment.end(end);
        let h = point_entry(path, radius, e.limit, p, true)
            .and_then(|(toi, q)| end_hit(toi, q, end, p, d, path.vel_at(toi)));
        e.consider(h);
    }
    e.best
}

/// One face of `segment`, the side of the unit `normal` (see [`sweep_path_circle_segment`]).
fn face_hit(
    path: &Path,
    radius: Real,
    max_toi: Real,
    segment: &Segment,
    d: Vec2,
    len2: Real,
    normal: Vec2,
) -> Option<SegmentHit> {
    let s0 = (path.p0 - segment.a).dot(normal);
    let vn = path.v0.dot(normal);
    let an = path.accel.dot(normal);
    // At an end of the span and moving (or accelerating) past it, the face holds the circle
    // no longer: contact at the start is the end point's to decide (as for a box's face).
    let (u, ut, at) = (
        (path.p0 - segment.a).dot(d),
        path.v0.dot(d),
        path.accel.dot(d),
    );
    let leaving =
        |end: Real, out: Real| u == end && (ut * out > 0.0 || (ut == 0.0 && at * out > 0.0));
    let on_span = !(leaving(len2, 1.0) || leaving(0.0, -1.0));
    let outside = on_span && s0 > 0.0;
    let gap = [s0 - radius, vn, 0.5 * an, 0.0, 0.0];
    let toi = entry(&gap, vn, an, max_toi, outside)?;
    let u = (path.pos_at(toi) - segment.a).dot(d);
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
