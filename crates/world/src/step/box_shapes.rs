//! A dynamic rectangle's search against the static shapes (`crate::body::shape`: segments, circles, polygons), on
//! its straight or curved path: a part of its static search. A box meets a segment by the
//! separating axes x, y and the segment's normal (`collide_core::sweep_aabb_segment`, on a
//! parabola `sweep_path_aabb_segment`), and a circle as the circle would meet the box moving
//! the other way (the Minkowski sum is the same rounded box: `sweep_circle_aabb` with the
//! opposite velocity, on a parabola `sweep_path_circle_aabb` with the opposite path). Sensor
//! circles are for balls: boxes pass through them.

use super::mover::PTarget;
use super::predict::take;
use crate::grid::walk::box_path_bounds;
use crate::model::target::Target;
use crate::world::World;
use collide_core::motion::Path;
use collide_core::{Aabb, Real, SweepHit, Vec2};

impl World {
    /// The earliest contact of dynamic rectangle mover `m`, whose box is `aabb` at the start
    /// of its path and moves by `disp` (a displacement path, times from that start, straight
    /// when its acceleration is zero), with a static shape its filter collides with, up to
    /// `limit`, kept in `best` by [`take`] (never before `base`). Every shape whose box meets
    /// the box's swept bounds is swept (boxes are few; balls use the shapes' index), but those
    /// on the line of the face that holds the box at rest (`World::held_shapes`).
    pub(super) fn box_shape_hits(
        &self,
        m: usize,
        aabb: &Aabb,
        disp: &Path,
        base: Real,
        best: &mut Option<(Real, PTarget, SweepHit)>,
        limit: &mut Real,
    ) {
        let k = self.rect_index(m);
        let filter = self.rects[k].surface.filter;
        let straight = disp.accel == Vec2::ZERO;
        let reach = box_path_bounds(aabb, disp, base, *limit).grown(1e-9);
        // The shapes on the line of the face that holds the box are not met while it holds
        // it (`shape_rest.rs`).
        let held = self.held_shapes(self.rect_rest[k]);
        for (j, shape) in self.shapes.iter().enumerate() {
            if shape.surface.sensor
                || !filter.collides(shape.surface.filter)
                || held.as_ref().is_some_and(|h| h.skips(shape))
            {
                continue;
            }
            if !collide_core::aabb_overlaps_aabb(&reach, &shape.kind.aabb()) {
                continue;
            }
            let hit = if !self.one_way.is_empty() && self.is_one_way(Target::Shape(shape.id)) {
                shape.kind.sweep_box_one_way(aabb, disp, straight, *limit)
            } else {
                shape.kind.sweep_box(aabb, disp, straight, *limit)
            };
            if let Some(h) = hit {
                take(h.toi.max(base), PTarget::Shape(j as u32), h, best, limit);
            }
        }
    }
}
