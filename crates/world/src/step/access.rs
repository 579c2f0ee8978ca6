//! The step's view of its movers (`crate::step::mover`): a mover's body, path, radius or box,
//! filter and partner, whatever its kind.

use crate::model::event::Body;
use crate::model::ids::{BallId, RectId};

/// A mover's id ([`World::mover_id`]): a ball or a dynamic rectangle (characters move after
/// the event loop, `crate::step::character`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MoverId {
    Ball(BallId),
    Rect(RectId),
}
use crate::step::mover::*;
use crate::world::World;
use collide_core::{Aabb, Real, Vec2};

impl World {
    pub(super) fn nb(&self) -> usize {
        self.balls.len()
    }

    /// What mover `m` is (its record's tag, [`Mover::body`]).
    #[inline(always)]
    pub(crate) fn mover(&self, m: usize) -> MoverBody {
        self.scratch.mv[m].body(m)
    }

    /// The dense index of the dynamic rectangle that mover `m` is (`m` must be a
    /// rectangle's mover: its tag is that index).
    #[inline(always)]
    pub(crate) fn rect_index(&self, m: usize) -> usize {
        debug_assert!(!self.is_ball(m));
        self.scratch.mv[m].rect as usize
    }

    /// Whether mover `m` is a ball (its record's tag).
    #[inline(always)]
    pub(crate) fn is_ball(&self, m: usize) -> bool {
        self.scratch.mv[m].is_ball()
    }

    /// Mover `m`'s order key among events and contacts of the same time: a ball's stable id
    /// slot (below 2^22), a dynamic rectangle's id slot above every ball's. Stable ids, not
    /// storage places, so that the order of simultaneous events does not depend on where a
    /// body is stored (removals move bodies; a domain's world stores a subset).
    #[inline]
    pub(super) fn order_key(&self, m: usize) -> u32 {
        body_key(self.body_of(m))
    }

    /// Ball `m`'s centre at its own time (`mv[m].t`), derived from its path's start; a
    /// frozen ball stays where it stopped (its path was re-anchored there).
    #[inline(always)]
    pub(super) fn ball_pos(&self, m: usize) -> Vec2 {
        self.ball_pos_g::<true, true>(m)
    }

    /// Mover `m`'s centre: a ball's at `contact` when given (its centre at a contact being
    /// answered), else at its own time; a dynamic rectangle's box centre.
    pub(super) fn mover_centre(&self, m: usize, contact: Option<Vec2>) -> Vec2 {
        match self.mover(m) {
            super::mover::MoverBody::Ball(_) => contact.unwrap_or_else(|| self.ball_pos(m)),
            super::mover::MoverBody::Rect(k) => self.rects[k].aabb.center(),
        }
    }

    /// [`World::ball_pos`] in a step compiled for gravity or not (`G`, [`World::acc_g`]).
    #[inline(always)]
    pub(super) fn ball_pos_g<const G: bool, const X: bool>(&self, m: usize) -> Vec2 {
        let b = &self.balls[m];
        if self.scratch.mv[m].state == FROZEN {
            b.anchor
        } else {
            b.pos_at(self.scratch.mv[m].t, self.acc_g::<G>(m))
        }
    }

    /// Mover `m`'s acceleration when it is a ball, `None` for a dynamic rectangle (`G`:
    /// [`World::acc_g`]).
    #[inline]
    pub(super) fn acc_of_ball<const G: bool, const X: bool>(&self, m: usize) -> Option<Vec2> {
        self.is_ball(m).then(|| self.acc_g::<G>(m))
    }

    /// Ball `j`'s acceleration as another body meets it: zero while it is stopped at the
    /// iteration bound (at rest where it stopped), else [`World::acc_of`].
    #[inline]
    pub(crate) fn acc_seen(&self, j: usize) -> Vec2 {
        if self.scratch.mv[j].state == FROZEN {
            Vec2::ZERO
        } else {
            self.acc_of(j)
        }
    }

    /// Ball `j`'s path as another body meets it: its record, at rest where it stopped (its
    /// path starts there) while it is stopped at the iteration bound.
    pub(crate) fn ball_path(&self, j: usize) -> crate::body::ball::BallRec {
        if self.scratch.mv[j].state == FROZEN {
            crate::body::ball::BallRec {
                v0: Vec2::ZERO,
                ..self.balls[j]
            }
        } else {
            self.balls[j]
        }
    }

    /// Mover `m`'s velocity at its current time (`mv[m].t`).
    #[inline(always)]
    pub(super) fn vel_of(&self, m: usize) -> Vec2 {
        self.vel_of_g::<true, true>(m)
    }

