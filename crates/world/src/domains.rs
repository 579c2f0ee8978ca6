//! Spatial domains: [`World::step`] on several threads, with the same bits as one thread.
//!
//! # What it does
//! A large world of balls (at least [`MIN_BALLS`], [`World::set_threads`] above 1) is cut into
//! vertical strips, one *domain* each, about [`BALLS_PER_DOMAIN`] balls a domain. A domain
//! owns the balls whose centres are in its strip at the start of a step, and keeps its own
//! world (a [`World`] holding only some balls, with its own predictions, broad phase and
//! queue) with its owned balls and copies of its neighbours' balls within a *halo* of width
//! `H` beyond its strip. Every domain steps its world on its own, the domains in parallel
//! (`std::thread::scope`), and the step is then *verified*: if the check passes, each
//! domain's owned balls are the serial step's, bit for bit, and are copied into the world;
//! if it fails, the step is run again serially (from the untouched world) and the domains are
//! built again at the next step. This is optimistic parallel discrete-event simulation (D.
//! Jefferson, "Virtual time", ACM TOPLAS 7, 1985) with the step as the unit of rollback, and
//! the check below in place of per-event anti-messages.
//!
//! # Why the check makes the result exact
//! Results depend only on the balls' paths: contact times are canonical (solved from both
//! balls' anchors, in id order, `step.rs`), simultaneous events are ordered by stable ids
//! (not storage places), so a world holding a subset of the balls computes, for the balls
//! whose history it sees in full, the same bits as the whole world. What a domain may not see
//! in full is a copy of a neighbour's ball (a *ghost*): the ghost can be hit by a ball that
//! only the neighbour has. So every domain records each ball's velocity changes (new path
//! and partner), and for every ball held by two domains the two records are compared: `D`,
//! the time of the first difference (none when identical), is when the non-owner's copy left
//! the true path (the owner's record is the truth, by induction on the earliest error).
//! The step is accepted when, for every ball `x` whose copies differ from time `D`:
//! 1. in the non-owner's world, `x` hits no ball the non-owner owns at or after `D` (its
//!    wrong copy did not touch a ball whose result will be kept);
//! 2. the swept box of `x`'s true path over `[D, end]` (grown by its radius) meets no swept
//!    box of the true path of a ball the non-owner owns and the owner holds a copy of (grown
//!    by that ball's radius): the true `x` did not meet a ball whose owner's world had a
//!    wrong `x`;
//!
//! and no ball can reach a ball that its owner's world does not hold: the halo `H` exceeds
//! `2·v_max·dt + 2·r_max`, with `v_max` the largest speed any ball had during the step. Take
//! the earliest time `t` at which a kept ball's path is wrong: its event at `t` involves a
//! ghost whose copy was wrong before `t` (excluded by 1), or a true contact that its world
//! missed because the partner's copy was wrong (excluded by 2), or a ball its world does not
//! hold (excluded by the halo). The same argument runs for every domain, so the step's kept
//! paths are the serial step's. Events are merged in the serial loop's order (time, then the
//! reporting mover's id), each from the domain that owns its mover.
//!
//! # When it is used
//! Only where a domain's world can reproduce the serial step: balls only (no rectangle), all
//! four walls closed, ball–ball collisions on, restitution 1 (so the TC rule, which reads
//! last-hit times a domain's copy may not have, changes nothing), no destructible brick (a
//! brick destroyed in one domain would stay in another), nothing embedded, and a world wide
//! enough for at least two strips of three halos. Any edit of the world drops the domains;
//! they are built again (every domain predicting its balls) at the next step. Otherwise the
//! step is the serial one.
//!
//! Must not depend on anything but the world itself (no thread pool: `std::thread::scope`).

use crate::event::Event;
use crate::step::Trace;
use crate::world::{BallRec, World};
use collide_core::{Aabb, Real, Vec2};

/// No domain, no ball.
const NONE: u32 = u32::MAX;
/// Fewest balls for which a world is cut into domains.
pub const MIN_BALLS: usize = 20_000;
/// Balls per domain aimed at when cutting a world (measured: `examples/domains_bound.rs`).
pub const BALLS_PER_DOMAIN: usize = 10_000;

/// One domain: its world (owned balls and copies of its neighbours'), and its balls' places.
#[derive(Clone, Debug)]
struct Sub {
    world: World,
    /// Local index → index in the whole world.
    global: Vec<u32>,
    /// Index in the whole world → local index (`NONE`: not held).
    local: Vec<u32>,
}

