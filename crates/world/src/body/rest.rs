//! Resting and sliding contact under gravity: a ball (or a dynamic rectangle) held by a face.
//!
//! With restitution below 1 a ball bouncing on a floor makes infinitely many bounces in finite
//! time: its flights last `t₁·(1, e, e², …)`, which sum to `t₁/(1 − e)` (T. Pöschel,
//! T. Schwager, *Computational Granular Dynamics*, Springer 2005, ch. 3, on event-driven
//! simulation under gravity). The step cuts that series: when a bounce off a face would
//! start a flight shorter than [`REST_TIME`] (a normal speed `w` with `2·w/|g·n| < REST_TIME`),
//! the ball comes to **rest** on the face instead: its normal velocity becomes zero and its
//! acceleration loses the component along the face's normal (the face's reaction balances
//! it), so it slides along the face under the tangential part of gravity, on an exact
//! parabola (a straight line when gravity is normal to the face). With restitution 1 only a
//! ball that meets the face with zero normal speed rests (no energy is lost). Only faces of
//! immovable geometry hold a ball: tile faces, closed walls and static rectangles, and the
//! slanted faces of static shapes and slope cells (`crate::step` module `shape_rest`: there
//! the acceleration is `g − (g·n)·n`), the faces whose normal gravity presses the ball against
//! (`g·n < 0`).
//!
//! A resting ball leaves its face:
//! - when something changes its velocity so that it moves off the face (a ball hits it, a
//!   game sets its velocity or position): any new velocity with a non-zero normal part ends
//!   the rest (a velocity pressing into the face makes it meet the face again at once, and
//!   bounce or rest as above);
//! - at the face's end, found exactly (the centre's coordinate along the face reaches the
//!   end of the face's range, a quadratic): on a tile the next cell's same face, when exposed,
//!   takes over (a floor of many cells is one face, with no ghost bounce at their seams);
//!   otherwise the face ends at a convex corner, and the ball rolls over it as over a rounded
//!   edge: it keeps its height for `d = r − v²/|g·n|` past the corner (nothing when
//!   `v² >= r·|g·n|`), then flies free. `d` is the shortest run after which the free flight
//!   clears the corner: in units `r = |g·n| = 1`, with `u = 1 − v²`, the squared distance to
//!   the corner minus 1 along the flight is `(τ²/2 − u)² + 2·u·v·τ >= 0` (touching at most).
//!   The ball's speed and height, and so its energy, are unchanged by the rule.
//! - when its face disappears (a brick destroyed, a rectangle moved or removed, a cell
//!   edited): it flies free from there.
//!
//! A dynamic rectangle rests the same way on the faces of tiles, closed walls and static
//! rectangles: held while any part of it is over the face (its centre's range is the face's
//! extent widened by its half size), the next cell's face taking over on a tile floor; past
//! the last face it flies free at once (a box has no rounded edge to roll over). A slope's
//! diagonal and a static shape's slanted face hold it by the corner that touches it, a
//! shape's axis-aligned face (a circle's top point too) while any part of the box's face is
//! over it (`crate::step` module `shape_rest`); a shape's end or vertex met by a face of the
//! box, a circle's curved side and a held flipper do not hold a box (it parts at a
//! `REST_TIME` flight's speed), nor does the second face of a corner or wedge gravity presses
//! it into (`step/settle.rs`); but where the two faces' reactions balance gravity, a box (or a
//! ball) slower than `|g|·REST_TIME` stops there, held still as a sleeping ball is
//! ([`RestOn::Asleep`]) until a hit, a new velocity or an edit moves it.
//!
//! The same time also bounds collapse among balls: under gravity the TC window of the step's
//! response (S. Luding, S. McNamara, "How to handle the inelastic collapse of a dissipative
//! hard-sphere gas with the TC model", Granular Matter 1, 1998) is [`REST_TIME`]: a body hit
//! again within `REST_TIME` of its last collision bounces elastically, so its inelastic
//! collisions are at least `REST_TIME` apart. Its elastic ones are not bounded: a ball in a
//! pile is hit at least once per `REST_TIME` (pressed contacts part at a `REST_TIME` flight's
//! speed, `step/settle.rs`), so all its collisions are elastic and the pile keeps the kinetic
//! energy its balls brought in; balls side by side in a row that fills its room exactly (ten
//! balls of radius 2 on the floor of a 40-unit bin of the plinko board) have no press between
//! them and tiny gaps, and rattle at up to a million contacts a second. Such balls fall
//! asleep (`crate::step::sleep`): slow or confined for [`crate::step::sleep::SLEEP_CONTACTS`] contacts in
//! a row, they stop until a fast hit wakes them (`docs/algorithms.md`, section 4d).

