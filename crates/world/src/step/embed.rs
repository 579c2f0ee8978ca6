//! Push-out of bodies that start a step embedded: spawned inside a tile, a tile placed on them,
//! teleported into a rectangle, or left outside a closed wall.
//!
//! A ball is embedded when it overlaps an obstacle by more than [`EMBED_SLACK`] world units.
//! It is moved to the nearest position where it overlaps nothing, found among the projections
//! of its centre onto the boundary of the obstacles' Minkowski sum with its disc: the exposed
//! grid faces pushed out by the radius, the convex corners' arcs, the inner corners of
//! free cells, the rectangles' grown faces and corners, the flippers' capsules grown by the
//! radius (where the flippers are at the world's time), the static shapes' pieces grown by
//! the radius (segments, circles, polygons' edges; not sensors or one-way platforms), and
//! the closed walls moved in by the radius; a candidate that still overlaps something is pushed out of it again (up to four
//! times). The search widens until a free position is found. Seed 000's fix (step back,
//! reverse with a random nudge) is neither needed nor used: the ball keeps its velocity and
//! simply continues from free space, and the move is reported as [`Event::Unembedded`].
//!
//! Only what a body collides with can embed it ([`crate::model::filter`]): the cells of the kinds
//! and the rectangles its filter excludes are free space for its push-out (the closed walls
//! never are).

use crate::body::rect::RectRole;
use crate::grid::Grid;
use crate::model::cell::Cell;
use crate::model::event::{Body, Event};
use crate::model::filter::{CellKinds, Filter};
use crate::step::embed_balls::{BallObstacles, OtherBalls};
use crate::step::embed_box_round::RoundObstacle;
use crate::step::pass::PassWith;
use crate::world::World;
use collide_core::{
    aabb_overlaps_aabb, circle_overlaps_aabb, closest_point_on_segment, contact_circle_aabb, Aabb,
    Capsule, Corner, Face, HalfTile, Real, Vec2, FRAC_1_SQRT_2,
};

/// Overlap (world units) below which a body is not considered embedded: far above the rounding
/// of positions at contact (~1e-13 near the origin, ~1e-8 for a ball at 18 000 units/s an hour
/// into a game), far below anything visible.
pub const EMBED_SLACK: Real = 1e-7;

impl World {
    /// The rectangles that are obstacles (every kind but sensors).
    pub(crate) fn obstacle_rects(&self) -> impl Iterator<Item = &crate::body::rect::Rect> {
        self.rects.iter().filter(|r| r.role() != RectRole::Sensor)
    }

