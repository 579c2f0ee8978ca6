//! The scene a replay embeds: its full source text and the level texts it refers to.

use std::cell::RefCell;
use std::io::Read as _;
use std::path::Path;

use collide_scene::level::{parse_level, scene_from_level, DEFAULT_BALLS};
use collide_scene::{read_level_file, LevelFiles, SceneError};
use collide_scene::{MAX_LEVEL_BYTES, MAX_SCENE_BYTES};
use collide_world::Scene;
use serde::{Deserialize, Serialize};

use super::ReplayError;

/// What kind of text a scene is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TextKind {
    /// A TOML scene (`docs/scene-format.md`).
    Toml,
    /// A bare BricksBeater level (`.dat`), given the game's layout by
    /// `collide_scene::level::scene_from_level` with 1000 balls.
    Dat,
    /// A map the platformer loads its levels from (`.ldtk`, `.tmx`, `.tmj`; every level of an
    /// LDtk project, in order, the one level of a Tiled map): the file is read again from
    /// [`SceneText::file`], its path as given, when the replay is played back, and
    /// [`SceneText::text`] holds the FNV-1a hash of its bytes (16 hex digits) so that a
    /// changed map is refused ([`ReplayError::MapChanged`]).
    Map,
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
    /// The text, with `\r\n` line ends turned into `\n` (for [`TextKind::Map`], the map
    /// file's hash).
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

    /// The map file `path` of a platformer session, as given: [`TextKind::Map`], its bytes'
    /// FNV-1a hash as the text.
    ///
    /// # Errors
    /// [`ReplayError::Io`] for a file that cannot be read.
    pub fn map(path: &str) -> Result<SceneText, ReplayError> {
        Ok(SceneText {
            kind: TextKind::Map,
            file: path.to_owned(),
            text: map_hash(Path::new(path))?,
            levels: Vec::new(),
        })
    }

    /// Reads a scene file: a TOML scene with the level files it refers to (regular files in
    /// its directory or below it, as [`collide_scene::load`] reads them), or a bare level if the name
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
        // The level files as `collide_scene::load` reads them: regular files below the scene's folder.
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
            TextKind::Map => Err(SceneError::Io {
                file: self.file.clone(),
                source: std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "a map played by the platformer, not a scene",
                ),
            }),
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
            TextKind::Toml => collide_scene::from_toml_str(&self.text, &self.file, &|p| {
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
pub(super) fn normalize(text: &str) -> String {
    text.replace("\r\n", "\n")
}

/// FNV-1a over the bytes of the file `path`, 16 hex digits.
///
/// # Errors
/// [`ReplayError::Io`] for a file that cannot be read.
pub(super) fn map_hash(path: &Path) -> Result<String, ReplayError> {
    let bytes = std::fs::read(path).map_err(|source| ReplayError::Io {
        file: path.display().to_string(),
        source,
    })?;
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    Ok(format!("{h:016x}"))
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
    collide_scene::from_toml_str(text, file, &record)?;
    Ok(used.into_inner())
}

/// The stem of a file name, as `collide_scene::load` names a bare level.
fn file_stem(file: &str) -> String {
    Path::new(file)
        .file_stem()
        .map_or_else(|| file.to_owned(), |s| s.to_string_lossy().into_owned())
}

/// Why [`read_limited`] failed.
pub(super) enum Limited {
    Io(std::io::Error),
    TooLarge(u64),
}

/// Reads a UTF-8 file of at most `max` bytes, refusing a larger one before reading it.
pub(super) fn read_limited(path: &Path, max: u64) -> Result<String, Limited> {
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
