//! The queries between shapes, organised by operation, then by shape pair (the layout of
//! parry's `query` module).
//!
//! # Naming
//! A pair function is named `[operation]_[shape1]_[shape2]` (`sweep_circle_aabb`: a circle
//! swept against a box) and lives in `query/[operation]/[operation]_[shape1]_[shape2].rs`,
//! one pair per file. Shape 1 is the moving body, shape 2 the obstacle: normals point from
//! shape 2 toward shape 1 (the crate's conventions). The discrete queries of one pair (closest
//! point, distance, containment, overlap, penetration) share that pair's file in `overlap/`.
//! A new shape or path kind adds files here, not branches in existing ones.
//!
//! - [`hit`]: what the queries return ([`crate::SweepHit`], [`crate::Feature`],
//!   [`crate::Contact`]).
//! - [`sweep`]: swept (continuous) pairs, the exact time of impact.
//! - [`exit`]: when a moving circle stops overlapping a shape (sensors, contacts passed
//!   through).
//! - [`overlap`]: discrete pairs.
//!
//! The public surface is flat: [`crate::sweep`], [`crate::overlap`] and the crate root
//! re-export every pair function and its hit type.

pub(crate) mod exit;
pub(crate) mod hit;
pub(crate) mod overlap;
pub(crate) mod sweep;
