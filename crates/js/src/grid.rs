//! The tile grid: set it from rows of level characters or a cell array, edit and read cells.

use collide_scene::level::{cell_from_char, char_from_cell};
use collide_world::{CellCoord, Filter, Grid, GridDesc, Vec2};
use wasm_bindgen::prelude::*;

use crate::{err, World};

/// The grid's cell at column `col`, row `row` (JavaScript numbers), checked against the grid.
fn coord(grid: Option<&Grid>, col: f64, row: f64) -> Result<CellCoord, JsError> {
    let Some(g) = grid else {
        return Err(err("grid: the world has no grid"));
    };
    let ok = |v: f64, n: usize| v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v < n as f64;
    if !(ok(col, g.cols()) && ok(row, g.rows())) {
        return Err(err(format!(
            "grid cell ({col}, {row}) is outside the grid of {} columns and {} rows",
            g.cols(),
            g.rows()
        )));
    }
    Ok(CellCoord::new(col as u32, row as u32))
}

/// The one character of `s`.
fn one_char(s: &str) -> Result<char, JsError> {
    let mut it = s.chars();
    match (it.next(), it.next()) {
        (Some(c), None) => Ok(c),
        _ => Err(err(format!("grid cell: `{s}` is not one character"))),
    }
}

#[wasm_bindgen]
impl World {
    /// Sets the tile grid from rows of level characters, row 0 (the top) first: `#` a wall,
    /// `R Y G C B W` a brick of that kind (destroyed by its first hit unless bricks are
    /// indestructible), `a`–`z` a sensor cell, `1 3 7 9` a 45° slope solid at the
    /// bottom-left, bottom-right, top-left, top-right corner, anything else (space, `.`)
    /// empty. Cells are squares of side `cell` world units, cell (0, 0) with its top-left
    /// corner at `(originX, originY)`. Replaces any grid; balls left inside a tile are pushed
    /// out at the next step.
    ///
    /// @throws {Error} `grid rows: ...` naming the row for no row or rows of different
    /// widths, `grid field \`cell\`: ...` or `origin` for a bad size or place. The world is
    /// unchanged then.
    #[wasm_bindgen(js_name = setGridRows)]
    pub fn set_grid_rows(
        &mut self,
        cell: f64,
        #[wasm_bindgen(js_name = "originX")] origin_x: f64,
        #[wasm_bindgen(js_name = "originY")] origin_y: f64,
        rows: Vec<String>,
    ) -> Result<(), JsError> {
        let refs: Vec<&str> = rows.iter().map(String::as_str).collect();
        let grid = Grid::from_rows(cell, Vec2::new(origin_x, origin_y), &refs).map_err(err)?;
        self.w.set_grid(grid);
        Ok(())
    }

    /// Sets the tile grid from a cell array: `cells` holds `cols × rows` character codes,
    /// row-major from the top-left (`"#".charCodeAt(0)` a wall, and the other characters of
    /// `setGridRows`); `cols` columns of square cells of side `cell`, the top-left corner at
    /// `(originX, originY)`.
    ///
    /// @throws {Error} when `cells.length` is not a positive multiple of `cols`, or as
    /// `setGridRows`. The world is unchanged then.
    #[wasm_bindgen(js_name = setGridCells)]
    pub fn set_grid_cells(
        &mut self,
        cell: f64,
        #[wasm_bindgen(js_name = "originX")] origin_x: f64,
        #[wasm_bindgen(js_name = "originY")] origin_y: f64,
        cols: u32,
        cells: &[u8],
    ) -> Result<(), JsError> {
        let cols = cols as usize;
        if cols == 0 || cells.is_empty() || !cells.len().is_multiple_of(cols) {
            return Err(err(format!(
                "grid field `cells`: {} cells are not a positive whole number of rows of {cols} columns",
                cells.len()
            )));
        }
        let desc = GridDesc {
            cell,
            origin: Vec2::new(origin_x, origin_y),
            cols,
            rows: cells.len() / cols,
            cells: cells
                .iter()
                .map(|&b| cell_from_char(char::from(b)))
                .collect(),
            wall_restitution: None,
            brick_restitution: None,
            wall_filter: Filter::DEFAULT,
            brick_filter: Filter::DEFAULT,
            sensor_filter: Filter::DEFAULT,
        };
        let grid = Grid::new(&desc).map_err(err)?;
        self.w.set_grid(grid);
        Ok(())
    }

