//! # collide-scenes
//!
//! The one set of scenes of collide (house style: tests, benchmarks, the CLI and both frontends
//! share it): every file of the repository's `scenes/` folder embedded with `include_str!`, so
//! that any binary can load them without files on disk, and [`resolve`], which turns a
//! command-line argument (a file path or a built-in name) into a [`Scene`].
//!
//! Built-in scenes ([`names`]):
//! - `level_1` .. `level_7`: the seven BricksBeater levels (51 × 31 cells of 9 units) in the
//!   game's layout: open bottom, an 80 × 6 kinematic paddle, 1000 balls of radius 3 at 144
//!   units/s that do not collide with each other. The levels are MIT-licensed ([`LEVELS_LICENSE`]).
//! - `seed000_room`: a 640 × 480 room with four static boxes, a big fast ball and small ones.
//! - `seed002_billiards`: twelve balls of radius 8–30 and different densities in a box.
//! - `seed003_rects`: dynamic rectangles among static platforms and a kinematic platform.
//! - `arena`: the benchmark, a 1000 × 1000 box with 226 random wall cells and 1000 balls.
//! - `pi`: Galperin's billiard, a ball 10 000 times heavier pushing a light one toward a wall:
//!   exactly 314 collisions.
//!
//! The arena benchmark scene is also generated in code ([`arena_scene`], [`arena_scene_tiled`],
//! [`arena_auto_tiles`]), for benchmarks of any size.
//!
//! This crate depends on `collide-world` and `collide-scene` (the parser) only. It must never
//! depend on a renderer, a window or any frontend: it is data, usable by headless tests and
//! benchmarks.

use std::path::Path;

mod arena;

pub use arena::{
    arena_auto_tiles, arena_scene, arena_scene_tiled, ARENA_BALLS_PER_TILE, ARENA_BALL_RADIUS,
    ARENA_CELL, ARENA_FILL, ARENA_GRID_SEED, ARENA_SIDE, ARENA_SIZE,
};
pub use collide_scene::SceneError;
use collide_world::Scene;

/// One embedded scene file: built-in name, path in the repository, TOML text.
struct Embedded {
    name: &'static str,
    path: &'static str,
    text: &'static str,
}

macro_rules! scene {
    ($name:literal) => {
        Embedded {
            name: $name,
            path: concat!("scenes/", $name, ".toml"),
            text: include_str!(concat!("../../../scenes/", $name, ".toml")),
        }
    };
}

const SCENES: &[Embedded] = &[
    scene!("level_1"),
    scene!("level_2"),
    scene!("level_3"),
    scene!("level_4"),
    scene!("level_5"),
    scene!("level_6"),
    scene!("level_7"),
    scene!("seed000_room"),
    scene!("seed002_billiards"),
    scene!("seed003_rects"),
    scene!("arena"),
    scene!("pi"),
    scene!("plinko"),
    scene!("bounce"),
    scene!("ramps"),
    scene!("pinball"),
];

const NAMES: &[&str] = &[
    "level_1",
    "level_2",
    "level_3",
    "level_4",
    "level_5",
    "level_6",
    "level_7",
    "seed000_room",
    "seed002_billiards",
    "seed003_rects",
    "arena",
    "pi",
    "plinko",
    "bounce",
    "ramps",
    "pinball",
];

macro_rules! level {
    ($n:literal) => {
        (
            concat!("levels/level_", $n, ".dat"),
            include_str!(concat!("../../../scenes/levels/level_", $n, ".dat")),
        )
    };
}

/// The embedded levels: (path relative to `scenes/`, text).
const LEVELS: &[(&str, &str)] = &[
    level!(1),
    level!(2),
    level!(3),
    level!(4),
    level!(5),
    level!(6),
    level!(7),
];

/// The MIT licence of the BricksBeater levels (`scenes/levels/LICENSE`), to show with them.
pub const LEVELS_LICENSE: &str = include_str!("../../../scenes/levels/LICENSE");

/// Where the BricksBeater levels come from (`scenes/levels/README.md`).
pub const LEVELS_README: &str = include_str!("../../../scenes/levels/README.md");

/// The names of the built-in scenes, in a stable order: `level_1` .. `level_7`,
/// `seed000_room`, `seed002_billiards`, `seed003_rects`, `arena`, `pi`, `plinko`, `bounce`,
/// `ramps`, `pinball`.
#[must_use]
pub fn names() -> &'static [&'static str] {
    NAMES
}

