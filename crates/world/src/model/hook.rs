//! Contact hooks: a game's own rule, applied inside the step at each contact's exact time of
//! impact.
//!
//! [`World::step_with`] calls a [`ContactHook`] at every contact the step resolves (ball or
//! dynamic rectangle against a tile, a closed wall, a rectangle, a static shape, a flipper or
//! another mover), before the
//! bounce, with the [`Event`] the contact will report and the two bodies' states at that
//! instant ([`ContactInfo`]). It answers with a [`ContactResponse`]:
//! - [`ContactResponse::Reflect`]: the step's own response (the bounce with the pair's
//!   restitution, `docs/algorithms.md`);
//! - [`ContactResponse::Velocity`]: the first body of the event leaves the contact with this
//!   velocity instead (paddle "english" decided at the exact contact, a bumper that shoots a
//!   ball in a fixed direction); a second body that moves keeps the response the contact gives
//!   it. The event is reported as usual.
//! - [`ContactResponse::Ignore`]: the bodies pass through each other (a one-way platform, a
//!   ghost) until their shapes part at the exact exit time (`collide_core::exit`), with no
//!   event; the hook is asked again at their next contact.
//!
//! The hook is called in the step's canonical order (time of impact, then the bodies' stable
//! ids), once per contact, including contacts of balls that a stopping rule later freezes.
//!
//! # Contract
//! The hook must be a **pure function** of its argument (it may read data captured before the
//! step, such as a paddle's current english factor, but no state that its own calls change).
//! That is what keeps the step's promises: the same bits for any thread count
//! ([`World::set_threads`]), in spatial domains (which may evaluate a contact of a ball near a
//! domain's border twice, or evaluate a step again serially) and after a snapshot restore.
//! `Send + Sync` is required because domains step on several threads.
//!
//! # Errors
//! A velocity with a component that is not finite or above [`crate::model::limits::MAX_COORD`]
//! units/s in magnitude is an error: [`World::step_with`] returns [`HookError`] naming the contact, and
//! the world is left exactly as it was before the step (its state is kept aside at the step's
//! start and brought back: [`World::restore`]).

use crate::model::cell::Cell;
use crate::model::cell::CellCoord;
use crate::model::event::{Body, Event, Side};
use crate::model::ids::{FlipperId, ShapeId};
use crate::model::limits::{Bound, OutOfBounds};
use crate::model::shape_desc::ShapeKind;
use collide_core::{Aabb, Capsule, Circle, Real, Vec2};
use thiserror::Error;

/// A body's shape at the contact's instant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BodyShape {
    /// A ball: its centre (world units, y down) and radius.
    Circle(Circle),
    /// A rectangle: its box at the contact's instant.
    Box(Aabb),
}

/// A moving or moveable body at a contact's instant, before the response.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BodyState {
    /// Which body.
    pub body: Body,
    /// Its shape and place.
    pub shape: BodyShape,
    /// Its velocity just before the contact, units/s (for a kinematic or static rectangle,
    /// its own velocity).
    pub vel: Vec2,
    /// Its mass (density·area; infinite for static and kinematic rectangles).
    pub mass: Real,
}

/// What the first body of a contact meets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Obstacle {
    /// A solid cell of the grid and its kind before the contact ([`Cell::Wall`] or
    /// [`Cell::Brick`]; a destructible brick is destroyed after a [`ContactResponse::Reflect`]
    /// or [`ContactResponse::Velocity`]).
    Tile {
        /// The cell.
        cell: CellCoord,
        /// Its kind.
        kind: Cell,
    },
    /// A closed wall of the world rectangle.
    Wall(Side),
    /// A static segment, circle or polygon ([`crate::Shape`]).
    Shape {
        /// Its id.
        shape: ShapeId,
        /// What it is.
        kind: ShapeKind,
    },
    /// A flipper ([`crate::Flipper`]) at the contact's instant.
    Flipper {
        /// Its id.
        flipper: FlipperId,
        /// Its capsule at the contact's instant.
        capsule: Capsule,
        /// Its surface velocity at the contact point, units/s.
        surface_vel: Vec2,
    },
    /// Another body (a rectangle of any kind, or a second ball).
    Body(BodyState),
}

/// What a [`ContactHook`] is given: the contact as it will be reported and the bodies' states.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactInfo {
    /// The event the contact reports (time of impact from the step's start, point, normal
    /// from the obstacle toward the first body, impact speed); with
    /// [`ContactResponse::Velocity`] the same event is reported.
    pub event: Event,
    /// The contact's absolute time, seconds since the world was built.
    pub time: Real,
    /// The body named first in the event, at the contact: the ball of a ball–tile, ball–wall
    /// or ball–rectangle contact; of two balls or two dynamic rectangles the one of lower
    /// index ([`Contact::body`](crate::Contact::body)), whichever of the two the step met
    /// the contact from.
    pub first: BodyState,
    /// What it meets.
    pub other: Obstacle,
}

/// A [`ContactHook`]'s answer (docs/algorithms.md, section 7f).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum ContactResponse {
    /// The step's own bounce.
    #[default]
    Reflect,
    /// The first body leaves with this velocity (units/s); the contact is reported as usual.
    Velocity(Vec2),
    /// The contact does not happen: the bodies pass through each other, unchanged, until
    /// their shapes part (`collide_core::exit`), and no event is reported; met again after
    /// that, they touch again and the hook is asked again. A one-way platform: ignore the
    /// contacts from below. For a ball against a static or kinematic rectangle or another ball;
    /// against a tile, a wall, a static shape, a flipper or a dynamic rectangle it is an
    /// error ([`HookError::CannotIgnore`]).
    Ignore,
}

/// A game's rule called at each contact (docs/algorithms.md, section 7f, gives the contract). Any
/// `Fn(&ContactInfo) -> ContactResponse + Send + Sync` closure is one.
pub trait ContactHook: Send + Sync {
    /// The response to one contact.
    fn on_contact(&self, contact: &ContactInfo) -> ContactResponse;
}

impl<F> ContactHook for F
where
    F: Fn(&ContactInfo) -> ContactResponse + Send + Sync,
{
    fn on_contact(&self, contact: &ContactInfo) -> ContactResponse {
        self(contact)
    }
}

/// A hook's answer that the step cannot apply.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum HookError {
    /// [`ContactResponse::Velocity`] with a component outside [`Bound::Coord`] (not finite,
    /// or above [`crate::model::limits::MAX_COORD`] units/s in magnitude), as for a ball's `vel`.
    #[error("contact hook returned the velocity ({}, {}) at {event:?}: {problem}", velocity.x, velocity.y)]
    BadVelocity {
        /// The contact.
        event: Event,
        /// What the hook returned.
        velocity: Vec2,
        /// The component out of bounds (`expected ..., found ...`).
        problem: OutOfBounds,
    },
    /// [`ContactResponse::Ignore`] for a contact that cannot be passed through: a tile, a
    /// wall of the world, a static shape, a flipper or a dynamic rectangle.
    #[error("contact hook ignored {event:?}: only a ball's contacts with static or kinematic rectangles and other balls can be passed through")]
    CannotIgnore {
        /// The contact.
        event: Event,
    },
}

/// Checks a hook's velocity.
pub(crate) fn check_velocity(event: &Event, v: Vec2) -> Result<Vec2, HookError> {
    Bound::Coord
        .check_vec2(v)
        .map_err(|problem| HookError::BadVelocity {
            event: *event,
            velocity: v,
            problem,
        })
}

/// The hook of the step under way, as the step's event loop passes it down.
pub(crate) type Hook<'a> = Option<&'a dyn ContactHook>;
