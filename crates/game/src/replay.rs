//! Replays: a game session as a small, versioned, line-oriented text file that any later
//! build can re-simulate and check (format: `docs/replay-format.md`).
//!
//! A [`Replay`] holds what a session started from (how it is played, the scene's full source
//! text, every [`Options`] field, the world's step settings) and, in call order, every
//! [`Game::command`] and every [`Game::step`] of the session (identical consecutive steps
//! run-length encoded), with the [`Game::state_hash`] after every `hash_every`-th step and
//! after the last one. [`Replay::verify`] rebuilds the game from the file alone, makes the
//! same calls and compares the hashes: the first difference is a
//! [`ReplayError::HashMismatch`] naming the step.
//!
//! Recording cannot be forgotten by a caller: [`Game::start_recording`] puts a recorder inside
//! the game, and `Game::command`, `Game::step` (so also `Game::update`), `Game::load` and
//! `Game::restart` feed it; [`Game::take_replay`] ends the recording.
//!
//! Exactness without memory layout: every `f64` is written in Rust's shortest round-trip
//! decimal form (`{:?}`; `inf`, `-inf`) and read back bit for bit by `str::parse`, a NaN as
//! `0x` and the 16 hex digits of its bits; hashes are 16 hex digits of FNV-1a over the bit
//! patterns of the state in a fixed order ([`Game::state_hash`]).
//!
//! ```
//! use collide_game::{Game, Replay, SceneText, StepInput};
//! let mut game = Game::level_1().unwrap();
//! game.start_recording(SceneText::builtin("level_1").unwrap(), 60).unwrap();
//! game.step(&StepInput { launch: true, ..StepInput::default() });
//! for _ in 0..99 {
//!     let input = game.autopilot();
//!     game.step(&StepInput { pointer_x: input.pointer_x, launch: input.launch, ..StepInput::default() });
//! }
//! let replay = game.take_replay().unwrap();
//! let text = replay.to_text();
//! assert!(text.starts_with("collide-replay 1\n"));
//! let parsed = Replay::parse(&text).unwrap();
//! assert_eq!(parsed, replay);
//! // Hashes after steps 0, 60 and 100 (the last one).
//! let report = parsed.verify().unwrap();
//! assert_eq!((report.steps, report.hashes_checked), (100, 3));
//! assert_eq!(report.final_hash, game.state_hash());
//! ```

use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::Read as _;
use std::path::Path;

use collide_core::{Real, Vec2};
use collide_world::level::{parse_level, scene_from_level, DEFAULT_BALLS};
use collide_world::limits::{
    check_count, Bound, MAX_BALLS, MAX_EVENTS_PER_BODY, MAX_LEVEL_BYTES, MAX_SCENE_BYTES,
};
use collide_world::scene::{read_level_file, LevelFiles, SceneError};
use collide_world::{Scene, StepConfig};

use crate::game::{Game, GameError, Source, LEVELS};
use crate::input::{Command, StepInput};
use crate::options::Options;

/// The first word of a replay file's first line.
pub const MAGIC: &str = "collide-replay";

/// The format version this build writes and reads (the first line is `collide-replay 1`).
pub const VERSION: u32 = 1;

/// The largest replay file read or written, bytes: 64 MiB (a scene of up to 16 MiB, its
/// levels, and hours of play). Larger files are refused with [`ReplayError::TooLarge`], by
/// [`Replay::read`] before reading them.
pub const MAX_REPLAY_BYTES: u64 = 64 << 20;

/// The most steps a replay may hold: 10⁸ (about 19 days of play at 60 steps per second).
/// A file with more is refused by [`Replay::parse`] ([`ReplayError::Parse`], field `steps`);
/// a recording that reaches it stops being valid ([`ReplayError::Untracked`]).
pub const MAX_STEPS: u64 = 100_000_000;

/// The most level texts one replay embeds (a TOML scene refers to one level at most today).
pub const MAX_LEVEL_TEXTS: usize = 64;

/// The state hash interval used when none is given: every 60 steps (once a second at 60 Hz).
pub const DEFAULT_HASH_EVERY: u32 = 60;

/// Why a replay could not be read, written, recorded or verified.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// A file (the replay, a scene, a level) could not be read or written.
    #[error("{file}: {source}")]
    Io {
        /// The file.
        file: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A replay longer than [`MAX_REPLAY_BYTES`].
    #[error("the replay is {len} bytes long, more than the limit of {max} bytes")]
    TooLarge {
        /// Its length, bytes.
        len: u64,
        /// The limit, bytes.
        max: u64,
    },
    /// The replay text is malformed.
    #[error("line {line}: {field}: {problem}")]
    Parse {
        /// 1-based line of the replay text.
        line: usize,
        /// What the line holds (`s.pointer_x`, `option.ball_speed`, `h.hash`, `end`, ...).
        field: String,
        /// What is wrong.
        problem: String,
    },
    /// The embedded scene text (or a scene file being recorded) does not give a scene.
    #[error("the scene of the replay: {0}")]
    Scene(#[source] SceneError),
    /// The game could not be started from the replay's scene and options.
    #[error("cannot start the game of the replay")]
    Game(#[source] GameError),
    /// The replay plays a built-in level whose text in this build differs from the text
    /// recorded: re-record the replay (see `docs/replay-format.md`).
    #[error("built-in level `{name}` differs from the one recorded in the replay: re-record it")]
    BuiltinChanged {
        /// The built-in scene's name (`level_2`).
        name: String,
    },
    /// The world built from the replay has other step settings than the recorded ones.
    #[error("world setting {field}: the replay recorded {expected}, this build gives {got}")]
    WorldConfig {
        /// The setting (`dt`, `ball_ball`, ...).
        field: &'static str,
        /// The recorded value.
        expected: String,
        /// The value of the rebuilt world.
        got: String,
    },
    /// Re-simulation gave another state: the first step whose recorded hash differs.
    #[error(
        "state hash differs after step {step}: the replay recorded {expected:016x}, re-simulation gives {got:016x}"
    )]
    HashMismatch {
        /// Steps run when the hash was taken (0: the start state).
        step: u64,
        /// The recorded hash.
        expected: u64,
        /// The re-simulated hash.
        got: u64,
    },
    /// A recording asked of a game that has already run (recordings start from a fresh game).
    #[error(
        "a recording must start at a fresh game (no step run, no score); this one has run {steps} steps"
    )]
    NotAtStart {
        /// Steps the world has run.
        steps: u64,
    },
    /// The scene text given to [`Game::start_recording`] does not give the scene played.
    #[error("the scene text `{file}` does not give the scene being played (`{played}`)")]
    SceneMismatch {
        /// The text's file label.
        file: String,
        /// The name of the scene played.
        played: String,
    },
    /// [`Game::take_replay`] on a game that is not recording.
    #[error("the game is not recording")]
    NotRecording,
    /// The session did something a replay cannot hold (a direct edit of the world, a load
    /// of a scene that is not built in, more than [`MAX_STEPS`] steps).
    #[error("the session cannot be replayed: {what}")]
    Untracked {
        /// What it did.
        what: &'static str,
    },
    /// A zero hash interval.
    #[error("the hash interval must be at least 1 step")]
    BadHashInterval,
    /// The replay records no state hash after its last call: nothing proves the final state,
    /// so it does not verify (a file whose hash lines were removed, or whose last `h` line is
    /// followed by further calls).
    #[error(
        "no state hash is recorded after the last call (step {steps}): nothing proves the final \
         state; a replay verifies only when its final state hash is recorded and matches"
    )]
    NoFinalHash {
        /// Steps the replay holds.
        steps: u64,
    },
}

