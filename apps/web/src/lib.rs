//! # collide-web
//!
//! The collide games in a browser: every built-in scene (BricksBeater's seven levels, pinball,
//! plinko, billiards, ramps, the sandboxes) played through the shared
//! [`collide_frontend::App`], unchanged, on a 2D canvas. This crate is glue only:
//! - [`keys`]: DOM `KeyboardEvent.code` values as the frontends' keys;
//! - [`touch`]: fingers as keys and pointer (drag steers the paddle, a tap launches, the
//!   halves of the screen hold the flippers, the right one the plunger too);
//! - [`maps`]: the sample maps (LDtk's platformer, Sticker Knight), converted when the crate
//!   is built and embedded as level bytes, as sessions opened as the window frontends'
//!   `--map` opens them;
//! - [`session`]: one game in a page: input queue, frame, RGBA frame buffer, the state JSON;
//! - [`frames`]: the page's fixed runs (`?frames=N`, `?world=SCENE&steps=N`) that CI compares
//!   with the native CLI, hash for hash;
//! - `web` (wasm32 only): the wasm-bindgen exports the page's JavaScript (`www/main.js`)
//!   calls; JavaScript owns the `requestAnimationFrame` loop, the listeners and the clock
//!   (`performance.now()`): nothing here reads a clock.
//!
//! Natively the crate builds without any web dependency (its tests run with the workspace's);
//! `scripts/build-web.sh` builds the site (docs/web.md).
//!
//! Depends on the collide crates, `serde`/`serde_json` and `thiserror`, and on wasm32 on
//! `wasm-bindgen`, `web-sys` and cpal's WebAudio host. It must never hold game logic: rules,
//! input meaning and drawing belong to `collide-game` and `collide-frontend`.

pub mod frames;
pub mod keys;
pub mod maps;
pub mod session;
pub mod touch;
#[cfg(target_arch = "wasm32")]
mod web;

pub use frames::{
    run_frames, run_platformer_script, run_world, FramesReport, RunError, ScriptReport, WorldReport,
};
pub use session::{Session, SessionOptions, State, WebError};
