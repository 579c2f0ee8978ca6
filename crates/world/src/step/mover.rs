//! A mover's records: its hot record ([`Mover`]), what it predicted ([`Prediction`],
//! [`Predicted`], [`PairRef`]), which prediction comes next ([`Next`]), and the accessors that
//! read a mover (a ball or a dynamic rectangle) by its mover index.

use crate::model::cell::CellCoord;
use crate::model::event::{Body, Side};
use crate::world::World;
use collide_core::{Aabb, Feature, Real, Vec2};

// A mover's `state`: moving; stopped for the rest of the step (at the event bound, or
// crushed); gone (lost through an open side, or removed).
pub(super) const ACTIVE: u8 = 0;
pub(super) const FROZEN: u8 = 1;
pub(super) const DEAD: u8 = 2;

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum PTarget {
    Cell(CellCoord),
    Wall(Side),
    Lost(Side),
    /// A static or kinematic rectangle (dense index).
    Rect(u32),
    /// Another mover.
    Mover(u32),
    /// A static segment or circle (dense index, `shapes.rs`).
    Shape(u32),
    /// The square of a sensor cell a ball touches moving in (`sensors.rs`).
    SensorCell(CellCoord),
    /// A flipper (dense index, `flippers.rs`), met while it turns or while it is held.
    Flipper {
        index: u32,
        turning: bool,
    },
    /// The end of the face that holds a resting ball (`rest.rs`).
    RestEnd,
    /// The end of one of a ball's passes (`pass.rs`): it leaves a sensor, or a body whose
    /// contact a hook ignored.
    PassEnd,
}

/// A mover's predictions as [`World::compute_prediction`] finds them.
#[derive(Clone, Copy, Debug)]
pub(super) struct Predicted {
    pub(super) stat: Option<Prediction>,
    pub(super) stat_until: Real,
    pub(super) pair: Option<Prediction>,
    pub(super) cross: (Real, u32),
}

impl Default for Predicted {
    fn default() -> Self {
        Predicted {
            stat: None,
            stat_until: Real::NEG_INFINITY,
            pair: None,
            cross: NO_CROSSING,
        }
    }
}

/// A mover's hot record: what the event loop reads at every event, in one cache line (the
/// predictions themselves, read only when one fires, live in `Scratch::stat`/`pair`).
#[derive(Clone, Copy, Debug)]
#[repr(C, align(64))]
pub(super) struct Mover {
    /// Absolute time of the mover's current state.
    pub(super) t: Real,
    /// The absolute time up to which its predictions looked.
    pub(super) horizon: Real,
    /// With `stat_hit`, the time of its static event; else the absolute time up to which
    /// its static search looked (a ball near no tile searches a window, see `static_event`).
    pub(super) stat_t: Real,
    /// The time of its pair event (infinite when none).
    pub(super) pair_t: Real,
    /// Its next broad-phase cell crossing: absolute time (infinite when none) and next cell.
    pub(super) cross_t: Real,
    pub(super) cross_cell: u32,
    /// Bumped whenever its velocity changes (voids predictions made against its old path).
    pub(super) motion: u32,
    /// Its velocity changes this step (bounded by `max_events_per_body`).
    pub(super) events: u32,
    /// Its search events this step: cell crossings and static windows' ends (bounded, see
    /// `over_search_bound`).
    pub(super) searches: u32,
    /// `ACTIVE`, `FROZEN` or `DEAD`.
    pub(super) state: u8,
    /// Whether `stat_t` is a static event's time.
    pub(super) stat_hit: bool,
}

impl Mover {
    /// A mover at absolute time `t0` with nothing predicted yet.
    pub(super) fn new(t0: Real) -> Mover {
        Mover {
            t: t0,
            horizon: t0,
            stat_t: t0,
            pair_t: Real::INFINITY,
            cross_t: Real::INFINITY,
            cross_cell: u32::MAX,
            motion: 0,
            events: 0,
            searches: 0,
            state: ACTIVE,
            stat_hit: false,
        }
    }
}

/// Which of a mover's stored predictions comes next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Next {
    /// Leaving its broad-phase cell (no velocity change).
    Cross,
    /// Its static event.
    Static,
    /// Its pair event.
    Pair,
    /// The end of its static search window: search static geometry further.
    StaticHorizon,
    /// Nothing before its horizon: predict again then.
    Horizon,
}

/// No crossing: a rectangle, no broad phase, or a ball at rest.
pub(super) const NO_CROSSING: (Real, u32) = (Real::INFINITY, u32::MAX);

/// A stored pair event: the partner (a mover index, `NO_PARTNER` when none) and its `motion`
/// when the contact was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PairRef {
    pub(super) partner: u32,
    pub(super) motion: u32,
}

