//! The fixed step: exact, event-driven continuous collision detection within `dt`.
//!
//! # Algorithm
//! Within one step every moving body (ball or dynamic rectangle, a *mover*) follows its exact
//! piecewise-linear path. Each mover predicts its next event before the end of the step: the
//! earliest contact with an exposed tile feature, a closed wall, a static or kinematic
//! rectangle (swept in the relative frame), another mover (ball–ball when enabled), or leaving
//! through an open side. Predictions go into one priority queue ordered by (time, mover index).
//! The earliest is popped, both bodies are advanced to that instant, the response is applied,
//! and only the bodies involved predict again. This is the event-driven scheme of hard-disc
//! molecular dynamics (D. C. Rapaport, J. Comput. Phys. 34, 1980; B. D. Lubachevsky,
//! J. Comput. Phys. 94, 1991, "lazy" per-body times) with the step's end as horizon.
//!
//! The queue holds one entry per mover, replaced by each new prediction (`queue.rs`). A pair
//! prediction records its partner's `motion` counter (bumped whenever the partner's velocity
//! changes) and is void when it changed; the mover then predicts again from that instant. A prediction aimed at a brick
//! that another body destroyed first is void the same way. Destroying a brick can only remove
//! obstacles, and the features it exposes lie inside the destroyed cell's grown region, so no
//! other prediction can become too late.
//!
//! Contact at start follows Bannerman et al. (2014): touching and approaching is a collision at
//! once, touching and separating is none. With that, rounding can neither tunnel a body nor
//! stick it: no tolerance band, no random nudge (seed 000's problem 2).
//!
//! Determinism: the queue order is total (time, then mover index),
//! bodies are visited in storage order, and only `+ - * / sqrt` are used.

use crate::broad::CellLists;
use crate::desc::{Cell, RectKind};
use crate::event::{Body, Event, Side};
use crate::grid::CellCoord;
use crate::queue::EventQueue;
use crate::world::World;
use collide_core::{
    collide_elastic, reflect, reflect_relative, sweep_aabb_aabb, sweep_circle_aabb,
    sweep_circle_circle, sweep_circle_half_plane, Aabb, Feature, Features, Real, SweepHit, Vec2,
};

const ACTIVE: u8 = 0;
const FROZEN: u8 = 1;
const DEAD: u8 = 2;

#[derive(Clone, Copy, Debug, PartialEq)]
enum PTarget {
    Cell(CellCoord),
    Wall(Side),
    Lost(Side),
    /// A static or kinematic rectangle (dense index).
    Rect(u32),
    /// Another mover.
    Mover(u32),
    /// Leaving the broad-phase cell for cell `.0` (no velocity change).
    Cross(u32),
    /// Nothing before the prediction's horizon: predict again then.
    Horizon,
}

#[derive(Clone, Copy, Debug)]
struct Prediction {
    /// Absolute time of the event (balls: anchor time + `toi_anchor`).
    time: Real,
    /// Balls: time of impact measured from the ball's anchor.
    toi_anchor: Real,
    target: PTarget,
    normal: Vec2,
    point: Vec2,
    feature: Feature,
    partner_motion: u32,
}

/// The TC rule's window in steps (see `resolve`).
const TC_STEPS: Real = 1e-4;

/// How far beyond the end of the current step a prediction looks, in steps, when the world
/// is left alone between steps (predictions then live on across steps).
const LOOKAHEAD_STEPS: Real = 8.0;

/// The event machinery, kept in the world between steps: every mover's latest prediction and
/// the queue of them live on from step to step while nothing outside the step changes the
/// world; any edit (a body added, moved or removed, a cell or a setting changed) sets `valid`
/// to false and the next step predicts everything again. Reused buffers: steady-state steps do
/// not allocate.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scratch {
    /// The structures below match the world.
    pub(crate) valid: bool,
    /// Consecutive steps that had to start by predicting everything again.
    rebuilds: u32,
    /// Absolute time of each mover's current state.
    t: Vec<Real>,
    /// Absolute time of each mover's last collision (for the TC rule).
    last_hit: Vec<Real>,
    motion: Vec<u32>,
    count: Vec<u32>,
    state: Vec<u8>,
    next: Vec<Option<Prediction>>,
    queue: EventQueue,
    /// Dense indices of the dynamic rectangles; mover `nb + k` is `rects[dyn_rects[k]]`.
    dyn_rects: Vec<u32>,
    bp: CellLists,
    use_bp: bool,
    /// Cell crossings per mover this step (bounded like collisions, to rule out any loop).
    crossings: Vec<u32>,
    /// Largest ball radius this step (for the rectangles' broad-phase queries).
    max_radius: Real,
    /// Scratch list of candidate movers.
    cand: Vec<u32>,
    dead_balls: Vec<usize>,
    dead_rects: Vec<usize>,
    /// Movers to predict again at the start of the next step: stopped at the iteration
    /// bound, or with nothing to do before the end of this step.
    frozen: Vec<u32>,
    /// Absolute times of the step's start and end, and the predictions' horizon.
    t0: Real,
    t1: Real,
    cap: Real,
}

