//! Random tile grids ([`random_grid`]): the `[grid.random]` table of the scene format and
//! the arena benchmark's walls.

use collide_world::limits::{MAX_GRID_CELLS, MAX_GRID_SIDE};
use collide_world::rng::XorShift64Star;
use collide_world::{Cell, Filter, GridDesc, Real, Vec2};

/// A random grid of `cols × rows` cells of side `cell` (world units) with its top-left corner
/// at `origin`: the outer ring of cells is empty; every interior cell, in row-major order,
/// draws one [`XorShift64Star::next_f64`] from `XorShift64Star::new(seed)` and is a
/// [`Cell::Wall`] if the draw is `< fill` (ring cells draw nothing).
///
/// `fill <= 0` gives no wall, `fill >= 1` walls everywhere inside the ring, a NaN `fill` no
/// wall. Returns `None` (allocating nothing) when `cols` or `rows` exceeds [`MAX_GRID_SIDE`]
/// or `cols · rows` exceeds [`MAX_GRID_CELLS`].
///
/// ```
/// use collide_scene::random_grid;
/// use collide_world::{Cell, Vec2};
/// let g = random_grid(40, 40, 0.15, 12345, 25.0, Vec2::ZERO).unwrap();
/// assert_eq!(g.cells.iter().filter(|&&c| c == Cell::Wall).count(), 226);
/// ```
#[must_use]
pub fn random_grid(
    cols: usize,
    rows: usize,
    fill: Real,
    seed: u64,
    cell: Real,
    origin: Vec2,
) -> Option<GridDesc> {
    if cols > MAX_GRID_SIDE || rows > MAX_GRID_SIDE || cols.checked_mul(rows)? > MAX_GRID_CELLS {
        return None;
    }
    let mut rng = XorShift64Star::new(seed);
    let mut cells = Vec::with_capacity(cols * rows);
    for r in 0..rows {
        for c in 0..cols {
            let ring = r == 0 || c == 0 || r + 1 == rows || c + 1 == cols;
            let wall = !ring && rng.next_f64() < fill;
            cells.push(if wall { Cell::Wall } else { Cell::Empty });
        }
    }
    Some(GridDesc {
        cell,
        origin,
        cols,
        rows,
        cells,
        wall_restitution: None,
        brick_restitution: None,
        brick_filter: Filter::DEFAULT,
        wall_filter: Filter::DEFAULT,
        sensor_filter: Filter::DEFAULT,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arena_has_226_walls() {
        // 226 is the figure of the spec (40 x 40, fill 0.15, seed 12345). It matches the
        // variant where only interior cells draw; the variant where every cell draws and ring
        // cells are forced empty gives 222 (checked with the Python script of `rng`'s tests).
        let g = random_grid(40, 40, 0.15, 12345, 25.0, Vec2::ZERO).unwrap();
        assert_eq!(g.cells.iter().filter(|&&c| c == Cell::Wall).count(), 226);
        assert!(g.cells.iter().all(|&c| c == Cell::Wall || c == Cell::Empty));
        for i in 0..40 {
            for (r, c) in [(0, i), (39, i), (i, 0), (i, 39)] {
                assert_eq!(g.cells[r * 40 + c], Cell::Empty, "ring cell ({r}, {c})");
            }
        }
        assert_eq!(
            random_grid(10, 10, 0.0, 1, 1.0, Vec2::ZERO).unwrap().cells,
            vec![Cell::Empty; 100]
        );
        let full = random_grid(10, 10, 1.0, 1, 1.0, Vec2::ZERO).unwrap();
        assert_eq!(full.cells.iter().filter(|&&c| c == Cell::Wall).count(), 64); // 8 x 8 interior
        assert!(random_grid(MAX_GRID_SIDE + 1, 1, 0.5, 1, 1.0, Vec2::ZERO).is_none());
        assert!(random_grid(MAX_GRID_SIDE, MAX_GRID_SIDE, 0.5, 1, 1.0, Vec2::ZERO).is_none());
        assert!(random_grid(usize::MAX, usize::MAX, 0.5, 1, 1.0, Vec2::ZERO).is_none());
    }
}
