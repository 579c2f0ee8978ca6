//! A circle swept against a point: [`sweep_circle_point`], and the earliest-root solver it
//! shares with the corner sweep.

use crate::math::{Real, Vec2};

/// The earliest time at which the point `m + vel·t` is at distance `radius` from the origin,
/// and the (unnormalised) position `q = m + vel·toi` then. See [`sweep_circle_point`].
#[inline]
pub(crate) fn point_toi(m: Vec2, radius: Real, vel: Vec2, max_toi: Real) -> Option<(Real, Vec2)> {
    let b = m.dot(vel);
    if !(b < 0.0) {
        return None;
    }
    let k = m.length_squared() - radius * radius;
    let toi = if k <= 0.0 {
        0.0
    } else {
        let a = vel.length_squared();
        // b² − a·k rewritten with Lagrange's identity |m|²|v|² − (m·v)² = (m × v)², so that it
        // does not cancel: for a path through the point (m × v = 0) it is exactly a·r².
        let cross = m.perp_dot(vel);
        let disc = a * (radius * radius) - cross * cross;
        // disc = a·(r² − d²) with d the path's closest approach to the point. disc = 0 with
        // r > 0 is a tangent path: it touches for one instant with purely tangential velocity,
        // which is no hit (the contact rule); with r = 0 it passes through the point: a hit.
        if !(disc > 0.0 || (disc == 0.0 && radius == 0.0)) {
            return None;
        }
        k / (-b + disc.sqrt())
    };
    if !(toi <= max_toi) {
        return None;
    }
    Some((toi, m + vel * toi))
}

/// Sweeps a circle against a point (a disc of `radius` around `point`): the earliest `toi` at
/// which `|center + vel·toi - point| = radius`, and the unit normal from the point to the
/// centre at that time.
///
/// Uses the cancellation-free root `k / (-b + sqrt(b² - a·k))` (see
/// [the module docs](crate::sweep)). If the distance is already `<= radius` and the circle
/// approaches (`(center-point)·vel < 0`), toi = 0. A path tangent to the disc (closest
/// approach exactly `radius > 0`) only grazes it with tangential velocity and is no hit, like
/// touching at the start while moving tangentially. When the centre coincides with the point
/// at impact (zero radius) the normal is `-vel` normalised. Returns `None` for `vel = 0`, a
/// miss, or toi > `max_toi`. Never NaN for finite inputs.
#[must_use]
#[inline]
pub fn sweep_circle_point(
    center: Vec2,
    radius: Real,
    vel: Vec2,
    max_toi: Real,
    point: Vec2,
) -> Option<(Real, Vec2)> {
    let (toi, q) = point_toi(center - point, radius, vel, max_toi)?;
    let len = q.length();
    let normal = if len > 0.0 {
        q / len
    } else {
        -vel / vel.length()
    };
    Some((toi, normal))
}
