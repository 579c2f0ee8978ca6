//! [`Game`]: a world, the rules that apply to it (BricksBeater's or none), the clock, and the
//! commands of the frontends.

use collide_core::{Real, Vec2};
use collide_scene::SceneError;
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{BallId, ContactHook, Event, RectId, Scene, World, WorldError};
use std::sync::Arc;

use crate::breaker::{is_breaker_scene, Breaker, Outcome, Phase, PowerUp};
use crate::clock::FixedStep;
use crate::colors::{BallColors, Rgb8, PALETTE};
use crate::events::GameEvent;
use crate::input::{Command, Input, StepInput};
use crate::options::Options;
use crate::pinball::{is_pinball_scene, Pinball};
use crate::platformer::{Platformer, PlatformerLevel};
use crate::policy::PowerKind;
use crate::replay::{Recorder, Replay, ReplayError, SceneText};

/// The demo scenes that Tab cycles through, in order, after the game.
pub const DEMOS: [&str; 8] = [
    "seed000_room",
    "seed002_billiards",
    "seed003_rects",
    "arena",
    "plinko",
    "bounce",
    "ramps",
    "pinball",
];

/// The number of BricksBeater levels built in: 7.
pub const LEVELS: u8 = 7;

/// The speeds of time that [`Command::Slower`] and [`Command::Faster`] step through.
pub const SPEEDS: [Real; 7] = [1.0 / 16.0, 1.0 / 8.0, 1.0 / 4.0, 1.0 / 2.0, 1.0, 2.0, 4.0];

/// Why a game could not be started.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum GameError {
    /// A level number outside 1 to 7.
    #[error("there is no level {0}: the built-in levels are 1 to 7")]
    NoSuchLevel(u8),
    /// The scene could not be found, read or parsed.
    #[error(transparent)]
    Scene(#[from] SceneError),
    /// The scene is valid but its world could not be built.
    #[error("scene `{name}`: {source}")]
    World {
        /// The scene's name.
        name: String,
        /// Why.
        #[source]
        source: WorldError,
    },
}

/// What to play.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// BricksBeater level `n` (1 to 7), played by the rules; clearing it leads to level
    /// `n + 1`.
    Level(u8),
    /// A scene played by the rules when [`is_breaker_scene`] says it can be, else run as a
    /// sandbox.
    Scene(Box<Scene>),
    /// A scene run as a sandbox: the physics alone, no rules.
    Sandbox(Box<Scene>),
    /// The platformer (`crate::platformer`) on these levels, in order, with `balls` balls
    /// dropped on each (0: none; more: the sandbox sub-mode).
    Platformer {
        /// The levels (at least one).
        levels: Vec<PlatformerLevel>,
        /// Balls of radius 3 dropped on each level.
        balls: usize,
    },
}

impl Source {
    /// The source for a command-line argument: a built-in `level_N` (played as level N unless
    /// `sandbox`), another built-in name, a scene file or a bare `.dat` level (see
    /// `collide_scenes::resolve`).
    ///
    /// # Errors
    /// [`GameError::Scene`] for a missing or invalid file or an unknown name (the message
    /// lists the built-in names).
    pub fn from_arg(arg: &str, sandbox: bool) -> Result<Source, GameError> {
        if !sandbox {
            if let Some(n) = arg
                .strip_prefix("level_")
                .and_then(|n| n.parse::<u8>().ok())
            {
                if (1..=LEVELS).contains(&n) && collide_scenes::source(arg).is_some() {
                    return Ok(Source::Level(n));
                }
            }
        }
        let scene = collide_scenes::resolve(arg)?;
        Ok(if sandbox {
            Source::Sandbox(Box::new(scene))
        } else {
            Source::Scene(Box::new(scene))
        })
    }

    /// A built-in demo scene: a pinball table played by its rules, the others run as
    /// sandboxes.
    ///
    /// # Errors
    /// [`GameError::Scene`] if `name` is not built in (see `collide_scenes::names`).
    pub fn demo(name: &str) -> Result<Source, GameError> {
        match collide_scenes::load(name) {
            Some(Ok(s)) if is_pinball_scene(&s) => Ok(Source::Scene(Box::new(s))),
            Some(Ok(s)) => Ok(Source::Sandbox(Box::new(s))),
            Some(Err(e)) => Err(e.into()),
            None => Err(SceneError::UnknownScene {
                name: name.to_owned(),
                known: collide_scenes::names()
                    .iter()
                    .map(|n| (*n).to_owned())
                    .collect(),
            }
            .into()),
        }
    }

    /// A short name: `level 3`, or the scene's name.
    #[must_use]
    pub fn name(&self) -> String {
        match self {
            Source::Level(n) => format!("level {n}"),
            Source::Scene(s) | Source::Sandbox(s) => s.name.clone(),
            Source::Platformer { balls: 0, .. } => "platformer".to_owned(),
            Source::Platformer { .. } => "platformer sandbox".to_owned(),
        }
    }
}

