//! The description of a static shape ([`ShapeDesc`]): what it is ([`ShapeKind`]: a segment, a
//! circle or a convex polygon), its restitution, filter and sensor flag. See `crate::body::shape` for how the
//! step meets shapes.

use crate::model::error::WorldError;
use crate::model::surface::Surface;
use collide_core::{Aabb, Circle, ConvexPolygon, PolygonCorners, Real, Segment, SegmentEnds, Vec2};

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
    /// A solid convex polygon of 3 to 8 vertices (a block, a ramp, a rotated box); `corners`
    /// says which vertices are obstacles (all for a lone polygon; see
    /// [`crate::polygon_corners`] for polygons laid edge to edge).
    Polygon {
        /// The polygon, world units, counter-clockwise on the screen.
        polygon: ConvexPolygon,
        /// The vertices that are obstacles.
        corners: PolygonCorners,
    },
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
            ShapeKind::Polygon { polygon, .. } => polygon.aabb(),
        }
    }
}

/// A static shape to add ([`crate::World::add_shape`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShapeDesc {
    /// The segment, circle or polygon.
    pub kind: ShapeKind,
    /// Its restitution, layers and mask, and whether it is a sensor circle (docs/algorithms.md,
    /// section 7f: it reports the balls it collides with entering and leaving it, and is no
    /// obstacle; only a circle can be a sensor).
    pub surface: Surface,
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
            surface: Surface::DEFAULT,
        }
    }

    /// A segment of a chain (a polyline): `ends` says which end points are obstacles (none at a
    /// straight joint, so nothing bumps on the seam); default restitution and filter.
    #[must_use]
    pub fn chain_segment(segment: Segment, ends: SegmentEnds) -> Self {
        ShapeDesc {
            kind: ShapeKind::Segment { segment, ends },
            surface: Surface::DEFAULT,
        }
    }

    /// A disc of `radius` at `center`, default restitution and filter.
    #[must_use]
    pub fn circle(center: Vec2, radius: Real) -> Self {
        ShapeDesc {
            kind: ShapeKind::Circle(Circle::new(center, radius)),
            surface: Surface::DEFAULT,
        }
    }

    /// A lone convex polygon through `points` (3 to 8, either winding; every vertex an
    /// obstacle), default restitution and filter.
    ///
    /// # Errors
    /// [`WorldError::BadShape`] with field `points` when the points are not a convex polygon
    /// ([`collide_core::PolygonError`]: too few or too many, not finite, repeated, collinear,
    /// not convex; the problem names the point). The coordinates' bounds are checked by
    /// [`crate::World::add_shape`].
    pub fn polygon(points: &[Vec2]) -> Result<Self, WorldError> {
        let polygon = ConvexPolygon::new(points).map_err(|e| WorldError::BadShape {
            field: "points",
            problem: e.to_string(),
        })?;
        Ok(ShapeDesc::chain_polygon(polygon, PolygonCorners::ALL))
    }

    /// A polygon laid edge to edge with others: `corners` says which vertices are obstacles
    /// (none where a neighbour continues an edge flat, [`crate::polygon_corners`], so nothing
    /// bumps on the seam); default restitution and filter.
    #[must_use]
    pub fn chain_polygon(polygon: ConvexPolygon, corners: PolygonCorners) -> Self {
        ShapeDesc {
            kind: ShapeKind::Polygon { polygon, corners },
            surface: Surface::DEFAULT,
        }
    }

    /// A sensor disc of `radius` at `center` (docs/algorithms.md, section 7f), default filter.
    #[must_use]
    pub fn sensor_circle(center: Vec2, radius: Real) -> Self {
        ShapeDesc {
            surface: Surface::SENSOR,
            ..ShapeDesc::circle(center, radius)
        }
    }
}
