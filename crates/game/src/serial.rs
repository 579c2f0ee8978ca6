//! Serde helpers of the game's types (the replay format, `docs/replay-format.md`): vectors as
//! `[x, y]`, numbers read within the scene format's bounds, a pointer that may be non-finite,
//! hashes as 16 hex digits.
//!
//! The bounded readers refuse what the scene format refuses ([`Bound`], [`check_count`]), so a
//! field is checked where it is declared (`#[serde(deserialize_with = "...")]`) and its error
//! names the field through the deserializer's path.

use std::fmt;

use collide_core::{Real, Vec2};
use collide_world::limits::{check_count, Bound, MAX_BALLS, MAX_EVENTS_PER_BODY};
use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

/// [`MAX_BALLS`] as the bound of [`at_most`].
pub(crate) const BALLS: u64 = MAX_BALLS as u64;

/// [`MAX_EVENTS_PER_BODY`] as the bound of [`at_most`].
pub(crate) const EVENTS_PER_BODY: u64 = MAX_EVENTS_PER_BODY as u64;

fn bounded<'de, D: Deserializer<'de>>(d: D, bound: Bound) -> Result<Real, D::Error> {
    let x = Real::deserialize(d)?;
    bound.check(x).map_err(de::Error::custom)
}

/// A number within [`Bound::NonNeg`] (finite, `0 ..= 1e9`): speeds, lengths, durations.
pub(crate) fn non_neg<'de, D: Deserializer<'de>>(d: D) -> Result<Real, D::Error> {
    bounded(d, Bound::NonNeg)
}

/// A number within [`Bound::Unit`] (`[0, 1]`): fractions, probabilities.
pub(crate) fn unit<'de, D: Deserializer<'de>>(d: D) -> Result<Real, D::Error> {
    bounded(d, Bound::Unit)
}

/// A number within [`Bound::Coord`] (finite, `|x| <= 1e9`).
pub(crate) fn coord<'de, D: Deserializer<'de>>(d: D) -> Result<Real, D::Error> {
    bounded(d, Bound::Coord)
}

/// A whole number from 0 to `MAX`.
pub(crate) fn at_most<'de, D, T, const MAX: u64>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Copy + TryInto<u64> + fmt::Display,
{
    let n = T::deserialize(d)?;
    let wide: u64 = n
        .try_into()
        .map_err(|_| de::Error::custom(format!("expected a whole number from 0 to {MAX}")))?;
    check_count(wide, 0, MAX)
        .map(|_| n)
        .map_err(de::Error::custom)
}

/// A whole number from 1 (a hash interval, a run of steps).
pub(crate) fn at_least_one<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de> + Copy + Into<u64> + fmt::Display,
{
    let n = T::deserialize(d)?;
    if n.into() >= 1 {
        Ok(n)
    } else {
        Err(de::Error::custom(format!(
            "expected a whole number from 1, found {n}"
        )))
    }
}

/// `true`: the default of a flag that is on unless a file says otherwise.
pub(crate) fn yes() -> bool {
    true
}

/// Whether a flag is on, its default (`skip_serializing_if` of such a flag).
#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
pub(crate) fn is_true(b: &bool) -> bool {
    *b
}

/// `true` for 0 (`skip_serializing_if` of the input's directions).
#[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
pub(crate) fn is_zero(n: &i8) -> bool {
    *n == 0
}

/// A [`Vec2`] as `[x, y]`.
pub(crate) mod vec2 {
    use super::{Deserialize, Deserializer, Real, Serialize, Serializer, Vec2};

    /// Writes `[x, y]`.
    pub(crate) fn serialize<S: Serializer>(v: &Vec2, s: S) -> Result<S::Ok, S::Error> {
        [v.x, v.y].serialize(s)
    }

    /// Reads `[x, y]`.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec2, D::Error> {
        <[Real; 2]>::deserialize(d).map(Vec2::from)
    }
}

/// `[x, y]`, both within [`Bound::NonNeg`] (sizes).
pub(crate) fn non_neg_vec2<'de, D: Deserializer<'de>>(d: D) -> Result<Vec2, D::Error> {
    let v = vec2::deserialize(d)?;
    Bound::NonNeg.check_vec2(v).map_err(de::Error::custom)
}

