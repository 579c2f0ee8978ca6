//! The sample maps as sessions: LDtk's platformer sample (four levels) and Tiled's Sticker
//! Knight, converted from `assets/maps` when the crate is built (`build.rs` runs the loaders
//! natively and writes each level's bytes, `collide_maps::MapLevel::to_bytes`) and embedded:
//! the .wasm holds the levels and their decoder, none of the loaders. Each opens as `--map
//! FILE [--level NAME] --balls 100` opens it in the window frontends
//! ([`collide_frontend::App::with_map`]): 100 balls, the count `collide run FILE` drops
//! (World_Level_3 has no room for 300).

use std::path::Path;

use collide_maps::{MapError, MapLevel};

include!(concat!(env!("OUT_DIR"), "/maps.rs"));

/// Balls dropped on a map scene, as `collide run FILE` drops.
pub const MAP_SCENE_BALLS: u32 = 100;

/// The map scenes' names: `ldtk:LEVEL` for the LDtk sample's levels, `tiled:sticker_knight`.
#[must_use]
pub fn names() -> Vec<String> {
    EMBEDDED.iter().map(|e| e.0.to_owned()).collect()
}

/// The file and level a map scene opens natively, as `--map FILE [--level NAME]` takes them,
/// relative to the repository (`assets/maps/...`); `None` for a name that is not a map scene.
#[must_use]
pub fn source(scene: &str) -> Option<(&'static str, Option<&'static str>)> {
    EMBEDDED.iter().find(|e| e.0 == scene).map(|e| (e.1, e.2))
}

/// The map scene `scene`'s level, read from its embedded bytes; `None` for a name that is not
/// a map scene.
///
/// # Errors
/// [`MapError::Bytes`] if the bytes do not read back (they were written by this build: the
/// crate's tests read every one).
pub fn load(scene: &str) -> Option<Result<MapLevel, MapError>> {
    let e = EMBEDDED.iter().find(|e| e.0 == scene)?;
    Some(MapLevel::from_bytes(Path::new(e.1), e.3))
}

/// The scene name of the platformer game mode on the LDtk sample's levels.
pub const PLATFORMER: &str = "platformer";

/// The platformer's levels: the LDtk sample's, in the file's order (as `--platformer FILE`
/// reads them, `PlatformerLevel::load_all`), from their embedded bytes.
///
/// # Errors
/// [`MapError::Bytes`] if the bytes do not read back (as [`load`]).
pub fn platformer_levels() -> Result<Vec<collide_game::PlatformerLevel>, MapError> {
    EMBEDDED
        .iter()
        .filter(|e| e.1.ends_with(".ldtk"))
        .map(|e| {
            let level = MapLevel::from_bytes(Path::new(e.1), e.3)?;
            Ok(collide_game::PlatformerLevel::from_map(&level))
        })
        .collect()
}
