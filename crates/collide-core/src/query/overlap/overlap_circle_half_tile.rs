//! A circle (or a point) and a half-tile: [`circle_overlaps_half_tile`], the penetration
//! [`contact_circle_half_tile`], [`distance_point_half_tile`] and [`point_in_half_tile`].

use crate::math::{Real, Vec2};
use crate::query::hit::Contact;
use crate::query::overlap::closest_point_on_segment;
use crate::shape::HalfTile;

/// Whether the disc (`center`, `radius`) and the half-tile overlap with positive area: the
/// distance from the centre to the triangle ([`HalfTile::closest_point`]) is below the
/// radius, or the centre is strictly inside. Touching is not overlap. As for
/// [`crate::circle_overlaps_aabb`], a radius `<= 0` is a point, which overlaps only when
/// strictly inside.
///
/// ```
/// use collide_core::{circle_overlaps_half_tile, Aabb, Corner, HalfTile, Vec2};
/// // Solid bottom-left of [0, 10]²: the diagonal y = x. (8, 2) is (8 − 2)/√2 = 4.243 from it.
/// let t = HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::splat(10.0)), Corner::BottomLeft);
/// assert!(!circle_overlaps_half_tile(Vec2::new(8.0, 2.0), 4.2, &t));
/// assert!(circle_overlaps_half_tile(Vec2::new(8.0, 2.0), 4.3, &t));
/// ```
#[must_use]
pub fn circle_overlaps_half_tile(center: Vec2, radius: Real, tile: &HalfTile) -> bool {
    (radius > 0.0 && (center - tile.closest_point(center)).length_squared() < radius * radius)
        || tile.contains_point_strictly(center)
}

/// The penetration of the disc (`center`, `radius`) into the half-tile, or `None` if they do
/// not overlap (touching is not overlap).
///
/// - Centre outside the triangle: normal from the closest point to the centre, depth
///   `radius − distance` (as [`crate::contact_circle_aabb`]).
/// - Centre inside (or on the boundary): pushed out through the nearest edge, its outward
///   normal (a leg's face normal or [`HalfTile::diagonal_normal`]), depth `radius + distance
///   to that edge's line`, point the centre's foot on that edge. Ties go to the legs (in the
///   order of [`HalfTile::legs`]), then the diagonal.
///
/// Never NaN for finite inputs.
///
/// ```
/// use collide_core::{contact_circle_half_tile, Aabb, Corner, HalfTile, Vec2};
/// let t = HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::splat(10.0)), Corner::BottomLeft);
/// // Centre (2, 3) inside, 2 from the left leg x = 0, 7 from the bottom leg y = 10 and
/// // (3 − 2)/√2 = 0.707 from the diagonal y = x: out through the diagonal, depth 1 + 0.707,
/// // foot (2.5, 2.5).
/// let c = contact_circle_half_tile(Vec2::new(2.0, 3.0), 1.0, &t).unwrap();
/// assert_eq!(c.normal, t.diagonal_normal());
/// assert!((c.depth - (1.0 + 0.5f64.sqrt())).abs() < 1e-15);
/// assert!((c.point - Vec2::new(2.5, 2.5)).length() < 1e-15);
/// ```
#[must_use]
pub fn contact_circle_half_tile(center: Vec2, radius: Real, tile: &HalfTile) -> Option<Contact> {
    let closest = tile.closest_point(center);
    let d = center - closest;
    let d2 = d.length_squared();
    if d2 > 0.0 {
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
    // Centre inside (or on the boundary of) the triangle: leave through the nearest edge.
    let edges = tile.edges();
    let [lx, ly] = tile.legs();
    let n = tile.diagonal_normal();
    let sp = tile.solid.point(&tile.aabb);
    let candidates = [
        ((center.x - sp.x).abs(), lx.normal(), edges[0]),
        ((center.y - sp.y).abs(), ly.normal(), edges[1]),
        ((edges[2].a - center).dot(n).max(0.0), n, edges[2]),
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
        point: closest_point_on_segment(center, &best.2).0,
    })
}

/// Euclidean distance from `p` to the half-tile in world units; `0.0` when `p` is inside or
/// on it ([`HalfTile::closest_point`]).
///
/// ```
/// use collide_core::{distance_point_half_tile, Aabb, Corner, HalfTile, Vec2};
/// let t = HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::splat(10.0)), Corner::TopLeft);
/// // Solid top-left: the diagonal x + y = 10 from (0, 10) to (10, 0). (10, 10) is
/// // (10 + 10 − 10)/√2 = 5√2 from it, its foot (5, 5) on the span.
/// assert!((distance_point_half_tile(Vec2::splat(10.0), &t) - 50.0f64.sqrt()).abs() < 1e-14);
/// assert_eq!(distance_point_half_tile(Vec2::new(1.0, 1.0), &t), 0.0);
/// ```
#[must_use]
pub fn distance_point_half_tile(p: Vec2, tile: &HalfTile) -> Real {
    (p - tile.closest_point(p)).length()
}

/// Whether `p` lies in the half-tile, boundary included ([`HalfTile::contains_point`]).
///
/// ```
/// use collide_core::{point_in_half_tile, Aabb, Corner, HalfTile, Vec2};
/// let t = HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::splat(10.0)), Corner::TopRight);
/// // Solid top-right: x >= y inside the cell. (7, 3) in, (3, 7) out, (5, 5) on the diagonal.
/// assert!(point_in_half_tile(Vec2::new(7.0, 3.0), &t));
/// assert!(!point_in_half_tile(Vec2::new(3.0, 7.0), &t));
/// assert!(point_in_half_tile(Vec2::new(5.0, 5.0), &t));
/// ```
#[must_use]
pub fn point_in_half_tile(p: Vec2, tile: &HalfTile) -> bool {
    tile.contains_point(p)
}
