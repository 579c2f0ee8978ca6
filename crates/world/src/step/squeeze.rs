//! Squeezes: a kinematic rectangle closing on a body that has no room to get out of its way.
//!
//! A kinematic rectangle has infinite mass and a path set by the game: nothing stops it. A
//! ball (or dynamic rectangle) caught between it and immovable geometry (a tile, a closed
//! wall, a static rectangle) bounces back and forth in an ever narrower gap. With exact
//! elastic bounces each return off the closing rectangle adds `(1 + e)·u` to its speed (`u`:
//! the rectangle's speed along the contact normal) and the bounces come ever closer in time
//! (a Zeno sequence): the body would leave at an unbounded speed after unboundedly many
//! events, and the rectangle would overlap it in the end anyway.
//!
//! The rule, applied when a body meets a kinematic rectangle moving toward it (`u·n > 0`,
//! `n` the contact normal from the rectangle toward the body):
//!
//! 1. **Room.** The body is swept from its contact position along `n` over its own size (a
//!    ball's diameter, a box's extent along `n`) against immovable geometry (tiles, closed
//!    walls, static rectangles and shapes; for a ball, flippers held still). If nothing is
//!    met, there is room: the bounce is the ordinary one (`reflect_relative`), exact
//!    elastic physics. A body bouncing between a wall and a closing paddle across a wide
//!    gap speeds up as it should (`w·g` does not grow across a round trip: the speed `w` is
//!    at most the first bounce's speed times the gap then over the body's size).
//! 2. **Carry.** If immovable geometry is closer than the body's size, the body is squeezed:
//!    it does not bounce off the rectangle but moves with it, its velocity along `n` taken
//!    from the rectangle (`v·n = u·n`), along the contact face kept. It leaves the
//!    rectangle at its speed, no faster: a squeezed body's speed is at most the larger of
//!    its speed before and `(1 + e)·|u|`.
//! 3. **Slide or crush.** When a carried body then meets immovable geometry, the velocity it
//!    leaves with is the nearest to its ordinary response that moves away from neither the
//!    obstacle (`v·n_w >= 0`) nor the rectangle (`(v − u)·n >= 0`): it slides out along
//!    the free direction (a ball pushed against a tile's corner rolls around it). When no
//!    such velocity exists (the obstacle's face is parallel to the rectangle's: a paddle
//!    closing on a wall) or it would be faster than the bound above, the body is crushed:
//!    it stops for the rest of the step, [`Event::Squeezed`](crate::Event::Squeezed) is
//!    reported, and the push-out at the step's end moves it to the nearest free position
//!    (out of the rectangle), from where it moves on with the rectangle's velocity along `n`.
//!
//! A carried body is remembered across steps (`World::carries`: the rectangle, its
//! velocity at the carry, the normal) until it is crushed, meets anything else than
//! immovable geometry, or is edited; a rectangle given a new velocity, removed, or no longer
//! touching the body when it meets something carries nobody any more. Squeezes against
//! bodies that move (a ball lying on a ball under a closing lid) escape the room test, which
//! sweeps against immovable geometry only: a body the rectangle meets again within the TC
//! window of its last collision is carried as if it had no room (rule 2), never pumped by an
//! ever faster sequence of returns; what still has no room ends at the event bound
//! ([`crate::StepConfig::max_events_per_body`]), and the push-out at the next step parts it
//! from the other balls (`crate::step::embed_balls`).
//!
//! A turning flipper squeezes a ball by the same three rules (`respond_turning_flipper`),
//! with `u` the flipper's surface velocity at the contact point (`ω·(point − pivot).perp()`)
//! when the ball is carried: pressed into immovable geometry it moves with the flipper's
//! surface, slides out along the wedge no faster than `max(|v|, (1 + e)·|u|)`, or is crushed
//! ([`Event::FlipperSqueezed`](crate::Event::FlipperSqueezed)) and pushed out of the
//! flipper's capsule, which the push-out sees, at the step's end. A flipper's carry lasts
//! until the step's end (its motion changes only between steps). A dynamic box is carried,
//! slid out and crushed by a flipper the same way (the push-out of boxes sees flippers and
//! static shapes, `crate::step::embed_box_round`).

use crate::model::event::Body;
use crate::model::ids::RectId;
use collide_core::{Aabb, Real, Vec2};

/// What carries a squeezed body.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Carrier {
    /// A kinematic rectangle: the carry is remembered across steps (and in snapshots).
    Rect(RectId),
    /// A turning flipper, by its dense index: the carry lasts until the step's end (a
    /// flipper's motion changes only between steps, when a button does).
    Flipper(u32),
}

impl Carrier {
    /// The rectangle's id bits, for the state hash and snapshots; a flipper's carry, which
    /// never outlasts a step, as `u64::MAX` (no rectangle's).
    pub(crate) fn rect_bits(self) -> u64 {
        match self {
            Carrier::Rect(r) => r.to_bits(),
            Carrier::Flipper(_) => u64::MAX,
        }
    }
}

