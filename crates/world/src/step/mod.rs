//! The fixed step: exact, event-driven continuous collision detection within `dt`.
//!
//! # Algorithm
//! Within one step every moving body (ball or dynamic rectangle, a *mover*) follows its exact
//! piecewise-linear path. Each mover predicts its next event before the end of the step: the
//! earliest contact with an exposed tile feature, a closed wall, a static or kinematic
//! rectangle (swept in the relative frame), another mover (ball–ball when enabled), or leaving
//! through an open side. Predictions go into one priority queue ordered by (time, stable id).
//! The earliest is popped, both bodies are advanced to that instant, the response is applied,
//! and only the bodies involved predict again. This is the event-driven scheme of hard-disc
//! molecular dynamics (D. C. Rapaport, J. Comput. Phys. 34, 1980; B. D. Lubachevsky,
//! J. Comput. Phys. 94, 1991, "lazy" per-body times) with the step's end as horizon.
//!
//! Each mover keeps three predictions, each valid until something it depends on changes:
//! - its *static* event (tiles, walls, open sides, static and kinematic rectangles), valid
//!   while its velocity is unchanged and the brick it aims at exists. A ball far from every
//!   tile searches as far as the grid's clearance map guarantees a free run, without walking
//!   the grid; near tiles it walks a short window and searches further when the window ends;
//! - its *pair* event (the earliest contact with a mover of its broad-phase neighbourhood,
//!   or with a dynamic rectangle), which records the partner's `motion` counter (bumped
//!   whenever the partner's velocity changes) and is void when it changed: the mover then
//!   searches its neighbourhood again from that instant. A ball–ball contact is solved from
//!   both balls' anchors in index order (`ball_ball_contact`), so its time is the same bits
//!   whoever finds it and whenever: with static events solved from the anchor as well,
//!   results depend neither on the step size nor on the broad phase's cell size;
//! - its next broad-phase *cell crossing*. At a crossing only the cells that enter its 3×3
//!   neighbourhood are searched: the pair search was never cut at the crossing, so the old
//!   and new searches together cover the new neighbourhood.
//!
//! The queue holds one entry per mover, keyed by the earliest of the three (`queue.rs`: only
//! the entries due within the step are kept in time order, in a calendar queue). A
//! prediction aimed at a brick that another body destroyed first is void the same way.
//! Destroying a brick can only remove obstacles, and the features it exposes lie inside the
//! destroyed cell's grown region, so no other prediction can become too late.
//!
//! Predictions reach `LOOKAHEAD_STEPS` steps beyond the step's end and live on across steps
//! while nothing outside the step edits the world. Movers whose predictions end within a step
//! predict again at its start, all from the same state: that batch (and the first prediction
//! of every mover after an edit) may run on several threads ([`World::set_threads`]), and its
//! result does not depend on how many. The edits a game makes every frame keep the rest of
//! the world's predictions: a ball given a new velocity or position predicts again alone (as
//! after a collision), and a kinematic rectangle given a new velocity (a paddle) makes only the
//! movers it can concern predict again (`World::concerned_by_new_paths`); both give the same
//! bits as predicting everything again. Without dynamic rectangles, a ball added (no larger
//! than the largest so far) joins and predicts alone (`World::join_added_balls`), and balls
//! lost through an open side are removed without disturbing the others' predictions
//! (`Scratch::drop_lost_balls`). Any other edit predicts everything again.
//!
//! Contact at start follows Bannerman et al. (2014): touching and approaching is a collision at
//! once, touching and separating is none. With that, rounding can neither tunnel a body nor
//! stick it: no tolerance band, no random nudge (seed 000's problem 2).
//!
//! Determinism: the queue order is total (time, then the body's stable id, then mover index),
//! a mover met by several partners at the same instant meets the one of lowest id first (not
//! the first its broad phase lists, nor the first stored), a ball–ball contact is solved in id
//! order, so that simultaneous events do not depend on where bodies are stored (removals move
//! them; a domain's world, `domains/`, stores a subset); events are reported in a canonical
//! order (`World::order_events`); bodies are visited in storage order, parallel work only
//! computes predictions from one frozen state and applies them in mover order, and only
//! `+ - * / sqrt` are used.
//!
//! Worlds that use less: the event loop and the functions it calls on every event take two
//! `const bool`s, `G` (gravity) and `X` (extras: static shapes, flippers, sensors, passes, a
//! hook). `G = X = true` is the general loop, which tests the world at run time;
//! `World::run_events` picks `G = false` when the gravity is zero (every acceleration the
//! constant zero, `World::acc_g`, every test for gravity the constant `false`,
//! `World::has_gravity`) and also `X = false` when the world has none of the extras. The
//! results are the same bits (a unit test compares the three loops), without the code for
//! curved paths, resting contacts and the double-double response, or for the extras
//! (`docs/performance.md`).
//!
//! # Files
//! - `mover.rs`: a mover's hot record and its stored predictions; `access.rs`: the accessors
//!   by mover index (its body, path, radius or box, filter, partner);
//! - `scratch.rs`: the machinery kept between steps, and the edits that keep it;
//! - `predict.rs`: a mover's next events (static search, pair search, cell crossing);
//!   `pair_scan.rs`: the ball–ball candidates of a pair search; `curved.rs`: the static
//!   search on parabolas;
//! - `contact.rs`: one mover's first contact with one other body, a wall or an open side;
//!   `shapes.rs`, `box_shapes.rs`, `flippers.rs`: a ball's and a box's contacts with static
//!   shapes and flippers;
//! - `schedule.rs`: storing predictions, the queue (`queue.rs`), cell crossings, the search
//!   bound; `broad.rs`: the broad phase's cell lists;
//! - `resolve.rs`: the response to an event, wedges, crushes, stopping a mover;
//! - `keep.rs`: predicting everything again or only what an edit concerns, the step's end;
//! - `rest.rs`, `settle.rs`: resting contact under gravity; `sleep/`: sleeping balls (the rule,
//!   and counting and waking during the step in `sleep/during.rs`);
//! - `sensors.rs`, `pass.rs`, `passes.rs`: sensors and contacts passed through;
//! - `squeeze.rs`, `squeezing.rs`: bodies carried and crushed by kinematic rectangles;
//! - `embed.rs`: the push-out of embedded bodies at the step's start (and of crushed ones at
//!   its end); `embed_balls.rs`: the other balls as its obstacles; `embed_box.rs`,
//!   `embed_box_round.rs`: a box's nearest free position;
//! - `hook.rs`: the step with a contact hook (`World::step_with`);
//! - `domains/`: the parallel step over spatial domains (the data in `domains/mod.rs`, generic
//!   over the world each domain holds; the run in `domains/run.rs`).

