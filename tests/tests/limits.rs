//! The limits that protect the process (`collide_world::limits`, docs/reliability.md): exceeding any of
//! them gives a typed error or a reported event, never a panic, an abort, an out-of-memory or
//! a hang.
//!
//! - "Checked before the memory it guards is allocated" is measured: a counting global
//!   allocator (`stats_alloc`, as in `alloc.rs`) sums the bytes each call asks for. Every test
//!   of this file holds [`SERIAL`] so that the counts are its own.
//! - "Never a hang" is timed: the call runs on a worker thread with a deadline far above its
//!   expected time ([`within`]); a call that overruns fails the test (the worker is left to
//!   finish in the background).
//!
//! | limit | value | tests |
//! |---|---|---|
//! | grid cells | 2^24 | `grid_random_over_the_cell_limit_*`, `grid_desc_over_the_cell_limit_*`, `level_rows_over_*` |
//! | grid side | 2^16 | `grid_random_of_a_million_*`, `level_rows_over_*`, `scene_rows_of_a_million_*` |
//! | balls | 2^22 | `spawn_count_over_*`, `world_refuses_the_ball_*`, `spawn_that_cannot_fit_*` |
//! | rects | 2^16 | `scene_with_more_rects_*`, `world_refuses_the_rect_*` |
//! | file size | 16 MiB | `oversized_*`, `endless_input_*` |
//! | events per body per step | 1..=2^16 | `max_events_per_body_*`, `a_body_past_the_event_bound_*` |
//! | coordinates | ±1e9 | `coordinates_beyond_*` |

use collide_world::Contact;
use collide_world::Target;
use std::alloc::System;
use std::path::PathBuf;
use std::sync::{mpsc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use collide_core::{Aabb, Vec2};
use collide_scene::level::{parse_level, parse_rows, LevelError};
use collide_scene::{random_grid, SceneError, MAX_LEVEL_BYTES, MAX_SCENE_BYTES};
use collide_tests::ball;
use collide_world::limits::{
    MAX_BALLS, MAX_EVENTS_PER_BODY, MAX_GRID_CELLS, MAX_GRID_SIDE, MAX_RECTS,
};
use collide_world::{
    Body, Cell, Event, GridDesc, RectDesc, Scene, SpawnDesc, StepConfig, Surface, Walls, World,
    WorldError,
};
use collide_world::{Grid, GridError};
use stats_alloc::{Region, StatsAlloc, INSTRUMENTED_SYSTEM};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// Held by every test of this file: allocation counts are global to the process.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> MutexGuard<'static, ()> {
    SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

const MIB: usize = 1 << 20;

/// Runs `f` and returns its result with the number of bytes it asked the allocator for: the
/// least of three runs, since the counts are global to the process and the test harness's
/// own thread allocates now and then (reporting a finished test) while a test measures.
fn measured<T>(f: impl Fn() -> T) -> (T, usize) {
    let mut least = usize::MAX;
    let mut out = None;
    for _ in 0..3 {
        let region = Region::new(GLOBAL);
        let o = f();
        let s = region.change();
        let bytes = s.bytes_allocated + usize::try_from(s.bytes_reallocated).unwrap_or(0);
        least = least.min(bytes);
        out = Some(o);
    }
    (out.expect("three runs"), least)
}

/// Runs `f` on a worker thread; `None` if it has not returned after `secs` seconds.
fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs)).ok()
}

fn no_levels(path: &str) -> Result<String, std::io::Error> {
    Err(std::io::Error::new(
        std::io::ErrorKind::NotFound,
        path.to_owned(),
    ))
}

fn parse(text: &str) -> Result<Scene, SceneError> {
    collide_scene::from_toml_str(text, "limits.toml", &no_levels)
}

/// The field of a `SceneError::Field`, or a description of the unexpected result.
fn field_error(r: &Result<Scene, SceneError>) -> String {
    match r {
        Err(SceneError::Field { field, .. }) => field.clone(),
        Err(e) => format!("not a field error: {e}"),
        Ok(_) => "accepted".to_owned(),
    }
}

/// A fresh empty directory under the system's temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("collide-limits-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

// ---------------------------------------------------------------------------------------------
// Grid cells and grid side

