//! The parallel step over spatial domains (the data is in `crate::step::domains`): cutting
//! the world, running each domain's world on its thread, verifying and committing.

use super::{hold_of, ALONE, BALLS_PER_DOMAIN, CALM_STEPS, GHOST, MIN_BALLS, NONE};
use crate::body::ball::BallRec;
use crate::model::event::Event;
use crate::model::filter::Filter;
use crate::model::hook::Hook;
use crate::step::scratch::Trace;
use crate::world::World;
use collide_core::{Aabb, Real, Vec2};

/// The domains of a world, each with a world of its own.
type Domains = super::Domains<World>;
/// One domain: its world and the bookkeeping of the balls it holds.
type Sub = super::Sub<World>;

/// Whether `w` can be stepped in domains (see the module docs).
fn eligible(w: &World) -> bool {
    let walls = w.walls;
    !crate::model::limits::SINGLE_THREADED_TARGET
        && w.threads > 1
        && w.balls.len() >= MIN_BALLS
        && w.steps >= w.last_edit + CALM_STEPS
        && w.rects.is_empty()
        && w.passes.is_empty()
        && w.sensor_rects.is_empty()
        && w.shapes.is_empty()
        && w.grid.as_ref().is_none_or(|g| g.sensor_cells() == 0)
        && w.flippers.is_empty()
        && w.characters.is_empty()
        && w.config.ball_ball
        && w.config.restitution == 1.0
        && w.config.gravity == Vec2::ZERO
        && !w.has_own_restitution()
        && walls.left
        && walls.top
        && walls.right
        && walls.bottom
        && !w.embed_check
        && w.embed_some.is_empty()
        && (!w.config.destructible_bricks || w.grid.as_ref().is_none_or(|g| g.bricks_left() == 0))
}

/// Steps `w` in domains when it can (see the module docs); returns whether it did. When it
/// returns false, nothing was changed but the domains and the counters: the caller steps
/// serially.
pub(crate) fn step(w: &mut World, hook: Hook<'_>) -> bool {
    if !eligible(w) {
        w.domains = None;
        return false;
    }
    let mut d = match w.domains.take() {
        Some(d) => d,
        None => match Domains::build(w) {
            Some(d) => Box::new(d),
            None => return false,
        },
    };
    if d.run(w, hook) {
        w.domains = Some(d);
        w.domain_steps.0 += 1;
        true
    } else {
        // The world is as it was before the step; its own predictions were void since the
        // domains were built, so the serial step predicts everything again.
        w.domain_steps.1 += 1;
        false
    }
}

