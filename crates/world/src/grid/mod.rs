//! The tile grid: square cells of walls and bricks, with the exposed faces and convex corners
//! of the solid region kept per cell.
//!
//! # Exposed features (no ghost collisions)
//! Only the boundary of the *union* of solid cells is an obstacle. For a solid cell:
//! - a **face** is exposed when the neighbour across it is empty (or outside the grid); a face
//!   shared with a solid neighbour is internal and never produces a contact;
//! - a **corner** is convex, and an obstacle, when both neighbours sharing its two edges are
//!   empty. A corner inside a flat run (one of those neighbours solid) is no obstacle, and a
//!   concave corner is simply where two exposed faces meet: a ball going into it hits one face,
//!   then, touching and still approaching the other, hits that one at the same instant, so both
//!   velocity components reflect.
//!
//! This follows E. Catto, "Ghost Collisions" (box2d.org, 2020) and parry's `Voxels` shape; the
//! Minkowski-sum argument is in `docs/algorithms.md`. Destroying or placing a cell recomputes
//! the features of its 3×3 neighbourhood.
//!
//! # Cells along a long move
//! A sweep walks the motion in chunks no longer than one cell and scans the cells under each
//! chunk's swept box; the first chunk that holds a hit ends the walk. A hit found in chunk `k`
//! with a time inside chunk `k` is the earliest of the whole motion, because any contact at a
//! time in chunk `j` involves a cell under chunk `j`'s box. So a ball 50 cells per step fast
//! cannot tunnel.

use crate::model::cell::CellCoord;
use crate::model::error::GridError;
mod clearance;
mod filters;
mod materials;
mod overlap;
pub(crate) mod rows;
pub(crate) mod solid_counts;
pub(crate) mod sweep;
pub(crate) mod walk;

use crate::grid::solid_counts::SolidCounts;
use crate::model::cell::Cell;
use crate::model::desc::GridDesc;
use crate::model::filter::{CellKinds, Filter};
use crate::model::limits;
use collide_core::{
    aabb_overlaps_aabb, aabb_overlaps_half_tile, circle_overlaps_aabb, circle_overlaps_half_tile,
    contact_circle_aabb, contact_circle_half_tile, distance_point_aabb, distance_point_half_tile,
    point_in_aabb, point_in_half_tile, Aabb, Contact, Corner, Face, Features, HalfTile, Real,
    SweepHit, Vec2,
};

/// The 8 neighbours of a cell as (column, row) offsets, in the order of `Grid::ring`'s bits.
const NEIGHBOURS: [(i64, i64); 8] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// A tile grid of square cells with exposed-feature flags: only the exposed faces and convex corners of the solid region are
/// obstacles, so nothing bumps on the seam between two cells (docs/algorithms.md, section 3).
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    cell: Real,
    origin: Vec2,
    cols: usize,
    rows: usize,
    cells: Vec<Cell>,
    features: Vec<Features>,
    bricks: usize,
    /// The number of [`Cell::Sensor`] cells (a ball's search looks for sensor cells only when
    /// there are some).
    sensors: usize,
    /// Chebyshev distance in cells from each cell to the nearest solid cell (0 for a solid
    /// cell, capped at `u16::MAX`); see [`Grid::clearance`]. Only ever too small (destroying a
    /// cell does not lower it) until [`Grid::refresh_clearance`].
    dist: Vec<u16>,
    /// For each cell, which of its 8 neighbours are solid (bit `3·(dr + 1) + (dc + 1)`,
    /// skipping the cell itself: see `NEIGHBOURS`), computed with `dist`: the exact clearance
    /// of a point next to a solid cell.
    ring: Vec<u8>,
    dist_stale: bool,
    /// A cell became solid since the map was computed: [`Grid::clearance`] answers 0.
    dist_unsafe: bool,
    /// Solid-cell counts over a region, present only while a push-out searches that region
    /// ([`Grid::attach_solid_counts`]): [`Grid::first_overlap_circle`] then searches blocks
    /// instead of scanning every cell under the disc, with the same answer.
    counts: Option<Box<SolidCounts>>,
    /// The own restitution of wall cells and of brick cells (`crate::model::material`).
    pub(crate) wall_restitution: Option<Real>,
    pub(crate) brick_restitution: Option<Real>,
    /// The layers and masks of wall cells and of brick cells (`crate::model::filter`).
    pub(crate) wall_filter: Filter,
    pub(crate) brick_filter: Filter,
    /// The layers and mask of sensor cells.
    pub(crate) sensor_filter: Filter,
    /// While the two filters differ (a body may collide with one kind and not the other):
    /// the exposed features of each cell with the walls alone solid, and with the bricks
    /// alone solid (`None` otherwise: a body then collides with both kinds or neither).
    kind_features: Option<Box<[Vec<Features>; 2]>>,
    /// The cell kinds a body of the default filter collides with.
    pub(crate) default_kinds: CellKinds,
}

