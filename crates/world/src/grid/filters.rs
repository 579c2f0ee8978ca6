//! The filters of a grid's cell kinds (`crate::model::filter`).

use crate::grid::Grid;
use crate::model::cell::Cell;
use crate::model::filter::{CellKinds, Filter};

impl Grid {
    /// The filter of every [`Cell::Wall`] of the grid ([`Filter::DEFAULT`] unless set).
    #[must_use]
    pub fn wall_filter(&self) -> Filter {
        self.wall_filter
    }

    /// The filter of every [`Cell::Brick`] of the grid, whatever its kind.
    #[must_use]
    pub fn brick_filter(&self) -> Filter {
        self.brick_filter
    }

    /// The filter of every [`Cell::Sensor`] of the grid, whatever its kind.
    #[must_use]
    pub fn sensor_filter(&self) -> Filter {
        self.sensor_filter
    }

    /// Sets the filter of the grid's sensor cells (which balls they report), from the next
    /// prediction on.
    pub fn set_sensor_filter(&mut self, sensor: Filter) {
        self.sensor_filter = sensor;
    }

    /// The filter of a cell of kind `cell` (`None` for an empty cell).
    #[must_use]
    pub fn filter_of(&self, cell: Cell) -> Option<Filter> {
        match cell {
            Cell::Empty => None,
            Cell::Wall | Cell::Slope(_) => Some(self.wall_filter),
            Cell::Brick(_) => Some(self.brick_filter),
            Cell::Sensor(_) => Some(self.sensor_filter),
        }
    }

    /// Sets the filters of the grid's wall cells and brick cells, recomputing the exposed
    /// features kept per set of cell kinds (`O(cells)` when the two filters differ).
    pub fn set_filters(&mut self, wall: Filter, brick: Filter) {
        self.wall_filter = wall;
        self.brick_filter = brick;
        self.refresh_kind_features();
    }

    /// The cell kinds a body of filter `f` collides with.
    #[inline]
    pub(crate) fn kinds_for(&self, f: Filter) -> CellKinds {
        CellKinds(
            u8::from(f.collides(self.wall_filter)) | u8::from(f.collides(self.brick_filter)) << 1,
        )
    }
}
