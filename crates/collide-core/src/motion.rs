//! Paths of moving bodies: a start position and velocity and a constant acceleration.
//!
//! `p(τ) = p0 + v0·τ + ½·a·τ²`, `v(τ) = v0 + a·τ`, with `τ` the time since the path's start
//! (seconds, units/s, units/s²; y grows downward, so gravity is `(0, +g)`). With `a = 0` the
//! path is a straight line at constant velocity, the path of every body without gravity; with
//! gravity it is a parabola. Positions are always computed from the path's start (its
//! *anchor*), never by accumulating small steps, so that where a body is at a time does not
//! depend on how the time was cut into steps.

use crate::math::{Real, Vec2};

/// A body's path under constant acceleration (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Path {
    /// Position at `τ = 0`, world units.
    pub p0: Vec2,
    /// Velocity at `τ = 0`, units/s.
    pub v0: Vec2,
    /// Constant acceleration, units/s² (zero: a straight line).
    pub accel: Vec2,
}

impl Path {
    /// A straight path: from `p0` at constant velocity `v0`.
    #[must_use]
    pub const fn linear(p0: Vec2, v0: Vec2) -> Self {
        Path {
            p0,
            v0,
            accel: Vec2::ZERO,
        }
    }

    /// A parabola: from `p0` with velocity `v0` under constant acceleration `accel`.
    #[must_use]
    pub const fn ballistic(p0: Vec2, v0: Vec2, accel: Vec2) -> Self {
        Path { p0, v0, accel }
    }

    /// Position at `τ` seconds after the start: `p0 + v0·τ + ½·a·τ²` (Horner form
    /// `p0 + τ·(v0 + ½·a·τ)`).
    #[must_use]
    pub fn pos_at(&self, t: Real) -> Vec2 {
        self.p0 + (self.v0 + self.accel * (0.5 * t)) * t
    }

    /// Velocity at `τ` seconds after the start: `v0 + a·τ`.
    #[must_use]
    pub fn vel_at(&self, t: Real) -> Vec2 {
        self.v0 + self.accel * t
    }

    /// The same path started `τ` seconds later (its position and velocity there).
    #[must_use]
    pub fn rebase(&self, t: Real) -> Path {
        Path {
            p0: self.pos_at(t),
            v0: self.vel_at(t),
            accel: self.accel,
        }
    }

    /// This path as seen from a body moving along `other` (relative position, velocity and
    /// acceleration): two bodies touch when the relative path of one meets the other's shape.
    #[must_use]
    pub fn relative_to(&self, other: &Path) -> Path {
        Path {
            p0: self.p0 - other.p0,
            v0: self.v0 - other.v0,
            accel: self.accel - other.accel,
        }
    }

    /// An upper bound on the distance covered in `[0, τ]` (`τ >= 0`): `|v0|·τ + ½·|a|·τ²`.
    #[must_use]
    pub fn reach(&self, t: Real) -> Real {
        (self.v0.length() + 0.5 * self.accel.length() * t) * t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dropped_ball_falls_as_the_textbook_says() {
        // From rest at the origin under 9.81 down: after 2 s, y = ½·9.81·4 = 19.62, vy = 19.62.
        let p = Path::ballistic(Vec2::ZERO, Vec2::ZERO, Vec2::new(0.0, 9.81));
        assert_eq!(p.pos_at(2.0), Vec2::new(0.0, 19.62));
        assert_eq!(p.vel_at(2.0), Vec2::new(0.0, 19.62));
        // Rebasing at 1 s then going 1 s more lands within rounding of going 2 s at once.
        let q = p.rebase(1.0);
        assert!((q.pos_at(1.0) - p.pos_at(2.0)).length() < 1e-14);
        assert_eq!(
            Path::linear(Vec2::ONE, Vec2::X).pos_at(3.0),
            Vec2::new(4.0, 1.0)
        );
        assert!(p.reach(2.0) >= p.pos_at(2.0).length());
    }
}
