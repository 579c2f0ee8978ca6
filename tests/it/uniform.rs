//! A seeded source of uniform random numbers for the tests that draw random cases themselves
//! (without proptest): the same cases on every run and every platform.

/// A xorshift generator (G. Marsaglia, "Xorshift RNGs", Journal of Statistical Software 8,
/// 2003: shifts 13, 7, 17) of uniform numbers in `[0, 1)` with 53 random bits, seeded per
/// test; `seed` must not be zero (the generator would stay at zero).
pub fn uniform(mut seed: u64) -> impl FnMut() -> f64 {
    move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed >> 11) as f64 / (1u64 << 53) as f64
    }
}
