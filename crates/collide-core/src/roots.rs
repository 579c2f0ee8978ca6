//! Roots of low-degree polynomials for times of impact along curved paths: a numerically
//! stable quadratic, and the earliest time a polynomial of degree at most 4 becomes `<= 0` on an
//! interval, isolated with certainty (never guessed from samples).
//!
//! A ball under constant acceleration `g` follows `p(τ) = p0 + v·τ + ½·g·τ²`. Its contact time
//! with a face is a root of a quadratic; with a point `c` (a convex corner) it is a root of the
//! quartic `f(τ) = |q + v·τ + ½·g·τ²|² − r²`, `q = p0 − c`, whose coefficients are
//! [`corner_quartic`]. The earliest root is found by *recursive derivative bracketing*: the real
//! roots of `f'` (a cubic, found the same way from its own derivative, a quadratic) split the
//! interval into pieces on which `f` is monotone; the first piece whose ends have `f > 0` then
//! `f <= 0` holds the earliest entry, and a safeguarded Newton iteration (Newton inside the
//! bracket, bisection when Newton leaves it: *Numerical Recipes*, 3rd ed., §9.4, `rtsafe`)
//! shrinks it to adjacent floating-point numbers. Only `+ − × /` and `sqrt` are used, so the
//! result is the same bits on every platform. Closed-form quartic formulas (Ferrari) are not
//! used: they lose many digits near double roots (DynamO keeps several quartic solvers and an
//! error analysis for that reason, `magnet/math/quartic*.hpp`).
//!
//! Polynomials are given by their coefficients in ascending order: `c[0] + c[1]·τ + … + c[4]·τ⁴`.

use crate::math::{Real, Vec2};

/// A polynomial of degree at most 4, coefficients in ascending order (`c[k]` multiplies `τᵏ`).
pub type Poly4 = [Real; 5];

/// `Σ c[k]·τᵏ` by Horner's rule.
#[must_use]
pub fn eval(c: &Poly4, t: Real) -> Real {
    (((c[4] * t + c[3]) * t + c[2]) * t + c[1]) * t + c[0]
}

/// The derivative's coefficients (`c[k+1]·(k+1)` for `τᵏ`).
#[must_use]
pub fn derivative(c: &Poly4) -> Poly4 {
    [c[1], 2.0 * c[2], 3.0 * c[3], 4.0 * c[4], 0.0]
}

/// The real roots of `a·τ² + b·τ + c`, in increasing order, computed without cancellation:
/// `q = −½·(b + sign(b)·√(b² − 4ac))`, roots `q/a` and `c/q` (*Numerical Recipes*, 3rd ed.,
/// §5.6). `a = 0` falls back to the linear root `−c/b`. `[]` when there is no real root (or
/// every `τ` is a root: `a = b = c = 0`); a double root is returned twice.
#[must_use]
pub fn quadratic_roots(a: Real, b: Real, c: Real) -> Vec<Real> {
    if a == 0.0 {
        return if b == 0.0 { vec![] } else { vec![-c / b] };
    }
    let disc = b * b - 4.0 * a * c;
    if !(disc >= 0.0) {
        return vec![];
    }
    let s = disc.sqrt();
    let q = -0.5 * (b + if b >= 0.0 { s } else { -s });
    if q == 0.0 {
        // b = 0 and c = 0: a double root at 0.
        return vec![0.0, 0.0];
    }
    let (r1, r2) = (q / a, c / q);
    if r1 <= r2 {
        vec![r1, r2]
    } else {
        vec![r2, r1]
    }
}

/// The degree of `c` (the highest non-zero coefficient; 0 for a constant or zero polynomial).
fn degree(c: &Poly4) -> usize {
    (0..5).rev().find(|&k| c[k] != 0.0).unwrap_or(0)
}

/// The points of `(lo, hi)` where `c`'s derivative changes sign (its real roots there, sorted),
/// found recursively: `c` is monotone between consecutive ones.
fn turning_points(c: &Poly4, lo: Real, hi: Real) -> Vec<Real> {
    let d = derivative(c);
    let mut out: Vec<Real> = match degree(&d) {
        0 => vec![],
        1 => vec![-d[0] / d[1]],
        2 => quadratic_roots(d[2], d[1], d[0]),
        _ => all_roots(&d, lo, hi),
    };
    out.retain(|&t| t > lo && t < hi);
    crate::math::sort_times(&mut out);
    out.dedup();
    out
}

