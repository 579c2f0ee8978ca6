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
    /// A sensor rectangle ([`crate::RectKind::Sensor`]).
    Rect(RectId),
    /// A sensor circle ([`crate::ShapeDesc::sensor`]).
    Shape(ShapeId),
    /// A sensor cell of the grid ([`crate::Cell::Sensor`]): each cell's square is a sensor of
    /// its own.
    Cell(CellCoord),
}

/// One thing that happened during a step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Event {
    /// A ball bounced off a tile (an exposed face or convex corner of a solid cell).
    BallTile {
        /// The ball.
        ball: BallId,
        /// The cell hit.
        cell: CellCoord,
        /// Contact point on the cell's boundary, world units.
        point: Vec2,
        /// Contact normal, from the cell toward the ball.
        normal: Vec2,
        /// Time of impact, seconds from the start of the step.
        toi: Real,
        /// Impact speed: the normal relative speed before the bounce, `−(v − u)·n` (units/s,
        /// `>= 0`; `u` the other body's velocity, zero for tiles and walls): what a game uses
        /// for sound and damage.
        speed: Real,
        /// Which face or corner of the cell.
        feature: Feature,
    },
    /// A ball bounced off a wall of the world rectangle.
    BallWall {
        /// The ball.
        ball: BallId,
        /// The wall.
        side: Side,
        /// Contact point, world units.
        point: Vec2,
        /// Contact normal (into the world).
        normal: Vec2,
        /// Time of impact, seconds from the start of the step.
        toi: Real,
        /// Impact speed: the normal relative speed before the bounce, `−(v − u)·n` (units/s,
        /// `>= 0`; `u` the other body's velocity, zero for tiles and walls): what a game uses
        /// for sound and damage.
        speed: Real,
    },
    /// Two balls collided.
    BallBall {
        /// First ball (the normal points toward it).
        a: BallId,
        /// Second ball.
        b: BallId,
        /// Contact point, world units.
        point: Vec2,
        /// Contact normal, from `b` toward `a`.
        normal: Vec2,
        /// Time of impact, seconds from the start of the step.
        toi: Real,
        /// Impact speed: the normal relative speed before the bounce, `−(v − u)·n` (units/s,
        /// `>= 0`; `u` the other body's velocity, zero for tiles and walls): what a game uses
        /// for sound and damage.
        speed: Real,
    },
    /// A ball bounced off a rectangle (static, kinematic or dynamic).
    BallRect {
        /// The ball.
        ball: BallId,
        /// The rectangle.
        rect: RectId,
        /// Contact point, world units.
        point: Vec2,
        /// Contact normal, from the rectangle toward the ball.
        normal: Vec2,
        /// Time of impact, seconds from the start of the step.
        toi: Real,
        /// Impact speed: the normal relative speed before the bounce, `−(v − u)·n` (units/s,
        /// `>= 0`; `u` the other body's velocity, zero for tiles and walls): what a game uses
        /// for sound and damage.
        speed: Real,
    },
    /// A ball bounced off a static segment, circle or polygon ([`crate::Shape`]).
    BallShape {
        /// The ball.
        ball: BallId,
        /// The shape.
        shape: ShapeId,
        /// Contact point on the shape, world units.
        point: Vec2,
        /// Contact normal, from the shape toward the ball.
        normal: Vec2,
        /// Time of impact, seconds from the start of the step.
        toi: Real,
        /// Impact speed: the normal speed before the bounce, `−v·n` (units/s, `>= 0`).
        speed: Real,
    },
    /// A dynamic rectangle bounced off a static segment, circle or polygon ([`crate::Shape`]).
    RectShape {
        /// The rectangle.
        rect: RectId,
        /// The shape.
        shape: ShapeId,
        /// Contact point on the shape, world units.
        point: Vec2,
        /// Contact normal, from the shape toward the rectangle.
        normal: Vec2,
        /// Time of impact, seconds from the start of the step.
        toi: Real,
        /// Impact speed: the normal speed before the bounce, `−v·n` (units/s, `>= 0`).
        speed: Real,
    },
    /// A ball bounced off a flipper ([`crate::Flipper`]).
    BallFlipper {
        /// The ball.
        ball: BallId,
        /// The flipper.
        flipper: FlipperId,
        /// Contact point on the flipper's surface, world units.
        point: Vec2,
        /// Contact normal, from the flipper toward the ball.
        normal: Vec2,
        /// Time of impact, seconds from the start of the step.
        toi: Real,
        /// Impact speed: the normal relative speed before the bounce, `−(v − u)·n` (units/s,
        /// `>= 0`; `u` the flipper's surface velocity at the contact point,
        /// [`crate::Flipper::surface_velocity_at`], zero while it is held at a limit): the
        /// ball leaves with `u` plus `v − u` reflected about the normal (its normal part
        /// scaled by the restitution).
        speed: Real,
    },
    /// A dynamic rectangle bounced off a flipper ([`crate::Flipper`]).
    RectFlipper {
        /// The rectangle.
        rect: RectId,
        /// The flipper.
        flipper: FlipperId,
        /// Contact point on the flipper's surface, world units.
        point: Vec2,
        /// Contact normal, from the flipper toward the rectangle.
        normal: Vec2,
        /// Time of impact, seconds from the start of the step.
        toi: Real,
        /// Impact speed: the normal relative speed before the bounce, `−(v − u)·n` (units/s,
        /// `>= 0`; `u` the flipper's surface velocity at the contact point, zero while it is
        /// held at a limit).
        speed: Real,
    },
    /// A dynamic rectangle bounced off a tile.
    RectTile {
        /// The rectangle.
        rect: RectId,
        /// The cell hit.
        cell: CellCoord,
        /// Contact point, world units.
        point: Vec2,
        /// Contact normal, from the cell toward the rectangle (diagonal for corner to corner).
        normal: Vec2,
        /// Time of impact, seconds from the start of the step.
        toi: Real,
        /// Impact speed: the normal relative speed before the bounce, `−(v − u)·n` (units/s,
        /// `>= 0`; `u` the other body's velocity, zero for tiles and walls): what a game uses
        /// for sound and damage.
        speed: Real,
    },
    /// A dynamic rectangle bounced off a wall of the world.
    RectWall {
        /// The rectangle.
        rect: RectId,
        /// The wall.
        side: Side,
        /// Contact normal (into the world).
        normal: Vec2,
        /// Time of impact, seconds from the start of the step.
        toi: Real,
        /// Impact speed: the normal relative speed before the bounce, `−(v − u)·n` (units/s,
        /// `>= 0`; `u` the other body's velocity, zero for tiles and walls): what a game uses
        /// for sound and damage.
        speed: Real,
    },
    /// A dynamic rectangle bounced off another rectangle.
    RectRect {
        /// The dynamic rectangle (the normal points toward it).
        a: RectId,
        /// The other rectangle (static, kinematic or dynamic).
        b: RectId,
        /// Contact point, world units.
        point: Vec2,
        /// Contact normal, from `b` toward `a`.
        normal: Vec2,
        /// Time of impact, seconds from the start of the step.
        toi: Real,
        /// Impact speed: the normal relative speed before the bounce, `−(v − u)·n` (units/s,
        /// `>= 0`; `u` the other body's velocity, zero for tiles and walls): what a game uses
        /// for sound and damage.
        speed: Real,
    },
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
    /// [`crate::StepConfig::event_pool`], or a bounce at the same instant past its own) and
    /// stopped moving for the rest of the step.
    IterationLimit {
        /// The body.
        body: Body,
        /// When it stopped, seconds from the start of the step.
        toi: Real,
    },
    /// A kinematic rectangle closed on a body that had no room left: the body was crushed
    /// between the rectangle and immovable geometry (a tile, a closed wall, a static
    /// rectangle). It stops for the rest of the step, overlapped by the rectangle; the next
    /// step pushes it out to the nearest free position ([`Event::Unembedded`]) and it moves on
    /// with the rectangle's velocity across their contact. See the squeeze rule in
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
    /// A character's move and slide ([`crate::Character`]) met a surface: it stopped there at
    /// distance 0 and slid on along it (no bounce). Reported once per contact that changed its
    /// motion; walking or standing on its ground reports nothing.
    CharacterHit {
        /// The character.
        character: CharacterId,
        /// What it met.
        target: Target,
        /// Contact point, world units.
        point: Vec2,
        /// Contact normal, from the obstacle toward the character.
        normal: Vec2,
        /// Time of impact, seconds from the start of the step.
        toi: Real,
        /// Impact speed: the character's speed into the surface before the contact, `−v·n`
        /// (units/s, `>= 0`).
        speed: Real,
    },
    /// A character's box began to overlap a sensor (a rectangle, a circle or a cell's
    /// square) with positive area: found at the end of the character's motion in the step.
    CharacterSensorEnter {
        /// The character.
        character: CharacterId,
        /// The sensor.
        sensor: SensorId,
        /// When it was found: the step's end, seconds from its start (`dt`).
        toi: Real,
    },
    /// A character's box stopped overlapping a sensor it had entered (or the sensor was
    /// removed).
    CharacterSensorExit {
        /// The character.
        character: CharacterId,
        /// The sensor.
        sensor: SensorId,
        /// When it was found: the step's end, seconds from its start (`dt`).
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
            Event::BallTile { .. } => "ball_tile",
            Event::BallWall { .. } => "ball_wall",
            Event::BallBall { .. } => "ball_ball",
            Event::BallRect { .. } => "ball_rect",
            Event::RectTile { .. } => "rect_tile",
            Event::RectWall { .. } => "rect_wall",
            Event::RectRect { .. } => "rect_rect",
            Event::BrickDestroyed { .. } => "brick_destroyed",
            Event::BallLost { .. } => "ball_lost",
            Event::RectLost { .. } => "rect_lost",
            Event::Unembedded { .. } => "unembedded",
            Event::IterationLimit { .. } => "iteration_limit",
            Event::Squeezed { .. } => "squeezed",
            Event::SensorEnter { .. } => "sensor_enter",
            Event::SensorExit { .. } => "sensor_exit",
            Event::BallShape { .. } => "ball_shape",
            Event::SensorRectEnter { .. } => "sensor_rect_enter",
            Event::SensorRectExit { .. } => "sensor_rect_exit",
            Event::BallFlipper { .. } => "ball_flipper",
            Event::RectShape { .. } => "rect_shape",
            Event::RectFlipper { .. } => "rect_flipper",
            Event::CharacterHit { .. } => "character_hit",
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
            Event::BallTile { ball, .. }
            | Event::BallWall { ball, .. }
            | Event::BallRect { ball, .. }
            | Event::BallLost { ball, .. }
            | Event::SensorEnter { ball, .. }
            | Event::SensorExit { ball, .. }
            | Event::BallShape { ball, .. }
            | Event::BallFlipper { ball, .. } => Body::Ball(ball),
            Event::BallBall { a, .. } => Body::Ball(a),
            Event::RectTile { rect, .. }
            | Event::RectWall { rect, .. }
            | Event::RectLost { rect, .. }
            | Event::SensorRectEnter { rect, .. }
            | Event::SensorRectExit { rect, .. }
            | Event::RectShape { rect, .. }
            | Event::RectFlipper { rect, .. } => Body::Rect(rect),
            Event::RectRect { a, .. } => Body::Rect(a),
            Event::CharacterHit { character, .. }
            | Event::CharacterSensorEnter { character, .. }
            | Event::CharacterSensorExit { character, .. } => Body::Character(character),
            Event::BrickDestroyed { by, .. } => by,
            Event::Unembedded { body, .. }
            | Event::IterationLimit { body, .. }
            | Event::Squeezed { body, .. } => body,
        }
    }

    /// Every kind name of [`Event::kind`] (new kinds are added at the end).
    pub const KINDS: [&'static str; 24] = [
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
    ];
}

#[cfg(test)]
mod size_tests {
    use super::Event;

    /// The step pushes an event per contact: a larger event is measurably slower (88 bytes
    /// cost about 4 % on the 10 000-ball arena at 3000 units/s).
    #[test]
    fn an_event_is_at_most_72_bytes() {
        assert!(
            std::mem::size_of::<Event>() <= 72,
            "{}",
            std::mem::size_of::<Event>()
        );
    }
}