    /// Removes the tile grid; returns whether there was one.
    #[wasm_bindgen(js_name = removeGrid)]
    pub fn remove_grid(&mut self) -> bool {
        self.w.take_grid().is_some()
    }

    /// Sets the cell at column `col`, row `row` to the level character `ch` (see
    /// `setGridRows`; `" "` empties it) and returns the character it had.
    ///
    /// @throws {Error} when the world has no grid, the cell is outside it, or `ch` is not one
    /// character. The world is unchanged then.
    #[wasm_bindgen(js_name = setCell)]
    pub fn set_cell(&mut self, col: f64, row: f64, ch: &str) -> Result<String, JsError> {
        let c = coord(self.w.grid(), col, row)?;
        let cell = cell_from_char(one_char(ch)?);
        let old = self.w.set_cell(c, cell).map(char_from_cell).unwrap_or(' ');
        Ok(old.to_string())
    }

    /// The level character of the cell at column `col`, row `row` (`" "` empty).
    ///
    /// @throws {Error} when the world has no grid or the cell is outside it.
    pub fn cell(&self, col: f64, row: f64) -> Result<String, JsError> {
        let c = coord(self.w.grid(), col, row)?;
        let grid = self
            .w
            .grid()
            .ok_or_else(|| err("grid: the world has no grid"))?;
        Ok(char_from_cell(grid.cell(c)).to_string())
    }

    /// The grid as rows of level characters (empty when the world has no grid).
    #[wasm_bindgen(js_name = gridRows)]
    pub fn grid_rows(&self) -> Vec<String> {
        let Some(g) = self.w.grid() else {
            return Vec::new();
        };
        g.cells()
            .chunks(g.cols().max(1))
            .map(|row| row.iter().map(|&c| char_from_cell(c)).collect())
            .collect()
    }

    /// The number of bricks left in the grid (0 without a grid).
    #[wasm_bindgen(js_name = bricksLeft)]
    pub fn bricks_left(&self) -> u32 {
        self.w.grid().map_or(0, |g| g.bricks_left() as u32)
    }

    /// Gives the grid's wall cells and brick cells their own restitution (`undefined`: the
    /// world's), 0 to 10.
    ///
    /// @throws {Error} `grid field \`wall_restitution\`: ...` naming the value, or when the
    /// world has no grid.
    #[wasm_bindgen(js_name = setGridRestitution)]
    pub fn set_grid_restitution(
        &mut self,
        wall: Option<f64>,
        brick: Option<f64>,
    ) -> Result<(), JsError> {
        self.w.set_grid_restitution(wall, brick).map_err(err)
    }

    /// Puts the grid's wall cells and brick cells on collision layers with masks (as
    /// `setBallLayers`).
    ///
    /// @throws {Error} when the world has no grid.
    #[wasm_bindgen(js_name = setGridLayers)]
    pub fn set_grid_layers(
        &mut self,
        #[wasm_bindgen(js_name = "wallLayers")] wall_layers: u32,
        #[wasm_bindgen(js_name = "wallMask")] wall_mask: u32,
        #[wasm_bindgen(js_name = "brickLayers")] brick_layers: u32,
        #[wasm_bindgen(js_name = "brickMask")] brick_mask: u32,
    ) -> Result<(), JsError> {
        let wall = Filter::new(wall_layers, wall_mask);
        let brick = Filter::new(brick_layers, brick_mask);
        self.w.set_grid_layers(wall, brick).map_err(err)
    }
}
