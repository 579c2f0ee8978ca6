//! Keeping the predictions in step with the world: predicting everything again (`rebuild`),
//! or only the movers an edit between steps concerns (a kinematic rectangle's new path, balls
//! added or removed); the step's end (movers brought to its end, lost ones listed, renewals);
//! the canonical order of the step's events.

use super::mover::{
    body_key, Mover, MoverBody, PTarget, PairRef, Prediction, ACTIVE, BALL, DEAD, FROZEN,
};
use crate::body::rect::RectRole;
use crate::body::rest::acc_on;
use crate::model::event::{Body, Event};
use crate::world::World;
use collide_core::motion::Path;
use collide_core::{Aabb, Real, Vec2};

impl World {
    /// Puts the step's events in their canonical order: by the absolute time of the queue
    /// event that reported them, then by the id of the body they are about ([`Event::body`],
    /// balls before rectangles), keeping the order of one body's events at one instant. The
    /// loop reports them in its queue order, (time, mover id), which is this order except
    /// where a ball–ball collision was handled by the ball of higher id at the instant of
    /// another body's event: which of two balls handles their contact depends on which found
    /// it last (the history of predictions), the canonical order does not, so that the
    /// domains' merged events (`domains.rs`) are the same as one loop's. Sorts only when
    /// needed (rarely), into reused buffers.
    pub(super) fn order_events(&mut self) {
        let key = |e: &Event| body_key(e.body());
        let n = self.events.len();
        // (Keys are compared only between events of one instant.)
        let t = &self.event_times;
        let in_order = (1..n).all(|i| {
            t[i - 1] < t[i]
                || (t[i - 1] == t[i] && key(&self.events[i - 1]) <= key(&self.events[i]))
        });
        if in_order {
            return;
        }
        let mut order = std::mem::take(&mut self.scratch.event_order);
        order.clear();
        order.extend(
            self.events
                .iter()
                .zip(&self.event_times)
                .enumerate()
                .map(|(i, (e, &t))| (t, key(e), i as u32)),
        );
        order.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
        let mut buf = std::mem::take(&mut self.scratch.event_buf);
        buf.clear();
        buf.extend(order.iter().map(|o| self.events[o.2 as usize]));
        std::mem::swap(&mut self.events, &mut buf);
        self.event_times.clear();
        self.event_times.extend(order.iter().map(|o| o.0));
        self.scratch.event_order = order;
        self.scratch.event_buf = buf;
    }

    /// Predicts everything again: the movers' list, their broad-phase cells and every
    /// mover's next event, from the step's start.
    pub(super) fn rebuild(&mut self) {
        let nb = self.balls.len();
        let t0 = self.scratch.t0;
        let mut s = std::mem::take(&mut self.scratch);
        s.rect_movers.clear();
        s.mv.clear();
        s.mv.resize(nb, Mover::new(t0, BALL));
        for (k, r) in self.rects.iter().enumerate() {
            if r.role() == RectRole::Dynamic {
                s.rect_movers.push(s.mv.len() as u32);
                s.mv.push(Mover::new(t0, k as u32));
            }
        }
        let n = s.mv.len();
        s.last_hit.clear();
        s.last_hit.resize(n, Real::NEG_INFINITY);
        s.last_normal.clear();
        s.last_normal.resize(n, Vec2::ZERO);
        // The TC rule's memory of the last step's end (an edit or a restore does not make
        // bodies forget a hit a moment ago).
        for &(body, hit, normal) in &self.tc_memory {
            let m = match body {
                Body::Ball(id) => self.ball_slots.get(id),
                Body::Rect(id) => self.rect_slots.get(id).and_then(|k| {
                    s.rect_movers
                        .iter()
                        .map(|&j| j as usize)
                        .find(|&j| s.mv[j].body(j) == MoverBody::Rect(k))
                }),
                // Characters move after the event loop: no TC memory.
                Body::Character(_) => None,
            };
            if let Some(m) = m.filter(|&m| m < n) {
                s.last_hit[m] = hit;
                s.last_normal[m] = normal;
            }
        }

        s.stat.clear();
        s.stat.resize(n, None);
        s.pair.clear();
        s.pair.resize(n, PairRef::NONE);

        s.queue.reset(n);
        s.frozen.clear();
        s.steered.clear();
        s.paths_changed.clear();
        s.added = 0;
        s.use_bp = n > 1 && (self.config.ball_ball || !s.rect_movers.is_empty());
        let mut max_radius: Real = 0.0;
        for b in &self.balls {
            max_radius = max_radius.max(b.radius);
        }
        s.max_radius = max_radius;
        self.scratch = s;
        if self.scratch.use_bp {
            // Cells at least one largest diameter wide (touching balls are neighbours).
            let bounds = self
                .scratch
                .region
                .unwrap_or(Aabb::new(Vec2::ZERO, self.size));
            let area = bounds.size().x * bounds.size().y;
            let spacing = (area / nb.max(1) as Real).sqrt();
            // 0.6 × the mean spacing measured best on the arena (callgrind, 10k balls at 60 and
            // 3000 units/s): fewer candidates per prediction outweigh the extra crossings.
            let size = (2.0 * max_radius * (1.0 + 1e-6) + 1e-9).max(0.6 * spacing);
            self.scratch.bp.reset(bounds, size, n);
            for m in 0..nb {
                let c = self.scratch.bp.cell_at(self.ball_pos(m));
                self.scratch.bp.insert(m, c);
            }
        }
        let mut batch = std::mem::take(&mut self.scratch.batch);
        batch.clear();
        batch.extend(0..n as u32);
        self.predict_batch(&batch);
        self.scratch.batch = batch;
        self.scratch.valid = true;
    }