/// `x.ceil().clamp(1.0, 1e9) as u64` (0 for NaN), without `ceil`: the target's baseline
/// has no rounding instruction, so `ceil` is a call into a software routine, and a walk
/// counts its chunks on every static search of a ball near tiles.
#[inline]
fn chunk_count(x: Real) -> u64 {
    if x.is_nan() {
        0
    } else if x <= 1.0 {
        1
    } else if x >= 1e9 {
        1_000_000_000
    } else {
        // 1 < x < 1e9: the truncation is exact as a `Real`, and one less than the ceiling
        // unless `x` is an integer.
        let t = x as u64;
        t + u64::from((t as Real) < x)
    }
}

/// The lesser of `a` and `b`: `a.min(b)` for numbers that are not NaN, as one compare
/// (`f64::min` also handles NaN). [`Grid::clearance`]'s distances are never NaN (the point
/// is inside the grid); only the sign of a zero could differ, and it is lost when squared or
/// added to a positive number.
#[inline]
fn lesser(a: Real, b: Real) -> Real {
    if b < a {
        b
    } else {
        a
    }
}

/// The solid shape of a cell: the square of a wall or brick, the half-tile of a slope
/// ([`Grid::cell_shape`]). Discrete queries on it (world units, y down).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum CellShape {
    /// A wall's or brick's whole square.
    Square(Aabb),
    /// A slope's half of its square ([`Cell::Slope`]).
    Slope(HalfTile),
}

impl CellShape {
    /// The shape's bounding box: the cell's square.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        match self {
            CellShape::Square(b) => *b,
            CellShape::Slope(t) => t.aabb,
        }
    }

    /// Whether the disc (`center`, `radius`) overlaps the shape (as
    /// `collide_core::circle_overlaps_aabb`: touching is no overlap).
    #[must_use]
    pub fn overlaps_circle(&self, center: Vec2, radius: Real) -> bool {
        match self {
            CellShape::Square(b) => circle_overlaps_aabb(center, radius, b),
            CellShape::Slope(t) => circle_overlaps_half_tile(center, radius, t),
        }
    }

    /// The penetration of the disc (`center`, `radius`) into the shape (normal out of the
    /// shape, depth, point), or `None` when they do not overlap.
    #[must_use]
    pub fn contact_circle(&self, center: Vec2, radius: Real) -> Option<Contact> {
        match self {
            CellShape::Square(b) => contact_circle_aabb(center, radius, b),
            CellShape::Slope(t) => contact_circle_half_tile(center, radius, t),
        }
    }

    /// Distance from `p` to the shape (0 inside).
    #[must_use]
    pub fn distance_point(&self, p: Vec2) -> Real {
        match self {
            CellShape::Square(b) => distance_point_aabb(p, b),
            CellShape::Slope(t) => distance_point_half_tile(p, t),
        }
    }

    /// Whether `p` lies in the shape, boundary included.
    #[must_use]
    pub fn contains_point(&self, p: Vec2) -> bool {
        match self {
            CellShape::Square(b) => point_in_aabb(p, b),
            CellShape::Slope(t) => point_in_half_tile(p, t),
        }
    }

    /// Whether the box `a` overlaps the shape with positive area.
    #[must_use]
    pub fn overlaps_aabb(&self, a: &Aabb) -> bool {
        match self {
            CellShape::Square(b) => aabb_overlaps_aabb(a, b),
            CellShape::Slope(t) => aabb_overlaps_half_tile(a, t),
        }
    }
}

