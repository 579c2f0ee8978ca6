//! Why a scene could not be loaded ([`SceneError`]): the file, the 1-based line and the
//! field of every problem.

use collide_world::LevelError;

/// Why a scene could not be loaded. Every variant but [`SceneError::UnknownScene`] names the
/// file; the variants about the content also name the 1-based line and the field, a dotted
/// path like `world.size`, `ball[2].radius` or `grid.random.cols` (array indices are 0-based:
/// `ball[0]` is the first `[[ball]]`). See [`SceneError::file`], [`SceneError::line`] and
/// [`SceneError::field`].
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SceneError {
    /// The scene or level file could not be read (missing, unreadable, not UTF-8).
    #[error("{file}: cannot read the file")]
    Io {
        /// The file, as given.
        file: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The file (or text) is longer than [`crate::MAX_SCENE_BYTES`] (scenes) or [`crate::MAX_LEVEL_BYTES`]
    /// (levels); checked before reading it.
    #[error("{file}: the file is {len} bytes long, more than the limit of {max} bytes")]
    TooLarge {
        /// The file, as given.
        file: String,
        /// Its length in bytes.
        len: u64,
        /// The limit in bytes.
        max: u64,
    },
    /// The text is not valid TOML.
    #[error("{file}:{line}:{column}: `{field}`: TOML syntax error: {message}")]
    Syntax {
        /// The scene file.
        file: String,
        /// 1-based line of the error.
        line: usize,
        /// 1-based column (in characters) of the error.
        column: usize,
        /// The key being parsed (best effort from the table header and the key on the line;
        /// `(document)` when there is none).
        field: String,
        /// What is wrong, from the TOML parser.
        message: String,
    },
    /// A key or value is not acceptable: unknown key, missing key, wrong type, a number out of
    /// range (NaN, infinite, negative radius, `dt <= 0`, ...), an unknown wall side or rect
    /// kind, a rect with `min > max`, more bodies or cells than the limits.
    #[error("{file}:{line}: `{field}`: {message}")]
    Field {
        /// The scene file.
        file: String,
        /// 1-based line of the offending value (or of its table header).
        line: usize,
        /// Dotted path of the offending key.
        field: String,
        /// What is wrong and what is expected.
        message: String,
    },
    /// The level file named by `grid.level` could not be read (the source error names the
    /// full path when the scene was loaded from a file).
    #[error("{file}:{line}: `{field}`: cannot read the level file `{path}`")]
    LevelIo {
        /// The scene file.
        file: String,
        /// 1-based line of the `level = ...` key.
        line: usize,
        /// `grid.level`.
        field: String,
        /// The level path as written in the scene.
        path: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The level (a level file, or the `grid.rows` array) is not a valid level; the source
    /// names the level's own line (for `grid.rows`, the 1-based index of the row).
    #[error("{file}:{line}: `{field}`: invalid level `{path}`")]
    Level {
        /// The scene file (or the level file, when a bare `.dat` level is loaded).
        file: String,
        /// 1-based line in `file`: the `level = ...` key, the offending element of `rows`, or
        /// (for a bare level) the level's line.
        line: usize,
        /// `grid.level`, `grid.rows[i]`, or `level` for a bare level file.
        field: String,
        /// The level path as written, or `grid.rows`.
        path: String,
        /// What is wrong with the level, with its own 1-based line.
        #[source]
        source: LevelError,
    },
    /// A name given on a command line is neither a file nor a built-in scene.
    #[error(
        "`{name}` is neither a scene file (.toml), a level file (.dat) nor a built-in scene; \
         built-in scenes: {}",
        known.join(", ")
    )]
    UnknownScene {
        /// The name as given.
        name: String,
        /// The built-in scene names.
        known: Vec<String>,
    },
}

impl SceneError {
    /// An error found in a piece of a scene's text (`pieces.rs`) placed in the whole
    /// text: `lines` more lines before it, and the piece's `ball[i]` / `rect[i]` counted after
    /// the `balls` / `rects` tables before it.
    pub(super) fn moved(mut self, lines: usize, balls: usize, rects: usize) -> SceneError {
        if let SceneError::Syntax { line, field, .. } | SceneError::Field { line, field, .. } =
            &mut self
        {
            *line += lines;
            for (name, before) in [("ball[", balls), ("rect[", rects)] {
                if let Some(rest) = field.strip_prefix(name) {
                    if let Some((index, tail)) = rest.split_once(']') {
                        if let Ok(i) = index.parse::<usize>() {
                            *field = format!("{name}{}]{tail}", i + before);
                        }
                    }
                }
            }
        }
        self
    }

    /// The file the error is about (`None` for [`SceneError::UnknownScene`]).
    #[must_use]
    pub fn file(&self) -> Option<&str> {
        match self {
            SceneError::Io { file, .. }
            | SceneError::TooLarge { file, .. }
            | SceneError::Syntax { file, .. }
            | SceneError::Field { file, .. }
            | SceneError::LevelIo { file, .. }
            | SceneError::Level { file, .. } => Some(file),
            SceneError::UnknownScene { .. } => None,
        }
    }

    /// The 1-based line in [`SceneError::file`], when the error is about the content.
    #[must_use]
    pub fn line(&self) -> Option<usize> {
        match self {
            SceneError::Syntax { line, .. }
            | SceneError::Field { line, .. }
            | SceneError::LevelIo { line, .. }
            | SceneError::Level { line, .. } => Some(*line),
            SceneError::Io { .. }
            | SceneError::TooLarge { .. }
            | SceneError::UnknownScene { .. } => None,
        }
    }

    /// The dotted path of the offending key (`ball[2].radius`), when the error is about the
    /// content.
    #[must_use]
    pub fn field(&self) -> Option<&str> {
        match self {
            SceneError::Syntax { field, .. }
            | SceneError::Field { field, .. }
            | SceneError::LevelIo { field, .. }
            | SceneError::Level { field, .. } => Some(field),
            SceneError::Io { .. }
            | SceneError::TooLarge { .. }
            | SceneError::UnknownScene { .. } => None,
        }
    }
}
