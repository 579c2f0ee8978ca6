//! Materials: each body's own restitution, and the restitution of one collision.
//!
//! Restitution `e` scales the normal relative speed of a bounce: the bodies separate along
//! the contact normal at `e` times the speed at which they met (1: elastic, 0: dead, above 1:
//! a kicker that adds speed). Tangential velocities are kept (no friction).
//!
//! - **Whose value.** Every body ([`crate::Surface::restitution`]
//!   on its description) and the two kinds of grid cell ([`GridDesc::wall_restitution`]
//!   for every [`Cell::Wall`], [`GridDesc::brick_restitution`] for every [`Cell::Brick`]) may
//!   have their own value, finite in `[0, MAX_RESTITUTION]`. One without (`None`) uses the
//!   world's [`StepConfig::restitution`] (in `[0, 1]`), as the world's closed walls always do.
//! - **The pair's value** is the larger of the two bodies' values
//!   ([`mix_restitution`]): Box2D's mixing rule (E. Catto, Box2D v2.4,
//!   `include/box2d/b2_contact.h`, `b2MixRestitution`: "the idea is to allow for anything to
//!   bounce off an inelastic surface; for example, a superball bounces on anything"). A ball
//!   of restitution 0.5 on a tile of the default 1 bounces elastically; a dead ball (0) on a
//!   rubber pad (0.25) leaves at a quarter of its speed.
//! - **The TC rule first.** A body hit again within `1e-4·dt` of its last collision bounces
//!   elastically whatever the materials (`docs/algorithms.md`, "Inelastic collapse").
//! - **Kicks are capped.** With `e > 1` the normal relative speed after the bounce is
//!   `min(e·s, max(s, MAX_KICK_SPEED))` for an incoming normal speed `s`
//!   ([`capped_restitution`]): a bumper adds speed up to [`MAX_KICK_SPEED`], never more, and
//!   never turns into a damper for a body already faster than that (it then bounces
//!   elastically). Two bumpers facing each other cannot pump a ball to an unbounded speed.
//! - **Kicks bound speed.** Off a tile, a wall, a static shape, a rectangle or a flipper, a
//!   kick also never leaves the body faster than `max(|v|, MAX_KICK_SPEED)` (`|v|` its speed
//!   before the bounce), whatever the angle ([`speed_capped`]): glancing kicks, which add
//!   little normal speed each, cannot pump the tangential part without bound. It never kicks
//!   weaker than an elastic bounce (a moving surface may still add its own speed).
//!
//! With no value set anywhere every collision uses [`StepConfig::restitution`], exactly as
//! before materials existed (the same bits, the same [`crate::World::state_hash`]).
//!
//! Conventions as in `collide-core`: units/s, normals from the obstacle toward the moving
//! body.

use crate::model::error::GridError;
use crate::model::limits::MAX_KICK_SPEED;
use crate::model::limits::{Bound, OutOfBounds};
use collide_core::{Real, Vec2};

#[cfg(doc)]
use crate::model::desc::{BallDesc, GridDesc, RectDesc, StepConfig};

/// The restitution of a collision between two bodies of restitution `a` and `b`: the larger,
/// Box2D's `b2MixRestitution` (see the module docs). Symmetric; NaN-free for values in
/// `[0, MAX_RESTITUTION]`.
///
/// ```text
/// // A superball bounces on anything; a dead ball bounces off a bouncy pad.
/// assert_eq!(mix_restitution(0.5, 1.0), 1.0);
/// assert_eq!(mix_restitution(0.0, 0.25), 0.25);
/// ```
#[must_use]
#[inline]
pub(crate) fn mix_restitution(a: Real, b: Real) -> Real {
    a.max(b)
}

/// The restitution a bounce uses when its bodies meet with normal relative speed `speed`
/// (units/s, `>= 0`) and their mixed restitution is `e`: `e` itself when `e <= 1` or the
/// kicked speed `e·speed` stays within `max(speed, MAX_KICK_SPEED)`; else
/// `max(speed, MAX_KICK_SPEED) / speed` (at least 1), so that the normal relative speed
/// after the bounce is `min(e·speed, max(speed, MAX_KICK_SPEED))`.
///
/// ```text
/// // A bumper of 1.5 hit at 100 units/s sends the ball back at 150.
/// assert_eq!(capped_restitution(1.5, 100.0), 1.5);
/// // Hit at 8000 units/s it would give 12 000: capped at 10 000, e = 10 000 / 8000 = 1.25.
/// assert_eq!(capped_restitution(1.5, 8000.0), MAX_KICK_SPEED / 8000.0);
/// // Hit at 20 000 units/s, faster than the cap: elastic.
/// assert_eq!(capped_restitution(1.5, 20_000.0), 1.0);
/// // Restitution up to 1 is never changed.
/// assert_eq!(capped_restitution(0.5, 1e9), 0.5);
/// ```
#[must_use]
#[inline]
pub(crate) fn capped_restitution(e: Real, speed: Real) -> Real {
    if e <= 1.0 || speed <= 0.0 {
        return e;
    }
    let limit = speed.max(MAX_KICK_SPEED);
    if e * speed <= limit {
        e
    } else {
        limit / speed
    }
}