    /// Pushes ball `i` (dense index) to free space if it is embedded; returns whether it
    /// moved. With `balls` (the world's balls, `embed_balls.rs`), a ball overlapping another
    /// ball it collides with is embedded too, and the free space it is searched for is clear
    /// of the other balls as well; with no room clear of them, clear of the rest, and it is
    /// checked again at the next step.
    ///
    /// Of two balls overlapping, the one of the higher dense index moves (`settled`: the
    /// balls of lower index are settled, the others are not embedding it), so that checking
    /// every ball in index order and checking some give the same bits; a crushed ball moves
    /// whatever the other's index (`settled` false).
    #[inline(never)]
    fn unembed_ball(&mut self, i: usize, balls: Option<&mut BallObstacles>, settled: bool) -> bool {
        // Inside a sensor or passing through a body on purpose (`pass.rs`): that overlap is
        // not pushed out. Sensors and balls are no obstacles of the check below; a rectangle
        // whose contact a hook ignored is left out of it (with two such, the ball is left).
        let mut passed = self.passes_of(i).iter().filter_map(|p| match p.with {
            PassWith::Rect(r) if !p.sensor => Some(r),
            _ => None,
        });
        let skip = passed.next();
        if passed.next().is_some() {
            return false;
        }
        let b = self.balls[i].ball_at(self.time, self.acc_of(i));
        let filter = self.ball_filter_at(i);
        let clear = self.circle_overlap_depth_ok(b.pos, b.radius, EMBED_SLACK, skip, Some(filter));
        fn others(set: &BallObstacles, me: usize) -> OtherBalls<'_> {
            OtherBalls { set, me }
        }
        let mut in_ball = false;
        if let Some(set) = balls.as_deref() {
            self.for_each_ball_in_the_way(others(set, i), b.pos, b.radius, &mut |j| {
                in_ball |= !settled || j < i;
            });
        }
        if clear && !in_ball {
            return false;
        }
        // Where it fits is a matter of the static geometry alone while no rectangle moves: a
        // ball that fits nowhere is not searched for again until the geometry changes.
        let still = self
            .rects
            .iter()
            .all(|r| matches!(r.role(), RectRole::Static | RectRole::Sensor));
        if !clear && still && self.unplaceable.contains(&b.id) {
            return false;
        }
        let mut to = None;
        if let Some(set) = balls.as_deref() {
            to = self.free_position(b.pos, b.radius, filter, Some(others(set, i)));
            if to.is_none() {
                // No room clear of the balls: looked for again at the next step.
                self.embed_some.push(i);
            }
        }
        if to.is_none() && !clear {
            to = self.free_position(b.pos, b.radius, filter, None);
            if to.is_none() && still {
                self.unplaceable.push(b.id);
            }
        }
        let Some(to) = to.filter(|&to| to != b.pos) else {
            return false;
        };
        if let Some(set) = balls {
            set.moved(i, to);
        }
        self.scratch.valid = false;
        self.balls[i].v0 = b.vel;
        self.balls[i].anchor = to;
        self.balls[i].anchor_time = self.time;
        self.ball_rest[i] = None;
        self.events.push(Event::Unembedded {
            body: Body::Ball(b.id),
            from: b.pos,
            to,
        });
        true
    }

    /// Pushes dynamic rectangle `i` (dense index) to free space if it is embedded (the
    /// smallest axis push out of the deepest obstacle, up to eight times); returns whether it
    /// moved.
    fn unembed_rect(&mut self, i: usize) -> bool {
        let r = self.rects[i];
        let mut aabb = r.aabb;
        let mut moved = false;
        let mut free = false;
        for _ in 0..8 {
            let Some(push) = self.box_push(&aabb, r.id, r.surface.filter) else {
                free = true;
                break;
            };
            aabb = aabb.translated(push);
            moved = true;
        }
        let embedded = !free && self.box_push(&aabb, r.id, r.surface.filter).is_some()
            || self.box_in_rounded(&aabb, r.surface.filter);
        if embedded {
            // The axis pushes went back and forth between obstacles, or ran out, or left the
            // box in a flipper or a static shape, which they do not see: the nearest free
            // position from where the box was (`embed_box.rs`); with no room clear of the
            // other boxes, clear of what does not move; with none at all, inside the closed
            // walls (overlapping a body that moves is undone by the next steps, leaving the
            // world is not).
            let (f, slack) = (r.surface.filter, EMBED_SLACK);
            aabb = self
                .nearest_free_box(&r.aabb, r.id, f, slack, true)
                .or_else(|| self.nearest_free_box(&r.aabb, r.id, f, slack, false))
                .unwrap_or_else(|| self.inside_walls(&aabb));
            moved |= aabb != r.aabb;
        }
        if moved {
            self.scratch.valid = false;
            self.rects[i].aabb = aabb;
            self.rect_anchor[i] = (aabb, self.time, self.rects[i].vel);
            self.rect_rest[i] = None;
            self.events.push(Event::Unembedded {
                body: Body::Rect(r.id),
                from: r.aabb.min,
                to: aabb.min,
            });
        }
        moved
    }

    /// Pushes the bodies `stopped` during the step out, at the step's end, so that no overlap
    /// outlives the step: those crushed (`squeeze.rs`) out of the kinematic rectangles or
    /// flippers that crushed them, those stopped at the event bound out of whatever moved
    /// into them. A body only touching its rectangle still (crushed at the step's very end)
    /// stays crushed and is pushed out at the end of the next step.
    pub(crate) fn push_out_stopped(&mut self, stopped: &[Body]) {
        let mut balls = stopped
            .iter()
            .any(|b| matches!(b, Body::Ball(_)))
            .then(|| self.ball_obstacles())
            .flatten();
        for &body in stopped {
            let moved = match body {
                Body::Ball(id) => self
                    .ball_slots
                    .get(id)
                    .is_some_and(|i| self.unembed_ball(i, balls.as_mut(), false)),
                Body::Rect(id) => self
                    .rect_slots
                    .get(id)
                    .is_some_and(|i| self.unembed_rect(i)),
                // Characters are never crushed by the event loop (`crate::step::character`).
                Body::Character(_) => false,
            };
            if moved {
                self.end_carry(body);
            }
        }
    }

    /// Pushes every embedded ball and dynamic rectangle to free space (see the module docs);
    /// when only some balls were moved since the last check (`embed_some`), only those, in
    /// index order (as the full check would meet them: no other body can be embedded).
    pub(crate) fn resolve_embedded(&mut self) {
        if !self.embed_check {
            if !self.embed_some.is_empty() {
                let mut some = std::mem::take(&mut self.embed_some);
                let mut balls = self.ball_obstacles();
                if let Some(set) = &balls {
                    // The balls a listed one overlaps may be embedded too (in a ball, when of
                    // higher index): checked with them, in index order, as the full check
                    // meets them.
                    for k in 0..some.len() {
                        let i = some[k];
                        let (p, r) = set.disc(i);
                        self.for_each_ball_in_the_way(OtherBalls { set, me: i }, p, r, &mut |j| {
                            some.push(j)
                        });
                    }
                }
                some.sort_unstable();
                some.dedup();
                for &i in &some {
                    self.unembed_ball(i, balls.as_mut(), true);
                }
                // Those left overlapping a ball, for the next step.
                some.clear();
                let later = std::mem::replace(&mut self.embed_some, some);
                self.embed_some.extend(later);
            }
            return;
        }
        self.embed_check = false;
        self.embed_some.clear();
        let mut balls = self.ball_obstacles();
        for i in 0..self.balls.len() {
            self.unembed_ball(i, balls.as_mut(), true);
        }
        for i in 0..self.rects.len() {
            if self.rects[i].role() == RectRole::Dynamic {
                self.unembed_rect(i);
            }
        }
    }

    /// The smallest axis push that takes box `b` out of the deepest obstacle it overlaps by
    /// more than [`EMBED_SLACK`], or `None` if it is free.
    fn box_push(&self, b: &Aabb, me: crate::model::ids::RectId, filter: Filter) -> Option<Vec2> {
        let shrunk = b.grown(-EMBED_SLACK);
        let mut obstacles: Vec<Aabb> = Vec::new();
        if let Some(g) = &self.grid {
            g.for_each_solid_in_kinds(g.kinds_for(filter), &shrunk, |c, _| {
                // A slope counts when the box overlaps its half, and is left as its square.
                if let Some(shape) = g.cell_shape(c).filter(|s| s.overlaps_aabb(&shrunk)) {
                    obstacles.push(shape.aabb());
                }
            });
        }
        for r in self.obstacle_rects() {
            if r.id != me && filter.collides(r.surface.filter) {
                obstacles.push(r.aabb);
            }
        }
        obstacles.extend(self.wall_half_planes());
        let mut best: Option<Vec2> = None;
        for o in &obstacles {
            if !aabb_overlaps_aabb(&shrunk, o) {
                continue;
            }
            let pushes = [
                Vec2::new(o.min.x - b.max.x, 0.0),
                Vec2::new(o.max.x - b.min.x, 0.0),
                Vec2::new(0.0, o.min.y - b.max.y),
                Vec2::new(0.0, o.max.y - b.min.y),
            ];
            let p = pushes
                .into_iter()
                .filter(|p| p.is_finite())
                .min_by(|a, c| a.length_squared().total_cmp(&c.length_squared()))?;
            if best.is_none_or(|bp| p.length_squared() > bp.length_squared()) {
                best = Some(p);
            }
        }
        best
    }

    /// Whether box `b` overlaps by more than [`EMBED_SLACK`] a flipper (where it is now) or a
    /// static shape that a body of `filter` collides with.
    fn box_in_rounded(&self, b: &Aabb, filter: Filter) -> bool {
        let mut inside = false;
        self.for_each_rounded(filter, true, &mut |points, r| {
            inside =
                inside || RoundObstacle::new(points, r, b.max - b.min).overlaps(b.min, EMBED_SLACK);
        });
        inside
    }

    /// Calls `f` with the convex obstacles of a box's push-out for a body of `filter`, each a
    /// set of points and a radius (`embed_box_round.rs`): each flipper's capsule where it is
    /// now (its core's ends and its radius; with `flippers` only), and each static shape it
    /// meets.
    pub(crate) fn for_each_rounded(
        &self,
        filter: Filter,
        flippers: bool,
        f: &mut dyn FnMut(&[Vec2], Real),
    ) {
        if flippers {
            for c in self.flipper_capsules(Some(filter)) {
                f(&[c.segment.a, c.segment.b], c.radius);
            }
        }
        for sh in self.solid_shapes(Some(filter)) {
            sh.kind.with_rounded(f);
        }
    }

    /// Whether a disc at `p` of `radius` overlaps nothing a body of `filter` collides with by
    /// more than [`EMBED_SLACK`].
    fn disc_free(&self, p: Vec2, radius: Real, filter: Filter, balls: Option<OtherBalls>) -> bool {
        self.circle_overlap_depth_ok(p, radius, EMBED_SLACK, None, Some(filter))
            && balls.is_none_or(|o| self.ball_in_the_way(o, p, radius).is_none())
    }

    /// Pushes `p` out of the first obstacle the disc overlaps (of those a body of `filter`
    /// collides with, and of `balls`); `None` if it overlaps nothing.
    fn push_once(
        &self,
        p: Vec2,
        radius: Real,
        filter: Filter,
        balls: Option<OtherBalls>,
    ) -> Option<Vec2> {
        let w = self.walls;
        let s = self.size;
        let r = radius;
        if w.left && p.x < r - EMBED_SLACK {
            return Some(Vec2::new(r, p.y));
        }
        if w.right && p.x > s.x - r + EMBED_SLACK {
            return Some(Vec2::new(s.x - r, p.y));
        }
        if w.top && p.y < r - EMBED_SLACK {
            return Some(Vec2::new(p.x, r));
        }
        if w.bottom && p.y > s.y - r + EMBED_SLACK {
            return Some(Vec2::new(p.x, s.y - r));
        }
        if let Some(g) = &self.grid {
            if let Some(c) = g.overlap_near_center(g.kinds_for(filter), p, r, EMBED_SLACK) {
                let contact = g.cell_shape(c)?.contact_circle(p, r)?;
                return Some(p + contact.normal * contact.depth);
            }
        }
        for rc in self
            .obstacle_rects()
            .filter(|rc| filter.collides(rc.surface.filter))
        {
            if circle_overlaps_aabb(p, r - EMBED_SLACK, &rc.aabb) {
                let contact = contact_circle_aabb(p, r, &rc.aabb)?;
                return Some(p + contact.normal * contact.depth);
            }
        }
        for c in self.flipper_capsules(Some(filter)) {
            let (q, _) = closest_point_on_segment(p, &c.segment);
            let reach = r + c.radius;
            if (p - q).length() < reach - EMBED_SLACK {
                return Some(q + away_from_core(p, q, &c) * reach);
            }
        }
        if let Some(q) = self
            .solid_shapes(Some(filter))
            .find(|sh| sh.kind.overlaps_circle(p, r - EMBED_SLACK))
            .map(|sh| sh.kind.push_circle_out(p, r))
        {
            return Some(q);
        }
        let o = balls?;
        let j = self.ball_in_the_way(o, p, r)?;
        Some(Self::push_out_of_ball(o, p, r, j))
    }

    /// The nearest free position for a disc of `radius` embedded at `p` (see the module docs).
    ///
    /// The grid's cells under each widening search are counted once (a summed-area table,
    /// [`crate::grid::solid_counts`]) so that testing a candidate disc visits only the blocks of
    /// cells that hold a solid cell within its reach: the push-out takes about linear time in
    /// the cells it covers instead of their square.
    #[inline(never)]
    pub(crate) fn free_position(
        &mut self,
        p: Vec2,
        radius: Real,
        filter: Filter,
        balls: Option<OtherBalls>,
    ) -> Option<Vec2> {
        let found = self.free_position_counted(p, radius, filter, balls);
        if let Some(g) = self.grid.as_mut() {
            g.detach_solid_counts();
        }
        found
    }

    #[inline(never)]
    fn free_position_counted(
        &mut self,
        p: Vec2,
        radius: Real,
        filter: Filter,
        balls: Option<OtherBalls>,
    ) -> Option<Vec2> {
        let kinds = self
            .grid
            .as_ref()
            .map_or(CellKinds::NONE, |g| g.kinds_for(filter));
        let cell = self
            .grid
            .as_ref()
            .map_or(radius.max(1.0), |g| g.cell_size());
        // A disc pushed out of obstacles it covers travels about its diameter: searching that
        // far at once spares a second, wider search over the same cells.
        let mut search = 2.0 * radius + cell;
        let diag = self.size.length() + radius;
        // A body outside a closed wall is searched for from the nearest point inside the walls
        // (however far out it is); the nearest candidate to the body itself wins.
        let w = self.walls;
        let mut base = p;
        if w.left {
            base.x = base.x.max(radius);
        }
        if w.right {
            base.x = base.x.min(self.size.x - radius);
        }
        if w.top {
            base.y = base.y.max(radius);
        }
        if w.bottom {
            base.y = base.y.min(self.size.y - radius);
        }
        // Everything a candidate can come from: a search area that holds it all finds every
        // candidate there is, and a wider one would find the same.
        let mut everything = Aabb::new(Vec2::ZERO, self.size);
        if let Some(g) = &self.grid {
            everything = everything.union(&g.bounds());
        }
        for rc in self
            .obstacle_rects()
            .filter(|rc| filter.collides(rc.surface.filter))
        {
            everything = everything.union(&rc.aabb);
        }
        self.for_each_capsule(filter, &mut |c| {
            everything = everything.union(&capsule_aabb(&c))
        });
        if let Some(o) = balls {
            everything = everything.union(&o.set.bounds());
        }
        let everything = everything.grown(radius);
        loop {
            // Candidates lie within `search + radius` of `base`, their discs within
            // `search + 2·radius`; pushes that leave this region fall back to scanning.
            if let Some(g) = self.grid.as_mut() {
                let reach = search + 2.0 * radius + g.cell_size();
                g.attach_solid_counts_kinds(kinds, &Aabb::new(base - reach, base + reach));
            }
            let mut best: Option<(Real, Vec2)> = None;
            let mut deep = DeepCells::new(self.grid.as_ref().map(Grid::cell_size), radius);
            self.for_each_candidate(base, radius, search, filter, balls, |c| {
                if let Some(q) = self.try_candidate(c, radius, filter, balls, &mut deep) {
                    let d = (q - p).length_squared();
                    if best.is_none_or(|b| d < b.0) {
                        best = Some((d, q));
                    }
                }
            });
            let area = Aabb::new(base - search, base + search);
            let all_seen = area.min.x <= everything.min.x
                && area.min.y <= everything.min.y
                && area.max.x >= everything.max.x
                && area.max.y >= everything.max.y;
            if let Some((_, q)) = best {
                if (q - base).length() <= search || search > 2.0 * diag || all_seen {
                    return Some(q);
                }
            }
            if search > 2.0 * diag || all_seen {
                return None;
            }
            search *= 2.0;
        }
    }

    /// Candidate `c` pushed out of what its disc overlaps (up to four times): the free
    /// position it leads to, or `None`. A candidate deep inside the obstacles (see
    /// [`DeepCells`]) is given up at once.
    fn try_candidate(
        &self,
        c: Vec2,
        radius: Real,
        filter: Filter,
        balls: Option<OtherBalls>,
        deep: &mut DeepCells,
    ) -> Option<Vec2> {
        if deep.covers(c) {
            return None;
        }
        let mut q = c;
        let mut ok = self.disc_free(q, radius, filter, balls);
        if !ok {
            if let Some(g) = &self.grid {
                if let Some(cell) =
                    g.overlap_near_center(g.kinds_for(filter), q, radius, EMBED_SLACK)
                {
                    deep.remember(g.cell_aabb(cell));
                }
            }
        }
        for _ in 0..4 {
            if ok {
                break;
            }
            match self.push_once(q, radius, filter, balls) {
                Some(nq) if nq.is_finite() => q = nq,
                _ => break,
            }
            ok = self.disc_free(q, radius, filter, balls);
        }
        ok.then_some(q)
    }

    /// Calls `f` with every candidate position of a disc of radius `r` searched for from `p`
    /// within `search` (see the module docs), without collecting them: `p` kept inside the
    /// closed walls, each free cell's nearest point to `p` kept `r` from its solid
    /// neighbours, each exposed face of a solid cell or face of a rectangle pushed out by `r`,
    /// each convex corner's arc.
    fn for_each_candidate(
        &self,
        p: Vec2,
        r: Real,
        search: Real,
        filter: Filter,
        balls: Option<OtherBalls>,
        mut f: impl FnMut(Vec2),
    ) {
        let w = self.walls;
        let s = self.size;
        let mut q = p;
        if w.left {
            q.x = q.x.max(r);
        }
        if w.right {
            q.x = q.x.min(s.x - r);
        }
        if w.top {
            q.y = q.y.max(r);
        }
        if w.bottom {
            q.y = q.y.min(s.y - r);
        }
        f(q);
        let area = Aabb::new(p - search, p + search);
        let box_candidates = |b: Aabb, feats: collide_core::Features, f: &mut dyn FnMut(Vec2)| {
            for face in Face::ALL {
                if feats.contains(face.bit()) {
                    let seg = face.segment(&b);
                    let (axis, sign) = match face {
                        Face::Left => (0, -1.0),
                        Face::Right => (0, 1.0),
                        Face::Top => (1, -1.0),
                        Face::Bottom => (1, 1.0),
                    };
                    let mut c = p;
                    c[axis] = seg.coord + sign * r;
                    c[1 - axis] = p[1 - axis].clamp(seg.lo, seg.hi);
                    f(c);
                }
            }
            for corner in Corner::ALL {
                if feats.contains(corner.bit()) {
                    let cp = corner.point(&b);
                    let sg = corner.signs();
                    let d = p - cp;
                    let len = d.length();
                    let dir = if len > 0.0 && d.x * sg.x >= 0.0 && d.y * sg.y >= 0.0 {
                        d / len
                    } else {
                        sg * FRAC_1_SQRT_2
                    };
                    f(cp + dir * r);
                }
            }
        };
        if let Some(g) = &self.grid {
            let kinds = g.kinds_for(filter);
            g.for_each_solid_in_kinds(kinds, &area, |c, cell| {
                box_candidates(g.cell_aabb(c), g.features_for(c, kinds), &mut f);
                if let Cell::Slope(solid) = cell {
                    // The diagonal pushed out by `r` along its normal, nearest `p`.
                    let tile = HalfTile::new(g.cell_aabb(c), solid);
                    let d = tile.diagonal();
                    let (a, b) = (d.a, d.b);
                    let t = ((p - a).dot(b - a) / (b - a).length_squared()).clamp(0.0, 1.0);
                    f(a + (b - a) * t + tile.diagonal_normal() * r);
                }
            });
            // Free cells: the centre clamped into the cell, kept `r` away from solid neighbours.
            let gb = g.bounds();
            let lo = ((area.min - g.origin()) / g.cell_size())
                .floor()
                .max(Vec2::ZERO);
            let hi = ((area.max - g.origin()) / g.cell_size()).floor();
            let (c0, r0) = (lo.x as usize, lo.y as usize);
            let c1 = (hi.x.max(-1.0) as i64).min(g.cols() as i64 - 1);
            let r1 = (hi.y.max(-1.0) as i64).min(g.rows() as i64 - 1);
            let _ = gb;
            for row in r0 as i64..=r1 {
                for col in c0 as i64..=c1 {
                    let cc = crate::model::cell::CellCoord::new(col as u32, row as u32);
                    if kinds.solid(g.cell(cc)) {
                        continue;
                    }
                    let b = g.cell_aabb(cc);
                    let solid = |dc: i64, dr: i64| {
                        let (x, y) = (col + dc, row + dr);
                        x >= 0
                            && y >= 0
                            && kinds.solid(
                                g.cell(crate::model::cell::CellCoord::new(x as u32, y as u32)),
                            )
                    };
                    let xmin = if solid(-1, 0) { b.min.x + r } else { b.min.x };
                    let xmax = if solid(1, 0) { b.max.x - r } else { b.max.x };
                    let ymin = if solid(0, -1) { b.min.y + r } else { b.min.y };
                    let ymax = if solid(0, 1) { b.max.y - r } else { b.max.y };
                    let cx = if xmin <= xmax {
                        p.x.clamp(xmin, xmax)
                    } else {
                        b.center().x
                    };
                    let cy = if ymin <= ymax {
                        p.y.clamp(ymin, ymax)
                    } else {
                        b.center().y
                    };
                    f(Vec2::new(cx, cy));
                }
            }
        }
        for rc in self
            .obstacle_rects()
            .filter(|rc| filter.collides(rc.surface.filter))
        {
            if aabb_overlaps_aabb(&rc.aabb.grown(r), &area) {
                box_candidates(rc.aabb, collide_core::Features::ALL, &mut f);
            }
        }
        // A capsule grown by `r` (a flipper's, a shape's piece): the nearest point of its
        // boundary, the points beside the core's nearest point on either side, and beyond
        // either end.
        self.for_each_capsule(filter, &mut |c| {
            if !aabb_overlaps_aabb(&capsule_aabb(&c).grown(r), &area) {
                return;
            }
            let (q, _) = closest_point_on_segment(p, &c.segment);
            let reach = r + c.radius;
            let side = away_from_core(q, q, &c);
            f(q + away_from_core(p, q, &c) * reach);
            f(q + side * reach);
            f(q - side * reach);
            let along = (c.segment.b - c.segment.a).normalize_or_zero();
            f(c.segment.b + along * reach);
            f(c.segment.a - along * reach);
        });
        if let Some(o) = balls {
            self.ball_candidates(o, p, r, &area, &mut f);
        }
    }

    /// Calls `f` with the capsules whose boundaries outline the push-out's curved and slanted
    /// obstacles for a body of `filter`: each flipper's capsule where it is now, and the
    /// pieces of each static shape it meets (a segment, of radius 0; a circle, a capsule of
    /// length 0; a polygon's edges, of radius 0).
    fn for_each_capsule(&self, filter: Filter, f: &mut dyn FnMut(Capsule)) {
        for c in self.flipper_capsules(Some(filter)) {
            f(c);
        }
        for sh in self.solid_shapes(Some(filter)) {
            sh.kind.for_each_capsule(f);
        }
    }
}

