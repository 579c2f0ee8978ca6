//! Exit times: when a circle moving on a [`crate::motion::Path`] stops overlapping a shape it
//! overlaps (or touches and moves into). A sensor reports this time as a body leaving it; a
//! contact passed through (a one-way platform, a ghost) ends there.
//!
//! The method is described on [`crate::exit`].

mod exit_path_circle_aabb;
mod exit_path_circle_circle;

pub use exit_path_circle_aabb::exit_path_circle_aabb;
pub use exit_path_circle_circle::exit_path_circle_circle;

use crate::math::Real;

/// The start of the first piece of `[from, from + horizon]` (cut at the sorted `cuts`) whose
/// middle is not `inside`, or `None` when every piece is inside.
pub(crate) fn first_outside(
    mut cuts: Vec<Real>,
    from: Real,
    horizon: Real,
    inside: impl Fn(Real) -> bool,
) -> Option<Real> {
    let end = from + horizon;
    cuts.retain(|&t| t > from && t < end);
    cuts.sort_by(Real::total_cmp);
    cuts.dedup();
    cuts.push(end);
    let mut a = from;
    for b in cuts {
        if !inside(0.5 * (a + b)) {
            return Some(a);
        }
        a = b;
    }
    None
}
