//! The frame loop every frontend runs: [`App::frame`] turns one frame of window input into
//! the game's [`Input`], advances the game with its fixed-step clock and mixes the frame's
//! sound from the events of its steps; [`App::draw`] paints the frame into any
//! [`PixelTarget`]; [`App::presented`] counts presented frames for `--frames` /
//! `--screenshot`.

use collide_world::Contact;
use collide_world::Target;
use collide_world::{Body, Surface};
use std::path::PathBuf;
use std::time::Duration;

use collide_audio::{Audio, AudioOptions};
use collide_core::{Aabb, Real, Vec2};
use collide_game::replay::DEFAULT_HASH_EVERY;
use collide_game::{Command, Game, Input, Options, Phase, PowerKind, SceneText, Source, LEVELS};
use collide_render::draw::{draw_text, fill_rect, text_width, GLYPH_PX};
use collide_render::{
    render_frame, Camera, Frame, Hud, Item, PixelRect, PixelTarget, Rgb, StepTrace, Style,
};
use collide_world::Ball;

use crate::args::Args;
use crate::keys::{action, button, platformer_controls, Action, Button, Key, Mode};
use crate::FrontendError;

/// The game time of one frame in `--frames` runs, seconds: 1/60.
pub const FIXED_FRAME_DT: Real = 1.0 / 60.0;

/// Window input of one frame, in the frontend-neutral terms of this crate.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameInput {
    /// Keys that went down during the frame (no auto-repeat), in order.
    pub pressed: Vec<Key>,
    /// Keys held down at the end of the frame.
    pub held: Vec<Key>,
    /// The pointer in frame-buffer pixels (`(0, 0)` is the top-left corner of the buffer),
    /// `None` when unknown.
    pub mouse: Option<(f32, f32)>,
    /// Whether the left mouse button is down (at the end of the frame, or at any time in
    /// it).
    pub mouse_down: bool,
    /// Left-button presses during the frame (each launches; one pressed and released within
    /// the frame counts). [`crate::InputQueue`] fills it.
    pub clicks: u32,
}

/// Whether the frontend should go on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Draw and present this frame.
    Continue,
    /// Close the window and exit (Esc).
    Quit,
}

/// What to do once the last frame of a `--frames` run is presented.
#[derive(Clone, Debug, PartialEq)]
pub struct Finish {
    /// Save the presented buffer here (then call [`App::screenshot_saved`]).
    pub screenshot: Option<PathBuf>,
    /// Keep the window open this long, showing the last frame.
    pub linger: Duration,
}

/// Where things go in a `width × height` frame: a status bar at the top, a help bar at the
/// bottom (when the frame is tall enough), the world letterboxed in between.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// Frame width, pixels.
    pub width: usize,
    /// Frame height, pixels.
    pub height: usize,
    /// Font scale of the status bar (1 or 2).
    pub font: usize,
    /// Height of each bar, pixels (0 when there is no room for bars).
    pub bar: usize,
    /// World units to pixels.
    pub camera: Camera,
}

impl Layout {
    /// The layout of a frame showing a world of `world_size` (world units).
    #[must_use]
    pub fn new(world_size: Vec2, width: usize, height: usize) -> Layout {
        let font = if width >= 720 && height >= 480 { 2 } else { 1 };
        let bar = 12 * font;
        let bar = if height >= 6 * bar { bar } else { 0 };
        let mut camera = Camera::fit(
            Aabb::new(Vec2::ZERO, world_size),
            width,
            height.saturating_sub(2 * bar),
        );
        camera.offset.y += bar as Real;
        Layout {
            width,
            height,
            font,
            bar,
            camera,
        }
    }
}

/// Measures a rate (frames or steps per second) over windows of half a second (the first
/// one a quarter of a second).
#[derive(Clone, Debug, Default)]
struct RateMeter {
    count: u64,
    time: Real,
    rate: Real,
}

impl RateMeter {
    fn add(&mut self, count: u64, dt: Real) {
        if !(dt.is_finite() && dt >= 0.0) {
            return;
        }
        self.count += count;
        self.time += dt;
        // Every half second; the first figure already after a quarter.
        if self.time >= 0.5 || (self.rate == 0.0 && self.time >= 0.25) {
            self.rate = self.count as Real / self.time;
            self.count = 0;
            self.time = 0.0;
        }
    }
}

/// A frontend's state around the game: input mapping, sound, meters, layout, `--frames`
/// counting.
#[derive(Debug)]
pub struct App {
    game: Game,
    audio: Audio,
    style: Style,
    autoplay: bool,
    fixed_dt: bool,
    frames_wanted: Option<u64>,
    frames_presented: u64,
    screenshot: Option<PathBuf>,
    linger: Duration,
    save_replay: Option<PathBuf>,
    size: (usize, usize),
    first_mouse: Option<(f32, f32)>,
    pointer_active: bool,
    mouse_was_down: bool,
    fps: RateMeter,
    sps: RateMeter,
    quit: bool,
    /// Whether Esc can quit here (a window can; a browser page cannot): the help names it
    /// only then.
    can_quit: bool,
    help: bool,
}

