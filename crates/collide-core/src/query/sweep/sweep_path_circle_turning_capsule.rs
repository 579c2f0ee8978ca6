//! A circle on a curved path (a ball, straight or under constant acceleration) against a
//! capsule turning about a pivot (a swinging pinball flipper):
//! [`sweep_path_circle_turning_capsule`].
//!
//! The method and its limits are on the function's page and in `docs/algorithms.md`
//! ("Segments, capsules and turning flippers").

use crate::math::{Real, Vec2};
use crate::motion::Path;
use crate::query::hit::TurningHit;
use crate::query::sweep::sweep_path_circle_segment;
use crate::query::sweep::turning_search::{self, GapProblem, GapState};
use crate::shape::{Segment, SegmentEnds, TurningCapsule};

/// The largest number of evaluations of the gap (each one [`crate::sin_cos`] and a point–segment
/// distance) spent by [`sweep_path_circle_turning_capsule`] before it gives up with
/// [`TurningSweep::Unresolved`].
pub const TURNING_MAX_ITERATIONS: u32 = 2000;

/// The answer of [`sweep_path_circle_turning_capsule`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TurningSweep {
    /// The earliest contact in `[0, max_toi]`.
    Hit(TurningHit),
    /// No contact in `[0, max_toi]`.
    Miss,
    /// The iteration bound ([`TURNING_MAX_ITERATIONS`]) was reached: the ball does not enter
    /// the flipper (nor, if it started in contact, approach it while touching) in
    /// `[0, safe_until]`, `safe_until <= max_toi`; beyond that nothing is known. Move the
    /// bodies to `safe_until` and sweep again from there.
    Unresolved {
        /// The time (seconds) up to which the ball is certified not to hit the flipper.
        safe_until: Real,
    },
}

impl TurningSweep {
    /// The hit, if any (`None` for [`TurningSweep::Miss`] and [`TurningSweep::Unresolved`]).
    #[must_use]
    pub fn hit(self) -> Option<TurningHit> {
        match self {
            TurningSweep::Hit(h) => Some(h),
            _ => None,
        }
    }
}

/// The sweep's fixed data.
struct Problem<'a> {
    rel: Path,
    cap: &'a TurningCapsule,
    big_r: Real,
    accel: Real,
    omega: Real,
}

