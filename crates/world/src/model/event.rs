//! Collision events: a plain list per step, read with [`crate::World::events`] after each
//! [`crate::World::step`]. Times are in seconds from the start of the step (`0..=dt`), points
//! in world units, normals unit vectors from the obstacle (or the second body) toward the first
//! body named in the event.

use crate::model::cell::CellCoord;
use crate::model::ids::{BallId, CharacterId, FlipperId, RectId, ShapeId};
pub use crate::model::target::Side;
use crate::model::target::Target;
use collide_core::{Feature, Real, Vec2};

/// A body of the world: a ball, a rectangle or a character.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Body {
    /// A ball.
    Ball(BallId),
    /// A rectangle.
    Rect(RectId),
    /// A character ([`crate::Character`]).
    Character(CharacterId),
}

/// A sensor: what [`Event::SensorEnter`] and [`Event::SensorExit`] name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SensorId {
    /// A sensor rectangle (its [`crate::Surface::sensor`] set).
    Rect(RectId),
    /// A sensor circle ([`crate::ShapeDesc::sensor_circle`]).
    Shape(ShapeId),
    /// A sensor cell of the grid ([`crate::Cell::Sensor`]): each cell's square is a sensor of
    /// its own.
    Cell(CellCoord),
}

/// A contact between a moving body and what it met: a ball or a dynamic rectangle bouncing off
/// a tile, a wall, a rectangle, another ball, a static shape or a flipper; a character's move
/// and slide stopping at a surface ([`Event::Contact`]).
///
/// Which two met is the pair ([`Contact::body`], [`Contact::other`]); [`Contact::kind`] names
/// it (`ball_tile`, `ball_wall`, `ball_ball`, `ball_rect`, `ball_shape`, `ball_flipper`,
/// `rect_tile`, `rect_wall`, `rect_rect`, `rect_shape`, `rect_flipper`, `character_hit`).
/// For two bodies that both move, `body` is named in id order: of two balls or two dynamic
/// rectangles the one of lower index, of a ball and a dynamic rectangle the ball, and the
/// normal points toward it. Which of the two the step handled the contact from (which found
/// it last) does not show, so a world restored from a snapshot reports the same events.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// The moving body: a ball, a dynamic rectangle or a character.
    pub body: Body,
    /// What it met: a cell ([`Target::Cell`]), a wall ([`Target::Wall`]), a ball, a
    /// rectangle (static, kinematic or dynamic), a static shape or a flipper.
    pub other: Target,
    /// Contact point at the time of impact, world units: on the obstacle's surface (for a
    /// wall, the middle of the face of a rectangle that touches it; for a ball, its point on
    /// the wall).
    pub point: Vec2,
    /// Unit contact normal, from `other` toward `body` (for a wall, into the world).
    pub normal: Vec2,
    /// Time of impact, seconds from the start of the step (`0..=dt`).
    pub toi: Real,
    /// Impact speed: the normal relative speed before the contact, `−(v − u)·n` (units/s,
    /// `>= 0`; `u` the other's velocity at the contact point: zero for tiles, walls and
    /// static shapes, a flipper's surface velocity there,
    /// [`crate::Flipper::surface_velocity_at`]): what a game uses for sound and damage. For a
    /// character, its speed into the surface before it stopped.
    pub speed: Real,
    /// Which face, corner or diagonal of a cell a ball met (`other` a [`Target::Cell`] and
    /// `body` a ball); `None` otherwise.
    pub feature: Option<Feature>,
}

impl Contact {
    /// The pair's name: `ball_`, `rect_` or `character_` for [`Contact::body`], then `tile`,
    /// `wall`, `ball`, `rect`, `shape` or `flipper` for [`Contact::other`] (`character_hit`
    /// for every contact of a character, `ball_character` and `rect_character` for a body
    /// meeting a character): the kind names of [`Event::kind`].
    #[must_use]
    pub const fn kind(&self) -> &'static str {
        match (self.body, self.other) {
            (Body::Character(_), _) => "character_hit",
            (Body::Ball(_), Target::Cell(_)) => "ball_tile",
            (Body::Ball(_), Target::Wall(_)) => "ball_wall",
            (Body::Ball(_), Target::Ball(_)) => "ball_ball",
            (Body::Ball(_), Target::Rect(_)) => "ball_rect",
            (Body::Ball(_), Target::Shape(_)) => "ball_shape",
            (Body::Ball(_), Target::Flipper(_)) => "ball_flipper",
            (Body::Ball(_), Target::Character(_)) => "ball_character",
            (Body::Rect(_), Target::Cell(_)) => "rect_tile",
            (Body::Rect(_), Target::Wall(_)) => "rect_wall",
            (Body::Rect(_), Target::Ball(_)) => "rect_ball",
            (Body::Rect(_), Target::Rect(_)) => "rect_rect",
            (Body::Rect(_), Target::Shape(_)) => "rect_shape",
            (Body::Rect(_), Target::Flipper(_)) => "rect_flipper",
            (Body::Rect(_), Target::Character(_)) => "rect_character",
        }
    }
}

