//! Sensors in the step: the search of a ball's path for the sensor cells it touches, which
//! predicted touch is a ball entering a sensor (a rectangle, a circle, a cell's square), and
//! the entry itself: the ball starts a pass (`crate::step::pass`) with the sensor and predicts again
//! on its unchanged path.
//!
//! **Sensor cells.** Each [`Cell::Sensor`] is a sensor of its own, its square: a ball crossing
//! from one sensor cell into the next enters the next when its circle first touches that
//! square, and leaves the first when its circle has left it (so it is inside both for a
//! while). The search walks the ball's path (straight or parabolic) in time windows that
//! cover at most about one cell each, as the grid's own curved walk (`crate::grid::walk`), and
//! sweeps the circle against the square of every sensor cell under each window's box
//! (`collide_core::sweep_path_circle_aabb` with every face and corner: the exact first touch).
//! Only a ball whose filter collides with the grid's sensor filter searches, and only in a
//! world with sensor cells: any other search pays one test.

use super::mover::{PTarget, Prediction};
use super::predict::take;
use crate::body::rect::RectRole;
use crate::grid::walk::{path_bounds, window_end};
use crate::model::cell::Cell;
use crate::model::cell::CellCoord;
use crate::model::event::Event;
use crate::step::pass::{Pass, PassWith};
use crate::world::World;
use collide_core::motion::Path;
use collide_core::sweep_path::sweep_path_circle_aabb;
use collide_core::{Features, Real, SweepHit};

impl World {
    /// The sensor a predicted event `target` touches, if it is one.
    #[inline]
    pub(super) fn sensor_target(&self, target: PTarget) -> Option<PassWith> {
        match target {
            PTarget::Rect(k) if self.rects[k as usize].role() == RectRole::Sensor => {
                Some(PassWith::Rect(self.rects[k as usize].id))
            }
            PTarget::Shape(k) if self.shapes[k as usize].surface.sensor => {
                Some(PassWith::Shape(self.shapes[k as usize].id))
            }
            PTarget::SensorCell(c) => Some(PassWith::Cell(c)),
            _ => None,
        }
    }

    /// Ball `m` touched sensor `with` at `pred` (moving in): it enters, its motion unchanged.
    pub(super) fn sensor_entered(&mut self, m: usize, with: PassWith, pred: &Prediction) {
        let t = pred.time;
        let ball = self.balls[m].id;
        self.add_pass(Pass {
            ball,
            with,
            since: t,
            sensor: true,
            ended: None,
        });
        if let Some(sensor) = with.sensor_id() {
            self.events.push(Event::SensorEnter {
                ball,
                sensor,
                point: pred.point,
                toi: t - self.scratch.t0,
            });
        }
        self.predict_unchanged(m, t);
    }
}

impl World {
    /// Whether the world has sensor cells (a ball's search then looks for them).
    #[inline]
    pub(super) fn has_sensor_cells(&self) -> bool {
        self.grid.as_ref().is_some_and(|g| g.sensor_cells() != 0)
    }

    /// The earliest touch of ball `m` (centre on `path`, times from its anchor) with the square
    /// of a sensor cell it is not inside, from `base` up to `limit`, kept in `best` by
    /// [`take`] (see the module docs). A cell the ball has left on this path is touched
    /// again only after the exit (`World::static_pass_contact`). Out of line: the
    /// searches of a world without sensor cells never call it.
    #[inline(never)]
    pub(super) fn sensor_cell_hits(
        &self,
        m: usize,
        path: &Path,
        base: Real,
        best: &mut Option<(Real, PTarget, SweepHit)>,
        limit: &mut Real,
    ) {
        let Some(g) = self.grid.as_ref() else {
            return;
        };
        if g.sensor_cells() == 0 || !self.ball_filter_at(m).collides(g.sensor_filter()) {
            return;
        }
        let radius = self.balls[m].radius;
        let passes = self.passes_of(m);
        let bounds = g.bounds();
        let chunk = g.cell_size().max(2.0 * radius);
        let mut ta = base;
        // Bounded as the grid's curved walk: each window covers at least `chunk` of path or
        // ends the walk.
        while ta < *limit {
            let tb = window_end(path, ta, *limit, chunk);
            let b = path_bounds(path, ta, tb).grown(radius);
            if collide_core::aabb_overlaps_aabb(&b, &bounds) {
                if let Some((c0, r0, c1, r1)) = g.cell_range(&b) {
                    for row in r0..=r1 {
                        for col in c0..=c1 {
                            let c = CellCoord::new(col as u32, row as u32);
                            if !matches!(g.cell(c), Cell::Sensor(_)) {
                                continue;
                            }
                            let square = g.cell_aabb_usize(col, row);
                            let sweep = |p: &Path, lim: Real| {
                                sweep_path_circle_aabb(p, radius, lim, &square, Features::ALL)
                            };
                            let hit = match self.static_pass_contact(
                                m,
                                PassWith::Cell(c),
                                passes,
                                *limit,
                                sweep,
                            ) {
                                Some(after) => after,
                                None => sweep(path, *limit).map(|h| (h.toi, h)),
                            };
                            if let Some((toi, h)) = hit {
                                take(toi.max(base), PTarget::SensorCell(c), h, best, limit);
                            }
                        }
                    }
                }
            }
            ta = tb;
        }
    }
}
