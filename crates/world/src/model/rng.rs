//! The one random number generator of collide: xorshift64* (Vigna, "An experimental
//! exploration of Marsaglia's xorshift generators, scrambled", ACM TOMS 2016), with a fixed
//! seeding rule so that a seed gives the same numbers on every platform and in every language
//! that reimplements it (the arena of the scene format and the spawner depend on it).
//!
//! Only integer operations, one `u64 -> f64` conversion, IEEE-754 `+ - * /` and `sqrt` are
//! used: no trigonometry, so results are bit-identical everywhere.

use collide_core::{Real, Vec2};

/// The xorshift64* generator.
///
/// - Seeding: `state = seed.wrapping_mul(0x9E3779B97F4A7C15) | 1` (never zero).
/// - Step: `x ^= x >> 12; x ^= x << 25; x ^= x >> 27; state = x`; output
///   `x.wrapping_mul(0x2545F4914F6CDD1D)`.
///
/// ```
/// use collide_world::rng::XorShift64Star;
/// let mut rng = XorShift64Star::new(1);
/// // Worked out independently (Python, see the unit tests).
/// assert_eq!(rng.next_u64(), 0x0d83_b3e2_9a21_487a);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct XorShift64Star {
    state: u64,
}

impl XorShift64Star {
    /// A generator seeded with `seed` (any value, zero included).
    #[must_use]
    pub const fn new(seed: u64) -> Self {
        Self {
            state: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
        }
    }

    /// The next 64 random bits.
    #[must_use = "drawing a number advances the generator"]
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.state;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.state = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A uniform number in `[0, 1)`: the top 53 bits of [`next_u64`](Self::next_u64) divided
    /// by 2^53 (exact, every result is a multiple of 2^-53).
    #[must_use = "drawing a number advances the generator"]
    pub fn next_f64(&mut self) -> Real {
        // 2^53 = 9007199254740992, exactly representable.
        (self.next_u64() >> 11) as Real / 9_007_199_254_740_992.0
    }

    /// A uniform number in `[lo, hi)` (for `lo < hi`): `lo + (hi - lo) * next_f64()`. Draws
    /// one number. With `lo == hi` it returns `lo`; rounding may give `hi` itself when the
    /// interval is tiny compared to its bounds.
    #[must_use = "drawing a number advances the generator"]
    pub fn range_f64(&mut self, lo: Real, hi: Real) -> Real {
        lo + (hi - lo) * self.next_f64()
    }

