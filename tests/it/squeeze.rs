//! Squeezes: a kinematic rectangle closing on a body against immovable geometry. The rule
//! (`crates/world/src/squeeze.rs`, docs/algorithms.md "Squeezes"): with room of at least its
//! own size the body bounces exactly; with less it moves with the rectangle; when it then has
//! nowhere to go it is crushed (`Event::Squeezed`), stops, and is pushed out at the next step.
//! Its speed is never above `(|v0| + 2|u|)·max(1, G/size)` (`v0` its velocity, `u` the
//! rectangle's, `G` its room at the start), and never above `(1 + e)·|u|` once squeezed.

use collide_world::Contact;
use collide_world::Target;
use collide_world::{
    Aabb, BallDesc, Body, Event, Grid, Real, RectDesc, RectKind, StepConfig, Surface, Vec2, Walls,
    World,
};
use proptest::prelude::*;

/// Everything that happened to body `who` (its events with their absolute times), and the
/// largest speed it had after any step.
struct Run {
    events: Vec<(Real, Event)>,
    max_speed: Real,
}

fn config(dt: Real, restitution: Real) -> StepConfig {
    StepConfig {
        dt,
        restitution,
        ..StepConfig::default()
    }
}

/// Steps `w` `steps` times, recording every event with its absolute time, and the largest
/// speed of `who` after any step.
fn run(w: &mut World, who: Body, steps: usize) -> Run {
    let mut out = Run {
        events: Vec::new(),
        max_speed: 0.0,
    };
    for _ in 0..steps {
        let t0 = w.time();
        for e in w.step() {
            let toi = match *e {
                Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Cell(_),
                    toi,
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Wall(_),
                    toi,
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Ball(_),
                    other: Target::Rect(_),
                    toi,
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Rect(_),
                    other: Target::Cell(_),
                    toi,
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Rect(_),
                    other: Target::Wall(_),
                    toi,
                    ..
                })
                | Event::Contact(Contact {
                    body: Body::Rect(_),
                    other: Target::Rect(_),
                    toi,
                    ..
                })
                | Event::IterationLimit { toi, .. }
                | Event::Squeezed { toi, .. } => toi,
                _ => 0.0,
            };
            out.events.push((t0 + toi, *e));
        }
        let speed = match who {
            Body::Ball(b) => w.ball(b).map(|b| b.vel.length()),
            Body::Rect(r) => w.rect(r).map(|r| r.vel.length()),
            Body::Character(c) => w.character(c).map(|c| c.vel.length()),
        };
        out.max_speed = out.max_speed.max(speed.unwrap_or(0.0));
    }
    out
}

/// The world of the examples: 200 × 100, closed walls, a kinematic paddle [40, 50] × [20, 80]
/// moving left at 10 units/s.
fn paddle_world(restitution: Real) -> (World, collide_world::RectId) {
    let mut w = World::new(
        Vec2::new(200.0, 100.0),
        Walls::ALL,
        config(0.1, restitution),
    )
    .unwrap();
    let paddle = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(40.0, 20.0), Vec2::new(50.0, 80.0)),
            vel: Vec2::new(-10.0, 0.0),
            kind: RectKind::Kinematic,
            density: 1.0,
            surface: Surface::DEFAULT,
        })
        .unwrap();
    (w, paddle)
}

fn close(a: Real, b: Real) -> bool {
    (a - b).abs() <= 1e-9 * (1.0 + b.abs())
}

