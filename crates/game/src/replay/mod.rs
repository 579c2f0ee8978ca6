//! Replays: a game session as a small, versioned text file that any later build can
//! re-simulate and check (format: `docs/replay-format.md`).
//!
//! A [`Replay`] holds what a session started from (how it is played, the scene's full source
//! text, the game's [`Options`], the world's step settings) and, in call order, every
//! [`Game::command`] and every [`Game::step`] of the session (identical consecutive steps
//! run-length encoded), with the [`Game::state_hash`] after every `hash_every`-th step and
//! after the last one. [`Replay::verify`] rebuilds the game from the file alone, makes the
//! same calls and compares the hashes: the first difference is a
//! [`ReplayError::HashMismatch`] naming the step and the hash record's line.
//!
//! Recording cannot be forgotten by a caller: [`Game::start_recording`] puts a recorder inside
//! the game, and `Game::command`, `Game::step` (so also `Game::update`), `Game::load` and
//! `Game::restart` feed it; [`Game::take_replay`] ends the recording.
//!
//! # The file: JSON lines
//! [`Replay::to_text`] writes format 2: one JSON object per line, a header line then one
//! record per line (`scene`, `level`, `options`, `world`, then `command`, `steps`, `hash`,
//! and `end`). Every record is a serde type, so the options ([`Options`]) and the world
//! settings (every field of `StepConfig`, `gravity` included) are spelled once, where they
//! are declared, with the bounds each value is read within. JSON lines rather than TOML:
//! a replay is mostly a long list of small records, and one record per line gives each
//! error its line without tracking spans, lets a reader take the file line by line, and
//! keeps a session of an hour a flat list instead of one TOML document of arrays of tables
//! (the scene's text, TOML itself, sits in a JSON string). [`Replay::parse`] also reads
//! format 1, the line-oriented text format before it (`legacy`), so older files still load
//! and verify.
//!
//! Exactness without memory layout: every `f64` is written in the shortest decimal form that
//! reads back to the same bits and read back bit for bit (serde_json's `float_roundtrip`
//! reading, tested on random bit patterns); a non-finite pointer in a step's input is a
//! string (`inf`, `-inf`, or `0x` and the 16 hex digits of a NaN). Hashes are 16 hex digits
//! of FNV-1a over the bit patterns of the state in a fixed order ([`Game::state_hash`]).
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
//! assert!(text.starts_with(r#"{"format":"collide-replay","version":2,"play":{"level":1},"hash_every":60}"#));
//! let parsed = Replay::parse(&text).unwrap();
//! assert_eq!(parsed, replay);
//! // Hashes after steps 0, 60 and 100 (the last one).
//! let report = parsed.verify().unwrap();
//! assert_eq!((report.steps, report.hashes_checked), (100, 3));
//! assert_eq!(report.final_hash, game.state_hash());
//! ```

use std::path::Path;

use collide_core::Real;
use collide_scene::SceneError;
use collide_world::StepConfig;
use serde::{Deserialize, Deserializer, Serialize};

use crate::game::{Game, GameError, Source, LEVELS};
use crate::input::{Command, StepInput};
use crate::options::Options;

mod format;
mod legacy;
mod scene_text;

use format::World;
use scene_text::{normalize, read_limited, Limited};
pub use scene_text::{SceneText, TextKind};

/// Largest `score_per_brick` a replay may ask for (see [`Options`]).
pub use crate::options::MAX_SCORE_PER_BRICK;

/// The format's name: the `format` of a replay's header line (and the first word of a
/// format-1 file).
pub const MAGIC: &str = "collide-replay";

