//! A mover's next events, searched from its current state: its static event (tiles, closed
//! walls, open sides, static and kinematic rectangles), its pair event (another mover) and its
//! next broad-phase cell crossing. Each search is a pure function of the world's state.

use super::contact::{ball_ball_contact, ball_ball_contact_acc, no_hit};
use super::mover::{PTarget, Predicted, Prediction, ACTIVE, DEAD, NO_CROSSING};
use super::pair_scan::PairBest;
use crate::body::rect::RectRole;
use crate::step::pass::PassWith;
use crate::world::World;
use collide_core::{
    sweep_aabb_aabb, sweep_circle_aabb, sweep_circle_half_plane, Aabb, Features, Real, SweepHit,
    Vec2,
};

/// The shortest static search window of a ball, in grid cells (see `static_event`).
pub(super) const STATIC_WINDOW_CELLS: Real = 0.5;

/// The longest static search window of a ball near tiles, in grid cells: a quarter of a
/// step's path is walked at most this far, so that one search's cost does not grow with the
/// step size (with a step of 1000 s a quarter of the path crosses the whole world at every
/// event). Only the windows change, never the events found (times are from the ball's
/// anchor).
pub(super) const MAX_WINDOW_CELLS: Real = 16.0;

/// The static search window near tiles, world units: a quarter of the path over a step of
/// `dt` at `speed`, at least [`STATIC_WINDOW_CELLS`] and at most [`MAX_WINDOW_CELLS`] cells
/// of side `cell`.
pub(super) fn static_window(cell: Real, speed: Real, dt: Real) -> Real {
    (0.25 * speed * dt)
        .min(MAX_WINDOW_CELLS * cell)
        .max(STATIC_WINDOW_CELLS * cell)
}

/// How much of a free run (a span with no tile within reach, measured by the grid's
/// clearance, over which the grid walk is skipped) is trusted, as a fraction of the run's time
/// from the anchor: the run ends `FREE_RUN_MARGIN·t` early.
///
/// A ball heading straight at the nearest tile point reaches it exactly at the run's end, so
/// without a margin the computed contact time can round to just before the end, where it is
/// not searched, and the next search reports it clamped to its own start: a time that depends
/// on where the run started (a restored world starts its runs elsewhere), not on the ball's
/// path alone. A contact time is accurate to a few ulps of `t` where its root is simple and
/// to about `√ε·t ≈ 1.5e-8·t` where it is double (a point ball, radius 0, meeting a corner:
/// the corner's distance `|q(t)|²` touches zero), so 1e-6 of `t` keeps every computed contact
/// of a run inside the next search.
pub(super) const FREE_RUN_MARGIN: Real = 1e-6;

/// The end of a free run that starts `base` seconds after the anchor and would last `dur`
/// seconds, shortened by [`FREE_RUN_MARGIN`] (seconds from the anchor; at most `base + dur`,
/// and not past `base` when the run is shorter than the margin).
#[inline]
pub(super) fn free_run_end(base: Real, dur: Real) -> Real {
    (base + dur) * (1.0 - FREE_RUN_MARGIN)
}

/// A static search's result as a prediction: the earliest hit (time from `origin`, the start
/// of the mover's path), never before `s_t` (now).
#[inline]
pub(super) fn static_found(
    best: Option<(Real, PTarget, SweepHit)>,
    origin: Real,
    s_t: Real,
) -> Option<Prediction> {
    best.map(|(toi, target, hit)| Prediction {
        time: (origin + toi).max(s_t),
        toi_anchor: toi,
        target,
        normal: hit.normal,
        point: hit.point,
        feature: hit.feature,
        partner_motion: 0,
    })
}

/// Keeps the hit of a static search at `toi` (from the mover's path start) in `best` when it is
/// the earliest so far and within `limit`, which it then becomes (later hits are not wanted).
#[inline]
pub(super) fn take(
    toi: Real,
    target: PTarget,
    hit: SweepHit,
    best: &mut Option<(Real, PTarget, SweepHit)>,
    limit: &mut Real,
) {
    if toi <= *limit && best.is_none_or(|b| toi < b.0) {
        *best = Some((toi, target, hit));
        *limit = toi;
    }
}

