//! Push-out of a dynamic box that the axis pushes of [`crate::step::embed`] cannot free: the
//! nearest free position of the box among the obstacles near it.
//!
//! Most obstacles a box meets in the push-out are axis-aligned boxes (a solid cell by its
//! square, a rectangle, a closed wall as a half-plane), so the positions a box's corner may not
//! take form a union of axis-aligned boxes (each obstacle grown by the box's size: their
//! Minkowski sums). The free position nearest to the start lies on the boundary of that union:
//! on an edge (one coordinate the start's, the other an obstacle's grown edge) or at a corner
//! (both coordinates grown edges). So the candidates are the grid of the start's coordinates
//! and the grown edges. The flippers (where they are now) and the static shapes are rounded
//! convex obstacles (`embed_box_round.rs`): their candidates are the nearest point of each
//! one's boundary and its boundary's points on the grid's lines. The nearest free candidate
//! is the answer (ties: least x, then least y). The
//! search looks within a disc of radius `d` around the start, with the obstacles of the region
//! it reaches, and doubles `d` until a free position is found, the region covers the closed
//! world, or the obstacles of the region pass [`MAX_OBSTACLES`] (runs of solid cells along a
//! row count once). With no room clear of the other dynamic boxes and the flippers, the search
//! is made again with only what does not move (the boxes part and the flippers turn away in
//! the steps that follow); with none at all,
//! the box stays where the axis pushes left it, moved inside the closed walls if they had
//! pushed it out ([`World::inside_walls`]).
//!
//! A box longer along an axis than the room between that axis's two closed walls has no
//! position inside them: along that axis it is placed across the world, centred (it overlaps
//! both walls by the same depth), those two walls are left out of the obstacles, and the
//! search runs along the other axis only, keeping it out of everything else.

use crate::body::rect::RectRole;
use crate::model::filter::Filter;
use crate::model::ids::RectId;
use crate::step::embed_box_round::RoundObstacle;
use crate::world::World;
use collide_core::{aabb_overlaps_aabb, Aabb, Real, Vec2};

/// The most obstacles (rectangles, closed walls and runs of solid cells along a row) a box's
/// search may take into account: at most `(2n + 1)²` candidates of `n` checks each.
pub(crate) const MAX_OBSTACLES: usize = 256;

/// Growths of the search disc before it gives up (from the box's size, doubling).
const MAX_DOUBLINGS: u32 = 40;

impl World {
    /// The obstacles overlapping `region` for a box of `filter` (`me` excluded): solid cells
    /// by their squares, merged into runs along a row, the other rectangles but sensors (and
    /// but dynamic ones unless `movable`), and the closed walls as half-planes. `None` past
    /// [`MAX_OBSTACLES`].
    fn box_region_obstacles(
        &self,
        region: &Aabb,
        me: RectId,
        filter: Filter,
        movable: bool,
        across: [bool; 2],
    ) -> Option<Vec<Aabb>> {
        let mut obstacles: Vec<Aabb> = Vec::new();
        let mut over = false;
        if let Some(g) = &self.grid {
            let mut last: Option<(u32, u32)> = None;
            g.for_each_solid_in_kinds(g.kinds_for(filter), region, |c, _| {
                let a = g.cell_aabb(c);
                match (obstacles.last_mut(), last) {
                    (Some(run), Some((row, col))) if row == c.row && col + 1 == c.col => {
                        run.max.x = a.max.x;
                    }
                    _ => {
                        over |= obstacles.len() >= MAX_OBSTACLES;
                        if !over {
                            obstacles.push(a);
                        }
                    }
                }
                last = Some((c.row, c.col));
            });
        }
        for r in self.obstacle_rects() {
            if r.id != me
                && (movable || r.role() != RectRole::Dynamic)
                && filter.collides(r.surface.filter)
                && aabb_overlaps_aabb(&r.aabb, region)
            {
                obstacles.push(r.aabb);
            }
        }
        obstacles.extend(
            self.wall_half_planes_by_axis()
                .filter(|&(k, _)| !across[k])
                .map(|(_, a)| a),
        );
        (!over && obstacles.len() <= MAX_OBSTACLES).then_some(obstacles)
    }

    /// The closed walls as boxes reaching far past the world.
    pub(crate) fn wall_half_planes(&self) -> impl Iterator<Item = Aabb> {
        self.wall_half_planes_by_axis().map(|(_, a)| a)
    }

    /// The closed walls as boxes reaching far past the world, each with the axis it bounds
    /// (0: left and right, 1: top and bottom).
    fn wall_half_planes_by_axis(&self) -> impl Iterator<Item = (usize, Aabb)> {
        let big = 1e300;
        let (w, s) = (self.walls, self.size);
        [
            (
                w.left,
                0,
                Aabb::new(Vec2::new(-big, -big), Vec2::new(0.0, big)),
            ),
            (
                w.right,
                0,
                Aabb::new(Vec2::new(s.x, -big), Vec2::new(big, big)),
            ),
            (
                w.top,
                1,
                Aabb::new(Vec2::new(-big, -big), Vec2::new(big, 0.0)),
            ),
            (
                w.bottom,
                1,
                Aabb::new(Vec2::new(-big, s.y), Vec2::new(big, big)),
            ),
        ]
        .into_iter()
        .filter_map(|(closed, k, a)| closed.then_some((k, a)))
    }

