//! A tile grid's cells: what a cell is ([`Cell`]) and where it is ([`CellCoord`]).

/// One cell of a tile grid.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Cell {
    /// Free space.
    #[default]
    Empty,
    /// Solid and indestructible (`#` in a BricksBeater level).
    Wall,
    /// Solid and destroyed by the first ball that hits it (unless the world's bricks are
    /// indestructible). The byte is the brick's kind or colour: the level character, one of
    /// `R Y G C B W` in BricksBeater levels.
    Brick(u8),
    /// A sensor: free space for every body (no obstacle), whose square reports the balls its
    /// filter ([`crate::GridDesc::sensor_filter`]) collides with entering and leaving it
    /// ([`crate::Event::SensorEnter`], [`crate::Event::SensorExit`], [`crate::SensorId::Cell`]).
    /// The byte is the sensor's kind: the level character, a lowercase letter `a`–`z`.
    Sensor(u8),
    /// A 45° slope: the half of the square containing the corner named (the solid corner),
    /// cut along the diagonal between the two corners next to it (a right isosceles
    /// triangle, `collide_core::HalfTile`). Indestructible and of the wall kind: it has the
    /// walls' restitution ([`crate::GridDesc::wall_restitution`]) and filter
    /// ([`crate::GridDesc::wall_filter`]). Level characters `1` `3` `7` `9`, the solid corner's place
    /// on a numeric keypad: `1` bottom-left ◣, `3` bottom-right ◢, `7` top-left ◤, `9`
    /// top-right ◥ (`collide_scene::level`).
    Slope(collide_core::Corner),
}

impl Cell {
    /// Whether the cell is an obstacle (wall, brick or slope; a sensor cell is not).
    #[must_use]
    pub const fn is_solid(self) -> bool {
        matches!(self, Cell::Wall | Cell::Brick(_) | Cell::Slope(_))
    }

    /// The solid corner of a slope cell, `None` for every other cell.
    #[must_use]
    pub const fn slope(self) -> Option<collide_core::Corner> {
        match self {
            Cell::Slope(c) => Some(c),
            _ => None,
        }
    }
}

/// Integer coordinates of a grid cell: column (x) and row (y, row 0 at the top).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct CellCoord {
    /// Column, from 0 at the left.
    pub col: u32,
    /// Row, from 0 at the top.
    pub row: u32,
}

impl CellCoord {
    /// The cell at `col`, `row`.
    #[must_use]
    pub const fn new(col: u32, row: u32) -> Self {
        Self { col, row }
    }
}
