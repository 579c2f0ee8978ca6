//! Collision response: pure functions from velocities and a contact normal to new velocities.
//!
//! No trigonometry: every response is a vector reflection along the unit contact normal `n`
//! (pointing toward the body whose velocity is changed; see the crate conventions), so a bounce
//! with restitution `e = 1` keeps the speed to a few ulps.

use crate::math::{Real, Vec2};

/// Reflects velocity `v` off a static surface with unit normal `n` and restitution `e`
/// (`0` = perfectly inelastic, `1` = elastic): `v' = v - (1 + e)(v·n) n`.
///
/// The tangential part of `v` is kept; the normal part is reversed and scaled by `e`. The
/// formula is applied whatever the sign of `v·n`; callers reflect only approaching bodies
/// (`v·n < 0`). For `e = 1` and `|n| = 1`, `|v'| = |v|` exactly in real arithmetic.
/// Source: the standard impulse response, e.g. Ericson (2005) §5.5 / any mechanics text.
///
/// ```
/// use collide_core::{reflect, Vec2};
/// // 45° onto a floor (normal up, (0,-1) in y-down coordinates): vy flips, vx kept.
/// assert_eq!(reflect(Vec2::new(3.0, 4.0), Vec2::new(0.0, -1.0), 1.0), Vec2::new(3.0, -4.0));
/// ```
#[must_use]
#[inline]
pub fn reflect(v: Vec2, n: Vec2, e: Real) -> Vec2 {
    v - n * ((1.0 + e) * v.dot(n))
}

/// Reflects velocity `v` off a surface moving with velocity `surface_vel` (a kinematic body,
/// e.g. a paddle, of infinite mass): the relative velocity is reflected,
/// `v' = v - (1 + e)((v - u)·n) n`.
///
/// A paddle moving up into a ball therefore sends it back faster; the surface's tangential
/// motion does not drag the ball (no friction; sideways "english" is a game rule, not physics).
///
/// This is also the bounce off a swinging flipper: pass the velocity of the flipper's material
/// point at the contact, `u = v_pivot + ω·(point − pivot).perp()`
/// ([`crate::TurningHit::surface_vel`]). With `e = 1` the speed relative to that point is
/// kept, `|v' − u| = |v − u|` (the ball's kinetic energy in the frame moving with the contact
/// point), so the flipper adds speed in the world frame exactly as a moving wall does.
///
/// ```
/// use collide_core::{reflect_relative, Vec2};
/// // Ball falling at 100 units/s onto a paddle rising at 20 units/s (normal up = (0,-1)):
/// // relative normal speed 120 reverses, so the ball leaves at 100 + 2·20 = 140 units/s up.
/// let v = reflect_relative(Vec2::new(0.0, 100.0), Vec2::new(0.0, -20.0), Vec2::new(0.0, -1.0), 1.0);
/// assert_eq!(v, Vec2::new(0.0, -140.0));
/// // A flipper's face point at (0, 40) from its pivot turning at ω = −10 rad/s moves at
/// // −10·(0, 40).perp() = −10·(−40, 0) = (400, 0); a ball at rest touching it with normal
/// // (1, 0) leaves at 2·400 = 800 units/s, and |v' − u| = |0 − u| = 400 (energy kept in the
/// // frame of the contact point).
/// let u = Vec2::new(0.0, 40.0).perp() * -10.0;
/// let out = reflect_relative(Vec2::ZERO, u, Vec2::new(1.0, 0.0), 1.0);
/// assert_eq!(out, Vec2::new(800.0, 0.0));
/// assert_eq!((out - u).length(), (Vec2::ZERO - u).length());
/// ```
#[must_use]
#[inline]
pub fn reflect_relative(v: Vec2, surface_vel: Vec2, n: Vec2, e: Real) -> Vec2 {
    v - n * ((1.0 + e) * (v - surface_vel).dot(n))
}