impl App {
    /// Opens what `args` asks for (level 1 by default). Nothing is drawn or opened yet, so
    /// bad input fails here, before any window exists.
    ///
    /// With `--save-replay FILE` the game records the session from here on
    /// ([`Game::start_recording`]); [`App::save_replay`] writes it.
    ///
    /// # Errors
    /// [`FrontendError::Game`] when the scene cannot be found, read or built;
    /// [`FrontendError::Replay`] when `--save-replay` is given and the scene's text cannot be
    /// read for the replay; [`FrontendError::Audio`] when the `--record-audio` file cannot be
    /// created.
    ///
    /// No sound card is opened here (tests and tools make `App`s too): a frontend calls
    /// [`App::open_audio_output`] once its window is about to open.
    pub fn new(args: &Args) -> Result<App, FrontendError> {
        // What errors name: the map's file (and level) for `--map`, else the scene.
        let arg = match (&args.map, &args.level) {
            (Some(file), Some(level)) => format!("{} --level {level}", file.display()),
            (Some(file), None) => file.display().to_string(),
            _ => args.scene.clone().unwrap_or_else(|| "level_1".to_owned()),
        };
        let game_err = |source| FrontendError::Game {
            arg: arg.clone(),
            source: Box::new(source),
        };
        let mut options = Options::default();
        let source = match (&args.platformer, &args.map) {
            (Some(file), _) => platformer_source(file, platformer_balls(args))?,
            (None, Some(file)) => map_source(file, args.level.as_deref(), args.balls)?,
            (None, None) => {
                let mut source = Source::from_arg(&arg, args.sandbox).map_err(game_err)?;
                if let Some(n) = args.balls {
                    with_balls(&mut source, &mut options, n as usize);
                }
                source
            }
        };
        Self::with_source(args, &arg, source, options)
    }

    /// A map's level already loaded (a build that embeds its maps: the browser's) opened as
    /// `--map` opens a file: a sandbox with `args.balls` (default [`MAP_BALLS`]) balls of
    /// radius 3 dropped at rest. `args.map` is not read.
    ///
    /// # Errors
    /// As [`App::new`].
    #[cfg(feature = "map-levels")]
    pub fn with_map(args: &Args, map: collide_maps::MapLevel) -> Result<App, FrontendError> {
        let arg = map.name.clone();
        let source = map_sandbox(map, args.balls);
        Self::with_source(args, &arg, source, Options::default())
    }

    /// The platformer on levels already loaded (a build that embeds its maps: the browser's),
    /// opened as `--platformer FILE` opens a file's levels: in order, with
    /// [`PLATFORMER_BALLS`] balls (or `args.balls`) dropped on each in the sandbox
    /// (`args.sandbox`). `args.platformer` is not read.
    ///
    /// # Errors
    /// As [`App::new`].
    pub fn with_platformer(
        args: &Args,
        levels: Vec<collide_game::PlatformerLevel>,
    ) -> Result<App, FrontendError> {
        let balls = platformer_balls(args);
        let source = Source::Platformer { levels, balls };
        Self::with_source(args, "platformer", source, Options::default())
    }

    fn with_source(
        args: &Args,
        arg: &str,
        source: Source,
        options: Options,
    ) -> Result<App, FrontendError> {
        let game_err = |source| FrontendError::Game {
            arg: arg.to_owned(),
            source: Box::new(source),
        };
        let mut game = Game::new(source, options).map_err(game_err)?;
        if let Some(file) = &args.save_replay {
            let replay_err = |source| FrontendError::Replay {
                file: file.display().to_string(),
                source: Box::new(source),
            };
            // The platformer's levels come from its map: the replay names the file.
            let text = match &args.platformer {
                Some(map) => SceneText::map(&map.display().to_string()),
                None => SceneText::from_arg(arg),
            }
            .map_err(replay_err)?;
            game.start_recording(text, DEFAULT_HASH_EVERY)
                .map_err(replay_err)?;
        }
        if args.debug {
            game.command(Command::ToggleDebug);
        }
        let audio = Audio::new(&AudioOptions {
            muted: args.mute,
            record: args.record_audio.clone(),
        })
        .map_err(|e| FrontendError::Audio(Box::new(e)))?;
        let linger = if args.linger.is_finite() && args.linger > 0.0 {
            Duration::from_secs_f64(args.linger.min(3600.0))
        } else {
            Duration::ZERO
        };
        Ok(App {
            game,
            audio,
            style: Style::default(),
            autoplay: args.autoplay,
            fixed_dt: args.frames.is_some(),
            frames_wanted: args.frames,
            frames_presented: 0,
            screenshot: args.screenshot.clone(),
            linger,
            save_replay: args.save_replay.clone(),
            size: (args.width as usize, args.height as usize),
            first_mouse: None,
            pointer_active: false,
            mouse_was_down: false,
            fps: RateMeter::default(),
            sps: RateMeter::default(),
            quit: false,
            can_quit: true,
            help: false,
        })
    }

    /// The game.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The game, mutable.
    #[must_use]
    pub fn game_mut(&mut self) -> &mut Game {
        &mut self.game
    }

    /// The layout of the last frame drawn (or of the initial window size).
    #[must_use]
    pub fn layout(&self) -> Layout {
        Layout::new(self.game.world().size(), self.size.0, self.size.1)
    }