/// A mover's shape and state at its own time.
#[derive(Clone, Copy)]
enum Shape {
    Circle { pos: Vec2, radius: Real },
    Box { aabb: Aabb },
}

impl World {
    /// Advances the world by exactly one fixed step of `config().dt` seconds and returns the
    /// step's events (also available from [`World::events`] until the next step).
    ///
    /// 1. Bodies that start embedded (inside a tile or rectangle, or outside a closed wall) are
    ///    moved to the nearest free position ([`Event::Unembedded`]).
    /// 2. Every ball and dynamic rectangle follows its exact path with continuous collision
    ///    detection, bouncing at the exact times of impact, in global time order, as often as
    ///    it hits (at most [`crate::StepConfig::max_events_per_body`] times; past that it stops
    ///    for the rest of the step and [`Event::IterationLimit`] is reported). Kinematic
    ///    rectangles move by `vel·dt`. Bricks are destroyed by their first hit when
    ///    destructible. Bodies that leave through an open side are removed.
    ///
    /// Never panics; the result depends only on the state and settings (bit-identical on every
    /// run and platform).
    pub fn step(&mut self) -> &[Event] {
        self.events.clear();
        self.resolve_embedded();
        self.run_events();
        self.steps += 1;
        &self.events
    }

    fn nb(&self) -> usize {
        self.balls.len()
    }

    fn shape_of(&self, m: usize) -> (Shape, Vec2) {
        let nb = self.nb();
        if m < nb {
            let b = &self.balls[m];
            (
                Shape::Circle {
                    pos: b.pos,
                    radius: b.radius,
                },
                b.vel,
            )
        } else {
            let r = &self.rects[self.scratch.dyn_rects[m - nb] as usize];
            (Shape::Box { aabb: r.aabb }, r.vel)
        }
    }

    fn mass_of(&self, m: usize) -> Real {
        let nb = self.nb();
        if m < nb {
            self.balls[m].mass()
        } else {
            self.rects[self.scratch.dyn_rects[m - nb] as usize].mass()
        }
    }

    /// Gives mover `m` a new velocity at absolute time `abs` (a ball's path is re-anchored at
    /// its current position).
    fn set_vel(&mut self, m: usize, v: Vec2, abs: Real) {
        let nb = self.nb();
        if m < nb {
            self.balls[m].vel = v;
            self.anchors[m] = crate::world::Anchor {
                pos: self.balls[m].pos,
                time: abs,
            };
        } else {
            let k = self.scratch.dyn_rects[m - nb] as usize;
            self.rects[k].vel = v;
        }
        self.scratch.motion[m] = self.scratch.motion[m].wrapping_add(1);
    }

    fn body_of(&self, m: usize) -> Body {
        let nb = self.nb();
        if m < nb {
            Body::Ball(self.balls[m].id)
        } else {
            Body::Rect(self.rects[self.scratch.dyn_rects[m - nb] as usize].id)
        }
    }

    /// Moves mover `m` along its velocity to absolute time `t`. A ball's position is computed
    /// from its anchor. No-op for a frozen or dead mover.
    fn advance(&mut self, m: usize, t: Real) {
        let s = &mut self.scratch;
        let dtm = t - s.t[m];
        if s.state[m] == ACTIVE && dtm > 0.0 {
            let nb = self.balls.len();
            if m < nb {
                let a = self.anchors[m];
                let b = &mut self.balls[m];
                b.pos = a.pos + b.vel * (t - a.time);
            } else {
                let r = &mut self.rects[s.dyn_rects[m - nb] as usize];
                r.aabb = r.aabb.translated(r.vel * dtm);
            }
        }
        if dtm > 0.0 {
            s.t[m] = t;
        }
    }

    /// Mover `j`'s shape at time `t` and its velocity, a frozen mover staying where it stopped.
    fn moving_shape_at(&self, j: usize, t: Real) -> (Shape, Vec2) {
        if self.scratch.state[j] == FROZEN {
            (self.shape_of(j).0, Vec2::ZERO)
        } else {
            self.shape_at(j, t)
        }
    }

    /// Mover `j`'s shape at time `t` (extrapolated from its own time).
    fn shape_at(&self, j: usize, t: Real) -> (Shape, Vec2) {
        let (shape, v) = self.shape_of(j);
        let d = t - self.scratch.t[j];
        let shape = match shape {
            Shape::Circle { pos, radius } => Shape::Circle {
                pos: pos + v * d,
                radius,
            },
            Shape::Box { aabb } => Shape::Box {
                aabb: aabb.translated(v * d),
            },
        };
        (shape, v)
    }

