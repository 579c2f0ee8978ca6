//! The game's rules and policies, played for real on worlds: each test drives `Game` through
//! its public API (inputs per step) and checks what happened in the world.

use collide_core::{Real, Vec2};
use collide_game::policy::{english, PowerKind};
use collide_game::{Command, Game, Input, Options, Phase, Source, StepInput, DEMOS, REST_GAP};
use collide_scene::level::{parse_rows, scene_from_level};
use collide_world::Body;
use collide_world::Contact;
use collide_world::Target;
use collide_world::{CellCoord, Event, Scene};

/// A BricksBeater layout around `rows` (cells of 9; the world is `9·cols` wide and
/// `9·rows + 120` high, the paddle 80 × 6 centred with its top 100 below the map).
fn level(rows: &[&str]) -> Scene {
    let grid = parse_rows(rows.iter().copied()).unwrap();
    scene_from_level("test", grid, 0)
}

/// 20 columns (180 wide), 6 rows (map 54 high, world 174 high, paddle top at 154), one red
/// brick in the top-left cell, out of the way of a ball going straight up from x = 90.
fn corner_brick() -> Scene {
    let mut rows = vec!["R                   "];
    rows.extend(["                    "; 5]);
    level(&rows)
}

fn game(scene: Scene, options: Options) -> Game {
    Game::new(Source::Scene(Box::new(scene)), options).unwrap()
}

fn step(g: &mut Game, pointer_x: Option<Real>, launch: bool) {
    g.step(&StepInput {
        pointer_x,
        launch,
        ..StepInput::default()
    });
}

/// Straight-up launches of a single ball (no volley).
fn straight_up() -> Options {
    Options {
        initial_aim: 0.0,
        volley: 1,
        ..Options::default()
    }
}

fn paddle_box(g: &Game) -> collide_core::Aabb {
    let id = g.breaker().unwrap().paddle();
    g.world().rect(id).unwrap().aabb
}

#[test]
fn a_launched_ball_breaks_the_brick_the_preview_points_at() {
    // Level 2: its bricks can be reached from the paddle (no rain).
    let mut g = Game::new(
        Source::Level(2),
        Options {
            volley: 1,
            ..Options::default()
        },
    )
    .unwrap();
    let before = g.status();
    let total = before.bricks_left;
    assert!(total > 300);
    assert_eq!(before.score, Some(0));
    assert_eq!(before.balls, 1);
    // Look for a paddle position and an aim whose preview reaches a brick (the way a
    // player uses the preview): level 2's bricks are up a corridor on the right.
    let mut target = None;
    'search: for px in (0..=126).map(|i| 40.0 + 3.0 * f64::from(i)) {
        step(&mut g, Some(px), false);
        for i in -50..=50 {
            g.breaker_mut().unwrap().set_aim(f64::from(i) / 50.0);
            let path = g.aim_preview().unwrap();
            let id = g.breaker().unwrap().resting()[0];
            for seg in path.windows(2) {
                let (from, to) = (seg[0], seg[1]);
                let hit = g.world().cast_circle(
                    from,
                    to + (to - from) * 1e-9,
                    3.0,
                    &[id],
                    collide_world::Filter::ALL,
                );
                if let Some(collide_world::CastHit {
                    target: collide_world::Target::Cell(c),
                    ..
                }) = hit
                {
                    if matches!(
                        g.world().grid().unwrap().cell(c),
                        collide_world::Cell::Brick(_)
                    ) {
                        target = Some((px, c));
                        break 'search;
                    }
                }
            }
        }
    }
    let (px, cell) = target.expect("some paddle position and aim reach a brick");
    step(&mut g, Some(px), true);
    assert_eq!(g.breaker().unwrap().phase(), Phase::Playing);
    let mut destroyed = Vec::new();
    for _ in 0..600 {
        step(&mut g, Some(px), false);
        destroyed.extend(g.last_events().iter().filter_map(|e| match *e {
            Event::BrickDestroyed { cell, .. } => Some(cell),
            _ => None,
        }));
        if !destroyed.is_empty() {
            break;
        }
    }
    assert_eq!(
        destroyed.first(),
        Some(&cell),
        "the previewed brick broke first"
    );
    assert_eq!(
        g.world().grid().unwrap().cell(cell),
        collide_world::Cell::Empty
    );
    let after = g.status();
    assert_eq!(after.bricks_left, total - destroyed.len());
    assert_eq!(after.score, Some(10 * destroyed.len() as u64));
}

