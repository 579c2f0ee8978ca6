//! Rectangles as a world reports them ([`Rect`]): static, kinematic, dynamic or sensor boxes.

use crate::model::desc::RectKind;
use crate::model::filter::Filter;
use crate::model::ids::RectId;
use collide_core::{Aabb, Real, Vec2};

/// A rectangle as stored in the world.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Stable id.
    pub id: RectId,
    /// Position and size, world units.
    pub aabb: Aabb,
    /// Velocity, units/s (zero for static rectangles).
    pub vel: Vec2,
    /// Static, kinematic or dynamic.
    pub kind: RectKind,
    /// Density, mass per unit area (dynamic rectangles).
    pub density: Real,
    /// The rectangle's own restitution, or `None` (the world's `StepConfig::restitution`):
    /// see docs/algorithms.md, "Materials".
    pub restitution: Option<Real>,
    /// The rectangle's layers and mask: see [`crate::Filter`].
    pub filter: Filter,
}

impl Rect {
    /// Mass: density·area for a dynamic rectangle; infinite for static and kinematic ones.
    #[must_use]
    pub fn mass(&self) -> Real {
        match self.kind {
            RectKind::Dynamic => {
                let s = self.aabb.size();
                self.density * s.x * s.y
            }
            _ => Real::INFINITY,
        }
    }
}
