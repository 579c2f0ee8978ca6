//! A box and a capsule (a segment when its radius is 0): [`distance_segment_aabb`] and
//! [`aabb_overlaps_capsule`].

use crate::math::{Real, Vec2};
use crate::query::overlap::{distance_point_aabb, distance_point_segment};
use crate::shape::feature::Corner;
use crate::shape::{Aabb, Capsule, Segment};

/// Distance from `segment` to the closed box `aabb` (world units): 0 when they meet (touching
/// included). Two convex shapes that do not meet are nearest at a vertex of one of them, so
/// the distance is the least of the segment's ends to the box and the box's corners to the
/// segment (C. Ericson, *Real-Time Collision Detection*, 2005, §5.1.9). Never NaN for finite
/// inputs.
///
/// ```
/// use collide_core::{distance_segment_aabb, Aabb, Segment, Vec2};
/// let b = Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 10.0));
/// // A segment crossing the box: 0. One from (12, −5) to (12, 15): 2 from the right face.
/// assert_eq!(distance_segment_aabb(&Segment::new(Vec2::new(-5.0, 5.0), Vec2::new(15.0, 5.0)), &b), 0.0);
/// assert_eq!(distance_segment_aabb(&Segment::new(Vec2::new(12.0, -5.0), Vec2::new(12.0, 15.0)), &b), 2.0);
/// // The diagonal from (11, −3) to (15, 1) (on the line x − y = 14) passes 2√2 from the
/// // corner (10, 0): |10 − 0 − 14|/√2, at its point (12, −2).
/// let d = distance_segment_aabb(&Segment::new(Vec2::new(11.0, -3.0), Vec2::new(15.0, 1.0)), &b);
/// assert!((d - 8f64.sqrt()).abs() < 1e-12);
/// ```
#[must_use]
pub fn distance_segment_aabb(segment: &Segment, aabb: &Aabb) -> Real {
    if segment_meets_aabb(segment, aabb, false) {
        return 0.0;
    }
    let mut best = distance_point_aabb(segment.a, aabb).min(distance_point_aabb(segment.b, aabb));
    for corner in Corner::ALL {
        best = best.min(distance_point_segment(corner.point(aabb), segment));
    }
    best
}

/// Whether the box `aabb` and `capsule` overlap with positive area (touching is not overlap,
/// as [`crate::aabb_overlaps_aabb`]): the capsule's core segment passes closer than its
/// radius to the box, or, for a radius of 0 (a segment), crosses the box's interior.
///
/// ```
/// use collide_core::{aabb_overlaps_capsule, Aabb, Capsule, Vec2};
/// let b = Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 10.0));
/// // A capsule of radius 1 whose core runs 1 to the right of the box: touching only.
/// assert!(!aabb_overlaps_capsule(&b, &Capsule::new(Vec2::new(11.0, 0.0), Vec2::new(11.0, 10.0), 1.0)));
/// assert!(aabb_overlaps_capsule(&b, &Capsule::new(Vec2::new(10.5, 0.0), Vec2::new(10.5, 10.0), 1.0)));
/// // A bare segment along the box's edge has no area in common with it; one across, has.
/// assert!(!aabb_overlaps_capsule(&b, &Capsule::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), 0.0)));
/// assert!(aabb_overlaps_capsule(&b, &Capsule::new(Vec2::new(-1.0, 5.0), Vec2::new(11.0, 5.0), 0.0)));
/// ```
#[must_use]
pub fn aabb_overlaps_capsule(aabb: &Aabb, capsule: &Capsule) -> bool {
    if capsule.radius > 0.0 {
        distance_segment_aabb(&capsule.segment, aabb) < capsule.radius
    } else {
        segment_meets_aabb(&capsule.segment, aabb, true)
    }
}

/// Whether `segment` meets the box, closed (`open == false`: its boundary counts) or open
/// (`open == true`: its interior only). The slab test on the segment's parameter `t` in
/// `[0, 1]` (Liang–Barsky clipping).
fn segment_meets_aabb(segment: &Segment, aabb: &Aabb, open: bool) -> bool {
    let d: Vec2 = segment.b - segment.a;
    let (mut lo, mut hi) = (0.0, 1.0);
    for k in 0..2 {
        let (a, min, max) = (segment.a[k], aabb.min[k], aabb.max[k]);
        if d[k] == 0.0 {
            let inside = if open {
                a > min && a < max
            } else {
                a >= min && a <= max
            };
            if !inside {
                return false;
            }
        } else {
            let (t0, t1) = ((min - a) / d[k], (max - a) / d[k]);
            let (t0, t1) = if t0 < t1 { (t0, t1) } else { (t1, t0) };
            lo = Real::max(lo, t0);
            hi = Real::min(hi, t1);
        }
    }
    if open {
        // An open box: the parameter range inside it must have room (a segment grazing a
        // corner or lying on a face meets the closed box only).
        lo < hi
    } else {
        lo <= hi
    }
}