/// [`reflect_relative`] for a contact normal `n` of any non-zero length: the normal part is
/// the projection `((v − u)·n)/|n|²`, `v' = v − (1 + e)·((v − u)·n / |n|²)·n`.
///
/// With a unit normal this is the same bounce in real arithmetic. In floating point a normal
/// computed as `q/|q|` is a few ulps off unit length, and [`reflect_relative`] then changes an
/// elastic bounce's energy by `4·((v − u)·n)²·(|n|² − 1)`, a bias (not a random walk) when
/// the rounding leans one way. The projection removes it in real arithmetic, and it is
/// evaluated so that rounding does not bring it back: `v − u`, `(v − u)·n`, `|n|²`, the
/// quotient and `v − c·n` are carried in double-double arithmetic (about 106 bits, from
/// Knuth's TwoSum and Dekker's TwoProduct: `+ − *` and `/` only, no fused multiply-add, so the
/// same bits on every platform), and each component of `v'` is rounded once at the end. A
/// normal a fraction of an ulp too long, whose `|n|²` rounds to exactly 1, is then projected
/// on as it is; the energy error of an elastic bounce is the final rounding of `v'` (a few
/// ulps, of either sign), with no bias. The curved-path step (gravity) uses it, where
/// millions of corner and ball contacts meet rounded normals. (Should an intermediate
/// overflow, for components near the top of the double range, the plain formula is used.)
///
/// ```
/// use collide_core::{reflect_relative_on, Vec2};
/// // A normal twice as long gives the same bounce as the unit one.
/// let v = reflect_relative_on(Vec2::new(3.0, 4.0), Vec2::ZERO, Vec2::new(0.0, -2.0), 1.0);
/// assert_eq!(v, Vec2::new(3.0, -4.0));
/// ```
#[must_use]
#[inline]
pub fn reflect_relative_on(v: Vec2, surface_vel: Vec2, n: Vec2, e: Real) -> Vec2 {
    let dx = Dd::two_sum(v.x, -surface_vel.x);
    let dy = Dd::two_sum(v.y, -surface_vel.y);
    let d = dx.mul_f(n.x).add(dy.mul_f(n.y));
    let nn = Dd::two_prod(n.x, n.x).add(Dd::two_prod(n.y, n.y));
    let c = d.mul(Dd::two_sum(1.0, e)).div(nn);
    let out = Vec2::new(
        Dd::from(v.x).add(c.mul_f(n.x).neg()).round(),
        Dd::from(v.y).add(c.mul_f(n.y).neg()).round(),
    );
    if out.is_finite() {
        return out;
    }
    v - n * ((1.0 + e) * (v - surface_vel).dot(n) / n.length_squared())
}

/// [`collide_elastic`] for a contact normal `n` of any non-zero length: the exchanged normal
/// velocity is the projection `(1 + e)·((v1 − v2)·n)/|n|²`, so that a normal a few ulps off
/// unit length does not bias the kinetic energy of elastic collisions. As in
/// [`reflect_relative_on`], the projection, the mass shares `m2/(m1 + m2)` and `m1/(m1 + m2)`
/// and the new velocities are carried in double-double arithmetic and each component is
/// rounded once: with `e = 1` the pair's kinetic energy and momentum change only by those
/// final roundings. The same masses rules as [`collide_elastic`].
///
/// ```
/// use collide_core::{collide_on, Vec2};
/// // Equal masses head-on along a normal of length 2: velocities are exchanged.
/// let (a, b) = collide_on(1.0, Vec2::new(5.0, 0.0), 1.0, Vec2::new(-3.0, 0.0), Vec2::new(-2.0, 0.0), 1.0);
/// assert_eq!((a, b), (Vec2::new(-3.0, 0.0), Vec2::new(5.0, 0.0)));
/// ```
#[must_use]
#[inline]
pub fn collide_on(m1: Real, v1: Vec2, m2: Real, v2: Vec2, n: Vec2, e: Real) -> (Vec2, Vec2) {
    let (w1, w2) = mass_shares_dd(m1, m2);
    let dx = Dd::two_sum(v1.x, -v2.x);
    let dy = Dd::two_sum(v1.y, -v2.y);
    let d = dx.mul_f(n.x).add(dy.mul_f(n.y));
    let nn = Dd::two_prod(n.x, n.x).add(Dd::two_prod(n.y, n.y));
    let c = d.mul(Dd::two_sum(1.0, e)).div(nn);
    let (k1, k2) = (c.mul(w1), c.mul(w2));
    let out1 = Vec2::new(
        Dd::from(v1.x).add(k1.mul_f(n.x).neg()).round(),
        Dd::from(v1.y).add(k1.mul_f(n.y).neg()).round(),
    );
    let out2 = Vec2::new(
        Dd::from(v2.x).add(k2.mul_f(n.x)).round(),
        Dd::from(v2.y).add(k2.mul_f(n.y)).round(),
    );
    if out1.is_finite() && out2.is_finite() {
        return (out1, out2);
    }
    let (w1, w2) = mass_shares(m1, m2);
    let vn = (1.0 + e) * (v1 - v2).dot(n) / n.length_squared();
    (v1 - n * (vn * w1), v2 + n * (vn * w2))
}