/// The format version this build writes (it reads this one and format 1).
pub const VERSION: u32 = 2;

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
        /// The field: its path in the line's record (`options.volley`,
        /// `steps.input.pointer_x`, `hash.hash`, `end.steps`, ...), or what the line is
        /// (`header`, `record`, `end`).
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
        /// The setting, as the replay's `world` record names it (`dt`, `gravity`, ...).
        field: String,
        /// The recorded value.
        expected: String,
        /// The value of the rebuilt world.
        got: String,
    },
    /// Re-simulation gave another state: the first step whose recorded hash differs.
    #[error(
        "line {line}: state hash differs after step {step}: the replay recorded {expected:016x}, re-simulation gives {got:016x}"
    )]
    HashMismatch {
        /// 1-based line of the hash record: in the text the replay was parsed from, or, for a
        /// replay recorded (or whose entries were changed since), in its [`Replay::to_text`].
        line: usize,
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
    /// [`Game::start_recording`] on a game whose options a replay could not read back (a
    /// value outside the bounds listed at [`Options`], such as a non-finite speed).
    #[error("option {field} cannot be recorded: {problem}")]
    Options {
        /// The option's path (`ball_speed`, `drops.heart`).
        field: String,
        /// Why.
        problem: String,
    },
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
    /// so it does not verify (a file whose hash records were removed, or whose last hash is
    /// followed by further calls).
    #[error(
        "no state hash is recorded after the last call (step {steps}): nothing proves the final \
         state; a replay verifies only when its final state hash is recorded and matches"
    )]
    NoFinalHash {
        /// Steps the replay holds.
        steps: u64,
    },
    /// The map of a platformer replay is no longer the file that was recorded (its bytes'
    /// hash differs).
    #[error("map `{file}` differs from the one recorded in the replay (hash {recorded}, now {now}): re-record it")]
    MapChanged {
        /// The map's path, as recorded.
        file: String,
        /// The recorded hash, 16 hex digits.
        recorded: String,
        /// The file's hash now.
        now: String,
    },
    /// The map of a platformer replay cannot be loaded (or this build reads no maps: the
    /// `maps` feature is off).
    #[error("map `{file}`: {reason}")]
    Map {
        /// The map's path, as recorded.
        file: String,
        /// Why (the map loader's error).
        reason: String,
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
// The replay

/// How the recorded session plays its scene (the header's `play`: `{"level": N}`, `"scene"`,
/// `"sandbox"` or `{"platformer": {"balls": N}}`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Play {
    /// Built-in BricksBeater level `n` (1 to [`LEVELS`]) by the rules ([`Source::Level`]).
    Level(#[serde(deserialize_with = "level_number")] u8),
    /// The scene, by the rules if it is a BricksBeater layout ([`Source::Scene`]).
    Scene,
    /// The scene as a sandbox ([`Source::Sandbox`]).
    Sandbox,
    /// The platformer on the levels of the map the replay's scene names ([`TextKind::Map`]),
    /// from its first level, with `balls` balls dropped on each ([`Source::Platformer`]).
    Platformer {
        /// Balls dropped on each level (0: the game; more: its sandbox sub-mode).
        balls: u32,
    },
}

/// A built-in level's number, 1 to [`LEVELS`].
fn level_number<'de, D: Deserializer<'de>>(d: D) -> Result<u8, D::Error> {
    let n = u8::deserialize(d)?;
    if (1..=LEVELS).contains(&n) {
        Ok(n)
    } else {
        Err(serde::de::Error::custom(format!(
            "{n} is not a built-in level (1 to {LEVELS})"
        )))
    }
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
///
/// Two replays are equal when their public fields are (where a replay was read from does not
/// count).
#[derive(Clone, Debug)]
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
    /// The 1-based line of each entry in the text it was parsed from (empty when recorded).
    entry_lines: Vec<usize>,
}

impl PartialEq for Replay {
    fn eq(&self, other: &Replay) -> bool {
        self.play == other.play
            && self.scene == other.scene
            && self.options == other.options
            && self.world == other.world
            && self.hash_every == other.hash_every
            && self.entries == other.entries
    }
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
    /// the replay plays a built-in level whose text in this build is not the recorded one;
    /// for the platformer, [`ReplayError::MapChanged`] when the map file's hash is not the
    /// recorded one, [`ReplayError::Map`] when it cannot be loaded (or the build has no
    /// `maps` feature), [`ReplayError::Io`] when it cannot be read.
    pub fn source(&self) -> Result<Source, ReplayError> {
        if let Play::Platformer { balls } = self.play {
            return Ok(Source::Platformer {
                levels: platformer_levels(&self.scene)?,
                balls: balls as usize,
            });
        }
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
            Play::Sandbox | Play::Platformer { .. } => Source::Sandbox(Box::new(scene)),
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
        for (k, e) in self.entries.iter().enumerate() {
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
                            line: self.entry_line(k),
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

    /// The 1-based line of entry `k`: in the text the replay was parsed from while its
    /// entries are the ones read, else in [`Replay::to_text`] (a line each for the header, the
    /// scene, each level, the options and the world, then one per entry).
    fn entry_line(&self, k: usize) -> usize {
        match self.entry_lines.get(k) {
            Some(line) if self.entry_lines.len() == self.entries.len() => *line,
            _ => 4 + self.scene.levels.len() + k + 1,
        }
    }

    /// The replay as text: format 2, JSON lines (`docs/replay-format.md`).
    #[must_use]
    pub fn to_text(&self) -> String {
        format::write(self)
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

    /// Reads and parses a replay file (format 2 or 1).
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

    /// Parses a replay text (`docs/replay-format.md`): format 2 (JSON lines, a first line
    /// that is a JSON object) or format 1 (a first line `collide-replay 1`). Never panics,
    /// on any text.
    ///
    /// # Errors
    /// [`ReplayError::TooLarge`] for a text over [`MAX_REPLAY_BYTES`]; [`ReplayError::Parse`]
    /// with the 1-based line and the field for everything else: a first line of another
    /// format or version, a line that is not a JSON object of a known record, a field of the
    /// wrong type or outside its bounds (named by its path: `options.volley`,
    /// `steps.input.pointer_x`, `world.dt`), an unknown field, a missing or repeated header
    /// record, a header record after the first call, a hash whose step is not the number of
    /// steps before it, more than [`MAX_STEPS`] steps, a missing `end` record or one that
    /// does not match.
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
        let first = lines.first().copied().unwrap_or("");
        if legacy::is_legacy(first) {
            legacy::parse(&lines)
        } else {
            format::parse(&lines)
        }
    }
}

/// The platformer's levels from the map `scene` names ([`TextKind::Map`]), after checking
/// the file's hash against the recorded one.
///
/// # Errors
/// [`ReplayError::Map`] for a scene that is not a map, a map that does not load, or a build
/// without the `maps` feature; [`ReplayError::MapChanged`], [`ReplayError::Io`].
fn platformer_levels(scene: &SceneText) -> Result<Vec<crate::PlatformerLevel>, ReplayError> {
    let map_err = |reason: String| ReplayError::Map {
        file: scene.file.clone(),
        reason,
    };
    if scene.kind != TextKind::Map {
        return Err(map_err(
            "the platformer plays a map: the replay's scene must be of kind `map`".to_owned(),
        ));
    }
    let now = scene_text::map_hash(Path::new(&scene.file))?;
    if now != scene.text {
        return Err(ReplayError::MapChanged {
            file: scene.file.clone(),
            recorded: scene.text.clone(),
            now,
        });
    }
    #[cfg(feature = "maps")]
    {
        crate::PlatformerLevel::load_all(Path::new(&scene.file)).map_err(|e| map_err(e.to_string()))
    }
    #[cfg(not(feature = "maps"))]
    {
        Err(map_err(
            "this build reads no maps (collide-game's `maps` feature is off)".to_owned(),
        ))
    }
}

/// Compares the recorded world settings with the rebuilt world's, field by field as the
/// replay stores them (bit for bit: each value's shortest decimal form).
fn check_world(expected: &StepConfig, got: &StepConfig) -> Result<(), ReplayError> {
    let fields = |c: &StepConfig| match serde_json::to_value(World(*c)) {
        Ok(serde_json::Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    let (expected, got) = (fields(expected), fields(got));
    for (field, e) in &expected {
        // As text: `-0.0` and `0.0` differ, as their bits do.
        let e = e.to_string();
        let g = got.get(field).map(ToString::to_string).unwrap_or_default();
        if e != g {
            return Err(ReplayError::WorldConfig {
                field: field.clone(),
                expected: e,
                got: g,
            });
        }
    }
    Ok(())
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
        // What the file will hold, exactly: `\n` line ends.
        scene.text = normalize(&scene.text);
        for (_, text) in &mut scene.levels {
            *text = normalize(text);
        }
        check_options(game.options())?;
        if let Source::Platformer { levels, balls } = game.source() {
            let play = Play::Platformer {
                balls: u32::try_from(*balls).map_err(|_| ReplayError::Untracked {
                    what: "more balls than a replay holds (u32)",
                })?,
            };
            if platformer_levels(&scene)? != *levels {
                return Err(ReplayError::SceneMismatch {
                    file: scene.file,
                    played: "the platformer's levels".to_owned(),
                });
            }
            return Ok(Recorder::start(game, play, scene, hash_every));
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
            // Recorded above.
            Source::Platformer { .. } => {
                return Err(ReplayError::Untracked {
                    what: "the platformer",
                })
            }
        };
        if parsed != played {
            return Err(ReplayError::SceneMismatch {
                file: scene.file,
                played: played.name,
            });
        }
        Ok(Recorder::start(game, play, scene, hash_every))
    }

    /// The recorder of a checked start: the header and the hash of the start state.
    fn start(game: &Game, play: Play, scene: SceneText, hash_every: u32) -> Recorder {
        Recorder {
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
                entry_lines: Vec::new(),
            },
            steps: 0,
            untracked: None,
        }
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

/// Refuses options a replay could not read back (a non-finite number, a count past its
/// bound): the options as the file would hold them, read with the bounds of [`Options`].
fn check_options(options: &Options) -> Result<(), ReplayError> {
    let value = serde_json::to_value(options).map_err(|e| ReplayError::Options {
        field: String::new(),
        problem: e.to_string(),
    })?;
    serde_path_to_error::deserialize::<_, Options>(value)
        .map(|_| ())
        .map_err(|e| ReplayError::Options {
            field: e.path().to_string(),
            problem: e.inner().to_string(),
        })
}

/// Equal inputs, bit for bit (`0.0` and `-0.0` differ; a NaN equals the same NaN).
fn same_input(a: &StepInput, b: &StepInput) -> bool {
    // Every field, by name: a field added to `StepInput` must be compared here (a record of
    // several steps holds one input for all of them).
    let StepInput {
        pointer_x,
        paddle_dir,
        aim_dir,
        launch,
        flip_left,
        flip_right,
        plunger,
        run_dir,
        climb_dir,
        jump,
    } = *a;
    pointer_x.map(Real::to_bits) == b.pointer_x.map(Real::to_bits)
        && paddle_dir == b.paddle_dir
        && aim_dir == b.aim_dir
        && launch == b.launch
        && flip_left == b.flip_left
        && flip_right == b.flip_right
        && plunger == b.plunger
        && run_dir == b.run_dir
        && climb_dir == b.climb_dir
        && jump == b.jump
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Input;
    use collide_core::Vec2;
    use collide_world::limits::{MAX_BALLS, MAX_EVENTS_PER_BODY};
    use collide_world::rng::XorShift64Star;

    fn autopilot_step(g: &mut Game) {
        let i = g.autopilot();
        g.step(&StepInput::from(&i));
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

    /// The text's lines, as owned strings.
    fn lines_of(text: &str) -> Vec<String> {
        text.split('\n').map(str::to_owned).collect()
    }

    /// The index of the `hash` record of step `n`.
    fn hash_line(lines: &[String], n: u64) -> usize {
        let prefix = format!("{{\"hash\":{{\"step\":{n},");
        lines.iter().position(|l| l.starts_with(&prefix)).unwrap()
    }

    /// The index of the `steps` record that runs step `n` (1-based), with count 1.
    fn step_line(lines: &[String], n: u64) -> usize {
        let mut steps = 0;
        for (i, l) in lines.iter().enumerate() {
            let Ok(v) = serde_json::from_str::<serde_json::Value>(l) else {
                continue;
            };
            if let Some(count) = v["steps"]["count"].as_u64() {
                if steps < n && n <= steps + count {
                    assert_eq!(count, 1, "{l}");
                    return i;
                }
                steps += count;
            }
        }
        panic!("no step {n}")
    }

    fn steps_record(input: &str) -> String {
        format!("{{\"steps\":{{\"count\":1,\"input\":{input}}}}}")
    }

    #[test]
    fn reals_read_back_bit_for_bit() {
        // Every f64 bit pattern as a pointer (non-finite ones as strings), and awkward values
        // in the options and the world settings: the text reads back to the same bits.
        let mut rng = XorShift64Star::new(3);
        let specials = [
            0.0,
            -0.0,
            0.1,
            1.0 / 3.0,
            1e-300,
            0.1 + 0.2,
            Real::INFINITY,
            Real::NEG_INFINITY,
            Real::NAN,
            -Real::NAN,
            Real::from_bits(0x7ff8_0000_0000_1234),
            Real::MIN_POSITIVE,
            Real::from_bits(1),
            Real::MAX,
            Real::MIN,
        ];
        let random = (0..20_000).map(|_| Real::from_bits(rng.next_u64()));
        for x in specials.into_iter().chain(random) {
            let input = StepInput {
                pointer_x: Some(x),
                ..StepInput::default()
            };
            let s = serde_json::to_string(&input).unwrap();
            let back: StepInput = serde_json::from_str(&s).unwrap();
            assert_eq!(back.pointer_x.map(Real::to_bits), Some(x.to_bits()), "{s}");
        }
        let s = serde_json::to_string(&StepInput {
            pointer_x: Some(Real::NAN),
            ..StepInput::default()
        })
        .unwrap();
        assert_eq!(s, r#"{"pointer_x":"0x7ff8000000000000"}"#);
        let (_, mut r) = level_1(5, 60);
        r.options.ball_speed = 0.1;
        r.options.aim_rate = 1.0 / 3.0;
        r.options.volley_interval = 1e-300;
        r.options.power_up_size = Vec2::new(1.0 / 3.0, 1e-300);
        r.world.dt = 0.1;
        r.world.restitution = 1.0 / 3.0;
        r.world.gravity = Vec2::new(-1e-300, 981.0 / 7.0);
        let text = r.to_text();
        assert!(
            text.contains(r#""gravity":[-1e-300,140.14285714285714]"#),
            "{text}"
        );
        let back = Replay::parse(&text).unwrap();
        assert_eq!(back, r);
        let bits = |v: Vec2| [v.x.to_bits(), v.y.to_bits()];
        assert_eq!(bits(back.world.gravity), bits(r.world.gravity));
        assert_eq!(back.world.dt.to_bits(), 0.1_f64.to_bits());
        assert_eq!(back.options.volley_interval.to_bits(), 1e-300_f64.to_bits());
        assert_eq!(back.to_text(), text);
    }

    #[test]
    fn a_tampered_hash_or_input_is_found_at_its_step() {
        let (_, r) = level_1(300, 1);
        let lines = lines_of(&r.to_text());
        // A hash changed: found at that step.
        let mut tampered = lines.clone();
        let k = hash_line(&lines, 137);
        let Entry::Hash { hash, .. } = r.entries[k - 5] else {
            panic!("{}", lines[k])
        };
        tampered[k] = format!(
            "{{\"hash\":{{\"step\":137,\"hash\":\"{:016x}\"}}}}",
            hash ^ 1
        );
        // Empty lines before it: the error names its line in the text read.
        let text = tampered.join("\n").replacen('\n', "\n\n\n", 1);
        let e = Replay::parse(&text).unwrap().verify().unwrap_err();
        assert!(
            matches!(e, ReplayError::HashMismatch { step: 137, line, .. } if line == k + 3),
            "{e}"
        );
        assert!(
            e.to_string().starts_with(&format!(
                "line {}: state hash differs after step 137: ",
                k + 3
            )),
            "{e}"
        );
        // The same change made to the recorded replay: its line in the text it writes.
        let mut changed = r.clone();
        changed.entries[k - 5] = Entry::Hash {
            step: 137,
            hash: hash ^ 1,
        };
        let e = changed.verify().unwrap_err();
        assert!(
            matches!(e, ReplayError::HashMismatch { step: 137, line, .. } if line == k + 1),
            "{e}"
        );
        assert_eq!(lines_of(&changed.to_text())[k], tampered[k]);
        // An input changed: its step is the first whose state differs (hashes every step).
        let mut tampered = lines.clone();
        tampered[step_line(&lines, 200)] = steps_record(r#"{"pointer_x":20.0}"#);
        let e = Replay::parse(&tampered.join("\n"))
            .unwrap()
            .verify()
            .unwrap_err();
        let ReplayError::HashMismatch {
            step,
            expected,
            got,
            ..
        } = e
        else {
            panic!("{e}")
        };
        assert_eq!(step, 200);
        assert_ne!(expected, got);
        // With hashes every 60 steps: the launch of step 1 taken out shows at step 60.
        let (_, r) = level_1(300, 60);
        let mut lines = lines_of(&r.to_text());
        let k = step_line(&lines, 1);
        assert_eq!(lines[k], steps_record(r#"{"launch":true}"#));
        lines[k] = steps_record("{}");
        let e = Replay::parse(&lines.join("\n"))
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

    /// Every leaf of a JSON value with its path (`drops.heart`, `power_up_size[0]`).
    fn leaves(v: &serde_json::Value, path: &str, out: &mut Vec<(String, serde_json::Value)>) {
        match v {
            serde_json::Value::Object(map) => {
                for (k, x) in map {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    leaves(x, &p, out);
                }
            }
            serde_json::Value::Array(items) => {
                for (i, x) in items.iter().enumerate() {
                    leaves(x, &format!("{path}[{i}]"), out);
                }
            }
            leaf => out.push((path.to_owned(), leaf.clone())),
        }
    }

    /// The options record's line with the option at `path` set to `value` (JSON text).
    fn with_option(lines: &[String], path: &str, value: &str) -> (usize, String) {
        let k = lines
            .iter()
            .position(|l| l.starts_with("{\"options\""))
            .unwrap();
        let mut record: serde_json::Value = serde_json::from_str(&lines[k]).unwrap();
        let mut at = &mut record["options"];
        for seg in path.split('.') {
            at = match seg.split_once('[') {
                Some((name, index)) => {
                    &mut at[name][index.trim_end_matches(']').parse::<usize>().unwrap()]
                }
                None => &mut at[seg],
            };
        }
        *at = serde_json::from_str(value).unwrap();
        let mut out = lines.to_vec();
        out[k] = record.to_string();
        (k + 1, out.join("\n"))
    }

    #[test]
    fn options_outside_the_scene_limits_are_refused_naming_the_option() {
        let (_, r) = level_1(5, 60);
        let lines = lines_of(&r.to_text());
        let mut all = Vec::new();
        leaves(
            &serde_json::to_value(Options::default()).unwrap(),
            "",
            &mut all,
        );
        assert_eq!(all.len(), 26);
        for (path, value) in all {
            let bad: &[&str] = if value.is_boolean() {
                &["1", "null", "\"true\""]
            } else if value.is_f64() {
                &[
                    "1e200",
                    "1e155",
                    "1.7976931348623157e308",
                    "-1e10",
                    "\"inf\"",
                    "null",
                ]
            } else {
                // lives and max_steps_per_frame take any u32: their work is bounded by the
                // recorded steps; the other counts have bounds of their own (below).
                &["-1", "1e9", "99999999999999999999", "4294967296.5"]
            };
            for v in bad {
                let (line, text) = with_option(&lines, &path, v);
                match Replay::parse(&text) {
                    Err(ReplayError::Parse { line: l, field, .. }) => {
                        assert_eq!(l, line, "{path} {v}");
                        // A vector's bound names the vector.
                        let field = field.replace("power_up_size[0]", "power_up_size");
                        let path = path.replace("power_up_size[0]", "power_up_size");
                        let path = path.replace("power_up_size[1]", "power_up_size");
                        let field = field.replace("power_up_size[1]", "power_up_size");
                        assert_eq!(field, format!("options.{path}"), "{v}");
                    }
                    other => panic!("option {path} {v}: {other:?}"),
                }
            }
        }
        // Counts past the limits: the scene format's ball limit, the event bound.
        for (name, v) in [
            ("volley", MAX_BALLS as u64 + 1),
            ("rain", MAX_BALLS as u64 + 1),
            ("max_balls", MAX_BALLS as u64 + 1),
            ("aim_segments", u64::from(MAX_EVENTS_PER_BODY) + 1),
            ("score_per_brick", MAX_SCORE_PER_BRICK + 1),
        ] {
            let (_, text) = with_option(&lines, name, &v.to_string());
            let e = Replay::parse(&text).unwrap_err().to_string();
            assert!(
                e.contains(&format!("options.{name}: expected a whole number")),
                "{e}"
            );
            let (_, text) = with_option(&lines, name, &(v - 1).to_string());
            assert!(Replay::parse(&text).is_ok(), "{name} {}", v - 1);
        }
        // Probabilities and fractions within [0, 1]; an option left out keeps its default.
        for name in ["min_vertical", "drops.heart"] {
            let (_, text) = with_option(&lines, name, "1.5");
            assert!(Replay::parse(&text).is_err(), "{name} 1.5");
        }
        let k = lines
            .iter()
            .position(|l| l.starts_with("{\"options\""))
            .unwrap();
        let mut short = lines.clone();
        short[k] = r#"{"options":{"volley":3,"drops":{"heart":0.5}}}"#.to_owned();
        let o = Replay::parse(&short.join("\n")).unwrap().options;
        assert_eq!((o.volley, o.drops.heart, o.drops.triple), (3, 0.5, 0.05));
        assert_eq!(o.ball_speed, Options::default().ball_speed);
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
            .filter(|l| !l.starts_with("{\"hash\""))
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
        let lines = lines_of(&good);
        let n_lines = lines.len();
        let line_of = |prefix: &str| lines.iter().position(|l| l.starts_with(prefix)).unwrap() + 1;
        let (options, world, h0) = (
            line_of("{\"options\""),
            line_of("{\"world\""),
            line_of("{\"hash\":{\"step\":0,"),
        );
        let (end, first_step) = (line_of("{\"end\""), line_of("{\"steps\""));
        let moved = {
            // The world record after the first hash.
            let mut l = lines.clone();
            let w = l.remove(world - 1);
            l.insert(h0 - 1, w);
            l.join("\n")
        };
        let without = |prefix: &str| {
            lines
                .iter()
                .filter(|l| !l.starts_with(prefix))
                .cloned()
                .collect::<Vec<_>>()
                .join("\n")
        };
        let cases: Vec<(String, usize, &str)> = vec![
            (String::new(), 1, "header"),
            ("collide-replay\n".to_owned(), 1, "version"),
            ("{\"a\":1}\n".to_owned(), 1, "header"),
            (
                good.replacen("\"version\":2", "\"version\":3", 1),
                1,
                "version",
            ),
            (
                good.replacen("\"version\":2", "\"version\":\"2\"", 1),
                1,
                "version",
            ),
            (
                good.replacen("{\"level\":1}", "{\"level\":8}", 1),
                1,
                "play.level",
            ),
            (good.replacen("{\"level\":1}", "\"levels\"", 1), 1, "play"),
            (
                good.replacen("\"hash_every\":60", "\"hash_every\":0", 1),
                1,
                "hash_every",
            ),
            (
                good.replacen("\"hash_every\":60", "\"hash_every\":60,\"x\":1", 1),
                1,
                "x",
            ),
            (
                good.replacen("\"volley\":10", "\"volley\":\"ten\"", 1),
                options,
                "options.volley",
            ),
            (
                good.replacen("\"volley\":10", "\"volleys\":10", 1),
                options,
                "options.volleys",
            ),
            (
                good.replacen("\"dt\":", "\"dt\":\"x\",\"y\":", 1),
                world,
                "world.dt",
            ),
            (
                good.replacen("\"gravity\":[0.0,0.0]", "\"gravity\":[0.0]", 1),
                world,
                "world.gravity",
            ),
            (
                good.replacen("\"kind\":\"toml\"", "\"kind\":\"json\"", 1),
                2,
                "scene.kind",
            ),
            (
                good.replacen("{\"count\":1,", "{\"count\":0,", 1),
                first_step,
                "steps.count",
            ),
            (
                good.replacen("\"launch\":true", "\"launch\":2", 1),
                first_step,
                "steps.input.launch",
            ),
            (
                good.replacen("\"launch\":true", "\"pointer_x\":\"x\"", 1),
                first_step,
                "steps.input.pointer_x",
            ),
            (
                good.replacen("\"launch\":true", "\"paddle_dir\":300", 1),
                first_step,
                "steps.input.paddle_dir",
            ),
            (
                good.replacen("\"launch\":true", "\"lunch\":true", 1),
                first_step,
                "steps.input.lunch",
            ),
            (
                good.replacen("{\"step\":0,", "{\"step\":1,", 1),
                h0,
                "hash.step",
            ),
            (
                good.replacen("{\"step\":0,\"hash\":\"", "{\"step\":0,\"hash\":\"x", 1),
                h0,
                "hash.hash",
            ),
            (
                good.replacen("{\"steps\":5}", "{\"steps\":6}", 1),
                end,
                "end.steps",
            ),
            (
                good.replacen("{\"end\":{\"steps\":5}}\n", "", 1),
                n_lines - 1,
                "end",
            ),
            (good.clone() + &steps_record("{}") + "\n", n_lines, "end"),
            (
                good.replacen("\n{\"options\"", "\nq\n{\"options\"", 1),
                options,
                "record",
            ),
            (
                good.replacen("\n{\"options\"", "\n{\"q\":1}\n{\"options\"", 1),
                options,
                "record",
            ),
            (
                good.replacen("{\"end\":{\"steps\":5}}", "{\"end\":{\"steps\":5}} x", 1),
                end,
                "record",
            ),
            (
                good.replacen("{\"steps\"", "{\"step\"", 1),
                first_step,
                "record",
            ),
            (moved, h0, "world"),
            (
                good.replacen(
                    "\n{\"world\"",
                    &format!("\n{}\n{{\"world\"", lines[options - 1]),
                    1,
                ),
                options + 1,
                "options",
            ),
            (without("{\"scene\""), n_lines - 1, "scene"),
            (without("{\"world\""), n_lines - 1, "world"),
            (
                good.replacen(
                    "{\"hash\":{\"step\":0,",
                    &format!(
                        "{{\"steps\":{{\"count\":{},\"input\":{{}}}}}}\n{{\"hash\":{{\"step\":0,",
                        MAX_STEPS + 1
                    ),
                    1,
                ),
                h0,
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
        // Empty lines are skipped; `\r\n` line ends read as `\n`.
        let spaced = good.replace('\n', "\r\n\r\n");
        assert_eq!(Replay::parse(&spaced).unwrap(), r);
    }

    /// One random mutation of `bytes` (the tests of both formats use it).
    fn mutate(bytes: &[u8], k: u32, rng: &mut XorShift64Star, junk: &[&str]) -> Vec<u8> {
        let pick = |rng: &mut XorShift64Star, n: usize| (rng.next_u64() % n.max(1) as u64) as usize;
        let mut m = bytes.to_vec();
        match k % 5 {
            0 => m.truncate(pick(rng, bytes.len())),
            1 => {
                for _ in 0..1 + pick(rng, 4) {
                    let at = pick(rng, m.len());
                    let alphabet = b" 0123456789-.x|\n{}[]\":,etrsh#";
                    m[at] = alphabet[pick(rng, alphabet.len())];
                }
            }
            2 => {
                let at = pick(rng, m.len());
                let len = pick(rng, 64).min(m.len() - at);
                m.drain(at..at + len);
            }
            3 => {
                let at = pick(rng, m.len());
                let j = junk[pick(rng, junk.len())];
                m.splice(at..at, j.bytes());
            }
            _ => {
                // Swap two lines.
                let mut lines: Vec<&[u8]> = m.split(|b| *b == b'\n').collect();
                let (a, b) = (pick(rng, lines.len()), pick(rng, lines.len()));
                lines.swap(a, b);
                m = lines.join(&b'\n');
            }
        }
        m
    }

    #[test]
    fn mutated_and_truncated_files_are_errors_not_panics() {
        let (_, r) = level_1(120, 30);
        let v1 = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../tests/fixtures/replay_level2_v1.replay"),
        )
        .unwrap();
        let json_junk = [
            "\n",
            "{",
            "}",
            "\"",
            ",",
            "9999999999999999999999",
            "-",
            "null",
            "1e400",
            "\"inf\"",
            "{\"steps\":{\"count\":1,\"input\":{}}}\n",
            "{\"end\":{\"steps\":0}}\n",
        ];
        let v1_junk = [
            "\n",
            "s 1 ",
            "h 0 ",
            "|",
            "9999999999999999999999",
            "-",
            "\nend 0\n",
        ];
        let mut rng = XorShift64Star::new(11);
        for (text, junk) in [(r.to_text(), &json_junk[..]), (v1, &v1_junk[..])] {
            let mut oks = 0;
            for k in 0..1500 {
                let m = mutate(text.as_bytes(), k, &mut rng, junk);
                let Ok(text) = String::from_utf8(m) else {
                    continue;
                };
                match Replay::parse(&text) {
                    Ok(p) => {
                        oks += 1;
                        // What parses writes and reads back the same.
                        assert_eq!(Replay::parse(&p.to_text()).unwrap(), p);
                        // Verifying it never panics either (its options are the recorded ones).
                        if p.options == r.options && p.steps() <= 1000 {
                            let _ = p.verify();
                        }
                    }
                    Err(ReplayError::Parse { line, .. }) => {
                        assert!(line >= 1 && line <= text.split('\n').count(), "{line}");
                    }
                    Err(e) => panic!("unexpected error {e}"),
                }
            }
            // Some mutations are harmless (an empty line, swapped header records).
            assert!(oks > 0 && oks < 1500, "{oks}");
        }
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
        assert!(r
            .to_text()
            .contains("{\"steps\":{\"count\":60,\"input\":{}}}\n{\"hash\":{\"step\":60,"));
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
        assert!(r
            .to_text()
            .contains("\n{\"steps\":{\"count\":50,\"input\":{}}}\n"));
        let parsed = Replay::parse(&r.to_text()).unwrap();
        assert_eq!(parsed.verify().unwrap().final_hash, g.state_hash());
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
            matches!(&e, ReplayError::WorldConfig { field, .. } if field == "dt"),
            "{e}"
        );
        // Gravity is a world setting like the others.
        let mut other = r.clone();
        other.world.gravity = Vec2::new(0.0, 1.0 / 3.0);
        let other = Replay::parse(&other.to_text()).unwrap();
        assert_eq!(other.world.gravity.y.to_bits(), (1.0_f64 / 3.0).to_bits());
        let e = other.verify().unwrap_err();
        assert!(
            matches!(&e, ReplayError::WorldConfig { field, expected, got }
                if field == "gravity" && expected == "[0.0,0.3333333333333333]" && got == "[0.0,0.0]"),
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
        // Options a replay could not read back.
        let options = Options {
            ball_speed: Real::NAN,
            ..Options::default()
        };
        let mut g = Game::new(Source::Level(1), options).unwrap();
        let e = g
            .start_recording(SceneText::builtin("level_1").unwrap(), 60)
            .unwrap_err();
        assert!(
            matches!(&e, ReplayError::Options { field, .. } if field == "ball_speed"),
            "{e}"
        );
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
}
