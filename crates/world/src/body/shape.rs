//! Static segments, circles and convex polygons: the slanted walls, lanes and slingshots of a
//! pinball table (segments, chained into polylines), its bumpers (circles) and solid blocks
//! (polygons of 3 to 8 vertices: ramps, trapezoids, rotated boxes).
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
//! **Polygons.** A ball meets a [`collide_core::ConvexPolygon`] on an edge (one-sided: the
//! outer side) or at a vertex that is an obstacle ([`collide_core::PolygonCorners`]); a box
//! meets it by the separating axes x, y and its edge normals (`collide_core::sweep_circle_polygon`,
//! `sweep_path_circle_polygon`, `sweep_aabb_polygon`, `sweep_path_aabb_polygon`).
//!
//! **No ghost collisions across polygons laid edge to edge.** [`polygon_corners`] switches off
//! a vertex where another polygon of the group continues one of the vertex's edges flat (its
//! edge on the same line with the same outward normal, going on past the vertex): a ball
//! outside both polygons is then always nearer that neighbour's face than the vertex's arc
//! could make it, so the arc never decides a contact, and a ball rolling across the seam
//! meets faces only, with the face's normal. A box needs no such rule: sliding flat across the
//! seam it touches the next polygon's vertex tangentially, which by the contact rule is no
//! hit (as for a box on a polyline).
//!
//! **Sensor circles.** A circle whose [`ShapeDesc::surface`] is a sensor is a trigger area, not an
//! obstacle: it never changes a ball's motion and reports [`crate::Event::SensorEnter`] when a
//! ball's circle first touches its disc moving in (the same sweep as a solid circle's contact,
//! on straight and parabolic paths) and [`crate::Event::SensorExit`] when they part
//! (`collide_core::exit_path_circle_circle`), as a sensor rectangle does (`crate::step::pass`).
//! A segment cannot be a sensor.
//!
//! Dynamic rectangles bounce off segments and solid circles too ([`crate::Event::Contact`])
//! and pass through sensor circles. The push-out of embedded balls does not see shapes. Under
//! gravity a ball rests and slides on a shape's face as on a tile's (`crate::step` module
//! `shape_rest`); a box does not (one lying on a slanted segment bounces off it every
//! [`crate::REST_TIME`] at the speed of such a flight).
//!
//! Conventions as in `collide-core` (y down, world units).

use crate::model::error::WorldError;
use crate::model::ids::ShapeId;
use crate::model::limits::MAX_SHAPES;
use crate::model::limits::{self, Bound};
use crate::model::shape_desc::ShapeDesc;
use crate::model::shape_desc::ShapeKind;
use crate::model::surface::Surface;
use collide_core::motion::Path;
use collide_core::sweep_path::{sweep_path_aabb_polygon, sweep_path_circle_polygon};
use collide_core::sweep_path::{
    sweep_path_aabb_segment, sweep_path_circle_aabb, sweep_path_circle_circle,
    sweep_path_circle_segment,
};
use collide_core::{
    aabb_overlaps_capsule, aabb_overlaps_polygon, circle_overlaps_aabb, circle_overlaps_polygon,
    distance_point_segment, point_in_polygon, sweep_aabb_polygon, sweep_aabb_segment,
    sweep_circle_aabb, sweep_circle_circle, sweep_circle_polygon, sweep_circle_segment, Aabb,
    Capsule, Circle, ConvexPolygon, Feature, Features, PolygonCorners, PolygonHit, Real, Segment,
    SegmentEnds, SweepHit, Vec2,
};

/// A static shape as stored.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shape {
    /// Stable id.
    pub id: ShapeId,
    /// The segment, circle or polygon.
    pub kind: ShapeKind,
    /// Its restitution (or `None`: the world's), layers and mask, and whether it is a sensor
    /// circle ([`ShapeDesc::surface`]).
    pub surface: Surface,
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