mod access;
mod box_shapes;
pub(crate) mod broad;
pub(crate) mod character;
mod character_obstacle;
mod contact;
mod curved;
pub(crate) mod domains;
pub(crate) mod embed;
pub(crate) mod embed_balls;
pub(crate) mod embed_box;
pub(crate) mod embed_box_round;
mod flippers;
mod hook;
mod keep;
pub(crate) mod mover;
mod one_way;
mod pair_scan;
// The pair table (every mover × obstacle pair and where its contact is found), checked
// against the code by its test.
#[cfg(test)]
mod pairs;
pub(crate) mod pass;
mod passes;
mod predict;
pub(crate) mod queue;
mod resolve;
mod respond;
pub(crate) mod rest;
mod schedule;
pub(crate) mod scratch;
mod sensors;
mod settle;
mod shape_rest;
mod shapes;
pub(crate) mod sleep;
pub(crate) mod squeeze;
mod squeezing;

use crate::model::desc::RectKind;
use crate::model::event::Event;
use crate::model::hook::Hook;
use crate::world::World;
use collide_core::{Real, Vec2};
use mover::{Next, PTarget, ACTIVE, DEAD, FROZEN, NO_PARTNER};

/// How far beyond the end of the current step a prediction looks, in steps, when the world
/// is left alone between steps (predictions then live on across steps).
const LOOKAHEAD_STEPS: Real = 128.0;