    /// Predicts everything again: the movers' list, their broad-phase cells and every
    /// mover's next event, from the step's start.
    fn rebuild(&mut self) {
        let nb = self.balls.len();
        let t0 = self.scratch.t0;
        let mut s = std::mem::take(&mut self.scratch);
        s.dyn_rects.clear();
        for (k, r) in self.rects.iter().enumerate() {
            if r.kind == RectKind::Dynamic {
                s.dyn_rects.push(k as u32);
            }
        }
        let n = nb + s.dyn_rects.len();
        s.t.clear();
        s.t.resize(n, t0);
        s.last_hit.clear();
        s.last_hit.resize(n, Real::NEG_INFINITY);
        s.motion.clear();
        s.motion.resize(n, 0);
        s.state.clear();
        s.state.resize(n, ACTIVE);
        s.next.clear();
        s.next.resize(n, None);
        s.queue.reset(n);
        s.frozen.clear();
        s.use_bp = n > 1 && (self.config.ball_ball || !s.dyn_rects.is_empty());
        let mut max_radius: Real = 0.0;
        for b in &self.balls {
            max_radius = max_radius.max(b.radius);
        }
        s.max_radius = max_radius;
        self.scratch = s;
        if self.scratch.use_bp {
            // Cells at least one largest diameter wide (touching balls are neighbours).
            let area = self.size.x * self.size.y;
            let spacing = (area / nb.max(1) as Real).sqrt();
            // 0.6 × the mean spacing measured best on the arena (callgrind, 10k balls at 60 and
            // 3000 units/s): fewer candidates per prediction outweigh the extra crossings.
            let size = (2.0 * max_radius * (1.0 + 1e-6) + 1e-9).max(0.6 * spacing);
            let bounds = Aabb::new(Vec2::ZERO, self.size);
            self.scratch.bp.reset(bounds, size, n);
            for m in 0..nb {
                let c = self.scratch.bp.cell_at(self.balls[m].pos);
                self.scratch.bp.insert(m, c);
            }
        }
        for m in 0..n {
            self.predict(m);
        }
        self.scratch.valid = true;
    }

    fn run_events(&mut self) {
        let dt = self.config.dt;
        self.scratch.t0 = self.time;
        self.scratch.t1 = self.time + dt;
        if let Some(g) = &mut self.grid {
            g.refresh_clearance();
        }
        // While the world is left alone, predictions reach a few steps ahead and live on;
        // a world edited every step (a paddle moved by a game) predicts one step at a time.
        let fresh = !self.scratch.valid;
        self.scratch.rebuilds = if fresh {
            self.scratch.rebuilds.saturating_add(1)
        } else {
            0
        };
        let lookahead = if self.scratch.rebuilds > 1 {
            0.0
        } else {
            LOOKAHEAD_STEPS * dt
        };
        self.scratch.cap = self.scratch.t1 + lookahead;
        let n_now = self.balls.len()
            + self
                .rects
                .iter()
                .filter(|r| r.kind == RectKind::Dynamic)
                .count();
        if fresh || self.scratch.t.len() != n_now {
            self.rebuild();
        } else {
            // Movers stopped at the bound last step resume from where they stopped; movers
            // that had nothing to do look again.
            let mut frozen = std::mem::take(&mut self.scratch.frozen);
            for &m in &frozen {
                let m = m as usize;
                if self.scratch.state[m] == DEAD {
                    continue;
                }
                self.scratch.state[m] = ACTIVE;
                self.scratch.t[m] = self.scratch.t0;
                self.predict(m);
            }
            // Keep the movers that asked to look again at the next step (allocation-free swap).
            frozen.clear();
            frozen.append(&mut self.scratch.frozen);
            self.scratch.frozen = frozen;
        }
        let n = self.scratch.t.len();
        let nb = self.balls.len();
        self.scratch.count.clear();
        self.scratch.count.resize(n, 0);
        self.scratch.crossings.clear();
        self.scratch.crossings.resize(n, 0);
        self.scratch.dead_balls.clear();
        self.scratch.dead_rects.clear();
        let t1 = self.scratch.t1;
        while let Some((m, time)) = self.scratch.queue.peek() {
            if time > t1 {
                break;
            }
            // Every path below replaces the mover's entry (a new prediction) or removes it.
            if self.scratch.state[m] != ACTIVE {
                self.scratch.queue.remove(m);
                continue;
            }
            let Some(pred) = self.scratch.next[m] else {
                self.scratch.queue.remove(m);
                continue;
            };
            let valid = match pred.target {
                PTarget::Mover(j) => {
                    let j = j as usize;
                    self.scratch.state[j] != DEAD && self.scratch.motion[j] == pred.partner_motion
                }
                PTarget::Cell(c) => self
                    .grid
                    .as_ref()
                    .is_some_and(|g| g.feature_exists(c, pred.feature)),
                PTarget::Horizon => false,
                _ => true,
            };
            self.advance(m, pred.time);
            if valid {
                self.resolve(m, pred);
            } else {
                self.predict(m);
            }
        }
        for m in 0..n {
            self.advance(m, t1);
            if self.scratch.state[m] == FROZEN {
                self.scratch.t[m] = t1;
                if m < nb {
                    // A stopped ball resumes its path from here at the next step.
                    self.anchors[m] = crate::world::Anchor {
                        pos: self.balls[m].pos,
                        time: t1,
                    };
                }
            }
        }
        self.time = t1;
        for r in &mut self.rects {
            if r.kind == RectKind::Kinematic {
                r.aabb = r.aabb.translated(r.vel * dt);
            }
        }
        // Remove the lost bodies, highest dense index first so that indices stay valid.
        let mut s = std::mem::take(&mut self.scratch);
        for m in 0..n {
            if s.state[m] == DEAD {
                if m < nb {
                    s.dead_balls.push(m);
                } else {
                    s.dead_rects.push(s.dyn_rects[m - nb] as usize);
                }
            }
        }
        s.dead_rects.sort_unstable();
        for &i in s.dead_balls.iter().rev() {
            let id = self.balls[i].id;
            self.remove_ball(id);
        }
        for &i in s.dead_rects.iter().rev() {
            let id = self.rects[i].id;
            self.remove_rect(id);
        }
        if !s.dead_balls.is_empty() || !s.dead_rects.is_empty() {
            // Dense indices moved: predict everything again next step.
            s.valid = false;
        }
        self.scratch = s;
    }