/// The sides of its square that a solid cell covers entirely, as [`Features`] face bits: all
/// four for a wall or brick, the two legs of a slope (the sides at its solid corner), none
/// for an empty or sensor cell.
fn covered_sides(cell: Cell) -> u8 {
    match cell {
        Cell::Wall | Cell::Brick(_) => Features::FACES.0,
        Cell::Slope(solid) => match solid {
            Corner::TopLeft => Features::LEFT.0 | Features::TOP.0,
            Corner::TopRight => Features::RIGHT.0 | Features::TOP.0,
            Corner::BottomLeft => Features::LEFT.0 | Features::BOTTOM.0,
            Corner::BottomRight => Features::RIGHT.0 | Features::BOTTOM.0,
        },
        Cell::Empty | Cell::Sensor(_) => 0,
    }
}

/// The 45° sectors around a grid point that `cell` fills, for a cell lying in direction
/// (`dx`, `dy`) (each ±1) from the point: a bit set of eight sectors numbered by angle from
/// +x toward +y (sector `k` spans `[45k°, 45(k+1)°)`; y down). A square fills the two sectors
/// of its quadrant; a slope both when the point is its solid corner, the one along the leg
/// toward the solid corner when the point is the other end of that leg, none at its empty
/// corner.
fn vertex_sectors(cell: Cell, dx: isize, dy: isize) -> u8 {
    // The quadrant's sector next to the x axis and the one next to the y axis.
    let (along_x, along_y) = match (dx, dy) {
        (1, 1) => (0, 1),
        (-1, 1) => (3, 2),
        (-1, -1) => (4, 5),
        _ => (7, 6),
    };
    let both = 1u8 << along_x | 1u8 << along_y;
    match cell {
        Cell::Wall | Cell::Brick(_) => both,
        Cell::Slope(solid) => {
            // The point is the cell's corner with signs (-dx, -dy).
            let s = solid.signs();
            let (same_x, same_y) = (s.x as isize == -dx, s.y as isize == -dy);
            match (same_x, same_y) {
                (true, true) => both,
                // The solid corner is across the cell in x from the point: along the leg in x.
                (false, true) => 1u8 << along_x,
                (true, false) => 1u8 << along_y,
                (false, false) => 0,
            }
        }
        Cell::Empty | Cell::Sensor(_) => 0,
    }
}

/// Whether the run of consecutive filled sectors (cyclically) that contains the sectors
/// `mine` spans at most three sectors: a convex corner of the solid region (below 180°).
fn convex_run(all: u8, mine: u8) -> bool {
    if all == u8::MAX {
        return false;
    }
    let start = mine.trailing_zeros();
    let mut len = 0u32;
    // Walk forward from `start`, then backward from it, over filled sectors.
    let mut k = start;
    while all >> k & 1 == 1 {
        len += 1;
        k = (k + 1) % 8;
    }
    let mut k = (start + 7) % 8;
    while all >> k & 1 == 1 {
        len += 1;
        k = (k + 7) % 8;
    }
    len <= 3
}

/// A hit of a sweep against the grid: the geometric hit and the cell that was hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridHit {
    /// The hit (toi, normal, point, feature of the cell).
    pub hit: SweepHit,
    /// The cell hit.
    pub cell: CellCoord,
}

