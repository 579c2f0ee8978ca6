//! World queries: a circle cast (`World::cast_circle`), the bodies at a point and in a box,
//! with the [`Target`] they name and the [`CastHit`] a cast returns.

use crate::model::event::Side;
use crate::model::filter::Filter;
use crate::model::ids::BallId;
use crate::world::World;
use collide_core::{
    aabb_overlaps_aabb, aabb_overlaps_capsule, circle_overlaps_aabb, distance_point_segment,
    point_in_aabb, sweep_circle_aabb, sweep_circle_circle, sweep_circle_half_plane,
    sweep_circle_segment, Aabb, Face, FaceSegment, Feature, Features, Real, SegmentEnds,
    SegmentHit, SweepHit, Vec2,
};

pub use crate::model::target::Target;

/// The first hit of [`World::cast_circle`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CastHit {
    /// Fraction of the segment travelled at impact, in `[0, 1]`.
    pub toi: Real,
    /// The circle's centre at impact, world units.
    pub center: Vec2,
    /// Contact point, world units.
    pub point: Vec2,
    /// Contact normal from the target toward the circle.
    pub normal: Vec2,
    /// What was hit.
    pub target: Target,
}

impl World {
    /// Casts a circle of `radius` from `from` to `to` (world units) against the current state
    /// (tiles' exposed features, closed walls, rectangles, static shapes,
    /// flippers where they are now, balls, characters; nothing moves) and returns the first hit, with `toi`
    /// as a fraction of the segment. A radius of 0 casts a ray. Used for aim previews.
    ///
    /// Contact at start counts only when the circle moves toward the obstacle (the crate's
    /// Bannerman rule). Balls listed in `ignore` are skipped (e.g. the ball being aimed).
    /// Only what a body of `filter` collides with is hit ([`crate::Filter`]: the cells of the
    /// kinds it collides with, their exposure computed for it, the bodies it collides with,
    /// closed walls always); [`Filter::ALL`] hits every body and cell on some layer, a ball's
    /// own filter what that ball would hit.
    /// Ties go to the first in the order tiles, walls, rectangles, shapes, flippers, balls,
    /// characters (each in storage order).
    /// Visits every ball; [`World::query_index`] answers the same while visiting only the
    /// balls near the segment.
    #[must_use]
    pub fn cast_circle(
        &self,
        from: Vec2,
        to: Vec2,
        radius: Real,
        ignore: &[BallId],
        filter: Filter,
    ) -> Option<CastHit> {
        self.cast_circle_among(from, to, radius, ignore, filter, 0..self.balls.len())
    }

    /// Casts a ray from `from` to `to` (world units) against the current state: the first
    /// body or tile face the segment touches, with `toi` as a fraction of the segment. The same
    /// query as [`World::cast_circle`] with a radius of 0 (and its rules for ties, filters and
    /// contact at the start); `ignore` skips those balls.
    ///
    /// ```
    /// use collide_world::{Filter, StepConfig, Target, Vec2, Walls, World};
    /// let w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    /// // From x = 20 toward x = 120: the right wall at x = 100 is 80 of the 100 units away.
    /// let hit = w.cast_ray(Vec2::new(20.0, 50.0), Vec2::new(120.0, 50.0), &[], Filter::ALL).unwrap();
    /// assert!((hit.toi - 0.8).abs() < 1e-12);
    /// assert_eq!(hit.normal, Vec2::new(-1.0, 0.0));
    /// assert!(matches!(hit.target, Target::Wall(_)));
    /// ```
    #[must_use]
    pub fn cast_ray(
        &self,
        from: Vec2,
        to: Vec2,
        ignore: &[BallId],
        filter: Filter,
    ) -> Option<CastHit> {
        self.cast_circle(from, to, 0.0, ignore, filter)
    }

