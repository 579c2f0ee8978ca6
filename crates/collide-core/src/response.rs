//! Collision response: pure functions from velocities and a contact normal to new velocities.
//!
//! No trigonometry: every response is a vector reflection along the unit contact normal `n`
//! (pointing toward the body whose velocity is changed; see the crate conventions), so a bounce
//! with restitution `e = 1` keeps the speed to a few ulps.

use crate::math::{Real, Vec2};

/// Reflects velocity `v` off a static surface with unit normal `n` and restitution `e`
/// (`0` = perfectly inelastic, `1` = elastic): `v' = v - (1 + e)(v·n) n`.
///
/// The tangential part of `v` is kept; the normal part is reversed and scaled by `e`. The
/// formula is applied whatever the sign of `v·n`; callers reflect only approaching bodies
/// (`v·n < 0`). For `e = 1` and `|n| = 1`, `|v'| = |v|` exactly in real arithmetic.
/// Source: the standard impulse response, e.g. Ericson (2005) §5.5 / any mechanics text.
///
/// ```
/// use collide_core::{reflect, Vec2};
/// // 45° onto a floor (normal up, (0,-1) in y-down coordinates): vy flips, vx kept.
/// assert_eq!(reflect(Vec2::new(3.0, 4.0), Vec2::new(0.0, -1.0), 1.0), Vec2::new(3.0, -4.0));
/// ```
#[must_use]
#[inline]
pub fn reflect(v: Vec2, n: Vec2, e: Real) -> Vec2 {
    v - n * ((1.0 + e) * v.dot(n))
}

/// Reflects velocity `v` off a surface moving with velocity `surface_vel` (a kinematic body,
/// e.g. a paddle, of infinite mass): the relative velocity is reflected,
/// `v' = v - (1 + e)((v - u)·n) n`.
///
/// A paddle moving up into a ball therefore sends it back faster; the surface's tangential
/// motion does not drag the ball (no friction; sideways "english" is a game rule, not physics).
///
/// This is also the bounce off a swinging flipper: pass the velocity of the flipper's material
/// point at the contact, `u = v_pivot + ω·(point − pivot).perp()`
/// ([`crate::TurningHit::surface_vel`]). With `e = 1` the speed relative to that point is
/// kept, `|v' − u| = |v − u|` (the ball's kinetic energy in the frame moving with the contact
/// point), so the flipper adds speed in the world frame exactly as a moving wall does.
///
/// ```
/// use collide_core::{reflect_relative, Vec2};
/// // Ball falling at 100 units/s onto a paddle rising at 20 units/s (normal up = (0,-1)):
/// // relative normal speed 120 reverses, so the ball leaves at 100 + 2·20 = 140 units/s up.
/// let v = reflect_relative(Vec2::new(0.0, 100.0), Vec2::new(0.0, -20.0), Vec2::new(0.0, -1.0), 1.0);
/// assert_eq!(v, Vec2::new(0.0, -140.0));
/// // A flipper's face point at (0, 40) from its pivot turning at ω = −10 rad/s moves at
/// // −10·(0, 40).perp() = −10·(−40, 0) = (400, 0); a ball at rest touching it with normal
/// // (1, 0) leaves at 2·400 = 800 units/s, and |v' − u| = |0 − u| = 400 (energy kept in the
/// // frame of the contact point).
/// let u = Vec2::new(0.0, 40.0).perp() * -10.0;
/// let out = reflect_relative(Vec2::ZERO, u, Vec2::new(1.0, 0.0), 1.0);
/// assert_eq!(out, Vec2::new(800.0, 0.0));
/// assert_eq!((out - u).length(), (Vec2::ZERO - u).length());
/// ```
#[must_use]
#[inline]
pub fn reflect_relative(v: Vec2, surface_vel: Vec2, n: Vec2, e: Real) -> Vec2 {
    v - n * ((1.0 + e) * (v - surface_vel).dot(n))
}

/// [`reflect_relative`] for a contact normal `n` of any non-zero length: the normal part is
/// the projection `((v − u)·n)/|n|²`, `v' = v − (1 + e)·((v − u)·n / |n|²)·n`.
///
/// With a unit normal this is the same bounce in real arithmetic. In floating point a normal
/// computed as `q/|q|` is a few ulps off unit length, and [`reflect_relative`] then changes an
/// elastic bounce's energy by `4·((v − u)·n)²·(|n|² − 1)`, a bias (not a random walk) when
/// the rounding leans one way; the projection removes it to first order. The curved-path step
/// (gravity) uses it, where millions of corner and ball contacts meet rounded normals.
///
/// ```
/// use collide_core::{reflect_relative_on, Vec2};
/// // A normal twice as long gives the same bounce as the unit one.
/// let v = reflect_relative_on(Vec2::new(3.0, 4.0), Vec2::ZERO, Vec2::new(0.0, -2.0), 1.0);
/// assert_eq!(v, Vec2::new(3.0, -4.0));
/// ```
#[must_use]
#[inline]
pub fn reflect_relative_on(v: Vec2, surface_vel: Vec2, n: Vec2, e: Real) -> Vec2 {
    v - n * ((1.0 + e) * (v - surface_vel).dot(n) / n.length_squared())
}