/// [`mass_shares`] as double-doubles.
fn mass_shares_dd(m1: Real, m2: Real) -> (Dd, Dd) {
    if m1.is_infinite() || m2.is_infinite() || m1 + m2 == 0.0 {
        let (w1, w2) = mass_shares(m1, m2);
        (Dd::from(w1), Dd::from(w2))
    } else {
        let total = Dd::two_sum(m1, m2);
        (Dd::from(m2).div(total), Dd::from(m1).div(total))
    }
}

/// Each body's share of the exchanged normal velocity: `(m2/(m1+m2), m1/(m1+m2))`, with the
/// infinite and zero masses of [`collide_elastic`].
#[inline(always)]
fn mass_shares(m1: Real, m2: Real) -> (Real, Real) {
    if m1.is_infinite() && m2.is_infinite() || m1 + m2 == 0.0 {
        (0.5, 0.5)
    } else if m2.is_infinite() {
        (1.0, 0.0)
    } else if m1.is_infinite() {
        (0.0, 1.0)
    } else {
        let total = m1 + m2;
        (m2 / total, m1 / total)
    }
}

/// Elastic oblique collision of two masses along the unit contact normal `n` (from body 2
/// toward body 1), with restitution `e`. Returns the new velocities `(v1', v2')`.
///
/// Seed article 002: decompose both velocities into the normal and the tangent, apply the 1D
/// collision formula along the normal, keep the tangents. Written as one exchanged impulse
/// `J = (1 + e)·m1·m2/(m1 + m2)·((v1 - v2)·n)`, `v1' = v1 - (J/m1) n`, `v2' = v2 + (J/m2) n`,
/// which conserves momentum, and for `e = 1` kinetic energy, exactly in real arithmetic.
///
/// Masses are `>= 0` and may be infinite:
/// - `m2 = ∞` (and finite `m1`): body 1 reflects off body 2 as off a moving wall
///   ([`reflect_relative`]), body 2 is unchanged; symmetric for `m1 = ∞`.
/// - `m1 = 0` (and `m2 > 0`): body 1 reflects, body 2 is unchanged; symmetric for `m2 = 0`.
/// - both zero or both infinite: treated as equal masses.
///
/// ```
/// use collide_core::{collide_elastic, Vec2};
/// // Equal masses head-on: velocities are exchanged.
/// let (a, b) = collide_elastic(1.0, Vec2::new(5.0, 0.0), 1.0, Vec2::new(-3.0, 0.0), Vec2::new(-1.0, 0.0), 1.0);
/// assert_eq!((a, b), (Vec2::new(-3.0, 0.0), Vec2::new(5.0, 0.0)));
/// ```
#[must_use]
#[inline(always)]
pub fn collide_elastic(m1: Real, v1: Vec2, m2: Real, v2: Vec2, n: Vec2, e: Real) -> (Vec2, Vec2) {
    // Share of the exchanged normal velocity taken by each body: w1 = m2/(m1+m2), w2 = m1/(m1+m2).
    let (w1, w2) = mass_shares(m1, m2);
    let vn = (1.0 + e) * (v1 - v2).dot(n);
    (v1 - n * (vn * w1), v2 + n * (vn * w2))
}

