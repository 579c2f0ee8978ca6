//! Other balls as obstacles of a ball's push-out (`embed.rs`).
//!
//! Two balls that collide never overlap through the event loop, but a push-out can put one
//! into another (a ball crushed by a kinematic rectangle, pushed out of it onto a ball), a
//! ball stopped at the event bound can be swept over by a body that moves it, and a game can
//! spawn or teleport a ball onto another. A ball that overlaps another ball it collides with
//! by more than [`crate::step::embed::EMBED_SLACK`] is embedded as in a tile: it is moved to
//! the nearest position clear of the static geometry, the rectangles and flippers *and* the
//! other balls; with no such room, clear of all but the balls (it then overlaps a ball, and
//! is searched for again at the next step until there is room).
//!
//! The other balls are discs of the Minkowski sum with the embedded disc (radius `r + r_j`
//! about each centre), so the candidates are the projection of the centre onto each such
//! circle, the crossings of two such circles (the gap between two balls that touch both) and
//! the crossings of each circle with the closed walls moved in by `r` (beside a ball on the
//! floor). The balls are held in a grid of cell lists for the check, built once per push-out
//! pass at the world's time and kept up to date as balls move.

use crate::step::embed::EMBED_SLACK;
use crate::step::pass::PassWith;
use crate::world::World;
use collide_core::{Aabb, Real, Vec2};

/// The balls of the world at one instant, by dense index, in a grid of square cells (world
/// units) over their centres, each cell a list of balls: every query visits them in one order.
pub(crate) struct BallObstacles {
    /// Centre and radius of each ball (dense index), where it is at the world's time.
    discs: Vec<(Vec2, Real)>,
    /// The grid: its corner, cell side (at least twice the largest radius, and wide enough
    /// that there are at most about four cells a ball), columns and rows. Centres outside it
    /// (moved there since) belong to its border cells.
    origin: Vec2,
    cell: Real,
    cols: usize,
    rows: usize,
    /// The lists: first the head of each cell's, then the next of each ball's ([`NONE`] ends
    /// a list).
    links: Vec<u32>,
    max_radius: Real,
    /// The box around every centre.
    lo: Vec2,
    hi: Vec2,
}

const NONE: u32 = u32::MAX;

impl BallObstacles {
    /// The grid of `discs` (centre and radius by dense index).
    #[inline(never)]
    pub(crate) fn new(discs: Vec<(Vec2, Real)>) -> Self {
        let first = discs.first().map_or(Vec2::ZERO, |d| d.0);
        let (mut lo, mut hi, mut max_radius) = (first, first, 0.0 as Real);
        for &(c, r) in &discs {
            lo = lo.min(c);
            hi = hi.max(c);
            max_radius = max_radius.max(r);
        }
        let extent = hi - lo;
        let fit = (extent.x * extent.y / (4.0 * discs.len() as Real + 16.0)).sqrt();
        let cell = (2.0 * max_radius)
            .max(fit)
            .max(extent.max_element() / 4096.0)
            .max(1e-9);
        let cols = (extent.x / cell) as usize + 1;
        let rows = (extent.y / cell) as usize + 1;
        let mut o = BallObstacles {
            links: vec![NONE; cols * rows + discs.len()],
            discs,
            origin: lo,
            cell,
            cols,
            rows,
            max_radius,
            lo,
            hi,
        };
        for i in (0..o.discs.len()).rev() {
            o.link(i);
        }
        o
    }

    /// Puts ball `i` first in its cell's list.
    fn link(&mut self, i: usize) {
        let k = self.cell_of(self.discs[i].0);
        let cells = self.cols * self.rows;
        self.links[cells + i] = self.links[k];
        self.links[k] = i as u32;
    }

    /// Column and row of `p`'s cell, kept inside the grid.
    fn col_row(&self, p: Vec2) -> (usize, usize) {
        let q = ((p - self.origin) / self.cell).floor();
        let col = q.x.clamp(0.0, (self.cols - 1) as Real) as usize;
        let row = q.y.clamp(0.0, (self.rows - 1) as Real) as usize;
        (col, row)
    }

    fn cell_of(&self, p: Vec2) -> usize {
        let (col, row) = self.col_row(p);
        row * self.cols + col
    }

    /// A box around every ball.
    pub(crate) fn bounds(&self) -> Aabb {
        Aabb::new(self.lo, self.hi).grown(self.max_radius)
    }

    /// Centre and radius of ball `i` (dense index).
    pub(crate) fn disc(&self, i: usize) -> (Vec2, Real) {
        self.discs[i]
    }