/// Every point of `[lo, hi]` where `c` changes sign or is zero, once per monotone piece (sorted).
fn all_roots(c: &Poly4, lo: Real, hi: Real) -> Vec<Real> {
    let mut cuts = vec![lo];
    cuts.extend(turning_points(c, lo, hi));
    cuts.push(hi);
    let mut out = Vec::new();
    for w in cuts.windows(2) {
        let (a, b) = (w[0], w[1]);
        let (fa, fb) = (eval(c, a), eval(c, b));
        if fa == 0.0 {
            out.push(a);
        } else if fb == 0.0 || (fa < 0.0) != (fb < 0.0) {
            out.push(refine(c, a, b, fa > 0.0).1);
        }
    }
    out.dedup();
    out
}

/// Every point of `[lo, hi]` where `c` changes sign or is zero, sorted: on each monotone piece
/// of `c` (cut at its derivative's real roots, found recursively) at most one, isolated with
/// certainty and refined to adjacent doubles (the upper end of the final bracket). `[]` for
/// `lo > hi` or non-finite input; a root where `c` touches zero without changing sign is
/// listed only if it is exactly zero at a piece's end.
///
/// ```
/// use collide_core::roots::sign_changes;
/// // (τ − 1)(τ − 3) = 3 − 4τ + τ²: roots 1 and 3.
/// let r = sign_changes(&[3.0, -4.0, 1.0, 0.0, 0.0], 0.0, 10.0);
/// assert_eq!(r.len(), 2);
/// assert!((r[0] - 1.0).abs() < 1e-15 && (r[1] - 3.0).abs() < 1e-15);
/// ```
#[must_use]
pub fn sign_changes(c: &Poly4, lo: Real, hi: Real) -> Vec<Real> {
    if !(lo <= hi) || !c.iter().all(|x| x.is_finite()) {
        return Vec::new();
    }
    all_roots(c, lo, hi)
}

/// Shrinks the bracket `[a, b]` of a sign change of `c` (`c(a) > 0 >= c(b)` when `falling`,
/// `c(a) < 0 <= c(b)` otherwise) to adjacent floating-point numbers by safeguarded Newton
/// (Newton's step when it lands strictly inside the bracket, else the midpoint). Returns the
/// final bracket: `c` has the sign of `c(a)` at its first end and not at its second.
fn refine(c: &Poly4, mut a: Real, mut b: Real, falling: bool) -> (Real, Real) {
    let d = derivative(c);
    // On the `a` side while `c` has `c(a)`'s strict sign.
    let on_a_side = |f: Real| if falling { f > 0.0 } else { f < 0.0 };
    let mut t = 0.5 * (a + b);
    // Each bisection halves the bracket: 2·64 steps reach adjacent doubles from any bracket of
    // finite doubles; Newton steps only shorten it further.
    for i in 0..256 {
        let f = eval(c, t);
        if on_a_side(f) {
            a = t;
        } else {
            b = t;
        }
        let mid = 0.5 * (a + b);
        if mid <= a || mid >= b {
            break;
        }
        // Newton from the end nearer to the last point, kept only strictly inside and only on
        // every other step (so that a slow Newton sequence cannot stall the bracket).
        let df = eval(&d, t);
        let newton = t - f / df;
        t = if i % 2 == 0 && df != 0.0 && newton > a && newton < b {
            newton
        } else {
            mid
        };
    }
    (a, b)
}

