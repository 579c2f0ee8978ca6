//! A point and a segment: [`closest_point_on_segment`] and [`distance_point_segment`].

use crate::math::{Real, Vec2};
use crate::shape::Segment;

/// The point of `segment` nearest to `p`, and its parameter `t` in `[0, 1]` along the segment
/// (`a + t·(b − a)`).
///
/// The projection `t = (p − a)·(b − a) / |b − a|²`, clamped to `[0, 1]` (C. Ericson,
/// *Real-Time Collision Detection*, 2005, §5.1.2). At the clamps the end point itself is
/// returned (not `a + 1·(b − a)`, which can round off `b`). A segment of zero length gives
/// `(a, 0)`. Never NaN for finite inputs.
///
/// ```
/// use collide_core::{closest_point_on_segment, Segment, Vec2};
/// let s = Segment::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0));
/// // (4, 3) projects to x = 4, inside: the foot (4, 0), t = 0.4.
/// assert_eq!(closest_point_on_segment(Vec2::new(4.0, 3.0), &s), (Vec2::new(4.0, 0.0), 0.4));
/// // (13, −4) projects past b: b itself, t = 1.
/// assert_eq!(closest_point_on_segment(Vec2::new(13.0, -4.0), &s), (Vec2::new(10.0, 0.0), 1.0));
/// ```
#[must_use]
pub fn closest_point_on_segment(p: Vec2, segment: &Segment) -> (Vec2, Real) {
    let d = segment.b - segment.a;
    let len2 = d.length_squared();
    let u = (p - segment.a).dot(d);
    if !(len2 > 0.0) || u <= 0.0 {
        (segment.a, 0.0)
    } else if u >= len2 {
        (segment.b, 1.0)
    } else {
        let t = u / len2;
        (segment.a + d * t, t)
    }
}

/// The distance (world units) from `p` to the nearest point of `segment`
/// ([`closest_point_on_segment`]).
///
/// ```
/// use collide_core::{distance_point_segment, Segment, Vec2};
/// let s = Segment::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0));
/// // Past the end b = (10, 0) by (3, 4): distance 5.
/// assert_eq!(distance_point_segment(Vec2::new(13.0, 4.0), &s), 5.0);
/// ```
#[must_use]
pub fn distance_point_segment(p: Vec2, segment: &Segment) -> Real {
    (p - closest_point_on_segment(p, segment).0).length()
}