impl World {
    /// Advances the world by exactly one fixed step of `config().dt` seconds and returns the
    /// step's events (also available from [`World::events`] until the next step).
    ///
    /// 1. Bodies that start embedded (inside a tile or rectangle, or outside a closed wall) are
    ///    moved to the nearest free position ([`Event::Unembedded`]).
    /// 2. Every ball and dynamic rectangle follows its exact path with continuous collision
    ///    detection, bouncing at the exact times of impact, in global time order, as often as
    ///    it hits (at most [`crate::StepConfig::max_events_per_body`] times; past that it stops
    ///    for the rest of the step, [`Event::IterationLimit`] is reported, and it is pushed
    ///    out at the step's end of anything that moved into it). Kinematic
    ///    rectangles move by `vel·dt`. Bricks are destroyed by their first hit when
    ///    destructible. Bodies that leave through an open side are removed.
    ///
    /// Never panics; the result depends only on the state and settings (bit-identical on every
    /// run and platform).
    pub fn step(&mut self) -> &[Event] {
        self.step_inner(None);
        &self.events
    }

    /// The step, with the contact hook of [`World::step_with`] if any. A hook's error stops
    /// the event loop (`Scratch::hook_error`); the caller restores the world.
    pub(crate) fn step_inner(&mut self, hook: Hook<'_>) {
        if self.shape_index_stale {
            self.shape_index = crate::body::shape_index::ShapeIndex::build(&self.shapes);
            self.shape_index_stale = false;
        }
        self.events.clear();
        self.event_times.clear();
        let platforms = self.character_platforms();
        if !crate::step::domains::run::step(self, hook) {
            self.resolve_embedded();
            self.run_events(hook);
        }
        self.step_characters(&platforms, self.config.dt);
        self.steps += 1;
    }

    /// Starts loading every record of mover `h` that its next event reads (hot record, stored
    /// predictions, last hit, ball, queue node, list links): a cache hint that changes nothing.
    /// These are prefetch instructions, not loads: the event in hand goes on while the lines
    /// arrive (a plain load of each, as before, held up the event in hand until its line
    /// came). Out of range: nothing.
    fn prefetch_mover(&self, h: usize) {
        let s = &self.scratch;
        if let (Some(mv), Some(pair), Some(stat), Some(hit)) =
            (s.mv.get(h), s.pair.get(h), s.stat.get(h), s.last_hit.get(h))
        {
            mem_prefetch::prefetch_read_data::<_, 3>(mv);
            mem_prefetch::prefetch_read_data::<_, 3>(pair);
            mem_prefetch::prefetch_read_data::<_, 3>(stat);
            mem_prefetch::prefetch_read_data::<_, 3>(hit);
        }
        if let Some(b) = self.balls.get(h) {
            mem_prefetch::prefetch_read_data::<_, 3>(b);
        }
        s.queue.prefetch(h);
        s.bp.prefetch(h);
    }

    /// The event loop of one step, compiled for a world without gravity (`G = false`: every
    /// acceleration zero, the code for gravity left out) or for any world (`G = true`), and
    /// without the extras (`X = false`: no static shape, flipper, sensor or pass, and no
    /// hook: their tests left out) or with them (`X = true`). `X = false` is compiled only
    /// with `G = false`: a world with gravity takes the general loop. Built with `--cfg
    /// collide_small_code` (the JavaScript package, scripts/build-js.sh), only the general
    /// loop is compiled: every world takes it, which gives the same bits (with zero gravity
    /// its parabolas are the straight paths, and the extras' tests find nothing), a smaller
    /// module and a slower step.
    fn run_events(&mut self, hook: Hook<'_>) {
        if cfg!(collide_small_code) || self.config.gravity != Vec2::ZERO {
            self.run_events_g::<true, true>(hook);
        } else if self.has_extras(hook) {
            self.run_events_g::<false, true>(hook);
        } else {
            self.run_events_g::<false, false>(hook);
        }
    }

    /// Whether the step may meet a static shape, a flipper, a sensor (rectangle, shape or
    /// cell), a one-way platform or a pass (a body passing through another), or steps with a
    /// hook (which can start passes): what the loop compiled with `X = false` leaves out. Decided once per
    /// step: none of them can appear during a step without them.
    fn has_extras(&self, hook: Hook<'_>) -> bool {
        hook.is_some()
            || !self.passes.is_empty()
            || !self.shapes.is_empty()
            || !self.flippers.is_empty()
            || self.has_sensor_cells()
            || self.rects.iter().any(|r| r.surface.sensor)
            || self.has_pushing_characters()
            || !self.one_way.is_empty()
    }

