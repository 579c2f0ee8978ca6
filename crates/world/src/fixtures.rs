//! Test fixtures of the crate's unit tests (`crate::fixtures`): a random grid and the
//! arena benchmark scene, as `collide_scene::random_grid` and `collide_scenes::arena_scene`
//! make them (those crates depend on this one, so its unit tests cannot call them).

use collide_core::{Real, Vec2};

use crate::model::cell::Cell;
use crate::model::desc::{GridDesc, Scene, SpawnDesc, StepConfig, Walls};
use crate::model::filter::Filter;
use crate::model::rng::XorShift64Star;

/// `cols × rows` cells of side `cell` from `origin`: an empty ring, and each interior cell, in
/// row-major order, a wall when its draw from `XorShift64Star::new(seed)` is `< fill`.
pub(crate) fn random_grid(
    cols: usize,
    rows: usize,
    fill: Real,
    seed: u64,
    cell: Real,
    origin: Vec2,
) -> Option<GridDesc> {
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

/// The arena: a closed `[0, 1000]²` world, a 40 × 40 grid of 25-unit cells (fill 0.15, seed
/// 12345: 226 walls) and `balls` balls of radius 2 at `speed` units/s (spawn seed `seed`),
/// ball-ball collisions on.
pub(crate) fn arena_scene(balls: usize, speed: Real, seed: u64) -> Scene {
    Scene {
        name: "arena".to_owned(),
        size: Vec2::splat(1000.0),
        walls: Walls::ALL,
        grid: random_grid(40, 40, 0.15, 12345, 25.0, Vec2::ZERO),
        balls: Vec::new(),
        rects: Vec::new(),
        shapes: Vec::new(),
        flippers: Vec::new(),
        spawn: Some(SpawnDesc {
            count: balls,
            radius: 2.0,
            speed,
            density: 1.0,
            seed,
            region: None,
            surface: crate::Surface::DEFAULT,
        }),
        step: StepConfig {
            ball_ball: true,
            ..StepConfig::default()
        },
    }
}