/// A value held as an unevaluated sum `hi + lo` of two doubles with `|lo| <= ulp(hi)/2`
/// (double-double arithmetic): about 106 bits, from error-free transformations that use only
/// `+ - *` (Knuth's TwoSum, Dekker's TwoProduct with Veltkamp's split; no fused multiply-add).
/// Sources: D. E. Knuth, *TAOCP* vol. 2, §4.2.2; T. J. Dekker, "A floating-point technique for
/// extending the available precision", Numer. Math. 18 (1971); Y. Hida, X. S. Li,
/// D. H. Bailey, "Algorithms for quad-double precision floating point arithmetic" (2001).
/// Valid while no operand exceeds about 2^995 in magnitude (the split would overflow).
#[derive(Clone, Copy, Debug)]
struct Dd {
    hi: Real,
    lo: Real,
}

impl Dd {
    #[inline]
    fn from(x: Real) -> Dd {
        Dd { hi: x, lo: 0.0 }
    }

    /// `a + b` exactly, as a double-double (Knuth's TwoSum: no condition on the operands).
    #[inline]
    fn two_sum(a: Real, b: Real) -> Dd {
        let s = a + b;
        let bb = s - a;
        let err = (a - (s - bb)) + (b - bb);
        Dd { hi: s, lo: err }
    }

    /// `a + b` exactly when `|a| >= |b|` (or `a = 0`), as a double-double (Dekker's FastTwoSum).
    #[inline]
    fn fast_two_sum(a: Real, b: Real) -> Dd {
        let s = a + b;
        Dd {
            hi: s,
            lo: b - (s - a),
        }
    }

    /// `a·b` exactly, as a double-double (Dekker's TwoProduct with Veltkamp's split).
    #[inline]
    fn two_prod(a: Real, b: Real) -> Dd {
        #[inline]
        fn split(x: Real) -> (Real, Real) {
            // 2^27 + 1: the halves have 26 significant bits each, so their products are exact.
            let c = 134_217_729.0 * x;
            let hi = c - (c - x);
            (hi, x - hi)
        }
        let p = a * b;
        let (ah, al) = split(a);
        let (bh, bl) = split(b);
        let err = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
        Dd { hi: p, lo: err }
    }

    #[inline]
    fn add(self, o: Dd) -> Dd {
        let s = Dd::two_sum(self.hi, o.hi);
        let t = Dd::two_sum(self.lo, o.lo);
        let s = Dd::fast_two_sum(s.hi, s.lo + t.hi);
        Dd::fast_two_sum(s.hi, s.lo + t.lo)
    }

    #[inline]
    fn neg(self) -> Dd {
        Dd {
            hi: -self.hi,
            lo: -self.lo,
        }
    }

    #[inline]
    fn mul_f(self, b: Real) -> Dd {
        let p = Dd::two_prod(self.hi, b);
        Dd::fast_two_sum(p.hi, p.lo + self.lo * b)
    }

    #[inline]
    fn mul(self, o: Dd) -> Dd {
        let p = Dd::two_prod(self.hi, o.hi);
        Dd::fast_two_sum(p.hi, p.lo + (self.hi * o.lo + self.lo * o.hi))
    }

    /// `self / o` to about 104 bits: a quotient digit, its remainder computed exactly enough,
    /// a second digit and a third.
    #[inline]
    fn div(self, o: Dd) -> Dd {
        let q1 = self.hi / o.hi;
        let r = self.add(o.mul_f(q1).neg());
        let q2 = r.hi / o.hi;
        let r = r.add(o.mul_f(q2).neg());
        let q3 = r.hi / o.hi;
        let q = Dd::fast_two_sum(q1, q2);
        Dd::fast_two_sum(q.hi, q.lo + q3)
    }

    /// The double nearest `hi + lo` (to within a rounding of the tail).
    #[inline]
    fn round(self) -> Real {
        self.hi + self.lo
    }
}
