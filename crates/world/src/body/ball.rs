//! Balls: the value a world reports ([`Ball`]), the record it keeps ([`BallRec`]: an anchored
//! path, re-anchored at every velocity change and teleport, never by adding up per-step moves)
//! and the iterator over them ([`Balls`]).

use crate::body::ball_gravity::scaled;
use crate::body::rest::acc_on;
use crate::body::rest::Rest;
use crate::model::filter::Filter;
use crate::model::ids::BallId;
use collide_core::motion::Path;
use collide_core::{Real, Vec2};

/// A ball as the world reports it: its state at the world's current time (a value, see
/// [`crate::World::balls`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ball {
    /// Stable id.
    pub id: BallId,
    /// Centre, world units.
    pub pos: Vec2,
    /// Velocity, units/s.
    pub vel: Vec2,
    /// Radius, world units.
    pub radius: Real,
    /// Density, mass per unit area.
    pub density: Real,
    /// The ball's own restitution, or `None` (the world's `StepConfig::restitution`): see
    /// docs/algorithms.md, "Materials".
    pub restitution: Option<Real>,
    /// The ball's layers and mask: see [`crate::Filter`].
    pub filter: Filter,
    /// The ball's multiple of the world's gravity ([`crate::BallDesc::gravity_scale`]).
    pub gravity_scale: Real,
}

impl Ball {
    /// Mass = density·π·radius² (seed 002 uses density × volume; collide is 2D, so area).
    #[must_use]
    pub fn mass(&self) -> Real {
        mass(self.density, self.radius)
    }
}

/// Mass of a disc of `density` (mass per unit area) and `radius` (world units): density·π·r².
#[inline]
fn mass(density: Real, radius: Real) -> Real {
    density * std::f64::consts::PI * radius * radius
}

/// A ball as stored: 64 bytes. Its position is not stored but derived from the start of its
/// current path (the *anchor*): at absolute time `T`, with `τ = T − anchor_time` and the
/// ball's acceleration `a` ([`World::acc_of`]: zero without gravity), it is
/// `anchor + v0·τ + ½·a·τ²` ([`collide_core::motion::Path`]), computed the same way everywhere
/// (the step, the public accessors, the state hash). The path is re-anchored at every velocity change and teleport, never by
/// adding up per-step moves, and every impact time is solved from anchors (a ball–ball
/// contact from both balls'), so a ball follows bit for bit the same path whatever the step
/// size: the step only decides when the state is sampled.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
pub(crate) struct BallRec {
    pub(crate) id: BallId,
    /// Where the current path started, world units.
    pub(crate) anchor: Vec2,
    /// Absolute time the current path started, seconds.
    pub(crate) anchor_time: Real,
    /// Velocity at the path's start, units/s (the velocity, without gravity).
    pub(crate) v0: Vec2,
    pub(crate) radius: Real,
    pub(crate) density: Real,
}

// A ball's state is one 64-byte record (a cache line): checked at compile time.
const _: () = assert!(std::mem::size_of::<BallRec>() == 64);

impl BallRec {
    /// The centre at absolute time `t` under acceleration `acc` (units/s²; zero: a straight
    /// line, computed as `anchor + v0·τ`, the bits of a world without gravity).
    #[inline]
    pub(crate) fn pos_at(&self, t: Real, acc: Vec2) -> Vec2 {
        let tau = t - self.anchor_time;
        if acc == Vec2::ZERO {
            self.anchor + self.v0 * tau
        } else {
            self.path(acc).pos_at(tau)
        }
    }

    /// The velocity at absolute time `t` under acceleration `acc`: `v0 + a·τ`.
    #[inline]
    pub(crate) fn vel_at(&self, t: Real, acc: Vec2) -> Vec2 {
        if acc == Vec2::ZERO {
            self.v0
        } else {
            self.v0 + acc * (t - self.anchor_time)
        }
    }

    /// Its current path from the anchor (times from `anchor_time`) under acceleration `acc`.
    #[inline]
    pub(crate) fn path(&self, acc: Vec2) -> Path {
        Path::ballistic(self.anchor, self.v0, acc)
    }