#[test]
fn level_1_is_sealed_so_a_launch_rains_balls_next_to_its_bricks() {
    use collide_game::sealed_pockets;
    let mut g = Game::level_1().unwrap();
    let pockets = sealed_pockets(g.world().grid().unwrap());
    assert!(
        !pockets.is_empty(),
        "no brick of level 1 can be reached from below"
    );
    for n in 2..=7 {
        let g = Game::new(Source::Level(n), Options::default()).unwrap();
        assert!(
            sealed_pockets(g.world().grid().unwrap()).is_empty(),
            "level {n}"
        );
    }
    let opts = g.options().clone();
    step(&mut g, None, true);
    // The waiting ball, plus 8 balls at the centres of distinct pocket cells, less those
    // spent on a brick in this first step.
    let balls: Vec<_> = g.world().balls().collect();
    let spent = 315 - g.status().bricks_left;
    assert_eq!(balls.len(), 1 + opts.rain - spent);
    assert_eq!(g.breaker().unwrap().rained().count(), opts.rain - spent);
    let grid = g.world().grid().unwrap();
    let mut cells: Vec<_> = balls[1..]
        .iter()
        .map(|b| grid.cell_at(b.pos - b.vel * g.world().config().dt).unwrap())
        .collect();
    cells.sort();
    cells.dedup();
    assert_eq!(cells.len(), opts.rain - spent, "distinct cells");
    for b in &balls[1..] {
        assert!((b.vel.length() - opts.ball_speed).abs() < 1e-9);
    }
    // They break bricks, one each, then they are gone: 8 bricks at most; or they live
    // 5 s (300 steps).
    for _ in 0..300 {
        step(&mut g, None, false);
    }
    let broken = 315 - g.status().bricks_left;
    assert!((1..=opts.rain).contains(&broken), "{:?}", g.status());
    assert_eq!(g.breaker().unwrap().rained().count(), 0);
}

#[test]
fn each_return_off_the_paddle_rains_a_ball_on_level_1() {
    // Level 1, one ball straight up from the middle of the paddle, no rain at the launch:
    // it comes back down onto the paddle (the paddle stays), and each return rains one ball.
    let opts = Options {
        rain: 1,
        ..straight_up()
    };
    let mut g = Game::new(Source::Level(1), opts).unwrap();
    step(&mut g, None, true);
    assert_eq!(g.breaker().unwrap().rained_total(), 1, "the launch's rain");
    let mut returns = 0;
    for _ in 0..1200 {
        let before = g.breaker().unwrap().rained_total();
        step(&mut g, None, false);
        let hits = g
            .last_events()
            .iter()
            .filter(|e| matches!(e, Event::Contact(Contact { body: Body::Ball(_), other: Target::Rect(_), normal, .. }) if normal.y < 0.0))
            .count() as u64;
        returns += hits;
        assert_eq!(g.breaker().unwrap().rained_total(), before + hits);
    }
    assert!(returns >= 2, "{returns} returns");
    assert_eq!(g.breaker().unwrap().rained_total(), 1 + returns);
}

#[test]
fn a_launch_fires_a_volley_along_the_aim() {
    let mut g = Game::new(Source::Level(2), Options::default()).unwrap();
    let v = g.breaker().unwrap().launch_velocity(g.options());
    step(&mut g, None, true);
    // 10 balls, one every 0.08 s = 5 steps: the last leaves 45 steps after the first.
    for _ in 0..45 {
        step(&mut g, None, false);
    }
    assert_eq!(g.breaker().unwrap().volley_left(), 0);
    let launched = g.world().steps();
    assert_eq!(launched, 46);
    // Every ball left along the aim (the last one has not hit anything yet).
    let last = g.world().balls().next_back().unwrap();
    assert_eq!(last.vel, v);
    assert!(g.world().balls().len() >= 2);
}

#[test]
fn catching_3x_triples_the_balls_and_shoot3_adds_three() {
    let mut g = game(corner_brick(), straight_up());
    step(&mut g, None, true);
    // The ball goes up; a "shoot 3" dropped just above the paddle is caught next step.
    let p = paddle_box(&g);
    let size = g.options().power_up_size;
    let just_above = Vec2::new(p.center().x, p.min.y - size.y * 0.5 - 0.1);
    g.drop_power_up(PowerKind::Shoot3, just_above).unwrap();
    step(&mut g, None, false);
    assert_eq!(g.world().balls().len(), 4, "1 + 3");
    assert!(g.power_ups().is_empty(), "caught");
    step(&mut g, None, false);
    g.drop_power_up(PowerKind::Triple, just_above).unwrap();
    step(&mut g, None, false);
    assert_eq!(g.world().balls().len(), 12, "every ball splits into three");
    // After a step every ball moves at the game's speed, up (none has come back yet).
    step(&mut g, None, false);
    for b in g.world().balls() {
        assert!((b.vel.length() - 240.0).abs() < 1e-9, "{:?}", b.vel);
        assert!(b.vel.y < 0.0);
    }
    // A heart at full lives: no fifth life, the score of 5 bricks (50).
    let score = g.breaker().unwrap().score();
    g.drop_power_up(PowerKind::Heart, just_above).unwrap();
    step(&mut g, None, false);
    assert_eq!(g.breaker().unwrap().lives(), 4);
    assert_eq!(g.breaker().unwrap().score(), score + 50);
}

