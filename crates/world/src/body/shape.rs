//! Static segments and circles: the slanted walls, lanes and slingshots of a pinball table
//! (segments, chained into polylines) and its bumpers (circles).
//!
//! A ball meets a segment on either face or at an end point that is an obstacle
//! ([`collide_core::SegmentEnds`]); a circle as the disc it is. Both are immovable, bounce
//! balls with the pair's restitution ([`crate::model::material`]: a shape's own value above 1 is a
//! kicker, capped at [`crate::model::limits::MAX_KICK_SPEED`]), take a [`Filter`], and are met at
//! the exact time of impact on straight and parabolic paths (`collide_core::sweep_circle_segment`,
//! `sweep_path_circle_segment`, `sweep_path_circle_circle`).
//!
//! **No ghost collisions along a chain.** In a polyline ([`polyline_segments`]) a joint where
//! two segments continue in a straight line is not an obstacle (neither segment's end there is
//! on): a ball rolling along the chain never bumps at the seam, as on the tile grid. At a bent
//! joint the end point is on: from the convex side it is the corner the ball turns around; from
//! the reflex side the two faces meet the ball before the point can (E. Catto, "Ghost
//! collisions", box2d.org, 2020, explains the chain rule).
//!
//! **Sensor circles.** A circle flagged [`ShapeDesc::sensor`] is a trigger area, not an
//! obstacle: it never changes a ball's motion and reports [`crate::Event::SensorEnter`] when a
//! ball's circle first touches its disc moving in (the same sweep as a solid circle's contact,
//! on straight and parabolic paths) and [`crate::Event::SensorExit`] when they part
//! (`collide_core::exit_path_circle_circle`), as a sensor rectangle does (`crate::step::pass`).
//! A segment cannot be a sensor.
//!
//! Dynamic rectangles bounce off segments and solid circles too ([`crate::Event::RectShape`])
//! and pass through sensor circles. The push-out of embedded balls does not see shapes, and
//! neither a ball nor a box comes to rest on a segment under gravity (one lying on a slanted
//! segment bounces off it every [`crate::REST_TIME`] at the speed of such a flight).
//!
//! Conventions as in `collide-core` (y down, world units).

use crate::model::filter::Filter;
use crate::model::ids::ShapeId;
use crate::model::limits::MAX_SHAPES;
use crate::model::limits::{self, Bound};
use crate::world::World;
use crate::model::error::WorldError;
use collide_core::{Aabb, Circle, Real, Segment, SegmentEnds, Vec2};

/// What a static shape is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShapeKind {
    /// A segment, both faces solid; `ends` says which end points are obstacles.
    Segment {
        /// The segment, world units.
        segment: Segment,
        /// The end points that are obstacles ([`SegmentEnds::BOTH`] for a lone segment).
        ends: SegmentEnds,
    },
    /// A solid disc (a bumper).
    Circle(Circle),
}

impl ShapeKind {
    /// The shape's bounding box, world units.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        match *self {
            ShapeKind::Segment { segment, .. } => {
                Aabb::new(segment.a.min(segment.b), segment.a.max(segment.b))
            }
            ShapeKind::Circle(c) => Aabb::new(
                c.center - Vec2::splat(c.radius),
                c.center + Vec2::splat(c.radius),
            ),
        }
    }
}

/// A static shape to add ([`crate::World::add_shape`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeDesc {
    /// The segment or circle.
    pub kind: ShapeKind,
    /// Its own restitution (`None`: the world's), as [`crate::RectDesc::restitution`].
    pub restitution: Option<Real>,
    /// Its layers and mask ([`crate::model::filter`]).
    pub filter: Filter,
    /// A sensor circle (see the module docs): reports the balls it collides with entering and
    /// leaving it, and is no obstacle. Only a circle can be a sensor; its restitution is
    /// unused.
    pub sensor: bool,
}

impl ShapeDesc {
    /// A lone segment from `a` to `b` (both ends obstacles), default restitution and filter.
    #[must_use]
    pub fn segment(a: Vec2, b: Vec2) -> Self {
        ShapeDesc {
            kind: ShapeKind::Segment {
                segment: Segment::new(a, b),
                ends: SegmentEnds::BOTH,
            },
            restitution: None,
            filter: Filter::DEFAULT,
            sensor: false,
        }
    }