impl Domains {
    /// Cuts `w` into domains, or `None` when it is too narrow for two.
    fn build(w: &mut World) -> Option<Domains> {
        let n = w.balls.len();
        let dt = w.config.dt;
        let (mut v_max, mut r_max): (Real, Real) = (0.0, 0.0);
        for b in &w.balls {
            v_max = v_max.max(b.v0.length());
            r_max = r_max.max(b.radius);
        }
        // Four times the largest step's travel: the check needs more than twice.
        let halo = (4.0 * v_max * dt + 4.0 * r_max).max(8.0 * r_max);
        let width = w.size.x;
        let by_count = (n / BALLS_PER_DOMAIN).max(w.threads).max(2);
        let by_width = (width / (3.0 * halo)).floor();
        let k_count = by_count.min(if by_width.is_finite() && by_width > 0.0 {
            by_width as usize
        } else {
            0
        });
        if k_count < 2 || !halo.is_finite() {
            return None;
        }
        let cuts: Vec<Real> = (1..k_count)
            .map(|k| width * k as Real / k_count as Real)
            .collect();
        let mut d = Domains {
            subs: Vec::with_capacity(k_count),
            cuts,
            halo,
            r_max,
            v0_max: v_max,
            home: vec![NONE; n],
            second: vec![NONE; n],
            places: vec![[(NONE, NONE); 2]; n],
            shared: Vec::new(),
            diverged: Vec::new(),
            heads: Vec::new(),
        };
        for k in 0..k_count {
            let lo = if k == 0 { 0.0 } else { d.cuts[k - 1] - halo };
            let hi = if k + 1 == k_count {
                width
            } else {
                d.cuts[k] + halo
            };
            let region = Aabb::new(
                Vec2::new(lo.max(0.0), 0.0),
                Vec2::new(hi.min(width), w.size.y),
            );
            d.subs.push(Sub {
                world: w.domain_world(region),
                global: Vec::new(),
                hold: Vec::new(),
                written: Vec::new(),
                kept: Vec::new(),
                ghost_ids: Vec::new(),
                twice: Vec::new(),
                changed: Vec::new(),
                v_max: 0.0,
                flips: Vec::new(),
                adds: Vec::new(),
                syncs: Vec::new(),
                drops: Vec::new(),
                joins: Vec::new(),
            });
        }
        let t = w.time;
        for g in 0..n {
            let x = w.balls[g].pos_at(t, Vec2::ZERO).x;
            let geo = Geometry {
                cuts: &d.cuts,
                halo,
                home: &[],
                second: &[],
            };
            let h = geo.owner(x);
            let s = geo.neighbour(h, x);
            d.home[g] = h;
            d.second[g] = s;
            for k in [h, s] {
                if k != NONE {
                    let sub = &mut d.subs[k as usize];
                    set_place(&mut d.places[g], k, sub.global.len() as u32);
                    sub.global.push(g as u32);
                    sub.hold.push(hold_of(k, h, s));
                    sub.world.balls.push(w.balls[g]);
                    sub.world.ball_rest.push(w.ball_rest[g]);
                    sub.world.ball_slow.push(w.ball_slow[g]);
                    sub.world.ball_filter_pushed(w.ball_filter_at(g));
                }
            }
        }
        // The world's own predictions are not kept up while the domains step: their memory
        // goes (a serial step predicts everything again).
        w.scratch = crate::step::scratch::Scratch::default();
        Some(d)
    }

    /// One step in domains: steps every domain (in parallel), checks, and on success writes
    /// the owned balls, the merged events and the time into `w` and updates the domains'
    /// balls for the next step. On failure `w` is untouched and `self` is spent.
    fn run(&mut self, w: &mut World, hook: Hook<'_>) -> bool {
        let geometry = Geometry {
            cuts: &self.cuts,
            halo: self.halo,
            home: &self.home,
            second: &self.second,
        };
        let threads = w.threads;
        let balls = &w.balls;
        let filters = &w.ball_filter;
        for_each_parallel(&mut self.subs, threads, |k, sub| {
            sub.update(balls, filters);
            sub.world.scratch.trace.clear();
            sub.world.step_inner(hook);
            sub.survey(k as u32, &geometry);
        });
        // A hook's error: the serial step meets it again and restores the world.
        if self
            .subs
            .iter()
            .any(|s| s.world.scratch.hook_error.is_some())
            || !self.verify(w)
        {
            return false;
        }
        self.commit(w);
        true
    }