/// A ball of radius 5 at rest at x = 20 (room 15 on each side, diameter 10). Worked out by
/// hand: the paddle's face (x = 40 − 10t) meets the ball's right side (25) at t = 1.5, the
/// ball leaves at −20 (twice the paddle's speed); it meets the wall (centre at 5) at 2.25 and
/// comes back at +20, the paddle's face then at 17.5; they meet at t = 2.5 with the centre
/// at 10: the room to the wall is 5, less than the diameter, so the ball moves with the
/// paddle (−10) instead of bouncing off at −40. Both reach the wall at t = 3: crushed. The
/// next step pushes it out beside the paddle (to its right, the nearest free place), from
/// where it moves on at −10 and never overlaps anything again.
#[test]
fn a_ball_crushed_by_a_paddle_is_carried_then_crushed_at_the_computed_times() {
    let (mut w, paddle) = paddle_world(1.0);
    let ball = w
        .add_ball(BallDesc {
            pos: Vec2::new(20.0, 50.0),
            vel: Vec2::ZERO,
            radius: 5.0,
            density: 1.0,
            surface: Surface::DEFAULT,
            gravity_scale: 1.0,
        })
        .unwrap();
    let r = run(&mut w, Body::Ball(ball), 40);
    let kinds: Vec<(&str, Real)> = r.events.iter().map(|(t, e)| (e.kind(), *t)).collect();
    let expect = [
        ("ball_rect", 1.5),
        ("ball_wall", 2.25),
        ("ball_rect", 2.5),
        ("squeezed", 3.0),
    ];
    assert!(kinds.len() >= 5, "{kinds:?}");
    for (got, want) in kinds.iter().zip(expect) {
        assert_eq!(got.0, want.0, "{kinds:?}");
        assert!(close(got.1, want.1), "{kinds:?}");
    }
    assert_eq!(kinds[4].0, "unembedded", "{:?}", r.events);
    assert!(
        !kinds
            .iter()
            .any(|k| k.0 == "iteration_limit" || k.0 == "squeezed" && k.1 > 3.5),
        "{kinds:?}"
    );
    let Event::Squeezed {
        body, rect, normal, ..
    } = r.events[3].1
    else {
        unreachable!()
    };
    assert_eq!(
        (body, rect, normal),
        (Body::Ball(ball), paddle, Vec2::NEG_X)
    );
    // Never faster than (1 + e)·|u| = 20.
    assert!(r.max_speed <= 20.0 * (1.0 + 1e-12), "{}", r.max_speed);
    // Pushed out to the right of the paddle, moving with it.
    let Event::Unembedded { to, .. } = r.events[4].1 else {
        unreachable!()
    };
    let p = w.rect(paddle).unwrap();
    assert!(close(to.y, 50.0), "{to}");
    assert!(to.x >= 5.0 + 10.0 + 5.0 - 1e-9, "{to}");
    let b = w.ball(ball).unwrap();
    assert!(close(b.vel.x, -10.0) && b.vel.y == 0.0, "{}", b.vel);
    assert!(b.pos.x - 5.0 >= p.aabb.max.x - 1e-9 || b.pos.x + 5.0 <= p.aabb.min.x + 1e-9);
}

/// A dynamic box 10 wide in the same place: the same times (its extent along the normal is
/// its width).
#[test]
fn a_box_crushed_by_a_paddle_is_carried_then_crushed_at_the_computed_times() {
    let (mut w, _) = paddle_world(1.0);
    let id = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(15.0, 45.0), Vec2::new(25.0, 55.0)),
            vel: Vec2::ZERO,
            kind: RectKind::Dynamic,
            density: 1.0,
            surface: Surface::DEFAULT,
        })
        .unwrap();
    let r = run(&mut w, Body::Rect(id), 30);
    let kinds: Vec<(&str, Real)> = r.events.iter().map(|(t, e)| (e.kind(), *t)).collect();
    let expect = [
        ("rect_rect", 1.5),
        ("rect_wall", 2.25),
        ("rect_rect", 2.5),
        ("squeezed", 3.0),
        ("unembedded", 3.1),
    ];
    for (got, want) in kinds.iter().zip(expect) {
        assert_eq!(got.0, want.0, "{kinds:?}");
    }
    for (got, want) in kinds.iter().zip(expect).take(4) {
        assert!(close(got.1, want.1), "{kinds:?}");
    }
    assert!(r.max_speed <= 20.0 * (1.0 + 1e-12), "{}", r.max_speed);
    assert!(!kinds.iter().any(|k| k.0 == "iteration_limit"), "{kinds:?}");
}