    /// The start of its current straight path.
    #[inline]
    pub(crate) fn start(&self) -> Anchor {
        Anchor {
            pos: self.anchor,
            time: self.anchor_time,
        }
    }

    /// The public value at absolute time `t` under acceleration `acc`, without its restitution
    /// and filter (kept by the world, not the record: [`World::ball`] fills them in).
    #[inline]
    pub(crate) fn ball_at(&self, t: Real, acc: Vec2) -> Ball {
        Ball {
            id: self.id,
            pos: self.pos_at(t, acc),
            vel: self.vel_at(t, acc),
            radius: self.radius,
            density: self.density,
            restitution: None,
            filter: Filter::DEFAULT,
            gravity_scale: 1.0,
        }
    }

    /// Mass = density·π·radius², as [`Ball::mass`].
    #[inline]
    pub(crate) fn mass(&self) -> Real {
        mass(self.density, self.radius)
    }
}

/// The start of a ball's current straight path: position `pos` at absolute time `time`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Anchor {
    pub(crate) pos: Vec2,
    pub(crate) time: Real,
}

/// The live balls of a world, as [`Ball`] values at its current time, in storage order
/// (returned by [`crate::World::balls`]). An exact-size, double-ended iterator; [`Balls::get`]
/// reads one by storage index.
#[derive(Clone, Debug)]
pub struct Balls<'a> {
    pub(crate) recs: &'a [BallRec],
    pub(crate) rests: &'a [Option<Rest>],
    /// The balls' own restitutions, index for index with `recs`, or empty when none has one.
    pub(crate) mats: &'a [Option<Real>],
    /// The balls' filters, index for index with `recs`, or empty when all are the default.
    pub(crate) filters: &'a [Filter],
    /// The balls' gravity scales, index for index with `recs`, or empty when all are 1.
    pub(crate) scales: &'a [Real],
    pub(crate) time: Real,
    pub(crate) gravity: Vec2,
}

impl Balls<'_> {
    /// The ball at storage index `i` (of what is left to iterate), or `None` past the end.
    #[must_use]
    pub fn get(&self, i: usize) -> Option<Ball> {
        let b = self.recs.get(i)?;
        let scale = self.scales.get(i).copied().unwrap_or(1.0);
        Some(Ball {
            restitution: self.mats.get(i).copied().flatten(),
            filter: self.filters.get(i).copied().unwrap_or_default(),
            gravity_scale: scale,
            ..b.ball_at(
                self.time,
                acc_on(scaled(self.gravity, scale), self.rests[i]),
            )
        })
    }

    /// The same balls again (a copy of this iterator), for code written against a slice.
    #[must_use]
    pub fn iter(&self) -> Self {
        self.clone()
    }

    /// Whether there is no ball left to iterate.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.recs.is_empty()
    }
}

impl Iterator for Balls<'_> {
    type Item = Ball;

    #[inline]
    fn next(&mut self) -> Option<Ball> {
        let ball = self.get(0)?;
        self.recs = &self.recs[1..];
        self.rests = &self.rests[1..];
        if let Some((_, rest)) = self.mats.split_first() {
            self.mats = rest;
        }
        if let Some((_, rest)) = self.filters.split_first() {
            self.filters = rest;
        }
        if let Some((_, rest)) = self.scales.split_first() {
            self.scales = rest;
        }
        Some(ball)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.recs.len(), Some(self.recs.len()))
    }
}

impl DoubleEndedIterator for Balls<'_> {
    fn next_back(&mut self) -> Option<Ball> {
        let last = self.recs.len().checked_sub(1)?;
        let ball = self.get(last)?;
        self.recs = &self.recs[..last];
        self.rests = &self.rests[..last];
        if self.mats.len() > last {
            self.mats = &self.mats[..last];
        }
        if self.filters.len() > last {
            self.filters = &self.filters[..last];
        }
        if self.scales.len() > last {
            self.scales = &self.scales[..last];
        }
        Some(ball)
    }
}

impl ExactSizeIterator for Balls<'_> {}
