//! A ball's search against the static shapes (`crate::body::shape`: segments, circles, polygons), on its straight
//! or curved path: a part of its static search. A sensor circle is met as a solid one (its
//! touch is the ball's entry, `resolve.rs`), except while the ball is inside it or after it
//! left it on the same path (`crate::step::pass`); so is a one-way shape the ball passes
//! through (`one_way.rs`).

use super::mover::PTarget;
use super::predict::take;
use crate::grid::walk::{path_bounds, window_end};
use crate::model::filter::Filter;
use crate::step::pass::{Pass, PassWith};
use crate::world::World;
use collide_core::motion::Path;
use collide_core::{Aabb, Real, SweepHit};

thread_local! {
    /// The shapes near a window of a ball's path (`ShapeIndex::candidates`) and those its
    /// search has tested, kept per thread between searches so that a search allocates
    /// nothing.
    static CANDIDATES: std::cell::RefCell<(Vec<u32>, Vec<u32>)> =
        const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

impl World {
    /// The earliest contact of ball `m` (radius `radius`, centre on `path` from its anchor)
    /// with a static shape its filter collides with whose box meets `reach` (the region the
    /// ball can reach before `limit`), kept in `best` by [`take`] (times from the anchor,
    /// never before `base`).
    pub(super) fn shape_hits(
        &self,
        m: usize,
        path: &Path,
        reach: &Aabb,
        base: Real,
        best: &mut Option<(Real, PTarget, SweepHit)>,
        limit: &mut Real,
    ) {
        let b = &self.balls[m];
        let (radius, filter) = (b.radius, self.ball_filter_at(m));
        let passes = self.passes_of(m);
        // The shape whose face holds the ball is not met while it holds it (`shape_rest.rs`).
        let held = match self.ball_rest.get(m) {
            Some(Some(crate::body::rest::Rest {
                on: crate::body::rest::RestOn::Shape(id, _),
                ..
            })) => Some(*id),
            _ => None,
        };
        if !self.shape_index.is_built() || !limit.is_finite() {
            for k in 0..self.shapes.len() {
                if held == Some(self.shapes[k].id) {
                    continue;
                }
                self.shape_hit(m, k, radius, filter, passes, path, reach, base, best, limit);
            }
            return;
        }
        // Walked in time windows, each covering about a cell of the index (or the ball's
        // diameter) of path, in time order, as the grid is (`grid_path.rs`): the shapes near
        // each window's stretch of path, ascending, each once; the first window that holds a
        // hit holds the earliest (any contact in a later window touches a shape near that
        // window's path). A shape's time of impact does not depend on the search's limit
        // (`collide_core::sweep_path::SOLVE_HORIZON`), so the hits are those of a scan.
        let chunk = self.shape_index.cell().max(2.0 * radius);
        CANDIDATES.with_borrow_mut(|(near, seen)| {
            seen.clear();
            let mut ta = base;
            while ta < *limit {
                let tb = window_end(path, ta, *limit, chunk);
                let window = path_bounds(path, ta, tb).grown(radius + 1e-9);
                self.shape_index.candidates(&window, near);
                for &k in near.iter() {
                    if let Err(at) = seen.binary_search(&k) {
                        seen.insert(at, k);
                        let k = k as usize;
                        if held == Some(self.shapes[k].id) {
                            continue;
                        }
                        self.shape_hit(
                            m, k, radius, filter, passes, path, reach, base, best, limit,
                        );
                    }
                }
                if best.is_some_and(|b| b.0 <= tb) {
                    break;
                }
                ta = tb;
            }
        });
    }

    /// [`World::shape_hits`] for shape `k` (dense index).
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn shape_hit(
        &self,
        m: usize,
        k: usize,
        radius: Real,
        filter: Filter,
        passes: &[Pass],
        path: &Path,
        reach: &Aabb,
        base: Real,
        best: &mut Option<(Real, PTarget, SweepHit)>,
        limit: &mut Real,
    ) {
        let sh = &self.shapes[k];
        if !filter.collides(sh.surface.filter)
            || !collide_core::aabb_overlaps_aabb(reach, &sh.kind.aabb())
        {
            return;
        }
        {
            // Inside it (a sensor circle, or a one-way platform passed through: nothing to
            // meet), or parted from it: touched again only after.
            let sweep = |p: &Path, lim: Real| sh.kind.sweep_path_circle(p, radius, lim);
            let with = PassWith::Shape(sh.id);
            if let Some(after) = self.static_pass_contact(m, with, passes, *limit, sweep) {
                if let Some((toi, h)) = after {
                    take(toi.max(base), PTarget::Shape(k as u32), h, best, limit);
                }
                return;
            }
            let hit = sh.kind.sweep_path_circle(path, radius, *limit);
            if let Some(h) = hit {
                take(h.toi.max(base), PTarget::Shape(k as u32), h, best, limit);
            }
        }
    }
}
