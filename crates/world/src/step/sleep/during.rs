//! Sleeping balls and boxes in the step (`sleep.rs`): counting slow inelastic contacts,
//! falling asleep at an event, and waking a body and what lies on it in the middle of the
//! step (a box's own rules: `boxes.rs`).

use crate::body::rect::RectRole;
use crate::step::mover::{MoverBody, ACTIVE, FROZEN};
use crate::step::sleep::{
    asleep_rest, confinement, lies_on, sleep_speed, touch_tolerance, touches_box, Sleeper, Slow,
    Support, SLEEP_CONTACTS,
};
use crate::world::World;
use collide_core::{Real, Vec2};

impl World {
    /// After a response at absolute time `t` (movers `m` and, if any, `j` advanced there, their
    /// new paths anchored there): counts the contact toward each one's sleep, or restarts its
    /// count (`sleep.rs`), then puts those that reached [`SLEEP_CONTACTS`] to sleep, lower
    /// index first (so the outcome does not depend on which of the two found the contact), if
    /// nothing that could move holds them up. `before` are their velocities before the
    /// response, `e` the pair's restitution before the TC rule, `tc` whether the TC rule made
    /// the contact elastic.
    pub(in crate::step) fn count_toward_sleep(
        &mut self,
        m: usize,
        j: Option<usize>,
        before: (Vec2, Vec2),
        e: Real,
        tc: bool,
        t: Real,
    ) {
        if !self.config.sleep {
            return;
        }
        let ready_m = self.count_one(m, before.0, e, tc);
        let ready_j = j.is_some_and(|j| self.count_one(j, before.1, e, tc));
        let mut ready = [(ready_m, m), (ready_j, j.unwrap_or(usize::MAX))];
        ready.sort_unstable_by_key(|r| r.1);
        for (go, i) in ready {
            if go && !self.mover_asleep(i) && self.may_sleep(i, t) {
                // At rest where it is: its path starts here, without velocity or acceleration.
                let pos = self.is_ball(i).then(|| self.ball_pos(i));
                self.set_vel_g::<true, true>(i, Vec2::ZERO, t, pos);
                self.hold_asleep(i, t);
            }
        }
    }

    /// Puts mover `i` (a ball or a dynamic rectangle), whose path starts at time `t`
    /// (absolute, seconds) without velocity, to sleep: held where it is without acceleration
    /// ([`asleep_rest`]), its count toward sleep reset. A sleeping body searches no pairs, so
    /// the bodies that could meet it predict again now, as around a body stopped at the
    /// event bound. Used by the sleep rule and by a ball stopped in a wedge
    /// (`step/settle.rs`).
    pub(in crate::step) fn hold_asleep(&mut self, i: usize, t: Real) {
        match self.mover(i) {
            MoverBody::Ball(b) => {
                self.ball_slow[b] = Slow::default();
                self.ball_rest[b] = Some(asleep_rest());
            }
            MoverBody::Rect(k) => {
                self.rect_slow[k] = Slow::default();
                self.rect_rest[k] = Some(asleep_rest());
            }
        }
        self.neighbours_predict_again(i, t);
    }

    /// Whether mover `i` is asleep: a sleeping ball, or a dynamic rectangle asleep or held
    /// still in a wedge (both are [`crate::body::rest::RestOn::Asleep`]).
    #[inline(always)]
    pub(in crate::step) fn mover_asleep(&self, i: usize) -> bool {
        match self.mover(i) {
            MoverBody::Ball(b) => self.is_asleep(b),
            MoverBody::Rect(k) => self.rect_is_asleep(k),
        }
    }

