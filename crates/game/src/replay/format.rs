//! The replay file, format 2: JSON lines (`docs/replay-format.md`).
//!
//! One JSON object per line. Line 1 is the header (`format`, `version`, `play`,
//! `hash_every`); every other line is one record, an object with a single key naming it:
//! `scene`, `level`, `options`, `world` (the start), then `command`, `steps` and `hash` (the
//! calls in order), and `end` last. Every record is a serde type: the options are
//! [`Options`] itself, the world settings every field of [`StepConfig`] (a remote derive
//! the compiler checks against it), the inputs [`StepInput`], the commands [`Command`].

use std::borrow::Cow;

use collide_core::{Real, Vec2};
use collide_world::StepConfig;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::{Entry, Play, Replay, ReplayError, SceneText, TextKind};
use super::{MAGIC, MAX_LEVEL_TEXTS, MAX_STEPS, VERSION};
use crate::input::{Command, StepInput};
use crate::options::Options;
use crate::serial;

/// The world's step settings as a replay stores them: every field of [`StepConfig`] under its
/// own name, `gravity` as `[x, y]` (zero when left out). serde's remote derive builds a
/// `StepConfig` from exactly these fields, so a field added to it does not compile until it
/// is added here.
#[derive(Serialize, Deserialize)]
#[serde(remote = "StepConfig", deny_unknown_fields)]
pub(super) struct WorldSettings {
    dt: Real,
    ball_ball: bool,
    restitution: Real,
    destructible_bricks: bool,
    max_events_per_body: u32,
    #[serde(with = "serial::vec2", default)]
    gravity: Vec2,
    /// Written only when off; absent (replays written before it existed too): on, the
    /// default.
    #[serde(default = "serial::yes", skip_serializing_if = "serial::is_true")]
    sleep: bool,
}

/// A [`StepConfig`] through [`WorldSettings`] (a JSON object of its fields).
#[derive(Serialize, Deserialize)]
pub(super) struct World(#[serde(with = "WorldSettings")] pub(super) StepConfig);

/// Line 1.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Header<'a> {
    /// [`MAGIC`].
    format: Cow<'a, str>,
    /// [`VERSION`].
    version: u32,
    /// How the scene is played.
    play: Play,
    /// Steps between two recorded hashes, from 1.
    #[serde(deserialize_with = "serial::at_least_one")]
    hash_every: u32,
}

/// What line 1 must hold before the rest of the header is read: another format or version
/// is named as such, whatever its other keys.
#[derive(Deserialize)]
struct Magic {
    format: Option<serde_json::Value>,
    version: Option<serde_json::Value>,
}

/// Every line after the first.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum Record<'a> {
    /// The scene's text.
    Scene {
        kind: TextKind,
        file: Cow<'a, str>,
        text: Cow<'a, str>,
    },
    /// A level text the scene refers to.
    Level {
        path: Cow<'a, str>,
        text: Cow<'a, str>,
    },
    /// The game's options.
    Options(Cow<'a, Options>),
    /// The world's step settings.
    World(#[serde(with = "WorldSettings")] StepConfig),
    /// [`Entry::Command`].
    Command(Command),
    /// [`Entry::Steps`].
    Steps {
        #[serde(deserialize_with = "serial::at_least_one")]
        count: u64,
        input: StepInput,
    },
    /// [`Entry::Hash`].
    Hash {
        step: u64,
        #[serde(with = "serial::hex64")]
        hash: u64,
    },
    /// The total of steps, last.
    End { steps: u64 },
}

impl Record<'_> {
    /// The record's key, as errors name it.
    fn name(&self) -> &'static str {
        match self {
            Record::Scene { .. } => "scene",
            Record::Level { .. } => "level",
            Record::Options(_) => "options",
            Record::World(_) => "world",
            Record::Command(_) => "command",
            Record::Steps { .. } => "steps",
            Record::Hash { .. } => "hash",
            Record::End { .. } => "end",
        }
    }
}

/// Appends `value` as one JSON line.
fn push_line<T: Serialize>(out: &mut String, value: &T) {
    match serde_json::to_string(value) {
        Ok(line) => out.push_str(&line),
        // serde_json fails only on a map whose keys are not strings or on a `Serialize` that
        // fails, and no record has either; should it happen, the line is one the reader
        // refuses (naming it), never a panic.
        Err(e) => out.push_str(&serde_json::json!({ "unwritable": e.to_string() }).to_string()),
    }
    out.push('\n');
}