/// One thing that happened during a step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    /// A contact: a moving body met something at its exact time of impact and bounced off
    /// it (a ball or a dynamic rectangle), or stopped there and slid on along it (a
    /// character). One event per contact, whatever the two are ([`Contact`]).
    Contact(Contact),
    /// A brick was destroyed by a hit (only when bricks are destructible).
    BrickDestroyed {
        /// The cell, now empty.
        cell: CellCoord,
        /// The brick's kind byte (the level character).
        kind: u8,
        /// The body that hit it.
        by: Body,
        /// Time of the hit, seconds from the start of the step.
        toi: Real,
    },
    /// A ball left the world through an open side and was removed.
    BallLost {
        /// The removed ball's id (now stale).
        ball: BallId,
        /// The side it left through.
        side: Side,
        /// When it was entirely outside, seconds from the start of the step.
        toi: Real,
    },
    /// A dynamic rectangle left the world through an open side and was removed.
    RectLost {
        /// The removed rectangle's id (now stale).
        rect: RectId,
        /// The side it left through.
        side: Side,
        /// When it was entirely outside, seconds from the start of the step.
        toi: Real,
    },
    /// A body started the step embedded (inside a tile, a rectangle or outside a closed wall)
    /// and was moved to the nearest free position before the step ran.
    Unembedded {
        /// The body.
        body: Body,
        /// Where it was (centre of a ball, `min` of a rectangle), world units.
        from: Vec2,
        /// Where it was moved to, world units.
        to: Vec2,
    },
    /// A body reached the step's bound on collision events (its own
    /// [`crate::StepConfig::max_events_per_body`] and the step's shared
    /// [`crate::StepConfig::event_pool`], or more than eight bounces at the instant of the
    /// one before past its own) and
    /// stopped moving for the rest of the step. Anything that moved into it meanwhile (a
    /// flipper, a kinematic rectangle) is undone at the step's end: it is pushed out to the
    /// nearest free position ([`Event::Unembedded`]).
    IterationLimit {
        /// The body.
        body: Body,
        /// When it stopped, seconds from the start of the step.
        toi: Real,
    },
    /// A kinematic rectangle closed on a body that had no room left: the body was crushed
    /// between the rectangle and immovable geometry (a tile, a closed wall, a static
    /// rectangle). It stops for the rest of the step, overlapped by the rectangle; at the
    /// step's end it is pushed out to the nearest free position ([`Event::Unembedded`]) and
    /// it moves on with the rectangle's velocity across their contact. See the squeeze rule in
    /// `docs/algorithms.md`.
    Squeezed {
        /// The crushed ball or dynamic rectangle.
        body: Body,
        /// The kinematic rectangle that crushed it.
        rect: RectId,
        /// The contact normal, from the rectangle toward the body.
        normal: Vec2,
        /// When it was crushed, seconds from the start of the step.
        toi: Real,
    },
    /// A turning flipper closed on a ball or a dynamic box that had no room left: it was crushed
    /// between the flipper and immovable geometry (a tile, a closed wall, a static shape or
    /// rectangle, a held flipper) with no way out along the wedge slower than
    /// `max(|v|, (1 + e)·|u|)` (`u`: the flipper's surface velocity at the contact, units/s).
    /// It stops for the rest of the step; at the step's end the push-out moves it to the
    /// nearest free position, out of the flipper's capsule ([`Event::Unembedded`]). See
    /// "Flippers in the step" in `docs/algorithms.md`.
    FlipperSqueezed {
        /// The crushed ball or box.
        body: Body,
        /// The flipper that crushed it.
        flipper: FlipperId,
        /// The contact normal, from the flipper toward the ball.
        normal: Vec2,
        /// When it was crushed, seconds from the start of the step.
        toi: Real,
    },
    /// A ball began to overlap a sensor (a rectangle, a circle or a cell's square,
    /// [`SensorId`]): its circle touched the sensor moving in. The ball's motion is unchanged.
    SensorEnter {
        /// The ball.
        ball: BallId,
        /// The sensor.
        sensor: SensorId,
        /// Where the circle first touched the sensor's boundary, world units.
        point: Vec2,
        /// When, seconds from the start of the step.
        toi: Real,
    },
    /// A ball stopped overlapping a sensor it had entered: its circle left the sensor's box,
    /// disc or square at the exact exit time of `collide_core::exit`.
    SensorExit {
        /// The ball.
        ball: BallId,
        /// The sensor.
        sensor: SensorId,
        /// When, seconds from the start of the step.
        toi: Real,
    },
    /// A rectangle (static or kinematic) began to overlap a sensor rectangle with positive
    /// area, or was there when the sensor or it was placed by an edit (then `toi` 0). Neither
    /// rectangle's motion changes. See `crates/world/src/rect_sensor.rs`.
    SensorRectEnter {
        /// The sensor.
        sensor: RectId,
        /// The rectangle that entered it.
        rect: RectId,
        /// When, seconds from the start of the step.
        toi: Real,
    },
    /// A rectangle stopped overlapping a sensor rectangle it had entered, or one of the two
    /// was removed or moved away by an edit (then reported at the next step's start, `toi` 0).
    SensorRectExit {
        /// The sensor.
        sensor: RectId,
        /// The rectangle that left it.
        rect: RectId,
        /// When, seconds from the start of the step.
        toi: Real,
    },
    /// A character's box began to overlap a sensor (a rectangle, a circle or a cell's
    /// square) with positive area, at the exact time on its motion in the step.
    CharacterSensorEnter {
        /// The character.
        character: CharacterId,
        /// The sensor.
        sensor: SensorId,
        /// When, seconds from the start of the step.
        toi: Real,
    },
    /// A character's box stopped overlapping a sensor it had entered, at the exact time on
    /// its motion (or the sensor was removed: at the step's end).
    CharacterSensorExit {
        /// The character.
        character: CharacterId,
        /// The sensor.
        sensor: SensorId,
        /// When, seconds from the start of the step.
        toi: Real,
    },
}