/// What one call of [`Game::update`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameReport {
    /// Fixed steps run.
    pub steps: u32,
}

/// A game from its first serve to its end (or to now): what the summary after a game shows.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct RunSummary {
    /// Score at the end.
    pub score: u64,
    /// The highest level reached (1 to 7), `None` for a scene that is not a built-in level.
    pub level: Option<u8>,
    /// Game time played, seconds: fixed steps run while the game went on (not paused, not
    /// after its end) times the step.
    pub seconds: Real,
    /// Whether every level was cleared.
    pub won: bool,
}

impl RunSummary {
    /// One line for a HUD: `SCORE 3150  LEVEL 2  TIME 1:23`.
    #[must_use]
    pub fn line(&self) -> String {
        let t = self.seconds.max(0.0).round() as u64;
        let level = self.level.map_or(String::new(), |n| format!("  LEVEL {n}"));
        format!("SCORE {}{level}  TIME {}:{:02}", self.score, t / 60, t % 60)
    }
}

/// What a HUD shows, read from the game.
#[derive(Clone, Debug, PartialEq)]
pub struct Status {
    /// What is played: `level 1`, or a scene's name.
    pub name: String,
    /// The level number of a built-in level.
    pub level: Option<u8>,
    /// Lives left (`None` in a sandbox).
    pub lives: Option<u32>,
    /// Score (`None` in a sandbox).
    pub score: Option<u64>,
    /// The phase of the game (`None` in a sandbox).
    pub phase: Option<Phase>,
    /// Bricks left in the grid.
    pub bricks_left: usize,
    /// Balls in the world.
    pub balls: usize,
    /// Whether time is paused.
    pub paused: bool,
    /// Speed of time (1 = real time).
    pub speed: Real,
    /// Whether the debug view is on.
    pub debug: bool,
    /// Fixed steps run since the scene was loaded.
    pub steps: u64,
    /// The last command that failed, if any.
    pub error: Option<String>,
}

/// A game: a world, BricksBeater's rules when the scene is a level (else a sandbox with no
/// rules), the fixed-step clock, ball colours, and the debug trace of the last step.
///
/// Deterministic: the same [`Source`], [`Options`] and the same [`StepInput`] at every step
/// give the same state, bit for bit (no hashing, no trigonometry, no wall-clock time inside a
/// step; [`Game::update`] only decides how many steps a frame runs).
#[derive(Clone, Debug)]
pub struct Game {
    options: Options,
    source: Source,
    last_level: u8,
    world: World,
    breaker: Option<Breaker>,
    pinball: Option<Pinball>,
    platformer: Option<Platformer>,
    colors: BallColors,
    clock: FixedStep,
    paused: bool,
    pending_steps: u32,
    pending_launch: bool,
    speed_index: usize,
    debug: bool,
    trace_start: Vec<(BallId, Vec2)>,
    last_events: Vec<Event>,
    last_game_events: Vec<GameEvent>,
    error: Option<String>,
    /// The session's recording, while one runs ([`Game::start_recording`]).
    recorder: Option<Box<Recorder>>,
    /// The game being played: steps run, the highest level reached.
    run_steps: u64,
    run_level: Option<u8>,
    /// The summary of the last game that ended (game over or victory), once a new one
    /// started with a launch.
    last_run: Option<RunSummary>,
    /// The contact hook a sandbox steps with, and the source it belongs to
    /// ([`Game::set_contact_hook`]).
    hook: Option<SandboxHook>,
}

/// A sandbox's contact hook and the source it belongs to.
#[derive(Clone)]
struct SandboxHook {
    source: Source,
    hook: Arc<dyn ContactHook>,
}

impl std::fmt::Debug for SandboxHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SandboxHook")
            .field("source", &self.source)
            .finish_non_exhaustive()
    }
}

impl Game {
    /// Starts `source` with `options`.
    ///
    /// # Errors
    /// [`GameError`] when the level or scene cannot be loaded or built.
    pub fn new(source: Source, options: Options) -> Result<Game, GameError> {
        let Built {
            world,
            breaker,
            pinball,
            platformer,
            colors,
        } = build(&source, &options, options.lives, 0)?;
        let last_level = match source {
            Source::Level(n) => n,
            _ => 1,
        };
        let clock = FixedStep::new(world.config().dt, options.max_steps_per_frame);
        let source_level = match source {
            Source::Level(n) => Some(n),
            _ => None,
        };
        Ok(Game {
            options,
            source,
            last_level,
            world,
            breaker,
            pinball,
            platformer,
            colors,
            clock,
            paused: false,
            pending_steps: 0,
            pending_launch: false,
            speed_index: 4,
            debug: false,
            trace_start: Vec::new(),
            last_events: Vec::new(),
            last_game_events: Vec::new(),
            error: None,
            recorder: None,
            run_steps: 0,
            run_level: source_level,
            last_run: None,
            hook: None,
        })
    }