/// The normal speed at which a body of velocity `v` meets a surface moving at `u` with unit
/// normal `n` (toward the body), `-(v - u)·n`, at least 0. With `per_axis` (two boxes, which
/// reflect per axis: `collide_world`'s box responses), the largest such speed along the axes
/// on which `n` has a component, so that each axis's kick is capped.
#[must_use]
#[inline]
pub(crate) fn approach_speed(v: Vec2, u: Vec2, n: Vec2, per_axis: bool) -> Real {
    let r = v - u;
    let s = if per_axis {
        let sx = if n.x == 0.0 { 0.0 } else { -r.x * n.x.signum() };
        let sy = if n.y == 0.0 { 0.0 } else { -r.y * n.y.signum() };
        sx.max(sy)
    } else {
        -r.dot(n)
    };
    s.max(0.0)
}

/// [`capped_restitution`] for a body of velocity `v` meeting a surface moving at `u` along
/// normal `n` (see [`approach_speed`]): the restitution the response uses. Free when
/// `e <= 1`.
#[must_use]
#[inline]
pub(crate) fn kick_capped(e: Real, v: Vec2, u: Vec2, n: Vec2, per_axis: bool) -> Real {
    if e <= 1.0 {
        e
    } else {
        capped_restitution(e, approach_speed(v, u, n, per_axis))
    }
}

/// The restitution, at most `e`, with which a body of velocity `v` bouncing off a surface
/// moving at `u` (unit normal `n` toward the body) leaves no faster than
/// `max(|v|, MAX_KICK_SPEED)`, and never below 1 (an elastic bounce): `e` itself when
/// `e <= 1` or the body does not approach.
///
/// The bounce gives `v' = v + k·w·n` with `k = 1 + e` and `w = −(v − u)·n > 0`, so
/// `|v'|² = |v|² + 2k·w·(v·n) + k²·w²`; `|v'| <= L` holds for `k` up to the larger root
/// `k⁺ = (−v·n + √((v·n)² + L² − |v|²)) / w` (real, as `L >= |v|`).
///
/// ```text
/// // A ball at 100 units/s straight into a bumper of 10: 1000 after, under the cap: e kept.
/// assert_eq!(speed_capped(10.0, Vec2::new(0.0, 100.0), Vec2::ZERO, Vec2::new(0.0, -1.0)), 10.0);
/// // At 9000 units/s along the face and 100 into it, e = 10 would leave at √(9000² + 1000²):
/// // capped so that the speed is 10 000.
/// ```
#[must_use]
#[inline]
pub(crate) fn speed_capped(e: Real, v: Vec2, u: Vec2, n: Vec2) -> Real {
    if e <= 1.0 {
        return e;
    }
    let w = -(v - u).dot(n);
    if !(w > 0.0) {
        return e;
    }
    let limit = v.length().max(MAX_KICK_SPEED);
    let vn = v.dot(n);
    let disc = vn * vn + (limit * limit - v.length_squared());
    let k = (-vn + disc.max(0.0).sqrt()) / w;
    e.min((k - 1.0).max(1.0))
}

/// A body's or cell kind's own restitution: `None`, or finite in `[0, MAX_RESTITUTION]`.
pub(crate) fn check(e: Option<Real>) -> Result<(), OutOfBounds> {
    e.map_or(Ok(()), |e| Bound::Restitution.check(e).map(|_| ()))
}

