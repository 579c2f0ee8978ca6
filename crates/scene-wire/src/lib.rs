//! # collide-scene-wire
//!
//! A [`Scene`] (the plain description `collide_world::World::from_scene` builds a world from)
//! as compact bytes: [`to_bytes`] and [`from_bytes`]. The npm package `collide` (`crates/js`)
//! uses it to keep the TOML parser out of its main WebAssembly module: a second, lazily
//! loaded module (`crates/js-toml`) parses a TOML scene with `collide-scene` and returns these
//! bytes, and the main module builds the world from them (`World.fromScene`).
//!
//! The bytes are postcard (a compact binary serde format: varints, `f64`s as their 8 bytes,
//! so every number comes back bit for bit) of a private mirror of [`Scene`] that starts with
//! [`WIRE_VERSION`]. Both conversions destructure every description type field by field, so
//! a field added to `collide-world`'s descriptions fails to compile here instead of being
//! dropped on the way.
//!
//! [`from_bytes`] reads untrusted bytes: it never panics, refuses bytes that are not a scene
//! or of another version with a [`WireError`], and checks only what the mirror cannot hold
//! (enum codes, counts that do not fit a `usize`); every value is checked by
//! `World::from_scene` as for a scene built in code. Postcard allocates no more than the bytes
//! given can fill (a length prefix larger than the rest of the input fails).
//!
//! Depends on `collide-world`, `serde`, `postcard` and `thiserror` only: it must never depend
//! on a text format's parser (that is what it keeps out of the main module), a renderer or a
//! game.

mod wire;

use collide_world::Scene;
use thiserror::Error;

/// The format version written first into the bytes and checked by [`from_bytes`]: bytes
/// from a build of another version are refused rather than misread.
pub const WIRE_VERSION: u32 = 2;

/// Why [`from_bytes`] refused its input.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum WireError {
    /// Postcard could not encode the scene (its message).
    #[error("scene bytes: encoding failed: {0}")]
    Encode(String),
    /// The bytes are not an encoded scene (truncated, trailing bytes, or not postcard of the
    /// mirror): postcard's message.
    #[error("scene bytes: not an encoded collide scene: {0}")]
    Decode(String),
    /// The bytes were written by another version of the format.
    #[error("scene bytes: format version {found}, this build reads version {expected}")]
    Version {
        /// The version in the bytes.
        found: u32,
        /// [`WIRE_VERSION`].
        expected: u32,
    },
    /// A value the mirror holds but a [`Scene`] cannot: `field` names it (`grid.cells[i]`,
    /// `rect[i].kind`, `shape[i].kind`, `spawn.count`, ...), `value` is the value found.
    #[error("scene bytes: `{field}`: {value} is not a valid value")]
    Value {
        /// The field, array indices 0-based.
        field: String,
        /// The value found.
        value: u64,
    },
}

/// The scene as bytes: [`WIRE_VERSION`] then postcard of the mirror.
///
/// # Errors
/// [`WireError::Encode`] if postcard refuses to encode (it does not for these plain types of
/// numbers, strings and vectors; the error is kept rather than a panic).
pub fn to_bytes(scene: &Scene) -> Result<Vec<u8>, WireError> {
    let mirror = wire::WireScene::of(scene);
    postcard::to_allocvec(&(WIRE_VERSION, &mirror)).map_err(|e| WireError::Encode(e.to_string()))
}

/// The scene in `bytes` (written by [`to_bytes`]).
///
/// # Errors
/// [`WireError::Version`] for bytes of another format version, [`WireError::Decode`] for
/// bytes that are not an encoded scene (truncated, or followed by more bytes),
/// [`WireError::Value`] for an enum code or a count a [`Scene`] cannot hold. The values
/// themselves (finite, in range, limits) are checked by `World::from_scene`.
pub fn from_bytes(bytes: &[u8]) -> Result<Scene, WireError> {
    let decode = |e: postcard::Error| WireError::Decode(e.to_string());
    let (version, rest): (u32, &[u8]) = postcard::take_from_bytes(bytes).map_err(decode)?;
    if version != WIRE_VERSION {
        return Err(WireError::Version {
            found: version,
            expected: WIRE_VERSION,
        });
    }
    let (mirror, rest): (wire::WireScene, &[u8]) =
        postcard::take_from_bytes(rest).map_err(decode)?;
    if !rest.is_empty() {
        return Err(WireError::Decode(format!(
            "{} bytes after the scene",
            rest.len()
        )));
    }
    mirror.scene()
}
