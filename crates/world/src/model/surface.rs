//! A body's surface ([`Surface`]): the properties every description shares whatever the body
//! is (ball, rectangle, static shape, flipper, character, spawned balls): its restitution, its
//! collision layers and mask, whether it is a sensor and whether it is a one-way platform.

use crate::model::filter::Filter;
use collide_core::Real;

/// What a body's surface does to the bodies it meets, the same on every description
/// ([`crate::BallDesc::surface`], [`crate::RectDesc::surface`], [`crate::ShapeDesc::surface`],
/// [`crate::FlipperDesc::surface`], [`crate::CharacterDesc::surface`],
/// [`crate::SpawnDesc::surface`]) and changed after adding with
/// [`crate::World::set_restitution`] and [`crate::World::set_filter`].
///
/// ```
/// use collide_world::{Filter, Surface};
/// let bumper = Surface::DEFAULT.with_restitution(1.5);
/// assert_eq!(bumper.restitution, Some(1.5));
/// let ghost = Surface::DEFAULT.with_filter(Filter { layers: 0b10, mask: !0b01 });
/// assert!(!ghost.sensor);
/// assert!(Surface::SENSOR.sensor);
/// assert!(Surface::ONE_WAY.one_way);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Surface {
    /// The body's own restitution (1 = elastic), finite in
    /// `[0, MAX_RESTITUTION]` ([`crate::limits::MAX_RESTITUTION`], 10; above 1 a bounce adds
    /// speed, up to [`crate::limits::MAX_KICK_SPEED`]); `None` (the default) = the world's
    /// [`crate::StepConfig::restitution`]. A collision uses the larger of the two bodies' values
    /// (docs/algorithms.md, "Materials"). Unused by sensors and characters (a character never
    /// bounces: it slides).
    pub restitution: Option<Real>,
    /// The body's layers and mask ([`Filter`]): which bodies and cell kinds it collides with (a
    /// sensor: which bodies it reports). Default [`Filter::DEFAULT`] (layer 0, colliding with
    /// everything).
    pub filter: Filter,
    /// A trigger area, not an obstacle: it never changes a body's motion and reports the bodies
    /// it collides with entering and leaving it, at their exact times
    /// ([`crate::Event::SensorEnter`], [`crate::Event::SensorExit`]; docs/algorithms.md,
    /// "Sensors"). Only static and kinematic rectangles and circle shapes can be sensors; on a
    /// ball, a dynamic rectangle, a segment, a polygon, a flipper or a character it is refused
    /// with the description's `Bad…` error naming the field `surface.sensor`. Default false.
    pub sensor: bool,
    /// A one-way platform: it stops bodies only from above, where the contact normal, from
    /// it toward the body, points up (`normal.y < 0`, y down), and lets them pass from below
    /// and the sides ([`crate::World::set_one_way`], which changes it after adding;
    /// docs/algorithms.md, "One-way platforms"). Only static and kinematic rectangles and
    /// static shapes that are not sensors can be one-way; on a ball, a dynamic rectangle, a
    /// sensor, a flipper or a character it is refused with the description's `Bad…` error
    /// naming the field `surface.one_way`. Default false.
    pub one_way: bool,
}

impl Surface {
    /// The world's restitution, [`Filter::DEFAULT`], not a sensor: every description's default.
    pub const DEFAULT: Surface = Surface {
        restitution: None,
        filter: Filter::DEFAULT,
        sensor: false,
        one_way: false,
    };

    /// A one-way platform with the world's restitution and the default filter.
    pub const ONE_WAY: Surface = Surface {
        restitution: None,
        filter: Filter::DEFAULT,
        sensor: false,
        one_way: true,
    };

    /// A sensor with the default filter (reports every body on some layer).
    pub const SENSOR: Surface = Surface {
        restitution: None,
        filter: Filter::DEFAULT,
        sensor: true,
        one_way: false,
    };

    /// This surface with its own restitution `r` (checked when the body is added).
    #[must_use]
    pub const fn with_restitution(self, r: Real) -> Surface {
        Surface {
            restitution: Some(r),
            ..self
        }
    }

    /// This surface with the layers and mask `filter`.
    #[must_use]
    pub const fn with_filter(self, filter: Filter) -> Surface {
        Surface { filter, ..self }
    }
}

impl Default for Surface {
    fn default() -> Self {
        Surface::DEFAULT
    }
}
