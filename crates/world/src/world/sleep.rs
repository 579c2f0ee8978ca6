//! Sleeping balls between steps (`crate::step::sleep` has the rule): asking whether a ball
//! sleeps, waking it, and waking what an edit may have taken support from.

use crate::body::rest::RestOn;
use crate::model::error::WorldError;
use crate::model::ids::BallId;
use crate::step::sleep::*;
use crate::world::World;
use collide_core::{Aabb, Vec2};

impl World {
    /// Whether ball `i` (dense index) is asleep.
    #[inline]
    pub(crate) fn is_asleep(&self, i: usize) -> bool {
        matches!(self.ball_rest[i], Some(r) if r.on == RestOn::Asleep)
    }

    /// Whether the ball is asleep (see the `sleep` module: a ball of a settled pile under
    /// gravity, held without velocity until something wakes it); `None` for a stale id.
    #[must_use]
    pub fn ball_asleep(&self, id: BallId) -> Option<bool> {
        self.ball_slots.get(id).map(|i| self.is_asleep(i))
    }

    /// How many balls are asleep.
    #[must_use]
    pub fn sleeping_balls(&self) -> usize {
        (0..self.balls.len()).filter(|&i| self.is_asleep(i)).count()
    }

    /// Wakes a sleeping ball between steps, at rest where it is, and every sleeping ball lying
    /// on it, transitively; a ball that is awake is left as it is, but what sleeps on it
    /// wakes all the same.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale id.
    pub fn wake_ball(&mut self, id: BallId) -> Result<(), WorldError> {
        let i = self
            .ball_slots
            .get(id)
            .ok_or(WorldError::NoSuchBody(crate::model::event::Body::Ball(id)))?;
        self.wake_between_steps(i);
        Ok(())
    }

    /// Wakes ball `i` between steps, and the sleeping balls lying on it, transitively (at
    /// the world's current time, where they are, at rest).
    pub(crate) fn wake_between_steps(&mut self, i: usize) {
        let g = self.config.gravity;
        if g == Vec2::ZERO {
            return;
        }
        let tol = touch_tolerance(g);
        let mut stack = vec![i];
        if self.is_asleep(i) {
            self.free_ball_now(i);
        }
        self.ball_slow[i] = Slow::default();
        while let Some(k) = stack.pop() {
            let pk = self.balls[k].pos_at(self.time, self.acc_of(k));
            let rk = self.balls[k].radius;
            for u in 0..self.balls.len() {
                if u != k && self.is_asleep(u) {
                    let b = &self.balls[u];
                    if lies_on(b.anchor, b.radius, pk, rk, g, tol) {
                        self.free_ball_now(u);
                        self.ball_slow[u] = Slow::default();
                        stack.push(u);
                    }
                }
            }
        }
    }

    /// Wakes every sleeping ball between steps.
    pub(crate) fn wake_all_between_steps(&mut self) {
        for i in 0..self.balls.len() {
            if self.is_asleep(i) {
                self.free_ball_now(i);
            }
        }
    }

    /// Wakes the sleeping balls within [`touch_tolerance`] of `aabb` between steps, and what
    /// lies on them.
    pub(crate) fn wake_touching_box(&mut self, aabb: Aabb) {
        let tol = touch_tolerance(self.config.gravity);
        for i in 0..self.balls.len() {
            if self.is_asleep(i) {
                let b = &self.balls[i];
                if touches_box(b.anchor, b.radius, &aabb, tol) {
                    self.wake_between_steps(i);
                }
            }
        }
    }
}
