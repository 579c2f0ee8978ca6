use super::{first_outside, touching_radius};
use crate::math::Real;
use crate::motion::Path;
use crate::roots::{corner_quartic, sign_changes};
use crate::shape::Aabb;
use crate::sweep_path::SOLVE_HORIZON;

/// The first time `τ >= from` (seconds from the path's start) at which a circle of `radius`
/// on `path` stops overlapping `aabb`: the end of the stretch of overlap that starts at `from`
/// (see [`crate::exit`] for the method). `Some(from)` when the circle does not overlap the box
/// just after `from` (it only touches it there, or is apart); `None` when it still overlaps
/// after `from + SOLVE_HORIZON`, or for non-finite input.
///
/// # Arguments
/// - `path`: the circle centre's path (world units, seconds; y down);
/// - `radius`: world units, `>= 0`;
/// - `aabb`: the box, world units;
/// - `from`: the start time, seconds from the path's start.
///
/// ```
/// use collide_core::{exit_path_circle_aabb, motion::Path, Aabb, Vec2};
/// // A circle of radius 1 moving right at 2 from x = 0 into the box [1, 5] × [0, 4]: it
/// // touches at x = 0 (τ = 0) and leaves when its centre passes x = 6: τ = 3.
/// let b = Aabb::new(Vec2::new(1.0, 0.0), Vec2::new(5.0, 4.0));
/// let p = Path::linear(Vec2::new(0.0, 2.0), Vec2::new(2.0, 0.0));
/// assert_eq!(exit_path_circle_aabb(&p, 1.0, &b, 0.0), Some(3.0));
/// // Thrown up at 10 from x = 3 under gravity 10 (y down), from just below the box's bottom
/// // (y = 5, touching): inside while y < 5, back down to y = 5 at τ = 2.
/// let up = Path::ballistic(Vec2::new(3.0, 5.0), Vec2::new(0.0, -10.0), Vec2::new(0.0, 10.0));
/// let t = exit_path_circle_aabb(&up, 1.0, &b, 0.0).unwrap();
/// assert!((t - 2.0).abs() < 1e-12);
/// ```
#[must_use]
pub fn exit_path_circle_aabb(path: &Path, radius: Real, aabb: &Aabb, from: Real) -> Option<Real> {
    let finite = [path.p0, path.v0, path.accel, aabb.min, aabb.max]
        .iter()
        .all(|v| v.is_finite())
        && radius.is_finite()
        && from.is_finite();
    if !finite {
        return None;
    }
    let (lo, hi) = (from, from + SOLVE_HORIZON);
    let r = radius;
    let mut cuts = Vec::with_capacity(24);
    // Each coordinate against the lines of the two grown boxes: p(τ) − line, a quadratic.
    for axis in 0..2 {
        let (p, v, a) = (path.p0[axis], path.v0[axis], 0.5 * path.accel[axis]);
        for line in [
            aabb.min[axis] - r,
            aabb.min[axis],
            aabb.max[axis],
            aabb.max[axis] + r,
        ] {
            cuts.extend(sign_changes(&[p - line, v, a, 0.0, 0.0], lo, hi));
        }
    }
    // The corner discs.
    for c in [
        aabb.min,
        aabb.max,
        crate::math::Vec2::new(aabb.min.x, aabb.max.y),
        crate::math::Vec2::new(aabb.max.x, aabb.min.y),
    ] {
        let q = corner_quartic(path.p0 - c, path.v0, path.accel, r);
        cuts.extend(sign_changes(&q, lo, hi));
    }
    let gap2 = |t: Real| {
        let p = path.pos_at(t);
        (p - crate::overlap::closest_point_on_aabb(p, aabb)).length_squared()
    };
    let r2 = r * r;
    let near = touching_radius(r, path, aabb);
    first_outside(
        cuts,
        from,
        SOLVE_HORIZON,
        |t| gap2(t) < r2,
        |t| gap2(t) <= near * near,
    )
}