pub(super) const NO_PARTNER: u32 = u32::MAX;
/// A partner that was removed from the world: a void pair event (searched again).
pub(super) const GONE_PARTNER: u32 = u32::MAX - 1;

impl PairRef {
    pub(super) const NONE: PairRef = PairRef {
        partner: NO_PARTNER,
        motion: 0,
    };
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Prediction {
    /// Absolute time of the event (balls: anchor time + `toi_anchor`).
    pub(super) time: Real,
    /// Balls: time of impact measured from the ball's anchor.
    pub(super) toi_anchor: Real,
    pub(super) target: PTarget,
    pub(super) normal: Vec2,
    pub(super) point: Vec2,
    pub(super) feature: Feature,
    pub(super) partner_motion: u32,
}

/// A body's order key among events of the same instant: a ball's id slot, a rectangle's id
/// slot above every ball's (as `World::order_key`).
#[inline]
pub(crate) fn body_key(b: Body) -> u32 {
    match b {
        Body::Ball(id) => id.index(),
        Body::Rect(id) => (1 << 31) | id.index(),
    }
}

impl World {
    pub(super) fn nb(&self) -> usize {
        self.balls.len()
    }

    /// Mover `m`'s order key among events and contacts of the same time: a ball's stable id
    /// slot (below 2^22), a dynamic rectangle's id slot above every ball's. Stable ids, not
    /// storage places, so that the order of simultaneous events does not depend on where a
    /// body is stored (removals move bodies; a domain's world stores a subset).
    #[inline]
    pub(super) fn order_key(&self, m: usize) -> u32 {
        let nb = self.nb();
        if m < nb {
            body_key(Body::Ball(self.balls[m].id))
        } else {
            let k = self.scratch.dyn_rects[m - nb] as usize;
            body_key(Body::Rect(self.rects[k].id))
        }
    }

    /// Ball `m`'s centre at its own time (`mv[m].t`), derived from its path's start; a
    /// frozen ball stays where it stopped (its path was re-anchored there).
    #[inline(always)]
    pub(super) fn ball_pos(&self, m: usize) -> Vec2 {
        self.ball_pos_g::<true, true>(m)
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
        (m < self.nb()).then(|| self.acc_g::<G>(m))
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
        let nb = self.nb();
        if m < nb {
            self.balls[m].vel_at(self.scratch.mv[m].t, self.acc_g::<G>(m))
        } else {
            self.rects[self.scratch.dyn_rects[m - nb] as usize].vel
        }
    }

    #[inline(always)]
    pub(super) fn mass_of(&self, m: usize) -> Real {
        let nb = self.nb();
        if m < nb {
            self.balls[m].mass()
        } else {
            self.rects[self.scratch.dyn_rects[m - nb] as usize].mass()
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
        let nb = self.nb();
        if m < nb {
            let pos = at.unwrap_or_else(|| self.ball_pos_g::<G, X>(m));
            let b = &mut self.balls[m];
            b.v0 = v;
            b.anchor = pos;
            b.anchor_time = abs;
            if X && !self.passes.is_empty() {
                self.forget_ended_passes(m);
            }
        } else {
            // Its box is at time `abs` (advanced there): its path starts here.
            let k = self.scratch.dyn_rects[m - nb] as usize;
            self.rects[k].vel = v;
            self.rect_anchor[k] = (self.rects[k].aabb, abs, v);
        }
        self.scratch.mv[m].motion = self.scratch.mv[m].motion.wrapping_add(1);
    }

    #[inline(always)]
    pub(super) fn body_of(&self, m: usize) -> Body {
        let nb = self.nb();
        if m < nb {
            Body::Ball(self.balls[m].id)
        } else {
            Body::Rect(self.rects[self.scratch.dyn_rects[m - nb] as usize].id)
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
        let dtm = t - s.mv[m].t;
        let nb = self.balls.len();
        if s.mv[m].state == ACTIVE && dtm > 0.0 && m >= nb {
            let k = s.dyn_rects[m - nb] as usize;
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

    /// Dynamic rectangle mover `j`'s path: the box at the start of its current path, that
    /// start's absolute time, its velocity then and its acceleration (both zero for a mover
    /// stopped at the iteration bound, which stays where it stopped). Contacts involving it
    /// are solved from the later of the two bodies' path starts, so that they are the same
    /// bits whenever they are searched (see `ball_ball_contact`).
    pub(super) fn dyn_path(&self, j: usize) -> (Aabb, Real, Vec2, Vec2) {
        let k = self.scratch.dyn_rects[j - self.nb()] as usize;
        let (a, at, v0) = self.rect_anchor[k];
        if self.scratch.mv[j].state == FROZEN {
            (a, at, Vec2::ZERO, Vec2::ZERO)
        } else {
            (a, at, v0, self.rect_acc(k))
        }
    }
}
