//! Fuzz target `ldtk_map`: `collide_maps::ldtk::load_ldtk_bytes` on arbitrary bytes (the first
//! level; levels in separate files are `MissingFile`).
//!
//! Checked: no panic while loading or formatting the error; errors name the file; an accepted
//! level passes the checks of `map_checks.rs` (grid within the limits, bodies pointing into
//! the scene, a small level's world steps twice with a few balls).

#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

mod map_checks;

fuzz_target!(|data: &[u8]| {
    let cfg = collide_maps::MapConfig::default();
    match collide_maps::ldtk::load_ldtk_bytes(Path::new("fuzz.ldtk"), data, None, &cfg) {
        Ok(level) => map_checks::check_level(&level),
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.contains("fuzz.ldtk") || msg.contains("level"), "{msg}");
        }
    }
});