#[test]
fn a_heart_gives_back_a_lost_life_never_more_than_the_start() {
    let mut g = game(corner_brick(), straight_up());
    step(&mut g, None, true);
    // The paddle goes to the left wall (0..80); the ball at x = 90 falls past it.
    for _ in 0..600 {
        step(&mut g, Some(0.0), false);
        if g.breaker().unwrap().phase() == Phase::Serving {
            break;
        }
    }
    assert_eq!(g.breaker().unwrap().lives(), 3);
    let p = paddle_box(&g);
    let size = g.options().power_up_size;
    let just_above = Vec2::new(p.center().x, p.min.y - size.y * 0.5 - 0.1);
    for (lives, score) in [(4, 0), (4, 50), (4, 100)] {
        g.drop_power_up(PowerKind::Heart, just_above).unwrap();
        step(&mut g, Some(p.center().x), false);
        let b = g.breaker().unwrap();
        assert!(b.power_ups().is_empty(), "caught");
        assert_eq!((b.lives(), b.score()), (lives, score));
    }
}

#[test]
fn the_ball_limit_caps_splits() {
    let opts = Options {
        max_balls: 5,
        ..straight_up()
    };
    assert_eq!(opts.volley, 1);
    let mut g = game(corner_brick(), opts);
    step(&mut g, None, true);
    let p = paddle_box(&g);
    let above = Vec2::new(p.center().x, p.min.y - 5.0);
    for kind in [PowerKind::Shoot3, PowerKind::Triple] {
        g.drop_power_up(kind, above).unwrap();
        step(&mut g, None, false);
    }
    assert_eq!(g.world().balls().len(), 5);
}

#[test]
fn losing_every_ball_costs_a_life_and_four_end_the_game() {
    let mut g = game(corner_brick(), straight_up());
    assert_eq!(g.breaker().unwrap().lives(), 4);
    for lives_left in [3, 2, 1, 0] {
        step(&mut g, None, true);
        // The paddle goes to the left wall (0..80); the ball at x = 90 falls past it.
        let mut lost = false;
        for _ in 0..600 {
            step(&mut g, Some(0.0), false);
            if g.last_events()
                .iter()
                .any(|e| matches!(e, Event::BallLost { .. }))
            {
                lost = true;
                break;
            }
        }
        assert!(lost);
        let b = g.breaker().unwrap();
        assert_eq!(b.lives(), lives_left);
        if lives_left > 0 {
            assert_eq!(b.phase(), Phase::Serving);
            assert_eq!(b.resting().len(), 1, "a new ball waits on the paddle");
            assert_eq!(g.world().balls().len(), 1);
            // Bring the paddle back to the middle for the next serve.
            for _ in 0..3 {
                step(&mut g, Some(90.0), false);
            }
        } else {
            assert_eq!(b.phase(), Phase::GameOver);
            assert!(g.world().balls().is_empty());
        }
    }
    // A launch after the game is over starts a new one.
    step(&mut g, None, true);
    let b = g.breaker().unwrap();
    assert_eq!((b.lives(), b.phase(), b.score()), (4, Phase::Serving, 0));
}

/// Launches straight up from x = 90 with the paddle moved so that the ball comes back onto
/// the paddle at `offset` half-widths right of its centre; returns (the ball's velocity after
/// the bounce, the offset measured from the event).
fn bounce_at(offset: Real, options: Options) -> (Vec2, Real) {
    let mut g = game(corner_brick(), options);
    step(&mut g, None, true);
    let target = 90.0 - offset * 40.0;
    for _ in 0..600 {
        step(&mut g, Some(target), false);
        let paddle = g.breaker().unwrap().paddle();
        let hit = g.last_events().iter().find_map(|e| match *e {
            Event::Contact(Contact {
                body: Body::Ball(_),
                other: Target::Rect(rect),
                point,
                ..
            }) if rect == paddle => Some(point),
            _ => None,
        });
        if let Some(point) = hit {
            let p = paddle_box(&g);
            let v = g.world().balls().get(0).expect("a ball").vel;
            return (v, (point.x - p.center().x) / 40.0);
        }
    }
    panic!("the ball never came back to the paddle");
}