impl World {
    /// Mover `m`'s predictions from its current state up to this step's `cap`: a pure
    /// function of the world's state (what [`World::predict`] stores), so that many movers
    /// can be predicted in parallel. `G`: a step compiled for gravity or not
    /// ([`World::acc_g`]).
    pub(super) fn compute_prediction<const G: bool, const X: bool>(&self, m: usize) -> Predicted {
        if self.is_unplaceable(m) {
            // Held where it is for the step (`World::hold_unplaceable`): nothing to predict.
            return Predicted::default();
        }
        let s_t = self.scratch.mv[m].t;
        let cap = self.scratch.cap;
        if self.scratch.mv[m].state == ACTIVE && cap >= s_t {
            // The pair search first, to the horizon (its cost hardly depends on how far it
            // looks), then the static search only as far as the pair event: a static search
            // walks the grid along the path, and a ball usually meets another ball before
            // the end of its window (mean free path 7.6 units on the arena).
            // A sleeping body does not move: every other body's own search finds it (those
            // near it searched again when it fell asleep, `step/sleep.rs`).
            let pair = if G && self.mover_asleep(m) {
                None
            } else {
                self.pair_event::<G, X>(m, s_t, cap, None)
            };
            let stat_cap = pair.map_or(cap, |p| p.time);
            if self.is_ball(m) {
                // The ball's centre now, computed once for both searches.
                let pos = self.balls[m].pos_at(s_t, self.acc_g::<G>(m));
                let (stat, stat_until) = self.ball_static_event::<G, X>(m, pos, s_t, stat_cap);
                Predicted {
                    stat,
                    stat_until,
                    pair,
                    cross: self.next_crossing::<G, X>(m, pos, s_t),
                }
            } else {
                let (stat, stat_until) = self.box_static_event(m, s_t, stat_cap);
                Predicted {
                    stat,
                    stat_until,
                    pair,
                    cross: NO_CROSSING,
                }
            }
        } else {
            Predicted {
                stat: None,
                stat_until: cap,
                pair: None,
                cross: NO_CROSSING,
            }
        }
    }

    /// When ball `m` (active, at `pos` at its current time `s_t`) leaves its broad-phase
    /// cell, and for which neighbour; `NO_CROSSING` without a broad phase.
    pub(super) fn next_crossing<const G: bool, const X: bool>(
        &self,
        m: usize,
        pos: Vec2,
        s_t: Real,
    ) -> (Real, u32) {
        debug_assert!(self.is_ball(m));
        if !self.scratch.use_bp {
            return NO_CROSSING;
        }
        let bp = &self.scratch.bp;
        let acc = self.acc_g::<G>(m);
        let (tc, next) = if acc == Vec2::ZERO {
            bp.exit(bp.cell_of(m), pos, self.balls[m].v0)
        } else {
            let v = self.balls[m].vel_at(s_t, acc);
            bp.exit_path(bp.cell_of(m), pos, v, acc)
        };
        if tc.is_finite() {
            (s_t + tc, next)
        } else {
            NO_CROSSING
        }
    }

    /// Mover `m`'s earliest event with geometry that does not react (tiles, closed walls,
    /// open sides, static and kinematic rectangles) from its state at absolute time `s_t` up
    /// to absolute time `cap`. Balls are swept from their anchor, so impact times do not
    /// depend on the step size.
    ///
    /// A ball far from every tile searches as far as it can travel without touching one
    /// (the grid's clearance, a lower bound on the distance to every solid cell) without
    /// walking the grid; a ball near tiles walks a window of `STATIC_WINDOW_CELLS` grid
    /// cells or a quarter of its path over a step, whichever is longer, at most `MAX_WINDOW_CELLS`
    /// cells; both at most to
    /// `cap`. Returns the event, if any, and the absolute time the search reached (the mover
    /// searches further from there when nothing was found).
    pub(super) fn static_event<const G: bool, const X: bool>(
        &self,
        m: usize,
        s_t: Real,
        cap: Real,
    ) -> (Option<Prediction>, Real) {
        if self.is_ball(m) {
            // An active mover's time is `s_t`: its centre is there.
            debug_assert!(self.scratch.mv[m].state == ACTIVE && self.scratch.mv[m].t == s_t);
            let pos = self.balls[m].pos_at(s_t, self.acc_g::<G>(m));
            self.ball_static_event::<G, X>(m, pos, s_t, cap)
        } else {
            self.box_static_event(m, s_t, cap)
        }
    }