    /// [`World::cast_circle`] against the balls of dense indices `balls` only (ascending).
    pub(crate) fn cast_circle_among(
        &self,
        from: Vec2,
        to: Vec2,
        radius: Real,
        ignore: &[BallId],
        filter: Filter,
        balls: impl Iterator<Item = usize>,
    ) -> Option<CastHit> {
        let d = to - from;
        let mut best: Option<(SweepHit, Target)> = None;
        let consider = |h: Option<SweepHit>, t: Target, best: &mut Option<(SweepHit, Target)>| {
            if let Some(h) = h {
                if best.is_none_or(|b| h.toi < b.0.toi) {
                    *best = Some((h, t));
                }
            }
        };
        if let Some(g) = &self.grid {
            if let Some(gh) = g.sweep_circle_kinds(g.kinds_for(filter), from, radius, d, 0.0, 1.0) {
                consider(Some(gh.hit), Target::Cell(gh.cell), &mut best);
            }
        }
        for (side, face) in self.wall_faces() {
            consider(
                sweep_circle_half_plane(from, radius, d, 1.0, &face),
                Target::Wall(side),
                &mut best,
            );
        }
        for r in self
            .rects
            .iter()
            .filter(|r| filter.collides(r.surface.filter))
        {
            consider(
                sweep_circle_aabb(from, radius, d, 1.0, &r.aabb, Features::ALL),
                Target::Rect(r.id),
                &mut best,
            );
        }
        let segment_hit = |h: SegmentHit, grow: Real| SweepHit {
            toi: h.toi,
            normal: h.normal,
            point: h.point + h.normal * grow,
            feature: Feature::Circle,
        };
        for sh in self
            .shapes
            .iter()
            .filter(|s| filter.collides(s.surface.filter))
        {
            consider(
                sh.kind.cast_circle(from, radius, d),
                Target::Shape(sh.id),
                &mut best,
            );
        }
        for fl in self
            .flippers
            .iter()
            .filter(|f| filter.collides(f.desc.surface.filter))
        {
            // The capsule where it is now: a circle grown by its radius against its core.
            let cap = fl.capsule_at(self.time);
            let h = sweep_circle_segment(
                from,
                radius + cap.radius,
                d,
                1.0,
                &cap.segment,
                SegmentEnds::BOTH,
            );
            consider(
                h.map(|h| segment_hit(h, cap.radius)),
                Target::Flipper(fl.id),
                &mut best,
            );
        }
        for i in balls {
            if !filter.collides(self.ball_filter_at(i)) {
                continue;
            }
            let b = self.balls[i].ball_at(self.time, self.acc_of(i));
            if !ignore.contains(&b.id) {
                consider(
                    sweep_circle_circle(from, radius, d, b.pos, b.radius, Vec2::ZERO, 1.0),
                    Target::Ball(b.id),
                    &mut best,
                );
            }
        }
        for c in self
            .characters
            .iter()
            .filter(|c| filter.collides(c.desc.surface.filter))
        {
            consider(
                sweep_circle_aabb(from, radius, d, 1.0, &c.aabb(), Features::ALL),
                Target::Character(c.id),
                &mut best,
            );
        }
        best.map(|(h, target)| CastHit {
            toi: h.toi,
            center: from + d * h.toi,
            point: h.point,
            normal: h.normal,
            target,
        })
    }

    /// Everything containing point `p` (boundaries included) that a body of `filter` collides
    /// with ([`Filter::ALL`]: everything on some layer; see [`World::cast_circle`]): solid
    /// cells (a slope's half), balls, rectangles, static shapes (a segment only through its
    /// points), flippers where they are now, characters, in that order (cells row-major,
    /// bodies in storage order), appended to `out`. Visits every ball; see [`World::query_index`].
    pub fn query_point(&self, p: Vec2, filter: Filter, out: &mut Vec<Target>) {
        self.query_point_among(p, filter, out, 0..self.balls.len());
    }

