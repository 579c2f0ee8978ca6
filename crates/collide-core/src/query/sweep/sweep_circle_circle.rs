//! Two moving circles swept against each other: [`sweep_circle_circle`].

use crate::math::{Real, Vec2};
use crate::query::hit::{Feature, SweepHit};
use crate::query::sweep::sweep_circle_point;

/// Sweeps two moving circles: body 1 (`c1`, `r1`, `v1`) against body 2 (`c2`, `r2`, `v2`).
/// The earliest toi in `[0, max_toi]` at which the centre distance equals `r1 + r2`.
///
/// Solved as a point sweep of the relative motion `v1 - v2` against a disc of radius `r1 + r2`
/// (the Minkowski sum of the two discs). The normal points from body 2 toward body 1; the
/// contact point lies on body 2's surface at impact, `c2(toi) + normal·r2`. Already touching or
/// overlapping and approaching: toi = 0; separating or at rest relative to each other: `None`.
#[must_use]
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn sweep_circle_circle(
    c1: Vec2,
    r1: Real,
    v1: Vec2,
    c2: Vec2,
    r2: Real,
    v2: Vec2,
    max_toi: Real,
) -> Option<SweepHit> {
    let (toi, normal) = sweep_circle_point(c1, r1 + r2, v1 - v2, max_toi, c2)?;
    let point = c2 + v2 * toi + normal * r2;
    Some(SweepHit {
        toi,
        normal,
        point,
        feature: Feature::Circle,
    })
}