    /// Level 1 with the default options.
    ///
    /// # Errors
    /// Never in practice (the levels are built in and tested); typed for safety.
    pub fn level_1() -> Result<Game, GameError> {
        Game::new(Source::Level(1), Options::default())
    }

    /// Loads `source` in place (a new game: full lives, score 0; pause, speed and debug are
    /// kept).
    ///
    /// While recording, a built-in level is recorded as [`Command::Level`] and the current
    /// source as [`Command::Restart`]; any other source cannot be replayed and makes
    /// [`Game::take_replay`] fail.
    ///
    /// # Errors
    /// As [`Game::new`]; the current game is kept then.
    pub fn load(&mut self, source: Source) -> Result<(), GameError> {
        if let Some(r) = &mut self.recorder {
            match source {
                Source::Level(n) => r.command(Command::Level(n)),
                _ if source == self.source => r.command(Command::Restart),
                _ => r.untrack("Game::load of a scene that is not a built-in level"),
            }
        }
        self.load_new(source)
    }

    /// [`Game::load`] without recording.
    fn load_new(&mut self, source: Source) -> Result<(), GameError> {
        self.load_keeping(source, self.options.lives, 0)?;
        self.run_steps = 0;
        self.run_level = match self.source {
            Source::Level(n) => Some(n),
            _ => None,
        };
        Ok(())
    }

    fn load_keeping(&mut self, source: Source, lives: u32, score: u64) -> Result<(), GameError> {
        let Built {
            world,
            breaker,
            pinball,
            platformer,
            colors,
        } = build(&source, &self.options, lives, score)?;
        if let Source::Level(n) = source {
            self.last_level = n;
            self.run_level = Some(self.run_level.map_or(n, |m| m.max(n)));
        }
        self.clock = FixedStep::new(world.config().dt, self.options.max_steps_per_frame);
        if self.hook.as_ref().is_some_and(|h| h.source != source) {
            self.hook = None;
        }
        self.world = world;
        self.breaker = breaker;
        self.pinball = pinball;
        self.platformer = platformer;
        self.colors = colors;
        self.source = source;
        self.pending_launch = false;
        self.pending_steps = 0;
        self.trace_start.clear();
        self.last_events.clear();
        self.last_game_events.clear();
        self.error = None;
        Ok(())
    }

    /// Makes the sandbox of the current source step with `hook` (a game's own contact rule:
    /// bumpers that shoot balls, ghosts that pass through): every contact is offered to it
    /// (`World::step_with`). It stays through restarts of the same source and is dropped when
    /// another source is loaded. Games played by the rules (BricksBeater levels, the pinball
    /// table) step without it. A hook that refuses a step leaves the world as it was; the
    /// refusal is shown in [`Game::status`] (`Status::error`).
    pub fn set_contact_hook(&mut self, hook: Arc<dyn ContactHook>) {
        self.hook = Some(SandboxHook {
            source: self.source.clone(),
            hook,
        });
    }

    /// Starts the current source again (a new game). Recorded as [`Command::Restart`] while
    /// recording.
    ///
    /// # Errors
    /// As [`Game::new`] (cannot happen for a source that loaded once).
    pub fn restart(&mut self) -> Result<(), GameError> {
        if let Some(r) = &mut self.recorder {
            r.command(Command::Restart);
        }
        self.load_new(self.source.clone())
    }

    /// Whether the game is as [`Game::new`] leaves it: no step run, no score, full lives, no
    /// level changed on the way (a recording must start there).
    pub(crate) fn is_fresh(&self) -> bool {
        let first_level = match self.source {
            Source::Level(n) => n,
            _ => 1,
        };
        self.world.steps() == 0
            && self.last_level == first_level
            && self.breaker.as_ref().is_none_or(|b| {
                b.score() == 0 && b.lives() == self.options.lives && b.phase() == Phase::Serving
            })
            && self
                .pinball
                .as_ref()
                .is_none_or(|p| p.score() == 0 && p.balls_left() == crate::pinball::BALLS)
    }

    /// Starts recording the session into a [`Replay`]: from now on every [`Game::command`],
    /// [`Game::step`] (so every [`Game::update`]), [`Game::load`] and [`Game::restart`] is
    /// recorded in call order, with the [`Game::state_hash`] now, after every `hash_every`-th
    /// step and (at [`Game::take_replay`]) after the last one. A recording already running is
    /// replaced.
    ///
    /// # Arguments
    /// - `scene`: the source text of the scene played (for [`Source::Level`] `n`:
    ///   `SceneText::builtin("level_n")`); it must parse to exactly that scene.
    /// - `hash_every`: steps between two recorded hashes, at least 1
    ///   ([`crate::replay::DEFAULT_HASH_EVERY`] = 60).
    ///
    /// # Errors
    /// [`ReplayError::NotAtStart`] unless the game is fresh (no step run since it was built
    /// or loaded, no score); [`ReplayError::Scene`] if `scene` does not parse,
    /// [`ReplayError::SceneMismatch`] if it gives another scene than the one played;
    /// [`ReplayError::BadHashInterval`] for `hash_every` 0.
    pub fn start_recording(
        &mut self,
        scene: SceneText,
        hash_every: u32,
    ) -> Result<(), ReplayError> {
        let recorder = Recorder::new(self, scene, hash_every)?;
        self.recorder = Some(Box::new(recorder));
        Ok(())
    }

