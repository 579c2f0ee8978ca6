//! The byte-size limits of scene and level texts, checked before a file is read.
//!
//! The limits on what a scene asks for (cells, balls, rects, coordinates) are the world's own,
//! in [`collide_world::limits`].

/// Largest scene file (or TOML text) accepted, in bytes: 16 MiB. Checked before the file is
/// read ([`crate::load`]) and on the text ([`crate::from_toml_str`]).
pub const MAX_SCENE_BYTES: u64 = 16 << 20;

/// Largest level file (or level text) accepted, in bytes: 16 MiB. Checked before the file is
/// read ([`crate::read_level_file`]) and on the text ([`crate::level::parse_level`]).
pub const MAX_LEVEL_BYTES: u64 = 16 << 20;

#[cfg(test)]
mod tests {
    #[test]
    fn the_text_limits_are_16_mib() {
        assert_eq!(super::MAX_SCENE_BYTES, 16 * 1024 * 1024);
        assert_eq!(super::MAX_LEVEL_BYTES, 16 * 1024 * 1024);
    }
}