impl ReplayError {
    fn parse(line: usize, field: impl Into<String>, problem: impl Into<String>) -> Self {
        ReplayError::Parse {
            line,
            field: field.into(),
            problem: problem.into(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The scene's text

/// What kind of text a scene is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextKind {
    /// A TOML scene (`docs/scene-format.md`).
    Toml,
    /// A bare BricksBeater level (`.dat`), given the game's layout by
    /// `collide_world::level::scene_from_level` with 1000 balls.
    Dat,
}

/// The full source text of a scene, with the level texts a TOML scene refers to: enough to
/// rebuild the scene with no file next to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SceneText {
    /// TOML or bare level.
    pub kind: TextKind,
    /// The file name the scene was loaded as (`scenes/level_1.toml`, `my/level.dat`): errors
    /// name it, and the scene is named by its stem unless the TOML has a `name` key. One line.
    pub file: String,
    /// The text, with `\r\n` line ends turned into `\n`.
    pub text: String,
    /// The levels of `grid.level = "..."`: the path as written, and the level's text.
    pub levels: Vec<(String, String)>,
}

impl SceneText {
    /// The text of a built-in scene (`level_1`, `seed002_billiards`, ...; see
    /// `collide_scenes::names`), named `scenes/<name>.toml` as `collide_scenes::load` names it,
    /// with its embedded level; `None` for an unknown name.
    #[must_use]
    pub fn builtin(name: &str) -> Option<SceneText> {
        let text = collide_scenes::source(name)?;
        let mut st = SceneText {
            kind: TextKind::Toml,
            file: format!("scenes/{name}.toml"),
            text: normalize(text),
            levels: Vec::new(),
        };
        st.levels = levels_used(&st.text, &st.file, &|p| {
            collide_scenes::level_text(p).map(normalize).ok_or_else(|| {
                std::io::Error::new(std::io::ErrorKind::NotFound, format!("no level `{p}`"))
            })
        })
        .ok()?;
        Some(st)
    }

    /// Reads a scene file: a TOML scene with the level files it refers to (regular files in
    /// its directory or below it, as [`Scene::load`] reads them), or a bare level if the name
    /// ends in `.dat`.
    ///
    /// # Errors
    /// [`ReplayError::Io`] for a file that cannot be read or is not UTF-8,
    /// [`ReplayError::Scene`] for a file larger than the scene limit (16 MiB) or a scene that
    /// does not parse.
    pub fn read(path: &Path) -> Result<SceneText, ReplayError> {
        let file = path.display().to_string();
        let is_dat = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("dat"));
        let max = if is_dat {
            MAX_LEVEL_BYTES
        } else {
            MAX_SCENE_BYTES
        };
        let text = read_limited(path, max).map_err(|e| match e {
            Limited::Io(source) => ReplayError::Io {
                file: file.clone(),
                source,
            },
            Limited::TooLarge(len) => ReplayError::Scene(SceneError::TooLarge {
                file: file.clone(),
                len,
                max,
            }),
        })?;
        if is_dat {
            return Ok(SceneText {
                kind: TextKind::Dat,
                file,
                text: normalize(&text),
                levels: Vec::new(),
            });
        }
        let dir = path.parent().unwrap_or_else(|| Path::new(""));
        let text = normalize(&text);
        // The level files as `Scene::load` reads them: regular files below the scene's folder.
        let levels = levels_used(&text, &file, &|level| {
            read_level_file(dir, level, LevelFiles::BelowScene).map(|t| normalize(&t))
        })
        .map_err(ReplayError::Scene)?;
        Ok(SceneText {
            kind: TextKind::Toml,
            file,
            text,
            levels,
        })
    }

    /// The text of a command-line scene argument, resolved as `collide_scenes::resolve` does:
    /// a file argument (`collide_scenes::is_file_arg`) is read ([`SceneText::read`]), anything
    /// else is a built-in name ([`SceneText::builtin`]).
    ///
    /// # Errors
    /// As [`SceneText::read`]; [`ReplayError::Scene`] with `SceneError::UnknownScene` for
    /// an unknown name.
    pub fn from_arg(arg: &str) -> Result<SceneText, ReplayError> {
        if collide_scenes::is_file_arg(arg) {
            return SceneText::read(Path::new(arg));
        }
        SceneText::builtin(arg).ok_or_else(|| {
            ReplayError::Scene(SceneError::UnknownScene {
                name: arg.to_owned(),
                known: collide_scenes::names()
                    .iter()
                    .map(|n| (*n).to_owned())
                    .collect(),
            })
        })
    }

    /// Parses the text into a scene, the embedded level texts standing for the level files.
    ///
    /// # Errors
    /// The scene's [`SceneError`] (file, line, field), as loading the file would give; a level
    /// path that is not embedded is a `SceneError::Level` of kind "not found".
    pub fn parse(&self) -> Result<Scene, SceneError> {
        match self.kind {
            TextKind::Dat => {
                let grid = parse_level(&self.text).map_err(|source| SceneError::Level {
                    file: self.file.clone(),
                    line: source.line(),
                    field: "level".to_owned(),
                    path: self.file.clone(),
                    source,
                })?;
                Ok(scene_from_level(
                    &file_stem(&self.file),
                    grid,
                    DEFAULT_BALLS,
                ))
            }
            TextKind::Toml => Scene::from_toml_str(&self.text, &self.file, &|p| {
                self.levels
                    .iter()
                    .find(|(q, _)| q == p)
                    .map(|(_, t)| t.clone())
                    .ok_or_else(|| {
                        std::io::Error::new(
                            std::io::ErrorKind::NotFound,
                            format!("level `{p}` is not embedded in the replay"),
                        )
                    })
            }),
        }
    }
}

/// `\r\n` → `\n`.
fn normalize(text: &str) -> String {
    text.replace("\r\n", "\n")
}

/// Parses a TOML scene and returns the levels it asked `resolve` for, in order.
fn levels_used(
    text: &str,
    file: &str,
    resolve: &dyn Fn(&str) -> Result<String, std::io::Error>,
) -> Result<Vec<(String, String)>, SceneError> {
    let used = RefCell::new(Vec::new());
    let record = |p: &str| -> Result<String, std::io::Error> {
        let t = resolve(p)?;
        used.borrow_mut().push((p.to_owned(), t.clone()));
        Ok(t)
    };
    Scene::from_toml_str(text, file, &record)?;
    Ok(used.into_inner())
}

/// The stem of a file name, as `Scene::load` names a bare level.
fn file_stem(file: &str) -> String {
    Path::new(file)
        .file_stem()
        .map_or_else(|| file.to_owned(), |s| s.to_string_lossy().into_owned())
}

enum Limited {
    Io(std::io::Error),
    TooLarge(u64),
}

/// Reads a UTF-8 file of at most `max` bytes, refusing a larger one before reading it.
fn read_limited(path: &Path, max: u64) -> Result<String, Limited> {
    let f = std::fs::File::open(path).map_err(Limited::Io)?;
    let len = f.metadata().map_err(Limited::Io)?.len();
    if len > max {
        return Err(Limited::TooLarge(len));
    }
    let mut bytes = Vec::new();
    f.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(Limited::Io)?;
    if bytes.len() as u64 > max {
        return Err(Limited::TooLarge(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| {
        Limited::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not valid UTF-8 (at byte {})", e.utf8_error().valid_up_to()),
        ))
    })
}

// ---------------------------------------------------------------------------------------------
// The replay

/// How the recorded session plays its scene (the replay's `play` line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// Built-in BricksBeater level `n` by the rules ([`Source::Level`]).
    Level(u8),
    /// The scene, by the rules if it is a BricksBeater layout ([`Source::Scene`]).
    Scene,
    /// The scene as a sandbox ([`Source::Sandbox`]).
    Sandbox,
}

/// One recorded call, in call order.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    /// A [`Game::command`].
    Command(Command),
    /// `count` calls of [`Game::step`] with the same input (`count >= 1`).
    Steps {
        /// How many steps.
        count: u64,
        /// The input of each.
        input: StepInput,
    },
    /// [`Game::state_hash`] once `step` steps have run (0: the start state).
    Hash {
        /// Steps run so far.
        step: u64,
        /// The hash.
        hash: u64,
    },
}

/// A recorded session: what it started from and every call made, in order. Build one with
/// [`Game::start_recording`] and [`Game::take_replay`], or [`Replay::parse`] a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    /// How the scene is played.
    pub play: Play,
    /// The scene's full source text.
    pub scene: SceneText,
    /// The game's options (all fields are written; a file may leave some out: defaults).
    pub options: Options,
    /// The step settings of the world at the start (checked when verifying).
    pub world: StepConfig,
    /// Steps between two recorded hashes (the last step's hash is always recorded).
    pub hash_every: u32,
    /// The calls and hashes, in order.
    pub entries: Vec<Entry>,
}

/// What a successful [`Replay::verify`] checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VerifyReport {
    /// Steps re-simulated.
    pub steps: u64,
    /// Commands applied.
    pub commands: u64,
    /// Recorded hashes compared (all equal).
    pub hashes_checked: u64,
    /// The state hash after the last step.
    pub final_hash: u64,
}

impl Replay {
    /// Total steps recorded.
    #[must_use]
    pub fn steps(&self) -> u64 {
        self.entries
            .iter()
            .map(|e| match e {
                Entry::Steps { count, .. } => *count,
                _ => 0,
            })
            .sum()
    }

    /// Number of recorded hashes.
    #[must_use]
    pub fn hashes(&self) -> usize {
        self.entries
            .iter()
            .filter(|e| matches!(e, Entry::Hash { .. }))
            .count()
    }

    /// The game's source: the play mode with the parsed scene text.
    ///
    /// # Errors
    /// [`ReplayError::Scene`] if the text does not parse, [`ReplayError::BuiltinChanged`] if
    /// the replay plays a built-in level whose text in this build is not the recorded one.
    pub fn source(&self) -> Result<Source, ReplayError> {
        let scene = self.scene.parse().map_err(ReplayError::Scene)?;
        Ok(match self.play {
            Play::Level(n) => {
                let name = format!("level_{n}");
                match collide_scenes::load(&name) {
                    Some(Ok(builtin)) if builtin == scene => Source::Level(n),
                    _ => return Err(ReplayError::BuiltinChanged { name }),
                }
            }
            Play::Scene => Source::Scene(Box::new(scene)),
            Play::Sandbox => Source::Sandbox(Box::new(scene)),
        })
    }

