//! A point and a circle: [`point_in_circle`].

use crate::math::{Real, Vec2};

/// Whether `p` lies in the disc of `center` and `radius`, boundary included.
#[must_use]
pub fn point_in_circle(p: Vec2, center: Vec2, radius: Real) -> bool {
    (p - center).length_squared() <= radius * radius
}
