//! What queries return: [`SweepHit`] (when, where and how two shapes first touch, and the
//! [`Feature`] that was hit), [`SegmentHit`] and [`TurningHit`] (the same for segments and
//! turning capsules, with a [`SegmentFeature`]) and [`Contact`] (a penetration).

use crate::math::{Real, Vec2};
use crate::shape::feature::{Corner, Face};
use crate::shape::SegmentEnd;

/// What was hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Feature {
    /// A flat face of a box; the normal is the face normal.
    Face(Face),
    /// A corner of a box; for a circle the normal runs from the corner to the centre at impact,
    /// for two boxes meeting corner to corner it is the unit diagonal `(sx, sy)/√2`.
    Corner(Corner),
    /// The round surface of another circle; the normal runs from its centre to ours.
    Circle,
    /// The slanted face of a [`crate::HalfTile`] (its diagonal); the normal is
    /// [`crate::HalfTile::diagonal_normal`].
    Diagonal,
}

/// The result of a sweep: when, where and how two shapes first touch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepHit {
    /// Time of impact in `[0, max_toi]`, in the time unit of the velocity passed in.
    pub toi: Real,
    /// Unit contact normal from the obstacle (or body 2) toward the moving body (body 1).
    pub normal: Vec2,
    /// Contact point at impact, on the obstacle's surface (world units).
    pub point: Vec2,
    /// The feature of the obstacle that was hit.
    pub feature: Feature,
}

/// A penetration: the smallest translation `normal * depth` that separates two shapes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Contact {
    /// Unit normal from the obstacle toward the body (the direction to push the body).
    pub normal: Vec2,
    /// Penetration depth in world units (`> 0` for an overlap).
    pub depth: Real,
    /// The point of the obstacle's boundary nearest to the body's centre.
    pub point: Vec2,
}

/// What part of a segment (or of the core segment of a capsule) was hit: a segment's two
/// faces and two ends, named for the segment rather than for a box's sides and corners
/// ([`Feature`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SegmentFeature {
    /// A flat face (either side); the normal is the segment's normal, signed toward the body.
    Face,
    /// An end point; the normal runs from the end point to the body's centre at impact.
    End(SegmentEnd),
}

/// The result of a sweep against a segment: when, where and how the shapes first touch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SegmentHit {
    /// Time of impact in `[0, max_toi]`, in the time unit of the velocity passed in.
    pub toi: Real,
    /// Unit contact normal from the segment toward the moving body.
    pub normal: Vec2,
    /// Contact point at impact, on the segment (world units).
    pub point: Vec2,
    /// The face or end point that was hit.
    pub feature: SegmentFeature,
}

/// What part of a [`crate::ConvexPolygon`] was hit: an edge or a vertex, by index (edge `i`
/// runs from vertex `i` to vertex `i + 1`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PolygonFeature {
    /// Edge `i`; the normal is its outward normal ([`crate::ConvexPolygon::normal`]).
    Edge(u8),
    /// Vertex `i`; for a circle the normal runs from the vertex to the centre at impact.
    Vertex(u8),
}

/// The result of a sweep against a [`crate::ConvexPolygon`]: when, where and how the shapes
/// first touch (the fields of [`SweepHit`], with a [`PolygonFeature`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PolygonHit {
    /// Time of impact in `[0, max_toi]`, in the time unit of the velocity passed in.
    pub toi: Real,
    /// Unit contact normal from the polygon toward the moving body.
    pub normal: Vec2,
    /// Contact point at impact, on the polygon (world units).
    pub point: Vec2,
    /// The edge or vertex that was hit.
    pub feature: PolygonFeature,
}

/// The result of a sweep against a [`crate::TurningCapsule`] (a swinging flipper).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TurningHit {
    /// Time of impact in `[0, max_toi]`, seconds from the start of the paths.
    pub toi: Real,
    /// Unit contact normal from the flipper toward the ball.
    pub normal: Vec2,
    /// Contact point at impact, on the flipper's surface (world units).
    pub point: Vec2,
    /// Velocity of the flipper's material point at `point` at impact (units/s):
    /// `v_pivot + ω·(point − pivot).perp()`; pass it to [`crate::reflect_relative`].
    pub surface_vel: Vec2,
    /// Which part of the core segment is nearest to the ball: [`SegmentEnd::A`] is the pivot
    /// end, [`SegmentEnd::B`] the tip.
    pub feature: SegmentFeature,
}

impl TurningHit {
    /// The contact at time `t` of a body whose nearest point to the core segment of `cap`
    /// lies `offset` from the core's nearest point `c` (both relative to the pivot, `c` at
    /// parameter `s` along the core, `0..=cap.length`) at distance `dist = |offset|`: the
    /// normal along `offset` (when `dist = 0`, the body's point on the core itself, the
    /// normal of the flipper's own motion: the core's direction `dir` turned a quarter
    /// toward `omega`), the point on the flipper's surface `radius` out along it, the
    /// surface's velocity there (rigid rotation about the moving pivot), and the core feature
    /// nearest (an end at `s <= 0` or `s >= length`, else the face). Shared by the circle and
    /// the box sweeps against a [`crate::TurningCapsule`].
    pub(crate) fn on_capsule(
        cap: &crate::TurningCapsule,
        t: Real,
        c: Vec2,
        s: Real,
        offset: Vec2,
        dist: Real,
        dir: Vec2,
    ) -> TurningHit {
        let normal = if dist > 0.0 {
            offset / dist
        } else if cap.omega < 0.0 {
            -dir.perp()
        } else {
            dir.perp()
        };
        let r = c + normal * cap.radius;
        let feature = if s <= 0.0 {
            SegmentFeature::End(SegmentEnd::A)
        } else if s >= cap.length {
            SegmentFeature::End(SegmentEnd::B)
        } else {
            SegmentFeature::Face
        };
        TurningHit {
            toi: t,
            normal,
            point: cap.pivot_at(t) + r,
            surface_vel: cap.pivot_vel + r.perp() * cap.omega,
            feature,
        }
    }
}

/// A hit with a time of impact: what [`Earliest`] compares.
pub(crate) trait Timed: Copy {
    fn toi(&self) -> Real;
}

impl Timed for SweepHit {
    #[inline]
    fn toi(&self) -> Real {
        self.toi
    }
}

impl Timed for PolygonHit {
    #[inline]
    fn toi(&self) -> Real {
        self.toi
    }
}

impl Timed for SegmentHit {
    #[inline]
    fn toi(&self) -> Real {
        self.toi
    }
}

/// The earliest of a shape's feature hits, found one feature at a time: each feature is swept
/// up to [`Earliest::limit`] (the earliest hit so far, or the caller's horizon), and a later
/// hit never replaces an earlier one; of equal times the first considered is kept (the
/// documented tie order of each sweep).
pub(crate) struct Earliest<H> {
    /// The earliest hit so far.
    pub(crate) best: Option<H>,
    /// Its time, or the horizon while there is none: how far the next feature is swept.
    pub(crate) limit: Real,
}

impl<H: Timed> Earliest<H> {
    /// No hit yet, sweeping up to `max_toi`.
    #[inline]
    pub(crate) fn new(max_toi: Real) -> Self {
        Earliest {
            best: None,
            limit: max_toi,
        }
    }

    /// Keeps `hit` if it comes strictly before the best so far.
    #[inline]
    pub(crate) fn consider(&mut self, hit: Option<H>) {
        if let Some(h) = hit {
            if self.best.is_none_or(|b| h.toi() < b.toi()) {
                self.limit = h.toi();
                self.best = Some(h);
            }
        }
    }
}
