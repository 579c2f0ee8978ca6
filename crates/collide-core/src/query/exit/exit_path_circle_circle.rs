use super::first_outside;
use crate::math::Real;
use crate::motion::Path;
use crate::roots::{corner_quartic, sign_changes};
use crate::sweep_path::SOLVE_HORIZON;

/// The first time `τ >= from` (seconds from the paths' start) at which two circles, whose
/// centres' *relative* path is `rel` (the first centre minus the second: use
/// [`Path::relative_to`]), stop overlapping: their distance exceeds `radius_sum` (see
/// [`crate::exit`]). `Some(from)` when they do not overlap just after `from`; `None` when they
/// still overlap after `from + SOLVE_HORIZON` (two balls moving together), or for non-finite
/// input.
///
/// ```
/// use collide_core::{exit_path_circle_circle, motion::Path, Vec2};
/// // Head-on, closing at 4 from 2 apart with radii summing to 2 (touching at τ = 0): the
/// // centres cross at τ = 0.5 and are 2 apart again at τ = 1.
/// let rel = Path::linear(Vec2::new(-2.0, 0.0), Vec2::new(4.0, 0.0));
/// assert_eq!(exit_path_circle_circle(&rel, 2.0, 0.0), Some(1.0));
/// ```
#[must_use]
pub fn exit_path_circle_circle(rel: &Path, radius_sum: Real, from: Real) -> Option<Real> {
    let finite = rel.p0.is_finite()
        && rel.v0.is_finite()
        && rel.accel.is_finite()
        && radius_sum.is_finite()
        && from.is_finite();
    if !finite {
        return None;
    }
    let q = corner_quartic(rel.p0, rel.v0, rel.accel, radius_sum);
    let cuts = sign_changes(&q, from, from + SOLVE_HORIZON);
    let r2 = radius_sum * radius_sum;
    let near = radius_sum + 1e-9 * (radius_sum + rel.p0.length());
    let d2 = |t: Real| rel.pos_at(t).length_squared();
    first_outside(
        cuts,
        from,
        SOLVE_HORIZON,
        |t| d2(t) < r2,
        |t| d2(t) <= near * near,
    )
}
