//! Rotating kinematic flippers: the bats of a pinball table, capsules that turn about a pivot
//! between a rest angle and an active angle at a given angular speed while a game holds their
//! button ([`World::set_flipper_pressed`]).
//!
//! # Geometry and sign convention
//! A flipper is a capsule ([`collide_core::Capsule`]): the core segment from the `pivot` to
//! the tip `pivot + length·(cos θ, sin θ)`, grown by `radius`. Angles are in radians and
//! measured as [`collide_core::TurningCapsule`] measures them, **with y down**: `θ = 0`
//! points along `+x`, `θ = π/2` along `+y` (down the screen), so a growing angle turns the
//! flipper **clockwise on the screen**. A left flipper whose tip rests low and flips up
//! therefore has `active_angle < rest_angle` (e.g. rest `+30°`, active `−30°`); a right
//! flipper pointing left has angles near `π` and `active_angle > rest_angle`.
//!
//! # Motion (kinematic, piecewise linear in time)
//! A flipper is not pushed by what it hits. Its angle is a function of absolute time alone,
//! [`FlipperMotion`]: from the instant its button last changed (`since`, at angle `angle`)
//! it turns at `±angular_speed` toward its target (the active angle while pressed, the rest
//! angle when released) until it reaches it at the exact time `until`, and is held there,
//! exactly at the target angle, from then on. Inside a step a flipper is thus made of at
//! most two pieces: turning at constant `ω`, then still. Pressing or releasing between steps
//! starts a new motion from the angle reached at that instant (a release in mid-swing turns
//! back from where the flipper is). Nothing is integrated per step: the angle at any time is
//! computed from the motion's start, so no rounding piles up.
//!
//! # In the step
//! A ball meets a flipper at the time of impact certified by
//! `collide_core::sweep_path_circle_turning_capsule` (conservative advancement, never
//! sampling) for the turning piece, and exactly (a static capsule) for the held piece, on
//! straight and parabolic paths (`step/flippers.rs`). The bounce reflects the ball's velocity
//! relative to the flipper's surface velocity at the contact point (`ω × r`), with the
//! pair's restitution ([`crate::model::material`]): a flip shoots the ball, and with restitution 1
//! the ball's speed relative to the flipper's surface is kept (energy is conserved in the
//! flipper's frame). Reported as [`crate::Event::Contact`].
//!
//! # Limits
//! - A ball lying on a held flipper under gravity does not come to rest on it: it bounces off
//!   it every [`crate::REST_TIME`] at the speed of such a flight, as on a static segment
//!   (`crate::body::shape`); it never sinks in, and the events it costs per step are bounded.
//! - A ball or a dynamic box a turning flipper presses into immovable geometry with no room
//!   left is carried by the flipper's surface, slides out along the wedge or is crushed
//!   ([`crate::Event::FlipperSqueezed`]) and pushed out of the flipper, as by a kinematic
//!   rectangle (`crate::step::squeeze`); the push-out of balls and of boxes sees flippers.
//! - Flippers use `sin` and `cos` from [`collide_core::sin_cos`] (libm's pure-Rust
//!   implementation): the same bits on every platform, run, thread count and restore.

use crate::model::error::WorldError;
use crate::model::flipper_desc::FlipperDesc;
use crate::model::ids::FlipperId;
use crate::model::limits::Bound;
use crate::model::limits::{MAX_FLIPPER_ANGLE, MAX_FLIPPER_ANGULAR_SPEED};
use collide_core::{Capsule, Real, TurningCapsule, Vec2};

/// A flipper's angle as a function of absolute time (docs/algorithms.md, "Flippers in the step"): from `since`
/// at `angle`, turning at `omega` until `until`, then held at `target`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FlipperMotion {
    /// When this motion started (the button's last change, or the flipper's creation),
    /// absolute seconds.
    pub since: Real,
    /// The angle at `since`, radians.
    pub angle: Real,
    /// The angle it turns toward and is held at, radians.
    pub target: Real,
    /// The angular velocity while it turns, rad/s: `±angular_speed` toward `target`, zero
    /// when `angle == target`.
    pub omega: Real,
    /// When it reaches `target`, absolute seconds: `since + |target − angle| / angular_speed`.
    pub until: Real,
}

impl FlipperMotion {
    /// A motion from `angle` at `since` toward `target` at `speed` rad/s (`> 0`).
    #[must_use]
    pub fn new(since: Real, angle: Real, target: Real, speed: Real) -> Self {
        let d = target - angle;
        let omega = if d > 0.0 {
            speed
        } else if d < 0.0 {
            -speed
        } else {
            0.0
        };
        FlipperMotion {
            since,
            angle,
            target,
            omega,
            until: since + d.abs() / speed,
        }
    }

    /// The angle at absolute time `t`, radians: `angle + omega·(t − since)` before `until`,
    /// exactly `target` from `until` on.
    #[must_use]
    #[inline]
    pub fn angle_at(&self, t: Real) -> Real {
        if t >= self.until {
            self.target
        } else {
            self.angle + self.omega * (t - self.since)
        }
    }