impl GapProblem for Problem<'_> {
    fn eval(&self, t: Real) -> GapState {
        let q = self.rel.pos_at(t);
        let qv = self.rel.vel_at(t);
        let dir = self.cap.direction_at(t);
        let x = q.dot(dir);
        let s = if x <= 0.0 {
            0.0
        } else if x >= self.cap.length {
            self.cap.length
        } else {
            x
        };
        let c = dir * s;
        let m = q - c;
        let dist = m.length();
        let rate = if dist > 0.0 {
            m.dot(qv - c.perp() * self.cap.omega) / dist
        } else {
            0.0
        };
        GapState {
            t,
            q,
            qv,
            dir,
            s,
            c,
            m,
            dist,
            gap: dist - self.big_r,
            rate,
            w1: (qv - q.perp() * self.cap.omega).length(),
        }
    }

    /// The first-order step `h1` from `st` (`st.gap > 0`): infinite when nothing moves.
    fn first_order_step(&self, st: &GapState) -> Real {
        let b = st.qv.length() + self.omega * self.cap.length;
        let den = b + (b * b + 2.0 * self.accel * st.gap).sqrt();
        if den > 0.0 {
            2.0 * st.gap / den
        } else {
            Real::INFINITY
        }
    }

    /// A bound on `|D''|` over `[st.t, st.t + h]` while the distance stays `>= dist_lo`.
    fn curvature_bound(&self, st: &GapState, h: Real, dist_lo: Real) -> Real {
        let (a, w) = (self.accel, self.omega);
        let v = st.qv.length();
        let qmax = st.q.length() + (v + 0.5 * a * h) * h;
        let vmax = v + a * h;
        let w2 = a + 2.0 * w * vmax + w * w * qmax;
        let w1 = st.w1 + w2 * h;
        w1 * w1 / dist_lo + w2
    }

    fn contact_dist(&self) -> Real {
        self.big_r
    }

    fn scale(&self) -> Real {
        self.rel.p0.length() + self.cap.length.abs()
    }

    fn hit(&self, st: &GapState) -> TurningHit {
        // The centre on the core itself (`dist = 0`): pushed along the flipper's own motion.
        TurningHit::on_capsule(self.cap, st.t, st.c, st.s, st.m, st.dist, st.dir)
    }

    /// Behind the pivot (`q·dir < 0`) the pivot's end is the core's nearest point and the
    /// gap is `|q| − R`, whatever the flipper's angle. It stays so while the angle between `q`
    /// and the core's direction stays above 90°: its margin `φ` is at least
    /// `sin φ = −q·dir/|q|`; over a span `T` in which `|q|` stays above `|q₀|/2` (the point
    /// moves at most `v·T + ½a·T² <= |q₀|/2`) that angle changes by at most
    /// `(ω + 2·(v + a·T)/|q₀|)·T`. Over the span `|D''| <= |q'|²/|q| + |q''|
    /// <= 2·(v + a·T)²/|q₀| + a`.
    fn pivot_span(&self, st: &GapState) -> Option<(Real, Real)> {
        let (q0, v, a) = (st.dist, st.qv.length(), self.accel);
        let x = st.q.dot(st.dir);
        if !(st.s == 0.0 && x < 0.0 && q0 > 0.0) {
            return None;
        }
        let margin = -x / q0;
        // `|q|` above `|q₀|/2`: the root of `½a·T² + v·T = |q₀|/2`.
        let t1 = q0 / (v + (v * v + a * q0).sqrt());
        let vmax = if t1.is_finite() { v + a * t1 } else { v };
        let span = t1.min(margin / (self.omega + 2.0 * vmax / q0));
        let vmax = v + a * span;
        let m = 2.0 * vmax * vmax / q0 + a;
        (span > 0.0 && span.is_finite() && m.is_finite()).then_some((span, m))
    }
}

