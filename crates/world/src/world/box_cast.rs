//! Box casts: the first contact of an axis-aligned box moving on a straight or parabolic path
//! through the world as it is now ([`World::cast_box`], and the path form the character's
//! move and slide uses). Each obstacle is swept by the same exact functions the step uses
//! for a dynamic rectangle: the grid's exposed features (`Grid::sweep_path_aabb_kinds`: no
//! ghost collisions at the seams of flush tiles), closed walls (half-planes), rectangles
//! (`sweep_path_aabb_aabb`, separating axes), static shapes (`Shape::sweep_box`) and flippers
//! where they are now (`sweep_path_aabb_turning_capsule` held still), and, for a character's
//! cast, the other characters where they are now (as rectangles).

use crate::body::rect::RectRole;
use crate::body::shape::sweep_box_circle;
use crate::grid::walk::box_path_bounds;
use crate::model::filter::Filter;
use crate::model::ids::CharacterId;
use crate::model::target::Target;
use crate::world::query::CastHit;
use crate::world::World;
use collide_core::motion::Path;
use collide_core::sweep_path::{
    sweep_path_aabb_aabb, sweep_path_aabb_turning_capsule, sweep_path_circle_half_plane,
};
use collide_core::{Aabb, Circle, Feature, Real, SweepHit, TurningCapsule, Vec2};

/// Which obstacles a box cast meets besides the level (tiles, walls, static shapes):
/// rectangles and flippers, and a rule that lets some contacts pass (one-way platforms, the
/// platform a character rides).
pub(crate) struct BoxCastRules<'a> {
    /// The cast's filter ([`Filter::collides`] with each obstacle's).
    pub filter: Filter,
    /// Whether to meet dynamic rectangles (where they are now).
    pub dynamic_rects: bool,
    /// Whether to meet balls (where they are now, as a circle shape is met).
    pub balls: bool,
    /// Whether to meet characters (where they are now, as rectangles are met), and the one
    /// character not to meet (the one cast).
    pub characters: Option<Option<CharacterId>>,
    /// Contacts for which this returns `true` are passed through.
    pub pass: &'a dyn Fn(Target, &SweepHit) -> bool,
}

/// The first contact of a box cast: times in the path's seconds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct BoxHit {
    /// Time of impact, seconds from the path's start.
    pub toi: Real,
    /// Contact normal, from the obstacle toward the box.
    pub normal: Vec2,
    /// Contact point, world units.
    pub point: Vec2,
    /// What was met.
    pub target: Target,
}

impl World {
    /// Casts the box `aabb` (world units) by `motion` (world units) against the current state
    /// and returns the first contact, with `toi` as a fraction of `motion` and `center` the
    /// box's centre at impact. Met: the grid's exposed tile faces and corners (flush tiles
    /// have no seams), closed walls, static and kinematic rectangles where they are now,
    /// static shapes (not sensors), flippers where they are now; not balls, dynamic or sensor
    /// rectangles, nor characters. Only what a body of `filter` collides with is met (closed
    /// walls always).
    ///
    /// A box touching an obstacle at the start meets it at `toi = 0` only when it moves into
    /// it (the crate's Bannerman rule): a box on a floor slides along it. The contact normal
    /// points from the obstacle toward the box. Ties go to the first in the order tiles,
    /// walls, rectangles, shapes, flippers.
    ///
    /// ```
    /// use collide_world::{Aabb, Filter, StepConfig, Vec2, Walls, World};
    /// let w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    /// // A 10 × 10 box whose right side is at x = 60 cast 80 units right: it meets the right
    /// // wall after 40 of them, half the way.
    /// let b = Aabb::new(Vec2::new(50.0, 10.0), Vec2::new(60.0, 20.0));
    /// let hit = w.cast_box(&b, Vec2::new(80.0, 0.0), Filter::ALL).unwrap();
    /// assert!((hit.toi - 0.5).abs() < 1e-12);
    /// assert_eq!(hit.normal, Vec2::new(-1.0, 0.0));
    /// assert_eq!(hit.center, Vec2::new(95.0, 15.0));
    /// ```
    #[must_use]
    pub fn cast_box(&self, aabb: &Aabb, motion: Vec2, filter: Filter) -> Option<CastHit> {
        let rules = BoxCastRules {
            filter,
            dynamic_rects: false,
            balls: false,
            characters: None,
            pass: &|_, _| false,
        };
        let disp = Path::linear(Vec2::ZERO, motion);
        self.cast_box_path(aabb, &disp, 1.0, &rules)
            .map(|h| CastHit {
                toi: h.toi,
                center: aabb.center() + motion * h.toi,
                point: h.point,
                normal: h.normal,
                target: h.target,
            })
    }

