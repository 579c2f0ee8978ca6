//! Helpers shared by the cross-crate tests in `tests/tests/`: building small worlds and
//! loading the project's copy of the BricksBeater levels. Depends on the library crates only.

use collide_core::Vec2;
use collide_scene::level;
use collide_world::{
    BallDesc, Cell, CellCoord, GridDesc, Scene, StepConfig, Surface, Walls, World,
};

/// Path of the project's copy of BricksBeater level `n` (1..=7).
#[must_use]
pub fn level_path(n: u32) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../scenes/levels/level_{n}.dat"))
}

/// BricksBeater level `n` as a scene with `balls` random balls, walls on all four sides and
/// indestructible bricks (the "Done means" configuration of the foundation issue).
///
/// # Panics
/// If the level file is missing or invalid (a test failure).
#[must_use]
pub fn closed_level(n: u32, balls: usize) -> Scene {
    let text = std::fs::read_to_string(level_path(n)).expect("level file");
    let grid = level::parse_level(&text).expect("level parses");
    let mut scene = level::scene_from_level(&format!("level_{n}"), grid, balls);
    scene.walls = Walls::ALL;
    scene.step.destructible_bricks = false;
    scene
}

/// A world of `size` with four walls, step `dt`, and a `cols × rows` grid of cell side
/// `cell` at the origin whose listed cells are walls.
///
/// # Panics
/// On invalid arguments (a test failure).
#[must_use]
pub fn world_with_cells(
    size: Vec2,
    dt: f64,
    cell: f64,
    cols: usize,
    rows: usize,
    solid: &[(u32, u32)],
) -> World {
    let mut cells = vec![Cell::Empty; cols * rows];
    for &(c, r) in solid {
        cells[r as usize * cols + c as usize] = Cell::Wall;
    }
    let scene = Scene {
        size,
        walls: Walls::ALL,
        grid: Some(GridDesc {
            cell,
            origin: Vec2::ZERO,
            cols,
            rows,
            cells,
            wall_restitution: None,
            brick_restitution: None,
            brick_filter: collide_world::Filter::DEFAULT,
            sensor_filter: collide_world::Filter::DEFAULT,
            wall_filter: collide_world::Filter::DEFAULT,
        }),
        step: StepConfig {
            dt,
            ..StepConfig::default()
        },
        ..Scene::default()
    };
    World::from_scene(&scene).expect("valid scene")
}

/// A ball description.
#[must_use]
pub fn ball(pos: (f64, f64), vel: (f64, f64), radius: f64, density: f64) -> BallDesc {
    BallDesc {
        pos: Vec2::new(pos.0, pos.1),
        vel: Vec2::new(vel.0, vel.1),
        radius,
        density,
        surface: Surface::DEFAULT,
        gravity_scale: 1.0,
    }
}

/// Shorthand for a cell coordinate.
#[must_use]
pub fn cc(col: u32, row: u32) -> CellCoord {
    CellCoord::new(col, row)
}

/// Number of balls whose centre is closer than `radius - 1e-6` to a solid cell of a kind the
/// ball collides with (its layers and mask: `collide_world::Filter`).
#[must_use]
pub fn embedded_count(w: &World) -> usize {
    let Some(g) = w.grid() else { return 0 };
    w.balls()
        .iter()
        .filter(|b| {
            let mut inside = false;
            let reach = collide_world::Aabb::new(b.pos - b.radius, b.pos + b.radius);
            g.for_each_solid_in(&reach, |c, cell| {
                inside |= g.filter_of(cell).is_some_and(|f| b.filter.collides(f))
                    && collide_core::distance_point_aabb(b.pos, &g.cell_aabb(c)) < b.radius - 1e-6;
            });
            inside
        })
        .count()
}

/// The project's README, whose Rust code blocks run as doctests (`cargo test --workspace`), so
/// that the snippet a newcomer copies always compiles and runs.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
struct ReadmeDoctests;

/// The time a resting contact is given before it counts as resting, seconds: 1 ms, as
/// documented for the world's rest and sleep rules (docs/algorithms.md, "Sleep").
pub const REST_TIME: f64 = 1e-3;

/// The speed (units/s) below which a ball under gravity `g` (units/s²) counts as slow for
/// sleep, and the impact speed that wakes a sleeper: `|g|·REST_TIME`, as docs/algorithms.md
/// ("Sleep") states the rule.
pub fn sleep_speed(g: Vec2) -> f64 {
    g.length() * REST_TIME
}

/// How far apart (units) two surfaces may be and still touch for sleeping and waking, under
/// gravity `g`: `|g|·REST_TIME²`, as docs/algorithms.md ("Sleep") states the rule.
pub fn touch_tolerance(g: Vec2) -> f64 {
    g.length() * REST_TIME * REST_TIME
}
