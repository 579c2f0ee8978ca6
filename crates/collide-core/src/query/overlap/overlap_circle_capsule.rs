//! A circle and a capsule: [`circle_overlaps_capsule`] and the penetration
//! [`contact_circle_capsule`].

use crate::math::{Real, Vec2};
use crate::query::hit::Contact;
use crate::query::overlap::closest_point_on_segment;
use crate::shape::Capsule;

/// Whether the disc (`center`, `radius`) and `capsule` overlap with positive area: the
/// distance from the centre to the capsule's core segment is below the sum of the radii.
/// Touching is not overlap. A sum of radii `<= 0` never overlaps (a point against a segment
/// has no area in common with it).
///
/// ```
/// use collide_core::{circle_overlaps_capsule, Capsule, Vec2};
/// let c = Capsule::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), 1.0);
/// // Centre 3 below the core, radius 2: 3 = 1 + 2, touching only.
/// assert!(!circle_overlaps_capsule(Vec2::new(5.0, 3.0), 2.0, &c));
/// assert!(circle_overlaps_capsule(Vec2::new(5.0, 2.5), 2.0, &c));
/// ```
#[must_use]
pub fn circle_overlaps_capsule(center: Vec2, radius: Real, capsule: &Capsule) -> bool {
    let sum = radius + capsule.radius;
    let (c, _) = closest_point_on_segment(center, &capsule.segment);
    sum > 0.0 && (center - c).length_squared() < sum * sum
}

/// The penetration of the disc (`center`, `radius`) into `capsule`, or `None` if they do not
/// overlap (touching is not overlap; see [`circle_overlaps_capsule`]).
///
/// The normal runs from the nearest point `c` of the core segment to the centre, the depth is
/// `radius + capsule.radius − |center − c|`, and the point is `c + normal·capsule.radius`, on
/// the capsule's surface. A centre exactly on the core segment has no direction of its own:
/// the segment's normal (`(b − a).perp()` normalised, see [`crate::Segment`]) is used, or
/// `(0, −1)` (up) for a segment of zero length.
///
/// ```
/// use collide_core::{contact_circle_capsule, Capsule, Vec2};
/// let c = Capsule::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), 1.0);
/// // Centre (13, 4), 5 from the end (10, 0); radius 5: depth 1 + 5 − 5 = 1, normal (0.6, 0.8),
/// // point (10.6, 0.8).
/// let k = contact_circle_capsule(Vec2::new(13.0, 4.0), 5.0, &c).unwrap();
/// assert_eq!(k.depth, 1.0);
/// assert_eq!(k.normal, Vec2::new(0.6, 0.8));
/// assert_eq!(k.point, Vec2::new(10.6, 0.8));
/// ```
#[must_use]
pub fn contact_circle_capsule(center: Vec2, radius: Real, capsule: &Capsule) -> Option<Contact> {
    if !circle_overlaps_capsule(center, radius, capsule) {
        return None;
    }
    let (c, _) = closest_point_on_segment(center, &capsule.segment);
    let m = center - c;
    let dist = m.length();
    let normal = if dist > 0.0 {
        m / dist
    } else {
        capsule.segment.normal().unwrap_or(Vec2::NEG_Y)
    };
    Some(Contact {
        normal,
        depth: radius + capsule.radius - dist,
        point: c + normal * capsule.radius,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn centre_on_the_core_uses_the_segment_normal() {
        // Core from (0, 0) to (10, 0): (10, 0).perp() = (0, 10), so the normal is (0, 1),
        // down the screen; the depth is r + rc = 2 + 1 = 3.
        let cap = Capsule::new(Vec2::ZERO, Vec2::new(10.0, 0.0), 1.0);
        let k = contact_circle_capsule(Vec2::new(4.0, 0.0), 2.0, &cap).unwrap();
        assert_eq!(k.normal, Vec2::new(0.0, 1.0));
        assert_eq!(k.depth, 3.0);
        assert_eq!(k.point, Vec2::new(4.0, 1.0));
        let dot = Capsule::new(Vec2::ONE, Vec2::ONE, 0.5);
        assert_eq!(
            contact_circle_capsule(Vec2::ONE, 1.0, &dot).unwrap().normal,
            Vec2::NEG_Y
        );
        assert!(
            contact_circle_capsule(Vec2::ONE, 0.0, &Capsule::new(Vec2::ONE, Vec2::ONE, 0.0))
                .is_none()
        );
    }
}
