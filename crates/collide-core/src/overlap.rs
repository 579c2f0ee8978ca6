//! Discrete (non-swept) queries: closest point, distance, overlap and penetration.
//!
//! Source: the clamp-based closest point of a box (seed article 001; C. Ericson, *Real-Time
//! Collision Detection*, 2005, §5.1.3 "Closest point on AABB to point"), and the clamped
//! projection onto a segment (§5.1.2) for segments and capsules, the nearest of the three
//! edges for a half-tile (a triangle), and the separating axes x, y and the diagonal's normal
//! for a box against a half-tile (§5.2.1); a convex polygon is the same with its edges: the
//! half-plane test for a point inside (§5.4.1), the nearest edge for a distance, and the
//! separating axes x, y and its edge normals for a box. "Overlap" means a positive-area intersection:
//! shapes that only touch do **not** overlap.

// The code lives in `query/overlap/` (one pair per file) and `query/hit.rs`; this module is
// the flat public surface of the discrete queries.
pub use crate::query::hit::Contact;
pub use crate::query::overlap::{
    aabb_overlaps_aabb, aabb_overlaps_capsule, aabb_overlaps_half_tile, aabb_overlaps_polygon,
    circle_overlaps_aabb, circle_overlaps_capsule, circle_overlaps_circle,
    circle_overlaps_half_tile, circle_overlaps_polygon, closest_point_on_aabb,
    closest_point_on_polygon, closest_point_on_segment, contact_circle_aabb,
    contact_circle_capsule, contact_circle_half_tile, distance_point_aabb,
    distance_point_half_tile, distance_point_polygon, distance_point_segment,
    distance_segment_aabb, point_in_aabb, point_in_circle, point_in_half_tile, point_in_polygon,
};
