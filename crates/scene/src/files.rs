//! Scene and level files on disk: [`load`], [`load_with`], [`read_level_file`] and the
//! size limits checked before reading ([`MAX_SCENE_BYTES`], [`MAX_LEVEL_BYTES`]).

use std::io::Read;
use std::path::Path;

use collide_world::Scene;

use crate::errors::SceneError;
use crate::level::{parse_level, scene_from_level, DEFAULT_BALLS};
use crate::limits::{MAX_LEVEL_BYTES, MAX_SCENE_BYTES};
use crate::locate::file_stem;

/// Loads a scene file: a TOML scene, or a bare BricksBeater level if the name ends in
/// `.dat` (any case), which gives [`scene_from_level`] with [`DEFAULT_BALLS`] balls. The
/// scene's `grid.level` path is resolved relative to the scene file's directory and must
/// name a regular file in that directory or below it ([`read_level_file`] with
/// [`LevelFiles::BelowScene`]; [`load_with`] allows any regular file). The scene's
/// name is the file stem unless the TOML has a `name` key.
///
/// # Errors
/// [`SceneError::Io`] if the file cannot be read, [`SceneError::TooLarge`] if it is longer
/// than [`MAX_SCENE_BYTES`] (checked before reading), [`SceneError::LevelIo`] for a level
/// file outside the scene's folder, not a regular file (a FIFO, a device) or unreadable,
/// and every error of [`crate::from_toml_str`] or, for a `.dat`, [`SceneError::Level`].
///
/// ```
/// use std::path::Path;
/// // (paths relative to this crate's folder, `crates/scene`)
/// let scene = collide_scene::load(Path::new("../../scenes/levels/level_1.dat")).unwrap();
/// assert_eq!((scene.name.as_str(), scene.grid.map(|g| g.cols)), ("level_1", Some(51)));
/// let pinball = collide_scene::load(Path::new("../../scenes/pinball.toml")).unwrap();
/// assert_eq!(pinball.name, "pinball");
/// assert!(collide_scene::load(Path::new("no/such/scene.toml")).is_err());
/// ```
pub fn load(path: &Path) -> Result<Scene, SceneError> {
    load_with(path, LevelFiles::BelowScene)
}

/// [`load`], with the level files the scene may read given by `levels`.
///
/// # Errors
/// As [`load`].
pub fn load_with(path: &Path, levels: LevelFiles) -> Result<Scene, SceneError> {
    let file = path.display().to_string();
    let is_level = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("dat"));
    let max = if is_level {
        MAX_LEVEL_BYTES
    } else {
        MAX_SCENE_BYTES
    };
    let text = read_limited(path, max, false).map_err(|e| match e {
        ReadError::Io(source) => SceneError::Io {
            file: file.clone(),
            source,
        },
        ReadError::TooLarge(len) => SceneError::TooLarge {
            file: file.clone(),
            len,
            max,
        },
    })?;
    if is_level {
        let grid = parse_level(&text).map_err(|source| SceneError::Level {
            file: file.clone(),
            line: source.line(),
            field: "level".to_owned(),
            path: file.clone(),
            source,
        })?;
        return Ok(scene_from_level(&file_stem(&file), grid, DEFAULT_BALLS));
    }
    let dir = path.parent().unwrap_or_else(|| Path::new(""));
    let resolve = |level: &str| read_level_file(dir, level, levels);
    crate::from_toml_str(&text, &file, &resolve)
}

/// Which files a scene's `grid.level` may name ([`load_with`], [`read_level_file`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LevelFiles {
    /// Regular files in the scene's folder or below it, symbolic links resolved (the
    /// default: a scene made by someone else reads nothing else).
    #[default]
    BelowScene,
    /// Any regular file.
    Anywhere,
}

/// Reads the level file `level` (as written in a scene's `grid.level`) relative to the
/// scene's folder `scene_dir`.
///
/// Only a regular file is read (checked on its metadata before it is opened, and again on
/// the open file), so a FIFO, `/dev/stdin` or another device can neither block nor feed an
/// endless stream; its size is checked against [`MAX_LEVEL_BYTES`] before reading. With
/// [`LevelFiles::BelowScene`] the file, symbolic links resolved, must be inside `scene_dir`.
///
/// # Errors
/// An [`std::io::Error`] whose message names the full path: not found, outside the scene's
/// folder (`PermissionDenied`), not a regular file (`InvalidInput`), larger than the limit or
/// not UTF-8 (`InvalidData`).
pub fn read_level_file(
    scene_dir: &Path,
    level: &str,
    levels: LevelFiles,
) -> Result<String, std::io::Error> {
    use std::io::{Error, ErrorKind};
    let full = scene_dir.join(level);
    let shown = full.display().to_string();
    let err = |kind: ErrorKind, what: String| Error::new(kind, format!("{shown}: {what}"));
    if levels == LevelFiles::BelowScene {
        let dir = if scene_dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            scene_dir
        };
        let base = std::fs::canonicalize(dir)
            .map_err(|e| err(e.kind(), format!("cannot resolve the scene's folder: {e}")))?;
        let target = std::fs::canonicalize(&full).map_err(|e| err(e.kind(), e.to_string()))?;
        if !target.starts_with(&base) {
            return Err(err(
                ErrorKind::PermissionDenied,
                format!(
                    "the level is {}, outside the scene's folder {}: a scene may read only \
                     files in its folder or below it",
                    target.display(),
                    base.display()
                ),
            ));
        }
    }
    read_limited(&full, MAX_LEVEL_BYTES, true).map_err(|e| match e {
        ReadError::Io(e) => err(e.kind(), e.to_string()),
        ReadError::TooLarge(len) => err(
            ErrorKind::InvalidData,
            format!("{len} bytes long, more than the limit of {MAX_LEVEL_BYTES} bytes"),
        ),
    })
}

enum ReadError {
    Io(std::io::Error),
    TooLarge(u64),
}

/// Reads a UTF-8 file of at most `max` bytes, refusing larger files before reading them; with
/// `regular_only`, refusing anything but a regular file before opening it (opening a FIFO
/// blocks until a writer comes).
fn read_limited(path: &Path, max: u64, regular_only: bool) -> Result<String, ReadError> {
    let not_regular = || {
        ReadError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO, a device or a folder could block or never end)",
        ))
    };
    if regular_only && !std::fs::metadata(path).map_err(ReadError::Io)?.is_file() {
        return Err(not_regular());
    }
    let f = std::fs::File::open(path).map_err(ReadError::Io)?;
    let meta = f.metadata().map_err(ReadError::Io)?;
    if regular_only && !meta.is_file() {
        return Err(not_regular());
    }
    let len = meta.len();
    if len > max {
        return Err(ReadError::TooLarge(len));
    }
    let mut bytes = Vec::new();
    // `take` guards against a file that grows between the check and the read.
    f.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > max {
        return Err(ReadError::TooLarge(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|e| {
        ReadError::Io(std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("not valid UTF-8 (at byte {})", e.utf8_error().valid_up_to()),
        ))
    })
}
