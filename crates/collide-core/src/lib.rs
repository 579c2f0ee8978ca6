//! # collide-core
//!
//! Pure 2D collision geometry for arcade games: circles, axis-aligned boxes (AABBs), segments
//! and capsules (turning ones too: pinball flippers), overlap and distance queries, *swept*
//! (continuous) tests that return the exact time of impact (toi) and contact normal, and the
//! collision response (reflection, elastic collisions with masses).
//!
//! This crate knows nothing of worlds, tile maps, entities, windows or files. It depends on
//! [`glam`] and [`libm`] (for [`sin_cos`]) and nothing else, and must never depend on any other crate of the workspace: the
//! world (`collide-world`), the renderer and the frontends all build on it, never the reverse.
//!
//! # Conventions
//! These hold for every item of the crate (and of the whole workspace):
//! - **Axes**: x grows to the right, **y grows downward** (screen convention). A box's `min` is
//!   its top-left corner, `max` its bottom-right. The "top" face of a box is the face at `min.y`
//!   and its outward normal is `(0, -1)`.
//! - **Units**: lengths in world units (1 unit = 1 pixel at zoom 1), time in seconds, velocities
//!   in units per second. All state is `f64` ([`Vec2`] = [`glam::DVec2`]).
//! - **Normals** are unit vectors pointing *from the obstacle toward the moving body* (for a pair
//!   of moving bodies: from body 2 toward body 1).
//! - **Time of impact**: sweeps take a velocity `vel` and a horizon `max_toi` and return the
//!   first time `toi` in `[0, max_toi]` at which the shapes touch, in the time unit of `vel`.
//!   Pass the step's displacement as `vel` and `max_toi = 1.0` to get toi as a fraction of the
//!   motion; pass a velocity in units/s and the remaining time in seconds to get seconds.
//! - **Contact at start** (the rule of Bannerman et al., "Stable algorithm for event detection
//!   in event-driven particle dynamics", Comput. Part. Mech. 2014): if two shapes already touch
//!   or overlap slightly *and are approaching*, the sweep reports `toi = 0`; if they touch and
//!   are separating (or moving tangentially), there is no hit. This is what keeps a body from
//!   tunnelling or sticking through rounding, with no tolerance band and no random nudge.
//! - **Determinism**: only IEEE-754 `+ - * /` and `sqrt` are used (correctly rounded, so the
//!   same bits on every target; no fused multiply-add), so results are bit-identical on every
//!   platform. The turning capsule (a swinging flipper: [`TurningCapsule`],
//!   [`sweep_path_circle_turning_capsule`]) also needs `sin`/`cos`: it takes them from
//!   [`sin_cos`], libm's pure-Rust implementation, the same code and bits on every target
//!   (never std's, which call the platform's C library).
//! - **Angles** (turning capsules only): radians, `0` along `+x`, growing toward `+y`, so a
//!   positive angular speed turns **clockwise on the screen**; a point at offset `r` from the
//!   pivot moves at `ω·r.perp() = ω·(−r.y, r.x)`.
//!
//! # Modules
//! - [`shape`]: [`Circle`], [`Aabb`], [`HalfTile`] (a 45° slope cell), [`Segment`],
//!   [`Capsule`], [`TurningCapsule`] and [`ConvexPolygon`].
//! - [`overlap`]: closest point, distance, overlap and penetration of points, circles, boxes,
//!   half-tiles, segments and capsules.
//! - [`sweep`]: swept circle vs face / corner / box (Minkowski sum of box and disc), circle vs
//!   segment (with its end points as obstacles or not), circle vs circle, box vs box, circle
//!   and box vs half-tile, box vs segment, circle and box vs convex polygon.
//! - [`motion`]: [`motion::Path`], a body's path under constant acceleration (a parabola, or a
//!   straight line).
//! - [`sweep_path`]: the swept tests of [`sweep`] along curved paths (a ball under gravity),
//!   and a ball against a turning capsule (a flipper).
//! - [`exit`]: when a circle on a path stops overlapping a box or a circle (sensors, contacts
//!   passed through).
//! - [`roots`]: a stable quadratic and the certified earliest root of a polynomial of degree
//!   at most 4 (times of impact along parabolic paths).
//! - [`response`]: reflection, reflection against a moving (kinematic) surface, elastic
//!   collision of two masses along the contact normal.

// `!(x <= y)` is the crate's NaN-safe guard: it is true when either side is NaN, where
// `x > y` is not (a NaN time of impact must never pass a `toi <= max_toi` test).
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod exit;
pub mod math;
pub mod motion;
pub mod overlap;
// The queries' code, one shape pair per file (`query/mod.rs` gives the naming rule); `overlap`
// and `sweep` are their public surface.
mod query;
pub mod response;
pub mod roots;
pub mod shape;
pub mod sweep;
pub mod sweep_path;

pub use exit::{
    exit_path_circle_aabb, exit_path_circle_circle, exit_path_circle_polygon,
    exit_path_circle_segment, overlap_interval_aabb_aabb,
};
pub use math::{sin_cos, Real, Vec2, FRAC_1_SQRT_2};
pub use overlap::{
    aabb_overlaps_aabb, aabb_overlaps_capsule, aabb_overlaps_half_tile, aabb_overlaps_polygon,
    circle_overlaps_aabb, circle_overlaps_capsule, circle_overlaps_circle,
    circle_overlaps_half_tile, circle_overlaps_polygon, closest_point_on_aabb,
    closest_point_on_polygon, closest_point_on_segment, contact_circle_aabb,
    contact_circle_capsule, contact_circle_half_tile, distance_point_aabb,
    distance_point_half_tile, distance_point_polygon, distance_point_segment,
    distance_segment_aabb, point_in_aabb, point_in_circle, point_in_half_tile, point_in_polygon,
    Contact,
};
pub use response::{collide_elastic, collide_on, reflect, reflect_relative, reflect_relative_on};
pub use shape::{
    Aabb, Capsule, Circle, ConvexPolygon, HalfTile, PolygonCorners, PolygonError, Segment,
    SegmentEnd, SegmentEnds, TurningCapsule, MAX_POLYGON_VERTICES,
};
pub use sweep::{
    sweep_aabb_aabb, sweep_aabb_half_tile, sweep_aabb_polygon, sweep_aabb_segment,
    sweep_circle_aabb, sweep_circle_circle, sweep_circle_corner, sweep_circle_face,
    sweep_circle_half_plane, sweep_circle_half_tile, sweep_circle_point, sweep_circle_polygon,
    sweep_circle_segment, Corner, Face, FaceSegment, Feature, Features, PolygonFeature, PolygonHit,
    SegmentFeature, SegmentHit, SweepHit,
};
pub use sweep_path::{
    sweep_path_aabb_half_tile, sweep_path_aabb_polygon, sweep_path_aabb_segment,
    sweep_path_aabb_turning_capsule, sweep_path_circle_half_tile, sweep_path_circle_polygon,
    sweep_path_circle_segment, sweep_path_circle_turning_capsule, TurningHit, TurningSweep,
    TURNING_MAX_ITERATIONS,
};

/// The crate's README, whose code blocks run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