    /// [`World::run_events`] for worlds with gravity or not (`G`, [`World::acc_g`]) and with
    /// the extras or not (`X`).
    fn run_events_g<const G: bool, const X: bool>(&mut self, hook: Hook<'_>) {
        self.prepare_events::<G, X>();
        self.event_loop::<G, X>(hook);
        self.finish_events();
    }

    /// The start of [`World::run_events_g`]: the step's times and lookahead, the movers'
    /// records rebuilt (a fresh or resized world) or resumed ([`World::resume_movers`]), and
    /// the bodies that could not be placed held.
    #[inline(always)]
    fn prepare_events<const G: bool, const X: bool>(&mut self) {
        let dt = self.config.dt;
        self.scratch.t0 = self.time;
        self.scratch.t1 = self.time + dt;
        self.scratch.any_frozen = false;
        self.scratch.pool_used = 0;
        self.scratch.own_restitution = self.has_own_restitution();
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
        if !fresh && self.scratch.added > 0 {
            self.join_added_balls();
        }
        if fresh || self.scratch.mv.len() != n_now {
            self.rebuild();
        } else {
            self.resume_movers::<G, X>();
        }
        if !self.unplaceable.is_empty() {
            self.hold_unplaceable();
        }
    }

    /// Movers stopped at the bound last step resume from where they stopped; movers that had
    /// nothing to do look again; movers whose predictions end within this step look again
    /// now (all from the same state: one batch, threads allowed).
    #[inline(always)]
    fn resume_movers<const G: bool, const X: bool>(&mut self) {
        let t0 = self.scratch.t0;
        let t1 = self.scratch.t1;
        let mut batch = std::mem::take(&mut self.scratch.batch);
        batch.clear();
        let mut frozen = std::mem::take(&mut self.scratch.frozen);
        for &m in &frozen {
            let mi = m as usize;
            if self.scratch.mv[mi].state == DEAD {
                continue;
            }
            // A mover stopped at the bound moves again: what others predicted against it
            // at rest is void (`motion`).
            let r = &mut self.scratch.mv[mi];
            if r.state == FROZEN {
                r.motion = r.motion.wrapping_add(1);
            }
            r.state = ACTIVE;
            r.t = t0;
            batch.push(m);
        }
        // The movers whose horizon is within this step (listed by the last step's end).
        debug_assert!(self.scratch.renew.iter().all(|&m| {
            let r = &self.scratch.mv[m as usize];
            r.state == ACTIVE && r.horizon <= t1
        }));
        batch.extend_from_slice(&self.scratch.renew);
        // Balls steered between steps: a new course from the step's start, as after a
        // collision (`motion` voids the predictions others made against the old one).
        let mut steered = std::mem::take(&mut self.scratch.steered);
        for &m in &steered {
            let r = &mut self.scratch.mv[m as usize];
            if r.state == DEAD {
                continue;
            }
            r.state = ACTIVE;
            r.t = t0;
            r.motion = r.motion.wrapping_add(1);
            batch.push(m);
            // A ball moved (`set_ball_position`) joins the list of the cell it is in.
            if self.scratch.use_bp {
                let c = self
                    .scratch
                    .bp
                    .cell_at(self.balls[m as usize].pos_at(t0, self.acc_g::<G>(m as usize)));
                if c != self.scratch.bp.cell_of(m as usize) {
                    self.scratch.bp.remove(m as usize);
                    self.scratch.bp.insert(m as usize, c);
                }
            }
        }
        steered.clear();
        self.scratch.steered = steered;
        self.concerned_by_new_paths(&mut batch);
        batch.sort_unstable();
        batch.dedup();
        // Keep the movers that asked to look again at the next step (allocation-free swap).
        frozen.clear();
        self.scratch.frozen = frozen;
        self.predict_batch_g::<G, X>(&batch);
        self.scratch.batch = batch;
    }