/// Checks the grid's per-kind values ([`Grid::set_restitution`], [`Grid::new`]).
pub(crate) fn check_cells(wall: Option<Real>, brick: Option<Real>) -> Result<(), GridError> {
    for (field, e) in [("wall_restitution", wall), ("brick_restitution", brick)] {
        check(e).map_err(|e| GridError::BadRestitution {
            field,
            problem: e.to_string(),
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kick_never_leaves_faster_than_the_cap_or_the_speed_before() {
        let mut seed: u64 = 0x1234_5678_9ABC_DEF1;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) as Real / (1u64 << 53) as Real
        };
        let mut capped = 0;
        for _ in 0..100_000 {
            let a = std::f64::consts::TAU * next();
            let n = Vec2::new(a.cos(), a.sin());
            let speed = 10f64.powf(5.0 * next());
            let b = std::f64::consts::TAU * next();
            let v = Vec2::new(b.cos(), b.sin()) * speed;
            let u = if next() < 0.5 {
                Vec2::ZERO
            } else {
                Vec2::new(next() - 0.5, next() - 0.5) * 2000.0
            };
            let e = 1.0 + 9.0 * next();
            if (v - u).dot(n) >= 0.0 {
                continue;
            }
            let e2 = speed_capped(e, v, u, n);
            assert!((1.0..=e).contains(&e2), "{e2} outside [1, {e}]");
            let after = v - n * ((1.0 + e2) * (v - u).dot(n));
            let elastic = v - n * (2.0 * (v - u).dot(n));
            let limit = v.length().max(MAX_KICK_SPEED).max(elastic.length());
            assert!(
                after.length() <= limit * (1.0 + 1e-12),
                "{} > {limit}",
                after.length()
            );
            if e2 < e {
                capped += 1;
                // Capped exactly at the bound (or at the elastic bounce).
                let bound = v.length().max(MAX_KICK_SPEED);
                assert!(
                    e2 == 1.0 || (after.length() - bound).abs() <= bound * 1e-9,
                    "{} vs {bound}",
                    after.length()
                );
            }
        }
        assert!(capped > 1000, "{capped}");
    }

    #[test]
    fn the_pair_takes_the_larger_restitution() {
        // A superball bounces on anything; a dead ball bounces off a bouncy pad.
        assert_eq!(mix_restitution(0.5, 1.0), 1.0);
        assert_eq!(mix_restitution(0.0, 0.25), 0.25);
    }

    #[test]
    fn a_kick_is_capped_at_the_kick_speed() {
        use crate::model::limits::MAX_KICK_SPEED;
        // A bumper of 1.5 hit at 100 units/s sends the ball back at 150.
        assert_eq!(capped_restitution(1.5, 100.0), 1.5);
        // Hit at 8000 units/s it would give 12 000: capped at 10 000, e = 10 000 / 8000 = 1.25.
        assert_eq!(capped_restitution(1.5, 8000.0), MAX_KICK_SPEED / 8000.0);
        // Hit at 20 000 units/s, faster than the cap: elastic.
        assert_eq!(capped_restitution(1.5, 20_000.0), 1.0);
        // Restitution up to 1 is never changed.
        assert_eq!(capped_restitution(0.5, 1e9), 0.5);
    }

    #[test]
    fn the_cap_bounds_the_outgoing_normal_speed() {
        // e·s within the cap: unchanged.
        assert_eq!(capped_restitution(10.0, 1000.0), 10.0);
        // 10·2000 = 20 000 > 10 000: e = 5, out 10 000.
        assert_eq!(capped_restitution(10.0, 2000.0), 5.0);
        // Faster than the cap already: elastic, never slower.
        assert_eq!(capped_restitution(2.0, 3e4), 1.0);
        assert_eq!(capped_restitution(3.0, 0.0), 3.0);
        for e in [0.0, 0.3, 1.0] {
            assert_eq!(capped_restitution(e, 1e8), e);
        }
        // The bound's words name the constant.
        assert_eq!(Bound::Restitution.expected(), "a number between 0 and 10");
        assert_eq!(crate::model::limits::MAX_RESTITUTION, 10.0);
    }

    #[test]
    fn approach_speed_per_axis_takes_the_faster_axis() {
        let n = Vec2::new(-1.0, -1.0);
        // Relative velocity (3, 5) against normals -x and -y: 3 and 5.
        assert_eq!(
            approach_speed(Vec2::new(3.0, 5.0), Vec2::ZERO, n, true),
            5.0
        );
        // Along the unit normal (0, -1): 5; separating: 0.
        let up = Vec2::new(0.0, -1.0);
        assert_eq!(
            approach_speed(Vec2::new(3.0, 5.0), Vec2::ZERO, up, false),
            5.0
        );
        assert_eq!(
            approach_speed(Vec2::new(3.0, -5.0), Vec2::ZERO, up, false),
            0.0
        );
        // Relative to a surface moving at u.
        assert_eq!(
            approach_speed(Vec2::new(0.0, 5.0), Vec2::new(0.0, -2.0), up, false),
            7.0
        );
    }
}
