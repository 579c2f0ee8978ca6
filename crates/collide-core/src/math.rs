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