#[test]
fn grid_random_of_a_million_by_a_million_cells_is_refused_before_allocating() {
    let _s = serial();
    let text = "[world]\nsize = [100, 100]\n[grid]\ncell = 1\n\
                [grid.random]\ncols = 1000000\nrows = 1000000\nfill = 0.5\n";
    let (r, bytes) = measured(|| parse(text));
    assert_eq!(field_error(&r), "grid.random.cols");
    assert!(bytes < MIB, "{bytes} bytes allocated");
    assert_eq!(r.unwrap_err().line(), Some(6));
}

#[test]
fn grid_random_over_the_cell_limit_is_refused_before_allocating() {
    let _s = serial();
    // Each side within 2^16, the product over 2^24.
    for (cols, rows) in [(65_536, 257), (4097, 4097), (65_536, 65_536)] {
        let text = format!(
            "[world]\nsize = [100, 100]\n[grid]\ncell = 1\n\
             [grid.random]\ncols = {cols}\nrows = {rows}\nfill = 0.5\n"
        );
        let (r, bytes) = measured(|| parse(&text));
        assert_eq!(field_error(&r), "grid.random.rows", "{cols} x {rows}");
        assert!(bytes < MIB, "{cols} x {rows}: {bytes} bytes allocated");
    }
    // The generator itself refuses, allocating nothing; the limit itself is allowed.
    let (g, bytes) = measured(|| random_grid(65_537, 1, 0.5, 1, 1.0, Vec2::ZERO));
    assert!(g.is_none() && bytes == 0, "{bytes}");
    let (g, bytes) = measured(|| random_grid(4097, 4096, 0.5, 1, 1.0, Vec2::ZERO));
    assert!(g.is_none() && bytes == 0, "{bytes}");
    let g = random_grid(4096, 4096, 0.0, 1, 1.0, Vec2::ZERO).expect("2^24 cells are allowed");
    assert_eq!(g.cells.len(), MAX_GRID_CELLS);
}

#[test]
fn grid_desc_over_the_cell_limit_is_refused_before_allocating() {
    let _s = serial();
    let desc = |cols, rows| GridDesc {
        cell: 1.0,
        origin: Vec2::ZERO,
        cols,
        rows,
        cells: Vec::new(),
        wall_restitution: None,
        brick_restitution: None,
        brick_filter: collide_world::Filter::DEFAULT,
        sensor_filter: collide_world::Filter::DEFAULT,
        wall_filter: collide_world::Filter::DEFAULT,
    };
    // cols * rows overflows usize: still a typed error.
    for (cols, rows) in [(usize::MAX, 2), (1 << 20, 1 << 20), (MAX_GRID_CELLS + 1, 1)] {
        let (r, bytes) = measured(|| Grid::new(&desc(cols, rows)));
        assert!(
            matches!(r, Err(GridError::TooLarge { .. })),
            "{cols} x {rows}: {r:?}"
        );
        assert!(bytes < MIB, "{bytes}");
        let (r, bytes) = measured(|| Grid::empty(1.0, Vec2::ZERO, cols, rows));
        assert!(matches!(r, Err(GridError::TooLarge { .. })), "{r:?}");
        assert!(bytes < MIB, "{bytes}");
    }
    let scene = Scene {
        grid: Some(desc(1 << 20, 1 << 20)),
        ..Scene::default()
    };
    let (r, bytes) = measured(|| World::from_scene(&scene));
    assert!(
        matches!(r, Err(WorldError::Grid(GridError::TooLarge { .. }))),
        "{:?}",
        r.err()
    );
    assert!(bytes < MIB, "{bytes}");
}

#[test]
fn level_rows_over_the_side_and_cell_limits_are_refused() {
    let _s = serial();
    // One row of 2^16 + 1 cells.
    let wide = "#".repeat(MAX_GRID_SIDE + 1);
    assert_eq!(
        parse_rows([wide.as_str()]),
        Err(LevelError::TooWide {
            line: 1,
            found: MAX_GRID_SIDE + 1,
            max: MAX_GRID_SIDE
        })
    );
    // 2^16 + 1 rows of one cell (a 131 KB level file).
    let tall = "#\n".repeat(MAX_GRID_SIDE + 1);
    assert_eq!(
        parse_level(&tall),
        Err(LevelError::TooManyRows {
            line: MAX_GRID_SIDE + 1,
            max: MAX_GRID_SIDE
        })
    );
    // 257 rows of 2^16 cells: 2^24 + 2^16 cells, refused at row 257.
    let row = "#".repeat(MAX_GRID_SIDE);
    let (r, bytes) = measured(|| parse_rows(vec![row.as_str(); 257]));
    assert_eq!(
        r,
        Err(LevelError::TooManyCells {
            line: 257,
            max: MAX_GRID_CELLS
        })
    );
    // Cells are kept only up to the limit (2 bytes each, with the vector's doubling).
    assert!(bytes < 4 * MAX_GRID_CELLS * 2, "{bytes}");
}