impl Grid {
    /// Builds a grid from its description, computing every cell's exposed features.
    ///
    /// # Errors
    /// [`GridError`] for a cell side outside `(0, 1e9]`, an origin outside ±1e9, a cell
    /// count different from `cols * rows`, more than [`limits::MAX_GRID_CELLS`] cells, or a
    /// cell kind's restitution outside [`limits::Bound::Restitution`].
    pub fn new(desc: &GridDesc) -> Result<Self, GridError> {
        // The scene format's bounds (`limits::Bound`): a cell side in (0, 1e9], an origin
        // within ±1e9, so that every cell's box is finite.
        if limits::Bound::Positive.check(desc.cell).is_err() {
            return Err(GridError::BadCellSize(desc.cell));
        }
        if limits::Bound::Coord.check_vec2(desc.origin).is_err() {
            return Err(GridError::BadOrigin(desc.origin.x, desc.origin.y));
        }
        let total = desc
            .cols
            .checked_mul(desc.rows)
            .filter(|&n| n <= limits::MAX_GRID_CELLS);
        let Some(expected) = total else {
            return Err(GridError::TooLarge {
                cols: desc.cols,
                rows: desc.rows,
                max: limits::MAX_GRID_CELLS,
            });
        };
        crate::model::material::check_cells(desc.wall_restitution, desc.brick_restitution)?;
        if desc.cells.len() != expected {
            return Err(GridError::WrongCellCount {
                cols: desc.cols,
                rows: desc.rows,
                expected,
                got: desc.cells.len(),
            });
        }
        let mut grid = Grid {
            cell: desc.cell,
            origin: desc.origin,
            cols: desc.cols,
            rows: desc.rows,
            cells: desc.cells.clone(),
            features: vec![Features::NONE; expected],
            bricks: desc
                .cells
                .iter()
                .filter(|c| matches!(c, Cell::Brick(_)))
                .count(),
            sensors: desc
                .cells
                .iter()
                .filter(|c| matches!(c, Cell::Sensor(_)))
                .count(),
            dist: Vec::new(),
            ring: Vec::new(),
            dist_stale: true,
            dist_unsafe: true,
            counts: None,
            wall_restitution: desc.wall_restitution,
            brick_restitution: desc.brick_restitution,
            wall_filter: desc.wall_filter,
            brick_filter: desc.brick_filter,
            sensor_filter: desc.sensor_filter,
            kind_features: None,
            default_kinds: CellKinds::ALL,
        };
        for row in 0..grid.rows {
            for col in 0..grid.cols {
                grid.features[row * grid.cols + col] =
                    grid.compute_features(col, row, CellKinds::ALL);
            }
        }
        grid.refresh_kind_features();
        grid.refresh_clearance();
        Ok(grid)
    }

    /// An empty grid of `cols × rows` cells.
    ///
    /// # Errors
    /// As [`Grid::new`].
    pub fn empty(cell: Real, origin: Vec2, cols: usize, rows: usize) -> Result<Self, GridError> {
        if cols
            .checked_mul(rows)
            .is_none_or(|n| n > limits::MAX_GRID_CELLS)
        {
            return Err(GridError::TooLarge {
                cols,
                rows,
                max: limits::MAX_GRID_CELLS,
            });
        }
        Grid::new(&GridDesc {
            cell,
            origin,
            cols,
            rows,
            cells: vec![Cell::Empty; cols * rows],
            wall_restitution: None,
            brick_restitution: None,
            wall_filter: Filter::DEFAULT,
            brick_filter: Filter::DEFAULT,
            sensor_filter: Filter::DEFAULT,
        })
    }

    /// A grid built from rows of level characters, row 0 (the top) first: `#` is a
    /// [`Cell::Wall`], `R` `Y` `G` `C` `B` `W` a [`Cell::Brick`] of that kind, a lowercase
    /// letter `a`–`z` a [`Cell::Sensor`] of that kind, anything else (a space, `.`) is empty, as in BricksBeater level files (`collide_scene::level`). Cells are
    /// squares of side `cell` world units; cell `(0, 0)` has its top-left corner at `origin`.
    ///
    /// # Errors
    /// [`GridError::Rows`] for no row, rows of different widths or more than
    /// [`limits::MAX_GRID_CELLS`] cells (naming the 1-based row), or as [`Grid::new`] for a
    /// bad `cell` or `origin`.
    ///
    /// ```
    /// use collide_world::{CellCoord, Cell, Grid, Vec2};
    /// // Three columns of 10-unit cells starting at (20, 0): the brick of row 1, column 1
    /// // spans x in [30, 40] and y in [10, 20].
    /// let grid = Grid::from_rows(10.0, Vec2::new(20.0, 0.0), &["###", " R "]).unwrap();
    /// assert_eq!((grid.cols(), grid.rows()), (3, 2));
    /// assert_eq!(grid.cell(CellCoord::new(1, 1)), Cell::Brick(b'R'));
    /// assert_eq!(grid.cell_aabb(CellCoord::new(1, 1)).min, Vec2::new(30.0, 10.0));
    /// assert!(Grid::from_rows(10.0, Vec2::ZERO, &["###", "#"]).is_err());
    /// ```
    pub fn from_rows(cell: Real, origin: Vec2, rows: &[&str]) -> Result<Self, GridError> {
        let desc = crate::grid::rows::parse_rows(rows.iter().copied())?;
        Grid::new(&GridDesc {
            cell,
            origin,
            ..desc
        })
    }