    /// Runs one frame: maps `input` to the game's [`Input`] (keys through [`action`], the
    /// pointer through the camera of the last frame drawn; the mouse drives the paddle once
    /// it has moved, the arrow keys take over until it moves again), then advances the game
    /// by `wall_dt` seconds of real time (by exactly [`FIXED_FRAME_DT`] in `--frames` runs),
    /// and mixes that much sound from the events of the frame's steps (each heard at its time
    /// within the frame), played and recorded as [`App::open_audio_output`] and
    /// `--record-audio` say.
    pub fn frame(&mut self, input: &FrameInput, wall_dt: Real) -> Flow {
        let mut game_input = Input::default();
        let platformer = self.mode() == Mode::Platformer;
        for key in &input.pressed {
            if platformer && *key == Key::D {
                continue;
            }
            match action(*key) {
                Some(Action::Command(c)) => game_input.commands.push(c),
                Some(Action::Launch) => game_input.launch = true,
                Some(Action::Quit) => self.quit = true,
                Some(Action::Help) => self.help = !self.help,
                Some(Action::Mute) => self.audio.toggle_mute(),
                Some(Action::Paddle(_) | Action::Aim(_)) | None => {}
            }
        }
        for key in &input.held {
            if platformer {
                let (run, climb, jump) = platformer_controls(*key);
                if run != 0 {
                    game_input.run_dir = run;
                }
                if climb != 0 {
                    game_input.climb_dir = climb;
                }
                game_input.jump |= jump;
                continue;
            }
            match action(*key) {
                Some(Action::Paddle(d)) => {
                    game_input.paddle_dir = d;
                    self.pointer_active = false;
                }
                Some(Action::Aim(d)) => game_input.aim_dir = d,
                _ => {}
            }
            match button(*key) {
                Some(Button::FlipLeft) => game_input.flip_left = true,
                Some(Button::FlipRight) => game_input.flip_right = true,
                Some(Button::Plunger) => game_input.plunger = true,
                None => {}
            }
        }
        if let Some(m) = input.mouse {
            match self.first_mouse {
                None => self.first_mouse = Some(m),
                Some(first) if first != m => {
                    self.first_mouse = Some(m);
                    self.pointer_active = true;
                }
                Some(_) => {}
            }
            if self.pointer_active {
                let p = self
                    .layout()
                    .camera
                    .to_world(Vec2::new(Real::from(m.0), Real::from(m.1)));
                game_input.pointer_x = p.x.is_finite().then_some(p.x);
            }
        }
        if input.clicks > 0 || (input.mouse_down && !self.mouse_was_down) {
            game_input.launch = true;
        }
        self.mouse_was_down = input.mouse_down;
        if platformer {
            game_input.launch = false;
        }
        if self.autoplay {
            let auto = self.game.autopilot();
            game_input.pointer_x = auto.pointer_x.or(game_input.pointer_x);
            game_input.launch |= auto.launch;
            game_input.flip_left |= auto.flip_left;
            game_input.flip_right |= auto.flip_right;
            game_input.plunger |= auto.plunger;
            if auto.run_dir != 0 || auto.jump || auto.climb_dir != 0 {
                game_input.run_dir = auto.run_dir;
                game_input.climb_dir = auto.climb_dir;
                game_input.jump |= auto.jump;
            }
        }
        let dt = if self.fixed_dt {
            FIXED_FRAME_DT
        } else {
            wall_dt
        };
        let audio = &mut self.audio;
        let report = self
            .game
            .update_with(&game_input, dt, |game, _| audio.step(game));
        self.audio.end_frame(dt);
        self.fps.add(1, wall_dt);
        self.sps.add(u64::from(report.steps), wall_dt);
        if self.quit {
            Flow::Quit
        } else {
            Flow::Continue
        }
    }

    /// The sound (mute state, mixer counts, the last block mixed).
    #[must_use]
    pub fn audio(&self) -> &Audio {
        &self.audio
    }

    /// Whether the sound is off (`--mute`, M).
    #[must_use]
    pub fn muted(&self) -> bool {
        self.audio.muted()
    }

    /// Opens the default sound card and plays the game's sound on it from the next frame on.
    /// Without one (no device, none configured, busy) the game goes on silently: the returned
    /// line says why, for the frontend to print on stderr, `collide: no audio output device
    /// (…); the game runs silently`. `None` when the sound plays.
    pub fn open_audio_output(&mut self) -> Option<String> {
        match self.audio.open_output() {
            Ok(_) => None,
            Err(e) => Some(format!("collide: {e}; the game runs silently")),
        }
    }

    /// Moves `from`'s open sound output (and its mute setting) to this app: a frontend that
    /// replaces its app for a new scene keeps playing on the same output
    /// ([`collide_audio::Audio::adopt_output`]).
    pub fn adopt_audio_output(&mut self, from: &mut App) {
        self.audio.adopt_output(&mut from.audio);
    }

    /// Call once when the frontend exits, with [`App::save_replay`]: with `--record-audio
    /// FILE`, finishes the WAV file and returns the line to print, `collide: audio FILE (N
    /// samples, S s, peak P dBFS)`; without it, `None`. A second call returns `None`.
    ///
    /// # Errors
    /// [`FrontendError::Audio`] if the file could not be written.
    pub fn finish_audio(&mut self) -> Result<Option<String>, FrontendError> {
        self.audio
            .finish()
            .map(|summary| summary.map(|s| s.line()))
            .map_err(|e| FrontendError::Audio(Box::new(e)))
    }