/// Which vertices of each polygon of a group laid edge to edge are obstacles (docs: the module's
/// "No ghost collisions across polygons"): vertex `v` of polygon `A` is switched off when
/// another polygon `B` has an edge in the same direction as one of `A`'s edges at `v` (so on
/// the same side: both are stored counter-clockwise on the screen), on the same line through
/// `v`, and going on past `v` (B's edge holds the points just beyond `v` along `A`'s edge).
/// Directions are parallel and `v` on the line when the cross products are within `1e-12` of
/// the lengths' products, as for [`polyline_segments`]' straight joints. Polygons that
/// overlap are not a group this rule is meant for, nor polygons of different filters (a
/// neighbour a body does not collide with covers nothing for it: pass one filter's polygons
/// at a time, as the scene parser does). O(n²) in the number of polygons.
#[must_use]
pub fn polygon_corners(polygons: &[ConvexPolygon]) -> Vec<PolygonCorners> {
    let parallel =
        |d: Vec2, e: Vec2| d.perp_dot(e).abs() <= 1e-12 * d.length() * e.length() && d.dot(e) > 0.0;
    // Whether B's edge `p → q` lies on the line through `v` along `d` and holds points just
    // beyond `v` (`ahead`: along `+d`, else along `−d`).
    let continues = |v: Vec2, d: Vec2, p: Vec2, q: Vec2, ahead: bool| {
        let e = q - p;
        let w = v - p;
        let len2 = e.length_squared();
        let u = w.dot(e);
        parallel(d, e)
            && w.perp_dot(e).abs() <= 1e-12 * e.length() * w.length()
            && if ahead {
                u >= 0.0 && u < len2
            } else {
                u > 0.0 && u <= len2
            }
    };
    polygons
        .iter()
        .enumerate()
        .map(|(a, pa)| {
            let n = pa.len();
            let mut corners = PolygonCorners::ALL;
            for i in 0..n {
                let v = pa.vertex(i);
                let before = v - pa.vertex(i + n - 1);
                let after = pa.vertex(i + 1) - v;
                let covered = polygons.iter().enumerate().any(|(b, pb)| {
                    b != a
                        && (0..pb.len()).any(|j| {
                            let (p, q) = (pb.vertex(j), pb.vertex(j + 1));
                            continues(v, before, p, q, true) || continues(v, after, p, q, false)
                        })
                });
                if covered {
                    corners = corners.without(i);
                }
            }
            corners
        })
        .collect()
}

/// A polygon hit as a shape's [`SweepHit`] (feature [`Feature::Circle`], as for a segment).
fn polygon_hit(h: PolygonHit) -> SweepHit {
    SweepHit {
        toi: h.toi,
        normal: h.normal,
        point: h.point,
        feature: Feature::Circle,
    }
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
        ShapeKind::Polygon { polygon, .. } => {
            for &p in polygon.vertices() {
                check_point("points", p)?;
            }
        }
    }
    if desc.surface.sensor && !matches!(desc.kind, ShapeKind::Circle(_)) {
        return Err(bad("sensor", "only a circle can be a sensor"));
    }
    if desc.surface.sensor && desc.surface.one_way {
        return Err(bad(
            "surface.one_way",
            "a sensor cannot be a one-way platform",
        ));
    }
    if let Some(e) = desc.surface.restitution {
        Bound::Restitution
            .check(e)
            .map_err(|err| bad("restitution", err))?;
    }
    Ok(())
}

const _: () = assert!(MAX_SHAPES <= limits::MAX_RECTS);

/// Everything the world and the step ask of a static shape, answered per kind here (the one
/// place besides its description and the scene parser that tells a segment from a circle or a
/// polygon).
impl ShapeKind {
    /// The disc of a circle (a bumper, or a sensor's area), world units; `None` for any other
    /// shape.
    #[must_use]
    #[inline]
    pub fn disc(&self) -> Option<Circle> {
        match *self {
            ShapeKind::Circle(c) => Some(c),
            ShapeKind::Segment { .. } | ShapeKind::Polygon { .. } => None,
        }
    }

    /// The segment of a segment shape (a lane, a slingshot, a piece of a polyline), world
    /// units; `None` for any other shape.
    #[must_use]
    #[inline]
    pub fn segment(&self) -> Option<Segment> {
        match *self {
            ShapeKind::Segment { segment, .. } => Some(segment),
            ShapeKind::Circle(_) | ShapeKind::Polygon { .. } => None,
        }
    }

    /// The polygon of a polygon shape (a block, a ramp), world units, counter-clockwise on the
    /// screen; `None` for any other shape.
    #[must_use]
    #[inline]
    pub fn polygon(&self) -> Option<ConvexPolygon> {
        match *self {
            ShapeKind::Polygon { polygon, .. } => Some(polygon),
            ShapeKind::Segment { .. } | ShapeKind::Circle(_) => None,
        }
    }

