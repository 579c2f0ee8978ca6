//! Pinball's rules on a world: flippers on two buttons, a plunger, three balls, a score per
//! bumper and slingshot hit. One [`Pinball`] per table played; [`crate::Game`] owns it.
//!
//! A scene is a table ([`is_pinball_scene`]) when it has flippers, a kinematic rectangle (the
//! plunger) and an open bottom (the drain). What the rules read from it:
//! - **Flippers**: a flipper whose rest direction points right (its tip right of its pivot) is
//!   a left flipper, turned by the left button; the others by the right button
//!   ([`collide_world::World::set_flipper_pressed`] before each step).
//! - **The plunger**: the first kinematic rectangle. While the plunger button is held it is
//!   pulled down at [`PULL_SPEED`] up to [`MAX_PULL`]; released, it shoots back up to where it
//!   rests at a speed proportional to the pull ([`MAX_SHOT_SPEED`] at full pull), carrying the
//!   ball resting on it, which flies on when it stops. Its velocity is set so that each
//!   step lands it exactly where the rules want (`(target − y) / dt`).
//! - **Scoring**: static shapes with restitution above 1 are kickers: a circle is a pop
//!   bumper ([`BUMPER_SCORE`] per hit), a segment a slingshot ([`SLINGSHOT_SCORE`]).
//! - **Balls**: the scene's own balls are removed; the rules serve one at a time on the
//!   plunger, [`BALLS`] per game. A ball lost through the open bottom (the drain) is one ball
//!   less; with none left the game is over, and a launch starts a new one.

use collide_core::{Real, Vec2};
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{BallDesc, Event, FlipperId, RectId, RectKind, Scene, World, WorldError};

use crate::breaker::{Outcome, Phase};
use crate::events::GameEvent;
use crate::input::{Input, StepInput};

/// Balls per game.
pub const BALLS: u32 = 3;

/// Points per hit of a pop bumper (a kicking circle).
pub const BUMPER_SCORE: u64 = 100;

/// Points per hit of a slingshot (a kicking segment).
pub const SLINGSHOT_SCORE: u64 = 10;

/// How fast the plunger is pulled down while its button is held, units/s.
pub const PULL_SPEED: Real = 90.0;

/// The longest pull, world units.
pub const MAX_PULL: Real = 36.0;

/// The plunger's speed back up after a full pull, units/s (proportional to the pull).
pub const MAX_SHOT_SPEED: Real = 1600.0;

/// The radius of the balls served when the scene has none, world units.
pub const BALL_RADIUS: Real = 8.0;

/// Gap between a served ball and the plunger's top, world units (it falls onto it).
const SERVE_GAP: Real = 0.5;

/// Whether a scene can be played by the pinball rules: it has flippers, a kinematic
/// rectangle (the plunger) and an open bottom (the drain).
#[must_use]
pub fn is_pinball_scene(scene: &Scene) -> bool {
    !scene.flippers.is_empty()
        && !scene.walls.bottom
        && scene.rects.iter().any(|r| r.kind == RectKind::Kinematic)
}

/// The rules' state for one table.
#[derive(Clone, Debug, PartialEq)]
pub struct Pinball {
    pub(crate) plunger: RectId,
    /// The plunger's top at rest, world units (y).
    pub(crate) rest_top: Real,
    pub(crate) left: Vec<FlipperId>,
    pub(crate) right: Vec<FlipperId>,
    pub(crate) ball_radius: Real,
    pub(crate) balls_left: u32,
    pub(crate) score: u64,
    pub(crate) phase: Phase,
    /// The plunger's speed back up once released, units/s (0: not shooting).
    pub(crate) shot_speed: Real,
}

