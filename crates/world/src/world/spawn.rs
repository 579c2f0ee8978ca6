//! Placing balls: a scene's spawners (random places without overlap, from the seeded
//! generator) and the test of a free place.

use crate::body::rect::RectRole;
use crate::model::desc::BallDesc;
use crate::model::error::WorldError;
use crate::model::filter::{CellKinds, Filter};
use crate::model::ids::RectId;
use crate::model::limits::{self, Bound};
use crate::model::rng::XorShift64Star;
use crate::world::measure::morton;
use crate::world::validate::{validate_aabb, validate_ball};
use crate::world::World;
use crate::world::MAX_SPAWN_FAILS_IN_A_ROW;
use collide_core::{circle_overlaps_aabb, circle_overlaps_circle, Aabb, Real, Vec2};

impl World {
    pub(super) fn spawn(&mut self, sp: &crate::model::desc::SpawnDesc) -> Result<(), WorldError> {
        if sp.count == 0 {
            return Ok(());
        }
        let total = self.balls.len().saturating_add(sp.count);
        if total > limits::MAX_BALLS {
            return Err(WorldError::TooMany {
                what: "balls",
                count: total,
                max: limits::MAX_BALLS,
            });
        }
        validate_ball(&BallDesc {
            pos: Vec2::ZERO,
            vel: Vec2::ZERO,
            radius: sp.radius,
            density: sp.density,
            surface: sp.surface,
            gravity_scale: 1.0,
        })?;
        Bound::NonNeg
            .check(sp.speed)
            .map_err(|e| WorldError::BadSetting {
                field: "spawn.speed",
                problem: e.to_string(),
            })?;
        let region = sp.region.unwrap_or(Aabb::new(Vec2::ZERO, self.size));
        if let Err((_, problem)) = validate_aabb(&region) {
            return Err(WorldError::BadSetting {
                field: "spawn.region",
                problem,
            });
        }
        let r = sp.radius;
        // Centres are drawn in the region shrunk by r (and kept inside closed walls).
        let lo = Vec2::new(region.min.x + r, region.min.y + r);
        let hi = Vec2::new(region.max.x - r, region.max.y - r);
        let mut rng = XorShift64Star::new(sp.seed);
        // A uniform hash grid of placed balls (cell = 2r) for the no-overlap test.
        // Buckets of side at least 2r, and no more of them than about 4 per ball to place (a
        // few balls in a huge world must not allocate a huge grid).
        let ext = (hi - lo).max(Vec2::ZERO);
        let cell = (2.0 * r)
            .max((ext.x * ext.y / (4 * sp.count + 16) as Real).sqrt())
            .max(ext.max_element() / 4096.0)
            .max(1e-6);
        let cols = ((ext.x / cell).ceil() as usize + 1).min(4097);
        let rows = ((ext.y / cell).ceil() as usize + 1).min(4097);
        let mut buckets: Vec<Vec<Vec2>> = vec![Vec::new(); cols * rows];
        let bucket_of = |p: Vec2| -> (usize, usize) {
            let q = ((p - lo) / cell).floor();
            (
                (q.x.max(0.0) as usize).min(cols - 1),
                (q.y.max(0.0) as usize).min(rows - 1),
            )
        };
        // Balls already present: those of the spawn's radius go in the buckets; the others
        // (explicit balls of other sizes, usually few) are tested one by one.
        let mut others: Vec<(Vec2, Real)> = Vec::new();
        for b in self.balls() {
            if b.radius == r {
                let (c, rr) = bucket_of(b.pos);
                buckets[rr * cols + c].push(b.pos);
            } else {
                others.push((b.pos, b.radius));
            }
        }
        let max_attempts = (sp.count as u64)
            .saturating_mul(1000)
            .saturating_add(10_000);
        let mut attempts = 0u64;
        let mut fails_in_a_row = 0u64;
        let mut placed = 0usize;
        let mut new_balls: Vec<(u64, Vec2, Vec2)> = Vec::with_capacity(sp.count.min(1 << 20));
        // Buckets to look at around a point: far enough to see any ball within 2r.
        let reach = ((2.0 * r / cell).ceil() as usize).max(1);
        while placed < sp.count {
            // Give up after too many attempts in all, or in a row (a region that is full
            // fails fast whatever the count asked for).
            if attempts >= max_attempts
                || fails_in_a_row >= MAX_SPAWN_FAILS_IN_A_ROW
                || !(lo.x <= hi.x && lo.y <= hi.y)
            {
                return Err(WorldError::SpawnImpossible {
                    placed,
                    count: sp.count,
                    radius: r,
                    attempts,
                });
            }
            attempts += 1;
            fails_in_a_row += 1;
            let p = Vec2::new(
                lo.x + (hi.x - lo.x) * rng.next_f64(),
                lo.y + (hi.y - lo.y) * rng.next_f64(),
            );
            if !self.circle_is_free(p, r, None) {
                continue;
            }
            // Other balls: explicit ones may have other radii, test them all when few.
            let (c, rr) = bucket_of(p);
            let mut clash = false;
            'scan: for y in rr.saturating_sub(reach)..(rr + reach + 1).min(rows) {
                for x in c.saturating_sub(reach)..(c + reach + 1).min(cols) {
                    for q in &buckets[y * cols + x] {
                        if circle_overlaps_circle(p, r, *q, r) {
                            clash = true;
                            break 'scan;
                        }
                    }
                }
            }
            if clash
                || others
                    .iter()
                    .any(|&(q, rq)| circle_overlaps_circle(p, r, q, rq))
            {
                continue;
            }
            let dir = rng.unit_vector();
            new_balls.push((morton(c as u32, rr as u32), dir * sp.speed, p));
            buckets[rr * cols + c].push(p);
            placed += 1;
            fails_in_a_row = 0;
        }
        // Stored in Z-order of their buckets (Morton, 1966): balls near each other in space
        // are near each other in memory, which the step's neighbour searches read together.
        // Stable sort: equal keys keep their placement order (deterministic).
        new_balls.sort_by_key(|b| b.0);
        for (_, vel, pos) in new_balls {
            self.add_ball(BallDesc {
                pos,
                vel,
                radius: r,
                density: sp.density,
                surface: sp.surface,
                gravity_scale: 1.0,
            })?;
        }
        Ok(())
    }

    /// Whether a disc of `radius` at `p` is free of solid cells, rectangles (all kinds, except
    /// `skip`), static shapes, flippers (where they are now) and closed walls (touching allowed). Balls are not considered.
    #[must_use]
    pub fn circle_is_free(&self, p: Vec2, radius: Real, skip: Option<RectId>) -> bool {
        self.circle_overlap_depth_ok(p, radius, 0.0, skip, None)
            && !self.circle_overlaps_shape(p, radius)
    }

    /// Like [`World::circle_is_free`] without the sensor circles and one-way shapes,
    /// tolerating overlaps up to `slack` world units, and with `Some(filter)` only against the
    /// cells, rectangles, static shapes and flippers a body of `filter` collides with (closed
    /// walls always; `None`: everything).
    pub(crate) fn circle_overlap_depth_ok(
        &self,
        p: Vec2,
        radius: Real,
        slack: Real,
        skip: Option<RectId>,
        filter: Option<Filter>,
    ) -> bool {
        let r = radius - slack;
        if self.walls.left && p.x < r
            || self.walls.right && p.x > self.size.x - r
            || self.walls.top && p.y < r
            || self.walls.bottom && p.y > self.size.y - r
        {
            return false;
        }
        if let Some(g) = &self.grid {
            let kinds = filter.map_or(CellKinds::ALL, |f| g.kinds_for(f));
            if g.circle_overlaps_solid_kinds(kinds, p, radius, slack) {
                return false;
            }
        }
        !self.rects.iter().any(|rc| {
            Some(rc.id) != skip
                && filter.is_none_or(|f| f.collides(rc.surface.filter))
                && rc.role() != RectRole::Sensor
                && circle_overlaps_aabb(p, r, &rc.aabb)
        }) && !self.circle_overlaps_flipper(p, radius, slack, filter)
            && !self
                .solid_shapes(filter)
                .any(|sh| sh.kind.overlaps_circle(p, radius - slack))
    }
}
