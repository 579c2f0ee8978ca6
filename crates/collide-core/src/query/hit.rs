//! What queries return: [`SweepHit`] (when, where and how two shapes first touch, and the
//! [`Feature`] that was hit) and [`Contact`] (a penetration).

use crate::math::{Real, Vec2};
use crate::shape::feature::{Corner, Face};

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