#[test]
fn english_sends_the_ball_right_from_the_right_end_at_the_same_speed() {
    // Speed is not forced here: english alone must keep it.
    let opts = Options {
        constant_speed: false,
        ..straight_up()
    };
    let (v, measured) = bounce_at(0.9, opts.clone());
    assert!((measured - 0.9).abs() < 1e-9, "{measured}");
    assert!(v.x > 0.0 && v.y < 0.0, "{v}");
    assert!((v.length() - 240.0).abs() < 1e-9, "{}", v.length());
    let want = english(0.9, opts.english_slope, 240.0);
    assert!((v - want).length() < 1e-9, "{v} vs {want}");
    // The left end sends it left.
    let (v, _) = bounce_at(-0.9, opts.clone());
    assert!(v.x < 0.0 && (v.length() - 240.0).abs() < 1e-9, "{v}");
    // Without english the ball comes straight back up.
    let (v, _) = bounce_at(
        0.9,
        Options {
            english: false,
            ..opts
        },
    );
    assert_eq!(v, Vec2::new(0.0, -240.0));
}

#[test]
fn minimum_angle_turns_a_horizontal_ball() {
    for k in [0.25, 0.0] {
        let opts = Options {
            min_vertical: k,
            ..straight_up()
        };
        let mut g = game(corner_brick(), opts);
        step(&mut g, None, true);
        // A ball in the open moving horizontally.
        let id = g.world().balls().get(0).expect("a ball").id;
        g.world_mut()
            .set_ball_position(id, Vec2::new(90.0, 100.0))
            .unwrap();
        g.world_mut()
            .set_ball_velocity(id, Vec2::new(240.0, 0.0))
            .unwrap();
        step(&mut g, None, false);
        let v = g.world().ball(id).unwrap().vel;
        assert!((v.length() - 240.0).abs() < 1e-9);
        if k > 0.0 {
            // |vy| = 0.25 · 240 = 60, up; vx = sqrt(240² − 60²).
            assert!((v.y + 60.0).abs() < 1e-9, "{v}");
            assert!((v.x - (240.0f64 * 240.0 - 60.0 * 60.0).sqrt()).abs() < 1e-9);
        } else {
            assert_eq!(v, Vec2::new(240.0, 0.0));
        }
    }
}

#[test]
fn aim_preview_starts_where_cast_circle_says() {
    let g = Game::level_1().unwrap();
    let path = g.aim_preview().unwrap();
    assert!(path.len() >= 3, "{path:?}");
    let b = g.breaker().unwrap();
    let ball = g.world().ball(b.resting()[0]).unwrap();
    assert_eq!(path[0], ball.pos);
    let dir = b.launch_velocity(g.options()).normalize();
    let hit = g
        .world()
        .cast_circle(
            ball.pos,
            ball.pos + dir * g.options().aim_length,
            ball.radius,
            b.resting(),
            collide_world::Filter::ALL,
        )
        .unwrap();
    assert_eq!(path[1], hit.center);
    // The preview is the path: launching, the ball passes through the first impact point.
    let mut g = g;
    step(&mut g, None, true);
    let id = g.world().balls().get(0).expect("a ball").id;
    let mut hit_at = None;
    for _ in 0..600 {
        step(&mut g, None, false);
        let first = g.last_events().iter().find_map(|e| match *e {
            Event::Contact(Contact {
                body: Body::Ball(ball),
                other: Target::Cell(_),
                point,
                normal,
                ..
            })
            | Event::Contact(Contact {
                body: Body::Ball(ball),
                other: Target::Wall(_),
                point,
                normal,
                ..
            }) if ball == id => Some(point + normal * 3.0),
            _ => None,
        });
        if first.is_some() {
            hit_at = first;
            break;
        }
    }
    let hit_at = hit_at.unwrap();
    assert!(
        (hit_at - path[1]).length() < 1e-6,
        "{hit_at} vs {}",
        path[1]
    );
    // No preview once launched.
    assert!(g.aim_preview().is_none());
}

#[test]
fn aim_keys_turn_the_launch() {
    let mut g = Game::level_1().unwrap();
    let before = g.breaker().unwrap().launch_velocity(g.options());
    for _ in 0..30 {
        g.step(&StepInput {
            aim_dir: -1,
            ..StepInput::default()
        });
    }
    let after = g.breaker().unwrap().launch_velocity(g.options());
    // 0.5 s at 1 offset/s: 0.3 -> -0.2, so the launch now goes up and left.
    assert!(before.x > 0.0 && after.x < 0.0, "{before} {after}");
    assert!((g.breaker().unwrap().aim() + 0.2).abs() < 1e-9);
}

