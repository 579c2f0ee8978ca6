//! # collide-js-toml
//!
//! The TOML module of the npm package `collide` (`dist/toml/`): one function, [`scene_bytes`]
//! (`sceneBytes` in JavaScript), that parses a TOML scene (docs/scene-format.md) with
//! `collide-scene` and returns it as the bytes of `collide-scene-wire`. The package's
//! `World.fromToml` loads this module on its first call and builds the world from the bytes
//! in the main module (`World.fromScene`), so a page that never loads a TOML scene never
//! downloads the parser (about 40 % of what the two modules weigh together; docs/js.md).
//!
//! It depends on `collide-scene`, `collide-scene-wire`, `wasm-bindgen` and `js-sys`. It must
//! never depend on `crates/js` (its exported `World` class would be linked in a second time)
//! or on a renderer, a game or threads.

use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// The level texts of a scene: an object mapping the paths it names in
    /// `grid.level = "..."` to the texts.
    #[wasm_bindgen(typescript_type = "Record<string, string>")]
    pub type Levels;
}

/// The level text `levels[path]`, or a `NotFound` error (the scene's error names the path).
fn level_text(levels: &JsValue, path: &str) -> Result<String, std::io::Error> {
    let text = if levels.is_object() {
        js_sys::Reflect::get(levels, &JsValue::from_str(path))
            .ok()
            .and_then(|v| v.as_string())
    } else {
        None
    };
    text.ok_or_else(|| {
        std::io::Error::new(
            std::io::ErrorKind::NotFound,
            format!("level `{path}` is not a string in the `levels` object given"),
        )
    })
}

/// The TOML scene `text` as the bytes of `collide-scene-wire`, for `World.fromScene` of the
/// package's main module. `levels` maps the paths a scene names in `grid.level = "..."` to
/// the level texts (BricksBeater `.dat` rows); `file` is the name used in error messages
/// (default `scene.toml`).
///
/// @throws {Error} naming the file, line and field for bad TOML, unknown keys, bad values or
/// limits (`scene.toml:2: \`world.size\`: ...`); naming the path for a level missing from
/// `levels`.
#[wasm_bindgen(js_name = sceneBytes)]
pub fn scene_bytes(
    text: &str,
    levels: Option<Levels>,
    file: Option<String>,
) -> Result<Vec<u8>, JsError> {
    let levels = levels.map_or(JsValue::UNDEFINED, JsValue::from);
    let file = file.unwrap_or_else(|| "scene.toml".to_owned());
    let scene = collide_scene::from_toml_str(text, &file, &|path: &str| level_text(&levels, path))
        .map_err(|e| JsError::new(&e.to_string()))?;
    collide_scene_wire::to_bytes(&scene).map_err(|e| JsError::new(&e.to_string()))
}
