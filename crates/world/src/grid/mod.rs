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
mod filters;
mod materials;
pub(crate) mod rows;
pub(crate) mod solid_counts;
pub(crate) mod walk;

use crate::grid::solid_counts::SolidCounts;
use crate::model::cell::Cell;
use crate::model::desc::GridDesc;
use crate::model::filter::{CellKinds, Filter};
use crate::model::limits;
use collide_core::{
    aabb_overlaps_aabb, aabb_overlaps_half_tile, circle_overlaps_aabb, circle_overlaps_half_tile,
    contact_circle_aabb, contact_circle_half_tile, distance_point_aabb, distance_point_half_tile,
    point_in_aabb, point_in_half_tile, sweep_aabb_aabb, sweep_aabb_half_tile, sweep_circle_aabb,
    sweep_circle_half_tile, Aabb, Contact, Corner, Face, Feature, Features, HalfTile, Real,
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

/// A tile grid of square cells with exposed-feature flags. See the module docs.
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
    /// letter `a`–`z` a [`Cell::Sensor`] of that kind, anything else (a space, `.`) is empty, as in BricksBeater level files ([`crate::scene::level`]). Cells are
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

    /// Recomputes the clearance map if cells changed since it was last computed: a two-pass
    /// chamfer transform giving each cell's Chebyshev distance (in cells) to the nearest solid
    /// cell (G. Borgefors, "Distance transformations in digital images", CVGIP 34, 1986).
    /// `O(cells)`. The world calls it at the start of each step.
    pub fn refresh_clearance(&mut self) {
        if !self.dist_stale {
            return;
        }
        self.dist_stale = false;
        self.dist_unsafe = false;
        let (w, h) = (self.cols, self.rows);
        self.dist.clear();
        self.dist.extend(
            self.cells
                .iter()
                .map(|c| if c.is_solid() { 0 } else { u16::MAX }),
        );
        self.ring.clear();
        self.ring.resize(w * h, 0);
        for row in 0..h {
            for col in 0..w {
                let mut mask = 0u8;
                for (k, &(dc, dr)) in NEIGHBOURS.iter().enumerate() {
                    let (c, r) = (col as i64 + dc, row as i64 + dr);
                    if c >= 0
                        && r >= 0
                        && (c as usize) < w
                        && (r as usize) < h
                        && self.cells[r as usize * w + c as usize].is_solid()
                    {
                        mask |= 1 << k;
                    }
                }
                self.ring[row * w + col] = mask;
            }
        }
        let d = &mut self.dist;
        for row in 0..h {
            for col in 0..w {
                let i = row * w + col;
                let mut v = d[i];
                if col > 0 {
                    v = v.min(d[i - 1].saturating_add(1));
                }
                if row > 0 {
                    v = v.min(d[i - w].saturating_add(1));
                    if col > 0 {
                        v = v.min(d[i - w - 1].saturating_add(1));
                    }
                    if col + 1 < w {
                        v = v.min(d[i - w + 1].saturating_add(1));
                    }
                }
                d[i] = v;
            }
        }
        for row in (0..h).rev() {
            for col in (0..w).rev() {
                let i = row * w + col;
                let mut v = d[i];
                if col + 1 < w {
                    v = v.min(d[i + 1].saturating_add(1));
                }
                if row + 1 < h {
                    v = v.min(d[i + w].saturating_add(1));
                    if col + 1 < w {
                        v = v.min(d[i + w + 1].saturating_add(1));
                    }
                    if col > 0 {
                        v = v.min(d[i + w - 1].saturating_add(1));
                    }
                }
                d[i] = v;
            }
        }
    }

    /// A lower bound (world units) on the distance from `p` to every solid cell. In a cell
    /// next to a solid cell, the distance to the nearest solid neighbour or to the ring of
    /// cells beyond the neighbours, whichever is less; farther, the
    /// distance from `p` to the edge of the block of cells around it known to be empty
    /// (Chebyshev distance transform, see [`Grid::refresh_clearance`]). `0` in a solid cell.
    /// Used to skip the grid walk of a ball that cannot reach any tile before its next event.
    #[must_use]
    pub fn clearance(&self, p: Vec2) -> Real {
        if self.dist_unsafe {
            return 0.0;
        }
        let q = (p - self.origin) / self.cell;
        // Sides are below 2^24 cells (`limits::MAX_GRID_CELLS`): u32 conversions are exact and
        // cheaper than usize ones.
        let (w, h) = (Real::from(self.cols as u32), Real::from(self.rows as u32));
        if !(q.x >= 0.0 && q.y >= 0.0 && q.x < w && q.y < h) {
            // Outside the grid: the distance to the grid's box.
            return distance_point_aabb(p, &self.bounds());
        }
        let (col, row) = (q.x as u32, q.y as u32);
        let (col, row) = (col as usize, row as usize);
        let d = self.dist[row * self.cols + col];
        if d == 0 {
            return 0.0;
        }
        let (fx, fy) = (q.x - Real::from(col as u32), q.y - Real::from(row as u32));
        if d == 1 {
            // The nearest of the solid neighbours' boxes (at least one is solid), in cells;
            // cells two rings out can be nearer than a diagonal neighbour, so at most the own
            // cell's edge plus one ring. Bits as in `NEIGHBOURS`.
            let mask = self.ring[row * self.cols + col];
            let (lx, hx, ly, hy) = (fx, 1.0 - fx, fy, 1.0 - fy);
            let bit = |k: u32| mask >> k & 1 == 1;
            let mut best = lesser(lesser(lesser(lx, hx), ly), hy) + 1.0;
            for (k, side) in [(1, ly), (3, lx), (4, hx), (6, hy)] {
                if bit(k) {
                    best = lesser(best, side);
                }
            }
            let mut sq = best * best;
            for (k, a, b) in [(0, lx, ly), (2, hx, ly), (5, lx, hy), (7, hx, hy)] {
                if bit(k) {
                    sq = lesser(sq, a * a + b * b);
                }
            }
            return (sq.sqrt() * self.cell).max(0.0);
        }
        // Distance to the own cell's edge plus the (d - 1) empty rings around it, in cells.
        let gap = lesser(lesser(lesser(fx, 1.0 - fx), fy), 1.0 - fy);
        ((gap + Real::from(d - 1)) * self.cell).max(0.0)
    }

    /// Whether the disc (`center`, `radius`) overlaps any solid cell with positive area.
    #[must_use]
    pub fn overlaps_circle(&self, center: Vec2, radius: Real) -> bool {
        self.first_overlap_circle(center, radius, 0.0).is_some()
    }

    /// The counts attached by [`Grid::attach_solid_counts`] when they cover `range` and count
    /// the cells of `kinds`.
    fn counts_for(
        &self,
        range: (usize, usize, usize, usize),
        kinds: CellKinds,
    ) -> Option<&SolidCounts> {
        self.counts
            .as_deref()
            .filter(|c| c.kinds == kinds && c.covers(range))
    }

    /// The first solid cell (row-major) that the disc overlaps by more than `slack` world
    /// units, i.e. whose distance to the centre is below `radius - slack`.
    ///
    /// `O(cells under the disc)`, or, while solid counts cover the disc
    /// (`Grid::attach_solid_counts`), a search of blocks of cells in row-major order that
    /// skips every block with no solid cell or out of the disc's reach: about `O(log cells)`
    /// when the disc holds a solid cell well inside, `O(cells along its rim)` at worst.
    #[must_use]
    pub fn first_overlap_circle(
        &self,
        center: Vec2,
        radius: Real,
        slack: Real,
    ) -> Option<CellCoord> {
        self.first_overlap_circle_kinds(CellKinds::ALL, center, radius, slack)
    }

    /// [`Grid::first_overlap_circle`] with only the cells of `kinds` solid.
    pub(crate) fn first_overlap_circle_kinds(
        &self,
        kinds: CellKinds,
        center: Vec2,
        radius: Real,
        slack: Real,
    ) -> Option<CellCoord> {
        if kinds.is_none() {
            return None;
        }
        let r = radius - slack;
        let range = self.cell_range(&Aabb::new(center - radius, center + radius))?;
        if let Some(counts) = self.counts_for(range, kinds) {
            return self.first_overlap_in(counts, center, r, range);
        }
        let (c0, r0, c1, r1) = range;
        for row in r0..=r1 {
            for col in c0..=c1 {
                if kinds.solid(self.cells[row * self.cols + col])
                    && self.shape_usize(col, row).overlaps_circle(center, r)
                {
                    return Some(CellCoord::new(col as u32, row as u32));
                }
            }
        }
        None
    }

    /// The box of the block of cells `[c0, c1] × [r0, r1]`: from its first cell's `min` to its
    /// last cell's `max` (the same floating-point coordinates as the cells' own boxes).
    fn block_aabb(&self, (c0, r0, c1, r1): (usize, usize, usize, usize)) -> Aabb {
        Aabb::new(
            self.cell_aabb_usize(c0, r0).min,
            self.cell_aabb_usize(c1, r1).max,
        )
    }

    /// Whether the disc overlaps some solid cell by more than `slack` world units: whether
    /// [`Grid::first_overlap_circle`] finds one, without finding the first. While solid counts
    /// cover the disc, blocks of cells are searched nearest the centre first and a block that
    /// holds a solid cell and lies inside the disc answers at once: a disc far larger than
    /// the cells that holds solid cells near its centre costs about `O(log cells)`.
    #[must_use]
    pub fn circle_overlaps_solid(&self, center: Vec2, radius: Real, slack: Real) -> bool {
        self.overlap_near(CellKinds::ALL, center, radius, slack, false)
            .is_some()
    }

    /// [`Grid::circle_overlaps_solid`] with only the cells of `kinds` solid.
    pub(crate) fn circle_overlaps_solid_kinds(
        &self,
        kinds: CellKinds,
        center: Vec2,
        radius: Real,
        slack: Real,
    ) -> bool {
        self.overlap_near(kinds, center, radius, slack, false)
            .is_some()
    }

    /// A solid cell the disc overlaps by more than `slack` world units, searched nearest the
    /// centre first (while solid counts cover the disc; else the row-major first, as
    /// [`Grid::first_overlap_circle`]): the push-out pushes out of it.
    pub(crate) fn overlap_near_center(
        &self,
        kinds: CellKinds,
        center: Vec2,
        radius: Real,
        slack: Real,
    ) -> Option<CellCoord> {
        self.overlap_near(kinds, center, radius, slack, true)
    }

    fn overlap_near(
        &self,
        kinds: CellKinds,
        center: Vec2,
        radius: Real,
        slack: Real,
        want_cell: bool,
    ) -> Option<CellCoord> {
        if kinds.is_none() {
            return None;
        }
        let r = radius - slack;
        let range = self.cell_range(&Aabb::new(center - radius, center + radius))?;
        match self.counts_for(range, kinds) {
            Some(counts) => self.overlap_near_in(counts, center, r, range, want_cell),
            None => self.first_overlap_circle_kinds(kinds, center, radius, slack),
        }
    }

    /// A solid cell of the block `[c0, c1] × [r0, r1]` that the disc (`center`, `r`)
    /// overlaps, or `None`: the halves of a block are visited nearest the centre first. A
    /// block whose four corners lie inside the disc overlaps it with every cell (a disc is
    /// convex): any solid cell in it answers (found by the counts alone when `want_cell`,
    /// else the block's first cell stands for it).
    fn overlap_near_in(
        &self,
        counts: &SolidCounts,
        center: Vec2,
        r: Real,
        (c0, r0, c1, r1): (usize, usize, usize, usize),
        want_cell: bool,
    ) -> Option<CellCoord> {
        if counts.count(c0, r0, c1, r1) == 0 {
            return None;
        }
        let block = self.block_aabb((c0, r0, c1, r1));
        if !circle_overlaps_aabb(center, r, &block) {
            return None;
        }
        let far = (center - block.min).abs().max((center - block.max).abs());
        if far.length_squared() < r * r {
            return Some(if want_cell {
                counts.some_solid((c0, r0, c1, r1))
            } else {
                CellCoord::new(c0 as u32, r0 as u32)
            });
        }
        let (a, b) = if r0 < r1 {
            let m = r0 + (r1 - r0) / 2;
            ((c0, r0, c1, m), (c0, m + 1, c1, r1))
        } else if c0 < c1 {
            let m = c0 + (c1 - c0) / 2;
            ((c0, r0, m, r1), (m + 1, r0, c1, r1))
        } else {
            // One solid cell whose box the disc overlaps: a slope only with its half.
            return self
                .shape_usize(c0, r0)
                .overlaps_circle(center, r)
                .then(|| CellCoord::new(c0 as u32, r0 as u32));
        };
        let dist = |range| {
            let bb = self.block_aabb(range);
            (center - center.clamp(bb.min, bb.max)).length_squared()
        };
        let (first, second) = if dist(b) < dist(a) { (b, a) } else { (a, b) };
        self.overlap_near_in(counts, center, r, first, want_cell)
            .or_else(|| self.overlap_near_in(counts, center, r, second, want_cell))
    }

    /// The first solid cell in row-major order of the block `[c0, c1] × [r0, r1]` that the
    /// disc (`center`, `r`) overlaps, by halving the block (rows first, the upper half first,
    /// then columns, the left half first) so that the order is row-major. A block is skipped
    /// when it holds no solid cell or when the disc does not overlap its box: every cell's
    /// box lies inside the block's box (the same floating-point coordinates bound both), so
    /// no cell of the block could overlap either; the answer is the scan's, bit for bit.
    fn first_overlap_in(
        &self,
        counts: &SolidCounts,
        center: Vec2,
        r: Real,
        (c0, r0, c1, r1): (usize, usize, usize, usize),
    ) -> Option<CellCoord> {
        if counts.count(c0, r0, c1, r1) == 0 {
            return None;
        }
        let block = self.block_aabb((c0, r0, c1, r1));
        if !circle_overlaps_aabb(center, r, &block) {
            return None;
        }
        if r0 < r1 {
            let m = r0 + (r1 - r0) / 2;
            self.first_overlap_in(counts, center, r, (c0, r0, c1, m))
                .or_else(|| self.first_overlap_in(counts, center, r, (c0, m + 1, c1, r1)))
        } else if c0 < c1 {
            let m = c0 + (c1 - c0) / 2;
            self.first_overlap_in(counts, center, r, (c0, r0, m, r1))
                .or_else(|| self.first_overlap_in(counts, center, r, (m + 1, r0, c1, r1)))
        } else {
            // One solid cell, and the disc overlaps its box (a slope: its half).
            self.shape_usize(c0, r0)
                .overlaps_circle(center, r)
                .then(|| CellCoord::new(c0 as u32, r0 as u32))
        }
    }

    /// Builds solid-cell counts over the cells under `region` (world units) for the next
    /// calls of [`Grid::first_overlap_circle`] whose discs lie in it, until
    /// [`Grid::detach_solid_counts`]. `O(cells under region)` time, 4 bytes per such cell.
    #[cfg(test)]
    pub(crate) fn attach_solid_counts(&mut self, region: &Aabb) {
        self.attach_solid_counts_kinds(CellKinds::ALL, region);
    }

    /// [`Grid::attach_solid_counts`] counting only the cells of `kinds` as solid.
    pub(crate) fn attach_solid_counts_kinds(&mut self, kinds: CellKinds, region: &Aabb) {
        self.counts = self
            .cell_range(region)
            .map(|range| Box::new(SolidCounts::new(kinds, &self.cells, self.cols, range)));
    }

    /// Drops the counts of [`Grid::attach_solid_counts`].
    pub(crate) fn detach_solid_counts(&mut self) {
        self.counts = None;
    }

    /// Distance from `p` to the nearest solid cell within `max_dist` (world units), or `None`
    /// if there is none that close. `0` when `p` is inside a solid cell.
    #[must_use]
    pub fn distance_to_solid(&self, p: Vec2, max_dist: Real) -> Option<Real> {
        let (c0, r0, c1, r1) = self.cell_range(&Aabb::new(p - max_dist, p + max_dist))?;
        let mut best: Option<Real> = None;
        for row in r0..=r1 {
            for col in c0..=c1 {
                if self.cells[row * self.cols + col].is_solid() {
                    let d = self.shape_usize(col, row).distance_point(p);
                    if d <= max_dist && best.is_none_or(|b| d < b) {
                        best = Some(d);
                    }
                }
            }
        }
        best
    }

    /// Calls `f(coord, cell)` for every solid cell whose box overlaps `b` (positive area or
    /// touching), in row-major order.
    pub fn for_each_solid_in(&self, b: &Aabb, f: impl FnMut(CellCoord, Cell)) {
        self.for_each_solid_in_kinds(CellKinds::ALL, b, f);
    }

    /// [`Grid::for_each_solid_in`] for the cells of `kinds` only.
    pub(crate) fn for_each_solid_in_kinds(
        &self,
        kinds: CellKinds,
        b: &Aabb,
        mut f: impl FnMut(CellCoord, Cell),
    ) {
        if let Some((c0, r0, c1, r1)) = self.cell_range(b) {
            for row in r0..=r1 {
                for col in c0..=c1 {
                    let cell = self.cells[row * self.cols + col];
                    if kinds.solid(cell) {
                        f(CellCoord::new(col as u32, row as u32), cell);
                    }
                }
            }
        }
    }

    /// The parameter range `[t0, t1]` within `[0, max_t]` during which `b0` moving with `vel`
    /// can touch the grid's box, or `None`.
    fn clip_to_grid(&self, b0: &Aabb, vel: Vec2, max_t: Real) -> Option<(Real, Real)> {
        let g = self.bounds();
        let (mut t0, mut t1) = (0.0, max_t);
        for k in 0..2 {
            if vel[k] == 0.0 {
                if b0.max[k] < g.min[k] || b0.min[k] > g.max[k] {
                    return None;
                }
            } else {
                let a = (g.min[k] - b0.max[k]) / vel[k];
                let b = (g.max[k] - b0.min[k]) / vel[k];
                let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                t0 = Real::max(t0, lo);
                t1 = Real::min(t1, hi);
            }
        }
        (t0 <= t1).then_some((t0, t1))
    }

    /// Walks the motion of box `b0` (the moving shape's bounding box at time 0) with velocity
    /// `vel` over `[0, max_t]` in chunks of at most one cell, calling `test(col, row, limit)`
    /// on the solid cells under each chunk; `test` returns a hit time `<= limit` or `None`.
    /// Returns the earliest hit and its cell.
    fn walk<H: Copy>(
        &self,
        feats: &[Features],
        b0: &Aabb,
        vel: Vec2,
        min_t: Real,
        max_t: Real,
        mut test: impl FnMut(usize, usize, Real) -> Option<(Real, H)>,
    ) -> Option<(Real, H, CellCoord)> {
        if self.cols == 0 || self.rows == 0 {
            return None;
        }
        let (t0, t1) = self.clip_to_grid(b0, vel, max_t)?;
        let t0 = t0.max(min_t);
        if !(t0 <= t1) {
            return None;
        }
        let len = vel.length() * (t1 - t0);
        // Chunks of at least one cell and at least the moving shape's size: consecutive chunks of
        // a shape much larger than the cells would otherwise rescan the same cells.
        let chunk_len = self.cell.max(b0.size().max_element());
        let chunks = chunk_count(len / chunk_len);
        let mut best: Option<(Real, H, CellCoord)> = None;
        for k in 0..chunks {
            let ta = t0 + (t1 - t0) * (k as Real / chunks as Real);
            let tb = if k + 1 == chunks {
                t1
            } else {
                t0 + (t1 - t0) * ((k + 1) as Real / chunks as Real)
            };
            let swept = b0.translated(vel * ta).union(&b0.translated(vel * tb));
            if let Some((c0, r0, c1, r1)) = self.cell_range(&swept) {
                for row in r0..=r1 {
                    for col in c0..=c1 {
                        if feats[row * self.cols + col].is_empty() {
                            continue;
                        }
                        let limit = best.map_or(max_t, |b| b.0);
                        if let Some((t, h)) = test(col, row, limit) {
                            if best.is_none_or(|b| t < b.0) {
                                best = Some((t, h, CellCoord::new(col as u32, row as u32)));
                                // Hits are never before `min_t` and ties go to the first
                                // found: a hit at `min_t` is the answer (a body resting
                                // against tiles, or embedded, stops the walk at once).
                                if t <= min_t {
                                    return best;
                                }
                            }
                        }
                    }
                }
            }
            if best.is_some_and(|b| b.0 <= tb) {
                break;
            }
        }
        best
    }

    /// Sweeps a circle (centre `center`, `radius`, velocity `vel`) through the grid over
    /// `[0, max_t]`: the earliest contact with an exposed face or convex corner of a solid
    /// cell. Times are in the unit of `vel` (seconds for units/s). Ties between cells go to the
    /// first in walk order (chunk, then row-major). See the module docs for why this never
    /// tunnels and never reports a ghost collision.
    #[must_use]
    pub fn sweep_circle(
        &self,
        center: Vec2,
        radius: Real,
        vel: Vec2,
        max_t: Real,
    ) -> Option<GridHit> {
        self.sweep_circle_between(center, radius, vel, 0.0, max_t)
    }

    /// Like [`Grid::sweep_circle`] for the part `[min_t, max_t]` of the motion only: the cells
    /// under the path before `min_t` are not visited. The circle is known to have met nothing
    /// before `min_t` (the world sweeps each ball from the start of its current straight path,
    /// so that its impact times do not depend on the step size). A hit computed before `min_t`
    /// by rounding is reported at `min_t`.
    #[must_use]
    pub fn sweep_circle_between(
        &self,
        center: Vec2,
        radius: Real,
        vel: Vec2,
        min_t: Real,
        max_t: Real,
    ) -> Option<GridHit> {
        self.sweep_circle_kinds(CellKinds::ALL, center, radius, vel, min_t, max_t)
    }

    /// [`Grid::sweep_circle_between`] for a body colliding with the cell kinds `kinds` only:
    /// the other cells are empty space, and exposure is theirs (`crate::model::filter`).
    pub(crate) fn sweep_circle_kinds(
        &self,
        kinds: CellKinds,
        center: Vec2,
        radius: Real,
        vel: Vec2,
        min_t: Real,
        max_t: Real,
    ) -> Option<GridHit> {
        if kinds.is_none() {
            return None;
        }
        let feats = self.features_of_kinds(kinds);
        let b0 = Aabb::new(center - radius, center + radius);
        let found = self.walk(feats, &b0, vel, min_t, max_t, |col, row, limit| {
            let i = row * self.cols + col;
            let (f, square) = (feats[i], self.cell_aabb_usize(col, row));
            let mut hit = match self.cells[i] {
                Cell::Slope(solid) => sweep_circle_half_tile(
                    center,
                    radius,
                    vel,
                    limit,
                    &HalfTile::new(square, solid),
                    f,
                )?,
                _ => sweep_circle_aabb(center, radius, vel, limit, &square, f)?,
            };
            hit.toi = hit.toi.max(min_t);
            Some((hit.toi, hit))
        })?;
        Some(GridHit {
            hit: found.1,
            cell: found.2,
        })
    }

    /// Sweeps a box `aabb` moving with `vel` through the grid over `[0, max_t]`: the earliest
    /// time it starts to overlap a solid cell through an exposed face (slab test of
    /// `collide_core::sweep_aabb_aabb`). The normal keeps only the components whose face is
    /// exposed: a corner-to-corner hit on a corner inside a flat run acts as a face hit; a hit
    /// through an internal face only is ignored (the neighbour's exposed face is met first).
    #[must_use]
    pub fn sweep_aabb(&self, aabb: &Aabb, vel: Vec2, max_t: Real) -> Option<GridHit> {
        self.sweep_aabb_between(aabb, vel, 0.0, max_t)
    }

    /// Like [`Grid::sweep_aabb`] for the part `[min_t, max_t]` of the motion only, as
    /// [`Grid::sweep_circle_between`] for circles: the box is known to have met nothing
    /// before `min_t` (the world sweeps a dynamic rectangle from the start of its current
    /// path); a hit computed before `min_t` by rounding is reported at `min_t`.
    #[must_use]
    pub fn sweep_aabb_between(
        &self,
        aabb: &Aabb,
        vel: Vec2,
        min_t: Real,
        max_t: Real,
    ) -> Option<GridHit> {
        self.sweep_aabb_kinds(CellKinds::ALL, aabb, vel, min_t, max_t)
    }

    /// [`Grid::sweep_aabb_between`] for a body colliding with the cell kinds `kinds` only.
    pub(crate) fn sweep_aabb_kinds(
        &self,
        kinds: CellKinds,
        aabb: &Aabb,
        vel: Vec2,
        min_t: Real,
        max_t: Real,
    ) -> Option<GridHit> {
        if kinds.is_none() {
            return None;
        }
        let feats = self.features_of_kinds(kinds);
        let found = self.walk(feats, aabb, vel, min_t, max_t, |col, row, limit| {
            let i = row * self.cols + col;
            let (f, cb) = (feats[i], self.cell_aabb_usize(col, row));
            let hit = match self.cells[i] {
                Cell::Slope(solid) => box_slope_hit(
                    f,
                    solid,
                    sweep_aabb_half_tile(aabb, vel, &HalfTile::new(cb, solid), limit)?,
                )?,
                _ => box_cell_hit(f, sweep_aabb_aabb(aabb, vel, &cb, Vec2::ZERO, limit)?)?,
            };
            let toi = hit.toi.max(min_t);
            Some((toi, SweepHit { toi, ..hit }))
        })?;
        Some(GridHit {
            hit: found.1,
            cell: found.2,
        })
    }

    /// Whether `feature` of cell `c` is currently an obstacle (the cell is solid and the face
    /// exposed or the corner convex). Used to drop predictions made before a brick broke.
    #[must_use]
    pub fn feature_exists(&self, c: CellCoord, feature: Feature) -> bool {
        self.feature_exists_for(c, feature, CellKinds::ALL)
    }

    /// [`Grid::feature_exists`] for a body colliding with the cell kinds `kinds`.
    #[inline]
    pub(crate) fn feature_exists_for(
        &self,
        c: CellCoord,
        feature: Feature,
        kinds: CellKinds,
    ) -> bool {
        let f = self.features_for(c, kinds);
        match feature {
            Feature::Face(face) => f.contains(face.bit()),
            // A corner bit is set exactly when both faces around it are exposed, which is also
            // what a box's corner-to-corner hit needs.
            Feature::Corner(corner) => {
                f.contains(corner.bit())
                    && self.cell(c).slope().is_none_or(|s| corner != s.opposite())
            }
            // A slope's diagonal is an obstacle while the slope is there.
            Feature::Diagonal => self.cell(c).slope().is_some() && !f.is_empty(),
            Feature::Circle => false,
        }
    }
}