/// The replay as JSON lines.
pub(super) fn write(r: &Replay) -> String {
    let mut out = String::new();
    push_line(
        &mut out,
        &Header {
            format: Cow::Borrowed(MAGIC),
            version: VERSION,
            play: r.play,
            hash_every: r.hash_every,
        },
    );
    push_line(
        &mut out,
        &Record::Scene {
            kind: r.scene.kind,
            file: Cow::Borrowed(&r.scene.file),
            text: Cow::Borrowed(&r.scene.text),
        },
    );
    for (path, text) in &r.scene.levels {
        push_line(
            &mut out,
            &Record::Level {
                path: Cow::Borrowed(path),
                text: Cow::Borrowed(text),
            },
        );
    }
    push_line(&mut out, &Record::Options(Cow::Borrowed(&r.options)));
    push_line(&mut out, &Record::World(r.world));
    for e in &r.entries {
        let record = match e {
            Entry::Command(c) => Record::Command(*c),
            Entry::Steps { count, input } => Record::Steps {
                count: *count,
                input: *input,
            },
            Entry::Hash { step, hash } => Record::Hash {
                step: *step,
                hash: *hash,
            },
        };
        push_line(&mut out, &record);
    }
    push_line(&mut out, &Record::End { steps: r.steps() });
    out
}

/// A [`ReplayError::Parse`] from serde_json's error: its message without serde_json's own
/// position (each line is parsed alone), the column added.
fn json_error(line: usize, field: String, e: &serde_json::Error) -> ReplayError {
    let message = e.to_string();
    let position = format!(" at line {} column {}", e.line(), e.column());
    let message = message.strip_suffix(&position).unwrap_or(&message);
    let problem = if e.column() > 0 {
        format!("{message} (column {})", e.column())
    } else {
        message.to_owned()
    };
    ReplayError::parse(line, field, problem)
}

/// Reads one line as a `T`; errors name the line and the path of the field that failed
/// (`options.volley`, `steps.input.pointer_x`), or `root` for the line as a whole.
pub(super) fn from_line<T: DeserializeOwned>(
    line_no: usize,
    line: &str,
    root: &str,
) -> Result<T, ReplayError> {
    let mut de = serde_json::Deserializer::from_str(line);
    let value = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let field = if path == "." { root.to_owned() } else { path };
        json_error(line_no, field, e.inner())
    })?;
    de.end()
        .map_err(|e| json_error(line_no, root.to_owned(), &e))?;
    Ok(value)
}

/// Reads the header line: the format and version first, then the rest.
fn header(line: &str) -> Result<(Play, u32), ReplayError> {
    let not_ours = || {
        ReplayError::parse(
            1,
            "header",
            format!("not a collide replay: the first line must be a JSON object with \"format\": \"{MAGIC}\""),
        )
    };
    let magic: Magic = serde_json::from_str(line).map_err(|_| not_ours())?;
    if magic.format.as_ref().and_then(serde_json::Value::as_str) != Some(MAGIC) {
        return Err(not_ours());
    }
    match magic.version.as_ref().and_then(serde_json::Value::as_u64) {
        Some(v) if v == u64::from(VERSION) => {}
        Some(v) => {
            return Err(ReplayError::parse(
                1,
                "version",
                format!("format version {v}: this build reads versions 1 and {VERSION}"),
            ))
        }
        None => {
            return Err(ReplayError::parse(
                1,
                "version",
                format!("expected \"version\": {VERSION}"),
            ))
        }
    }
    let h: Header = from_line(1, line, "header")?;
    Ok((h.play, h.hash_every))
}

/// The records read so far.
struct Reader {
    play: Play,
    hash_every: u32,
    scene: Option<(TextKind, String, String)>,
    levels: Vec<(String, String)>,
    options: Option<Options>,
    world: Option<StepConfig>,
    entries: Vec<Entry>,
    /// The line of each entry.
    lines: Vec<usize>,
    steps: u64,
    in_body: bool,
    end: Option<usize>,
}

impl Reader {
    fn push(&mut self, line: usize, entry: Entry) {
        self.entries.push(entry);
        self.lines.push(line);
    }

