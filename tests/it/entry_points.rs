//! Every entry point bounded: the world's constructor and setters refuse what the scene format
//! refuses (one set of checks, `collide_world::limits::Bound`), naming the field, and accept
//! nothing that could make a later step produce a NaN or run without end.
//!
//! - `each_setter_refuses_huge_and_non_finite_values_naming_the_field`: for each setter and
//!   each field, 1e200, 1e155 (whose square overflows), ±`f64::MAX`, ±1e9 just past the
//!   limit, infinities and NaN are refused with that field's name, and the world is unchanged.
//! - `the_world_and_the_scene_format_accept_the_same_values`: values at and past every bound,
//!   given both to a scene text and to the setter: accepted by both or refused by both.
//! - `random_values_at_every_setter` (proptest, fixed seed): the fuzz target `setters`'s logic
//!   (`fuzz/fuzz_targets/setters_input.rs`) on random inputs, each on a worker thread with a
//!   deadline: no panic, accepted exactly when the bounds accept, refused naming the field,
//!   every ball and rectangle finite after every step, every step ends.

use std::sync::mpsc;
use std::time::Duration;

use collide_core::{Aabb, Vec2};

use collide_world::{BallDesc, RectDesc, RectKind, StepConfig, Surface, Walls, World, WorldError};
use proptest::prelude::*;

#[path = "../../fuzz/fuzz_targets/setters_input.rs"]
mod setters_input;

/// Values every bound refuses.
const HUGE: [f64; 9] = [
    1e200,
    1e155,
    -1e155,
    f64::MAX,
    -f64::MAX,
    1.000_000_000_000_000_2e9,
    f64::INFINITY,
    f64::NEG_INFINITY,
    f64::NAN,
];

fn field(e: &WorldError) -> &'static str {
    match e {
        WorldError::BadBall { field, .. }
        | WorldError::BadRect { field, .. }
        | WorldError::BadSetting { field, .. } => field,
        other => panic!("not a field error: {other}"),
    }
}

fn world() -> World {
    World::new(Vec2::new(640.0, 480.0), Walls::ALL, StepConfig::default()).unwrap()
}

fn ball() -> BallDesc {
    BallDesc {
        pos: Vec2::new(100.0, 100.0),
        vel: Vec2::new(30.0, -20.0),
        radius: 3.0,
        density: 1.0,
        surface: Surface::DEFAULT,
        gravity_scale: 1.0,
    }
}

fn rect(kind: RectKind) -> RectDesc {
    RectDesc {
        aabb: Aabb::new(Vec2::new(200.0, 200.0), Vec2::new(260.0, 210.0)),
        vel: Vec2::ZERO,
        kind,
        density: 1.0,
        surface: Surface::DEFAULT,
    }
}