    /// The first time `τ >= from` (seconds from the path's start) at which a circle of
    /// `radius` whose centre follows `path` stops overlapping the shape: the end of a pass
    /// through it (`step/pass.rs`; [`collide_core::exit`]). `None` while it still overlaps
    /// past the solver's horizon.
    #[must_use]
    pub(crate) fn exit_path_circle(&self, path: &Path, radius: Real, from: Real) -> Option<Real> {
        match *self {
            ShapeKind::Segment { segment, .. } => {
                collide_core::exit_path_circle_segment(path, radius, &segment, from)
            }
            ShapeKind::Circle(c) => {
                // The centre's path relative to the still disc's centre.
                let rel = Path::ballistic(path.p0 - c.center, path.v0, path.accel);
                collide_core::exit_path_circle_circle(&rel, radius + c.radius, from)
            }
            ShapeKind::Polygon { ref polygon, .. } => {
                collide_core::exit_path_circle_polygon(path, radius, polygon, from)
            }
        }
    }

    /// The first contact of a circle of `radius` whose centre follows `path` (from its
    /// anchor, times in seconds) with the shape before `limit`: the point on the shape, the
    /// normal toward the circle, the feature `Feature::Circle` (a point of a shape).
    #[must_use]
    #[inline]
    pub(crate) fn sweep_path_circle(
        &self,
        path: &Path,
        radius: Real,
        limit: Real,
    ) -> Option<SweepHit> {
        match *self {
            ShapeKind::Segment { segment, ends } => {
                sweep_path_circle_segment(path, radius, limit, &segment, ends).map(|h| SweepHit {
                    toi: h.toi,
                    normal: h.normal,
                    point: h.point,
                    feature: Feature::Circle,
                })
            }
            ShapeKind::Circle(c) => sweep_path_circle_circle(
                path,
                radius,
                &Path::linear(c.center, Vec2::ZERO),
                c.radius,
                limit,
            ),
            ShapeKind::Polygon { polygon, corners } => {
                sweep_path_circle_polygon(path, radius, limit, &polygon, corners).map(polygon_hit)
            }
        }
    }

    /// The first contact of box `aabb` moving by `disp` (a straight path when `straight`, the
    /// bits of a world without gravity) with the shape before `limit`: the normal toward the
    /// box, the point on the shape, the feature `Feature::Circle`. A disc is swept as the disc
    /// moving the other way against the box at its start: the same time, the normal turned
    /// toward the box, the point on the disc (the sweep's point is on the box, which has moved
    /// by `disp` since).
    #[must_use]
    #[inline]
    pub(crate) fn sweep_box(
        &self,
        aabb: &Aabb,
        disp: &Path,
        straight: bool,
        limit: Real,
    ) -> Option<SweepHit> {
        match *self {
            ShapeKind::Segment { segment, .. } => if straight {
                sweep_aabb_segment(aabb, disp.v0, &segment, limit)
            } else {
                sweep_path_aabb_segment(aabb, disp, &segment, limit)
            }
            .map(|h| SweepHit {
                toi: h.toi,
                normal: h.normal,
                point: h.point,
                feature: Feature::Circle,
            }),
            ShapeKind::Circle(c) => sweep_box_circle(c, aabb, disp, straight, limit),
            ShapeKind::Polygon { polygon, .. } => if straight {
                sweep_aabb_polygon(aabb, disp.v0, &polygon, limit)
            } else {
                sweep_path_aabb_polygon(aabb, disp, &polygon, limit)
            }
            .map(polygon_hit),
        }
    }

    /// [`ShapeKind::sweep_box`] against the shape as a one-way platform: a segment is met
    /// only at an entry from above
    /// ([`collide_core::sweep_path::sweep_path_aabb_segment_platform`]); a circle or a polygon
    /// is an ordinary obstacle to a box.
    #[must_use]
    #[inline(never)]
    pub(crate) fn sweep_box_one_way(
        &self,
        aabb: &Aabb,
        disp: &Path,
        straight: bool,
        limit: Real,
    ) -> Option<SweepHit> {
        match *self {
            ShapeKind::Segment { segment, .. } => {
                collide_core::sweep_path::sweep_path_aabb_segment_platform(
                    aabb, disp, &segment, limit,
                )
                .map(|h| SweepHit {
                    toi: h.toi,
                    normal: h.normal,
                    point: h.point,
                    feature: Feature::Circle,
                })
            }
            _ => self.sweep_box(aabb, disp, straight, limit),
        }
    }