    /// Rebuilds the game from the replay alone, makes every recorded call in order and
    /// compares every recorded hash with the re-simulated [`Game::state_hash`].
    ///
    /// `Ok` means the final state is proven: the replay's last entry is a hash, taken after
    /// every call, and it matches (so do all the hashes before it).
    ///
    /// # Errors
    /// [`ReplayError::HashMismatch`] at the first hash that differs (the step, both hashes);
    /// [`ReplayError::NoFinalHash`] when the last entry is not a hash (no hash at all, or
    /// calls after the last one), checked after every recorded hash matched;
    /// [`ReplayError::WorldConfig`] when the rebuilt world's step settings differ from the
    /// recorded ones; the errors of [`Replay::source`]; [`ReplayError::Game`] when the game
    /// cannot be built.
    pub fn verify(&self) -> Result<VerifyReport, ReplayError> {
        let mut game =
            Game::new(self.source()?, self.options.clone()).map_err(ReplayError::Game)?;
        check_world(&self.world, game.world().config())?;
        let mut report = VerifyReport {
            steps: 0,
            commands: 0,
            hashes_checked: 0,
            final_hash: game.state_hash(),
        };
        for e in &self.entries {
            match e {
                Entry::Command(c) => {
                    game.command(*c);
                    report.commands += 1;
                }
                Entry::Steps { count, input } => {
                    for _ in 0..*count {
                        game.step(input);
                    }
                    report.steps += count;
                }
                Entry::Hash { step, hash } => {
                    let got = game.state_hash();
                    if got != *hash || *step != report.steps {
                        return Err(ReplayError::HashMismatch {
                            step: report.steps,
                            expected: *hash,
                            got,
                        });
                    }
                    report.hashes_checked += 1;
                }
            }
        }
        report.final_hash = game.state_hash();
        if !matches!(self.entries.last(), Some(Entry::Hash { .. })) {
            return Err(ReplayError::NoFinalHash {
                steps: report.steps,
            });
        }
        Ok(report)
    }

    /// The replay as text (`docs/replay-format.md`).
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        let _ = writeln!(s, "{MAGIC} {VERSION}");
        s.push_str(
            "# collide replay: docs/replay-format.md. Check it with `collide replay FILE`.\n",
        );
        match self.play {
            Play::Level(n) => {
                let _ = writeln!(s, "play level {n}");
            }
            Play::Scene => s.push_str("play scene\n"),
            Play::Sandbox => s.push_str("play sandbox\n"),
        }
        let kind = match self.scene.kind {
            TextKind::Toml => "toml",
            TextKind::Dat => "dat",
        };
        let lines: Vec<&str> = self.scene.text.split('\n').collect();
        let _ = writeln!(
            s,
            "scene {kind} {} {}",
            lines.len(),
            one_line(&self.scene.file)
        );
        push_block(&mut s, &lines);
        for (path, text) in &self.scene.levels {
            let lines: Vec<&str> = text.split('\n').collect();
            let _ = writeln!(s, "level {} {}", lines.len(), one_line(path));
            push_block(&mut s, &lines);
        }
        for (name, value) in option_values(&self.options) {
            let _ = writeln!(s, "option {name} {value}");
        }
        let StepConfig {
            dt,
            ball_ball,
            restitution,
            destructible_bricks,
            max_events_per_body,
            gravity,
        } = self.world;
        let _ = writeln!(s, "world dt {}", real(dt));
        let _ = writeln!(s, "world ball_ball {ball_ball}");
        let _ = writeln!(s, "world restitution {}", real(restitution));
        let _ = writeln!(s, "world destructible_bricks {destructible_bricks}");
        let _ = writeln!(s, "world max_events_per_body {max_events_per_body}");
        if gravity != Vec2::ZERO {
            let _ = writeln!(s, "world gravity_x {}", real(gravity.x));
            let _ = writeln!(s, "world gravity_y {}", real(gravity.y));
        }
        let _ = writeln!(s, "hash-every {}", self.hash_every);
        for e in &self.entries {
            match e {
                Entry::Command(c) => {
                    let _ = writeln!(s, "c {}", command_text(*c));
                }
                Entry::Steps { count, input } => {
                    let pointer = input.pointer_x.map_or_else(|| "-".to_owned(), real);
                    let _ = writeln!(
                        s,
                        "s {count} {pointer} {} {} {}",
                        input.paddle_dir,
                        input.aim_dir,
                        u8::from(input.launch)
                    );
                }
                Entry::Hash { step, hash } => {
                    let _ = writeln!(s, "h {step} {hash:016x}");
                }
            }
        }
        let _ = writeln!(s, "end {}", self.steps());
        s
    }

    /// Writes [`Replay::to_text`] to `path`.
    ///
    /// # Errors
    /// [`ReplayError::TooLarge`] for a text over [`MAX_REPLAY_BYTES`] (nothing is written),
    /// [`ReplayError::Io`] if the file cannot be written.
    pub fn write(&self, path: &Path) -> Result<(), ReplayError> {
        let text = self.to_text();
        let len = text.len() as u64;
        if len > MAX_REPLAY_BYTES {
            return Err(ReplayError::TooLarge {
                len,
                max: MAX_REPLAY_BYTES,
            });
        }
        std::fs::write(path, text).map_err(|source| ReplayError::Io {
            file: path.display().to_string(),
            source,
        })
    }

    /// Reads and parses a replay file.
    ///
    /// # Errors
    /// [`ReplayError::TooLarge`] for a file over [`MAX_REPLAY_BYTES`] (checked before
    /// reading), [`ReplayError::Io`] for a file that cannot be read or is not UTF-8, and the
    /// errors of [`Replay::parse`].
    pub fn read(path: &Path) -> Result<Replay, ReplayError> {
        let text = read_limited(path, MAX_REPLAY_BYTES).map_err(|e| match e {
            Limited::Io(source) => ReplayError::Io {
                file: path.display().to_string(),
                source,
            },
            Limited::TooLarge(len) => ReplayError::TooLarge {
                len,
                max: MAX_REPLAY_BYTES,
            },
        })?;
        Replay::parse(&text)
    }

    /// Parses a replay text (`docs/replay-format.md`). Never panics, on any text.
    ///
    /// # Errors
    /// [`ReplayError::TooLarge`] for a text over [`MAX_REPLAY_BYTES`]; [`ReplayError::Parse`]
    /// with the 1-based line and the field for everything else: a wrong first line or
    /// version, an unknown line kind, option or command, a malformed number, a missing or
    /// repeated header line, a header line after the first step, a text block shorter than
    /// announced, a hash whose step is not the number of steps before it, more than
    /// [`MAX_STEPS`] steps, a missing `end` or one that does not match.
    pub fn parse(text: &str) -> Result<Replay, ReplayError> {
        let len = text.len() as u64;
        if len > MAX_REPLAY_BYTES {
            return Err(ReplayError::TooLarge {
                len,
                max: MAX_REPLAY_BYTES,
            });
        }
        let lines: Vec<&str> = text
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect();
        Parser::default().run(&lines)
    }
}

/// A label on one line (a newline would end the line).
fn one_line(s: &str) -> String {
    s.replace(['\n', '\r'], " ")
}

fn push_block(s: &mut String, lines: &[&str]) {
    for l in lines {
        s.push('|');
        s.push_str(l);
        s.push('\n');
    }
}

/// An `f64` that reads back bit for bit: the shortest round-trip decimal (`{:?}`), `inf`,
/// `-inf`, or for a NaN `0x` and the 16 hex digits of its bits.
fn real(x: Real) -> String {
    if x.is_nan() {
        format!("0x{:016x}", x.to_bits())
    } else {
        format!("{x:?}")
    }
}

fn parse_real(s: &str) -> Option<Real> {
    if let Some(hex) = s.strip_prefix("0x") {
        if hex.len() != 16 {
            return None;
        }
        return u64::from_str_radix(hex, 16).ok().map(Real::from_bits);
    }
    // Rust also accepts `NaN`, `infinity`, `+1`: the writer never writes those, and they read
    // to the value they name.
    s.parse().ok()
}

fn command_text(c: Command) -> String {
    match c {
        Command::TogglePause => "pause".to_owned(),
        Command::SingleStep => "single-step".to_owned(),
        Command::Slower => "slower".to_owned(),
        Command::Faster => "faster".to_owned(),
        Command::ToggleDebug => "debug".to_owned(),
        Command::Restart => "restart".to_owned(),
        Command::Level(n) => format!("level {n}"),
        Command::NextScene => "next-scene".to_owned(),
    }
}

/// Every option as `(name, value)`, in the order of [`Options`]' fields.
fn option_values(o: &Options) -> Vec<(&'static str, String)> {
    // Destructured so that a new field of Options does not compile until it is written here.
    let Options {
        ball_speed,
        constant_speed,
        english,
        english_slope,
        min_vertical,
        anti_trap,
        aim_segments,
        aim_length,
        aim_rate,
        initial_aim,
        paddle_key_speed,
        volley,
        volley_interval,
        rain,
        max_steps_per_frame,
        max_balls,
        lives,
        drops,
        power_up_speed,
        power_up_size,
        level_clear_pause,
        score_per_brick,
        color_swap,
    } = o;
    vec![
        ("ball_speed", real(*ball_speed)),
        ("constant_speed", constant_speed.to_string()),
        ("english", english.to_string()),
        ("english_slope", real(*english_slope)),
        ("min_vertical", real(*min_vertical)),
        ("anti_trap", anti_trap.to_string()),
        ("aim_segments", aim_segments.to_string()),
        ("aim_length", real(*aim_length)),
        ("aim_rate", real(*aim_rate)),
        ("initial_aim", real(*initial_aim)),
        ("paddle_key_speed", real(*paddle_key_speed)),
        ("volley", volley.to_string()),
        ("volley_interval", real(*volley_interval)),
        ("rain", rain.to_string()),
        ("max_steps_per_frame", max_steps_per_frame.to_string()),
        ("max_balls", max_balls.to_string()),
        ("lives", lives.to_string()),
        ("drops.triple", real(drops.triple)),
        ("drops.shoot3", real(drops.shoot3)),
        ("drops.heart", real(drops.heart)),
        ("power_up_speed", real(*power_up_speed)),
        ("power_up_size.x", real(power_up_size.x)),
        ("power_up_size.y", real(power_up_size.y)),
        ("level_clear_pause", real(*level_clear_pause)),
        ("score_per_brick", score_per_brick.to_string()),
        ("color_swap", color_swap.to_string()),
    ]
}

