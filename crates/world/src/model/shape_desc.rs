//! The description of a static shape ([`ShapeDesc`]): what it is ([`ShapeKind`]: a segment or
//! a circle), its restitution, filter and sensor flag. See `crate::body::shape` for how the
//! step meets shapes.

use crate::model::filter::Filter;
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
    /// Its layers and mask ([`crate::Filter`]).
    pub filter: Filter,
    /// A sensor circle (docs/algorithms.md, section 7f): reports the balls it collides with entering and
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

    /// A segment of a chain (a polyline): `ends` says which end points are obstacles (none at a
    /// straight joint, so nothing bumps on the seam); default restitution and filter.
    #[must_use]
    pub fn chain_segment(segment: Segment, ends: SegmentEnds) -> Self {
        ShapeDesc {
            kind: ShapeKind::Segment { segment, ends },
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

    /// A sensor disc of `radius` at `center` (docs/algorithms.md, section 7f), default filter.
    #[must_use]
    pub fn sensor_circle(center: Vec2, radius: Real) -> Self {
        ShapeDesc {
            sensor: true,
            ..ShapeDesc::circle(center, radius)
        }
    }
}