    /// The check of the module docs; fills `diverged`.
    fn verify(&mut self, w: &World) -> bool {
        let dt = w.config.dt;
        let t1 = self.subs[0].world.time;
        // Anything the domains cannot vouch for: fall back.
        for sub in &self.subs {
            // A body that drew from the step's shared event pool: the pool is the whole
            // world's, a domain's is not the same.
            if sub.world.time.to_bits() != t1.to_bits()
                || sub.world.scratch.pool_used > 0
                || sub.world.events.iter().any(|e| {
                    matches!(
                        e,
                        Event::IterationLimit { .. }
                            | Event::Squeezed { .. }
                            | Event::FlipperSqueezed { .. }
                            | Event::Unembedded { .. }
                            | Event::BallLost { .. }
                    )
                })
            {
                return false;
            }
        }
        // The halo: nobody reached a ball its owner's world does not hold.
        let mut v_max = self.v0_max;
        for sub in &self.subs {
            for e in &sub.world.scratch.trace {
                v_max = v_max.max(e.vel.length());
            }
        }
        if !(2.0 * v_max * dt + 2.0 * self.r_max < self.halo) {
            return false;
        }
        // The records of the balls held twice, by ball, domain and order.
        self.shared.clear();
        for sub in &self.subs {
            self.shared.extend_from_slice(&sub.twice);
        }
        self.shared.sort_unstable();
        self.diverged.clear();
        let mut at = 0;
        while at < self.shared.len() {
            let g = self.shared[at].0;
            let end = at + self.shared[at..].partition_point(|e| e.0 == g);
            let (o, n) = (self.home[g as usize], self.second[g as usize]);
            let split = at + self.shared[at..end].partition_point(|e| e.1 < n.max(o));
            let (lo_part, hi_part) = (&self.shared[at..split], &self.shared[split..end]);
            let (own, other) = if o < n {
                (lo_part, hi_part)
            } else {
                (hi_part, lo_part)
            };
            at = end;
            let entry = |k: u32, e: &(u32, u32, u32)| -> (Trace, u32) {
                let sub = &self.subs[k as usize];
                let tr = sub.world.scratch.trace[e.2 as usize];
                let partner = if tr.partner == NONE {
                    NONE
                } else {
                    sub.global[tr.partner as usize]
                };
                (tr, partner)
            };
            let same = |a: &(Trace, u32), b: &(Trace, u32)| {
                a.1 == b.1
                    && a.0.anchor_time.to_bits() == b.0.anchor_time.to_bits()
                    && a.0.anchor.x.to_bits() == b.0.anchor.x.to_bits()
                    && a.0.anchor.y.to_bits() == b.0.anchor.y.to_bits()
                    && a.0.vel.x.to_bits() == b.0.vel.x.to_bits()
                    && a.0.vel.y.to_bits() == b.0.vel.y.to_bits()
            };
            let mut i = 0;
            while i < own.len() && i < other.len() && same(&entry(o, &own[i]), &entry(n, &other[i]))
            {
                i += 1;
            }
            if i == own.len() && i == other.len() {
                continue;
            }
            let time_of = |k: u32, e: Option<&(u32, u32, u32)>| {
                e.map_or(Real::INFINITY, |e| entry(k, e).0.anchor_time)
            };
            let d_time = time_of(o, own.get(i)).min(time_of(n, other.get(i)));
            // 1. The wrong copy hit none of the non-owner's own balls from then on.
            for e in &other[i..] {
                let p = entry(n, e).1;
                if p != NONE && self.home[p as usize] == n {
                    return false;
                }
            }
            self.diverged.push((g, d_time));
        }
        // 2. The true path of each diverged ball met no ball of the non-owner that the owner
        // holds a copy of. Those balls started on the non-owner's side of the cut between
        // the two and moved at most `reach`: a path that stays farther than that from the cut
        // on the owner's side meets none of them (the usual case: a copy goes wrong at the
        // far edge of a halo, hit by a ball its world does not hold).
        let reach = v_max * dt * (1.0 + 1e-9) + self.r_max * (1.0 + 1e-9) + 1e-9;
        for &(g, d_time) in &self.diverged {
            let (o, n) = (self.home[g as usize], self.second[g as usize]);
            let bx = self.path_box(w, g, d_time, t1);
            let clear = if n < o {
                bx.min.x > self.cuts[n as usize] + reach
            } else {
                bx.max.x < self.cuts[o as usize] - reach
            };
            if clear {
                continue;
            }
            let sub = &self.subs[o as usize];
            for &b in &sub.global {
                if self.home[b as usize] != n {
                    continue;
                }
                let bb = self.path_box(w, b, d_time, t1);
                if collide_core::aabb_overlaps_aabb(&bx, &bb) {
                    return false;
                }
            }
        }
        true
    }

    /// The box swept by ball `g`'s true path (its owner's world) over `[from, to]`, grown by
    /// its radius (and a hair, so that touching boxes overlap).
    fn path_box(&self, w: &World, g: u32, from: Real, to: Real) -> Aabb {
        let o = self.home[g as usize] as usize;
        let sub = &self.subs[o];
        let start = w.balls[g as usize];
        let mut rec = start;
        let mut lo = Vec2::splat(Real::INFINITY);
        let mut hi = Vec2::splat(Real::NEG_INFINITY);
        let mut add = |p: Vec2| {
            lo = lo.min(p);
            hi = hi.max(p);
        };
        // Its records in the owner's world, in order (only balls held twice are looked up
        // here, and `shared` holds all their records).
        let first = self.shared.partition_point(|e| (e.0, e.1) < (g, o as u32));
        let mut started = false;
        for e in &self.shared[first..] {
            if e.0 != g || e.1 != o as u32 {
                break;
            }
            let tr = sub.world.scratch.trace[e.2 as usize];
            if tr.anchor_time > from {
                if !started {
                    add(rec.pos_at(from, Vec2::ZERO));
                    started = true;
                }
                add(tr.anchor);
            }
            rec.anchor = tr.anchor;
            rec.anchor_time = tr.anchor_time;
            rec.v0 = tr.vel;
        }
        if !started {
            add(rec.pos_at(from, Vec2::ZERO));
        }
        add(rec.pos_at(to, Vec2::ZERO));
        let grow = start.radius * (1.0 + 1e-9) + 1e-9;
        Aabb::new(lo, hi).grown(grow)
    }