    /// Whether a recording runs.
    #[must_use]
    pub fn is_recording(&self) -> bool {
        self.recorder.is_some()
    }

    /// Steps recorded so far, `None` when not recording.
    #[must_use]
    pub fn recorded_steps(&self) -> Option<u64> {
        self.recorder.as_ref().map(|r| r.steps())
    }

    /// Ends the recording and returns the replay (its last hash is the state now).
    ///
    /// # Errors
    /// [`ReplayError::NotRecording`] if no recording runs; [`ReplayError::Untracked`] if the
    /// session did something a replay cannot hold ([`Game::world_mut`],
    /// [`Game::breaker_mut`], [`Game::load`] of a scene, more than
    /// [`crate::replay::MAX_STEPS`] steps).
    pub fn take_replay(&mut self) -> Result<Replay, ReplayError> {
        let recorder = self.recorder.take().ok_or(ReplayError::NotRecording)?;
        recorder.finish(self.state_hash())
    }

    /// Applies a command (see [`Command`]). A scene that fails to load leaves the game as it
    /// was and its error in [`Status::error`].
    pub fn command(&mut self, c: Command) {
        if let Some(r) = &mut self.recorder {
            r.command(c);
        }
        let result = match c {
            Command::TogglePause => {
                self.paused = !self.paused;
                self.pending_steps = 0;
                self.clock.reset();
                Ok(())
            }
            Command::SingleStep => {
                self.paused = true;
                self.pending_steps = self.pending_steps.saturating_add(1);
                Ok(())
            }
            Command::Slower => {
                self.speed_index = self.speed_index.saturating_sub(1);
                Ok(())
            }
            Command::Faster => {
                self.speed_index = (self.speed_index + 1).min(SPEEDS.len() - 1);
                Ok(())
            }
            Command::ToggleDebug => {
                self.debug = !self.debug;
                Ok(())
            }
            Command::Restart => self.load_new(self.source.clone()),
            Command::Level(n) if (1..=LEVELS).contains(&n) => self.load_new(Source::Level(n)),
            Command::Level(_) => Ok(()),
            Command::NextScene => self.next_scene(),
        };
        if let Err(e) = result {
            self.error = Some(e.to_string());
        }
    }

    fn next_scene(&mut self) -> Result<(), GameError> {
        let current = match &self.source {
            Source::Sandbox(s) | Source::Scene(s) => DEMOS.iter().position(|d| *d == s.name),
            Source::Level(_) | Source::Platformer { .. } => None,
        };
        let next = match current {
            None => Source::demo(DEMOS[0])?,
            Some(i) if i + 1 < DEMOS.len() => Source::demo(DEMOS[i + 1])?,
            Some(_) => Source::Level(self.last_level),
        };
        self.load_new(next)
    }

    /// Runs one frame: applies `input.commands`, then as many fixed steps as `frame_dt`
    /// seconds (times the speed of time) hold, at most [`Options::max_steps_per_frame`]; while
    /// paused, only the steps asked by [`Command::SingleStep`]. Every step sees the pointer
    /// and held keys of `input`; a launch goes to the first step run (it waits for one).
    pub fn update(&mut self, input: &Input, frame_dt: Real) -> FrameReport {
        self.update_with(input, frame_dt, |_, _| {})
    }

    /// [`Game::update`], calling `after_step(game, k)` after each fixed step it runs (`k`: 0
    /// for the frame's first step, 1 for the second, ...), so that the events of every step
    /// of the frame can be read ([`Game::last_events`], [`Game::last_game_events`]), not only
    /// those of its last one. The hook sees the game read-only; what it does changes nothing
    /// in the game.
    pub fn update_with<F: FnMut(&Game, u32)>(
        &mut self,
        input: &Input,
        frame_dt: Real,
        mut after_step: F,
    ) -> FrameReport {
        for c in &input.commands {
            self.command(*c);
        }
        if input.launch {
            self.pending_launch = true;
        }
        let steps = if self.paused {
            std::mem::take(&mut self.pending_steps)
        } else {
            self.clock.advance(frame_dt * SPEEDS[self.speed_index])
        };
        for k in 0..steps {
            let si = StepInput {
                launch: std::mem::take(&mut self.pending_launch),
                ..StepInput::from(input)
            };
            self.step(&si);
            after_step(self, k);
        }
        FrameReport { steps }
    }