/// Largest `score_per_brick` a replay may ask for: 10⁹ (a score of every brick of the largest
/// grid, 2²⁴ cells, stays far below `u64::MAX`).
pub const MAX_SCORE_PER_BRICK: u64 = 1_000_000_000;

/// Sets option `name` from `value`; `Err` is the problem.
///
/// Every value is checked with the limits of the scene format ([`Bound`]): speeds, lengths,
/// durations and sizes within [`Bound::NonNeg`] (finite, `0 ..= 1e9`), fractions and
/// probabilities (`min_vertical`, `drops.*`) within [`Bound::Unit`], `initial_aim` within
/// [`Bound::Coord`] (the game clamps it to `[-1, 1]`); ball counts (`volley`, `rain`,
/// `max_balls`) at most [`MAX_BALLS`], `aim_segments` (a preview ball's bounces) at most
/// [`MAX_EVENTS_PER_BODY`], `score_per_brick` at most [`MAX_SCORE_PER_BRICK`].
fn set_option(o: &mut Options, name: &str, value: &str) -> Result<(), String> {
    fn real(v: &str, bound: Bound) -> Result<Real, String> {
        let x = parse_real(v).ok_or_else(|| format!("`{v}` is not a number"))?;
        bound.check(x).map_err(|e| e.to_string())
    }
    let r = |v: &str| real(v, Bound::NonNeg);
    let unit = |v: &str| real(v, Bound::Unit);
    fn upto<T>(v: &str, max: T) -> Result<T, String>
    where
        T: std::str::FromStr + PartialOrd + Copy + std::fmt::Display + Default,
    {
        let n: T = v
            .parse()
            .map_err(|_| format!("`{v}` is not a whole number in range"))?;
        check_count(n, T::default(), max)
    }
    fn b(v: &str) -> Result<bool, String> {
        match v {
            "true" => Ok(true),
            "false" => Ok(false),
            _ => Err(format!("`{v}` is not `true` or `false`")),
        }
    }
    fn n<T: std::str::FromStr>(v: &str) -> Result<T, String> {
        v.parse()
            .map_err(|_| format!("`{v}` is not a whole number in range"))
    }
    match name {
        "ball_speed" => o.ball_speed = r(value)?,
        "constant_speed" => o.constant_speed = b(value)?,
        "english" => o.english = b(value)?,
        "english_slope" => o.english_slope = r(value)?,
        "min_vertical" => o.min_vertical = unit(value)?,
        "anti_trap" => o.anti_trap = b(value)?,
        "aim_segments" => o.aim_segments = upto(value, MAX_EVENTS_PER_BODY as usize)?,
        "aim_length" => o.aim_length = r(value)?,
        "aim_rate" => o.aim_rate = r(value)?,
        "initial_aim" => o.initial_aim = real(value, Bound::Coord)?,
        "paddle_key_speed" => o.paddle_key_speed = r(value)?,
        "volley" => o.volley = upto(value, MAX_BALLS as u32)?,
        "volley_interval" => o.volley_interval = r(value)?,
        "rain" => o.rain = upto(value, MAX_BALLS)?,
        "max_steps_per_frame" => o.max_steps_per_frame = n(value)?,
        "max_balls" => o.max_balls = upto(value, MAX_BALLS)?,
        "lives" => o.lives = n(value)?,
        "drops.triple" => o.drops.triple = unit(value)?,
        "drops.shoot3" => o.drops.shoot3 = unit(value)?,
        "drops.heart" => o.drops.heart = unit(value)?,
        "power_up_speed" => o.power_up_speed = r(value)?,
        "power_up_size.x" => o.power_up_size = Vec2::new(r(value)?, o.power_up_size.y),
        "power_up_size.y" => o.power_up_size = Vec2::new(o.power_up_size.x, r(value)?),
        "level_clear_pause" => o.level_clear_pause = r(value)?,
        "score_per_brick" => o.score_per_brick = upto(value, MAX_SCORE_PER_BRICK)?,
        "color_swap" => o.color_swap = b(value)?,
        _ => return Err("unknown option".to_owned()),
    }
    Ok(())
}

