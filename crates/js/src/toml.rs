//! TOML scenes: `World.fromToml` hands the text to the package's TOML module
//! (`crates/js-toml`, `dist/toml/`), which `js/toml-loader.js` loads on the first call, and
//! builds the world from the scene bytes it returns (`collide-scene-wire`), which
//! `World.fromScene` also takes. The parser never enters the main module.

use crate::{err, World};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen(module = "/js/toml-loader.js")]
extern "C" {
    /// Loads the TOML module once, then resolves to its `sceneBytes(text, levels, file)`
    /// (a `Uint8Array`), or rejects with its `Error`.
    #[wasm_bindgen(js_name = tomlSceneBytes)]
    fn toml_scene_bytes(text: &str, levels: &JsValue, file: Option<String>) -> js_sys::Promise;
}

#[wasm_bindgen]
extern "C" {
    /// The level texts of a scene: an object mapping the paths it names in
    /// `grid.level = "..."` to the texts (read with `Reflect.get`; a missing path or a value
    /// that is not a string is the scene's error).
    #[wasm_bindgen(typescript_type = "Record<string, string>")]
    pub type Levels;
}

#[wasm_bindgen]
impl World {
    /// A world from a TOML scene (format: docs/scene-format.md): size and walls, grid, balls,
    /// rectangles, shapes, flippers, random balls, step settings. `levels` maps the paths a
    /// scene names in `grid.level = "..."` to the level texts (BricksBeater `.dat` rows);
    /// `file` is the name used in error messages (default `scene.toml`).
    ///
    /// Asynchronous: the first call loads the package's TOML module (`toml/collide_toml.js`
    /// and `toml/collide_toml_bg.wasm` next to `collide.js`; the parser is kept out of the main
    /// module), later calls reuse it. The promise rejects with the error below; nothing else
    /// changes.
    ///
    /// @throws {Error} (the promise rejects) naming the file, line and field for bad TOML,
    /// unknown keys, bad values or limits (`scene.toml:2: \`world.size\`: ...`); naming the
    /// path for a level missing from `levels`; when the TOML module cannot be loaded.
    #[wasm_bindgen(js_name = fromToml)]
    pub async fn from_toml(
        text: String,
        levels: Option<Levels>,
        file: Option<String>,
    ) -> Result<World, JsValue> {
        let levels = levels.map_or(JsValue::UNDEFINED, JsValue::from);
        let bytes = JsFuture::from(toml_scene_bytes(&text, &levels, file)).await?;
        let bytes = js_sys::Uint8Array::new(&bytes).to_vec();
        World::from_scene_bytes(&bytes).map_err(JsValue::from)
    }

    /// A world from scene bytes: what the package's TOML module returns for a TOML scene
    /// (`sceneBytes` of `toml/collide_toml.js`; `World.fromToml` does both steps), which may
    /// be kept and used again without parsing the TOML again.
    ///
    /// @throws {Error} for bytes that are not a scene (`scene bytes: ...`), of another
    /// version of the package, or whose scene a world refuses (naming the field and value).
    #[wasm_bindgen(js_name = fromScene)]
    pub fn from_scene_bytes(bytes: &[u8]) -> Result<World, JsError> {
        let scene = collide_scene_wire::from_bytes(bytes).map_err(err)?;
        World::from_scene(&scene)
    }
}