    /// Whether the help overlay is shown (H or F1 toggles it).
    #[must_use]
    pub fn help_shown(&self) -> bool {
        self.help
    }

    /// Whether the scene is played with a paddle (by the game's rules).
    #[must_use]
    pub fn has_paddle(&self) -> bool {
        self.mode() == Mode::Paddle
    }

    /// What is played: a game with a paddle, a pinball table or a sandbox; the help and the
    /// bottom bar list the keys of that mode.
    #[must_use]
    pub fn mode(&self) -> Mode {
        if self.game.breaker().is_some() {
            Mode::Paddle
        } else if self.game.platformer().is_some() {
            Mode::Platformer
        } else if self.game.pinball().is_some() {
            Mode::Pinball
        } else {
            Mode::Sandbox
        }
    }

    /// Says whether Esc can quit this frontend (default: yes). A browser page cannot close
    /// itself: it says no, and the help bar and overlay do not offer Esc.
    pub fn set_can_quit(&mut self, can_quit: bool) {
        self.can_quit = can_quit;
    }

    /// The lines of the help overlay: a title, then one line per key that applies to this
    /// scene (`keys  what they do`, the keys padded to one column).
    #[must_use]
    pub fn help_lines(&self) -> Vec<String> {
        let mut keys = crate::keys::help(self.mode());
        if !self.can_quit {
            keys.retain(|l| l.keys != "ESC");
        }
        let w = keys.iter().map(|l| l.keys.len()).max().unwrap_or(0);
        let mut lines = vec![if self.mode() != Mode::Sandbox {
            "KEYS".to_owned()
        } else {
            format!(
                "KEYS ({} HAS NO PADDLE)",
                self.game.status().name.to_uppercase()
            )
        }];
        lines.extend(keys.iter().map(|l| format!("{:<w$}  {}", l.keys, l.what)));
        lines
    }

    /// Frames per second measured over the last half second.
    #[must_use]
    pub fn fps(&self) -> Real {
        self.fps.rate
    }

    /// Fixed steps per second measured over the last half second.
    #[must_use]
    pub fn steps_per_second(&self) -> Real {
        self.sps.rate
    }

    /// Paints the frame into `target` (any size; it becomes the layout of the next
    /// [`App::frame`]'s pointer mapping): the world with per-ball colours, power-ups, the aim
    /// preview, velocity lines (debug view, and sandboxes of at most 64 balls), the debug
    /// trace (in which sleeping balls, `crates/world/src/step/sleep/`, show at half brightness), the
    /// status bar, the help bar and the banner.
    pub fn draw<T: PixelTarget + ?Sized>(&mut self, target: &mut T) {
        self.size = (target.width(), target.height());
        let layout = self.layout();
        let game = &self.game;
        let world = game.world();
        let style = &self.style;
        let items = self.items();
        let debug = game.debug();
        let color = |b: &Ball| {
            let c = game
                .ball_color(b.id)
                .map_or(style.ball, |[r, g, b]| Rgb::new(r, g, b));
            if debug && world.ball_asleep(b.id) == Some(true) {
                Rgb::new(c.r / 2, c.g / 2, c.b / 2)
            } else {
                c
            }
        };
        let mut frame = Frame::new(world);
        frame.ball_color = Some(&color);
        frame.items = &items;
        if debug || (self.mode() == Mode::Sandbox && world.balls().len() <= 64) {
            frame.velocity_lines = Some(0.25);
        }
        if debug {
            frame.trace = Some(StepTrace {
                start: game.trace_start(),
                events: game.last_events(),
                normal_length: 20.0,
            });
        }
        render_frame(&frame, &layout.camera, style, target);
        self.draw_bars(&layout, target);
        self.draw_overlays(&layout, target);
    }

    /// The game's things as render items: power-ups (a box in their colour with a label) and
    /// the aim preview (dots every 6 world units along the path).
    fn items(&self) -> Vec<Item> {
        let mut items = Vec::new();
        let size = self.game.options().power_up_size;
        for p in self.game.power_ups() {
            let color = power_up_color(p.kind);
            items.push(Item::Box {
                aabb: p.aabb(size),
                color,
            });
            items.push(Item::Label {
                center: p.center,
                text: p.kind.label().to_owned(),
                height: size.y * 0.9,
                color: Rgb::BLACK,
            });
        }
        if let Some(p) = self.game.platformer() {
            platformer_items(p, self.game.world(), &mut items);
        }
        if let Some(path) = self.game.aim_preview() {
            let mut carry = 0.0;
            for seg in path.windows(2) {
                let (a, b) = (seg[0], seg[1]);
                let len = (b - a).length();
                let mut s = carry;
                while s < len {
                    items.push(Item::Disc {
                        center: a + (b - a) * (s / len),
                        radius: 1.1,
                        color: AIM,
                    });
                    s += 6.0;
                }
                carry = s - len;
            }
        }
        items
    }

