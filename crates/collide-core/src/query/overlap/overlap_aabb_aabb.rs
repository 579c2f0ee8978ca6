//! Two boxes: [`aabb_overlaps_aabb`].

use crate::shape::Aabb;

/// Whether two boxes overlap with positive area (sharing an edge is not overlap).
#[must_use]
pub fn aabb_overlaps_aabb(a: &Aabb, b: &Aabb) -> bool {
    a.min.x < b.max.x && a.max.x > b.min.x && a.min.y < b.max.y && a.max.y > b.min.y
}