impl Pinball {
    /// Builds the world of a table for play (its own balls removed: the rules serve theirs)
    /// and the rules around it, with a ball on the plunger.
    ///
    /// # Errors
    /// The world's errors for an invalid scene; [`WorldError::BadSetting`] (field `rects`)
    /// when the scene has no kinematic rectangle.
    pub(crate) fn new(scene: &Scene, score: u64) -> Result<(World, Pinball), WorldError> {
        let mut scene = scene.clone();
        let ball_radius = scene.balls.first().map_or(BALL_RADIUS, |b| b.radius);
        scene.spawn = None;
        scene.balls.clear();
        let mut world = World::from_scene(&scene)?;
        let (plunger, rest_top) = world
            .rects()
            .iter()
            .find(|r| r.kind == RectKind::Kinematic && !r.surface.sensor)
            .map(|r| (r.id, r.aabb.min.y))
            .ok_or_else(|| WorldError::BadSetting {
                field: "rects",
                problem: "a pinball table needs a kinematic rectangle (the plunger)".to_string(),
            })?;
        let (mut left, mut right) = (Vec::new(), Vec::new());
        for f in world.flippers() {
            if collide_core::sin_cos(f.desc.rest_angle).1 > 0.0 {
                left.push(f.id);
            } else {
                right.push(f.id);
            }
        }
        let mut p = Pinball {
            plunger,
            rest_top,
            left,
            right,
            ball_radius,
            balls_left: BALLS,
            score,
            phase: Phase::Serving,
            shot_speed: 0.0,
        };
        p.serve(&mut world)?;
        Ok((world, p))
    }

    /// Balls left, the one in play included.
    #[must_use]
    pub fn balls_left(&self) -> u32 {
        self.balls_left
    }

    /// Score: [`BUMPER_SCORE`] per bumper hit, [`SLINGSHOT_SCORE`] per slingshot hit.
    #[must_use]
    pub fn score(&self) -> u64 {
        self.score
    }

    /// The phase: serving (a ball lies on the plunger), playing, or over.
    #[must_use]
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// The plunger's id in the world.
    #[must_use]
    pub fn plunger(&self) -> RectId {
        self.plunger
    }

    /// How far the plunger is pulled down now, world units (0 at rest).
    #[must_use]
    pub fn pull(&self, world: &World) -> Real {
        world
            .rect(self.plunger)
            .map_or(0.0, |r| (r.aabb.min.y - self.rest_top).max(0.0))
    }

    /// The flippers turned by the left and the right button.
    #[must_use]
    pub fn flippers(&self) -> (&[FlipperId], &[FlipperId]) {
        (&self.left, &self.right)
    }

    /// Puts a new ball on the plunger.
    fn serve(&mut self, world: &mut World) -> Result<(), WorldError> {
        if let Some(r) = world.rect(self.plunger) {
            let pos = Vec2::new(
                r.aabb.center().x,
                r.aabb.min.y - self.ball_radius - SERVE_GAP,
            );
            world.add_ball(BallDesc {
                pos,
                vel: Vec2::ZERO,
                radius: self.ball_radius,
                ..BallDesc::default()
            })?;
        }
        self.phase = Phase::Serving;
        Ok(())
    }

    /// The plunger's velocity for this step: pulled down while `held`, shooting back up once
    /// released, still at rest; each step lands it exactly on its target.
    fn plunger_velocity(&mut self, world: &World, held: bool, dt: Real) -> Vec2 {
        let pull = self.pull(world);
        let target = if held && self.shot_speed == 0.0 {
            (pull + PULL_SPEED * dt).min(MAX_PULL)
        } else if pull > 0.0 {
            if self.shot_speed == 0.0 {
                self.shot_speed = MAX_SHOT_SPEED * pull / MAX_PULL;
            }
            (pull - self.shot_speed * dt).max(0.0)
        } else {
            self.shot_speed = 0.0;
            0.0
        };
        Vec2::new(0.0, (target - pull) / dt)
    }