    /// Predicts mover `m`'s next event from its current time and queues it.
    fn predict(&mut self, m: usize) {
        // All times are absolute; `s_t` is the mover's current time.
        let s_t = self.scratch.t[m];
        let cap = self.scratch.cap;
        let horizon = cap - s_t;
        self.scratch.next[m] = None;
        if self.scratch.state[m] != ACTIVE || !(horizon >= 0.0) {
            self.scratch.queue.remove(m);
            return;
        }
        let t0 = self.scratch.t0;
        let nb = self.nb();
        let (shape, v) = self.shape_of(m);
        let mut best: Option<(Real, PTarget, SweepHit, u32)> = None;
        let take = |toi: Real,
                    target: PTarget,
                    hit: SweepHit,
                    pm: u32,
                    best: &mut Option<(Real, PTarget, SweepHit, u32)>,
                    limit: &mut Real| {
            if toi <= *limit && best.is_none_or(|b| toi < b.0) {
                *best = Some((toi, target, hit, pm));
                *limit = toi;
            }
        };
        // Sweep times are measured from `origin` (absolute): a ball's anchor for static
        // geometry, so that its impact times do not depend on the step size; moving things are
        // swept from the current position, `base` later.
        let (origin, base, mut limit) = match shape {
            Shape::Circle { .. } => {
                let a = self.anchors[m];
                let base = (s_t - a.time).max(0.0);
                (a.time, base, cap - a.time)
            }
            Shape::Box { .. } => (s_t, 0.0, horizon),
        };
        let no_hit = |toi: Real, point: Vec2| SweepHit {
            toi,
            normal: Vec2::ZERO,
            point,
            feature: Feature::Circle,
        };
        if self.scratch.use_bp && m < nb {
            // Leaving the broad-phase cell ends the prediction's horizon.
            let Shape::Circle { pos, .. } = shape else {
                unreachable!()
            };
            let c = self.scratch.bp.cell_of(m);
            let b = self.scratch.bp.cell_box(c);
            let tx = if v.x > 0.0 {
                (b.max.x - pos.x) / v.x
            } else if v.x < 0.0 {
                (b.min.x - pos.x) / v.x
            } else {
                Real::INFINITY
            };
            let ty = if v.y > 0.0 {
                (b.max.y - pos.y) / v.y
            } else if v.y < 0.0 {
                (b.min.y - pos.y) / v.y
            } else {
                Real::INFINITY
            };
            let tc = tx.min(ty).max(0.0);
            if tc.is_finite() {
                let dx = if tx <= ty && v.x != 0.0 {
                    v.x.signum() as i32
                } else {
                    0
                };
                let dy = if ty <= tx && v.y != 0.0 {
                    v.y.signum() as i32
                } else {
                    0
                };
                let nc = self.scratch.bp.step_cell(c, dx, dy);
                take(
                    base + tc,
                    PTarget::Cross(nc),
                    no_hit(base + tc, pos + v * tc),
                    0,
                    &mut best,
                    &mut limit,
                );
            }
        }
        match shape {
            Shape::Circle { pos, radius } => {
                let a = self.anchors[m];
                let reach = radius + v.length() * (limit - base);
                if let Some(g) = &self.grid {
                    if g.clearance(pos) <= reach * (1.0 + 1e-9) + 1e-9 {
                        if let Some(gh) = g.sweep_circle_between(a.pos, radius, v, base, limit) {
                            take(
                                gh.hit.toi,
                                PTarget::Cell(gh.cell),
                                gh.hit,
                                0,
                                &mut best,
                                &mut limit,
                            );
                        }
                    }
                }
                let near_edge = pos.x - reach <= 0.0
                    || pos.y - reach <= 0.0
                    || pos.x + reach >= self.size.x
                    || pos.y + reach >= self.size.y;
                if near_edge {
                    for (side, face) in self.wall_faces() {
                        if let Some(h) = sweep_circle_half_plane(a.pos, radius, v, limit, &face) {
                            take(
                                h.toi.max(base),
                                PTarget::Wall(side),
                                h,
                                0,
                                &mut best,
                                &mut limit,
                            );
                        }
                    }
                    if let Some((toi, side)) =
                        self.loss_time(&Aabb::new(a.pos - radius, a.pos + radius), v, limit)
                    {
                        take(
                            toi.max(base),
                            PTarget::Lost(side),
                            no_hit(toi, a.pos + v * toi),
                            0,
                            &mut best,
                            &mut limit,
                        );
                    }
                }
                let reach_box = Aabb::new(pos - reach, pos + reach);
                for (k, rc) in self.rects.iter().enumerate() {
                    match rc.kind {
                        RectKind::Static => {
                            if !collide_core::aabb_overlaps_aabb(&reach_box.grown(1e-9), &rc.aabb) {
                                continue;
                            }
                            if let Some(h) =
                                sweep_circle_aabb(a.pos, radius, v, limit, &rc.aabb, Features::ALL)
                            {
                                take(
                                    h.toi.max(base),
                                    PTarget::Rect(k as u32),
                                    h,
                                    0,
                                    &mut best,
                                    &mut limit,
                                );
                            }
                        }
                        RectKind::Kinematic => {
                            let aabb = rc.aabb.translated(rc.vel * (s_t - t0));
                            let u = rc.vel;
                            if let Some(mut h) = sweep_circle_aabb(
                                pos,
                                radius,
                                v - u,
                                limit - base,
                                &aabb,
                                Features::ALL,
                            ) {
                                h.point += u * h.toi;
                                take(
                                    base + h.toi,
                                    PTarget::Rect(k as u32),
                                    h,
                                    0,
                                    &mut best,
                                    &mut limit,
                                );
                            }
                        }
                        RectKind::Dynamic => {}
                    }
                }
                // Dynamic rectangles (few): every one, from its current state.
                for k in 0..self.scratch.dyn_rects.len() {
                    let j = nb + k;
                    if self.scratch.state[j] == DEAD {
                        continue;
                    }
                    let (other, u) = self.moving_shape_at(j, s_t);
                    let Shape::Box { aabb } = other else { continue };
                    if let Some(mut h) =
                        sweep_circle_aabb(pos, radius, v - u, limit - base, &aabb, Features::ALL)
                    {
                        h.point += u * h.toi;
                        take(
                            base + h.toi,
                            PTarget::Mover(j as u32),
                            h,
                            self.scratch.motion[j],
                            &mut best,
                            &mut limit,
                        );
                    }
                }
                // Other balls: the 3×3 cells around this one.
                if self.scratch.use_bp && self.config.ball_ball {
                    let sc = &self.scratch;
                    let balls = &self.balls;
                    sc.bp.for_each_neighbour(sc.bp.cell_of(m), |j| {
                        if j == m || sc.state[j] != ACTIVE {
                            return;
                        }
                        let bj = &balls[j];
                        let pj = bj.pos + bj.vel * (s_t - sc.t[j]);
                        if let Some(h) =
                            sweep_circle_circle(pos, radius, v, pj, bj.radius, bj.vel, limit - base)
                        {
                            take(
                                base + h.toi,
                                PTarget::Mover(j as u32),
                                h,
                                sc.motion[j],
                                &mut best,
                                &mut limit,
                            );
                        }
                    });
                }
            }
            Shape::Box { aabb } => {
                if let Some(g) = &self.grid {
                    if let Some(gh) = g.sweep_aabb(&aabb, v, limit) {
                        take(
                            gh.hit.toi,
                            PTarget::Cell(gh.cell),
                            gh.hit,
                            0,
                            &mut best,
                            &mut limit,
                        );
                    }
                }
                for (side, h) in self.box_wall_hits(&aabb, v, limit) {
                    take(h.toi, PTarget::Wall(side), h, 0, &mut best, &mut limit);
                }
                if let Some((toi, side)) = self.loss_time(&aabb, v, limit) {
                    take(
                        toi,
                        PTarget::Lost(side),
                        no_hit(toi, aabb.center() + v * toi),
                        0,
                        &mut best,
                        &mut limit,
                    );
                }
                for (k, rc) in self.rects.iter().enumerate() {
                    let (other, u) = match rc.kind {
                        RectKind::Static => (rc.aabb, Vec2::ZERO),
                        RectKind::Kinematic => (rc.aabb.translated(rc.vel * (s_t - t0)), rc.vel),
                        RectKind::Dynamic => continue,
                    };
                    if let Some(h) = sweep_aabb_aabb(&aabb, v, &other, u, limit) {
                        take(h.toi, PTarget::Rect(k as u32), h, 0, &mut best, &mut limit);
                    }
                }
                for k in 0..self.scratch.dyn_rects.len() {
                    let j = nb + k;
                    if j == m || self.scratch.state[j] == DEAD {
                        continue;
                    }
                    let (other, u) = self.moving_shape_at(j, s_t);
                    let Shape::Box { aabb: bj } = other else {
                        continue;
                    };
                    if let Some(h) = sweep_aabb_aabb(&aabb, v, &bj, u, limit) {
                        take(
                            h.toi,
                            PTarget::Mover(j as u32),
                            h,
                            self.scratch.motion[j],
                            &mut best,
                            &mut limit,
                        );
                    }
                }
                if self.scratch.use_bp && nb > 0 {
                    // Balls in the cells this box can reach before the step ends.
                    let q = aabb.grown(v.length() * horizon + self.scratch.max_radius + 1e-9);
                    let mut cand = std::mem::take(&mut self.scratch.cand);
                    self.scratch.bp.query_box(&q);
                    cand.clear();
                    cand.extend_from_slice(&self.scratch.bp.out);
                    for &j in &cand {
                        let j = j as usize;
                        if self.scratch.state[j] != ACTIVE {
                            continue;
                        }
                        let bj = &self.balls[j];
                        let pj = bj.pos + bj.vel * (s_t - self.scratch.t[j]);
                        if let Some(mut h) = sweep_circle_aabb(
                            pj,
                            bj.radius,
                            bj.vel - v,
                            limit,
                            &aabb,
                            Features::ALL,
                        ) {
                            h.point += v * h.toi;
                            h.normal = -h.normal;
                            take(
                                h.toi,
                                PTarget::Mover(j as u32),
                                h,
                                self.scratch.motion[j],
                                &mut best,
                                &mut limit,
                            );
                        }
                    }
                    self.scratch.cand = cand;
                }
            }
        }
        let (time, toi, target, hit, pm) = match best {
            Some((toi, target, hit, pm)) => ((origin + toi).max(s_t), toi, target, hit, pm),
            // Nothing before a horizon that ends with this step: look again at the next step.
            None if cap <= self.scratch.t1 => {
                self.scratch.queue.remove(m);
                self.scratch.frozen.push(m as u32);
                return;
            }
            // Nothing before the horizon: look again from there.
            None => (
                cap,
                cap - origin,
                PTarget::Horizon,
                no_hit(0.0, Vec2::ZERO),
                0,
            ),
        };
        let pred = Prediction {
            time,
            toi_anchor: toi,
            target,
            normal: hit.normal,
            point: hit.point,
            feature: hit.feature,
            partner_motion: pm,
        };
        let s = &mut self.scratch;
        s.next[m] = Some(pred);
        s.queue.set(m, time);
    }

