//! Hard limits that protect the process from hostile or mistaken input.
//!
//! Every limit is checked *before* the memory it guards is allocated: a scene or level that
//! asks for more is rejected with a typed error ([`crate::WorldError`], [`crate::GridError`],
//! [`crate::LevelError`], and the scene loader's errors) naming the field, never with a panic
//! or an out-of-memory abort. The numbers are far above anything an arcade game needs (the real
//! BricksBeater levels are 51 × 31 cells with at most 1024 balls) and small enough that the
//! largest accepted world fits in a few hundred MiB.

use collide_core::Real;

/// Most cells a tile grid may have (`cols * rows`): 2^24 = 16 777 216 cells, 32 MiB of
/// [`crate::Cell`]s.
pub const MAX_GRID_CELLS: usize = 1 << 24;

/// Most columns, and most rows, a tile grid may have: 2^16 = 65 536 (the product is further
/// bounded by [`MAX_GRID_CELLS`]).
pub const MAX_GRID_SIDE: usize = 1 << 16;

/// Most balls a scene may ask for (explicit `[[ball]]`s plus `[spawn] count`): 2^22 = 4 194 304.
pub const MAX_BALLS: usize = 1 << 22;

/// Most explicit rectangles (`[[rect]]`) a scene may have: 2^16 = 65 536.
pub const MAX_RECTS: usize = 1 << 16;

/// Upper bound of [`crate::StepConfig::max_events_per_body`]: 65 536 events per body per step.
pub const MAX_EVENTS_PER_BODY: u32 = 1 << 16;

/// Largest absolute value of any coordinate, size or velocity component in a scene file, in
/// world units (or units/s): 10^9. Far beyond any screen, and small enough that sums and
/// products of coordinates keep ~7 significant decimal digits below one unit in `f64`.
pub const MAX_COORD: f64 = 1.0e9;

/// Most worker threads [`crate::World::set_threads`] accepts (more are clamped to this).
pub const MAX_THREADS: usize = 256;

/// Whether the target runs one thread only (WebAssembly without WASI threads): there
/// [`crate::World::set_threads`] keeps 1, and the parallel step is compiled out (its code
/// would never run; the browser package is smaller without it).
pub(crate) const SINGLE_THREADED_TARGET: bool = cfg!(all(
    target_family = "wasm",
    not(all(target_os = "wasi", target_feature = "atomics"))
));

/// What a number given to collide must satisfy: the one set of checks used by the scene
/// format (the `collide-scene` crate), the world's constructor and setters
/// ([`crate::World::new`], [`crate::World::add_ball`], [`crate::World::set_ball_velocity`],
/// ...), the `collide` command line's flags and a replay's `option` lines. Every bound also
/// requires a finite value (no NaN, no infinity).
///
/// Components bounded by [`MAX_COORD`] keep every square finite: `|v|² <= 2·10¹⁸` for a
/// velocity whose components are within ±10⁹, where a speed of 1e155 (finite, but whose square
/// is infinite) or `f64::MAX` is refused.
///
/// ```
/// use collide_world::limits::Bound;
/// assert_eq!(Bound::Coord.check(-3.5), Ok(-3.5));
/// assert!(Bound::Coord.check(1e155).is_err()); // 1e155² overflows to infinity
/// assert!(Bound::Positive.check(0.0).is_err());
/// assert_eq!(Bound::Unit.check(f64::NAN).unwrap_err().to_string(), "expected a finite number, found NaN");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Bound {
    /// Finite, `|v| <= MAX_COORD`: coordinates, velocity components, offsets.
    Coord,
    /// Finite, `0 <= v <= MAX_COORD`: radii, densities, speeds, lengths, durations.
    NonNeg,
    /// Finite, `0 < v <= MAX_COORD`: world sizes, cell sides, the time step.
    Positive,
    /// Finite, `0 <= v <= 1`: the world's restitution, probabilities, fractions.
    Unit,
    /// Finite, `0 <= v <= MAX_RESTITUTION` (10, [`MAX_RESTITUTION`]): a
    /// body's or cell kind's own restitution (above 1: a kicker, a bumper).
    Restitution,
    /// Finite, `|v| <= MAX_GRAVITY_SCALE` (1000, [`MAX_GRAVITY_SCALE`]): a ball's
    /// multiple of the world's gravity.
    GravityScale,
}

/// A number outside its [`Bound`]: displays as `expected ..., found ...`.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
#[error("expected {}, found {value:?}", if value.is_finite() { bound.expected() } else { "a finite number" })]
pub struct OutOfBounds {
    /// The bound that was not met.
    pub bound: Bound,
    /// The value given.
    pub value: f64,
}

impl Bound {
    /// What the bound expects, in words (`"a number between -1e9 and 1e9"`).
    #[must_use]
    pub const fn expected(self) -> &'static str {
        match self {
            Bound::Coord => "a number between -1e9 and 1e9",
            Bound::NonNeg => "a number >= 0 (and <= 1e9)",
            Bound::Positive => "a number > 0 (and <= 1e9)",
            Bound::Unit => "a number between 0 and 1",
            Bound::Restitution => "a number between 0 and 10",
            Bound::GravityScale => "a number between -1000 and 1000",
        }
    }

    /// Whether `v` is finite and within the bound.
    #[must_use]
    pub fn contains(self, v: f64) -> bool {
        v.is_finite()
            && match self {
                Bound::Coord => v.abs() <= MAX_COORD,
                Bound::NonNeg => (0.0..=MAX_COORD).contains(&v),
                Bound::Positive => v > 0.0 && v <= MAX_COORD,
                Bound::Unit => (0.0..=1.0).contains(&v),
                Bound::Restitution => (0.0..=MAX_RESTITUTION).contains(&v),
                Bound::GravityScale => v.abs() <= MAX_GRAVITY_SCALE,
            }
    }

    /// `v` itself when it is within the bound.
    ///
    /// # Errors
    /// [`OutOfBounds`] otherwise (NaN and infinities included).
    pub fn check(self, v: f64) -> Result<f64, OutOfBounds> {
        if self.contains(v) {
            Ok(v)
        } else {
            Err(OutOfBounds {
                bound: self,
                value: v,
            })
        }
    }

    /// Both components of `v` within the bound.
    ///
    /// # Errors
    /// [`OutOfBounds`] for the first component (x, then y) outside it.
    pub fn check_vec2(self, v: collide_core::Vec2) -> Result<collide_core::Vec2, OutOfBounds> {
        self.check(v.x)?;
        self.check(v.y)?;
        Ok(v)
    }
}