/// The earliest time `τ` in `[lo, hi]` at which `c(τ) <= 0`, or `None` if `c > 0` on all of
/// it. When `c(lo) <= 0` that is `lo` itself; otherwise it is the upper end of a bracket of
/// adjacent floating-point numbers `[τ⁻, τ]` with `c(τ⁻) > 0 >= c(τ)` around the first sign
/// change (so the earliest *entry*: a graze where `c` touches 0 only between two doubles is
/// not one).
///
/// Certified: the real roots of the derivative (recursively) split `[lo, hi]` into pieces on
/// which `c` is monotone, so a piece whose ends are both `> 0` holds no root, and the first
/// piece that ends `<= 0` holds the first one. `lo <= hi`, both finite; any degree up to 4.
///
/// ```
/// use collide_core::roots::first_entry;
/// // (τ − 1)(τ − 2)(τ − 3)(τ − 4) = 24 − 50τ + 35τ² − 10τ³ + τ⁴: positive before 1.
/// let t = first_entry(&[24.0, -50.0, 35.0, -10.0, 1.0], 0.0, 10.0).unwrap();
/// assert!((t - 1.0).abs() < 1e-15);
/// // On [1.5, 2.5] it is negative from 1.5 on: the entry is at the start.
/// assert_eq!(first_entry(&[24.0, -50.0, 35.0, -10.0, 1.0], 1.5, 2.5), Some(1.5));
/// // On [2.5, 2.9] it is positive throughout.
/// assert_eq!(first_entry(&[24.0, -50.0, 35.0, -10.0, 1.0], 2.5, 2.9), None);
/// ```
#[must_use]
pub fn first_entry(c: &Poly4, lo: Real, hi: Real) -> Option<Real> {
    if !(lo <= hi) || !c.iter().all(|x| x.is_finite()) {
        return None;
    }
    let mut a = lo;
    let mut fa = eval(c, a);
    if !(fa > 0.0) {
        return (fa <= 0.0).then_some(lo);
    }
    let mut cuts = turning_points(c, lo, hi);
    cuts.push(hi);
    for b in cuts {
        let fb = eval(c, b);
        if fb <= 0.0 {
            return Some(refine(c, a, b, true).1);
        }
        a = b;
        fa = fb;
    }
    debug_assert!(fa > 0.0);
    None
}

/// The earliest time in `[lo, hi]` at which `c` *enters* `c <= 0` from `c > 0`: like
/// [`first_entry`] when `c(lo) > 0`; when `c(lo) <= 0` (a body found touching or inside at the
/// start that moves away), the first entry after `c` has been positive, if it comes back (a
/// curved path can: a ball leaving a corner that gravity brings back to it).
///
/// Certified the same way: on each monotone piece of `[lo, hi]`, `c` cannot rise above 0 and
/// fall back, so the first cut (`lo`, the derivative's roots, `hi`) where `c > 0` is past the
/// exit, and the entry is searched from there.
///
/// ```
/// use collide_core::roots::first_entry_after;
/// // (τ − 1)(τ − 3) = 3 − 4τ + τ²: negative on (1, 3). From τ = 2 it is inside; it leaves at
/// // 3 and never comes back: no entry.
/// assert_eq!(first_entry_after(&[3.0, -4.0, 1.0, 0.0, 0.0], 2.0, 10.0), None);
/// // (τ − 1)(τ − 3)(τ − 5)(τ − 7): inside on (1, 3), outside on (3, 5), back inside at 5.
/// let c = [105.0, -176.0, 86.0, -16.0, 1.0];
/// let t = first_entry_after(&c, 2.0, 10.0).unwrap();
/// assert!((t - 5.0).abs() < 1e-13);
/// ```
#[must_use]
pub fn first_entry_after(c: &Poly4, lo: Real, hi: Real) -> Option<Real> {
    if !(lo <= hi) || !c.iter().all(|x| x.is_finite()) {
        return None;
    }
    if eval(c, lo) > 0.0 {
        return first_entry(c, lo, hi);
    }
    let mut cuts = turning_points(c, lo, hi);
    cuts.push(hi);
    let out = cuts.into_iter().find(|&b| eval(c, b) > 0.0)?;
    first_entry(c, out, hi)
}

/// The earliest time in `[lo, hi]` at which a body whose gap is `c` (`> 0`: apart) and which
/// is in contact at `lo` (`c(lo) <= 0`) but not approaching there is *in contact and
/// approaching*: like [`first_entry_after`] (the next entry once it has been apart), except
/// that a body that never gets apart (`c` stays `<= 0` up to a local maximum, then falls: a
/// ball bouncing weakly off another that gravity brings back before rounding lets it out) is
/// in contact and approaching at that maximum, which is returned. An overlapping pair that
/// approaches collides at once (Bannerman et al. 2014, the crate's contact rule), so a pair
/// found touching can never pass through each other. With `c(lo) > 0`, [`first_entry`].
#[must_use]
pub fn first_contact_after(c: &Poly4, lo: Real, hi: Real) -> Option<Real> {
    if !(lo <= hi) || !c.iter().all(|x| x.is_finite()) {
        return None;
    }
    if eval(c, lo) > 0.0 {
        return first_entry(c, lo, hi);
    }
    let mut cuts = turning_points(c, lo, hi);
    cuts.push(hi);
    let d = derivative(c);
    let mut prev = lo;
    // Whether `c` rose on the piece before `prev` (unknown before the first piece).
    let mut rose: Option<bool> = None;
    for b in cuts {
        // `c` is monotone on (prev, b), and `c(prev) <= 0`.
        let rising = eval(&d, 0.5 * (prev + b)) > 0.0;
        if rose == Some(true) && !rising {
            return Some(prev);
        }
        if eval(c, b) > 0.0 {
            // Out during (prev, b): the next entry from b.
            return first_entry(c, b, hi);
        }
        rose = Some(rising);
        prev = b;
    }
    None
}