/// The TOML text of a built-in scene, or `None` for an unknown name.
#[must_use]
pub fn source(name: &str) -> Option<&'static str> {
    SCENES.iter().find(|s| s.name == name).map(|s| s.text)
}

/// The text of an embedded level by its path relative to `scenes/` (`levels/level_1.dat`;
/// a leading `./` is accepted), or `None`.
#[must_use]
pub fn level_text(path: &str) -> Option<&'static str> {
    let path = path.strip_prefix("./").unwrap_or(path);
    LEVELS.iter().find(|(p, _)| *p == path).map(|(_, t)| *t)
}

/// Loads a built-in scene: `None` for an unknown name, else the parsed scene (its `level`
/// paths resolved among the embedded levels). Errors name the file as `scenes/<name>.toml`.
///
/// ```
/// let scene = collide_scenes::load("level_1").unwrap().unwrap();
/// assert_eq!(scene.grid.unwrap().cols, 51);
/// assert!(collide_scenes::load("nope").is_none());
/// ```
#[must_use]
pub fn load(name: &str) -> Option<Result<Scene, SceneError>> {
    let embedded = SCENES.iter().find(|s| s.name == name)?;
    let resolve = |path: &str| -> Result<String, std::io::Error> {
        level_text(path).map(str::to_owned).ok_or_else(|| {
            let known: Vec<&str> = LEVELS.iter().map(|(p, _)| *p).collect();
            std::io::Error::new(
                std::io::ErrorKind::NotFound,
                format!(
                    "no embedded level `{path}`; embedded levels: {}",
                    known.join(", ")
                ),
            )
        })
    };
    Some(collide_scene::from_toml_str(
        embedded.text,
        embedded.path,
        &resolve,
    ))
}

/// Whether a command-line scene argument names a file rather than a built-in scene: an
/// existing file, or an argument that looks like a path (ends in `.toml` or `.dat`, any case,
/// or contains a path separator). [`resolve`] reads such an argument as a file.
#[must_use]
pub fn is_file_arg(arg: &str) -> bool {
    let path = Path::new(arg);
    path.is_file()
        || path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("toml") || e.eq_ignore_ascii_case("dat"))
        || arg.contains('/')
        || arg.contains(std::path::MAIN_SEPARATOR)
}