/// Compares the recorded world settings with the rebuilt world's.
fn check_world(expected: &StepConfig, got: &StepConfig) -> Result<(), ReplayError> {
    let pairs: [(&'static str, String, String); 5] = [
        ("dt", real(expected.dt), real(got.dt)),
        (
            "ball_ball",
            expected.ball_ball.to_string(),
            got.ball_ball.to_string(),
        ),
        (
            "restitution",
            real(expected.restitution),
            real(got.restitution),
        ),
        (
            "destructible_bricks",
            expected.destructible_bricks.to_string(),
            got.destructible_bricks.to_string(),
        ),
        (
            "max_events_per_body",
            expected.max_events_per_body.to_string(),
            got.max_events_per_body.to_string(),
        ),
    ];
    for (field, expected, got) in pairs {
        if expected != got {
            return Err(ReplayError::WorldConfig {
                field,
                expected,
                got,
            });
        }
    }
    Ok(())
}

/// The state of [`Replay::parse`].
#[derive(Default)]
struct Parser {
    play: Option<Play>,
    scene: Option<SceneText>,
    levels: Vec<(String, String)>,
    options: Options,
    options_seen: HashSet<String>,
    world: [Option<String>; 7],
    hash_every: Option<u32>,
    entries: Vec<Entry>,
    steps: u64,
    in_body: bool,
}

/// The `world` settings of a replay; the first `REQUIRED_WORLD_FIELDS` must be present, the
/// gravity components default to zero (written only when non-zero).
const WORLD_FIELDS: [&str; 7] = [
    "dt",
    "ball_ball",
    "restitution",
    "destructible_bricks",
    "max_events_per_body",
    "gravity_x",
    "gravity_y",
];
const REQUIRED_WORLD_FIELDS: usize = 5;

impl Parser {
    fn run(mut self, lines: &[&str]) -> Result<Replay, ReplayError> {
        let first = lines.first().copied().unwrap_or("");
        let mut words = first.split(' ');
        if words.next() != Some(MAGIC) {
            return Err(ReplayError::parse(
                1,
                "header",
                format!("not a collide replay: the first line must be `{MAGIC} {VERSION}`"),
            ));
        }
        match words.next().map(str::parse::<u32>) {
            Some(Ok(VERSION)) if words.next().is_none() => {}
            Some(Ok(v)) => {
                return Err(ReplayError::parse(
                    1,
                    "version",
                    format!("format version {v}: this build reads version {VERSION}"),
                ))
            }
            _ => {
                return Err(ReplayError::parse(
                    1,
                    "version",
                    format!("expected `{MAGIC} {VERSION}`"),
                ))
            }
        }
        let mut i = 1;
        let mut end: Option<(usize, u64)> = None;
        while i < lines.len() {
            let line_no = i + 1;
            let line = lines[i];
            i += 1;
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            if let Some((end_line, _)) = end {
                return Err(ReplayError::parse(
                    line_no,
                    "end",
                    format!("nothing may follow `end` (line {end_line})"),
                ));
            }
            let (kind, rest) = trimmed.split_once(' ').unwrap_or((trimmed, ""));
            let rest = rest.trim();
            match kind {
                "play" | "scene" | "level" | "option" | "world" | "hash-every" if self.in_body => {
                    return Err(ReplayError::parse(
                        line_no,
                        kind,
                        "header lines must come before the first `c`, `s` or `h` line",
                    ));
                }
                "play" => self.play(line_no, rest)?,
                "scene" | "level" => {
                    let (count, text_kind, label) = block_header(line_no, kind, rest)?;
                    // The block: `count` lines starting with `|`.
                    if lines.len() - i < count {
                        return Err(ReplayError::parse(
                            line_no,
                            kind,
                            format!(
                                "announces {count} text lines, the file has only {} more",
                                lines.len() - i
                            ),
                        ));
                    }
                    let mut text = String::new();
                    for (k, l) in lines[i..i + count].iter().enumerate() {
                        let Some(content) = l.strip_prefix('|') else {
                            return Err(ReplayError::parse(
                                i + k + 1,
                                kind,
                                format!("text line {} of {count} does not start with `|`", k + 1),
                            ));
                        };
                        if k > 0 {
                            text.push('\n');
                        }
                        text.push_str(content);
                    }
                    i += count;
                    self.block(line_no, text_kind, label, text)?;
                }
                "option" => self.option(line_no, rest)?,
                "world" => self.world(line_no, rest)?,
                "hash-every" => {
                    if self.hash_every.is_some() {
                        return Err(ReplayError::parse(line_no, "hash-every", "repeated"));
                    }
                    match rest.parse::<u32>() {
                        Ok(k) if k >= 1 => self.hash_every = Some(k),
                        _ => {
                            return Err(ReplayError::parse(
                                line_no,
                                "hash-every",
                                format!("`{rest}` is not a whole number of steps from 1"),
                            ))
                        }
                    }
                }
                "c" => {
                    self.in_body = true;
                    let c = parse_command(rest).ok_or_else(|| {
                        ReplayError::parse(line_no, "c", format!("unknown command `{rest}`"))
                    })?;
                    self.entries.push(Entry::Command(c));
                }
                "s" => {
                    self.in_body = true;
                    self.step(line_no, rest)?;
                }
                "h" => {
                    self.in_body = true;
                    self.hash(line_no, rest)?;
                }
                "end" => {
                    let n = rest.parse::<u64>().map_err(|_| {
                        ReplayError::parse(line_no, "end", format!("`{rest}` is not a step count"))
                    })?;
                    if n != self.steps {
                        return Err(ReplayError::parse(
                            line_no,
                            "end",
                            format!("says {n} steps, the file holds {}", self.steps),
                        ));
                    }
                    end = Some((line_no, n));
                }
                other => {
                    return Err(ReplayError::parse(
                        line_no,
                        "line",
                        format!("unknown line kind `{other}`"),
                    ))
                }
            }
        }
        let last = lines.len();
        if end.is_none() {
            return Err(ReplayError::parse(
                last,
                "end",
                "missing `end STEPS` line: the file is truncated",
            ));
        }
        let missing = |what: &str| ReplayError::parse(last, what, format!("missing `{what}` line"));
        let play = self.play.ok_or_else(|| missing("play"))?;
        let mut scene = self.scene.ok_or_else(|| missing("scene"))?;
        scene.levels = self.levels;
        let hash_every = self.hash_every.ok_or_else(|| missing("hash-every"))?;
        let mut values = Vec::with_capacity(WORLD_FIELDS.len());
        for (k, v) in self.world.into_iter().enumerate() {
            values.push(match v {
                Some(v) => v,
                None if k >= REQUIRED_WORLD_FIELDS => "0".to_owned(),
                None => return Err(missing(&format!("world {}", WORLD_FIELDS[k]))),
            });
        }
        // Each value was checked when read.
        let world = StepConfig {
            dt: parse_real(&values[0]).unwrap_or(Real::NAN),
            ball_ball: values[1] == "true",
            restitution: parse_real(&values[2]).unwrap_or(Real::NAN),
            destructible_bricks: values[3] == "true",
            max_events_per_body: values[4].parse().unwrap_or(0),
            gravity: Vec2::new(
                parse_real(&values[5]).unwrap_or(Real::NAN),
                parse_real(&values[6]).unwrap_or(Real::NAN),
            ),
        };
        Ok(Replay {
            play,
            scene,
            options: self.options,
            world,
            hash_every,
            entries: self.entries,
        })
    }

    fn play(&mut self, line: usize, rest: &str) -> Result<(), ReplayError> {
        if self.play.is_some() {
            return Err(ReplayError::parse(line, "play", "repeated"));
        }
        let mut w = rest.split_whitespace();
        let play = match (w.next(), w.next(), w.next()) {
            (Some("scene"), None, None) => Play::Scene,
            (Some("sandbox"), None, None) => Play::Sandbox,
            (Some("level"), Some(n), None) => match n.parse::<u8>() {
                Ok(n) if (1..=LEVELS).contains(&n) => Play::Level(n),
                _ => {
                    return Err(ReplayError::parse(
                        line,
                        "play.level",
                        format!("`{n}` is not a built-in level (1 to {LEVELS})"),
                    ))
                }
            },
            _ => {
                return Err(ReplayError::parse(
                    line,
                    "play",
                    format!("`{rest}`: expected `level N`, `scene` or `sandbox`"),
                ))
            }
        };
        self.play = Some(play);
        Ok(())
    }

    fn block(
        &mut self,
        line: usize,
        text_kind: Option<&str>,
        label: &str,
        text: String,
    ) -> Result<(), ReplayError> {
        let Some(kind) = text_kind else {
            if self.levels.len() >= MAX_LEVEL_TEXTS {
                return Err(ReplayError::parse(
                    line,
                    "level",
                    format!("more than {MAX_LEVEL_TEXTS} level texts"),
                ));
            }
            if self.levels.iter().any(|(p, _)| p == label) {
                return Err(ReplayError::parse(
                    line,
                    "level",
                    format!("level `{label}` repeated"),
                ));
            }
            self.levels.push((label.to_owned(), text));
            return Ok(());
        };
        if self.scene.is_some() {
            return Err(ReplayError::parse(line, "scene", "repeated"));
        }
        let kind = match kind {
            "toml" => TextKind::Toml,
            "dat" => TextKind::Dat,
            other => {
                return Err(ReplayError::parse(
                    line,
                    "scene.kind",
                    format!("`{other}`: expected `toml` or `dat`"),
                ))
            }
        };
        self.scene = Some(SceneText {
            kind,
            file: label.to_owned(),
            text,
            levels: Vec::new(),
        });
        Ok(())
    }

    fn option(&mut self, line: usize, rest: &str) -> Result<(), ReplayError> {
        let (name, value) = rest.split_once(' ').unwrap_or((rest, ""));
        let field = format!("option.{name}");
        if !self.options_seen.insert(name.to_owned()) {
            return Err(ReplayError::parse(line, field, "repeated"));
        }
        set_option(&mut self.options, name, value.trim())
            .map_err(|p| ReplayError::parse(line, field, p))
    }

    fn world(&mut self, line: usize, rest: &str) -> Result<(), ReplayError> {
        let (name, value) = rest.split_once(' ').unwrap_or((rest, ""));
        let value = value.trim();
        let Some(k) = WORLD_FIELDS.iter().position(|f| *f == name) else {
            return Err(ReplayError::parse(
                line,
                "world",
                format!("unknown world setting `{name}`"),
            ));
        };
        let field = format!("world.{name}");
        if self.world[k].is_some() {
            return Err(ReplayError::parse(line, field, "repeated"));
        }
        let ok = match k {
            0 | 2 | 5 | 6 => parse_real(value).is_some(),
            1 | 3 => value == "true" || value == "false",
            _ => value.parse::<u32>().is_ok(),
        };
        if !ok {
            return Err(ReplayError::parse(
                line,
                field,
                format!("`{value}` is not a valid value"),
            ));
        }
        self.world[k] = Some(value.to_owned());
        Ok(())
    }

    fn step(&mut self, line: usize, rest: &str) -> Result<(), ReplayError> {
        let f: Vec<&str> = rest.split_whitespace().collect();
        if f.len() != 5 {
            return Err(ReplayError::parse(
                line,
                "s",
                format!(
                    "expected 5 fields (count pointer_x paddle_dir aim_dir launch), got {}",
                    f.len()
                ),
            ));
        }
        let count = match f[0].parse::<u64>() {
            Ok(c) if c >= 1 => c,
            _ => {
                return Err(ReplayError::parse(
                    line,
                    "s.count",
                    format!("`{}` is not a step count from 1", f[0]),
                ))
            }
        };
        let pointer_x = match f[1] {
            "-" => None,
            v => Some(parse_real(v).ok_or_else(|| {
                ReplayError::parse(line, "s.pointer_x", format!("`{v}` is not a number or `-`"))
            })?),
        };
        let dir = |v: &str, field: &str| {
            v.parse::<i8>().map_err(|_| {
                ReplayError::parse(line, field, format!("`{v}` is not a direction (-1, 0, 1)"))
            })
        };
        let paddle_dir = dir(f[2], "s.paddle_dir")?;
        let aim_dir = dir(f[3], "s.aim_dir")?;
        let launch = match f[4] {
            "0" => false,
            "1" => true,
            v => {
                return Err(ReplayError::parse(
                    line,
                    "s.launch",
                    format!("`{v}` is not 0 or 1"),
                ))
            }
        };
        self.steps = match self.steps.checked_add(count) {
            Some(n) if n <= MAX_STEPS => n,
            _ => {
                return Err(ReplayError::parse(
                    line,
                    "steps",
                    format!("more than {MAX_STEPS} steps"),
                ))
            }
        };
        self.entries.push(Entry::Steps {
            count,
            input: StepInput {
                pointer_x,
                paddle_dir,
                aim_dir,
                launch,
            },
        });
        Ok(())
    }

    fn hash(&mut self, line: usize, rest: &str) -> Result<(), ReplayError> {
        let (step, hash) = rest.split_once(' ').unwrap_or((rest, ""));
        let step = step.parse::<u64>().map_err(|_| {
            ReplayError::parse(line, "h.step", format!("`{step}` is not a step count"))
        })?;
        if step != self.steps {
            return Err(ReplayError::parse(
                line,
                "h.step",
                format!("says step {step}, but {} steps precede it", self.steps),
            ));
        }
        let hash = hash.trim();
        let ok = hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit());
        let hash = u64::from_str_radix(hash, 16)
            .ok()
            .filter(|_| ok)
            .ok_or_else(|| {
                ReplayError::parse(line, "h.hash", format!("`{hash}` is not 16 hex digits"))
            })?;
        self.entries.push(Entry::Hash { step, hash });
        Ok(())
    }
}

/// The fields of a block line: `scene KIND COUNT FILE` gives `(COUNT, Some(KIND), FILE)`,
/// `level COUNT PATH` gives `(COUNT, None, PATH)`.
fn block_header<'a>(
    line: usize,
    kind: &str,
    rest: &'a str,
) -> Result<(usize, Option<&'a str>, &'a str), ReplayError> {
    let (text_kind, rest) = if kind == "scene" {
        let (k, r) = rest.split_once(' ').unwrap_or((rest, ""));
        (Some(k), r)
    } else {
        (None, rest)
    };
    let (count, label) = rest.split_once(' ').unwrap_or((rest, ""));
    let count = count
        .parse::<usize>()
        .ok()
        .filter(|c| *c >= 1)
        .ok_or_else(|| {
            ReplayError::parse(
                line,
                format!("{kind}.lines"),
                format!("`{count}` is not a line count from 1"),
            )
        })?;
    Ok((count, text_kind, label))
}