    /// A uniformly distributed random unit vector, without trigonometry: draws pairs
    /// `x = 2·next_f64() − 1`, `y = 2·next_f64() − 1` until `1e-4 <= x² + y² <= 1` (the
    /// point lies in the unit disc and not too close to its centre; accepted with
    /// probability ≈ π/4), then returns `(x, y) / sqrt(x² + y²)`. Draws two values per
    /// attempt: 4/π ≈ 1.27 attempts, ≈ 2.55 values, on average. The result has length 1
    /// within a few ulps.
    #[must_use = "drawing a number advances the generator"]
    pub fn unit_vector(&mut self) -> Vec2 {
        loop {
            let x = 2.0 * self.next_f64() - 1.0;
            let y = 2.0 * self.next_f64() - 1.0;
            let len2 = x * x + y * y;
            if !(1e-4..=1.0).contains(&len2) {
                continue;
            }
            let len = len2.sqrt();
            return Vec2::new(x / len, y / len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Expected values computed independently with this Python script (run while writing
    // the tests):
    //
    //   M = (1 << 64) - 1
    //   class R:
    //       def __init__(s, seed): s.s = ((seed * 0x9E3779B97F4A7C15) & M) | 1
    //       def next(s):
    //           x = s.s; x ^= x >> 12; x ^= (x << 25) & M; x ^= x >> 27; s.s = x
    //           return (x * 0x2545F4914F6CDD1D) & M
    //       def f(s): return (s.next() >> 11) / 2**53
    //   def unit(r):
    //       while True:
    //           x = r.f() * 2 - 1; y = r.f() * 2 - 1; l = x * x + y * y
    //           if l > 1 or l < 1e-4: continue
    //           s = math.sqrt(l); return (x / s, y / s)
    //
    //   R(1).next() x3 -> 0xd83b3e29a21487a, 0x54c44c79f1fe9d67, 0xa845f342007a0e78
    //   R(1).f()    x3 -> 0.052790873358508184, 0.33112028100185353, 0.6573173557412489
    //   R(0).next() x2 -> 0x47e4ce4b896cdd1d, 0xabcfa6a8e079651d   (state 0 | 1 = 1)
    //   unit(R(1))  x2 -> (-0.9355176959997784, -0.3532798330944836),
    //                     (0.9979698640685937, -0.06368791416676065)

    #[test]
    fn first_outputs_seed_1() {
        let mut r = XorShift64Star::new(1);
        assert_eq!(r.next_u64(), 0x0d83_b3e2_9a21_487a);
        assert_eq!(r.next_u64(), 0x54c4_4c79_f1fe_9d67);
        assert_eq!(r.next_u64(), 0xa845_f342_007a_0e78);
    }

    #[test]
    fn seed_0_is_not_stuck() {
        let mut r = XorShift64Star::new(0);
        assert_eq!(r.next_u64(), 0x47e4_ce4b_896c_dd1d);
        assert_eq!(r.next_u64(), 0xabcf_a6a8_e079_651d);
    }

    #[test]
    fn first_f64_seed_1() {
        let mut r = XorShift64Star::new(1);
        // Bit-exact: the conversion and the division by 2^53 are exact.
        assert_eq!(r.next_f64(), 0.052_790_873_358_508_184);
        assert_eq!(r.next_f64(), 0.331_120_281_001_853_53);
        assert_eq!(r.next_f64(), 0.657_317_355_741_248_9);
    }

    #[test]
    fn f64_in_unit_interval() {
        let mut r = XorShift64Star::new(42);
        for _ in 0..100_000 {
            let v = r.next_f64();
            assert!((0.0..1.0).contains(&v), "{v}");
        }
    }

    #[test]
    fn range_f64_bounds() {
        let mut r = XorShift64Star::new(7);
        for _ in 0..10_000 {
            let v = r.range_f64(-3.0, 5.0);
            assert!((-3.0..5.0).contains(&v), "{v}");
        }
        assert_eq!(r.range_f64(2.0, 2.0), 2.0);
    }

    #[test]
    fn unit_vector_seed_1() {
        let mut r = XorShift64Star::new(1);
        assert_eq!(
            r.unit_vector(),
            Vec2::new(-0.935_517_695_999_778_4, -0.353_279_833_094_483_6)
        );
        assert_eq!(
            r.unit_vector(),
            Vec2::new(0.997_969_864_068_593_7, -0.063_687_914_166_760_65)
        );
    }

    #[test]
    fn unit_vectors_are_unit_and_spread() {
        let mut r = XorShift64Star::new(3);
        let n = 40_000;
        let mut sum = Vec2::ZERO;
        let mut quadrants = [0usize; 4];
        for _ in 0..n {
            let v = r.unit_vector();
            // One division of each component by the same rounded length: |v| = 1 within a
            // few ulps.
            assert!((v.length() - 1.0).abs() < 1e-15, "{v}");
            sum += v;
            quadrants[usize::from(v.x < 0.0) + 2 * usize::from(v.y < 0.0)] += 1;
        }
        // Uniform directions: the mean vector has length ~ 1/sqrt(2n) ≈ 0.0035; allow 0.02.
        assert!((sum / n as f64).length() < 0.02, "{sum}");
        // Each quadrant gets n/4 = 10000 ± a few sigma (sigma ≈ 87); allow ±500.
        for q in quadrants {
            assert!((9_500..=10_500).contains(&q), "{quadrants:?}");
        }
    }

    #[test]
    fn same_seed_same_sequence() {
        let mut a = XorShift64Star::new(12345);
        let mut b = XorShift64Star::new(12345);
        for _ in 0..1000 {
            assert_eq!(a.next_u64(), b.next_u64());
        }
    }
}
