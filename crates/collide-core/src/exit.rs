//! Exit times: when a circle moving on a path (straight or parabolic) stops overlapping a box
//! a segment, a polygon or another circle. The method, and why it is certified, is on the pair functions' module
//! (the signs of twelve polynomials of the time cut it into pieces of constant overlap):
//! - [`exit_path_circle_aabb`]: a circle leaving a box (a sensor rectangle, a one-way
//!   platform passed through);
//! - [`exit_path_circle_circle`]: two circles parting, from their relative path;
//! - [`exit_path_circle_segment`], [`exit_path_circle_polygon`]: a circle leaving a segment
//!   or a convex polygon (a one-way segment or polygon passed through): the same method on
//!   their Minkowski sums with the disc, each edge's line moved out by the radius (quadratics)
//!   and a disc at each vertex (quartics);
//! - [`overlap_interval_aabb_aabb`]: when two boxes moving on straight lines start and stop
//!   overlapping (a sensor rectangle and a moving rectangle: closed forms, no root search).
//!
//! Conventions as in the rest of the crate (y down, seconds from the path's start).
//!
//! # Method
//! The centres at which a circle of radius `r` overlaps a box form the box's Minkowski sum
//! with the disc (C. Ericson, *Real-Time Collision Detection*, 2005, §5.5.7): the box grown by
//! `r` along x, the box grown by `r` along y, and four discs at the corners. Inside or not is
//! a function of the signs of twelve polynomials of the time (each coordinate against the four
//! lines bounding the grown boxes: quadratics on a parabola; the squared distance to each
//! corner minus `r²`: quartics, [`crate::roots::corner_quartic`]). Between consecutive roots
//! no sign changes, so inside-or-not is constant: the roots, isolated with certainty and
//! refined to adjacent doubles ([`crate::roots::sign_changes`]), cut the time into pieces, and
//! the exit is the start of the first piece from `from` on whose middle is outside. Against a
//! circle the one quartic of the centres' distance does the same. Roots are solved on the
//! fixed span `[from, from + SOLVE_HORIZON]`: the result depends on the path and `from` only.

pub use crate::query::exit::{
    exit_path_circle_aabb, exit_path_circle_circle, exit_path_circle_polygon,
    exit_path_circle_segment, overlap_interval_aabb_aabb,
};