    /// The grid's description (for saving a scene or a replay).
    #[must_use]
    pub fn to_desc(&self) -> GridDesc {
        GridDesc {
            cell: self.cell,
            origin: self.origin,
            cols: self.cols,
            rows: self.rows,
            cells: self.cells.clone(),
            wall_restitution: self.wall_restitution,
            brick_restitution: self.brick_restitution,
            wall_filter: self.wall_filter,
            brick_filter: self.brick_filter,
            sensor_filter: self.sensor_filter,
        }
    }

    /// Side of a cell, world units.
    #[must_use]
    pub fn cell_size(&self) -> Real {
        self.cell
    }

    /// Top-left corner of cell (0, 0), world units.
    #[must_use]
    pub fn origin(&self) -> Vec2 {
        self.origin
    }

    /// Number of columns.
    #[must_use]
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of rows.
    #[must_use]
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of brick cells left.
    #[must_use]
    pub fn bricks_left(&self) -> usize {
        self.bricks
    }

    /// Number of sensor cells ([`Cell::Sensor`]).
    #[must_use]
    pub fn sensor_cells(&self) -> usize {
        self.sensors
    }

    /// All cells, row-major.
    #[must_use]
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The cell at `c`, or [`Cell::Empty`] outside the grid.
    #[must_use]
    pub fn cell(&self, c: CellCoord) -> Cell {
        let (col, row) = (c.col as usize, c.row as usize);
        if col < self.cols && row < self.rows {
            self.cells[row * self.cols + col]
        } else {
            Cell::Empty
        }
    }

    /// The exposed faces and convex corners of cell `c` (empty for an empty cell or outside).
    #[must_use]
    pub fn features(&self, c: CellCoord) -> Features {
        let (col, row) = (c.col as usize, c.row as usize);
        if col < self.cols && row < self.rows {
            self.features[row * self.cols + col]
        } else {
            Features::NONE
        }
    }

    /// Sets cell `c` and recomputes the features of its 3×3 neighbourhood. Returns the previous
    /// cell, or `None` (and changes nothing) when `c` is outside the grid.
    pub fn set_cell(&mut self, c: CellCoord, cell: Cell) -> Option<Cell> {
        let (col, row) = (c.col as usize, c.row as usize);
        if col >= self.cols || row >= self.rows {
            return None;
        }
        let old = std::mem::replace(&mut self.cells[row * self.cols + col], cell);
        if cell.is_solid() && !old.is_solid() {
            // A new solid cell lowers the clearance around it: the map must be recomputed
            // before it is used again. (Removing a cell only raises it: the old map stays a
            // valid lower bound.)
            self.dist_stale = true;
            self.dist_unsafe = true;
        } else if old.is_solid() && !cell.is_solid() {
            self.dist_stale = true;
        }
        self.bricks -= usize::from(matches!(old, Cell::Brick(_)));
        self.bricks += usize::from(matches!(cell, Cell::Brick(_)));
        self.sensors -= usize::from(matches!(old, Cell::Sensor(_)));
        self.sensors += usize::from(matches!(cell, Cell::Sensor(_)));
        for r in row.saturating_sub(1)..(row + 2).min(self.rows) {
            for q in col.saturating_sub(1)..(col + 2).min(self.cols) {
                self.features[r * self.cols + q] = self.compute_features(q, r, CellKinds::ALL);
                if self.kind_features.is_some() {
                    let w = self.compute_features(q, r, CellKinds::WALLS);
                    let b = self.compute_features(q, r, CellKinds::BRICKS);
                    if let Some(k) = self.kind_features.as_deref_mut() {
                        k[0][r * self.cols + q] = w;
                        k[1][r * self.cols + q] = b;
                    }
                }
            }
        }
        Some(old)
    }