#[test]
fn no_ball_is_ever_caught_between_paddle_and_wall() {
    let mut g = game(corner_brick(), straight_up());
    step(&mut g, None, true);
    let id = g.world().balls().get(0).expect("a ball").id;
    let p = paddle_box(&g);
    // A ball falling right next to the left wall, already level with the paddle's top, while
    // the pointer asks the paddle (now at x = 50..130) to touch that wall.
    g.world_mut()
        .set_ball_position(id, Vec2::new(4.0, p.min.y + 1.0))
        .unwrap();
    g.world_mut()
        .set_ball_velocity(id, Vec2::new(0.0, 240.0))
        .unwrap();
    let mut lost = false;
    for _ in 0..120 {
        step(&mut g, Some(0.0), false);
        let p = paddle_box(&g);
        assert!(p.min.x.abs() < 1e-9 || p.min.x >= 8.0, "gap {}", p.min.x);
        for e in g.last_events() {
            assert!(
                !matches!(e, Event::Unembedded { .. } | Event::IterationLimit { .. }),
                "{e:?}"
            );
            if matches!(e, Event::BallLost { ball, .. } if *ball == id) {
                lost = true;
            }
        }
        if lost {
            break;
        }
    }
    assert!(lost, "the ball fell through the gap");
    // Had the paddle been allowed to touch the wall, it would have squeezed the ball.
    // With the ball gone, the paddle closes the gap.
    for _ in 0..3 {
        step(&mut g, Some(0.0), false);
    }
    assert!(paddle_box(&g).min.x.abs() < 1e-9);
}

#[test]
fn a_jittery_pointer_never_squeezes_a_ball_against_a_wall() {
    // Random balls near the side walls at the paddle's height, the pointer jumping at random
    // (often past the walls) every step: never an embedded ball, never a ball stopped at the
    // iteration bound (what a ball squeezed between the paddle and a wall would give).
    let mut rng = collide_world::rng::XorShift64Star::new(11);
    for round in 0..40 {
        let mut g = game(corner_brick(), straight_up());
        step(&mut g, None, true);
        let id = g.world().balls().get(0).expect("a ball").id;
        let p = paddle_box(&g);
        let x = if round % 2 == 0 {
            rng.range_f64(3.0, 12.0)
        } else {
            rng.range_f64(168.0, 177.0)
        };
        let pos = Vec2::new(x, rng.range_f64(p.min.y - 12.0, p.max.y + 2.0));
        g.world_mut().set_ball_position(id, pos).unwrap();
        g.world_mut()
            .set_ball_velocity(id, rng.unit_vector() * 240.0)
            .unwrap();
        for _ in 0..120 {
            let pointer = rng.range_f64(-40.0, 220.0);
            step(&mut g, Some(pointer), false);
            for e in g.last_events() {
                assert!(
                    !matches!(e, Event::IterationLimit { .. })
                        && !matches!(e, Event::Unembedded { body, .. } if *body == collide_world::Body::Ball(id)),
                    "round {round}: {e:?}"
                );
            }
            let p = paddle_box(&g);
            // Touching (to rounding: the paddle moves by velocity · dt) or a ball's width away.
            assert!(p.min.x.abs() < 1e-9 || p.min.x >= 8.0 - 1e-9, "{}", p.min.x);
            assert!(
                (p.max.x - 180.0).abs() < 1e-9 || p.max.x <= 172.0 + 1e-9,
                "{}",
                p.max.x
            );
        }
    }
}

#[test]
fn paddle_follows_the_pointer_with_swept_motion() {
    let mut g = Game::level_1().unwrap();
    step(&mut g, Some(100.0), false);
    let p = paddle_box(&g);
    assert_eq!(p.center().x, 100.0);
    let id = g.breaker().unwrap().paddle();
    // Its velocity for that step was (100 - 229.5) / dt.
    let dt = g.world().config().dt;
    assert!((g.world().rect(id).unwrap().vel.x - (100.0 - 229.5) / dt).abs() < 1e-6);
    // The waiting ball rode along.
    let ball = g.world().ball(g.breaker().unwrap().resting()[0]).unwrap();
    assert!((ball.pos.x - 100.0).abs() < 1e-9);
    assert!((ball.pos.y - (p.min.y - 3.0 - REST_GAP)).abs() < 1e-9);
    // Clamped to the world: centre 40 at the left wall, 459 - 40 at the right one.
    step(&mut g, Some(-50.0), false);
    assert_eq!(paddle_box(&g).min.x, 0.0);
    step(&mut g, Some(1e6), false);
    assert_eq!(paddle_box(&g).max.x, 459.0);
}

