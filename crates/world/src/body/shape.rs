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

use crate::model::error::WorldError;
use crate::model::filter::Filter;
use crate::model::ids::ShapeId;
use crate::model::limits::MAX_SHAPES;
use crate::model::limits::{self, Bound};
use crate::model::shape_desc::ShapeDesc;
use crate::model::shape_desc::ShapeKind;
use collide_core::{Real, Segment, SegmentEnds, Vec2};

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
/// straight joints switched off (docs/algorithms.md, "Segments and circles in the step"); a joint is straight when the two
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

pub(crate) fn bad(field: &'static str, problem: impl ToString) -> WorldError {
    WorldError::BadShape {
        field,
        problem: problem.to_string(),
    }
}

pub(crate) fn check_point(field: &'static str, p: Vec2) -> Result<(), WorldError> {
    Bound::Coord
        .check_vec2(p)
        .map(|_| ())
        .map_err(|e| bad(field, e))
}

/// Checks a shape's description (see [`World::add_shape`]).
pub(crate) fn validate(desc: &ShapeDesc) -> Result<(), WorldError> {
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

const _: () = assert!(MAX_SHAPES <= limits::MAX_RECTS);