    /// Writes a verified step into `w` and readies the domains for the next one.
    fn commit(&mut self, w: &mut World) {
        let t1 = self.subs[0].world.time;
        // The events (merged), and the owned balls that changed course (random writes into
        // the world's balls; the others' paths are the world's already): on two threads.
        let subs = &self.subs;
        let heads = &mut self.heads;
        let (events, times) = (&mut w.events, &mut w.event_times);
        let balls = &mut w.balls;
        let mut write = || {
            for sub in subs {
                for &i in &sub.written {
                    balls[sub.global[i as usize] as usize] = sub.world.balls[i as usize];
                }
            }
        };
        if w.threads > 1 {
            std::thread::scope(|scope| {
                scope.spawn(|| merge_events(subs, heads, events, times));
                write();
            });
        } else {
            merge_events(subs, heads, events, times);
            write();
        }
        w.time = t1;
        // Wrong copies take the true path.
        for &(g, _) in &self.diverged {
            let n = self.second[g as usize];
            let i = place_in(&self.places[g as usize], n);
            self.subs[n as usize].syncs.push((i, g));
        }
        // Who holds whom now: each ball's owner saw it move (`Sub::survey`).
        let mut v_max: Real = 0.0;
        for k in 0..self.subs.len() {
            v_max = v_max.max(self.subs[k].v_max);
            for c in 0..self.subs[k].changed.len() {
                let (g, h, s) = self.subs[k].changed[c];
                let gi = g as usize;
                let (h0, s0) = (self.home[gi], self.second[gi]);
                for old in [h0, s0] {
                    if old != NONE && old != h && old != s {
                        let i = place_in(&self.places[gi], old);
                        self.subs[old as usize].drops.push(i as usize);
                    }
                }
                // The domains holding it now learn how; the new ones add it.
                for k in [h, s] {
                    if k == NONE {
                        continue;
                    }
                    let how = hold_of(k, h, s);
                    if k == h0 || k == s0 {
                        let i = place_in(&self.places[gi], k);
                        self.subs[k as usize].flips.push((i, how));
                    } else {
                        self.subs[k as usize].adds.push((g, how));
                    }
                }
                self.home[gi] = h;
                self.second[gi] = s;
            }
        }
        self.v0_max = v_max;
        // The domains' lists of balls (a few changes), then their worlds, in parallel.
        for (k, sub) in self.subs.iter_mut().enumerate() {
            let k = k as u32;
            for &(i, how) in &sub.flips {
                sub.hold[i as usize] = how;
            }
            sub.flips.clear();
            sub.drops.sort_unstable();
            for &i in sub.drops.iter().rev() {
                let gone = sub.global.swap_remove(i);
                sub.hold.swap_remove(i);
                clear_place(&mut self.places[gone as usize], k);
                if let Some(&moved) = sub.global.get(i) {
                    set_place(&mut self.places[moved as usize], k, i as u32);
                }
            }
            for &(g, how) in &sub.adds {
                set_place(&mut self.places[g as usize], k, sub.global.len() as u32);
                sub.global.push(g);
                sub.hold.push(how);
                sub.joins.push(g);
            }
            sub.adds.clear();
        }
        // Their worlds take these changes at the start of the next step, in its parallel part
        // (`Sub::update`; an edit of the world in between drops the domains).
    }
}

