//! BricksBeater ASCII levels: parsing into a [`GridDesc`] and the game's default scene around
//! a level.
//!
//! # Format
//! The level files of BricksBeater (github.com/zouhuidong/BricksBeater, `res/level/*.dat`, MIT
//! licence; copies in `scenes/levels/`): one line per row of cells, row 0 at the top, one
//! character per square cell.
//! - `#`: [`collide_world::Cell::Wall`] (solid, indestructible);
//! - `R` `Y` `G` `C` `B` `W`: [`collide_world::Cell::Brick`] holding that byte (red, yellow, green, cyan,
//!   blue, white bricks; destroyed by the first hit);
//! - `a` to `z` (lowercase letters): [`collide_world::Cell::Sensor`] holding that byte (trigger areas, not
//!   obstacles; collide's own addition, absent from BricksBeater's files);
//! - `1` `3` `7` `9`: [`collide_world::Cell::Slope`], a 45° half-tile solid at the corner that the digit
//!   has on a numeric keypad: `1` bottom-left ◣, `3` bottom-right ◢, `7` top-left ◤, `9`
//!   top-right ◥ (collide's own addition);
//! - any other character (usually a space): [`collide_world::Cell::Empty`].
//!
//! Lines end with `\n`, `\r\n` or a lone `\r` (old Mac files); a final line ending and empty
//! lines at the very end are ignored, a UTF-8 byte order mark at the start is skipped. Every row must have the same
//! number of characters (cells). The real levels are 51 × 31 cells.

pub use collide_world::{cell_from_char, char_from_cell, parse_rows, LevelError};
use collide_world::{
    Aabb, GridDesc, Real, RectDesc, RectKind, Scene, SpawnDesc, StepConfig, Surface, Vec2, Walls,
};

use crate::limits::MAX_LEVEL_BYTES;

/// Side of a BricksBeater cell, world units (pixels): 9 (7 px of fill and a 1 px margin on
/// each side in the game). [`parse_level`] and [`parse_rows`] give cells of this side.
pub const CELL: Real = 9.0;

/// Height of the open area below the map, world units: 120. The world is
/// `cols·9 × (rows·9 + 120)`.
pub const BELOW_MAP: Real = 120.0;
/// Distance from the bottom of the map to the top of the paddle, world units: 100.
pub const PADDLE_GAP: Real = 100.0;
/// Width of the paddle, world units: 80.
pub const PADDLE_WIDTH: Real = 80.0;
/// Thickness of the paddle, world units: 6.
pub const PADDLE_THICKNESS: Real = 6.0;
/// Radius of a ball, world units: 3.
pub const BALL_RADIUS: Real = 3.0;
/// Speed of a ball, units/s: 144 (2.4 px per update, 60 updates per second).
pub const BALL_SPEED: Real = 144.0;
/// Seed of the spawner in the default scene: 1.
pub const SPAWN_SEED: u64 = 1;
/// Number of balls of the default scene when the caller has no preference: 1000 (the game
/// allows at most 1024).
pub const DEFAULT_BALLS: usize = 1000;
/// Height of the strip at the bottom of the world where no ball is spawned, world units: 20.
pub const SPAWN_BOTTOM_MARGIN: Real = 20.0;

/// Parses a BricksBeater level text (see the [module docs](self)) into a grid of
/// [`CELL`]-sized cells with its top-left corner at the origin.
///
/// # Errors
/// [`LevelError`] naming the 1-based line: an empty level, rows of different widths, a text
/// longer than [`MAX_LEVEL_BYTES`], more rows or columns than [`collide_world::limits::MAX_GRID_SIDE`] or more cells
/// than [`collide_world::limits::MAX_GRID_CELLS`] (checked before the grid is allocated).
///
/// ```
/// use collide_scene::level::parse_level;
/// use collide_world::Cell;
/// let grid = parse_level("###\r\n#R \r\n").unwrap();
/// assert_eq!((grid.cols, grid.rows), (3, 2));
/// assert_eq!(grid.cells[4], Cell::Brick(b'R'));
/// ```
pub fn parse_level(text: &str) -> Result<GridDesc, LevelError> {
    let len = text.len() as u64;
    if len > MAX_LEVEL_BYTES {
        return Err(LevelError::TooLarge {
            len,
            max: MAX_LEVEL_BYTES,
        });
    }
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // Trailing line endings and empty lines are ignored; the rest is read line by line
    // without a list of lines (a text of 16 MiB of line endings allocates nothing).
    parse_rows(Lines(Some(text.trim_end_matches(['\r', '\n']))))
}