    /// [`World::query_point`] among the balls of dense indices `balls` (ascending).
    pub(crate) fn query_point_among(
        &self,
        p: Vec2,
        filter: Filter,
        out: &mut Vec<Target>,
        balls: impl Iterator<Item = usize>,
    ) {
        if let Some(g) = &self.grid {
            g.for_each_solid_in_kinds(g.kinds_for(filter), &Aabb::new(p, p), |c, _| {
                if g.cell_shape(c).is_some_and(|s| s.contains_point(p)) {
                    out.push(Target::Cell(c));
                }
            });
        }
        for i in balls {
            if !filter.collides(self.ball_filter_at(i)) {
                continue;
            }
            let b = self.balls[i].ball_at(self.time, self.acc_of(i));
            if (p - b.pos).length_squared() <= b.radius * b.radius {
                out.push(Target::Ball(b.id));
            }
        }
        for r in self
            .rects
            .iter()
            .filter(|r| filter.collides(r.surface.filter))
        {
            if point_in_aabb(p, &r.aabb) {
                out.push(Target::Rect(r.id));
            }
        }
        for sh in self
            .shapes
            .iter()
            .filter(|s| filter.collides(s.surface.filter))
        {
            if sh.kind.contains_point(p) {
                out.push(Target::Shape(sh.id));
            }
        }
        for fl in self
            .flippers
            .iter()
            .filter(|f| filter.collides(f.desc.surface.filter))
        {
            let cap = fl.capsule_at(self.time);
            if distance_point_segment(p, &cap.segment) <= cap.radius {
                out.push(Target::Flipper(fl.id));
            }
        }
        for c in &self.characters {
            if filter.collides(c.desc.surface.filter) && point_in_aabb(p, &c.aabb()) {
                out.push(Target::Character(c.id));
            }
        }
    }

    /// Everything overlapping `aabb` with positive area that a body of `filter` collides with
    /// ([`Filter::ALL`]: everything on some layer): solid cells (a slope's half), balls,
    /// rectangles, static shapes (a segment when it crosses the box's interior), flippers
    /// where they are now, characters, in that order, appended to `out`. Visits every ball; see
    /// [`World::query_index`].
    pub fn query_aabb(&self, aabb: &Aabb, filter: Filter, out: &mut Vec<Target>) {
        self.query_aabb_among(aabb, filter, out, 0..self.balls.len());
    }

    /// [`World::query_aabb`] among the balls of dense indices `balls` (ascending).
    pub(crate) fn query_aabb_among(
        &self,
        aabb: &Aabb,
        filter: Filter,
        out: &mut Vec<Target>,
        balls: impl Iterator<Item = usize>,
    ) {
        if let Some(g) = &self.grid {
            g.for_each_solid_in_kinds(g.kinds_for(filter), aabb, |c, _| {
                if g.cell_shape(c).is_some_and(|s| s.overlaps_aabb(aabb)) {
                    out.push(Target::Cell(c));
                }
            });
        }
        for i in balls {
            if !filter.collides(self.ball_filter_at(i)) {
                continue;
            }
            let b = self.balls[i].ball_at(self.time, self.acc_of(i));
            if circle_overlaps_aabb(b.pos, b.radius, aabb) {
                out.push(Target::Ball(b.id));
            }
        }
        for r in self
            .rects
            .iter()
            .filter(|r| filter.collides(r.surface.filter))
        {
            if aabb_overlaps_aabb(aabb, &r.aabb) {
                out.push(Target::Rect(r.id));
            }
        }
        for sh in self
            .shapes
            .iter()
            .filter(|s| filter.collides(s.surface.filter))
        {
            if sh.kind.overlaps_aabb(aabb) {
                out.push(Target::Shape(sh.id));
            }
        }
        for fl in self
            .flippers
            .iter()
            .filter(|f| filter.collides(f.desc.surface.filter))
        {
            if aabb_overlaps_capsule(aabb, &fl.capsule_at(self.time)) {
                out.push(Target::Flipper(fl.id));
            }
        }
        for c in &self.characters {
            if filter.collides(c.desc.surface.filter) && aabb_overlaps_aabb(aabb, &c.aabb()) {
                out.push(Target::Character(c.id));
            }
        }
    }

    /// The closed walls as face segments of the outside half-planes (normals into the world).
    pub(crate) fn wall_faces(&self) -> impl Iterator<Item = (Side, FaceSegment)> + '_ {
        let inf = Real::INFINITY;
        let all = [
            (
                self.walls.left,
                Side::Left,
                FaceSegment::new(Face::Right, 0.0, -inf, inf),
            ),
            (
                self.walls.top,
                Side::Top,
                FaceSegment::new(Face::Bottom, 0.0, -inf, inf),
            ),
            (
                self.walls.right,
                Side::Right,
                FaceSegment::new(Face::Left, self.size.x, -inf, inf),
            ),
            (
                self.walls.bottom,
                Side::Bottom,
                FaceSegment::new(Face::Top, self.size.y, -inf, inf),
            ),
        ];
        all.into_iter().filter(|w| w.0).map(|w| (w.1, w.2))
    }
}