/// Sweeps a circle of `radius` on `path` against a capsule turning about its pivot (a
/// swinging flipper, see [`TurningCapsule`] for its motion and the sign of `omega` with y
/// down): the earliest time in `[0, max_toi]` at which the distance from the ball's centre to
/// the flipper's core segment equals `radius + flipper.radius`.
///
/// A flipper at rest (`omega = 0`, its pivot possibly moving) is a static capsule: it is
/// swept exactly by [`sweep_path_circle_segment`] on the ball's path relative to the pivot.
///
/// Contact at the start (Bannerman et al. 2014): in contact (gap `<= 0`) and approaching (the
/// gap's rate `< 0`) is a hit at `toi = 0`; in contact and separating is none, and the search
/// goes on once the ball is apart; a ball that stays in contact until it approaches again is
/// hit then. The same rule holds wherever the search brackets a contact: a bracket whose end
/// finds the ball touching but separating (the gap crossing zero at the rounding level, as for
/// a ball that starts a hair apart from a contact it leaves) is followed, not reported. A centre exactly on the core segment is a hit at once, with the flipper's normal
/// `(cos θ, sin θ).perp()` signed by `omega` (the side the flipper moves toward).
///
/// # The method: certified conservative advancement
/// The gap `D(τ) = dist(q(τ), S(τ)) − R` between the ball's centre `q` (relative to the pivot)
/// and the flipper's core segment `S(τ)` (from the pivot to `L·(cos θ, sin θ)`,
/// `θ = θ0 + ω·τ`), less `R = r + rc`, involves `cos` and `sin` of `ω·τ`: no polynomial, no
/// closed form. Its earliest zero is bracketed from below by steps that can never pass a
/// contact, the conservative advancement of B. Mirtich ("Impulse-based dynamic simulation of
/// rigid body systems", PhD thesis, UC Berkeley 1996) and of X. Zhang, M. Lee, Y. J. Kim
/// ("Interactive continuous collision detection for non-convex polyhedra", The Visual
/// Computer, 2006, C²A), with a second-order bound in the manner of D. Frenkel and
/// J. F. Maguire's root search for rotating rods (Mol. Phys. 49, 1983):
///
/// - **First order.** `D` shrinks no faster than the closing speed of the ball and the
///   nearest material point of the flipper: `|D'| <= |q'| + |ω|·|c| <= |q'| + |ω|·L` (`c` the
///   nearest point of the core, `|c| <= L`), and `|q'(τ + s)| <= |q'(τ)| + |a|·s`. So from a
///   time `τ` with `D(τ) > 0`, `D` stays `> 0` for `s < h1`, the root of
///   `B·s + ½|a|·s² = D(τ)`, `B = |q'(τ)| + |ω|·L`:
///   `h1 = 2·D / (B + √(B² + 2|a|·D))` (stable form).
/// - **Second order.** In the flipper's frame the centre is `w = R(−θ)·q`, with
///   `w' = R(−θ)(q' − ω·q.perp())` and `w'' = R(−θ)(a − 2ω·q'.perp() − ω²·q)`. Outside a
///   convex set the distance to it is C¹ with a gradient of Lipschitz constant `1/dist`, so
///   while `D >= 0` (`dist >= R`), `|D''| <= |w'|²/R + |w''| <= M`, with `M` bounded over a
///   window `[τ, τ + H]` from `|q|`, `|q'|`, `|a|`, `|ω|`. Then
///   `D(τ + s) >= D + D'·s − ½M·s²`: no zero before the positive root `h2` of that
///   quadratic (capped at `H`), and `D(τ + s) <= D + D'·s + ½M·s²`, whose first root (if
///   `D' < 0`) is a time where the ball is already in contact: an upper end for the bracket.
///   Near a transversal contact both converge quadratically (the steps are Newton steps with
///   a certified error term); near a graze (`D' ≈ 0`) `h2 ≈ √(2D/M)`, where the first-order
///   step would crawl.
///
/// Every step is `max(h1, h2)`, so `[0, lo]` is contact-free in exact arithmetic; once a time
/// `hi` with `D(hi) <= 0` is known, the bracket `(lo, hi]` holds the earliest contact and is
/// shrunk (certified steps from `lo`, bisection once a step from `lo` covers the midpoint,
/// the upper bound's roots) until `lo` and `hi` are adjacent floating-point numbers. The
/// function is evaluated at the bracket's points only; it is never sampled on a grid.
///
/// # Limits
/// - `D` is evaluated in floating point (errors of a few ulps of `|q| + L`): "contact-free"
///   holds up to that rounding. A graze shallower than rounding may be stepped over one ulp
///   of time at a time, as [`crate::roots::first_entry`] ignores a graze between two doubles.
/// - A contact whose gap and rate are zero to rounding (a ball carried by the face or
///   sliding along it, where the step `D'/M` is zero) is followed within a touching band of
///   `1e-12·(|q| + L + 1)` (at most `R/2`): steps over which `D` stays above `−band`, about
///   `√(2·band/M)`; a dip shallower than the band is no entry, and a step that ends
///   approaching is bisected back to the instant the approach began. A ball deeper inside
///   that does not approach is followed by steps over which its gap falls by at most the
///   band. Such a contact that lasts reaches [`TURNING_MAX_ITERATIONS`] every few thousand
///   of those steps.
/// - The iteration count is bounded by [`TURNING_MAX_ITERATIONS`]; past it the result is
///   [`TurningSweep::Unresolved`] with the time up to which no contact exists.
/// - `cos`/`sin` come from [`crate::sin_cos`] (libm's pure-Rust implementation), so the
///   result is the same bits on every target (see [`TurningCapsule`]).
///
/// # Arguments
/// - `path`: the ball's centre (seconds, units/s, units/s²; a straight or a parabolic path).
/// - `radius`: the ball's radius (world units, `>= 0`).
/// - `flipper`: the turning capsule, its state at `τ = 0`.
/// - `max_toi`: the horizon (seconds), typically the end of the swing `T`; the flipper is
///   taken to turn at constant `omega` all the way.
///
/// # Returns
/// [`TurningSweep::Hit`] with the time of contact (the upper end of the final bracket: the
/// ball touches there, to rounding, and is apart at the floating-point number before), the
/// normal from the flipper toward the ball, the contact point on the flipper's surface, the
/// flipper's surface velocity there and the part of the core nearest to the ball;
/// [`TurningSweep::Miss`]; or [`TurningSweep::Unresolved`] after
/// [`TURNING_MAX_ITERATIONS`] evaluations. The times found do not depend on `max_toi` (the
/// same bits for any horizon past them). A non-finite input or a negative or NaN `max_toi`
/// gives [`TurningSweep::Miss`].
///
/// # Example
/// ```
/// use collide_core::motion::Path;
/// use collide_core::{sweep_path_circle_turning_capsule, TurningCapsule, Vec2};
/// // A flipper of length 100 and radius 5 pivoting at the origin, pointing along +x, turning
/// // at ω = 10 rad/s (clockwise on the screen, y down). A ball of radius 5 at rest at
/// // (50, 50): 70.71 from the pivot, inside the swept circle. It is touched when the core
/// // comes within 5 + 5 = 10 of its centre: the centre is at angle π/4 and the core at
/// // angle θ is at distance 70.71·sin(π/4 − θ) from it, so sin(π/4 − θ) = 10/70.71 = √2/10,
/// // θ = π/4 − asin(√2/10) = 0.643480, toi = θ/ω = 0.0643480 s.
/// let flipper = TurningCapsule { length: 100.0, radius: 5.0, omega: 10.0, ..Default::default() };
/// let ball = Path::linear(Vec2::new(50.0, 50.0), Vec2::ZERO);
/// let hit = sweep_path_circle_turning_capsule(&ball, 5.0, &flipper, 1.0).hit().unwrap();
/// let expected = (std::f64::consts::FRAC_PI_4 - (2f64.sqrt() / 10.0).asin()) / 10.0;
/// assert!((hit.toi - expected).abs() < 1e-12);
/// // The flipper pushes the ball along its own motion: normal ⟂ to the core, toward +y side.
/// assert!(hit.normal.y > 0.0 && hit.surface_vel.length() > 0.0);
/// ```
#[must_use]
pub fn sweep_path_circle_turning_capsule(
    path: &Path,
    radius: Real,
    flipper: &TurningCapsule,
    max_toi: Real,
) -> TurningSweep {
    let finite = path.p0.is_finite()
        && path.v0.is_finite()
        && path.accel.is_finite()
        && radius.is_finite()
        && flipper.pivot.is_finite()
        && flipper.pivot_vel.is_finite()
        && flipper.length.is_finite()
        && flipper.radius.is_finite()
        && flipper.angle.is_finite()
        && flipper.omega.is_finite();
    if !(max_toi >= 0.0) || !finite {
        return TurningSweep::Miss;
    }
    let rel = Path {
        p0: path.p0 - flipper.pivot,
        v0: path.v0 - flipper.pivot_vel,
        accel: path.accel,
    };
    if flipper.omega == 0.0 {
        return static_flipper(&rel, radius, flipper, max_toi);
    }
    let pb = Problem {
        rel,
        cap: flipper,
        big_r: turning_search::contact_distance(radius + flipper.radius, flipper.length),
        accel: path.accel.length(),
        omega: flipper.omega.abs(),
    };
    turning_search::sweep(&pb, max_toi)
}

/// A flipper at rest (`omega = 0`): the static capsule, swept exactly on the ball's path
/// relative to the pivot (`rel`).
fn static_flipper(rel: &Path, radius: Real, cap: &TurningCapsule, max_toi: Real) -> TurningSweep {
    let core = Segment::new(Vec2::ZERO, cap.direction_at(0.0) * cap.length);
    match sweep_path_circle_segment(rel, radius + cap.radius, max_toi, &core, SegmentEnds::BOTH) {
        None => TurningSweep::Miss,
        Some(h) => TurningSweep::Hit(TurningHit {
            toi: h.toi,
            normal: h.normal,
            point: cap.pivot_at(h.toi) + h.point + h.normal * cap.radius,
            surface_vel: cap.pivot_vel,
            feature: h.feature,
        }),
    }
}
