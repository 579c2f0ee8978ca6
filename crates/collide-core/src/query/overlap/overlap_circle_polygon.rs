//! A circle and a convex polygon: [`circle_overlaps_polygon`].

use crate::math::{Real, Vec2};
use crate::query::overlap::distance_point_polygon;
use crate::shape::ConvexPolygon;

/// Whether the disc of `radius` at `center` overlaps the polygon with positive area: its
/// centre inside the polygon, or nearer than `radius` to its boundary (Ericson, *Real-Time
/// Collision Detection*, 2005, §5.2.8 for a polygon). Touching is not overlapping.
///
/// ```
/// use collide_core::{circle_overlaps_polygon, ConvexPolygon, Vec2};
/// let sq = ConvexPolygon::new(&[Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0), Vec2::new(4.0, 4.0), Vec2::new(0.0, 4.0)]).unwrap();
/// assert!(circle_overlaps_polygon(Vec2::new(6.0, 2.0), 2.5, &sq));
/// assert!(!circle_overlaps_polygon(Vec2::new(6.0, 2.0), 2.0, &sq)); // touching
/// ```
#[must_use]
pub fn circle_overlaps_polygon(center: Vec2, radius: Real, polygon: &ConvexPolygon) -> bool {
    let d = distance_point_polygon(center, polygon);
    d == 0.0 || d < radius
}
