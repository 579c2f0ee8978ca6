//! [`Capsule`]: a segment grown by a radius (a flipper, a rounded post), and
//! [`TurningCapsule`]: a capsule turning about a pivot at constant angular speed (a pinball
//! flipper while it swings).

use crate::math::{Real, Vec2};
use crate::shape::Segment;

/// The set of points within `radius` of `segment` (world units): two flat faces parallel to
/// the segment and two half discs around its ends. `radius = 0` is the segment itself.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Capsule {
    /// The core segment, world units.
    pub segment: Segment,
    /// Radius, world units, `>= 0`.
    pub radius: Real,
}

impl Capsule {
    /// The capsule of `radius` around the segment from `a` to `b`.
    #[must_use]
    pub const fn new(a: Vec2, b: Vec2, radius: Real) -> Self {
        Self {
            segment: Segment::new(a, b),
            radius,
        }
    }
}

/// A capsule turning about a pivot at constant angular speed: a pinball flipper swinging.
///
/// At time `τ` (seconds) the core segment runs from the pivot `pivot + pivot_vel·τ` to the tip
/// `pivot(τ) + length·(cos θ(τ), sin θ(τ))`, with `θ(τ) = angle + omega·τ`, and the capsule is
/// that segment grown by `radius`.
///
/// # Sign of the angle (y down)
/// `θ = 0` points along `+x`, `θ = π/2` along `+y`, which is *down* the screen: a positive
/// `omega` turns the flipper **clockwise as seen on the screen**. A material point at offset
/// `r` from the pivot moves at `pivot_vel + omega·(−r.y, r.x)` (the 2D cross product
/// `ω × r = ω·r.perp()`): for `r = (1, 0)` and `omega > 0` that is `(0, omega)`, downward.
///
/// # Determinism
/// The direction needs `cos` and `sin` of `θ(τ)`, from [`crate::sin_cos`] (libm's pure-Rust
/// implementation, never the platform's C library, whose last bit differs between
/// platforms): the methods of this type and the turning-capsule sweep are the only items of
/// the crate that use trigonometry, and their results are the same bits on every target.
/// Everything else in the crate uses `+ − × /` and `sqrt` only.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct TurningCapsule {
    /// Pivot at `τ = 0`, world units: one end of the core segment, the centre of rotation.
    pub pivot: Vec2,
    /// Velocity of the pivot, units/s (zero for a flipper fixed to the table).
    pub pivot_vel: Vec2,
    /// Length of the core segment from the pivot to the tip's centre, world units, `>= 0`.
    pub length: Real,
    /// Radius of the capsule, world units, `>= 0`.
    pub radius: Real,
    /// Angle `θ0` of the core segment at `τ = 0`, radians (see the sign convention above).
    pub angle: Real,
    /// Angular speed `ω`, radians per second, positive clockwise on the screen (y down).
    pub omega: Real,
}

impl TurningCapsule {
    /// The angle `θ0 + ω·τ` at `τ` seconds (radians).
    #[must_use]
    #[inline]
    pub fn angle_at(&self, t: Real) -> Real {
        self.angle + self.omega * t
    }

    /// The pivot at `τ` seconds: `pivot + pivot_vel·τ`.
    #[must_use]
    #[inline]
    pub fn pivot_at(&self, t: Real) -> Vec2 {
        self.pivot + self.pivot_vel * t
    }

    /// The unit direction `(cos θ(τ), sin θ(τ))` from the pivot to the tip at `τ` seconds.
    #[must_use]
    #[inline]
    pub fn direction_at(&self, t: Real) -> Vec2 {
        let (s, c) = crate::math::sin_cos(self.angle_at(t));
        Vec2::new(c, s)
    }

    /// The capsule at `τ` seconds (pivot end `a`, tip end `b`).
    #[must_use]
    pub fn capsule_at(&self, t: Real) -> Capsule {
        let p = self.pivot_at(t);
        Capsule::new(p, p + self.direction_at(t) * self.length, self.radius)
    }

    /// The velocity at `τ` seconds of the flipper's material point at `point` (world units):
    /// `pivot_vel + ω·(point − pivot(τ)).perp()` (see the sign convention above). The point
    /// need not lie on the flipper: the rigid motion is extended to the whole plane.
    #[must_use]
    #[inline]
    pub fn velocity_at(&self, t: Real, point: Vec2) -> Vec2 {
        self.pivot_vel + (point - self.pivot_at(t)).perp() * self.omega
    }
}