    /// Box `b` moved along each axis, as little as it takes, to lie between that axis's
    /// closed walls; an axis with one closed wall only moves it off that wall's outside, and
    /// a box larger than the world along an axis is left there.
    pub(crate) fn inside_walls(&self, b: &Aabb) -> Aabb {
        let w = self.walls;
        let closed = [(w.left, w.right), (w.top, w.bottom)];
        let mut shift = Vec2::ZERO;
        for (k, (lo, hi)) in closed.into_iter().enumerate() {
            let (min, max, size) = (b.min[k], b.max[k], self.size[k]);
            if max - min > size {
                continue;
            }
            if lo && min < 0.0 {
                shift[k] = -min;
            } else if hi && max > size {
                shift[k] = size - max;
            }
        }
        b.translated(shift)
    }

    /// The nearest position of box `b` (of rectangle `me`, `filter`) where it overlaps no
    /// obstacle by more than `slack` (other dynamic boxes and the flippers counted when
    /// `movable`), or `None`
    /// if the search gives up (see the module docs).
    pub(crate) fn nearest_free_box(
        &self,
        b: &Aabb,
        me: RectId,
        filter: Filter,
        slack: Real,
        movable: bool,
    ) -> Option<Aabb> {
        let size = b.max - b.min;
        let world = Aabb::new(Vec2::ZERO, self.size);
        // The axes along which the box is longer than the room between two closed walls: it
        // is held across the world there, centred (see the module docs).
        let w = self.walls;
        let across = [
            w.left && w.right && size.x > self.size.x,
            w.top && w.bottom && size.y > self.size.y,
        ];
        let mut start = b.min;
        for k in 0..2 {
            if across[k] {
                start[k] = (self.size[k] - size[k]) / 2.0;
            }
        }
        let b = &Aabb::new(start, start + size);
        let mut d = size.x.max(size.y).max(1.0);
        for _ in 0..MAX_DOUBLINGS {
            let region = b.grown(d);
            let obstacles = self.box_region_obstacles(&region, me, filter, movable, across)?;
            // The start's coordinate and the grown edges within reach, along axis `k` (the
            // start's only, along an axis the box is held across).
            let coords = |k: usize| {
                let (start, len) = (b.min[k], size[k]);
                let mut v = vec![start];
                if across[k] {
                    return v;
                }
                for o in &obstacles {
                    for x in [o.min[k] - len, o.max[k]] {
                        if x.is_finite() && (x - start).abs() <= d {
                            v.push(x);
                        }
                    }
                }
                v
            };
            let (xs, ys) = (coords(0), coords(1));
            // The flippers and shapes in reach (`embed_box_round.rs`), and their candidates: the
            // nearest point of each one's boundary, and its boundary's points on the lines
            // of the other candidates.
            let reach = Aabb::new(b.min - Vec2::splat(d), b.min + Vec2::splat(d));
            let mut rounds: Vec<RoundObstacle> = Vec::new();
            self.for_each_rounded(filter, movable, &mut |points, r| {
                let o = RoundObstacle::new(points, r, size);
                if aabb_overlaps_aabb(&o.bounds(), &reach) {
                    rounds.push(o);
                }
            });
            let mut extra: Vec<Vec2> = Vec::new();
            for o in &rounds {
                extra.push(o.exit(b.min));
                for &x in &xs {
                    o.on_line(0, x, &mut extra);
                }
                for &y in &ys {
                    o.on_line(1, y, &mut extra);
                }
            }
            let grid = xs
                .iter()
                .flat_map(|&x| ys.iter().map(move |&y| Vec2::new(x, y)));
            // The free candidate of least (distance², x, y): no sort, a candidate is checked
            // only when it would be the best so far.
            let mut best: Option<(Real, Vec2)> = None;
            for p in grid.chain(extra.iter().copied()) {
                let (x, y) = (p.x, p.y);
                let d2 = (p - b.min).length_squared();
                let better = d2 <= d * d
                    && !(across[0] && x != b.min.x || across[1] && y != b.min.y)
                    && best.is_none_or(|(bd, bp)| {
                        d2 < bd || d2 == bd && (x < bp.x || x == bp.x && y < bp.y)
                    });
                if better {
                    let shrunk = Aabb::new(p, p + size).grown(-slack);
                    if !obstacles.iter().any(|o| aabb_overlaps_aabb(&shrunk, o))
                        && !rounds.iter().any(|o| o.overlaps(p, slack))
                    {
                        best = Some((d2, p));
                    }
                }
            }
            if let Some((_, p)) = best {
                return Some(Aabb::new(p, p + size));
            }
            let closed = self.walls.left && self.walls.right && self.walls.top && self.walls.bottom;
            if closed
                && region.min.x <= world.min.x
                && region.min.y <= world.min.y
                && region.max.x >= world.max.x
                && region.max.y >= world.max.y
                && d * d >= (world.max - world.min).length_squared()
            {
                return None;
            }
            d *= 2.0;
        }
        None
    }
}
