//! Two circles: [`circle_overlaps_circle`].

use crate::math::{Real, Vec2};

/// Whether two discs overlap: centre distance below the sum of radii (touching is not overlap).
/// A sum of radii `<= 0` never overlaps (two points cannot overlap with positive area).
#[must_use]
pub fn circle_overlaps_circle(c1: Vec2, r1: Real, c2: Vec2, r2: Real) -> bool {
    let r = r1 + r2;
    r > 0.0 && (c1 - c2).length_squared() < r * r
}