    /// The angular velocity at absolute time `t`, rad/s: `omega` before `until`, zero from
    /// then on.
    #[must_use]
    #[inline]
    pub fn omega_at(&self, t: Real) -> Real {
        if t >= self.until {
            0.0
        } else {
            self.omega
        }
    }
}

/// A flipper as stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flipper {
    /// Stable id.
    pub id: FlipperId,
    /// What it was made from (pivot, length, radius, angles, speed, restitution, filter).
    pub desc: FlipperDesc,
    /// Whether its button is held ([`crate::World::set_flipper_pressed`]).
    pub pressed: bool,
    /// Its angle over time since the button last changed.
    pub motion: FlipperMotion,
}

impl Flipper {
    /// The angle at absolute time `t` (seconds; [`crate::World::time`] for now), radians.
    #[must_use]
    pub fn angle_at(&self, t: Real) -> Real {
        self.motion.angle_at(t)
    }

    /// The angular velocity at absolute time `t`, rad/s (zero while held at a limit).
    #[must_use]
    pub fn angular_velocity_at(&self, t: Real) -> Real {
        self.motion.omega_at(t)
    }

    /// Whether it is turning at absolute time `t` (not yet at its target angle).
    #[must_use]
    pub fn is_moving_at(&self, t: Real) -> bool {
        t < self.motion.until
    }

    /// The capsule at absolute time `t`: core from the pivot to the tip, and the radius.
    #[must_use]
    pub fn capsule_at(&self, t: Real) -> Capsule {
        let (s, c) = collide_core::sin_cos(self.angle_at(t));
        let d = &self.desc;
        Capsule::new(d.pivot, d.pivot + Vec2::new(c, s) * d.length, d.radius)
    }

    /// The velocity at absolute time `t` of the flipper's material point at `point` (world
    /// units): `ω·(point − pivot).perp()`, zero while it is held (the rigid motion extended to
    /// the whole plane, as [`TurningCapsule::velocity_at`]).
    #[must_use]
    pub fn surface_velocity_at(&self, t: Real, point: Vec2) -> Vec2 {
        (point - self.desc.pivot).perp() * self.motion.omega_at(t)
    }

    /// The turning capsule of the motion piece that contains absolute time `t`, as
    /// `collide_core` sweeps it (its `τ = 0` at `t`).
    #[must_use]
    pub fn turning_capsule_at(&self, t: Real) -> TurningCapsule {
        TurningCapsule {
            pivot: self.desc.pivot,
            pivot_vel: Vec2::ZERO,
            length: self.desc.length,
            radius: self.desc.radius,
            angle: self.angle_at(t),
            omega: self.motion.omega_at(t),
        }
    }

    /// The box holding every place the flipper can take (the disc its capsule sweeps about
    /// the pivot), world units.
    #[must_use]
    pub fn reach(&self) -> collide_core::Aabb {
        let r = self.desc.length + self.desc.radius;
        collide_core::Aabb::new(self.desc.pivot - Vec2::splat(r), self.desc.pivot + r)
    }
}

pub(crate) fn bad(field: &'static str, problem: impl ToString) -> WorldError {
    WorldError::BadFlipper {
        field,
        problem: problem.to_string(),
    }
}

/// Checks a flipper's description (see [`World::add_flipper`]).
pub(crate) fn validate(d: &FlipperDesc) -> Result<(), WorldError> {
    Bound::Coord
        .check_vec2(d.pivot)
        .map_err(|e| bad("pivot", e))?;
    Bound::Positive
        .check(d.length)
        .map_err(|e| bad("length", e))?;
    Bound::NonNeg
        .check(d.radius)
        .map_err(|e| bad("radius", e))?;
    for (field, a) in [
        ("rest_angle", d.rest_angle),
        ("active_angle", d.active_angle),
    ] {
        if a.is_nan() || a.abs() > MAX_FLIPPER_ANGLE {
            return Err(bad(
                field,
                format!("expected an angle between -4π and 4π radians, found {a:?}"),
            ));
        }
    }
    if !(d.angular_speed > 0.0 && d.angular_speed <= MAX_FLIPPER_ANGULAR_SPEED) {
        return Err(bad(
            "angular_speed",
            format!(
                "expected a number > 0 (and <= {MAX_FLIPPER_ANGULAR_SPEED:e}) radians per second, found {:?}",
                d.angular_speed
            ),
        ));
    }
    if let Some(e) = d.surface.restitution {
        Bound::Restitution
            .check(e)
            .map_err(|err| bad("restitution", err))?;
    }
    if d.surface.one_way {
        return Err(bad(
            "surface.one_way",
            "a flipper cannot be a one-way platform",
        ));
    }
    if d.surface.sensor {
        return Err(bad("surface.sensor", "a flipper cannot be a sensor"));
    }
    Ok(())
}
