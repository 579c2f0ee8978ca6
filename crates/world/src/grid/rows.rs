//! A tile grid written as rows of characters, one per cell (the characters of BricksBeater's
//! `.dat` levels, parsed by `collide_scene::level`): `#` wall, `R Y G C B W` bricks, `a`–`z`
//! sensors, `1 3 7 9` slopes, anything else empty.

use crate::model::cell::Cell;
use crate::model::desc::GridDesc;
use crate::model::error::LevelError;
use crate::model::limits::{MAX_GRID_CELLS, MAX_GRID_SIDE};
use collide_core::{Corner, Real, Vec2};

/// The cell a level character stands for: `#` → [`Cell::Wall`], `R Y G C B W` →
/// [`Cell::Brick`] with that byte, `a`–`z` → [`Cell::Sensor`] with that byte, `1` `3` `7` `9`
/// → [`Cell::Slope`] solid at the bottom-left, bottom-right, top-left and top-right corner
/// (the digit's place on a numeric keypad), anything else → [`Cell::Empty`].
#[must_use]
pub fn cell_from_char(c: char) -> Cell {
    match c {
        '#' => Cell::Wall,
        '1' => Cell::Slope(Corner::BottomLeft),
        '3' => Cell::Slope(Corner::BottomRight),
        '7' => Cell::Slope(Corner::TopLeft),
        '9' => Cell::Slope(Corner::TopRight),
        'R' | 'Y' | 'G' | 'C' | 'B' | 'W' => Cell::Brick(c as u8),
        'a'..='z' => Cell::Sensor(c as u8),
        _ => Cell::Empty,
    }
}

/// The level character of a cell: the inverse of [`cell_from_char`] (`' '` for
/// [`Cell::Empty`], the brick's or sensor's byte as a character for [`Cell::Brick`] and
/// [`Cell::Sensor`]).
#[must_use]
pub fn char_from_cell(cell: Cell) -> char {
    match cell {
        Cell::Empty => ' ',
        Cell::Wall => '#',
        Cell::Brick(b) | Cell::Sensor(b) => char::from(b),
        Cell::Slope(Corner::BottomLeft) => '1',
        Cell::Slope(Corner::BottomRight) => '3',
        Cell::Slope(Corner::TopLeft) => '7',
        Cell::Slope(Corner::TopRight) => '9',
    }
}

/// Side of the cells of [`parse_rows`]' grid, world units: 9, a BricksBeater cell
/// (`collide_scene::level::CELL`).
const CELL: Real = 9.0;

/// Parses rows of level characters, one string per row (row 0 first, no line endings), into a
/// grid of cells of side 9 (BricksBeater's) with its top-left corner at the origin. The row index + 1 is
/// the "line" of the errors. Used for `rows = [...]` in scene files.
///
/// # Errors
/// [`LevelError`] naming the 1-based row: no cell, rows of different widths, more rows or
/// columns than [`crate::limits::MAX_GRID_SIDE`] or more cells than
/// [`crate::limits::MAX_GRID_CELLS`] (checked before the grid is allocated). As
/// `collide_scene::level::parse_level`, except for the byte-length limit.
pub fn parse_rows<'a, I>(rows: I) -> Result<GridDesc, LevelError>
where
    I: IntoIterator<Item = &'a str>,
{
    let mut cells = Vec::new();
    let mut cols = 0;
    let mut nrows = 0;
    for (i, row) in rows.into_iter().enumerate() {
        let line = i + 1;
        let found = row.chars().count();
        if found > MAX_GRID_SIDE {
            return Err(LevelError::TooWide {
                line,
                found,
                max: MAX_GRID_SIDE,
            });
        }
        if i >= MAX_GRID_SIDE {
            return Err(LevelError::TooManyRows {
                line,
                max: MAX_GRID_SIDE,
            });
        }
        if i == 0 {
            cols = found;
        } else if found != cols {
            return Err(LevelError::Ragged {
                line,
                found,
                expected: cols,
            });
        }
        // (i + 1) * cols <= 2^16 * 2^16: no overflow on 64-bit; checked anyway.
        match line.checked_mul(cols) {
            Some(n) if n <= MAX_GRID_CELLS => {}
            _ => {
                return Err(LevelError::TooManyCells {
                    line,
                    max: MAX_GRID_CELLS,
                })
            }
        }
        cells.extend(row.chars().map(cell_from_char));
        nrows = line;
    }
    if nrows == 0 || cols == 0 {
        return Err(LevelError::Empty);
    }
    Ok(GridDesc {
        cell: CELL,
        origin: Vec2::ZERO,
        cols,
        rows: nrows,
        cells,
        wall_restitution: None,
        brick_restitution: None,
        brick_filter: crate::Filter::DEFAULT,
        wall_filter: crate::Filter::DEFAULT,
        sensor_filter: crate::Filter::DEFAULT,
    })
}