    fn draw_bars<T: PixelTarget + ?Sized>(&self, layout: &Layout, target: &mut T) {
        if layout.bar == 0 {
            return;
        }
        let (w, h) = (layout.width, layout.height);
        let s = layout.font;
        let clip = PixelRect {
            x0: 0,
            y0: 0,
            x1: w,
            y1: h,
        };
        for (y0, y1) in [(0, layout.bar), (h - layout.bar, h)] {
            fill_rect(
                target,
                &PixelRect {
                    x0: 0,
                    y0,
                    x1: w,
                    y1,
                },
                BAR,
            );
        }
        let ty = (layout.bar - GLYPH_PX * s) / 2;
        let status = self.status_line();
        draw_text(target, 2 * s, ty, s, &status, self.style.hud_text, &clip);
        // The rates on the right: one line at the status' scale when there is room, else two
        // small lines.
        let (fps, sps) = self.perf_lines();
        let room = w.saturating_sub(text_width(&status, s) + 2 * s);
        let one = format!("{fps}  {sps}");
        if text_width(&one, s) + 6 * s <= room {
            let x = w - text_width(&one, s) - 2 * s;
            draw_text(target, x, ty, s, &one, PERF, &clip);
        } else {
            let pw = text_width(&fps, 1).max(text_width(&sps, 1));
            if pw + 8 <= room && layout.bar >= 2 * GLYPH_PX + 2 {
                let y0 = (layout.bar - 2 * GLYPH_PX - 2) / 2;
                draw_text(target, w - pw - 4, y0, 1, &fps, PERF, &clip);
                draw_text(target, w - pw - 4, y0 + GLYPH_PX + 2, 1, &sps, PERF, &clip);
            }
        }
        // Help: at scale 1 it fits 960 pixels; shorter forms for narrower frames.
        let hy = h - layout.bar + (layout.bar - GLYPH_PX) / 2;
        let lines: &[&str] = match self.mode() {
            Mode::Paddle => &HELP_LINES,
            Mode::Pinball => &HELP_LINES_PINBALL,
            Mode::Platformer => &HELP_LINES_PLATFORMER,
            Mode::Sandbox => &HELP_LINES_NO_PADDLE,
        };
        for help in lines {
            let help = if self.can_quit {
                help
            } else {
                help.trim_end_matches("  ESC QUIT")
            };
            if text_width(help, 1) + 4 <= w {
                let x = (w - text_width(help, 1)) / 2;
                draw_text(target, x, hy, 1, help, HELP_TEXT, &clip);
                break;
            }
        }
    }

    fn draw_overlays<T: PixelTarget + ?Sized>(&self, layout: &Layout, target: &mut T) {
        let game = &self.game;
        let cam = &layout.camera;
        let view = cam.pixels_of(
            &Aabb::new(Vec2::ZERO, game.world().size()),
            layout.width,
            layout.height,
        );
        if view.is_empty() {
            return;
        }
        if let Some(banner) = game.banner() {
            let mut lines = vec![banner.to_owned()];
            lines.extend(game.summary_line());
            let widest = lines.iter().map(|l| text_width(l, 2)).max().unwrap_or(0);
            let scale = if widest + 16 < view.x1 - view.x0 {
                2
            } else {
                1
            };
            let tw = lines
                .iter()
                .map(|l| text_width(l, scale))
                .max()
                .unwrap_or(0);
            let x = view.x0 + (view.x1 - view.x0).saturating_sub(tw) / 2;
            // Just below the map when there is a grid (above the paddle), else mid-height.
            let y_world = match game.world().grid() {
                Some(g) if game.breaker().is_some() => g.bounds().max.y + 40.0,
                _ => game.world().size().y * 0.5,
            };
            let y = cam.to_pixel(Vec2::new(0.0, y_world)).y.max(0.0) as usize;
            let hud = Hud {
                lines: &lines,
                x,
                y,
                scale,
            };
            paint_hud(&hud, &self.style, target);
        }
        if self.help {
            let lines = self.help_lines();
            let widest = lines.iter().map(|l| text_width(l, 1)).max().unwrap_or(0);
            let (w, h) = (view.x1 - view.x0, view.y1 - view.y0);
            let scale = if 2 * widest + 24 <= w && lines.len() * 20 + 24 <= h {
                2
            } else {
                1
            };
            let tw = widest * scale;
            let th = lines.len() * 10 * scale;
            let hud = Hud {
                lines: &lines,
                x: view.x0 + w.saturating_sub(tw) / 2,
                y: view.y0 + h.saturating_sub(th) / 2,
                scale,
            };
            paint_hud(&hud, &self.style, target);
        }
        if game.debug() {
            let lines = self.debug_lines();
            let hud = Hud {
                lines: &lines,
                x: view.x0 + 6,
                y: view.y0 + 6,
                scale: 1,
            };
            paint_hud(&hud, &self.style, target);
        }
    }

