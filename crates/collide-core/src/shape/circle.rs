//! [`Circle`]: a disc (a ball).

use crate::math::{Real, Vec2};
use crate::shape::Aabb;

/// A disc: centre in world units, radius in world units (`>= 0`; a zero radius is a point).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Circle {
    /// Centre, world units.
    pub center: Vec2,
    /// Radius, world units, `>= 0`.
    pub radius: Real,
}

impl Circle {
    /// A circle of `radius` (world units) centred at `center`.
    #[must_use]
    pub const fn new(center: Vec2, radius: Real) -> Self {
        Self { center, radius }
    }

    /// The bounding box of the circle: `center ± radius`.
    #[must_use]
    #[inline]
    pub fn aabb(&self) -> Aabb {
        Aabb::new(self.center - self.radius, self.center + self.radius)
    }
}
