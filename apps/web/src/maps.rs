//! The sample maps as sessions: LDtk's platformer sample (four levels) and Tiled's Sticker
//! Knight, embedded from `assets/maps` (a page has no files to open) and loaded by
//! `collide-maps` from memory. Each opens as `--map FILE [--level NAME] --balls 100` opens it
//! in the window frontends ([`collide_frontend::App::with_map`]): 100 balls, the count
//! `collide run FILE` drops (World_Level_3 has no room for 300).
//!
//! Built natively only: the map loaders take the site's .wasm over its size budget
//! (docs/web.md), so the page does not offer these scenes yet.

use std::path::Path;

use collide_maps::{MapConfig, MapError, MapLevel};

const LDTK: &[u8] = include_bytes!("../../../assets/maps/ldtk/Typical_2D_platformer_example.ldtk");
const STICKER_KNIGHT: &[u8] =
    include_bytes!("../../../assets/maps/tiled/sticker-knight/sandbox.tmx");
const STICKER_KNIGHT_TILESET: &[u8] =
    include_bytes!("../../../assets/maps/tiled/sticker-knight/objs.tsx");

/// The LDtk sample's file name and levels.
const LDTK_FILE: &str = "Typical_2D_platformer_example.ldtk";
const LDTK_LEVELS: [&str; 4] = [
    "Your_typical_2D_platformer",
    "Top",
    "Bottom",
    "World_Level_3",
];

/// Balls dropped on a map scene, as `collide run FILE` drops.
pub const MAP_SCENE_BALLS: u32 = 100;

/// The map scenes' names: `ldtk:LEVEL` for the LDtk sample's levels, `tiled:sticker_knight`.
#[must_use]
pub fn names() -> Vec<String> {
    LDTK_LEVELS
        .iter()
        .map(|l| format!("ldtk:{l}"))
        .chain(std::iter::once("tiled:sticker_knight".to_owned()))
        .collect()
}

/// The file and level a map scene opens natively, as `--map FILE [--level NAME]` takes them,
/// relative to the repository (`assets/maps/...`); `None` for a name that is not a map scene.
#[must_use]
pub fn source(scene: &str) -> Option<(&'static str, Option<&'static str>)> {
    if scene == "tiled:sticker_knight" {
        return Some(("assets/maps/tiled/sticker-knight/sandbox.tmx", None));
    }
    let level = scene.strip_prefix("ldtk:")?;
    let level = LDTK_LEVELS.iter().find(|l| **l == level)?;
    Some((
        "assets/maps/ldtk/Typical_2D_platformer_example.ldtk",
        Some(*level),
    ))
}

/// Loads the map scene `scene` from the embedded files; `None` for a name that is not a map
/// scene.
///
/// # Errors
/// The loader's [`MapError`] (the embedded maps load: the crate's tests check it).
pub fn load(scene: &str) -> Option<Result<MapLevel, MapError>> {
    let (_, level) = source(scene)?;
    let cfg = MapConfig::default();
    Some(match level {
        Some(level) => {
            collide_maps::ldtk::load_ldtk_bytes(Path::new(LDTK_FILE), LDTK, Some(level), &cfg)
        }
        None => collide_maps::tiled::load_tmx_with_files(
            Path::new("sandbox.tmx"),
            STICKER_KNIGHT,
            &[(Path::new("objs.tsx"), STICKER_KNIGHT_TILESET)],
            &cfg,
        ),
    })
}
