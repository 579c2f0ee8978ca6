//! The description of a character ([`CharacterDesc`]): its box, its velocity and the rules of
//! its move and slide (walkable slope, snap to ground, step height, gravity, how it meets
//! balls and boxes). The motion itself is `crate::body::character`.

use crate::model::error::WorldError;
use crate::model::limits::Bound;
use crate::model::surface::Surface;
use collide_core::{Real, Vec2};

/// A character to add ([`crate::World::add_character`]): an axis-aligned box the game moves
/// by its velocity (set between steps, [`crate::World::set_character_velocity`]) or by a
/// displacement ([`crate::World::move_and_slide`]); it slides along what it meets at its exact
/// time of impact, with no skin gap.
///
/// Units: world units, units/s, radians; y grows downward ("up" is `-y`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CharacterDesc {
    /// The box's centre, world units.
    pub pos: Vec2,
    /// Half the box's width and height, world units, each `> 0`.
    pub half_extents: Vec2,
    /// Its velocity, units/s.
    pub vel: Vec2,
    /// The steepest surface it stands on and walks up, radians from level, in `[0, π/2)`.
    /// A contact whose normal is within this angle of straight up (`-y`) is ground; steeper
    /// faces are walls: the character slides down them and does not climb them. Default
    /// 50° (0.8727 rad), so the grid's 45° slope cells are walkable.
    pub max_slope: Real,
    /// How far down, world units `>= 0`, it looks for ground at the end of a step after it
    /// was on ground and did not move up: within this distance it is placed on the ground
    /// (walking down a slope or off a small step without flying off). Default 0: no snap.
    pub snap_distance: Real,
    /// The highest ledge, world units `>= 0`, it steps up onto while walking on ground.
    /// Default 0: no step-up.
    pub step_height: Real,
    /// Its multiple of the world's gravity, as [`crate::BallDesc::gravity_scale`]. Default 1.
    pub gravity_scale: Real,
    /// How it meets balls and dynamic rectangles ([`CharacterPush`]). Default
    /// [`CharacterPush::Kinematic`]: they bounce off it and it pushes them, unslowed.
    pub push: CharacterPush,
    /// Its layers and mask ([`crate::Filter`]): what it collides with, other characters
    /// included (two characters whose filters collide meet as boxes). A character never
    /// bounces (its restitution is unused) and is never a sensor. Default
    /// [`Surface::DEFAULT`].
    pub surface: Surface,
}

/// How a character meets balls and dynamic rectangles (docs/algorithms.md, "Characters meet
/// balls and boxes"). Within a step, balls and boxes move first: they meet each character as
/// an immovable box where it stands at the step's start (their exact time of impact, their
/// own restitution). The characters then move and slide with the balls and boxes where the
/// step left them as obstacles: a character stops against one at its exact time of impact
/// and slides along it, and pushes it by an impulse along the contact normal `n`, with the
/// pair's restitution `e` (the body's own, or the world's) and `w` the speed at which the
/// character closes on it along `n`.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum CharacterPush {
    /// They pass through each other: the character meets only the level.
    None,
    /// The character has infinite mass: the body's velocity along `n` gains `(1 + e)·w`
    /// (a ball at rest hit at speed `v` leaves at `2v` when elastic); the character is not
    /// slowed beyond stopping at the contact. A body with immovable geometry closer than its
    /// own size behind it (squeezed: `crate::step::squeeze`'s room test) gains only `w`, so
    /// that it leaves with the character, never faster.
    #[default]
    Kinematic,
    /// The character has this mass (mass units, as a body's `density × area`; finite,
    /// `> 0`): the impulse `j = (1 + e)·w / (1/m + 1/M)` of two bodies (`m` the body's mass)
    /// changes the body's velocity by `j/m` along `n` and the character's by `−j/M` from
    /// the next step on. A ball or box that runs into the character during the event loop
    /// bounces off it as off a wall whatever its mass (the character does not move then).
    Mass(Real),
}

impl Default for CharacterDesc {
    fn default() -> Self {
        CharacterDesc {
            pos: Vec2::ZERO,
            half_extents: Vec2::new(8.0, 12.0),
            vel: Vec2::ZERO,
            max_slope: 50.0_f64.to_radians(),
            snap_distance: 0.0,
            step_height: 0.0,
            gravity_scale: 1.0,
            push: CharacterPush::Kinematic,
            surface: Surface::DEFAULT,
        }
    }
}

impl CharacterDesc {
    /// Checks every field against its bound.
    ///
    /// # Errors
    /// [`WorldError::BadCharacter`] naming the first field out of bounds: `pos` or `vel`
    /// outside [`Bound::Coord`], a half extent outside [`Bound::Positive`], `max_slope` not in
    /// `[0, π/2)`, `snap_distance` or `step_height` outside [`Bound::NonNeg`], `gravity_scale`
    /// outside [`Bound::GravityScale`].
    pub fn validate(&self) -> Result<(), WorldError> {
        let bad =
            |field: &'static str, e: crate::model::limits::OutOfBounds| WorldError::BadCharacter {
                field,
                problem: e.to_string(),
            };
        Bound::Coord
            .check_vec2(self.pos)
            .map_err(|e| bad("pos", e))?;
        Bound::Positive
            .check(self.half_extents.x)
            .and_then(|_| Bound::Positive.check(self.half_extents.y))
            .map_err(|e| bad("half_extents", e))?;
        Bound::Coord
            .check_vec2(self.vel)
            .map_err(|e| bad("vel", e))?;
        if !(self.max_slope >= 0.0 && self.max_slope < std::f64::consts::FRAC_PI_2) {
            return Err(WorldError::BadCharacter {
                field: "max_slope",
                problem: format!(
                    "expected an angle >= 0 and below π/2 radians, found {:?}",
                    self.max_slope
                ),
            });
        }
        Bound::NonNeg
            .check(self.snap_distance)
            .map_err(|e| bad("snap_distance", e))?;
        Bound::NonNeg
            .check(self.step_height)
            .map_err(|e| bad("step_height", e))?;
        Bound::GravityScale
            .check(self.gravity_scale)
            .map_err(|e| bad("gravity_scale", e))?;
        if let CharacterPush::Mass(m) = self.push {
            Bound::Positive.check(m).map_err(|e| bad("push", e))?;
        }
        if self.surface.one_way {
            return Err(WorldError::BadCharacter {
                field: "surface.one_way",
                problem: "a character cannot be a one-way platform".to_string(),
            });
        }
        if self.surface.sensor {
            return Err(WorldError::BadCharacter {
                field: "surface.sensor",
                problem: "a character cannot be a sensor".to_string(),
            });
        }
        if let Some(r) = self.surface.restitution {
            return Err(WorldError::BadCharacter {
                field: "surface.restitution",
                problem: format!(
                    "a character never bounces (it slides): expected None, found {r:?}"
                ),
            });
        }
        Ok(())
    }
}