/// The box around a capsule (world units).
fn capsule_aabb(c: &collide_core::Capsule) -> Aabb {
    let (a, b) = (c.segment.a, c.segment.b);
    Aabb::new(a.min(b), a.max(b)).grown(c.radius)
}

/// The unit direction from `q`, the point of capsule `c`'s core nearest `p`, toward `p`; when
/// `p` lies on the core, the core's left normal (`perp`), or up for a capsule of length 0.
fn away_from_core(p: Vec2, q: Vec2, c: &collide_core::Capsule) -> Vec2 {
    let d = p - q;
    let len = d.length();
    if len > 0.0 {
        return d / len;
    }
    let n = (c.segment.b - c.segment.a).perp().normalize_or_zero();
    if n == Vec2::ZERO {
        Vec2::new(0.0, -1.0)
    } else {
        n
    }
}

/// Solid cells that candidates of a push-out were found to overlap (the last eight: candidates
/// come in turns of faces and corners of each side). A candidate whose disc overlaps one of
/// them by more than two cells lies deep inside the obstacles' Minkowski sum, where pushing
/// out of one cell at a time leads nowhere that the shallow candidates (on the sum's
/// boundary) do not: it is given up at once. Only discs wider than two cells can be that
/// deep; for them this makes the push-out a search per boundary candidate instead of one per
/// candidate.
struct DeepCells {
    cells: [Option<Aabb>; 8],
    /// Where the next one goes, and the one that gave up the last candidate (tried first).
    next: usize,
    last: usize,
    radius: Real,
    /// Overlap depth beyond which a candidate is given up (infinite without a grid).
    limit: Real,
}

impl DeepCells {
    fn new(cell_size: Option<Real>, radius: Real) -> Self {
        DeepCells {
            cells: [None; 8],
            next: 0,
            last: 0,
            radius,
            limit: cell_size.map_or(Real::INFINITY, |c| 2.0 * c + EMBED_SLACK),
        }
    }

    fn too_deep(&self, k: usize, c: Vec2) -> bool {
        self.cells[k]
            .is_some_and(|b| self.radius - collide_core::distance_point_aabb(c, &b) > self.limit)
    }

    /// Whether a disc at `c` overlaps a remembered cell too deeply.
    fn covers(&mut self, c: Vec2) -> bool {
        if self.too_deep(self.last, c) {
            return true;
        }
        match (0..self.cells.len()).find(|&k| self.too_deep(k, c)) {
            Some(k) => {
                self.last = k;
                true
            }
            None => false,
        }
    }

    fn remember(&mut self, b: Aabb) {
        self.cells[self.next] = Some(b);
        self.next = (self.next + 1) % self.cells.len();
    }
}
