//! Fuzz target `scene_parser`: `collide_scene::from_toml_str` on arbitrary bytes (decoded lossily),
//! with a level resolver that returns a fixed small level for `grid.level`, then
//! `World::from_scene` on every accepted scene (spawn counts clamped to 64) and two steps when
//! the world is small.
//!
//! Checked: no panic anywhere (parsing, error formatting, building, stepping); an error names
//! the file and, for content errors, a line inside the text; an accepted scene respects the
//! documented limits.

#![no_main]

use collide_world::limits::{MAX_BALLS, MAX_COORD, MAX_GRID_CELLS, MAX_RECTS};
use collide_world::World;
use libfuzzer_sys::fuzz_target;

const LEVEL: &str = "#####\n#RYG#\n#   #\n";

fn resolver(path: &str) -> Result<String, std::io::Error> {
    if path.ends_with(".dat") {
        Ok(LEVEL.to_owned())
    } else {
        Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            path.to_owned(),
        ))
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let mut scene = match collide_scene::from_toml_str(&text, "fuzz.toml", &resolver) {
        Ok(s) => s,
        Err(e) => {
            let shown = e.to_string();
            assert!(shown.starts_with("fuzz.toml"), "{shown}");
            assert_eq!(e.file(), Some("fuzz.toml"));
            if let Some(line) = e.line() {
                let lines = text.split('\n').count();
                assert!(
                    line >= 1 && line <= lines.max(1),
                    "line {line} of {lines}: {shown}"
                );
            }
            let _ = std::error::Error::source(&e).map(ToString::to_string);
            return;
        }
    };
    // An accepted scene is within the documented limits.
    assert!(scene.size.x > 0.0 && scene.size.y > 0.0 && scene.size.max_element() <= MAX_COORD);
    assert!(scene.rects.len() <= MAX_RECTS);
    let spawned = scene.spawn.map_or(0, |s| s.count);
    assert!(scene.balls.len() + spawned <= MAX_BALLS);
    if let Some(g) = &scene.grid {
        assert_eq!(g.cells.len(), g.cols * g.rows);
        assert!(g.cells.len() <= MAX_GRID_CELLS);
    }

    if let Some(sp) = &mut scene.spawn {
        sp.count = sp.count.min(64);
    }
    let Ok(mut world) = World::from_scene(&scene) else {
        return;
    };
    let cells = world.grid().map_or(0, |g| g.cells().len());
    if world.balls().len() + world.rects().len() <= 128 && cells <= 1 << 16 {
        let mut limited = *world.config();
        limited.max_events_per_body = limited.max_events_per_body.min(64);
        world.set_config(limited).expect("a smaller bound is valid");
        for _ in 0..2 {
            world.step();
        }
        for b in world.balls() {
            assert!(b.pos.is_finite() && b.vel.is_finite(), "{b:?}");
        }
    }
});