fn parse_command(s: &str) -> Option<Command> {
    let mut w = s.split_whitespace();
    let c = match (w.next()?, w.next()) {
        ("pause", None) => Command::TogglePause,
        ("single-step", None) => Command::SingleStep,
        ("slower", None) => Command::Slower,
        ("faster", None) => Command::Faster,
        ("debug", None) => Command::ToggleDebug,
        ("restart", None) => Command::Restart,
        ("next-scene", None) => Command::NextScene,
        ("level", Some(n)) => Command::Level(n.parse().ok()?),
        _ => return None,
    };
    if w.next().is_some() {
        return None;
    }
    Some(c)
}

// ---------------------------------------------------------------------------------------------
// Recording

/// The recorder a recording [`Game`] holds: the replay's header and its entries so far.
#[derive(Clone, Debug)]
pub(crate) struct Recorder {
    replay: Replay,
    steps: u64,
    untracked: Option<&'static str>,
}

impl Recorder {
    /// A recorder for `game`, which must be fresh, playing the scene of `scene`.
    pub(crate) fn new(
        game: &Game,
        mut scene: SceneText,
        hash_every: u32,
    ) -> Result<Recorder, ReplayError> {
        if hash_every == 0 {
            return Err(ReplayError::BadHashInterval);
        }
        if !game.is_fresh() {
            return Err(ReplayError::NotAtStart {
                steps: game.world().steps(),
            });
        }
        // What the file will hold, exactly: one-line labels, `\n` line ends.
        scene.file = one_line(&scene.file).trim().to_owned();
        scene.text = normalize(&scene.text);
        for (path, text) in &mut scene.levels {
            *path = one_line(path).trim().to_owned();
            *text = normalize(text);
        }
        let parsed = scene.parse().map_err(ReplayError::Scene)?;
        let (play, played) = match game.source() {
            Source::Level(n) => {
                let builtin = collide_scenes::load(&format!("level_{n}"))
                    .and_then(Result::ok)
                    .ok_or(ReplayError::Game(GameError::NoSuchLevel(*n)))?;
                (Play::Level(*n), builtin)
            }
            Source::Scene(s) => (Play::Scene, (**s).clone()),
            Source::Sandbox(s) => (Play::Sandbox, (**s).clone()),
        };
        if parsed != played {
            return Err(ReplayError::SceneMismatch {
                file: scene.file,
                played: played.name,
            });
        }
        Ok(Recorder {
            replay: Replay {
                play,
                scene,
                options: game.options().clone(),
                world: *game.world().config(),
                hash_every,
                entries: vec![Entry::Hash {
                    step: 0,
                    hash: game.state_hash(),
                }],
            },
            steps: 0,
            untracked: None,
        })
    }

    pub(crate) fn command(&mut self, c: Command) {
        self.replay.entries.push(Entry::Command(c));
    }

    /// Records a step about to run; returns whether its hash is due after it.
    pub(crate) fn step(&mut self, input: &StepInput) -> bool {
        if self.steps >= MAX_STEPS {
            self.untrack("more steps than a replay may hold (MAX_STEPS)");
            return false;
        }
        self.steps += 1;
        match self.replay.entries.last_mut() {
            Some(Entry::Steps { count, input: last }) if same_input(last, input) => *count += 1,
            _ => self.replay.entries.push(Entry::Steps {
                count: 1,
                input: *input,
            }),
        }
        self.steps.is_multiple_of(u64::from(self.replay.hash_every))
    }

    pub(crate) fn hash(&mut self, hash: u64) {
        self.replay.entries.push(Entry::Hash {
            step: self.steps,
            hash,
        });
    }

    /// Marks the recording as not replayable (the first reason is kept).
    pub(crate) fn untrack(&mut self, what: &'static str) {
        self.untracked.get_or_insert(what);
    }

    /// Steps recorded so far.
    pub(crate) fn steps(&self) -> u64 {
        self.steps
    }

    /// The replay, with the hash of `final_hash` after the last step.
    pub(crate) fn finish(mut self, final_hash: u64) -> Result<Replay, ReplayError> {
        if let Some(what) = self.untracked {
            return Err(ReplayError::Untracked { what });
        }
        let hashed = matches!(self.replay.entries.last(), Some(Entry::Hash { step, .. }) if *step == self.steps);
        if !hashed {
            self.hash(final_hash);
        }
        Ok(self.replay)
    }
}

