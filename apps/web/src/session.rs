//! [`Session`]: one game in a page, platform-neutral: the shared [`App`] (the frontends' frame
//! loop, unchanged), its [`InputQueue`] fed by DOM key, mouse and touch events, the RGBA frame
//! buffer a canvas shows, and the [`State`] the page and its tests read.

use collide_core::Real;
use collide_frontend::{App, Args, FrontendError, InputQueue, Key};
use collide_game::replay::DEFAULT_HASH_EVERY;
use collide_game::{Phase, ReplayError, SceneText};
use collide_render::Rgba8Target;
use serde::Serialize;

use crate::keys::key_of_code;
use crate::touch::{TouchMode, Touches};

/// Why a session could not start.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WebError {
    /// The scene is not one of the built-in scenes (a page has no files to open).
    #[error("unknown scene `{name}`; the built-in scenes are: {}", known.join(", "))]
    UnknownScene {
        /// The name asked for.
        name: String,
        /// The built-in names.
        known: Vec<String>,
    },
    /// The frontend could not open the scene.
    #[error(transparent)]
    Frontend(#[from] FrontendError),
    /// The session could not be recorded (fixed-frame runs record a replay).
    #[error("replay: {0}")]
    Replay(#[from] ReplayError),
    /// A frame size outside [`collide_frontend::WINDOW_SIDE`].
    #[error("frame size {width}x{height}: each side must be within 64..=8192 pixels")]
    Size {
        /// Width asked for, pixels.
        width: u32,
        /// Height asked for, pixels.
        height: u32,
    },
}

/// What a page opens.
#[derive(Clone, Debug, PartialEq)]
pub struct SessionOptions {
    /// A built-in scene name (`level_1` .. `level_7`, `pinball`, `plinko`, ...) or a map
    /// scene (`ldtk:Top`, `tiled:sticker_knight`: [`crate::maps::names`]).
    pub scene: String,
    /// Run it as a sandbox (physics only, no rules), even a level.
    pub sandbox: bool,
    /// Let the autopilot play.
    pub autoplay: bool,
    /// Fixed frames: every frame advances the game by exactly 1/60 s whatever the wall time
    /// (`--frames`), and the session is recorded as a replay.
    pub fixed_frames: bool,
    /// Frame-buffer size, pixels.
    pub width: u32,
    /// Frame-buffer size, pixels.
    pub height: u32,
}

impl Default for SessionOptions {
    /// Level 1, played, 960 × 720.
    fn default() -> Self {
        SessionOptions {
            scene: "level_1".to_owned(),
            sandbox: false,
            autoplay: false,
            fixed_frames: false,
            width: 960,
            height: 720,
        }
    }
}

/// A flipper as the page reports it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FlipperState {
    /// Angle now, radians (y down: growing clockwise on the screen).
    pub angle: Real,
    /// Whether its button is held.
    pub pressed: bool,
}

/// The state of a session, as the page shows it and its tests read it (JSON).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct State {
    /// The scene's name (`level 1`, `pinball`, ...).
    pub scene: String,
    /// `paddle`, `pinball`, `platformer` or `sandbox`.
    pub mode: &'static str,
    /// The game's phase (`serving`, `playing`, `level_cleared`, `game_over`, `victory`), `None`
    /// in a sandbox.
    pub phase: Option<&'static str>,
    /// Balls in the world.
    pub balls: usize,
    /// Fixed steps the world has run.
    pub steps: u64,
    /// Frames run.
    pub frames: u64,
    /// `Game::state_hash`, 16 hex digits (what `collide record` and `collide replay` print).
    pub game_hash: String,
    /// `World::state_hash`, 16 hex digits (what `collide run` prints).
    pub world_hash: String,
    /// Score, `None` in a sandbox.
    pub score: Option<u64>,
    /// Lives or balls left, `None` in a sandbox.
    pub lives: Option<u32>,
    /// The paddle's centre, world units (games with a paddle).
    pub paddle_x: Option<Real>,
    /// The flippers, in the scene's order.
    pub flippers: Vec<FlipperState>,
    /// The platformer's player: its box's centre, world units (`None` in other modes).
    pub player: Option<[Real; 2]>,
    /// Fixed steps per second over the last half second of wall time.
    pub steps_per_second: Real,
    /// Frames per second over the last half second of wall time.
    pub fps: Real,
    /// Whether the sound is off (M).
    pub muted: bool,
    /// The sound output once open (`48000 Hz, 2 channels, f32`), `None` before the first
    /// gesture or without one.
    pub sound: Option<String>,
    /// Whether the help overlay is shown (H).
    pub help: bool,
    /// Fingers on the screen.
    pub touches: usize,
}

/// One game in a page.
#[derive(Debug)]
pub struct Session {
    app: App,
    /// The scene's name, as opened.
    scene: String,
    queue: InputQueue,
    touches: Touches,
    pixels: Vec<u8>,
    width: usize,
    height: usize,
    frames: u64,
}

