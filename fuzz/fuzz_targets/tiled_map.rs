//! Fuzz target `tiled_map`: `collide_maps::tiled::load_tmx_bytes` on arbitrary bytes (no other
//! file is read: external tilesets are `MissingFile`, templates are replaced and reported).
//!
//! Checked: no panic while loading or formatting the error; an accepted level's grid has
//! `cols · rows` cells within the limits, every object's body points into the scene, every
//! one-way index is a rectangle; a small accepted level builds a world (or a typed
//! `WorldError`) that steps twice with a few balls through its one-way hook.

#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

mod map_checks;

fuzz_target!(|data: &[u8]| {
    let cfg = collide_maps::MapConfig::default();
    match collide_maps::tiled::load_tmx_bytes(Path::new("fuzz.tmx"), data, &cfg) {
        Ok(level) => map_checks::check_level(&level),
        Err(e) => {
            let msg = e.to_string();
            assert!(
                msg.contains("fuzz.tmx") || msg.contains(".tx") || msg.contains(".tsx"),
                "{msg}"
            );
        }
    }
});
