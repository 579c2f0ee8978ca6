//! Exit times: when a circle moving on a [`crate::motion::Path`] stops overlapping a shape it
//! overlaps (or touches and moves into). A sensor reports this time as a body leaving it; a
//! contact passed through (a one-way platform, a ghost) ends there.
//!
//! The method is described on [`crate::exit`].

mod exit_path_circle_aabb;
mod exit_path_circle_circle;
mod exit_path_circle_polygon;
mod overlap_interval_aabb_aabb;

pub use exit_path_circle_aabb::exit_path_circle_aabb;
pub use exit_path_circle_circle::exit_path_circle_circle;
pub use exit_path_circle_polygon::{exit_path_circle_polygon, exit_path_circle_segment};
pub use overlap_interval_aabb_aabb::overlap_interval_aabb_aabb;

use crate::math::Real;

/// The start of the first piece of `[from, from + horizon]` (cut at the sorted `cuts`) whose
/// middle is not `inside`, or `None` when every piece is inside. Pieces with no double
/// strictly between their ends join the next piece. Until a piece is inside, a piece whose
/// middle is `touching` (within rounding of the boundary) counts as inside: the caller's
/// contact, solved by another formula, may put the start a few ulps before the entry.
pub(crate) fn first_outside(
    mut cuts: Vec<Real>,
    from: Real,
    horizon: Real,
    inside: impl Fn(Real) -> bool,
    touching: impl Fn(Real) -> bool,
) -> Option<Real> {
    let end = from + horizon;
    cuts.retain(|&t| t > from && t < end);
    crate::math::sort_times(&mut cuts);
    cuts.dedup();
    cuts.push(end);
    let mut a = from;
    let mut entered = false;
    for b in cuts {
        let mid = 0.5 * (a + b);
        // A piece too short to hold a double strictly inside it (two roots a few ulps apart,
        // or a root an ulp after the start) decides nothing: it joins the next one.
        if mid <= a || mid >= b {
            continue;
        }
        if inside(mid) {
            entered = true;
        } else if entered || !touching(mid) {
            return Some(a);
        }
        a = b;
    }
    None
}

/// The distance within which a circle of radius `r` on `path` counts as touching `aabb` at
/// the start of an exit search: `r` plus a rounding allowance relative to the coordinates'
/// size (1e-9).
pub(crate) fn touching_radius(
    r: Real,
    path: &crate::motion::Path,
    aabb: &crate::shape::Aabb,
) -> Real {
    let scale = path
        .p0
        .abs()
        .max_element()
        .max(aabb.min.abs().max_element())
        .max(aabb.max.abs().max_element());
    r + 1e-9 * (r + scale)
}