    /// Runs exactly one fixed step with `input` (rules, world step, policies). This is what
    /// [`Game::update`] calls; tests and replays call it directly. Recorded while a recording
    /// runs.
    pub fn step(&mut self, input: &StepInput) {
        let hash_due = self.recorder.as_mut().is_some_and(|r| r.step(input));
        self.step_unrecorded(input);
        if hash_due {
            let h = self.state_hash();
            if let Some(r) = &mut self.recorder {
                r.hash(h);
            }
        }
    }

    fn step_unrecorded(&mut self, input: &StepInput) {
        let trace = if self.debug {
            Some(&mut self.trace_start)
        } else {
            self.trace_start.clear();
            None
        };
        match &mut self.breaker {
            Some(b) => {
                if !matches!(b.phase(), Phase::GameOver | Phase::Victory) {
                    self.run_steps += 1;
                }
                let outcome = b.step(
                    &mut self.world,
                    &mut self.colors,
                    &self.options,
                    input,
                    trace,
                    &mut self.last_events,
                    &mut self.last_game_events,
                );
                match outcome {
                    Outcome::Continue => {}
                    Outcome::Restart => {
                        // "Play again" after a game ended: a new game from level 1 (a scene
                        // that is not a built-in level starts again), and the summary of the
                        // game that ended is kept to be shown.
                        let summary = self.run();
                        let r = if matches!(self.source, Source::Level(_)) {
                            self.load_new(Source::Level(1))
                        } else {
                            self.load_new(self.source.clone())
                        };
                        self.note(r);
                        self.last_run = Some(summary);
                    }
                    Outcome::NextLevel => {
                        let (lives, score) = (b.lives(), b.score());
                        let next = match b.level() {
                            Some(n) if n < LEVELS => Some(Source::Level(n + 1)),
                            _ => None,
                        };
                        match next {
                            Some(source) => {
                                let r = self.load_keeping(source, lives, score);
                                self.note(r);
                            }
                            None => {
                                if let Some(b) = &mut self.breaker {
                                    b.phase = Phase::Victory;
                                }
                            }
                        }
                    }
                }
            }
            None if self.platformer.is_some() => {
                if let Some(start) = trace {
                    start.clear();
                    start.extend(self.world.balls().iter().map(|b| (b.id, b.pos)));
                }
                let Some(p) = &mut self.platformer else {
                    return;
                };
                if p.phase() != Phase::Victory {
                    self.run_steps += 1;
                }
                p.step(
                    &mut self.world,
                    input,
                    &mut self.last_events,
                    &mut self.last_game_events,
                );
            }
            None if self.pinball.is_some() => {
                if let Some(start) = trace {
                    start.clear();
                    start.extend(self.world.balls().iter().map(|b| (b.id, b.pos)));
                }
                let Some(p) = &mut self.pinball else { return };
                if p.phase() != Phase::GameOver {
                    self.run_steps += 1;
                }
                let outcome = p.step(
                    &mut self.world,
                    input,
                    &mut self.last_events,
                    &mut self.last_game_events,
                );
                if outcome == Outcome::Restart {
                    let summary = self.run();
                    let r = self.load_new(self.source.clone());
                    self.note(r);
                    self.last_run = Some(summary);
                }
            }
            None => {
                if let Some(start) = trace {
                    start.clear();
                    start.extend(self.world.balls().iter().map(|b| (b.id, b.pos)));
                }
                match self.hook.as_ref().map(|h| Arc::clone(&h.hook)) {
                    Some(h) => {
                        if let Err(e) = self.world.step_with(h.as_ref()) {
                            // The world is as before the step (`World::step_with`).
                            self.error = Some(format!("contact hook: {e}"));
                        }
                    }
                    None => {
                        self.world.step();
                    }
                }
                self.last_events = self.world.take_events();
                self.last_game_events.clear();
                for e in &self.last_events {
                    match *e {
                        Event::Contact(Contact {
                            body: Body::Ball(a),
                            other: Target::Ball(b),
                            ..
                        }) if self.options.color_swap => {
                            self.colors.swap(a, b);
                        }
                        Event::BallLost { ball, .. } => self.colors.remove(ball),
                        _ => {}
                    }
                }
            }
        }
    }

    fn note(&mut self, r: Result<(), GameError>) {
        if let Err(e) = r {
            self.error = Some(e.to_string());
        }
    }

    /// The game being played so far (score, highest level, game time), also at its end
    /// (game over, victory) until a new game starts.
    #[must_use]
    pub fn run(&self) -> RunSummary {
        let b = self.breaker.as_ref();
        let p = self.pinball.as_ref();
        let f = self.platformer.as_ref();
        RunSummary {
            score: b.map_or(0, Breaker::score)
                + p.map_or(0, Pinball::score)
                + f.map_or(0, Platformer::score),
            level: self.run_level,
            seconds: self.run_steps as Real * self.world.config().dt,
            won: b.map(Breaker::phase) == Some(Phase::Victory)
                || f.map(Platformer::phase) == Some(Phase::Victory),
        }
    }

