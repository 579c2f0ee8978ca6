//! Loading a level file: a BricksBeater `.dat` level or a TOML scene, with the error naming
//! the file, line and field when the file is wrong.
//!
//! Run: `cargo run --release --example load_level -- scenes/levels/level_3.dat`
//! (default: `scenes/levels/level_1.dat`; any file of `scenes/` works).
use collide_world::{Event, World};
use std::path::PathBuf;

fn main() {
    let path = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "scenes/levels/level_1.dat".to_owned()),
    );
    // A `.dat` level becomes the game's scene: 9-unit cells, walls left, top and right,
    // an open bottom, a paddle and 1000 balls at 144 units/s.
    let scene = match collide_scene::load(&path) {
        Ok(scene) => scene,
        Err(e) => {
            // For example: "scenes/bad.toml:3: field `world.size`: must be finite and > 0".
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    };
    let mut world = match World::from_scene(&scene) {
        Ok(world) => world,
        Err(e) => {
            eprintln!("error: {}: {e}", path.display());
            std::process::exit(1);
        }
    };
    let grid = world.grid().map(|g| (g.cols(), g.rows(), g.bricks_left()));
    println!(
        "{}: {} × {} world, grid {:?} (columns, rows, bricks), {} balls",
        scene.name,
        scene.size.x,
        scene.size.y,
        grid,
        world.balls().len()
    );
    // One simulated second.
    let (mut bricks, mut lost) = (0, 0);
    for _ in 0..60 {
        for event in world.step() {
            match event {
                Event::BrickDestroyed { .. } => bricks += 1,
                Event::BallLost { .. } => lost += 1,
                _ => {}
            }
        }
    }
    println!(
        "after {:.2} s: {bricks} bricks destroyed, {lost} balls lost, {} balls left",
        world.time(),
        world.balls().len()
    );
}
