//! A ball's own gravity scale (`crate::body::ball_gravity`): setting, reading and hashing it.

use crate::body::ball_gravity::scaled;
use crate::model::error::WorldError;
use crate::model::event::Body;
use crate::model::ids::BallId;
use crate::model::limits::Bound;
use crate::world::World;
use collide_core::{Real, Vec2};

impl World {
    /// Sets a ball's multiple of the world's gravity (see [`crate::BallDesc::gravity_scale`]),
    /// from the world's current time on: the ball keeps its position and velocity and follows
    /// its new parabola from there.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale id; [`WorldError::BadBall`] naming
    /// `gravity_scale` for a scale that is not finite or whose magnitude exceeds
    /// [`crate::limits::MAX_GRAVITY_SCALE`] (the world is unchanged).
    ///
    /// # Example
    /// ```
    /// use collide_world::{BallDesc, StepConfig, Vec2, Walls, World};
    /// let config = StepConfig { gravity: Vec2::new(0.0, 100.0), ..StepConfig::default() };
    /// let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, config).unwrap();
    /// let id = w.add_ball(BallDesc { pos: Vec2::new(50.0, 50.0), ..BallDesc::default() }).unwrap();
    /// // A bullet: no longer accelerated, it stays where it is (it has no velocity).
    /// w.set_ball_gravity_scale(id, 0.0).unwrap();
    /// w.step();
    /// assert_eq!(w.ball(id).unwrap().pos, Vec2::new(50.0, 50.0));
    /// assert!(w.set_ball_gravity_scale(id, f64::NAN).is_err());
    /// ```
    pub fn set_ball_gravity_scale(&mut self, id: BallId, scale: Real) -> Result<(), WorldError> {
        let i = self
            .ball_slots
            .get(id)
            .ok_or(WorldError::NoSuchBody(Body::Ball(id)))?;
        Bound::GravityScale
            .check(scale)
            .map_err(|e| WorldError::BadBall {
                field: "gravity_scale",
                problem: e.to_string(),
            })?;
        if scale == self.gravity_scale_at(i) {
            return Ok(());
        }
        self.edited();
        // What lies on it wakes (it may now rise or fall away from under them).
        self.wake_between_steps(i);
        // The ball's path starts again here, free of any rest (its face may no longer hold it).
        self.free_ball_now(i);
        if self.ball_gravity.is_empty() {
            self.ball_gravity.resize(self.balls.len(), 1.0);
        }
        self.ball_gravity[i] = scale;
        if self.ball_gravity.iter().all(|&s| s == 1.0) {
            self.ball_gravity.clear();
        }
        Ok(())
    }

    /// Ball `i`'s gravity scale (dense index).
    #[inline]
    pub(crate) fn gravity_scale_at(&self, i: usize) -> Real {
        self.ball_gravity.get(i).copied().unwrap_or(1.0)
    }

    /// The gravity that accelerates ball `i` (dense index) when nothing holds it: the world's
    /// times its scale.
    #[inline]
    pub(crate) fn gravity_of(&self, i: usize) -> Vec2 {
        match self.ball_gravity.get(i) {
            None => self.config.gravity,
            Some(&s) => scaled(self.config.gravity, s),
        }
    }

    /// Keeps `ball_gravity` index for index with `balls` after a ball of scale `s` was
    /// pushed.
    pub(crate) fn ball_gravity_pushed(&mut self, s: Real) {
        if !self.ball_gravity.is_empty() || s != 1.0 {
            self.ball_gravity.resize(self.balls.len() - 1, 1.0);
            self.ball_gravity.push(s);
        }
    }

    /// Keeps `ball_gravity` index for index with `balls` when ball `i` is swap-removed (call
    /// with the same index as `balls.swap_remove`); returns its scale.
    pub(crate) fn ball_gravity_swap_removed(&mut self, i: usize) -> Real {
        if i < self.ball_gravity.len() {
            self.ball_gravity.swap_remove(i)
        } else {
            1.0
        }
    }

    /// Feeds the scales that are not 1 to the state hash: a world whose balls all fall with
    /// it hashes as it did before scales.
    pub(crate) fn hash_gravity_scales(&self, mut word: impl FnMut(u64)) {
        for (b, &s) in self.balls.iter().zip(&self.ball_gravity) {
            if s != 1.0 {
                word(0x6772_6176); // "grav"
                word(b.id.to_bits());
                word(s.to_bits());
            }
        }
    }
}