    /// Ball `i` now lies at `to`.
    #[inline(never)]
    pub(crate) fn moved(&mut self, i: usize, to: Vec2) {
        let cells = self.cols * self.rows;
        let mut at = self.cell_of(self.discs[i].0);
        while self.links[at] != i as u32 {
            at = cells + self.links[at] as usize;
        }
        self.links[at] = self.links[cells + i];
        self.discs[i].0 = to;
        self.lo = self.lo.min(to);
        self.hi = self.hi.max(to);
        self.link(i);
    }

    /// Calls `f` with the dense index of every ball whose disc's box meets `area`, in the
    /// grid's order.
    #[inline(never)]
    pub(crate) fn for_each_near(&self, area: &Aabb, f: &mut dyn FnMut(usize)) {
        let a = area.grown(self.max_radius);
        let (c0, r0) = self.col_row(a.min);
        let (c1, r1) = self.col_row(a.max);
        for row in r0..=r1 {
            for col in c0..=c1 {
                let mut j = self.links[row * self.cols + col];
                while j != NONE {
                    let (c, r) = self.discs[j as usize];
                    if c.x + r >= area.min.x
                        && c.x - r <= area.max.x
                        && c.y + r >= area.min.y
                        && c.y - r <= area.max.y
                    {
                        f(j as usize);
                    }
                    j = self.links[self.cols * self.rows + j as usize];
                }
            }
        }
    }
}

/// The balls a ball's push-out keeps clear of: the world's balls and the ball searched for
/// (dense index).
#[derive(Clone, Copy)]
pub(crate) struct OtherBalls<'a> {
    pub(crate) set: &'a BallObstacles,
    pub(crate) me: usize,
}

impl World {
    /// The world's balls where they are at its time, for push-outs; `None` when balls do not
    /// collide with each other (or there is only one).
    #[inline(never)]
    pub(crate) fn ball_obstacles(&self) -> Option<BallObstacles> {
        if !self.config.ball_ball || self.balls.len() < 2 {
            return None;
        }
        let discs = (0..self.balls.len())
            .map(|i| {
                let b = &self.balls[i];
                (b.pos_at(self.time, self.acc_of(i)), b.radius)
            })
            .collect();
        Some(BallObstacles::new(discs))
    }

    /// Whether ball `me` (dense index) must keep clear of ball `j`: another ball whose layers
    /// collide with its own, and not one it passes through (a contact a hook ignored).
    fn keeps_clear_of(&self, me: usize, j: usize) -> bool {
        j != me
            && self.ball_filter_at(me).collides(self.ball_filter_at(j))
            && !self
                .passes_of(me)
                .iter()
                .any(|p| p.with == PassWith::Ball(self.balls[j].id))
    }

    /// The first ball (in the grid's order) that a disc at `p` of `radius` overlaps by more
    /// than [`EMBED_SLACK`], among those ball `o.me` keeps clear of.
    pub(crate) fn ball_in_the_way(&self, o: OtherBalls, p: Vec2, radius: Real) -> Option<usize> {
        let mut found = None;
        self.for_each_ball_in_the_way(o, p, radius, &mut |j| {
            found = found.or(Some(j));
        });
        found
    }

    /// Calls `f` with every ball (dense index, in the grid's order) that a disc at `p` of
    /// `radius` overlaps by more than [`EMBED_SLACK`], among those ball `o.me` keeps clear of.
    #[inline(never)]
    pub(crate) fn for_each_ball_in_the_way(
        &self,
        o: OtherBalls,
        p: Vec2,
        radius: Real,
        f: &mut dyn FnMut(usize),
    ) {
        let area = Aabb::new(p - radius, p + radius);
        o.set.for_each_near(&area, &mut |j| {
            let (c, r) = o.set.disc(j);
            let reach = radius + r - EMBED_SLACK;
            if reach > 0.0
                && (p - c).length_squared() < reach * reach
                && self.keeps_clear_of(o.me, j)
            {
                f(j);
            }
        });
    }

    /// `p` pushed out of ball `j` along the line of centres (straight up from a coincident
    /// centre).
    pub(crate) fn push_out_of_ball(o: OtherBalls, p: Vec2, radius: Real, j: usize) -> Vec2 {
        let (c, r) = o.set.disc(j);
        let d = (p - c).normalize_or_zero();
        let d = if d == Vec2::ZERO {
            Vec2::new(0.0, -1.0)
        } else {
            d
        };
        c + d * (radius + r)
    }

