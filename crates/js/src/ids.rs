//! Body ids as JavaScript numbers.
//!
//! collide's ids are a slot index and a generation (`collide_world::BallId` and the other ids), 32 bits each. A
//! JavaScript number holds integers exactly up to 2⁵³, so the package writes an id as
//! `generation · 2²² + index`: exact for every index below 2²² (the most balls a world holds,
//! `collide_world::limits::MAX_BALLS`) and every generation below 2³¹ (a slot reused two
//! billion times). An id past that range is refused with an error, never rounded.

use collide_world::{BallId, CharacterId, FlipperId, RectId, ShapeId};

/// The multiplier of the generation: 2²².
const INDEX_SPAN: f64 = 4_194_304.0;
/// Indices below this fit (2²²).
const MAX_INDEX: u32 = 1 << 22;
/// Generations below this fit (2³¹).
const MAX_GENERATION: u32 = 1 << 31;

/// An id type of collide-world: its parts and how to make one from them.
pub(crate) trait Id: Copy {
    /// What the id names, for error messages (`ball id`).
    const WHAT: &'static str;
    /// The slot index and generation.
    fn parts(self) -> (u32, u32);
    /// The id of `index` and `generation`.
    fn from_parts(index: u32, generation: u32) -> Self;
}

macro_rules! id_impl {
    ($t:ty, $what:literal) => {
        impl Id for $t {
            const WHAT: &'static str = $what;
            fn parts(self) -> (u32, u32) {
                (self.index(), self.generation())
            }
            fn from_parts(index: u32, generation: u32) -> Self {
                <$t>::from_bits(u64::from(generation) << 32 | u64::from(index))
            }
        }
    };
}

id_impl!(BallId, "ball id");
id_impl!(RectId, "rect id");
id_impl!(ShapeId, "shape id");
id_impl!(FlipperId, "flipper id");
id_impl!(CharacterId, "character id");

/// The JavaScript number of `id`, or an error message when it is outside the exact range.
pub(crate) fn to_js<I: Id>(id: I) -> Result<f64, String> {
    let (index, generation) = id.parts();
    if index >= MAX_INDEX || generation >= MAX_GENERATION {
        return Err(format!(
            "{}: slot {index} generation {generation} is beyond the ids a JavaScript number \
             holds exactly (index < 2^22, generation < 2^31)",
            I::WHAT
        ));
    }
    Ok(f64::from(generation) * INDEX_SPAN + f64::from(index))
}

/// The id a JavaScript number names, or an error message naming the bad value (not a
/// non-negative integer in the range [`to_js`] writes).
pub(crate) fn from_js<I: Id>(value: f64) -> Result<I, String> {
    let max = f64::from(MAX_GENERATION) * INDEX_SPAN;
    if !(value.is_finite() && value >= 0.0 && value < max && value.fract() == 0.0) {
        return Err(format!(
            "{}: {value} is not an id (a non-negative integer below 2^53 returned by the world)",
            I::WHAT
        ));
    }
    let generation = (value / INDEX_SPAN).floor();
    let index = value - generation * INDEX_SPAN;
    // Both are integers in range: generation < 2^31, index < 2^22.
    Ok(I::from_parts(index as u32, generation as u32))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_round_trip_through_numbers_at_the_edges_of_the_range() {
        for (index, generation) in [(0, 0), (1, 0), (0, 1), (MAX_INDEX - 1, MAX_GENERATION - 1)] {
            let id = BallId::from_parts(index, generation);
            let n = to_js(id).unwrap();
            assert_eq!(n, f64::from(generation) * 4_194_304.0 + f64::from(index));
            let back: BallId = from_js(n).unwrap();
            assert_eq!((back.index(), back.generation()), (index, generation));
        }
    }

    #[test]
    fn ids_outside_the_exact_range_are_refused() {
        assert!(to_js(RectId::from_parts(MAX_INDEX, 0)).is_err());
        assert!(to_js(RectId::from_parts(0, MAX_GENERATION)).is_err());
        for bad in [-1.0, 0.5, f64::NAN, f64::INFINITY, 2f64.powi(53)] {
            let e = from_js::<BallId>(bad).unwrap_err();
            assert!(e.starts_with("ball id: "), "{e}");
        }
    }
}