    /// The summary of the last game that ended (game over or victory), kept from the launch
    /// that started the next one ("play again"); `None` before any game ended.
    #[must_use]
    pub fn last_run(&self) -> Option<RunSummary> {
        self.last_run
    }

    /// The summary line a HUD shows under the banner: at the end of a game (game over,
    /// victory) the game's own `SCORE …  LEVEL …  TIME m:ss`; after "play again", while the
    /// new game's first ball waits (score 0, full lives), `LAST GAME: SCORE …`. `None`
    /// otherwise, and in a sandbox.
    #[must_use]
    pub fn summary_line(&self) -> Option<String> {
        if let Some(p) = &self.platformer {
            return (p.phase() == Phase::Victory).then(|| self.run().line());
        }
        if let Some(p) = &self.pinball {
            return match p.phase() {
                Phase::GameOver => Some(self.run().line()),
                Phase::Serving if p.score() == 0 && p.balls_left() == crate::pinball::BALLS => {
                    self.last_run.map(|r| format!("LAST GAME: {}", r.line()))
                }
                _ => None,
            };
        }
        let b = self.breaker.as_ref()?;
        match b.phase() {
            Phase::GameOver | Phase::Victory => Some(self.run().line()),
            Phase::Serving if b.score() == 0 && b.lives() == self.options.lives => {
                self.last_run.map(|r| format!("LAST GAME: {}", r.line()))
            }
            _ => None,
        }
    }

    /// The world (read it to draw).
    #[must_use]
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world, mutable: for tests and tools. The rules assume their paddle and balls stay
    /// where the world put them; edits between steps are allowed (the world pushes embedded
    /// bodies out at the next step). Edits are not recorded: calling this while recording
    /// makes [`Game::take_replay`] fail.
    #[must_use]
    pub fn world_mut(&mut self) -> &mut World {
        if let Some(r) = &mut self.recorder {
            r.untrack("Game::world_mut (direct edits of the world)");
        }
        &mut self.world
    }

    /// The rules' state, `None` in a sandbox.
    #[must_use]
    pub fn breaker(&self) -> Option<&Breaker> {
        self.breaker.as_ref()
    }

    /// The platformer's state, `None` unless the platformer is played.
    #[must_use]
    pub fn platformer(&self) -> Option<&Platformer> {
        self.platformer.as_ref()
    }

    /// The pinball rules' state, `None` unless a table is played.
    #[must_use]
    pub fn pinball(&self) -> Option<&Pinball> {
        self.pinball.as_ref()
    }

    /// Drops a power-up of `kind` centred at `center` (world units) as a destroyed brick
    /// would ([`Breaker::drop_power_up`]; tests and tools). Not recorded: calling this while
    /// recording makes [`Game::take_replay`] fail.
    ///
    /// # Errors
    /// [`WorldError::BadSetting`] (field `breaker`) in a sandbox; the world's errors for a
    /// centre outside its bounds or past its rectangle limit.
    pub fn drop_power_up(&mut self, kind: PowerKind, center: Vec2) -> Result<RectId, WorldError> {
        if let Some(r) = &mut self.recorder {
            r.untrack("Game::drop_power_up (direct edits of the rules)");
        }
        let Some(b) = self.breaker.as_mut() else {
            return Err(WorldError::BadSetting {
                field: "breaker",
                problem: "a sandbox has no power-ups".to_string(),
            });
        };
        b.drop_power_up(&mut self.world, &self.options, kind, center)
    }

    /// The rules' state, mutable (tests and tools). Edits are not recorded: calling this
    /// while recording makes [`Game::take_replay`] fail.
    #[must_use]
    pub fn breaker_mut(&mut self) -> Option<&mut Breaker> {
        if let Some(r) = &mut self.recorder {
            r.untrack("Game::breaker_mut (direct edits of the rules)");
        }
        self.breaker.as_mut()
    }

    /// The options.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// What is played.
    #[must_use]
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The colour of a ball, `None` for the renderer's default.
    #[must_use]
    pub fn ball_color(&self, id: BallId) -> Option<Rgb8> {
        self.colors.get(id)
    }

    /// The falling power-ups (empty in a sandbox).
    #[must_use]
    pub fn power_ups(&self) -> &[PowerUp] {
        self.breaker.as_ref().map_or(&[], |b| b.power_ups())
    }

    /// The aim preview polyline (world units) while a ball waits on the paddle.
    #[must_use]
    pub fn aim_preview(&self) -> Option<Vec<Vec2>> {
        self.breaker
            .as_ref()?
            .aim_preview(&self.world, &self.options)
    }

    /// Whether the debug view is on.
    #[must_use]
    pub fn debug(&self) -> bool {
        self.debug
    }