    /// The status bar's text: level, score, lives, bricks, balls (a pinball table: its name,
    /// score and balls left; a sandbox: its name and balls).
    #[must_use]
    pub fn status_line(&self) -> String {
        let st = self.game.status();
        if let Some(p) = self.game.platformer() {
            let left = p.chests().iter().filter(|c| !c.collected).count();
            return format!(
                "LEVEL {}/{}  SCORE {}  CHESTS LEFT {left}  BALLS {}",
                p.level() + 1,
                p.levels().len(),
                p.score(),
                st.balls
            )
            .replace("  ", if self.size.0 < 1100 { " " } else { "  " });
        }
        if let (Mode::Pinball, Some(left), Some(score)) = (self.mode(), st.lives, st.score) {
            return format!(
                "{}  SCORE {score}  BALLS LEFT {left}",
                st.name.to_uppercase()
            );
        }
        match (st.level, st.lives, st.score) {
            (level, Some(lives), Some(score)) => {
                let level = match level {
                    Some(n) => format!("LEVEL {n}/{LEVELS}"),
                    None => st.name.to_uppercase(),
                };
                format!(
                    "{level}  SCORE {score}  LIVES {lives}  BRICKS {}  BALLS {}",
                    st.bricks_left, st.balls
                )
                .replace("  ", if self.size.0 < 1100 { " " } else { "  " })
            }
            _ => format!("SANDBOX {}  BALLS {}", st.name.to_uppercase(), st.balls),
        }
    }

    /// The right of the status bar: frames per second (with the speed of time, the pause and
    /// `MUTED` when the sound is off), and fixed steps per second.
    #[must_use]
    pub fn perf_lines(&self) -> (String, String) {
        let mut fps = format!("{:.0} FPS", self.fps.rate);
        let speed = self.game.speed();
        if speed < 1.0 {
            fps.push_str(&format!(" x1/{:.0}", 1.0 / speed));
        } else if speed > 1.0 {
            fps.push_str(&format!(" x{speed:.0}"));
        }
        if self.game.paused() {
            fps.push_str(" PAUSED");
        }
        if self.audio.muted() {
            fps.push_str(" MUTED");
        }
        (fps, format!("{:.0} STEPS/S", self.sps.rate))
    }

    fn debug_lines(&self) -> Vec<String> {
        let g = &self.game;
        let w = g.world();
        let mut counts = [0usize; 5];
        for e in g.last_events() {
            let i = match e {
                collide_world::Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Cell(_),
                    ..
                }) => 0,
                collide_world::Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Wall(_),
                    ..
                }) => 1,
                collide_world::Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Ball(_),
                    ..
                }) => 2,
                collide_world::Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Rect(_),
                    ..
                }) => 3,
                _ => 4,
            };
            counts[i] += 1;
        }
        vec![
            "DEBUG VIEW (D)".to_owned(),
            format!(
                "STEP {}  T {:.2} S  DT {:.1} MS",
                w.steps(),
                w.time(),
                w.config().dt * 1000.0
            ),
            format!(
                "LAST STEP: {} TILE {} WALL {} BALL {} RECT {} OTHER",
                counts[0], counts[1], counts[2], counts[3], counts[4]
            ),
            format!("{} BALLS ASLEEP (DIMMED)", w.sleeping_balls()),
            "GREEN VELOCITY  BLUE PATH  PINK NORMAL".to_owned(),
        ]
    }

    /// Call after each frame is presented. Returns what to do at the end of a `--frames` run
    /// (after its last frame), `None` otherwise.
    pub fn presented(&mut self) -> Option<Finish> {
        self.frames_presented += 1;
        match self.frames_wanted {
            Some(n) if self.frames_presented == n => Some(Finish {
                screenshot: self.screenshot.clone(),
                linger: self.linger,
            }),
            _ => None,
        }
    }

    /// Frames presented so far.
    #[must_use]
    pub fn frames_presented(&self) -> u64 {
        self.frames_presented
    }

    /// The marker line printed once a screenshot is saved:
    /// `collide: screenshot FILE WxH after N frames`.
    #[must_use]
    pub fn screenshot_saved(&self, path: &std::path::Path, width: usize, height: usize) -> String {
        format!(
            "collide: screenshot {} {width}x{height} after {} frames",
            path.display(),
            self.frames_presented
        )
    }

    /// Call once when the frontend exits (Esc, window closed, the end of a `--frames` run):
    /// with `--save-replay FILE`, ends the recording, writes the replay and returns the line
    /// to print, `collide: replay FILE (N steps)`; without it, `None`. A second call returns
    /// `None`.
    ///
    /// # Errors
    /// [`FrontendError::Replay`] if the session cannot be replayed (see
    /// [`Game::take_replay`]) or the file cannot be written.
    pub fn save_replay(&mut self) -> Result<Option<String>, FrontendError> {
        let Some(file) = self.save_replay.take() else {
            return Ok(None);
        };
        let replay_err = |source| FrontendError::Replay {
            file: file.display().to_string(),
            source: Box::new(source),
        };
        let replay = self.game.take_replay().map_err(replay_err)?;
        replay.write(&file).map_err(replay_err)?;
        Ok(Some(format!(
            "collide: replay {} ({} steps)",
            file.display(),
            replay.steps()
        )))
    }

    /// The phase of the game, if it is played by the rules.
    #[must_use]
    pub fn phase(&self) -> Option<Phase> {
        self.game.breaker().map(collide_game::Breaker::phase)
    }
}

/// Balls dropped on a map (`--map`) when `--balls` is not given.
#[cfg(feature = "map-levels")]
pub const MAP_BALLS: usize = 300;

