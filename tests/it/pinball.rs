//! The pinball table (`scenes/pinball.toml`) and its rules (`collide_game::pinball`): energy
//! kept on the table with elastic materials, the plunger, the flippers, scoring, the drain
//! and the game's end, and a recorded game that replays to its hashes.

use collide_game::pinball::{BALLS, BUMPER_SCORE, MAX_PULL, SLINGSHOT_SCORE};
use collide_game::{Game, Options, Phase, Source, StepInput};
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{Event, SpawnDesc, Surface, World};
use glam::DVec2;

fn table() -> collide_world::Scene {
    collide_scenes::load("pinball")
        .expect("built in")
        .expect("parses")
}

fn game() -> Game {
    Game::new(Source::demo("pinball").unwrap(), Options::default()).unwrap()
}

fn held(plunger: bool, left: bool, right: bool) -> StepInput {
    StepInput {
        plunger,
        flip_left: left,
        flip_right: right,
        ..StepInput::default()
    }
}

/// With restitution 1 everywhere (walls, lanes, flippers, the bumpers and slingshots made
/// plain), the drain closed and the flippers held still, 100 balls keep their kinetic plus
/// potential energy over 10 000 steps to 1e-12 (relative), and none overlaps the shapes.
#[test]
fn an_elastic_table_keeps_its_energy_over_ten_thousand_steps() {
    let mut scene = table();
    scene.walls.bottom = true;
    scene.step.restitution = 1.0;
    for s in &mut scene.shapes {
        s.surface.restitution = Some(1.0);
    }
    for f in &mut scene.flippers {
        f.surface.restitution = Some(1.0);
    }
    scene.balls.clear();
    scene.spawn = Some(SpawnDesc {
        count: 100,
        radius: 6.0,
        speed: 400.0,
        seed: 7,
        density: 1.0,
        region: Some(collide_world::Aabb::new(
            DVec2::new(20.0, 150.0),
            DVec2::new(420.0, 520.0),
        )),
        surface: Surface::DEFAULT,
    });
    let mut w = World::from_scene(&scene).unwrap();
    assert_eq!(w.balls().len(), 100);
    let e0 = w.energy();
    let mut worst: f64 = 0.0;
    let mut flipper_hits = 0;
    let mut shape_hits = 0;
    for _ in 0..10_000 {
        for e in w.step() {
            match e {
                Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Flipper(_),
                    ..
                }) => flipper_hits += 1,
                Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Shape(_),
                    ..
                }) => shape_hits += 1,
                Event::IterationLimit { .. } => panic!("an iteration limit: {e:?}"),
                _ => {}
            }
        }
        worst = worst.max(((w.energy() - e0) / e0).abs());
    }
    assert_eq!(w.balls().len(), 100, "the table is closed");
    assert!(worst < 1e-12, "relative energy drift {worst:e}");
    assert!(
        flipper_hits > 100 && shape_hits > 1000,
        "{flipper_hits} {shape_hits}"
    );
}

#[test]
fn the_plunger_shoots_the_ball_up_the_lane_and_onto_the_table() {
    let mut g = game();
    let p = g.pinball().unwrap();
    assert_eq!(
        (p.balls_left(), p.score(), p.phase()),
        (BALLS, 0, Phase::Serving)
    );
    // The ball falls onto the plunger (its top at y = 740) and lies there: on its top, a
    // radius above it, bouncing no higher than the contact's 1 ms flights (REST_TIME).
    for _ in 0..60 {
        g.step(&StepInput::default());
    }
    let ball = g.world().balls().iter().next().unwrap();
    assert!(
        (ball.pos.y - 732.0).abs() < 1e-3,
        "on the plunger: {:?}",
        ball.pos
    );
    assert!(ball.vel.length() < 1.0, "at rest: {:?}", ball.vel);
    assert_eq!(g.pinball().unwrap().phase(), Phase::Serving);
    // Held: pulled down at 90 units/s to the full pull (0.4 s), the ball riding down.
    for _ in 0..120 {
        g.step(&held(true, false, false));
    }
    let pull = g.pinball().unwrap().pull(g.world());
    assert!((pull - MAX_PULL).abs() < 1e-9, "{pull}");
    // Released: the ball leaves the plunger going up the lane fast and reaches the table.
    let mut top: f64 = f64::INFINITY;
    for _ in 0..240 {
        g.step(&StepInput::default());
        top = top.min(g.world().balls().iter().next().unwrap().pos.y);
    }
    assert!(top < 200.0, "the ball reached the table's top: {top}");
    assert_eq!(g.pinball().unwrap().phase(), Phase::Playing);
    assert_eq!(g.pinball().unwrap().pull(g.world()), 0.0);
}