    /// [`World::static_event`] for ball `m`, whose centre at `s_t` is `pos` (the caller has
    /// it: computed once per prediction): the search of its path, and the end of a pass
    /// (`pass.rs`) when one comes first.
    fn ball_static_event<const G: bool, const X: bool>(
        &self,
        m: usize,
        pos: Vec2,
        s_t: Real,
        cap: Real,
    ) -> (Option<Prediction>, Real) {
        let (found, searched) = self.ball_path_event::<G, X>(m, pos, s_t, cap);
        if !X || self.passes.is_empty() {
            return (found, searched);
        }
        // At its exact time (`pass_ended` checks it against the same computation).
        match self.passes_end(m) {
            Some(end) if end <= searched && found.is_none_or(|f| end < f.time) => {
                let time = end.max(s_t);
                let pred = Prediction {
                    time,
                    toi_anchor: time - self.balls[m].anchor_time,
                    target: PTarget::PassEnd,
                    normal: Vec2::ZERO,
                    point: pos,
                    feature: collide_core::Feature::Circle,
                    partner_motion: 0,
                };
                (Some(pred), searched)
            }
            _ => (found, searched),
        }
    }

    /// The earliest event of ball `m`'s path (tiles, walls, open sides, rectangles; see
    /// [`World::static_event`]), straight or curved.
    fn ball_path_event<const G: bool, const X: bool>(
        &self,
        m: usize,
        pos: Vec2,
        s_t: Real,
        cap: Real,
    ) -> (Option<Prediction>, Real) {
        if self.has_gravity::<G>() {
            return self.ball_static_event_curved(m, pos, s_t, cap);
        }
        let b = &self.balls[m];
        let (v, radius) = (b.v0, b.radius);
        let a = b.start();
        let speed = v.length();
        let mut best: Option<(Real, PTarget, SweepHit)> = None;
        // The absolute time the search reaches (`cap` unless the window is shorter).
        let mut searched = cap;
        // Whether no tile can be met before `searched` (the grid's clearance says so).
        let mut skip_walk = false;
        // The grid's clearance at the centre (0: unknown, walk).
        let mut clear: Real = 0.0;
        // Times are measured from the anchor (`base` before now).
        let base = (s_t - a.time).max(0.0);
        let mut limit = cap - a.time;
        // The grid, unless the ball collides with no cell kind (`crate::model::filter`).
        let grid = self
            .grid
            .as_ref()
            .map(|g| (g, self.ball_kinds(m, g)))
            .filter(|(_, k)| !k.is_none());
        if let Some((g, _)) = grid {
            // No tile within `free` of the centre's path: the search window is the
            // free run, and the grid walk is skipped; else a short window is walked.
            clear = g.clearance(pos);
            let free = clear - radius;
            // At least a quarter of a step's path: a few windows per step at most.
            let window = static_window(g.cell_size(), speed, self.config.dt);
            skip_walk = free >= window;
            let run = if skip_walk { free } else { window };
            if speed > 0.0 && run < speed * (limit - base) {
                // Strictly later than now, strictly earlier than `cap`.
                let end = if skip_walk {
                    a.time + free_run_end(base, run / speed)
                } else {
                    a.time + (base + run / speed)
                };
                if end > s_t && end < cap {
                    limit = end - a.time;
                    searched = end;
                } else {
                    skip_walk = false;
                }
            } else {
                skip_walk = false;
            }
        }
        let reach = radius + speed * (limit - base);
        if let (Some((g, kinds)), false) = (grid, skip_walk) {
            if clear <= reach * (1.0 + 1e-9) + 1e-9 {
                if let Some(gh) = g.sweep_circle_kinds(kinds, a.pos, radius, v, base, limit) {
                    take(
                        gh.hit.toi,
                        PTarget::Cell(gh.cell),
                        gh.hit,
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
                    &mut best,
                    &mut limit,
                );
            }
        }
        let reach_box = Aabb::new(pos - reach, pos + reach);
        self.straight_rect_hits::<X>(m, &reach_box, base, &mut best, &mut limit);
        if X && !self.shapes.is_empty() {
            let path = collide_core::motion::Path::linear(a.pos, v);
            self.shape_hits(
                m,
                &path,
                &reach_box.grown(1e-9),
                base,
                &mut best,
                &mut limit,
            );
        }
        if X && !self.characters.is_empty() {
            let path = collide_core::motion::Path::linear(a.pos, v);
            let reach = reach_box.grown(1e-9);
            self.character_hits(m, &path, &reach, base, &mut best, &mut limit);
        }
        if X && self.has_sensor_cells() {
            let path = collide_core::motion::Path::linear(a.pos, v);
            self.sensor_cell_hits(m, &path, base, &mut best, &mut limit);
        }
        if X && !self.flippers.is_empty() {
            let path = collide_core::motion::Path::linear(a.pos, v);
            let reach = reach_box.grown(1e-9);
            let (best, limit) = (&mut best, &mut limit);
            self.flipper_hits(m, &path, a.time, &reach, base, best, limit, &mut searched);
        }
        (static_found(best, a.time, s_t), searched)
    }

    /// The static and kinematic rectangles (and sensors) that ball `m` on its straight path
    /// (times from its anchor; `base` the search's start) meets before `limit`, for
    /// [`World::ball_path_event`]: static ones whose box meets `reach_box` swept as they are,
    /// moving ones in their own frame from the later of the two anchors; a rectangle the ball
    /// passes through (`X`: passes exist) met only after it parts.
    #[inline(always)]
    fn straight_rect_hits<const X: bool>(
        &self,
        m: usize,
        reach_box: &Aabb,
        base: Real,
        best: &mut Option<(Real, PTarget, SweepHit)>,
        limit: &mut Real,
    ) {
        let b = &self.balls[m];
        let (v, radius) = (b.v0, b.radius);
        let a = b.start();
        let filter = self.ball_filter_at(m);
        let passes = if X { self.passes_of(m) } else { &[] };
        for (k, rc) in self.rects.iter().enumerate() {
            if !filter.collides(rc.surface.filter) {
                continue;
            }
            if let Some(after) = self.rect_pass_contact(m, k, passes, *limit) {
                // Inside it (nothing to meet), or parted from it: met again only after.
                if let Some((toi, h)) = after {
                    take(toi.max(base), PTarget::Rect(k as u32), h, best, limit);
                }
                continue;
            }
            match rc.role() {
                RectRole::Static => {
                    if !collide_core::aabb_overlaps_aabb(&reach_box.grown(1e-9), &rc.aabb) {
                        continue;
                    }
                    if let Some(h) =
                        sweep_circle_aabb(a.pos, radius, v, *limit, &rc.aabb, Features::ALL)
                    {
                        take(h.toi.max(base), PTarget::Rect(k as u32), h, best, limit);
                    }
                }
                RectRole::Kinematic | RectRole::Sensor => {
                    // Swept in the rectangle's frame from the later of the two
                    // anchors (the ball's, the rectangle's): the same bits whenever
                    // the ball searches (after a crossing, at a horizon, at another
                    // step), as for tiles and balls.
                    let u = rc.vel;
                    let (ra, rt, _) = self.rect_anchor[k];
                    let r_t = a.time.max(rt);
                    let off = r_t - a.time;
                    let p_ref = a.pos + v * off;
                    let aabb = ra.translated(u * (r_t - rt));
                    if let Some(mut h) =
                        sweep_circle_aabb(p_ref, radius, v - u, *limit - off, &aabb, Features::ALL)
                    {
                        h.point += u * h.toi;
                        take(
                            (off + h.toi).max(base),
                            PTarget::Rect(k as u32),
                            h,
                            best,
                            limit,
                        );
                    }
                }
                RectRole::Dynamic => {}
            }
        }
    }

    /// [`World::static_event`] for dynamic rectangle mover `m`.
    fn box_static_event(&self, m: usize, s_t: Real, cap: Real) -> (Option<Prediction>, Real) {
        if self.config.gravity != Vec2::ZERO {
            return self.box_static_event_curved(m, s_t, cap);
        }
        let me = &self.rects[self.rect_index(m)];
        let (v, filter) = (me.vel, me.surface.filter);
        let mut best: Option<(Real, PTarget, SweepHit)> = None;
        // A box from the start of its current path, as a ball (times from there).
        let (aabb, at, _, _) = self.dyn_path(m);
        let (base, mut limit) = (s_t - at, cap - at);
        // Swept from the start of its path (`base`: now, from there); a hit computed
        // before now by rounding is taken now.
        if let Some(g) = &self.grid {
            if let Some(gh) = g.sweep_aabb_kinds(g.kinds_for(filter), &aabb, v, base, limit) {
                take(
                    gh.hit.toi,
                    PTarget::Cell(gh.cell),
                    gh.hit,
                    &mut best,
                    &mut limit,
                );
            }
        }
        for (side, h) in self.box_wall_hits(&aabb, v, limit) {
            take(
                h.toi.max(base),
                PTarget::Wall(side),
                h,
                &mut best,
                &mut limit,
            );
        }
        if let Some((toi, side)) = self.loss_time(&aabb, v, limit) {
            take(
                toi.max(base),
                PTarget::Lost(side),
                no_hit(toi, aabb.center() + v * toi),
                &mut best,
                &mut limit,
            );
        }
        for (k, rc) in self.rects.iter().enumerate() {
            if !filter.collides(rc.surface.filter) {
                continue;
            }
            // A kinematic rectangle from the later of the two paths' starts.
            let (other, u, off) = match rc.role() {
                RectRole::Static => (rc.aabb, Vec2::ZERO, 0.0),
                RectRole::Kinematic => {
                    let (ka, kt, _) = self.rect_anchor[k];
                    let r_t = at.max(kt);
                    (ka.translated(rc.vel * (r_t - kt)), rc.vel, r_t - at)
                }
                // Dynamic rectangles pass through sensors.
                RectRole::Dynamic | RectRole::Sensor => continue,
            };
            let from = aabb.translated(v * off);
            let hit = if self.one_way_rect(k) {
                self.box_platform_hit(&from, v, Vec2::ZERO, &other, u, limit - off)
            } else {
                sweep_aabb_aabb(&from, v, &other, u, limit - off)
            };
            if let Some(h) = hit {
                take(
                    (off + h.toi).max(base),
                    PTarget::Rect(k as u32),
                    h,
                    &mut best,
                    &mut limit,
                );
            }
        }
        if !self.shapes.is_empty() {
            let disp = collide_core::motion::Path::linear(Vec2::ZERO, v);
            self.box_shape_hits(m, &aabb, &disp, base, &mut best, &mut limit);
        }
        if !self.characters.is_empty() {
            let disp = collide_core::motion::Path::linear(Vec2::ZERO, v);
            self.box_character_hits(m, &aabb, &disp, base, &mut best, &mut limit);
        }
        let mut searched = cap;
        if !self.flippers.is_empty() {
            let centre = collide_core::motion::Path::linear(aabb.center(), v);
            let disp = collide_core::motion::Path::linear(Vec2::ZERO, v);
            let reach = crate::grid::walk::box_path_bounds(&aabb, &disp, base, limit).grown(1e-9);
            let (best, limit) = (&mut best, &mut limit);
            self.flipper_hits(m, &centre, at, &reach, base, best, limit, &mut searched);
        }
        (static_found(best, at, s_t), searched)
    }

    /// Mover `m`'s earliest event with another mover (balls of the broad-phase neighbourhood
    /// when ball–ball collisions are on, every dynamic rectangle; for a box, the balls it can
    /// reach) from its state at absolute time `s_t` up to absolute time `until`.
    ///
    /// `entered`: for a ball that just crossed from cell `entered`, only the balls of the
    /// cells of its new 3×3 neighbourhood that were not in the old one.
    #[inline]
    pub(super) fn pair_event<const G: bool, const X: bool>(
        &self,
        m: usize,
        s_t: Real,
        until: Real,
        entered: Option<u32>,
    ) -> Option<Prediction> {
        if !(until - s_t >= 0.0) {
            return None;
        }
        if self.plain_pairs::<G, X>() {
            // Plain pairs mean no dynamic rectangle: `m` is a ball.
            debug_assert!(self.is_ball(m));
            self.plain_ball_pair_event(m, s_t, until, entered)
        } else {
            self.general_pair_event(m, s_t, until, entered)
        }
    }

    /// [`World::pair_event`] in general: balls with filters, passes or gravity, dynamic
    /// rectangles. Out of line, so that the plain search's callers do not pay for its setup.
    #[inline(never)]
    fn general_pair_event(
        &self,
        m: usize,
        s_t: Real,
        until: Real,
        entered: Option<u32>,
    ) -> Option<Prediction> {
        let sc = &self.scratch;
        let mut best: PairBest = None;
        let mut limit = until;
        let filter = self.mover_filter(m);
        if self.is_ball(m) {
            // Dynamic rectangles (few): every one it collides with.
            for &j in &sc.rect_movers {
                let j = j as usize;
                if sc.mv[j].state == DEAD
                    || !filter.collides(self.rects[self.rect_index(j)].surface.filter)
                {
                    continue;
                }
                if let Some((time, h)) = self.ball_box_contact(m, j, limit) {
                    self.take_pair(&mut best, &mut limit, time, j, h);
                }
            }
            if sc.use_bp && self.config.ball_ball {
                let balls = &self.balls;
                let bm = &balls[m];
                // Filters (`crate::model::filter`): tested per candidate only when some ball has one
                // other than the default; a filtered pair is skipped before anything of the
                // candidate is read but its filter. A ball passing through another (a contact
                // a hook ignored) does not meet it.
                let filters = &self.ball_filter[..];
                let filtered = !filters.is_empty();
                let passes = self.passes_of(m);
                let passing = !passes.is_empty();
                let left_out = |j: usize| {
                    (filtered && !filter.collides(filters[j]))
                        || (passing && passes.iter().any(|p| p.with == PassWith::Ball(balls[j].id)))
                };
                let straight = self.config.gravity == Vec2::ZERO;
                if straight && !filtered && !passing {
                    self.scan_ball_pairs(m, entered, &mut best, &mut limit, |b, _, _, limit| {
                        ball_ball_contact(bm, b, limit)
                    });
                } else {
                    // Under gravity, or with filters or passes: one search for all of them.
                    // Each ball's acceleration: a ball held by a face, or stopped at the bound
                    // (`acc` zero, given), has another than the rest (NaN: look it up).
                    let acc_m = self.acc_of(m);
                    self.scan_ball_pairs(m, entered, &mut best, &mut limit, |b, acc, j, limit| {
                        if left_out(j) {
                            return None;
                        }
                        if straight {
                            return ball_ball_contact(bm, b, limit);
                        }
                        let acc = if acc.x.is_nan() { self.acc_of(j) } else { acc };
                        ball_ball_contact_acc(bm, acc_m, b, acc, limit)
                    });
                }
            }
        } else {
            let r = &self.rects[self.rect_index(m)];
            // Its box and velocity now (advanced to `s_t`), and its acceleration.
            let (aabb, v) = (r.aabb, r.vel);
            let acc = self.dyn_path(m).3;
            for &j in &sc.rect_movers {
                let j = j as usize;
                if j == m
                    || sc.mv[j].state == DEAD
                    || !filter.collides(self.rects[self.rect_index(j)].surface.filter)
                {
                    continue;
                }
                if let Some((time, h)) = self.box_box_contact(m, j, limit) {
                    self.take_pair(&mut best, &mut limit, time, j, h);
                }
            }
            if sc.use_bp && !self.balls.is_empty() {
                // Balls in the cells this box can reach before its horizon: within its speed
                // times the span on a straight path, within the exact bounds of the box
                // swept along its parabola under gravity (a falling box sweeps a strip).
                let span = (sc.cap - s_t).max(0.0);
                let q = if acc == Vec2::ZERO {
                    aabb.grown(v.length() * span + sc.max_radius + 1e-9)
                } else {
                    let disp = collide_core::motion::Path::ballistic(Vec2::ZERO, v, acc);
                    crate::grid::walk::box_path_bounds(&aabb, &disp, 0.0, span)
                        .grown(sc.max_radius + 1e-9)
                };
                sc.bp.for_each_in_box(&q, |j| {
                    if sc.mv[j].state == DEAD || !filter.collides(self.ball_filter_at(j)) {
                        return;
                    }
                    if let Some((time, h)) = self.box_ball_contact(m, j, limit) {
                        self.take_pair(&mut best, &mut limit, time, j, h);
                    }
                });
            }
        }
        self.pair_prediction(m, s_t, best)
    }
}

#[cfg(test)]
mod window_tests {
    use super::{static_window, MAX_WINDOW_CELLS, STATIC_WINDOW_CELLS};

    #[test]
    fn the_window_is_a_quarter_step_between_half_a_cell_and_16_cells() {
        let cell = 8.0;
        // A quarter of the path over a step where it lies between the two ends.
        assert_eq!(static_window(cell, 800.0, 0.25), 50.0);
        // Slow or short steps: half a cell.
        assert_eq!(
            static_window(cell, 0.0, 1.0 / 60.0),
            STATIC_WINDOW_CELLS * cell
        );
        assert_eq!(static_window(cell, 60.0, 1.0 / 60.0), 4.0);
        // Whatever the step size and the speed, at most 16 cells.
        for dt in [1.0, 100.0, 1e4, 1e9] {
            for speed in [1e3, 1e6, 1e9] {
                assert_eq!(static_window(cell, speed, dt), MAX_WINDOW_CELLS * cell);
            }
        }
    }
}