use crate::model::cell::CellCoord;
use crate::model::ids::{RectId, ShapeId};
use collide_core::motion::Path;
use collide_core::roots::{eval, first_entry, first_entry_after};
use collide_core::{Real, Vec2};

/// A flight shorter than this (seconds) ends in rest on the face it would start from; under
/// gravity it is also the TC window (see the module docs). 1 ms: with Earth's gravity at 100
/// units per metre (981 units/s²) that is a bounce of 0.49 units/s, 0.12 thousandths of a
/// unit high. Independent of the step size, so that results do not depend on it.
pub const REST_TIME: Real = 1e-3;

/// What holds a resting ball: a face of axis-aligned `normal` (from the face toward the
/// ball), while the centre's coordinate along the face stays in `[lo, hi]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rest {
    /// The face's unit normal, `±x` or `±y`.
    pub(crate) normal: Vec2,
    /// The range of the centre's tangential coordinate over which the face holds it.
    pub(crate) lo: Real,
    pub(crate) hi: Real,
    /// The body the face belongs to.
    pub(crate) on: RestOn,
}

/// The body whose face holds a resting ball.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RestOn {
    /// A tile's exposed face.
    Cell(CellCoord),
    /// A closed wall of the world.
    Wall,
    /// A static rectangle's face.
    Rect(RectId),
    /// A face of a static shape (`crate::step::shape_rest`): the shape and the face's number
    /// (`shape_face_normal`), from which a restore computes the normal again.
    Shape(ShapeId, u8),
    /// Rolling over a convex corner (the range's end is where it flies free).
    Edge,
    /// Asleep in a pile (`sleep.rs`), or a box stopped in a wedge (`step/settle.rs`): held
    /// where it is, without velocity or acceleration, until something wakes it. The range is
    /// unbounded.
    Asleep,
}

impl Rest {
    /// Whether the normal is `±x` or `±y` (a tile's, a wall's, a rectangle's face); else a
    /// slanted face of a shape, whose tangential coordinate is along [`Rest::tangent`].
    #[inline]
    pub(crate) fn aligned(&self) -> bool {
        self.normal.x == 0.0 || self.normal.y == 0.0
    }

    /// The tangential coordinate of `p` (see [`Rest::tangent`]); for an aligned face the
    /// coordinate itself, bit for bit.
    #[inline]
    pub(crate) fn along(&self, p: Vec2) -> Real {
        if self.aligned() {
            p[1 - self.axis()]
        } else {
            p.dot(self.normal.perp())
        }
    }

    /// `v` without its part along the normal (exactly zero for an aligned face; within
    /// rounding, about `1e-16·|v|`, for a slanted one).
    #[inline]
    pub(crate) fn without_normal(&self, v: Vec2) -> Vec2 {
        if self.aligned() {
            let mut v = v;
            v[self.axis()] = 0.0;
            v
        } else {
            v - self.normal * v.dot(self.normal)
        }
    }

    /// Whether this rest still holds a body whose velocity something other than its face set
    /// to `v`: a face while `v` has no normal part ([`Rest::tangential`]), a sleep (a ball
    /// asleep in a pile, a box held still in a wedge) only while `v` is zero.
    #[inline]
    pub(crate) fn kept_with(&self, v: Vec2) -> bool {
        if self.on == RestOn::Asleep {
            v == Vec2::ZERO
        } else {
            self.tangential(v)
        }
    }

