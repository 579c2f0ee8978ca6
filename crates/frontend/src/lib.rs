//! # collide-frontend
//!
//! What the collide frontends (the minifb app, and the pixels app) share, so that each app's
//! `main.rs` is glue only: the command line ([`Args`], clap), frontend-neutral keys and their
//! meaning ([`Key`], [`action`]), one input path ([`InputQueue`]: key and button events as
//! edges, so nothing pressed and released within a frame is lost), the frame loop ([`App`]: window input → the game's input →
//! fixed steps → the frame's sound from the steps' events (`collide-audio`); drawing a frame with `collide-render` into any pixel format; `--frames`,
//! `--screenshot`, `--save-replay`, `--mute` and `--record-audio`), PNG screenshots ([`RgbImage`]) and the pixel checks CI runs on them
//! ([`check_level_start`]).
//!
//! Depends on `collide-game`, `collide-render`, `collide-audio`, `collide-scenes`,
//! `collide-world`, `collide-core`, `clap`, `png` and `thiserror`. It must never depend on a
//! window or GPU crate: the apps bring those.
//!
//! # A frontend in outline
//! ```
//! use collide_frontend::{App, Args, FrameInput, Flow};
//! use collide_render::Xrgb32Target;
//! let args = Args { frames: Some(2), ..Args::default() };
//! let mut app = App::new(&args).unwrap();
//! let (w, h) = (320, 240);
//! let mut buf = vec![0u32; w * h];
//! loop {
//!     // A window library fills FrameInput from its events.
//!     if app.frame(&FrameInput::default(), 1.0 / 60.0) == Flow::Quit {
//!         break;
//!     }
//!     app.draw(&mut Xrgb32Target::new(&mut buf, w, h).unwrap());
//!     // ... present `buf` ...
//!     if let Some(finish) = app.presented() {
//!         assert!(finish.screenshot.is_none());
//!         break;
//!     }
//! }
//! assert_eq!(app.frames_presented(), 2);
//! assert_eq!(app.game().world().steps(), 2);
//! ```

mod app;
mod args;
mod check;
mod image;
mod input;
mod keys;

pub use app::{
    power_up_color, App, Finish, Flow, FrameInput, Layout, AIM, BAR, CHEST, DOOR_LOCKED, DOOR_OPEN,
    FIXED_FRAME_DT, HELP_TEXT, LADDER, MOB, PERF, PLATFORMER_BALLS, PLAYER,
};
pub use args::{Args, PLATFORMER_SAMPLE, WINDOW_SIDE};
pub use check::{check_level_start, check_pinball_start, LevelCheck, PinballCheck};
pub use image::RgbImage;
pub use input::InputQueue;
pub use keys::{action, help, platformer_controls, Action, HelpLine, Key, HELP};

/// Why a frontend stopped.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum FrontendError {
    /// The scene asked for could not be opened.
    #[error("cannot open `{arg}`")]
    Game {
        /// The `--scene` argument.
        arg: String,
        /// Why.
        #[source]
        source: Box<collide_game::GameError>,
    },
    /// The map asked for (`--map`) could not be loaded (a `collide_maps::MapError`), or this
    /// build has no map support (the crate's `maps` feature is off, as in the browser).
    #[error("cannot open the map")]
    Map(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// A PNG file could not be written or read.
    #[error("{file}: {problem}")]
    Png {
        /// The file.
        file: String,
        /// What went wrong.
        problem: String,
    },
    /// A replay could not be recorded or written (`--save-replay`).
    #[error("replay {file}")]
    Replay {
        /// The replay file.
        file: String,
        /// Why.
        #[source]
        source: Box<collide_game::ReplayError>,
    },
    /// The window could not be opened or updated.
    #[error("window: {0}")]
    Window(String),
    /// The `--record-audio` file could not be created or written.
    #[error("audio")]
    Audio(#[source] Box<collide_audio::AudioError>),
}

/// The message of an error and of all its sources, one per line (`error: …`, then
/// `  caused by: …`), for binaries to print before exiting non-zero.
#[must_use]
pub fn error_report(e: &dyn std::error::Error) -> String {
    let mut s = format!("error: {e}");
    let mut source = e.source();
    while let Some(cause) = source {
        s.push_str(&format!("\n  caused by: {cause}"));
        source = cause.source();
    }
    s
}
