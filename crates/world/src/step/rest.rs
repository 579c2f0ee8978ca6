//! The step's rules for resting contacts (see `crate::body::rest` for the state and the
//! flight rule): when a bounce leaves a body resting on a face, whether a rest is kept or
//! continued, and freeing bodies whose face goes.

use crate::body::rest::acc_on;
use crate::body::rest::Rest;
use crate::body::rest::RestOn;
use crate::body::rest::REST_TIME;
use crate::body::rest::*;
use crate::model::cell::CellCoord;
use crate::world::World;
use collide_core::{Real, Vec2};

impl World {
    /// Ball `i`'s acceleration (units/s²): zero without gravity, else [`acc_on`] its rest
    /// under its own gravity ([`World::gravity_of`]: the world's times its scale).
    #[inline]
    pub(crate) fn acc_of(&self, i: usize) -> Vec2 {
        if self.config.gravity == Vec2::ZERO {
            return Vec2::ZERO;
        }
        acc_on(self.gravity_of(i), self.ball_rest[i])
    }

    /// [`World::acc_of`] in a step compiled for a world that may have gravity (`G = true`),
    /// zero in one compiled for a world without it (`G = false`, chosen only when the world's
    /// gravity is zero, where `acc_of` is zero too: the same value, with the code for
    /// gravity left out of the step; see `step/mod.rs`).
    #[inline(always)]
    pub(crate) fn acc_g<const G: bool>(&self, i: usize) -> Vec2 {
        if G {
            self.acc_of(i)
        } else {
            Vec2::ZERO
        }
    }

    /// Whether the world has gravity, in a step compiled for a world that may have it
    /// (`G = true`); `false` in one compiled for a world without it (see [`World::acc_g`]).
    #[inline(always)]
    pub(crate) fn has_gravity<const G: bool>(&self) -> bool {
        G && self.config.gravity != Vec2::ZERO
    }