    /// When a box (a body's bounds) moving with `v` is entirely outside an open side, within
    /// `limit`: `(toi, side)`; toi = 0 if it already is.
    fn loss_time(&self, b: &Aabb, v: Vec2, limit: Real) -> Option<(Real, Side)> {
        let w = self.walls;
        let mut best: Option<(Real, Side)> = None;
        let mut consider = |open: bool, dist: Real, speed: Real, side: Side| {
            // `dist`: how far the body still has to go to be out; `speed`: its speed outward.
            if !open {
                return;
            }
            let t = if dist <= 0.0 {
                0.0
            } else if speed > 0.0 {
                dist / speed
            } else {
                return;
            };
            if t <= limit && best.is_none_or(|bst| t < bst.0) {
                best = Some((t, side));
            }
        };
        consider(!w.left, b.max.x, -v.x, Side::Left);
        consider(!w.top, b.max.y, -v.y, Side::Top);
        consider(!w.right, self.size.x - b.min.x, v.x, Side::Right);
        consider(!w.bottom, self.size.y - b.min.y, v.y, Side::Bottom);
        best
    }

    /// Hits of a moving box against the closed walls within `limit` (box inside the world).
    fn box_wall_hits(
        &self,
        b: &Aabb,
        v: Vec2,
        limit: Real,
    ) -> impl Iterator<Item = (Side, SweepHit)> {
        let w = self.walls;
        let size = self.size;
        let mut out: [Option<(Side, SweepHit)>; 4] = [None; 4];
        let mk = |closed: bool,
                  gap: Real,
                  speed: Real,
                  side: Side,
                  normal: Vec2|
         -> Option<(Side, SweepHit)> {
            // `gap`: distance from the box to the wall (negative: already past it, a wall is a
            // solid half-plane); `speed` > 0: approaching.
            if !closed || !(speed > 0.0) {
                return None;
            }
            let toi = gap.max(0.0) / speed;
            (toi <= limit).then(|| {
                let c = b.center() + v * toi;
                let point = match side {
                    Side::Left => Vec2::new(0.0, c.y),
                    Side::Right => Vec2::new(size.x, c.y),
                    Side::Top => Vec2::new(c.x, 0.0),
                    Side::Bottom => Vec2::new(c.x, size.y),
                };
                (
                    side,
                    SweepHit {
                        toi,
                        normal,
                        point,
                        feature: Feature::Circle,
                    },
                )
            })
        };
        out[0] = mk(w.left, b.min.x, -v.x, Side::Left, Vec2::X);
        out[1] = mk(w.top, b.min.y, -v.y, Side::Top, Vec2::Y);
        out[2] = mk(w.right, size.x - b.max.x, v.x, Side::Right, Vec2::NEG_X);
        out[3] = mk(w.bottom, size.y - b.max.y, v.y, Side::Bottom, Vec2::NEG_Y);
        out.into_iter().flatten()
    }