/// [`collide_elastic`] for a contact normal `n` of any non-zero length: the exchanged normal
/// velocity is the projection `(1 + e)·((v1 − v2)·n)/|n|²`, so that a normal a few ulps off
/// unit length does not bias the kinetic energy of elastic collisions (see
/// [`reflect_relative_on`]). The same masses rules as [`collide_elastic`].
///
/// ```
/// use collide_core::{collide_on, Vec2};
/// // Equal masses head-on along a normal of length 2: velocities are exchanged.
/// let (a, b) = collide_on(1.0, Vec2::new(5.0, 0.0), 1.0, Vec2::new(-3.0, 0.0), Vec2::new(-2.0, 0.0), 1.0);
/// assert_eq!((a, b), (Vec2::new(-3.0, 0.0), Vec2::new(5.0, 0.0)));
/// ```
#[must_use]
#[inline]
pub fn collide_on(m1: Real, v1: Vec2, m2: Real, v2: Vec2, n: Vec2, e: Real) -> (Vec2, Vec2) {
    let (w1, w2) = mass_shares(m1, m2);
    let vn = (1.0 + e) * (v1 - v2).dot(n) / n.length_squared();
    (v1 - n * (vn * w1), v2 + n * (vn * w2))
}

/// Each body's share of the exchanged normal velocity: `(m2/(m1+m2), m1/(m1+m2))`, with the
/// infinite and zero masses of [`collide_elastic`].
fn mass_shares(m1: Real, m2: Real) -> (Real, Real) {
    if m1.is_infinite() && m2.is_infinite() || m1 + m2 == 0.0 {
        (0.5, 0.5)
    } else if m2.is_infinite() {
        (1.0, 0.0)
    } else if m1.is_infinite() {
        (0.0, 1.0)
    } else {
        let total = m1 + m2;
        (m2 / total, m1 / total)
    }
}

/// Elastic oblique collision of two masses along the unit contact normal `n` (from body 2
/// toward body 1), with restitution `e`. Returns the new velocities `(v1', v2')`.
///
/// Seed article 002: decompose both velocities into the normal and the tangent, apply the 1D
/// collision formula along the normal, keep the tangents. Written as one exchanged impulse
/// `J = (1 + e)·m1·m2/(m1 + m2)·((v1 - v2)·n)`, `v1' = v1 - (J/m1) n`, `v2' = v2 + (J/m2) n`,
/// which conserves momentum, and for `e = 1` kinetic energy, exactly in real arithmetic.
///
/// Masses are `>= 0` and may be infinite:
/// - `m2 = ∞` (and finite `m1`): body 1 reflects off body 2 as off a moving wall
///   ([`reflect_relative`]), body 2 is unchanged; symmetric for `m1 = ∞`.
/// - `m1 = 0` (and `m2 > 0`): body 1 reflects, body 2 is unchanged; symmetric for `m2 = 0`.
/// - both zero or both infinite: treated as equal masses.
///
/// ```
/// use collide_core::{collide_elastic, Vec2};
/// // Equal masses head-on: velocities are exchanged.
/// let (a, b) = collide_elastic(1.0, Vec2::new(5.0, 0.0), 1.0, Vec2::new(-3.0, 0.0), Vec2::new(-1.0, 0.0), 1.0);
/// assert_eq!((a, b), (Vec2::new(-3.0, 0.0), Vec2::new(5.0, 0.0)));
/// ```
#[must_use]
#[inline]
pub fn collide_elastic(m1: Real, v1: Vec2, m2: Real, v2: Vec2, n: Vec2, e: Real) -> (Vec2, Vec2) {
    // Share of the exchanged normal velocity taken by each body: w1 = m2/(m1+m2), w2 = m1/(m1+m2).
    let (w1, w2) = mass_shares(m1, m2);
    let vn = (1.0 + e) * (v1 - v2).dot(n);
    (v1 - n * (vn * w1), v2 + n * (vn * w2))
}