#[test]
fn scene_rows_of_a_million_cells_are_refused() {
    let _s = serial();
    let text = format!(
        "[world]\nsize = [100, 100]\n[grid]\ncell = 1\nrows = [\"{}\"]\n",
        "#".repeat(1_000_000)
    );
    match parse(&text) {
        Err(SceneError::Level {
            field,
            line,
            source,
            ..
        }) => {
            assert_eq!((field.as_str(), line), ("grid.rows[0]", 5));
            assert!(
                matches!(source, LevelError::TooWide { line: 1, .. }),
                "{source}"
            );
        }
        other => panic!("expected a level error, got {other:?}"),
    }
}

// ---------------------------------------------------------------------------------------------
// Balls

#[test]
fn spawn_count_over_the_ball_limit_is_refused_before_allocating() {
    let _s = serial();
    let spawn = |count: usize, explicit: usize| {
        let mut t = String::from("[world]\nsize = [100, 100]\n");
        for _ in 0..explicit {
            t.push_str("[[ball]]\npos = [50, 50]\nradius = 1\n");
        }
        t.push_str(&format!(
            "[spawn]\ncount = {count}\nradius = 1\nspeed = 1\n"
        ));
        t
    };
    let (r, bytes) = measured(|| parse(&spawn(MAX_BALLS + 1, 0)));
    assert_eq!(field_error(&r), "spawn.count");
    assert!(bytes < MIB, "{bytes}");
    // Explicit balls count too.
    assert_eq!(field_error(&parse(&spawn(MAX_BALLS - 1, 2))), "spawn.count");
    assert!(parse(&spawn(MAX_BALLS - 2, 2)).is_ok());
    // A count far beyond any memory: the same typed error.
    assert_eq!(
        field_error(&parse(&spawn(i64::MAX as usize, 0))),
        "spawn.count"
    );
    // The world checks again when built from a Scene made in code.
    let scene = Scene {
        spawn: Some(SpawnDesc {
            count: MAX_BALLS + 1,
            radius: 1.0,
            speed: 1.0,
            density: 1.0,
            seed: 1,
            region: None,
            surface: Surface::DEFAULT,
        }),
        ..Scene::default()
    };
    let (r, bytes) = measured(|| World::from_scene(&scene));
    assert!(
        matches!(r, Err(WorldError::TooMany { what: "balls", .. })),
        "{:?}",
        r.err()
    );
    assert!(bytes < MIB, "{bytes}");
}

#[test]
fn world_refuses_the_ball_past_the_limit() {
    let _s = serial();
    let mut w = World::new(Vec2::splat(1e6), Walls::NONE, StepConfig::default()).unwrap();
    for k in 0..MAX_BALLS {
        let p = Vec2::new((k % 1000) as f64, (k / 1000) as f64);
        w.add_ball(ball((p.x, p.y), (0.0, 0.0), 0.0, 1.0))
            .expect("within the limit");
    }
    assert_eq!(
        w.add_ball(ball((0.5, 0.5), (0.0, 0.0), 0.0, 1.0)),
        Err(WorldError::TooMany {
            what: "balls",
            count: MAX_BALLS + 1,
            max: MAX_BALLS
        })
    );
    assert_eq!(w.balls().len(), MAX_BALLS);
}

/// Finding L1 of `docs/reliability.md`, in `World::spawn` (world.rs), which gives up after
/// 200 000 failures in a row. Random placement gave up only after `1000 · count + 10 000` attempts:
/// when the region holds far fewer balls than asked (13 balls of radius 10 fit in a
/// 100 × 100 world), a count within the limit made loading the scene take minutes before
/// `SpawnImpossible` (100 000 balls: 19 s; 2^22: ~13 min).
#[test]
fn spawn_that_cannot_fit_fails_in_bounded_time() {
    let _s = serial();
    let scene = Scene {
        size: Vec2::new(100.0, 100.0),
        spawn: Some(SpawnDesc {
            count: MAX_BALLS,
            radius: 10.0,
            speed: 1.0,
            density: 1.0,
            seed: 1,
            region: None,
            surface: Surface::DEFAULT,
        }),
        ..Scene::default()
    };
    let started = Instant::now();
    let r = within(20, move || {
        World::from_scene(&scene).map(|w| w.balls().len())
    });
    match r {
        Some(Err(WorldError::SpawnImpossible { placed, .. })) => assert!(placed > 0),
        Some(other) => panic!("expected SpawnImpossible, got {other:?}"),
        None => panic!(
            "spawning {MAX_BALLS} balls that cannot fit did not fail within {:?}",
            started.elapsed()
        ),
    }
}

