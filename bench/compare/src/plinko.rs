//! The plinko board of the comparison: `scenes/plinko.toml`'s layout scaled to hold N balls.
//!
//! `scenes/plinko.toml` is a 60 × 80 grid of 8-unit cells (480 × 640 units, four closed
//! walls): an empty band at the top where the balls are spawned, single-cell pegs in staggered
//! rows every 4 cells (6 cells apart in a row, each row shifted by 3), then an empty gap and
//! bins whose dividers are one cell wide, 6 cells apart, at the bottom. [`Board::for_balls`]
//! builds the same layout on a grid of `6m × 8m` cells, every vertical length scaled by
//! `m / 10` (`m = 10` is the shipped board, cell for cell), choosing the smallest `m >= 10`
//! whose spawn band holds N balls of radius 2 at a packing fraction of at most 0.2 (the
//! shipped scene spawns its 300 balls of radius 2.5 at 0.2). Gravity `[0, 981]` (y down),
//! restitution 1 everywhere, ball-ball collisions on, dt 1/60 s, balls of density 1 spawned
//! without overlap by the scene's `[spawn]` machinery at 40 units/s in random directions.

use collide_core::Vec2;
use collide_world::{Aabb, Cell, GridDesc, Scene, SpawnDesc, StepConfig, Surface, Walls};

/// Side of a cell, world units (as `scenes/plinko.toml`).
pub const CELL: f64 = 8.0;
/// Radius of every ball.
pub const BALL_RADIUS: f64 = 2.0;
/// Gravity, units/s² (y grows downward): 100 units per metre.
pub const GRAVITY: Vec2 = Vec2::new(0.0, 981.0);
/// Largest fraction of the spawn band's area the balls may cover.
pub const MAX_PACKING: f64 = 0.2;
/// Smallest board: `scenes/plinko.toml`'s.
const MIN_PERIODS: usize = 10;

/// The layout of a board of `periods` peg periods across.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    /// Peg periods (and bins) across: the board is `6 × periods` cells wide.
    pub periods: usize,
}

/// Area of a box.
#[must_use]
pub fn area(b: Aabb) -> f64 {
    let s = b.size();
    s.x * s.y
}

/// `ceil(a · m / 10)`: a vertical length of the shipped board (`m = 10`) scaled to `m`.
fn scaled(a: usize, m: usize) -> usize {
    (a * m).div_ceil(10)
}

impl Board {
    /// The smallest board (at least the shipped one) whose spawn band holds `balls` balls of
    /// radius [`BALL_RADIUS`] at a packing fraction of at most [`MAX_PACKING`].
    #[must_use]
    pub fn for_balls(balls: usize) -> Board {
        let need = balls as f64 * std::f64::consts::PI * BALL_RADIUS * BALL_RADIUS / MAX_PACKING;
        let mut b = Board {
            periods: MIN_PERIODS,
        };
        while area(b.band()) < need {
            b.periods += 1;
        }
        b
    }

    /// Columns of the grid.
    #[must_use]
    pub fn cols(self) -> usize {
        6 * self.periods
    }

    /// Rows of the grid.
    #[must_use]
    pub fn rows(self) -> usize {
        8 * self.periods
    }

    /// The first peg row: 12 on the shipped board, scaled and kept a multiple of 4.
    fn first_peg_row(self) -> usize {
        4 * scaled(3, self.periods)
    }

    /// Rows of bin dividers at the bottom: 16 on the shipped board.
    fn bin_rows(self) -> usize {
        scaled(16, self.periods)
    }

    /// The last row a peg may be on: 8 rows above the bins on the shipped board.
    fn last_peg_row(self) -> usize {
        self.rows() - self.bin_rows() - scaled(8, self.periods)
    }

    /// The world's size, world units.
    #[must_use]
    pub fn size(self) -> Vec2 {
        Vec2::new(self.cols() as f64 * CELL, self.rows() as f64 * CELL)
    }

    /// The spawn band: 5 cells in from the sides, from row 1 down to 2 rows above the first
    /// peg row (`[40, 8, 440, 80]` on the 60 × 80 board; the shipped scene's own band is wider).
    #[must_use]
    pub fn band(self) -> Aabb {
        Aabb::new(
            Vec2::new(5.0 * CELL, CELL),
            Vec2::new(
                (self.cols() - 5) as f64 * CELL,
                (self.first_peg_row() - 2) as f64 * CELL,
            ),
        )
    }

    /// Number of peg rows.
    #[must_use]
    pub fn peg_rows(self) -> usize {
        (self.last_peg_row() - self.first_peg_row()) / 4 + 1
    }