#[test]
fn clearing_a_level_goes_to_the_next_keeping_score_and_lives() {
    let mut g = Game::level_1().unwrap();
    // Remove every brick but one, by hand, and score nothing for them.
    let grid = g.world().grid().unwrap().clone();
    for row in 0..grid.rows() as u32 {
        for col in 0..grid.cols() as u32 {
            let c = CellCoord::new(col, row);
            if matches!(grid.cell(c), collide_world::Cell::Brick(_)) {
                g.world_mut().set_cell(c, collide_world::Cell::Empty);
            }
        }
    }
    step(&mut g, None, false);
    assert!(matches!(
        g.breaker().unwrap().phase(),
        Phase::LevelCleared { .. }
    ));
    g.drop_power_up(PowerKind::Heart, Vec2::new(229.5, 375.0))
        .unwrap();
    for _ in 0..200 {
        step(&mut g, None, false);
        if g.breaker().unwrap().level() == Some(2) {
            break;
        }
    }
    let b = g.breaker().unwrap();
    assert_eq!(b.level(), Some(2));
    assert_eq!(b.phase(), Phase::Serving);
    assert_eq!(
        (b.lives(), b.score()),
        (4, 50),
        "the heart caught during the pause (at full lives: 50 points) is kept"
    );
    assert_eq!(*g.source(), Source::Level(2));
    // Level 7 cleared: victory.
    let mut g = Game::new(Source::Level(7), Options::default()).unwrap();
    let cells: Vec<_> = {
        let grid = g.world().grid().unwrap();
        (0..grid.rows() as u32)
            .flat_map(|r| (0..grid.cols() as u32).map(move |c| CellCoord::new(c, r)))
            .filter(|c| matches!(grid.cell(*c), collide_world::Cell::Brick(_)))
            .collect()
    };
    for c in cells {
        g.world_mut().set_cell(c, collide_world::Cell::Empty);
    }
    for _ in 0..200 {
        step(&mut g, None, false);
    }
    assert_eq!(g.breaker().unwrap().phase(), Phase::Victory);
}

#[test]
fn destroyed_bricks_drop_power_ups_at_their_cells() {
    // Every brick drops a "3x".
    let opts = Options {
        drops: collide_game::policy::DropTable {
            triple: 1.0,
            shoot3: 0.0,
            heart: 0.0,
        },
        ..straight_up()
    };
    // One brick straight above the serve point (x = 90 is in column 10: 90..99).
    let mut rows = vec!["                    "; 3];
    rows.push("          R         ");
    rows.extend(["                    "; 2]);
    let mut g = game(level(&rows), opts);
    step(&mut g, None, true);
    for _ in 0..300 {
        step(&mut g, None, false);
        if g.status().bricks_left == 0 {
            break;
        }
    }
    assert_eq!(g.status().bricks_left, 0);
    let p = g.power_ups();
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].kind, PowerKind::Triple);
    // Dropped at the end of the step at the centre of cell (10, 3), (94.5, 31.5): a sensor
    // rectangle of the world falling at 90 units/s.
    assert_eq!(p[0].center, Vec2::new(94.5, 31.5));
    let r = g.world().rect(p[0].rect).copied().expect("its sensor");
    assert!(r.surface.sensor);
    assert_eq!(r.kind, collide_world::RectKind::Kinematic);
    assert_eq!(r.vel, Vec2::new(0.0, 90.0));
    assert_eq!(r.aabb.size(), g.options().power_up_size);
    // One step later it fell 90/60 = 1.5 units.
    step(&mut g, None, false);
    let p = g.power_ups();
    assert_eq!(p[0].center.x, 94.5);
    assert!((p[0].center.y - 33.0).abs() < 1e-12, "{}", p[0].center.y);
}

#[test]
fn same_inputs_same_game_bit_for_bit() {
    let run = |wobble: Real| {
        let mut g = Game::level_1().unwrap();
        let mut hashes = Vec::new();
        for i in 0..3000u32 {
            let mut input = g.autopilot();
            // A deterministic wiggle of the pointer on top of the autopilot.
            if let Some(x) = &mut input.pointer_x {
                *x += wobble * Real::from(i % 7) - 3.0 * wobble;
            }
            g.step(&StepInput {
                pointer_x: input.pointer_x,
                launch: input.launch,
                ..StepInput::default()
            });
            if i % 500 == 0 {
                hashes.push(g.state_hash());
            }
        }
        (hashes, g.status())
    };
    let (a, sa) = run(1.0);
    let (b, sb) = run(1.0);
    assert_eq!(a, b);
    assert_eq!(sa, sb);
    assert!(sa.score.unwrap() > 0, "the autopilot broke bricks: {sa:?}");
    let (c, _) = run(2.0);
    assert_ne!(a.last(), c.last(), "other inputs, another game");
}

