//! Swept (continuous) tests: the exact time of impact (toi) of moving shapes.
//!
//! # The swept circle against a box
//! A disc of radius `r` whose centre moves along `c + vel·t` touches a box `B` exactly when the
//! centre enters the Minkowski sum `B ⊕ disc(r)`: the box grown by `r` with rounded corners,
//! i.e. four face slabs (each face pushed out by `r` along its normal) and four quarter circles
//! of radius `r` around the corners (C. Ericson, *Real-Time Collision Detection*, 2005, §5.5.7
//! "Intersecting moving sphere against AABB"). collide tests the eight features separately:
//! - a **face** is hit when the centre reaches the face's line pushed out by `r`, at a point
//!   whose tangential coordinate lies within the face (ends included): normal = face normal;
//! - a **corner** is hit when the centre comes within `r` of the corner point (the line–circle
//!   quadratic of seed article 000, earlier root), and only if the normal at impact, from the
//!   corner to the centre, points into the corner's exterior quadrant. Other tangencies are the
//!   "fake" ones of seed 000: there the circle would already overlap a face.
//!
//! Every feature can be switched off with a [`Features`] mask. A tile grid passes only the
//! *exposed* faces and *convex* corners of each cell, so that the seam between two adjacent
//! bricks is no obstacle at all (no ghost collision; E. Catto, "Ghost Collisions", 2020).
//!
//! # The quadratic
//! With `m = c - p` (centre relative to the point), `a = vel·vel`, `b = m·vel`,
//! `k = m·m - r²`, the contact times solve `a t² + 2 b t + k = 0`. The earlier root is computed
//! as `t = k / (-b + sqrt(b² - a k))`, which has no cancellation for `b < 0` (Ericson §5.3.2;
//! W. Press et al., *Numerical Recipes*, §5.6). The discriminant itself is evaluated as
//! `b² - a k = a r² - (m × vel)²` (Lagrange's identity), which does not cancel when the path
//! passes close to the point. A tangent path (discriminant exactly 0, `r > 0`) is no hit.
//!
//! # The swept circle against a segment
//! The same construction with a segment: grown by `r`, it is a capsule, two faces (the line
//! pushed out by `r` on each side) and two end-point half discs; [`SegmentEnds`] says which
//! end points are obstacles (the convex joints of a polyline), as [`Features`] does for the
//! corners of the cells of a grid ([`sweep_circle_segment`]). A box against a segment is the
//! separating axis test on the axes x, y and the segment's normal ([`sweep_aabb_segment`]).
//!
//! # The swept circle and box against a half-tile
//! A [`HalfTile`] (a 45° slope cell: the half of a box on one side of its diagonal) is a
//! triangle, a convex polygon: grown by `r` it has three edge slabs (the two legs, faces of
//! the box, and the diagonal) and three vertex arcs, each spanning its vertex's exterior
//! normal cone, the quadrant at the right angle and 135° at the ends of the diagonal
//! ([`sweep_circle_half_tile`]). A box against it is the separating axis test on the axes x,
//! y and the diagonal's normal ([`sweep_aabb_half_tile`]).
//!
//! # The swept circle and box against a convex polygon
//! A [`ConvexPolygon`] grown by `r` is, as the half-tile, one slab per edge and one arc per
//! vertex spanning the vertex's exterior normal cone ([`sweep_circle_polygon`]; the edges are
//! one-sided, the vertices switched on by [`PolygonCorners`] as a segment's ends are by
//! [`SegmentEnds`]). A box against it is a point (the box's centre) against the Minkowski sum
//! of polygon and box, itself a convex polygon whose edge normals are x, y and the polygon's:
//! the separating axis test on those axes ([`sweep_aabb_polygon`]; Ericson §5.2.1, §5.5.8).
//!
//! All sweeps follow the crate conventions: toi in `[0, max_toi]` in the time unit of `vel`,
//! normal from the obstacle toward the moving body, contact at start counts only when
//! approaching (Bannerman et al. 2014).

// The code lives in `query/sweep/` (one pair per file), `query/hit.rs` and `shape/feature.rs`;
// this module is the flat public surface of the sweeps.
pub use crate::query::hit::{
    Feature, PolygonFeature, PolygonHit, SegmentFeature, SegmentHit, SweepHit,
};
pub use crate::query::sweep::{
    sweep_aabb_aabb, sweep_aabb_half_tile, sweep_aabb_polygon, sweep_aabb_segment,
    sweep_circle_aabb, sweep_circle_circle, sweep_circle_corner, sweep_circle_face,
    sweep_circle_half_plane, sweep_circle_half_tile, sweep_circle_point, sweep_circle_polygon,
    sweep_circle_segment,
};
pub use crate::shape::feature::{Corner, Face, FaceSegment, Features};
pub use crate::shape::{ConvexPolygon, HalfTile, PolygonCorners, SegmentEnd, SegmentEnds};
