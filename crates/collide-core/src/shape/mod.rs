//! The shapes of collide: [`Circle`] (balls), [`Aabb`] (tiles, paddles, boxes), [`HalfTile`]
//! (a box cut along its diagonal: a 45° slope cell), [`Segment`] (walls and polylines of a
//! table), [`Capsule`] (a segment grown by a radius) and [`TurningCapsule`] (a flipper
//! swinging about its pivot) and [`ConvexPolygon`] (a static block of 3 to 8 vertices).
//!
//! One shape per file; `feature.rs` names the faces and corners of a box that sweeps report
//! (re-exported by [`crate::sweep`]).

mod aabb;
mod capsule;
mod circle;
pub(crate) mod feature;
mod half_tile;
mod polygon;
mod segment;

pub use aabb::Aabb;
pub use capsule::{Capsule, TurningCapsule};
pub use circle::Circle;
pub use half_tile::HalfTile;
pub use polygon::{ConvexPolygon, PolygonCorners, PolygonError, MAX_POLYGON_VERTICES};
pub use segment::{Segment, SegmentEnd, SegmentEnds};