    /// The first contact of the box `aabb` displaced by `disp` (a displacement path: times in
    /// seconds from its start, straight when its acceleration is zero) up to time `limit`,
    /// by `rules`.
    pub(crate) fn cast_box_path(
        &self,
        aabb: &Aabb,
        disp: &Path,
        limit: Real,
        rules: &BoxCastRules<'_>,
    ) -> Option<BoxHit> {
        let mut best: Option<BoxHit> = None;
        let mut limit = limit;
        let take = |target: Target, h: SweepHit, best: &mut Option<BoxHit>, limit: &mut Real| {
            let h = SweepHit {
                toi: h.toi.max(0.0),
                ..h
            };
            if h.toi <= *limit && best.is_none_or(|b| h.toi < b.toi) && !(rules.pass)(target, &h) {
                *best = Some(BoxHit {
                    toi: h.toi,
                    normal: h.normal,
                    point: h.point,
                    target,
                });
                *limit = h.toi;
            }
        };
        let filter = rules.filter;
        let half = aabb.half_extents();
        let centre = Path::ballistic(aabb.center(), disp.v0, disp.accel);
        // A straight cast uses the straight sweeps (the same times, by a division, without
        // the parabolas' root isolation).
        let straight = disp.accel == Vec2::ZERO;
        if let Some(g) = &self.grid {
            let kinds = g.kinds_for(filter);
            let gh = if straight {
                g.sweep_aabb_kinds(kinds, aabb, disp.v0, 0.0, limit)
            } else {
                g.sweep_path_aabb_kinds(kinds, aabb, disp, 0.0, limit)
            };
            if let Some(gh) = gh {
                take(Target::Cell(gh.cell), gh.hit, &mut best, &mut limit);
            }
        }
        if straight {
            for (side, h) in self.box_wall_hits(aabb, disp.v0, limit) {
                take(Target::Wall(side), h, &mut best, &mut limit);
            }
        } else {
            for (side, face) in self.wall_faces() {
                let axis = usize::from(face.face.normal().x == 0.0);
                if let Some(mut h) = sweep_path_circle_half_plane(&centre, half[axis], limit, &face)
                {
                    h.feature = Feature::Circle;
                    take(Target::Wall(side), h, &mut best, &mut limit);
                }
            }
        }
        for rc in &self.rects {
            let meets = match rc.role() {
                RectRole::Static | RectRole::Kinematic => true,
                RectRole::Dynamic => rules.dynamic_rects,
                RectRole::Sensor => false,
            };
            if !meets || !filter.collides(rc.surface.filter) {
                continue;
            }
            if let Some(h) = sweep_box_box(aabb, disp, &rc.aabb, limit) {
                take(Target::Rect(rc.id), h, &mut best, &mut limit);
            }
        }
        if !self.shapes.is_empty() || !self.flippers.is_empty() {
            let reach = box_path_bounds(aabb, disp, 0.0, limit).grown(1e-9);
            for sh in &self.shapes {
                if sh.surface.sensor
                    || !filter.collides(sh.surface.filter)
                    || !collide_core::aabb_overlaps_aabb(&reach, &sh.kind.aabb())
                {
                    continue;
                }
                if let Some(h) = sh.kind.sweep_box(aabb, disp, straight, limit) {
                    take(Target::Shape(sh.id), h, &mut best, &mut limit);
                }
            }
            for fl in &self.flippers {
                if !filter.collides(fl.desc.surface.filter) {
                    continue;
                }
                let d = &fl.desc;
                let cap = TurningCapsule {
                    pivot: d.pivot,
                    pivot_vel: Vec2::ZERO,
                    length: d.length,
                    radius: d.radius,
                    angle: fl.angle_at(self.time),
                    omega: 0.0,
                };
                if let Some(h) = sweep_path_aabb_turning_capsule(&centre, half, &cap, limit).hit() {
                    let hit = SweepHit {
                        toi: h.toi,
                        normal: h.normal,
                        point: h.point,
                        feature: Feature::Circle,
                    };
                    take(Target::Flipper(fl.id), hit, &mut best, &mut limit);
                }
            }
        }
        if let Some(own) = rules.characters {
            self.character_box_hits(aabb, disp, limit, filter, own, rules.pass, &mut |t, h| {
                take(t, h, &mut best, &mut limit);
            });
        }
        if rules.balls {
            self.ball_box_hits(aabb, disp, limit, filter, &mut |t, h| {
                take(t, h, &mut best, &mut limit);
            });
        }
        best
    }

