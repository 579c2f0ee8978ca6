//! A ball's search against the static segments and circles (`crate::shapes`), on its straight
//! or curved path: a part of its static search. A sensor circle is met as a solid one (its
//! touch is the ball's entry, `resolve.rs`), except while the ball is inside it or after it
//! left it on the same path (`crate::pass`).

use super::mover::PTarget;
use super::predict::take;
use crate::pass::PassWith;
use crate::shapes::ShapeKind;
use crate::world::World;
use collide_core::motion::Path;
use collide_core::sweep_path::{sweep_path_circle_circle, sweep_path_circle_segment};
use collide_core::{Aabb, Feature, Real, SweepHit, Vec2};

/// The path of a still disc's centre.
fn still(center: Vec2) -> Path {
    Path::linear(center, Vec2::ZERO)
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
        for (k, sh) in self.shapes.iter().enumerate() {
            if !filter.collides(sh.filter)
                || !collide_core::aabb_overlaps_aabb(reach, &sh.kind.aabb())
            {
                continue;
            }
            if let (true, ShapeKind::Circle(c)) = (sh.sensor, sh.kind) {
                // Inside it (nothing to meet), or parted from it: touched again only after.
                let sweep = |p: &Path, lim: Real| {
                    sweep_path_circle_circle(p, radius, &still(c.center), c.radius, lim)
                };
                let with = PassWith::Shape(sh.id);
                if let Some(after) = self.static_sensor_pass_contact(m, with, passes, *limit, sweep)
                {
                    if let Some((toi, h)) = after {
                        take(toi.max(base), PTarget::Shape(k as u32), h, best, limit);
                    }
                    continue;
                }
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
                    sweep_path_circle_circle(path, radius, &still(c.center), c.radius, *limit)
                }
            };
            if let Some(h) = hit {
                take(h.toi.max(base), PTarget::Shape(k as u32), h, best, limit);
            }
        }
    }
}