    /// Computes the exposed features of each set of cell kinds a body can collide with
    /// (see `kind_features`): only while the walls' filter differs from the bricks'.
    pub(crate) fn refresh_kind_features(&mut self) {
        self.default_kinds = self.kinds_for(Filter::DEFAULT);
        if self.wall_filter == self.brick_filter {
            self.kind_features = None;
            return;
        }
        let n = self.cols * self.rows;
        let mut k = Box::new([vec![Features::NONE; n], vec![Features::NONE; n]]);
        for row in 0..self.rows {
            for col in 0..self.cols {
                k[0][row * self.cols + col] = self.compute_features(col, row, CellKinds::WALLS);
                k[1][row * self.cols + col] = self.compute_features(col, row, CellKinds::BRICKS);
            }
        }
        self.kind_features = Some(k);
    }

    /// The exposed features of every cell for a body colliding with the cell kinds `kinds`
    /// (not [`CellKinds::NONE`], for which nothing is an obstacle).
    #[inline]
    pub(crate) fn features_of_kinds(&self, kinds: CellKinds) -> &[Features] {
        match (kinds, self.kind_features.as_deref()) {
            (CellKinds::WALLS, Some(k)) => &k[0],
            (CellKinds::BRICKS, Some(k)) => &k[1],
            _ => &self.features,
        }
    }

    /// The exposed faces and convex corners of cell `c` for a body colliding with the cell
    /// kinds `kinds` ([`Grid::features`] for all kinds; none for no kind).
    #[must_use]
    pub(crate) fn features_for(&self, c: CellCoord, kinds: CellKinds) -> Features {
        let (col, row) = (c.col as usize, c.row as usize);
        if col < self.cols && row < self.rows && !kinds.is_none() {
            self.features_of_kinds(kinds)[row * self.cols + col]
        } else {
            Features::NONE
        }
    }

    /// The box of cell `c` in world units: `origin + (col, row)·cell` to
    /// `origin + (col + 1, row + 1)·cell`. Adjacent cells share their edge coordinates exactly.
    #[must_use]
    pub fn cell_aabb(&self, c: CellCoord) -> Aabb {
        self.cell_aabb_usize(c.col as usize, c.row as usize)
    }

    /// The solid shape of cell `c` ([`CellShape`]), or `None` when the cell is not solid or
    /// lies outside the grid.
    #[must_use]
    pub fn cell_shape(&self, c: CellCoord) -> Option<CellShape> {
        let cell = self.cell(c);
        cell.is_solid()
            .then(|| self.shape_usize(c.col as usize, c.row as usize))
    }

    /// The shape of the cell at (`col`, `row`) inside the grid, taken as solid: its square
    /// unless it is a slope.
    pub(crate) fn shape_usize(&self, col: usize, row: usize) -> CellShape {
        let square = self.cell_aabb_usize(col, row);
        match self.cells[row * self.cols + col] {
            Cell::Slope(solid) => CellShape::Slope(HalfTile::new(square, solid)),
            _ => CellShape::Square(square),
        }
    }

    pub(crate) fn cell_aabb_usize(&self, col: usize, row: usize) -> Aabb {
        let x0 = self.origin.x + col as Real * self.cell;
        let y0 = self.origin.y + row as Real * self.cell;
        let x1 = self.origin.x + (col + 1) as Real * self.cell;
        let y1 = self.origin.y + (row + 1) as Real * self.cell;
        Aabb::new(Vec2::new(x0, y0), Vec2::new(x1, y1))
    }

    /// The whole grid's box, world units.
    #[must_use]
    pub fn bounds(&self) -> Aabb {
        Aabb::new(
            self.origin,
            self.origin + Vec2::new(self.cols as Real, self.rows as Real) * self.cell,
        )
    }

    /// The cell containing point `p`, or `None` outside the grid. A point on an edge belongs to
    /// the cell on its right / below.
    #[must_use]
    pub fn cell_at(&self, p: Vec2) -> Option<CellCoord> {
        let q = (p - self.origin) / self.cell;
        if !(q.x >= 0.0 && q.y >= 0.0) {
            return None;
        }
        // Non-negative here: truncation is the floor (and avoids a libm call).
        let (col, row) = (q.x as usize, q.y as usize);
        (col < self.cols && row < self.rows).then(|| CellCoord::new(col as u32, row as u32))
    }

