//! A box and a convex polygon: [`aabb_overlaps_polygon`].

use crate::math::Vec2;
use crate::query::sweep::sweep_aabb_half_tile::project_aabb;
use crate::shape::{Aabb, ConvexPolygon};

/// Whether the box and the polygon overlap with positive area: their projections overlap with
/// positive length on x, y and every edge normal of the polygon (the separating axis theorem,
/// C. Ericson, *Real-Time Collision Detection*, 2005, §5.2.1). Touching is not overlapping.
///
/// ```
/// use collide_core::{aabb_overlaps_polygon, Aabb, ConvexPolygon, Vec2};
/// let tri = ConvexPolygon::new(&[Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), Vec2::new(0.0, 10.0)]).unwrap();
/// // The box [4, 8]² is beyond the slanted edge x + y = 10 but for its corner (4, 4).
/// assert!(aabb_overlaps_polygon(&Aabb::new(Vec2::new(4.0, 4.0), Vec2::new(8.0, 8.0)), &tri));
/// assert!(!aabb_overlaps_polygon(&Aabb::new(Vec2::new(5.0, 5.0), Vec2::new(8.0, 8.0)), &tri));
/// ```
#[must_use]
pub fn aabb_overlaps_polygon(aabb: &Aabb, polygon: &ConvexPolygon) -> bool {
    let axes = [Vec2::X, Vec2::Y];
    let edges = (0..polygon.len()).map(|i| polygon.edge(i).direction().perp());
    axes.into_iter().chain(edges).all(|m| {
        let (alo, ahi) = project_aabb(aabb, m);
        let (plo, phi) = polygon.project(m);
        ahi > plo && alo < phi
    })
}