impl Event {
    /// A short stable name of the event's kind (`ball_tile`, `ball_wall`, `ball_ball`,
    /// `ball_rect`, `rect_tile`, `rect_wall`, `rect_rect`, `brick_destroyed`, `ball_lost`,
    /// `rect_lost`, `unembedded`, `iteration_limit`, `squeezed`, `sensor_enter`,
    /// `sensor_exit`, `ball_shape`, `sensor_rect_enter`, `sensor_rect_exit`, `ball_flipper`,
    /// `rect_shape`, `rect_flipper`, `character_hit`, `character_sensor_enter`,
    /// `character_sensor_exit`), used for counts and traces.
    #[must_use]
    pub const fn kind(&self) -> &'static str {
        match self {
            Event::Contact(c) => c.kind(),
            Event::BrickDestroyed { .. } => "brick_destroyed",
            Event::BallLost { .. } => "ball_lost",
            Event::RectLost { .. } => "rect_lost",
            Event::Unembedded { .. } => "unembedded",
            Event::IterationLimit { .. } => "iteration_limit",
            Event::Squeezed { .. } => "squeezed",
            Event::FlipperSqueezed { .. } => "flipper_squeezed",
            Event::SensorEnter { .. } => "sensor_enter",
            Event::SensorExit { .. } => "sensor_exit",
            Event::SensorRectEnter { .. } => "sensor_rect_enter",
            Event::SensorRectExit { .. } => "sensor_rect_exit",
            Event::CharacterSensorEnter { .. } => "character_sensor_enter",
            Event::CharacterSensorExit { .. } => "character_sensor_exit",
        }
    }

    /// The body an event is about (the first one named; for a destroyed brick, the body that
    /// hit it). The step reports the events of one instant in the order of these bodies'
    /// ids.
    #[must_use]
    pub const fn body(&self) -> Body {
        match *self {
            Event::Contact(c) => c.body,
            Event::BallLost { ball, .. }
            | Event::SensorEnter { ball, .. }
            | Event::SensorExit { ball, .. } => Body::Ball(ball),
            Event::RectLost { rect, .. }
            | Event::SensorRectEnter { rect, .. }
            | Event::SensorRectExit { rect, .. } => Body::Rect(rect),
            Event::CharacterSensorEnter { character, .. }
            | Event::CharacterSensorExit { character, .. } => Body::Character(character),
            Event::BrickDestroyed { by, .. } => by,
            Event::Unembedded { body, .. }
            | Event::IterationLimit { body, .. }
            | Event::Squeezed { body, .. }
            | Event::FlipperSqueezed { body, .. } => body,
        }
    }

    /// Every kind name of [`Event::kind`] (new kinds are added at the end).
    pub const KINDS: [&'static str; 28] = [
        "ball_tile",
        "ball_wall",
        "ball_ball",
        "ball_rect",
        "rect_tile",
        "rect_wall",
        "rect_rect",
        "brick_destroyed",
        "ball_lost",
        "rect_lost",
        "unembedded",
        "iteration_limit",
        "squeezed",
        "sensor_enter",
        "sensor_exit",
        "ball_shape",
        "sensor_rect_enter",
        "sensor_rect_exit",
        "ball_flipper",
        "rect_shape",
        "rect_flipper",
        "character_hit",
        "character_sensor_enter",
        "character_sensor_exit",
        "ball_character",
        "rect_ball",
        "rect_character",
        "flipper_squeezed",
    ];
}

#[cfg(test)]
mod size_tests {
    use super::Event;

    /// The step pushes an event per contact: a larger event is measurably slower (88 bytes
    /// cost about 4 % on the 10 000-ball arena at 3000 units/s; 80 bytes, the size of a
    /// [`super::Contact`], measured the same as 72).
    #[test]
    fn an_event_is_at_most_80_bytes() {
        assert!(
            std::mem::size_of::<Event>() <= 80,
            "{}",
            std::mem::size_of::<Event>()
        );
    }
}
