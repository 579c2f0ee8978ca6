//! The reader of format 1, the line-oriented text format replays had before JSON lines
//! (`docs/replay-format.md`, "Format 1"). Nothing writes it any more; files in it load as
//! they always did, and `collide replay convert` rewrites them in the current format.
//!
//! Its `option NAME VALUE` and `world NAME VALUE` lines are read through the same serde types
//! as format 2: each value becomes a JSON value at the field's path (`drops.heart`,
//! `power_up_size.x` is `power_up_size[0]`, `world gravity_x` is `gravity[0]`), so the bounds
//! and the names are those of [`Options`] and [`StepConfig`], spelled once.

use collide_core::Real;
use collide_world::StepConfig;
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use super::format::World;
use super::{Entry, Play, Replay, ReplayError, SceneText, TextKind, MAGIC, MAX_LEVEL_TEXTS};
use super::{MAX_STEPS, VERSION};
use crate::game::LEVELS;
use crate::input::{Command, StepInput};
use crate::options::Options;

/// The version of this format.
pub(super) const LEGACY_VERSION: u32 = 1;

/// Whether a replay text is in this format (its first line starts with [`MAGIC`]).
pub(super) fn is_legacy(first_line: &str) -> bool {
    first_line.split(' ').next() == Some(MAGIC)
}

/// A number of format 1: the shortest decimal, `inf`, `-inf`, or `0x` and 16 hex digits.
fn parse_real(s: &str) -> Option<Real> {
    if let Some(hex) = s.strip_prefix("0x") {
        if hex.len() != 16 {
            return None;
        }
        return u64::from_str_radix(hex, 16).ok().map(Real::from_bits);
    }
    s.parse().ok()
}

/// The JSON value of a format-1 value: `true`, `false`, a whole number, or a finite number.
fn json_value(v: &str) -> Result<Value, String> {
    match v {
        "true" => return Ok(Value::Bool(true)),
        "false" => return Ok(Value::Bool(false)),
        _ => {}
    }
    if let Ok(n) = v.parse::<u64>() {
        return Ok(Value::from(n));
    }
    if let Ok(n) = v.parse::<i64>() {
        return Ok(Value::from(n));
    }
    match parse_real(v) {
        Some(x) => serde_json::Number::from_f64(x)
            .map(Value::Number)
            .ok_or_else(|| format!("expected a finite number, found {v}")),
        None => Err(format!("`{v}` is not a number, `true` or `false`")),
    }
}

/// Sets the field at `path` (`a.b`; `x` and `y` index a vector's `[x, y]`) of an object that
/// already has it; `false` if it has no such field.
fn set_path(root: &mut Value, path: &str, v: Value) -> bool {
    let mut at = root;
    for seg in path.split('.') {
        let next = match at {
            Value::Object(map) => map.get_mut(seg),
            Value::Array(items) => match seg {
                "x" => items.get_mut(0),
                "y" => items.get_mut(1),
                _ => None,
            },
            _ => None,
        };
        let Some(next) = next else {
            return false;
        };
        at = next;
    }
    *at = v;
    true
}

/// Settings read as `NAME VALUE` lines into a serde type: each value is checked alone (so its
/// error names its line), then all together.
struct Settings {
    /// `option` or `world`: errors name `option.NAME`, `world.NAME`.
    kind: &'static str,
    /// The defaults, as JSON.
    base: Value,
    /// The defaults with every line read so far.
    value: Value,
    /// The names read, in order.
    seen: Vec<String>,
}

impl Settings {
    fn new<T: Serialize>(kind: &'static str, defaults: &T) -> Settings {
        let base = serde_json::to_value(defaults).unwrap_or(Value::Null);
        Settings {
            kind,
            value: base.clone(),
            base,
            seen: Vec::new(),
        }
    }

    /// Reads `NAME VALUE`, `path` mapping a name to its field's path.
    fn read<T: DeserializeOwned>(
        &mut self,
        line: usize,
        rest: &str,
        path: impl Fn(&str) -> &str,
    ) -> Result<(), ReplayError> {
        let (name, value) = rest.split_once(' ').unwrap_or((rest, ""));
        let field = format!("{}.{name}", self.kind);
        if self.seen.iter().any(|n| n == name) {
            return Err(ReplayError::parse(line, field, "repeated"));
        }
        let v = json_value(value.trim()).map_err(|p| ReplayError::parse(line, &field, p))?;
        let mut alone = self.base.clone();
        if !set_path(&mut alone, path(name), v.clone()) {
            return Err(ReplayError::parse(
                line,
                field,
                format!("unknown {} `{name}`", self.kind),
            ));
        }
        if let Err(e) = serde_path_to_error::deserialize::<_, T>(alone) {
            return Err(ReplayError::parse(line, field, e.inner().to_string()));
        }
        set_path(&mut self.value, path(name), v);
        self.seen.push(name.to_owned());
        Ok(())
    }