    /// Adds to `batch` every active mover that a kinematic rectangle's new path (set between
    /// steps, listed in `paths_changed`) can concern: its static prediction aimed at the
    /// rectangle (solved against the old path), or the box its path sweeps from now to the
    /// end of its static search meets the box the rectangle sweeps on its new path up to
    /// this step's `cap` (so it could meet the rectangle before its predicted event). The
    /// others' predictions stand: they never involve the rectangle before their end.
    pub(super) fn concerned_by_new_paths(&mut self, batch: &mut Vec<u32>) {
        if self.scratch.paths_changed.is_empty() {
            return;
        }
        let mut changed = std::mem::take(&mut self.scratch.paths_changed);
        changed.sort_unstable();
        changed.dedup();
        let (t0, cap) = (self.scratch.t0, self.scratch.cap);
        for &k in &changed {
            let k = k as usize;
            let rc = &self.rects[k];
            let (a, at, _) = self.rect_anchor[k];
            // Its box at the step's start and at `cap`: the sweep lies in their hull.
            let from = a.translated(rc.vel * (t0 - at));
            let to = a.translated(rc.vel * (cap - at));
            let swept = from.union(&to).grown(1e-9);
            for m in 0..self.scratch.mv.len() {
                let r = &self.scratch.mv[m];
                if r.state != ACTIVE {
                    continue;
                }
                // (The stored static prediction is read only when it is a hit.)
                let aimed = r.stat_hit
                    && matches!(
                        self.scratch.stat[m],
                        Some(Prediction {
                            target: PTarget::Rect(j),
                            ..
                        }) if j as usize == k
                    );
                // The end of its static search (its static event, or how far it looked).
                let end = if r.stat_t < cap { r.stat_t } else { cap };
                let reach = if r.is_ball() {
                    let b = &self.balls[m];
                    let acc = self.acc_of(m);
                    let margin = b.radius * (1.0 + 1e-9) + 1e-9;
                    if acc == Vec2::ZERO {
                        let (p0, p1) = (b.pos_at(t0, acc), b.pos_at(end, acc));
                        Aabb::from_corners(p0, p1).grown(margin)
                    } else {
                        let at = b.anchor_time;
                        crate::grid::walk::path_bounds(&b.path(acc), t0 - at, end - at)
                            .grown(margin)
                    }
                } else {
                    let (ma, mt, v, acc) = self.dyn_path(m);
                    if acc == Vec2::ZERO {
                        ma.translated(v * (t0 - mt))
                            .union(&ma.translated(v * (end - mt)))
                            .grown(1e-9)
                    } else {
                        let disp = Path::ballistic(Vec2::ZERO, v, acc);
                        crate::grid::walk::box_path_bounds(&ma, &disp, t0 - mt, end - mt)
                            .grown(1e-9)
                    }
                };
                if aimed || collide_core::aabb_overlaps_aabb(&reach, &swept) {
                    batch.push(m as u32);
                }
            }
        }
        changed.clear();
        self.scratch.paths_changed = changed;
    }

    /// Gives the balls added between steps (the last `added` balls) their records and queue
    /// slots, and lists them with the steered balls, which join their cells' lists and predict
    /// at this step's start (nobody predicted anything against them).
    pub(super) fn join_added_balls(&mut self) {
        let t0 = self.scratch.t0;
        let first = self.balls.len() - self.scratch.added;
        debug_assert_eq!(first, self.scratch.mv.len());
        for m in first..self.balls.len() {
            let s = &mut self.scratch;
            s.mv.push(Mover::new(t0, BALL));
            s.last_hit.push(Real::NEG_INFINITY);
            s.last_normal.push(Vec2::ZERO);
            s.stat.push(None);
            s.pair.push(PairRef::NONE);
            s.queue.push_mover();
            if s.use_bp {
                // Listed in its cell with the steered balls below.
                s.bp.push_body();
            }
            s.steered.push(m as u32);
        }
        self.scratch.added = 0;
    }

