//! Sleeping balls and boxes: piles and stacks under gravity that come to rest stop costing
//! events.
//!
//! Under gravity, balls with restitution below 1 that settle into a pile never quite stop in
//! an event-driven step: a ball lying in the pocket between two others keeps making the tiny
//! bounces of its pressed contacts (one per [`REST_TIME`], `step/settle.rs`), and balls side
//! by side in a row that fills its room exactly meet millions of times a second, elastically
//! under the TC rule (`rest.rs`), until the step's event bound stops them. A game engine puts
//! such bodies to sleep (E. Catto, Box2D's islands and sleep; D. Baraff, "Fast contact force
//! computation for nonpenetrating rigid bodies", SIGGRAPH 1994, on resting contact); the
//! event-driven version here decides it at event times only, so it does not depend on the
//! step size.
//!
//! **Falling asleep.** A ball counts its contacts in a row that were slow and inelastic:
//! the pair's restitution below 1 (before the TC rule) and the ball's speed below
//! [`sleep_speed`] (`|g|·REST_TIME`, twice the speed of a `REST_TIME` flight) both before and
//! after the response. Its speed along a flight under constant acceleration is convex in
//! time, so slow at both ends of every flight means slow throughout. At
//! [`SLEEP_CONTACTS`] such contacts it falls asleep, if nothing that could move touches it
//! from below (within [`touch_tolerance`]): every ball it lies on is asleep, and no awake dynamic
//! rectangle, moving kinematic rectangle or turning flipper touches it. It then has no
//! velocity and no acceleration ([`crate::body::rest::RestOn::Asleep`]) until it wakes. A ball on a
//! slope cannot count that long: the tangential part of gravity makes it fast within a few
//! `REST_TIME` flights. With restitution 1 nothing ever sleeps (no energy is taken).
//!
//! **Asleep.** Other bodies meet a sleeping ball as immovable: they bounce off it with their
//! pair's restitution, and it keeps its place. A contact at an impact speed of at least
//! [`sleep_speed`] wakes it instead, and the contact is the ordinary one between two
//! movers.
//!
//! **Waking.** A ball wakes at rest where it is, under gravity again, and so does every
//! sleeping ball lying on it, and on those, in turn (what rests on a ball that moves must
//! move). It also wakes when a game sets its velocity or place; removing a ball wakes what
//! lay on it; an edit that can take a support away (a cell changed, a rectangle moved,
//! resized or removed, a flipper's button) wakes every sleeping ball. Setting a kinematic
//! rectangle's velocity wakes the balls that touch it.
//!
//! **Boxes** (`boxes.rs`). A dynamic rectangle counts its contacts by the same rule and falls
//! asleep if something holds it (a face, or a sleeping body or still rectangle it lies on)
//! and it lies on no awake ball or box; asleep it is met as immovable and wakes as a ball
//! does. What sleeps on a body that wakes wakes with it: on a ball the balls lying on it and
//! the boxes touching it, on a box the balls and boxes touching it. A ball may sleep
//! against a sleeping box. Edits wake sleeping boxes as they wake sleeping balls, and a box
//! given a velocity wakes what touches it.
//!
//! Sleep is part of the state: in [`crate::World::state_hash`] and in snapshots (as a rest).

mod boxes;
mod during;

use crate::body::rest::Rest;
use crate::body::rest::RestOn;
use crate::body::rest::REST_TIME;
use collide_core::{Aabb, Real, Vec2};

/// Consecutive slow inelastic contacts after which a ball falls asleep (see the module docs).
/// At one contact per [`REST_TIME`], the rate of a ball lying in a pocket, that is 32 ms.
pub const SLEEP_CONTACTS: u32 = 32;

/// The speed (units/s) below which a ball under gravity `g` (units/s²) counts as slow, and
/// the impact speed from which a contact wakes a sleeping ball: `|g|·REST_TIME`, twice the
/// speed of a flight of [`REST_TIME`] (0.98 units/s at 981 units/s²).
#[must_use]
pub fn sleep_speed(g: Vec2) -> Real {
    g.length() * REST_TIME
}

