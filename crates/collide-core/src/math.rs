//! Scalar and vector types of the workspace, and the few named numbers.
//!
//! See the crate-level `# Conventions`: x right, y down, world units, seconds, `f64`.

/// The scalar of all world state: `f64`, so that energy and positions stay exact to ~1e-16
/// relative per operation.
pub type Real = f64;

/// A 2D vector of [`Real`] in world units (position) or units per second (velocity).
pub type Vec2 = glam::DVec2;

/// `1/sqrt(2)`, the component of a unit diagonal normal (used for exact corner-to-corner hits
/// and degenerate corner contacts). Written out so that no platform `sqrt` rounding enters.
pub const FRAC_1_SQRT_2: Real = std::f64::consts::FRAC_1_SQRT_2;

/// `(sin θ, cos θ)` of an angle `θ` in radians: the only trigonometry of the workspace's
/// simulation (flippers and turning capsules).
///
/// Computed by [`libm::sincos`], a pure-Rust port of musl's `sin`/`cos` (argument reduction by
/// `rem_pio2`, then fixed polynomials in `+ − ×`), so the result is the same bits on every
/// target: std's `f64::sin_cos` calls the platform's C library instead (glibc, musl, macOS,
/// Windows, a browser's), whose last bit is not specified by IEEE 754 and differs between
/// them. Accuracy: under 1 ulp; `θ` infinite or NaN gives NaN.
#[must_use]
#[inline]
pub fn sin_cos(angle: Real) -> (Real, Real) {
    libm::sincos(angle)
}

/// Sorts a short list of times (a handful of roots or cuts) in the total order of
/// [`f64::total_cmp`], by insertion: the result is the one any sort gives (values equal in
/// that order have the same bits), and the code is a few instructions where a library sort
/// is several kilobytes of WebAssembly. Quadratic: for lists of at most a few dozen values.
pub(crate) fn sort_times(v: &mut [Real]) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && v[j - 1].total_cmp(&v[j]).is_gt() {
            v.swap(j - 1, j);
            j -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_times_gives_the_bits_a_library_sort_gives() {
        // 2 000 lists of 0 to 24 values drawn from a small pool with repeats, both zeros,
        // infinities and NaN (xorshift64, fixed seed), against `sort_by(total_cmp)`.
        let pool = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            1e-300,
            -1e300,
            Real::INFINITY,
            Real::NEG_INFINITY,
            Real::NAN,
            3.25,
            1.0 + Real::EPSILON,
        ];
        let mut s: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        };
        for _ in 0..2000 {
            let n = (next() % 25) as usize;
            let v: Vec<Real> = (0..n).map(|_| pool[(next() % 12) as usize]).collect();
            let mut a = v.clone();
            let mut b = v.clone();
            sort_times(&mut a);
            b.sort_by(Real::total_cmp);
            let bits = |x: &[Real]| x.iter().map(|t| t.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&a), bits(&b), "{v:?}");
        }
    }
}