/// Finding L2 of `docs/reliability.md`, in `World::spawn` (world.rs), whose bucket grid is
/// sized by the count. The spawn's no-overlap hash grid had cells of side `2r` (at least 1e-6) over the
/// spawn region, capped at 4096 × 4096: a single ball of radius 0 in a large world allocated
/// 4096² empty vectors, 384 MiB, to place one ball.
#[test]
fn spawn_of_one_point_ball_in_a_huge_world_allocates_little() {
    let _s = serial();
    let scene = Scene {
        size: Vec2::splat(1e9),
        spawn: Some(SpawnDesc {
            count: 1,
            radius: 0.0,
            speed: 1.0,
            density: 1.0,
            seed: 1,
            region: None,
            surface: Surface::DEFAULT,
        }),
        ..Scene::default()
    };
    let (r, bytes) = measured(|| World::from_scene(&scene).map(|w| w.balls().len()));
    assert_eq!(r, Ok(1));
    assert!(
        bytes < 64 * MIB,
        "{} MiB allocated for one ball",
        bytes / MIB
    );
}

// ---------------------------------------------------------------------------------------------
// Rects

#[test]
fn scene_with_more_rects_than_the_limit_is_refused() {
    let _s = serial();
    let mut text = String::from("[world]\nsize = [100, 100]\n");
    for _ in 0..=MAX_RECTS {
        text.push_str("[[rect]]\nmin = [0, 0]\nmax = [1, 1]\n");
    }
    assert!(text.len() < MAX_SCENE_BYTES as usize);
    let r = parse(&text);
    assert_eq!(field_error(&r), format!("rect[{MAX_RECTS}]"));
    // The error names the line of the first rect over the limit.
    assert_eq!(r.unwrap_err().line(), Some(3 + 3 * MAX_RECTS));
}

#[test]
fn world_refuses_the_rect_past_the_limit() {
    let _s = serial();
    let mut w = World::new(Vec2::splat(1e6), Walls::ALL, StepConfig::default()).unwrap();
    let r = |k: usize| RectDesc {
        aabb: Aabb::new(Vec2::splat(k as f64), Vec2::splat(k as f64 + 0.5)),
        ..RectDesc::default()
    };
    for k in 0..MAX_RECTS {
        w.add_rect(r(k)).expect("within the limit");
    }
    assert_eq!(
        w.add_rect(r(0)),
        Err(WorldError::TooMany {
            what: "rects",
            count: MAX_RECTS + 1,
            max: MAX_RECTS
        })
    );
}

// ---------------------------------------------------------------------------------------------
// File size

#[test]
fn oversized_texts_are_refused() {
    let _s = serial();
    let big = " ".repeat(MAX_SCENE_BYTES as usize + 1);
    let (r, bytes) = measured(|| parse(&big));
    assert!(
        matches!(r, Err(SceneError::TooLarge { len, .. }) if len == MAX_SCENE_BYTES + 1),
        "{:?}",
        r.err()
    );
    assert!(bytes < MIB, "{bytes}");
    let big = " ".repeat(MAX_LEVEL_BYTES as usize + 1);
    assert_eq!(
        parse_level(&big),
        Err(LevelError::TooLarge {
            len: MAX_LEVEL_BYTES + 1,
            max: MAX_LEVEL_BYTES
        })
    );
    // A level given by a resolver is held to the level limit.
    let huge = |_: &str| Ok(" ".repeat(MAX_LEVEL_BYTES as usize + 1));
    let r = collide_scene::from_toml_str(
        "[world]\nsize = [9, 9]\n[grid]\ncell = 9\nlevel = \"x.dat\"\n",
        "limits.toml",
        &huge,
    );
    assert!(
        matches!(
            &r,
            Err(SceneError::Level {
                source: LevelError::TooLarge { .. },
                ..
            })
        ),
        "{:?}",
        r.err()
    );
}

