//! Fuzz target `tiled_json_map`: `collide_maps::tiled::load_tmx_bytes` on arbitrary bytes named
//! `fuzz.tmj`, so read as a Tiled JSON map (no other file is read: external tilesets are
//! `MissingFile`, templates are replaced and reported).
//!
//! Checked: as `tiled_map` (no panic while loading or formatting the error; the checks of
//! `map_checks.rs` on an accepted level).

#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

mod map_checks;

fuzz_target!(|data: &[u8]| {
    let cfg = collide_maps::MapConfig::default();
    match collide_maps::tiled::load_tmx_bytes(Path::new("fuzz.tmj"), data, &cfg) {
        Ok(level) => map_checks::check_level(&level),
        Err(e) => {
            let msg = e.to_string();
            assert!(
                msg.contains("fuzz.tmj") || msg.contains(".tx") || msg.contains(".tj"),
                "{msg}"
            );
        }
    }
});