/// `n` when `lo <= n <= hi`; else what is expected (`"a whole number from 1 to 65536, found 0"`).
///
/// # Errors
/// The problem, as text, when `n` is out of range.
pub fn check_count<T>(n: T, lo: T, hi: T) -> Result<T, String>
where
    T: PartialOrd + Copy + std::fmt::Display,
{
    if lo <= n && n <= hi {
        Ok(n)
    } else {
        Err(format!(
            "expected a whole number from {lo} to {hi}, found {n}"
        ))
    }
}

/// Largest restitution a body or cell kind may have: 10 ([`Bound::Restitution`]). The world's
/// own [`crate::StepConfig::restitution`] stays in `[0, 1]`.
pub const MAX_RESTITUTION: Real = 10.0;

/// The speed, in units/s, up to which a bounce with restitution above 1 may raise the normal
/// relative speed: 10 000 units/s (a ball crossing a 1000-unit world in 6 steps of 1/60 s).
/// A body already faster bounces elastically off a kicker (see `material::capped_restitution`).
pub const MAX_KICK_SPEED: Real = 10_000.0;

/// The largest magnitude of [`crate::BallDesc::gravity_scale`]: 1000.
pub const MAX_GRAVITY_SCALE: Real = 1000.0;

/// The most flippers a world holds (each ball's search visits every flipper it can reach).
pub const MAX_FLIPPERS: usize = 1024;

/// The most characters a world holds ([`crate::Character`]: each one's move searches the
/// level on its own).
pub const MAX_CHARACTERS: usize = 65_536;

/// The most contacts one character's move and slide handles in one step
/// ([`crate::Character`]); past it, the character stops where it is for the rest of the step
/// and the step reports [`crate::Event::IterationLimit`].
pub const MAX_CHARACTER_CONTACTS: usize = 16;

/// The largest magnitude of a flipper angle, radians: two full turns either way (angles far
/// from zero would lose precision in `sin` and `cos`).
pub const MAX_FLIPPER_ANGLE: Real = 4.0 * std::f64::consts::PI;

/// The largest angular speed of a flipper, radians per second (a real flipper swings at
/// 20 to 60).
pub const MAX_FLIPPER_ANGULAR_SPEED: Real = 1.0e4;

/// The most static shapes a world holds.
pub const MAX_SHAPES: usize = 1 << 16;

#[cfg(test)]
mod tests {
    use super::*;

    // A grid at the side limit in one direction must still be possible in the other.
    const _: () = assert!(MAX_GRID_SIDE <= MAX_GRID_CELLS);

    #[test]
    fn bounds_refuse_non_finite_and_huge_values() {
        for b in [
            Bound::Coord,
            Bound::NonNeg,
            Bound::Positive,
            Bound::Unit,
            Bound::Restitution,
        ] {
            for v in [
                f64::NAN,
                f64::INFINITY,
                f64::NEG_INFINITY,
                f64::MAX,
                1e200,
                1e155,
                2e9,
            ] {
                assert!(b.check(v).is_err(), "{b:?} accepted {v}");
            }
        }
        assert_eq!(Bound::Coord.check(-MAX_COORD), Ok(-MAX_COORD));
        assert_eq!(Bound::NonNeg.check(0.0), Ok(0.0));
        assert!(Bound::NonNeg.check(-1e-300).is_err());
        assert!(Bound::Positive.check(0.0).is_err());
        assert!(Bound::Unit.check(1.0 + f64::EPSILON).is_err());
        assert_eq!(Bound::Restitution.check(10.0), Ok(10.0));
        assert!(Bound::Restitution.check(10.000_000_000_000_002).is_err());
        assert!(Bound::Restitution.check(-0.1).is_err());
        let e = Bound::Coord.check(1e200).unwrap_err();
        assert_eq!(
            e.to_string(),
            "expected a number between -1e9 and 1e9, found 1e200"
        );
        assert_eq!(
            Bound::Positive
                .check(f64::INFINITY)
                .unwrap_err()
                .to_string(),
            "expected a finite number, found inf"
        );
        // A velocity within the bound never has an infinite square.
        let v = collide_core::Vec2::splat(MAX_COORD);
        assert!(Bound::Coord
            .check_vec2(v)
            .unwrap()
            .length_squared()
            .is_finite());
        assert!(Bound::Coord
            .check_vec2(collide_core::Vec2::new(0.0, 1e155))
            .is_err());
        assert_eq!(
            check_count(0u32, 1, 5).unwrap_err(),
            "expected a whole number from 1 to 5, found 0"
        );
        assert_eq!(check_count(5u32, 1, 5), Ok(5));
    }

    #[test]
    fn limits_have_the_documented_values() {
        assert_eq!(MAX_GRID_CELLS, 16_777_216);
        assert_eq!(MAX_BALLS, 4_194_304);
        assert_eq!(MAX_RECTS, 65_536);
        assert_eq!(MAX_EVENTS_PER_BODY, 65_536);
    }
}
