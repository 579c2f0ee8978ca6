//! Fuzz target `level_parser`: `collide_scene::level::parse_level` on arbitrary bytes.
//!
//! Invalid UTF-8 is decoded lossily, so every input reaches the parser. Checked: no panic; an
//! accepted level has `cols * rows` cells within the limits; the grid written back with
//! `char_from_cell` parses to the same cells; the game's scene around it builds a world (with
//! a few balls) that steps without panicking.

#![no_main]

use collide_scene::level::{char_from_cell, parse_level, scene_from_level};
use collide_world::limits::{MAX_GRID_CELLS, MAX_GRID_SIDE};
use collide_world::World;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let Ok(grid) = parse_level(&text) else {
        return;
    };
    assert!(grid.cols >= 1 && grid.rows >= 1);
    assert!(grid.cols <= MAX_GRID_SIDE && grid.rows <= MAX_GRID_SIDE);
    assert!(grid.cols * grid.rows <= MAX_GRID_CELLS);
    assert_eq!(grid.cells.len(), grid.cols * grid.rows);

    // Round trip through the level characters.
    let mut again = String::with_capacity(grid.cells.len() + grid.rows);
    for row in grid.cells.chunks(grid.cols) {
        again.extend(row.iter().map(|&c| char_from_cell(c)));
        again.push('\n');
    }
    let back = parse_level(&again).expect("a level written back parses");
    assert_eq!((back.cols, back.rows), (grid.cols, grid.rows));
    assert_eq!(back.cells, grid.cells);

    // The game's scene around the level, with a handful of balls, builds and steps.
    if grid.cells.len() <= 1 << 14 {
        let scene = scene_from_level("fuzz", grid, 4);
        if let Ok(mut world) = World::from_scene(&scene) {
            for _ in 0..3 {
                world.step();
            }
            for b in world.balls() {
                assert!(b.pos.is_finite() && b.vel.is_finite(), "{b:?}");
            }
        }
    }
});
