//! A circle and a box: [`circle_overlaps_aabb`] and the penetration [`contact_circle_aabb`].

use crate::math::{Real, Vec2};
use crate::query::hit::Contact;
use crate::query::overlap::closest_point_on_aabb;
use crate::shape::Aabb;

/// Whether the disc (`center`, `radius`) and the box overlap with positive area: the distance
/// from the centre to the box is below the radius (seed 001's test). Touching is not overlap.
///
/// A radius `<= 0` (callers shrink a radius by a tolerance, which can take a tiny disc below
/// zero) is a point: it overlaps only when strictly inside. The sign matters: squaring a
/// negative radius would make a point *near* the box overlap it.
#[must_use]
pub fn circle_overlaps_aabb(center: Vec2, radius: Real, aabb: &Aabb) -> bool {
    (radius > 0.0
        && (center - closest_point_on_aabb(center, aabb)).length_squared() < radius * radius)
        || (center.x > aabb.min.x
            && center.x < aabb.max.x
            && center.y > aabb.min.y
            && center.y < aabb.max.y)
}

/// The penetration of the disc (`center`, `radius`) into `aabb`, or `None` if they do not
/// overlap (touching is not overlap).
///
/// - Centre outside the box: normal from the closest point to the centre,
///   depth `radius - distance`.
/// - Centre inside the box (deep penetration): the face nearest to the centre gives the normal
///   (ties broken in the order left, right, top, bottom), depth `radius + distance to that face`.
#[must_use]
pub fn contact_circle_aabb(center: Vec2, radius: Real, aabb: &Aabb) -> Option<Contact> {
    let closest = closest_point_on_aabb(center, aabb);
    let d = center - closest;
    let d2 = d.length_squared();
    if d2 > 0.0 {
        // A radius <= 0 is a point, and a point outside the box does not penetrate it.
        if radius <= 0.0 || d2 >= radius * radius {
            return None;
        }
        let dist = d2.sqrt();
        return Some(Contact {
            normal: d / dist,
            depth: radius - dist,
            point: closest,
        });
    }
    // Centre inside (or on the boundary of) the box: leave through the nearest face.
    let candidates = [
        (
            center.x - aabb.min.x,
            Vec2::NEG_X,
            Vec2::new(aabb.min.x, center.y),
        ),
        (
            aabb.max.x - center.x,
            Vec2::X,
            Vec2::new(aabb.max.x, center.y),
        ),
        (
            center.y - aabb.min.y,
            Vec2::NEG_Y,
            Vec2::new(center.x, aabb.min.y),
        ),
        (
            aabb.max.y - center.y,
            Vec2::Y,
            Vec2::new(center.x, aabb.max.y),
        ),
    ];
    let mut best = candidates[0];
    for c in &candidates[1..] {
        if c.0 < best.0 {
            best = *c;
        }
    }
    let depth = radius + best.0;
    if depth <= 0.0 {
        return None;
    }
    Some(Contact {
        normal: best.1,
        depth,
        point: best.2,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::overlap::circle_overlaps_circle;

    fn unit_box() -> Aabb {
        Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 10.0))
    }

    #[test]
    fn circle_box_overlap_corner_region_uses_corner_distance() {
        // Seed 001's trap: per-axis distances (3, 3) are both below r = 4, but the corner
        // distance is sqrt(18) = 4.243 > 4, so no overlap.
        assert!(!circle_overlaps_aabb(
            Vec2::new(13.0, 13.0),
            4.0,
            &unit_box()
        ));
        assert!(circle_overlaps_aabb(
            Vec2::new(13.0, 13.0),
            4.25,
            &unit_box()
        ));
        // Touching a face exactly is not overlap.
        assert!(!circle_overlaps_aabb(
            Vec2::new(14.0, 5.0),
            4.0,
            &unit_box()
        ));
    }

    #[test]
    fn negative_radius_is_a_point_not_a_disc() {
        // Found by fuzzing the step: the world tests "overlap by more than a slack" as
        // `radius - slack`, below zero for a ball of radius 0. Squared, -1e-7 became a disc of
        // radius 1e-7: a point ball touching a rectangle counted as embedded, so every
        // push-out candidate on the rectangle's boundary was refused.
        let b = unit_box();
        assert!(!circle_overlaps_aabb(Vec2::new(10.0, 5.0), -1e-7, &b));
        assert!(!circle_overlaps_aabb(
            Vec2::new(10.0 + 5e-8, 5.0),
            -1e-7,
            &b
        ));
        assert!(circle_overlaps_aabb(Vec2::new(5.0, 5.0), -1e-7, &b));
        assert!(!circle_overlaps_circle(
            Vec2::ZERO,
            -1e-7,
            Vec2::new(5e-8, 0.0),
            0.0
        ));
        assert!(contact_circle_aabb(Vec2::new(10.0 + 5e-8, 5.0), -1e-7, &b).is_none());
    }

    #[test]
    fn deep_contact_leaves_through_nearest_face() {
        // Centre (9, 5) inside: right face is 1 away, so normal +x and depth r + 1.
        let c = contact_circle_aabb(Vec2::new(9.0, 5.0), 2.0, &unit_box()).expect("overlap");
        assert_eq!(c.normal, Vec2::X);
        assert_eq!(c.depth, 3.0);
        assert_eq!(c.point, Vec2::new(10.0, 5.0));
    }

    #[test]
    fn shallow_contact_from_corner() {
        // Centre (13, 14): closest (10, 10), distance 5, r = 6, depth 1, normal (0.6, 0.8).
        let c = contact_circle_aabb(Vec2::new(13.0, 14.0), 6.0, &unit_box()).expect("overlap");
        assert!((c.normal - Vec2::new(0.6, 0.8)).length() < 1e-15);
        assert!((c.depth - 1.0).abs() < 1e-15);
    }
}
