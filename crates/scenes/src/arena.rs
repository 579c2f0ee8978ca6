//! The *arena*, the benchmark scene: a closed 1000 × 1000 box with randomly placed wall tiles
//! and any number of balls, and its tiled repetition for larger counts.

use collide_scene::random_grid;
use collide_world::{GridDesc, Real, Scene, SpawnDesc, StepConfig, Surface, Vec2, Walls};

/// Side of the arena world, world units: 1000 (the world is `[0, 1000]²`).
pub const ARENA_SIZE: Real = 1000.0;
/// Cell side of the arena grid, world units: 25.
pub const ARENA_CELL: Real = 25.0;
/// Columns and rows of the arena grid: 40 (40 · 25 = 1000).
pub const ARENA_SIDE: usize = 40;
/// Probability that an interior cell of the arena is a wall: 0.15.
pub const ARENA_FILL: Real = 0.15;
/// Seed of the arena grid: 12345 (226 walls).
pub const ARENA_GRID_SEED: u64 = 12345;
/// Radius of the arena's balls, world units: 2.
pub const ARENA_BALL_RADIUS: Real = 2.0;

/// The arena benchmark scene: a closed `[0, 1000]²` world ([`Walls::ALL`]) holding a 40 × 40
/// grid of 25-unit cells at the origin made by
/// [`random_grid`]`(40, 40, 0.15, 12345, 25.0, (0, 0))` (226 walls), and a spawn of `balls`
/// balls of radius 2, speed `speed` (units/s), density 1 and spawn seed `seed`, anywhere in
/// the world. Balls collide with each other; dt 1/60 s, restitution 1. Named `arena`.
///
/// `scenes/arena.toml` is `arena_scene(1000, 60.0, 1)`.
#[must_use]
pub fn arena_scene(balls: usize, speed: Real, seed: u64) -> Scene {
    // 40 x 40 is far below the limits, so `random_grid` cannot refuse it.
    let grid = random_grid(
        ARENA_SIDE,
        ARENA_SIDE,
        ARENA_FILL,
        ARENA_GRID_SEED,
        ARENA_CELL,
        Vec2::ZERO,
    );
    Scene {
        name: "arena".to_owned(),
        size: Vec2::splat(ARENA_SIZE),
        walls: Walls::ALL,
        grid,
        balls: Vec::new(),
        rects: Vec::new(),
        shapes: Vec::new(),
        flippers: Vec::new(),
        spawn: Some(SpawnDesc {
            count: balls,
            radius: ARENA_BALL_RADIUS,
            speed,
            density: 1.0,
            seed,
            region: None,
            surface: Surface::DEFAULT,
        }),
        step: StepConfig {
            ball_ball: true,
            ..StepConfig::default()
        },
    }
}

/// Balls per `[0, 1000]²` arena when a benchmark tiles the arena automatically
/// ([`arena_auto_tiles`]): the densest configuration of docs/performance.md (10 000 balls in
/// one arena). One arena cannot hold 100 000 balls of radius 2 (random placement jams near 36 000).
pub const ARENA_BALLS_PER_TILE: usize = 10_000;

/// How many arenas side by side hold `balls` at the density of [`ARENA_BALLS_PER_TILE`]:
/// `k = ceil(balls / ARENA_BALLS_PER_TILE)` arenas (at least 1) as `(across, down)` with
/// `across · down = k` and `across >= down`, as square as possible (100 000 balls: `(5, 2)`).
/// The layout of `collide bench --tiles auto` and of the rapier2d comparison.
#[must_use]
pub fn arena_auto_tiles(balls: usize) -> (usize, usize) {
    let k = balls.div_ceil(ARENA_BALLS_PER_TILE).max(1);
    let mut down = 1;
    let mut d = 1;
    while d * d <= k {
        if k % d == 0 {
            down = d;
        }
        d += 1;
    }
    (k / down, down)
}

/// [`arena_scene`]`(balls, speed, seed)` with its 40 × 40 grid repeated `across × down` times:
/// world `1000·across × 1000·down`, four walls, the same 226 wall cells in every tile, the
/// balls spread over the whole world. `(1, 1)` is `arena_scene` itself. Used for ball counts
/// that cannot fit one arena (100 000 balls of radius 2 cover more than 1000²: random
/// placement jams near 36 000).
#[must_use]
pub fn arena_scene_tiled(
    balls: usize,
    speed: Real,
    seed: u64,
    across: usize,
    down: usize,
) -> Scene {
    let mut scene = arena_scene(balls, speed, seed);
    let (across, down) = (across.max(1), down.max(1));
    if (across, down) == (1, 1) {
        return scene;
    }
    if let Some(g) = scene.grid.take() {
        let cols = g.cols * across;
        let rows = g.rows * down;
        let mut cells = Vec::with_capacity(cols * rows);
        for r in 0..rows {
            for c in 0..cols {
                cells.push(g.cells[(r % g.rows) * g.cols + c % g.cols]);
            }
        }
        scene.grid = Some(GridDesc {
            cols,
            rows,
            cells,
            ..g
        });
    }
    scene.size = Vec2::new(ARENA_SIZE * across as Real, ARENA_SIZE * down as Real);
    scene.name = format!("arena {across}x{down}");
    scene
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_levels(path: &str) -> Result<String, std::io::Error> {
        Err(std::io::Error::other(format!("no level `{path}` here")))
    }

    #[test]
    fn arena_scene_matches_its_toml() {
        let text =
            "[world]\nsize = [1000, 1000]\nwalls = [\"left\", \"top\", \"right\", \"bottom\"]\n\
                    [grid]\ncell = 25\norigin = [0, 0]\n\
                    [grid.random]\ncols = 40\nrows = 40\nfill = 0.15\nseed = 12345\n\
                    [spawn]\ncount = 1000\nradius = 2\nspeed = 60\nseed = 1\ndensity = 1\n\
                    [step]\ndt = 0.016666666666666666\nball_ball = true\n";
        let s = collide_scene::from_toml_str(text, "arena.toml", &no_levels).unwrap();
        assert_eq!(s, arena_scene(1000, 60.0, 1));
        let a = arena_scene(5, 10.0, 9);
        assert_eq!(a.size, Vec2::new(1000.0, 1000.0));
        let sp = a.spawn.unwrap();
        assert_eq!(
            (sp.count, sp.radius, sp.speed, sp.seed, sp.region),
            (5, 2.0, 10.0, 9, None)
        );
    }
}