    /// One fixed step under the rules: flippers from the buttons, the plunger, the world's
    /// step, then the score and the drain from its events. The world's events are left in
    /// `events`, what the rules did in `game_events` (both replaced).
    pub(crate) fn step(
        &mut self,
        world: &mut World,
        input: &StepInput,
        events: &mut Vec<Event>,
        game_events: &mut Vec<GameEvent>,
    ) -> Outcome {
        game_events.clear();
        if self.phase == Phase::GameOver && input.launch {
            return Outcome::Restart;
        }
        let dt = world.config().dt;
        for (ids, pressed) in [
            (&self.left, input.flip_left),
            (&self.right, input.flip_right),
        ] {
            for &id in ids {
                // Only fails for a stale id (a flipper removed from outside).
                let _ = world.set_flipper_pressed(id, pressed);
            }
        }
        let v = self.plunger_velocity(world, input.plunger, dt);
        // Set only when it changes: a new velocity restarts the plunger's path, and a ball
        // lying on a still plunger stays at rest. Only fails for a stale id or a non-finite
        // velocity (the pull is finite).
        if world.rect(self.plunger).is_some_and(|r| r.vel != v) {
            let _ = world.set_rect_velocity(self.plunger, v);
        }
        world.step();
        *events = world.take_events();
        for e in events.iter() {
            if let Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Shape(shape),
                ..
            }) = *e
            {
                let Some(s) = world.shape(shape) else {
                    continue;
                };
                if s.surface.restitution.is_some_and(|r| r > 1.0) {
                    // A round kicker is a bumper; a straight one a slingshot.
                    self.score += if s.kind.disc().is_some() {
                        BUMPER_SCORE
                    } else {
                        SLINGSHOT_SCORE
                    };
                }
            }
        }
        let lost = events.iter().any(|e| matches!(e, Event::BallLost { .. }));
        if lost && world.balls().is_empty() && self.phase != Phase::GameOver {
            self.balls_left = self.balls_left.saturating_sub(1);
            game_events.push(GameEvent::LifeLost {
                lives_left: self.balls_left,
            });
            if self.balls_left == 0 {
                self.phase = Phase::GameOver;
            } else {
                let _ = self.serve(world);
            }
        } else if self.phase != Phase::GameOver {
            self.phase = if self.on_plunger(world) {
                Phase::Serving
            } else {
                Phase::Playing
            };
        }
        Outcome::Continue
    }

    /// Whether a ball lies on the plunger (its centre over the plunger, at most a radius
    /// above its top).
    fn on_plunger(&self, world: &World) -> bool {
        let Some(r) = world.rect(self.plunger) else {
            return false;
        };
        world.balls().iter().any(|b| {
            b.pos.x >= r.aabb.min.x
                && b.pos.x <= r.aabb.max.x
                && b.pos.y <= r.aabb.min.y
                && r.aabb.min.y - b.pos.y <= 2.0 * b.radius
        })
    }

    /// A simple player, for demos and tests, a function of the state only: both buttons
    /// held while a ball comes down within reach of the flippers, the plunger pulled to
    /// nine tenths of its range and released while a ball waits on it, and a launch after
    /// the game ended.
    #[must_use]
    pub fn autopilot(&self, world: &World) -> Input {
        let mut input = Input {
            launch: self.phase == Phase::GameOver,
            ..Input::default()
        };
        if self.phase == Phase::Serving {
            input.plunger = self.shot_speed == 0.0 && self.pull(world) < 0.9 * MAX_PULL;
        }
        for f in world.flippers() {
            let reach = f.desc.length + f.desc.radius;
            let near = world.balls().iter().any(|b| {
                let d = b.pos - f.desc.pivot;
                b.vel.y > 0.0 && d.length() < reach + 3.0 * b.radius && d.y < f.desc.radius
            });
            if near {
                if self.left.contains(&f.id) {
                    input.flip_left = true;
                } else {
                    input.flip_right = true;
                }
            }
        }
        input
    }
}
