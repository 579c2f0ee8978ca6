//! Discrete (non-swept) pairs, one per file: closest point, distance, containment, overlap and
//! penetration (see [`crate::overlap`] for what "overlap" means).

mod overlap_aabb_aabb;
mod overlap_aabb_capsule;
mod overlap_aabb_half_tile;
mod overlap_aabb_polygon;
mod overlap_circle_aabb;
mod overlap_circle_capsule;
mod overlap_circle_circle;
mod overlap_circle_half_tile;
mod overlap_circle_polygon;
mod overlap_point_aabb;
mod overlap_point_circle;
mod overlap_point_polygon;
mod overlap_point_segment;

pub use overlap_aabb_aabb::aabb_overlaps_aabb;
pub use overlap_aabb_capsule::{aabb_overlaps_capsule, distance_segment_aabb};
pub use overlap_aabb_half_tile::aabb_overlaps_half_tile;
pub use overlap_aabb_polygon::aabb_overlaps_polygon;
pub use overlap_circle_aabb::{circle_overlaps_aabb, contact_circle_aabb};
pub use overlap_circle_capsule::{circle_overlaps_capsule, contact_circle_capsule};
pub use overlap_circle_circle::circle_overlaps_circle;
pub use overlap_circle_half_tile::{
    circle_overlaps_half_tile, contact_circle_half_tile, distance_point_half_tile,
    point_in_half_tile,
};
pub use overlap_circle_polygon::circle_overlaps_polygon;
pub use overlap_point_aabb::{closest_point_on_aabb, distance_point_aabb, point_in_aabb};
pub use overlap_point_circle::point_in_circle;
pub use overlap_point_polygon::{
    closest_point_on_polygon, distance_point_polygon, point_in_polygon,
};
pub use overlap_point_segment::{closest_point_on_segment, distance_point_segment};