    /// Whether time is paused.
    #[must_use]
    pub fn paused(&self) -> bool {
        self.paused
    }

    /// The speed of time (1 = real time).
    #[must_use]
    pub fn speed(&self) -> Real {
        SPEEDS[self.speed_index]
    }

    /// The events of the last step.
    #[must_use]
    pub fn last_events(&self) -> &[Event] {
        &self.last_events
    }

    /// What the rules did in the last step (power-ups caught, a life lost, the level
    /// cleared), in the order it happened; always empty in a sandbox.
    #[must_use]
    pub fn last_game_events(&self) -> &[GameEvent] {
        &self.last_game_events
    }

    /// Ball centres at the start of the last step (recorded only while the debug view is on;
    /// empty otherwise).
    #[must_use]
    pub fn trace_start(&self) -> &[(BallId, Vec2)] {
        &self.trace_start
    }

    /// What a HUD shows.
    #[must_use]
    pub fn status(&self) -> Status {
        let b = self.breaker.as_ref();
        let p = self.pinball.as_ref();
        let f = self.platformer.as_ref();
        Status {
            name: self.source.name(),
            level: b
                .and_then(Breaker::level)
                .or(f.and_then(|f| u8::try_from(f.level() + 1).ok())),
            lives: b.map(Breaker::lives).or(p.map(Pinball::balls_left)),
            score: b
                .map(Breaker::score)
                .or(p.map(Pinball::score))
                .or(f.map(Platformer::score)),
            phase: b
                .map(Breaker::phase)
                .or(p.map(Pinball::phase))
                .or(f.map(Platformer::phase)),
            bricks_left: self.world.grid().map_or(0, |g| g.bricks_left()),
            balls: self.world.balls().len(),
            paused: self.paused,
            speed: self.speed(),
            debug: self.debug,
            steps: self.world.steps(),
            error: self.error.clone(),
        }
    }

    /// A line for the middle of the screen, if the phase calls for one.
    #[must_use]
    pub fn banner(&self) -> Option<&'static str> {
        if self.paused {
            return Some("PAUSED  (P resumes, . steps)");
        }
        if let Some(p) = &self.platformer {
            return (p.phase() == Phase::Victory).then_some("ALL LEVELS CLEARED - R TO PLAY AGAIN");
        }
        if let Some(p) = &self.pinball {
            return match p.phase() {
                Phase::Serving => Some("HOLD SPACE TO PULL THE PLUNGER, RELEASE TO SHOOT"),
                Phase::GameOver => Some("GAME OVER - SPACE TO PLAY AGAIN"),
                _ => None,
            };
        }
        match self.breaker.as_ref()?.phase() {
            Phase::Serving => Some("CLICK OR SPACE TO LAUNCH"),
            Phase::Playing => None,
            Phase::LevelCleared { .. } => Some("LEVEL CLEARED!"),
            Phase::GameOver => Some("GAME OVER - CLICK TO PLAY AGAIN"),
            Phase::Victory => Some("ALL LEVELS CLEARED - CLICK TO PLAY AGAIN"),
        }
    }

    /// A simple player, for demos and tests: the pointer follows the ball that will reach the
    /// paddle's height first (the lowest one coming down, else the lowest one), a little off
    /// centre so that english varies, and it launches whenever a ball waits or the game is
    /// over. Deterministic: a function of the state only.
    #[must_use]
    pub fn autopilot(&self) -> Input {
        if let Some(p) = &self.platformer {
            let s = p.autopilot(&self.world);
            return Input {
                run_dir: s.run_dir,
                climb_dir: s.climb_dir,
                jump: s.jump,
                ..Input::default()
            };
        }
        if let Some(p) = &self.pinball {
            return p.autopilot(&self.world);
        }
        let Some(b) = &self.breaker else {
            return Input::default();
        };
        let launch = matches!(b.phase(), Phase::Serving | Phase::GameOver | Phase::Victory);
        let paddle_y = self
            .world
            .rect(b.paddle())
            .map_or(self.world.size().y, |r| r.aabb.min.y);
        let mut best: Option<(bool, Real, Real)> = None;
        for ball in self.world.balls() {
            if b.resting().contains(&ball.id) || ball.pos.y > paddle_y {
                continue;
            }
            let key = (ball.vel.y > 0.0, ball.pos.y, ball.pos.x);
            if best.is_none_or(|k| (key.0, key.1) > (k.0, k.1)) {
                best = Some(key);
            }
        }
        // Off centre by up to 0.6 of the half-paddle, changing every 2 s (-24, -12, 0, 12,
        // 24 units), so that english sends the balls all ways.
        let phase = (self.world.steps() / 120) % 5;
        let offset = (phase as Real - 2.0) * 12.0;
        let pointer_x = best.map(|(_, _, x)| x - offset);
        Input {
            pointer_x,
            launch,
            ..Input::default()
        }
    }

    /// A 64-bit hash of the whole game state: the world's [`World::state_hash`] and the rules'
    /// state (lives, score, phase, waiting balls, power-ups, aim, the generator), FNV-1a over
    /// 64-bit words. Equal hashes after equal inputs show the game is deterministic.
    #[must_use]
    pub fn state_hash(&self) -> u64 {
        let mut h = Fnv(0xcbf2_9ce4_8422_2325);
        h.word(self.world.state_hash());
        if let Some(b) = &self.breaker {
            h.word(u64::from(b.lives()));
            h.word(b.score());
            h.word(match b.phase() {
                Phase::Serving => 0,
                Phase::Playing => 1,
                Phase::LevelCleared { steps_left } => 2 | u64::from(steps_left) << 8,
                Phase::GameOver => 3,
                Phase::Victory => 4,
            });
            for id in b.resting() {
                h.word(id.to_bits());
            }
            for p in b.power_ups() {
                h.word(p.kind as u64);
                h.word(p.center.x.to_bits());
                h.word(p.center.y.to_bits());
            }
            h.word(b.aim().to_bits());
            h.word(u64::from(b.volley_left));
            h.word(u64::from(b.volley_timer));
            h.word(b.volley_vel.x.to_bits());
            h.word(b.volley_vel.y.to_bits());
            h.word(b.target_x.to_bits());
            // Rained balls (none on levels that can be reached from below).
            for (id, left) in &b.rain {
                h.word(id.to_bits());
                h.word(u64::from(*left));
            }
            let mut rng = b.rng().clone();
            h.word(rng.next_u64());
        }
        if let Some(p) = &self.pinball {
            h.word(u64::from(p.balls_left()));
            h.word(p.score());
            h.word(match p.phase() {
                Phase::Serving => 0,
                Phase::Playing => 1,
                _ => 3,
            });
            h.word(p.shot_speed.to_bits());
        }
        if let Some(p) = &self.platformer {
            for w in p.hash_words() {
                h.word(w);
            }
        }
        h.0
    }
}