    /// Calls `f` with the push-out candidates the other balls give a disc of `radius`
    /// searched for from `p` within `area` (see the module docs).
    #[inline(never)]
    pub(crate) fn ball_candidates(
        &self,
        o: OtherBalls,
        p: Vec2,
        radius: Real,
        area: &Aabb,
        f: &mut dyn FnMut(Vec2),
    ) {
        let (w, s) = (self.walls, self.size);
        o.set.for_each_near(&area.grown(radius), &mut |j| {
            if !self.keeps_clear_of(o.me, j) {
                return;
            }
            let (c, rj) = o.set.disc(j);
            let reach = radius + rj;
            f(Self::push_out_of_ball(o, p, radius, j));
            // The closed walls moved in by `radius`: lines x = radius, x = width − radius,
            // y = radius, y = height − radius.
            for (on, vertical, at) in [
                (w.left, true, radius),
                (w.right, true, s.x - radius),
                (w.top, false, radius),
                (w.bottom, false, s.y - radius),
            ] {
                let (across, along) = if vertical { (c.x, c.y) } else { (c.y, c.x) };
                let h2 = reach * reach - (at - across) * (at - across);
                if on && h2 >= 0.0 {
                    for v in [along + h2.sqrt(), along - h2.sqrt()] {
                        f(if vertical {
                            Vec2::new(at, v)
                        } else {
                            Vec2::new(v, at)
                        });
                    }
                }
            }
            // Crossings with the grown circles of the balls near this one.
            o.set
                .for_each_near(&Aabb::new(c - reach, c + reach).grown(radius), &mut |k| {
                    if k > j && self.keeps_clear_of(o.me, k) {
                        let (ck, rk) = o.set.disc(k);
                        for q in circle_crossings(c, reach, ck, radius + rk) {
                            f(q);
                        }
                    }
                });
        });
    }
}

/// The points where the circle about `a` of radius `ra` crosses the circle about `b` of
/// radius `rb` (none, or two, possibly equal). Bourke, "Intersection of two circles".
fn circle_crossings(a: Vec2, ra: Real, b: Vec2, rb: Real) -> impl Iterator<Item = Vec2> {
    let d = b - a;
    let dist = d.length();
    let mut out = [None, None];
    if dist > 0.0 && dist <= ra + rb && dist >= (ra - rb).abs() {
        let along = (ra * ra - rb * rb + dist * dist) / (2.0 * dist);
        let h = (ra * ra - along * along).max(0.0).sqrt();
        let u = d / dist;
        let m = a + u * along;
        out = [Some(m + u.perp() * h), Some(m - u.perp() * h)];
    }
    out.into_iter().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every ball whose disc meets a query's box is visited exactly once, whatever the box
    /// (narrow, wide, far), against a plain scan; and after moves.
    #[test]
    fn a_query_visits_exactly_the_discs_that_meet_its_box() {
        let mut rng = crate::model::rng::XorShift64Star::new(7);
        let discs: Vec<(Vec2, Real)> = (0..300)
            .map(|_| {
                let c = Vec2::new(rng.range_f64(0.0, 200.0), rng.range_f64(0.0, 150.0));
                (c, rng.range_f64(0.0, 6.0))
            })
            .collect();
        let mut o = BallObstacles::new(discs);
        for round in 0..400 {
            if round % 4 == 0 {
                let i = rng.range_f64(0.0, 300.0) as usize;
                let to = Vec2::new(rng.range_f64(-100.0, 300.0), rng.range_f64(-80.0, 220.0));
                o.moved(i, to);
            }
            let c = Vec2::new(rng.range_f64(-50.0, 250.0), rng.range_f64(-50.0, 200.0));
            let size = if round % 3 == 0 { 300.0 } else { 12.0 };
            let h = Vec2::new(rng.range_f64(0.0, size), rng.range_f64(0.0, size));
            let area = Aabb::new(c - h, c + h);
            let mut seen = Vec::new();
            o.for_each_near(&area, &mut |i| seen.push(i));
            let mut want: Vec<usize> = (0..300)
                .filter(|&i| {
                    let (p, r) = o.disc(i);
                    p.x - r <= area.max.x
                        && p.x + r >= area.min.x
                        && p.y - r <= area.max.y
                        && p.y + r >= area.min.y
                })
                .collect();
            seen.sort_unstable();
            want.sort_unstable();
            assert_eq!(seen, want, "round {round}");
        }
    }

    /// The crossings of two circles lie on both, and there are none for circles apart or
    /// nested.
    #[test]
    fn circle_crossings_lie_on_both_circles() {
        let (a, b) = (Vec2::new(1.0, 2.0), Vec2::new(4.0, 6.0));
        let q: Vec<Vec2> = circle_crossings(a, 3.0, b, 4.0).collect();
        assert_eq!(q.len(), 2);
        for p in q {
            assert!(((p - a).length() - 3.0).abs() < 1e-12);
            assert!(((p - b).length() - 4.0).abs() < 1e-12);
        }
        assert_eq!(circle_crossings(a, 1.0, b, 1.0).count(), 0);
        assert_eq!(circle_crossings(a, 10.0, b, 1.0).count(), 0);
    }
}