    /// The exposed faces and convex corners of a cell when only the cells of `kinds` are
    /// solid (a cell of another kind is empty space: `crate::model::filter`).
    ///
    /// A face (of a square, or a leg of a slope) is exposed when the neighbour across it
    /// does not cover the shared side entirely ([`covered_sides`]). A corner that is a
    /// vertex of the cell's shape is an obstacle when the solid region around that grid
    /// point is convex there: the eight 45° sectors around the point that the four cells
    /// sharing it fill ([`vertex_sectors`]) form, around this cell's sectors, a run of at
    /// most three (an angle below 180°). Without slopes this is the rule "both neighbours
    /// sharing the corner's edges are empty". A slope cell also carries the corner bit of
    /// its empty corner, never one of its vertices: it stands for the diagonal, always an
    /// obstacle (so the walks, which skip cells without features, visit it).
    fn compute_features(&self, col: usize, row: usize, kinds: CellKinds) -> Features {
        let (c, r) = (col as isize, row as isize);
        let cell = self.kind_cell(c, r, kinds);
        if !cell.is_solid() {
            return Features::NONE;
        }
        let own = covered_sides(cell);
        let mut f = 0u8;
        for (face, (dc, dr), opposite) in [
            (Face::Left, (-1, 0), Face::Right),
            (Face::Right, (1, 0), Face::Left),
            (Face::Top, (0, -1), Face::Bottom),
            (Face::Bottom, (0, 1), Face::Top),
        ] {
            if own & face.bit().0 != 0
                && covered_sides(self.kind_cell(c + dc, r + dr, kinds)) & opposite.bit().0 == 0
            {
                f |= face.bit().0;
            }
        }
        for corner in Corner::ALL {
            let s = corner.signs();
            let (sx, sy) = (s.x as isize, s.y as isize);
            // The cells around the grid point at this corner, by the direction in which each
            // lies from the point: (sx, sy) is this cell's opposite, i.e. this cell lies in
            // direction (-sx, -sy).
            let mine = vertex_sectors(cell, -sx, -sy);
            if mine == 0 {
                continue;
            }
            let mut all = mine;
            for (dx, dy) in [(sx, -sy), (-sx, sy), (sx, sy)] {
                // The neighbour lying in direction (dx, dy) from the point.
                let (nc, nr) = (c + (dx + sx) / 2, r + (dy + sy) / 2);
                all |= vertex_sectors(self.kind_cell(nc, nr, kinds), dx, dy);
            }
            if convex_run(all, mine) {
                f |= corner.bit().0;
            }
        }
        if let Cell::Slope(solid) = cell {
            f |= solid.opposite().bit().0;
        }
        Features(f)
    }

    /// The cell at (`col`, `row`) as the cell kinds `kinds` see it: [`Cell::Empty`] outside
    /// the grid or when its kind is not solid for them.
    fn kind_cell(&self, col: isize, row: isize, kinds: CellKinds) -> Cell {
        if col >= 0 && row >= 0 && (col as usize) < self.cols && (row as usize) < self.rows {
            let cell = self.cells[row as usize * self.cols + col as usize];
            if kinds.solid(cell) {
                return cell;
            }
        }
        Cell::Empty
    }

