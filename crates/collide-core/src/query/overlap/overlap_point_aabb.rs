//! A point and a box: [`closest_point_on_aabb`], [`distance_point_aabb`], [`point_in_aabb`].

use crate::math::{Real, Vec2};
use crate::shape::Aabb;

/// The point of `aabb` (boundary or interior) closest to `p`: `p` clamped to the box per axis.
///
/// Returns `p` itself when `p` is inside. Never NaN for finite inputs.
#[must_use]
pub fn closest_point_on_aabb(p: Vec2, aabb: &Aabb) -> Vec2 {
    Vec2::new(
        p.x.max(aabb.min.x).min(aabb.max.x),
        p.y.max(aabb.min.y).min(aabb.max.y),
    )
}

/// Euclidean distance from `p` to `aabb` in world units; `0.0` when `p` is inside or on it.
#[must_use]
pub fn distance_point_aabb(p: Vec2, aabb: &Aabb) -> Real {
    (p - closest_point_on_aabb(p, aabb)).length()
}

/// Whether `p` lies in `aabb`, boundary included.
#[must_use]
pub fn point_in_aabb(p: Vec2, aabb: &Aabb) -> bool {
    p.x >= aabb.min.x && p.x <= aabb.max.x && p.y >= aabb.min.y && p.y <= aabb.max.y
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit_box() -> Aabb {
        Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(10.0, 10.0))
    }

    #[test]
    fn closest_point_clamps_each_axis() {
        // (15, -3) is right of and above the box: clamps to the top-right corner (10, 0).
        assert_eq!(
            closest_point_on_aabb(Vec2::new(15.0, -3.0), &unit_box()),
            Vec2::new(10.0, 0.0)
        );
        // Inside points are returned unchanged.
        assert_eq!(
            closest_point_on_aabb(Vec2::new(4.0, 6.0), &unit_box()),
            Vec2::new(4.0, 6.0)
        );
    }
}