#[test]
fn update_runs_fixed_steps_and_commands() {
    let mut g = Game::level_1().unwrap();
    // 1/30 s frames hold two steps of 1/60 s.
    let r = g.update(&Input::default(), 1.0 / 30.0);
    assert_eq!(r.steps, 2);
    // Pause: no step; a single step: exactly one.
    let pause = Input {
        commands: vec![Command::TogglePause],
        ..Input::default()
    };
    assert_eq!(g.update(&pause, 1.0 / 60.0).steps, 0);
    assert_eq!(g.update(&Input::default(), 1.0).steps, 0);
    let one = Input {
        commands: vec![Command::SingleStep],
        ..Input::default()
    };
    assert_eq!(g.update(&one, 1.0 / 60.0).steps, 1);
    assert!(g.paused());
    // A launch while paused waits for the next step.
    let launch = Input {
        launch: true,
        ..Input::default()
    };
    assert_eq!(g.update(&launch, 1.0 / 60.0).steps, 0);
    assert_eq!(g.breaker().unwrap().phase(), Phase::Serving);
    assert_eq!(g.update(&pause, 1.0 / 60.0).steps, 1);
    assert_eq!(g.breaker().unwrap().phase(), Phase::Playing);
    // Slow motion: at 1/2 speed two 1/60 s frames make one step.
    let slower = Input {
        commands: vec![Command::Slower],
        ..Input::default()
    };
    let s = g.update(&slower, 1.0 / 60.0).steps + g.update(&Input::default(), 1.0 / 60.0).steps;
    assert_eq!((g.speed(), s), (0.5, 1));
    let faster = Input {
        commands: vec![Command::Faster, Command::Faster],
        ..Input::default()
    };
    assert_eq!(g.update(&faster, 1.0 / 60.0).steps, 2);
    // Debug view: the trace records where balls started the step.
    let debug = Input {
        commands: vec![Command::ToggleDebug],
        ..Input::default()
    };
    g.update(&debug, 1.0 / 60.0);
    assert!(g.debug());
    // Every ball in play but the rained ones (spent, or rained after the step) was traced.
    let traced: Vec<_> = g.trace_start().iter().map(|(id, _)| *id).collect();
    let b = g.breaker().unwrap();
    let played: Vec<_> = g
        .world()
        .balls()
        .filter(|ball| !b.rained().any(|r| r == ball.id))
        .collect();
    assert!(!played.is_empty());
    for ball in played {
        assert!(traced.contains(&ball.id), "{:?}", ball.id);
    }
    // Level keys and restart.
    let l3 = Input {
        commands: vec![Command::Level(3)],
        ..Input::default()
    };
    g.update(&l3, 0.0);
    assert_eq!(g.breaker().unwrap().level(), Some(3));
    g.update(
        &Input {
            commands: vec![Command::Level(9), Command::Restart],
            ..Input::default()
        },
        0.0,
    );
    assert_eq!(g.breaker().unwrap().level(), Some(3));
    assert_eq!(g.world().steps(), 0);
}

#[test]
fn tab_cycles_the_demo_scenes_then_back_to_the_game() {
    let mut g = Game::new(Source::Level(2), Options::default()).unwrap();
    for name in DEMOS {
        g.command(Command::NextScene);
        assert_eq!(g.status().name, name);
        assert!(g.breaker().is_none(), "{name} has no paddle");
        if name == "pinball" {
            // The table is played by its rules.
            assert!(g.pinball().is_some());
            continue;
        }
        assert!(g.pinball().is_none(), "{name} is a sandbox");
        assert!(g
            .world()
            .balls()
            .iter()
            .all(|b| g.ball_color(b.id).is_some()));
    }
    g.command(Command::NextScene);
    assert_eq!(g.breaker().unwrap().level(), Some(2));
}