    /// The events of the step in time order, up to its end: each mover's next event (a
    /// cell crossing, a static or pair contact, a horizon) handled and the mover predicted
    /// again, until the queue holds none due by the step's end (or a hook refused an answer).
    #[inline(always)]
    fn event_loop<const G: bool, const X: bool>(&mut self, hook: Hook<'_>) {
        let t1 = self.scratch.t1;
        // Queue entries due by the step's end come out of the queue, in time order; later
        // ones wait (the predictions above were queued against the last step's end).
        self.scratch.queue.set_limit(self.scratch.t0, t1);
        // Each event's absolute time: that of the queue event that reported it (the step's
        // start for the push-outs before the loop), for `order_events`.
        let mut last = self.scratch.t0;
        let with_hook = X && hook.is_some();
        while let Some((m, time)) = self.scratch.queue.peek() {
            // A hook's refused answer ends the step (tested only with a hook: a load of the
            // scratch per event measurably slows the loop).
            if time > t1 || (with_hook && self.scratch.hook_error.is_some()) {
                break;
            }
            if self.event_times.len() < self.events.len() {
                self.event_times.resize(self.events.len(), last);
            }
            last = time;
            // Start loading the records of the mover likely to come next while this one is
            // handled (the lines arrive during this event's work instead of stalling the next).
            if let Some(h) = self.scratch.queue.likely_next(m) {
                self.prefetch_mover(h);
            }
            // Every path below replaces the mover's entry (a new prediction) or removes it.
            if self.scratch.mv[m].state != ACTIVE {
                self.scratch.queue.remove(m);
                continue;
            }
            // Its neighbourhood's list heads, and its pair partner's (both search theirs
            // after a collision), for the pair searches later in this event.
            if self.scratch.use_bp {
                self.scratch.bp.prefetch_around(m);
                self.scratch
                    .bp
                    .prefetch_around(self.scratch.pair[m].partner as usize);
            }
            self.advance_g::<G, X>(m, time);
            match self.next_kind(m).0 {
                Next::Cross => {
                    let cell = self.scratch.mv[m].cross_cell;
                    self.cross::<G, X>(m, cell);
                }
                Next::Static => {
                    let Some(pred) = self.scratch.stat[m] else {
                        self.predict_g::<G, X>(m);
                        continue;
                    };
                    let valid = match pred.target {
                        PTarget::Cell(c) => self.grid.as_ref().is_some_and(|g| {
                            let kinds = if self.is_ball(m) {
                                self.ball_kinds(m, g)
                            } else {
                                g.kinds_for(self.mover_filter(m))
                            };
                            g.feature_exists_for(c, pred.feature, kinds)
                        }),
                        _ => true,
                    };
                    if valid {
                        self.resolve::<G, X>(m, pred, hook);
                    } else {
                        // The brick went first; the pair search stopped at it: all anew.
                        self.predict_g::<G, X>(m);
                    }
                }
                Next::Pair => {
                    let r = self.scratch.pair[m];
                    if r.partner == NO_PARTNER {
                        self.predict_g::<G, X>(m);
                    } else if !self.partner_valid(r) {
                        self.repredict_pair::<G, X>(m);
                    } else if let Some(pred) = self.stored_pair::<G, X>(m, r) {
                        self.resolve::<G, X>(m, pred, hook);
                    } else {
                        // Unreachable: a valid pair solves again to the same contact.
                        debug_assert!(false, "a stored pair event did not solve again");
                        self.predict_g::<G, X>(m);
                    }
                }
                Next::StaticHorizon => {
                    let t = self.scratch.mv[m].t;
                    if self.over_search_bound(m) {
                        self.freeze(m, t);
                        continue;
                    }
                    let cap = self.scratch.mv[m].horizon;
                    let (stat, until) = self.static_event::<G, X>(m, t, cap);
                    self.set_stat(m, stat, until);
                    self.schedule(m);
                }
                Next::Horizon => self.predict_g::<G, X>(m),
            }
        }
        self.event_times.resize(self.events.len(), last);
    }

