//! A point and a convex polygon: [`point_in_polygon`], [`closest_point_on_polygon`] and
//! [`distance_point_polygon`].

use crate::math::{Real, Vec2};
use crate::query::overlap::closest_point_on_segment;
use crate::shape::ConvexPolygon;

/// Whether `p` lies in the closed polygon: on no edge's outer side (`(p − a)·n <= 0` for every
/// edge from `a` with outward normal `n`; C. Ericson, *Real-Time Collision Detection*, 2005,
/// §5.4.1, the half-plane test of a convex polygon). Points on the boundary are inside.
///
/// ```
/// use collide_core::{point_in_polygon, ConvexPolygon, Vec2};
/// let tri = ConvexPolygon::new(&[Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.0), Vec2::new(0.0, 10.0)]).unwrap();
/// assert!(point_in_polygon(Vec2::new(2.0, 2.0), &tri));
/// assert!(point_in_polygon(Vec2::new(5.0, 5.0), &tri)); // on the slanted edge
/// assert!(!point_in_polygon(Vec2::new(6.0, 6.0), &tri));
/// ```
#[must_use]
pub fn point_in_polygon(p: Vec2, polygon: &ConvexPolygon) -> bool {
    (0..polygon.len()).all(|i| {
        let e = polygon.edge(i);
        (p - e.a).dot(e.direction().perp()) <= 0.0
    })
}

/// The point of the polygon's boundary nearest to `p`: the nearest of the edges' closest
/// points (Ericson §5.1.2 per edge; the first edge of equals). For a point inside, that is
/// the nearest point of the boundary, not `p`.
#[must_use]
pub fn closest_point_on_polygon(p: Vec2, polygon: &ConvexPolygon) -> Vec2 {
    let mut best = polygon.vertex(0);
    let mut best_d = Real::INFINITY;
    for i in 0..polygon.len() {
        let q = closest_point_on_segment(p, &polygon.edge(i)).0;
        let d = (p - q).length_squared();
        if d < best_d {
            best_d = d;
            best = q;
        }
    }
    best
}

/// The distance from `p` to the polygon (world units): `0` inside or on it, else the distance
/// to the nearest point of its boundary.
///
/// ```
/// use collide_core::{distance_point_polygon, ConvexPolygon, Vec2};
/// let sq = ConvexPolygon::new(&[Vec2::new(0.0, 0.0), Vec2::new(4.0, 0.0), Vec2::new(4.0, 4.0), Vec2::new(0.0, 4.0)]).unwrap();
/// assert_eq!(distance_point_polygon(Vec2::new(7.0, 8.0), &sq), 5.0);
/// assert_eq!(distance_point_polygon(Vec2::new(1.0, 1.0), &sq), 0.0);
/// ```
#[must_use]
pub fn distance_point_polygon(p: Vec2, polygon: &ConvexPolygon) -> Real {
    if point_in_polygon(p, polygon) {
        0.0
    } else {
        (p - closest_point_on_polygon(p, polygon)).length()
    }
}