/// The lines of a text ended by `\n`, `\r\n` or a lone `\r`, without their endings; none
/// for an empty text.
struct Lines<'a>(Option<&'a str>);

impl<'a> Iterator for Lines<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        let rest = self.0.take().filter(|r| !r.is_empty())?;
        match rest.find(['\r', '\n']) {
            None => Some(rest),
            Some(i) => {
                let skip = if rest[i..].starts_with("\r\n") { 2 } else { 1 };
                // An ending at the very end leaves an empty rest: no further line.
                self.0 = Some(&rest[i + skip..]);
                Some(&rest[..i])
            }
        }
    }
}

/// The BricksBeater game around a level: the scene the game plays, in world units (pixels)
/// and seconds.
///
/// - The grid gets cell side [`CELL`] (9) and origin `(0, 0)` (whatever `grid` had).
/// - World: `cols·9` wide, `rows·9 + 120` high ([`BELOW_MAP`]); the left, top and right sides
///   reflect, the bottom is open ([`Walls::OPEN_BOTTOM`]): a ball that falls out is lost.
/// - One kinematic paddle, [`PADDLE_WIDTH`] × [`PADDLE_THICKNESS`] (80 × 6), centred
///   horizontally, its top [`PADDLE_GAP`] (100) below the map (`y = rows·9 + 100`), at rest.
/// - A spawn of `balls` balls of radius [`BALL_RADIUS`] (3), speed [`BALL_SPEED`] (144 units/s),
///   density 1, seed [`SPAWN_SEED`] (1), in the world minus its bottom
///   [`SPAWN_BOTTOM_MARGIN`] (20) units. Pass [`DEFAULT_BALLS`] (1000) for no preference.
/// - Step: the defaults of [`StepConfig`] (dt 1/60 s, restitution 1, destructible bricks)
///   except that balls do not collide with each other (`ball_ball = false`), as in the game.
///
/// The name of the scene is `name`.
#[must_use]
pub fn scene_from_level(name: &str, grid: GridDesc, balls: usize) -> Scene {
    let grid = GridDesc {
        cell: CELL,
        origin: Vec2::ZERO,
        ..grid
    };
    let width = grid.cols as Real * CELL;
    let map_height = grid.rows as Real * CELL;
    let height = map_height + BELOW_MAP;
    let paddle_x = (width - PADDLE_WIDTH) * 0.5;
    let paddle_y = map_height + PADDLE_GAP;
    let paddle = RectDesc {
        aabb: Aabb::new(
            Vec2::new(paddle_x, paddle_y),
            Vec2::new(paddle_x + PADDLE_WIDTH, paddle_y + PADDLE_THICKNESS),
        ),
        vel: Vec2::ZERO,
        kind: RectKind::Kinematic,
        density: 1.0,
        surface: Surface::DEFAULT,
    };
    let spawn = SpawnDesc {
        count: balls,
        radius: BALL_RADIUS,
        speed: BALL_SPEED,
        density: 1.0,
        seed: SPAWN_SEED,
        region: Some(Aabb::new(
            Vec2::ZERO,
            Vec2::new(width, height - SPAWN_BOTTOM_MARGIN),
        )),
        surface: Surface::DEFAULT,
    };
    Scene {
        name: name.to_owned(),
        size: Vec2::new(width, height),
        walls: Walls::OPEN_BOTTOM,
        grid: Some(grid),
        balls: Vec::new(),
        rects: vec![paddle],
        shapes: Vec::new(),
        flippers: Vec::new(),
        spawn: Some(spawn),
        step: StepConfig {
            ball_ball: false,
            destructible_bricks: true,
            ..StepConfig::default()
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide_world::limits::{MAX_GRID_CELLS, MAX_GRID_SIDE};
    use collide_world::Cell;

    const LEVEL_1: &str = include_str!("../../../scenes/levels/level_1.dat");

    fn count(grid: &GridDesc, f: impl Fn(Cell) -> bool) -> usize {
        grid.cells.iter().filter(|&&c| f(c)).count()
    }

    #[test]
    fn parses_real_level_1() {
        let g = parse_level(LEVEL_1).unwrap();
        assert_eq!((g.cols, g.rows), (51, 31));
        assert_eq!(g.cells.len(), 51 * 31);
        assert_eq!(g.cell, 9.0);
        // The world's rows of characters give BricksBeater's cell side, this module's CELL.
        assert_eq!(g.cell, CELL);
        assert_eq!(parse_rows(["#"]).unwrap().cell, CELL);
        assert_eq!(g.origin, Vec2::ZERO);
        // Counted independently: `grep -o '#' level_1.dat | wc -l` = 247,
        // `grep -o '[RYGCBW]' level_1.dat | wc -l` = 315 (C 101, Y 67, B 36, G 36, W 75).
        assert_eq!(count(&g, |c| c == Cell::Wall), 247);
        assert_eq!(count(&g, |c| matches!(c, Cell::Brick(_))), 315);
        assert_eq!(count(&g, |c| c == Cell::Brick(b'C')), 101);
        assert_eq!(count(&g, |c| c == Cell::Brick(b'R')), 0);
        // Row 0 is all wall.
        assert!(g.cells[..51].iter().all(|&c| c == Cell::Wall));
    }

    #[test]
    fn crlf_and_trailing_newlines() {
        let lf = parse_level("#R\n  \n").unwrap();
        let crlf = parse_level("#R\r\n  \r\n").unwrap();
        let bare = parse_level("#R\n  ").unwrap();
        let extra = parse_level("#R\n  \n\n\r\n").unwrap();
        let bom = parse_level("\u{feff}#R\n  \n").unwrap();
        // Old Mac line endings (a lone CR), and a mix of all three.
        let cr = parse_level("#R\r  \r").unwrap();
        assert_eq!(lf, cr);
        let mixed = parse_level("#R\r\n#R\r  \n\r\r\n").unwrap();
        assert_eq!((mixed.cols, mixed.rows), (2, 3));
        assert_eq!(mixed.cells[2], Cell::Wall);
        assert_eq!(mixed.cells[4], Cell::Empty);
        // An empty line in the middle is a row (too short here: an error on line 2).
        let e = parse_level("#R\r\r#R\r").unwrap_err();
        assert_eq!(e.line(), 2, "{e}");
        assert_eq!(lf, crlf);
        assert_eq!(lf, bare);
        assert_eq!(lf, extra);
        assert_eq!(lf, bom);
        assert_eq!(
            lf.cells,
            vec![Cell::Wall, Cell::Brick(b'R'), Cell::Empty, Cell::Empty]
        );
    }

    #[test]
    fn characters() {
        let g = parse_level("#RYGCBWx.é r").unwrap();
        assert_eq!(g.cols, 12); // é counts as one cell
        let want: Vec<Cell> = "#RYGCBW"
            .chars()
            .map(|c| {
                if c == '#' {
                    Cell::Wall
                } else {
                    Cell::Brick(c as u8)
                }
            })
            .chain([
                Cell::Sensor(b'x'),
                Cell::Empty,
                Cell::Empty,
                Cell::Empty,
                Cell::Sensor(b'r'),
            ])
            .collect();
        assert_eq!(g.cells, want);
        for c in "#RYGCBW az".chars() {
            assert_eq!(char_from_cell(cell_from_char(c)), c);
        }
    }

    #[test]
    fn ragged_names_line() {
        let e = parse_level("###\n# #\n##\n###\n").unwrap_err();
        assert_eq!(
            e,
            LevelError::Ragged {
                line: 3,
                found: 2,
                expected: 3
            }
        );
        assert_eq!(e.line(), 3);
        assert!(e.to_string().starts_with("line 3: "), "{e}");
        // An empty line in the middle is a row of width 0.
        let e = parse_level("###\n\n###\n").unwrap_err();
        assert_eq!(
            e,
            LevelError::Ragged {
                line: 2,
                found: 0,
                expected: 3
            }
        );
        // CRLF does not count as a cell.
        let e = parse_level("###\r\n####\r\n").unwrap_err();
        assert_eq!(
            e,
            LevelError::Ragged {
                line: 2,
                found: 4,
                expected: 3
            }
        );
    }

    #[test]
    fn empty_levels() {
        for t in ["", "\n", "\r\n\r\n", "\u{feff}"] {
            assert_eq!(parse_level(t).unwrap_err(), LevelError::Empty, "{t:?}");
        }
        assert_eq!(parse_rows(["", ""]).unwrap_err(), LevelError::Empty);
        assert_eq!(LevelError::Empty.line(), 1);
    }

    #[test]
    fn too_wide_too_many() {
        let wide = "#".repeat(MAX_GRID_SIDE + 1);
        let e = parse_level(&format!("#\n{wide}\n")).unwrap_err();
        assert_eq!(
            e,
            LevelError::TooWide {
                line: 2,
                found: MAX_GRID_SIDE + 1,
                max: MAX_GRID_SIDE
            }
        );
        // 2^16 columns: 257 rows would be 2^24 + 2^16 cells; row 257 is refused.
        let row = " ".repeat(MAX_GRID_SIDE);
        let rows = vec![row.as_str(); 300];
        let e = parse_rows(rows).unwrap_err();
        assert_eq!(
            e,
            LevelError::TooManyCells {
                line: 257,
                max: MAX_GRID_CELLS
            }
        );
        // 2^16 + 1 rows of one column.
        let tall = "#\n".repeat(MAX_GRID_SIDE + 1);
        let e = parse_level(&tall).unwrap_err();
        assert_eq!(
            e,
            LevelError::TooManyRows {
                line: MAX_GRID_SIDE + 1,
                max: MAX_GRID_SIDE
            }
        );
    }

    #[test]
    fn too_large_text() {
        let big = " ".repeat(MAX_LEVEL_BYTES as usize + 1);
        let e = parse_level(&big).unwrap_err();
        assert_eq!(
            e,
            LevelError::TooLarge {
                len: MAX_LEVEL_BYTES + 1,
                max: MAX_LEVEL_BYTES
            }
        );
    }

    #[test]
    fn default_scene_of_level_1() {
        let g = parse_level(LEVEL_1).unwrap();
        let s = scene_from_level("level_1", g.clone(), 1000);
        // 51 cols · 9 = 459; 31 rows · 9 = 279, + 120 = 399.
        assert_eq!(s.name, "level_1");
        assert_eq!(s.size, Vec2::new(459.0, 399.0));
        assert_eq!(s.walls, Walls::OPEN_BOTTOM);
        assert_eq!(s.grid.as_ref(), Some(&g));
        assert!(s.balls.is_empty());
        // Paddle: (459 - 80) / 2 = 189.5 .. 269.5; top 279 + 100 = 379, bottom 385.
        assert_eq!(s.rects.len(), 1);
        let p = s.rects[0];
        assert_eq!(
            p.aabb,
            Aabb::new(Vec2::new(189.5, 379.0), Vec2::new(269.5, 385.0))
        );
        assert_eq!(p.kind, RectKind::Kinematic);
        assert_eq!(p.vel, Vec2::ZERO);
        let sp = s.spawn.unwrap();
        assert_eq!(sp.count, 1000);
        assert_eq!(
            (sp.radius, sp.speed, sp.density, sp.seed),
            (3.0, 144.0, 1.0, 1)
        );
        // Region: the world minus the bottom 20 units: 399 - 20 = 379.
        assert_eq!(
            sp.region,
            Some(Aabb::new(Vec2::ZERO, Vec2::new(459.0, 379.0)))
        );
        assert!(!s.step.ball_ball);
        assert!(s.step.destructible_bricks);
        assert_eq!(s.step.dt, 1.0 / 60.0);
        assert_eq!(s.step.restitution, 1.0);
    }

    #[test]
    fn default_scene_resets_cell_and_origin() {
        let mut g = parse_level("##\n##\n").unwrap();
        g.cell = 4.0;
        g.origin = Vec2::new(5.0, 5.0);
        let s = scene_from_level("x", g, 3);
        let g = s.grid.unwrap();
        assert_eq!((g.cell, g.origin), (9.0, Vec2::ZERO));
        assert_eq!(s.size, Vec2::new(18.0, 138.0));
        assert_eq!(s.spawn.unwrap().count, 3);
    }
}