/// `--map FILE [--level NAME]`: the map's level as a sandbox, with `balls` (default
/// [`MAP_BALLS`]) balls of radius 3 placed at rest anywhere free (its one-way platforms are
/// one-way rectangles of the scene).
#[cfg(feature = "maps")]
fn map_source(
    file: &std::path::Path,
    level: Option<&str>,
    balls: Option<u32>,
) -> Result<Source, FrontendError> {
    let map = collide_maps::load(file, level, &collide_maps::MapConfig::default())
        .map_err(|e| FrontendError::Map(Box::new(e)))?;
    Ok(map_sandbox(map, balls))
}

/// A loaded map's level as a sandbox: `balls` (default [`MAP_BALLS`], or as many as the
/// level has room for when fewer) balls of radius 3 placed at rest anywhere free (seed 1).
#[cfg(feature = "map-levels")]
fn map_sandbox(map: collide_maps::MapLevel, balls: Option<u32>) -> Source {
    let mut scene = map.scene;
    let spawn = collide_world::SpawnDesc {
        count: balls.map_or(MAP_BALLS, |n| n as usize),
        radius: 3.0,
        speed: 0.0,
        density: 1.0,
        seed: 1,
        region: None,
        surface: Surface::DEFAULT,
    };
    scene.spawn = Some(spawn);
    // The default count on a level with less room (LDtk's World_Level_3 holds 270): as many
    // as the spawn places (the same balls: the spawn draws the same positions in the same
    // order). A count given with `--balls` is kept, and refused if it does not fit.
    if balls.is_none() {
        if let Err(collide_world::WorldError::SpawnImpossible { placed, .. }) =
            collide_world::World::from_scene(&scene)
        {
            scene.spawn = Some(collide_world::SpawnDesc {
                count: placed,
                ..spawn
            });
        }
    }
    Source::Sandbox(Box::new(scene))
}

/// Balls dropped on each level of `--platformer --sandbox` when `--balls` is not given.
pub const PLATFORMER_BALLS: usize = 100;

/// The balls dropped on each platformer level: none in the game, [`PLATFORMER_BALLS`] (or
/// `--balls`) in its sandbox.
fn platformer_balls(args: &Args) -> usize {
    if args.sandbox {
        args.balls.map_or(PLATFORMER_BALLS, |n| n as usize)
    } else {
        0
    }
}

/// `--platformer FILE`: the platformer on the map's levels, in order, with `balls` balls
/// dropped on each.
#[cfg(feature = "maps")]
fn platformer_source(file: &std::path::Path, balls: usize) -> Result<Source, FrontendError> {
    let levels = collide_game::PlatformerLevel::load_all(file)
        .map_err(|e| FrontendError::Map(Box::new(e)))?;
    Ok(Source::Platformer { levels, balls })
}

/// `--platformer` in a build without the `maps` feature (the browser's): refused.
#[cfg(not(feature = "maps"))]
fn platformer_source(_file: &std::path::Path, _balls: usize) -> Result<Source, FrontendError> {
    Err(FrontendError::Map(
        "this build opens no maps (collide-frontend's `maps` feature is off)".into(),
    ))
}

/// The platformer's things as render items: ladders, doors (green open, grey locked),
/// chests not yet collected, mobs and the player.
fn platformer_items(
    p: &collide_game::Platformer,
    world: &collide_world::World,
    items: &mut Vec<Item>,
) {
    for l in p.ladders() {
        let w = l.max.x - l.min.x;
        for x in [l.min.x + w * 0.2, l.max.x - w * 0.2] {
            items.push(Item::Line {
                from: Vec2::new(x, l.min.y),
                to: Vec2::new(x, l.max.y),
                color: LADDER,
            });
        }
        items.push(Item::Line {
            from: Vec2::new(l.min.x + w * 0.2, l.center().y),
            to: Vec2::new(l.max.x - w * 0.2, l.center().y),
            color: LADDER,
        });
    }
    for d in p.doors() {
        items.push(Item::Box {
            aabb: d.aabb,
            color: if p.door_open(d) {
                DOOR_OPEN
            } else {
                DOOR_LOCKED
            },
        });
    }
    for c in p.chests().iter().filter(|c| !c.collected) {
        items.push(Item::Box {
            aabb: c.aabb,
            color: CHEST,
        });
    }
    for m in p.mobs() {
        if let Some(c) = world.character(m.id) {
            items.push(Item::Box {
                aabb: c.aabb(),
                color: MOB,
            });
        }
    }
    if let Some(c) = world.character(p.player()) {
        items.push(Item::Box {
            aabb: c.aabb(),
            color: PLAYER,
        });
        let eye = c.pos + Vec2::new(c.vel.x.signum() * 2.5, -5.0);
        items.push(Item::Disc {
            center: eye,
            radius: 1.5,
            color: Rgb::BLACK,
        });
    }
}