/// How far apart (units) two surfaces may be and still touch for sleeping and waking, under
/// gravity `g`: `|g|·REST_TIME²`, eight times the height of a [`REST_TIME`] flight (the
/// gaps left by the tiny bounces of a pile's pressed contacts), 1e-3 units at 981 units/s².
#[must_use]
pub fn touch_tolerance(g: Vec2) -> Real {
    g.length() * REST_TIME * REST_TIME
}

/// How far (units) a ball of radius `r` under gravity `g` may wander during the contacts that
/// count toward its sleep while the TC rule keeps them elastic (a rattle): a hundredth of its
/// radius, or [`touch_tolerance`] if that is more.
#[must_use]
pub fn confinement(r: Real, g: Vec2) -> Real {
    (0.01 * r).max(touch_tolerance(g))
}

/// A ball's count toward sleep: how many contacts in a row counted (see the module docs),
/// and where the ball was at the first of them.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Slow {
    /// Contacts in a row that counted.
    pub(crate) count: u32,
    /// The ball's centre at the first of them, world units.
    pub(crate) at: Vec2,
}

/// The rest of a sleeping ball: no velocity, no acceleration, no face, an unbounded range.
pub(crate) fn asleep_rest() -> Rest {
    Rest {
        normal: Vec2::new(0.0, -1.0),
        lo: Real::NEG_INFINITY,
        hi: Real::INFINITY,
        on: RestOn::Asleep,
    }
}

/// Whether a ball of radius `r` at `p` touches the box `aabb` within `tol` (its centre in the
/// box grown by `r + tol`: a conservative test near the box's corners).
#[inline(never)]
pub(crate) fn touches_box(p: Vec2, r: Real, aabb: &Aabb, tol: Real) -> bool {
    let b = aabb.grown(r + tol);
    p.x >= b.min.x && p.x <= b.max.x && p.y >= b.min.y && p.y <= b.max.y
}

/// Whether a ball at `upper` (radius `ru`) lies on one at `lower` (radius `rl`) under gravity
/// `g`: they touch within `tol` and the upper one's centre is above the lower one's, along
/// gravity, by more than a tenth of the sum of their radii (a ball beside another does not lie
/// on it).
#[inline(never)]
pub(crate) fn lies_on(upper: Vec2, ru: Real, lower: Vec2, rl: Real, g: Vec2, tol: Real) -> bool {
    let d = upper - lower;
    let reach = ru + rl + tol;
    let gl = g.length();
    gl > 0.0 && d.length_squared() <= reach * reach && d.dot(g) < -0.1 * (ru + rl) * gl
}

/// Whether two boxes touch within `tol` (they overlap once one is grown by `tol`).
#[inline(never)]
pub(crate) fn boxes_touch(a: &Aabb, b: &Aabb, tol: Real) -> bool {
    collide_core::aabb_overlaps_aabb(&a.grown(tol), b)
}

/// How far a body reaches from its centre along the unit direction `d`: a ball's radius
/// `r`, or for a box of half size `h` its support `|h.x·d.x| + |h.y·d.y|` (pass `h` and
/// `r = 0` for a box, `h = 0` for a ball).
pub(crate) fn reach_along(h: Vec2, r: Real, d: Vec2) -> Real {
    r + (h.x * d.x).abs() + (h.y * d.y).abs()
}

/// Whether a body centred at `upper` reaching `ru` along gravity `g` (units, see
/// [`reach_along`]) lies above one centred at `lower` reaching `rl`: its lowest point along
/// gravity is no lower than the other's highest, within `tol`. With [`boxes_touch`] or
/// [`touches_box`] it says that the upper body lies on the lower (a box and what it lies on,
/// a ball on a box); a body beside another on the same floor does not lie on it.
#[inline(never)]
pub(crate) fn above(upper: Vec2, ru: Real, lower: Vec2, rl: Real, g: Vec2, tol: Real) -> bool {
    let gl = g.length();
    if gl == 0.0 {
        return false;
    }
    let d = g / gl;
    upper.dot(d) + ru <= lower.dot(d) - rl + tol
}

/// A sleeping body (dense indices): a ball or a dynamic rectangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sleeper {
    Ball(usize),
    Rect(usize),
}

/// What sleepers may rest on (`World::sleepers_on`): a ball's centre, radius and index, or
/// a box and its rectangle's index (`usize::MAX`: none).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Support {
    Ball(Vec2, Real, usize),
    Box(Aabb, usize),
}
