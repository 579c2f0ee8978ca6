//! Rectangles as a world reports them ([`Rect`]): static, kinematic, dynamic or sensor boxes.

use crate::model::desc::RectKind;
use crate::model::ids::RectId;
use crate::model::surface::Surface;
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
    /// Static, kinematic or dynamic (a sensor when [`Surface::sensor`] is set).
    pub kind: RectKind,
    /// Density, mass per unit area (dynamic rectangles).
    pub density: Real,
    /// Its restitution (or `None`: the world's `StepConfig::restitution`; docs/algorithms.md,
    /// "Materials"), layers and mask ([`crate::Filter`]), and whether it is a sensor.
    pub surface: Surface,
}

/// What a rectangle does in the step, from its kind and its surface: a sensor rectangle is a
/// trigger area whatever it moves like (its velocity is zero when it is static).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RectRole {
    /// An immovable obstacle.
    Static,
    /// An obstacle moving at its own velocity, unaffected by hits.
    Kinematic,
    /// A body exchanging momentum.
    Dynamic,
    /// A trigger area, static or kinematic.
    Sensor,
}

impl Rect {
    /// What it does in the step.
    #[inline]
    pub(crate) fn role(&self) -> RectRole {
        if self.surface.sensor {
            RectRole::Sensor
        } else {
            match self.kind {
                RectKind::Static => RectRole::Static,
                RectKind::Kinematic => RectRole::Kinematic,
                RectKind::Dynamic => RectRole::Dynamic,
            }
        }
    }

    /// Its kind and sensor flag as one number, for the state hash and snapshots: 0 static,
    /// 1 kinematic, 2 dynamic, 3 kinematic sensor, 4 static sensor.
    pub(crate) fn code(&self) -> u8 {
        match (self.kind, self.surface.sensor) {
            (RectKind::Static, false) => 0,
            (RectKind::Kinematic, false) => 1,
            (RectKind::Dynamic, _) => 2,
            (RectKind::Kinematic, true) => 3,
            (RectKind::Static, true) => 4,
        }
    }

    /// The kind and sensor flag of [`Rect::code`]'s number, `None` for an unknown one.
    pub(crate) fn from_code(code: u64) -> Option<(RectKind, bool)> {
        Some(match code {
            0 => (RectKind::Static, false),
            1 => (RectKind::Kinematic, false),
            2 => (RectKind::Dynamic, false),
            3 => (RectKind::Kinematic, true),
            4 => (RectKind::Static, true),
            _ => return None,
        })
    }

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