/// The platformer's colours: ladders, open and locked doors, chests, mobs, the player.
pub const LADDER: Rgb = Rgb::new(170, 120, 60);
/// An open door.
pub const DOOR_OPEN: Rgb = Rgb::new(70, 200, 110);
/// A locked door.
pub const DOOR_LOCKED: Rgb = Rgb::new(110, 110, 120);
/// A chest.
pub const CHEST: Rgb = Rgb::new(240, 190, 40);
/// A mob.
pub const MOB: Rgb = Rgb::new(230, 70, 70);
/// The player.
pub const PLAYER: Rgb = Rgb::new(90, 170, 255);

/// `--map` in a build without the `maps` feature (the browser's): refused, with the reason.
#[cfg(not(feature = "maps"))]
fn map_source(
    _file: &std::path::Path,
    _level: Option<&str>,
    _balls: Option<u32>,
) -> Result<Source, FrontendError> {
    Err(FrontendError::Map(
        "this build opens no maps (collide-frontend's `maps` feature is off)".into(),
    ))
}

/// `--balls N`: a scene played by the rules fires `n` balls per launch (the volley); any other
/// scene opens with exactly `n` balls: its explicit balls first (the first `n` of them), then
/// random ones from its spawn (or, without one, balls of radius 3 at 144 units/s anywhere
/// free, seed 1, as `collide run --balls`).
fn with_balls(source: &mut Source, options: &mut Options, n: usize) {
    let scene = match source {
        Source::Level(_) | Source::Platformer { .. } => None,
        Source::Scene(s) if collide_game::is_breaker_scene(s) => None,
        Source::Scene(s) | Source::Sandbox(s) => Some(s),
    };
    let Some(scene) = scene else {
        options.volley = u32::try_from(n).unwrap_or(u32::MAX);
        return;
    };
    scene.balls.truncate(n);
    let random = n - scene.balls.len();
    match (&mut scene.spawn, random) {
        (_, 0) => scene.spawn = None,
        (Some(sp), _) => sp.count = random,
        (None, _) => {
            scene.spawn = Some(collide_world::SpawnDesc {
                count: random,
                radius: 3.0,
                speed: 144.0,
                density: 1.0,
                seed: 1,
                region: None,
                surface: Surface::DEFAULT,
            });
        }
    }
}

/// Paints a HUD panel (the renderer's HUD alone over an existing frame).
fn paint_hud<T: PixelTarget + ?Sized>(hud: &Hud<'_>, style: &Style, target: &mut T) {
    collide_render::draw_hud(hud, style, target);
}

/// The colour of a power-up's box.
#[must_use]
pub fn power_up_color(kind: PowerKind) -> Rgb {
    match kind {
        PowerKind::Triple => Rgb::new(250, 200, 40),
        PowerKind::Shoot3 => Rgb::new(90, 200, 255),
        PowerKind::Heart => Rgb::new(245, 90, 130),
    }
}

/// The dots of the aim preview.
pub const AIM: Rgb = Rgb::new(200, 200, 200);
/// The status and help bars.
pub const BAR: Rgb = Rgb::new(24, 24, 36);
/// The frame and step rates.
pub const PERF: Rgb = Rgb::new(120, 220, 140);
/// The help line.
pub const HELP_TEXT: Rgb = Rgb::new(150, 150, 170);

/// The help bar, longest first: the first that fits is drawn.
const HELP_LINES: [&str; 3] = [
    "MOUSE PADDLE  CLICK LAUNCH  Z/X AIM  1-7 LEVEL  TAB SCENE  P PAUSE  [ ] SPEED  D DEBUG  R RESTART  H HELP  ESC QUIT",
    "CLICK LAUNCH  Z/X AIM  1-7 LEVEL  TAB SCENE  P PAUSE  . STEP  [ ] SPEED  D DEBUG  R RESTART  H HELP",
    "CLICK LAUNCH  1-7  TAB  P  D  R  H HELP",
];

/// The help bar of a pinball table.
const HELP_LINES_PINBALL: [&str; 3] = [
    "Z / FLIPPERS  SPACE PLUNGER  1-7 LEVEL  TAB SCENE  P PAUSE  [ ] SPEED  D DEBUG  R RESTART  H HELP  ESC QUIT",
    "Z / FLIPPERS  SPACE PLUNGER  TAB SCENE  P PAUSE  . STEP  [ ] SPEED  D DEBUG  R RESTART  H HELP",
    "Z / FLIP  SPACE  TAB  P  R  H HELP",
];

/// The help bar of the platformer.
const HELP_LINES_PLATFORMER: [&str; 3] = [
    "ARROWS/WASD RUN, CLIMB  SPACE/UP JUMP  DOWN DROP  TAB SCENE  P PAUSE  [ ] SPEED  R RESTART  H HELP  ESC QUIT",
    "ARROWS/WASD RUN, CLIMB  SPACE/UP JUMP  TAB SCENE  P PAUSE  R RESTART  H HELP",
    "ARROWS  SPACE JUMP  P  R  H HELP",
];

/// The help bar of a scene without a paddle.
const HELP_LINES_NO_PADDLE: [&str; 3] = [
    "1-7 LEVEL  TAB SCENE  P PAUSE  . STEP  [ ] SPEED  D DEBUG  R RESTART  H HELP  ESC QUIT",
    "1-7 LEVEL  TAB SCENE  P PAUSE  . STEP  [ ] SPEED  D DEBUG  R RESTART  H HELP",
    "1-7  TAB  P  D  R  H HELP",
];