/// Turns a command-line argument into a scene:
/// 1. an existing file: a TOML scene, or a bare BricksBeater level if it ends in `.dat`
///    ([`collide_scene::load`]);
/// 2. else, an argument that looks like a path (ends in `.toml` or `.dat`, or contains a path
///    separator): [`collide_scene::load`], which reports the missing file;
/// 3. else a built-in name ([`names`]).
///
/// # Errors
/// The errors of [`collide_scene::load`] for files, and [`SceneError::UnknownScene`] listing the
/// built-in names when the argument is none of these.
pub fn resolve(arg: &str) -> Result<Scene, SceneError> {
    if is_file_arg(arg) {
        return collide_scene::load(Path::new(arg));
    }
    match load(arg) {
        Some(result) => result,
        None => Err(SceneError::UnknownScene {
            name: arg.to_owned(),
            known: NAMES.iter().map(|n| (*n).to_owned()).collect(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use collide_core::{
        aabb_overlaps_aabb, circle_overlaps_aabb, circle_overlaps_circle, Aabb, Vec2,
    };
    use collide_scene::level::{parse_level, scene_from_level};
    use collide_world::{Cell, GridDesc, RectKind};

    fn get(name: &str) -> Scene {
        match load(name) {
            Some(Ok(s)) => s,
            Some(Err(e)) => panic!("{name}: {e}"),
            None => panic!("{name}: not built in"),
        }
    }

    #[test]
    fn names_match_the_embedded_files() {
        let embedded: Vec<&str> = SCENES.iter().map(|s| s.name).collect();
        assert_eq!(embedded, names());
        // Every .toml of scenes/ is embedded (and nothing else is there but levels/).
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenes");
        let mut on_disk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter_map(|f| f.strip_suffix(".toml").map(str::to_owned))
            .collect();
        on_disk.sort();
        let mut want: Vec<String> = names().iter().map(|n| (*n).to_owned()).collect();
        want.sort();
        assert_eq!(on_disk, want);
        let levels_on_disk = std::fs::read_dir(dir.join("levels"))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(".dat")
            })
            .count();
        assert_eq!(levels_on_disk, LEVELS.len());
    }

    #[test]
    fn every_builtin_loads_and_names_itself() {
        for name in names() {
            let s = get(name);
            assert_eq!(s.name, *name);
            assert!(source(name).is_some());
        }
        assert!(load("level_8").is_none());
        assert!(source("level_8").is_none());
    }

    #[test]
    fn builtins_match_files_on_disk() {
        // The embedded text and collide_scene::load of the real file (levels read from disk) agree.
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenes");
        for name in names() {
            let from_disk = collide_scene::load(&dir.join(format!("{name}.toml"))).unwrap();
            assert_eq!(from_disk, get(name), "{name}");
        }
    }

    fn count(g: &GridDesc, f: impl Fn(Cell) -> bool) -> usize {
        g.cells.iter().filter(|&&c| f(c)).count()
    }

    #[test]
    fn level_1_grid() {
        let g = get("level_1").grid.unwrap();
        assert_eq!((g.cols, g.rows, g.cell), (51, 31, 9.0));
        // Counted independently in scenes/levels/level_1.dat:
        //   grep -o '#' level_1.dat | wc -l         -> 247 walls
        //   grep -o '[RYGCBW]' level_1.dat | wc -l  -> 315 bricks
        //   (python collections.Counter: C 101, Y 67, B 36, G 36, W 75, no R)
        assert_eq!(count(&g, |c| c == Cell::Wall), 247);
        assert_eq!(count(&g, |c| matches!(c, Cell::Brick(_))), 315);
        for (ch, n) in [
            (b'C', 101),
            (b'Y', 67),
            (b'B', 36),
            (b'G', 36),
            (b'W', 75),
            (b'R', 0),
        ] {
            assert_eq!(count(&g, |c| c == Cell::Brick(ch)), n, "{}", ch as char);
        }
        assert_eq!(count(&g, |c| c == Cell::Empty), 51 * 31 - 247 - 315);
    }

    #[test]
    fn levels_equal_the_bricksbeater_defaults() {
        for n in 1..=7 {
            let name = format!("level_{n}");
            let text = level_text(&format!("levels/level_{n}.dat")).unwrap();
            let want = scene_from_level(&name, parse_level(text).unwrap(), 1000);
            assert_eq!(get(&name), want, "{name}");
        }
        assert_eq!(
            level_text("./levels/level_3.dat"),
            level_text("levels/level_3.dat")
        );
        assert!(level_text("levels/level_9.dat").is_none());
    }

    #[test]
    fn arena_equals_arena_scene() {
        let a = get("arena");
        assert_eq!(a, arena_scene(1000, 60.0, 1));
        assert_eq!(count(a.grid.as_ref().unwrap(), |c| c == Cell::Wall), 226);
    }

    #[test]
    fn seed_scenes() {
        let room = get("seed000_room");
        assert_eq!(room.size, Vec2::new(640.0, 480.0));
        let boxes: Vec<[f64; 4]> = room
            .rects
            .iter()
            .map(|r| [r.aabb.min.x, r.aabb.min.y, r.aabb.max.x, r.aabb.max.y])
            .collect();
        assert_eq!(
            boxes,
            [
                [86.0, 72.0, 207.0, 177.0],
                [391.0, 37.0, 500.0, 113.0],
                [103.0, 334.0, 229.0, 407.0],
                [304.0, 200.0, 493.0, 339.0]
            ]
        );
        assert!(room.rects.iter().all(|r| r.kind == RectKind::Static));
        // The big ball: radius 20, speed 600.
        assert_eq!(
            (room.balls[0].radius, room.balls[0].vel.length()),
            (20.0, 600.0)
        );

        let b = get("seed002_billiards");
        assert_eq!(b.size, Vec2::new(800.0, 600.0));
        assert!(b.step.ball_ball);
        assert!(b.balls.len() >= 10);
        assert!(b.balls.iter().all(|x| (8.0..=30.0).contains(&x.radius)));
        assert!(
            b.balls.iter().any(|x| x.vel == Vec2::ZERO)
                && b.balls.iter().any(|x| x.vel != Vec2::ZERO)
        );

        let r = get("seed003_rects");
        let kinds = |k| r.rects.iter().filter(|x| x.kind == k).count();
        assert_eq!(
            (kinds(RectKind::Static), kinds(RectKind::Kinematic)),
            (3, 1)
        );
        assert!(kinds(RectKind::Dynamic) >= 3);
        let kin = r
            .rects
            .iter()
            .find(|x| x.kind == RectKind::Kinematic)
            .unwrap();
        // At rest: a game or frontend drives the platform.
        assert_eq!(kin.vel, Vec2::ZERO);
    }

    /// The solid cells of a grid as boxes.
    fn solid_boxes(g: &GridDesc) -> Vec<Aabb> {
        let mut out = Vec::new();
        for r in 0..g.rows {
            for c in 0..g.cols {
                if g.cells[r * g.cols + c].is_solid() {
                    let min = g.origin + Vec2::new(c as f64, r as f64) * g.cell;
                    out.push(Aabb::new(min, min + g.cell));
                }
            }
        }
        out
    }

    #[test]
    fn explicit_bodies_start_apart_and_inside() {
        for name in names() {
            let s = get(name);
            let world = Aabb::new(Vec2::ZERO, s.size);
            let cells = s.grid.as_ref().map(solid_boxes).unwrap_or_default();
            for (i, b) in s.balls.iter().enumerate() {
                assert!(
                    world.contains_aabb(&Aabb::from_center_half_extents(
                        b.pos,
                        Vec2::splat(b.radius)
                    )),
                    "{name}: ball {i}"
                );
                for (j, r) in s.rects.iter().enumerate() {
                    assert!(
                        !circle_overlaps_aabb(b.pos, b.radius, &r.aabb),
                        "{name}: ball {i} in rect {j}"
                    );
                }
                for c in &cells {
                    assert!(
                        !circle_overlaps_aabb(b.pos, b.radius, c),
                        "{name}: ball {i} in a cell"
                    );
                }
                for (j, o) in s.balls[..i].iter().enumerate() {
                    assert!(
                        !circle_overlaps_circle(b.pos, b.radius, o.pos, o.radius),
                        "{name}: balls {j} {i}"
                    );
                }
            }
            for (i, r) in s.rects.iter().enumerate() {
                assert!(world.contains_aabb(&r.aabb), "{name}: rect {i}");
                for (j, o) in s.rects[..i].iter().enumerate() {
                    assert!(
                        !aabb_overlaps_aabb(&r.aabb, &o.aabb),
                        "{name}: rects {j} {i}"
                    );
                }
                for c in &cells {
                    assert!(
                        !aabb_overlaps_aabb(&r.aabb, c),
                        "{name}: rect {i} in a cell"
                    );
                }
            }
            if let (Some(sp), Some(g)) = (s.spawn, s.grid.as_ref()) {
                // The spawn region lies in the world and has free cells.
                let region = sp.region.unwrap_or(world);
                assert!(world.contains_aabb(&region), "{name}");
                assert!(g.cells.iter().any(|c| !c.is_solid()), "{name}");
            }
        }
    }

    #[test]
    fn resolve_names_files_and_unknowns() {
        assert_eq!(resolve("seed000_room").unwrap(), get("seed000_room"));
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scenes");
        let file = dir.join("level_2.toml");
        assert_eq!(resolve(file.to_str().unwrap()).unwrap(), get("level_2"));
        // A bare level file gets the BricksBeater defaults and the file stem as its name.
        let dat = dir.join("levels/level_2.dat");
        assert_eq!(resolve(dat.to_str().unwrap()).unwrap(), get("level_2"));
        // A missing file is an I/O error naming it.
        let e = resolve("no/such/scene.toml").unwrap_err();
        assert!(matches!(e, SceneError::Io { .. }), "{e:?}");
        assert_eq!(e.file(), Some("no/such/scene.toml"));
        // An unknown name lists the built-ins.
        let e = resolve("level_9").unwrap_err();
        let SceneError::UnknownScene { name, known } = &e else {
            panic!("{e:?}")
        };
        assert_eq!(name, "level_9");
        assert_eq!(known.len(), names().len());
        let shown = e.to_string();
        for n in names() {
            assert!(shown.contains(n), "{shown}");
        }
    }

    #[test]
    fn license_is_embedded() {
        assert!(LEVELS_LICENSE.starts_with("MIT License"));
        assert!(LEVELS_LICENSE.contains("Copyright (c) 2023 huidong"));
        assert!(LEVELS_README.contains("BricksBeater"));
    }
}
