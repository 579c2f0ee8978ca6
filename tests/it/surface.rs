//! One [`Surface`] on every description: a static sensor rectangle reports the same exact
//! times as a kinematic one at rest and stays static through a snapshot; the sensor flag and
//! a character's restitution are refused, with the field named, where they mean nothing; a
//! surface's restitution and filter act the same whichever description carries them.

use collide_world::{
    Aabb, BallDesc, CharacterDesc, Event, Filter, FlipperDesc, RectDesc, RectKind, Scene, SensorId,
    ShapeDesc, SpawnDesc, StepConfig, Surface, Vec2, Walls, World, WorldError,
};

const DT: f64 = 1.0 / 64.0;

fn world() -> World {
    let config = StepConfig {
        dt: DT,
        ..StepConfig::default()
    };
    World::new(Vec2::new(400.0, 200.0), Walls::ALL, config).expect("a valid world")
}

/// A ball of radius 5 from x = 50 at 100 units/s to the right crossing a sensor from x = 100 to
/// 140 of `kind`; the (enter, exit) times of its events, absolute seconds.
fn crossing_times(kind: RectKind) -> (World, f64, f64) {
    let mut w = world();
    let s = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(100.0, 50.0), Vec2::new(140.0, 150.0)),
            kind,
            surface: Surface::SENSOR,
            ..RectDesc::default()
        })
        .expect("a valid sensor");
    w.add_ball(BallDesc {
        pos: Vec2::new(50.0, 100.0),
        vel: Vec2::new(100.0, 0.0),
        radius: 5.0,
        ..BallDesc::default()
    })
    .expect("a valid ball");
    let (mut enter, mut exit) = (f64::NAN, f64::NAN);
    for _ in 0..128 {
        let t0 = w.time();
        for e in w.step() {
            match *e {
                Event::SensorEnter { sensor, toi, .. } if sensor == SensorId::Rect(s) => {
                    enter = t0 + toi;
                }
                Event::SensorExit { sensor, toi, .. } if sensor == SensorId::Rect(s) => {
                    exit = t0 + toi;
                }
                _ => {}
            }
        }
    }
    (w, enter, exit)
}

#[test]
fn a_static_sensor_reports_the_exact_crossing_times_and_never_moves() {
    // The circle touches x = 100 when its centre is at 95: (95 − 50) / 100 = 0.45 s; it leaves
    // x = 140 when its centre is at 145: 0.95 s.
    for kind in [RectKind::Static, RectKind::Kinematic] {
        let (mut w, enter, exit) = crossing_times(kind);
        assert!((enter - 0.45).abs() < 1e-12, "{kind:?}: enter {enter}");
        assert!((exit - 0.95).abs() < 1e-12, "{kind:?}: exit {exit}");
        // The ball was never deflected.
        let b = w.balls().iter().next().expect("the ball");
        assert_eq!(b.vel, Vec2::new(100.0, 0.0), "{kind:?}");
        let id = w.rects()[0].id;
        let moved = w.set_rect_velocity(id, Vec2::new(5.0, 0.0));
        match kind {
            RectKind::Static => assert!(
                matches!(moved, Err(WorldError::BadRect { field: "vel", .. })),
                "{moved:?}"
            ),
            _ => assert!(moved.is_ok(), "{moved:?}"),
        }
    }
}

#[test]
fn a_static_sensor_stays_static_and_a_sensor_through_a_snapshot() {
    let (w, _, _) = crossing_times(RectKind::Static);
    let mut restored = world();
    restored
        .restore(&w.snapshot())
        .expect("the same world shape");
    assert_eq!(restored.state_hash(), w.state_hash());
    let r = restored.rects()[0];
    assert_eq!((r.kind, r.surface.sensor), (RectKind::Static, true));
    assert!(restored
        .set_rect_velocity(r.id, Vec2::new(1.0, 0.0))
        .is_err());
    // A kinematic sensor at rest is another state: its hash differs.
    let (k, _, _) = crossing_times(RectKind::Kinematic);
    assert_ne!(k.state_hash(), w.state_hash());
}