    /// Applies the response of mover `m`'s predicted event (already advanced to its time).
    fn resolve(&mut self, m: usize, pred: Prediction) {
        let nb = self.nb();
        // The TC rule (S. Luding, S. McNamara, "How to handle the inelastic collapse of a
        // dissipative hard-sphere gas with the TC model", Granular Matter 1, 1998): a body hit
        // again within `TC_STEPS·dt` of its last collision bounces elastically, so a ball
        // squeezed between a wall and a heavy ball cannot collapse into infinitely many ever
        // weaker bounces. With restitution 1 (the default) this changes nothing.
        let tc = TC_STEPS * self.config.dt;
        let t_hit = pred.time;
        let recent = |k: usize| t_hit - self.scratch.last_hit[k] < tc;
        let partner_recent = match pred.target {
            PTarget::Mover(j) => recent(j as usize),
            _ => false,
        };
        let e = if recent(m) || partner_recent {
            1.0
        } else {
            self.config.restitution
        };
        let (_, v) = self.shape_of(m);
        let me = self.body_of(m);
        let t = pred.time;
        // Event times are reported from the start of the step.
        let toi = t - self.scratch.t0;
        let n = pred.normal;
        let is_ball = m < nb;
        if is_ball {
            // The contact position, from the anchor exactly as the impact time was solved.
            self.balls[m].pos = self.anchors[m].pos + v * pred.toi_anchor;
        }
        // Boxes reflect per axis (a corner-to-corner hit flips both components).
        let reflect_box = |v: Vec2, u: Vec2| -> Vec2 {
            let mut out = v;
            if n.x != 0.0 {
                out = reflect_relative(out, u, Vec2::new(n.x.signum(), 0.0), e);
            }
            if n.y != 0.0 {
                out = reflect_relative(out, u, Vec2::new(0.0, n.y.signum()), e);
            }
            out
        };
        let mut partner: Option<usize> = None;
        match pred.target {
            PTarget::Horizon => {
                self.predict(m);
                return;
            }
            PTarget::Cross(cell) => {
                // No velocity change: only the broad-phase cell changes.
                self.scratch.bp.remove(m);
                self.scratch.bp.insert(m, cell);
                self.scratch.crossings[m] += 1;
                let bound = self
                    .config
                    .max_events_per_body
                    .saturating_mul(64)
                    .saturating_add(4096);
                if self.scratch.crossings[m] > bound {
                    self.freeze(m, t);
                } else {
                    self.predict(m);
                }
                return;
            }
            PTarget::Lost(side) => {
                self.scratch.state[m] = DEAD;
                self.scratch.queue.remove(m);
                if self.scratch.use_bp && m < nb {
                    self.scratch.bp.remove(m);
                }
                self.events.push(match me {
                    Body::Ball(ball) => Event::BallLost { ball, side, toi },
                    Body::Rect(rect) => Event::RectLost { rect, side, toi },
                });
                self.scratch.motion[m] = self.scratch.motion[m].wrapping_add(1);
                return;
            }
            PTarget::Cell(c) => {
                let nv = if is_ball {
                    reflect(v, n, e)
                } else {
                    reflect_box(v, Vec2::ZERO)
                };
                self.set_vel(m, nv, t);
                self.events.push(match me {
                    Body::Ball(ball) => Event::BallTile {
                        ball,
                        cell: c,
                        point: pred.point,
                        normal: n,
                        toi,
                        feature: pred.feature,
                    },
                    Body::Rect(rect) => Event::RectTile {
                        rect,
                        cell: c,
                        point: pred.point,
                        normal: n,
                        toi,
                    },
                });
                if self.config.destructible_bricks {
                    if let Some(g) = &mut self.grid {
                        if let Cell::Brick(kind) = g.cell(c) {
                            g.set_cell(c, Cell::Empty);
                            self.events.push(Event::BrickDestroyed {
                                cell: c,
                                kind,
                                by: me,
                                toi,
                            });
                        }
                    }
                }
            }
            PTarget::Wall(side) => {
                let nv = if is_ball {
                    reflect(v, n, e)
                } else {
                    reflect_box(v, Vec2::ZERO)
                };
                self.set_vel(m, nv, t);
                self.events.push(match me {
                    Body::Ball(ball) => Event::BallWall {
                        ball,
                        side,
                        point: pred.point,
                        normal: n,
                        toi,
                    },
                    Body::Rect(rect) => Event::RectWall {
                        rect,
                        side,
                        normal: n,
                        toi,
                    },
                });
            }
            PTarget::Rect(k) => {
                let rc = self.rects[k as usize];
                let nv = if is_ball {
                    reflect_relative(v, rc.vel, n, e)
                } else {
                    reflect_box(v, rc.vel)
                };
                self.set_vel(m, nv, t);
                self.events.push(match me {
                    Body::Ball(ball) => Event::BallRect {
                        ball,
                        rect: rc.id,
                        point: pred.point,
                        normal: n,
                        toi,
                    },
                    Body::Rect(rect) => Event::RectRect {
                        a: rect,
                        b: rc.id,
                        point: pred.point,
                        normal: n,
                        toi,
                    },
                });
            }
            PTarget::Mover(j) => {
                let j = j as usize;
                self.advance(j, t);
                let (_, vj) = self.shape_of(j);
                let frozen = self.scratch.state[j] == FROZEN;
                // A body stopped at the iteration bound is an immovable obstacle at rest for
                // the rest of the step.
                let (vj, mj) = if frozen {
                    (Vec2::ZERO, Real::INFINITY)
                } else {
                    (vj, self.mass_of(j))
                };
                let mi = self.mass_of(m);
                let (nv, nvj) = if is_ball || j < nb {
                    collide_elastic(mi, v, mj, vj, n, e)
                } else {
                    let mut a = (v, vj);
                    if n.x != 0.0 {
                        a = collide_elastic(mi, a.0, mj, a.1, Vec2::new(n.x.signum(), 0.0), e);
                    }
                    if n.y != 0.0 {
                        a = collide_elastic(mi, a.0, mj, a.1, Vec2::new(0.0, n.y.signum()), e);
                    }
                    a
                };
                self.set_vel(m, nv, t);
                if !frozen {
                    self.set_vel(j, nvj, t);
                    partner = Some(j);
                }
                let other = self.body_of(j);
                self.events.push(match (me, other) {
                    (Body::Ball(a), Body::Ball(b)) => Event::BallBall {
                        a,
                        b,
                        point: pred.point,
                        normal: n,
                        toi,
                    },
                    (Body::Ball(ball), Body::Rect(rect)) => Event::BallRect {
                        ball,
                        rect,
                        point: pred.point,
                        normal: n,
                        toi,
                    },
                    (Body::Rect(rect), Body::Ball(ball)) => Event::BallRect {
                        ball,
                        rect,
                        point: pred.point,
                        normal: -n,
                        toi,
                    },
                    (Body::Rect(a), Body::Rect(b)) => Event::RectRect {
                        a,
                        b,
                        point: pred.point,
                        normal: n,
                        toi,
                    },
                });
            }
        }
        self.scratch.last_hit[m] = t;
        if let Some(j) = partner {
            self.scratch.last_hit[j] = t;
        }
        self.after_response(m, t);
        if let Some(j) = partner {
            self.after_response(j, t);
        }
    }