/// The events of the step in their canonical order (`World::order_events`: time, then the
/// id of the body an event is about), each from the domain owning that body, into `events`
/// and `times`. Every domain's events are in that order already, so this is a merge; the
/// events of one body at one instant all come from one domain, in its order.
fn merge_events(
    subs: &[Sub],
    heads: &mut Vec<Option<(Real, u32, usize)>>,
    events: &mut Vec<Event>,
    times: &mut Vec<Real>,
) {
    events.clear();
    times.clear();
    let key_at = |sub: &Sub, c: usize| -> Option<(Real, u32, usize)> {
        let &(t, key, _) = sub.kept.get(c)?;
        Some((t, key, c))
    };
    heads.clear();
    for sub in subs {
        heads.push(key_at(sub, 0));
    }
    loop {
        let mut best: Option<(usize, Real, u32, usize)> = None;
        for (k, h) in heads.iter().enumerate() {
            if let &Some((t, key, c)) = h {
                if best.is_none_or(|b| t < b.1 || (t == b.1 && key < b.2)) {
                    best = Some((k, t, key, c));
                }
            }
        }
        let Some((k, t, _, c)) = best else { break };
        let sub = &subs[k];
        events.push(sub.world.events[sub.kept[c].2 as usize]);
        times.push(t);
        heads[k] = key_at(sub, c + 1);
    }
}

/// What a domain needs to know of the others while it surveys its balls.
struct Geometry<'a> {
    cuts: &'a [Real],
    halo: Real,
    home: &'a [u32],
    second: &'a [u32],
}

impl Geometry<'_> {
    /// The domain owning a centre at `x`.
    fn owner(&self, x: Real) -> u32 {
        self.cuts.partition_point(|&c| c <= x) as u32
    }

    /// The neighbour of domain `k` whose halo holds a centre at `x` (`NONE` if none).
    fn neighbour(&self, k: u32, x: Real) -> u32 {
        let k = k as usize;
        if k > 0 && x < self.cuts[k - 1] + self.halo {
            (k - 1) as u32
        } else if k < self.cuts.len() && x >= self.cuts[k] - self.halo {
            (k + 1) as u32
        } else {
            NONE
        }
    }
}

impl Sub {
    /// After its step, domain `k` lists the owned balls that changed course (to be written
    /// into the world) and those now held by other domains than before, and finds its owned
    /// balls' largest speed. Reads only; a failed check discards it.
    fn survey(&mut self, k: u32, geo: &Geometry) {
        // The events about balls it owns (the others' owners report them): an event names a
        // ball by id, so the ids of its copies of other domains' balls, sorted, tell them
        // apart (a few hundred, searched in the cache, where a lookup of each event's ball in
        // the whole world's tables would miss it).
        self.ghost_ids.clear();
        for (b, &how) in self.world.balls.iter().zip(&self.hold) {
            if how == GHOST {
                self.ghost_ids.push(b.id.index());
            }
        }
        self.ghost_ids.sort_unstable();
        self.kept.clear();
        for (c, (e, &t)) in self
            .world
            .events
            .iter()
            .zip(&self.world.event_times)
            .enumerate()
        {
            let crate::model::event::Body::Ball(id) = e.body() else {
                continue;
            };
            if self.ghost_ids.binary_search(&id.index()).is_err() {
                self.kept.push((t, id.index(), c as u32));
            }
        }
        self.written.clear();
        self.twice.clear();
        for (seq, e) in self.world.scratch.trace.iter().enumerate() {
            let m = e.m as usize;
            if self.hold[m] != GHOST {
                self.written.push(e.m);
            }
            if self.hold[m] != ALONE {
                self.twice.push((self.global[m], k, seq as u32));
            }
        }
        self.changed.clear();
        let t1 = self.world.time;
        let mut v2_max: Real = 0.0;
        // Far from the cuts' halos a ball stays owned by this domain alone.
        let ku = k as usize;
        let inner_lo = if ku == 0 {
            Real::NEG_INFINITY
        } else {
            geo.cuts[ku - 1] + geo.halo
        };
        let inner_hi = if ku == geo.cuts.len() {
            Real::INFINITY
        } else {
            geo.cuts[ku] - geo.halo
        };
        for (i, b) in self.world.balls.iter().enumerate() {
            let how = self.hold[i];
            if how == GHOST {
                continue;
            }
            v2_max = v2_max.max(b.v0.length_squared());
            let x = b.pos_at(t1, Vec2::ZERO).x;
            if how == ALONE && inner_lo <= x && x < inner_hi {
                continue;
            }
            let g = self.global[i];
            let gi = g as usize;
            let h = geo.owner(x);
            let s = geo.neighbour(h, x);
            if (h, s) != (geo.home[gi], geo.second[gi]) {
                self.changed.push((g, h, s));
            }
        }
        self.v_max = v2_max.sqrt();
    }