impl Session {
    /// Opens `options.scene` (a built-in scene only).
    ///
    /// # Errors
    /// [`WebError::UnknownScene`] for a name that is not built in, [`WebError::Size`] for a
    /// frame size outside 64..=8192, [`WebError::Frontend`] if the scene cannot be built,
    /// [`WebError::Replay`] if a fixed-frame session cannot be recorded.
    pub fn new(options: &SessionOptions) -> Result<Session, WebError> {
        let names = collide_scenes::names();
        let map = map_scene(&options.scene);
        let platformer = options.scene == crate::maps::PLATFORMER;
        if map.is_none() && !platformer && !names.contains(&options.scene.as_str()) {
            return Err(WebError::UnknownScene {
                name: options.scene.clone(),
                known: names
                    .iter()
                    .map(|n| (*n).to_owned())
                    .chain(map_names())
                    .collect(),
            });
        }
        let (w, h) = (options.width, options.height);
        if !collide_frontend::WINDOW_SIDE.contains(&w)
            || !collide_frontend::WINDOW_SIDE.contains(&h)
        {
            return Err(WebError::Size {
                width: w,
                height: h,
            });
        }
        let args = Args {
            scene: Some(options.scene.clone()),
            sandbox: options.sandbox,
            autoplay: options.autoplay,
            // The frame count is the page's business; any count makes the frames fixed.
            frames: options.fixed_frames.then_some(u64::MAX),
            width: w,
            height: h,
            ..Args::default()
        };
        let mut app = match map {
            Some(level) => open_map(&args, level)?,
            None if platformer => {
                let levels = crate::maps::platformer_levels()
                    .map_err(|e| FrontendError::Map(Box::new(e)))?;
                App::with_platformer(&args, levels)?
            }
            None => App::new(&args)?,
        };
        // A page cannot close itself: Esc is not offered.
        app.set_can_quit(false);
        // A map's sandbox and the platformer are not recorded: a replay names a built-in
        // scene or a scene file.
        let recorded =
            options.fixed_frames && !platformer && map_names().iter().all(|n| *n != options.scene);
        if recorded {
            let text = SceneText::from_arg(&options.scene)?;
            app.game_mut().start_recording(text, DEFAULT_HASH_EVERY)?;
        }
        let (width, height) = (w as usize, h as usize);
        Ok(Session {
            app,
            scene: options.scene.clone(),
            queue: InputQueue::new(),
            touches: Touches::new(),
            pixels: vec![0; width * height * 4],
            width,
            height,
            frames: 0,
        })
    }

    /// The shared frontend app.
    #[must_use]
    pub fn app(&self) -> &App {
        &self.app
    }

    /// A key event (`code`: DOM `KeyboardEvent.code`). Returns whether the game uses the key
    /// (the page then keeps the browser from acting on it: Space scrolling, Tab moving the
    /// focus, `/` opening a search).
    pub fn key(&mut self, code: &str, down: bool) -> bool {
        match key_of_code(code) {
            Some(k) => {
                self.queue.key(k, down);
                true
            }
            None => false,
        }
    }

    /// The mouse moved to `(x, y)`, frame-buffer pixels.
    pub fn pointer(&mut self, x: f32, y: f32) {
        self.queue.pointer(Some((x, y)));
    }

    /// The left mouse button went down or up.
    pub fn button(&mut self, down: bool) {
        self.queue.button(down);
    }

    /// How touches are read in the scene played now.
    fn touch_mode(&self) -> TouchMode {
        if self.app.game().pinball().is_some() {
            TouchMode::Pinball
        } else if self.app.game().platformer().is_some() {
            TouchMode::Platformer
        } else {
            TouchMode::Steer
        }
    }

    /// A finger touched down at `(x, y)`, frame-buffer pixels (see [`crate::touch`]).
    pub fn touch_start(&mut self, id: i32, x: f32, y: f32) {
        let mode = self.touch_mode();
        self.touches
            .start(id, (x, y), mode, (self.width, self.height), &mut self.queue);
    }

    /// A finger moved.
    pub fn touch_move(&mut self, id: i32, x: f32, y: f32) {
        self.touches.moved(id, (x, y), &mut self.queue);
    }

    /// A finger lifted (`cancelled`: the browser took the touch over).
    pub fn touch_end(&mut self, id: i32, cancelled: bool) {
        self.touches.end(id, cancelled, &mut self.queue);
    }

    /// The page lost the focus: every key, button and finger is released (their releases
    /// will not be reported).
    pub fn blur(&mut self) {
        self.touches.clear();
        self.queue.release_all();
    }

    /// Holds `key` down from now on (fixed-frame runs: flippers held).
    pub fn hold(&mut self, key: Key) {
        self.queue.key(key, true);
    }