#[test]
fn each_setter_refuses_huge_and_non_finite_values_naming_the_field() {
    for v in HUGE {
        let both = |f: &dyn Fn(Vec2) -> Result<(), WorldError>, name: &str| {
            for p in [Vec2::new(v, 1.0), Vec2::new(1.0, v)] {
                let e = f(p).expect_err(&format!("{name} accepted {p}"));
                assert_eq!(field(&e), name, "{v}: {e}");
                assert!(e.to_string().contains("expected"), "{e}");
            }
        };
        // World::new: the size and every step setting.
        both(
            &|s| World::new(s, Walls::ALL, StepConfig::default()).map(|_| ()),
            "world.size",
        );
        let cfg = |c: StepConfig| World::new(Vec2::new(10.0, 10.0), Walls::ALL, c).map(|_| ());
        let e = cfg(StepConfig {
            dt: v,
            ..StepConfig::default()
        })
        .unwrap_err();
        assert_eq!(field(&e), "step.dt");
        let e = cfg(StepConfig {
            restitution: v,
            ..StepConfig::default()
        })
        .unwrap_err();
        assert_eq!(field(&e), "step.restitution");

        // set_config: refused, the old settings kept.
        let mut w = world();
        let e = w
            .set_config(StepConfig {
                dt: v,
                ..StepConfig::default()
            })
            .unwrap_err();
        assert_eq!(field(&e), "step.dt");
        assert_eq!(w.config().dt, StepConfig::default().dt);

        // add_ball: every field.
        both(
            &|p| world().add_ball(BallDesc { pos: p, ..ball() }).map(|_| ()),
            "pos",
        );
        both(
            &|p| world().add_ball(BallDesc { vel: p, ..ball() }).map(|_| ()),
            "vel",
        );
        for (name, d) in [
            (
                "radius",
                BallDesc {
                    radius: v,
                    ..ball()
                },
            ),
            (
                "density",
                BallDesc {
                    density: v,
                    ..ball()
                },
            ),
        ] {
            let mut w = world();
            let e = w.add_ball(d).unwrap_err();
            assert_eq!(field(&e), name, "{v}: {e}");
            assert_eq!(w.balls().len(), 0);
        }

        // set_ball_velocity, set_ball_position: refused, the ball unchanged.
        let mut w = world();
        let id = w.add_ball(ball()).unwrap();
        let before = w.ball(id).unwrap();
        for p in [Vec2::new(v, 1.0), Vec2::new(1.0, v)] {
            assert_eq!(field(&w.set_ball_velocity(id, p).unwrap_err()), "vel");
            assert_eq!(field(&w.set_ball_position(id, p).unwrap_err()), "pos");
        }
        assert_eq!(w.ball(id).unwrap(), before);

        // add_rect: corners, velocity, density.
        for kind in [RectKind::Static, RectKind::Kinematic, RectKind::Dynamic] {
            let r = rect(kind);
            both(
                &|p| {
                    world()
                        .add_rect(RectDesc {
                            aabb: Aabb::new(p, r.aabb.max),
                            ..r
                        })
                        .map(|_| ())
                },
                "min",
            );
            both(
                &|p| {
                    world()
                        .add_rect(RectDesc {
                            aabb: Aabb::new(r.aabb.min, p),
                            ..r
                        })
                        .map(|_| ())
                },
                "max",
            );
            both(
                &|p| world().add_rect(RectDesc { vel: p, ..r }).map(|_| ()),
                "vel",
            );
            let e = world().add_rect(RectDesc { density: v, ..r }).unwrap_err();
            assert_eq!(field(&e), "density");
        }

        // set_rect_velocity, set_rect_aabb: refused, the rectangle unchanged.
        let mut w = world();
        let id = w.add_rect(rect(RectKind::Kinematic)).unwrap();
        let before = *w.rect(id).unwrap();
        for p in [Vec2::new(v, 1.0), Vec2::new(1.0, v)] {
            assert_eq!(field(&w.set_rect_velocity(id, p).unwrap_err()), "vel");
            let e = w
                .set_rect_aabb(id, Aabb::new(p, Vec2::splat(1e9)))
                .unwrap_err();
            assert_eq!(field(&e), "min", "{p}");
            let e = w
                .set_rect_aabb(id, Aabb::new(Vec2::splat(-1e9), p))
                .unwrap_err();
            assert_eq!(field(&e), "max", "{p}");
        }
        assert_eq!(*w.rect(id).unwrap(), before);
    }
}

/// A scene text with one ball of velocity `[v, 0]` and radius `r`, `dt` and a rect corner.
fn scene_text(vel: f64, radius: f64, dt: f64, corner: f64) -> String {
    format!(
        "[world]\nsize = [640.0, 480.0]\n[[ball]]\npos = [100.0, 100.0]\nvel = [{vel:?}, 0.0]\n\
         radius = {radius:?}\n[[rect]]\nmin = [{corner:?}, 0.0]\nmax = [1e9, 1.0]\n\
         [step]\ndt = {dt:?}\n"
    )
}

#[test]
fn the_world_and_the_scene_format_accept_the_same_values() {
    let no_levels =
        |_: &str| -> Result<String, std::io::Error> { Err(std::io::ErrorKind::NotFound.into()) };
    let edges = [
        0.0,
        -0.0,
        5e-324,
        1.0,
        1e9,
        -1e9,
        1e9 - 1e-7,
        1.000_000_000_000_000_2e9,
        -1.000_000_000_000_000_2e9,
        1e155,
        1e200,
        f64::MAX,
    ];
    for v in edges {
        // TOML has no NaN literal in the form {:?} prints; non-finite values are covered
        // above and in the scene tests.
        let vel_ok_scene =
            collide_scene::from_toml_str(&scene_text(v, 3.0, 0.01, 0.0), "t.toml", &no_levels)
                .is_ok();
        let vel_ok_world = world()
            .add_ball(BallDesc {
                vel: Vec2::new(v, 0.0),
                ..ball()
            })
            .is_ok();
        assert_eq!(vel_ok_scene, vel_ok_world, "vel {v:e}");
        let mut w = world();
        let id = w.add_ball(ball()).unwrap();
        assert_eq!(
            w.set_ball_velocity(id, Vec2::new(v, 0.0)).is_ok(),
            vel_ok_world,
            "vel {v:e}"
        );

        let r_scene =
            collide_scene::from_toml_str(&scene_text(1.0, v, 0.01, 0.0), "t.toml", &no_levels)
                .is_ok();
        let r_world = world()
            .add_ball(BallDesc {
                radius: v,
                ..ball()
            })
            .is_ok();
        assert_eq!(r_scene, r_world, "radius {v:e}");

        let dt_scene =
            collide_scene::from_toml_str(&scene_text(1.0, 3.0, v, 0.0), "t.toml", &no_levels)
                .is_ok();
        let dt_world = world()
            .set_config(StepConfig {
                dt: v,
                ..StepConfig::default()
            })
            .is_ok();
        assert_eq!(dt_scene, dt_world, "dt {v:e}");

        let c_scene =
            collide_scene::from_toml_str(&scene_text(1.0, 3.0, 0.01, v), "t.toml", &no_levels)
                .is_ok();
        let c_world = world()
            .add_rect(RectDesc {
                aabb: Aabb::new(Vec2::new(v, 0.0), Vec2::new(1e9, 1.0)),
                ..rect(RectKind::Static)
            })
            .is_ok();
        assert_eq!(c_scene, c_world, "rect min {v:e}");
    }
}

