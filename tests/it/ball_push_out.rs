//! Balls embedded in balls: a ball overlapping another ball it collides with (spawned or
//! teleported onto it, or pushed onto it out of a kinematic rectangle that crushed it) is
//! moved to the nearest position clear of everything, the other balls included
//! (`crates/world/src/step/embed_balls.rs`, docs/algorithms.md §7); and squeezes by a
//! kinematic rectangle against bodies that move (a ball lying on a ball) neither pump speed
//! nor leave overlaps.

use collide_world::{
    Aabb, BallDesc, Body, Event, Real, RectDesc, RectKind, StepConfig, Surface, Vec2, Walls, World,
};
use proptest::prelude::*;

fn ball(pos: Vec2, radius: Real) -> BallDesc {
    BallDesc {
        pos,
        vel: Vec2::ZERO,
        radius,
        density: 1.0,
        surface: Surface::DEFAULT,
        gravity_scale: 1.0,
    }
}

/// The deepest overlap of two balls that collide, after the step.
fn deepest_overlap(w: &World) -> Real {
    let balls: Vec<_> = w.balls().collect();
    let mut worst: Real = 0.0;
    for (i, a) in balls.iter().enumerate() {
        for b in &balls[i + 1..] {
            if a.filter.collides(b.filter) {
                worst = worst.max(a.radius + b.radius - (a.pos - b.pos).length());
            }
        }
    }
    worst
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        rng_seed: proptest::test_runner::RngSeed::Fixed(41),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Two balls at rest overlapping by any amount: the first step moves the second (of two
    /// balls overlapping, the one of the higher index moves) along the line of centres to
    /// exactly touching the first, which stays; one `Unembedded` event says so.
    #[test]
    fn two_overlapping_balls_are_parted_along_their_centre_line(
        r1 in 0.5f64..20.0,
        r2 in 0.5f64..20.0,
        frac in 0.01f64..0.99,
        angle in 0.0f64..std::f64::consts::TAU,
    ) {
        let mut w = World::new(Vec2::new(400.0, 400.0), Walls::ALL, StepConfig::default()).unwrap();
        let dir = Vec2::new(angle.cos(), angle.sin());
        let centre = Vec2::new(200.0, 200.0);
        let d = frac * (r1 + r2);
        let b = w.add_ball(ball(centre, r2)).unwrap();
        let a = w.add_ball(ball(centre + dir * d, r1)).unwrap();
        let events = w.step().to_vec();
        let want = centre + dir * (r1 + r2);
        let pa = w.ball(a).unwrap().pos;
        prop_assert!((pa - want).length() < 1e-9 * (1.0 + r1 + r2), "{pa} against {want}");
        prop_assert_eq!(w.ball(b).unwrap().pos, centre);
        prop_assert_eq!(w.ball(a).unwrap().vel, Vec2::ZERO);
        let moved: Vec<_> = events
            .iter()
            .filter(|e| matches!(e, Event::Unembedded { .. }))
            .collect();
        prop_assert_eq!(moved.len(), 1);
        let first_moved = matches!(moved[0], Event::Unembedded { body: Body::Ball(id), .. } if *id == a);
        prop_assert!(first_moved, "{:?}", moved);
        prop_assert!(deepest_overlap(&w) < 1e-9);
    }
}

/// A ball added onto a ball lying still is the one moved (the ball already there stays); balls
/// that do not collide with each other (layers, or `ball_ball` off) are left overlapping.
#[test]
fn a_ball_added_onto_another_moves_and_balls_that_ignore_each_other_stay() {
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    let old = w.add_ball(ball(Vec2::new(50.0, 50.0), 5.0)).unwrap();
    w.step();
    let new = w.add_ball(ball(Vec2::new(53.0, 50.0), 5.0)).unwrap();
    w.step();
    assert_eq!(w.ball(old).unwrap().pos, Vec2::new(50.0, 50.0));
    assert!((w.ball(new).unwrap().pos - Vec2::new(60.0, 50.0)).length() < 1e-12);

    // On layers that ignore each other: left where they are.
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, StepConfig::default()).unwrap();
    let a = w.add_ball(ball(Vec2::new(50.0, 50.0), 5.0)).unwrap();
    let b = w.add_ball(ball(Vec2::new(53.0, 50.0), 5.0)).unwrap();
    w.set_ball_layers(a, 0b01, 0b01).unwrap();
    w.set_ball_layers(b, 0b10, 0b10).unwrap();
    w.step();
    assert_eq!(w.ball(a).unwrap().pos, Vec2::new(50.0, 50.0));
    assert_eq!(w.ball(b).unwrap().pos, Vec2::new(53.0, 50.0));

    // With ball–ball collisions off.
    let config = StepConfig {
        ball_ball: false,
        ..StepConfig::default()
    };
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, config).unwrap();
    let a = w.add_ball(ball(Vec2::new(50.0, 50.0), 5.0)).unwrap();
    let b = w.add_ball(ball(Vec2::new(53.0, 50.0), 5.0)).unwrap();
    w.step();
    assert_eq!(w.ball(a).unwrap().pos, Vec2::new(50.0, 50.0));
    assert_eq!(w.ball(b).unwrap().pos, Vec2::new(53.0, 50.0));
}