/// Equal inputs, bit for bit (`0.0` and `-0.0` differ; a NaN equals the same NaN).
fn same_input(a: &StepInput, b: &StepInput) -> bool {
    a.pointer_x.map(Real::to_bits) == b.pointer_x.map(Real::to_bits)
        && a.paddle_dir == b.paddle_dir
        && a.aim_dir == b.aim_dir
        && a.launch == b.launch
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Input;
    use collide_world::rng::XorShift64Star;

    fn autopilot_step(g: &mut Game) {
        let i = g.autopilot();
        g.step(&StepInput {
            pointer_x: i.pointer_x,
            paddle_dir: i.paddle_dir,
            aim_dir: i.aim_dir,
            launch: i.launch,
        });
    }

    /// Level 1, autopilot, `steps` steps, hashes every `k`.
    fn level_1(steps: u64, k: u32) -> (Game, Replay) {
        let mut g = Game::level_1().unwrap();
        g.start_recording(SceneText::builtin("level_1").unwrap(), k)
            .unwrap();
        for _ in 0..steps {
            autopilot_step(&mut g);
        }
        let r = g.take_replay().unwrap();
        (g, r)
    }

    #[test]
    fn reals_read_back_bit_for_bit() {
        let mut rng = XorShift64Star::new(3);
        let specials = [
            0.0,
            -0.0,
            Real::INFINITY,
            Real::NEG_INFINITY,
            Real::NAN,
            -Real::NAN,
            Real::from_bits(0x7ff8_0000_0000_1234),
            Real::MIN_POSITIVE,
            Real::from_bits(1),
            Real::MAX,
            Real::MIN,
            0.1 + 0.2,
            1.0 / 3.0,
        ];
        let random = (0..20_000).map(|_| Real::from_bits(rng.next_u64()));
        for x in specials.into_iter().chain(random) {
            let s = real(x);
            assert_eq!(parse_real(&s).map(Real::to_bits), Some(x.to_bits()), "{s}");
            assert!(!s.contains(' ') && !s.is_empty());
        }
        assert_eq!(real(0.016_666_666_666_666_666), "0.016666666666666666");
        assert_eq!(real(-0.0), "-0.0");
        assert_eq!(real(Real::NAN), "0x7ff8000000000000");
        assert!(parse_real("0x12").is_none() && parse_real("abc").is_none());
    }

    #[test]
    fn a_level_played_by_the_autopilot_round_trips_and_verifies() {
        let (g, r) = level_1(600, 60);
        // Hashes after steps 0, 60, ..., 600.
        assert_eq!((r.steps(), r.hashes()), (600, 11));
        assert_eq!(r.play, Play::Level(1));
        assert_eq!(r.world, *g.world().config());
        let text = r.to_text();
        let parsed = Replay::parse(&text).unwrap();
        assert_eq!(parsed, r);
        assert_eq!(parsed.to_text(), text);
        let report = parsed.verify().unwrap();
        assert_eq!(
            report,
            VerifyReport {
                steps: 600,
                commands: 0,
                hashes_checked: 11,
                final_hash: g.state_hash(),
            }
        );
        // The autopilot launched and the balls flew: the inputs were not all empty.
        assert!(r.entries.iter().any(|e| matches!(
            e,
            Entry::Steps { input, .. } if input.launch
        )));
        assert!(g.status().score.unwrap() > 0 || g.world().balls().len() > 1);
    }

    #[test]
    fn identical_steps_are_run_length_encoded() {
        let mut g = Game::level_1().unwrap();
        g.start_recording(SceneText::builtin("level_1").unwrap(), 60)
            .unwrap();
        for _ in 0..150 {
            g.step(&StepInput::default());
        }
        let r = g.take_replay().unwrap();
        // h 0, s 60, h 60, s 60, h 120, s 30, h 150.
        let steps: Vec<u64> = r
            .entries
            .iter()
            .filter_map(|e| match e {
                Entry::Steps { count, .. } => Some(*count),
                _ => None,
            })
            .collect();
        assert_eq!(steps, [60, 60, 30]);
        assert_eq!(r.hashes(), 4);
        assert!(r.to_text().contains("\ns 60 - 0 0 0\nh 60 "));
        // -0.0 and 0.0 are different inputs: no merge.
        let mut g = Game::level_1().unwrap();
        g.start_recording(SceneText::builtin("level_1").unwrap(), 1000)
            .unwrap();
        for x in [0.0, -0.0, -0.0] {
            g.step(&StepInput {
                pointer_x: Some(x),
                ..StepInput::default()
            });
        }
        let r = g.take_replay().unwrap();
        let counts: Vec<u64> = r
            .entries
            .iter()
            .filter_map(|e| match e {
                Entry::Steps { count, .. } => Some(*count),
                _ => None,
            })
            .collect();
        assert_eq!(counts, [1, 2]);
        assert_eq!(Replay::parse(&r.to_text()).unwrap(), r);
    }

    #[test]
    fn commands_and_frames_are_recorded_in_call_order() {
        let mut g = Game::new(Source::Level(2), Options::default()).unwrap();
        g.start_recording(SceneText::builtin("level_2").unwrap(), 7)
            .unwrap();
        let frame = |g: &mut Game, commands: Vec<Command>| {
            let mut input = g.autopilot();
            input.commands = commands;
            g.update(&input, 1.0 / 60.0);
        };
        for k in 0..400 {
            let commands = match k {
                50 => vec![Command::Restart],
                100 => vec![Command::Level(3), Command::ToggleDebug],
                150 => vec![Command::NextScene],
                200 => vec![Command::NextScene, Command::Slower, Command::Faster],
                250 => vec![Command::TogglePause],
                251 | 252 => vec![Command::SingleStep],
                253 => vec![Command::TogglePause],
                300 => vec![Command::Level(9)],
                _ => Vec::new(),
            };
            frame(&mut g, commands);
        }
        g.restart().unwrap();
        g.load(Source::Level(4)).unwrap();
        for _ in 0..30 {
            frame(&mut g, Vec::new());
        }
        let steps = g.world().steps();
        let final_hash = g.state_hash();
        let r = g.take_replay().unwrap();
        let commands: Vec<Command> = r
            .entries
            .iter()
            .filter_map(|e| match e {
                Entry::Command(c) => Some(*c),
                _ => None,
            })
            .collect();
        assert_eq!(commands.len(), 14);
        assert_eq!(commands[0], Command::Restart);
        assert_eq!(&commands[12..], [Command::Restart, Command::Level(4)]);
        // Frame 250 paused (no step), 251 and 252 ran one single step each, 253 resumed and
        // ran its step: one frame without a step.
        assert_eq!(r.steps(), 400 - 1 + 30);
        let parsed = Replay::parse(&r.to_text()).unwrap();
        assert_eq!(parsed, r);
        let report = parsed.verify().unwrap();
        assert_eq!((report.commands, report.final_hash), (14, final_hash));
        assert_eq!(steps, 30);
    }

    #[test]
    fn a_sandbox_round_trips_and_verifies() {
        let source = Source::demo("seed002_billiards").unwrap();
        let mut g = Game::new(source, Options::default()).unwrap();
        g.start_recording(SceneText::builtin("seed002_billiards").unwrap(), 50)
            .unwrap();
        for _ in 0..300 {
            g.update(&Input::default(), 1.0 / 60.0);
        }
        let r = g.take_replay().unwrap();
        assert_eq!((r.play, r.steps(), r.hashes()), (Play::Sandbox, 300, 7));
        // Every step without input: one run of 50 between hashes.
        assert!(r.to_text().contains("\ns 50 - 0 0 0\n"));
        let parsed = Replay::parse(&r.to_text()).unwrap();
        assert_eq!(parsed.verify().unwrap().final_hash, g.state_hash());
    }

    #[test]
    fn a_tampered_hash_or_input_is_found_at_its_step() {
        let (_, r) = level_1(300, 1);
        let text = r.to_text();
        // A hash changed: found at that step.
        let tampered = change_line(&text, "h 137 ", |l| {
            let (head, hash) = l.rsplit_once(' ').unwrap();
            let flipped = u64::from_str_radix(hash, 16).unwrap() ^ 1;
            format!("{head} {flipped:016x}")
        });
        let e = Replay::parse(&tampered).unwrap().verify().unwrap_err();
        assert!(
            matches!(e, ReplayError::HashMismatch { step: 137, .. }),
            "{e}"
        );
        // An input changed: its step is the first whose state differs (hashes every step).
        let k = nth_step_line(&text, 200);
        let tampered = replace_line(&text, k, "s 1 20.0 0 0 0");
        let e = Replay::parse(&tampered).unwrap().verify().unwrap_err();
        let ReplayError::HashMismatch {
            step,
            expected,
            got,
        } = e
        else {
            panic!("{e}")
        };
        assert_eq!(step, 200);
        assert_ne!(expected, got);
        // With hashes every 60 steps: the launch of step 1 taken out shows at step 60.
        let (_, r) = level_1(300, 60);
        let text = r.to_text();
        let k = nth_step_line(&text, 1);
        assert_eq!(text.split('\n').nth(k), Some("s 1 - 0 0 1"));
        let e = Replay::parse(&replace_line(&text, k, "s 1 - 0 0 0"))
            .unwrap()
            .verify()
            .unwrap_err();
        assert!(
            matches!(e, ReplayError::HashMismatch { step: 60, .. }),
            "{e}"
        );
        let shown = e.to_string();
        assert!(shown.contains("after step 60"), "{shown}");
    }

    /// The line number (0-based) of the `s` line that runs step `n` (1-based), with all
    /// counts 1 in the region.
    fn nth_step_line(text: &str, n: u64) -> usize {
        let mut steps = 0;
        for (i, l) in text.lines().enumerate() {
            if let Some(rest) = l.strip_prefix("s ") {
                let count: u64 = rest.split(' ').next().unwrap().parse().unwrap();
                if steps < n && n <= steps + count {
                    assert_eq!(count, 1, "{l}");
                    return i;
                }
                steps += count;
            }
        }
        panic!("no step {n}")
    }

    fn replace_line(text: &str, k: usize, new: &str) -> String {
        let mut lines: Vec<&str> = text.split('\n').collect();
        lines[k] = new;
        lines.join("\n")
    }

    fn change_line(text: &str, prefix: &str, f: impl Fn(&str) -> String) -> String {
        let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
        let l = lines.iter_mut().find(|l| l.starts_with(prefix)).unwrap();
        *l = f(l);
        lines.join("\n")
    }

    #[test]
    fn a_changed_level_or_world_setting_fails_loudly() {
        let (_, r) = level_1(10, 60);
        // The recorded level_1.dat with one brick less: not this build's level 1.
        let mut changed = r.clone();
        let level = &mut changed.scene.levels[0].1;
        let at = level.find(['R', 'Y', 'G', 'C', 'B', 'W']).unwrap();
        level.replace_range(at..=at, " ");
        let e = Replay::parse(&changed.to_text())
            .unwrap()
            .verify()
            .unwrap_err();
        assert!(
            matches!(&e, ReplayError::BuiltinChanged { name } if name == "level_1"),
            "{e}"
        );
        // The same change played as a scene (not a built-in level) is used as recorded: the
        // start state differs, so the very first hash fails.
        changed.play = Play::Scene;
        let e = changed.verify().unwrap_err();
        assert!(
            matches!(e, ReplayError::HashMismatch { step: 0, .. }),
            "{e}"
        );
        // A world setting that differs from the scene's.
        let mut other = r.clone();
        other.world.dt = 0.01;
        let e = other.verify().unwrap_err();
        assert!(
            matches!(&e, ReplayError::WorldConfig { field: "dt", .. }),
            "{e}"
        );
    }

    #[test]
    fn recording_refuses_what_it_cannot_replay() {
        // Not at the start.
        let mut g = Game::level_1().unwrap();
        g.step(&StepInput::default());
        let e = g
            .start_recording(SceneText::builtin("level_1").unwrap(), 60)
            .unwrap_err();
        assert!(matches!(e, ReplayError::NotAtStart { steps: 1 }), "{e}");
        // Another scene's text.
        let mut g = Game::level_1().unwrap();
        let e = g
            .start_recording(SceneText::builtin("level_2").unwrap(), 60)
            .unwrap_err();
        assert!(matches!(e, ReplayError::SceneMismatch { .. }), "{e}");
        let e = g
            .start_recording(SceneText::builtin("level_1").unwrap(), 0)
            .unwrap_err();
        assert!(matches!(e, ReplayError::BadHashInterval), "{e}");
        assert!(matches!(
            g.take_replay().unwrap_err(),
            ReplayError::NotRecording
        ));
        // A direct edit of the world or the rules.
        g.start_recording(SceneText::builtin("level_1").unwrap(), 60)
            .unwrap();
        assert!(g.is_recording());
        g.step(&StepInput::default());
        assert_eq!(g.recorded_steps(), Some(1));
        let _ = g.world_mut();
        let e = g.take_replay().unwrap_err();
        assert!(matches!(e, ReplayError::Untracked { .. }), "{e}");
        assert!(!g.is_recording());
        // Loading a scene that is not built in.
        let mut g = Game::level_1().unwrap();
        g.start_recording(SceneText::builtin("level_1").unwrap(), 60)
            .unwrap();
        g.load(Source::demo("arena").unwrap()).unwrap();
        assert!(matches!(
            g.take_replay().unwrap_err(),
            ReplayError::Untracked { .. }
        ));
    }

    #[test]
    fn a_dat_file_and_crlf_text_are_embedded_as_read() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenes/levels");
        let path = dir.join("level_2.dat");
        let text = SceneText::read(&path).unwrap();
        assert_eq!(text.kind, TextKind::Dat);
        let scene = text.parse().unwrap();
        assert_eq!(scene, collide_scenes::load("level_2").unwrap().unwrap());
        let mut g = Game::new(Source::Scene(Box::new(scene)), Options::default()).unwrap();
        // CRLF line ends become LF.
        let crlf = SceneText {
            text: text.text.replace('\n', "\r\n"),
            ..text
        };
        g.start_recording(crlf, 30).unwrap();
        for _ in 0..90 {
            autopilot_step(&mut g);
        }
        let r = g.take_replay().unwrap();
        assert!(!r.scene.text.contains('\r'));
        let windows = r.to_text().replace('\n', "\r\n");
        let parsed = Replay::parse(&windows).unwrap();
        assert_eq!(parsed, r);
        assert_eq!(parsed.verify().unwrap().final_hash, g.state_hash());
        assert_eq!(parsed.play, Play::Scene);
    }

    #[test]
    fn options_outside_the_scene_limits_are_refused_naming_the_option() {
        let (_, r) = level_1(5, 60);
        let good = r.to_text();
        let huge = [
            "1e200",
            "1e155",
            "1.7976931348623157e308",
            "inf",
            "-inf",
            "NaN",
            "0x7ff8000000000000",
        ];
        for (name, value) in option_values(&Options::default()) {
            let line = format!("option {name} {value}\n");
            assert!(good.contains(&line), "{name}");
            let is_real = value.contains('.') || value.contains('e');
            let bad: Vec<String> = if is_real {
                huge.iter().map(|s| (*s).to_owned()).collect()
            } else if value == "true" || value == "false" {
                continue;
            } else if name == "lives" || name == "max_steps_per_frame" {
                // Any u32: its work is bounded by the recorded steps.
                vec!["-1".to_owned(), "1e9".to_owned()]
            } else {
                vec![
                    "-1".to_owned(),
                    "99999999999999999999".to_owned(),
                    "1e9".to_owned(),
                ]
            };
            for v in bad {
                let text = good.replacen(&line, &format!("option {name} {v}\n"), 1);
                match Replay::parse(&text) {
                    Err(ReplayError::Parse { field, .. }) => {
                        assert_eq!(field, format!("option.{name}"), "{name} {v}");
                    }
                    other => panic!("option {name} {v}: {other:?}"),
                }
            }
        }
        // The recorded text with option `name` set to `value` instead of its default.
        let with_option = |name: &str, value: &str| {
            let old = option_values(&Options::default())
                .into_iter()
                .find(|o| o.0 == name)
                .expect("a recorded option")
                .1;
            good.replacen(
                &format!("option {name} {old}\n"),
                &format!("option {name} {value}\n"),
                1,
            )
        };
        // Counts past the limits: the scene format's ball limit, the event bound.
        for (name, v) in [
            ("volley", MAX_BALLS as u64 + 1),
            ("rain", MAX_BALLS as u64 + 1),
            ("max_balls", MAX_BALLS as u64 + 1),
            ("aim_segments", u64::from(MAX_EVENTS_PER_BODY) + 1),
            ("score_per_brick", MAX_SCORE_PER_BRICK + 1),
        ] {
            let text = with_option(name, &v.to_string());
            let e = Replay::parse(&text).unwrap_err().to_string();
            assert!(
                e.contains(&format!("option.{name}")) && e.contains("expected a whole number"),
                "{e}"
            );
        }
        // Probabilities and fractions within [0, 1].
        for name in ["min_vertical", "drops.heart"] {
            assert!(
                Replay::parse(&with_option(name, "1.5")).is_err(),
                "{name} 1.5"
            );
        }
    }

    #[test]
    fn only_a_matching_final_hash_verifies() {
        let (_, r) = level_1(30, 10);
        r.verify().unwrap();
        // Every hash removed: nothing proves anything.
        let mut bare = r.clone();
        bare.entries.retain(|e| !matches!(e, Entry::Hash { .. }));
        let e = bare.verify().unwrap_err();
        assert!(matches!(e, ReplayError::NoFinalHash { steps: 30 }), "{e}");
        // The final hash removed, the others kept: the last state is unproven.
        let mut cut = r.clone();
        assert!(matches!(
            cut.entries.pop(),
            Some(Entry::Hash { step: 30, .. })
        ));
        assert!(matches!(cut.verify(), Err(ReplayError::NoFinalHash { .. })));
        // A call after the final hash: unproven too.
        let mut extra = r.clone();
        extra.entries.push(Entry::Command(Command::Restart));
        assert!(matches!(
            extra.verify(),
            Err(ReplayError::NoFinalHash { .. })
        ));
        // Through the text: the same.
        let text: String = r
            .to_text()
            .lines()
            .filter(|l| !l.starts_with("h "))
            .map(|l| format!("{l}\n"))
            .collect();
        let parsed = Replay::parse(&text).unwrap();
        assert!(matches!(
            parsed.verify(),
            Err(ReplayError::NoFinalHash { .. })
        ));
    }

    #[test]
    fn parse_errors_name_the_line_and_the_field() {
        let (_, r) = level_1(5, 60);
        let good = r.to_text();
        let n_lines = good.split('\n').count();
        let cases: Vec<(String, usize, &str)> = vec![
            (String::new(), 1, "header"),
            ("collide-replay 2\n".to_owned(), 1, "version"),
            (
                good.replacen("play level 1", "play level 8", 1),
                3,
                "play.level",
            ),
            (
                good.replacen("option volley 10", "option volley ten", 1),
                0,
                "option.volley",
            ),
            (
                good.replacen("option volley 10", "option volleys 10", 1),
                0,
                "option.volleys",
            ),
            (good.replacen("world dt ", "world dt x", 1), 0, "world.dt"),
            (
                good.replacen("hash-every 60", "hash-every 0", 1),
                0,
                "hash-every",
            ),
            (good.replacen("\ns 1 ", "\ns 0 ", 1), 0, "s.count"),
            (good.replacen(" - 0 0 1", " - 0 0 2", 1), 0, "s.launch"),
            (good.replacen(" - 0 0 1", " x 0 0 1", 1), 0, "s.pointer_x"),
            (
                good.replacen(" - 0 0 1", " - 300 0 1", 1),
                0,
                "s.paddle_dir",
            ),
            (good.replacen("h 0 ", "h 1 ", 1), 0, "h.step"),
            (good.replacen("end 5", "end 6", 1), 0, "end"),
            (good.replacen("end 5\n", "", 1), n_lines - 1, "end"),
            (good.clone() + "s 1 - 0 0 0\n", 0, "end"),
            (
                good.replacen("hash-every 60", "hash-every 60\nq", 1),
                0,
                "line",
            ),
            (
                good.replacen("scene toml 31", "scene toml 99999", 1),
                4,
                "scene",
            ),
            (
                good.replacen("scene toml 31", "scene json 31", 1),
                4,
                "scene.kind",
            ),
            (good.replacen("\n|", "\n ", 1), 5, "scene"),
            (
                good.replacen("hash-every 60\n", "", 1).replacen(
                    "end 5",
                    "hash-every 60\nend 5",
                    1,
                ),
                0,
                "hash-every",
            ),
            (
                good.replacen("h 0 ", &format!("s {} - 0 0 0\nh 0 ", MAX_STEPS + 1), 1),
                0,
                "steps",
            ),
        ];
        for (text, line, field) in cases {
            let Err(e) = Replay::parse(&text) else {
                panic!("{field}: parsed")
            };
            let ReplayError::Parse {
                line: l, field: f, ..
            } = &e
            else {
                panic!("{field}: {e:?}")
            };
            assert_eq!(f, field, "{e}");
            if line > 0 {
                assert_eq!(*l, line, "{e}");
            }
            assert!(
                e.to_string().starts_with(&format!("line {l}: {f}: ")),
                "{e}"
            );
        }
        // A hash with a wrong digit count, and a missing header line.
        let e = Replay::parse(&good.replacen(&format!("h 0 {:016x}", 0), "", 1));
        assert!(e.is_ok());
        let e = Replay::parse(&good.replacen("play level 1\n", "", 1)).unwrap_err();
        assert!(
            matches!(&e, ReplayError::Parse { field, .. } if field == "play"),
            "{e}"
        );
    }

    #[test]
    fn mutated_and_truncated_files_are_errors_not_panics() {
        let (_, r) = level_1(120, 30);
        let good = r.to_text();
        let bytes = good.as_bytes();
        let mut rng = XorShift64Star::new(11);
        let mut oks = 0;
        for k in 0..3000 {
            let mut m = bytes.to_vec();
            let pick =
                |rng: &mut XorShift64Star, n: usize| (rng.next_u64() % n.max(1) as u64) as usize;
            match k % 5 {
                0 => m.truncate(pick(&mut rng, bytes.len())),
                1 => {
                    for _ in 0..1 + pick(&mut rng, 4) {
                        let at = pick(&mut rng, m.len());
                        m[at] = b" 0123456789-.x|\nabcdefsh#e"[pick(&mut rng, 26)];
                    }
                }
                2 => {
                    let at = pick(&mut rng, m.len());
                    let len = pick(&mut rng, 64).min(m.len() - at);
                    m.drain(at..at + len);
                }
                3 => {
                    let at = pick(&mut rng, m.len());
                    let junk = [
                        "\n",
                        "s 1 ",
                        "h 0 ",
                        "|",
                        "9999999999999999999999",
                        "-",
                        "\nend 0\n",
                    ];
                    let j = junk[pick(&mut rng, junk.len())];
                    m.splice(at..at, j.bytes());
                }
                _ => {
                    // Swap two lines.
                    let mut lines: Vec<&[u8]> = m.split(|b| *b == b'\n').collect();
                    let (a, b) = (pick(&mut rng, lines.len()), pick(&mut rng, lines.len()));
                    lines.swap(a, b);
                    m = lines.join(&b'\n');
                }
            }
            let Ok(text) = String::from_utf8(m) else {
                continue;
            };
            if let Ok(p) = Replay::parse(&text) {
                oks += 1;
                // What parses writes and reads back the same.
                assert_eq!(Replay::parse(&p.to_text()).unwrap(), p);
                // Verifying it never panics either (its options are the recorded ones).
                if p.options == r.options && p.steps() <= 1000 {
                    let _ = p.verify();
                }
            }
        }
        // Some mutations are harmless (a comment, a swapped option line).
        assert!(oks > 0 && oks < 3000, "{oks}");
    }
}