    /// Whether `v` has no part along the normal: exactly for an aligned face, within
    /// `1e-12·|v|` (rounding) for a slanted one.
    #[inline]
    pub(crate) fn tangential(&self, v: Vec2) -> bool {
        let w = v.dot(self.normal);
        if self.aligned() {
            w == 0.0
        } else {
            w.abs() <= 1e-12 * v.length()
        }
    }

    /// The axis of the normal (0: x, 1: y).
    #[inline]
    pub(crate) fn axis(&self) -> usize {
        usize::from(self.normal.x == 0.0)
    }

    /// A compact code for the state hash: the normal's axis and sign, the body and its id.
    pub(crate) fn code(&self) -> u64 {
        let side = (self.axis() as u64) << 1 | u64::from(self.normal[self.axis()] > 0.0);
        let (kind, id) = match self.on {
            RestOn::Cell(c) => (0, u64::from(c.col) | u64::from(c.row) << 32),
            RestOn::Wall => (1, 0),
            RestOn::Rect(r) => (2, r.to_bits()),
            RestOn::Edge => (3, 0),
            RestOn::Asleep => (4, 0),
            RestOn::Shape(s, face) => (5, s.to_bits() ^ u64::from(face).rotate_right(8)),
        };
        side | kind << 2 | id.rotate_left(8)
    }
}

/// The acceleration of a ball under gravity `g` held by `rest`: `g` in free flight, `g`
/// without its normal component on a face gravity presses it against, zero asleep.
#[inline]
pub(crate) fn acc_on(g: Vec2, rest: Option<Rest>) -> Vec2 {
    match rest {
        Some(r) if r.on == RestOn::Asleep => Vec2::ZERO,
        Some(r) if g.dot(r.normal) < 0.0 => r.without_normal(g),
        _ => g,
    }
}

/// Whether a body under gravity `g`, held by `rest` and moving with `v`, reaches the upper end
/// of its range (else the lower): the end it moves toward, or accelerates toward when `v` has
/// no tangential part.
pub(crate) fn rest_forward(rest: Rest, v: Vec2, g: Vec2) -> bool {
    let (vt, gt) = (rest.along(v), rest.along(g));
    if vt != 0.0 {
        vt > 0.0
    } else {
        gt > 0.0
    }
}

/// The earliest time in `[from, limit]` (times of `path`) at which the coordinate `axis` of
/// `path` is past `bound` on the side `sign` (`+1`: beyond, `-1`: below), or at it and moving
/// past; `None` if never.
pub(crate) fn past_time(
    path: &Path,
    axis: usize,
    bound: Real,
    sign: Real,
    from: Real,
    limit: Real,
) -> Option<Real> {
    // c(τ) = sign·(bound − x(τ)): `<= 0` at or past the bound.
    let c = [
        sign * (bound - path.p0[axis]),
        -sign * path.v0[axis],
        -sign * 0.5 * path.accel[axis],
        0.0,
        0.0,
    ];
    if eval(&c, from) <= 0.0 {
        let rate = sign * path.vel_at(from)[axis];
        if rate > 0.0 || (rate == 0.0 && sign * path.accel[axis] > 0.0) {
            return Some(from);
        }
        return first_entry_after(&c, from, limit);
    }
    first_entry(&c, from, limit)
}

/// When a ball on `path` held by `rest` reaches the end of the face's range, at or after
/// `from` and at most `limit` (times of `path`).
pub(crate) fn rest_end_time(path: &Path, rest: &Rest, from: Real, limit: Real) -> Option<Real> {
    let (path, t) = if rest.aligned() {
        (*path, 1 - rest.axis())
    } else {
        // The tangential coordinate's own path, on the x axis.
        let on = |v: Vec2| Vec2::new(rest.along(v), 0.0);
        (Path::ballistic(on(path.p0), on(path.v0), on(path.accel)), 0)
    };
    let path = &path;
    let hi = past_time(path, t, rest.hi, 1.0, from, limit);
    let lo = past_time(path, t, rest.lo, -1.0, from, limit);
    match (hi, lo) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
