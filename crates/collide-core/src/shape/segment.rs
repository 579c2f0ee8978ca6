//! [`Segment`]: a straight line segment (a wall of a pinball table, one link of a polyline, a
//! slope), the names of its ends ([`SegmentEnd`]) and the mask of which ends are obstacles
//! ([`SegmentEnds`]).

use crate::math::{Real, Vec2};

/// A segment from `a` to `b` (world units), an obstacle on both sides.
///
/// Its *normal* is `(b − a).perp() / |b − a|`, glam's `perp` being `(x, y) ↦ (−y, x)`: with
/// y down, a segment drawn from left to right (`b.x > a.x`, same y) has the normal `(0, 1)`,
/// pointing down the screen. Sweeps report the normal of the side the moving body is on, so
/// this orientation only names the sides. `a == b` is allowed (a point: no faces, one end).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Segment {
    /// First end point, world units.
    pub a: Vec2,
    /// Second end point, world units.
    pub b: Vec2,
}

impl Segment {
    /// The segment from `a` to `b`.
    #[must_use]
    pub const fn new(a: Vec2, b: Vec2) -> Self {
        Self { a, b }
    }

    /// `b − a`.
    #[must_use]
    #[inline]
    pub fn direction(&self) -> Vec2 {
        self.b - self.a
    }

    /// The length `|b − a|` (world units).
    #[must_use]
    #[inline]
    pub fn length(&self) -> Real {
        self.direction().length()
    }

    /// The unit normal `(b − a).perp() / |b − a|` (see the type's docs for the side it names),
    /// or `None` for a segment of zero length.
    #[must_use]
    #[inline]
    pub fn normal(&self) -> Option<Vec2> {
        let d = self.direction();
        let len = d.length();
        (len > 0.0).then(|| d.perp() / len)
    }

    /// The end point named `end`.
    #[must_use]
    #[inline]
    pub fn end(&self, end: SegmentEnd) -> Vec2 {
        match end {
            SegmentEnd::A => self.a,
            SegmentEnd::B => self.b,
        }
    }
}

/// One end of a [`Segment`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SegmentEnd {
    /// The end point `a`.
    A,
    /// The end point `b`.
    B,
}

impl SegmentEnd {
    /// Both ends, in the order used for tie-breaking.
    pub const ALL: [SegmentEnd; 2] = [SegmentEnd::A, SegmentEnd::B];

    /// The [`SegmentEnds`] bit of this end.
    #[must_use]
    pub const fn bit(self) -> SegmentEnds {
        match self {
            SegmentEnd::A => SegmentEnds::A,
            SegmentEnd::B => SegmentEnds::B,
        }
    }
}

/// Which end points of a segment are obstacles (the round caps of the segment grown by a
/// ball's radius). The faces of a segment are always obstacles.
///
/// A lone segment has [`SegmentEnds::BOTH`]. In a polyline (a chain of segments), an end
/// shared with the next segment must be an obstacle where the joint is *convex* seen from a
/// side the ball can reach: without it the ball would slip into the wedge between the two
/// faces' offset lines. Where the joint is *reflex* (concave) or flat from every side the ball
/// can reach, switch it off: the two faces cover it, and a ball rolling across it, sunk into a
/// face by rounding, is then not knocked back by the joint (a "ghost collision": E. Catto,
/// "Ghost Collisions", box2d.org, 2020). For a two-sided chain every joint but a straight one
/// is convex from one side; seen from the other side its disc lies inside the neighbouring
/// segment grown by the radius, so it never decides the contact of a ball outside both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SegmentEnds(pub u8);

impl SegmentEnds {
    /// No end point is an obstacle (both joints reflex or flat).
    pub const NONE: SegmentEnds = SegmentEnds(0);
    /// The end point `a`.
    pub const A: SegmentEnds = SegmentEnds(1);
    /// The end point `b`.
    pub const B: SegmentEnds = SegmentEnds(2);
    /// Both end points: a lone segment.
    pub const BOTH: SegmentEnds = SegmentEnds(3);

    /// Whether every bit of `other` is set in `self`.
    #[must_use]
    pub const fn contains(self, other: SegmentEnds) -> bool {
        self.0 & other.0 == other.0
    }
}

impl std::ops::BitOr for SegmentEnds {
    type Output = SegmentEnds;
    fn bitor(self, rhs: SegmentEnds) -> SegmentEnds {
        SegmentEnds(self.0 | rhs.0)
    }
}