    /// Whether a body under gravity `g`, leaving a face of `normal` at its centre `center`
    /// with velocity `v` (after the response, restitution `e`), comes to rest on it; `range`
    /// is the face's extent along its tangent and `on` its body. The rest, if any (see the
    /// module docs).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn rest_after_bounce(
        &self,
        g: Vec2,
        center: Vec2,
        normal: Vec2,
        v: Vec2,
        e: Real,
        range: (Real, Real),
        on: RestOn,
    ) -> Option<Rest> {
        // A slanted face holds a ball on a static shape or a slope cell (`shape_rest.rs`).
        let slanted = normal.x != 0.0 && normal.y != 0.0;
        if g == Vec2::ZERO || (slanted && !matches!(on, RestOn::Shape(..) | RestOn::Cell(_))) {
            return None;
        }
        let gn = g.dot(normal);
        let w = v.dot(normal);
        // A slanted unit normal is not exact: a response that leaves no normal velocity
        // leaves `w` within rounding of zero, of either sign (`Rest::tangential`).
        let w = if slanted && w < 0.0 && w >= -1e-12 * v.length() {
            0.0
        } else {
            w
        };
        if !(gn < 0.0 && w >= 0.0) {
            return None;
        }
        let flight = 2.0 * w / -gn;
        if !(flight < REST_TIME && (e < 1.0 || w == 0.0)) {
            return None;
        }
        let rest = Rest {
            normal,
            lo: range.0,
            hi: range.1,
            on,
        };
        let c = rest.along(center);
        (c >= rest.lo && c <= rest.hi).then_some(rest)
    }

    /// What ball `i` (currently held by its rest, if any) keeps after a velocity change to
    /// `v` by something other than its face: its rest while `v` has no normal part.
    /// A sleeping ball keeps its sleep only while `v` is zero.
    pub(crate) fn rest_kept(&self, i: usize, v: Vec2) -> Option<Rest> {
        self.ball_rest[i].filter(|r| r.kept_with(v))
    }

    /// The rest that takes over when ball `i`, held by `rest`, reaches the end of its range
    /// moving with `v` (the end it moves toward, or accelerates toward when `v` has no
    /// tangential part): the next cell's same face, or rolling over the corner
    /// (`RestOn::Edge`), or `None` (it flies free). See the module docs.
    pub(crate) fn rest_continued(&self, i: usize, rest: Rest, v: Vec2) -> Option<Rest> {
        let gravity = self.gravity_of(i);
        let forward = rest_forward(rest, v, gravity);
        if let Some(g) = &self.grid {
            let next = self.next_cell_rest(rest, forward, self.ball_kinds(i, g), 0.0);
            if next.is_some() {
                return next;
            }
        }
        if let Some(next) = self
            .next_shape_rest(self.ball_filter_at(i), rest, forward, Vec2::ZERO)
            .or_else(|| {
                let kinds = self.grid.as_ref().map(|g| self.ball_kinds(i, g))?;
                self.next_slope_rest(kinds, rest, forward, 0.0)
            })
        {
            return Some(next);
        }
        if rest.on == RestOn::Edge {
            return None;
        }
        let gn = -gravity.dot(rest.normal);
        let r = self.balls[i].radius;
        let vt = rest.along(v);
        let d = r - vt * vt / gn;
        if !(gn > 0.0 && d > 0.0) {
            return None;
        }
        Some(if forward {
            Rest {
                hi: rest.hi + d,
                on: RestOn::Edge,
                ..rest
            }
        } else {
            Rest {
                lo: rest.lo - d,
                on: RestOn::Edge,
                ..rest
            }
        })
    }

    /// The same face of the next cell along a face of a tile that holds a body by `rest` (in
    /// the direction `forward`), when it is exposed to a body colliding with `kinds`: the rest
    /// it takes over with, its range the cell's extent widened by `widen` on both sides (a
    /// box's half size: a box is held while any part of it is over the face).
    fn next_cell_rest(
        &self,
        rest: Rest,
        forward: bool,
        kinds: crate::model::filter::CellKinds,
        widen: Real,
    ) -> Option<Rest> {
        let (RestOn::Cell(c), Some(g)) = (rest.on, &self.grid) else {
            return None;
        };
        let t = 1 - rest.axis();
        let (col, row) = (i64::from(c.col), i64::from(c.row));
        let step = if forward { 1 } else { -1 };
        let (nc, nr) = if t == 0 {
            (col + step, row)
        } else {
            (col, row + step)
        };
        if !(nc >= 0 && nr >= 0 && (nc as usize) < g.cols() && (nr as usize) < g.rows()) {
            return None;
        }
        let next = CellCoord::new(nc as u32, nr as u32);
        let face = collide_core::Face::ALL
            .into_iter()
            .find(|f| f.normal() == rest.normal)?;
        if !g.features_for(next, kinds).contains(face.bit()) {
            return None;
        }
        let b = g.cell_aabb(next);
        Some(Rest {
            lo: b.min[t] - widen,
            hi: b.max[t] + widen,
            on: RestOn::Cell(next),
            ..rest
        })
    }

    /// The rest that takes over when dynamic rectangle `k`, held by `rest`, reaches the end of
    /// its range moving with `v`: the next cell's same face, or the next slope cell's diagonal
    /// on the same line, or a shape's face on the same line (see [`World::rest_continued`]),
    /// or `None`: a box has no rounded edge to roll over, it flies free as soon as no part of
    /// it is over the face (on a slanted face: as soon as its touching corner is past the
    /// face's end).
    pub(crate) fn rect_rest_continued(&self, k: usize, rest: Rest, v: Vec2) -> Option<Rest> {
        let forward = rest_forward(rest, v, self.config.gravity);
        let rc = &self.rects[k];
        if let RestOn::Shape(..) = rest.on {
            let half = rc.aabb.half_extents();
            return self.next_shape_rest(rc.surface.filter, rest, forward, half);
        }
        let g = self.grid.as_ref()?;
        let kinds = g.kinds_for(rc.surface.filter);
        if !rest.aligned() {
            let shift =
                crate::step::shape_rest::box_ramp_shift(rest.normal, rc.aabb.half_extents());
            return self.next_slope_rest(kinds, rest, forward, shift);
        }
        let widen = rc.aabb.half_extents()[1 - rest.axis()];
        self.next_cell_rest(rest, forward, kinds, widen)
    }

    /// Starts ball `i`'s path again at the world's current time from where it is, with the
    /// velocity it has, free of its rest (between steps: predictions are made again).
    pub(crate) fn free_ball_now(&mut self, i: usize) {
        let acc = self.acc_of(i);
        let b = &mut self.balls[i];
        b.anchor = b.pos_at(self.time, acc);
        b.v0 = b.vel_at(self.time, acc);
        b.anchor_time = self.time;
        self.ball_rest[i] = None;
        self.scratch.valid = false;
    }

    /// Frees every resting ball whose face belongs to a body `gone` says is gone (a brick
    /// destroyed, a rectangle moved or removed), from the world's current time between steps.
    /// Every sleeping ball wakes too (`sleep.rs`): the edit may take away what held it.
    pub(crate) fn free_rests_between_steps(&mut self, gone: impl Fn(&RestOn) -> bool) {
        if self.config.gravity == Vec2::ZERO {
            return;
        }
        for i in 0..self.balls.len() {
            if self.ball_rest[i].is_some_and(|r| gone(&r.on) || r.on == RestOn::Asleep) {
                self.free_ball_now(i);
            }
        }
        for k in 0..self.rects.len() {
            if self.rect_rest[k].is_some_and(|r| gone(&r.on) || r.on == RestOn::Asleep) {
                self.rebase_rect(k, self.time);
                self.scratch.valid = false;
            }
        }
    }
}