    /// Removes balls `list` (dense indices, ascending, no dynamic rectangle in the world)
    /// between steps the way lost balls are removed: the others keep their predictions (pair
    /// events aimed at a removed ball become void and are searched again), and each removal
    /// moves the last ball into the freed place, highest index first (as
    /// [`World::remove_ball`]). For a domain's world (`domains.rs`), whose balls' ids are not
    /// looked up: its id slots are left alone.
    pub(crate) fn drop_balls(&mut self, list: &[usize]) {
        let nb = self.balls.len();
        let s = &mut self.scratch;
        if s.valid && s.rect_movers.is_empty() && s.mv.len() == nb && s.added == 0 {
            for &i in list {
                s.mv[i].state = DEAD;
                s.mv[i].motion = s.mv[i].motion.wrapping_add(1);
                s.queue.remove(i);
                if s.use_bp {
                    s.bp.remove(i);
                }
            }
            s.dead_balls.clear();
            s.dead_balls.extend_from_slice(list);
            s.drop_lost_balls();
            s.dead_balls.clear();
        } else {
            s.valid = false;
        }
        for &i in list.iter().rev() {
            self.balls.swap_remove(i);
            self.ball_rest.swap_remove(i);
            self.ball_slow.swap_remove(i);
            self.ball_swap_removed(i);
            self.ball_filter_swap_removed(i);
        }
    }

    /// At the step's end `t1`: remembers, in the world's state, every body hit within the TC
    /// rule's window before `t1` (its last hit's time and normal, sorted by body), when some
    /// restitution is below 1 (with restitution 1 everywhere the rule changes nothing, and the
    /// memory stays empty).
    pub(super) fn remember_recent_hits(&mut self, t1: Real) {
        self.tc_memory.clear();
        if !(self.scratch.own_restitution || self.config.restitution < 1.0) {
            return;
        }
        let window = crate::body::rest::REST_TIME.max(super::resolve::TC_STEPS * self.config.dt);
        for m in 0..self.scratch.last_hit.len() {
            let hit = self.scratch.last_hit[m];
            if t1 - hit < window && self.scratch.mv[m].state != DEAD {
                let body = self.body_of(m);
                self.tc_memory
                    .push((body, hit, self.scratch.last_normal[m]));
            }
        }
        self.tc_memory.sort_unstable_by_key(|e| body_key(e.0));
    }

    /// The end of a step, in one pass over the movers: each is brought to absolute time `t1`
    /// (a ball's position is derived from its path, only its time changes; a dynamic
    /// rectangle moves), a mover stopped at the iteration bound stays and resumes its path
    /// from there at the next step; the lost ones are listed for removal, the ones whose
    /// predictions end by `next_t1` (the next step's end) for renewal, and the per-step
    /// counters restart.
    pub(super) fn finish_movers(&mut self, t1: Real, next_t1: Real) {
        let s = &mut self.scratch;
        s.renew.clear();
        s.dead_balls.clear();
        s.dead_rects.clear();
        for (m, r) in s.mv.iter_mut().enumerate() {
            let dtm = t1 - r.t;
            let body = r.body(m);
            if let (MoverBody::Rect(k), ACTIVE, true) = (body, r.state, dtm > 0.0) {
                if self.config.gravity == Vec2::ZERO {
                    let (a, at, _) = self.rect_anchor[k];
                    let rc = &mut self.rects[k];
                    rc.aabb = a.translated(rc.vel * (t1 - at));
                } else {
                    let acc = acc_on(self.config.gravity, self.rect_rest[k]);
                    let (a, at, v0) = self.rect_anchor[k];
                    let p = Path::ballistic(Vec2::ZERO, v0, acc);
                    let rc = &mut self.rects[k];
                    rc.aabb = a.translated(p.pos_at(t1 - at));
                    rc.vel = p.vel_at(t1 - at);
                }
            }
            if dtm > 0.0 {
                r.t = t1;
            }
            match r.state {
                FROZEN => {
                    r.t = t1;
                    match body {
                        MoverBody::Ball(i) => self.balls[i].anchor_time = t1,
                        MoverBody::Rect(k) => self.rect_anchor[k].1 = t1,
                    }
                }
                DEAD => match body {
                    MoverBody::Ball(i) => s.dead_balls.push(i),
                    MoverBody::Rect(k) => s.dead_rects.push(k),
                },
                _ => {
                    if r.horizon <= next_t1 {
                        s.renew.push(m as u32);
                    }
                }
            }
            r.events = 0;
            r.same_instant = 0;
            r.searches = 0;
            r.start_crossed = false;
        }
    }
}