#[test]
fn billiard_balls_swap_colours_when_they_collide() {
    let mut g = Game::new(
        Source::demo("seed002_billiards").unwrap(),
        Options::default(),
    )
    .unwrap();
    for _ in 0..600 {
        let before: Vec<_> = g
            .world()
            .balls()
            .iter()
            .map(|b| (b.id, g.ball_color(b.id)))
            .collect();
        g.step(&StepInput::default());
        let pair = g.last_events().iter().find_map(|e| match *e {
            Event::Contact(Contact {
                body: Body::Ball(a),
                other: Target::Ball(b),
                ..
            }) => Some((a, b)),
            _ => None,
        });
        if let Some((a, b)) = pair {
            // Only one collision between these two in the step: their colours swapped.
            let n = g
                .last_events()
                .iter()
                .filter(|e| {
                    matches!(
                        e,
                        Event::Contact(Contact {
                            body: Body::Ball(_),
                            other: Target::Ball(_),
                            ..
                        })
                    )
                })
                .count();
            if n != 1 {
                continue;
            }
            let col = |id| before.iter().find(|(i, _)| *i == id).unwrap().1;
            assert_ne!(col(a), col(b));
            assert_eq!(g.ball_color(a), col(b));
            assert_eq!(g.ball_color(b), col(a));
            return;
        }
    }
    panic!("no ball-ball collision in 10 s of billiards");
}

#[test]
fn bad_sources_are_errors_not_panics() {
    assert!(Source::from_arg("no_such_scene", false).is_err());
    let e = Source::from_arg("missing/level.dat", false).unwrap_err();
    assert!(e.to_string().contains("missing/level.dat"), "{e}");
    assert!(Game::new(Source::Level(8), Options::default()).is_err());
    assert_eq!(
        Source::from_arg("level_4", false).unwrap(),
        Source::Level(4)
    );
    assert!(matches!(
        Source::from_arg("level_4", true).unwrap(),
        Source::Sandbox(_)
    ));
    // A scene that is not a level runs as a sandbox.
    let s = Source::from_arg("seed003_rects", false).unwrap();
    let g = Game::new(s, Options::default()).unwrap();
    assert!(g.breaker().is_none());
}

/// The rules report what they did in each step: a caught power-up, a lost life, a cleared
/// level; `update_with` calls its hook after every step of a frame, with the step's events.
#[test]
fn game_events_report_catches_lives_and_cleared_levels() {
    use collide_game::GameEvent;
    let mut g = game(corner_brick(), straight_up());
    step(&mut g, None, true);
    assert!(g.last_game_events().is_empty());
    let p = paddle_box(&g);
    let size = g.options().power_up_size;
    let just_above = Vec2::new(p.center().x, p.min.y - size.y * 0.5 - 0.1);
    g.drop_power_up(PowerKind::Heart, just_above).unwrap();
    step(&mut g, None, false);
    assert_eq!(
        g.last_game_events(),
        [GameEvent::PowerUpCaught {
            kind: PowerKind::Heart
        }]
    );
    step(&mut g, None, false);
    assert!(g.last_game_events().is_empty(), "one step's events only");
    // The paddle goes to the left wall; the ball at x = 90 falls past it: one life lost, in
    // the step that lost the ball.
    let mut seen = Vec::new();
    for _ in 0..600 {
        step(&mut g, Some(0.0), false);
        if !g.last_game_events().is_empty() {
            assert!(g
                .last_events()
                .iter()
                .any(|e| matches!(e, Event::BallLost { .. })));
            seen.extend_from_slice(g.last_game_events());
            break;
        }
    }
    assert_eq!(seen, [GameEvent::LifeLost { lives_left: 3 }]);

    // Level 1 with every brick gone: the next step clears it.
    let mut g = Game::level_1().unwrap();
    let grid = g.world().grid().unwrap().clone();
    for row in 0..grid.rows() as u32 {
        for col in 0..grid.cols() as u32 {
            let c = CellCoord::new(col, row);
            if matches!(grid.cell(c), collide_world::Cell::Brick(_)) {
                g.world_mut().set_cell(c, collide_world::Cell::Empty);
            }
        }
    }
    // Four steps in one frame (speed 1, 4/60 s): the hook sees each, the clear in the first.
    let mut hooks = Vec::new();
    let report = g.update_with(&Input::default(), 4.0 / 60.0 + 1e-9, |game, k| {
        hooks.push((k, game.world().steps(), game.last_game_events().to_vec()));
    });
    assert_eq!(report.steps, 4);
    assert_eq!(hooks.len(), 4);
    assert_eq!(
        hooks[0],
        (0, 1, vec![GameEvent::LevelCleared { level: Some(1) }])
    );
    for (i, (k, steps, events)) in hooks.iter().enumerate().skip(1) {
        assert_eq!((*k as usize, *steps as usize), (i, i + 1));
        assert!(events.is_empty());
    }
}