#[test]
fn the_sensor_flag_is_refused_where_it_means_nothing_and_nothing_is_added() {
    let mut w = world();
    let err = w
        .add_ball(BallDesc {
            pos: Vec2::new(50.0, 50.0),
            surface: Surface::SENSOR,
            ..BallDesc::default()
        })
        .unwrap_err();
    assert!(
        matches!(
            err,
            WorldError::BadBall {
                field: "surface.sensor",
                ..
            }
        ),
        "{err}"
    );
    let err = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(10.0, 10.0), Vec2::new(20.0, 20.0)),
            kind: RectKind::Dynamic,
            surface: Surface::SENSOR,
            ..RectDesc::default()
        })
        .unwrap_err();
    assert!(
        matches!(
            err,
            WorldError::BadRect {
                field: "surface.sensor",
                ..
            }
        ),
        "{err}"
    );
    let err = w
        .add_flipper(FlipperDesc {
            surface: Surface::SENSOR,
            ..FlipperDesc::new(Vec2::new(100.0, 100.0), 40.0, 5.0, 0.5, -0.5, 10.0)
        })
        .unwrap_err();
    assert!(
        matches!(
            err,
            WorldError::BadFlipper {
                field: "surface.sensor",
                ..
            }
        ),
        "{err}"
    );
    let err = w
        .add_shape(ShapeDesc {
            surface: Surface::SENSOR,
            ..ShapeDesc::segment(Vec2::new(10.0, 10.0), Vec2::new(50.0, 10.0))
        })
        .unwrap_err();
    assert!(matches!(err, WorldError::BadShape { .. }), "{err}");
    let character = CharacterDesc {
        pos: Vec2::new(200.0, 100.0),
        ..CharacterDesc::default()
    };
    let err = w
        .add_character(CharacterDesc {
            surface: Surface::SENSOR,
            ..character
        })
        .unwrap_err();
    assert!(
        matches!(
            err,
            WorldError::BadCharacter {
                field: "surface.sensor",
                ..
            }
        ),
        "{err}"
    );
    // A character slides and never bounces: a restitution on it is refused, not ignored.
    let err = w
        .add_character(CharacterDesc {
            surface: Surface::DEFAULT.with_restitution(0.5),
            ..character
        })
        .unwrap_err();
    assert!(
        matches!(
            err,
            WorldError::BadCharacter {
                field: "surface.restitution",
                ..
            }
        ),
        "{err}"
    );
    assert!(w.balls().is_empty());
    assert!(w.rects().is_empty());
    assert!(w.flippers().is_empty());
    assert!(w.shapes().is_empty());
    assert!(w.characters().is_empty());
    // Spawned balls are balls: a sensor spawn is refused too.
    let scene = Scene {
        spawn: Some(SpawnDesc {
            count: 3,
            radius: 2.0,
            speed: 10.0,
            density: 1.0,
            seed: 7,
            region: None,
            surface: Surface::SENSOR,
        }),
        size: Vec2::new(100.0, 100.0),
        walls: Walls::ALL,
        ..Scene::default()
    };
    assert!(World::from_scene(&scene).is_err());
}

/// The speed after the first bounce of a ball at 100 units/s straight down onto what `add`
/// puts at y = 150..160 under it (the world's restitution being 0.125, the ball's too), and
/// the ball's centre's y at the end of that step.
fn bounce(add: impl FnOnce(&mut World)) -> (f64, f64) {
    let config = StepConfig {
        dt: DT,
        restitution: 0.125,
        ..StepConfig::default()
    };
    let mut w = World::new(Vec2::new(400.0, 200.0), Walls::ALL, config).expect("a valid world");
    add(&mut w);
    w.add_ball(BallDesc {
        pos: Vec2::new(200.0, 100.0),
        vel: Vec2::new(0.0, 100.0),
        radius: 5.0,
        ..BallDesc::default()
    })
    .expect("a valid ball");
    for _ in 0..64 {
        w.step();
        let b = w.balls().iter().next().expect("the ball");
        if b.vel.y < 0.0 {
            return (b.vel.length(), b.pos.y);
        }
    }
    (f64::NAN, f64::NAN)
}

#[test]
fn a_surface_restitution_and_filter_act_the_same_on_every_description() {
    let livelier = Surface::DEFAULT.with_restitution(0.25);
    let rect = |surface| {
        move |w: &mut World| {
            w.add_rect(RectDesc {
                aabb: Aabb::new(Vec2::new(150.0, 150.0), Vec2::new(250.0, 160.0)),
                surface,
                ..RectDesc::default()
            })
            .expect("a valid rect");
        }
    };
    let polygon = |surface| {
        move |w: &mut World| {
            let square = [
                Vec2::new(150.0, 150.0),
                Vec2::new(250.0, 150.0),
                Vec2::new(250.0, 160.0),
                Vec2::new(150.0, 160.0),
            ];
            w.add_shape(ShapeDesc {
                surface,
                ..ShapeDesc::polygon(&square).expect("a square")
            })
            .expect("a valid polygon");
        }
    };
    // The pair's restitution is the larger of the two: 0.25 off the obstacle, met at y = 145
    // (the ball's bottom on its top face); the world's 0.125 off one without its own.
    for (what, (speed, y)) in [
        ("rect", bounce(rect(livelier))),
        ("polygon", bounce(polygon(livelier))),
    ] {
        assert!((speed - 25.0).abs() < 1e-9, "{what}: {speed}");
        assert!(y < 145.0, "{what}: {y}");
    }
    let (speed, _) = bounce(rect(Surface::DEFAULT));
    assert!((speed - 12.5).abs() < 1e-9, "{speed}");
    // An obstacle on a layer the ball does not look at lets it through to the world's floor
    // (y = 200: the ball turns below the obstacle, at the world's restitution).
    let ghost = Surface::DEFAULT.with_filter(Filter::new(0b10, 0b10));
    for (what, (speed, y)) in [
        ("rect", bounce(rect(ghost))),
        ("polygon", bounce(polygon(ghost))),
    ] {
        assert!((speed - 12.5).abs() < 1e-9, "{what}: {speed}");
        assert!(y > 160.0, "{what}: turned at {y}");
    }
}