/// With room of at least its size the bounce is the exact elastic one: a ball far from the
/// wall (room 60, diameter 10) leaves the paddle at twice its speed, as without the rule.
#[test]
fn with_room_a_paddle_bounces_a_ball_exactly() {
    let mut w = World::new(Vec2::new(400.0, 100.0), Walls::ALL, config(0.1, 1.0)).unwrap();
    w.add_rect(RectDesc {
        aabb: Aabb::new(Vec2::new(100.0, 20.0), Vec2::new(110.0, 80.0)),
        vel: Vec2::new(-10.0, 0.0),
        kind: RectKind::Kinematic,
        density: 1.0,
        surface: Surface::DEFAULT,
    })
    .unwrap();
    let ball = w
        .add_ball(BallDesc {
            pos: Vec2::new(70.0, 50.0),
            vel: Vec2::new(0.0, 3.0),
            radius: 5.0,
            density: 1.0,
            surface: Surface::DEFAULT,
            gravity_scale: 1.0,
        })
        .unwrap();
    // Contact at t = 2.5 (face at 75); 30 steps = 3 s.
    let r = run(&mut w, Body::Ball(ball), 30);
    assert_eq!(r.events.len(), 1, "{:?}", r.events);
    assert!(close(r.events[0].0, 2.5));
    assert_eq!(w.ball(ball).unwrap().vel, Vec2::new(-20.0, 3.0));
}

/// A ball pushed by a paddle against a tile's convex corner is not crushed: it leaves the
/// corner upward while it moves with the paddle (the free direction), never faster than
/// `max(|v|, (1 + e)·|u|)`. Worked out by hand: the paddle (face at x = 40 − 10t) meets the
/// ball (centre (27, 46), radius 5) at t = 0.8; the corner (20, 50) is 2 units ahead
/// (the centre reaches (23, 46), normal (0.6, −0.8)), less than the diameter: carried at
/// (−10, 0), it meets the corner at t = 1.2. Its reflection (−2.8, −9.6) would move into
/// the paddle; the nearest velocity that moves away from neither is (−10, −9.6).
#[test]
fn a_ball_pushed_against_a_corner_slides_around_it() {
    let mut w = World::new(Vec2::new(200.0, 100.0), Walls::ALL, config(1.0 / 60.0, 1.0)).unwrap();
    // A block of tiles [0, 20] × [50, 100] (cells of 10): its top-right corner at (20, 50).
    let rows: Vec<&str> = (0..10)
        .map(|r| if r < 5 { "          " } else { "##        " })
        .collect();
    w.set_grid(Grid::from_rows(10.0, Vec2::ZERO, &rows).unwrap());
    let paddle = w
        .add_rect(RectDesc {
            aabb: Aabb::new(Vec2::new(40.0, 30.0), Vec2::new(50.0, 90.0)),
            vel: Vec2::new(-10.0, 0.0),
            kind: RectKind::Kinematic,
            density: 1.0,
            surface: Surface::DEFAULT,
        })
        .unwrap();
    let ball = w
        .add_ball(BallDesc {
            pos: Vec2::new(27.0, 46.0),
            vel: Vec2::ZERO,
            radius: 5.0,
            density: 1.0,
            surface: Surface::DEFAULT,
            gravity_scale: 1.0,
        })
        .unwrap();
    // 1.5 s.
    let r = run(&mut w, Body::Ball(ball), 90);
    let kinds: Vec<(&str, Real)> = r.events.iter().map(|(t, e)| (e.kind(), *t)).collect();
    assert_eq!(kinds.len(), 2, "{:?}", r.events);
    assert_eq!(kinds[0].0, "ball_rect");
    assert!(close(kinds[0].1, 0.8), "{kinds:?}");
    let Event::Contact(Contact {
        body: Body::Ball(_),
        other: Target::Cell(_),
        point,
        normal,
        ..
    }) = r.events[1].1
    else {
        panic!("{:?}", r.events)
    };
    assert!(close(kinds[1].1, 1.2), "{kinds:?}");
    assert!(close(normal.x, 0.6) && close(normal.y, -0.8), "{normal}");
    assert!(close(point.x, 20.0) && close(point.y, 50.0), "{point}");
    let b = w.ball(ball).unwrap();
    assert!(close(b.vel.x, -10.0) && close(b.vel.y, -9.6), "{}", b.vel);
    assert!(r.max_speed <= 20.0, "{}", r.max_speed);
    // Above the block, touching the paddle's face, overlapping nothing.
    let p = w.rect(paddle).unwrap();
    assert!(b.pos.y < 45.0, "{}", b.pos);
    assert!(close(b.pos.x + 5.0, p.aabb.min.x), "{} {:?}", b.pos, p.aabb);
    assert!(w.circle_is_free(b.pos, 5.0 - 1e-9, None));
}

