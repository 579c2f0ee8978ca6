//! The checks of an accepted map level shared by the `tiled_map` and `ldtk_map` targets.

use collide_maps::{MapLevel, ObjectBody};
use collide_world::limits::{MAX_GRID_CELLS, MAX_GRID_SIDE};
use collide_world::{SpawnDesc, Surface, World};

/// Panics when the level breaks one of the loader's promises.
pub fn check_level(level: &MapLevel) {
    let s = &level.scene;
    if let Some(g) = &s.grid {
        assert!(g.cols >= 1 && g.rows >= 1 && g.cols <= MAX_GRID_SIDE && g.rows <= MAX_GRID_SIDE);
        assert!(g.cols * g.rows <= MAX_GRID_CELLS);
        assert_eq!(g.cells.len(), g.cols * g.rows);
    }
    for o in &level.objects {
        match &o.body {
            ObjectBody::Rects(r) => assert!(r.iter().all(|&i| i < s.rects.len())),
            ObjectBody::Shapes { start, count } => assert!(start + count <= s.shapes.len()),
            ObjectBody::None | ObjectBody::Point => {}
        }
    }
    assert!(level.one_way.iter().all(|&i| i < s.rects.len()));
    let cells = s.grid.as_ref().map_or(0, |g| g.cells.len());
    if cells > 1 << 16 || s.rects.len() + s.shapes.len() > 256 {
        return;
    }
    let mut scene = s.clone();
    scene.spawn = Some(SpawnDesc {
        count: 4,
        radius: 2.0,
        speed: 0.0,
        density: 1.0,
        seed: 1,
        region: None,
        surface: Surface::DEFAULT,
    });
    // A scene outside the world's limits is a typed error, not a panic.
    let Ok(mut world) = World::from_scene(&scene) else {
        return;
    };
    for _ in 0..2 {
        world.step();
    }
    for b in world.balls().iter() {
        assert!(b.pos.is_finite() && b.vel.is_finite());
    }
}