    /// The grid, row-major, row 0 at the top: pegs on rows `first + 4j` at columns `3 + 6i`
    /// (even j) or `6 + 6i` up to `cols - 6` (odd j); bin dividers on the bottom rows at
    /// columns `6i` and `cols - 1`.
    #[must_use]
    pub fn cells(self) -> Vec<Cell> {
        let (cols, rows) = (self.cols(), self.rows());
        let mut cells = vec![Cell::Empty; cols * rows];
        for j in 0..self.peg_rows() {
            let row = self.first_peg_row() + 4 * j;
            let pegs: Vec<usize> = if j % 2 == 0 {
                (3..cols).step_by(6).collect()
            } else {
                (6..=cols - 6).step_by(6).collect()
            };
            for col in pegs {
                cells[row * cols + col] = Cell::Wall;
            }
        }
        for row in rows - self.bin_rows()..rows {
            for col in (0..cols).step_by(6).chain([cols - 1]) {
                cells[row * cols + col] = Cell::Wall;
            }
        }
        cells
    }

    /// Solid cells of the grid.
    #[must_use]
    pub fn solid_cells(self) -> usize {
        self.cells().iter().filter(|c| c.is_solid()).count()
    }

    /// The scene: the board, four closed walls, gravity, restitution 1, `balls` balls spawned
    /// in the band at `speed` units/s in random directions (spawn seed `seed`).
    #[must_use]
    pub fn scene(self, balls: usize, speed: f64, seed: u64) -> Scene {
        Scene {
            name: "plinko board".to_owned(),
            size: self.size(),
            walls: Walls::ALL,
            grid: Some(GridDesc {
                cell: CELL,
                origin: Vec2::ZERO,
                cols: self.cols(),
                rows: self.rows(),
                cells: self.cells(),
                wall_restitution: None,
                brick_restitution: None,
                brick_filter: collide_world::Filter::DEFAULT,
                sensor_filter: collide_world::Filter::DEFAULT,
                wall_filter: collide_world::Filter::DEFAULT,
            }),
            balls: Vec::new(),
            rects: Vec::new(),
            shapes: Vec::new(),
            flippers: Vec::new(),
            spawn: Some(SpawnDesc {
                count: balls,
                radius: BALL_RADIUS,
                speed,
                density: 1.0,
                seed,
                region: Some(self.band()),
                surface: Surface::DEFAULT,
            }),
            step: StepConfig {
                gravity: GRAVITY,
                restitution: 1.0,
                ball_ball: true,
                ..StepConfig::default()
            },
        }
    }

    /// `cols × rows cells (W × H units)`, for the docs.
    #[must_use]
    pub fn describe(self) -> String {
        let s = self.size();
        format!(
            "{} × {} cells ({} × {} units)",
            self.cols(),
            self.rows(),
            s.x,
            s.y
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide_world::World;

    #[test]
    fn the_smallest_board_is_the_shipped_one() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scenes/plinko.toml");
        let text = std::fs::read_to_string(path).unwrap();
        let shipped = collide_scene::from_toml_str(&text, path, &|_| unreachable!()).unwrap();
        let b = Board::for_balls(300);
        assert_eq!(b.periods, 10);
        let ours = b.scene(300, 40.0, 7);
        assert_eq!(ours.size, shipped.size);
        assert_eq!(ours.walls, shipped.walls);
        assert_eq!(ours.grid, shipped.grid);
        assert_eq!(ours.step, shipped.step);
        // The spawn band is the comparison's own (the shipped scene drops its balls over the
        // whole width above the pegs).
        assert_eq!(ours.spawn.unwrap().region, Some(b.band()));
    }

    #[test]
    fn ten_thousand_balls_fit_in_the_band() {
        let b = Board::for_balls(10_000);
        let packing = 10_000.0 * std::f64::consts::PI * 4.0 / area(b.band());
        assert!(packing <= MAX_PACKING, "{packing}");
        let smaller = Board {
            periods: b.periods - 1,
        };
        assert!(10_000.0 * std::f64::consts::PI * 4.0 / area(smaller.band()) > MAX_PACKING);
        let world = World::from_scene(&b.scene(10_000, 40.0, 1)).unwrap();
        assert_eq!(world.balls().len(), 10_000);
        let band = b.band();
        assert!(world
            .balls()
            .iter()
            .all(|x| { x.pos.cmpge(band.min).all() && x.pos.cmple(band.max).all() }));
    }
}