/// A body carried by a kinematic rectangle or a turning flipper (rule 2 of the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Carry {
    /// The carried body.
    pub(crate) body: Body,
    /// The rectangle or flipper carrying it.
    pub(crate) by: Carrier,
    /// The carrier's velocity at the carry (units/s): a rectangle's carry holds while it is
    /// unchanged; a flipper's is its surface velocity at the contact point.
    pub(crate) vel: Vec2,
    /// The contact normal, from the carrier toward the body.
    pub(crate) normal: Vec2,
    /// The fastest it may leave a flipper's squeeze (units/s; rule 3's bound taken at the
    /// first contact of the carry, so that carries at one instant cannot raise it);
    /// infinite for a rectangle's, whose bound is taken at each contact.
    pub(crate) cap: Real,
    /// It was crushed (and reported) and not pushed out yet: met again, it is crushed
    /// again without a second report.
    pub(crate) crushed: bool,
}

/// A body probed for room by [`World::squeezed_against`].
#[derive(Clone, Copy, Debug)]
pub(crate) enum Probe {
    /// A ball: its centre at the contact (world units), radius and filter
    /// (`crate::model::filter`: geometry it does not collide with leaves it room).
    Ball {
        center: Vec2,
        radius: Real,
        filter: crate::model::filter::Filter,
    },
    /// A dynamic rectangle: its box at the contact and its dense index (skipped).
    Box { aabb: Aabb, rect: usize },
}

/// What a carried body does when it meets immovable geometry (rule 3).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Wedge {
    /// It leaves with this velocity, still carried.
    Slide(Vec2),
    /// It has nowhere to go: crushed, leaving with this velocity after the push-out.
    Crush(Vec2),
    /// Its carry no longer holds (the rectangle was removed or changed its velocity).
    Stale,
}

/// The least normal speed (units/s) relative to a flipper's surface of velocity `u` that a
/// body of velocity `v` the flipper carried parts with: `1e-9·(|v| + |u|)`, a billion times
/// the rounding of the gap rate the flipper's sweep computes from them and a billion times
/// below any speed that shows. Leaving at exactly the surface's normal speed, the body
/// touches the flipper with a rate that may round below zero (met again at once, at one
/// instant, over and over) or to zero (a contact the sweep cannot see end).
pub(crate) fn carry_parting(v: Vec2, u: Vec2) -> Real {
    1e-9 * (v.length() + u.length())
}

/// `v` with its component along the unit normal `n` replaced by `u`'s: moving with a
/// kinematic rectangle of velocity `u` across their contact face, sliding along it.
///
/// For a box (`per_axis`) the components of the axes `n` spans are taken from `u`, exactly.
/// For a ball the result is corrected so that `(result − u)·n >= 0` despite rounding: the
/// body never approaches the rectangle it moves with.
pub(crate) fn carry_velocity(v: Vec2, u: Vec2, n: Vec2, per_axis: bool) -> Vec2 {
    if per_axis {
        return Vec2::new(
            if n.x != 0.0 { u.x } else { v.x },
            if n.y != 0.0 { u.y } else { v.y },
        );
    }
    let mut out = v + n * (u - v).dot(n);
    for _ in 0..4 {
        let gap = (out - u).dot(n);
        if gap >= 0.0 {
            break;
        }
        out -= n * (2.0 * gap);
    }
    out
}

/// The velocity nearest to `v` (Euclidean) in `{w : w·a >= alpha, w·b >= beta}`, or `None`
/// when that set is empty (parallel opposite constraints that exclude each other).
///
/// Candidates: `v` itself, its projections onto either boundary line, and the lines'
/// intersection; the nearest that satisfies both constraints (to a rounding tolerance of
/// `1e-12` of the magnitudes involved) wins. This is the closest-point problem of a convex
/// polygon (here a wedge of two half-planes) solved by enumerating its vertices and edges
/// (C. Ericson, *Real-Time Collision Detection*, 2005, §5.1).
pub(crate) fn nearest_feasible(v: Vec2, a: Vec2, alpha: Real, b: Vec2, beta: Real) -> Option<Vec2> {
    let scale = v.length() + alpha.abs() + beta.abs();
    let tol = 1e-12 * scale;
    let ok = |w: Vec2| w.dot(a) >= alpha - tol && w.dot(b) >= beta - tol && w.is_finite();
    if ok(v) {
        return Some(v);
    }
    let mut best: Option<Vec2> = None;
    let mut consider = |w: Vec2| {
        if ok(w) && best.is_none_or(|bw: Vec2| (w - v).length_squared() < (bw - v).length_squared())
        {
            best = Some(w);
        }
    };
    consider(v + a * ((alpha - v.dot(a)) / a.length_squared()));
    consider(v + b * ((beta - v.dot(b)) / b.length_squared()));
    let det = a.x * b.y - a.y * b.x;
    if det != 0.0 {
        // Cramer's rule for w·a = alpha, w·b = beta.
        consider(Vec2::new(
            (alpha * b.y - beta * a.y) / det,
            (a.x * beta - b.x * alpha) / det,
        ));
    }
    best
}