/// FNV-1a over 64-bit words, as the world's state hash.
struct Fnv(u64);

impl Fnv {
    fn word(&mut self, w: u64) {
        for byte in w.to_le_bytes() {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// What [`build`] makes of a source: the world, the rules that play it (BricksBeater's, a
/// pinball table's, or none: a sandbox) and the ball colours.
struct Built {
    world: World,
    breaker: Option<Breaker>,
    pinball: Option<Pinball>,
    platformer: Option<Platformer>,
    colors: BallColors,
}

/// Builds the world, the rules and the colours of a source.
fn build(source: &Source, options: &Options, lives: u32, score: u64) -> Result<Built, GameError> {
    let (scene, level, rules) = match source {
        Source::Level(n) => {
            if !(1..=LEVELS).contains(n) {
                return Err(GameError::NoSuchLevel(*n));
            }
            let name = format!("level_{n}");
            let scene = match collide_scenes::load(&name) {
                Some(r) => r?,
                None => return Err(GameError::NoSuchLevel(*n)),
            };
            (scene, Some(*n), true)
        }
        Source::Scene(s) => ((**s).clone(), None, true),
        Source::Sandbox(s) => ((**s).clone(), None, false),
        Source::Platformer { levels, balls } => {
            let name = levels.first().map_or_else(String::new, |l| l.name.clone());
            let (world, platformer) = Platformer::new(levels.clone(), *balls)
                .map_err(|source| GameError::World { name, source })?;
            let mut colors = BallColors::new();
            for (i, b) in world.balls().iter().enumerate() {
                colors.set(b.id, PALETTE[i % PALETTE.len()]);
            }
            return Ok(Built {
                world,
                breaker: None,
                pinball: None,
                platformer: Some(platformer),
                colors,
            });
        }
    };
    let world_err = |source| GameError::World {
        name: scene.name.clone(),
        source,
    };
    if rules && (level.is_some() || is_breaker_scene(&scene)) {
        let (world, breaker) =
            Breaker::new(&scene, level, options, lives, score).map_err(world_err)?;
        Ok(Built {
            world,
            breaker: Some(breaker),
            pinball: None,
            platformer: None,
            colors: BallColors::new(),
        })
    } else if rules && is_pinball_scene(&scene) {
        let (world, pinball) = Pinball::new(&scene, score).map_err(world_err)?;
        Ok(Built {
            world,
            breaker: None,
            pinball: Some(pinball),
            platformer: None,
            colors: BallColors::new(),
        })
    } else {
        let world = World::from_scene(&scene).map_err(world_err)?;
        let mut colors = BallColors::new();
        for (i, b) in world.balls().iter().enumerate() {
            colors.set(b.id, PALETTE[i % PALETTE.len()]);
        }
        Ok(Built {
            world,
            breaker: None,
            pinball: None,
            platformer: None,
            colors,
        })
    }
}
