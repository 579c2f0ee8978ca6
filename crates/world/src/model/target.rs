//! [`Target`]: what a query, a cast or a character's contact names (a cell, a body, a wall, a
//! static shape, a flipper).

use crate::model::cell::CellCoord;
use crate::model::ids::{BallId, CharacterId, FlipperId, RectId, ShapeId};

/// A side of the world rectangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Side {
    /// `x = 0`.
    Left,
    /// `y = 0` (top of the screen).
    Top,
    /// `x = width`.
    Right,
    /// `y = height` (bottom of the screen).
    Bottom,
}

impl Side {
    /// The four sides in the order left, top, right, bottom.
    pub const ALL: [Side; 4] = [Side::Left, Side::Top, Side::Right, Side::Bottom];

    /// The side's lowercase name as used in scene files: `left`, `top`, `right`, `bottom`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Side::Left => "left",
            Side::Top => "top",
            Side::Right => "right",
            Side::Bottom => "bottom",
        }
    }
}

/// What a world query or cast hit, or what a character touched.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// A grid cell.
    Cell(CellCoord),
    /// A ball.
    Ball(BallId),
    /// A rectangle.
    Rect(RectId),
    /// A wall of the world.
    Wall(Side),
    /// A static shape: a segment, a circle or a polygon ([`crate::Shape`]).
    Shape(ShapeId),
    /// A flipper, where it is at the world's time ([`crate::Flipper`]).
    Flipper(FlipperId),
    /// A character ([`crate::Character`]): found by queries and circle casts, met by balls,
    /// boxes and other characters.
    Character(CharacterId),
}

impl Target {
    /// The target as a tag and a word (snapshots and the state hash): 0 cell
    /// (`col | row << 32`), 1 ball, 2 rectangle, 3 wall (left, top, right, bottom: 0 to 3),
    /// 4 shape, 5 flipper, 6 character (ids as [`BallId::to_bits`]).
    #[must_use]
    pub(crate) fn code(self) -> (u8, u64) {
        match self {
            Target::Cell(c) => (0, u64::from(c.col) | u64::from(c.row) << 32),
            Target::Ball(id) => (1, id.to_bits()),
            Target::Rect(id) => (2, id.to_bits()),
            Target::Wall(side) => (3, side as u64),
            Target::Shape(id) => (4, id.to_bits()),
            Target::Flipper(id) => (5, id.to_bits()),
            Target::Character(id) => (6, id.to_bits()),
        }
    }

    /// The inverse of [`Target::code`], or `None` for an unknown tag or wall.
    #[must_use]
    pub(crate) fn from_code(tag: u8, word: u64) -> Option<Target> {
        Some(match tag {
            0 => Target::Cell(CellCoord {
                col: word as u32,
                row: (word >> 32) as u32,
            }),
            1 => Target::Ball(BallId::from_bits(word)),
            2 => Target::Rect(RectId::from_bits(word)),
            3 => Target::Wall(match word {
                0 => Side::Left,
                1 => Side::Top,
                2 => Side::Right,
                3 => Side::Bottom,
                _ => return None,
            }),
            4 => Target::Shape(ShapeId::from_bits(word)),
            5 => Target::Flipper(FlipperId::from_bits(word)),
            6 => Target::Character(CharacterId::from_bits(word)),
            _ => return None,
        })
    }
}