    /// Counts the event against mover `m`'s bound, grows its reach box if it got faster, and
    /// predicts again (or freezes it at the bound).
    fn after_response(&mut self, m: usize, t: Real) {
        self.scratch.count[m] += 1;
        if self.scratch.count[m] >= self.config.max_events_per_body {
            self.freeze(m, t);
            return;
        }
        self.predict(m);
    }

    /// Stops mover `m` for the rest of the step and reports it.
    ///
    /// For the rest of the step it is an immovable obstacle at rest: its `motion` changes so
    /// that predictions made against its old path are void, and the bodies that could meet it
    /// before their next prediction (its broad-phase neighbours and the dynamic rectangles)
    /// predict again now.
    fn freeze(&mut self, m: usize, t: Real) {
        self.embed_check = true;
        self.scratch.queue.remove(m);
        self.scratch.state[m] = FROZEN;
        self.scratch.motion[m] = self.scratch.motion[m].wrapping_add(1);
        self.scratch.frozen.push(m as u32);
        let body = self.body_of(m);
        let toi = t - self.scratch.t0;
        self.events.push(Event::IterationLimit { body, toi });
        if !self.scratch.use_bp {
            return;
        }
        let nb = self.nb();
        let mut cand = std::mem::take(&mut self.scratch.cand);
        cand.clear();
        if m < nb {
            let sc = &self.scratch;
            sc.bp
                .for_each_neighbour(sc.bp.cell_of(m), |k| cand.push(k as u32));
        } else {
            let (shape, _) = self.shape_of(m);
            if let Shape::Box { aabb } = shape {
                self.scratch
                    .bp
                    .query_box(&aabb.grown(self.scratch.max_radius + 1e-9));
                cand.extend_from_slice(&self.scratch.bp.out);
            }
        }
        for k in 0..self.scratch.dyn_rects.len() {
            cand.push((nb + k) as u32);
        }
        for &k in &cand {
            let k = k as usize;
            if k != m && self.scratch.state[k] == ACTIVE {
                self.advance(k, t);
                self.predict(k);
            }
        }
        self.scratch.cand = cand;
    }
}