/// A box's hit on a cell whose exposed features are `f`, kept on the exposed faces only: a
/// face hit on a hidden face is no hit (the neighbour across it is met instead: no ghost
/// collision at a seam), a corner-to-corner hit keeps the axes whose faces are exposed.
pub(crate) fn box_cell_hit(f: Features, hit: SweepHit) -> Option<SweepHit> {
    let n = hit.normal;
    let keep_x = n.x != 0.0
        && f.contains(if n.x < 0.0 {
            Face::Left.bit()
        } else {
            Face::Right.bit()
        });
    let keep_y = n.y != 0.0
        && f.contains(if n.y < 0.0 {
            Face::Top.bit()
        } else {
            Face::Bottom.bit()
        });
    let (normal, feature) = match (keep_x, keep_y) {
        (true, true) => (n, hit.feature),
        (true, false) => {
            let face = if n.x < 0.0 { Face::Left } else { Face::Right };
            (Vec2::new(n.x.signum(), 0.0), Feature::Face(face))
        }
        (false, true) => {
            let face = if n.y < 0.0 { Face::Top } else { Face::Bottom };
            (Vec2::new(0.0, n.y.signum()), Feature::Face(face))
        }
        (false, false) => return None,
    };
    Some(SweepHit {
        normal,
        feature,
        ..hit
    })
}

/// A box's hit on a slope cell solid at corner `solid` whose features are `f`
/// (`collide_core::sweep_aabb_half_tile`): a hit on the diagonal is kept (always an
/// obstacle); a face hit on a leg when the leg is exposed; a hit on a vertex (the box's face
/// on the end of the diagonal, or corner to corner) when that vertex is a convex corner, and
/// otherwise on the axes whose faces are exposed, as [`box_cell_hit`] (the neighbouring cells'
/// faces around a vertex that is no obstacle are met instead).
pub(crate) fn box_slope_hit(f: Features, solid: Corner, hit: SweepHit) -> Option<SweepHit> {
    match hit.feature {
        Feature::Diagonal => Some(hit),
        Feature::Face(face) if covered_sides(Cell::Slope(solid)) & face.bit().0 != 0 => {
            f.contains(face.bit()).then_some(hit)
        }
        Feature::Corner(v) if v != solid.opposite() && f.contains(v.bit()) => Some(hit),
        _ => box_cell_hit(f, hit),
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