    /// A disc of `radius` at `center`, default restitution and filter.
    #[must_use]
    pub fn circle(center: Vec2, radius: Real) -> Self {
        ShapeDesc {
            kind: ShapeKind::Circle(Circle::new(center, radius)),
            restitution: None,
            filter: Filter::DEFAULT,
            sensor: false,
        }
    }

    /// A sensor disc of `radius` at `center` (see the module docs), default filter.
    #[must_use]
    pub fn sensor_circle(center: Vec2, radius: Real) -> Self {
        ShapeDesc {
            sensor: true,
            ..ShapeDesc::circle(center, radius)
        }
    }
}

/// A static shape as stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// Stable id.
    pub id: ShapeId,
    /// The segment or circle.
    pub kind: ShapeKind,
    /// Its own restitution, or `None`.
    pub restitution: Option<Real>,
    /// Its layers and mask.
    pub filter: Filter,
    /// Whether it is a sensor circle ([`ShapeDesc::sensor`]).
    pub sensor: bool,
}

/// The segments of a polyline through `points` (closed: back to the first), with the ends at
/// straight joints switched off (see the module docs); a joint is straight when the two
/// directions' cross product is below `1e-12` of their lengths' product and they point the
/// same way. Fewer than two points: none.
#[must_use]
pub fn polyline_segments(points: &[Vec2], closed: bool) -> Vec<(Segment, SegmentEnds)> {
    let n = points.len();
    if n < 2 {
        return Vec::new();
    }
    let count = if closed && n > 2 { n } else { n - 1 };
    let seg = |i: usize| Segment::new(points[i % n], points[(i + 1) % n]);
    let straight = |s: &Segment, t: &Segment| {
        let (d, e) = (s.b - s.a, t.b - t.a);
        d.perp_dot(e).abs() <= 1e-12 * d.length() * e.length() && d.dot(e) > 0.0
    };
    (0..count)
        .map(|i| {
            let s = seg(i);
            let mut ends = SegmentEnds::BOTH;
            // The joint at `s.a` (with the segment before) and at `s.b` (with the one after).
            let before = (i > 0 || closed && n > 2).then(|| seg((i + count - 1) % count));
            let after = (i + 1 < count || closed && n > 2).then(|| seg((i + 1) % count));
            if before.is_some_and(|p| straight(&p, &s)) {
                ends = SegmentEnds(ends.0 & !SegmentEnds::A.0);
            }
            if after.is_some_and(|q| straight(&s, &q)) {
                ends = SegmentEnds(ends.0 & !SegmentEnds::B.0);
            }
            (s, ends)
        })
        .collect()
}

fn bad(field: &'static str, problem: impl ToString) -> WorldError {
    WorldError::BadShape {
        field,
        problem: problem.to_string(),
    }
}

fn check_point(field: &'static str, p: Vec2) -> Result<(), WorldError> {
    Bound::Coord
        .check_vec2(p)
        .map(|_| ())
        .map_err(|e| bad(field, e))
}

/// Checks a shape's description (see [`World::add_shape`]).
fn validate(desc: &ShapeDesc) -> Result<(), WorldError> {
    match desc.kind {
        ShapeKind::Segment { segment, .. } => {
            check_point("a", segment.a)?;
            check_point("b", segment.b)?;
        }
        ShapeKind::Circle(c) => {
            check_point("center", c.center)?;
            Bound::Positive
                .check(c.radius)
                .map_err(|e| bad("radius", e))?;
        }
    }
    if desc.sensor && !matches!(desc.kind, ShapeKind::Circle(_)) {
        return Err(bad("sensor", "only a circle can be a sensor"));
    }
    if let Some(e) = desc.restitution {
        Bound::Restitution
            .check(e)
            .map_err(|err| bad("restitution", err))?;
    }
    Ok(())
}

impl World {
    /// Adds a static segment or circle ([`crate::body::shape`]).
    ///
    /// # Errors
    /// [`WorldError::BadShape`] naming the field for a point outside [`Bound::Coord`], a
    /// radius outside [`Bound::Positive`], a restitution outside [`Bound::Restitution`] or a
    /// segment flagged as a sensor;
    /// [`WorldError::TooMany`] past [`MAX_SHAPES`]. Nothing is added then.
    pub fn add_shape(&mut self, desc: ShapeDesc) -> Result<ShapeId, WorldError> {
        validate(&desc)?;
        if self.shapes.len() >= MAX_SHAPES {
            return Err(WorldError::TooMany {
                what: "shapes",
                count: self.shapes.len() + 1,
                max: MAX_SHAPES,
            });
        }
        self.edited();
        self.scratch.valid = false;
        self.shape_index_stale = true;
        let id = self.shape_slots.insert(self.shapes.len() as u32);
        self.shapes.push(Shape {
            id,
            kind: desc.kind,
            restitution: desc.restitution,
            filter: desc.filter,
            sensor: desc.sensor,
        });
        Ok(id)
    }