    /// Counts a contact toward mover `i`'s sleep (see [`World::count_toward_sleep`]);
    /// whether its count has reached [`SLEEP_CONTACTS`]. Out of line: called for both
    /// bodies of a contact, it would otherwise be compiled twice.
    #[inline(never)]
    fn count_one(&mut self, i: usize, before: Vec2, e: Real, tc: bool) -> bool {
        if self.scratch.mv[i].state != ACTIVE || self.mover_asleep(i) {
            return false;
        }
        let (g, after, pos, size, slow_now) = match self.mover(i) {
            MoverBody::Ball(b) => (
                self.gravity_of(b),
                self.balls[b].v0,
                self.ball_pos(i),
                self.balls[b].radius,
                &mut self.ball_slow[b],
            ),
            MoverBody::Rect(k) => {
                let bx = self.rects[k].aabb;
                (
                    self.config.gravity,
                    self.rects[k].vel,
                    bx.center(),
                    bx.half_extents().min_element(),
                    &mut self.rect_slow[k],
                )
            }
        };
        let s = sleep_speed(g);
        let reach = confinement(size, g);
        if slow_now.count == 0 {
            slow_now.at = pos;
        }
        let slow = before.length_squared() < s * s && after.length_squared() < s * s;
        let confined = tc && (pos - slow_now.at).length_squared() <= reach * reach;
        if !(e < 1.0 && (slow || confined)) {
            // A rattle that moved on starts a count where it is now.
            slow_now.count = u32::from(e < 1.0 && tc);
            slow_now.at = pos;
            return false;
        }
        slow_now.count = slow_now.count.saturating_add(1);
        slow_now.count >= SLEEP_CONTACTS
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

    /// Whether mover `i`, at absolute time `t`, lies on nothing that could move away from
    /// under it (`sleep.rs`; a box: [`World::box_may_sleep`]).
    fn may_sleep(&self, i: usize, t: Real) -> bool {
        if self.is_ball(i) {
            self.ball_may_sleep(i, t)
        } else {
            self.box_may_sleep(i, t)
        }
    }

    /// Whether ball `i`, at absolute time `t`, lies on nothing that could move away from under
    /// it: every ball it lies on is asleep, and no awake dynamic rectangle, moving kinematic
    /// rectangle or turning flipper touches it (`sleep.rs`).
    fn ball_may_sleep(&self, i: usize, t: Real) -> bool {
        let g = self.gravity_of(i);
        let tol = touch_tolerance(g);
        let p = self.ball_pos(i);
        let r = self.balls[i].radius;
        let on_awake = |k: usize| {
            k != i
                && self.scratch.mv[k].state != crate::step::mover::DEAD
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
        let touches = |k: usize| touches_box(p, r, &self.rect_box_at(k, t), tol);
        let moving_rect = self.rects.iter().enumerate().any(|(k, rc)| {
            (rc.role() == RectRole::Dynamic && !self.rect_is_asleep(k)
                || (rc.role() == RectRole::Kinematic && rc.vel != Vec2::ZERO))
                && touches(k)
        });
        !moving_rect && !self.flipper_turning(t)
    }

    /// Whether a flipper turns at absolute time `t`: nothing sleeps then (a flipper can
    /// reach anything near it).
    pub(super) fn flipper_turning(&self, t: Real) -> bool {
        self.flippers
            .iter()
            .any(|f| f.motion.omega != 0.0 && t < f.motion.until)
    }

    /// Ball `k`'s centre and radius at absolute time `t` as another body sees it
    /// ([`World::ball_pos_seen_at`]).
    pub(super) fn ball_seen_at(&self, k: usize, t: Real) -> (Vec2, Real) {
        (self.ball_pos_seen_at(k, t), self.balls[k].radius)
    }

    /// Wakes sleeping mover `i` at absolute time `t`: at rest where it is, under gravity
    /// again (its path starts at `t`), and what sleeps on it, transitively
    /// ([`World::sleepers_on`]). Those predict again, all woken first and then in index
    /// order (the result does not depend on the broad phase's list order). `i` itself
    /// predicts after its response.
    pub(in crate::step) fn wake_in_step(&mut self, i: usize, t: Real) {
        let mut woken = vec![i];
        let mut next = 0;
        while next < woken.len() {
            let k = woken[next];
            next += 1;
            let on = match self.mover(k) {
                MoverBody::Ball(b) => {
                    Support::Ball(self.ball_pos_seen_at(k, t), self.balls[b].radius, b)
                }
                MoverBody::Rect(q) => Support::Box(self.rect_box_at(q, t), q),
            };
            let mut found: Vec<usize> = self
                .sleepers_on(on)
                .into_iter()
                .map(|u| self.mover_of(u))
                .filter(|u| !woken.contains(u))
                .collect();
            found.sort_unstable();
            woken.extend(found);
        }
        for &u in &woken {
            self.advance(u, t);
            self.wake_one(u, t);
        }
        woken.sort_unstable();
        for &u in woken.iter().filter(|&&u| u != i) {
            self.predict(u);
        }
    }

    /// The mover of a sleeping body (a ball's mover is its index; a rectangle's is listed in
    /// `rect_movers`).
    fn mover_of(&self, s: Sleeper) -> usize {
        match s {
            Sleeper::Ball(b) => b,
            Sleeper::Rect(q) => self
                .scratch
                .rect_movers
                .iter()
                .map(|&m| m as usize)
                .find(|&m| self.rect_index(m) == q)
                .unwrap_or(usize::MAX),
        }
    }

    /// Wakes, at absolute time `t`, the sleeping balls and boxes within [`touch_tolerance`]
    /// of `aabb` (a brick just destroyed) and what lies on them; they predict again, but
    /// `except`.
    pub(in crate::step) fn wake_touching_in_step(
        &mut self,
        aabb: collide_core::Aabb,
        t: Real,
        except: usize,
    ) {
        for u in self.sleepers_on(Support::Box(aabb, usize::MAX)) {
            let m = self.mover_of(u);
            if self.mover_asleep(m) {
                self.advance(m, t);
                self.wake_in_step(m, t);
                if m != except {
                    self.predict(m);
                }
            }
        }
    }

    /// Mover `i` (asleep, at `t` or advanced there) wakes at rest where it is.
    fn wake_one(&mut self, i: usize, t: Real) {
        match self.mover(i) {
            MoverBody::Ball(b) => {
                let pos = self.balls[b].anchor;
                self.ball_rest[b] = None;
                self.ball_slow[b] = Slow::default();
                self.set_vel_g::<true, true>(i, Vec2::ZERO, t, Some(pos));
            }
            MoverBody::Rect(k) => {
                self.rect_rest[k] = None;
                self.rect_slow[k] = Slow::default();
                self.set_vel_g::<true, true>(i, Vec2::ZERO, t, None);
            }
        }
    }
}
