//! Why the world refuses an input: [`WorldError`] for bodies and settings, [`GridError`] for
//! a tile grid, [`LevelError`] for rows of level characters. Every variant names the field
//! (or the 1-based line) and the bad value.

use crate::model::event::Body;
use crate::model::ids::FlipperId;
use collide_core::Real;

/// Why a [`crate::GridDesc`] cannot become a [`crate::Grid`].
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum GridError {
    /// The cell side is not in `(0, 1e9]` ([`crate::limits::Bound::Positive`]).
    #[error("grid field `cell`: cell side must be > 0 and <= 1e9, got {0}")]
    BadCellSize(Real),
    /// The origin is not within ±1e9 ([`crate::limits::Bound::Coord`]).
    #[error("grid field `origin`: must be finite and within ±1e9, got ({0}, {1})")]
    BadOrigin(Real, Real),
    /// `cells.len()` differs from `cols * rows`.
    #[error("grid: {cols}x{rows} needs {expected} cells, got {got}")]
    WrongCellCount {
        /// Columns.
        cols: usize,
        /// Rows.
        rows: usize,
        /// `cols * rows`.
        expected: usize,
        /// `cells.len()`.
        got: usize,
    },
    /// More cells than [`crate::limits::MAX_GRID_CELLS`].
    #[error("grid: {cols}x{rows} cells exceeds the limit of {max} cells")]
    TooLarge {
        /// Columns.
        cols: usize,
        /// Rows.
        rows: usize,
        /// The limit.
        max: usize,
    },
    /// Rows of level characters given to [`crate::Grid::from_rows`] are not a rectangle of cells
    /// (the error names the 1-based row).
    #[error("grid rows: {0}")]
    Rows(#[from] LevelError),
    /// A cell kind's restitution is outside [`crate::limits::Bound::Restitution`] (finite, in
    /// `[0, 10]`: [`crate::model::limits::MAX_RESTITUTION`]).
    #[error("grid field `{field}`: {problem}")]
    BadRestitution {
        /// `wall_restitution` or `brick_restitution`.
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
}

/// Why a level text was rejected. Every variant names the 1-based line of the level text
/// where the problem was found (see [`LevelError::line`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LevelError {
    /// The level has no cell at all (no line, or only empty lines).
    #[error("line 1: the level is empty (it has no cells)")]
    Empty,
    /// A row's width differs from the first row's.
    #[error(
        "line {line}: the row has {found} cells but line 1 has {expected}; \
         every row must have the same number of cells"
    )]
    Ragged {
        /// 1-based line of the offending row.
        line: usize,
        /// Number of cells (characters) of that row.
        found: usize,
        /// Number of cells of the first row.
        expected: usize,
    },
    /// A row is wider than [`crate::limits::MAX_GRID_SIDE`].
    #[error("line {line}: the row has {found} cells, more than the limit of {max}")]
    TooWide {
        /// 1-based line of the offending row.
        line: usize,
        /// Number of cells of that row.
        found: usize,
        /// The limit, [`crate::limits::MAX_GRID_SIDE`].
        max: usize,
    },
    /// The level has more rows than [`crate::limits::MAX_GRID_SIDE`].
    #[error("line {line}: the level has more than {max} rows")]
    TooManyRows {
        /// 1-based line of the first row over the limit.
        line: usize,
        /// The limit, [`crate::limits::MAX_GRID_SIDE`].
        max: usize,
    },
    /// The level has more cells than [`crate::limits::MAX_GRID_CELLS`].
    #[error("line {line}: the level has more than {max} cells")]
    TooManyCells {
        /// 1-based line of the row that goes over the limit.
        line: usize,
        /// The limit, [`crate::limits::MAX_GRID_CELLS`].
        max: usize,
    },
    /// The level text is longer than the level parser's limit
    /// (`collide_scene::MAX_LEVEL_BYTES`).
    #[error("line 1: the level is {len} bytes long, more than the limit of {max} bytes")]
    TooLarge {
        /// Length of the text in bytes.
        len: u64,
        /// The limit in bytes.
        max: u64,
    },
}

impl LevelError {
    /// The 1-based line of the level text where the problem was found (1 for
    /// [`LevelError::Empty`] and [`LevelError::TooLarge`]).
    #[must_use]
    pub fn line(&self) -> usize {
        match *self {
            LevelError::Empty | LevelError::TooLarge { .. } => 1,
            LevelError::Ragged { line, .. }
            | LevelError::TooWide { line, .. }
            | LevelError::TooManyRows { line, .. }
            | LevelError::TooManyCells { line, .. } => line,
        }
    }
}

/// Why the world refused an input. Every variant names the field and the bad value.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WorldError {
    /// A ball field is invalid.
    #[error("ball field `{field}`: {problem}")]
    BadBall {
        /// `pos`, `vel`, `radius`, `density`, `restitution` or `gravity_scale`.
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// A rectangle field is invalid.
    #[error("rect field `{field}`: {problem}")]
    BadRect {
        /// `min`/`max`, `vel`, `density` or `restitution`.
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// A static segment's or circle's field is invalid.
    #[error("shape field `{field}`: {problem}")]
    BadShape {
        /// `a`, `b`, `center`, `radius`, `points` or `restitution`.
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// A flipper's field is invalid ([`crate::Flipper`]).
    #[error("flipper field `{field}`: {problem}")]
    BadFlipper {
        /// `pivot`, `length`, `radius`, `rest_angle`, `active_angle`, `angular_speed` or
        /// `restitution`.
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// A character's field is invalid ([`crate::CharacterDesc`]).
    #[error("character field `{field}`: {problem}")]
    BadCharacter {
        /// `pos`, `half_extents`, `vel`, `max_slope`, `snap_distance`, `step_height` or
        /// `gravity_scale`.
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// A world or step setting is invalid.
    #[error("{field}: {problem}")]
    BadSetting {
        /// `world.size`, `step.dt`, `step.restitution`, ...
        field: &'static str,
        /// What is wrong.
        problem: String,
    },
    /// The grid description is invalid.
    #[error(transparent)]
    Grid(#[from] GridError),
    /// Too many bodies.
    #[error("too many {what}: {count} exceeds the limit of {max}")]
    TooMany {
        /// `balls` or `rects`.
        what: &'static str,
        /// Requested count.
        count: usize,
        /// The limit.
        max: usize,
    },
    /// Random spawning could not place every ball without overlap.
    #[error("spawn: placed only {placed} of {count} balls of radius {radius} without overlap after {attempts} attempts; lower `count` or `radius`, or enlarge `region`")]
    SpawnImpossible {
        /// Balls placed.
        placed: usize,
        /// Balls asked for.
        count: usize,
        /// Their radius.
        radius: Real,
        /// Attempts made.
        attempts: u64,
    },
    /// The id does not name a live body.
    #[error("no such body: {0:?}")]
    NoSuchBody(Body),
    /// The id does not name a live flipper.
    #[error("no such flipper: {0}")]
    NoSuchFlipper(FlipperId),
}