#[test]
fn a_flip_shoots_a_ball_resting_on_the_flipper() {
    // A ball put on the left flipper's top near its pivot, at rest; the flip sends it up.
    let mut g = game();
    let id = g.world().balls().iter().next().unwrap().id;
    g.world_mut()
        .set_ball_position(id, DVec2::new(150.0, 690.0))
        .unwrap();
    for _ in 0..30 {
        g.step(&StepInput::default());
    }
    let before = g.world().ball(id).unwrap();
    assert!(before.pos.y < 700.0, "on the flipper: {:?}", before.pos);
    let mut hits = 0;
    let mut fastest: f64 = 0.0;
    for _ in 0..30 {
        g.step(&held(false, true, false));
        hits += g
            .last_events()
            .iter()
            .filter(|e| {
                matches!(
                    e,
                    Event::Contact(Contact {
                        body: Body::Ball(_),
                        other: Target::Flipper(_),
                        ..
                    })
                )
            })
            .count();
        let v = g.world().ball(id).unwrap().vel;
        fastest = fastest.max(-v.y);
    }
    assert!(hits >= 1);
    // The flipper turns at 1500 deg/s: its surface 20 units from the pivot moves at
    // 26 rad/s · 20 ≈ 520 units/s, and a ball at rest leaves at about twice the normal part.
    assert!(fastest > 400.0, "shot up at {fastest} units/s");
}

#[test]
fn bumpers_and_slingshots_score_and_three_drains_end_the_game() {
    let mut g = game();
    // The autopilot plays; every bumper and slingshot hit scores. After 10 000 steps it
    // stops flipping, so that the balls drain: a ball that rolls to rest in the crook of a
    // held-up flipper (a cradle) is flipped again and again by an autopilot that holds its
    // buttons while a ball comes down near a flipper.
    let mut expected = 0;
    let mut drained = 0;
    for k in 0..40_000 {
        let mut input = g.autopilot();
        if k >= 10_000 {
            input.flip_left = false;
            input.flip_right = false;
        }
        g.step(&StepInput::from(&input));
        for e in g.last_events() {
            if let Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Shape(shape),
                ..
            }) = *e
            {
                let s = g.world().shape(shape).unwrap();
                if s.surface.restitution.is_some_and(|r| r > 1.0) {
                    expected += match s.kind {
                        collide_world::ShapeKind::Circle(_) => BUMPER_SCORE,
                        collide_world::ShapeKind::Segment { .. }
                        | collide_world::ShapeKind::Polygon { .. } => SLINGSHOT_SCORE,
                    };
                }
            }
        }
        drained += g
            .last_game_events()
            .iter()
            .filter(|e| matches!(e, collide_game::GameEvent::LifeLost { .. }))
            .count();
        if g.pinball().unwrap().phase() == Phase::GameOver {
            break;
        }
        assert_eq!(g.pinball().unwrap().score(), expected);
    }
    let p = g.pinball().unwrap();
    assert_eq!(
        p.phase(),
        Phase::GameOver,
        "three balls drained in 40 000 steps"
    );
    assert_eq!((drained, p.balls_left()), (BALLS as usize, 0));
    assert!(p.score() > 0);
    assert_eq!(p.score(), expected);
    // A launch starts a new game.
    g.step(&StepInput {
        launch: true,
        ..StepInput::default()
    });
    let p = g.pinball().unwrap();
    assert_eq!(
        (p.balls_left(), p.score(), p.phase()),
        (BALLS, 0, Phase::Serving)
    );
    assert!(g
        .summary_line()
        .is_some_and(|l| l.starts_with("LAST GAME: SCORE")));
}

#[test]
fn the_recorded_game_replays_to_its_hashes() {
    // Re-record after an intentional change of physics or rules:
    // `cargo run --release -p collide-cli -- record pinball --steps 6000 --autoplay --out tests/fixtures/replay_pinball.replay`
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/replay_pinball.replay");
    let r = collide_game::Replay::read(&path).unwrap();
    let report = r.verify().unwrap_or_else(|e| {
        panic!("{e}\nIf the physics or the rules changed on purpose, re-record the fixture (see this test).")
    });
    assert_eq!(report.steps, 6000);
    assert!(report.hashes_checked >= 100);
}