    /// Adds the segments of a polyline through `points` (closed: back to the first), with no
    /// obstacle at its straight joints ([`polyline_segments`]); each segment has `restitution`
    /// and `filter`. Returns their ids in order.
    ///
    /// # Errors
    /// As [`World::add_shape`] (field `points` for a point out of bounds, or fewer than two
    /// points); nothing is added then.
    pub fn add_polyline(
        &mut self,
        points: &[Vec2],
        closed: bool,
        restitution: Option<Real>,
        filter: Filter,
    ) -> Result<Vec<ShapeId>, WorldError> {
        if points.len() < 2 {
            return Err(bad("points", "a polyline needs at least two points"));
        }
        for &p in points {
            check_point("points", p)?;
        }
        let segments = polyline_segments(points, closed);
        if self.shapes.len() + segments.len() > MAX_SHAPES {
            return Err(WorldError::TooMany {
                what: "shapes",
                count: self.shapes.len() + segments.len(),
                max: MAX_SHAPES,
            });
        }
        let descs: Vec<ShapeDesc> = segments
            .into_iter()
            .map(|(segment, ends)| ShapeDesc {
                kind: ShapeKind::Segment { segment, ends },
                restitution,
                filter,
                sensor: false,
            })
            .collect();
        for d in &descs {
            validate(d)?;
        }
        descs.into_iter().map(|d| self.add_shape(d)).collect()
    }

    /// A static shape by id, or `None` if the id is stale.
    #[must_use]
    pub fn shape(&self, id: ShapeId) -> Option<&Shape> {
        self.shape_slots.get(id).map(|i| &self.shapes[i])
    }

    /// Every static shape, in storage order.
    #[must_use]
    pub fn shapes(&self) -> &[Shape] {
        &self.shapes
    }

    /// The words of the static shapes for the state hash and a snapshot's check (none without
    /// shapes): id, kind, geometry, end flags, sensor flag, restitution, filter.
    pub(crate) fn shapes_words(&self) -> Vec<u64> {
        let mut out = Vec::new();
        for sh in &self.shapes {
            out.push(sh.id.to_bits());
            match sh.kind {
                ShapeKind::Segment { segment, ends } => {
                    out.push(1 | u64::from(ends.0) << 8);
                    for x in [segment.a.x, segment.a.y, segment.b.x, segment.b.y] {
                        out.push(x.to_bits());
                    }
                }
                ShapeKind::Circle(c) => {
                    out.push(2 | u64::from(sh.sensor) << 8);
                    for x in [c.center.x, c.center.y, c.radius] {
                        out.push(x.to_bits());
                    }
                }
            }
            out.push(sh.restitution.map_or(u64::MAX, Real::to_bits));
            out.push(u64::from(sh.filter.layers) << 32 | u64::from(sh.filter.mask));
        }
        out
    }

    /// Whether a disc of `radius` at `p` overlaps a static shape that is an obstacle (not a
    /// sensor).
    pub(crate) fn circle_overlaps_shape(&self, p: Vec2, radius: Real) -> bool {
        self.shapes
            .iter()
            .filter(|sh| !sh.sensor)
            .any(|sh| match sh.kind {
                ShapeKind::Segment { segment, .. } => {
                    collide_core::distance_point_segment(p, &segment) < radius
                }
                ShapeKind::Circle(c) => (p - c.center).length() < radius + c.radius,
            })
    }

    /// Removes a static shape; returns it, or `None` if the id is stale.
    pub fn remove_shape(&mut self, id: ShapeId) -> Option<Shape> {
        let i = self.shape_slots.get(id)?;
        self.edited();
        self.scratch.valid = false;
        self.shape_index_stale = true;
        self.shape_slots.remove(id);
        self.drop_passes_with(crate::step::pass::PassWith::Shape(id));
        let shape = self.shapes.swap_remove(i);
        if let Some(moved) = self.shapes.get(i) {
            self.shape_slots.relocate(moved.id, i as u32);
        }
        Some(shape)
    }
}

const _: () = assert!(MAX_SHAPES <= limits::MAX_RECTS);