#[test]
fn accepted_extremes_step_to_finite_states() {
    // The largest values accepted everywhere at once: a world 1e9 wide, balls at 1e9
    // units/s with radii up to 1e9, dt = 1e9, the event bound at its limit.
    let mut w = World::new(
        Vec2::splat(1e9),
        Walls::ALL,
        StepConfig {
            dt: 1e9,
            max_events_per_body: collide_world::limits::MAX_EVENTS_PER_BODY,
            ..StepConfig::default()
        },
    )
    .unwrap();
    for (i, r) in [0.0, 1.0, 1e9].into_iter().enumerate() {
        w.add_ball(BallDesc {
            pos: Vec2::new(1e8 * (i as f64 + 1.0), 5e8),
            vel: Vec2::new(1e9, -1e9),
            radius: r,
            density: 1e9,
            surface: Surface::DEFAULT,
            gravity_scale: 1.0,
        })
        .unwrap();
    }
    let id = w.add_rect(rect(RectKind::Kinematic)).unwrap();
    w.set_rect_velocity(id, Vec2::splat(-1e9)).unwrap();
    let done = within(60, move || {
        for _ in 0..3 {
            w.step();
            for b in w.balls() {
                assert!(b.pos.is_finite() && b.vel.is_finite(), "{b:?}");
            }
        }
    });
    assert!(done.is_some(), "three steps did not end within 60 s");
}

/// Runs `f` on a worker thread; `None` if it has not finished after `secs` seconds (the
/// worker is left to finish in the background) and panics again if it panicked.
fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> Option<T> {
    let (tx, rx) = mpsc::channel();
    let worker = std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(Duration::from_secs(secs)) {
        Ok(v) => Some(v),
        Err(mpsc::RecvTimeoutError::Timeout) => None,
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            if let Err(p) = worker.join() {
                std::panic::resume_unwind(p);
            }
            None
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1024,
        rng_seed: proptest::test_runner::RngSeed::Fixed(7),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_values_at_every_setter(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let input = bytes.clone();
        let done = within(30, move || setters_input::run(&input));
        prop_assert!(done.is_some(), "the input did not finish within 30 s: {:?}", bytes);
    }
}

/// `Grid::new` (and so `World::set_grid` and `Grid::from_rows`) takes the scene format's
/// bounds: a cell side in (0, 1e9], an origin within ±1e9.
#[test]
fn grids_built_in_code_take_the_scene_bounds() {
    use collide_world::{Grid, GridError};
    for cell in [
        0.0,
        -1.0,
        1e200,
        f64::MAX,
        f64::NAN,
        f64::INFINITY,
        1e9 * (1.0 + 1e-15),
    ] {
        assert!(
            matches!(
                Grid::from_rows(cell, Vec2::ZERO, &["#"]),
                Err(GridError::BadCellSize(_))
            ),
            "cell {cell}"
        );
    }
    for origin in [
        Vec2::new(1e200, 0.0),
        Vec2::new(0.0, -2e9),
        Vec2::new(f64::NAN, 0.0),
    ] {
        assert!(
            matches!(
                Grid::from_rows(1.0, origin, &["#"]),
                Err(GridError::BadOrigin(..))
            ),
            "origin {origin}"
        );
    }
    // The largest accepted values build.
    assert!(Grid::from_rows(1e9, Vec2::splat(-1e9), &["#"]).is_ok());
    assert!(Grid::from_rows(1e-300, Vec2::splat(1e9), &["#"]).is_ok());
}