    /// Runs one frame of `wall_dt` seconds (exactly 1/60 s with fixed frames) with the input
    /// gathered since the last one.
    pub fn frame(&mut self, wall_dt: Real) {
        let input = self.queue.take_frame();
        // Esc is not mapped in a page, so the app never asks to quit.
        let _ = self.app.frame(&input, wall_dt);
        self.frames += 1;
    }

    /// A new frame-buffer size (the page's canvas), clamped to 64..=8192 pixels a side.
    pub fn resize(&mut self, width: u32, height: u32) {
        let side = |v: u32| {
            v.clamp(
                *collide_frontend::WINDOW_SIDE.start(),
                *collide_frontend::WINDOW_SIDE.end(),
            ) as usize
        };
        self.width = side(width);
        self.height = side(height);
        self.pixels.resize(self.width * self.height * 4, 0);
    }

    /// Frame-buffer size, pixels.
    #[must_use]
    pub fn size(&self) -> (usize, usize) {
        (self.width, self.height)
    }

    /// Draws the frame and returns its pixels: RGBA, 4 bytes a pixel, rows top to bottom, as
    /// a canvas `ImageData` holds them.
    pub fn draw(&mut self) -> &[u8] {
        if let Ok(mut target) = Rgba8Target::new(&mut self.pixels, self.width, self.height) {
            self.app.draw(&mut target);
        }
        &self.pixels
    }

    /// Opens the sound output (call from a key or pointer event: browsers start sound only
    /// after a user gesture). `None` when it plays, else why not (the game goes on silently).
    pub fn open_audio(&mut self) -> Option<String> {
        self.app.open_audio_output()
    }

    /// Takes over `from`'s open sound output and mute setting (a new scene keeps the page's
    /// one WebAudio context: a closed context warns on every buffer still queued on it).
    pub fn adopt_audio(&mut self, from: &mut Session) {
        self.app.adopt_audio_output(&mut from.app);
    }

    /// The replay of a fixed-frame session so far, as the text `collide replay FILE` checks;
    /// the recording ends here. Empty for a map scene, which is not recorded.
    ///
    /// # Errors
    /// [`WebError::Replay`] when the session is not recorded, or did something a replay
    /// cannot hold.
    pub fn take_replay(&mut self) -> Result<String, WebError> {
        if map_names().contains(&self.scene) {
            return Ok(String::new());
        }
        Ok(self.app.game_mut().take_replay()?.to_text())
    }

    /// The state now.
    #[must_use]
    pub fn state(&self) -> State {
        let game = self.app.game();
        let world = game.world();
        let status = game.status();
        let t = world.time();
        State {
            scene: status.name,
            mode: if game.breaker().is_some() {
                "paddle"
            } else if game.pinball().is_some() {
                "pinball"
            } else if game.platformer().is_some() {
                "platformer"
            } else {
                "sandbox"
            },
            phase: status.phase.map(phase_name),
            balls: status.balls,
            steps: world.steps(),
            frames: self.frames,
            game_hash: format!("{:016x}", game.state_hash()),
            world_hash: format!("{:016x}", world.state_hash()),
            score: status.score,
            lives: status.lives,
            paddle_x: game
                .breaker()
                .and_then(|b| world.rect(b.paddle()))
                .map(|r| (r.aabb.min.x + r.aabb.max.x) * 0.5),
            flippers: world
                .flippers()
                .iter()
                .map(|f| FlipperState {
                    angle: f.angle_at(t),
                    pressed: f.pressed,
                })
                .collect(),
            player: game
                .platformer()
                .and_then(|p| world.character(p.player()))
                .map(|c| [c.pos.x, c.pos.y]),
            steps_per_second: self.app.steps_per_second(),
            fps: self.app.fps(),
            muted: self.app.muted(),
            sound: self.app.audio().output().map(|p| p.describe()),
            help: self.app.help_shown(),
            touches: self.touches.count(),
        }
    }
}

/// A phase's name in the state JSON.
pub(crate) fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Serving => "serving",
        Phase::Playing => "playing",
        Phase::LevelCleared { .. } => "level_cleared",
        Phase::GameOver => "game_over",
        Phase::Victory => "victory",
    }
}

/// The map scenes' names ([`crate::maps::names`]) and the platformer's.
fn map_names() -> Vec<String> {
    let mut names = crate::maps::names();
    names.push(crate::maps::PLATFORMER.to_owned());
    names
}

type MapScene = Result<collide_maps::MapLevel, collide_maps::MapError>;

/// The map scene `scene`, read from its embedded bytes; `None` for any other name.
fn map_scene(scene: &str) -> Option<MapScene> {
    crate::maps::load(scene)
}

/// Opens a loaded map scene with [`crate::maps::MAP_SCENE_BALLS`] balls.
fn open_map(args: &Args, level: MapScene) -> Result<App, FrontendError> {
    let level = level.map_err(|e| FrontendError::Map(Box::new(e)))?;
    let args = Args {
        balls: Some(crate::maps::MAP_SCENE_BALLS),
        ..args.clone()
    };
    App::with_map(&args, level)
}