    /// A circle cast against the shape: a circle of `radius` from `from` moving by `d`
    /// (`toi` a fraction of `d` in `[0, 1]`), the point on the shape, the normal toward the
    /// circle.
    #[must_use]
    pub(crate) fn cast_circle(&self, from: Vec2, radius: Real, d: Vec2) -> Option<SweepHit> {
        match *self {
            ShapeKind::Segment { segment, ends } => {
                sweep_circle_segment(from, radius, d, 1.0, &segment, ends).map(|h| SweepHit {
                    toi: h.toi,
                    normal: h.normal,
                    point: h.point,
                    feature: Feature::Circle,
                })
            }
            ShapeKind::Circle(c) => {
                sweep_circle_circle(from, radius, d, c.center, c.radius, Vec2::ZERO, 1.0)
            }
            ShapeKind::Polygon { polygon, corners } => {
                sweep_circle_polygon(from, radius, d, 1.0, &polygon, corners).map(polygon_hit)
            }
        }
    }

    /// Whether point `p` lies on the shape (on a segment, in the closed disc or polygon).
    #[must_use]
    pub(crate) fn contains_point(&self, p: Vec2) -> bool {
        match *self {
            ShapeKind::Segment { segment, .. } => distance_point_segment(p, &segment) == 0.0,
            ShapeKind::Circle(c) => (p - c.center).length_squared() <= c.radius * c.radius,
            ShapeKind::Polygon { polygon, .. } => point_in_polygon(p, &polygon),
        }
    }

    /// Whether the shape overlaps `aabb` with positive area (a segment when it crosses the
    /// box's interior).
    #[must_use]
    pub(crate) fn overlaps_aabb(&self, aabb: &Aabb) -> bool {
        match *self {
            ShapeKind::Segment { segment, .. } => aabb_overlaps_capsule(
                aabb,
                &Capsule {
                    segment,
                    radius: 0.0,
                },
            ),
            ShapeKind::Circle(c) => circle_overlaps_aabb(c.center, c.radius, aabb),
            ShapeKind::Polygon { polygon, .. } => aabb_overlaps_polygon(aabb, &polygon),
        }
    }

    /// Calls `f` with capsules whose union is the shape: a segment (radius 0), a circle (a
    /// capsule of length 0), each edge of a polygon (radius 0; the push-out's candidates lie
    /// on their boundaries grown by a ball's radius, `step/embed.rs`).
    pub(crate) fn for_each_capsule(&self, f: &mut dyn FnMut(Capsule)) {
        match *self {
            ShapeKind::Segment { segment, .. } => f(Capsule {
                segment,
                radius: 0.0,
            }),
            ShapeKind::Circle(c) => f(Capsule::new(c.center, c.center, c.radius)),
            ShapeKind::Polygon { polygon, .. } => {
                for i in 0..polygon.len() {
                    f(Capsule {
                        segment: polygon.edge(i),
                        radius: 0.0,
                    });
                }
            }
        }
    }

    /// Calls `f` with the shape as one convex set of points grown by a radius (world units):
    /// a segment (its ends, radius 0), a circle (its centre, its radius), a polygon (its
    /// vertices, radius 0). The push-out of boxes builds its obstacles from them
    /// (`step/embed_box_round.rs`).
    pub(crate) fn with_rounded(&self, f: &mut dyn FnMut(&[Vec2], Real)) {
        match *self {
            ShapeKind::Segment { segment, .. } => f(&[segment.a, segment.b], 0.0),
            ShapeKind::Circle(c) => f(&[c.center], c.radius),
            ShapeKind::Polygon { ref polygon, .. } => f(polygon.vertices(), 0.0),
        }
    }

