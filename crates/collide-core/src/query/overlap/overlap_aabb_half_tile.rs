//! A box and a half-tile: [`aabb_overlaps_half_tile`].

use crate::query::sweep::sweep_aabb_half_tile::{axes, project_aabb, project_tile};
use crate::shape::{Aabb, HalfTile};

/// Whether the box `a` and the half-tile overlap with positive area: their projections
/// overlap with positive length on each of the three separating axes x, y and the diagonal's
/// normal (the separating axis theorem for two convex polygons: C. Ericson, *Real-Time
/// Collision Detection*, 2005, §5.2.1). Sharing an edge or touching at a point is not overlap,
/// as for [`crate::aabb_overlaps_aabb`].
///
/// ```
/// use collide_core::{aabb_overlaps_half_tile, Aabb, Corner, HalfTile, Vec2};
/// // Solid bottom-left of [0, 10]²: the triangle below the line y = x.
/// let t = HalfTile::new(Aabb::new(Vec2::ZERO, Vec2::splat(10.0)), Corner::BottomLeft);
/// // [6, 8] × [2, 4] lies in the empty half: its corner (6, 4) is 2 short of the line.
/// assert!(!aabb_overlaps_half_tile(&Aabb::new(Vec2::new(6.0, 2.0), Vec2::new(8.0, 4.0)), &t));
/// // [4, 6] × [4, 6] straddles it.
/// assert!(aabb_overlaps_half_tile(&Aabb::new(Vec2::splat(4.0), Vec2::splat(6.0)), &t));
/// // [5, 7] × [3, 5] touches it at its corner (5, 5) only.
/// assert!(!aabb_overlaps_half_tile(&Aabb::new(Vec2::new(5.0, 3.0), Vec2::new(7.0, 5.0)), &t));
/// ```
#[must_use]
pub fn aabb_overlaps_half_tile(a: &Aabb, tile: &HalfTile) -> bool {
    axes(tile).into_iter().all(|m| {
        let (alo, ahi) = project_aabb(a, m);
        let (tlo, thi) = project_tile(tile, m);
        alo < thi && ahi > tlo
    })
}
