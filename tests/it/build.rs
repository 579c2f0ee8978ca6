//! The builders the integration tests share: a world in a closed box, a ball. A test module
//! that needs another world (a grid, open sides, its own restitution) starts from
//! [`config`] and [`world_with`].

use collide_world::{BallDesc, Grid, StepConfig, Vec2, Walls, World};

/// The default settings with step `dt` (seconds) and `gravity` (units/s²).
pub(crate) fn config(dt: f64, gravity: Vec2) -> StepConfig {
    StepConfig {
        dt,
        gravity,
        ..StepConfig::default()
    }
}

/// A world of `size` (world units) with `walls` and `config`.
///
/// # Panics
/// For settings a world refuses: a test's own mistake.
pub(crate) fn world_with(size: Vec2, walls: Walls, config: StepConfig) -> World {
    World::new(size, walls, config).expect("a valid world")
}

/// A world of `size` closed on every side, step `dt`, `gravity`; the other settings default.
pub(crate) fn world(size: Vec2, dt: f64, gravity: Vec2) -> World {
    world_with(size, Walls::ALL, config(dt, gravity))
}

/// A world of `size` closed on every side, step 1/60 s, `gravity` and the world's
/// `restitution`, with a grid of `cell`-unit cells at the origin from level `rows`.
///
/// # Panics
/// For settings or rows a world refuses: a test's own mistake.
pub(crate) fn world_with_rows(
    size: Vec2,
    gravity: Vec2,
    restitution: f64,
    cell: f64,
    rows: &[&str],
) -> World {
    let config = StepConfig {
        restitution,
        ..config(1.0 / 60.0, gravity)
    };
    let mut w = world_with(size, Walls::ALL, config);
    w.set_grid(Grid::from_rows(cell, Vec2::ZERO, rows).expect("valid rows"));
    w
}

/// A grid of `cols` × `rows` cells of `cell` units at the origin whose cell in column `c`,
/// row `r` is a wall where `wall(c, r)` says, else empty; `wall` is asked row by row, left to
/// right (a test drawing random cells gets the same draws in the same order).
///
/// # Panics
/// For a size a grid refuses: a test's own mistake.
pub(crate) fn grid_where(
    cols: usize,
    rows: usize,
    cell: f64,
    mut wall: impl FnMut(usize, usize) -> bool,
) -> Grid {
    let lines: Vec<String> = (0..rows)
        .map(|r| {
            (0..cols)
                .map(|c| if wall(c, r) { '#' } else { ' ' })
                .collect()
        })
        .collect();
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    Grid::from_rows(cell, Vec2::ZERO, &lines).expect("valid rows")
}

/// A ball at `pos` moving at `vel` of `radius`; the other fields default (density 1, the
/// world's restitution, the default filter, gravity scale 1).
pub(crate) fn ball(pos: Vec2, vel: Vec2, radius: f64) -> BallDesc {
    BallDesc {
        pos,
        vel,
        radius,
        ..BallDesc::default()
    }
}
