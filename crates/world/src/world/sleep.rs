//! Sleeping balls and boxes between steps (`crate::step::sleep` has the rule): asking whether
//! a body sleeps, waking it, and waking what an edit may have taken support from.

use crate::body::rest::RestOn;
use crate::model::error::WorldError;
use crate::model::ids::{BallId, RectId};
use crate::step::sleep::*;
use crate::world::World;
use collide_core::{Aabb, Vec2};

impl World {
    /// Whether ball `i` (dense index) is asleep.
    #[inline]
    pub(crate) fn is_asleep(&self, i: usize) -> bool {
        matches!(self.ball_rest[i], Some(r) if r.on == RestOn::Asleep)
    }

    /// Whether dynamic rectangle `k` (dense index) is asleep, or held still in a wedge
    /// (`step/settle.rs`): it has no velocity or acceleration until something wakes it.
    #[inline]
    pub(crate) fn rect_is_asleep(&self, k: usize) -> bool {
        matches!(self.rect_rest[k], Some(r) if r.on == RestOn::Asleep)
    }

    /// Whether the rectangle is asleep (see the `sleep` module: a dynamic box of a settled
    /// stack under gravity, or one stopped in a wedge, held without velocity until something
    /// wakes it); `false` for a static or kinematic one, `None` for a stale id.
    #[must_use]
    pub fn rect_asleep(&self, id: RectId) -> Option<bool> {
        self.rect_slots.get(id).map(|k| self.rect_is_asleep(k))
    }

    /// How many dynamic rectangles are asleep.
    #[must_use]
    pub fn sleeping_rects(&self) -> usize {
        (0..self.rects.len())
            .filter(|&k| self.rect_is_asleep(k))
            .count()
    }

    /// Wakes a sleeping rectangle between steps, at rest where it is, and what sleeps on it
    /// (the balls and boxes touching it), transitively; one that is awake is left as it is,
    /// but what sleeps on it wakes all the same.
    ///
    /// # Errors
    /// [`WorldError::NoSuchBody`] for a stale id.
    pub fn wake_rect(&mut self, id: RectId) -> Result<(), WorldError> {
        let k = self
            .rect_slots
            .get(id)
            .ok_or(WorldError::NoSuchBody(crate::model::event::Body::Rect(id)))?;
        if self.config.gravity == Vec2::ZERO {
            return Ok(());
        }
        if self.rect_is_asleep(k) {
            self.wake_rect_now(k);
        }
        self.rect_slow[k] = Slow::default();
        self.wake_between_steps_from(Sleeper::Rect(k));
        Ok(())
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

    /// Wakes ball `i` between steps, and what sleeps on it, transitively (at the world's
    /// current time, where they are, at rest; [`World::sleepers_on`]).
    pub(crate) fn wake_between_steps(&mut self, i: usize) {
        if self.config.gravity == Vec2::ZERO {
            return;
        }
        if self.is_asleep(i) {
            self.free_ball_now(i);
        }
        self.ball_slow[i] = Slow::default();
        self.wake_between_steps_from(Sleeper::Ball(i));
    }

    /// Wakes, between steps, what sleeps on `first` (already awake), transitively.
    fn wake_between_steps_from(&mut self, first: Sleeper) {
        let mut stack = vec![first];
        while let Some(woken) = stack.pop() {
            let on = match woken {
                Sleeper::Ball(k) => Support::Ball(
                    self.balls[k].pos_at(self.time, self.acc_of(k)),
                    self.balls[k].radius,
                    k,
                ),
                Sleeper::Rect(k) => Support::Box(self.rect_box_at(k, self.time), k),
            };
            for u in self.sleepers_on(on) {
                match u {
                    Sleeper::Ball(b) => {
                        self.free_ball_now(b);
                        self.ball_slow[b] = Slow::default();
                    }
                    Sleeper::Rect(q) => self.wake_rect_now(q),
                }
                stack.push(u);
            }
        }
    }

    /// The sleeping bodies that rest on `on`, balls then rectangles, each in index order:
    /// on a ball the sleeping balls lying on it ([`lies_on`]) and the sleeping boxes
    /// touching it, on a box the sleeping balls and boxes touching it (within
    /// [`touch_tolerance`]: waking one that lay beside it costs only its sleep). A sleeping
    /// body does not move, so its place is its path's start, in the step as between steps.
    pub(crate) fn sleepers_on(&self, on: Support) -> Vec<Sleeper> {
        let g = self.config.gravity;
        let tol = touch_tolerance(g);
        let mut found = Vec::new();
        for (u, b) in self.balls.iter().enumerate() {
            if self.is_asleep(u)
                && match on {
                    Support::Ball(p, r, k) => u != k && lies_on(b.anchor, b.radius, p, r, g, tol),
                    Support::Box(bx, _) => touches_box(b.anchor, b.radius, &bx, tol),
                }
            {
                found.push(Sleeper::Ball(u));
            }
        }
        for q in 0..self.rects.len() {
            if self.rect_is_asleep(q)
                && match on {
                    Support::Ball(p, r, _) => touches_box(p, r, &self.rect_anchor[q].0, tol),
                    Support::Box(bx, k) => q != k && boxes_touch(&bx, &self.rect_anchor[q].0, tol),
                }
            {
                found.push(Sleeper::Rect(q));
            }
        }
        found
    }

    /// Dynamic rectangle `k`, asleep, wakes between steps at rest where it is.
    fn wake_rect_now(&mut self, k: usize) {
        self.rebase_rect(k, self.time);
        self.rect_slow[k] = Slow::default();
        self.scratch.valid = false;
    }

    /// Wakes every sleeping ball and box between steps.
    pub(crate) fn wake_all_between_steps(&mut self) {
        for i in 0..self.balls.len() {
            if self.is_asleep(i) {
                self.free_ball_now(i);
            }
        }
        for k in 0..self.rects.len() {
            if self.rect_is_asleep(k) {
                self.wake_rect_now(k);
            }
        }
    }

    /// Wakes the sleeping balls and boxes within [`touch_tolerance`] of `aabb` between
    /// steps, and what sleeps on them.
    pub(crate) fn wake_touching_box(&mut self, aabb: Aabb) {
        if self.config.gravity == Vec2::ZERO {
            return;
        }
        for u in self.sleepers_on(Support::Box(aabb, usize::MAX)) {
            match u {
                Sleeper::Ball(b) => self.wake_between_steps(b),
                Sleeper::Rect(q) => {
                    if self.rect_is_asleep(q) {
                        self.wake_rect_now(q);
                        self.wake_between_steps_from(u);
                    }
                }
            }
        }
    }
}
