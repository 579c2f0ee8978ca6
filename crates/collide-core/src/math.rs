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