/// A number as text when JSON has no number for it: `inf`, `-inf`, or for a NaN `0x` and the
/// 16 hex digits of its bits (a finite number is a JSON number).
fn special(x: Real) -> String {
    if x.is_nan() {
        format!("0x{:016x}", x.to_bits())
    } else if x > 0.0 {
        "inf".to_owned()
    } else {
        "-inf".to_owned()
    }
}

/// Reads [`special`]'s text back, bit for bit.
fn parse_special(s: &str) -> Option<Real> {
    match s {
        "inf" => Some(Real::INFINITY),
        "-inf" => Some(Real::NEG_INFINITY),
        _ => {
            let hex = s.strip_prefix("0x")?;
            if hex.len() != 16 {
                return None;
            }
            u64::from_str_radix(hex, 16)
                .ok()
                .map(Real::from_bits)
                .filter(|x| x.is_nan())
        }
    }
}

/// An optional `f64` that may be non-finite (the pointer of a step's input: a frontend may
/// pass any value, and the game ignores a non-finite one). A finite value is a JSON number,
/// written in the shortest form that reads back to the same bits; `inf`, `-inf` and a NaN
/// (`0x` + its 16 hex bits) are strings; `None` is left out (or `null`).
pub(crate) mod opt_real {
    use super::{de, fmt, parse_special, special, Deserializer, Real, Serializer, Visitor};

    /// Writes the value (`None` is skipped by the field's `skip_serializing_if`).
    #[allow(clippy::ref_option)] // serde passes a reference
    pub(crate) fn serialize<S: Serializer>(v: &Option<Real>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            None => s.serialize_none(),
            Some(x) if x.is_finite() => s.serialize_f64(*x),
            Some(x) => s.serialize_str(&special(*x)),
        }
    }

    struct V;

    impl<'de> Visitor<'de> for V {
        type Value = Option<Real>;

        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a number, `inf`, `-inf`, `0x` and the 16 hex digits of a NaN, or null")
        }

        fn visit_f64<E: de::Error>(self, x: f64) -> Result<Self::Value, E> {
            Ok(Some(x))
        }

        #[allow(clippy::cast_precision_loss)] // correctly rounded, as JSON's own reading
        fn visit_u64<E: de::Error>(self, x: u64) -> Result<Self::Value, E> {
            Ok(Some(x as Real))
        }

        #[allow(clippy::cast_precision_loss)]
        fn visit_i64<E: de::Error>(self, x: i64) -> Result<Self::Value, E> {
            Ok(Some(x as Real))
        }

        fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
            parse_special(s)
                .map(Some)
                .ok_or_else(|| E::invalid_value(de::Unexpected::Str(s), &self))
        }

        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    }

    /// Reads the value.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Real>, D::Error> {
        d.deserialize_any(V)
    }
}

/// A `u64` hash as exactly 16 hex digits (`432a909781d0a56d`).
pub(crate) mod hex64 {
    use super::{de, Deserialize, Deserializer, Serializer};

    /// Writes 16 lowercase hex digits.
    #[allow(clippy::trivially_copy_pass_by_ref)] // serde passes a reference
    pub(crate) fn serialize<S: Serializer>(h: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format!("{h:016x}"))
    }

    /// Reads 16 hex digits.
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let s = String::deserialize(d)?;
        if s.len() == 16 && s.bytes().all(|b| b.is_ascii_hexdigit()) {
            u64::from_str_radix(&s, 16).map_err(de::Error::custom)
        } else {
            Err(de::Error::custom(format!("`{s}` is not 16 hex digits")))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specials_read_back_bit_for_bit() {
        for x in [
            Real::INFINITY,
            Real::NEG_INFINITY,
            Real::NAN,
            -Real::NAN,
            Real::from_bits(0x7ff8_0000_0000_1234),
        ] {
            let s = special(x);
            assert_eq!(
                parse_special(&s).map(Real::to_bits),
                Some(x.to_bits()),
                "{s}"
            );
        }
        assert_eq!(special(Real::NAN), "0x7ff8000000000000");
        // Hex that is not a NaN, or the wrong length: refused.
        for s in ["0x3ff0000000000000", "0x12", "nan", "Infinity", ""] {
            assert!(parse_special(s).is_none(), "{s}");
        }
    }
}
