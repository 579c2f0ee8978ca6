//! Sleeping balls in the step (`sleep.rs`): counting slow inelastic contacts, falling asleep
//! at an event, and waking a ball and what lies on it in the middle of the step.

use super::mover::{ACTIVE, FROZEN};
use crate::desc::RectKind;
use crate::sleep::{
    asleep_rest, confinement, lies_on, sleep_speed, touch_tolerance, Slow, SLEEP_CONTACTS,
};
use crate::world::World;
use collide_core::{Real, Vec2};

impl World {
    /// After a response at absolute time `t` (ball `i` advanced there, its new path anchored
    /// there): counts the contact toward ball `i`'s sleep, or restarts the count, and puts
    /// the ball to sleep at [`SLEEP_CONTACTS`] if nothing that could move holds it up
    /// (`sleep.rs`). `before` is its velocity before the response, `e` the pair's restitution
    /// before the TC rule, `tc` whether the TC rule made the contact elastic for it.
    pub(super) fn count_toward_sleep(
        &mut self,
        i: usize,
        before: Vec2,
        e: Real,
        tc: bool,
        t: Real,
    ) {
        if !self.config.sleep || self.scratch.mv[i].state != ACTIVE || self.is_asleep(i) {
            return;
        }
        let g = self.gravity_of(i);
        let s = sleep_speed(g);
        let after = self.balls[i].v0;
        let pos = self.ball_pos(i);
        let slow_now = &mut self.ball_slow[i];
        if slow_now.count == 0 {
            slow_now.at = pos;
        }
        let slow = before.length_squared() < s * s && after.length_squared() < s * s;
        let reach = confinement(self.balls[i].radius, g);
        let confined = tc && (pos - slow_now.at).length_squared() <= reach * reach;
        if !(e < 1.0 && (slow || confined)) {
            // A rattle that moved on starts a count where it is now.
            slow_now.count = u32::from(e < 1.0 && tc);
            slow_now.at = pos;
            return;
        }
        slow_now.count = slow_now.count.saturating_add(1);
        if slow_now.count >= SLEEP_CONTACTS && self.may_sleep(i, t) {
            self.ball_slow[i] = Slow::default();
            // At rest where it is: its path starts here, without velocity or acceleration.
            let pos = self.ball_pos(i);
            self.set_vel_g::<true, true>(i, Vec2::ZERO, t, Some(pos));
            self.ball_rest[i] = Some(asleep_rest());
        }
    }

    /// Ball `i`'s centre at absolute time `t` as another body sees it: where it stopped when
    /// frozen, where it sleeps, else on its path.
    fn ball_pos_seen_at(&self, i: usize, t: Real) -> Vec2 {
        if self.scratch.mv[i].state == FROZEN {
            self.balls[i].anchor
        } else {
            self.balls[i].pos_at(t, self.acc_of(i))
        }
    }

    /// Whether ball `i`, at absolute time `t`, lies on nothing that could move away from under
    /// it: every ball it lies on is asleep, and no dynamic rectangle, moving kinematic
    /// rectangle or turning flipper touches it (`sleep.rs`).
    fn may_sleep(&self, i: usize, t: Real) -> bool {
        let g = self.gravity_of(i);
        let tol = touch_tolerance(g);
        let p = self.ball_pos(i);
        let r = self.balls[i].radius;
        let on_awake = |k: usize| {
            k != i
                && self.scratch.mv[k].state != super::mover::DEAD
                && !self.is_asleep(k)
                && lies_on(
                    p,
                    r,
                    self.ball_pos_seen_at(k, t),
                    self.balls[k].radius,
                    g,
                    tol,
                )
        };
        let sc = &self.scratch;
        let mut held_by_awake = false;
        if sc.use_bp {
            sc.bp
                .for_each_neighbour(sc.bp.cell_of(i), |k| held_by_awake |= on_awake(k));
        } else {
            held_by_awake = (0..self.nb()).any(on_awake);
        }
        if held_by_awake {
            return false;
        }
        let touches = |k: usize| {
            let b = self.rect_box_at(k, t).grown(r + tol);
            p.x >= b.min.x && p.x <= b.max.x && p.y >= b.min.y && p.y <= b.max.y
        };
        let moving_rect = self.rects.iter().enumerate().any(|(k, rc)| {
            (rc.kind == RectKind::Dynamic
                || (rc.kind == RectKind::Kinematic && rc.vel != Vec2::ZERO))
                && touches(k)
        });
        !moving_rect
            && !self
                .flippers
                .iter()
                .any(|f| f.motion.omega != 0.0 && t < f.motion.until)
    }

    /// Wakes sleeping ball `i` at absolute time `t`: at rest where it is, under gravity again
    /// (its path starts at `t`), and every sleeping ball lying on it, transitively; those
    /// predict again. `i` itself predicts after its response.
    pub(super) fn wake_in_step(&mut self, i: usize, t: Real) {
        self.wake_one(i, t);
        let g = self.config.gravity;
        let tol = touch_tolerance(g);
        let mut stack = vec![i];
        let mut found = Vec::new();
        while let Some(k) = stack.pop() {
            let pk = self.ball_pos_seen_at(k, t);
            let rk = self.balls[k].radius;
            found.clear();
            let above = |u: usize| {
                u != k && self.is_asleep(u) && {
                    let b = &self.balls[u];
                    lies_on(b.anchor, b.radius, pk, rk, g, tol)
                }
            };
            let sc = &self.scratch;
            if sc.use_bp {
                sc.bp.for_each_neighbour(sc.bp.cell_of(k), |u| {
                    if above(u) {
                        found.push(u);
                    }
                });
            } else {
                found.extend((0..self.nb()).filter(|&u| above(u)));
            }
            for &u in &found {
                self.advance(u, t);
                self.wake_one(u, t);
                self.predict(u);
                stack.push(u);
            }
        }
    }

    /// Wakes, at absolute time `t`, the sleeping balls within [`touch_tolerance`] of `aabb`
    /// (a brick just destroyed) and what lies on them; they predict again, but `except`.
    pub(super) fn wake_touching_in_step(
        &mut self,
        aabb: collide_core::Aabb,
        t: Real,
        except: usize,
    ) {
        let tol = touch_tolerance(self.config.gravity);
        for i in 0..self.nb() {
            if !self.is_asleep(i) || self.scratch.mv[i].state == super::mover::DEAD {
                continue;
            }
            let b = &self.balls[i];
            let near = aabb.grown(b.radius + tol);
            let p = b.anchor;
            if p.x >= near.min.x && p.x <= near.max.x && p.y >= near.min.y && p.y <= near.max.y {
                self.advance(i, t);
                self.wake_in_step(i, t);
                if i != except {
                    self.predict(i);
                }
            }
        }
    }

    /// Ball `i` (asleep, at `t` or advanced there) wakes at rest where it is.
    fn wake_one(&mut self, i: usize, t: Real) {
        let pos = self.balls[i].anchor;
        self.ball_rest[i] = None;
        self.ball_slow[i] = Slow::default();
        self.set_vel_g::<true, true>(i, Vec2::ZERO, t, Some(pos));
    }
}