    /// [`World::vel_of`] in a step compiled for gravity or not (`G`, [`World::acc_g`]).
    #[inline(always)]
    pub(super) fn vel_of_g<const G: bool, const X: bool>(&self, m: usize) -> Vec2 {
        match self.mover(m) {
            MoverBody::Ball(i) => self.balls[i].vel_at(self.scratch.mv[m].t, self.acc_g::<G>(m)),
            MoverBody::Rect(k) => self.rects[k].vel,
        }
    }

    #[inline(always)]
    pub(super) fn mass_of(&self, m: usize) -> Real {
        match self.mover(m) {
            MoverBody::Ball(i) => self.balls[i].mass(),
            MoverBody::Rect(k) => self.rects[k].mass(),
        }
    }

    /// Gives mover `m` a new velocity at absolute time `abs`, its current time. A ball's path
    /// is re-anchored at `at` when given (the contact position solved from the anchor), else
    /// at its current position.
    pub(super) fn set_vel(&mut self, m: usize, v: Vec2, abs: Real, at: Option<Vec2>) {
        self.set_vel_g::<true, true>(m, v, abs, at);
    }

    /// [`World::set_vel`] in a step compiled for gravity or not (`G`, [`World::acc_g`]).
    #[inline]
    pub(super) fn set_vel_g<const G: bool, const X: bool>(
        &mut self,
        m: usize,
        v: Vec2,
        abs: Real,
        at: Option<Vec2>,
    ) {
        match self.mover(m) {
            MoverBody::Ball(i) => {
                let pos = at.unwrap_or_else(|| self.ball_pos_g::<G, X>(m));
                let b = &mut self.balls[i];
                b.v0 = v;
                b.anchor = pos;
                b.anchor_time = abs;
                if X && !self.passes.is_empty() {
                    self.forget_ended_passes(m);
                }
            }
            MoverBody::Rect(k) => {
                // Its box is at time `abs` (advanced there): its path starts here.
                self.rects[k].vel = v;
                self.rect_anchor[k] = (self.rects[k].aabb, abs, v);
            }
        }
        self.scratch.mv[m].motion = self.scratch.mv[m].motion.wrapping_add(1);
    }

    /// Mover `m`'s id: the step's movers are balls and dynamic rectangles only.
    #[inline(always)]
    pub(super) fn mover_id(&self, m: usize) -> MoverId {
        match self.mover(m) {
            MoverBody::Ball(i) => MoverId::Ball(self.balls[i].id),
            MoverBody::Rect(k) => MoverId::Rect(self.rects[k].id),
        }
    }

    #[inline(always)]
    pub(super) fn body_of(&self, m: usize) -> Body {
        match self.mover(m) {
            MoverBody::Ball(i) => Body::Ball(self.balls[i].id),
            MoverBody::Rect(k) => Body::Rect(self.rects[k].id),
        }
    }

    /// Moves mover `m` along its path to absolute time `t` (a ball's position is derived
    /// from its path at its time: only the time changes; a dynamic rectangle's box, and under
    /// gravity its velocity, are set from its path, `rect_path.rs`). No-op for a frozen or
    /// dead mover.
    pub(super) fn advance(&mut self, m: usize, t: Real) {
        self.advance_g::<true, true>(m, t);
    }

    /// [`World::advance`] in a step compiled for gravity or not (`G`, [`World::acc_g`]).
    #[inline]
    pub(super) fn advance_g<const G: bool, const X: bool>(&mut self, m: usize, t: Real) {
        let s = &self.scratch;
        let r = &s.mv[m];
        let dtm = t - r.t;
        if r.state == ACTIVE && dtm > 0.0 && !r.is_ball() {
            let k = r.rect as usize;
            if !self.has_gravity::<G>() {
                let (a, at, _) = self.rect_anchor[k];
                let r = &mut self.rects[k];
                r.aabb = a.translated(r.vel * (t - at));
            } else {
                let (b, v) = (self.rect_box_at(k, t), self.rect_vel_at(k, t));
                let r = &mut self.rects[k];
                r.aabb = b;
                r.vel = v;
            }
        }
        if dtm > 0.0 {
            self.scratch.mv[m].t = t;
        }
    }

    /// Dynamic rectangle mover `j`'s path (`j` is a rectangle's mover: its tag is the
    /// rectangle's index): the box at the start of its current path, that
    /// start's absolute time, its velocity then and its acceleration (both zero for a mover
    /// stopped at the iteration bound, which stays where it stopped). Contacts involving it
    /// are solved from the later of the two bodies' path starts, so that they are the same
    /// bits whenever they are searched (see `ball_ball_contact`).
    pub(super) fn dyn_path(&self, j: usize) -> (Aabb, Real, Vec2, Vec2) {
        let k = self.rect_index(j);
        let (a, at, v0) = self.rect_anchor[k];
        if self.scratch.mv[j].state == FROZEN {
            (a, at, Vec2::ZERO, Vec2::ZERO)
        } else {
            (a, at, v0, self.rect_acc(k))
        }
    }
}