    /// Inclusive cell ranges covered by `b` (grown by a hair so that touching counts), clamped
    /// to the grid; `None` when `b` misses the grid.
    pub(crate) fn cell_range(&self, b: &Aabb) -> Option<(usize, usize, usize, usize)> {
        let eps = self.cell * 1e-9;
        let lo = (b.min - eps - self.origin) / self.cell;
        let hi = (b.max + eps - self.origin) / self.cell;
        if !(hi.x >= 0.0 && hi.y >= 0.0 && lo.x < self.cols as Real && lo.y < self.rows as Real) {
            return None;
        }
        // All four are non-negative here: truncation is the floor (no libm call).
        let c0 = lo.x.max(0.0) as usize;
        let r0 = lo.y.max(0.0) as usize;
        let c1 = (hi.x as usize).min(self.cols - 1);
        let r1 = (hi.y as usize).min(self.rows - 1);
        Some((c0, r0, c1, r1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// On grids of walls and bricks alone the sector rule for corners is the rule of squares:
    /// a face is exposed when the neighbour across it is empty, a corner convex when both
    /// neighbours sharing its edges are empty (a diagonal neighbour alone does not matter).
    #[test]
    fn features_of_squares_follow_the_neighbour_rule() {
        let mut rng = crate::model::rng::XorShift64Star::new(99);
        for _ in 0..200 {
            let (cols, rows) = (7, 6);
            let cells: Vec<Cell> = (0..cols * rows)
                .map(|_| match rng.next_u64() % 3 {
                    0 => Cell::Empty,
                    1 => Cell::Wall,
                    _ => Cell::Brick(b'R'),
                })
                .collect();
            let g = Grid::new(&GridDesc {
                cell: 1.0,
                origin: Vec2::ZERO,
                cols,
                rows,
                cells: cells.clone(),
                wall_restitution: None,
                brick_restitution: None,
                wall_filter: Filter::DEFAULT,
                brick_filter: Filter::DEFAULT,
                sensor_filter: Filter::DEFAULT,
            })
            .expect("valid");
            let solid = |c: isize, r: isize| {
                c >= 0
                    && r >= 0
                    && (c as usize) < cols
                    && (r as usize) < rows
                    && cells[r as usize * cols + c as usize].is_solid()
            };
            for r in 0..rows as isize {
                for c in 0..cols as isize {
                    let mut want = 0u8;
                    if solid(c, r) {
                        let (l, rt, t, b) = (
                            !solid(c - 1, r),
                            !solid(c + 1, r),
                            !solid(c, r - 1),
                            !solid(c, r + 1),
                        );
                        for (on, bit) in [
                            (l, Features::LEFT),
                            (rt, Features::RIGHT),
                            (t, Features::TOP),
                            (b, Features::BOTTOM),
                            (l && t, Features::TOP_LEFT),
                            (rt && t, Features::TOP_RIGHT),
                            (l && b, Features::BOTTOM_LEFT),
                            (rt && b, Features::BOTTOM_RIGHT),
                        ] {
                            if on {
                                want |= bit.0;
                            }
                        }
                    }
                    let got = g.features(CellCoord::new(c as u32, r as u32));
                    assert_eq!(got, Features(want), "cell ({c}, {r}) of {cells:?}");
                }
            }
        }
    }

    /// Sectors around a grid point: a slope fills the sector along the leg that reaches its
    /// solid corner, both at the solid corner, none at the empty one.
    #[test]
    fn slope_sectors_follow_the_legs() {
        // A slope solid at the bottom-left, lying down-right of the point (the point is its
        // top-left corner): its left leg goes down from the point, sector 1 (45°–90°).
        assert_eq!(vertex_sectors(Cell::Slope(Corner::BottomLeft), 1, 1), 0b10);
        // Solid at the top-right: the top leg goes right from the point, sector 0.
        assert_eq!(vertex_sectors(Cell::Slope(Corner::TopRight), 1, 1), 0b1);
        // The point is the solid corner: both; the empty corner: none.
        assert_eq!(vertex_sectors(Cell::Slope(Corner::TopLeft), 1, 1), 0b11);
        assert_eq!(vertex_sectors(Cell::Slope(Corner::BottomRight), 1, 1), 0);
        // A run of three is convex, four flat.
        assert!(convex_run(0b0000_0111, 0b0000_0001));
        assert!(!convex_run(0b0000_1111, 0b0000_0001));
        assert!(convex_run(0b1000_0011, 0b1000_0000));
        assert!(!convex_run(0b1100_0011, 0b0000_0011));
    }

    /// `chunk_count` is the `ceil`-and-clamp it replaces, bit for bit.
    #[test]
    fn chunk_count_is_ceil_clamped() {
        let xs = [
            Real::NAN,
            Real::NEG_INFINITY,
            -3.5,
            -0.0,
            0.0,
            1e-300,
            0.5,
            1.0,
            1.0 + Real::EPSILON,
            1.5,
            2.0,
            2.000_000_1,
            123_456.789,
            999_999_999.5,
            1e9,
            1e9 + 1.0,
            4.5e15,
            Real::INFINITY,
        ];
        for x in xs {
            assert_eq!(chunk_count(x), x.ceil().clamp(1.0, 1e9) as u64, "{x}");
        }
    }
}