    /// The value with every line read.
    fn finish<T: DeserializeOwned>(self, line: usize) -> Result<T, ReplayError> {
        serde_json::from_value(self.value)
            .map_err(|e| ReplayError::parse(line, self.kind, e.to_string()))
    }
}

/// The world's `gravity` was two lines, `gravity_x` and `gravity_y`.
fn world_path(name: &str) -> &str {
    match name {
        "gravity_x" => "gravity.x",
        "gravity_y" => "gravity.y",
        other => other,
    }
}

/// The state of [`parse`].
struct Parser {
    play: Option<Play>,
    scene: Option<SceneText>,
    levels: Vec<(String, String)>,
    options: Settings,
    world: Settings,
    hash_every: Option<u32>,
    entries: Vec<Entry>,
    /// The line of each entry.
    lines: Vec<usize>,
    steps: u64,
    in_body: bool,
}

/// Parses a format-1 replay; `lines` are the text's lines (`\r` removed). Never panics.
pub(super) fn parse(lines: &[&str]) -> Result<Replay, ReplayError> {
    Parser {
        play: None,
        scene: None,
        levels: Vec::new(),
        options: Settings::new("option", &Options::default()),
        world: Settings::new("world", &World(StepConfig::default())),
        hash_every: None,
        entries: Vec::new(),
        lines: Vec::new(),
        steps: 0,
        in_body: false,
    }
    .run(lines)
}

impl Parser {
    fn push(&mut self, line: usize, entry: Entry) {
        self.entries.push(entry);
        self.lines.push(line);
    }

