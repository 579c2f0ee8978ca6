//! The description of a flipper ([`FlipperDesc`]): pivot, length, radius, rest and active
//! angles and angular speed. See `crate::body::flipper` for its motion and the step.

use crate::model::surface::Surface;
use collide_core::{Real, Vec2};

/// A flipper to add ([`crate::World::add_flipper`]). Angles in radians with the module's sign
/// convention (y down: a growing angle turns clockwise on the screen).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlipperDesc {
    /// The pivot, world units: the centre of rotation and one end of the core segment.
    pub pivot: Vec2,
    /// From the pivot to the tip's centre, world units, `> 0`.
    pub length: Real,
    /// The capsule's radius, world units, `>= 0`.
    pub radius: Real,
    /// The angle while the button is released, radians.
    pub rest_angle: Real,
    /// The angle while the button is held, radians.
    pub active_angle: Real,
    /// How fast it turns between the two, radians per second, `> 0`.
    pub angular_speed: Real,
    /// Its restitution and layers ([`Surface`]; a flipper is never a sensor). Default
    /// [`Surface::DEFAULT`].
    pub surface: Surface,
}

impl FlipperDesc {
    /// A flipper at `pivot` of `length` and `radius` (world units) turning between
    /// `rest_angle` and `active_angle` (radians) at `angular_speed` (rad/s); the world's
    /// restitution, the default filter.
    #[must_use]
    pub fn new(
        pivot: Vec2,
        length: Real,
        radius: Real,
        rest_angle: Real,
        active_angle: Real,
        angular_speed: Real,
    ) -> Self {
        FlipperDesc {
            pivot,
            length,
            radius,
            rest_angle,
            active_angle,
            angular_speed,
            surface: Surface::DEFAULT,
        }
    }
}
