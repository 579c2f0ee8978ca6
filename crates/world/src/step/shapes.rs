//! A ball's search against the static segments and circles (`crate::shapes`), on its straight
//! or curved path: a part of its static search.

use super::mover::PTarget;
use super::predict::take;
use crate::shapes::ShapeKind;
use crate::world::World;
use collide_core::motion::Path;
use collide_core::sweep_path::{sweep_path_circle_circle, sweep_path_circle_segment};
use collide_core::{Aabb, Feature, Real, SweepHit};

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
        for (k, sh) in self.shapes.iter().enumerate() {
            if !filter.collides(sh.filter)
                || !collide_core::aabb_overlaps_aabb(reach, &sh.kind.aabb())
            {
                continue;
            }
            let hit = match sh.kind {
                ShapeKind::Segment { segment, ends } => {
                    sweep_path_circle_segment(path, radius, *limit, &segment, ends).map(|h| {
                        SweepHit {
                            toi: h.toi,
                            normal: h.normal,
                            point: h.point,
                            feature: Feature::Circle,
                        }
                    })
                }
                ShapeKind::Circle(c) => {
                    let still = Path::linear(c.center, collide_core::Vec2::ZERO);
                    sweep_path_circle_circle(path, radius, &still, c.radius, *limit)
                }
            };
            if let Some(h) = hit {
                take(h.toi.max(base), PTarget::Shape(k as u32), h, best, limit);
            }
        }
    }
}