    /// Applies the last commit's lists to its world (its own lists are updated already),
    /// before its next step: wrong copies take the true path from `balls` (the whole
    /// world's), balls that left its halo go, balls that entered it join.
    fn update(&mut self, balls: &[BallRec], filters: &[Filter]) {
        for &(i, g) in &self.syncs {
            let i = i as usize;
            self.world.balls[i] = balls[g as usize];
            self.world.scratch.course_changed(i);
        }
        self.syncs.clear();
        if !self.drops.is_empty() {
            self.world.drop_balls(&self.drops);
            self.drops.clear();
        }
        for &g in &self.joins {
            let f = filters.get(g as usize).copied().unwrap_or_default();
            self.world.join_exact(balls[g as usize], f);
        }
        self.joins.clear();
    }
}

/// The local index at which domain `k` keeps a ball, from the ball's `places`.
fn place_in(places: &[(u32, u32); 2], k: u32) -> u32 {
    if places[0].0 == k {
        places[0].1
    } else {
        places[1].1
    }
}

/// Records that domain `k` keeps a ball at local index `i` (in its place if it has one, else
/// in a free one).
fn set_place(places: &mut [(u32, u32); 2], k: u32, i: u32) {
    let slot = if places[0].0 == k || (places[0].0 == NONE && places[1].0 != k) {
        0
    } else {
        1
    };
    places[slot] = (k, i);
}

/// Records that domain `k` no longer keeps a ball.
fn clear_place(places: &mut [(u32, u32); 2], k: u32) {
    for p in places.iter_mut() {
        if p.0 == k {
            *p = (NONE, NONE);
        }
    }
}

/// Runs `f` on every domain on up to `threads` threads (the calling one included;
/// `std::thread::scope`), each thread taking the next domain not yet taken, so that a thread
/// that finishes early takes more. Which thread runs a domain does not change its result.
fn for_each_parallel<F>(subs: &mut [Sub], threads: usize, f: F)
where
    F: Fn(usize, &mut Sub) + Sync,
{
    let threads = threads.min(subs.len()).max(1);
    if threads == 1 {
        for (k, sub) in subs.iter_mut().enumerate() {
            f(k, sub);
        }
        return;
    }
    let next = std::sync::Mutex::new(subs.iter_mut().enumerate());
    let work = || loop {
        // A poisoned lock means another thread panicked; the scope passes its panic on.
        let taken = next.lock().unwrap_or_else(|e| e.into_inner()).next();
        let Some((k, sub)) = taken else { break };
        f(k, sub);
    };
    std::thread::scope(|scope| {
        for _ in 1..threads {
            scope.spawn(work);
        }
        work();
    });
}

impl World {
    /// An empty world with this world's size, walls, grid and settings, at its time, for a
    /// domain whose balls occupy `region` (its broad phase covers that region).
    fn domain_world(&self, region: Aabb) -> World {
        let mut d = World::empty(self.size, self.walls, self.config);
        d.grid = self.grid.clone();
        d.steps = self.steps;
        d.time = self.time;
        d.embed_check = false;
        d.scratch.region = Some(region);
        d.scratch.tracing = true;
        d
    }

    /// Adds `rec` (a ball of another domain's world, id and path kept bit for bit) between
    /// steps; it joins without predicting everything again when it can (`World::add_ball`).
    fn join_exact(&mut self, rec: BallRec, filter: Filter) {
        self.balls.push(rec);
        self.ball_rest.push(None);
        self.ball_slow.push(crate::step::sleep::Slow::default());
        self.ball_filter_pushed(filter);
        self.scratch.ball_added(rec.radius, self.config.ball_ball);
    }
}
