//! The wasm-bindgen exports the page's JavaScript calls (`www/main.js`).

use wasm_bindgen::prelude::*;
use wasm_bindgen::Clamped;
use web_sys::{CanvasRenderingContext2d, ImageData};

use crate::frames::{run_frames, run_world};
use crate::session::{Session, SessionOptions};

fn js_error(e: &dyn std::error::Error) -> JsError {
    JsError::new(&collide_frontend::error_report(e))
}

/// Puts a session's frame on a canvas.
fn present(session: &mut Session, ctx: &CanvasRenderingContext2d) -> Result<(), JsError> {
    let (w, h) = session.size();
    let pixels = session.draw();
    let image = ImageData::new_with_u8_clamped_array_and_sh(Clamped(pixels), w as u32, h as u32)
        .map_err(|_| JsError::new("cannot make the frame's ImageData"))?;
    ctx.put_image_data(&image, 0.0, 0.0)
        .map_err(|_| JsError::new("cannot put the frame on the canvas"))
}

/// The scene names, one per line: the built-in scenes (`level_1` .. `level_7`, then the demo
/// scenes), then the map sandboxes (`ldtk:LEVEL`, `tiled:sticker_knight`) and `platformer`.
#[wasm_bindgen(js_name = sceneNames)]
#[must_use]
pub fn scene_names() -> String {
    collide_scenes::names()
        .iter()
        .map(|n| (*n).to_owned())
        .chain(crate::maps::names())
        .chain(std::iter::once(crate::maps::PLATFORMER.to_owned()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One game on a canvas: the page feeds it DOM events and calls `frame` and `draw` from its
/// `requestAnimationFrame` loop.
#[wasm_bindgen]
pub struct WebGame {
    session: Session,
    ctx: CanvasRenderingContext2d,
}

#[wasm_bindgen]
impl WebGame {
    /// Opens a built-in scene drawn at `width × height` pixels on `ctx`; throws an `Error`
    /// naming the scene (and the known ones) when it cannot.
    #[wasm_bindgen(constructor)]
    pub fn new(
        ctx: CanvasRenderingContext2d,
        scene: &str,
        sandbox: bool,
        autoplay: bool,
        width: u32,
        height: u32,
    ) -> Result<WebGame, JsError> {
        let options = SessionOptions {
            scene: scene.to_owned(),
            sandbox,
            autoplay,
            fixed_frames: false,
            width,
            height,
        };
        let session = Session::new(&options).map_err(|e| js_error(&e))?;
        Ok(WebGame { session, ctx })
    }

    /// A key went down or up (`code`: `KeyboardEvent.code`); true when the game uses it.
    pub fn key(&mut self, code: &str, down: bool) -> bool {
        self.session.key(code, down)
    }

    /// The mouse moved, frame-buffer pixels.
    #[wasm_bindgen(js_name = pointerMove)]
    pub fn pointer_move(&mut self, x: f32, y: f32) {
        self.session.pointer(x, y);
    }

    /// The left mouse button went down or up.
    #[wasm_bindgen(js_name = pointerButton)]
    pub fn pointer_button(&mut self, down: bool) {
        self.session.button(down);
    }

    /// A finger touched down, frame-buffer pixels.
    #[wasm_bindgen(js_name = touchStart)]
    pub fn touch_start(&mut self, id: i32, x: f32, y: f32) {
        self.session.touch_start(id, x, y);
    }

    /// A finger moved.
    #[wasm_bindgen(js_name = touchMove)]
    pub fn touch_move(&mut self, id: i32, x: f32, y: f32) {
        self.session.touch_move(id, x, y);
    }

    /// A finger lifted, or the browser cancelled it.
    #[wasm_bindgen(js_name = touchEnd)]
    pub fn touch_end(&mut self, id: i32, cancelled: bool) {
        self.session.touch_end(id, cancelled);
    }

    /// The page lost the focus: everything held is released.
    pub fn blur(&mut self) {
        self.session.blur();
    }

    /// One frame of `seconds` of wall time.
    pub fn frame(&mut self, seconds: f64) {
        self.session.frame(seconds);
    }

    /// Draws the frame on the canvas.
    pub fn draw(&mut self) -> Result<(), JsError> {
        present(&mut self.session, &self.ctx)
    }

    /// A new canvas size, pixels.
    pub fn resize(&mut self, width: u32, height: u32) {
        self.session.resize(width, height);
    }

    /// Opens the sound (from a user gesture); `undefined` when it plays, else why not.
    #[wasm_bindgen(js_name = openAudio)]
    pub fn open_audio(&mut self) -> Option<String> {
        self.session.open_audio()
    }

    /// Takes over `from`'s sound (its open WebAudio output and mute setting), leaving `from`
    /// silent: call on the game of a new scene before freeing the old one.
    #[wasm_bindgen(js_name = adoptAudio)]
    pub fn adopt_audio(&mut self, from: &mut WebGame) {
        self.session.adopt_audio(&mut from.session);
    }

    /// The state as JSON (scene, mode, phase, balls, steps, hashes, paddle, flippers, rates).
    #[wasm_bindgen(js_name = stateJson)]
    pub fn state_json(&self) -> String {
        serde_json::to_string(&self.session.state()).unwrap_or_default()
    }
}

/// `?frames=N`: plays N fixed frames of 1/60 s at once, draws the last one on `ctx` and
/// returns the report as JSON (state, hashes, the replay's text).
#[wasm_bindgen(js_name = runFrames)]
#[allow(clippy::too_many_arguments)]
pub fn run_frames_js(
    ctx: CanvasRenderingContext2d,
    scene: &str,
    sandbox: bool,
    autoplay: bool,
    frames: u32,
    hold: &str,
    width: u32,
    height: u32,
) -> Result<String, JsError> {
    let options = SessionOptions {
        scene: scene.to_owned(),
        sandbox,
        autoplay,
        fixed_frames: true,
        width,
        height,
    };
    let (mut session, report) =
        run_frames(&options, u64::from(frames), hold).map_err(|e| js_error(&e))?;
    present(&mut session, &ctx)?;
    serde_json::to_string(&report).map_err(|e| js_error(&e))
}

/// `?platformer_script=1`: plays the platformer's scripted run on the embedded LDtk levels
/// (`collide_game::platformer::sample_script`) and returns the report as JSON.
#[wasm_bindgen(js_name = runPlatformerScript)]
pub fn run_platformer_script_js() -> Result<String, JsError> {
    let report = crate::run_platformer_script().map_err(|e| js_error(&e))?;
    serde_json::to_string(&report).map_err(|e| js_error(&e))
}

/// `?world=SCENE&steps=N[&threads=T]`: steps the scene's world alone (after
/// `World::set_threads(T)`, which a browser takes as 1) and returns the report as JSON.
#[wasm_bindgen(js_name = runWorld)]
pub fn run_world_js(scene: &str, steps: u32, threads: u32) -> Result<String, JsError> {
    let report = run_world(scene, u64::from(steps), threads as usize).map_err(|e| js_error(&e))?;
    serde_json::to_string(&report).map_err(|e| js_error(&e))
}
