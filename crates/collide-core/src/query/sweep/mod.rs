//! Swept (continuous) pairs, one per file, each returning `Option<SweepHit>` (the time of
//! impact, normal, point and feature), `Option<SegmentHit>` for segments, `Option<PolygonHit>`
//! for convex polygons, or a
//! [`TurningSweep`] for a turning capsule; the method (the Minkowski sum of a box and a disc,
//! the quadratic of a circle against a point) is described on [`crate::sweep`]. Pairs along
//! curved paths are named `sweep_path_*` and re-exported by [`crate::sweep_path`].

mod start_rate;
mod sweep_aabb_aabb;
pub(crate) mod sweep_aabb_half_tile;
pub(crate) mod sweep_aabb_polygon;
pub(crate) mod sweep_aabb_segment;
mod sweep_circle_aabb;
mod sweep_circle_circle;
pub(crate) mod sweep_circle_corner;
mod sweep_circle_face;
mod sweep_circle_half_plane;
pub(crate) mod sweep_circle_half_tile;
pub(crate) mod sweep_circle_point;
pub(crate) mod sweep_circle_polygon;
pub(crate) mod sweep_circle_segment;
mod sweep_path_aabb_aabb;
mod sweep_path_aabb_half_tile;
mod sweep_path_aabb_platform;
mod sweep_path_aabb_polygon;
mod sweep_path_aabb_segment;
mod sweep_path_aabb_segment_platform;
mod sweep_path_aabb_turning_capsule;
mod sweep_path_circle_half_tile;
mod sweep_path_circle_polygon;
mod sweep_path_circle_segment;
mod sweep_path_circle_turning_capsule;
mod turning_search;

pub(crate) use start_rate::start_rate;
pub use sweep_aabb_aabb::sweep_aabb_aabb;
pub use sweep_aabb_half_tile::sweep_aabb_half_tile;
pub use sweep_aabb_polygon::sweep_aabb_polygon;
pub use sweep_aabb_segment::sweep_aabb_segment;
pub use sweep_circle_aabb::sweep_circle_aabb;
pub use sweep_circle_circle::sweep_circle_circle;
pub use sweep_circle_corner::sweep_circle_corner;
pub use sweep_circle_face::sweep_circle_face;
pub use sweep_circle_half_plane::sweep_circle_half_plane;
pub use sweep_circle_half_tile::sweep_circle_half_tile;
pub use sweep_circle_point::sweep_circle_point;
pub use sweep_circle_polygon::sweep_circle_polygon;
pub use sweep_circle_segment::sweep_circle_segment;
pub use sweep_path_aabb_aabb::sweep_path_aabb_aabb;
pub use sweep_path_aabb_half_tile::sweep_path_aabb_half_tile;
pub use sweep_path_aabb_platform::sweep_path_aabb_platform;
pub use sweep_path_aabb_polygon::sweep_path_aabb_polygon;
pub use sweep_path_aabb_segment::sweep_path_aabb_segment;
pub use sweep_path_aabb_segment_platform::sweep_path_aabb_segment_platform;
pub use sweep_path_aabb_turning_capsule::sweep_path_aabb_turning_capsule;
pub use sweep_path_circle_half_tile::sweep_path_circle_half_tile;
pub use sweep_path_circle_polygon::sweep_path_circle_polygon;
pub use sweep_path_circle_segment::sweep_path_circle_segment;
pub use sweep_path_circle_turning_capsule::{
    sweep_path_circle_turning_capsule, TurningSweep, TURNING_MAX_ITERATIONS,
};