/// The world cut into domains (kept in [`World`] between steps).
#[derive(Clone, Debug)]
pub(crate) struct Domains {
    subs: Vec<Sub>,
    /// Domain `k` owns the centres with `cuts[k - 1] <= x < cuts[k]` (no bound at the ends).
    cuts: Vec<Real>,
    /// Width of the halo of copies around each strip, world units.
    halo: Real,
    /// Largest ball radius.
    r_max: Real,
    /// Largest speed at the start of the step.
    v0_max: Real,
    /// Per ball (whole-world index): its owner, and the other domain holding a copy.
    home: Vec<u32>,
    second: Vec<u32>,
    /// Reused buffers: trace entries of balls held twice (ball, domain, place in its trace),
    /// diverged balls (ball, `D`), per-domain removals and additions, merge cursors.
    shared: Vec<(u32, u32, u32)>,
    diverged: Vec<(u32, Real)>,
    drops: Vec<Vec<usize>>,
    adds: Vec<(u32, u32)>,
    cursor: Vec<usize>,
}

/// Whether `w` can be stepped in domains (see the module docs).
fn eligible(w: &World) -> bool {
    let walls = w.walls;
    w.threads > 1
        && w.balls.len() >= MIN_BALLS
        && w.rects.is_empty()
        && w.config.ball_ball
        && w.config.restitution == 1.0
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
pub(crate) fn step(w: &mut World) -> bool {
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
    if d.run(w) {
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

    /// Cuts `w` into domains, or `None` when it is too narrow for two.
    fn build(w: &mut World) -> Option<Domains> {
        let n = w.balls.len();
        let dt = w.config.dt;
        let (mut v_max, mut r_max): (Real, Real) = (0.0, 0.0);
        for b in &w.balls {
            v_max = v_max.max(b.vel.length());
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
            shared: Vec::new(),
            diverged: Vec::new(),
            drops: vec![Vec::new(); k_count],
            adds: Vec::new(),
            cursor: vec![0; k_count],
        };
        for k in 0..k_count {
            let lo = if k == 0 { 0.0 } else { d.cuts[k - 1] - halo };
            let hi = if k + 1 == k_count {
                width
            } else {
                d.cuts[k] + halo
            };
            let region = Aabb::new(Vec2::new(lo.max(0.0), 0.0), Vec2::new(hi.min(width), w.size.y));
            d.subs.push(Sub {
                world: w.domain_world(region),
                global: Vec::new(),
                local: vec![NONE; n],
            });
        }
        let t = w.time;
        for g in 0..n {
            let x = w.balls[g].pos_at(t).x;
            let h = d.owner(x);
            let s = d.neighbour(h, x);
            d.home[g] = h;
            d.second[g] = s;
            for k in [h, s] {
                if k != NONE {
                    let sub = &mut d.subs[k as usize];
                    sub.local[g] = sub.global.len() as u32;
                    sub.global.push(g as u32);
                    sub.world.balls.push(w.balls[g]);
                }
            }
        }
        // The world's own predictions are not kept up while the domains step.
        w.scratch.valid = false;
        Some(d)
    }

    /// One step in domains: steps every domain (in parallel), checks, and on success writes
    /// the owned balls, the merged events and the time into `w` and updates the domains'
    /// balls for the next step. On failure `w` is untouched and `self` is spent.
    fn run(&mut self, w: &mut World) -> bool {
        for sub in &mut self.subs {
            sub.world.event_movers.clear();
            sub.world.scratch.trace.clear();
        }
        let threads = w.threads.min(self.subs.len()).max(1);
        if threads == 1 {
            for sub in &mut self.subs {
                sub.world.step();
            }
        } else {
            let mut parts: Vec<Vec<&mut Sub>> = (0..threads).map(|_| Vec::new()).collect();
            for (k, sub) in self.subs.iter_mut().enumerate() {
                parts[k % threads].push(sub);
            }
            std::thread::scope(|scope| {
                let mut parts = parts.into_iter();
                let mine = parts.next();
                for part in parts {
                    scope.spawn(move || {
                        for sub in part {
                            sub.world.step();
                        }
                    });
                }
                for sub in mine.into_iter().flatten() {
                    sub.world.step();
                }
            });
        }
        if !self.verify(w) {
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
            if sub.world.time.to_bits() != t1.to_bits()
                || sub.world.events.iter().any(|e| {
                    matches!(
                        e,
                        Event::IterationLimit { .. }
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
        for (k, sub) in self.subs.iter().enumerate() {
            for (i, e) in sub.world.scratch.trace.iter().enumerate() {
                let g = sub.global[e.m as usize];
                if self.second[g as usize] != NONE {
                    self.shared.push((g, k as u32, i as u32));
                }
            }
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
                    add(rec.pos_at(from));
                    started = true;
                }
                add(tr.anchor);
            }
            rec.anchor = tr.anchor;
            rec.anchor_time = tr.anchor_time;
            rec.vel = tr.vel;
        }
        if !started {
            add(rec.pos_at(from));
        }
        add(rec.pos_at(to));
        let grow = start.radius * (1.0 + 1e-9) + 1e-9;
        Aabb::new(lo, hi).grown(grow)
    }

    /// Writes a verified step into `w` and readies the domains for the next one.
    fn commit(&mut self, w: &mut World) {
        let t1 = self.subs[0].world.time;
        // Events in the serial loop's order: time, then the reporting mover's id; each from
        // the domain owning that mover (a domain's events are in that order already).
        w.events.clear();
        for c in &mut self.cursor {
            *c = 0;
        }
        loop {
            let mut best: Option<(usize, Real, u32)> = None;
            for (k, sub) in self.subs.iter().enumerate() {
                let c = &mut self.cursor[k];
                while let Some(&(t, m)) = sub.world.event_movers.get(*c) {
                    let g = sub.global[m as usize] as usize;
                    if self.home[g] == k as u32 {
                        let key = w.balls[g].id.index();
                        if best.is_none_or(|b| t < b.1 || (t == b.1 && key < b.2)) {
                            best = Some((k, t, key));
                        }
                        break;
                    }
                    *c += 1;
                }
            }
            let Some((k, t, _)) = best else { break };
            // Every event this mover reported at this time, in order.
            let sub = &self.subs[k];
            let c = &mut self.cursor[k];
            let m = sub.world.event_movers[*c].1;
            while sub.world.event_movers.get(*c) == Some(&(t, m)) {
                w.events.push(sub.world.events[*c]);
                *c += 1;
            }
        }
        // The owned balls.
        for (k, sub) in self.subs.iter().enumerate() {
            for (i, &g) in sub.global.iter().enumerate() {
                if self.home[g as usize] == k as u32 {
                    w.balls[g as usize] = sub.world.balls[i];
                }
            }
        }
        w.time = t1;
        // Wrong copies take the true path.
        for &(g, _) in &self.diverged {
            let n = self.second[g as usize] as usize;
            let sub = &mut self.subs[n];
            let i = sub.local[g as usize] as usize;
            sub.world.balls[i] = w.balls[g as usize];
            sub.world.scratch.course_changed(i);
        }
        // Who holds whom now.
        self.adds.clear();
        let mut v_max: Real = 0.0;
        for g in 0..w.balls.len() {
            let b = &w.balls[g];
            v_max = v_max.max(b.vel.length());
            let x = b.pos_at(t1).x;
            let h = self.owner(x);
            let s = self.neighbour(h, x);
            let (h0, s0) = (self.home[g], self.second[g]);
            if (h, s) == (h0, s0) {
                continue;
            }
            for k in [h0, s0] {
                if k != NONE && k != h && k != s {
                    let i = self.subs[k as usize].local[g];
                    self.drops[k as usize].push(i as usize);
                }
            }
            for k in [h, s] {
                if k != NONE && k != h0 && k != s0 {
                    self.adds.push((k, g as u32));
                }
            }
            self.home[g] = h;
            self.second[g] = s;
        }
        self.v0_max = v_max;
        for (k, sub) in self.subs.iter_mut().enumerate() {
            let list = &mut self.drops[k];
            if list.is_empty() {
                continue;
            }
            list.sort_unstable();
            sub.world.drop_balls(list);
            for &i in list.iter().rev() {
                let gone = sub.global.swap_remove(i);
                sub.local[gone as usize] = NONE;
                if let Some(&moved) = sub.global.get(i) {
                    sub.local[moved as usize] = i as u32;
                }
            }
            list.clear();
        }
        for &(k, g) in &self.adds {
            let sub = &mut self.subs[k as usize];
            sub.local[g as usize] = sub.global.len() as u32;
            sub.global.push(g);
            sub.world.join_exact(w.balls[g as usize]);
        }
    }
}

impl World {
    /// An empty world with this world's size, walls, grid and settings, at its time, for a
    /// domain whose balls occupy `region` (its broad phase covers that region).
    fn domain_world(&self, region: Aabb) -> World {
        let mut scratch = crate::step::Scratch::default();
        scratch.region = Some(region);
        scratch.tracing = true;
        World {
            size: self.size,
            walls: self.walls,
            grid: self.grid.clone(),
            balls: Vec::new(),
            ball_slots: Default::default(),
            rects: Vec::new(),
            rect_anchor: Vec::new(),
            rect_slots: Default::default(),
            config: self.config,
            events: Vec::new(),
            steps: self.steps,
            scratch,
            time: self.time,
            embed_check: false,
            embed_some: Vec::new(),
            threads: 1,
            event_movers: Vec::new(),
            domains: None,
            domain_steps: (0, 0),
        }
    }

    /// Adds `rec` (a ball of another domain's world, id and path kept bit for bit) between
    /// steps; it joins without predicting everything again when it can (`World::add_ball`).
    fn join_exact(&mut self, rec: BallRec) {
        self.balls.push(rec);
        self.scratch.ball_added(rec.radius, self.config.ball_ball);
    }
}