/// The largest speed the rule allows (module docs): `(|v0·n| + 2|u|)·max(1, G/size)`
/// along the squeeze, plus the speed across it (unchanged by walls parallel to it).
fn speed_bound(v0n: Real, u: Real, room: Real, size: Real) -> Real {
    (v0n.abs() + 2.0 * u) * (room / size).max(1.0)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    /// Random squeezes of a ball between a closed wall and a kinematic rectangle, in each of
    /// the four directions: the step never reaches the event bound, the ball's speed stays
    /// within the bound, it is crushed exactly once, and the step after the crush leaves it
    /// free (overlapping nothing) and every step ends with finite values.
    #[test]
    fn random_ball_squeezes(
        radius in 0.5f64..20.0,
        room_ratio in 0.0f64..10.0,
        log_u in 0.0f64..3.0,
        v0n in -500.0f64..500.0,
        v0t in -50.0f64..50.0,
        e in 0.5f64..=1.0,
        dir in 0usize..4,
    ) {
        // Speeds from 1 to 1000 units/s, as many slow as fast.
        let u = 10f64.powf(log_u);
        // Built moving left toward the left wall, then rotated to `dir`.
        let size = 2.0 * radius;
        let room = room_ratio * size;
        let long = 20.0 * radius + 200.0;
        let world = Vec2::new(size + room + 4.0 * radius + 20.0, long);
        let ball_x = radius + room * 0.5;
        let face = size + room;
        let (rot, wsize): (fn(Vec2, Vec2) -> Vec2, Vec2) = match dir {
            0 => (|p, _| p, world),
            1 => (|p, s| Vec2::new(s.x - p.x, p.y), world),
            2 => (|p, _| Vec2::new(p.y, p.x), Vec2::new(world.y, world.x)),
            _ => (|p, s| Vec2::new(p.y, s.x - p.x), Vec2::new(world.y, world.x)),
        };
        let rot_v = |v: Vec2| rot(v, Vec2::ZERO) - rot(Vec2::ZERO, Vec2::ZERO);
        let mut w = World::new(wsize, Walls::ALL, config(1.0 / 60.0, e)).unwrap();
        // As long as the world: the ball cannot slip past it.
        let a = rot(Vec2::new(face, 0.0), world);
        let b = rot(Vec2::new(face + 10.0, long), world);
        let paddle = w.add_rect(RectDesc {
            aabb: Aabb::new(a.min(b), a.max(b)),
            vel: rot_v(Vec2::new(-u, 0.0)),
            kind: RectKind::Kinematic,
            density: 1.0,
            surface: Surface::DEFAULT,
        }).unwrap();
        let ball = w.add_ball(BallDesc {
            pos: rot(Vec2::new(ball_x, long * 0.5), world),
            vel: rot_v(Vec2::new(v0n, v0t)),
            radius,
            density: 1.0,
            surface: Surface::DEFAULT,
            gravity_scale: 1.0,
        }).unwrap();
        // Until the paddle has passed the wall, and one more step.
        let steps = ((face + 20.0) / u * 60.0).ceil() as usize + 2;
        let bound = speed_bound(v0n, u, room, size).hypot(v0t) * (1.0 + 1e-9);
        let mut crushed = 0;
        let mut after_crush = None;
        for s in 0..steps {
            let events = w.step().to_vec();
            prop_assert!(!events.iter().any(|e| matches!(e, Event::IterationLimit { .. })), "step {s}: {events:?}");
            crushed += events.iter().filter(|e| matches!(e, Event::Squeezed { .. })).count();
            let bl = w.ball(ball).unwrap();
            prop_assert!(bl.pos.is_finite() && bl.vel.is_finite());
            prop_assert!(bl.vel.length() <= bound, "step {s}: speed {} > {bound}", bl.vel.length());
            if crushed == 1 && after_crush.is_none() {
                after_crush = Some(s);
            } else if after_crush.is_some() && after_crush == s.checked_sub(1) {
                // The step after the crush pushed it out: it overlaps nothing now.
                let p = w.rect(paddle).unwrap();
                prop_assert!(!collide_world::collide_core::circle_overlaps_aabb(bl.pos, radius - 1e-7, &p.aabb));
                prop_assert!(w.circle_is_free(bl.pos, radius - 1e-7, Some(paddle)));
            }
        }
        prop_assert_eq!(crushed, 1);
    }
}
