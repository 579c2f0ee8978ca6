//! The static search of a ball on a curved path (under gravity): the earliest event with
//! tiles, closed walls, open sides, static and kinematic rectangles, and the end of the face
//! that holds a resting ball (`rest.rs`). The parabolic counterpart of the straight search
//! in `predict.rs`, with the same structure: times from the ball's anchor (so that they do
//! not depend on the step size), a free run far from tiles measured by the grid's
//! clearance, a short window near them.

use super::contact::no_hit;
use super::mover::{PTarget, Prediction};
use super::predict::{free_run_end, static_found, static_window, take};
use crate::body::rect::RectRole;
use crate::body::rest::rest_end_time;
use crate::grid::walk::time_to_cover;
use crate::model::event::Side;
use crate::world::World;
use collide_core::motion::Path;
use collide_core::roots::first_entry;
use collide_core::sweep_path::{
    sweep_path_aabb_aabb, sweep_path_circle_aabb, sweep_path_circle_half_plane,
};
use collide_core::{Features, Real, SweepHit, Vec2};

impl World {
    /// [`World::static_event`] for ball `m` under gravity, whose centre at `s_t` is `pos`.
    pub(super) fn ball_static_event_curved(
        &self,
        m: usize,
        pos: Vec2,
        s_t: Real,
        cap: Real,
    ) -> (Option<Prediction>, Real) {
        let b = &self.balls[m];
        let radius = b.radius;
        let path = b.path(self.acc_of(m));
        let at = b.anchor_time;
        let base = (s_t - at).max(0.0);
        let mut limit = cap - at;
        let speed = path.vel_at(base).length();
        let acc = path.accel.length();
        let mut best: Option<(Real, PTarget, SweepHit)> = None;
        let mut searched = cap;
        // The grid, unless the ball collides with no cell kind (`crate::model::filter`).
        let grid = self
            .grid
            .as_ref()
            .map(|g| (g, self.ball_kinds(m, g)))
            .filter(|(_, k)| !k.is_none());
        if let Some((g, kinds)) = grid {
            // As for straight paths: no tile within `free` of the centre, so the search
            // window is the time the path needs to cover it; near tiles a short window.
            let free = g.clearance(pos) - radius;
            let window = static_window(g.cell_size(), speed, self.config.dt);
            let mut skip_walk = free >= window;
            let run = if skip_walk { free } else { window };
            let dur = time_to_cover(speed, acc, run);
            let end = if skip_walk {
                at + free_run_end(base, dur)
            } else {
                at + (base + dur)
            };
            if dur < limit - base && end > s_t && end < cap {
                limit = end - at;
                searched = end;
            } else {
                skip_walk = false;
            }
            if !skip_walk {
                // The ramp whose diagonal holds the ball is not met (`shape_rest.rs`).
                let skip = self.ball_rest[m].and_then(|r| r.ramp(g));
                if let Some(gh) = g.sweep_path_circle_skip(kinds, &path, radius, base, limit, skip)
                {
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
        let span = (limit - base).max(0.0);
        let reach = radius + (speed + 0.5 * acc * span) * span;
        let near_edge = pos.x - reach <= 0.0
            || pos.y - reach <= 0.0
            || pos.x + reach >= self.size.x
            || pos.y + reach >= self.size.y;
        if near_edge {
            for (side, face) in self.wall_faces() {
                if let Some(h) = sweep_path_circle_half_plane(&path, radius, limit, &face) {
                    take(
                        h.toi.max(base),
                        PTarget::Wall(side),
                        h,
                        &mut best,
                        &mut limit,
                    );
                }
            }
            if let Some((toi, side)) = self.loss_time_path(&path, Vec2::splat(radius), limit) {
                take(
                    toi.max(base),
                    PTarget::Lost(side),
                    no_hit(toi, path.pos_at(toi)),
                    &mut best,
                    &mut limit,
                );
            }
        }
        let reach_box = collide_core::Aabb::new(pos - reach, pos + reach).grown(1e-9);
        self.curved_rect_hits(m, &path, &reach_box, base, &mut best, &mut limit);
        if !self.shapes.is_empty() {
            self.shape_hits(m, &path, &reach_box, base, &mut best, &mut limit);
        }
        if !self.characters.is_empty() {
            self.character_hits(m, &path, &reach_box, base, &mut best, &mut limit);
        }
        if self.has_sensor_cells() {
            self.sensor_cell_hits(m, &path, base, &mut best, &mut limit);
        }
        if let Some(rest) = self.ball_rest[m] {
            if let Some(toi) = rest_end_time(&path, &rest, base, limit) {
                take(
                    toi,
                    PTarget::RestEnd,
                    no_hit(toi, path.pos_at(toi)),
                    &mut best,
                    &mut limit,
                );
            }
        }
        if !self.flippers.is_empty() {
            let (best, limit) = (&mut best, &mut limit);
            self.flipper_hits(m, &path, at, &reach_box, base, best, limit, &mut searched);
        }
        (static_found(best, at, s_t), searched)
    }

    /// The static and kinematic rectangles (and sensors) that ball `m` on its parabola `path`
    /// (times from its anchor; `base` the search's start) meets before `limit`, for
    /// [`World::ball_static_event_curved`]: static ones whose box meets `reach_box` swept as
    /// they are, moving ones in their own frame (the relative path is a parabola), both by
    /// `sweep_path_circle_aabb`; a rectangle the ball passes through met only after it parts.
    fn curved_rect_hits(
        &self,
        m: usize,
        path: &Path,
        reach_box: &collide_core::Aabb,
        base: Real,
        best: &mut Option<(Real, PTarget, SweepHit)>,
        limit: &mut Real,
    ) {
        let radius = self.balls[m].radius;
        let at = self.balls[m].anchor_time;
        let filter = self.ball_filter_at(m);
        let passes = self.passes_of(m);
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
            let hit = match rc.role() {
                RectRole::Static => {
                    if !collide_core::aabb_overlaps_aabb(reach_box, &rc.aabb) {
                        continue;
                    }
                    sweep_path_circle_aabb(path, radius, *limit, &rc.aabb, Features::ALL)
                        .map(|h| (h.toi, h))
                }
                RectRole::Kinematic | RectRole::Sensor => {
                    // In the rectangle's frame from the later of the two paths' starts.
                    let u = rc.vel;
                    let (ra, rt, _) = self.rect_anchor[k];
                    let r_t = at.max(rt);
                    let off = r_t - at;
                    let rel = Path::ballistic(path.pos_at(off), path.vel_at(off) - u, path.accel);
                    let aabb = ra.translated(u * (r_t - rt));
                    sweep_path_circle_aabb(&rel, radius, *limit - off, &aabb, Features::ALL).map(
                        |mut h| {
                            h.point += u * h.toi;
                            (off + h.toi, h)
                        },
                    )
                }
                RectRole::Dynamic => None,
            };
            if let Some((toi, h)) = hit {
                take(toi.max(base), PTarget::Rect(k as u32), h, best, limit);
            }
        }
    }

    /// [`World::static_event`] for dynamic rectangle mover `m` under gravity: its box on its
    /// parabola against tiles (per-axis quadratics, `Grid::sweep_path_aabb_kinds`), closed
    /// walls and open sides (quadratics of its centre), static and kinematic rectangles (the
    /// relative motion is a parabola: `sweep_path_aabb_aabb`), and the end of the face that
    /// holds it at rest (`rest.rs`). Times from the start of its path, as for balls.
    pub(super) fn box_static_event_curved(
        &self,
        m: usize,
        s_t: Real,
        cap: Real,
    ) -> (Option<Prediction>, Real) {
        let k = self.rect_index(m);
        let filter = self.rects[k].surface.filter;
        let (aabb, at, v0, acc) = self.dyn_path(m);
        let disp = Path::ballistic(Vec2::ZERO, v0, acc);
        let centre = Path::ballistic(aabb.center(), v0, acc);
        let half = aabb.half_extents();
        let mut best: Option<(Real, PTarget, SweepHit)> = None;
        let (base, mut limit) = (s_t - at, cap - at);
        if let Some(g) = &self.grid {
            // The ramp whose diagonal holds the box is not met (`shape_rest.rs`).
            let skip = self.rect_rest[k].and_then(|r| r.ramp(g));
            if let Some(gh) =
                g.sweep_path_aabb_skip(g.kinds_for(filter), &aabb, &disp, base, limit, skip)
            {
                take(
                    gh.hit.toi,
                    PTarget::Cell(gh.cell),
                    gh.hit,
                    &mut best,
                    &mut limit,
                );
            }
        }
        for (side, face) in self.wall_faces() {
            let axis = usize::from(face.face.normal().x == 0.0);
            if let Some(mut h) = sweep_path_circle_half_plane(&centre, half[axis], limit, &face) {
                // As a straight box's wall hit (`World::box_wall_hits`).
                h.feature = collide_core::Feature::Circle;
                take(
                    h.toi.max(base),
                    PTarget::Wall(side),
                    h,
                    &mut best,
                    &mut limit,
                );
            }
        }
        if let Some((toi, side)) = self.loss_time_path(&centre, half, limit) {
            take(
                toi.max(base),
                PTarget::Lost(side),
                no_hit(toi, centre.pos_at(toi)),
                &mut best,
                &mut limit,
            );
        }
        let still = Path::default();
        for (j, rc) in self.rects.iter().enumerate() {
            if !filter.collides(rc.surface.filter) {
                continue;
            }
            let hit = match rc.role() {
                RectRole::Static if self.one_way_rect(j) => {
                    let v = disp.v0;
                    self.box_platform_hit(&aabb, v, acc, &rc.aabb, Vec2::ZERO, limit)
                        .map(|h| (h.toi, h))
                }
                RectRole::Static => {
                    sweep_path_aabb_aabb(&aabb, &disp, &rc.aabb, &still, limit).map(|h| (h.toi, h))
                }
                RectRole::Kinematic => {
                    // From the later of the two paths' starts.
                    let (ka, kt, _) = self.rect_anchor[j];
                    let r_t = at.max(kt);
                    let off = r_t - at;
                    let from = aabb.translated(disp.pos_at(off));
                    let mine = Path::ballistic(Vec2::ZERO, disp.vel_at(off), acc);
                    let other = ka.translated(rc.vel * (r_t - kt));
                    let theirs = Path::linear(Vec2::ZERO, rc.vel);
                    if self.one_way_rect(j) {
                        self.box_platform_hit(&from, mine.v0, acc, &other, rc.vel, limit - off)
                    } else {
                        sweep_path_aabb_aabb(&from, &mine, &other, &theirs, limit - off)
                    }
                    .map(|h| (off + h.toi, h))
                }
                // Dynamic rectangles are movers; they pass through sensors.
                RectRole::Dynamic | RectRole::Sensor => None,
            };
            if let Some((toi, h)) = hit {
                take(
                    toi.max(base),
                    PTarget::Rect(j as u32),
                    h,
                    &mut best,
                    &mut limit,
                );
            }
        }
        if !self.shapes.is_empty() {
            self.box_shape_hits(m, &aabb, &disp, base, &mut best, &mut limit);
        }
        if !self.characters.is_empty() {
            self.box_character_hits(m, &aabb, &disp, base, &mut best, &mut limit);
        }
        let mut searched = cap;
        if !self.flippers.is_empty() {
            let reach = crate::grid::walk::box_path_bounds(&aabb, &disp, base, limit).grown(1e-9);
            let (best, limit) = (&mut best, &mut limit);
            self.flipper_hits(m, &centre, at, &reach, base, best, limit, &mut searched);
        }
        if let Some(rest) = self.rect_rest[k] {
            if let Some(toi) = rest_end_time(&centre, &rest, base, limit) {
                take(
                    toi,
                    PTarget::RestEnd,
                    no_hit(toi, centre.pos_at(toi)),
                    &mut best,
                    &mut limit,
                );
            }
        }
        (static_found(best, at, s_t), searched)
    }

    /// When a body whose centre follows `path` and whose half extents are `half` (a circle's
    /// radius on both axes, a box's half size) is entirely outside an open side, within
    /// `limit` (times of the path; 0 if it already is): per side the first entry of the
    /// quadratic distance still to go into `<= 0`.
    fn loss_time_path(&self, path: &Path, half: Vec2, limit: Real) -> Option<(Real, Side)> {
        let w = self.walls;
        let (p, v, a) = (path.p0, path.v0, path.accel);
        // Distance still to go as a polynomial in τ, per open side.
        let sides = [
            (!w.left, [p.x + half.x, v.x, 0.5 * a.x], Side::Left),
            (!w.top, [p.y + half.y, v.y, 0.5 * a.y], Side::Top),
            (
                !w.right,
                [self.size.x - (p.x - half.x), -v.x, -0.5 * a.x],
                Side::Right,
            ),
            (
                !w.bottom,
                [self.size.y - (p.y - half.y), -v.y, -0.5 * a.y],
                Side::Bottom,
            ),
        ];
        let mut best: Option<(Real, Side)> = None;
        for (open, c, side) in sides {
            if !open || !(limit >= 0.0) {
                continue;
            }
            if let Some(t) = first_entry(&[c[0], c[1], c[2], 0.0, 0.0], 0.0, limit) {
                if best.is_none_or(|b| t < b.0) {
                    best = Some((t, side));
                }
            }
        }
        best
    }
}