#[test]
fn oversized_files_are_refused_before_reading() {
    let _s = serial();
    let dir = temp_dir("files");
    // Sparse files one byte over the limits: reading them would allocate 16 MiB.
    let over = |name: &str, len: u64| {
        let p = dir.join(name);
        std::fs::File::create(&p)
            .and_then(|f| f.set_len(len))
            .expect("sparse file");
        p
    };
    let scene = over("big.toml", MAX_SCENE_BYTES + 1);
    let (r, bytes) = measured(|| collide_scene::load(&scene));
    assert!(
        matches!(r, Err(SceneError::TooLarge { len, max, .. })
            if len == MAX_SCENE_BYTES + 1 && max == MAX_SCENE_BYTES),
        "{:?}",
        r.err()
    );
    assert!(bytes < MIB, "{bytes} bytes: the file was read");
    let level = over("big.dat", MAX_LEVEL_BYTES + 1);
    let (r, bytes) = measured(|| collide_scene::load(&level));
    assert!(
        matches!(r, Err(SceneError::TooLarge { .. })),
        "{:?}",
        r.err()
    );
    assert!(bytes < MIB, "{bytes}");
    // A scene naming an oversized level file.
    let with_level = dir.join("with_level.toml");
    std::fs::write(
        &with_level,
        "[world]\nsize = [9, 9]\n[grid]\ncell = 9\nlevel = \"big.dat\"\n",
    )
    .unwrap();
    let (r, bytes) = measured(|| collide_scene::load(&with_level));
    match r {
        Err(SceneError::LevelIo { field, source, .. }) => {
            assert_eq!(field, "grid.level");
            assert!(
                source.to_string().contains("more than the limit"),
                "{source}"
            );
        }
        other => panic!("expected LevelIo, got {other:?}"),
    }
    assert!(bytes < MIB, "{bytes}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A file whose size is unknown in advance (a device, a pipe) is read only up to the limit.
#[cfg(unix)]
#[test]
fn endless_input_is_read_only_up_to_the_limit() {
    let _s = serial();
    let zero = std::path::Path::new("/dev/zero");
    if !zero.exists() {
        return;
    }
    let r = within(60, move || measured(|| collide_scene::load(zero)));
    let (r, bytes) = r.expect("reading /dev/zero did not stop");
    assert!(
        matches!(r, Err(SceneError::TooLarge { len, .. }) if len == MAX_SCENE_BYTES + 1),
        "{:?}",
        r.err()
    );
    // Reading 16 MiB + 1 bytes into a growing buffer asks for 4 × 16 MiB in all (the
    // doublings); what matters is that it stops.
    assert!(bytes < 5 * MAX_SCENE_BYTES as usize, "{bytes}");
}

// ---------------------------------------------------------------------------------------------
// Events per body per step

#[test]
fn max_events_per_body_outside_its_range_is_refused() {
    let _s = serial();
    for n in [
        0u64,
        u64::from(MAX_EVENTS_PER_BODY) + 1,
        u64::from(u32::MAX) + 1,
    ] {
        let text = format!("[world]\nsize = [10, 10]\n[step]\nmax_events_per_body = {n}\n");
        assert_eq!(
            field_error(&parse(&text)),
            "step.max_events_per_body",
            "{n}"
        );
    }
    let text =
        format!("[world]\nsize = [10, 10]\n[step]\nmax_events_per_body = {MAX_EVENTS_PER_BODY}\n");
    assert!(parse(&text).is_ok());
    for n in [0, MAX_EVENTS_PER_BODY + 1] {
        let config = StepConfig {
            max_events_per_body: n,
            ..StepConfig::default()
        };
        assert!(matches!(
            World::new(Vec2::splat(10.0), Walls::ALL, config),
            Err(WorldError::BadSetting {
                field: "step.max_events_per_body",
                ..
            })
        ));
        let mut w = World::new(Vec2::splat(10.0), Walls::ALL, StepConfig::default()).unwrap();
        assert!(w.set_config(config).is_err());
        assert_eq!(w.config().max_events_per_body, 256);
    }
}

/// A ball of radius 1 in a gap of 2 + 1e-6 between two static rectangles at 10^6 units/s
/// would bounce ~10^10 times per step: past its own bound it borrows the step's pool
/// (`StepConfig::event_pool`), then stops with an `IterationLimit` event, and the step
/// returns (in well under a second even at the largest bound, 2^16).
#[test]
fn a_body_past_the_event_bound_is_stopped_and_reported() {
    let _s = serial();
    for bound in [1, 256, MAX_EVENTS_PER_BODY] {
        let r = within(30, move || {
            let config = StepConfig {
                max_events_per_body: bound,
                ..StepConfig::default()
            };
            let mut w = World::new(Vec2::splat(100.0), Walls::ALL, config).unwrap();
            for (x0, x1) in [(40.0, 49.0), (51.000001, 60.0)] {
                w.add_rect(RectDesc {
                    aabb: Aabb::new(Vec2::new(x0, 0.0), Vec2::new(x1, 100.0)),
                    ..RectDesc::default()
                })
                .unwrap();
            }
            let id = w
                .add_ball(ball((50.0, 50.0), (1e6, 0.0), 1.0, 1.0))
                .unwrap();
            let mut stops = 0;
            for _ in 0..3 {
                let events = w.step();
                let bounces = events
                    .iter()
                    .filter(|e| {
                        matches!(
                            e,
                            Event::Contact(Contact {
                                body: Body::Ball(_),
                                other: Target::Rect(_),
                                ..
                            })
                        )
                    })
                    .count();
                let limit = events
                    .iter()
                    .filter(|e| matches!(e, Event::IterationLimit { body: Body::Ball(b), .. } if *b == id))
                    .count();
                // Its own bound, plus the pool (it is the only body).
                let most = bound as usize + config.event_pool() as usize;
                assert!(bounces <= most, "{bounces} bounces, at most {most}");
                assert!(bounces + 1 >= most, "{bounces} bounces: the pool was lent");
                stops += limit;
                let b = w.ball(id).unwrap();
                assert!(
                    b.pos.x >= 50.0 - 1e-9 && b.pos.x <= 50.000001 + 1e-9,
                    "{b:?}"
                );
            }
            stops
        });
        let stops = r.unwrap_or_else(|| panic!("bound {bound}: the steps did not return"));
        assert_eq!(stops, 3, "bound {bound}: one IterationLimit per step");
    }
}

// ---------------------------------------------------------------------------------------------
// Coordinates

#[test]
fn coordinates_beyond_the_limit_are_refused() {
    let _s = serial();
    for (text, field) in [
        ("[world]\nsize = [2e9, 10]\n", "world.size"),
        (
            "[world]\nsize = [10, 10]\n[[ball]]\npos = [5, -1.5e9]\nradius = 1\n",
            "ball[0].pos",
        ),
        (
            "[world]\nsize = [10, 10]\n[[ball]]\npos = [5, 5]\nvel = [1e10, 0]\nradius = 1\n",
            "ball[0].vel",
        ),
        (
            "[world]\nsize = [10, 10]\n[[ball]]\npos = [5, 5]\nradius = inf\n",
            "ball[0].radius",
        ),
        ("[world]\nsize = [10, 10]\n[step]\ndt = 1e10\n", "step.dt"),
    ] {
        assert_eq!(field_error(&parse(text)), field, "{text}");
    }
}

// ---------------------------------------------------------------------------------------------
// Work per step

/// Finding F5 of `docs/reliability.md`, found by fuzzing (`fuzz/`, target `step`, a timeout),
/// in grid.rs (the sweep's walk), whose chunks are at least the shape's size (0.1 s for the
/// step below). A sweep cut the
/// motion into chunks of one cell and scanned the cells under each chunk's box, so a ball much
/// larger than the cells cost
/// `(path + 2r) / cell` chunks times up to `(2r / cell)²` cells: a ball of radius 50
/// crossing a 2000 × 2000 grid of 0.0005-unit cells (legal: 4·10^6 cells, sizes within the
/// limits) took 56 s for one step (1000 × 1000 cells of 0.001: 3.5 s).
#[test]
fn step_with_a_large_ball_over_a_fine_grid_finishes_in_bounded_time() {
    let _s = serial();
    let n = 2000;
    let mut cells = vec![Cell::Empty; n * n];
    cells[n * n / 2 + n / 2] = Cell::Wall;
    let scene = Scene {
        size: Vec2::splat(1000.0),
        grid: Some(GridDesc {
            cell: 0.0005,
            origin: Vec2::splat(500.0),
            cols: n,
            rows: n,
            cells,
            wall_restitution: None,
            brick_restitution: None,
            brick_filter: collide_world::Filter::DEFAULT,
            sensor_filter: collide_world::Filter::DEFAULT,
            wall_filter: collide_world::Filter::DEFAULT,
        }),
        ..Scene::default()
    };
    let started = Instant::now();
    let r = within(10, move || {
        let mut w = World::from_scene(&scene).unwrap();
        w.add_ball(ball((200.0, 500.0), (60_000.0, 1.0), 50.0, 1.0))
            .unwrap();
        w.step();
        w.balls().get(0).expect("a ball").pos
    });
    let pos = r.unwrap_or_else(|| panic!("one step did not finish within {:?}", started.elapsed()));
    assert!(pos.is_finite());
}

// ---------------------------------------------------------------------------------------------
// Memory of parsing, level files a scene may read, ids

/// A valid scene of `balls` explicit balls and `rects` rectangles, as a person would write it.
fn big_scene(balls: usize, rects: usize) -> String {
    let mut s = String::from("[world]\nsize = [100000.0, 100000.0]\n\n");
    for i in 0..balls {
        let (x, y) = (10.0 + (i % 300) as f64 * 7.0, 10.0 + (i / 300) as f64 * 7.0);
        s.push_str(&format!(
            "[[ball]]\npos = [{x:?}, {y:?}]\nvel = [120.5, -30.25]\nradius = 3.0\n\n"
        ));
    }
    for i in 0..rects {
        let x = 5000.0 + (i as f64) * 20.0;
        s.push_str(&format!(
            "[[rect]]\nmin = [{x:?}, 5000.0]\nmax = [{:?}, 5010.0]\nkind = \"kinematic\"\nvel = [1.0, 0.0]\n\n",
            x + 10.0
        ));
    }
    s
}

/// Parsing a large valid scene asks the allocator for a bounded multiple of the text's size,
/// in total over the parse: about 115 times for a scene of balls (the `toml` crate's tree of
/// each piece, built and dropped in turn, and the typed tables). What it holds at once is a
/// small multiple (`parse_memory.rs`).
#[test]
fn parsing_a_large_scene_allocates_a_small_multiple_of_its_size() {
    let _s = serial();
    for (balls, rects) in [(20_000, 0), (5_000, 5_000)] {
        let text = big_scene(balls, rects);
        let (scene, bytes) = measured(|| parse(&text));
        let scene = scene.unwrap();
        assert_eq!((scene.balls.len(), scene.rects.len()), (balls, rects));
        let ratio = bytes as f64 / text.len() as f64;
        println!(
            "{balls} balls, {rects} rects: {} bytes of text, {bytes} bytes allocated in all ({ratio:.1}x)",
            text.len()
        );
        // The bound is the measured figure with a margin (a regression guard, not a goal):
        // most of it is the TOML document tree (`toml` keeps every value with its span).
        assert!(ratio < 128.0, "{ratio:.1}x the text's size");
    }
    // The worst text found for the `toml` crate: 16 MiB of line endings (its lexer alone asked
    // for 1.2 GB in all). Collapsed before parsing, it costs about 16 bytes per byte in all.
    // A regression guard at the measured figure with a margin.
    let text = "\n".repeat(MAX_SCENE_BYTES as usize);
    let (r, bytes) = measured(|| parse(&text));
    assert!(r.is_err());
    println!("16 MiB of line endings: {bytes} bytes allocated in all");
    assert!(
        bytes < 32 * MAX_SCENE_BYTES as usize,
        "{bytes} bytes for a text of empty lines"
    );
    // A level of line endings allocates nothing per line (no list of lines).
    let (r, bytes) = measured(|| parse_level(&text));
    assert!(matches!(r, Err(LevelError::Empty)), "{r:?}");
    assert!(bytes < MIB, "{bytes} bytes for a level of empty lines");
    let cr = "\r".repeat(MAX_SCENE_BYTES as usize);
    let (r, bytes) = measured(|| parse_level(&cr));
    assert!(matches!(r, Err(LevelError::Empty)), "{r:?}");
    assert!(bytes < MIB, "{bytes} bytes for a level of CRs");
}

/// A scene whose `grid.level` names `level`, in `dir`.
fn scene_naming(dir: &std::path::Path, level: &str) -> PathBuf {
    let path = dir.join("s.toml");
    std::fs::write(
        &path,
        format!("[world]\nsize = [90.0, 90.0]\n[grid]\ncell = 9.0\nlevel = \"{level}\"\n"),
    )
    .unwrap();
    path
}

/// The message of a `SceneError::LevelIo` (with its source), or what came instead.
fn level_io(r: Result<Scene, SceneError>) -> String {
    match r {
        Err(e @ SceneError::LevelIo { .. }) => {
            assert_eq!((e.line(), e.field()), (Some(5), Some("grid.level")));
            let source = std::error::Error::source(&e).map(ToString::to_string);
            format!("{e}: {}", source.unwrap_or_default())
        }
        Err(e) => format!("another error: {e}"),
        Ok(_) => "accepted".to_owned(),
    }
}

#[test]
fn a_scene_reads_only_regular_level_files_below_its_folder() {
    use collide_scene::LevelFiles;
    let _s = serial();
    let dir = temp_dir("level-files");
    let inner = dir.join("scene");
    std::fs::create_dir_all(inner.join("levels")).unwrap();
    std::fs::write(inner.join("levels/ok.dat"), "#R#\n").unwrap();
    std::fs::write(dir.join("outside.dat"), "#R#\n").unwrap();

    // Below the folder: read.
    let s = collide_scene::load(&scene_naming(&inner, "levels/ok.dat")).unwrap();
    assert_eq!(s.grid.unwrap().cols, 3);
    // Outside it, by `..` or an absolute path: refused, naming the file, unless allowed.
    let e = level_io(collide_scene::load(&scene_naming(&inner, "../outside.dat")));
    assert!(e.contains("outside the scene's folder"), "{e}");
    let abs = dir.join("outside.dat").display().to_string();
    let e = level_io(collide_scene::load(&scene_naming(&inner, &abs)));
    assert!(e.contains("outside the scene's folder"), "{e}");
    let s = collide_scene::load_with(
        &scene_naming(&inner, "../outside.dat"),
        LevelFiles::Anywhere,
    );
    assert_eq!(s.unwrap().grid.unwrap().cols, 3);

    // /dev/stdin and a device: refused at once, even when allowed anywhere (they could block
    // or never end).
    for dev in ["/dev/stdin", "/dev/zero"] {
        if !std::path::Path::new(dev).exists() {
            continue;
        }
        let path = scene_naming(&inner, dev);
        let r = within(10, move || {
            level_io(collide_scene::load_with(&path, LevelFiles::Anywhere))
        });
        let e = r.unwrap_or_else(|| panic!("reading {dev} as a level blocked"));
        assert!(e.contains("not a regular file"), "{dev}: {e}");
    }
    // A symbolic link inside the folder to a device: resolved, refused.
    #[cfg(unix)]
    {
        let link = inner.join("levels/stdin.dat");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink("/dev/stdin", &link).unwrap();
        let path = scene_naming(&inner, "levels/stdin.dat");
        let e = within(10, move || level_io(collide_scene::load(&path)))
            .expect("a link to /dev/stdin blocked");
        assert!(
            e.contains("outside the scene's folder") || e.contains("not a regular file"),
            "{e}"
        );
    }
    // A FIFO in the folder: refused before it is opened (opening it would wait for a writer).
    let fifo = inner.join("levels/fifo.dat");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|s| s.success());
    if made {
        let path = scene_naming(&inner, "levels/fifo.dat");
        let e = within(10, move || level_io(collide_scene::load(&path)))
            .expect("reading a FIFO blocked");
        assert!(e.contains("not a regular file"), "{e}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Ids never repeat within a world's life: 200 000 balls and rectangles added and removed in
/// turn through a few slots; every id issued is new. (The generation's last value retires its
/// slot instead of wrapping: `crates/world/src/model/ids.rs`' unit test.)
#[test]
fn ids_never_repeat_through_many_reuses() {
    let _s = serial();
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    let mut seen = std::collections::HashSet::new();
    let mut live = Vec::new();
    for i in 0..200_000u32 {
        let id = w
            .add_ball(ball((50.0, 50.0), (0.0, 0.0), 1.0, 1.0))
            .unwrap();
        assert!(seen.insert(id.to_bits()), "ball id {id} issued twice");
        live.push(id);
        if live.len() > 3 {
            let old = live.remove((i as usize * 7) % live.len());
            assert!(w.remove_ball(old).is_some());
            assert!(w.ball(old).is_none(), "a removed id still finds a ball");
        }
    }
    assert!(seen.len() == 200_000 && w.balls().len() <= 4);
    let mut rects = std::collections::HashSet::new();
    for _ in 0..50_000 {
        let id = w
            .add_rect(RectDesc {
                aabb: Aabb::new(Vec2::new(1.0, 1.0), Vec2::new(2.0, 2.0)),
                ..RectDesc::default()
            })
            .unwrap();
        assert!(rects.insert(id.to_bits()), "rect id {id} issued twice");
        w.remove_rect(id);
    }
}