    /// The contacts of box `aabb` displaced by `disp` up to `limit` with the balls (where they
    /// are now) that `filter` collides with, each given to `take`: as the box meets a circle
    /// shape (`ShapeKind::sweep_box`).
    fn ball_box_hits(
        &self,
        aabb: &Aabb,
        disp: &Path,
        limit: Real,
        filter: Filter,
        take: &mut dyn FnMut(Target, SweepHit),
    ) {
        let reach = box_path_bounds(aabb, disp, 0.0, limit).grown(1e-9);
        let straight = disp.accel == Vec2::ZERO;
        for i in 0..self.balls.len() {
            let b = self.balls[i].ball_at(self.time, self.acc_of(i));
            let disc = Aabb::new(b.pos - b.radius, b.pos + b.radius);
            if !collide_core::aabb_overlaps_aabb(&reach, &disc)
                || !filter.collides(self.ball_filter_at(i))
            {
                continue;
            }
            let disc = Circle::new(b.pos, b.radius);
            if let Some(h) = sweep_box_circle(disc, aabb, disp, straight, limit) {
                take(Target::Ball(b.id), h);
            }
        }
    }

    /// The first contact of box `aabb` displaced by `disp` up to `limit` with the characters
    /// (where they are now) that `filter` collides with, but `own`, and that `pass` lets
    /// stop it, given to `take`: as a box meets a rectangle (`sweep_aabb_aabb`, on a parabola
    /// `sweep_path_aabb_aabb`). Among equal times, the lowest storage index, whether the
    /// characters near the path come from the step's broad phase (`crate::body::crowd`) or
    /// from a scan of all.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn character_box_hits(
        &self,
        aabb: &Aabb,
        disp: &Path,
        limit: Real,
        filter: Filter,
        own: Option<CharacterId>,
        pass: &dyn Fn(Target, &SweepHit) -> bool,
        take: &mut dyn FnMut(Target, SweepHit),
    ) {
        if self.characters.is_empty() {
            return;
        }
        let reach = box_path_bounds(aabb, disp, 0.0, limit).grown(1e-9);
        let mut best: Option<(Real, usize, SweepHit)> = None;
        let mut test = |k: usize| {
            let c = &self.characters[k];
            if Some(c.id) == own || !filter.collides(c.desc.surface.filter) {
                return;
            }
            let other = c.aabb();
            if !collide_core::aabb_overlaps_aabb(&reach, &other) {
                return;
            }
            let lim = best.map_or(limit, |b| b.0);
            if let Some(h) = sweep_box_box(aabb, disp, &other, lim) {
                let t = h.toi.max(0.0);
                let h = SweepHit { toi: t, ..h };
                if best.is_none_or(|b| t < b.0 || (t == b.0 && k < b.1))
                    && !pass(Target::Character(c.id), &h)
                {
                    best = Some((t, k, h));
                }
            }
        };
        let test: &mut dyn FnMut(usize) = &mut test;
        if !self.crowd.near(&reach, test) {
            for k in 0..self.characters.len() {
                test(k);
            }
        }
        if let Some((_, k, h)) = best {
            take(Target::Character(self.characters[k].id), h);
        }
    }
}

/// The first contact of box `aabb` displaced by `disp` (straight when its acceleration is
/// zero) up to `limit` with the still box `other`: `sweep_aabb_aabb` for a straight path (the
/// same time by a division), `sweep_path_aabb_aabb` for a parabola.
#[inline(never)]
fn sweep_box_box(aabb: &Aabb, disp: &Path, other: &Aabb, limit: Real) -> Option<SweepHit> {
    if disp.accel == Vec2::ZERO {
        collide_core::sweep_aabb_aabb(aabb, disp.v0, other, Vec2::ZERO, limit)
    } else {
        sweep_path_aabb_aabb(aabb, disp, other, &Path::default(), limit)
    }
}
