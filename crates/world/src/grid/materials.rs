//! The restitution of a grid's cell kinds (`crate::model::material`).

use crate::grid::Grid;
use crate::model::cell::Cell;
use crate::model::error::GridError;
use crate::model::material::check_cells;
use collide_core::Real;

impl Grid {
    /// The own restitution of every [`Cell::Wall`] of the grid, or `None` (the world's
    /// [`crate::StepConfig::restitution`]). See docs/algorithms.md, "Materials".
    #[must_use]
    pub fn wall_restitution(&self) -> Option<Real> {
        self.wall_restitution
    }

    /// The own restitution of every [`Cell::Brick`] of the grid (all kinds), or `None` (the
    /// world's [`crate::StepConfig::restitution`]).
    #[must_use]
    pub fn brick_restitution(&self) -> Option<Real> {
        self.brick_restitution
    }

    /// The own restitution of a cell of kind `cell`: [`Grid::wall_restitution`] for a wall,
    /// [`Grid::brick_restitution`] for any brick, `None` for an empty or sensor cell.
    #[must_use]
    pub fn restitution_of(&self, cell: Cell) -> Option<Real> {
        match cell {
            Cell::Empty | Cell::Sensor(_) => None,
            Cell::Wall | Cell::Slope(_) => self.wall_restitution,
            Cell::Brick(_) => self.brick_restitution,
        }
    }

    /// Sets the own restitution of the grid's wall cells and brick cells (`None`: the world's
    /// [`crate::StepConfig::restitution`]).
    ///
    /// # Errors
    /// [`GridError::BadRestitution`] naming the field (`wall_restitution` or
    /// `brick_restitution`) for a value outside [`crate::limits::Bound::Restitution`] (finite, in
    /// `[0, MAX_RESTITUTION]`); the grid is unchanged then.
    pub fn set_restitution(
        &mut self,
        wall: Option<Real>,
        brick: Option<Real>,
    ) -> Result<(), GridError> {
        check_cells(wall, brick)?;
        self.wall_restitution = wall;
        self.brick_restitution = brick;
        Ok(())
    }
}