    /// A disc of radius `r` at `p` that overlaps the shape, moved out of it: to `r` from the
    /// shape's nearest boundary point, on the side away from the shape (out of a circle or a
    /// polygon that holds `p`; up when `p` is on a segment or at a circle's centre).
    #[must_use]
    pub(crate) fn push_circle_out(&self, p: Vec2, r: Real) -> Vec2 {
        let up = Vec2::new(0.0, -1.0);
        let (q, inside) = match *self {
            ShapeKind::Segment { segment, .. } => {
                (collide_core::closest_point_on_segment(p, &segment).0, false)
            }
            ShapeKind::Circle(c) => {
                return c.center + (p - c.center).normalize_or(up) * (c.radius + r);
            }
            ShapeKind::Polygon { polygon, .. } => (
                collide_core::closest_point_on_polygon(p, &polygon),
                point_in_polygon(p, &polygon),
            ),
        };
        let d = (p - q).normalize_or(up);
        q + if inside { -d } else { d } * r
    }

    /// Whether a disc of `radius` at `p` overlaps the shape (strictly).
    #[must_use]
    pub(crate) fn overlaps_circle(&self, p: Vec2, radius: Real) -> bool {
        match *self {
            ShapeKind::Segment { segment, .. } => distance_point_segment(p, &segment) < radius,
            ShapeKind::Circle(c) => (p - c.center).length() < radius + c.radius,
            ShapeKind::Polygon { polygon, .. } => circle_overlaps_polygon(p, radius, &polygon),
        }
    }

    /// The shape's words for the state hash and a snapshot's check: kind and flags (the end
    /// flags of a segment, the `sensor` flag of a circle, the corner flags and vertex count of a
    /// polygon), then the geometry's bits.
    pub(crate) fn push_words(&self, sensor: bool, out: &mut Vec<u64>) {
        match *self {
            ShapeKind::Segment { segment, ends } => {
                out.push(1 | u64::from(ends.0) << 8);
                for x in [segment.a.x, segment.a.y, segment.b.x, segment.b.y] {
                    out.push(x.to_bits());
                }
            }
            ShapeKind::Circle(c) => {
                out.push(2 | u64::from(sensor) << 8);
                for x in [c.center.x, c.center.y, c.radius] {
                    out.push(x.to_bits());
                }
            }
            ShapeKind::Polygon { polygon, corners } => {
                out.push(3 | u64::from(corners.0) << 8 | (polygon.len() as u64) << 16);
                for p in polygon.vertices() {
                    out.push(p.x.to_bits());
                    out.push(p.y.to_bits());
                }
            }
        }
    }
}

/// The first face number of the vertices' axis points (`crate::step::shape_rest`): a segment's
/// end or a polygon's vertex `i` under a box's face of normal `±x` or `±y` is face
/// `VERTEX_FACES + 4·i + (axis << 1 | positive)` (at most 128 + 4·8, within a `u8`).
pub(crate) const VERTEX_FACES: u8 = 128;

/// The faces of a shape that a ball or a box rests on (`crate::step::shape_rest`).
impl ShapeKind {
    /// The outward normal of face `face` (`crate::step::shape_rest`'s numbering: a segment's two
    /// sides 0 and 1, a polygon's edges, a circle's four axis points `axis << 1 | positive`,
    /// a vertex's four axis points from [`VERTEX_FACES`]), `None` if it has none.
    pub(crate) fn face_normal(&self, face: u8) -> Option<Vec2> {
        if face >= VERTEX_FACES {
            self.face_point(face)?;
            let axis = usize::from((face >> 1) & 1);
            let mut n = Vec2::ZERO;
            n[axis] = if face & 1 == 1 { 1.0 } else { -1.0 };
            return Some(n);
        }
        match *self {
            ShapeKind::Segment { segment, .. } => {
                let n = segment.normal()?;
                match face {
                    0 => Some(n),
                    1 => Some(-n),
                    _ => None,
                }
            }
            ShapeKind::Polygon { polygon, .. } => {
                (usize::from(face) < polygon.len()).then(|| polygon.normal(usize::from(face)))
            }
            ShapeKind::Circle(_) => {
                let axis = usize::from(face >> 1);
                (face < 4).then(|| {
                    let mut n = Vec2::ZERO;
                    n[axis] = if face & 1 == 1 { 1.0 } else { -1.0 };
                    n
                })
            }
        }
    }

    /// The straight edge of face `face` (`None` for a circle's or a vertex's point).
    pub(crate) fn face_edge(&self, face: u8) -> Option<Segment> {
        match *self {
            ShapeKind::Segment { segment, .. } => (face < 2).then_some(segment),
            ShapeKind::Polygon { polygon, .. } => {
                (usize::from(face) < polygon.len()).then(|| polygon.edge(usize::from(face)))
            }
            ShapeKind::Circle(_) => None,
        }
    }

