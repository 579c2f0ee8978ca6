//! Overlaps the step lets happen: a ball inside a sensor (a rectangle, a circle, a cell's
//! square: [`crate::SensorId`]), or passing through a body whose contact a hook ignored
//! ([`crate::model::hook::ContactResponse::Ignore`]).
//!
//! Each is a [`Pass`]: the ball, what it overlaps, and since when. While it lasts, the ball's
//! predictions leave that body out (its contact, found at once again, would otherwise stop the
//! ball at every instant), and the ball predicts the pass's end: the exact time its circle
//! stops overlapping the other shape ([`collide_core::exit`]: the first outward crossing of
//! the Minkowski sum's boundary after the pass began, from the same anchors as every other
//! prediction, so the same bits whenever it is computed). At that time the pass ends (a
//! sensor reports [`crate::Event::SensorExit`]) and the ball predicts again: a body it comes
//! back to later is met as usual. A pass with another ball is kept once per ball (both
//! predict its end); when either changes course, its own new prediction has the right end,
//! and the other's stale one, checked when it fires, only makes it predict again.
//!
//! Passes are part of the state (snapshots keep them, the state hash covers them), sorted by
//! ball id. They end when the ball or the other body is removed (a ball lost through an open
//! side reports [`crate::Event::BallLost`], no exit).

use crate::model::cell::CellCoord;
use crate::model::event::SensorId;
use crate::model::ids::{BallId, RectId, ShapeId};
use collide_core::Real;

/// What a ball overlaps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum PassWith {
    /// A sensor, or a static or kinematic rectangle whose contact was ignored.
    Rect(RectId),
    /// Another ball whose contact was ignored.
    Ball(BallId),
    /// A sensor circle (`crate::body::shape`).
    Shape(ShapeId),
    /// A sensor cell's square (`crate::Cell::Sensor`).
    Cell(CellCoord),
}

impl PassWith {
    /// The sensor a sensor's pass is with (`None` for a ball).
    pub(crate) fn sensor_id(self) -> Option<SensorId> {
        match self {
            PassWith::Rect(r) => Some(SensorId::Rect(r)),
            PassWith::Shape(s) => Some(SensorId::Shape(s)),
            PassWith::Cell(c) => Some(SensorId::Cell(c)),
            PassWith::Ball(_) => None,
        }
    }
}

/// A ball overlapping a body on purpose (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Pass {
    pub(crate) ball: BallId,
    pub(crate) with: PassWith,
    /// The absolute time the overlap began (the contact's time of impact).
    pub(crate) since: Real,
    /// A sensor's overlap (reports its exit).
    pub(crate) sensor: bool,
    /// `None` while the shapes overlap; once they part, the exit's absolute time, kept until
    /// the ball's path changes: its path from its start still crosses the body before that
    /// time, so its contacts with the body are searched from the exit on (`World::
    /// contact_after_pass`), and two balls that have parted are not searched at all (their
    /// relative path is a straight line, which cannot come back into the other's disc).
    pub(crate) ended: Option<Real>,
}

impl Pass {
    pub(crate) fn key(&self) -> (u32, u32, PassWith) {
        (self.ball.index(), self.ball.generation(), self.with)
    }
}