    fn run(mut self, lines: &[&str]) -> Result<Replay, ReplayError> {
        let first = lines.first().copied().unwrap_or("");
        let mut words = first.split(' ');
        words.next();
        match words.next().map(str::parse::<u32>) {
            Some(Ok(LEGACY_VERSION)) if words.next().is_none() => {}
            Some(Ok(v)) => {
                return Err(ReplayError::parse(
                    1,
                    "version",
                    format!(
                        "format version {v}: this build reads versions {LEGACY_VERSION} and \
                         {VERSION}"
                    ),
                ))
            }
            _ => {
                return Err(ReplayError::parse(
                    1,
                    "version",
                    format!("expected `{MAGIC} {LEGACY_VERSION}`"),
                ))
            }
        }
        let mut i = 1;
        let mut end: Option<usize> = None;
        while i < lines.len() {
            let line_no = i + 1;
            let trimmed = lines[i].trim();
            i += 1;
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            if let Some(end_line) = end {
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
                    let text = block(lines, i, count, line_no, kind)?;
                    i += count;
                    self.block(line_no, text_kind, label, text)?;
                }
                "option" => self.options.read::<Options>(line_no, rest, |n| n)?,
                "world" => self.world.read::<World>(line_no, rest, world_path)?,
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
                    self.push(line_no, Entry::Command(c));
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
                    end = Some(line_no);
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
        // Every world setting but gravity (two lines written only when not zero) and sleep
        // (which the legacy format predates: on, the default) is required.
        if let Value::Object(fields) = &self.world.base {
            for name in fields.keys().filter(|k| *k != "gravity" && *k != "sleep") {
                if !self.world.seen.iter().any(|n| n == name) {
                    return Err(missing(&format!("world {name}")));
                }
            }
        }
        let options: Options = self.options.finish(last)?;
        let World(world) = self.world.finish(last)?;
        Ok(Replay {
            play,
            scene,
            options,
            world,
            hash_every,
            entries: self.entries,
            entry_lines: self.lines,
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
        self.push(
            line,
            Entry::Steps {
                count,
                input: StepInput {
                    pointer_x,
                    paddle_dir,
                    aim_dir,
                    launch,
                    ..StepInput::default()
                },
            },
        );
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
        self.push(line, Entry::Hash { step, hash });
        Ok(())
    }
}

/// The `count` lines of a text block from `lines[at]`, each starting with `|`, joined by `\n`.
fn block(
    lines: &[&str],
    at: usize,
    count: usize,
    line: usize,
    kind: &str,
) -> Result<String, ReplayError> {
    if lines.len() - at < count {
        return Err(ReplayError::parse(
            line,
            kind,
            format!(
                "announces {count} text lines, the file has only {} more",
                lines.len() - at
            ),
        ));
    }
    let mut text = String::new();
    for (k, l) in lines[at..at + count].iter().enumerate() {
        let Some(content) = l.strip_prefix('|') else {
            return Err(ReplayError::parse(
                at + k + 1,
                kind,
                format!("text line {} of {count} does not start with `|`", k + 1),
            ));
        };
        if k > 0 {
            text.push('\n');
        }
        text.push_str(content);
    }
    Ok(text)
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

/// A `c` line's command: `pause`, `single-step`, `slower`, `faster`, `debug`, `restart`,
/// `level N`, `next-scene`.
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The committed format-1 fixture: level 2, autopilot, 1200 steps, hashes every 60.
    fn v1() -> String {
        std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../tests/fixtures/replay_level2_v1.replay"),
        )
        .unwrap()
    }

    #[test]
    fn a_format_1_file_loads_with_every_option_and_setting() {
        let text = v1();
        assert!(text.starts_with("collide-replay 1\n"));
        let r = Replay::parse(&text).unwrap();
        assert_eq!(r.play, Play::Level(2));
        assert_eq!((r.steps(), r.hashes(), r.hash_every), (1200, 21, 60));
        assert_eq!(r.options, Options::default());
        assert_eq!(
            r.world,
            StepConfig {
                ball_ball: false,
                ..StepConfig::default()
            }
        );
        assert_eq!(r.scene.levels.len(), 1);
        // Written again it is format 2, and reads back to the same replay.
        let v2 = r.to_text();
        assert!(v2.starts_with("{\"format\":\"collide-replay\",\"version\":2,"));
        assert_eq!(Replay::parse(&v2).unwrap(), r);
        // A hash line changed: refused naming its line in the format-1 text.
        let lines: Vec<&str> = text.split('\n').collect();
        let k = lines.iter().position(|l| l.starts_with("h 600 ")).unwrap();
        let tampered = text.replacen(lines[k], "h 600 0123456789abcdef", 1);
        let e = Replay::parse(&tampered).unwrap().verify().unwrap_err();
        assert!(
            matches!(e, ReplayError::HashMismatch { step: 600, line, .. } if line == k + 1),
            "{e}"
        );
    }

    #[test]
    fn gravity_lines_and_partial_options_are_read() {
        let text = v1()
            .replacen(
                "world max_events_per_body 256\n",
                "world max_events_per_body 256\nworld gravity_y 0.1\n",
                1,
            )
            .replacen("option power_up_size.y 9.0\n", "", 1)
            .replacen(
                "option power_up_size.x 16.0\n",
                "option power_up_size.x 0.1\n",
                1,
            );
        let r = Replay::parse(&text).unwrap();
        assert_eq!(r.world.gravity.x.to_bits(), 0.0_f64.to_bits());
        assert_eq!(r.world.gravity.y.to_bits(), 0.1_f64.to_bits());
        assert_eq!(r.options.power_up_size.x.to_bits(), 0.1_f64.to_bits());
        assert_eq!(r.options.power_up_size.y, 9.0);
    }

    #[test]
    fn format_1_errors_name_the_line_and_the_field() {
        let good = v1();
        let cases: Vec<(String, usize, &str)> = vec![
            ("collide-replay 3\n".to_owned(), 1, "version"),
            (
                good.replacen("play level 2", "play level 8", 1),
                3,
                "play.level",
            ),
            (
                good.replacen("option volley 10", "option volley ten", 1),
                0,
                "option.volley",
            ),
            (
                good.replacen("option volley 10", "option volley 1e9", 1),
                0,
                "option.volley",
            ),
            (
                good.replacen("option volley 10", "option volleys 10", 1),
                0,
                "option.volleys",
            ),
            (
                good.replacen("option volley 10", "option volley 10\noption volley 10", 1),
                0,
                "option.volley",
            ),
            (
                good.replacen("option drops.heart 0.02", "option drops.heart 1.5", 1),
                0,
                "option.drops.heart",
            ),
            (
                good.replacen("option ball_speed 240.0", "option ball_speed inf", 1),
                0,
                "option.ball_speed",
            ),
            (good.replacen("world dt ", "world dt x", 1), 0, "world.dt"),
            (
                good.replacen("world dt ", "world gravity_z 1\nworld dt ", 1),
                0,
                "world.gravity_z",
            ),
            (
                good.replacen("world max_events_per_body 256\n", "", 1),
                0,
                "world max_events_per_body",
            ),
            (
                good.replacen("hash-every 60", "hash-every 0", 1),
                0,
                "hash-every",
            ),
            (good.replacen("\ns 1 ", "\ns 0 ", 1), 0, "s.count"),
            (good.replacen(" - 0 0 1", " - 0 0 2", 1), 0, "s.launch"),
            (good.replacen("h 0 ", "h 1 ", 1), 0, "h.step"),
            (good.replacen("end 1200", "end 1201", 1), 0, "end"),
            (
                good.replacen("scene toml 31", "scene json 31", 1),
                4,
                "scene.kind",
            ),
            (
                good.replacen("scene toml 31", "scene toml 99999", 1),
                4,
                "scene",
            ),
            (
                good.replacen("hash-every 60", "hash-every 60\nq", 1),
                0,
                "line",
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
        }
    }
}