    /// The point of a point face: a circle's centre (its axis points lie on the lines through
    /// it), or the vertex of a vertex face (`VERTEX_FACES + 4·i + …`); `None` for an edge or
    /// no such face.
    pub(crate) fn face_point(&self, face: u8) -> Option<Vec2> {
        match (
            *self,
            face.checked_sub(VERTEX_FACES).map(|f| usize::from(f >> 2)),
        ) {
            (ShapeKind::Circle(c), None) => (face < 4).then_some(c.center),
            (ShapeKind::Segment { segment, .. }, Some(i)) => match i {
                0 => Some(segment.a),
                1 => Some(segment.b),
                _ => None,
            },
            (ShapeKind::Polygon { polygon, .. }, Some(i)) => {
                (i < polygon.len()).then(|| polygon.vertex(i))
            }
            _ => None,
        }
    }

    /// The vertex face a box's face of normal `n` (`±x` or `±y`, pointing from the shape to
    /// the box) touches: the segment's end or the polygon's vertex farthest along `n` (the
    /// support point: a convex shape lies wholly behind the line through it across `n`, so a
    /// box's face on that line touches the shape there alone). `None` for a circle or a
    /// slanted `n`. Ties (an edge across `n`) go to the first such vertex, but then the edge is
    /// the face ([`ShapeKind::face_of`]).
    pub(crate) fn vertex_face_of(&self, n: Vec2) -> Option<u8> {
        if !((n.x == 0.0) ^ (n.y == 0.0)) {
            return None;
        }
        let axis = usize::from(n.x == 0.0);
        let side = (axis as u8) << 1 | u8::from(n[axis] > 0.0);
        let farthest = |points: &[Vec2]| {
            (1..points.len()).fold(0, |best, i| {
                if points[i].dot(n) > points[best].dot(n) {
                    i
                } else {
                    best
                }
            })
        };
        let i = match *self {
            ShapeKind::Segment { segment, .. } => farthest(&[segment.a, segment.b]),
            ShapeKind::Polygon { polygon, .. } => farthest(polygon.vertices()),
            ShapeKind::Circle(_) => return None,
        };
        Some(VERTEX_FACES + ((i as u8) << 2) + side)
    }

    /// The face whose normal is within `dot_slack` of `n` (their dot product at least
    /// `1 − dot_slack`).
    pub(crate) fn face_of(&self, n: Vec2, dot_slack: Real) -> Option<u8> {
        let count = match *self {
            ShapeKind::Segment { .. } => 2,
            ShapeKind::Polygon { polygon, .. } => polygon.len() as u8,
            ShapeKind::Circle(_) => {
                if n.x != 0.0 && n.y != 0.0 {
                    return None;
                }
                let axis = usize::from(n.x == 0.0);
                return Some((axis as u8) << 1 | u8::from(n[axis] > 0.0));
            }
        };
        (0..count).find(|&f| {
            self.face_normal(f)
                .is_some_and(|fnm| fnm.dot(n) >= 1.0 - dot_slack)
        })
    }
}

/// The first contact of box `aabb` displaced by `disp` (straight when `straight`) up to
/// `limit` with the still disc `c` (a circle shape, a ball where it is): the circle meets the
/// box moving the other way (the same Minkowski sum), `sweep_circle_aabb` with the opposite
/// velocity, on a parabola `sweep_path_circle_aabb` with the opposite path. The normal points
/// from the disc toward the box.
pub(crate) fn sweep_box_circle(
    c: Circle,
    aabb: &Aabb,
    disp: &Path,
    straight: bool,
    limit: Real,
) -> Option<SweepHit> {
    let h = if straight {
        sweep_circle_aabb(c.center, c.radius, -disp.v0, limit, aabb, Features::ALL)
    } else {
        let back = Path::ballistic(c.center, -disp.v0, -disp.accel);
        sweep_path_circle_aabb(&back, c.radius, limit, aabb, Features::ALL)
    };
    h.map(|h| SweepHit {
        toi: h.toi,
        normal: -h.normal,
        point: c.center - h.normal * c.radius,
        feature: Feature::Circle,
    })
}