    fn add(&mut self, line: usize, record: Record<'static>) -> Result<(), ReplayError> {
        let name = record.name();
        if let Some(end) = self.end {
            return Err(ReplayError::parse(
                line,
                "end",
                format!("nothing may follow the `end` record (line {end})"),
            ));
        }
        let is_header = matches!(
            record,
            Record::Scene { .. } | Record::Level { .. } | Record::Options(_) | Record::World(_)
        );
        if is_header && self.in_body {
            return Err(ReplayError::parse(
                line,
                name,
                "the scene, level, options and world records must come before the first \
                 command, steps or hash record",
            ));
        }
        let repeated = || ReplayError::parse(line, name, format!("repeated `{name}` record"));
        match record {
            Record::Scene { kind, file, text } => {
                if self.scene.is_some() {
                    return Err(repeated());
                }
                self.scene = Some((kind, file.into_owned(), text.into_owned()));
            }
            Record::Level { path, text } => {
                if self.levels.len() >= MAX_LEVEL_TEXTS {
                    return Err(ReplayError::parse(
                        line,
                        "level",
                        format!("more than {MAX_LEVEL_TEXTS} level texts"),
                    ));
                }
                if self.levels.iter().any(|(p, _)| *p == path) {
                    return Err(ReplayError::parse(
                        line,
                        "level",
                        format!("level `{path}` repeated"),
                    ));
                }
                self.levels.push((path.into_owned(), text.into_owned()));
            }
            Record::Options(o) => {
                if self.options.is_some() {
                    return Err(repeated());
                }
                self.options = Some(o.into_owned());
            }
            Record::World(w) => {
                if self.world.is_some() {
                    return Err(repeated());
                }
                self.world = Some(w);
            }
            Record::Command(c) => {
                self.in_body = true;
                self.push(line, Entry::Command(c));
            }
            Record::Steps { count, input } => {
                self.in_body = true;
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
                self.push(line, Entry::Steps { count, input });
            }
            Record::Hash { step, hash } => {
                self.in_body = true;
                if step != self.steps {
                    return Err(ReplayError::parse(
                        line,
                        "hash.step",
                        format!("says step {step}, but {} steps precede it", self.steps),
                    ));
                }
                self.push(line, Entry::Hash { step, hash });
            }
            Record::End { steps } => {
                if steps != self.steps {
                    return Err(ReplayError::parse(
                        line,
                        "end.steps",
                        format!("says {steps} steps, the file holds {}", self.steps),
                    ));
                }
                self.end = Some(line);
            }
        }
        Ok(())
    }

    /// The replay, once every line is read; `last` is the number of the last line.
    fn finish(self, last: usize) -> Result<Replay, ReplayError> {
        if self.end.is_none() {
            return Err(ReplayError::parse(
                last,
                "end",
                "missing `end` record: the file is truncated",
            ));
        }
        let missing =
            |what: &str| ReplayError::parse(last, what, format!("missing `{what}` record"));
        let (kind, file, text) = self.scene.ok_or_else(|| missing("scene"))?;
        let options = self.options.ok_or_else(|| missing("options"))?;
        let world = self.world.ok_or_else(|| missing("world"))?;
        Ok(Replay {
            play: self.play,
            scene: SceneText {
                kind,
                file,
                text,
                levels: self.levels,
            },
            options,
            world,
            hash_every: self.hash_every,
            entries: self.entries,
            entry_lines: self.lines,
        })
    }
}

/// Parses a replay in this format; `lines` are the text's lines (`\r` removed).
pub(super) fn parse(lines: &[&str]) -> Result<Replay, ReplayError> {
    let first = lines.first().copied().unwrap_or("");
    let (play, hash_every) = header(first)?;
    let mut reader = Reader {
        play,
        hash_every,
        scene: None,
        levels: Vec::new(),
        options: None,
        world: None,
        entries: Vec::new(),
        lines: Vec::new(),
        steps: 0,
        in_body: false,
        end: None,
    };
    for (i, line) in lines.iter().enumerate().skip(1) {
        if line.trim().is_empty() {
            continue;
        }
        let record: Record = from_line(i + 1, line, "record")?;
        reader.add(i + 1, record)?;
    }
    reader.finish(lines.len())
}