    /// The end of [`World::run_events_g`]: the events' times and order, rectangle sensors,
    /// the movers brought to the step's end, kinematic rectangles moved from their anchors,
    /// the lost bodies removed and the crushed and the stopped at the event bound pushed out.
    #[inline(always)]
    fn finish_events(&mut self) {
        let dt = self.config.dt;
        let t1 = self.scratch.t1;
        self.sense_rects(self.scratch.t0, dt);
        self.order_events();
        // The next step ends at `time + dt`, computed the same way there.
        self.finish_movers(t1, t1 + dt);
        self.remember_recent_hits(t1);
        self.time = t1;
        // Kinematic rectangles: from their anchors (no per-step rounding piles up). One
        // anchored at this step's start (a paddle given a new velocity by a game) moves by
        // exactly `vel·dt`, so that `vel = (target - x) / dt` lands on the target.
        let t0 = self.scratch.t0;
        for (r, &(a, at, _)) in self.rects.iter_mut().zip(&self.rect_anchor) {
            if r.kind == RectKind::Kinematic {
                let elapsed = if at == t0 { dt } else { t1 - at };
                r.aabb = a.translated(r.vel * elapsed);
            }
        }
        // Remove the lost bodies, highest dense index first so that indices stay valid.
        let mut s = std::mem::take(&mut self.scratch);
        s.dead_rects.sort_unstable();
        // Without dynamic rectangles (whose mover indices follow the balls'), the survivors
        // keep their predictions through the removal of lost balls (`drop_lost_balls`).
        let keep = s.valid && s.rect_movers.is_empty() && s.dead_rects.is_empty();
        if keep && !s.dead_balls.is_empty() {
            s.drop_lost_balls();
        }
        for &i in s.dead_balls.iter().rev() {
            let id = self.balls[i].id;
            self.remove_ball(id);
        }
        for &i in s.dead_rects.iter().rev() {
            let id = self.rects[i].id;
            self.remove_rect(id);
        }
        if !keep && (!s.dead_balls.is_empty() || !s.dead_rects.is_empty()) {
            // Dense indices moved: predict everything again next step.
            s.valid = false;
        }
        self.scratch = s;
        if !self.scratch.stopped.is_empty() {
            let mut stopped = std::mem::take(&mut self.scratch.stopped);
            self.push_out_stopped(&stopped);
            stopped.clear();
            self.scratch.stopped = stopped;
        }
        // A flipper's carry lasts until the step's end (`squeeze.rs`).
        if !self.carries.is_empty() {
            self.carries
                .retain(|c| matches!(c.by, crate::step::squeeze::Carrier::Rect(_)));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::fixtures::arena_scene;
    use crate::model::desc::{RectDesc, RectKind};
    use crate::world::World;
    use collide_core::{Aabb, Vec2};

    /// The event loop compiled for a world without gravity (and without the extras) gives the
    /// bits of the general one on the same world (balls, tiles, walls, a paddle and falling
    /// boxes), step after step.
    #[test]
    fn the_loop_without_gravity_is_the_general_loop_bit_for_bit() {
        for speed in [60.0, 3000.0] {
            let mut a = World::from_scene(&arena_scene(400, speed, 11)).unwrap();
            for (x, kind, vel) in [
                (300.0, RectKind::Kinematic, Vec2::new(40.0, 0.0)),
                (600.0, RectKind::Dynamic, Vec2::new(-25.0, 30.0)),
            ] {
                a.add_rect(RectDesc {
                    aabb: Aabb::new(Vec2::new(x, 480.0), Vec2::new(x + 30.0, 490.0)),
                    vel,
                    kind,
                    ..RectDesc::default()
                })
                .unwrap();
            }
            let mut b = a.clone();
            let mut c = a.clone();
            let mut events = 0;
            for step in 0..120 {
                for (w, loop_kind) in [(&mut a, 0), (&mut b, 1), (&mut c, 2)] {
                    w.events.clear();
                    w.event_times.clear();
                    w.resolve_embedded();
                    match loop_kind {
                        0 => w.run_events_g::<false, false>(None),
                        1 => w.run_events_g::<false, true>(None),
                        _ => w.run_events_g::<true, true>(None),
                    }
                    w.steps += 1;
                }
                for other in [&b, &c] {
                    assert_eq!(a.events, other.events, "step {step}, {speed} units/s");
                    assert_eq!(
                        a.state_hash(),
                        other.state_hash(),
                        "step {step}, {speed} units/s"
                    );
                }
                events += a.events.len();
            }
            assert!(events > 500, "{events} events at {speed} units/s");
        }
    }
}
