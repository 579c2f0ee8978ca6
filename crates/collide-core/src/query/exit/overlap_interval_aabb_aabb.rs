use crate::math::{Real, Vec2};
use crate::shape::Aabb;

/// The open time interval `(enter, exit)` during which box `a` moving with velocity `va` and
/// box `b` moving with velocity `vb` (units/s) overlap with positive area, times in seconds
/// from now (the boxes as given), or `None` if they never do. `enter` is `-∞` and `exit`
/// `+∞` when the boxes overlap forever along their relative line of motion (no relative
/// motion across an axis on which they overlap); touching boxes do not overlap.
///
/// Slab test on the relative motion (C. Ericson, *Real-Time Collision Detection*, 2005,
/// §5.5.8): along each axis the boxes overlap while `a.min + w·τ < b.max` and
/// `b.min < a.max + w·τ` (`w` the relative velocity of `a`), an open interval of `τ` bounded
/// by one division per end; the boxes overlap on the intersection of the two axes'
/// intervals. [`crate::sweep_aabb_aabb`] is the same test read for its entry alone. Both ends
/// are exact roundings of the linear roots: `enter` is when a sensor box starts to overlap a
/// moving box, `exit` when it stops.
///
/// ```
/// use collide_core::{overlap_interval_aabb_aabb, Aabb, Vec2};
/// // A 2 × 2 box at x ∈ [0, 2] moving right at 4 units/s; a 4-wide box at x ∈ [10, 14].
/// // It enters when its right side reaches 10 (8 units: 2 s) and leaves when its left
/// // side passes 14 (14 units: 3.5 s).
/// let a = Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(2.0, 2.0));
/// let b = Aabb::new(Vec2::new(10.0, -1.0), Vec2::new(14.0, 1.5));
/// let span = overlap_interval_aabb_aabb(&a, Vec2::new(4.0, 0.0), &b, Vec2::ZERO);
/// assert_eq!(span, Some((2.0, 3.5)));
/// ```
#[must_use]
pub fn overlap_interval_aabb_aabb(a: &Aabb, va: Vec2, b: &Aabb, vb: Vec2) -> Option<(Real, Real)> {
    let w = va - vb;
    let mut enter = Real::NEG_INFINITY;
    let mut exit = Real::INFINITY;
    for k in 0..2 {
        let (lo, hi) = if w[k] > 0.0 {
            ((b.min[k] - a.max[k]) / w[k], (b.max[k] - a.min[k]) / w[k])
        } else if w[k] < 0.0 {
            ((b.max[k] - a.min[k]) / w[k], (b.min[k] - a.max[k]) / w[k])
        } else if a.max[k] > b.min[k] && a.min[k] < b.max[k] {
            continue;
        } else {
            return None;
        };
        enter = enter.max(lo);
        exit = exit.min(hi);
    }
    (enter < exit).then_some((enter, exit))
}