/// A ball squeezed into a gap between two balls lying on the floor goes to the gap's nearest
/// free place: touching both (the crossing of their grown circles), not on top of one.
#[test]
fn a_ball_dropped_into_a_gap_between_two_balls_settles_touching_both() {
    let config = StepConfig {
        gravity: Vec2::ZERO,
        ..StepConfig::default()
    };
    let mut w = World::new(Vec2::new(100.0, 100.0), Walls::ALL, config).unwrap();
    let left = w.add_ball(ball(Vec2::new(40.0, 95.0), 5.0)).unwrap();
    let right = w.add_ball(ball(Vec2::new(56.0, 95.0), 5.0)).unwrap();
    w.step();
    // Teleported into the gap, overlapping both: the nearest free place is where it touches
    // both, at (48, 95 − 6) (a 6-8-10 triangle).
    let c = w.add_ball(ball(Vec2::new(48.0, 92.0), 5.0)).unwrap();
    w.step();
    let p = w.ball(c).unwrap().pos;
    assert!((p - Vec2::new(48.0, 89.0)).length() < 1e-9, "{p}");
    assert_eq!(w.ball(left).unwrap().pos, Vec2::new(40.0, 95.0));
    assert_eq!(w.ball(right).unwrap().pos, Vec2::new(56.0, 95.0));
}

/// A kinematic lid 10 units thick, as wide as the world, moving down at `speed` through
/// `rows` rows of balls of radius 4 lying on the floor of a closed 200 × 200 world under
/// gravity 500, restitution 0.5, and out through the floor.
fn lid_world(rows: usize, speed: Real) -> World {
    let config = StepConfig {
        gravity: Vec2::new(0.0, 500.0),
        restitution: 0.5,
        ..StepConfig::default()
    };
    let mut w = World::new(Vec2::new(200.0, 200.0), Walls::ALL, config).unwrap();
    w.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(-10.0, -110.0), Vec2::new(210.0, -100.0)),
        vel: Vec2::new(0.0, speed),
        kind: RectKind::Kinematic,
        density: 1.0,
        surface: Surface::DEFAULT,
    })
    .unwrap();
    for k in 0..15 * rows {
        let pos = Vec2::new(
            10.0 + 12.0 * (k % 15) as Real,
            190.0 - 10.0 * (k / 15) as Real,
        );
        w.add_ball(ball(pos, 4.0)).unwrap();
    }
    w
}

/// The lid presses balls into balls lying on the floor, a squeeze against bodies that move.
/// Before, a ball bounced between the lid and the ball under it in an ever faster sequence,
/// gaining `(1 + e)·u` at each return (over 10⁶ units/s), and was pushed out of the lid into
/// other balls, overlapping them by up to 7.5 units for good. Now it moves with the lid when
/// it meets it again within the TC window, and the push-out keeps it clear of the balls: no
/// two balls overlap after any step, no ball is faster than a few times what the lid and a
/// fall from the world's height give it, and no ball leaves the world.
#[test]
fn a_lid_pressing_through_piled_balls_neither_pumps_them_nor_leaves_overlaps() {
    for (rows, speed) in [(4, 40.0), (2, 100.0)] {
        let mut w = lid_world(rows, speed);
        // A fall through the whole world under 500 units/s²: sqrt(2·500·200) ≈ 447.
        let fall = (2.0 * 500.0 * 200.0_f64).sqrt();
        for step in 0..(320.0 / speed * 60.0) as usize {
            w.step();
            let overlap = deepest_overlap(&w);
            assert!(
                overlap < 1e-6,
                "rows {rows}, step {step}: overlap {overlap}"
            );
            for b in w.balls() {
                assert!(
                    b.vel.length() < 2.0 * (fall + 2.0 * speed),
                    "rows {rows}, step {step}: {} at {}",
                    b.vel.length(),
                    b.pos
                );
                assert!(b.pos.cmpge(Vec2::ZERO).all() && b.pos.cmple(Vec2::splat(200.0)).all());
            }
        }
    }
}

/// The golden squeeze scene: a paddle sweeping left crushes balls against the left wall and
/// leaves through it. Before, a ball pushed out of the paddle landed in another ball (6 units
/// deep, for 18 steps), and two balls still carried by the paddle after it had left the world
/// bounced between two walls in a corner to the event bound at every step. Now no two balls
/// overlap after any step, and once the paddle is past the left wall nothing stops.
#[test]
fn the_golden_squeeze_scene_leaves_no_overlap_and_no_stop_once_the_paddle_is_gone() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("golden/scenes/squeeze.toml");
    let scene = collide_scene::load(&path).unwrap();
    let mut w = World::from_scene(&scene).unwrap();
    let paddle = w.rects()[0].id;
    for step in 0..300 {
        let events = w.step().to_vec();
        let overlap = deepest_overlap(&w);
        assert!(overlap < 1e-9, "step {step}: overlap {overlap}");
        if w.rect(paddle).unwrap().aabb.max.x < 0.0 {
            let stops = events
                .iter()
                .filter(|e| matches!(e, Event::IterationLimit { .. }))
                .count();
            assert_eq!(stops, 0, "step {step}");
        }
    }
}