/// The coefficients of `f(τ) = |q + v·τ + ½·g·τ²|² − r²` (a point moving with initial offset
/// `q` from a fixed point, velocity `v` and acceleration `g`, against a circle of radius `r`):
/// `¼|g|²·τ⁴ + (v·g)·τ³ + (|v|² + q·g)·τ² + 2(q·v)·τ + |q|² − r²`. Its first entry
/// ([`first_entry`]) is the time a ball of radius `r` on a parabola first touches a corner
/// (`q` = centre − corner), or two balls with different accelerations first touch (relative
/// terms, `r` the sum of the radii).
#[must_use]
pub fn corner_quartic(q: Vec2, v: Vec2, g: Vec2, r: Real) -> Poly4 {
    [
        q.length_squared() - r * r,
        2.0 * q.dot(v),
        v.length_squared() + q.dot(g),
        v.dot(g),
        0.25 * g.length_squared(),
    ]
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `Π (τ − rᵢ)` expanded.
    fn from_roots(r: &[Real]) -> Poly4 {
        let mut c: Poly4 = [1.0, 0.0, 0.0, 0.0, 0.0];
        for &x in r {
            let mut n = [0.0; 5];
            for k in 0..4 {
                n[k + 1] += c[k];
                n[k] -= x * c[k];
            }
            c = n;
        }
        c
    }

    /// The independent reference: a dense scan of `f` (a closure, evaluated as written, not
    /// through the expanded coefficients) for its first sign change from `> 0` to `<= 0`, then
    /// plain bisection. Shared with the tests of `sweep_path.rs`.
    pub(crate) fn scan(f: impl Fn(Real) -> Real, lo: Real, hi: Real, n: usize) -> Option<Real> {
        if f(lo) <= 0.0 {
            return Some(lo);
        }
        let mut prev = lo;
        for i in 1..=n {
            let t = lo + (hi - lo) * (i as Real / n as Real);
            if f(t) <= 0.0 {
                let (mut a, mut b) = (prev, t);
                for _ in 0..200 {
                    let m = 0.5 * (a + b);
                    if f(m) > 0.0 {
                        a = m;
                    } else {
                        b = m;
                    }
                }
                return Some(b);
            }
            prev = t;
        }
        None
    }

    #[test]
    fn quadratic_roots_without_cancellation() {
        // τ² − (1e8 + 1e-8)τ + 1 = (τ − 1e8)(τ − 1e-8): the textbook formula loses the small
        // root entirely.
        let r = quadratic_roots(1.0, -(1e8 + 1e-8), 1.0);
        assert_eq!(r.len(), 2);
        assert!((r[0] - 1e-8).abs() <= 1e-8 * 1e-15, "{r:?}");
        assert!((r[1] - 1e8).abs() <= 1e8 * 1e-15, "{r:?}");
        assert_eq!(quadratic_roots(1.0, 0.0, 1.0), Vec::<Real>::new());
        assert_eq!(quadratic_roots(0.0, 2.0, -4.0), vec![2.0]);
        assert_eq!(quadratic_roots(1.0, -4.0, 4.0), vec![2.0, 2.0]);
    }

    #[test]
    fn first_entry_of_quartics_with_known_roots() {
        let c = from_roots(&[0.5, 0.75, 3.0, 7.0]);
        let t = first_entry(&c, 0.0, 10.0).unwrap();
        assert!((t - 0.5).abs() < 1e-14, "{t}");
        // Between 0.75 and 3 the quartic is positive; it enters again at 3.
        let t = first_entry(&c, 1.0, 10.0).unwrap();
        assert!((t - 3.0).abs() < 1e-14, "{t}");
        // A double root (a graze): positive on both sides up to rounding; two close roots
        // (a shallow dip below zero) are found.
        let graze = from_roots(&[2.0, 2.0, 5.0, 6.0]);
        let g = first_entry(&graze, 0.0, 4.0);
        assert!(g.is_none() || (g.unwrap() - 2.0).abs() < 1e-7, "{g:?}");
        let dip = from_roots(&[2.0, 2.000001, 5.0, 6.0]);
        let t = first_entry(&dip, 0.0, 4.0).unwrap();
        assert!((t - 2.0).abs() < 1e-9, "{t}");
        // Degree 0, 1, 2.
        assert_eq!(first_entry(&[1.0, 0.0, 0.0, 0.0, 0.0], 0.0, 1.0), None);
        assert_eq!(
            first_entry(&[1.0, -1.0, 0.0, 0.0, 0.0], 0.0, 3.0),
            Some(1.0)
        );
        let t = first_entry(&[4.0, 0.0, -1.0, 0.0, 0.0], 0.0, 3.0).unwrap();
        assert!((t - 2.0).abs() < 1e-15);
    }

    /// A ball thrown under gravity at a tile corner: the earliest contact from the quartic
    /// equals the reference scan of the distance itself, and the ball is outside just before
    /// and touching at it.
    #[test]
    fn a_thrown_ball_meets_a_corner_where_the_distance_says() {
        let (p0, v, g, r) = (
            Vec2::new(0.0, 0.0),
            Vec2::new(120.0, -200.0),
            Vec2::new(0.0, 400.0),
            5.0,
        );
        // The path's top is (60, −50) at t = 0.5; the corner is just past it, on the way down.
        let corner = Vec2::new(70.0, -48.0);
        let pos = |t: Real| p0 + v * t + g * (0.5 * t * t);
        let dist = |t: Real| (pos(t) - corner).length() - r;
        let c = corner_quartic(p0 - corner, v, g, r);
        let t = first_entry(&c, 0.0, 3.0).unwrap();
        let reference = scan(dist, 0.0, 3.0, 100_000).unwrap();
        assert!((t - reference).abs() < 1e-12, "{t} vs {reference}");
        assert!(dist(t).abs() < 1e-9, "{}", dist(t));
        assert!(dist(t - 1e-6) > 0.0);
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

        /// Random parabolas against random corners: never later than the dense scan of the
        /// distance (no missed earlier contact) and within 1e-9 s of it; `None` exactly when the
        /// scan finds no contact, unless the path only grazes the circle (the scan's samples
        /// and the quartic disagree on a contact shallower than rounding).
        #[test]
        fn quartic_entry_matches_a_scan_of_the_distance(
            qx in -200.0f64..200.0, qy in -200.0f64..200.0,
            vx in -300.0f64..300.0, vy in -300.0f64..300.0,
            gx in -500.0f64..500.0, gy in -500.0f64..500.0,
            r in 0.5f64..30.0,
        ) {
            let (q, v, g) = (Vec2::new(qx, qy), Vec2::new(vx, vy), Vec2::new(gx, gy));
            let f = |t: Real| (q + v * t + g * (0.5 * t * t)).length_squared() - r * r;
            let c = corner_quartic(q, v, g, r);
            let got = first_entry(&c, 0.0, 2.0);
            let reference = scan(f, 0.0, 2.0, 20_000);
            match (got, reference) {
                (Some(a), Some(b)) => {
                    // Earlier than the scan only for a contact between its samples: a real one.
                    prop_assert!((a - b).abs() < 1e-9 || (a < b && f(a) <= 1e-9 * (1.0 + r * r)), "{a} vs {b}");
                }
                (None, Some(b)) => prop_assert!(false, "missed the contact at {b}"),
                (Some(a), None) => {
                    // Only a contact between the scan's samples (shallow, short) may be missed
                    // by the scan: the quartic's entry must be a real one.
                    prop_assert!(f(a) <= 1e-9 * (1.0 + r * r), "entry at {a} with f = {}", f(a));
                }
                (None, None) => {}
            }
            if let Some(a) = got {
                // The certified bracket: outside just before (unless at the start).
                if a > 0.0 {
                    prop_assert!(eval(&c, a - a * 1e-12 - 1e-300) > -1e-9 * (1.0 + r * r));
                }
            }
        }
    }
}
